# bus.sh: the target's bus, for qemu/run.sh (sourced): its option, what
# combines with it, an SD card's size, and the guest's words that go with
# the bus (its target spec and wait, the drivers its init loads, an SD
# card's mkfs without discards).
# Options (qemu/run.sh --help lists them with its own):
#   --target-bus BUS  the bus the target sits on (default nvme): ahci (a
#                     SATA disk, ide-hd, on the q35 machine's own AHCI or an
#                     ich9-ahci), usb (usb-storage, bulk-only, on a
#                     qemu-xhci), uas (usb-uas with a scsi-hd on a
#                     qemu-xhci), sd (an SD card, sd-card, on an sdhci-pci;
#                     its size must be a power of 2: 8G unless --target-size
#                     says), scsi (scsi-hd on a virtio-scsi-pci). Serial
#                     fsbench-target where the device takes one; the guest
#                     is told fsbench.target=serial:fsbench-target (sd:
#                     model:QEMU!, the card's CID name) and
#                     fsbench.target_wait=30 (USB, SCSI and SD disks appear
#                     after the modules load) unless --append sets them;
#                     on sd every mkfs is told not to discard
#                     (fsbench.mkfs_opts.ext4=-Enodiscard, xfs and btrfs
#                     -K, f2fs -t0: QEMU's card erases a discard 512 bytes
#                     at a time, past the guest's command timeout), and
#                     the fstrim phase is off (fsbench.fstrim=0).
#                     Not with --unplug-target-after-records (NVMe's root
#                     port)
# Inputs (qemu/run.sh's variables): here (qemu/), tbus (nvme unless set),
#   tsize and tsize_set (--target-size), unplug_after, append (the guest's
#   words).
# Gives: bus_opt OPT [ARG] (nargs: how many words it took, 0 when OPT is
#   not its own), bus_check (what combines; an SD card's size: tsize),
#   bus_words (append completed), bus_name (the bus as the console says it).
# Exit status: through ../image/lib.sh's die, 2 on misuse.

. "$here/../image/lib.sh"
prog=qemu

bus_opt() {
	nargs=0
	case $1 in
	--target-bus)
		case $2 in
		nvme|ahci|usb|uas|sd|scsi) ;;
		*) die $EX_USAGE "--target-bus '$2': nvme, ahci, usb, uas, sd or scsi" ;;
		esac
		tbus=$2 nargs=2 ;;
	*) return 1 ;;
	esac
}

# What combines with the bus (the faults, the throttle and the disk models
# sit in QEMU's block layer, under any device; the unplug needs NVMe on
# its root port), and an SD card's size (a power of 2).
bus_check() {
	if [ "$tbus" != nvme ] && [ "$unplug_after" != 0 ]; then
		die $EX_USAGE "--unplug-target-after-records: only with --target-bus nvme (the target on its hot-pluggable root port), not $tbus"
	fi
	[ "$tbus" = sd ] || return 0
	[ -n "$tsize_set" ] || tsize=8G
	_b=$(numfmt --from=iec "$tsize" 2>/dev/null) || die $EX_USAGE "--target-size '$tsize': not a size"
	[ "$_b" -gt 0 ] && [ $((_b & (_b - 1))) = 0 ] ||
		die $EX_USAGE "--target-bus sd: the SD card's size must be a power of 2 (QEMU's sd-card), not --target-size $tsize"
}

# The guest's target spec and wait, unless --append sets them.
bus_words() {
	if [ "$tbus" != nvme ]; then
		case " $append " in
		*" fsbench.target="*) ;;
		*) if [ "$tbus" = sd ]; then append="$append fsbench.target=model:QEMU!"
		   else append="$append fsbench.target=serial:fsbench-target"; fi ;;
		esac
		case " $append " in *" fsbench.target_wait="*) ;; *) append="$append fsbench.target_wait=30" ;; esac
	fi
	# The guest's init loads the drivers of the target's bus alone (the q35
	# machine's own AHCI is not the target's on another bus).
	case " $append " in
	*" fsbench_init.buses="*) ;;
	*) case $tbus in ahci) _ib=sata ;; usb|uas) _ib=usb ;; sd) _ib=mmc ;; *) _ib=$tbus ;; esac
	   append="$append fsbench_init.buses=$_ib" ;;
	esac
	# QEMU 7.2's sd-card erases a discarded range 512 bytes at a time in the
	# vCPU's thread: a mkfs's discard of the whole card outlasts the guest's
	# SDHCI command timeout (mmc0: Timeout waiting for hardware cmd interrupt;
	# mmc_erase: erase error -110) and the run hangs. On sd every mkfs is told
	# not to discard, unless --append sets its mkfs_opts; and the fstrim
	# phase (FITRIM: the same discards) is off, unless --append sets it.
	[ "$tbus" = sd ] || return 0
	for _kv in ext4=-Enodiscard xfs=-K btrfs=-K f2fs=-t0; do
		case " $append " in *" fsbench.mkfs_opts.${_kv%%=*}="*) ;; *) append="$append fsbench.mkfs_opts.$_kv" ;; esac
	done
	case " $append " in *" fsbench.fstrim="*) ;; *) append="$append fsbench.fstrim=0" ;; esac
}

bus_name() {
	case $tbus in nvme) echo NVMe ;; ahci) echo SATA on AHCI ;; usb) echo USB mass storage ;; uas) echo USB UAS ;; sd) echo SD card ;; scsi) echo virtio-scsi ;; esac
}

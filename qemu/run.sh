#!/bin/sh
# run.sh: boot a board's image in QEMU, run the suite, collect the results.
#
# Usage: qemu/run.sh --disk DISK.img [options]
#   --kernel PATH     a kernel of your own (a build tree, or a folder with a
#                     kernel image and lib/modules/VERSION): the image is
#                     built with it first (make image KERNEL=PATH, in
#                     $O/image/BOARD-kernel-N/; ROOTFS from the environment,
#                     default ext4) and booted; what the board needs that it
#                     lacks is said and nothing boots (exit 2). Not with --disk
#   --smp N           the guest's vCPUs (default QEMU_SMP, else: under KVM
#                     one per worker of the profile, at least BOARD_QEMU_SMP,
#                     at most the host's cores; under TCG BOARD_QEMU_SMP)
#   --mem MIB         the guest's memory (default QEMU_MEM, else: under KVM
#                     1024 + 256 a vCPU, at least BOARD_QEMU_MEM; under TCG
#                     BOARD_QEMU_MEM)
#   --disk IMG        the board's disk image (kernel, initramfs.cpio.gz and
#                     sizes-*.txt are taken from the same folder; vmlinux,
#                     when there, is booted instead of kernel: PVH entry, no
#                     decompression in the guest)
#   --profile NAME    fsbench.profile= on the kernel command line (seed, smoke)
#   --results DIR     this run's results folder (default
#                     $RESULTS/<date>-<board>-<profile>)
#   --timeout S       overall limit; QEMU is killed after S seconds
#                     (default: 900 for smoke, 43200 otherwise)
#   --stall S         QEMU is ended once it has used no processor time for
#                     S seconds (default 120; 0: never): a guest no vCPU
#                     runs and no timer wakes, which would wait for the
#                     timeout (qemu/watch.sh; results/MEASUREMENTS.md)
#   --stall-retries N  a guest ended as stalled (--stall) is booted again
#                     from a fresh copy of the disk, up to N times (default
#                     QEMU_STALL_RETRIES, else 0; not with --work, whose
#                     disk the stalled boot changed): the stalled boot's
#                     console and threads kept in RESULTS/stalled-K/, run.txt
#                     says so, and a line goes to the file QEMU_STALL_LOG
#                     names, when set (make check prints them at its end)
#   --accel A         auto (KVM if a probe guest runs, else TCG; the answer
#                     kept in $O/run/kvm-probe-BOARD.txt and reused while
#                     the host boot, /dev/kvm, QEMU and kernel are the
#                     same), kvm, tcg
#   --append WORDS    more kernel command line words (fsbench.fs=ext4 ...);
#                     fsbench.capacity=0 is added unless they set it: the
#                     launcher's target is a file of the size it asked for
#   --kill-after-records N   kill QEMU once N records are on the console
#                     (tests: a run cut short must keep its records)
#   --target-size S   size of the sparse target file (default BOARD_TARGET_SIZE)
#   --extra-disk FILE:SERIAL  one more NVMe disk (repeatable), backed by FILE
#                     itself (not copied), serial SERIAL; the target's serial
#                     is fsbench-target, the boot disk's (virtio) fsbench-boot
#   --uefi            boot the disk image itself through the board's firmware
#                     (BOARD_QEMU_FIRMWARE: UEFI's EFI/BOOT/BOOT*.EFI on the
#                     ESP; without BOARD_QEMU_FIRMWARE_VARS, U-Boot given
#                     with -bios: extlinux/extlinux.conf on the ESP);
#                     the settings go into the ESP's fsbench.conf of the work
#                     copy (profile, yes = 1, fsbench.KEY=VALUE of --append)
#   --criteria FILE   the verdict's criteria: FILE replaces criteria.conf on
#                     the ESP of the work copy (the guest runs the verdict
#                     after the run) and the host's verdict checks the
#                     collected records against it (default: the board's
#                     board/$BOARD/criteria.conf, which the image build puts
#                     on the ESP; none: no host verdict, and none on the ESP)
#   --quiet           do not show the console on the terminal (by default
#                     it is shown as it comes, without the record lines)
#   --target-fault blkdebug:FILE  the target's I/O goes through QEMU's
#                     blkdebug driver with the rules in FILE (e.g.
#                     [inject-error] event = "read_aio" iotype = "read"
#                     errno = "5" sector = "N" once = "off": EIO for every
#                     read that covers sector N); FILE is copied to the run
#   --target-throttle IOPS  the target serves at most IOPS I/O operations a
#                     second (QEMU block throttling, throttling.iops-total)
#   --throttle-at SECONDS:SPEC  SECONDS (a decimal fraction allowed) after
#                     the first `FSBENCH-SUSTAIN: start` line on the console
#                     (the runner's first sustained write, setting
#                     `sustain`, starts there), the target's throttle is
#                     set to SPEC through QMP (`block_set_io_throttle`):
#                     SPEC is iops=N (N I/O operations a second, whatever
#                     their size) or bps=N (N bytes a second), replacing
#                     --target-throttle's; the moment it was sent is
#                     printed (qemu: target throttle ...). QMP over named
#                     pipes, WORK/qmp.in and WORK/qmp.out (its answers in
#                     WORK/qmp.log)
#   --unplug-target-after-records N  the target sits on a hot-pluggable
#                     PCIe root port; once N records are on the console,
#                     `device_del` on QEMU's monitor removes it from the
#                     running guest (the boot disk with the log stays)
#   --target-model MODEL  the target is a disk model: nbdkit runs
#                     qemu/diskmodel.py over the target file (its socket
#                     WORK/target.sock, its messages WORK/nbdkit.log) and
#                     QEMU's NVMe target reads and writes it through QEMU's
#                     nbd driver. MODEL: cache[:SIZE] (a volatile write
#                     cache of SIZE, default 64M: what was not flushed is
#                     gone when QEMU or the plugin is killed), lying[:S]
#                     (the same cache; flushes are acknowledged and not
#                     persisted once WORK/target.lie exists, or S seconds
#                     after the start), wrap:SIZE (the target's size is
#                     claimed, SIZE bytes are there: offset X is X % SIZE).
#                     nbdkit is killed when QEMU ends, or when the launcher
#                     is killed or interrupted
#   --lie-after-records N  with --target-model lying: WORK/target.lie is
#                     created once N records are on the console (from then
#                     on the target's flushes lie)
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
#   --target-zoned [ZONE_SIZE[,capacity=C][,max_open=N][,max_active=N]]
#                     the target's NVMe controller has two namespaces:
#                     nsid 1 conventional (the target file, --target-size)
#                     and nsid 2 zoned (QEMU's ZNS emulation, nvme-ns
#                     zoned=true, backed by WORK/zoned.img of --zoned-size):
#                     zones of ZONE_SIZE (default 64M, a power of 2), each
#                     holding C (default: ZONE_SIZE), at most N open and N
#                     active zones (default 0: no limit). The guest is told
#                     fsbench.target=wwn:WWID of the namespace
#                     --target-ns names and, for the zoned one,
#                     fsbench.zoned_conv=wwn:WWID of the conventional one
#                     (f2fs's metadata), unless --append sets them (WWID:
#                     nvme.1b36-SERIAL-MODEL-NSID, the serial and model in
#                     hex, as Linux gives it for QEMU's namespaces).
#                     NVMe bus only; not with --unplug-target-after-records
#                     or --throttle-at. QEMU keeps the zones' state in
#                     memory: every boot starts with them empty
#   --zoned-size S    the zoned namespace's size (default --target-size)
#   --target-ns NS    with --target-zoned, the run's target: zoned (the
#                     default) or conventional (the same controller's other
#                     namespace: the run to hold the zoned one against)
#   --keep            keep the work folder (disk copy, target file); its
#                     path is in run.txt ("work folder:")
#   --work DIR        the work folder is DIR (made if missing; kept
#                     afterwards): a disk.img and a target.img already in
#                     it are booted as they are, not made anew (the next
#                     boot of a power-cut campaign: the log partition and
#                     the target as the cut left them; qemu/powercut.sh)
#   --cut-after-line TEXT  a power cut: once a console line holds TEXT,
#                     wait --cut-delay seconds and kill QEMU (SIGKILL; with
#                     --target-model, its nbdkit too: its cache is gone)
#   --cut-delay S     seconds from that line to the cut (default 0)
#   --lie-lead S      with --target-model lying and --cut-after-line: the
#                     flushes lie from S seconds before the cut (default 1)
# Before it boots, the launcher says what the run will take here and how to
# get a short one (qemu/estimate.sh: earlier runs in $RESULTS, else
# qemu/figures.txt); while it runs, one overall progress line (filesystem n
# of N, round, phase, %, elapsed, time left): redrawn in place on a
# terminal, plain lines otherwise (qemu/watch.sh).
# Inputs (environment, exported by image/image.mk from board.mk): QEMU_SMP,
#   QEMU_MEM (as --smp, --mem); BOARD,
#   BOARD_QEMU, BOARD_QEMU_MACHINE, BOARD_QEMU_CPU_TCG, BOARD_QEMU_CPU_KVM,
#   BOARD_QEMU_SMP, BOARD_QEMU_MEM, BOARD_CONSOLE, BOARD_CMDLINE,
#   BOARD_TARGET_SIZE, BOARD_QEMU_PFLASH_SIZE (firmware flash size, copies
#   padded to it) (read from board/$BOARD/board.mk when not set); O (build
#   output, default out); RESULTS (where runs land, one folder each, and
#   where earlier runs are looked up for the estimate; default results);
#   FSBENCH_HOST (the host build of fsbench, default $O/host/fsbench).
# Outputs: the results folder: serial.log, records.jsonl and summary.txt
#   (from `fsbench log extract` of the disk's log partition), report.md
#   (`fsbench report`), run.txt (the figures of this run, also appended to
#   summary.txt), and with criteria verdict.txt (`fsbench verdict`) and
#   report.junit.xml. Work files go under $O/run/. The report is printed,
#   then the verdict's last line. Then, when the results folder is in
#   $RESULTS (the default), $RESULTS/index.html is rewritten: a row per run
#   there, each linking to its report (qemu/index.sh).
# Exit status: the runner's (exit_code of the run_end record); 4 when there
# is no run_end record (the guest crashed, hung or was killed: the console's
# last 15 lines are printed, they usually say why); 2 on misuse. The
# verdict does not change it: it is printed last (qemu: verdict: ...).
# The steps, one script each: kvm-probe.sh (the accelerator), esp.sh (UEFI:
# the settings on the ESP), estimate.sh, cmdline.sh (QEMU's argv), watch.sh
# (QEMU run and watched), collect.sh (the results).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
O=${O:-out}
RESULTS=${RESULTS:-results}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
BOARD=${BOARD:-qemu-x86_64}
export O RESULTS FSBENCH_HOST BOARD

. "$here/../image/lib.sh"
prog=qemu

# The arguments as given, quoted for eval: a stalled boot is booted again
# with them (--stall-retries).
orig=
for a; do orig="$orig '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done

disk= profile= results= timeout= stall=120 stall_retries=${QEMU_STALL_RETRIES:-0} accel=auto append= kill_after=0 quiet=0 keep=0 uefi=0 extra=
criteria=$here/../board/$BOARD/criteria.conf onesp=
throttle_at= throttle_spec= tfault= tthrottle= unplug_after=0 tbus=nvme tsize_set= kpath= tmodel= lie_after=0 workdir= cut_line= cut_delay=0 lie_lead=1
zoned= zsize= tns=
# The namespaces under --target-zoned: fixed UUIDs (QEMU's default is a
# new random one each boot), and the names the guest finds them by, their
# wwid as Linux 6.1 gives it for QEMU's controller: nvme.VID-SERIAL-MODEL-NSID
# (vendor 1b36, the serial and model in hex without their padding, the
# nsid in 8 hex digits; that kernel does not take QEMU's namespace UUIDs
# for the wwid).
ZUUID_CONV=5a0e4a5e-0000-4000-8000-000000000001
ZUUID_ZONED=5a0e4a5e-0000-4000-8000-000000000002
hex() { printf %s "$1" | od -An -tx1 | tr -d ' \n'; }
zwwid() { echo "nvme.1b36-$(hex fsbench-target)-$(hex 'QEMU NVMe Ctrl')-$(printf %08x "$1")"; }
smp=${QEMU_SMP:-} mem=${QEMU_MEM:-}
tsize=${BOARD_TARGET_SIZE:-10G}
while [ $# -gt 0 ]; do
	case $1 in
	--disk) disk=$2; shift ;;
	--kernel) kpath=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mem) mem=$2; shift ;;
	--profile) profile=$2; shift ;;
	--results) results=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--stall)
		case $2 in ''|*[!0-9]*) die $EX_USAGE "--stall S: whole seconds (0: never)" ;; esac
		stall=$2; shift ;;
	--stall-retries)
		case $2 in ''|*[!0-9]*) die $EX_USAGE "--stall-retries N: a whole number (0: none)" ;; esac
		stall_retries=$2; shift ;;
	--accel) accel=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--kill-after-records) kill_after=$2; shift ;;
	--work) workdir=$2; shift ;;
	--cut-after-line) cut_line=$2; shift ;;
	--cut-delay)
		case $2 in ''|*[!0-9.]*|*.*.*) die $EX_USAGE "--cut-delay $2: not a number of seconds" ;; esac
		cut_delay=$2; shift ;;
	--lie-lead)
		case $2 in ''|*[!0-9.]*|*.*.*) die $EX_USAGE "--lie-lead $2: not a number of seconds" ;; esac
		lie_lead=$2; shift ;;
	--target-size) tsize=$2 tsize_set=1; shift ;;
	--target-bus)
		case $2 in
		nvme|ahci|usb|uas|sd|scsi) ;;
		*) die $EX_USAGE "--target-bus '$2': nvme, ahci, usb, uas, sd or scsi" ;;
		esac
		tbus=$2; shift ;;
	--extra-disk)
		case $2 in *?:?*) ;; *) die $EX_USAGE "--extra-disk FILE:SERIAL" ;; esac
		[ -f "${2%:*}" ] || die $EX_USAGE "--extra-disk: no file ${2%:*}"
		extra="$extra $2"; shift ;;
	--criteria) criteria=$2 onesp=1; shift ;;
	--target-fault)
		case $2 in blkdebug:?*) ;; *) die $EX_USAGE "--target-fault blkdebug:FILE" ;; esac
		tfault=${2#blkdebug:}
		[ -f "$tfault" ] || die $EX_USAGE "--target-fault: no file $tfault"
		shift ;;
	--target-throttle)
		case $2 in ''|*[!0-9]*|0) die $EX_USAGE "--target-throttle IOPS: a number > 0" ;; esac
		tthrottle=$2; shift ;;
	--throttle-at)
		case ${2%%:*} in ''|*[!0-9.]*|*.*.*) die $EX_USAGE "--throttle-at '$2': SECONDS:iops=N or SECONDS:bps=N, SECONDS a number of seconds" ;; esac
		case ${2#*:} in
		iops=*[!0-9]*|bps=*[!0-9]*|iops=|bps=|iops=0|bps=0) die $EX_USAGE "--throttle-at '$2': N of iops=N or bps=N must be a whole number > 0" ;;
		iops=*|bps=*) ;;
		*) die $EX_USAGE "--throttle-at '$2': SECONDS:iops=N or SECONDS:bps=N" ;;
		esac
		throttle_at=${2%%:*} throttle_spec=${2#*:}; shift ;;
	--unplug-target-after-records)
		case $2 in ''|*[!0-9]*|0) die $EX_USAGE "--unplug-target-after-records N: a number > 0" ;; esac
		unplug_after=$2; shift ;;
	--target-model)
		case $2 in
		cache|cache:?*|lying|lying:?*|wrap:?*) ;;
		*) die $EX_USAGE "--target-model '$2': cache[:SIZE], lying[:SECONDS] or wrap:SIZE" ;;
		esac
		case $2 in lying:*[!0-9]*) die $EX_USAGE "--target-model '$2': lying:SECONDS, a number of seconds" ;; esac
		tmodel=$2; shift ;;
	--lie-after-records)
		case $2 in ''|*[!0-9]*|0) die $EX_USAGE "--lie-after-records N: a number > 0" ;; esac
		lie_after=$2; shift ;;
	--target-zoned)
		zoned=64M
		case ${2:-} in [0-9]*) zoned=$2; shift ;; esac ;;
	--zoned-size) zsize=$2; shift ;;
	--target-ns)
		case $2 in zoned|conventional) ;; *) die $EX_USAGE "--target-ns '$2': zoned or conventional" ;; esac
		tns=$2; shift ;;
	--quiet) quiet=1 ;;
	--uefi) uefi=1 ;;
	--keep) keep=1 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//; /^set -eu/d'; exit 0 ;;
	*) die $EX_USAGE "unknown option '$1' (--help lists them)" ;;
	esac
	shift
done
case $lie_after:$tmodel in
0:*|*:lying|*:lying:*) ;;
*) die $EX_USAGE "--lie-after-records: only with --target-model lying" ;;
esac
# The target's bus: what combines with it (the faults, the throttle and
# the disk models sit in QEMU's block layer, under any device; the unplug
# needs NVMe on its root port), an SD card's size (a power of 2), and the
# guest's target spec and wait.
if [ "$tbus" != nvme ] && [ "$unplug_after" != 0 ]; then
	die $EX_USAGE "--unplug-target-after-records: only with --target-bus nvme (the target on its hot-pluggable root port), not $tbus"
fi
# --target-zoned: the nvme-ns properties of the zoned namespace, and the
# guest's target (and zoned_conv) by the namespaces' UUIDs.
tzoned=
if [ -n "$zoned" ]; then
	[ "$tbus" = nvme ] || die $EX_USAGE "--target-zoned: only with --target-bus nvme (QEMU emulates zoned NVMe namespaces), not $tbus"
	[ "$unplug_after" = 0 ] || die $EX_USAGE "--target-zoned: not with --unplug-target-after-records"
	[ -z "$throttle_at" ] || die $EX_USAGE "--target-zoned: not with --throttle-at"
	zs=${zoned%%,*}
	b=$(numfmt --from=iec "$zs" 2>/dev/null) || die $EX_USAGE "--target-zoned '$zoned': $zs is not a size"
	[ "$b" -ge 1048576 ] && [ $((b & (b - 1))) = 0 ] ||
		die $EX_USAGE "--target-zoned '$zoned': the zone size must be a power of 2 of at least 1M (Linux), not $zs"
	tzoned="zoned=true,zoned.zone_size=$zs"
	rest=${zoned#"$zs"}
	IFS=,
	for kv in ${rest#,}; do
		case $kv in
		capacity=?*)
			c=$(numfmt --from=iec "${kv#*=}" 2>/dev/null) && [ "$c" -gt 0 ] && [ "$c" -le "$b" ] ||
				{ unset IFS; die $EX_USAGE "--target-zoned: capacity=${kv#*=}: a size of at most the zone size $zs"; }
			tzoned="$tzoned,zoned.zone_capacity=${kv#*=}" ;;
		max_open=*|max_active=*)
			case ${kv#*=} in ''|*[!0-9]*) unset IFS; die $EX_USAGE "--target-zoned: $kv: a whole number (0: no limit)" ;; esac
			tzoned="$tzoned,zoned.${kv%%=*}=${kv#*=}" ;;
		*) unset IFS; die $EX_USAGE "--target-zoned '$zoned': ZONE_SIZE[,capacity=C][,max_open=N][,max_active=N]" ;;
		esac
	done
	unset IFS
	[ -n "$zsize" ] || zsize=$tsize
	numfmt --from=iec "$zsize" >/dev/null 2>&1 || die $EX_USAGE "--zoned-size '$zsize': not a size"
	[ $(( $(numfmt --from=iec "$zsize") % b )) = 0 ] ||
		die $EX_USAGE "--zoned-size $zsize: not a whole number of zones of $zs"
	case " $append " in
	*" fsbench.target="*) ;;
	*) if [ "${tns:-zoned}" = zoned ]; then append="$append fsbench.target=wwn:$(zwwid 2)"
	   else append="$append fsbench.target=wwn:$(zwwid 1)"; fi ;;
	esac
	if [ "${tns:-zoned}" = zoned ]; then
		case " $append " in *" fsbench.zoned_conv="*) ;; *) append="$append fsbench.zoned_conv=wwn:$(zwwid 1)" ;; esac
	fi
elif [ -n "$zsize$tns" ]; then
	die $EX_USAGE "--zoned-size, --target-ns: only with --target-zoned"
fi
if [ "$tbus" = sd ]; then
	[ -n "$tsize_set" ] || tsize=8G
	b=$(numfmt --from=iec "$tsize" 2>/dev/null) || die $EX_USAGE "--target-size '$tsize': not a size"
	[ "$b" -gt 0 ] && [ $((b & (b - 1))) = 0 ] ||
		die $EX_USAGE "--target-bus sd: the SD card's size must be a power of 2 (QEMU's sd-card), not --target-size $tsize"
fi
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
*) case $tbus in ahci) ib=sata ;; usb|uas) ib=usb ;; sd) ib=mmc ;; *) ib=$tbus ;; esac
   append="$append fsbench_init.buses=$ib" ;;
esac
# QEMU 7.2's sd-card erases a discarded range 512 bytes at a time in the
# vCPU's thread: a mkfs's discard of the whole card outlasts the guest's
# SDHCI command timeout (mmc0: Timeout waiting for hardware cmd interrupt;
# mmc_erase: erase error -110) and the run hangs. On sd every mkfs is told
# not to discard, unless --append sets its mkfs_opts; and the fstrim
# phase (FITRIM: the same discards) is off, unless --append sets it.
if [ "$tbus" = sd ]; then
	for kv in ext4=-Enodiscard xfs=-K btrfs=-K f2fs=-t0; do
		case " $append " in *" fsbench.mkfs_opts.${kv%%=*}="*) ;; *) append="$append fsbench.mkfs_opts.$kv" ;; esac
	done
	case " $append " in *" fsbench.fstrim="*) ;; *) append="$append fsbench.fstrim=0" ;; esac
fi
for v in "$smp" "$mem"; do
	case $v in ''|*[!0-9]*|0) [ -z "$v" ] || die $EX_USAGE "--smp, --mem, QEMU_SMP, QEMU_MEM: a number > 0, not '$v'" ;; esac
done
if [ -n "$kpath" ]; then
	[ -z "$disk" ] || die $EX_USAGE "--kernel PATH builds its own disk image: not with --disk"
	[ -d "$kpath" ] || die $EX_USAGE "--kernel: no folder $kpath"
	say "image with the kernel $kpath (make image KERNEL=$kpath)"
	top=$here/..
	Oabs=$(mkdir -p "$O" && cd "$O" && pwd)
	kabs=$(cd "$kpath" && pwd)
	make -s --no-print-directory -C "$top" image BOARD="$BOARD" O="$Oabs" KERNEL="$kabs" \
		ROOTFS="${ROOTFS:-ext4}" >"$Oabs/kernel-image.log" 2>&1 || {
		grep -v '^make' "$Oabs/kernel-image.log" | tail -n 20 >&2
		die $EX_USAGE "--kernel $kpath: no image (above: what is missing; the whole log in $Oabs/kernel-image.log)"
	}
	disk=$(sed -n 's/^image: //p' "$Oabs/kernel-image.log" | tail -n 1)
	[ -f "$disk" ] || die $EX_SYSTEM "--kernel $kpath: the build said no image path ($Oabs/kernel-image.log)"
fi
[ -n "$disk" ] || die $EX_USAGE "--disk IMG is required"
[ -f "$disk" ] || die $EX_USAGE "no disk image $disk (make image)"
if [ -z "${BOARD_QEMU:-}" ]; then
	bmk=$here/../board/$BOARD/board.mk
	[ -f "$bmk" ] || die $EX_USAGE "no board $BOARD ($bmk)"
	eval "$(sh "$here/../image/boardenv.sh" "$bmk")"
fi
case $accel in auto|kvm|tcg) ;; *) die $EX_USAGE "--accel: auto, kvm or tcg" ;; esac
if [ "$criteria" = none ]; then
	criteria=
elif [ ! -f "$criteria" ]; then
	[ -z "$onesp" ] || die $EX_USAGE "--criteria: no file $criteria"
	criteria=	# a board without criteria.conf
fi
[ -z "$criteria" ] || criteria=$(cd "$(dirname "$criteria")" && pwd)/$(basename "$criteria")
imgdir=$(cd "$(dirname "$disk")" && pwd)
rootfs=$(basename "$disk" .img)
rootfs=${rootfs#disk-}
[ -n "$timeout" ] || case $profile in smoke) timeout=900 ;; *) timeout=43200 ;; esac
stamp=$(date +%Y%m%d-%H%M%S)
[ -n "$results" ] || results=$RESULTS/$stamp-$BOARD-${profile:-default}
mkdir -p "$results" "$O/run"
results=$(cd "$results" && pwd)
if [ -n "$workdir" ]; then
	mkdir -p "$workdir" || die $EX_USAGE "--work $workdir: cannot make the folder"
	work=$(cd "$workdir" && pwd)
	keep=1
else
	work=$(mktemp -d "$O/run/$BOARD.XXXXXX")
	work=$(cd "$work" && pwd)
fi
npid=
# The disk model's nbdkit never outlives the run. stop_model SIG: SIGTERM
# once QEMU has ended (the plugin persists nothing on its way out: what
# QEMU did not flush is gone either way; 5 s, then SIGKILL), SIGKILL when
# the launcher itself is interrupted.
stop_model() {
	[ -n "$npid" ] || return 0
	kill -"$1" "$npid" 2>/dev/null || true
	_n=0
	while kill -0 "$npid" 2>/dev/null && [ "$_n" -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
	kill -KILL "$npid" 2>/dev/null || true
	wait "$npid" 2>/dev/null || true
	npid=
}
cleanup() { stop_model KILL; [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- accelerator: KVM only when a guest really runs ------------------------
why=
case $accel in
auto) if why=$(sh "$here/kvm-probe.sh" "$imgdir/kernel" "$work" "$O/run/kvm-probe-$BOARD.txt"); then accel=kvm; else accel=tcg; fi ;;
*) why="asked for" ;;
esac
if [ "$accel" = kvm ]; then cpu=$BOARD_QEMU_CPU_KVM; else cpu=$BOARD_QEMU_CPU_TCG; fi
accel_text="$(echo "$accel" | tr a-z A-Z)${why:+ ($why)}"
say "accelerator: $accel_text"

kernel=$imgdir/kernel
[ ! -f "$imgdir/vmlinux" ] || kernel=$imgdir/vmlinux

# --- disks: a work copy of the image, a sparse target ------------------
if [ -n "$workdir" ] && [ -f "$work/disk.img" ]; then
	say "disk: $work/disk.img as the last boot left it (--work)"
else
	cp --sparse=always "$disk" "$work/disk.img"
fi
if [ -n "$workdir" ] && [ -f "$work/target.img" ]; then
	say "target: $work/target.img as the last boot left it (--work)"
else
	truncate -s "$tsize" "$work/target.img"
fi
if [ -n "$tzoned" ] && ! { [ -n "$workdir" ] && [ -f "$work/zoned.img" ]; }; then
	truncate -s "$zsize" "$work/zoned.img"
fi
tcache=none
# O_DIRECT probed by a read: a write would clear the start of a target
# an earlier boot left (--work)
if ! dd if="$work/target.img" of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null; then
	tcache=writeback
	say "O_DIRECT not supported under $O: target opened with cache=writeback"
fi

# --- the target's disk model (--target-model): nbdkit over the file -------
tsock= tmodel_text=
if [ -n "$tmodel" ]; then
	command -v nbdkit >/dev/null 2>&1 ||
		die $EX_SYSTEM "--target-model: no nbdkit (sh image/deps.sh image installs nbdkit and nbdkit-plugin-python)"
	tsock=$work/target.sock
	rm -f "$tsock"	# a cut nbdkit (--work) leaves its socket behind
	[ "${#tsock}" -le 100 ] ||
		die $EX_USAGE "--target-model: the socket path $tsock is too long for a unix socket (a shorter O)"
	set -- file="$work/target.img" model="$tmodel"
	# the lie fires in this boot or not at all (--work keeps the folder)
	rm -f "$work/target.lie"
	case $tmodel in lying|lying:*) set -- "$@" trigger="$work/target.lie" ;; esac
	# Foreground, so $! is nbdkit itself; --exit-with-parent: gone with the
	# launcher even when the launcher is killed outright.
	nbdkit --foreground --exit-with-parent --unix "$tsock" \
		python "$here/diskmodel.py" "$@" >"$work/nbdkit.log" 2>&1 </dev/null &
	npid=$!
	echo "$npid" >"$work/nbdkit.pid"
	n=0
	while [ ! -S "$tsock" ]; do
		if ! kill -0 "$npid" 2>/dev/null || [ "$n" -ge 100 ]; then
			sed 's/^/  /' "$work/nbdkit.log" >&2
			stop_model KILL
			die $EX_SYSTEM "--target-model $tmodel: nbdkit did not start (above: what it said)"
		fi
		sleep 0.1
		n=$((n + 1))
	done
	case $tmodel in
	cache) tmodel_text="cache (volatile write cache of 64M: only flushed writes survive a kill)" ;;
	cache:*) tmodel_text="$tmodel (volatile write cache of ${tmodel#cache:}: only flushed writes survive a kill)" ;;
	lying:*) tmodel_text="$tmodel (write cache whose flushes lie from ${tmodel#lying:} s after the start)" ;;
	lying) tmodel_text="lying (write cache whose flushes lie once $work/target.lie exists)" ;;
	wrap:*) tmodel_text="$tmodel ($tsize claimed, ${tmodel#wrap:} there: offsets wrap around)" ;;
	esac
	tmodel_text="$tmodel_text, nbdkit pid $npid on $tsock, qemu/diskmodel.py"
fi

# --- the verdict's criteria on the ESP (--criteria) ---------------------
if [ -n "$onesp" ]; then
	sh "$here/esp.sh" --criteria "$work/disk.img" $criteria
fi

# --- the capacity check: off on the launcher's own target --------------
# The target is the sparse file made above: its size is what the launcher
# asked for, so the check (on by default on hardware, ~4 s a boot under
# TCG) is off unless asked for (fsbench.capacity=1, as with a wrap model).
case " $append " in
*" fsbench.capacity="*) ;;
*) append="$append fsbench.capacity=0" ;;
esac

# --- settings: the ESP's fsbench.conf (UEFI) or the board's ------------
if [ "$uefi" = 1 ]; then
	[ -f "${BOARD_QEMU_FIRMWARE:-}" ] || die $EX_USAGE "--uefi: no firmware ${BOARD_QEMU_FIRMWARE:-} (BOARD_QEMU_FIRMWARE)"
	conf=$work/fsbench.conf
	sh "$here/esp.sh" "$work/disk.img" "$conf" ${profile:+--profile "$profile"} $append
	if [ -n "${BOARD_QEMU_FIRMWARE_VARS:-}" ]; then
		boot="UEFI firmware ($BOARD_QEMU_FIRMWARE)"
	else
		boot="firmware ($BOARD_QEMU_FIRMWARE, -bios: the disk's extlinux.conf)"
	fi
else
	conf=$here/../board/$BOARD/fsbench.conf
	boot="direct kernel boot ($(basename "$kernel"))"
fi
if [ -f "$imgdir/kernel-src.txt" ]; then
	boot="$boot, kernel $(sed -n 's/^kernel //p' "$imgdir/kernel-src.txt") from $(sed -n 's/^image //p' "$imgdir/kernel-src.txt")"
fi

# --- what it will take -------------------------------------------------
ACCEL=$accel PROFILE=$profile CONF=$conf SETTINGS=$append \
	sh "$here/estimate.sh" "$work/plan" | sed 's/^/qemu: /'

# --- QEMU --------------------------------------------------------------
# The profile's workers, as the guest's runner resolves them (the guest's
# vCPUs under KVM follow them: cmdline.sh).
workers=
if [ -x "$FSBENCH_HOST" ]; then
	set -- config --get workers
	[ ! -f "$conf" ] || set -- "$@" --config "$conf"
	[ -z "$profile" ] || set -- "$@" --profile "$profile"
	for w in $append; do
		case $w in fsbench.profile=*) ;; fsbench.*=*) set -- "$@" "--${w#fsbench.}" ;; esac
	done
	workers=$("$FSBENCH_HOST" "$@" 2>/dev/null) || workers=
fi
serial=$results/serial.log
: >"$serial"
if [ -n "$tfault" ]; then
	cp "$tfault" "$work/blkdebug.conf"
	tfault=$work/blkdebug.conf
fi
tunplug=0
[ "$unplug_after" = 0 ] || tunplug=1
tqmp=0
[ -z "$throttle_at" ] || tqmp=1
TZONED=$tzoned ZUUID_CONV=$ZUUID_CONV ZUUID_ZONED=$ZUUID_ZONED TQMP=$tqmp TBUS=$tbus TFAULT=$tfault TTHROTTLE=$tthrottle TUNPLUG=$tunplug TSOCK=$tsock \
	WORK=$work ACCEL=$accel CPU=$cpu SERIAL=$serial UEFI=$uefi KERNEL=$kernel \
	INITRD=$imgdir/initramfs.cpio.gz ROOTFS=$rootfs PROFILE=$profile \
	APPEND=$append TCACHE=$tcache EXTRA=$extra WORKERS=$workers SMP=$smp MEM=$mem \
	sh "$here/cmdline.sh" "$work/qemu.argv"
guest=$(cat "$work/qemu.argv.guest")
set --
while IFS= read -r a; do set -- "$@" "$a"; done <"$work/qemu.argv"
say "boot $BOARD ($([ "$uefi" = 1 ] && echo "${BOARD_QEMU_FIRMWARE_VARS:+UEFI }firmware, disk image" || echo "direct kernel boot")), rootfs $rootfs, profile ${profile:-from fsbench.conf}, target $tsize $(case $tbus in nvme) echo NVMe ;; ahci) echo SATA on AHCI ;; usb) echo USB mass storage ;; uas) echo USB UAS ;; sd) echo SD card ;; scsi) echo virtio-scsi ;; esac) (cache=$tcache), timeout ${timeout}s"
say "guest: $guest"
say "console: $serial"
[ -z "$tfault" ] || say "target fault: QEMU blkdebug rules $tfault"
[ -z "$tmodel" ] || say "target model: $tmodel_text"
[ -z "$tthrottle" ] || say "target throttled: at most $tthrottle I/O operations a second"
[ "$unplug_after" = 0 ] || say "target on a hot-pluggable root port: device_del after $unplug_after records"
[ -z "$tzoned" ] || say "target: one NVMe controller, nsid 1 conventional ($tsize, uuid $ZUUID_CONV), nsid 2 zoned ($zsize, $tzoned, uuid $ZUUID_ZONED); the run's target: the ${tns:-zoned} namespace"
[ -z "$throttle_at" ] || say "target throttle: $throttle_spec from $throttle_at s after the first FSBENCH-SUSTAIN: start line (QMP)"

# --- run and watch -----------------------------------------------------
set -- --serial "$serial" --work "$work" --timeout "$timeout" --stall "$stall" \
	--kill-after-records "$kill_after" --plan "$work/plan" -- "$@"
if [ -n "$cut_line" ]; then
	set -- --cut-after-line "$cut_line" --cut-delay "$cut_delay" "$@"
	case $tmodel in lying) set -- --lie-file "$work/target.lie" --lie-lead "$lie_lead" "$@" ;; esac
fi
[ "$unplug_after" = 0 ] ||
	set -- --monitor "$work/monitor" --unplug-after-records "$unplug_after" "$@"
[ "$lie_after" = 0 ] || set -- --lie-after-records "$lie_after" "$@"
[ -z "$throttle_at" ] ||
	set -- --qmp "$work/qmp" --throttle-after-line 'FSBENCH-SUSTAIN: start' \
		--throttle-delay "$throttle_at" --throttle-spec "$throttle_spec" "$@"
[ "$quiet" = 0 ] || set -- --quiet "$@"
sh "$here/watch.sh" "$@"
# QEMU has ended: what it did not flush is gone. After a power cut the
# model goes as abruptly.
if grep -q "^why_end='power cut" "$work/watch.txt" 2>/dev/null; then stop_model KILL; else stop_model TERM; fi
[ -z "$tmodel" ] || cp "$work/nbdkit.log" "$results/diskmodel.log"
[ "$quiet" = 1 ] || echo

# --- a stalled guest, booted again (--stall-retries) ---------------------
# QEMU 7.2's TCG now and then loses a wake-up: no vCPU runs and no timer
# is armed, for good (results/MEASUREMENTS.md). The run is not the disk's
# or the runner's: with retries left, the stalled boot's console, end and
# threads go to RESULTS/stalled-K/ and the launcher starts again with the
# same arguments on a fresh copy of the disk.
why=$(sed -n "s/^why_end='\(.*\)'\$/\1/p" "$work/watch.txt" 2>/dev/null)
case $why in
stalled:*)
	if [ "$stall_retries" -gt 0 ] && [ -z "$workdir" ]; then
		k=$((${QEMU_STALL_ATTEMPT:-0} + 1))
		mkdir -p "$results/stalled-$k"
		mv "$serial" "$results/stalled-$k/serial.log"
		for f in watch.txt stall.txt qemu.err; do
			[ ! -f "$work/$f" ] || cp "$work/$f" "$results/stalled-$k/$f"
		done
		say "booting again from a fresh copy of the disk (stalled boot $k: its console and threads in $results/stalled-$k/; $((stall_retries - 1)) more retries)"
		[ -z "${QEMU_STALL_LOG:-}" ] ||
			echo "$(date '+%Y-%m-%d %H:%M:%S') $BOARD $results: $why; booted again" >>"$QEMU_STALL_LOG"
		trap - EXIT
		cleanup
		eval "set -- $orig"
		QEMU_STALL_ATTEMPT=$k exec sh "$here/run.sh" "$@" --results "$results" --stall-retries $((stall_retries - 1))
	fi
	;;
esac

# --- results -----------------------------------------------------------
rc=0
STALLED=${QEMU_STALL_ATTEMPT:-0} TMODEL=$tmodel_text CRITERIA=$criteria PROFILE=$profile ROOTFS=$rootfs BOOT=$boot ACCEL_TEXT=$accel_text KEEP=$keep GUEST=$guest \
	SIZES=$imgdir/sizes-$rootfs.txt sh "$here/collect.sh" "$results" "$work" || rc=$?
exit $rc

#!/bin/sh
# cmdline.sh: the QEMU command line of a run.
# Usage: qemu/cmdline.sh OUT
# Inputs (environment): BOARD_QEMU, BOARD_QEMU_MACHINE, BOARD_QEMU_SMP,
#   BOARD_QEMU_MEM, BOARD_CONSOLE, BOARD_CMDLINE, BOARD_QEMU_FIRMWARE,
#   BOARD_QEMU_FIRMWARE_VARS, BOARD_QEMU_PFLASH_SIZE (from board.mk);
#   WORKERS (the profile's workers), HOST_CPUS (the host's cores, default
#   nproc), SMP and MEM (vCPUs and MiB asked for: QEMU_SMP, QEMU_MEM);
#   WORK (the work folder: disk.img, target.img; firmware copies go there),
#   ACCEL (kvm, tcg), CPU, SERIAL (the console file; - for QEMU's stdio, as
#   a LAVA device runs it), UEFI (1: boot the disk
#   image through the firmware: pflash with BOARD_QEMU_FIRMWARE_VARS, else
#   -bios BOARD_QEMU_FIRMWARE, as U-Boot is loaded), KERNEL and INITRD (direct boot), ROOTFS,
#   PROFILE, APPEND (more kernel command line words), TCACHE (the target's
#   cache mode), EXTRA (FILE:SERIAL words: more NVMe disks, FILE itself);
#   faults of the target (tests/qemu/faults.sh): TFAULT (a blkdebug rules
#   file: QEMU's blkdebug driver between the target's raw format and its
#   file, failing the I/O the rules name), TTHROTTLE (a ceiling in I/O
#   operations per second, QEMU's block throttling), TUNPLUG (1: the target
#   sits on a hot-pluggable PCIe root port, device id fsbench-target, and
#   QEMU's human monitor reads WORK/monitor.in and writes WORK/monitor.out,
#   so `device_del fsbench-target` removes it from the running guest);
#   TSOCK (a unix socket: the target is the NBD export there, a disk model
#   of qemu/diskmodel.py over the target file, through QEMU's nbd driver);
#   TQMP (1: QMP, QEMU's machine protocol, reads WORK/qmp.in and writes
#   WORK/qmp.out, named pipes, and the target's NVMe device has the id
#   fsbench-target, so `block_set_io_throttle` changes its throttle in the
#   running guest: qemu/watch.sh --throttle-spec).
#   TBUS (the target's bus: nvme, the default; ahci: ide-hd on the q35
#   machine's own AHCI, elsewhere on an ich9-ahci; usb: usb-storage on a
#   qemu-xhci; uas: usb-uas on a qemu-xhci with its scsi-hd; sd: sd-card on
#   an sdhci-pci; scsi: scsi-hd on a virtio-scsi-pci), serial
#   fsbench-target wherever the device takes one (not sd-card).
#   TZONED (nvme only: the zoned namespace's nvme-ns properties,
#   zoned=true,zoned.zone_size=...): the target's controller (id
#   fsbench-ctrl, serial fsbench-target) gets two namespaces, nsid 1 the
#   target file (uuid ZUUID_CONV) and nsid 2 zoned over WORK/zoned.img
#   (uuid ZUUID_ZONED).
# The guest's size: SMP when given; else under KVM one vCPU per worker of
#   the profile (at least BOARD_QEMU_SMP), at most HOST_CPUS; under TCG
#   BOARD_QEMU_SMP (on a few host cores TCG vCPUs beyond those slow the
#   guest down: 16 on 2 cores made smoke's reads 8x slower). Memory: MEM
#   when given; else under KVM 1024 MiB + 256 MiB a vCPU, at least
#   BOARD_QEMU_MEM; under TCG BOARD_QEMU_MEM.
# Output: OUT, the argv, one argument a line (the first is QEMU); OUT.cmd,
#   the same on one line for people; OUT.guest, the guest's size and why
#   ("16 vCPUs, 5120 MiB (KVM: the profile's 16 workers; 256 host cores)"); WORK/efivars.fd (and WORK/efi-code.fd
#   with a fixed flash size) for UEFI; WORK/monitor.in and WORK/monitor.out
#   (named pipes) with TUNPLUG=1; WORK/qmp.in and WORK/qmp.out with TQMP=1.
set -eu
. "$(dirname "$0")/../image/lib.sh"
prog=qemu
out=${1:?usage: cmdline.sh OUT}

# --- the guest's size ---------------------------------------------------
num() { case $2 in ''|*[!0-9]*|0) die $EX_USAGE "$1 '$2': a number > 0" ;; esac; }
hcpus=${HOST_CPUS:-$(nproc)}
smp=$BOARD_QEMU_SMP mem=$BOARD_QEMU_MEM why=
if [ -n "${SMP:-}" ]; then
	num QEMU_SMP "$SMP"
	smp=$SMP why="QEMU_SMP"
elif [ "$ACCEL" = kvm ] && [ -n "${WORKERS:-}" ]; then
	num workers "$WORKERS"
	smp=$WORKERS
	[ "$smp" -ge "$BOARD_QEMU_SMP" ] || smp=$BOARD_QEMU_SMP
	[ "$smp" -le "$hcpus" ] || smp=$hcpus
	why="KVM: the profile's $WORKERS workers; $hcpus host cores"
else
	why="$(echo "$ACCEL" | tr a-z A-Z): the board's BOARD_QEMU_SMP"
fi
if [ -n "${MEM:-}" ]; then
	num QEMU_MEM "$MEM"
	mem=$MEM
elif [ "$ACCEL" = kvm ]; then
	mem=$((1024 + 256 * smp))
	[ "$mem" -ge "$BOARD_QEMU_MEM" ] || mem=$BOARD_QEMU_MEM
fi
vcpus="$smp vCPUs"
[ "$smp" != 1 ] || vcpus="1 vCPU"
echo "$vcpus, $mem MiB ($why)" >"$out.guest"

if [ "$SERIAL" = - ]; then con=stdio,id=con,signal=off; else con=file,id=con,path=$SERIAL; fi
set -- "$BOARD_QEMU" -machine "$BOARD_QEMU_MACHINE,accel=$ACCEL" -cpu "$CPU" \
	-smp "$smp" -m "$mem" -nodefaults -no-reboot \
	-display none -monitor none -chardev "$con" -serial chardev:con
if [ "${TUNPLUG:-0}" = 1 ]; then
	rm -f "$WORK/monitor.in" "$WORK/monitor.out"
	mkfifo "$WORK/monitor.in" "$WORK/monitor.out"
	set -- "$@" -chardev "pipe,id=mon,path=$WORK/monitor" -mon chardev=mon,mode=readline
fi
if [ "${TQMP:-0}" = 1 ]; then
	rm -f "$WORK/qmp.in" "$WORK/qmp.out"
	mkfifo "$WORK/qmp.in" "$WORK/qmp.out"
	set -- "$@" -chardev "pipe,id=qmp,path=$WORK/qmp" -mon chardev=qmp,mode=control
fi
if [ "${UEFI:-0}" = 1 ] && [ -z "${BOARD_QEMU_FIRMWARE_VARS:-}" ]; then
	# Firmware without a variable store (U-Boot): one image, -bios.
	set -- "$@" -bios "$BOARD_QEMU_FIRMWARE"
elif [ "${UEFI:-0}" = 1 ]; then
	cp "$BOARD_QEMU_FIRMWARE_VARS" "$WORK/efivars.fd"
	# Flash banks of a fixed size (arm64 virt: 64 MiB): pad copies.
	fwcode=$BOARD_QEMU_FIRMWARE
	if [ -n "${BOARD_QEMU_PFLASH_SIZE:-}" ]; then
		cp "$fwcode" "$WORK/efi-code.fd"
		fwcode=$WORK/efi-code.fd
		for f in "$fwcode" "$WORK/efivars.fd"; do
			[ "$(stat -c %s "$f")" -ge "$(numfmt --from=iec "$BOARD_QEMU_PFLASH_SIZE")" ] ||
				truncate -s "$BOARD_QEMU_PFLASH_SIZE" "$f"
		done
	fi
	set -- "$@" \
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$fwcode" \
		-drive "if=pflash,format=raw,unit=1,file=$WORK/efivars.fd"
else
	cmdline="${BOARD_CONSOLE:+console=$BOARD_CONSOLE }${BOARD_CMDLINE:-}"
	cmdline="$cmdline root=PARTLABEL=fsbench-root rootfstype=$ROOTFS fsbench.yes=1"
	[ -z "${PROFILE:-}" ] || cmdline="$cmdline fsbench.profile=$PROFILE"
	cmdline="$cmdline${APPEND:-}"
	set -- "$@" -kernel "$KERNEL" -initrd "$INITRD" -append "$cmdline"
fi
# The target: raw over its file (or over the disk model's NBD export,
# TSOCK), or over blkdebug over either (TFAULT); throttled (TTHROTTLE); on
# its own root port (TUNPLUG).
nbd="driver=nbd,server.type=unix,server.path=${TSOCK:-}"
if [ -n "${TFAULT:-}" ] && [ -n "${TSOCK:-}" ]; then
	tdrive="driver=raw,file.driver=blkdebug,file.config=$TFAULT,$(echo "$nbd" | sed 's/\([^,]*\)/file.image.\1/g')"
elif [ -n "${TFAULT:-}" ]; then
	tdrive="driver=raw,file.driver=blkdebug,file.config=$TFAULT,file.image.driver=file,file.image.filename=$WORK/target.img"
elif [ -n "${TSOCK:-}" ]; then
	tdrive="driver=raw,$(echo "$nbd" | sed 's/\([^,]*\)/file.\1/g')"
else
	tdrive="file=$WORK/target.img,format=raw"
fi
tdrive="$tdrive,if=none,id=target,cache=$TCACHE,discard=unmap"
[ -z "${TTHROTTLE:-}" ] || tdrive="$tdrive,throttling.iops-total=$TTHROTTLE"
tdev=nvme,drive=target,serial=fsbench-target
tctl=
case ${TBUS:-nvme} in
nvme) ;;
ahci)
	case $BOARD_QEMU_MACHINE in
	q35|q35,*|pc-q35*) tdev=ide-hd,bus=ide.0 ;;
	*) tctl=ich9-ahci,id=fsbench-ahci tdev=ide-hd,bus=fsbench-ahci.0 ;;
	esac
	tdev="$tdev,drive=target,serial=fsbench-target" ;;
usb) tctl=qemu-xhci,id=fsbench-xhci tdev=usb-storage,bus=fsbench-xhci.0,drive=target,serial=fsbench-target ;;
uas) tctl="qemu-xhci,id=fsbench-xhci usb-uas,id=fsbench-uas,bus=fsbench-xhci.0"
	tdev=scsi-hd,bus=fsbench-uas.0,scsi-id=0,lun=0,drive=target,serial=fsbench-target ;;
sd) tctl=sdhci-pci,id=fsbench-sdhci tdev=sd-card,bus=sd-bus,drive=target ;;
scsi) tctl=virtio-scsi-pci,id=fsbench-scsi tdev=scsi-hd,bus=fsbench-scsi.0,drive=target,serial=fsbench-target ;;
*) die $EX_USAGE "TBUS '$TBUS': nvme, ahci, usb, uas, sd or scsi" ;;
esac
set -- "$@" \
	-drive "file=$WORK/disk.img,format=raw,if=none,id=boot" \
	-device virtio-blk-pci,drive=boot,serial=fsbench-boot
if [ "${TUNPLUG:-0}" = 1 ]; then
	set -- "$@" -device pcie-root-port,id=fsbench-rp,chassis=1,slot=1
	tdev="$tdev,id=fsbench-target,bus=fsbench-rp"
fi
[ "${TQMP:-0}" != 1 ] || case $tdev in *,id=*) ;; *) tdev="$tdev,id=fsbench-target" ;; esac
for c in $tctl; do set -- "$@" -device "$c"; done
if [ -n "${TZONED:-}" ]; then
	[ "${TBUS:-nvme}" = nvme ] || die $EX_USAGE "TZONED: only with TBUS nvme, not $TBUS"
	set -- "$@" -drive "$tdrive" -device nvme,id=fsbench-ctrl,serial=fsbench-target \
		-device "nvme-ns,drive=target,bus=fsbench-ctrl,nsid=1,uuid=$ZUUID_CONV" \
		-drive "file=$WORK/zoned.img,format=raw,if=none,id=zoned,cache=$TCACHE,discard=unmap" \
		-device "nvme-ns,drive=zoned,bus=fsbench-ctrl,nsid=2,uuid=$ZUUID_ZONED,$TZONED"
else
	set -- "$@" -drive "$tdrive" -device "$tdev"
fi
n=0
for x in ${EXTRA:-}; do
	n=$((n + 1))
	set -- "$@" -drive "file=$(cd "$(dirname "${x%:*}")" && pwd)/$(basename "${x%:*}"),format=raw,if=none,id=extra$n,cache=$TCACHE,discard=unmap" \
		-device "nvme,drive=extra$n,serial=${x##*:}"
done
printf '%s\n' "$@" >"$out"
echo "$*" >"$out.cmd"

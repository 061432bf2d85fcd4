#!/bin/sh
# tests/qemu/armhf.sh: the 32-bit ARM image (board qemu-armhf) booted the way
# a 32-bit U-Boot board boots: qemu-system-arm virt (Cortex-A15) under TCG
# with Debian's u-boot-qemu (qemu_arm) as the firmware (-bios, no -kernel),
# whose distro boot reads extlinux/extlinux.conf from the disk image's ESP
# and boots the armmp zImage; one brief smoke run (BRIEF of tests/lib.sh) on all four filesystems, the
# records read back from the log partition on the host.
#   - build: the runner in the image is a static 32-bit ARM executable,
#     BusyBox and the mkfs tools are armhf; extlinux.conf on the ESP names
#     /vmlinuz (a zImage), /initrd.img and the command line; the rootfs's
#     times are before 2038 (a later one makes the 32-bit BusyBox's stat
#     fail with EOVERFLOW: switch_root cannot start)
#   - boot: U-Boot's banner and its extlinux.conf on the console, run.txt
#     names the firmware, the guest is armv7l
#   - run: launcher status 0, every filesystem, round and phase, no errors
#   - results: `fsbench log extract` of the run's disk copy (on the host)
#     gives the same records as the console and the launcher's records.jsonl
# Inputs (environment): O (build output, absolute), FSBENCH_HOST (default
# $O/host/fsbench).
# Output: PASS/FAIL/SKIP/INFO lines and a summary; exit 1 on a failure.
# Work files under $O/tests/qemu-armhf/.
set -eu

O=${O:?run through make check-qemu-armhf}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
B=qemu-armhf
T=$O/tests/qemu-armhf
IMG=$O/image/$B
. tests/qemu/lib.sh

board_start 'qemu armhf tests' "$B" u-boot-qemu debugfs mtype

# --- build ------------------------------------------------------------------
t0=$(date +%s)
made build.log image BOARD="$B" ROOTFS=ext4 || { summary; exit; }
info "make image BOARD=$B: $(($(date +%s) - t0)) s; $(grep '^image total' "$IMG/sizes-ext4.txt" | tr -s ' ')"
disk=$IMG/disk-ext4.img
check "build: the runner in the image is a static 32-bit ARM executable" sh -c \
	"file '$IMG/rootfs/usr/bin/fsbench' | grep -q 'ELF 32-bit LSB executable, ARM, EABI5.*statically linked'"
check "build: BusyBox and mkfs.xfs are armhf" sh -c \
	"readelf -h '$IMG/rootfs/bin/busybox' | grep -q 'Machine: *ARM\$' &&
	 readelf -h '$IMG/rootfs/usr/sbin/mkfs.xfs' | grep -q 'Machine: *ARM\$'"
# debugfs: "mtime: 0xSECONDS:EXTRA -- date"; EXTRA's low bits extend the
# seconds past 2038.
check "build: the rootfs's times are before 2038 (32-bit time_t)" sh -c \
	"debugfs -R 'stat /' '$IMG/rootfs.ext4' 2>/dev/null | grep -q '^ *mtime: 0x[0-7][0-9a-f]\{7\}:00000000 ' &&
	 debugfs -R 'stat /usr/bin/fsbench' '$IMG/rootfs.ext4' 2>/dev/null | grep -q '^ *mtime: 0x[0-7][0-9a-f]\{7\}:00000000 '"
off=$(sfdisk --dump "$disk" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
mtype -i "$disk@@$((off * 512))" ::extlinux/extlinux.conf >"$T/extlinux.conf" 2>/dev/null || :
check "build: extlinux/extlinux.conf on the ESP names the kernel, initrd and rootfs" sh -c \
	"grep -q '^	linux /vmlinuz\$' '$T/extlinux.conf' && grep -q '^	initrd /initrd.img\$' '$T/extlinux.conf' &&
	 grep -q '^	append console=ttyAMA0,115200 .*root=PARTLABEL=fsbench-root rootfstype=ext4\$' '$T/extlinux.conf'"
mcopy -n -i "$disk@@$((off * 512))" ::vmlinuz "$T/vmlinuz" 2>/dev/null || :
check "build: vmlinuz is an ARM zImage" sh -c "file '$T/vmlinuz' | grep -q 'ARM OpenFirmware\\|Linux kernel ARM boot executable zImage'"
check "build: the image total is within the $IMAGE_BUDGET_MIB MiB budget" sh -c \
	"awk '/^image total/ { exit !(\$3 < $IMAGE_BUDGET_MIB * 1048576) }' '$IMG/sizes-ext4.txt'"

# --- boot through U-Boot, a brief smoke run (BRIEF) on all four filesystems
fw_boot uboot "$BRIEF"
check "uboot: booted through the firmware, no -kernel" sh -c \
	"grep -q 'boot: *firmware (.*qemu_arm/u-boot.bin' '$res/run.txt' && ! grep -qx -- -kernel $T/o/run/$B.*/qemu.argv"
check "uboot: U-Boot read the ESP's extlinux.conf and started the kernel" sh -c \
	"grep -q '^U-Boot ' '$res/serial.log' && grep -q 'Found /extlinux/extlinux.conf' '$res/serial.log' &&
	 grep -q 'Starting kernel' '$res/serial.log'"
check "uboot: the guest is armv7l" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' run_start host.machine | grep -qx armv7l"
check_run uboot "$res"

# --- the records, extracted from the image afterwards on the host ---------------
check_extract "$res" "$(ls -d "$T/o/run/$B".* 2>/dev/null | head -n 1)"

summary

#!/bin/sh
# tests/qemu/uboot.sh: the U-Boot boards. qemu-aarch64-uboot booted the way a
# U-Boot board boots: QEMU virt under TCG with Debian's u-boot-qemu as the
# firmware (-bios, no -kernel), whose distro boot reads
# extlinux/extlinux.conf from the disk image's ESP; one brief smoke run (BRIEF) on
# ext4 (the arm64 kernel's four filesystems run in tests/qemu/arm64.sh), the
# records read back from the log partition. Then the
# image for real boards (uboot-arm64) is built and checked without booting.
#   - build: extlinux.conf on the ESP names /vmlinuz, /initrd.img and the
#     command line (root=PARTLABEL=fsbench-root); the ESP has the legacy
#     BIOS bootable flag; vmlinuz is a gzipped legacy U-Boot image (the
#     board sets BOARD_UIMAGE_LOAD); no EFI/BOOT
#   - boot: QEMU's argv has -bios and no -kernel; U-Boot's banner and its
#     extlinux.conf on the console; run.txt names the firmware
#   - run: launcher status 0, every filesystem, round and phase, no errors;
#     records.jsonl from the log partition
#   - uboot-arm64: extlinux.conf with fdtdir /dtbs/ and no console=, the
#     device trees of the kernel package on the ESP, vmlinuz a gzipped Image
# Inputs (environment): O (build output, absolute), FSBENCH_HOST (default
# $O/host/fsbench).
# Output: PASS/FAIL/SKIP/INFO lines and a summary; exit 1 on a failure.
# Work files under $O/tests/qemu-uboot/.
set -eu

O=${O:?run through make check-qemu-uboot}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
B=qemu-aarch64-uboot
T=$O/tests/qemu-uboot
IMG=$O/image/$B
. tests/qemu/lib.sh

board_start 'qemu U-Boot tests' "$B" u-boot-qemu mkimage

# espfile DISK PATH: a file of DISK's ESP on stdout.
espfile() {
	_o=$(sfdisk --dump "$1" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
	mtype -i "$1@@$((_o * 512))" "::$2"
}

# --- build ------------------------------------------------------------------
t0=$(date +%s)
made build.log image BOARD="$B" ROOTFS=ext4 || { summary; exit; }
info "make image BOARD=$B: $(($(date +%s) - t0)) s"
disk=$IMG/disk-ext4.img
espfile "$disk" extlinux/extlinux.conf >"$T/extlinux.conf" 2>/dev/null || :
check "build: extlinux/extlinux.conf on the ESP names the kernel, initrd and rootfs" sh -c \
	"grep -q '^	linux /vmlinuz\$' '$T/extlinux.conf' && grep -q '^	initrd /initrd.img\$' '$T/extlinux.conf' &&
	 grep -q '^	append console=ttyAMA0,115200 .*root=PARTLABEL=fsbench-root rootfstype=ext4\$' '$T/extlinux.conf'"
check "build: the ESP has the legacy BIOS bootable flag" sh -c \
	"sfdisk --dump '$disk' | grep 'name=\"fsbench-esp\"' | grep -q 'attrs=\"LegacyBIOSBootable\"'"
espfile "$disk" vmlinuz >"$T/vmlinuz" 2>/dev/null || :
check "build: vmlinuz is a gzipped legacy U-Boot image for arm64" sh -c \
	"mkimage -l '$T/vmlinuz' | grep -q 'AArch64 Linux Kernel Image (gzip compressed)'"
off=$(sfdisk --dump "$disk" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
mdir -/ -b -i "$disk@@$((off * 512))" :: >"$T/esp.list" 2>/dev/null || :
check "build: the ESP listed, no EFI/BOOT on it" sh -c \
	"grep -qi '^::/extlinux/extlinux.conf\$' '$T/esp.list' && ! grep -qi '^::/EFI/' '$T/esp.list'"
check "build: the image total is within the $IMAGE_BUDGET_MIB MiB budget" sh -c \
	"awk '/^image total/ { exit !(\$3 < $IMAGE_BUDGET_MIB * 1048576) }' '$IMG/sizes-ext4.txt'"

# --- boot through U-Boot, a brief smoke run (BRIEF) on ext4
fw_boot uboot "fsbench.fs=ext4 $BRIEF"
work=$(ls -d "$T/o/run/$B".* 2>/dev/null | head -n 1)
check "uboot: U-Boot as -bios, no -kernel" sh -c \
	"grep -A 1 -x -- -bios '$work/qemu.argv' | grep -qxF '$BOARD_QEMU_FIRMWARE' && ! grep -qx -- -kernel '$work/qemu.argv'"
check "uboot: run.txt names the firmware boot" grep -q 'boot: *firmware (' "$res/run.txt"
check "uboot: U-Boot read extlinux.conf from the disk" sh -c \
	"grep -q '^U-Boot 20' '$res/serial.log' && grep -q 'extlinux/extlinux.conf' '$res/serial.log'"
check "uboot: U-Boot unpacked the kernel image" grep -q 'Uncompressing Kernel Image' "$res/serial.log"
check "uboot: the guest is aarch64" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' run_start host.machine | grep -qx aarch64"
check_run uboot "$res"
[ -z "$work" ] || rm -rf "$work"

# --- the image for U-Boot boards (uboot-arm64), built and checked ------------
H=uboot-arm64
t0=$(date +%s)
if ! make -s --no-print-directory image BOARD=$H ROOTFS=ext4 >"$T/build-$H.log" 2>&1; then
	fail "make image BOARD=$H"; tail -n 20 "$T/build-$H.log"
else
	info "make image BOARD=$H: $(($(date +%s) - t0)) s"
	hd=$O/image/$H/disk-ext4.img
	espfile "$hd" extlinux/extlinux.conf >"$T/$H.conf" 2>/dev/null || :
	check "$H: extlinux.conf has fdtdir /dtbs/ and no console=" sh -c \
		"grep -q '^	fdtdir /dtbs/\$' '$T/$H.conf' && grep -q 'root=PARTLABEL=fsbench-root' '$T/$H.conf' &&
		 ! grep -q 'console=' '$T/$H.conf'"
	dtb=$(cd "$O/image/$H/dtbs" 2>/dev/null && ls */*.dtb | grep -m 1 rockchip/ || :)
	: >"$T/$H.dtb"
	[ -z "$dtb" ] || espfile "$hd" "dtbs/$dtb" >"$T/$H.dtb" 2>/dev/null || :
	check "$H: the kernel's device trees on the ESP (${dtb:-none})" sh -c \
		"[ -n '$dtb' ] && [ -s '$T/$H.dtb' ] && cmp -s '$T/$H.dtb' '$O/image/$H/dtbs/$dtb'"
	espfile "$hd" vmlinuz >"$T/$H.vmlinuz" 2>/dev/null || :
	check "$H: vmlinuz is the gzipped arm64 Image (booti)" sh -c \
		"gzip -dc '$T/$H.vmlinuz' | file - | grep -q 'ARM64 boot executable Image'"
	check "$H: the image total is within the $IMAGE_BUDGET_MIB MiB budget" sh -c \
		"awk '/^image total/ { exit !(\$3 < $IMAGE_BUDGET_MIB * 1048576) }' '$O/image/$H/sizes-ext4.txt'"
fi

summary

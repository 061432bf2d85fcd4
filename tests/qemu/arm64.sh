#!/bin/sh
# tests/qemu/arm64.sh: the arm64 image (board qemu-aarch64) booted the way a
# UEFI machine boots it: QEMU virt under TCG with the AAVMF firmware starting
# EFI/BOOT/BOOTAA64.EFI (the UKI) from the disk image; a brief smoke run (BRIEF) on all
# four filesystems, then the records extracted from the image's log partition
# afterwards and checked.
#   - build: make image BOARD=qemu-aarch64 (arm64 packages, the runner
#     cross-compiled for aarch64), the UKI is an arm64 PE executable
#   - boot: through the firmware (not -kernel), the guest is aarch64
#   - run: launcher status 0, every filesystem, round and phase, no errors
#   - results: `fsbench log extract` of the run's disk copy gives the same
#     records as the console, and as the launcher's records.jsonl
#   - the arm64-uefi image (for hardware) in the same machine: no console= on
#     its command line, the console comes from the firmware (SPCR); an ext4
#     smoke run
# Inputs (environment): O (build output, absolute), FSBENCH_HOST (default
# $O/host/fsbench), ARM64_BOARD (default qemu-aarch64).
# Output: PASS/FAIL/SKIP/INFO lines and a summary; exit 1 on a failure.
# Work files under $O/tests/qemu-arm64/.
set -eu

O=${O:?run through make check-qemu-arm64}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
B=${ARM64_BOARD:-qemu-aarch64}
T=$O/tests/qemu-arm64
IMG=$O/image/$B
. tests/qemu/lib.sh

board_start 'qemu arm64 tests' "$B" qemu-efi-aarch64 +objcopy

# --- build ------------------------------------------------------------------
t0=$(date +%s)
made build.log image BOARD="$B" ROOTFS=ext4 || { summary; exit; }
info "make image BOARD=$B: $(($(date +%s) - t0)) s"
disk=$IMG/disk-ext4.img
check "build: the runner in the image is aarch64" sh -c \
	"readelf -h '$IMG/rootfs/usr/bin/fsbench' | grep -q 'Machine: *AArch64'"
check "build: the UKI is an arm64 PE executable" sh -c \
	"${BOARD_CROSS_COMPILE}objdump -h '$IMG/uki-ext4.efi' | grep -q 'pei-aarch64-little'"
check "build: the UKI carries the kernel, initramfs and command line" sh -c \
	"${BOARD_CROSS_COMPILE}objdump -h '$IMG/uki-ext4.efi' | grep -q ' \\.linux ' &&
	 ${BOARD_CROSS_COMPILE}objdump -h '$IMG/uki-ext4.efi' | grep -q ' \\.initrd ' &&
	 ${BOARD_CROSS_COMPILE}objdump -h '$IMG/uki-ext4.efi' | grep -q ' \\.cmdline '"
off=$(sfdisk --dump "$disk" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
check "build: the ESP holds EFI/BOOT/$BOARD_EFI_BOOT" \
	mtype -i "$disk@@$((off * 512))" "::EFI/BOOT/$BOARD_EFI_BOOT"

# --- boot through the firmware, a brief smoke run (BRIEF) on all four filesystems
fw_boot uefi "$BRIEF"
check "uefi: booted through the firmware" grep -q 'boot: *UEFI firmware' "$res/run.txt"
check "uefi: the firmware started the ESP's boot file" grep -q 'BdsDxe: starting' "$res/serial.log"
check "uefi: the guest is aarch64 with UEFI SMBIOS" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' run_start host.machine host.dmi.bios_vendor | grep -q '^aarch64	EFI'"
check_run uefi "$res"

# --- the records, extracted from the image afterwards --------------------------
check_extract "$res" "$(ls -d "$T/o/run/$B".* 2>/dev/null | head -n 1)"

# --- the hardware board's image (arm64-uefi) in the same machine ---------------
# No console= on its command line: the kernel must find the serial port from
# the firmware (ACPI SPCR under AAVMF); its storage drivers load at boot.
H=arm64-uefi
if [ -f "board/$H/board.mk" ]; then
	t0=$(date +%s)
	if ! make -s --no-print-directory image BOARD=$H ROOTFS=ext4 >"$T/build-$H.log" 2>&1; then
		fail "make image BOARD=$H"; tail -n 20 "$T/build-$H.log"
	else
		info "make image BOARD=$H: $(($(date +%s) - t0)) s"
		check "$H: no console= on the UKI's command line" sh -c \
			"${BOARD_CROSS_COMPILE}objcopy -O binary --only-section=.cmdline '$O/image/$H/uki-ext4.efi' '$T/$H.cmdline' &&
			 grep -q 'root=PARTLABEL=fsbench-root' '$T/$H.cmdline' && ! grep -q 'console=' '$T/$H.cmdline'"
		res=$T/$H
		set +e
		BOARD=$H O=$T/o FSBENCH_HOST=$FSBENCH_HOST sh qemu/run.sh --disk "$O/image/$H/disk-ext4.img" \
			--results "$res" --quiet --uefi --accel tcg --profile smoke --append "fsbench.fs=ext4 $BRIEF" \
			--timeout 600 >"$T/$H.out" 2>&1
		rc=$?
		set -e
		info "$H: $(grep -E 'first record' "$res/run.txt" 2>/dev/null | sed 's/^ *//'), $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
		check "$H: launcher exit status 0" [ "$rc" -eq 0 ] || tail -n 30 "$T/$H.out"
		check "$H: init's lines and the records on the firmware's serial port" sh -c \
			"grep -q 'fsbench-init: starting fsbench' '$res/serial.log' && grep -q '^$PREFIX{' '$res/serial.log'"
		check "$H: ext4 smoke run ok, records from the log partition" sh -c \
			"grep -q 'from the log partition' '$res/run.txt' &&
			 sh qemu/records.sh '$res/records.jsonl' run_end exit_code | grep -qx 0"
	fi
fi

summary

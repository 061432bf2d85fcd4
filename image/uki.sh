#!/bin/sh
# uki.sh: make a unified kernel image (one UEFI executable holding the kernel,
# the initramfs and the command line) that UEFI firmware boots from the ESP
# as EFI/BOOT/BOOT<ARCH>.EFI, with no boot loader.
# Inputs (environment):
#   STUB     systemd's EFI stub (linuxx64.efi.stub, from the systemd-boot-efi
#            package fetched for the board's architecture)
#   KERNEL   the kernel image (EFI stub kernel, e.g. Debian's vmlinuz)
#   INITRD   the initramfs
#   CMDLINE  the kernel command line
#   OUTPUT   the .efi file to write
# Output: $OUTPUT. objcopy adds the sections at fixed addresses, so the same
# inputs give the same bytes.
set -eu
: "${STUB:?}" "${KERNEL:?}" "${INITRD:?}" "${CMDLINE:?}" "${OUTPUT:?}"

tmp=$OUTPUT.d
rm -rf "$tmp"
mkdir -p "$tmp"
printf 'NAME="fsbench"\nID=fsbench\nPRETTY_NAME="fsbench boot image"\n' >"$tmp/os-release"
printf '%s' "$CMDLINE" >"$tmp/cmdline"
# Section addresses: kernel at 32 MiB, initramfs above it (64 MiB).
kb=$(stat -c %s "$KERNEL")
[ "$kb" -lt $((32 * 1048576)) ] || { echo "uki: kernel larger than 32 MiB" >&2; exit 1; }
objcopy \
	--add-section .osrel="$tmp/os-release" --change-section-vma .osrel=0x20000 \
	--add-section .cmdline="$tmp/cmdline" --change-section-vma .cmdline=0x30000 \
	--add-section .linux="$KERNEL" --change-section-vma .linux=0x2000000 \
	--add-section .initrd="$INITRD" --change-section-vma .initrd=0x4000000 \
	"$STUB" "$OUTPUT.tmp"
mv "$OUTPUT.tmp" "$OUTPUT"
rm -rf "$tmp"

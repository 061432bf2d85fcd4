#!/bin/sh
# uki.sh: make a unified kernel image (one UEFI executable holding the kernel,
# the initramfs and the command line) that UEFI firmware boots from the ESP
# as EFI/BOOT/BOOT<ARCH>.EFI, with no boot loader.
# Inputs (environment):
#   STUB     systemd's EFI stub (linuxx64.efi.stub, from the systemd-boot-efi
#            package fetched for the board's architecture)
#   KERNEL   the kernel image (EFI stub kernel, e.g. Debian's vmlinuz); a
#            gzipped one (arm64's vmlinuz) goes in plain: the stub does not
#            decompress
#   INITRD   the initramfs
#   CMDLINE  the kernel command line
#   OUTPUT   the .efi file to write
#   OBJCOPY  objcopy that knows the stub's PE format (default objcopy; for an
#            arm64 stub on an x86_64 host aarch64-linux-gnu-objcopy)
#   SOURCE_DATE_EPOCH  the PE header's time stamp (objcopy puts the current
#            time there; it is replaced and the PE checksum recomputed)
# Output: $OUTPUT. objcopy adds the sections at fixed addresses, so the same
# inputs give the same bytes.
set -eu
: "${STUB:?}" "${KERNEL:?}" "${INITRD:?}" "${CMDLINE:?}" "${OUTPUT:?}"

tmp=$OUTPUT.d
rm -rf "$tmp"
mkdir -p "$tmp"
printf 'NAME="fsbench"\nID=fsbench\nPRETTY_NAME="fsbench boot image"\n' >"$tmp/os-release"
printf '%s' "$CMDLINE" >"$tmp/cmdline"
if [ "$(od -An -tx1 -N 2 "$KERNEL" | tr -d ' ')" = 1f8b ]; then
	gzip -dc "$KERNEL" >"$tmp/kernel"
	KERNEL=$tmp/kernel
fi
# Section addresses: kernel at 32 MiB, initramfs above it (64 MiB, or the
# next MiB after a kernel larger than 32 MiB).
kb=$(stat -c %s "$KERNEL")
ia=$((32 * 1048576 + (kb + 1048575) / 1048576 * 1048576))
[ "$ia" -gt $((64 * 1048576)) ] || ia=$((64 * 1048576))
${OBJCOPY:-objcopy} \
	--add-section .osrel="$tmp/os-release" --change-section-vma .osrel=0x20000 \
	--add-section .cmdline="$tmp/cmdline" --change-section-vma .cmdline=0x30000 \
	--add-section .linux="$KERNEL" --change-section-vma .linux=0x2000000 \
	--add-section .initrd="$INITRD" --change-section-vma .initrd="$(printf 0x%x "$ia")" \
	"$STUB" "$OUTPUT.tmp"

# PE header: time stamp at +8, checksum at +88 (24 + 64) from e_lfanew.
f=$OUTPUT.tmp
u32() { od -An -tu4 -j "$1" -N 4 "$f" | tr -d ' '; }
put32() {	# offset value (little endian)
	v=$2
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v & 255)) $((v >> 8 & 255)) \
		$((v >> 16 & 255)) $((v >> 24 & 255)))" |
		dd of="$f" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
pe=$(u32 60)
put32 $((pe + 8)) "${SOURCE_DATE_EPOCH:-0}"
ck=$((pe + 88))
put32 "$ck" 0
size=$(stat -c %s "$f")
# The PE checksum: 16-bit words added with end-around carry, plus the size.
sum=$({ cat "$f"; [ $((size % 2)) -eq 0 ] || printf '\0'; } | od -An -v -tu2 -w2 |
	awk -v n="$size" '{ s += $1; if (s > 65535) s = s % 65536 + int(s / 65536) }
		END { s = s % 65536 + int(s / 65536); printf "%d\n", s % 65536 + n }')
put32 "$ck" "$sum"
mv "$f" "$OUTPUT"
rm -rf "$tmp"

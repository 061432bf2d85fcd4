#!/bin/sh
# vmlinux.sh: extract the uncompressed kernel (ELF) from an x86 bzImage, for
# QEMU's PVH direct boot (no decompression in the guest: seconds under TCG).
# Inputs: $1 the kernel image (bzImage, may carry an EFI signature), $2 output.
# Output: $2, only when the payload is an ELF with a Xen PVH entry note;
# otherwise $2 is removed and the launcher boots $1 as it is. Exit 0 either way.
set -eu
k=${1:?kernel} out=${2:?output}
rm -f "$out" "$out.tmp"

try() {	# magic-regex decompressor...
	magic=$1; shift
	for off in $(LC_ALL=C grep -obUaP "$magic" "$k" | cut -d: -f1); do
		tail -c +$((off + 1)) "$k" | "$@" >"$out.tmp" 2>/dev/null || true
		if [ "$(head -c 4 "$out.tmp" | od -An -c | tr -d ' ')" = '177ELF' ] &&
			readelf -n "$out.tmp" 2>/dev/null | grep -q 'Xen.*(0x00000012)'; then
			mv "$out.tmp" "$out"
			return 0
		fi
	done
	return 1
}
try '\xfd\x37\x7a\x58\x5a\x00' xz -dc --single-stream ||
	try '\x28\xb5\x2f\xfd' zstd -dcq ||
	try '\x1f\x8b\x08' gzip -dc ||
	true
rm -f "$out.tmp"

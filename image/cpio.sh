#!/bin/sh
# cpio.sh: write a folder as a reproducible initramfs (cpio newc, gzip).
#
# Inputs: $1 the folder, $2 the output file (.cpio.gz);
#   SOURCE_DATE_EPOCH  mtime of every entry (default 0)
# Output: $2. Entries are sorted by name (C locale), owned by root (0:0),
# numbered 1, 2, 3..., with permissions 0755 (directories, executables),
# 0644 (other files) or 0777 (symlinks). A character device dev/console
# (5, 1) is added when the folder has dev/, so the kernel can open the
# console before /init runs; no mknod (and no root) is needed for that.
set -eu

src=${1:?folder} out=${2:?output}
mtime=${SOURCE_DATE_EPOCH:-0}

# hdr NAME MODE NLINK SIZE RDEVMAJOR RDEVMINOR
ino=0
hdr() {
	ino=$((ino + 1))
	nsz=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%s\0' \
		"$ino" "$2" 0 0 "$3" "$mtime" "$4" 0 0 "$5" "$6" "$nsz" 0 "$1"
	pad $((110 + nsz))
}
pad() { n=$(((4 - $1 % 4) % 4)); [ $n -eq 0 ] || head -c $n /dev/zero; }

list() {
	(cd "$src" && find . -mindepth 1 | sed 's|^\./||')
	[ -d "$src/dev" ] && [ ! -e "$src/dev/console" ] && echo dev/console
	return 0
}

{
	list | LC_ALL=C sort | while IFS= read -r p; do
		f=$src/$p
		if [ "$p" = dev/console ] && [ ! -e "$f" ]; then
			hdr "$p" $((0020000 | 0600)) 1 0 5 1
		elif [ -L "$f" ]; then
			t=$(readlink "$f")
			hdr "$p" $((0120000 | 0777)) 1 ${#t} 0 0
			printf '%s' "$t"
			pad ${#t}
		elif [ -d "$f" ]; then
			hdr "$p" $((0040000 | 0755)) 2 0 0 0
		elif [ -f "$f" ]; then
			sz=$(stat -c %s "$f")
			if [ -x "$f" ]; then m=0755; else m=0644; fi
			hdr "$p" $((0100000 | m)) 1 "$sz" 0 0
			cat "$f"
			pad "$sz"
		else
			echo "cpio.sh: $p: unsupported file type" >&2
			: >"$out.err"
		fi
	done
	hdr TRAILER!!! 0 1 0 0 0
} | gzip -9 -n >"$out.tmp"
if [ -e "$out.err" ]; then rm -f "$out.err" "$out.tmp"; exit 1; fi
mv "$out.tmp" "$out"

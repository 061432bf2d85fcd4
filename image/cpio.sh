#!/bin/sh
# cpio.sh: write a folder as a reproducible initramfs (cpio newc, gzip)
# with bsdtar (package libarchive-tools) from an mtree spec.
#
# Inputs: $1 the folder, $2 the output file (.cpio.gz);
#   SOURCE_DATE_EPOCH  mtime of every entry (default 0)
# Output: $2, and $2.mtree, the spec it was written from. Entries are sorted
# by name (C locale), owned by root (0:0), with permissions 0755
# (directories, executables), 0644 (other files) or 0777 (symlinks). A
# character device dev/console (5, 1) is added when the folder has dev/, so
# the kernel can open the console before /init runs: the spec describes it,
# no mknod (and no root) is needed.
#
# bsdtar's mtree reader gives every file the inode and device numbers of the
# copy it reads, which differ from one build folder to the next. The archive
# therefore passes through pax first: the tar reader numbers the entries
# itself (inode 1, 2, 3..., one device, link count 0), so the same folder
# gives the same bytes wherever it is built. Directory names keep the
# trailing slash tar gives them (bin/); the kernel takes both forms.
set -eu
. "$(dirname "$0")/lib.sh"

src=${1:?folder} out=${2:?output}
mtime=${SOURCE_DATE_EPOCH:-0}
command -v bsdtar >/dev/null 2>&1 ||
	die $EX_SYSTEM "bsdtar not found (package libarchive-tools; make deps)"
[ -d "$src" ] || die $EX_USAGE "no folder $src"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
spec=$out.mtree
rm -f "$out.tmp" "$out.pax" "$out.cpio"

# One line per entry: TYPE NAME [TARGET], TYPE d (directory, the name with
# a trailing slash, as in the archive), x (executable), f (other file),
# l (symlink), c (dev/console), ? (anything else), sorted by name.
list() {
	(cd "$src" && find . -mindepth 1 \( -type d -printf 'd %P/\n' -o \
		-type l -printf 'l %P %l\n' -o -type f -perm /111 -printf 'x %P\n' -o \
		-type f -printf 'f %P\n' -o -printf '? %P\n' \))
	if [ -d "$src/dev" ] && [ ! -e "$src/dev/console" ] && [ ! -L "$src/dev/console" ]; then
		echo 'c dev/console'
	fi
}

# The spec, in mtree's relative form: a directory's entries follow it, ".."
# climbs back (names stay without a leading ./). Names are written as they
# are: one that mtree would need escaped is refused.
list | LC_ALL=C sort -k 2,2 | awk -v t="$mtime" -v prog="$prog" -v ex="$EX_USAGE" '
function bad(why) { printf "%s: %s\n", prog, why > "/dev/stderr"; failed = 1; exit ex }
BEGIN { print "#mtree"; printf "/set uid=0 gid=0 time=%d.0\n", t; cur = "" }
{
	type = $1; path = $2
	if (NF != (type == "l" ? 3 : 2) || path !~ /^[A-Za-z0-9_.+,:@=-][A-Za-z0-9_.+,:@=\/-]*$/ ||
	    (type == "l" && $3 !~ /^[A-Za-z0-9_.+,:@=\/-]+$/))
		bad("\"" $0 "\": a name or link target mtree would need escaped")
	if (type == "?")
		bad(path ": unsupported file type")
	if (type == "d")
		sub(/\/$/, "", path)
	n = split(path, part, "/")
	parent = ""
	for (i = 1; i < n; i++)
		parent = parent part[i] "/"
	while (cur != "" && index(parent, cur) != 1) {
		print ".."
		sub(/[^\/]*\/$/, "", cur)
	}
	if (cur != parent)
		bad(path ": its directory is not listed before it")
	name = part[n]
	if (type == "d") {
		print name " type=dir mode=0755"
		cur = cur name "/"
	} else if (type == "x" || type == "f") {
		print name " type=file mode=" (type == "x" ? "0755" : "0644") " contents=" path
	} else if (type == "l") {
		print name " type=link mode=0777 link=" $3
	} else if (type == "c") {
		print name " type=char mode=0600 device=native,5,1"
	}
}
END { if (failed) exit ex }' >"$spec"

# bsdtar reads the files named by contents= from the folder itself.
(cd "$src" && bsdtar --format pax -cf "$out.pax" "@$spec")
bsdtar --format newc -cf "$out.cpio" "@$out.pax"
gzip -9 -n <"$out.cpio" >"$out.tmp"
rm -f "$out.pax" "$out.cpio"
mv "$out.tmp" "$out"

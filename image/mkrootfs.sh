#!/bin/sh
# mkrootfs.sh: make the rootfs image from the staged rootfs folder, no root.
#
# Inputs: $1 the rootfs folder, $2 the output image, $3 the type (ext4, f2fs)
#   SIZE               image size (BOARD_ROOT_SIZE, e.g. 96M)
#   SOURCE_DATE_EPOCH  every timestamp in the image
#   UUID               filesystem UUID (fixed, for reproducibility)
# Output: $2, a filesystem labelled fsbench-root. Every file is owned by
# root (0:0), whoever runs this.
#   ext4: mke2fs -d, then debugfs sets owner and times of every inode
#         (mke2fs copies them from the folder).
#   f2fs: mkfs.f2fs on the file, then sload.f2fs -f.
set -eu
. "$(dirname "$0")/lib.sh"

src=${1:?folder} out=${2:?image} type=${3:?type}
: "${SIZE:?}" "${UUID:?}"
t=${SOURCE_DATE_EPOCH:-0}
rm -f "$out" "$out.tmp"

case $type in
ext4)
	# No journal: the rootfs is mounted read-only.
	truncate -s "$SIZE" "$out.tmp"
	E2FSPROGS_FAKE_TIME=$t mke2fs -q -F -t ext4 -b 4096 -L fsbench-root \
		-U "$UUID" -E "hash_seed=$UUID,root_owner=0:0" -O ^has_journal \
		-m 0 -d "$src" "$out.tmp"
	# Owner and times of every inode (the folder's ctimes differ per build).
	cmds=$out.debugfs
	{
	echo "set_current_time @$t"
	(cd "$src" && find . | LC_ALL=C sort | sed 's|^\.||; s|^$|/|') |
		while IFS= read -r p; do
			for f in uid gid; do echo "sif \"$p\" $f 0"; done
			for f in atime mtime ctime crtime; do echo "sif \"$p\" $f @$t"; done
		done
	echo "ssv wtime @$t"
	echo "ssv lastcheck @$t"
	} >"$cmds"
	E2FSPROGS_FAKE_TIME=$t debugfs -w -f "$cmds" "$out.tmp" >/dev/null 2>"$cmds.err" || {
		cat "$cmds.err" >&2; die $EX_SYSTEM "debugfs failed"; }
	if grep -v '^debugfs ' "$cmds.err" | grep -q .; then
		cat "$cmds.err" >&2; die $EX_SYSTEM "debugfs said more than its prompts"
	fi
	rm -f "$cmds" "$cmds.err"
	;;
f2fs)
	truncate -s "$SIZE" "$out.tmp"
	mkfs.f2fs -q -f -l fsbench-root -U "$UUID" -T "$t" -r -R 0:0 "$out.tmp" >/dev/null
	sload.f2fs -f "$src" -T "$t" "$out.tmp" >/dev/null
	;;
*)
	die $EX_USAGE "unknown rootfs type '$type' (ext4, f2fs)"
	;;
esac
mv "$out.tmp" "$out"

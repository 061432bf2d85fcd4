#!/bin/sh
# kimage.sh: a board's disk image with a kernel of your own, built as
# `make image KERNEL=PATH` builds it (in $O/image/BOARD-kernel-N/), for
# qemu/run.sh --kernel and qemu/ab.sh's A_KERNEL and B_KERNEL.
# Usage: qemu/kimage.sh KERNEL LOG
#   KERNEL  a kernel build tree, or a folder with a kernel image and
#           lib/modules/VERSION
#   LOG     where make's output goes
# Inputs (environment): O (build output, default out), BOARD (default
#   qemu-x86_64), ROOTFS (default ext4).
# Output: the disk image's path on stdout. When the build fails, LOG's
#   last 20 lines but make's own on stderr: what the board needs that the
#   kernel lacks. The caller names the kernel in its message.
# Exit status: 0; 2 the build refused the kernel; 4 the build named no
#   image.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# = 2 ] || { echo "usage: kimage.sh KERNEL LOG" >&2; exit 2; }
O=${O:-out}
Oabs=$(mkdir -p "$O" && cd "$O" && pwd)
kabs=$(cd "$1" && pwd)
make -s --no-print-directory -C "$here/.." image BOARD="${BOARD:-qemu-x86_64}" O="$Oabs" KERNEL="$kabs" \
	ROOTFS="${ROOTFS:-ext4}" >"$2" 2>&1 || { grep -v '^make' "$2" | tail -n 20 >&2; exit 2; }
d=$(sed -n 's/^image: //p' "$2" | tail -n 1)
[ -f "$d" ] || exit 4
echo "$d"

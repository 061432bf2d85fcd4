#!/bin/sh
# sizes.sh: print the sizes of a built image (one "name bytes MiB" per line).
# Inputs: $1 the board's image folder, $2 the rootfs type.
# Output (stdout): kernel, initramfs (compressed), rootfs contents (sum of
# file sizes in the staged tree), the total of those three (the image budget,
# target < 40 MiB, tests/lib.sh IMAGE_BUDGET_MIB), the device trees (BOARD_FDTDIR), the UKI, the rootfs image and the disk image (apparent size and
# blocks in use: the files are sparse).
set -eu
d=${1:?image folder} t=${2:?rootfs type}

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
line() { printf '%-26s %12s bytes %8s MiB\n' "$1" "$2" "$(mib "$2")"; }
used() { echo $(($(stat -c %b "$1") * $(stat -c %B "$1"))); }

k=$(stat -c %s "$d/kernel")
i=$(stat -c %s "$d/initramfs.cpio.gz")
r=$(find "$d/rootfs" -type f -exec stat -c %s {} + | awk '{ s += $1 } END { print s + 0 }')
line kernel "$k"
line initramfs "$i"
line "rootfs contents" "$r"
line "image total" $((k + i + r))
[ ! -d "$d/dtbs" ] || line "device trees (on the ESP)" "$(find "$d/dtbs" -type f -exec stat -c %s {} + | awk '{ s += $1 } END { print s + 0 }')"
[ ! -f "$d/uki-$t.efi" ] || line "uki-$t.efi (on the ESP)" "$(stat -c %s "$d/uki-$t.efi")"
line "rootfs.$t" "$(stat -c %s "$d/rootfs.$t")"
line "rootfs.$t (in use)" "$(used "$d/rootfs.$t")"
line "disk-$t.img" "$(stat -c %s "$d/disk-$t.img")"
line "disk-$t.img (in use)" "$(used "$d/disk-$t.img")"

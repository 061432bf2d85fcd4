#!/bin/sh
# tests/image/budget.sh: every board of the listed architectures within the
# image budget: kernel + initramfs + rootfs contents (image/sizes.sh's
# "image total") under IMAGE_BUDGET_MIB (tests/lib.sh). Builds each board's ext4 image (make image
# BOARD=...; the downloads are cached per architecture) and reads its
# sizes-ext4.txt; prints the sizes of each board as INFO lines.
# Inputs (environment): O (build output, absolute), BUDGET_ARCHS (default
# arm64: the boards whose BOARD_ARCH is one of these; the default board is
# held to it by tests/image/run.sh), BUDGET_BOARDS (instead, these boards).
# Output: one line per check (tests/lib.sh), a summary line; exit 1 on a
# failure. Build logs under $O/tests/image-budget/.
set -eu

O=${O:?run through make check-image}
T=$O/tests/image-budget
rm -rf "$T"
mkdir -p "$T"
. tests/lib.sh
test_init "image budget tests" "$T"

boards=${BUDGET_BOARDS:-}
if [ -z "$boards" ]; then
	for f in board/*/board.mk; do
		a=$(sh image/boardenv.sh "$f" | sed -n "s/^export BOARD_ARCH='\(.*\)'\$/\1/p")
		case " ${BUDGET_ARCHS:-arm64} " in *" $a "*) boards="$boards $(basename "$(dirname "$f")")" ;; esac
	done
fi
[ -n "$boards" ] || fail "no board of the architectures ${BUDGET_ARCHS:-arm64}"

for b in $boards; do
	if ! make -s --no-print-directory image BOARD="$b" ROOTFS=ext4 >"$T/build-$b.log" 2>&1; then
		fail "$b: make image BOARD=$b"; tail -n 20 "$T/build-$b.log"; continue
	fi
	s=$O/image/$b/sizes-ext4.txt
	grep -E '^(kernel|initramfs|rootfs contents|image total|device trees)' "$s" |
		while IFS= read -r l; do info "$b: $l"; done
	total=$(awk '/^image total/ { print $3 }' "$s")
	if [ -n "$total" ] && [ "$total" -lt $((IMAGE_BUDGET_MIB * 1048576)) ]; then
		pass "$b: image (kernel + initramfs + rootfs contents) $(awk -v b="$total" 'BEGIN{printf "%.1f", b/1048576}') MiB < $IMAGE_BUDGET_MIB MiB"
	else
		fail "$b: image total ${total:-?} bytes >= $IMAGE_BUDGET_MIB MiB"
	fi
done

summary

#!/bin/sh
# tests/qemu/variants.sh: every built-in variant of ext4 and f2fs made and
# mounted once in QEMU (the host kernel has no f2fs), one brief boot: the
# variants as `fsbench config --variants` lists them (a new one is in the
# boot without a change here), fs = all of them, BRIEF (one round of 50
# files a directory). Each variant: an fs_start with its variant object
# (base, mkfs and mount arguments as the table has them), its mkfs run
# with the variant's arguments before the device (mkfs.argv), the kernel's mount holding
# each of its mount options (mountinfo's opts or super_opts), every phase
# of round 1 without an error or a verification failure, fs_end ok. The
# run ok and every record against the schema.
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board is a SKIP).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-variants/.
set -eu

O=${O:?run through make check-qemu-variants}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-variants
. tests/qemu/lib.sh

qemu_start 'qemu variant tests' "variants on $BOARD: the boot is qemu-x86_64's (the others boot f2fs in their own tests)"
made build.log host image ROOTFS=ext4 || { summary; exit 1; }

# the built-in variants of ext4 and f2fs: name, base, mkfs, mount
# ("-" for none, as the records have ""), separated by '|' (a shell's read
# would merge two tabs around an empty field)
"$FSB" config --variants | awk -F'\t' -v OFS='|' '$2 == "ext4" || $2 == "f2fs" {
	for (i = 3; i <= 4; i++) if ($i == "-") $i = ""; print $1, $2, $3, $4 }' >"$T/variants.tsv"
names=$(cut -d'|' -f1 "$T/variants.tsv" | paste -sd, -)
check "the table has variants of ext4 and of f2fs ($names)" sh -c \
	"cut -d'|' -f2 '$T/variants.tsv' | sort -u | tr '\n' ' ' | grep -qx 'ext4 f2fs '"

res=$T/boot
set +e
sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$res" --quiet --criteria none \
	--profile smoke --timeout 600 --append "$BRIEF fsbench.fs=$names" >"$T/boot.out" 2>&1
rc=$?
set -e
info "boot: launcher exit $rc, $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
check "boot: the launcher exits 0" [ "$rc" = 0 ] || tail -n 20 "$T/boot.out"
n=$(wc -l <"$T/variants.tsv")
check "boot: run_end ok, all $n variants ok" has "$res" run_end status=ok fs_ok="$n" fs_failed=0
sh qemu/records.sh "$res/records.jsonl" fs_start fs variant.base variant.mkfs variant.mount \
	mkfs.argv mountinfo.opts mountinfo.super_opts >"$T/fs_start.tsv"
while IFS='|' read -r name base mk mo; do
	row=$(awk -F'\t' -v n="$name" '$1 == n' "$T/fs_start.tsv")
	check "$name: one fs_start, its variant object: base $base, mkfs '$mk', mount '$mo'" sh -c \
		"[ \"\$(printf '%s\n' \"\$1\" | cut -f1-4)\" = \"\$2\" ]" - "$row" "$name	$base	$mk	$mo"
	argv=$(printf '%s\n' "$row" | cut -f5)
	[ -z "$mk" ] || check "$name: its mkfs run with '$mk' before the device ($argv)" sh -c \
		'case "$1" in *" $2 /dev/"*) exit 0 ;; esac; exit 1' - "$argv" "$mk"
	opts=$(printf '%s\n' "$row" | cut -f6-7 | tr '\t' ',')
	for o in $(echo "$mo" | tr ',' ' '); do
		check "$name: the kernel's mount holds $o ($opts)" sh -c \
			'case ",$1," in *",$2,"*) exit 0 ;; esac; exit 1' - "$opts" "$o"
	done
	check "$name: fs_end ok" has "$res" fs_end fs="$name" status=ok
	check "$name: every phase of round 1 without an error or a verification failure" sh -c \
		"p=\$(sh qemu/records.sh '$res/records.jsonl' phase fs round errors verify_errors | awk -F'\t' -v n='$name' '\$1 == n');
		[ -n \"\$p\" ] && ! printf '%s\n' \"\$p\" | grep -qv '	1	0	0\$'"
done <"$T/variants.tsv"
check "boot: every record passes fsbench log check" sh -c \
	"[ -s '$res/records.jsonl' ] && '$FSB' log check '$res/records.jsonl'"
summary

#!/bin/sh
# readmin.sh: the runner's read phase (files by name: list, sort, open,
# read, close) held against the least a program does for the same,
# minread.c, written without any of the runner's code: readdir, qsort with
# strcmp, open, one read, close, one process a folder. On tmpfs, where
# the disk takes nothing and what a program adds shows most.
#
# Inputs (environment; tests/bench/bench.mk sets them):
#   O             output folder, absolute (scratch lives in $O/bench)
#   FSBENCH       the runner (fsbench, static musl)
#   MINREAD       the loop built from tests/bench/minread.c
#   BENCH_READMIN "DIRS FILES SIZE PAIRS"   (default "2 20000 4096 11")
# Each measurement on a fresh tmpfs at $O/bench/readmin (2 GiB): the
# runner with --dir (one round, its other phases untimed here), with
# verification off and on, and the loop; the three interleaved, the order
# rotating each pair. The runner's read phase is its `phase` record's
# files_per_s (last worker end - first worker start, the listing and the
# sort inside), the loop's its own line (the same clock).
# Outputs: one line per tool and measurement, then the medians, the ratios
#   runner / loop and a PASS/FAIL line for the target: the runner's read
#   (verification off) at least 0.95 of the loop's files per second;
#   $O/bench/readmin.txt holds the same. Exit 1 on FAIL. Needs root (mount).
set -eu
: "${O:?}" "${FSBENCH:?}" "${MINREAD:?}"
set -- ${BENCH_READMIN:-2 20000 4096 11}
DIRS=$1 FILES=$2 SIZE=$3 PAIRS=$4
. "$(dirname "$0")/lib.sh"
bench_tmpfs readmin readmin

one() {	# one TOOL: files per second of its read
	fresh
	case $1 in
	loop)
		"$MINREAD" "$M" "$DIRS" "$FILES" "$SIZE" | sed -n 's/.*files_per_s=\([0-9.]*\).*/\1/p' ;;
	runner|runner_verify)
		v=0; [ "$1" = runner ] || v=1
		"$FSBENCH" run --dir "$M" --dirs "$DIRS" --files "$FILES" --file_size "$SIZE" \
			--workers "$DIRS" --rounds 1 --verify "$v" --progress 0 --control 0 \
			--capacity 0 2>/dev/null |
			jq -r 'select(.type == "phase" and .phase == "read") | .files_per_s' ;;
	esac
}
say "bench readmin: $DIRS folders x $FILES files x $SIZE bytes on tmpfs, $PAIRS measurements each"
tools="runner loop runner_verify"
for k in $(seq 1 "$PAIRS"); do
	for t in $tools; do
		r=$(one "$t")
		[ -n "$r" ] || { echo "bench readmin: $t gave no figure" >&2; exit 1; }
		say "readmin $t $k $r"
	done
	tools="$(echo "$tools" | cut -d' ' -f2-) $(echo "$tools" | cut -d' ' -f1)"
done
med() { awk -v t="$1" '$1 == "readmin" && $2 == t { print $4 }' "$OUTF" | sort -g |
	awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
mr=$(med runner) ml=$(med loop) mv=$(med runner_verify)
say "median files/s: runner $mr, runner with verification $mv, loop $ml"
ratio=$(awk -v a="$mr" -v b="$ml" 'BEGIN { printf "%.3f", a / b }')
say "runner / loop: $ratio; runner with verification / loop: $(awk -v a="$mv" -v b="$ml" 'BEGIN { printf "%.3f", a / b }')"
if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.95) }'; then
	say "PASS: the runner's read at least 0.95 of the minimal loop's ($ratio)"
else
	say "FAIL: the runner's read below 0.95 of the minimal loop's ($ratio)"
	exit 1
fi

#!/bin/sh
# boot.sh: the smoke run in QEMU as `make run PROFILE=smoke` makes it (the
# board's image, its criteria), BENCH_BOOTS times one after another, held
# to two targets:
#   - QEMU start to the first record at most 5.0 s (the median), the time
#     a user waits before the runner says anything (run.txt's `qemu start
#     to first record`);
#   - the run within 10 % of the launcher's estimate (the median of each
#     boot's run / estimate), the estimate made from qemu/figures.txt alone:
#     each boot's RESULTS is an empty folder, so no earlier run is used.
#     A FAIL here means figures.txt has drifted from what a smoke run takes
#     now: measure it again (its header says how) and change it.
# Both are TCG figures on this kind of machine (2 cores, no usable KVM);
# run it on a quiet host (the load average is printed first).
# Inputs (environment; tests/bench/bench.mk sets them): O (build output,
#   absolute: scratch in $O/bench/boot), BOARD (qemu-x86_64), BENCH_BOOTS
#   (default 3).
# Outputs: one line per boot (first record, run, estimate), the medians,
#   PASS/FAIL lines; $O/bench/boot.txt holds the same. Exit 1 on FAIL or
#   when a boot did not end in its run_end.
set -eu
: "${O:?}"
BOARD=${BOARD:-qemu-x86_64}
N=${BENCH_BOOTS:-3}
case $N in ''|*[!0-9]*|0) echo "bench boot: BENCH_BOOTS: not a positive number: '$N'" >&2; exit 2 ;; esac
B=$O/bench/boot
rm -rf "$B"
mkdir -p "$B"
OUTF=$O/bench/boot.txt
: >"$OUTF"
say() { echo "$*" | tee -a "$OUTF"; }
disk=$O/image/$BOARD/disk-ext4.img
[ -f "$disk" ] || { echo "bench boot: no image $disk (make image)" >&2; exit 1; }

say "bench boot: $N smoke runs of $BOARD, one after another; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
val() { sed -n "s/^ *$1: *\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
for k in $(seq 1 "$N"); do
	mkdir -p "$B/results-$k"
	rc=0
	RESULTS=$B/results-$k sh qemu/run.sh --disk "$disk" --profile smoke --quiet \
		--results "$B/run-$k" >"$B/run-$k.out" 2>&1 || rc=$?
	txt=$B/run-$k/run.txt
	first=$(val 'qemu start to first record' "$txt") total=$(val 'total run time' "$txt")
	est=$(val estimate "$txt")
	if [ -z "$first" ] || [ -z "$total" ] || [ -z "$est" ] || ! grep -q 'runner exit code: *[01]$' "$txt"; then
		say "boot $k: no complete run (launcher status $rc; $B/run-$k.out)"
		exit 1
	fi
	say "boot $k: first record $first s, run $total s, estimate $est s ($(awk -v a="$total" -v e="$est" 'BEGIN { printf "%.3f", a / e }') of it)"
done
med() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
mf=$(sed -n 's/^boot [0-9]*: first record \([0-9.]*\) s.*/\1/p' "$OUTF" | med)
mr=$(sed -n 's/.* (\([0-9.]*\) of it)$/\1/p' "$OUTF" | med)
say "median: first record $mf s, run / estimate $mr"
bad=0
if awk -v f="$mf" 'BEGIN { exit !(f <= 5.0) }'; then
	say "PASS: QEMU start to the first record at most 5.0 s ($mf s)"
else
	say "FAIL: QEMU start to the first record over 5.0 s ($mf s)"; bad=1
fi
if awk -v r="$mr" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }'; then
	say "PASS: the run within 10 % of its estimate from qemu/figures.txt (run / estimate $mr)"
else
	say "FAIL: the run not within 10 % of its estimate from qemu/figures.txt (run / estimate $mr): measure the smoke rows again"; bad=1
fi
exit $bad

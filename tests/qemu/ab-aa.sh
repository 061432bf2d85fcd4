#!/bin/sh
# tests/qemu/ab-aa.sh: A/A trials of the A/B experiment (qemu/ab.sh): the
# same image, the same settings on both sides, so any row it flags is a
# false flag. Each trial is a whole A/B of AA_RUNS boots a side (4
# unless told; the brief ext4 boot of tests/qemu/ab.sh: 1 directory of
# 200 files, 1 round, a 1 GiB target), its seed drawn and printed; a trial
# flags nothing when no row of its compare.csv is flagged slower or faster
# (undecided rows are not flags: 4 runs a side decide little; at 4 a side
# the rank test's smallest p, 0.029, flags no row of 5 alone after the
# correction, so AA_RUNS=8 is the stronger trial). The test passes when
# at least 9 in 10 trials flag nothing (TRIALS - TRIALS / 10, rounded
# down, of TRIALS): the compare holds false flags to 5 % over a side's
# rows (Benjamini-Hochberg), and a trial is one such family. A trial
# whose boots did not all finish fails the test with its reason (that is
# no false flag, and no answer either).
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board is a SKIP), TRIALS (default 10), AA_RUNS (boots a side,
# default 4).
# Output: an INFO line per trial (seed, verdict, rows flagged, rows a
# test of each row alone would flag, time), the smallest p the runs can
# reach, PASS or FAIL lines and a summary; exit 1 on a failure. Results
# under $O/tests/qemu-ab-aa/trial-N/.
set -eu

O=${O:?run through make check-ab-aa}
BOARD=${BOARD:-qemu-x86_64}
TRIALS=${TRIALS:-10}
AA_RUNS=${AA_RUNS:-4}
T=$O/tests/qemu-ab-aa
. tests/qemu/lib.sh

qemu_start 'qemu A/A trials of the A/B' "A/A on $BOARD: the brief boot's settings are qemu-x86_64's" jq
case $TRIALS in '' | *[!0-9]* | 0) fail "TRIALS '$TRIALS': not a whole number from 1"; summary; exit 1 ;; esac
case $AA_RUNS in '' | *[!0-9]* | 0 | 1) fail "AA_RUNS '$AA_RUNS': not a whole number from 2"; summary; exit 1 ;; esac
[ -f "$O/image/$BOARD/disk-ext4.img" ] || { fail "no image $O/image/$BOARD/disk-ext4.img (make image)"; summary; exit 1; }
SMALL="--target-size 1G --timeout 300 --append 'fsbench.fs=ext4 fsbench.dirs=1 fsbench.workers=1 fsbench.files=200 fsbench.rounds=1'"

clean=0 flagged=0 broken=0 rawtrials=0
t=1
while [ "$t" -le "$TRIALS" ]; do
	d=$T/trial-$t
	t0=$(date +%s)
	set +e
	sh qemu/ab.sh --runs "$AA_RUNS" --results "$d" --qemu-args "$SMALL" >"$T/trial-$t.out" 2>"$T/trial-$t.err"
	rc=$?
	set -e
	seed=$(sed -n '1s/^ab: seed \([0-9]*\) .*/\1/p' "$T/trial-$t.out")
	if [ ! -s "$d/compare.csv" ]; then
		broken=$((broken + 1))
		fail "trial $t (seed ${seed:-none}): no compare (ab.sh exit $rc): $(grep '^ab: boot .* did not' "$T/trial-$t.err" | head -n 1)"
		t=$((t + 1))
		continue
	fi
	# the rows flagged: slower or faster, from the compare table of the CSV
	rows=$(awk -F, '$1 == "compare" && $2 == "fs" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "compare" && ($c["b_flag"] == "slower" || $c["b_flag"] == "faster") {
			printf "%s%s %s %s (B/A %s)", n++ ? "; " : "", $2, $3, $c["b_flag"], $c["b_over_a"] }' "$d/compare.csv")
	n=$(awk -F, '$1 == "compare" && $2 != "fs"' "$d/compare.csv" | wc -l | tr -d ' ')
	# the rows a test of each row alone would flag (its own p < 0.05 and
	# beyond compare's 10 % tolerance, no correction over the rows)
	raw=$(awk -F, '$1 == "compare" && $2 == "fs" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "compare" && $c["b_p"] != "" && $c["b_p"] + 0 < 0.05 &&
			($c["b_over_a"] - 1 > 0.10 || 1 - $c["b_over_a"] > 0.10) { n++ } END { print n + 0 }' "$d/compare.csv")
	[ "$raw" -eq 0 ] || rawtrials=$((rawtrials + 1))
	info "trial $t: seed $seed, $(tail -n 1 "$T/trial-$t.out"), $n rows judged, flagged: ${rows:-none}, $raw flagged by a row's own p < 0.05 ($(($(date +%s) - t0)) s)"
	if [ -z "$rows" ]; then clean=$((clean + 1)); else flagged=$((flagged + 1)); fi
	t=$((t + 1))
done
need=$((TRIALS - TRIALS / 10))
# what a trial could flag at all: compare's rank test of AA_RUNS against
# AA_RUNS reaches p = 2 / C(2 AA_RUNS, AA_RUNS) at the least (every run of
# one side apart from the other's), and Benjamini-Hochberg flags one row
# of m alone only below 0.05 / m
info "$(awk -v r="$AA_RUNS" -v m="${n:-0}" 'BEGIN { c = 1; for (i = 1; i <= r; i++) c = c * (r + i) / i
	p = 2 / c; t = m ? 0.05 / m : 0.05
	printf "%d runs a side: the smallest p a row can have is %.4g; one row of %d flagged alone needs p < %.4g%s",
		r, p, m, t, p >= 0.05 ? " (no row can be flagged)" : p < t ? "" : " (out of reach: only several rows apart at once could be flagged)" }')"
info "A/A: $clean of $TRIALS trials flagged nothing, $flagged flagged a row, $broken had no compare; $rawtrials would have flagged a row judged alone (p < 0.05)"
check "A/A: at least $need of $TRIALS trials flag no row: $clean" [ "$clean" -ge "$need" ]
summary

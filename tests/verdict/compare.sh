# compare.sh: sourced by run.sh: `fsbench compare` by significance and by
# conditions on recorded QEMU runs (tests/verdict/compare/: ext4-only smoke
# runs of the qemu-x86_64 image under TCG, their run_start, control,
# fs_start, phase, fs_end and run_end records; how they were made:
# results/MEASUREMENTS-COMPARE.md, "Compare by significance and by conditions"):
# q1-q4 on the host as it was and s1-s4 with QEMU stopped a quarter of the
# time (the host slower), in turns; later q5-q8 and t5-t8 with the target
# throttled to 500 I/O operations a second, in turns.
d=$here/compare
q="$d/q1.jsonl $d/q2.jsonl $d/q3.jsonl $d/q4.jsonl"
s4="$d/s1.jsonl $d/s2.jsonl $d/s3.jsonl $d/s4.jsonl"
q5="$d/q5.jsonl $d/q6.jsonl $d/q7.jsonl $d/q8.jsonl"
t4="$d/t5.jsonl $d/t6.jsonl $d/t7.jsonl $d/t8.jsonl"

# col TABLE COLUMN: the values of one column of a CSV table in $S/out, one a
# line (the table's header row names the columns)
col() {
	awk -F, -v t="$1" -v c="$2" '$1 == t && !k { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == t && k { print $k }' "$S/out"
}

# ---- a slower host: the conditions are flagged, not the rows ----
# Four runs a side judge 7 rows: the exact test of 4 against 4 cannot go
# below 0.05 over 7 rows, so the gate cannot pass: 5, never 0.
# shellcheck disable=SC2086
expect_rc 5 "compare q1-q4 -- s1-s4 --fail-on-regression: no row slower, none decided" \
	"$fsb" compare $q -- $s4 --fail-on-regression --format csv
check "the conditions differ (the control items slower)" \
	[ "$(col flags conditions)" = differ ]
check "every row judged relative to the control" \
	sh -c '[ -n "$1" ] && [ -z "$(printf "%s\n" "$1" | grep -vx control)" ]' - "$(col compare b_judged_on)"
check "none of them flagged relative to the control" \
	[ "$(col compare b_flag | grep -cx slower)" -eq 0 ]

# ---- a slower disk: the read rows 1.4 to 1.6 times slower, 4 runs a side ----
# shellcheck disable=SC2086
expect_rc 5 "compare q5-q8 -- t5-t8 --fail-on-regression: undecided (4 runs a side), not passed" \
	"$fsb" compare $q5 -- $t4 --fail-on-regression --format csv
check "the conditions the same" [ "$(col flags conditions)" = same ]
check "every row undecided, none flagged" \
	[ "$(col compare b_flag | grep -cx undecided)" -eq 7 ]
# the runs a side that would decide each: the read rows, 1.4 to 1.6 times
# slower, within 15; the stat walk (1.07, spread 0.64-2.15) more than 200
reads=$(awk -F, '$1 == "compare" && $3 ~ /^read/ { print $16 }' "$S/out" | sort -n | tail -n 1)
check "the read rows: at most 15 runs a side would decide them (the most: $reads)" \
	[ "${reads:-999}" -le 15 ]
check "the stat walk: more than 200 runs a side" \
	grep -q '^compare,ext4,stat walk (cold),.*,201,.*,undecided,undecided,raw$' "$S/out"
check "the stderr line names the side, the rows and the runs they need" \
	contains "$ERR" "7 rows cannot be decided with 4 runs against 4 (their change could be beyond the tolerance, 10%, unseen); more than 200 runs a side would decide them: ext4 create (incl. sync) ("

# ---- one run a side: never decided, and said ----
expect_rc 5 "compare q5 t5 --fail-on-regression: 1 sample against 1 cannot be decided" \
	"$fsb" compare "$d/q5.jsonl" "$d/t5.jsonl" --fail-on-regression
check "it says cannot decide, with the runs a side" contains "$OUT" "| cannot decide: at least 6 runs a side"

# ---- controls of other work are not compared ----
for f in q1 q2 q3 q4; do
	sed 's/"cpu_iterations":[0-9]*/"cpu_iterations":999/' "$d/$f.jsonl" > "$S/cpu-$f.jsonl"
done
# shellcheck disable=SC2086
expect_rc 0 "compare q1-q4 (their CPU loop said to be of other work) -- s1-s4" \
	"$fsb" compare "$S/cpu-q1.jsonl" "$S/cpu-q2.jsonl" "$S/cpu-q3.jsonl" "$S/cpu-q4.jsonl" -- $s4 --format csv
check "the CPU loop is left out of the conditions, the copy and the tmpfs stay" \
	[ "$(col conditions item | tr '\n' ,)" = "copy,tmpfs," ]

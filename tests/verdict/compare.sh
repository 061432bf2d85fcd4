# compare.sh: sourced by run.sh: `fsbench compare` by significance and by
# conditions on recorded QEMU runs (tests/verdict/compare/: ext4-only smoke
# runs of the qemu-x86_64 image under TCG, their run_start, control,
# fs_start, phase, fs_end and run_end records; how they were made:
# results/MEASUREMENTS.md, "Compare by significance and by conditions"):
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
# shellcheck disable=SC2086
expect_rc 0 "compare q1-q4 -- s1-s4 --fail-on-regression: no row slower" \
	"$fsb" compare $q -- $s4 --fail-on-regression --format csv
check "the conditions differ (the control items slower)" \
	[ "$(col flags conditions)" = differ ]
check "every row judged relative to the control" \
	sh -c '[ -n "$1" ] && [ -z "$(printf "%s\n" "$1" | grep -vx control)" ]' - "$(col compare b_judged_on)"
check "rows the raw seconds would have flagged slower ($(col compare b_flag_raw | grep -cx slower) of $(col compare b_flag_raw | wc -l))" \
	[ "$(col compare b_flag_raw | grep -cx slower)" -gt 0 ]
check "none of them flagged relative to the control" \
	[ "$(col compare b_flag | grep -cx slower)" -eq 0 ]

# ---- a slower disk: the read rows flagged, the control the same ----
# shellcheck disable=SC2086
expect_rc 1 "compare q5-q8 -- t5-t8 --fail-on-regression: slower rows" \
	"$fsb" compare $q5 -- $t4 --fail-on-regression --format csv
check "the conditions the same" [ "$(col flags conditions)" = same ]
reads=$(awk -F, '$1 == "compare" && $3 ~ /^read/ && $0 ~ /,slower,slower,raw$/ { print $3 }' "$S/out")
check "the read rows flagged slower on the raw seconds: fresh, aged, inode order fresh" \
	[ "$(printf '%s\n' "$reads" | tr '\n' ,)" = "read cold (fresh fs),read cold (aged fs),read inode order (fresh fs)," ]
# the fourth, 1.43 times slower, has one sample out of order: p = 4/70
check "read inode order (aged fs): beyond the tolerance, p 0.0571: not significant" \
	grep -q '^compare,ext4,read inode order (aged fs),.*,0\.0571,.*,not_significant,not_significant,raw$' "$S/out"
check "the stderr line names the side and the test" \
	contains "$ERR" "rows slower than A beyond the tolerance (10%) and significant (Mann-Whitney p < 0.05)"

# ---- one run a side: too few samples, nothing flagged, and said ----
expect_rc 0 "compare q5 t5 --fail-on-regression: a read 1 sample against 1 is not flagged" \
	"$fsb" compare "$d/q5.jsonl" "$d/t5.jsonl" --fail-on-regression
check "it says too few samples" contains "$OUT" "| too few samples"

# ---- controls of other work are not compared ----
for f in q1 q2 q3 q4; do
	sed 's/"cpu_iterations":[0-9]*/"cpu_iterations":999/' "$d/$f.jsonl" > "$S/cpu-$f.jsonl"
done
# shellcheck disable=SC2086
expect_rc 0 "compare q1-q4 (their CPU loop said to be of other work) -- s1-s4" \
	"$fsb" compare "$S/cpu-q1.jsonl" "$S/cpu-q2.jsonl" "$S/cpu-q3.jsonl" "$S/cpu-q4.jsonl" -- $s4 --format csv
check "the CPU loop is left out of the conditions, the copy and the tmpfs stay" \
	[ "$(col conditions item | tr '\n' ,)" = "copy,tmpfs," ]

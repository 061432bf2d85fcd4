# changes.sh: `fsbench history DIR --changes` end to end, sourced by
# run.sh (its fsb, S, top and smoke; lib.sh's checks). A results folder of
# twelve run folders made from the recorded QEMU smoke run
# (tests/qemu/smoke-serial.log): each its own run_id and a day apart, every
# phase's seconds times a jitter of a few percent that has no level of its
# own (+2 -1 +1 -2 ... %), and ext4's create twice as slow from the seventh
# run on. The change must be found there and nowhere else, in Markdown and
# CSV; the settings change what they say; bad settings are misuse.

# mkrun K FACTOR EXT4_CREATE_FACTOR: run folder K of $S/hist.
mkrun() {
	_d=$S/hist/$(printf '%02d-qemu-x86_64-smoke' "$1")
	mkdir -p "$_d"
	awk -v k="$1" -v f="$2" -v cf="$3" '
		/"type":"run_start"/ { sub(/"time_unix":[0-9]+/, "\"time_unix\":" 1796071709 + k * 86400) }
		/"type":"phase"/ {
			g = f
			if ($0 ~ /"fs":"ext4"/ && $0 ~ /"phase":"create"/) g = f * cf
			if (match($0, /"seconds":[0-9.e+-]+/)) {
				v = substr($0, RSTART + 10, RLENGTH - 10)
				$0 = substr($0, 1, RSTART - 1) "\"seconds\":" sprintf("%.8f", v * g) substr($0, RSTART + RLENGTH)
			}
		}
		{ gsub(/c0ae145ed8f7a190/, sprintf("%016x", 4096 + k)); print }' "$smoke" > "$_d/records.jsonl"
}

rm -rf "$S/hist"
k=1
for j in 1.02 0.99 1.01 0.98 1.00 1.02 0.99 1.01 0.98 1.00 1.02 0.99; do
	mkrun "$k" "$j" "$([ "$k" -ge 7 ] && echo 2 || echo 1)"
	k=$((k + 1))
done

expect_rc 0 "history --changes on 12 runs made from the smoke run" "$fsb" history "$S/hist" --changes
printf '%s\n' "$OUT" > "$S/changes.md"
check "the method and its defaults are said" sh -c "grep -q '^- significance: 0.01\$' '$S/changes.md' &&
	grep -q '^- permutations: 199\$' '$S/changes.md' && grep -q '^- min_segment: 3\$' '$S/changes.md' &&
	grep -q '^- method: E-divisive means (Matteson and James 2014)' '$S/changes.md'"
sed -n '/^## Change points/,/^## /p' "$S/changes.md" | grep '^| [a-z]' | grep -v '^| fs ' > "$S/rows" || true
check "one change point: ext4 create, from the seventh run (its link, run_id and date)" sh -c \
	"[ \$(wc -l < '$S/rows') = 1 ] &&
	 grep -q '^| ext4 | create (incl. sync) | \[07-qemu-x86_64-smoke\](07-qemu-x86_64-smoke/records.jsonl) | 0000000000001007 | 2026-12-07 20:48:29 |' '$S/rows'"
expect_rc 0 "history --changes --format csv" "$fsb" history "$S/hist" --changes --format csv
printf '%s\n' "$OUT" > "$S/changes.csv"
check "as data: the change with its levels, ratio (about 2), p-value (<= 0.01) and runs (6 and 6)" \
	awk -F, '$1 == "changes" && $2 != "fs" { n++; if ($2 == "ext4" && $3 == "create (incl. sync)" &&
		$4 == "07-qemu-x86_64-smoke" && $9 > 1.9 && $9 < 2.1 && $7 > 0.85 && $7 < 0.95 &&
		$10 > 0 && $10 <= 0.01 && $11 == 6 && $12 == 6) ok++ }
		END { exit !(n == 1 && ok == 1) }' "$S/changes.csv"
check "a series per filesystem and summary row, ext4 create with its change" sh -c \
	"grep -q '^changes_series,ext4,create (incl. sync),12,1,' '$S/changes.csv' &&
	 grep -q '^changes_series,xfs,create (incl. sync),12,0,' '$S/changes.csv' &&
	 [ \$(grep -c '^changes_series,[a-z]' '$S/changes.csv') -ge 20 ]"
expect_rc 0 "history --changes --seed 7 --permutations 999 --significance 0.5%" \
	"$fsb" history "$S/hist" --changes --seed 7 --permutations 999 --significance 0.5% --format csv
check "another seed and more permutations: the same change point" sh -c \
	"printf '%s\n' \"\$1\" | grep -q '^changes,ext4,create (incl. sync),07-qemu-x86_64-smoke,' &&
	 printf '%s\n' \"\$1\" | grep -q '^changes_method,significance,0.005\$' &&
	 printf '%s\n' \"\$1\" | grep -q '^changes_method,seed,7\$'" - "$OUT"
expect_rc 0 "history --changes --min-segment 7: no series long enough" \
	"$fsb" history "$S/hist" --changes --min-segment 7
check "each series says it was not searched; no change point" sh -c \
	"printf '%s\n' \"\$1\" | grep -q '^No change point in any series.\$' &&
	 printf '%s\n' \"\$1\" | grep -q 'not searched: 12 runs, fewer than 2 x the minimum segment (7)'" - "$OUT"
expect_rc 0 "history --changes --format html" "$fsb" history "$S/hist" --changes --format html
check "html: the change point's run links to its records" \
	contains "$OUT" '<a href="07-qemu-x86_64-smoke/records.jsonl">07-qemu-x86_64-smoke</a>'
expect_rc 2 "history --seed without --changes: misuse" "$fsb" history "$S/hist" --seed 3
expect_err "history: --seed without --changes"
expect_rc 2 "history --changes --permutations 50: cannot reach 0.01" \
	"$fsb" history "$S/hist" --changes --permutations 50
expect_err "the smallest p-value is 1/(N+1); give at least 99"
expect_rc 2 "history --changes --significance 2: misuse" "$fsb" history "$S/hist" --changes --significance 2
expect_err "--significance: expected a p-value between 0 and 1 (0.01, or 1%), got '2'"
expect_rc 2 "history --changes --min-segment 1: misuse" "$fsb" history "$S/hist" --changes --min-segment 1
expect_err "--min-segment: expected a whole number of 2 or more, got '1'"

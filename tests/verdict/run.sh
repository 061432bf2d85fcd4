#!/bin/sh
# run.sh: fsbench verdict and the JUnit writer on real records: the recorded
# QEMU smoke console (tests/qemu/smoke-serial.log), each board's
# criteria.conf, a criteria file that must fail, a baseline with a slowed
# phase, misuse, `verdict --log` (the record appended to a run's log and
# read back), and `report --format junit` validated against
# tests/verdict/junit.xsd with xmllint (SKIP when xmllint is missing);
# `report --format ktap` read by a strict KTAP parser (ktap.sh, ktap.awk);
# `history --changes` on run folders made from the smoke run (changes.sh);
# compare by significance and by conditions on recorded runs (compare.sh).
# ERROR apart from FAIL, SKIP and known issues in every output
# (tests/verdict/error.sh).
# Usage: run.sh FSBENCH (the host build). Scratch files under $O/tests/verdict.
# Output: one line per check, a summary; exit 1 when one failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fsb=${1:?usage: run.sh FSBENCH}
O=${O:-$(pwd)/out}
S=$O/tests/verdict
rm -rf "$S"; mkdir -p "$S"
. "$here/../lib.sh"
test_init verdict "$S"
smoke=$top/tests/qemu/smoke-serial.log
xsd=$here/junit.xsd

# ---- criteria written from a known-good run pass on that run ----
expect_rc 0 "verdict --write-criteria: a criteria file from the smoke run" \
	"$fsb" verdict "$smoke" --write-criteria
printf '%s\n' "$OUT" > "$S/written.conf"
check "the written criteria hold floors of files/s and the evidence the run has" \
	sh -c "grep -q '^min_files_per_s.ext4.create = ' '$S/written.conf' && grep -qx 'verify = all' '$S/written.conf' && grep -qx 'fs_ok = ext4,xfs,btrfs,f2fs' '$S/written.conf'"
expect_rc 0 "verdict against them: PASS" "$fsb" verdict "$smoke" --criteria "$S/written.conf"
check "last line: verdict: PASS" sh -c "printf '%s\n' \"\$1\" | tail -n 1 | grep -qx 'verdict: PASS'" - "$OUT"
n=$(printf '%s\n' "$OUT" | grep -c ': PASS$' || true)
check "one line per check ($n)" [ "$n" -eq 27 ]

# ---- each board's criteria.conf on the recorded smoke run ----
# The recording predates the kernel message and health records: those two
# checks say "not measured" (and fail); every other check passes.
for conf in "$top"/board/*/criteria.conf; do
	b=$(basename "$(dirname "$conf")")
	expect_rc 1 "board/$b/criteria.conf on the recorded smoke run" \
		"$fsb" verdict "$smoke" --criteria "$conf"
	fails=$(printf '%s\n' "$OUT" | grep -v '^verdict:' | grep ': FAIL' | sed 's/:.*//' | tr '\n' ',')
	check "board/$b: only the evidence the recording lacks fails ($fails)" \
		[ "$fails" = "kernel messages (warning or worse),new disk errors (media, error log entries, critical warnings)," ]
	check "board/$b: those say not measured" \
		sh -c "[ \$(printf '%s\n' \"\$1\" | grep ': FAIL' | grep -c 'not measured') = 2 ]" - "$OUT"
done

# ---- a criteria file that must fail names the limit and the measured value ----
printf 'errors = 0\nmin_files_per_s.ext4.create.fresh = 100000\nmax_p99_us.read = 1\n' > "$S/strict.conf"
expect_rc 1 "strict criteria: FAIL" "$fsb" verdict "$smoke" --criteria "$S/strict.conf"
check "the failing floor names measured and limit" sh -c "printf '%s\n' \"\$1\" | grep -qx \
	'ext4 create files/s (fresh, round 1): 2863 files/s, round 1; limit >= 100000 files/s: FAIL (strict.conf:2)'" - "$OUT"
check "the p99 ceiling is checked per filesystem (4 lines)" \
	sh -c "[ \$(printf '%s\n' \"\$1\" | grep -c '^[a-z0-9]* read p99 latency (all rounds): .* us, worst of 2 rounds .*; limit <= 1 us: FAIL') = 4 ]" - "$OUT"
check "last line: verdict: FAIL (5 of 6 checks failed)" \
	sh -c "printf '%s\n' \"\$1\" | tail -n 1 | grep -qx 'verdict: FAIL (5 of 6 checks failed)'" - "$OUT"

# ---- a baseline: a phase fails only beyond the tolerance and the spread ----
expect_rc 0 "verdict --baseline: the run against itself" "$fsb" verdict "$smoke" --baseline "$smoke"
check "a baseline line says the spread between the baseline's rounds" grep -qxF \
	'ext4 create (incl. sync) seconds (median): 0.9057 s (+0% vs baseline, 2 rounds); limit <= 1.32 s: baseline 0.9057 s + 46% (tolerance 10%, spread between its 2 rounds 46%): PASS' "$S/out"
check "a phase of one round has the tolerance only" grep -qxF \
	'ext4 read cold (fresh fs) seconds (median): 0.8515 s (+0% vs baseline, 1 round); limit <= 0.9366 s: baseline 0.8515 s + 10% (tolerance; one round, no spread): PASS' "$S/out"
sed 's/"phase":"create","order":"name","cold":true,"seconds":0.69862428/"phase":"create","order":"name","cold":true,"seconds":5.0/' \
	"$smoke" > "$S/slow.log"
expect_rc 1 "a run whose ext4 create is slower than tolerance and spread: FAIL" \
	"$fsb" verdict "$S/slow.log" --baseline "$smoke"
check "only ext4 create fails, and says by how much" sh -c "[ \"\$(grep ': FAIL' '$S/out' | grep -v '^verdict:')\" = \
	'ext4 create (incl. sync) seconds (median): 3.056 s (+237% vs baseline, 2 rounds); limit <= 1.32 s: baseline 0.9057 s + 46% (tolerance 10%, spread between its 2 rounds 46%): FAIL (baseline)' ]"
expect_rc 0 "the same with --tolerance 300%: PASS" \
	"$fsb" verdict "$S/slow.log" --baseline "$smoke" --tolerance 300%

# ---- misuse and unreadable input ----
expect_rc 2 "verdict without criteria or baseline: misuse" "$fsb" verdict "$smoke"
expect_err "nothing to check against"
printf 'errors = 0\n\nmax_seconds.ext4.creat = 5\n' > "$S/typo.conf"
expect_rc 2 "a criteria file with an unknown phase: misuse" "$fsb" verdict "$smoke" --criteria "$S/typo.conf"
expect_err "typo.conf:3: max_seconds.ext4.creat: unknown phase 'creat'"
printf 'errors = none\n' > "$S/bad.conf"
expect_rc 2 "a bad value: misuse" "$fsb" verdict "$smoke" --criteria "$S/bad.conf"
expect_err "bad.conf:1: errors: bad value 'none'; allowed: an integer >= 0"
expect_rc 2 "a bad --tolerance: misuse" "$fsb" verdict "$smoke" --baseline "$smoke" --tolerance lots
expect_rc 4 "a criteria file that is not there: system failure" \
	"$fsb" verdict "$smoke" --criteria "$S/none.conf"
expect_err "criteria $S/none.conf: No such file or directory"
expect_rc 2 "compare --format junit: misuse" "$fsb" compare "$smoke" "$smoke" --format junit
expect_rc 0 "report --criteria: the report, whatever the verdict" \
	"$fsb" report "$smoke" --criteria "$S/strict.conf"
check "report --criteria: a last table, the verdict, a row per check" sh -c \
	"grep -qx '## Verdict: FAIL (5 of 6 checks failed)' '$S/out' && [ \$(sed -n '/^## Verdict/,\$p' '$S/out' | grep -c '| FAIL   |') = 5 ]"
expect_rc 0 "report --criteria --format csv" "$fsb" report "$smoke" --criteria "$S/strict.conf" --format csv
check "as data: the numbers and their unit" grep -qx \
	'verdict,"ext4 create files/s (fresh, round 1)","2863 files/s, round 1",>= 100000 files/s,FAIL,strict.conf:2,2862.769100,100000.000000,files/s' "$S/out"
"$fsb" help criteria > "$S/keys"
check "help criteria lists every kind of check" sh -c "for k in min_files_per_s max_seconds max_p99_us verify errors kmsg kmsg_ignore health_new_errors temperature_max pcie_link fs_ok; do grep -q \"^  \$k\" '$S/keys' || exit 1; done"

# ---- --log: the checks as a verdict record in the run's own log ----
# A short run in a directory (no mkfs, no root) gives a log with one run.
mkdir -p "$S/dir"
if "$fsb" run --dir "$S/dir" --profile smoke --fs ext4 --progress=0 --log "$S/run.log" \
	>"$S/dir.jsonl" 2>"$S/dir.err"; then
	pass "a run with a log (run --dir --log)"
else
	fail "a run with a log (run --dir --log)"; tail -n 5 "$S/dir.err" | sed 's/^/     | /'
fi
id=$(sh "$top/qemu/records.sh" "$S/dir.jsonl" run_start run_id)
last=$(sh "$top/qemu/records.sh" "$S/dir.jsonl" run_end seq)
printf 'fs_ok = ext4\nerrors = 0\nverify = all\n' > "$S/dir-ok.conf"
expect_rc 0 "verdict --log: PASS" "$fsb" verdict "$S/dir.jsonl" --criteria "$S/dir-ok.conf" --log "$S/run.log"
check "verdict --log prints the checks as without it" sh -c "printf '%s\n' \"\$1\" | tail -n 1 | grep -qx 'verdict: PASS'" - "$OUT"
rm -rf "$S/back"
"$fsb" log extract "$S/run.log" -o "$S/back" >/dev/null 2>&1 || true
check "the log reader finds the verdict record last, with the run's id and the next seq" \
	[ "$(tail -n 1 "$S/back/records.jsonl" | sh "$top/qemu/records.sh" - verdict run_id seq status checks failed)" = \
	"$(printf '%s\t%s\tpass\t3\t0' "$id" $((last + 1)))" ]
check "its checks: what, measured, limit, pass, where" \
	[ "$(sh "$top/qemu/records.sh" "$S/back/records.jsonl" verdict 'check[1].what' 'check[1].measured' 'check[1].pass' 'check[1].where')" = \
	"$(printf 'ext4 ran to the end\tok\ttrue\tdir-ok.conf:1')" ]
expect_rc 0 "report --format junit reads it back (no --criteria)" "$fsb" report "$S/back" --format junit
check "junit: the record's checks, as a verdict testsuite" grep -q '<testsuite name="verdict" tests="3" failures="0"' "$S/out"
printf 'min_files_per_s.ext4.create = 1e9\n' > "$S/dir-floor.conf"
expect_rc 1 "verdict --log with an impossible floor: FAIL" \
	"$fsb" verdict "$S/dir.jsonl" --criteria "$S/dir-floor.conf" --log "$S/run.log"
rm -rf "$S/back"
"$fsb" log extract "$S/run.log" -o "$S/back" >/dev/null 2>&1 || true
check "a second verdict record follows the first (seq + 1), status fail, the check named" \
	[ "$(tail -n 1 "$S/back/records.jsonl" | sh "$top/qemu/records.sh" - verdict seq status 'check[1].what' 'check[1].pass')" = \
	"$(printf '%s\tfail\text4 create files/s (all rounds)\tfalse' $((last + 2)))" ]
"$fsb" report "$S/back" --format junit >"$S/back.xml" 2>/dev/null || true
check "junit without --criteria: the later verdict record's checks" \
	grep -q '<testsuite name="verdict" tests="1" failures="1"' "$S/back.xml"
: >"$S/other.log"
expect_rc 2 "verdict --log LOG without the run: misuse" \
	"$fsb" verdict "$S/dir.jsonl" --criteria "$S/dir-ok.conf" --log "$S/other.log"
expect_err "log $S/other.log: no record of run $id"
check "nothing was written to it" [ ! -s "$S/other.log" ]
expect_rc 4 "verdict --log LOG that cannot be read: system failure" \
	"$fsb" verdict "$S/dir.jsonl" --criteria "$S/dir-ok.conf" --log "$S/missing.log"
expect_rc 2 "--write-criteria --log: misuse" "$fsb" verdict "$S/dir.jsonl" --write-criteria --log "$S/run.log"

# ---- ERROR, SKIP and known issues (tests/verdict/error.sh) ----
. "$here/error.sh"

# ---- JUnit XML ----
expect_rc 0 "report --format junit --criteria" \
	"$fsb" report "$smoke" --format junit --criteria "$S/strict.conf"
printf '%s\n' "$OUT" > "$S/smoke.xml"
check "a testsuite per filesystem and one for the verdict" \
	sh -c "[ \$(grep -c '^  <testsuite name=' '$S/smoke.xml') = 5 ] && grep -q '<testsuite name=\"verdict\" tests=\"6\" failures=\"5\"' '$S/smoke.xml'"
check "a testcase per round x phase, with its seconds" \
	grep -q '<testcase classname="fsbench.ext4" name="round 1 create" time="0.698624">' "$S/smoke.xml"
"$fsb" report "$top/tests/unit/data/report-run.jsonl" --format junit > "$S/skipped.xml"
check "a filesystem that did not run is an error" \
	grep -q '<error type="skipped" message="skipped: mkfs.f2fs not found"/>' "$S/skipped.xml"
{ cat "$smoke"; printf '%s\n' 'FSBENCH:{"schema":1,"type":"verdict","run_id":"c0ae145ed8f7a190","seq":98,"t":39.5,"status":"fail","checks":2,"failed":1,"check":[{"what":"errors","measured":"0","limit":"<= 0","pass":true,"where":"criteria.conf:3"},{"what":"kernel messages","measured":"3 & <more>","limit":"<= 0","pass":false,"where":"criteria.conf:4"}]}'; } > "$S/with-verdict.log"
"$fsb" report "$S/with-verdict.log" --format junit > "$S/record.xml"
check "without --criteria, the run's verdict record gives the checks" \
	grep -q '<failure type="criteria" message="3 &amp; &lt;more&gt;; limit &lt;= 0"/>' "$S/record.xml"
if have xmllint; then
	check "smoke.xml validates against tests/verdict/junit.xsd" \
		xmllint --noout --schema "$xsd" "$S/smoke.xml"
	check "skipped.xml validates against tests/verdict/junit.xsd" \
		xmllint --noout --schema "$xsd" "$S/skipped.xml"
	check "record.xml validates against tests/verdict/junit.xsd" \
		xmllint --noout --schema "$xsd" "$S/record.xml"
	sed 's/<testsuite name="verdict" tests="6"/<testsuite name="verdict" tests="six"/' "$S/smoke.xml" > "$S/broken.xml"
	check "the schema rejects a count that is not a number" \
		sh -c "! xmllint --noout --schema '$xsd' '$S/broken.xml' 2>/dev/null"
else
	skip "JUnit XML against tests/verdict/junit.xsd: xmllint not found (Debian libxml2-utils; make deps)"
fi

# ---- KTAP, checked by a strict parser ----
. "$here/ktap.sh"

# ---- history --changes: change points over run folders made from the smoke run ----
. "$here/changes.sh"

# ---- compare by significance and by conditions ----
. "$here/compare.sh"

summary

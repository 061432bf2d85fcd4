# error.sh: sourced by tests/verdict/run.sh (its helpers, $fsb, $S, $top,
# $smoke, $xsd): ERROR apart from FAIL, SKIP, and known issues, on the
# recorded smoke console and runs made from it, in every output: the
# verdict's lines and exit code, JUnit (validated), HTML, LAVA lines and
# the verdict record.
#   - a boot that never reached the runner: the console up to its first
#     record: ERROR, exit 5, JUnit <error>; and qemu/collect.sh on it, as
#     a launcher's --timeout leaves it;
#   - a run that broke off (cut before btrfs's fs_end): what
#     was measured holds (PASS or FAIL), what is absent is ERROR;
#   - a refused target, a filesystem skipped (tests/unit/data);
#   - a discard read-back that does not apply: SKIP;
#   - known issues matched, expired, --strict, bad files.

noboot=$S/noboot.log
# the recorded console up to its first record: init started the runner,
# which never wrote one (a hang, a crash before run_start)
sed '/FSBENCH/,$d' "$smoke" >"$noboot"
printf 'fs_ok = ext4,xfs\nmin_files_per_s.ext4.create = 100\nerrors = 0\n' >"$S/e.conf"

# ---- ERROR: the boot never reached the runner ----
expect_rc 5 "a console without a record: ERROR, exit 5" "$fsb" verdict "$noboot" --criteria "$S/e.conf"
check "its checks that need the run say ERROR, with why" sh -c "[ \$(printf '%s\n' \"\$1\" | \
	grep -c ': ERROR (e.conf:[12]): no record of the run: the boot never reached the runner$') = 3 ]" - "$OUT"
check "a check of the run itself says so" sh -c "printf '%s\n' \"\$1\" | grep -qx \
	'fsbench run ran to its end: no record of the run; limit run_start, run_end not refused: ERROR (the run.s records): no record of the run: the boot never reached the runner'" - "$OUT"
check "last line: verdict: ERROR (4 of 5 checks could not judge)" \
	sh -c "printf '%s\n' \"\$1\" | tail -n 1 | grep -qx 'verdict: ERROR (4 of 5 checks could not judge)'" - "$OUT"
"$fsb" report "$noboot" --criteria "$S/e.conf" --format junit >"$S/noboot.xml" 2>/dev/null || :
check "junit: the ERROR checks are <error> elements, counted as errors, not failures" sh -c \
	"grep -q '<testsuites name=\"fsbench (no run)\" tests=\"5\" failures=\"0\" errors=\"4\"' '$S/noboot.xml' &&
	 [ \$(grep -c '<error type=\"could not judge\"' '$S/noboot.xml') = 4 ] && ! grep -q '<failure' '$S/noboot.xml'"
"$fsb" report "$noboot" --format junit >"$S/noboot-plain.xml" 2>/dev/null || :
check "junit without criteria: a testsuite run with one error" \
	grep -q '<error type="could not judge" message="no record of the run: the boot never reached the runner"/>' \
	"$S/noboot-plain.xml"

# ---- ERROR beside FAIL: a run that broke off in btrfs ----
n=$(grep -n '"type":"fs_end".*"fs":"btrfs"' "$smoke" | cut -d: -f1)
head -n $((n - 1)) "$smoke" >"$S/broke.log"
printf 'fs_ok = ext4,btrfs,f2fs\nmax_seconds.*.create = 1\nerrors = 0\n' >"$S/broke.conf"
expect_rc 1 "a run that broke off with a slow phase measured: FAIL, exit 1" \
	"$fsb" verdict "$S/broke.log" --criteria "$S/broke.conf"
check "what was measured holds: a phase over its limit FAILs" grep -q \
	'^xfs create seconds (all rounds): .*: FAIL (broke.conf:2)$' "$S/out"
check "btrfs without fs_end: ERROR, the run broke off in it" grep -qx \
	'btrfs ran to the end: no fs_end record; limit ok: ERROR (broke.conf:1): btrfs: no fs_end record: the run broke off in it' "$S/out"
check "f2fs never started: ERROR, no run_end" grep -q \
	'^f2fs ran to the end: not in the run; limit ok: ERROR (broke.conf:1): no run_end record: the run broke off after btrfs round ' "$S/out"
check "the verdict line counts both" sh -c "tail -n 1 '$S/out' | grep -qx 'verdict: FAIL (3 of 8 checks failed, 3 errors)'"
"$fsb" report "$S/broke.log" --criteria "$S/broke.conf" --format junit >"$S/broke.xml" 2>/dev/null || :
check "junit: failures and errors apart" \
	grep -q '<testsuite name="verdict" tests="8" failures="3" errors="3" skipped="0"' "$S/broke.xml"
"$fsb" report "$S/broke.log" --criteria "$S/broke.conf" --format html >"$S/broke.html" 2>/dev/null || :
check "html: the verdict box lists the ERROR checks with why" sh -c \
	"grep -q '<div class=\"verdict fail\" id=\"verdict\">' '$S/broke.html' &&
	 grep -q '<li class=\"error\">btrfs ran to the end: .*: ERROR: btrfs: no fs_end record' '$S/broke.html'"

# ---- a refused target; a filesystem the image could not make ----
expect_rc 5 "a refused target: ERROR, exit 5" \
	"$fsb" verdict "$top/tests/unit/data/report-refused.jsonl" --criteria "$S/e.conf"
check "its error record is not the disk's: the errors check is ERROR" grep -q \
	"^error records (failed syscalls, workers): 1; limit <= 0: ERROR (e.conf:3): the error records beyond the limit are not the disk's: target: target serial:NOPE" "$S/out"
printf 'fs_ok = ext4,f2fs\nmin_files_per_s.*.create = 10\n' >"$S/skip.conf"
expect_rc 5 "mkfs.f2fs not in the image: ERROR, not FAIL" \
	"$fsb" verdict "$top/tests/unit/data/report-run.jsonl" --criteria "$S/skip.conf"
check "f2fs ran to the end: ERROR, why" grep -qx \
	'f2fs ran to the end: skipped: mkfs.f2fs not found; limit ok: ERROR (skip.conf:1): f2fs was skipped: mkfs.f2fs not found' "$S/out"

# ---- SKIP: a check that does not apply to the target ----
{ cat "$smoke"; printf '%s\n' 'FSBENCH:{"schema":1,"type":"discard_check","run_id":"c0ae145ed8f7a190","seq":98,"t":39.4,"device":"/dev/nvme0n1","status":"not run: the disk does not promise zeroes after a deallocate"}'; } >"$S/nozero.log"
printf 'errors = 0\ndiscard_zeroes = ok\n' >"$S/zero.conf"
expect_rc 0 "a disk that does not promise zeroes: the check SKIPs, the verdict passes" \
	"$fsb" verdict "$S/nozero.log" --criteria "$S/zero.conf" --lava
check "the line says SKIP and why, the verdict counts it" sh -c \
	"grep -q ': SKIP (zero.conf:2): not run: the disk does not promise zeroes after a deallocate$' '$S/out' &&
	 tail -n 1 '$S/out' | grep -qx 'verdict: PASS (1 skipped)'"
check "LAVA: result=skip" grep -qx \
	'FSBENCH-RESULT: test_case_id=verdict-a-discarded-range-of-the-target-reads-back-as-zeroes result=skip' "$S/out"
"$fsb" report "$S/nozero.log" --criteria "$S/zero.conf" --format junit >"$S/skip.xml" 2>/dev/null || :
check "junit: <skipped>, counted" sh -c "grep -q '<skipped type=\"does not apply\"' '$S/skip.xml' &&
	 grep -q '<testsuite name=\"verdict\" tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"1\"' '$S/skip.xml'"

# ---- the exit codes, documented ----
"$fsb" help exit-codes >"$S/codes" 2>&1 || :
check "help exit-codes: 5 could not judge" grep -q '5 could not judge' "$S/codes"

# ---- known issues ----
printf 'min_files_per_s.ext4.create.fresh = 100000\nmax_p99_us.xfs.read = 1\nerrors = 0\n' >"$S/k.conf"
cat >"$S/known.txt" <<'EOF'
# known issues of the board
check 2099-12-31 https://bugs.example.org/1 ext4 create files/s*
EOF
expect_rc 1 "one failure known, one not: FAIL" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/known.txt"
check "the known failure still says FAIL, then its issue" grep -qx \
	'ext4 create files/s (fresh, round 1): 2863 files/s, round 1; limit >= 100000 files/s: FAIL (k.conf:1), known issue https://bugs.example.org/1 (known.txt:2, until 2099-12-31)' "$S/out"
check "the verdict: 1 failure counts, 1 known" sh -c "tail -n 1 '$S/out' | grep -qx 'verdict: FAIL (1 of 3 checks failed, 1 known failure)'"
printf 'check 2099-12-31 https://bugs.example.org/2 xfs read p99*\n' >>"$S/known.txt"
expect_rc 0 "every failure known: PASS, exit 0" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/known.txt" --lava
check "PASS (2 known failures)" sh -c "tail -n 1 '$S/out' | grep -qx 'verdict: PASS (2 known failures)'"
check "LAVA: the result stays fail, after a FSBENCH-KNOWN line" sh -c \
	"grep -A1 '^FSBENCH-KNOWN: test_case_id=verdict-xfs-read-p99-latency-all-rounds link=https://bugs.example.org/2 until=2099-12-31 where=known.txt:3$' '$S/out' |
	 grep -q '^FSBENCH-RESULT: test_case_id=verdict-xfs-read-p99-latency-all-rounds result=fail '"
expect_rc 1 "--strict: known failures fail" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/known.txt" --strict
check "the verdict says they count" sh -c "tail -n 1 '$S/out' | grep -qx 'verdict: FAIL (2 of 3 checks failed, 2 of them known (--strict))'"
"$fsb" report "$smoke" --criteria "$S/k.conf" --known "$S/known.txt" --format junit >"$S/known.xml" 2>/dev/null || :
check "junit: a known failure is a failure of type known issue, its link a property" sh -c \
	"[ \$(grep -c '<failure type=\"known issue\" message=' '$S/known.xml') = 2 ] &&
	 grep -q '<property name=\"known_issue\" value=\"https://bugs.example.org/1\"/>' '$S/known.xml'"
"$fsb" report "$smoke" --criteria "$S/k.conf" --known "$S/known.txt" --format html >"$S/known.html" 2>/dev/null || :
check "html: the box passes and lists the known failures with their link" sh -c \
	"grep -q '<div class=\"verdict pass\" id=\"verdict\">' '$S/known.html' &&
	 grep -q '<strong>Verdict: PASS (3 checks, 2 known failures)</strong>' '$S/known.html' &&
	 grep -q 'known issue https://bugs.example.org/1 (known.txt:2, until 2099-12-31)</li>' '$S/known.html'"
printf 'check 2001-02-03 https://bugs.example.org/9 ext4 create files/s*\n' >"$S/expired.txt"
expect_rc 1 "an expired entry no longer applies: FAIL" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/expired.txt"
expect_err "known issue expired.txt:1 (https://bugs.example.org/9) expired on 2001-02-03: it no longer applies"
check "the failure says the entry expired" grep -q \
	'FAIL (k.conf:1), known issue https://bugs.example.org/9 expired on 2001-02-03 (expired.txt:1): it counts$' "$S/out"
# kernel messages: the smoke console with one, known by its text
{ cat "$smoke"; printf '%s\n' 'FSBENCH:{"schema":1,"type":"kmsg","run_id":"c0ae145ed8f7a190","seq":98,"t":39.4,"phase":"between","ts_usec":5,"level":4,"text":"nvme nvme0: I/O 12 QID 1 timeout, aborting"}'; } >"$S/kmsg.log"
printf 'kmsg = 0\n' >"$S/kmsg.conf"
printf 'kmsg 2099-12-31 https://lore.example.org/nvme QID * timeout\n' >"$S/kmsg-known.txt"
expect_rc 0 "a kernel message known by its text: PASS" \
	"$fsb" verdict "$S/kmsg.log" --criteria "$S/kmsg.conf" --known "$S/kmsg-known.txt"
check "the kmsg check names the issue" grep -q 'FAIL (kmsg.conf:1), known issue https://lore.example.org/nvme ' "$S/out"
# the record keeps them: the run of run.sh's --log part, read back, junit
# without --criteria shows them
printf 'min_files_per_s.ext4.create = 1e9\n' >"$S/kfloor.conf"
printf 'check 2099-12-31 https://bugs.example.org/3 ext4 create*\n' >"$S/kfloor.txt"
expect_rc 0 "verdict --log --known: PASS" "$fsb" verdict "$S/dir.jsonl" --criteria "$S/kfloor.conf" \
	--known "$S/kfloor.txt" --log "$S/run.log"
rm -rf "$S/kback"
"$fsb" log extract "$S/run.log" -o "$S/kback" >/dev/null 2>&1 || :
check "the verdict record: status pass, the check fail with its known issue" \
	[ "$(tail -n 1 "$S/kback/records.jsonl" | sh "$top/qemu/records.sh" - verdict status failed known 'check[1].result' 'check[1].known')" = \
	"$(printf 'pass\t0\t1\tfail\thttps://bugs.example.org/3')" ]
check "the verdict record with its results and known issue breaks no rule of the schema (log check)" \
	"$fsb" log check "$S/kback/records.jsonl"
"$fsb" report "$S/kback" --format junit >"$S/kback.xml" 2>/dev/null || :
check "junit from the record: the known failure" grep -q '<failure type="known issue"' "$S/kback.xml"
# bad files: the file, the line, the reason
printf '# ok\ncheck 2027-02-30 https://x a\n' >"$S/bad-date.txt"
expect_rc 2 "a known-issues file with a bad date: misuse" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/bad-date.txt"
expect_err "verdict: known issues $S/bad-date.txt:2: bad expiry date '2027-02-30': expected YYYY-MM-DD, a day of the calendar"
printf 'chek 2027-01-01 https://x a\n' >"$S/bad-kind.txt"
expect_rc 2 "an unknown kind: misuse" "$fsb" report "$smoke" --criteria "$S/k.conf" --known "$S/bad-kind.txt"
expect_err "report: known issues $S/bad-kind.txt:1: unknown kind 'chek'; allowed: check, kmsg"
printf 'kmsg 2027-01-01 https://x\n' >"$S/bad-pat.txt"
expect_rc 2 "no pattern: misuse" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/bad-pat.txt"
expect_err "$S/bad-pat.txt:1: no pattern after the link"
expect_rc 4 "a known-issues file that is not there: system failure" \
	"$fsb" verdict "$smoke" --criteria "$S/k.conf" --known "$S/nothere.txt"
expect_err "verdict: known issues $S/nothere.txt: No such file or directory"
expect_rc 2 "--strict without --known: misuse" "$fsb" verdict "$smoke" --criteria "$S/k.conf" --strict
expect_err "--strict without --known"

# ---- JUnit: each count is its elements ----
# counts FILE: "ok" when every testsuite's failures, errors and skipped
# attributes are the <failure>, <error> and <skipped> elements in it, and
# the root's tests, failures and errors their sums
counts() {
	awk '
	function attr(s, n,   m) { m = match(s, " " n "=\"[0-9]+\""); if (!m) return -1
		s = substr(s, RSTART + length(n) + 3); return substr(s, 1, index(s, "\"") - 1) + 0 }
	/<testsuites / { rt = attr($0, "tests"); rf = attr($0, "failures"); re = attr($0, "errors") }
	/<testsuite / { t = attr($0, "tests"); f = attr($0, "failures"); e = attr($0, "errors"); k = attr($0, "skipped")
		nt = nf = ne = nk = 0; st += t; sf += f; se += e }
	/<testcase / { nt++ } /<failure / { nf++ } /<error / { ne++ } /<skipped / { nk++ }
	/<\/testsuite>/ { if (nt != t || nf != f || ne != e || (k >= 0 && nk != k)) bad = bad " " FILENAME ":" FNR }
	END { if (st != rt || sf != rf || se != re) bad = bad " root"; print bad == "" ? "ok" : "wrong:" bad }' "$1"
}
for x in noboot noboot-plain broke skip known kback; do
	check "junit $x.xml: the counts are its elements" [ "$(counts "$S/$x.xml")" = ok ]
done
if have xmllint; then
	for x in noboot noboot-plain broke skip known; do
		check "junit $x.xml validates against tests/verdict/junit.xsd" xmllint --noout --schema "$xsd" "$S/$x.xml"
	done
fi

# ---- the launcher: a boot that never reached the runner ----
# qemu/collect.sh on what a run killed by --timeout before any record
# leaves (watch.txt's end, a console without records, a log partition
# that holds none): the host's verdict is ERROR, the exit status the
# launcher's for no run_end (4).
mkdir -p "$S/timeout/work" "$S/timeout/res"
cp "$noboot" "$S/timeout/res/serial.log"
printf "t0=100.0\nfirst=\nt1=160.0\nqrc=137\nwhy_end='timeout: killed after 60s'\n" >"$S/timeout/work/watch.txt"
: >"$S/timeout/work/disk.img"
set +e
(cd "$S/timeout" && FSBENCH_HOST=$fsb BOARD=qemu-x86_64 PROFILE=smoke ROOTFS=ext4 BOOT=direct \
	ACCEL_TEXT=tcg CRITERIA="$top/board/qemu-x86_64/criteria.conf" SIZES=/dev/null \
	sh "$top/qemu/collect.sh" "$S/timeout/res" "$S/timeout/work" >"$S/timeout/out" 2>&1)
rc=$?
set -e
check "collect.sh, no record: exit 4 (no run_end record), as before ($rc)" [ "$rc" = 4 ]
check "collect.sh, no record: verdict.txt says ERROR, the boot never reached the runner" sh -c \
	"tail -n 1 '$S/timeout/res/verdict.txt' | grep -q '^verdict: ERROR (' &&
	 grep -q 'ERROR (the run.s records): no record of the run: the boot never reached the runner' '$S/timeout/res/verdict.txt'"
check "collect.sh, no record: run.txt and the last word say ERROR" sh -c \
	"grep -q '^  verdict: *ERROR (' '$S/timeout/res/run.txt' && grep -q 'qemu: verdict: ERROR (' '$S/timeout/out'"
check "collect.sh, no record: the JUnit says error" \
	grep -q '<error type="could not judge"' "$S/timeout/res/report.junit.xml"

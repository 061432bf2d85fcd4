# ktap.sh: `fsbench report --format ktap`, sourced by run.sh (its fsb, S,
# here, top, smoke and the criteria files and logs it wrote; lib.sh's
# checks).
# Every output goes through ktap.awk, a strict KTAP version 1 parser (the
# version line, each plan against its count, the numbering, the result
# lines and directives, nesting and a parent's result), on a passing run,
# a failing one, one with a skipped filesystem and failed phases, and the
# checks of a verdict record; the parser itself must refuse broken KTAP.
ktap() { awk -f "$here/ktap.awk" "$1"; }
# ktap_of NAME WHAT RUN [ARGS]: report --format ktap of RUN with ARGS
# (WHAT says what), exit 0, its output in $S/NAME.ktap, valid to ktap.awk,
# whose summary is in $S/NAME.res
ktap_of() {
	_n=$1 _w=$2 _r=$3; shift 3
	expect_rc 0 "report --format ktap $_w" "$fsb" report "$_r" --format ktap "$@"
	printf '%s\n' "$OUT" > "$S/$_n.ktap"
	check "ktap.awk: $_n: valid KTAP version 1" ktap "$S/$_n.ktap"
	ktap "$S/$_n.ktap" > "$S/$_n.res" 2>&1 || true
}

ktap_of smoke "(the run's own tests, no criteria)" "$smoke"
check "a subtest per filesystem, every test passed: 48 results, as JUnit's testcases" \
	grep -qx 'ktap: 48 results: 48 pass, 0 fail, 0 skip; top level 4' "$S/smoke.res"
check "a test per round x phase, named as its LAVA test case, its measurement a diagnostic line before it" \
	sh -c "grep -A1 -x '  # ext4 round 1 create: 0.698624 s, 2000 files, 2862.8 files/s, p99 12648.447 us, 0 errors, 0 verify errors' '$S/smoke.ktap' | tail -n 1 | grep -qx '  ok 1 ext4-r1-create'"

ktap_of pass "--criteria (written from the run: a passing verdict)" "$smoke" --criteria "$S/written.conf"
check "the verdict is a fifth subtest: its 26 checks and itself pass" sh -c \
	"grep -qx 'ktap: 75 results: 75 pass, 0 fail, 0 skip; top level 5' '$S/pass.res' &&
	 [ \$(grep -c '^pass	1	verdict-' '$S/pass.res') = 26 ] && grep -q '^pass	0	verdict	\$' '$S/pass.res'"

ktap_of fail "--criteria (strict: a failing verdict; report still exits 0)" "$smoke" \
	--criteria "$S/strict.conf"
check "5 of 6 checks not ok, and the verdict subtest not ok" sh -c \
	"[ \$(grep -c '^fail	1	verdict-' '$S/fail.res') = 5 ] && grep -q '^fail	0	verdict	\$' '$S/fail.res' &&
	 grep -qx 'ktap: 55 results: 49 pass, 6 fail, 0 skip; top level 5' '$S/fail.res'"
check "a failed check: measured and limit on the diagnostic line before it" sh -c \
	"grep -A1 -x '  # ext4 create files/s (fresh, round 1): 2863 files/s, round 1; limit >= 100000 files/s (strict.conf:2)' '$S/fail.ktap' |
	 tail -n 1 | grep -qx '  not ok 2 verdict-ext4-create-files-s-fresh-round-1' &&
	 grep -qx '# verdict: FAIL (5 of 6 checks failed)' '$S/fail.ktap'"
"$fsb" verdict "$smoke" --criteria "$S/strict.conf" --lava 2>/dev/null |
	sed -n 's/^FSBENCH-RESULT: test_case_id=\([^ ]*\) result=\([a-z]*\).*/\1 \2/p' > "$S/lava.ids" || true
awk -F'\t' '$2 == 1 && $3 ~ /^verdict-/ { print $3, ($1 == "fail" ? "fail" : "pass") }' "$S/fail.res" > "$S/ktap.ids"
check "the verdict's tests have the LAVA lines' test case ids and results (verdict --lava)" \
	sh -c "[ -s '$S/lava.ids' ] && cmp '$S/lava.ids' '$S/ktap.ids'"

ktap_of skip "(a skipped filesystem and failed phases)" "$top/tests/unit/data/report-run.jsonl"
check "the skipped filesystem: SKIP with the reason, in its subtest and as its parent's result" sh -c \
	"grep -qx '  ok 1 f2fs-ran-to-the-end # SKIP mkfs.f2fs not found' '$S/skip.ktap' &&
	 grep -qx 'ok 3 f2fs # SKIP mkfs.f2fs not found' '$S/skip.ktap'"
check "a phase with errors is not ok, and so is its filesystem" sh -c \
	"grep -qx '  not ok 13 ext4-r3-read' '$S/skip.ktap' && grep -qx 'not ok 1 ext4' '$S/skip.ktap' &&
	 grep -q '^# ext4: 1 of ' '$S/skip.ktap'"
"$fsb" report "$S/with-verdict.log" --format ktap > "$S/record.ktap" 2>/dev/null || true
check "without --criteria, the run's verdict record gives the checks (valid KTAP)" sh -c \
	"awk -f '$here/ktap.awk' '$S/record.ktap' >/dev/null &&
	 grep -A1 -x '  # kernel messages: 3 & <more>; limit <= 0 (criteria.conf:4)' '$S/record.ktap' |
	 tail -n 1 | grep -qx '  not ok 2 verdict-kernel-messages'"
expect_rc 2 "compare --format ktap: misuse (a format of one run)" "$fsb" compare "$smoke" "$smoke" --format ktap
expect_err "format 'ktap' is for fsbench report"

# the parser refuses what is not KTAP version 1
refuse() {
	_what=$1; shift
	sed "$@" "$S/fail.ktap" > "$S/broken.ktap"
	if awk -f "$here/ktap.awk" "$S/broken.ktap" >/dev/null 2>"$S/broken.err"; then
		fail "ktap.awk refuses $_what"
	else
		pass "ktap.awk refuses $_what ($(head -n 1 "$S/broken.err" | sed 's/^ktap: [^:]*:[0-9]*: //'))"
	fi
}
refuse "no version line" 1d
refuse "a plan that is not the count" 's/^1\.\.5$/1..6/'
refuse "a number out of order" 's/^  ok 3 ext4-r1-read$/  ok 4 ext4-r1-read/'
refuse "an odd indentation" 's/^  ok 3 ext4-r1-read$/   ok 3 ext4-r1-read/'
refuse "a parent ok with a subtest not ok" 's/^not ok 5 verdict$/ok 5 verdict/'
refuse "a subtest without its result line" '/^ok 1 ext4$/d'
refuse "ok with ERROR" 's/^  ok 3 ext4-r1-read$/  ok 3 ext4-r1-read # ERROR no disk/'
refuse "a name with a '#'" 's/^  ok 3 ext4-r1-read$/  ok 3 ext4#3/'

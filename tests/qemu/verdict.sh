#!/bin/sh
# tests/qemu/verdict.sh: the verdict at the end of a boot (qemu-x86_64,
# direct kernel boot, a brief smoke run (BRIEF of tests/lib.sh) on ext4
# only, two rounds in the fail case), with the criteria on
# the ESP of the launcher's disk copy (qemu/run.sh --criteria):
#   1. pass: criteria this run meets (ext4 ran, every byte verified, no
#      error, no kernel message, no new disk error, a low floor of files/s):
#      every check and then FSBENCH-VERDICT: PASS on the console; a verdict
#      record after run_end (the next seq) in the log partition with the same
#      checks, shown on the console like every record; results/RUN_ID.verdict.txt and .junit.xml on the ESP (mtools),
#      verdict.txt and report.junit.xml in the run folder, equal to the
#      guest's; both JUnit files valid against tests/verdict/junit.xsd
#      (xmllint --schema); the launcher's status stays the runner's (0).
#   2. fail: the same with an impossible floor of files/s: FSBENCH-VERDICT:
#      FAIL (1 of 2 checks failed) with the failing check on the console,
#      named (its limit, measured value and criteria.conf line) in the
#      record, the ESP's and the run folder's files; the status stays 0.
#   3. none: no criteria.conf on the ESP (--criteria none), a run refused at
#      once (target serial:none): no verdict line, no verdict record, no
#      verdict files.
#   4. bad: a criteria file with an unknown key, a refused run: the message
#      names the file's line and key, FSBENCH-VERDICT: FAIL (no verdict: ...),
#      no verdict record, the ESP's verdict.txt says why.
# Inputs (environment): O (build output, absolute), VERDICT_TEST_ONLY (names
# of the cases: pass fail none bad).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Results
# under $O/tests/qemu-verdict/.
set -eu

O=${O:?run through make check-qemu}
T=$O/tests/qemu-verdict
only=${VERDICT_TEST_ONLY:-pass fail none bad}
. tests/qemu/lib.sh

rm -rf "$T"
test_init 'qemu verdict tests' "$T"
xsd=tests/verdict/junit.xsd
qemu=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_QEMU")
command -v "$qemu" >/dev/null || { skip "$qemu not installed"; summary; exit 0; }
for t in mdir mtype sfdisk jq; do
	command -v $t >/dev/null || { skip "$t not installed (mtools, fdisk, jq)"; summary; exit 0; }
done

make -s --no-print-directory BOARD=qemu-x86_64 image ROOTFS=ext4 >"$T/build.log" 2>&1 || {
	fail "make BOARD=qemu-x86_64 image"; tail -n 20 "$T/build.log"; summary; exit 1
}

# boot NAME CRITERIA [launcher options]: status in $rc, work folder in $work.
boot() {
	name=$1 crit=$2; shift 2
	res=$T/$name
	set +e
	env -u BOARD_QEMU BOARD=qemu-x86_64 sh qemu/run.sh --disk "$O/image/qemu-x86_64/disk-ext4.img" \
		--results "$res" --criteria "$crit" --quiet --keep "$@" >"$T/$name.out" 2>&1
	rc=$?
	set -e
	work=$(sed -n 's/^ *work folder: *//p' "$res/run.txt" 2>/dev/null)
	tr -d '\r' <"$res/serial.log" >"$T/$name.console" 2>/dev/null || :
	info "$name: $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
}
done_work() { case $work in "$O"/run/*) rm -rf "$work" ;; esac; }
# vfiles NAME: the run's verdict.txt and junit.xml from the ESP of the work
# copy to $T/NAME.esp.verdict.txt and $T/NAME.esp.junit.xml (id from
# esp_results). $T/NAME.console: the console without carriage returns.
vfiles() {
	e=$(esp "$work")
	check "$1: the ESP holds results/$id.verdict.txt and results/$id.junit.xml" sh -c \
		"grep -q '$id.verdict.txt' '$T/$1.esp' && grep -q '$id.junit.xml' '$T/$1.esp'"
	mtype -i "$e" "::results/$id.verdict.txt" >"$T/$1.esp.verdict.txt" 2>/dev/null || true
	mtype -i "$e" "::results/$id.junit.xml" >"$T/$1.esp.junit.xml" 2>/dev/null || true
	check "$1: the run folder holds verdict.txt and report.junit.xml" \
		test -s "$res/verdict.txt" -a -s "$res/report.junit.xml"
	check "$1: the host's verdict.txt equals the guest's" cmp "$res/verdict.txt" "$T/$1.esp.verdict.txt"
	if have xmllint; then
		check "$1: the ESP's junit.xml is valid JUnit (xmllint --schema $xsd)" \
			xmllint --noout --schema "$xsd" "$T/$1.esp.junit.xml"
		check "$1: the run folder's report.junit.xml is valid JUnit" \
			xmllint --noout --schema "$xsd" "$res/report.junit.xml"
	else
		skip "$1: JUnit XML against $xsd: xmllint not found (Debian libxml2-utils; make deps)"
	fi
}
# vrecord NAME: the verdict record of the log partition (RESULTS/records.jsonl)
# follows run_end (seq + 1) and holds as many checks as the console printed.
vrecord() {
	endseq=$(rec "$res" run_end seq | tail -n 1)
	check "$1: one verdict record, the one after run_end (seq $((endseq + 1)))" \
		[ "$(rec "$res" verdict seq)" = "$((endseq + 1))" ]
	n=$(grep -v '^FSBENCH-VERDICT: ' "$T/$1.console" | grep -c -E ': (PASS|FAIL)( \(criteria\.conf:[0-9]+\))?$' || true)
	check "$1: its checks are the console's ($n)" [ "$(rec "$res" verdict checks)" = "$n" ]
	console "$res" >"$T/$1.records"
	check "$1: the console carries the same records as the log partition, the verdict's too" \
		cmp "$T/$1.records" "$res/records.jsonl"
}

if wanted pass; then
	mkdir -p "$T/pass.d"
	cat >"$T/pass.d/criteria.conf" <<-'EOF'
	# what the ext4 smoke run in QEMU shows
	fs_ok = ext4
	verify = all
	errors = 0
	kmsg = 0
	# a TCG guest held back by a busy host warns so (the boards' criteria too)
	kmsg_ignore = hrtimer: interrupt took
	health_new_errors = 0
	min_files_per_s.ext4.create = 10
	EOF
	boot pass "$T/pass.d/criteria.conf" --profile smoke --append "fsbench.fs=ext4 $BRIEF" --timeout 900
	check "pass: launcher status 0 (the runner's)" [ "$rc" -eq 0 ] || tail -n 30 "$T/pass.out"
	check "pass: init found the criteria on the ESP" grep -q 'fsbench-init: criteria /run/criteria.conf' "$T/pass.console"
	check "pass: FSBENCH-VERDICT: PASS on the console" grep -qx 'FSBENCH-VERDICT: PASS' "$T/pass.console"
	check "pass: each check on the console, e.g. ext4 ran to the end" \
		grep -qx 'ext4 ran to the end: ok; limit ok: PASS' "$T/pass.console"
	check "pass: the kernel message and disk health checks were measured" sh -c \
		"grep -Eqx 'kernel messages \\(warning or worse\\): 0( \\([0-9]+ ignored\\))?; limit <= 0: PASS' '$T/pass.console' &&
		 grep -q '^new disk errors .*: 0 (media errors +0, .*; limit <= 0: PASS\$' '$T/pass.console'"
	check "pass: the verdict comes after the run's last record" sh -c \
		"sed -n '/\"type\":\"run_end\"/,\$p' '$T/pass.console' | grep -qx 'FSBENCH-VERDICT: PASS'"
	check "pass: verdict record: status pass, 6 checks, 0 failed" has "$res" verdict status=pass checks=6 failed=0
	vrecord pass
	check "pass: a check of the record says where it came from" has "$res" verdict 'check[1].what=ext4 ran to the end' 'check[1].where=criteria.conf:2'
	if esp_results pass "$work" "$res"; then
		vfiles pass
		check "pass: verdict.txt ends with verdict: PASS" sh -c "tail -n 1 '$T/pass.esp.verdict.txt' | grep -qx 'verdict: PASS'"
		check "pass: the ESP's report ends with the verdict" grep -q '^## Verdict: PASS (6 checks)' "$T/pass.esp.md"
		check "pass: the JUnit verdict testsuite: 6 tests, 0 failures" \
			grep -q '<testsuite name="verdict" tests="6" failures="0"' "$T/pass.esp.junit.xml"
	fi
	check "pass: run.txt and the launcher's last line say the verdict" sh -c \
		"grep -q '^  verdict: *PASS' '$res/run.txt' && tail -n 1 '$T/pass.out' | grep -q '^qemu: verdict: PASS'"
	done_work
fi

if wanted fail; then
	mkdir -p "$T/fail.d"
	printf 'fs_ok = ext4\nmin_files_per_s.ext4.create = 100000000\n' >"$T/fail.d/criteria.conf"
	boot fail "$T/fail.d/criteria.conf" --profile smoke --append "fsbench.fs=ext4 fsbench.files=100" --timeout 900
	check "fail: launcher status 0 (the runner's; the verdict does not change it)" [ "$rc" -eq 0 ] || tail -n 30 "$T/fail.out"
	check "fail: FSBENCH-VERDICT: FAIL (1 of 2 checks failed) on the console" \
		grep -qx 'FSBENCH-VERDICT: FAIL (1 of 2 checks failed)' "$T/fail.console"
	check "fail: the failing check on the console, with its limit and criterion" \
		grep -qE '^ext4 create files/s \(all rounds\): [0-9.]+ files/s, worst of 2 rounds.*; limit >= 100000000 files/s: FAIL \(criteria.conf:2\)$' "$T/fail.console"
	check "fail: verdict record: status fail, 2 checks, 1 failed" has "$res" verdict status=fail checks=2 failed=1
	vrecord fail
	check "fail: the record names the failing check" has "$res" verdict \
		'check[2].what=ext4 create files/s (all rounds)' 'check[2].limit=>= 100000000 files/s' 'check[2].pass=false' 'check[2].where=criteria.conf:2'
	if esp_results fail "$work" "$res"; then
		vfiles fail
		check "fail: verdict.txt ends with verdict: FAIL (1 of 2 checks failed)" sh -c \
			"tail -n 1 '$T/fail.esp.verdict.txt' | grep -qx 'verdict: FAIL (1 of 2 checks failed)'"
		check "fail: the JUnit verdict testcase of the floor has a failure" sh -c \
			"grep -q '<testsuite name=\"verdict\" tests=\"2\" failures=\"1\"' '$T/fail.esp.junit.xml' &&
			 grep -A8 'name=\"ext4 create files/s (all rounds)\"' '$T/fail.esp.junit.xml' | grep -q '<failure '"
	fi
	check "fail: the launcher names the failing check and ends with the verdict" sh -c \
		"grep -q '^  ext4 create files/s (all rounds): .*: FAIL (criteria.conf:2)' '$T/fail.out' &&
		 tail -n 1 '$T/fail.out' | grep -q '^qemu: verdict: FAIL (1 of 2 checks failed)'"
	done_work
fi

if wanted none; then
	boot none none --profile smoke --append fsbench.target=serial:none --timeout 300
	check "none: the run was refused (status 3)" [ "$rc" -eq 3 ] || tail -n 20 "$T/none.out"
	check "none: init says there is no criteria file" grep -q 'fsbench-init: criteria none' "$T/none.console"
	check "none: no FSBENCH-VERDICT line" sh -c "! grep -q 'FSBENCH-VERDICT' '$T/none.console'"
	check "none: no verdict record" [ "$(recs "$res" verdict | wc -l)" -eq 0 ]
	check "none: no verdict.txt or report.junit.xml in the run folder" \
		test ! -e "$res/verdict.txt" -a ! -e "$res/report.junit.xml"
	if esp_results none "$work" "$res"; then
		check "none: no verdict files on the ESP" sh -c "! grep -q -e verdict -e junit '$T/none.esp'"
	fi
	done_work
fi

if wanted bad; then
	mkdir -p "$T/bad.d"
	printf 'errors = 0\nmax_seconds.ext4.creat = 5\n' >"$T/bad.d/criteria.conf"
	boot bad "$T/bad.d/criteria.conf" --profile smoke --append fsbench.target=serial:none --timeout 300
	check "bad: the run was refused (status 3)" [ "$rc" -eq 3 ] || tail -n 20 "$T/bad.out"
	check "bad: the console names the criteria file's line and key" \
		grep -q "fsbench-init: verdict: fsbench: .*criteria.conf:2: max_seconds.ext4.creat: unknown phase 'creat'" "$T/bad.console"
	check "bad: FSBENCH-VERDICT: FAIL (no verdict: ...) on the console" \
		grep -qx 'FSBENCH-VERDICT: FAIL (no verdict: fsbench verdict exited with 2)' "$T/bad.console"
	check "bad: no verdict record" [ "$(recs "$res" verdict | wc -l)" -eq 0 ]
	if esp_results bad "$work" "$res"; then
		mtype -i "$(esp "$work")" "::results/$id.verdict.txt" >"$T/bad.esp.verdict.txt" 2>/dev/null || true
		check "bad: the ESP's verdict.txt says why there is no verdict" sh -c \
			"grep -q 'unknown phase' '$T/bad.esp.verdict.txt' && tail -n 1 '$T/bad.esp.verdict.txt' | grep -qx 'verdict: FAIL (no verdict: fsbench verdict exited with 2)'"
	fi
	done_work
fi

summary

#!/bin/sh
# tests/labgrid/run.sh: the labgrid tests (make check-labgrid): labgrid's
# pytest plugin (Debian python3-labgrid) drives the qemu-x86_64 image
# through board/qemu-x86_64/labgrid/qemu.yaml (QEMUDriver, TCG).
#   env    test_env.py: every board/*/labgrid/*.yaml loads with labgrid's
#          Environment (the lab example too); the QEMU one boots what
#          qemu/cmdline.sh describes
#   helpers  test_records.py, test_stall.py (no boot): the records pulled
#          from console lines, a kernel message printed right after a
#          record left out; a QEMU process with no processor time for
#          --fsbench-stall seconds found stalled, a busy one not
#   pass   test_boot.py: the smoke profile on the four filesystems, brief
#          (BRIEF of tests/lib.sh: one round of fewer files); the
#          records pulled from the console, FSBENCH-VERDICT: PASS and the
#          host's verdict PASS against board/qemu-x86_64/criteria.conf
#   floor  the same test, ext4 only, one round, with criteria holding an
#          impossible floor of files/s (--fsbench-criteria: on the ESP and
#          for the host): the test must fail, naming the guest's
#          FSBENCH-VERDICT: FAIL and the host's verdict FAIL
#   fault  ext4 only, one round, criteria an ext4 run meets, and one bit
#          flipped after create (fsbench.fault=d0001/f0000007:100): the test
#          must fail on the verification check
#   uefi   board/qemu-x86_64/labgrid/qemu-uefi.yaml: OVMF boots the disk
#          copy; the settings (ext4, one round) go through the fsbench.conf
#          on its ESP, as for a board in a lab: the test passes with the
#          criteria an ext4 run meets
#   powercut  test_powercut.py: a power-cut campaign (ext4, 2 cycles of a
#          4 s window, the seed POWERCUT_SEED or random) whose cuts are the
#          QEMUDriver's power off: 2 cuts, then the boot that ends the
#          campaign; a powercut record per cycle, nothing lost or torn,
#          FSBENCH-VERDICT: PASS and the host's verdict PASS; the ESP of
#          the disk copy holds the whole campaign's records
#   ab     test_ab.py: an A/B on the one QEMU target (the block): side B
#          the same image with its target throttled (throttling.iops-total=200
#          on its -drive), ext4 alone, brief, no capacity check, 2 blocks
#          in the order of a seed (AB_SEED or drawn, printed); the test
#          passes (the order followed, each run whole, compare's status an
#          answer: 0, 1 or 5); order.txt is qemu/aborder.sh's for the seed
#          and boots.txt follows it; compare got 2 runs a side, which
#          cannot decide a row (exit 5; every row undecided, with the runs
#          a side it needs); the throttle shows (B/A of ext4's cold read
#          above 2: the sides were not swapped); and without a side B
#          option the test fails before it boots (side B is side A)
# Inputs (environment): O (build output, absolute); PYTEST (default
#   pytest-3); LABGRID_TEST_ONLY (names of the cases: env helpers pass floor
#   fault uefi powercut ab); POWERCUT_SEED (the powercut case's seed);
#   AB_SEED (the ab case's seed).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Each
#   case's folder $O/tests/labgrid/CASE/ keeps console.log, records.jsonl,
#   verdict.txt and pytest's output (pytest.out, junit.xml).
set -eu

O=${O:?run through make check-labgrid}
T=$O/tests/labgrid
PYTEST=${PYTEST:-pytest-3}
# nothing written into the tree: no __pycache__ (and -p no:cacheprovider
# below: no .pytest_cache)
export PYTHONDONTWRITEBYTECODE=1
only=${LABGRID_TEST_ONLY:-env helpers pass floor fault uefi powercut ab}
. tests/lib.sh
wanted() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

rm -rf "$T"
test_init 'labgrid tests' "$T"
if ! have "$PYTEST"; then
	skip "labgrid: $PYTEST not found (Debian python3-pytest; make deps)"; summary; exit 0
fi
if ! "$PYTEST" --help 2>/dev/null | grep -q -- '--lg-env'; then
	skip "labgrid: $PYTEST has no labgrid plugin (--lg-env; Debian python3-labgrid; make deps)"; summary; exit 0
fi
info "$("$PYTEST" --version 2>&1 | head -n 1), python3-labgrid $(dpkg-query -W -f '${Version}' python3-labgrid 2>/dev/null || echo '(not a Debian package)')"

# pyt CASE FILE ARGS...: pytest on FILE with the output folder $T/CASE
# (FILE first and OPTION=VALUE: pytest finds the conftest.py that adds the
# --fsbench-* options from the first path); status in $rc, its output in
# $T/CASE/pytest.out, the failure message in $T/CASE/failure.txt.
pyt() {
	c=$1; shift
	mkdir -p "$T/$c"
	set +e
	"$PYTEST" "$@" -p no:cacheprovider -rA --junitxml="$T/$c/junit.xml" \
		--fsbench-out="$T/$c" >"$T/$c/pytest.out" 2>&1
	rc=$?
	set -e
	# the assertion's message: pytest's E lines (its traceback also shows
	# the test's source)
	sed -n 's/^E  *//p' "$T/$c/pytest.out" >"$T/$c/failure.txt"
	info "$c: $(tail -n 1 "$T/$c/pytest.out" | tr -d '=' | sed 's/^ *//; s/ *$//')"
}
# skipped CASE: pytest skipped the test (e.g. no environment): SKIP with its reason.
skipped() {
	r=$(sed -n 's/^SKIPPED \[[0-9]*\] [^:]*:[0-9]*: //p' "$T/$1/pytest.out" | head -n 1)
	[ -n "$r" ] || return 1
	skip "$1: $r"
}

if wanted env; then
	pyt env tests/labgrid/test_env.py
	check "env: every board/*/labgrid/*.yaml loads with labgrid's Environment; the QEMU ones boot what qemu/cmdline.sh describes" \
		[ "$rc" -eq 0 ] || sed -n '/^=* FAILURES/,$p' "$T/env/pytest.out" | head -n 40
fi
if wanted helpers; then
	pyt helpers tests/labgrid/test_records.py tests/labgrid/test_stall.py
	check "helpers: the records pulled from console lines (a kernel message printed right after a record left out, a torn line and noise too); a QEMU that uses no processor time found stalled" \
		[ "$rc" -eq 0 ] || sed -n '/^=* FAILURES/,$p' "$T/helpers/pytest.out" | head -n 40
fi

boot_cases=
for c in pass floor fault uefi powercut ab; do wanted $c && boot_cases="$boot_cases $c"; done
[ -n "$boot_cases" ] || { summary; exit $?; }

qemu=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_QEMU")
if ! have "$qemu"; then
	skip "labgrid boots:$boot_cases: $qemu not installed"; summary; exit $?
fi
if ! have mcopy || ! have sfdisk; then
	skip "labgrid boots:$boot_cases: mtools or sfdisk not installed (criteria on the ESP)"; summary; exit $?
fi
make -s --no-print-directory BOARD=qemu-x86_64 image ROOTFS=ext4 >"$T/build.log" 2>&1 || {
	fail "make BOARD=qemu-x86_64 image"; tail -n 20 "$T/build.log"; summary; exit 1
}
export LG_IMAGE="$O/image/qemu-x86_64"
# The criteria of the boots. A TCG guest whose vCPU the host holds back
# warns once a boot "hrtimer: interrupt took N ns" (3 of 5 smoke runs):
# the emulator's timing, not the disk's; the board's criteria ignore it.
tcg_ignore='kmsg_ignore = hrtimer: interrupt took'
# pass: the board's criteria, as on the image's ESP
cp board/qemu-x86_64/criteria.conf "$T/board.conf"
# what an ext4 run of one round meets (floor and fault change one thing)
printf 'fs_ok = ext4\nverify = all\nerrors = 0\nkmsg = 0\n%s\n' "$tcg_ignore" >"$T/ext4.conf"
# boot CASE ENV ARGS...: test_boot.py on board/qemu-x86_64/labgrid/ENV.yaml
# (TEST=test_ab.py: that test). A guest QEMU's TCG stops for good
# (qemu/README.md) is booted again once, as the QEMU tests do, and said in
# QEMU_STALL_LOG (make check lists it).
boot() {
	c=$1 e=$2; shift 2
	pyt "$c" "tests/labgrid/${TEST:-test_boot.py}" --lg-env="board/qemu-x86_64/labgrid/$e.yaml" \
		--fsbench-host="$O/host/fsbench" --fsbench-stall-retries=1 "$@"
	for f in "$T/$c"/console-stalled-*.log "$T/$c"/ab/*/console-stalled-*.log; do
		[ -e "$f" ] && [ -n "${QEMU_STALL_LOG:-}" ] || continue
		echo "$(date '+%Y-%m-%d %H:%M:%S') qemu-x86_64 labgrid $c: the guest stopped for good; booted again ($f)" >>"$QEMU_STALL_LOG"
	done
}
kept() {
	check "$1: console.log and records.jsonl kept in the test output folder" sh -c \
		"grep -q 'FSBENCH:{' '$T/$1/console.log' && grep -q '\"type\":\"run_end\"' '$T/$1/records.jsonl'"
}

if wanted pass; then
	boot pass qemu --fsbench-profile=smoke --fsbench-append="$BRIEF" --fsbench-criteria="$T/board.conf"
	if ! skipped pass; then
		check "pass: the smoke run through labgrid passes (FSBENCH-VERDICT: PASS, host verdict PASS)" \
			[ "$rc" -eq 0 ] || sed -n '/^=* FAILURES/,$p' "$T/pass/pytest.out" | head -n 40
		kept pass
		check "pass: the records pulled from the console: 4 filesystems, 1 round of 6 phases (fstrim the sixth), a verdict record" sh -c \
			"[ \$(grep -c '\"type\":\"fs_end\".*\"status\":\"ok\"' '$T/pass/records.jsonl') -eq 4 ] &&
			 [ \$(grep -c '\"type\":\"phase\"' '$T/pass/records.jsonl') -eq 24 ] &&
			 grep -q '\"type\":\"verdict\".*\"status\":\"pass\"' '$T/pass/records.jsonl'"
		check "pass: the host's verdict.txt ends with verdict: PASS" sh -c "tail -n 1 '$T/pass/verdict.txt' | grep -qx 'verdict: PASS'"
		info "pass: $(grep -o 'power on to the verdict: .*' "$T/pass/pytest.out" | head -n 1)"
	fi
fi

if wanted floor; then
	printf 'fs_ok = ext4\nmin_files_per_s.ext4.create = 100000000\n' >"$T/floor.conf"
	boot floor qemu --fsbench-append="fsbench.fs=ext4 $BRIEF" --fsbench-criteria="$T/floor.conf"
	if ! skipped floor; then
		check "floor: an impossible floor fails the test (pytest exit 1, 1 failed)" sh -c \
			"[ $rc -eq 1 ] && tail -n 1 '$T/floor/pytest.out' | grep -q ' 1 failed'"
		check "floor: the failure names the guest's FSBENCH-VERDICT: FAIL (1 of 2 checks failed) and the failing check" sh -c \
			"grep -q 'the guest says FSBENCH-VERDICT: FAIL (1 of 2 checks failed)' '$T/floor/failure.txt' &&
			 grep -q 'ext4 create files/s (all rounds): .*limit >= 100000000 files/s: FAIL (criteria.conf:2)' '$T/floor/failure.txt'"
		check "floor: the failure names the host's verdict: exit 1, verdict: FAIL (1 of 2 checks failed)" \
			grep -q 'host: fsbench verdict --criteria .*floor.conf: exit 1, verdict: FAIL (1 of 2 checks failed)' "$T/floor/failure.txt"
		check "floor: nothing else failed (the run itself was whole and ok)" sh -c \
			"[ -s '$T/floor/failure.txt' ] && ! grep -q -e 'not JSON' -e 'record seq' -e 'run_end: status' -e 'no run_end' -e 'stopped' '$T/floor/failure.txt'"
		kept floor
	fi
fi

if wanted fault; then
	boot fault qemu --fsbench-append="fsbench.fs=ext4 $BRIEF fsbench.fault=d0001/f0000007:100" \
		--fsbench-criteria="$T/ext4.conf"
	if ! skipped fault; then
		check "fault: a flipped bit fails the test (pytest exit 1, 1 failed)" sh -c \
			"[ $rc -eq 1 ] && tail -n 1 '$T/fault/pytest.out' | grep -q ' 1 failed'"
		check "fault: the failure names the guest's and the host's verification check" sh -c \
			"grep -q '^ *verification (every byte read checked): .*FAIL (criteria.conf:2)' '$T/fault/failure.txt' &&
			 grep -q '^ *verification (every byte read checked): .*FAIL (ext4.conf:2)' '$T/fault/failure.txt' &&
			 grep -q 'the guest says FSBENCH-VERDICT: FAIL' '$T/fault/failure.txt' &&
			 grep -q 'host: fsbench verdict --criteria .*ext4.conf: exit 1, verdict: FAIL' '$T/fault/failure.txt'"
		kept fault
	fi
fi

if wanted uefi && [ ! -f /usr/share/ovmf/OVMF.fd ]; then
	skip "uefi: no /usr/share/ovmf/OVMF.fd (Debian ovmf; make deps)"
elif wanted uefi; then
	boot uefi qemu-uefi --fsbench-append="fsbench.fs=ext4 $BRIEF" --fsbench-criteria="$T/ext4.conf"
	if ! skipped uefi; then
		check "uefi: OVMF boots the disk copy, the settings on its ESP: the test passes" \
			[ "$rc" -eq 0 ] || sed -n '/^=* FAILURES/,$p' "$T/uefi/pytest.out" | head -n 40
		check "uefi: the firmware started the disk's boot entry" grep -aq '^BdsDxe: starting Boot' "$T/uefi/console.log"
		check "uefi: the ESP's fsbench.conf reached the runner: ext4 only, one round (6 phase records: fstrim the sixth)" sh -c \
			"grep -qx 'fs = ext4' '$T/uefi/fsbench.conf' && grep -qx 'rounds = 1' '$T/uefi/fsbench.conf' &&
			 [ \$(grep -c '\"type\":\"phase\"' '$T/uefi/records.jsonl') -eq 6 ] &&
			 [ \$(grep -c '\"type\":\"fs_end\".*\"fs\":\"ext4\"' '$T/uefi/records.jsonl') -eq 1 ]"
		kept uefi
	fi
fi

if wanted powercut; then
	seed=${POWERCUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	[ "$seed" -ge 1 ] 2>/dev/null || seed=1
	info "powercut: seed $seed (again: POWERCUT_SEED=$seed LABGRID_TEST_ONLY=powercut)"
	pyt powercut tests/labgrid/test_powercut.py --lg-env=board/qemu-x86_64/labgrid/qemu.yaml \
		--fsbench-host="$O/host/fsbench" \
		--fsbench-append="fsbench.fs=ext4 fsbench.powercut=2 fsbench.powercut_window=4 fsbench.powercut_seed=$seed" \
		--fsbench-keep
	if ! skipped powercut; then
		check "powercut: 2 power cuts by the QEMUDriver, then the boot that ends the campaign; verdicts PASS" \
			[ "$rc" -eq 0 ] || sed -n '/^=* FAILURES/,$p' "$T/powercut/pytest.out" | head -n 40
		check "powercut: 3 boots' consoles kept, 2 armed lines with the seed" sh -c \
			"[ -s '$T/powercut/console-3.log' ] && [ ! -e '$T/powercut/console-4.log' ] &&
			 [ \$(cat '$T/powercut'/console-*.log | tr -d '\r' | grep 'FSBENCH-POWERCUT: armed' | grep -c 'seed=$seed') -eq 2 ]"
		check "powercut: a powercut record per cycle, none lost or torn, fsck clean" sh -c \
			"[ \$(grep '\"type\":\"powercut\"' '$T/powercut/records.jsonl' | grep '\"lost\":0' | grep '\"torn\":0' | grep -c '\"fsck\":\"clean\"') -eq 2 ]"
		# the ESP of the disk copy: what a stick's holds after a campaign
		id=$(sed -n 's/.*"type":"run_start","run_id":"\([0-9a-f]*\)".*/\1/p' "$T/powercut/records.jsonl" | head -n 1)
		d=$T/powercut/work/disk.img
		off=$(sfdisk --dump "$d" 2>/dev/null | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
		mtype -i "$d@@$((${off:-0} * 512))" "::results/$id.jsonl" >"$T/powercut/esp.jsonl" 2>/dev/null || true
		check "powercut: the ESP holds the whole campaign (results/$id.jsonl: run_start, both cycles' powercut records, run_end)" sh -c \
			"[ -n '$id' ] && grep -q '\"type\":\"run_start\"' '$T/powercut/esp.jsonl' &&
			 [ \$(grep -c '\"type\":\"powercut\"' '$T/powercut/esp.jsonl') -eq 2 ] && grep -q '\"type\":\"run_end\"' '$T/powercut/esp.jsonl'"
		info "powercut: $(grep '^fsbench: cycle' "$T/powercut/pytest.out" | sed 's/^fsbench: //' | tr '\n' ';')"
	fi
	rm -rf "$T/powercut/work"
fi

if wanted ab; then
	seed=${AB_SEED:-$(sh qemu/aborder.sh --seed)}
	info "ab: seed $seed (again: AB_SEED=$seed LABGRID_TEST_ONLY=ab)"
	t0=$(date +%s)
	TEST=test_ab.py boot ab qemu --fsbench-append="fsbench.fs=ext4 $BRIEF fsbench.capacity=0" \
		--fsbench-criteria="$T/ext4.conf" --fsbench-seed="$seed" --fsbench-blocks=2 \
		--fsbench-b-drive=throttling.iops-total=200
	if ! skipped ab; then
		check "ab: 2 blocks of A (the image) and B (its target throttled) on one target in the seed's order, each a whole run, compared: the test passes" \
			[ "$rc" -eq 0 ] || sed -n '/^=* FAILURES/,$p' "$T/ab/pytest.out" | head -n 40
		sh qemu/aborder.sh "$seed" 2 >"$T/ab/order.want"
		check "ab: order.txt is qemu/aborder.sh $seed 2's; boots.txt's blocks and sides follow it" sh -c \
			"grep -v '^#' '$T/ab/order.txt' | cmp -s - '$T/ab/order.want' &&
			 grep -v '^#' '$T/ab/boots.txt' | awk '{ print \$2, \$3 }' | cmp -s - '$T/ab/order.want'"
		check "ab: B's QEMU throttled its target, A's did not (qemu.argv of each boot)" sh -c \
			"[ \$(grep -l 'id=target,.*throttling.iops-total=200' '$T/ab/ab'/*-B/qemu.argv | wc -l) -eq 2 ] &&
			 ! grep -q throttling '$T/ab/ab'/*-A/qemu.argv"
		# compare's rows (CSV) of the kept records, each side in boot order
		set --
		for f in "$T/ab/ab"/*-A/records.jsonl; do set -- "$@" "$f"; done
		set -- "$@" --
		for f in "$T/ab/ab"/*-B/records.jsonl; do set -- "$@" "$f"; done
		"$O/host/fsbench" compare "$@" --format csv >"$T/ab/compare.csv" 2>/dev/null || :
		# col NAME ROWS: the column NAME of compare's rows (header "compare,fs,phase,...")
		awk -F, '$1 == "compare" && $2 == "fs" { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == "compare" { print $2 "\t" $3 "\t" $(c["a_runs"]) "\t" $(c["b_runs"]) "\t" $(c["b_over_a"]) "\t" $(c["b_flag"]) "\t" $(c["b_runs_needed"]) }' \
			"$T/ab/compare.csv" >"$T/ab/rows.tsv"
		check "ab: compare got 2 runs a side; 2 cannot decide a row: exit 5, every row undecided with the runs a side it needs, stderr names them" sh -c \
			"[ \"\$(cat '$T/ab/compare.status')\" = 5 ] && [ -s '$T/ab/rows.tsv' ] &&
			 awk -F '\t' '\$3 != 2 || \$4 != 2 || \$6 != \"undecided\" || \$7 !~ /^[0-9]+\$/ || \$7 <= 2 { exit 1 }' '$T/ab/rows.tsv' &&
			 grep -q 'ext4 read cold' '$T/ab/compare.err'"
		check "ab: the throttle shows: B/A of ext4's cold read above 2 (the sides are not swapped)" \
			awk -F '\t' '$1 == "ext4" && $2 ~ /^read cold/ { found = 1; if ($5 + 0 <= 2) exit 1 } END { exit !found }' "$T/ab/rows.tsv"
		pyt ab-same tests/labgrid/test_ab.py --lg-env=board/qemu-x86_64/labgrid/qemu.yaml \
			--fsbench-host="$O/host/fsbench" --fsbench-append="fsbench.fs=ext4"
		check "ab: without a side B option the test fails before a boot: side B is side A" sh -c \
			"[ $rc -eq 1 ] && grep -q 'side B is side A' '$T/ab-same/failure.txt' && [ ! -d '$T/ab-same/ab' ]"
		info "ab: $(grep -o 'A/B seed .*' "$T/ab/pytest.out" | head -n 1); boots $(grep -v '^#' "$T/ab/boots.txt" | awk '{ printf "%s%s%s %ss", s, $2, $3, $6; s = ", " }'); $(($(date +%s) - t0)) s in all"
	fi
fi

summary

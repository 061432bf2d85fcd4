#!/bin/sh
# tests/qemu/powercut.sh: power cuts and a lying disk, briefly (make check;
# the long campaigns are make powercut). qemu/powercut.sh drives the boots:
# each cut a SIGKILL of QEMU and of the target's disk model (nbdkit:
# qemu/diskmodel.py) at a moment drawn from the seed.
#   honest  ext4, 1 cycle of a 4 s window on an honest SATA disk with a
#           volatile write cache (the target on AHCI through the `cache`
#           model: what the guest did not flush is lost at the cut, with
#           the guest's page cache): 2 boots, the first cut, the second
#           ends the campaign; the verdict PASSes (powercut_lost = 0,
#           powercut_torn = 0, powercut_fsck = clean, powercut_cycles =
#           1); a `powercut` record with acknowledged operations, all
#           verified or in flight; the report's power-cut table; the seed
#           on the first line and on the armed line; the log's records
#           against the schema. On AHCI, not NVMe: the guest's kernel
#           sends SATA no FUA and follows a journal commit with a flush,
#           while QEMU 7.2's NVMe drops the FUA bit of the commits the
#           guest sends it, so behind a volatile cache an NVMe is not
#           quite honest (qemu/README.md, "What reaches the disk"). The
#           labgrid test runs 2 cycles.
#   lying   ext4, 1 cycle on the same disk with the `lying` model (the
#           same cache, on AHCI), whose flushes lie from a second before
#           the cut: the check finds acknowledged files lost and names
#           them, the verdict FAILs on powercut_lost
#   nilfs2  nilfs2 (no checker: fsck "none"), 1 cycle of a 4 s window on
#           the plain NVMe target, LAVA lines on: the three readers of the
#           cycle's one judgement (log/pcrule.h) agree that it passed: the
#           runner's exit status, its LAVA line for the cycle and its
#           fs_end, and the host's verdict
#   wrap    a 2 GiB target that holds 1 GiB (`wrap:1G`: fake capacity)
#           with capacity = 1, ext4 brief: the capacity record says
#           dishonest, its real size within 1 % of 1 GiB, and the verdict's
#           `capacity = honest` FAILs naming it
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64),
#   POWERCUT_TEST_ONLY (cases: honest lying nilfs2 wrap), POWERCUT_SEED (the
#   campaigns' seed; default: random, printed).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
#   results under $O/tests/qemu-powercut/.
set -eu

O=${O:?run through make check-qemu}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-powercut
only=${POWERCUT_TEST_ONLY:-honest lying nilfs2 wrap}
. tests/qemu/lib.sh

qemu_start 'qemu power-cut tests'
T=$(cd "$T" && pwd)
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
if ! command -v nbdkit >/dev/null || ! nbdkit python --version >/dev/null 2>&1; then
	skip "no nbdkit with its python plugin (packages nbdkit, nbdkit-plugin-python; make deps)"
	summary
	exit 0
fi
made build.log image ROOTFS=ext4 || { summary; exit 1; }
disk=$O/image/$BOARD/disk-ext4.img
seed=${POWERCUT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
[ "$seed" -ge 1 ] 2>/dev/null || seed=1
info "seed $seed (again: POWERCUT_SEED=$seed)"

# campaign NAME qemu/powercut.sh-options... -- launcher-options...: status in
# $rc, folder $T/NAME; the '--' is added when not given;
# $RUN_APPEND: more kernel command-line words for every boot
campaign() {
	_n=$1; shift
	_dd=--
	for _a in "$@"; do [ "$_a" != -- ] || _dd=; done
	set +e
	RESULTS=$T sh qemu/powercut.sh --disk "$disk" --results "$T/$_n" --seed "$seed" "$@" $_dd --timeout 600 \
		${RUN_APPEND:+--append "$RUN_APPEND"} >"$T/$_n.out" 2>&1
	rc=$?
	set -e
	info "$_n: $(ls -d "$T/$_n"/boot-*/ 2>/dev/null | wc -l) boots, status $rc"
	case $rc in 0|1) return 0 ;; esac
	# the campaign broke off (status 4: a boot ended neither by a cut nor
	# by the campaign's end): what it said, and the last boot's end
	tail -n 15 "$T/$_n.out" | sed 's/^/     | /'
	_k=1
	while [ -d "$T/$_n/boot-$((_k + 1))" ]; do _k=$((_k + 1)); done
	_b=$T/$_n/boot-$_k
	[ ! -d "$_b" ] || { grep '^ *end:\|total run time' "$_b/run.txt" 2>/dev/null
		tr -d '\r' <"$_b/serial.log" 2>/dev/null | grep -v '^FSB' | tail -n 15; } | sed 's/^/     | /'
}
# pc NAME FIELD...: the powercut records' fields, tab-separated
pc() { _n=$1; shift; sh qemu/records.sh "$T/$_n/records.jsonl" powercut "$@"; }

if wanted honest; then
	campaign honest --fs ext4 --cycles 1 --window 4 --target-model cache -- --target-bus ahci
	r=$T/honest
	check "honest: the seed said first" sh -c "head -n 1 '$T/honest.out' | grep -q 'seed $seed'"
	check "honest: 2 boots: the first cut, the second ended the campaign" sh -c \
		"[ \$(grep -c '; cut\$' '$T/honest.out') -eq 1 ] && grep -q 'boot 2: the campaign ended' '$T/honest.out'"
	check "honest: the armed line carries the seed" sh -c \
		"tr -d '\r' <'$r/boot-1/serial.log' | grep 'FSBENCH-POWERCUT: armed' | grep -c 'seed=$seed' | grep -qx 1"
	check "honest: verdict PASS (exit 0)" sh -c "[ $rc -eq 0 ] && tail -n 1 '$r/verdict.txt' | grep -q '^verdict: PASS'" ||
		tail -n 20 "$T/honest.out"
	pc honest cycle fs acknowledged verified in_flight lost torn fsck >"$T/honest.pc"
	check "honest: one powercut record, cycle 1 on ext4" sh -c \
		"[ \$(wc -l <'$T/honest.pc') -eq 1 ] && cut -f1,2 '$T/honest.pc' | grep -qx '1	ext4'"
	check "honest: the cycle had operations acknowledged, all verified or in flight, none lost or torn, fsck clean" \
		awk -F'\t' '{ if ($3 <= 0 || $6 != 0 || $7 != 0 || $8 != "clean") bad = 1; n++ } END { exit !(n == 1 && !bad) }' "$T/honest.pc"
	check "honest: the report has the power-cut table" grep -qi 'power cut' "$r/report.md"
	check "honest: the log's records against the record schema" "$FSBENCH_HOST" log check "$r/records.jsonl"
	info "honest: $(tr '\t' ' ' <"$T/honest.pc" | tr '\n' ';')"
fi

if wanted lying; then
	campaign lying --fs ext4 --cycles 1 --window 4 --target-model lying -- --target-bus ahci
	r=$T/lying
	check "lying: the flushes lied a second before the cut" grep -q 'flushes lie from now' "$r/boot-1.out"
	pc lying lost torn 'bad[1].file' >"$T/lying.pc" || true
	check "lying: acknowledged files lost and named" awk -F'\t' '$1 > 0 && $3 != "" { ok = 1 } END { exit !ok }' "$T/lying.pc"
	check "lying: verdict FAIL (exit 1) on powercut_lost" sh -c \
		"[ $rc -eq 1 ] && grep -q 'FAIL' '$r/verdict.txt' && grep -i 'lost' '$r/verdict.txt' | grep -q FAIL"
	info "lying: $(tr '\t' ' ' <"$T/lying.pc")"
fi

if wanted nilfs2; then
	RUN_APPEND=fsbench.lava=1 campaign nilfs2 --fs nilfs2 --cycles 1 --window 4
	r=$T/nilfs2
	pc nilfs2 cycle fs lost torn fsck mount >"$T/nilfs2.pc" || true
	info "nilfs2: $(tr '\t' ' ' <"$T/nilfs2.pc")"
	check "nilfs2: one cycle, nothing lost or torn, no checker (fsck none), mounted" \
		awk -F'\t' '$2 == "nilfs2" && $3 == 0 && $4 == 0 && $5 == "none" && $6 == "ok" { n++ } END { exit n != 1 }' "$T/nilfs2.pc"
	lava=$(cat "$r"/boot-*/serial.log 2>/dev/null | tr -d '\r' | grep -o 'FSBENCH-RESULT: test_case_id=powercut-nilfs2[^ ]* result=[a-z]*' | sed 's/.*result=//' | sort -u)
	check "nilfs2: the runner's LAVA line for the cycle says pass (got: ${lava:-none})" [ "$lava" = pass ]
	check "nilfs2: the runner's fs_end says ok" sh -c "sh qemu/records.sh '$r/records.jsonl' fs_end fs status | grep -qx 'nilfs2	ok'"
	check "nilfs2: the campaign (the runner's exit status) and the host's verdict pass" sh -c \
		"[ $rc -eq 0 ] && tail -n 1 '$r/verdict.txt' | grep -q '^verdict: PASS'" || tail -n 20 "$T/nilfs2.out"
fi

if wanted wrap; then
	res=$T/wrap
	set +e
	RESULTS=$T sh qemu/run.sh --disk "$disk" --results "$res" --quiet --target-size 2G --target-model wrap:1G \
		--profile smoke --append "fsbench.fs=ext4 $BRIEF fsbench.capacity=1" --criteria none --timeout 600 \
		>"$T/wrap.out" 2>&1
	rc=$?
	set -e
	rec "$res" capacity honest claimed_bytes verified_bytes >"$T/wrap.cap" || true
	info "wrap: capacity: $(tr '\t' ' ' <"$T/wrap.cap")"
	check "wrap: a capacity record: not honest, claimed 2 GiB" awk -F'\t' '$1 == "false" && $2 == 2147483648 { ok = 1 } END { exit !ok }' "$T/wrap.cap"
	check "wrap: the real size within 1 % of 1 GiB" awk -F'\t' '{ d = $3 - 1073741824; if (d < 0) d = -d; if (d <= 10737418) ok = 1 } END { exit !ok }' "$T/wrap.cap"
	printf 'capacity = honest\n' >"$T/wrap.criteria"
	vrc=0
	"$FSBENCH_HOST" verdict "$res/records.jsonl" --criteria "$T/wrap.criteria" >"$T/wrap.verdict" 2>&1 || vrc=$?
	check "wrap: verdict capacity = honest FAILs (exit 1)" sh -c "[ $vrc -eq 1 ] && grep -i capacity '$T/wrap.verdict' | grep -q FAIL"
fi
summary

#!/bin/sh
# tests/lava/run.sh (make check-lava): fsbench under LAVA.
#   1. templates: board/README.md's monitors block ("LAVA") is the one of
#      every board's lava/job.yaml (tests/lava/lava.py monitors); its
#      pattern, run over the lines of a host run (`fsbench run --dir` with
#      lava=1) and of `fsbench verdict --lava` on the recorded QEMU console
#      (qemu/smoke-serial.log), matches every FSBENCH-RESULT line with its
#      id, result, measurement and units, and the markers are the start and
#      end strings; an ERROR check (the recorded console up to its first
#      record: a boot that never reached the runner) is LAVA's unknown, a
#      known failure's FSBENCH-KNOWN line is no test case.
#   2. validate: the qemu-aarch64 job (its images are the launcher's, as
#      qemu/cmdline.sh boots that board) and the two
#      real-board jobs (against a device with a flasher deploy method and
#      the minimal boot method) pass `lava-run --validate`; a job without
#      its end string does not.
#   3. smoke: Debian's lava-run (lava-dispatcher, no server) runs the
#      qemu-x86_64 job (board/qemu-x86_64/lava/job.yaml: its images the
#      launcher's, the machine and the NVMe target from qemu/cmdline.sh,
#      file:// deploy to tmpfs) with fsbench.profile=smoke, brief (BRIEF of
#      tests/lib.sh: one round of fewer files); from LAVA's own
#      log (its "results" lines): the job and the monitors test passed,
#      every filesystem x round x phase is a test case (pass, its
#      measurement the phase record's seconds, units s), every check of the
#      verdict the guest ran (the host's `fsbench verdict --lava` on the
#      console's records against the criteria on the ESP, the board's
#      criteria.conf with the TCG timer warning ignored, gives the same
#      ids, results and measurements), fsbench-run passed, and every
#      FSBENCH-RESULT line of the console is a test case.
#   4. fault: the same on ext4 alone with fsbench.fault=d0001/f0000007:100 (one bit
#      flipped after each create): every read and read_inode case fails,
#      create, stat, delete and fstrim pass, the verification check and fsbench-run
#      fail.
# Parts 3 and 4 print SKIP with the reason without lava-run, root,
# qemu-system-x86_64 or PyYAML. Figures (INFO): each job's time and the
# number of test cases LAVA recorded.
#   A job whose QEMU has used no processor time for LAVA_STALL seconds
#   (120) has stopped for good (QEMU's TCG, qemu/README.md): that QEMU is
#   killed (tests/lava/stallwatch.sh) and the job run once more; part
#   "stall" tests the watch with stand-ins named qemu-system-*.
# Inputs (environment): O (build output, absolute), FSBENCH_HOST,
#   LAVA_TEST_ONLY (parts: templates stall validate smoke fault),
#   LAVA_STALL, QEMU_STALL_LOG (a line per stalled job).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work
#   files under $O/tests/lava/.
set -eu

O=${O:?run through make check-lava}
T=$O/tests/lava
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
only=${LAVA_TEST_ONLY:-templates stall validate smoke fault}
# a job's QEMU that used no processor time for LAVA_STALL seconds has
# stopped for good (0: never)
LAVA_STALL=${LAVA_STALL:-120}
. tests/lib.sh
wanted() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

rm -rf "$T"
test_init 'lava tests' "$T"
boards="qemu-x86_64 qemu-aarch64 pc-x86_64 arm64-uefi"
templates=
for b in $boards; do templates="$templates board/$b/lava/job.yaml"; done
# PyYAML comes with lava-dispatcher (Debian python3-yaml), in the system's
# Python.
py=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import yaml' 2>/dev/null; then py=$p; break; fi
done
lava() { "$py" tests/lava/lava.py "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

if [ -z "$py" ]; then
	skip "every part: no Python 3 with PyYAML (Debian python3-yaml, brought by lava-dispatcher)"
	summary
	exit 0
fi
[ -x "$FSBENCH_HOST" ] || { fail "no $FSBENCH_HOST (make host)"; summary; exit 1; }

# ---- 1. templates -------------------------------------------------------
if wanted templates; then
	for b in $boards; do
		check "$b: board/$b/lava/job.yaml is there" test -f "board/$b/lava/job.yaml"
	done
	# shellcheck disable=SC2086
	check "board/README.md's monitors block is every template's" \
		lava monitors board/README.md $templates
	lava monitors board/README.md $templates >"$T/monitors.yaml" 2>/dev/null || :
	# the lines of a host run and of verdict --lava
	mkdir -p "$T/dir"
	"$FSBENCH_HOST" run --dir "$T/dir" --profile smoke --fs ext4 --dirs 1 --files 20 \
		--workers 1 --rounds 2 --progress 0 --lava 1 >"$T/dir.out" 2>"$T/dir.err" || :
	"$FSBENCH_HOST" verdict tests/qemu/smoke-serial.log --criteria board/qemu-x86_64/criteria.conf \
		--lava >"$T/verdict.out" 2>&1 || :
	id=$(sed -n 's/.*"type":"run_start","run_id":"\([0-9a-f]*\)".*/\1/p' "$T/dir.out")
	{
		cat "$T/dir.out" "$T/verdict.out"
		echo "FSBENCH-RESULT: test_case_id=fsbench-run result=pass"
		echo "FSBENCH-LAVA: end run=$id"
	} >"$T/lines"
	check "the pattern matches every FSBENCH-RESULT line" sh -c \
		"'$py' tests/lava/lava.py match '$T/monitors.yaml' <'$T/lines' >'$T/matched'"
	check "the start and end strings match the run's markers, in order" \
		[ "$(grep -x 'start\|end' "$T/matched" | tr '\n' ' ')" = "start end " ]
	check "a host run with lava=1: a line per phase, pass, seconds" \
		[ "$(grep -c '^ext4-r[12]-\(create\|stat\|read\|read_inode\|delete\)	pass	[0-9.e+-]*	s$' "$T/matched")" -eq 10 ]
	check "a phase's measurement is its record's seconds" sh -c "
		sed -n 's/.*\"type\":\"phase\".*\"fs\":\"\([^\"]*\)\",\"round\":\([0-9]*\),\"phase\":\"\([^\"]*\)\".*\"seconds\":\([^,]*\),.*/\1-r\2-\3	pass	\4	s/p' '$T/dir.out' >'$T/dir.want'
		[ -s '$T/dir.want' ] && grep -F -x -f '$T/dir.want' '$T/matched' | cmp -s - '$T/dir.want'"
	nv=$(grep -c '^FSBENCH-RESULT: test_case_id=verdict-' "$T/verdict.out" || :)
	nc=$(grep -v '^verdict: ' "$T/verdict.out" | grep -c ': \(PASS\|FAIL\)' || :)
	check "verdict --lava: a line per check ($nc), each matched" sh -c \
		"[ '$nv' -gt 0 ] && [ '$nv' -eq '$nc' ] && [ \$(grep -c '^verdict-' '$T/matched') -eq '$nv' ]"
	check "verdict --lava: a check without a number has no measurement, a count has units count" sh -c \
		"grep -q '^verdict-[a-z0-9_.-]*	\(pass\|fail\)		$' '$T/matched' &&
		 grep -q '^verdict-error-records[a-z0-9_.-]*	pass	0	count$' '$T/matched'"
	check "fsbench-run: matched without a measurement" grep -qx 'fsbench-run	pass		' "$T/matched"
	# ERROR is LAVA's unknown, SKIP its skip; a known issue's own line is
	# no test case: a boot that never reached the runner (the recorded
	# console up to its first record), a failure marked known
	sed '/FSBENCH/,$d' tests/qemu/smoke-serial.log >"$T/noboot.log"
	"$FSBENCH_HOST" verdict "$T/noboot.log" --criteria board/qemu-x86_64/criteria.conf \
		--lava >"$T/noboot.out" 2>&1 || :
	printf 'check 2099-12-31 https://bugs.example.org/1 kernel messages*\n' >"$T/known.txt"
	"$FSBENCH_HOST" verdict tests/qemu/smoke-serial.log --criteria board/qemu-x86_64/criteria.conf \
		--known "$T/known.txt" --lava >"$T/known.out" 2>&1 || :
	printf 'FSBENCH-RESULT: test_case_id=verdict-x result=skip\n' >>"$T/noboot.out"
	check "verdict --lava: an ERROR check is result=unknown, matched as unknown" sh -c \
		"'$py' tests/lava/lava.py match '$T/monitors.yaml' <'$T/noboot.out' >'$T/noboot.matched' &&
		 grep -qx 'verdict-fsbench-run-ran-to-its-end	unknown		' '$T/noboot.matched' &&
		 [ \$(grep -c '	unknown	' '$T/noboot.matched') = \$(grep -c 'result=unknown' '$T/noboot.out') ]"
	check "a skip line is matched as skip" grep -qx 'verdict-x	skip		' "$T/noboot.matched"
	check "a known failure: its FSBENCH-KNOWN line, then its result line, fail, the only case" sh -c \
		"grep -A1 '^FSBENCH-KNOWN: test_case_id=verdict-kernel-messages-warning-or-worse link=https://bugs.example.org/1 until=2099-12-31 where=known.txt:1' '$T/known.out' |
		 grep -qx 'FSBENCH-RESULT: test_case_id=verdict-kernel-messages-warning-or-worse result=fail' &&
		 '$py' tests/lava/lava.py match '$T/monitors.yaml' <'$T/known.out' >'$T/known.matched' &&
		 [ \$(grep -c . '$T/known.matched') = \$(grep -c '^FSBENCH-RESULT:' '$T/known.out') ]"
	# a line the pattern must not take: an id LAVA does not allow
	check "the pattern refuses an id with a space" sh -c \
		"! printf 'FSBENCH-RESULT: test_case_id=a b result=pass\n' | '$py' tests/lava/lava.py match '$T/monitors.yaml' 2>/dev/null"
fi

# ---- what parts 2 to 4 need -------------------------------------------
why=
if ! have lava-run; then why="no lava-run (Debian lava-dispatcher; make deps)"
elif [ "$(id -u)" != 0 ]; then why="lava-run runs as root only"
fi
qemu=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_QEMU")
[ -n "$why" ] || have "$qemu" || why="no $qemu (Debian qemu-system-x86)"
if [ -n "$why" ]; then
	for p in validate smoke fault; do ! wanted $p || skip "$p: $why"; done
	summary
	exit $?
fi

# cmdline NAME BOARD [VAR=VALUE...]: qemu/cmdline.sh's argv for BOARD as the
# launcher builds it, the console on QEMU's stdio, in $T/NAME.argv; the
# work folder (target file) is $T/NAME.work.
cmdline() {
	name=$1 board=$2; shift 2
	mkdir -p "$T/$name.work"
	(
		eval "$(sh image/boardenv.sh "board/$board/board.mk")"
		export $(set | sed -n 's/^\(BOARD_[A-Z0-9_]*\)=.*/\1/p')
		env WORK="$T/$name.work" SERIAL=- UEFI=0 KERNEL='{kernel}' INITRD='{initrd}' ROOTFS=ext4 \
			PROFILE= APPEND=' fsbench.lava=1' ACCEL=tcg CPU="$BOARD_QEMU_CPU_TCG" TCACHE=none "$@" \
			sh qemu/cmdline.sh "$T/$name.argv"
	)
}

# ---- stall: the watch of a job's QEMU, with stand-ins named qemu-system-*
# below a stand-in lava-run: one that sleeps is found stalled and killed,
# one that computes is left alone ----
if wanted stall; then
	mkdir -p "$T/stall/bin"
	ln -sf "$(command -v sleep)" "$T/stall/bin/qemu-system-idle"
	ln -sf "$(command -v dash || command -v sh)" "$T/stall/bin/qemu-system-busy"
	sh -c "'$T/stall/bin/qemu-system-idle' 60; echo \$? >'$T/stall/idle.rc'" 2>/dev/null &
	r=$!
	s0=$(now)
	set +e
	timeout 20 sh tests/lava/stallwatch.sh "$r" 2 "$T/stall/idle.out"
	wrc=$?
	set -e
	took=$(secs "$s0" "$(now)")
	check "stall: a QEMU below the job that uses no processor time is found stalled after 2 s (in ${took} s, watch exit $wrc)" \
		sh -c "[ $wrc -eq 0 ] && grep -q 'used no processor time in 2 s' '$T/stall/idle.out'"
	wait "$r" 2>/dev/null || :
	check "stall: and killed (SIGKILL, status 137: $(cat "$T/stall/idle.rc" 2>/dev/null)), so the job ends" \
		[ "$(cat "$T/stall/idle.rc" 2>/dev/null)" = 137 ]
	sh -c "exec '$T/stall/bin/qemu-system-busy' -c 'while :; do :; done'" &
	r=$!
	set +e
	timeout 4 sh tests/lava/stallwatch.sh "$r" 2 "$T/stall/busy.out"
	wrc=$?
	set -e
	check "stall: one that computes is not (still watched after 4 s, exit $wrc)" sh -c "[ $wrc -eq 124 ] && [ ! -e '$T/stall/busy.out' ]"
	kill "$r" 2>/dev/null || :; wait "$r" 2>/dev/null || :
fi

# ---- 2. validate ------------------------------------------------------
if wanted validate; then
	mkdir -p "$T/aarch64.images"
	for f in kernel initramfs.cpio.gz disk-ext4.img; do : >"$T/aarch64.images/$f"; done
	if cmdline aarch64 qemu-aarch64 >"$T/aarch64.cmdline" 2>&1; then
		check "qemu-aarch64: the job's images are the launcher's (kernel and its command line, initrd, disk)" \
			lava render "$T/aarch64.argv" "$T/aarch64.work" board/qemu-aarch64/lava/job.yaml \
			"$T/aarch64.images" "" "$T/aarch64.job.yaml" "$T/aarch64.device.yaml"
		check "qemu-aarch64: lava-run --validate" lava-run --validate --job-id "fsbench-validate-$$" \
			--output-dir "$T/aarch64.out" --device "$T/aarch64.device.yaml" "$T/aarch64.job.yaml"
		sed '/^ *end: /d' "$T/aarch64.job.yaml" >"$T/noend.job.yaml"
		expect_rc 1 "lava-run --validate refuses a job whose monitor has no end string" \
			lava-run --validate --job-id "fsbench-validate-$$" --output-dir "$T/noend.out" \
			--device "$T/aarch64.device.yaml" "$T/noend.job.yaml"
	else
		fail "qemu-aarch64: qemu/cmdline.sh"; tail -n 5 "$T/aarch64.cmdline"
	fi
	cat >"$T/board.device.yaml" <<-'DEV'
	constants:
	  posix: {lava_test_sh_cmd: /bin/sh, lava_test_results_dir: /lava-%s, lava_test_shell_file: ~/.bashrc}
	  shutdown-message: The system is going down for reboot NOW
	  kernel-start-message: Linux version [0-9]
	  default-shell-prompt: 'lava-test: # '
	  spawn_maxread: '4092'
	  boot_retry: 1
	  failure_retry: 1
	commands:
	  connect: cat
	  power_on: 'true'
	  power_off: 'true'
	  hard_reset: 'true'
	actions:
	  deploy:
	    connections: {serial: null}
	    methods:
	      flasher:
	        commands: ['true']
	  boot:
	    connections: {serial: null}
	    methods:
	      minimal: null
	timeouts: {actions: {}, connections: {}}
	DEV
	# the image from a file (validating an https url would fetch it)
	mkdir -p "$T/board.images"
	: >"$T/board.images/disk-ext4.img"
	for b in pc-x86_64 arm64-uefi; do
		sed "s#^\( *url: \)https://lab.example.org/fsbench/$b/#\1file://$T/board.images/#" \
			"board/$b/lava/job.yaml" >"$T/$b.job.yaml"
		check "$b: lava-run --validate (a device with a flasher deploy and the minimal boot)" sh -c \
			"grep -q '^ *url: file://$T/board.images/disk-ext4.img\$' '$T/$b.job.yaml' &&
			 lava-run --validate --job-id 'fsbench-validate-$$' --output-dir '$T/$b.out' \
			 --device '$T/board.device.yaml' '$T/$b.job.yaml'"
	done
fi

# ---- 3., 4. the smoke job, healthy and with a fault --------------------
if wanted smoke || wanted fault; then
	img=$O/image/qemu-x86_64
	make -s --no-print-directory BOARD=qemu-x86_64 image ROOTFS=ext4 >"$T/build.log" 2>&1 || {
		fail "make BOARD=qemu-x86_64 image"; tail -n 20 "$T/build.log"; summary; exit 1
	}
	[ -f "$img/vmlinux" ] || { fail "no $img/vmlinux (the job boots the PVH kernel)"; summary; exit 1; }
	# the accelerator as the launcher picks it: KVM only when a guest runs
	# (the launcher's kept answer, as its boots reuse it)
	accel=tcg
	if (eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"
		export $(set | sed -n 's/^\(BOARD_[A-Z0-9_]*\)=.*/\1/p')
		mkdir -p "$T/probe" "$O/run"
		sh qemu/kvm-probe.sh "$(cd "$img" && pwd)/kernel" "$T/probe" "$O/run/kvm-probe-qemu-x86_64.txt") >"$T/probe.txt" 2>&1; then
		accel=kvm
	fi
	info "accelerator: $accel ($(head -n 1 "$T/probe.txt"))"
	# The images the jobs fetch: the kernel and initramfs as built, a copy
	# of the disk whose ESP holds the board's criteria.
	imgs=$T/images
	mkdir -p "$imgs"
	ln -sf "$img/vmlinux" "$imgs/vmlinux"
	ln -sf "$img/initramfs.cpio.gz" "$imgs/initramfs.cpio.gz"
	cp --sparse=always "$img/disk-ext4.img" "$imgs/disk-ext4.img"
	cp board/qemu-x86_64/criteria.conf "$T/criteria.conf"
	check "the disk copy's ESP holds the criteria (qemu/esp.sh --criteria)" \
		sh qemu/esp.sh --criteria "$imgs/disk-ext4.img" "$T/criteria.conf"
	cpu=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"
		if [ "$accel" = kvm ]; then echo "$BOARD_QEMU_CPU_KVM"; else echo "$BOARD_QEMU_CPU_TCG"; fi)
fi

# job NAME WORDS: the qemu-x86_64 job with WORDS on the kernel command line,
# run by lava-run; rc in $rc, LAVA's test cases in $T/NAME.cases
# (SUITE CASE RESULT MEASUREMENT UNITS TEST_CASE_ID), the console in
# $T/NAME.console.
job() {
	name=$1 words=$2
	mkdir -p "$T/$name.work"
	truncate -s "$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_TARGET_SIZE")" \
		"$T/$name.work/target.img"
	tcache=none
	dd if=/dev/zero of="$T/$name.work/target.img" bs=4096 count=1 conv=notrunc oflag=direct 2>/dev/null ||
		tcache=writeback
	rc=99
	cmdline "$name" qemu-x86_64 ACCEL="$accel" CPU="$cpu" TCACHE="$tcache" >"$T/$name.cmdline" 2>&1 ||
		{ fail "$name: qemu/cmdline.sh"; tail -n 5 "$T/$name.cmdline"; return 0; }
	check "$name: the job's images are the launcher's (kernel and its command line, initrd, disk)" \
		lava render "$T/$name.argv" "$T/$name.work" board/qemu-x86_64/lava/job.yaml "$imgs" "$words" \
		"$T/$name.job.yaml" "$T/$name.device.yaml" || return 0
	# a guest QEMU's TCG stops for good (tests/lava/stallwatch.sh) is
	# booted again once, as the QEMU tests do, and said in QEMU_STALL_LOG
	for attempt in 1 2; do
		t0=$(now)
		rm -f "$T/$name.stall"
		set +e
		timeout -k 10 1500 lava-run --job-id "fsbench-$name-$$-$attempt" --output-dir "$T/$name.out" \
			--device "$T/$name.device.yaml" "$T/$name.job.yaml" >"$T/$name.log" 2>&1 &
		lpid=$!
		sh tests/lava/stallwatch.sh "$lpid" "$LAVA_STALL" "$T/$name.stall" &
		wpid=$!
		wait "$lpid"; rc=$?
		kill "$wpid" 2>/dev/null; wait "$wpid" 2>/dev/null
		set -e
		took=$(secs "$t0" "$(now)")
		[ -e "$T/$name.stall" ] || break
		info "$name: attempt $attempt: $(cat "$T/$name.stall") after ${took} s; its log kept as $name.stalled-$attempt.log"
		mv "$T/$name.log" "$T/$name.stalled-$attempt.log"
		rm -rf "$T/$name.out"
		[ -z "${QEMU_STALL_LOG:-}" ] ||
			echo "$(date '+%Y-%m-%d %H:%M:%S') qemu-x86_64 lava $name: $(cat "$T/$name.stall"); booted again" >>"$QEMU_STALL_LOG"
		[ "$attempt" = 1 ] || fail "$name: the guest stopped for good twice in a row"
	done
	lava results "$T/$name.log" >"$T/$name.cases" 2>"$T/$name.cases.err" || :
	lava console "$T/$name.log" | tr -d '\r' >"$T/$name.console" 2>/dev/null || :
	info "$name: lava-run took ${took} s, $(grep -c '^fsbench	' "$T/$name.cases" || :) test cases recorded in suite fsbench, $(wc -l <"$T/$name.cases") in all"
}
# case_of NAME ID: the case LAVA recorded for test_case_id ID:
# RESULT MEASUREMENT UNITS (tab-separated), LAVA's case name being ID in
# lower case with every run of non-word characters one "_".
case_of() {
	want=$(printf '%s' "$2" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9_][^a-z0-9_]*/_/g')
	awk -F '\t' -v c="$want" -v id="$2" '$1 == "fsbench" && $2 == c && $6 == id { print $3 "\t" $4 "\t" $5 }' "$T/$1.cases"
}
# phases NAME RESULTS: each fs x round x phase of the smoke profile has one
# case whose result is RESULTS' for the phase (create=pass read=fail ...)
# and, passing or not, the phase record's seconds as its measurement.
phases() {
	name=$1 results=$2
	sed -n 's/^FSBENCH:\(.*"type":"phase".*\)/\1/p' "$T/$name.console" |
		sed -n 's/.*"fs":"\([^"]*\)","round":\([0-9]*\),"phase":"\([^"]*\)".*"seconds":\([^,]*\),.*/\1-r\2-\3 \4/p' >"$T/$name.phases"
	# the filesystems and rounds the run was given (its run_start record)
	sed -n 's/^FSBENCH:\({.*"type":"run_start".*\)/\1/p' "$T/$name.console" |
		jq -r '"\(.config.fs) \(.config.rounds)"' >"$T/$name.given" 2>/dev/null || :
	fslist=$(cut -d' ' -f1 "$T/$name.given" | tr , ' ')
	rounds=$(cut -d' ' -f2 "$T/$name.given")
	bad=
	[ -n "$fslist" ] && [ -n "$rounds" ] || bad=" (no run_start record on the console)"
	for fs in $fslist; do
		r=1
		while [ "$r" -le "${rounds:-0}" ]; do
			for ph in create stat read read_inode delete fstrim; do
				id=$fs-r$r-$ph
				res=${results##* $ph=}; res=${res%% *}
				s=$(sed -n "s/^$id //p" "$T/$name.phases")
				got=$(case_of "$name" "$id")
				[ "$got" = "$res	$s	s" ] && [ -n "$s" ] || bad="$bad $id(${got:-missing}; record ${s:-missing})"
			done
			r=$((r + 1))
		done
	done
	if [ -z "$bad" ]; then
		pass "$name: every fs x round x phase is a case ($(echo $fslist | tr ' ' ,), $rounds rounds): $(echo "$results" | sed 's/^ //'), the record's seconds, units s"
	else
		fail "$name: cases:$bad"
	fi
}
# verdicts NAME: each check of the host's verdict on the console's records
# (the criteria on the disk copy's ESP) is a case with the same
# result and measurement. Prints how many.
verdicts() {
	name=$1
	grep '^FSBENCH:{' "$T/$name.console" >"$T/$name.serial" || :
	"$FSBENCH_HOST" verdict "$T/$name.serial" --criteria "$T/criteria.conf" --lava \
		>"$T/$name.verdict" 2>&1 || :
	lava match "$T/monitors.yaml" <"$T/$name.verdict" >"$T/$name.verdict.want" 2>/dev/null || :
	bad= n=0
	while IFS='	' read -r id res m u; do
		n=$((n + 1))
		got=$(case_of "$name" "$id")
		[ "$got" = "$res	$m	$u" ] || bad="$bad $id(${got:-missing}, expected $res $m $u)"
	done <"$T/$name.verdict.want"
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		pass "$name: the $n checks of the verdict are cases, as the host's verdict --lava has them"
	else
		fail "$name: verdict cases ($n checks):$bad"
	fi
}
common() {
	name=$1
	check "$name: lava-run exit status 0" [ "$rc" -eq 0 ]
	check "$name: LAVA's job and monitors test passed (the end string was seen)" sh -c \
		"grep -q '^lava	job	pass' '$T/$name.cases' && grep -q '^lava	lava-test-monitor	pass' '$T/$name.cases'"
	check "$name: every FSBENCH-RESULT line of the console is a case" \
		[ "$(grep -c '^FSBENCH-RESULT:' "$T/$name.console" || :)" -eq "$(grep -c '^fsbench	' "$T/$name.cases" || :)" ]
	check "$name: the start marker came before the first case, the end marker after the last" sh -c \
		"grep -n 'FSBENCH-LAVA: \(start\|end\) run=\|^FSBENCH-RESULT:' '$T/$name.console' |
		 sed -n '1p;\$p' | tr '\n' ' ' | grep -q '^[0-9]*:FSBENCH-LAVA: start run=.* [0-9]*:FSBENCH-LAVA: end run='"
	check "$name: the markers name the run's id" sh -c \
		"id=\$(sed -n 's/.*\"type\":\"run_start\",\"run_id\":\"\([0-9a-f]*\)\".*/\1/p' '$T/$name.console');
		 [ -n \"\$id\" ] && grep -qx \"FSBENCH-LAVA: start run=\$id\" '$T/$name.console' &&
		 grep -qx \"FSBENCH-LAVA: end run=\$id\" '$T/$name.console'"
}

t_all=$(now)
if wanted smoke; then
	[ -s "$T/monitors.yaml" ] || lava monitors board/README.md $templates >"$T/monitors.yaml" 2>/dev/null || :
	job smoke "fsbench.profile=smoke $BRIEF"
	if [ "$rc" != 99 ]; then
		common smoke
		phases smoke " create=pass stat=pass read=pass read_inode=pass delete=pass fstrim=pass"
		verdicts smoke
		check "smoke: fsbench-run passed" [ "$(case_of smoke fsbench-run)" = "pass		" ]
		check "smoke: $(grep -c '^fsbench	' "$T/smoke.cases" || :) cases: 4 filesystems x 1 round x 6 phases, the checks, fsbench-run" \
			[ "$(grep -c '^fsbench	' "$T/smoke.cases" || :)" -eq $((24 + $(wc -l <"$T/smoke.verdict.want") + 1)) ]
	fi
fi
if wanted fault; then
	[ -s "$T/monitors.yaml" ] || lava monitors board/README.md $templates >"$T/monitors.yaml" 2>/dev/null || :
	job fault "fsbench.profile=smoke fsbench.fs=ext4 $BRIEF fsbench.fault=d0001/f0000007:100"
	if [ "$rc" != 99 ]; then
		common fault
		phases fault " create=pass stat=pass read=fail read_inode=fail delete=pass fstrim=pass"
		check "fault: the verification check failed" sh -c \
			"grep -q '^fsbench	verdict_verification[a-z_]*	fail	' '$T/fault.cases'"
		check "fault: fsbench-run failed" [ "$(case_of fault fsbench-run)" = "fail		" ]
	fi
fi
if wanted smoke || wanted fault; then
	info "lava: the jobs took $(secs "$t_all" "$(now)") s"
fi
summary

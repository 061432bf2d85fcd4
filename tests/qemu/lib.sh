# tests/qemu/lib.sh: what the QEMU test scripts share (sourced, POSIX sh),
# over the one test library tests/lib.sh (pass fail skip info check
# summary, test_init NAME DIR).
# Before sourcing: optionally only (the case names to run, for `wanted`).
# Gives: wanted, recs, rec, has, flat and console (a results folder's
# records, read by key through qemu/records.sh), esp and esp_results (the
# ESP of a launcher work copy, for mtools), check_suite (a whole smoke run
# on the four filesystems), check_run (a whole boot of it, as the launcher
# collected it) and check_extract (the records read back from the disk
# copy on the host), use_board (one board's settings), qemu_start and
# board_start (a test's start: its folder, the board, a SKIP without
# QEMU), made (a build, a FAIL with its log's end), fw_boot (a boot through
# the board's firmware).

. tests/lib.sh
PREFIX='FSBENCH:'
# The tests' guests have the board's vCPUs (two), as a user's boot has
# them. One vCPU costs about a quarter less processor time a boot under
# TCG, and was tried: in two of three make check runs one guest then
# stopped for good, its vCPU halted and QEMU holding no timer to wake it
# (a firmware boot of arm64-uefi before the kernel, the second boot of an
# x86_64 power-cut campaign). A boot on two vCPUs has since stopped the
# same way (an x86_64 UEFI guest at its power-off): the stop is QEMU's
# TCG on either, too rare to say on which more often; the launcher ends
# such a guest after --stall seconds (results/MEASUREMENTS-TESTS.md, "The stop
# on two vCPUs too"). QEMU_SMP set before still wins. Such a guest is
# booted again once, from a fresh copy of its disk (the launcher's
# --stall-retries; a campaign's boots on a kept --work disk are not): the
# stop is QEMU's, not the run's, and run.txt and the file QEMU_STALL_LOG
# names (make check prints it at its end) say each time it happened.
# QEMU_STALL_RETRIES set before still wins (0: a stop fails the check).
export QEMU_STALL_RETRIES="${QEMU_STALL_RETRIES:-1}"

wanted() { case " ${only:-} " in *" $1 "*) return 0 ;; esac; return 1; }

# recs RESULTS TYPE: the records of one type, as they are.
recs() { sh qemu/records.sh "$1/records.jsonl" "$2"; }
# rec RESULTS TYPE KEY...: per record of the type, the values of the keys
# (paths: config.rounds, target.serial), tab-separated.
rec() { _f=$1/records.jsonl _t=$2; shift 2; sh qemu/records.sh "$_f" "$_t" "$@"; }
# has RESULTS TYPE KEY=VALUE...: a record of the type has each KEY = VALUE.
has() {
	_f=$1/records.jsonl _t=$2; shift 2
	_k= _v= _n=0
	for _kv in "$@"; do
		[ "$_n" -eq 0 ] || _v="$_v	"
		_k="$_k ${_kv%%=*}" _v="$_v${_kv#*=}" _n=$((_n + 1))
	done
	# shellcheck disable=SC2086
	sh qemu/records.sh "$_f" "$_t" $_k | grep -qxF -- "$_v"
}
# flat RESULTS TYPE: every value of the records of the type, PATH=VALUE
# lines (disks[2].serial=fsbench-boot).
flat() { sh qemu/records.sh --flat "$1/records.jsonl" "$2"; }
# console RESULTS: the records as the serial log shows them, prefix removed
# (qemu/records.sh: a torn line skipped, a kernel message printed right
# after a record left out).
console() { sh qemu/records.sh --console "$1/serial.log" ""; }
# part_start DISK NAME: the first sector of DISK's partition named NAME.
part_start() { sfdisk --dump "$1" | sed -n "s/.*start= *\([0-9]*\),.*name=\"$2\".*/\1/p"; }
# esp WORK: the ESP partition of the launcher's disk copy, as mtools names it.
esp() {
	off=$(part_start "$1/disk.img" fsbench-esp)
	echo "$1/disk.img@@$((off * 512))"
}
# esp_results NAME WORK RESULTS: the run's results/RUN_ID.jsonl and .md on
# the ESP of the launcher's work copy, copied to $T/NAME.esp.jsonl and
# $T/NAME.esp.md; checks that both are there and that the .jsonl equals
# RESULTS/records.jsonl (the log partition's). Sets id; 1 without a run id
# or work copy.
esp_results() {
	id=$(rec "$3" run_start run_id | tail -n 1)
	if [ -z "$id" ] || [ ! -f "$2/disk.img" ]; then
		fail "$1: no run id or no work folder kept ($2)"
		return 1
	fi
	e=$(esp "$2")
	mdir -i "$e" ::results >"$T/$1.esp" 2>&1 || true
	check "$1: the ESP holds results/$id.jsonl and results/$id.md" sh -c \
		"grep -q '$id.jsonl' '$T/$1.esp' && grep -q '$id.md' '$T/$1.esp'"
	mtype -i "$e" "::results/$id.jsonl" >"$T/$1.esp.jsonl" 2>/dev/null || true
	mtype -i "$e" "::results/$id.md" >"$T/$1.esp.md" 2>/dev/null || true
	check "$1: the ESP's records equal the log partition's" cmp "$T/$1.esp.jsonl" "$3/records.jsonl"
}
# check_suite NAME RESULTS: the smoke suite ran whole on every filesystem
# the run was given (run_start's config.fs; without it, every filesystem
# of the table, `fsbench config --filesystems` of the host build): each
# fs_end ok, every phase of every round exactly once (the rounds from
# run_start, else 2), every phase without errors or verification failures,
# and no error or verify_error record. Sets fslist.
check_suite() {
	rounds=$(rec "$2" run_start config.rounds | tail -n 1)
	[ -n "$rounds" ] || rounds=2
	fslist=$(rec "$2" run_start config.fs | tail -n 1 | tr , ' ')
	[ -n "$fslist" ] || fslist=$("${FSBENCH_HOST:-$O/host/fsbench}" config --filesystems | cut -f1)
	[ -n "$fslist" ] || fail "$1: no filesystem table from ${FSBENCH_HOST:-$O/host/fsbench} (make host)"
	for fs in $fslist; do
		check "$1: $fs fs_end ok" has "$2" fs_end fs="$fs" status=ok
		missing=
		r=1
		while [ "$r" -le "$rounds" ]; do
			for ph in create stat read read_inode delete; do
				n=$(rec "$2" phase fs round phase | grep -cxF "$fs	$r	$ph" || true)
				[ "$n" -eq 1 ] || missing="$missing r$r/$ph($n)"
			done
			r=$((r + 1))
		done
		if [ -z "$missing" ]; then pass "$1: $fs has every phase of $rounds rounds"; else fail "$1: $fs phases:$missing"; fi
	done
	check "$1: every phase has errors 0 and verify_errors 0" \
		[ "$(rec "$2" phase errors verify_errors | grep -cvxF '0	0' || true)" -eq 0 ]
	check "$1: no verify_error or error records" \
		[ "$(($(recs "$2" verify_error | wc -l) + $(recs "$2" error | wc -l)))" -eq 0 ]
}
# check_run NAME RESULTS: a whole smoke boot, as the launcher collected it:
# its exit status ($rc; its output in $T/NAME.out) 0, the records from the
# log partition, one run_start, run_end ok, check_suite, and on the serial
# log the rootfs mounted read-only and the power-off.
check_run() {
	check "$1: launcher exit status 0 (the runner's)" [ "$rc" -eq 0 ] || tail -n 30 "$T/$1.out"
	check "$1: records.jsonl extracted from the log partition" grep -q 'from the log partition' "$2/run.txt"
	check "$1: one run_start" [ "$(recs "$2" run_start | wc -l)" -eq 1 ]
	check "$1: run_end ok, exit_code 0" has "$2" run_end status=ok exit_code=0
	check_suite "$1" "$2"
	check "$1: serial log shows the rootfs mounted read-only" \
		grep -q 'fsbench-init: rootfs /dev/vda[0-9]* / [a-z0-9]* ro,' "$2/serial.log"
	check "$1: serial log shows the power-off" grep -q 'reboot: Power down' "$2/serial.log"
}
# check_extract RESULTS WORK: `fsbench log extract` of the launcher's kept
# disk copy (WORK/disk.img, --keep) on the host gives the records of the
# serial console and of RESULTS/records.jsonl; WORK is removed.
check_extract() {
	console "$1" >"$T/console.jsonl"
	if [ -n "$2" ] && [ -f "$2/disk.img" ]; then
		check "extract: fsbench log extract of the run's disk image" \
			"${FSBENCH_HOST:-$O/host/fsbench}" log extract "$2/disk.img" -o "$T/extract"
		check "extract: the records equal the console's" cmp "$T/extract/records.jsonl" "$T/console.jsonl"
		check "extract: the records equal the launcher's records.jsonl" cmp "$T/extract/records.jsonl" "$1/records.jsonl"
		info "extract: $(wc -l <"$T/extract/records.jsonl") records"
		rm -rf "$2"
	else
		fail "extract: the run's disk copy was not kept (--keep)"
	fi
}
# use_board NAME: the settings of board NAME only (make exports those of
# the default board: every BOARD_* is unset first), and BOARD=NAME exported.
use_board() {
	for v in $(env | sed -n 's/^\(BOARD_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
	eval "$(sh image/boardenv.sh "board/$1/board.mk")"
	BOARD=$1
	export BOARD
}

# argv NAME [VAR=VALUE...]: qemu/cmdline.sh's QEMU argv without a boot, in
# $T/argv-NAME/qemu.argv (a TCG guest, an empty target file, the profile
# ARGV_PROFILE, default smoke); VAR=VALUE set cmdline.sh's inputs (TFAULT,
# TQMP, ...).
argv() {
	_w=$T/argv-$1; shift
	mkdir -p "$_w"
	: >"$_w/target.img"
	env WORK="$_w" ACCEL=tcg CPU=max SERIAL="$_w/serial.log" KERNEL=k INITRD=i \
		ROOTFS=ext4 PROFILE="${ARGV_PROFILE:-smoke}" TCACHE=none "$@" sh qemu/cmdline.sh "$_w/qemu.argv"
}

# qemu_start NAME [ONLY_X86 [TOOL...]]: a test's start: $T made anew
# (test_init NAME), the settings of board/$BOARD/board.mk in the
# environment, BOARD exported, IMG its image folder under $O, FSB the
# host fsbench (FSBENCH_HOST, default $O/host/fsbench); a SKIP and exit 0
# when BOARD is not qemu-x86_64 and ONLY_X86 says why the test is that
# board's (empty: any board), or when the board's QEMU or a TOOL is not
# installed.
qemu_start() {
	rm -rf "$T"
	test_init "$1" "$T"
	IMG=$O/image/$BOARD
	FSB=${FSBENCH_HOST:-$O/host/fsbench}
	_x86=${2:-}
	shift; [ $# -eq 0 ] || shift
	if [ -n "$_x86" ] && [ "$BOARD" != qemu-x86_64 ]; then
		skip "$_x86"; summary; exit 0
	fi
	eval "$(sh image/boardenv.sh "board/$BOARD/board.mk")"
	export BOARD
	for _c in "$BOARD_QEMU" "$@"; do
		have "$_c" || { skip "$_c not installed"; summary; exit 0; }
	done
}
# board_start NAME BOARD PACKAGE [TOOL...]: the start of a test of another
# board: $T made anew (test_init NAME), BOARD's settings alone
# (use_board); a SKIP and exit when the board's QEMU, its cross gcc or a
# TOOL (+NAME: the board's cross NAME) is not installed, or its firmware is
# not there (PACKAGE has it); a FAIL and exit without the host fsbench.
board_start() {
	rm -rf "$T"
	test_init "$1" "$T"
	use_board "$2"
	_pkg=$3; shift 3
	for _c in "$BOARD_QEMU" +gcc "$@"; do
		case $_c in +*) _c=$BOARD_CROSS_COMPILE${_c#+} ;; esac
		command -v "$_c" >/dev/null || { skip "$_c not installed (make deps)"; summary; exit; }
	done
	[ -f "$BOARD_QEMU_FIRMWARE" ] || { skip "no firmware $BOARD_QEMU_FIRMWARE (package $_pkg)"; summary; exit; }
	[ -x "$FSBENCH_HOST" ] || { fail "no host fsbench $FSBENCH_HOST (make host)"; summary; exit; }
}
# made LOG WORD...: make -s WORD... (targets, VAR=VALUE), its output in
# $T/LOG; when it fails, a FAIL naming it, the log's last 20 lines, status 1.
made() {
	_log=$T/$1; shift
	make -s --no-print-directory "$@" >"$_log" 2>&1 && return 0
	fail "make $*"; tail -n 20 "$_log"; return 1
}
# fw_boot NAME WORDS: the image $disk booted through the board's firmware
# by the launcher (--uefi, TCG, smoke, --append WORDS, --keep: its work
# folder under $T/o/run), its results in $T/NAME (res), its output in
# $T/NAME.out, its status in rc; an info line says the first record's
# time and the run's.
fw_boot() {
	res=$T/$1
	set +e
	O=$T/o FSBENCH_HOST=$FSBENCH_HOST sh qemu/run.sh --disk "$disk" --results "$res" \
		--quiet --keep --uefi --accel tcg --profile smoke --append "$2" --timeout 900 >"$T/$1.out" 2>&1
	rc=$?
	set -e
	info "$1: $(grep -E 'first record' "$res/run.txt" 2>/dev/null | sed 's/^ *//'), $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
}

#!/bin/sh
# tests/stages.sh: the stages of `make check`, each timed, in lanes: the
# stages before the first --lane run one after another; then each lane
# (the stages after a --lane, up to the next) runs beside the others, its
# stages one after another. At the end (also after a failure) a table of
# each stage's lane, start, wall time and processor time (user + system
# of the make and everything it waited for), and the totals.
#
#   stages.sh STAGE... [--lane STAGE...]... [--pool STAGE[:NEED]...]
#
# A stage is one make with -jJOBS of its targets: a stage written A+B
# runs the make targets A and B in that one make (at the same time, its
# time the slower one's). A lane stops at its first failed stage; the
# other lanes run on to their end. The pool's stages go to whichever lane
# is free first: a lane that has run its own stages takes the first pool
# stage no lane has taken whose NEED (a stage of a lane) has passed,
# waiting while a NEED still runs or waits; one whose NEED failed or was
# never run is not run, and fails the whole. So the lanes end together
# whichever of them a machine makes slower (the builds, the guests). Pool
# stages must not build what another stage builds. While lanes run side by side, each
# stage's output goes to a file and is printed whole when the stage ends
# (so two lanes' lines do not interleave); "check: STAGE started" says
# when each begins.
# Two lanes share the machine: a stage's time in a lane is longer than
# alone (results/MEASUREMENTS.md has both). The lanes must not build the
# same files: the stages before the lanes build what they share.
# Inputs: the stages as arguments; MAKE (the make to run, default make;
# words: "make O=DIR"); KEEP_GOING (1: the stages before the first --lane
# all run, one that fails does not stop the next: make check-full);
# JOBS (default 1); O (the build output: the stages' output files under
# $O/tests/stages/, and the table's copy; $O/run a tmpfs while they run);
# CHECK_RUN_TMPFS (0: $O/run stays on disk).
# Output: each stage's output, then "check: stage times" and one line per
# stage (lane, start, wall time and processor time in minutes:seconds,
# FAILED for one that failed) and the totals; the same table in $O/tests/stages.txt. Exit 1
# when a stage failed.
set -u
MAKE=${MAKE:-make}
JOBS=${JOBS:-1}
keep_going=${KEEP_GOING:-0}	# this run's, not its makes' (check inside check-full)
unset KEEP_GOING
if [ -n "${O:-}" ]; then
	S=$O/tests/stages
	rm -rf "$S"
	mkdir -p "$S"
else
	S=$(mktemp -d "${TMPDIR:-/tmp}/fsbench-stages.XXXXXX")
fi
t_all=$(date +%s)
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# cpu FILE: the processor time (user + system, whole seconds) of the
# children the shell waited for, as `times >FILE` wrote it: `times` must
# run in the lane's shell itself, not in $(...) or a pipeline (a forked
# shell's children times start at zero).
cpu() {
	awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); s += a[1] * 60 + a[2] }
		printf "%d", s }' "$1"
}

# stage LANE STAGE QUIET: run one stage; its line of the table in
# $S/table.LANE; QUIET=1: its output to $S/STAGE.log, printed whole at
# its end under a lock; $S/ok.STAGE or $S/failed.STAGE at its end.
# Returns the make's status.
stage() {
	_l=$1 _s=$2 _q=$3
	_t0=$(date +%s)
	times >"$S/times.$_l"
	_c0=$(cpu "$S/times.$_l")
	if [ "$_q" = 1 ]; then
		echo "check: $_s started (lane $_l, at $(mmss $((_t0 - t_all))))"
		# shellcheck disable=SC2046
		$MAKE --no-print-directory -j"$JOBS" $(echo "$_s" | tr + ' ') >"$S/$_s.log" 2>&1
		_rc=$?
		{
			flock 9
			echo "check: ---- $_s (lane $_l) ----"
			cat "$S/$_s.log"
		} 9>"$S/print.lock"
	else
		# shellcheck disable=SC2046
		$MAKE --no-print-directory -j"$JOBS" $(echo "$_s" | tr + ' ')
		_rc=$?
	fi
	_t1=$(date +%s)
	times >"$S/times.$_l"
	_c1=$(cpu "$S/times.$_l")
	printf '  %-30s %4s %7s %7s %7s%s\n' "$_s" "$_l" "$(mmss $((_t0 - t_all)))" "$(mmss $((_t1 - _t0)))" \
		"$(mmss $((_c1 - _c0)))" "$([ $_rc -eq 0 ] || echo '  FAILED')" >>"$S/table.$_l"
	echo $((_c1 - _c0)) >>"$S/cpu.all"
	if [ $_rc -eq 0 ]; then : >"$S/ok.$_s"; else : >"$S/failed.$_s"; fi
	return $_rc
}

# pool LANE QUIET: the pool's stages ($S/pool, one "STAGE NEED" a line, in
# order) this lane takes: each claimed by a mkdir (one lane wins it).
# Returns 1 when a stage it ran failed or one could not run.
pool() {
	_pl=$1 _pq=$2 _prc=0
	[ -s "$S/pool" ] || return 0
	while :; do
		_left=0 _took=
		while read -r _ps _pn; do
			[ ! -d "$S/claim.$_ps" ] || continue
			_left=1
			if [ -n "$_pn" ] && [ ! -e "$S/ok.$_pn" ]; then
				# NEED not passed: wait while its lane may still run it
				_own=$(cat "$S/owner.$_pn" 2>/dev/null || echo none)
				if [ -e "$S/failed.$_pn" ] || [ -e "$S/rc.$_own" ] || [ "$_own" = none ]; then
					mkdir "$S/claim.$_ps" 2>/dev/null || continue
					echo "check: $_ps not run: it needs $_pn, which $([ -e "$S/failed.$_pn" ] && echo failed || echo did not run)"
					printf '  %-30s %4s %7s %7s %7s  NOT RUN (%s)\n' "$_ps" "$_pl" - - - "$_pn" >>"$S/table.$_pl"
					_prc=1
				fi
				continue
			fi
			mkdir "$S/claim.$_ps" 2>/dev/null || continue
			_took=$_ps
			break
		done <"$S/pool"
		[ "$_left" = 1 ] || break
		if [ -n "$_took" ]; then
			stage "$_pl" "$_took" "$_pq" || _prc=1
		else
			sleep 1
		fi
	done
	return $_prc
}

# lane LANE QUIET STAGE...: the stages one after another, to the first
# that fails; then, when all passed, stages of the pool (not lane 0, the
# stages before the lanes); its status in
# $S/rc.LANE (written when it has run its own stages, $S/end.LANE when
# it is done).
lane() {
	_ln=$1 _lq=$2
	shift 2
	_lrc=0
	for _st in "$@"; do
		stage "$_ln" "$_st" "$_lq" && continue
		_lrc=1
		[ "$_ln" = 0 ] && [ "$keep_going" = 1 ] || break
	done
	echo $_lrc >"$S/rc.$_ln"
	if [ "$_ln" != 0 ] && [ $_lrc -eq 0 ] && ! pool "$_ln" "$_lq"; then
		echo 1 >"$S/rc.$_ln"
	fi
	: >"$S/end.$_ln"
}

# The launcher's work folders ($O/run: each boot's copy of the disk image
# and its sparse target) on a tmpfs of their own while the stages run (as
# root, when $O/run is empty and no mount point already): no guest's disk
# then waits on the host's (a smoke boot 29.8 s on disk, 27.2 s there,
# 3.6 s less system time: results/MEASUREMENTS.md). CHECK_RUN_TMPFS=0
# keeps them on disk. Unmounted at the end, also after a failure or an
# interrupt: a work folder a failed boot kept goes with it (its console,
# records and report are in the test's own folder under $O/tests).
run_tmpfs=
end_tmpfs() {
	[ -n "$run_tmpfs" ] || return 0
	umount "$run_tmpfs" 2>/dev/null || umount -l "$run_tmpfs" 2>/dev/null || true
	run_tmpfs=
}
if [ -n "${O:-}" ] && [ "${CHECK_RUN_TMPFS:-1}" = 1 ] && [ "$(id -u)" = 0 ]; then
	mkdir -p "$O/run"
	if ! mountpoint -q "$O/run" && [ -z "$(ls -A "$O/run")" ] &&
		mount -t tmpfs -o size=12g,mode=0755 fsbench-run "$O/run"; then
		run_tmpfs=$O/run
		trap 'end_tmpfs; exit 130' INT TERM
	fi
fi

# the stages before the first --lane, then the lanes
rc=0
n=0
# Guests that QEMU's TCG stopped for good and the launcher booted again
# (qemu/run.sh --stall-retries, set by tests/qemu/lib.sh): one line each
# in $S/stalls.txt, printed at the end.
QEMU_STALL_LOG=$S/stalls.txt
export QEMU_STALL_LOG
: >"$QEMU_STALL_LOG"

# the pool ("STAGE NEED" lines in $S/pool), taken off the arguments
args=
: >"$S/pool"
inpool=0
for a in "$@"; do
	if [ "$a" = --pool ]; then inpool=1; continue; fi
	[ "$a" != --lane ] || inpool=0
	if [ "$inpool" = 1 ]; then
		case $a in
		*:*) echo "${a%%:*} ${a#*:}" >>"$S/pool" ;;
		*) echo "$a" >>"$S/pool" ;;
		esac
	else
		args="$args $a"
	fi
done
# shellcheck disable=SC2086
set -- $args --lane
first=
while [ "$1" != --lane ]; do first="$first $1"; shift; done
shift
# shellcheck disable=SC2086
lane 0 0 $first
rc=$(cat "$S/rc.0")
lanes=
if [ "$rc" -eq 0 ]; then
	# count the lanes: side by side only when there are two or more
	nl=0
	for a in "$@"; do [ "$a" = --lane ] && nl=$((nl + 1)); done
	q=0
	[ "$nl" -ge 2 ] && q=1
	# which lane runs each stage (a pool stage's NEED is looked up here)
	_n=0
	for a in "$@"; do
		if [ "$a" = --lane ]; then _n=$((_n + 1)); else echo $((_n + 1)) >"$S/owner.$a"; fi
	done
	while [ $# -gt 0 ]; do
		n=$((n + 1))
		this=
		while [ $# -gt 0 ] && [ "$1" != --lane ]; do this="$this $1"; shift; done
		[ $# -gt 0 ] && shift
		[ -n "$this" ] || continue
		# shellcheck disable=SC2086
		lane "$n" "$q" $this &
		lanes="$lanes $n"
	done
	wait
	for l in $lanes; do
		[ "$(cat "$S/rc.$l" 2>/dev/null || echo 1)" -eq 0 ] || rc=1
	done
	# a pool stage no lane took (every lane failed first)
	while read -r _ps _pn; do
		[ -d "$S/claim.$_ps" ] || { echo "check: $_ps not run (no lane was free)"; rc=1; }
	done <"$S/pool"
fi

end_tmpfs
total=$(($(date +%s) - t_all))
out=$(
	printf 'check: stage times (wall clock and processor time; lane 0 first, then lanes 1.. side by side; load %s at the end)\n' \
		"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
	printf '  %-30s %4s %7s %7s %7s\n' stage lane start time cpu
	for l in 0 $lanes; do cat "$S/table.$l" 2>/dev/null; done
	printf '  %-30s %4s %7s %7s %7s\n' total '' '' "$(mmss "$total")" \
		"$(mmss "$(awk '{ s += $1 } END { printf "%d", s }' "$S/cpu.all" 2>/dev/null)")"
)
if [ -s "$QEMU_STALL_LOG" ]; then
	out="$out
check: guests stopped for good by QEMU's TCG and booted again ($(wc -l <"$QEMU_STALL_LOG" | tr -d ' ')):
$(sed 's/^/  /' "$QEMU_STALL_LOG")"
fi
echo
echo "$out"
if [ -n "${O:-}" ]; then
	echo "$out" >"$O/tests/stages.txt"
else
	rm -rf "$S"
fi
exit $rc

#!/bin/sh
# watch.sh: run QEMU (or any command writing a console file) and watch it:
# the console and one overall progress line while it runs, the overall
# limit, an early kill after some records.
# Usage: qemu/watch.sh [options] -- COMMAND...
#   --serial FILE    the console file COMMAND writes (QEMU -chardev file)
#   --work DIR       where this writes its files (below)
#   --timeout S      COMMAND is killed after S seconds (default: none)
#   --kill-after-records N   COMMAND is killed once N records are on the console
#   --monitor PATH   QEMU's human monitor: PATH.in and PATH.out (named pipes)
#   --unplug-after-records N   once N records are on the console,
#                    `device_del fsbench-target` on the monitor (said on
#                    stdout; the monitor's answer in DIR/monitor.log)
#   --lie-after-records N   once N records are on the console, DIR/target.lie
#                    is created: the lying disk model's trigger (said on
#                    stdout)
#   --cut-after-line TEXT   a power cut: once a console line holds TEXT,
#                    wait --cut-delay seconds, then kill -KILL COMMAND at
#                    once (no SIGTERM first: nothing of it may end cleanly)
#   --cut-delay S    seconds (a decimal fraction allowed) from that line to
#                    the cut (default 0)
#   --lie-file FILE  with --cut-after-line: FILE is created --lie-lead
#                    seconds before the cut (the disk model's trigger:
#                    from then on its flushes lie)
#   --lie-lead S     (default 1)
#   --qmp PATH       QEMU's QMP: PATH.in and PATH.out (named pipes); its
#                    answers in DIR/qmp.log
#   --throttle-after-line TEXT   once a console line holds TEXT, wait
#                    --throttle-delay seconds, then set the target's
#                    throttle to --throttle-spec on the QMP (said on
#                    stdout, with the moment it was sent)
#   --throttle-delay S   seconds (a decimal fraction allowed) (default 0)
#   --throttle-spec SPEC  iops=N or bps=N (block_set_io_throttle of the
#                    device fsbench-target: that one limit, the others 0)
#   --plan FILE      qemu/estimate.sh's figures for the progress line
#   --stall S        COMMAND is ended once qemu/stall.sh finds it stalled:
#                    no processor time for S seconds while it is not
#                    stopped (default 120; 0: never); its threads' states
#                    and wait channels in DIR/stall.txt
#   --quiet          the console is not shown (the progress line still is)
# Output on stdout: the console as it comes without the record lines, and
#   the progress (qemu/status.awk's line: filesystem n of N, round, phase,
#   overall %, elapsed, time left): on a terminal one line redrawn in place
#   (\r and a cleared line, every second), otherwise a plain line at each
#   phase and at the end (said within 0.2 s), no control characters.
# Output files: DIR/qemu.out and DIR/qemu.err (COMMAND's), DIR/qemu.pid
#   (COMMAND's pid while it runs: a power cut is kill -KILL of it), DIR/progress
#   and DIR/progress.log (qemu/progress.awk's state), DIR/watch.txt (sh assignments: t0, first
#   (the first record came; empty: none), t1 (seconds since the epoch),
#   qrc (COMMAND's status), why_end (why it was killed; empty: it ended));
#   DIR/stall.pid (stall.sh's answer: COMMAND's pid once it stalled) and
#   DIR/stall.txt after a stall.
# Exit status: 0; 2 on misuse.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../image/lib.sh"
prog=qemu
PREFIX='FSBENCH:'
serial= work= timeout=0 kill_after=0 plan= quiet=0 monitor= unplug_after=0 lie_after=0
cut_line= cut_delay=0 lie_file= lie_lead=1
qmp= thr_line= thr_delay=0 thr_spec= stall=120
while [ $# -gt 0 ]; do
	case $1 in
	--serial) serial=$2; shift ;;
	--work) work=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--kill-after-records) kill_after=$2; shift ;;
	--plan) plan=$2; shift ;;
	--monitor) monitor=$2; shift ;;
	--unplug-after-records) unplug_after=$2; shift ;;
	--lie-after-records) lie_after=$2; shift ;;
	--cut-after-line) cut_line=$2; shift ;;
	--cut-delay) cut_delay=$2; shift ;;
	--lie-file) lie_file=$2; shift ;;
	--lie-lead) lie_lead=$2; shift ;;
	--qmp) qmp=$2; shift ;;
	--throttle-after-line) thr_line=$2; shift ;;
	--throttle-delay) thr_delay=$2; shift ;;
	--throttle-spec) thr_spec=$2; shift ;;
	--stall) stall=$2; shift ;;
	--quiet) quiet=1 ;;
	--) shift; break ;;
	*) die $EX_USAGE "watch.sh: unknown option '$1'" ;;
	esac
	shift
done
[ -n "$serial" ] && [ -n "$work" ] && [ $# -gt 0 ] ||
	die $EX_USAGE "usage: watch.sh --serial FILE --work DIR [options] -- COMMAND..."
case $stall in ''|*[!0-9]*) die $EX_USAGE "watch.sh: --stall '$stall': whole seconds, 0 for never" ;; esac
tty=0
[ ! -t 1 ] || tty=1
# mawk reads a pipe in blocks unless told to read lines as they come.
awk_lines=awk
! awk -W version 2>/dev/null | grep -q mawk || awk_lines='awk -W interactive'

now() { date +%s.%N; }
# The loop's clock: hundredths of a second since boot, from /proc/uptime
# with the shell's own read (no process a tick).
cs=0
tick() { read -r up _ </proc/uptime; cs=${up%.*}${up#*.}; cs=${cs#"${cs%%[!0]*}"}; cs=${cs:-0}; }
state=$work/progress status=$work/status
rm -f "$state" "$state.log" "$state.n"
: >"$status"
boot= total=
if [ -n "$plan" ] && [ -s "$plan" ]; then
	boot=$(awk '$1 == "boot" { print $2 }' "$plan")
	total=$(awk '$1 == "total" { print $2 }' "$plan")
fi

qpid= fpid= mpid= qmpid= spid=
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	[ -z "$spid" ] || kill "$spid" 2>/dev/null || true
	[ -z "$mpid" ] || kill "$mpid" 2>/dev/null || true
	[ -z "$qmpid" ] || kill "$qmpid" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t0=$(now)
tick; cs0=$cs
# the cut's delay in hundredths
cut_cs=$(awk -v d="$cut_delay" 'BEGIN { printf "%d", d * 100 + 0.5 }')
lie_cs=$(awk -v d="$lie_lead" 'BEGIN { printf "%d", d * 100 + 0.5 }')
thr_cs=$(awk -v d="$thr_delay" 'BEGIN { printf "%d", d * 100 + 0.5 }')
"$@" </dev/null >"$work/qemu.out" 2>"$work/qemu.err" &
qpid=$!
echo "$qpid" >"$work/qemu.pid"
# The console as it comes, its records read by key (jq, unbuffered).
tail --pid="$qpid" -s 0.2 -n +1 -f "$serial" 2>/dev/null |
	sh "$here/records.sh" --console --text --unbuffered - "" \
		type fs round phase config.fs config.rounds |
	$awk_lines -v show=$((1 - quiet)) -v tty=$tty \
		-v plan="$plan" -v state="$state" -v status="$status" \
		-f "$here/progress.awk" &
fpid=$!
if [ "$stall" -gt 0 ]; then
	sh "$here/stall.sh" --threads "$work/stall.txt" "$stall" "$qpid" >"$work/stall.pid" &
	spid=$!
fi
if [ -n "$monitor" ]; then
	# Keep the monitor's output drained (and logged); QEMU holds both ends.
	cat "$monitor.out" >"$work/monitor.log" 2>/dev/null &
	mpid=$!
fi
if [ -n "$qmp" ]; then
	# QMP's greeting and answers, drained and logged.
	cat "$qmp.out" >"$work/qmp.log" 2>/dev/null &
	qmpid=$!
fi

# line STATE: qemu/status.awk's line for a state.
line() {
	echo "qemu: $(awk -v st="$1" -v now="$t" -v t0="$t0" -v first="$first" \
		-v tst="$tst" -v boot="$boot" -v total="$total" -f "$here/status.awk" </dev/null)"
}
# show [final]: the progress line, when it is due.
last= tst= drawn=0 nlog=0
show() {
	st=
	[ ! -s "$state" ] || IFS= read -r st <"$state" || true
	case $st in *'|end') ;; *) st=$last ;; esac	# being rewritten: the last one
	changed=0
	if [ "$st" != "$last" ]; then changed=1; last=$st; tst=$(now); fi
	if [ "$tty" = 1 ]; then
		# In place: at most every second, and at once on news.
		[ "$changed" = 1 ] || [ -n "${1:-}" ] || [ $((cs - drawn)) -ge 100 ] || return 0
		t=$(now)
	else
		# Plain lines: one per phase and one at the end, each state of
		# progress.log not said yet (complete lines only: progress.awk
		# counts them in progress.n once they are written).
		n=0
		[ ! -s "$state.n" ] || read -r n <"$state.n" || n=0
		[ "$n" -gt "$nlog" ] || return 0
		t=$(now)
		sed -n "$((nlog + 1)),${n}p" "$state.log" | while IFS= read -r s; do line "$s"; done
		nlog=$n
		return 0
	fi
	drawn=$cs
	l=$(line "$st")
	printf '%s' "$l" >"$status"
	printf '\r\033[K%s' "$l"
}

first= why_end= unplugged=0 t_cut= lied=0 cut=0 t_thr= thr_seen= thr_done=0
while kill -0 "$qpid" 2>/dev/null; do
	sleep 0.2
	tick
	# A stall: stall.sh's answer (no processor time for --stall seconds).
	if [ -n "$spid" ] && [ -s "$work/stall.pid" ]; then
		why_end="stalled: the guest stopped for good, QEMU used no processor time in ${stall}s (no vCPU ran, no timer woke one: a wake-up lost by QEMU under TCG, results/MEASUREMENTS.md); its threads in $work/stall.txt"
		echo "qemu: $why_end"
		break
	fi
	# The power cut: its moment set when the line comes; the lie a lead
	# before it; then SIGKILL, at once.
	if [ -n "$cut_line" ]; then
		if [ -z "$t_cut" ] && grep -qF -- "$cut_line" "$serial" 2>/dev/null; then
			t_cut=$((cs + cut_cs))
			echo "qemu: power cut in $cut_delay s (after '$cut_line')"
		fi
		if [ -n "$t_cut" ] && [ -n "$lie_file" ] && [ "$lied" = 0 ] && [ "$cs" -ge $((t_cut - lie_cs)) ]; then
			: >"$lie_file"
			lied=1
			echo "qemu: the target's flushes lie from now ($lie_file)"
		fi
		if [ -n "$t_cut" ] && [ "$cs" -ge "$t_cut" ]; then
			kill -KILL "$qpid" 2>/dev/null || true
			why_end="power cut: killed $cut_delay s after the console line $cut_line (--cut-after-line)"
			cut=1
			break
		fi
	fi
	# The throttle: its moment set when the line comes, then QMP's
	# capabilities handshake and block_set_io_throttle in one write.
	if [ -n "$thr_line" ] && [ "$thr_done" = 0 ]; then
		if [ -z "$t_thr" ] && grep -qF -- "$thr_line" "$serial" 2>/dev/null; then
			thr_seen=$cs
			t_thr=$((cs + thr_cs))
			echo "qemu: target throttle to $thr_spec in $thr_delay s (after '$thr_line')"
		fi
		if [ -n "$t_thr" ] && [ "$cs" -ge "$t_thr" ]; then
			bps=0 iops=0
			case $thr_spec in bps=*) bps=${thr_spec#bps=} ;; iops=*) iops=${thr_spec#iops=} ;; esac
			timeout 5 sh -c 'printf "%s\n" "$2" "$3" >"$1"' sh "$qmp.in" '{"execute":"qmp_capabilities"}' \
				"{\"execute\":\"block_set_io_throttle\",\"arguments\":{\"id\":\"fsbench-target\",\"bps\":$bps,\"bps_rd\":0,\"bps_wr\":0,\"iops\":$iops,\"iops_rd\":0,\"iops_wr\":0}}" ||
				true
			thr_done=1
			echo "qemu: target throttle set to $thr_spec at $(awk -v a="$cs" -v b="$thr_seen" 'BEGIN { printf "%.1f", (a - b) / 100 }') s after '$thr_line' (QMP block_set_io_throttle; answers in $work/qmp.log)"
		fi
	fi
	if [ -z "$first" ] && grep -q "$PREFIX{" "$serial" 2>/dev/null; then
		first=$(now)
	fi
	el=$(((cs - cs0) / 100))
	if [ "$timeout" -gt 0 ] && [ "$el" -ge "$timeout" ]; then
		why_end="timeout: killed after ${timeout}s"
		break
	fi
	if [ "$kill_after" -gt 0 ] &&
		[ "$(grep -c "$PREFIX{" "$serial" 2>/dev/null || true)" -ge "$kill_after" ]; then
		why_end="killed after $kill_after records (--kill-after-records)"
		break
	fi
	if [ "$unplug_after" -gt 0 ] && [ "$unplugged" = 0 ] &&
		[ "$(grep -c "$PREFIX{" "$serial" 2>/dev/null || true)" -ge "$unplug_after" ]; then
		# QEMU holds the pipe open; should it have just ended, do not wait.
		timeout 5 sh -c 'echo "device_del fsbench-target" >"$1"' sh "$monitor.in" || true
		unplugged=1
		echo "qemu: target unplugged after $unplug_after records (device_del fsbench-target)"
	fi
	if [ "$lie_after" -gt 0 ] && [ "$lied" = 0 ] &&
		[ "$(grep -c "$PREFIX{" "$serial" 2>/dev/null || true)" -ge "$lie_after" ]; then
		: >"$work/target.lie"
		lied=1
		echo "qemu: the target lies from now on, after $lie_after records ($work/target.lie)"
	fi
	show
done
if [ -n "$why_end" ] && [ "$cut" = 0 ]; then
	kill -TERM "$qpid" 2>/dev/null || true
	sleep 2
	kill -KILL "$qpid" 2>/dev/null || true
fi
qrc=0
wait "$qpid" || qrc=$?
qpid=
wait "$fpid" || true	# tail ends with QEMU (--pid), the filter with it
if [ -n "$mpid" ]; then kill "$mpid" 2>/dev/null || true; wait "$mpid" 2>/dev/null || true; mpid=; fi
if [ -n "$qmpid" ]; then kill "$qmpid" 2>/dev/null || true; wait "$qmpid" 2>/dev/null || true; qmpid=; fi
if [ -n "$spid" ]; then kill "$spid" 2>/dev/null || true; wait "$spid" 2>/dev/null || true; spid=; fi
[ -z "$thr_line" ] || [ "$thr_done" = 1 ] ||
	echo "qemu: target throttle not changed: $([ -n "$t_thr" ] && echo "the run ended less than $thr_delay s after '$thr_line'" || echo "no console line held '$thr_line'")"
t1=$(now)
[ -n "$first" ] || { grep -q "$PREFIX{" "$serial" && first=$t1; } || true
tick
show final
[ "$tty" = 0 ] || echo
{
	echo "t0=$t0"
	echo "first=$first"
	echo "t1=$t1"
	echo "qrc=$qrc"
	echo "why_end='$why_end'"
} >"$work/watch.txt"

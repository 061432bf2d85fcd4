# events.sh: what happens to the running guest, for qemu/run.sh (sourced):
# the options of the watch (a stall, a power cut, the throttle tightened,
# the target unplugged or its flushes made to lie, a kill after some
# records), qemu/watch.sh run with them, and a stalled guest booted again.
# Options (qemu/run.sh --help lists them with its own):
#   --stall S         QEMU is ended once it has used no processor time for
#                     S seconds (default 120; 0: never): a guest no vCPU
#                     runs and no timer wakes, which would wait for the
#                     timeout (qemu/watch.sh; results/MEASUREMENTS.md)
#   --stall-retries N  a guest ended as stalled (--stall) is booted again
#                     from a fresh copy of the disk, up to N times (default
#                     QEMU_STALL_RETRIES, else 0; not with --work, whose
#                     disk the stalled boot changed): the stalled boot's
#                     console and threads kept in RESULTS/stalled-K/, run.txt
#                     says so, and a line goes to the file QEMU_STALL_LOG
#                     names, when set (make check prints them at its end)
#   --kill-after-records N   kill QEMU once N records are on the console
#                     (tests: a run cut short must keep its records)
#   --throttle-at SECONDS:SPEC  SECONDS (a decimal fraction allowed) after
#                     the first `FSBENCH-SUSTAIN: start` line on the console
#                     (the runner's first sustained write, setting
#                     `sustain`, starts there), the target's throttle is
#                     set to SPEC through QMP (`block_set_io_throttle`):
#                     SPEC is iops=N (N I/O operations a second, whatever
#                     their size) or bps=N (N bytes a second), replacing
#                     --target-throttle's; the moment it was sent is
#                     printed (qemu: target throttle ...). QMP over named
#                     pipes, WORK/qmp.in and WORK/qmp.out (its answers in
#                     WORK/qmp.log)
#   --unplug-target-after-records N  the target sits on a hot-pluggable
#                     PCIe root port; once N records are on the console,
#                     `device_del` on QEMU's monitor removes it from the
#                     running guest (the boot disk with the log stays)
#   --lie-after-records N  with --target-model lying: WORK/target.lie is
#                     created once N records are on the console (from then
#                     on the target's flushes lie)
#   --cut-after-line TEXT  a power cut: once a console line holds TEXT,
#                     wait --cut-delay seconds and kill QEMU (SIGKILL; with
#                     --target-model, its nbdkit too: its cache is gone)
#   --cut-delay S     seconds from that line to the cut (default 0)
#   --lie-lead S      with --target-model lying and --cut-after-line: the
#                     flushes lie from S seconds before the cut (default 1)
# Inputs (qemu/run.sh's variables): tmodel, serial, work, workdir,
#   timeout, quiet, results, orig (run.sh's arguments, quoted), here;
#   QEMU_STALL_RETRIES, QEMU_STALL_ATTEMPT (the stalled boots before this
#   one), QEMU_STALL_LOG.
# Gives: events_opt OPT ARG (nargs: how many words it took, 0 when OPT is
#   not its own), events_check (what combines), events_say (what the
#   console says of them), events_watch QEMU-ARGV... (qemu/watch.sh run:
#   WORK/watch.txt), events_retry (after a stall with retries left: the
#   stalled boot kept in RESULTS/stalled-K/, then run.sh again with the
#   same arguments; returns otherwise).
# Exit status: through ../image/lib.sh's die, 2 on misuse.

. "$here/../image/lib.sh"
prog=qemu

stall=120 stall_retries=${QEMU_STALL_RETRIES:-0} kill_after=0 unplug_after=0 lie_after=0
throttle_at= throttle_spec= cut_line= cut_delay=0 lie_lead=1

events_opt() {
	nargs=2
	case $1 in
	--stall)
		case $2 in ''|*[!0-9]*) die $EX_USAGE "--stall S: whole seconds (0: never)" ;; esac
		stall=$2 ;;
	--stall-retries)
		case $2 in ''|*[!0-9]*) die $EX_USAGE "--stall-retries N: a whole number (0: none)" ;; esac
		stall_retries=$2 ;;
	--kill-after-records) kill_after=$2 ;;
	--cut-after-line) cut_line=$2 ;;
	--cut-delay)
		case $2 in ''|*[!0-9.]*|*.*.*) die $EX_USAGE "--cut-delay $2: not a number of seconds" ;; esac
		cut_delay=$2 ;;
	--lie-lead)
		case $2 in ''|*[!0-9.]*|*.*.*) die $EX_USAGE "--lie-lead $2: not a number of seconds" ;; esac
		lie_lead=$2 ;;
	--throttle-at)
		case ${2%%:*} in ''|*[!0-9.]*|*.*.*) die $EX_USAGE "--throttle-at '$2': SECONDS:iops=N or SECONDS:bps=N, SECONDS a number of seconds" ;; esac
		case ${2#*:} in
		iops=*[!0-9]*|bps=*[!0-9]*|iops=|bps=|iops=0|bps=0) die $EX_USAGE "--throttle-at '$2': N of iops=N or bps=N must be a whole number > 0" ;;
		iops=*|bps=*) ;;
		*) die $EX_USAGE "--throttle-at '$2': SECONDS:iops=N or SECONDS:bps=N" ;;
		esac
		throttle_at=${2%%:*} throttle_spec=${2#*:} ;;
	--unplug-target-after-records)
		case $2 in ''|*[!0-9]*|0) die $EX_USAGE "--unplug-target-after-records N: a number > 0" ;; esac
		unplug_after=$2 ;;
	--lie-after-records)
		case $2 in ''|*[!0-9]*|0) die $EX_USAGE "--lie-after-records N: a number > 0" ;; esac
		lie_after=$2 ;;
	*) nargs=0; return 1 ;;
	esac
}

events_check() {
	case $lie_after:$tmodel in
	0:*|*:lying|*:lying:*) ;;
	*) die $EX_USAGE "--lie-after-records: only with --target-model lying" ;;
	esac
}

events_say() {
	[ "$unplug_after" = 0 ] || say "target on a hot-pluggable root port: device_del after $unplug_after records"
	[ -z "$throttle_at" ] || say "target throttle: $throttle_spec from $throttle_at s after the first FSBENCH-SUSTAIN: start line (QMP)"
}

events_watch() {
	set -- --serial "$serial" --work "$work" --timeout "$timeout" --stall "$stall" \
		--kill-after-records "$kill_after" --plan "$work/plan" -- "$@"
	if [ -n "$cut_line" ]; then
		set -- --cut-after-line "$cut_line" --cut-delay "$cut_delay" "$@"
		case $tmodel in lying) set -- --lie-file "$work/target.lie" --lie-lead "$lie_lead" "$@" ;; esac
	fi
	[ "$unplug_after" = 0 ] ||
		set -- --monitor "$work/monitor" --unplug-after-records "$unplug_after" "$@"
	[ "$lie_after" = 0 ] || set -- --lie-after-records "$lie_after" "$@"
	[ -z "$throttle_at" ] ||
		set -- --qmp "$work/qmp" --throttle-after-line 'FSBENCH-SUSTAIN: start' \
			--throttle-delay "$throttle_at" --throttle-spec "$throttle_spec" "$@"
	[ "$quiet" = 0 ] || set -- --quiet "$@"
	sh "$here/watch.sh" "$@"
}

# QEMU 7.2's TCG now and then loses a wake-up: no vCPU runs and no timer
# is armed, for good (results/MEASUREMENTS.md). The run is not the disk's
# or the runner's: with retries left, the stalled boot's console, end and
# threads go to RESULTS/stalled-K/ and the launcher starts again with the
# same arguments on a fresh copy of the disk.
events_retry() {
	_why=$(sed -n "s/^why_end='\(.*\)'\$/\1/p" "$work/watch.txt" 2>/dev/null)
	case $_why in stalled:*) ;; *) return 0 ;; esac
	[ "$stall_retries" -gt 0 ] && [ -z "$workdir" ] || return 0
	_k=$((${QEMU_STALL_ATTEMPT:-0} + 1))
	mkdir -p "$results/stalled-$_k"
	mv "$serial" "$results/stalled-$_k/serial.log"
	for _f in watch.txt stall.txt qemu.err; do
		[ ! -f "$work/$_f" ] || cp "$work/$_f" "$results/stalled-$_k/$_f"
	done
	say "booting again from a fresh copy of the disk (stalled boot $_k: its console and threads in $results/stalled-$_k/; $((stall_retries - 1)) more retries)"
	[ -z "${QEMU_STALL_LOG:-}" ] ||
		echo "$(date '+%Y-%m-%d %H:%M:%S') $BOARD $results: $_why; booted again" >>"$QEMU_STALL_LOG"
	trap - EXIT
	cleanup
	eval "set -- $orig"
	QEMU_STALL_ATTEMPT=$_k exec sh "$here/run.sh" "$@" --results "$results" --stall-retries $((stall_retries - 1))
}

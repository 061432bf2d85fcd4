#!/bin/sh
# stall.sh: whether a guest has stopped for good, the one rule of the
# launcher (qemu/watch.sh --stall), the LAVA test (tests/lava/stallwatch.sh)
# and the labgrid tests (tests/labgrid/fsblg.py, GuestWatch): a QEMU whose
# processor time (user + system of all its threads, /proc/PID/stat) has not
# grown for SECONDS while it is not stopped (state T) runs no vCPU and has
# no timer armed to wake one, and never will (QEMU 7.2's TCG now and then
# loses such a wake-up; qemu/README.md). An idle Linux guest under TCG takes
# 4 of the host's clock ticks in 10 s, a stalled one none in minutes.
# Usage: qemu/stall.sh [--below] [--threads FILE] SECONDS PID
#   SECONDS          a decimal fraction allowed; 0: never stalled
#   PID              QEMU's pid; it is looked at every 0.2 s
#   --below          PID is a process below which (itself included) QEMU
#                    runs: the first process whose name begins qemu-system,
#                    looked for every second (a new one starts its count
#                    anew), as a LAVA job's lava-run starts it
#   --threads FILE   on a stall, QEMU's threads to FILE, a line each: tid,
#                    name, state, wait channel
# Output on stdout: on a stall, QEMU's pid, one line (after FILE is whole).
#   Nothing is killed: what to do with a stalled QEMU is the caller's.
# Exit status: 0 QEMU stalled; 1 PID ended first (or SECONDS is 0); 2 on
#   misuse.
set -eu
below=0 threads=
while [ $# -gt 0 ]; do
	case $1 in
	--below) below=1 ;;
	--threads) threads=$2; shift ;;
	*) break ;;
	esac
	shift
done
[ $# = 2 ] || { echo "usage: stall.sh [--below] [--threads FILE] SECONDS PID" >&2; exit 2; }
secs=$1 root=$2
case $secs in ''|.|*[!0-9.]*|*.*.*) echo "stall.sh: SECONDS '$secs': a number of seconds" >&2; exit 2 ;; esac
case $root in ''|*[!0-9]*) echo "stall.sh: PID '$root': a process id" >&2; exit 2 ;; esac
# the limit in hundredths of a second
limit=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 100 + 0.5 }')
[ "$limit" -gt 0 ] || exit 1
every=0.2
[ "$below" = 0 ] || every=1

# The clock: hundredths of a second since boot, from /proc/uptime with
# the shell's own read (no process a look).
cs=0
tick() { read -r up _ </proc/uptime; cs=${up%.*}${up#*.}; cs=${cs#"${cs%%[!0]*}"}; cs=${cs:-0}; }
# qcpu PID: its state (qs: R, S, D, T...) and processor time in clock
# ticks (qc), from /proc with the shell's own read; both empty once it is
# gone. The fields after the name's closing parenthesis: state, then
# utime and stime 11 and 12 fields on.
qs= qc=
qcpu() {
	_st=
	read -r _st 2>/dev/null <"/proc/$1/stat" || { qs= qc=; return 0; }
	# shellcheck disable=SC2086
	set -- ${_st##*) }
	qs=$1 qc=$((${12} + ${13}))
}
# qemu_of ROOT: the pid of a qemu-system process below ROOT, or nothing
qemu_of() {
	ps -e -o pid=,ppid=,comm= | awk -v root="$1" '
		{ par[$1] = $2; name[$1] = $3 }
		END { for (p in par) { if (name[p] !~ /^qemu-system/) continue
			for (q = p; (q in par) && q != root && q > 1; q = par[q]) ;
			if (q == root) { print p; exit } } }'
}

q= last= since=
while kill -0 "$root" 2>/dev/null; do
	tick
	p=$root
	[ "$below" = 0 ] || p=$(qemu_of "$root")
	if [ -n "$p" ]; then
		qcpu "$p"
		if [ -n "$qc" ]; then
			if [ "$p" != "$q" ] || [ "$qs" = T ] || [ "$qc" != "$last" ]; then
				q=$p last=$qc since=$cs
			elif [ $((cs - since)) -ge "$limit" ]; then
				if [ -n "$threads" ]; then
					for _t in /proc/"$p"/task/*; do
						printf '%s %s %s %s\n' "${_t##*/}" "$(cat "$_t/comm" 2>/dev/null)" \
							"$(cut -d' ' -f3 "$_t/stat" 2>/dev/null)" "$(cat "$_t/wchan" 2>/dev/null)"
					done >"$threads" 2>/dev/null || true
				fi
				echo "$p"
				exit 0
			fi
		fi
	fi
	sleep "$every"
done
exit 1

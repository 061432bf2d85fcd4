#!/bin/sh
# tests/lava/stallwatch.sh ROOT SECONDS OUT: while process ROOT runs (a
# lava-run and what it starts), the QEMU among its descendants (a process
# whose name begins qemu-system) is watched as qemu/watch.sh --stall
# watches its own: once its processor time (user + system, /proc/PID/stat)
# has not moved for SECONDS, the guest has stopped for good (QEMU's TCG can
# leave a halted vCPU with no timer armed; qemu/README.md). Then a line
# goes to OUT and that QEMU is killed, so the job ends now and not at
# LAVA's timeout. Exits when ROOT has ended, or after a stall.
set -eu
root=$1 secs=$2 out=$3
case $secs in ''|*[!0-9]*) echo "stallwatch.sh: SECONDS '$secs': whole seconds" >&2; exit 2 ;; esac
[ "$secs" -gt 0 ] || exit 0
# qemu_of ROOT: the pid of a qemu-system process below ROOT, or nothing
qemu_of() {
	ps -e -o pid=,ppid=,comm= | awk -v root="$1" '
		{ par[$1] = $2; name[$1] = $3 }
		END { for (p in par) { if (name[p] !~ /^qemu-system/) continue
			for (q = p; (q in par) && q != root && q > 1; q = par[q]) ;
			if (q == root) { print p; exit } } }'
}
# ticks PID: its user + system time in clock ticks (fields 14 and 15 of
# /proc/PID/stat, counted after the name's closing parenthesis)
ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
q= last= since=
while kill -0 "$root" 2>/dev/null; do
	now=$(cut -d. -f1 /proc/uptime)
	p=$(qemu_of "$root")
	if [ -n "$p" ]; then
		t=$(ticks "$p")
		if [ "$p" != "$q" ] || [ -z "$t" ] || [ "$t" != "$last" ]; then
			q=$p last=$t since=$now
		elif [ $((now - since)) -ge "$secs" ]; then
			echo "QEMU (pid $p) used no processor time in $secs s: the guest stopped for good; QEMU killed" >"$out"
			kill -KILL "$p" 2>/dev/null || :
			exit 0
		fi
	fi
	sleep 1
done

#!/bin/sh
# tests/lava/stallwatch.sh ROOT SECONDS OUT: while process ROOT runs (a
# lava-run and what it starts), the QEMU among its descendants (a process
# whose name begins qemu-system) is watched by qemu/stall.sh --below, the
# rule qemu/watch.sh --stall follows: once its processor time has not moved
# for SECONDS, the guest has stopped for good (QEMU's TCG can leave a
# halted vCPU with no timer armed; qemu/README.md). Then a line goes to OUT
# and that QEMU is killed, so the job ends now and not at LAVA's timeout.
# Exits when ROOT has ended, or after a stall.
set -eu
root=$1 secs=$2 out=$3
case $secs in ''|*[!0-9]*) echo "stallwatch.sh: SECONDS '$secs': whole seconds" >&2; exit 2 ;; esac
[ "$secs" -gt 0 ] || exit 0
p=$(sh "$(dirname "$0")/../../qemu/stall.sh" --below "$secs" "$root") || exit 0
echo "QEMU (pid $p) used no processor time in $secs s: the guest stopped for good; QEMU killed" >"$out"
kill -KILL "$p" 2>/dev/null || :

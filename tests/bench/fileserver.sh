#!/bin/sh
# fileserver.sh: the runner's file-server workload (setting fileserver,
# runner/run/engine/fileserver.c) held against its floor, a bare C loop
# making the same system calls on the same fileset (fsloop.c: no latency
# histogram, no per-operation clock read, no records), on tmpfs, where the
# disk takes nothing and the runner's own cost shows most.
#
# Inputs (environment; tests/bench/bench.mk sets them):
#   O             output folder, absolute (scratch lives in $O/bench)
#   FSBENCH       the runner (fsbench, static musl)
#   FSLOOP        the floor built from tests/bench/fsloop.c
#   BENCH_REPEAT  measurements per tool                   (default 5)
#   BENCH_FSV     "FILES MEAN WORKERS SECONDS"            (default "2000 16384 2 3")
#   The other knobs are the settings' defaults: dirwidth 20, iosize 1 MiB,
#   appends of mean 16 KiB, seed 1.
# Each measurement is on a fresh tmpfs mounted at $O/bench/fsv (size 2 GiB);
# the runner gets it with --dir, the floor as its DIR. Tools interleaved,
# the order rotating each repeat.
# Outputs: one line per tool and measurement (operations per second,
#   operations, processor time of the tool and its workers: the shell's
#   `times` before and after), then the medians, the ratios runner / floor
#   and a PASS/FAIL line for the target: the runner's processor time an
#   operation within 5 % of the floor's. The wall-clock rate is printed too,
#   but on a shared host another job's load moves it more than the runner
#   does: the processor time an operation is what the runner adds.
#   $O/bench/fileserver.txt holds the same. Exit 1 on FAIL. Needs root
#   (mount).
set -eu
: "${O:?}" "${FSBENCH:?}" "${FSLOOP:?}"
REPEAT=${BENCH_REPEAT:-5}
set -- ${BENCH_FSV:-2000 16384 2 3}
FILES=$1 MEAN=$2 WORKERS=$3 SECS=$4
. "$(dirname "$0")/lib.sh"
bench_tmpfs fileserver fsv

# the processor time of this shell's children so far (user + system),
# seconds (`times` in this shell itself: in a $(...) it would be the
# subshell's)
cpu() {
	times >"$B/times"
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.6f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$B/times"
}
one() {	# one TOOL: "OPS_PER_S OPS CPU_SECONDS" of one measurement
	fresh
	cpu >"$B/c0"
	case $1 in
	runner)
		"$FSBENCH" run --dir "$M" --smallfile 0 --fileserver 1 --fileserver_files "$FILES" \
			--fileserver_size "$MEAN" --fileserver_workers "$WORKERS" \
			--fileserver_seconds "$SECS" --progress 0 --control 0 --capacity 0 >"$B/fsv-runner.jsonl" 2>/dev/null
		line=$(jq -r 'select(.type == "fileserver") | if .status == "ok" then "\(.ops_per_s) \(.ops)" else error("failed") end' \
			"$B/fsv-runner.jsonl") ;;
	floor)
		line=$("$FSLOOP" "$M" "$FILES" 20 "$MEAN" "$WORKERS" 1048576 16384 "$SECS" 1 | awk '{ print $6, $2 }') ;;
	esac
	cpu >"$B/c1"
	echo "$line $(awk 'NR == FNR { a = $1; next } { printf "%.6f", $1 - a }' "$B/c0" "$B/c1")"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

say "bench fileserver: $FILES files of mean $MEAN bytes, $WORKERS workers, $SECS s, on tmpfs; $REPEAT measurements each"
: >"$B/fsv-runner.txt"
: >"$B/fsv-floor.txt"
: >"$B/fsv-runner.cpu"
: >"$B/fsv-floor.cpu"
for i in $(seq 1 "$REPEAT"); do
	if [ $((i % 2)) -eq 1 ]; then order="runner floor"; else order="floor runner"; fi
	for t in $order; do
		set -- $(one "$t")
		echo "$1" >>"$B/fsv-$t.txt"
		awk -v c="$3" -v n="$2" 'BEGIN { printf "%.3f\n", c / n * 1e6 }' >>"$B/fsv-$t.cpu"
		say "  $i $t: $1 ops/s, $2 operations, $3 s of processor time ($(tail -n 1 "$B/fsv-$t.cpu") us an operation)"
	done
done
r=$(median <"$B/fsv-runner.txt")
f=$(median <"$B/fsv-floor.txt")
rc=$(median <"$B/fsv-runner.cpu")
fc=$(median <"$B/fsv-floor.cpu")
ratio=$(awk -v r="$r" -v f="$f" 'BEGIN { printf "%.4f", r / f }')
cratio=$(awk -v r="$rc" -v f="$fc" 'BEGIN { printf "%.4f", r / f }')
say "median ops/s: runner $r, floor $f, runner / floor $ratio (wall clock: the host's other load moves it)"
say "median processor time an operation: runner $rc us, floor $fc us, runner / floor $cratio"
if awk -v x="$cratio" 'BEGIN { exit !(x <= 1.05) }'; then
	say "PASS: fileserver: the runner's processor time an operation within 5 % of the bare loop's ($cratio)"
else
	say "FAIL: fileserver: the runner's processor time an operation $cratio of the bare loop's (over 1.05)"
	exit 1
fi

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
# Outputs: one line per tool and measurement, then the medians, the ratio
#   runner / floor and a PASS/FAIL line for the target (the runner's
#   operations per second within 5 % of the floor's); $O/bench/fileserver.txt
#   holds the same. Exit 1 on FAIL. Needs root (mount).
set -eu
: "${O:?}" "${FSBENCH:?}" "${FSLOOP:?}"
REPEAT=${BENCH_REPEAT:-5}
set -- ${BENCH_FSV:-2000 16384 2 3}
FILES=$1 MEAN=$2 WORKERS=$3 SECS=$4
B=$O/bench
M=$B/fsv
mkdir -p "$M"
OUTF=$B/fileserver.txt
: >"$OUTF"
say() { echo "$*" | tee -a "$OUTF"; }
cleanup() { mountpoint -q "$M" && umount "$M" || true; }
trap cleanup EXIT INT TERM
[ "$(id -u)" = 0 ] || { echo "bench fileserver: needs root (tmpfs mounts)" >&2; exit 1; }

fresh() { cleanup; mount -t tmpfs -o size=2g fsbench-fsv "$M"; }
one() {	# one TOOL: its ops/s on stdout
	fresh
	case $1 in
	runner)
		"$FSBENCH" run --dir "$M" --smallfile 0 --fileserver 1 --fileserver_files "$FILES" \
			--fileserver_size "$MEAN" --fileserver_workers "$WORKERS" \
			--fileserver_seconds "$SECS" --progress 0 --control 0 --capacity 0 >"$B/fsv-runner.jsonl"
		jq -r 'select(.type == "fileserver") | if .status == "ok" then .ops_per_s else error("failed") end' \
			"$B/fsv-runner.jsonl" ;;
	floor)
		"$FSLOOP" "$M" "$FILES" 20 "$MEAN" "$WORKERS" 1048576 16384 "$SECS" 1 | awk '{ print $6 }' ;;
	esac
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

say "bench fileserver: $FILES files of mean $MEAN bytes, $WORKERS workers, $SECS s, on tmpfs; $REPEAT measurements each"
: >"$B/fsv-runner.txt"
: >"$B/fsv-floor.txt"
for i in $(seq 1 "$REPEAT"); do
	if [ $((i % 2)) -eq 1 ]; then order="runner floor"; else order="floor runner"; fi
	for t in $order; do
		v=$(one "$t")
		echo "$v" >>"$B/fsv-$t.txt"
		say "  $i $t: $v ops/s"
	done
done
r=$(median <"$B/fsv-runner.txt")
f=$(median <"$B/fsv-floor.txt")
ratio=$(awk -v r="$r" -v f="$f" 'BEGIN { printf "%.4f", r / f }')
say "median: runner $r ops/s, floor $f ops/s, runner / floor $ratio"
if awk -v x="$ratio" 'BEGIN { exit !(x >= 0.95) }'; then
	say "PASS: fileserver: the runner's operations per second within 5 % of the bare loop's ($ratio)"
else
	say "FAIL: fileserver: the runner's operations per second $ratio of the bare loop's (under 0.95)"
	exit 1
fi

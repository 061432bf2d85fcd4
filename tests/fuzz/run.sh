#!/bin/sh
# run.sh: the libFuzzer targets (`make fuzz`, `make check-fuzz`).
#
#   run.sh probe CC DIR          can CC build and run a libFuzzer program
#                                (scratch files in DIR)? If not, print why
#                                and exit 1.
#   run.sh run SECONDS TARGET... each target for SECONDS (0: only replay its
#                                corpus), one after the other.
#
# Inputs of `run` (environment): FUZZ_BIN, the folder of fuzz_TARGET;
#   FUZZ_OUT, the work folder; FUZZ_SEEDS, generated seeds (FUZZ_SEEDS/TARGET,
#   optional). A target starts from tests/fuzz/corpus/TARGET (committed
#   seeds and regression inputs), FUZZ_SEEDS/TARGET, the report fixtures of
#   tests/unit/data for `report`, and what earlier runs found.
# Output: FUZZ_OUT/corpus/TARGET (inputs the fuzzer found: new coverage),
#   FUZZ_OUT/crash/TARGET (reproducers), FUZZ_OUT/TARGET.log (libFuzzer's
#   output). One line per target: executions, executions per second,
#   coverage (libFuzzer's cov: edges, ft: features) after the seeds and at
#   the end; a crash prints the reproducer's path and how to run it again.
#   Exit status 1 when a target crashed.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)

probe() {
	cc=$1 dir=$2
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "$cc not found ('make deps' installs clang)"
		return 1
	fi
	mkdir -p "$dir"
	cat >"$dir/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return size && data[0] == 0xff;
}
EOF
	if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$dir/probe" "$dir/probe.c" \
		>"$dir/probe.err" 2>&1; then
		echo "$cc cannot link a libFuzzer program ($(grep -m 1 -e error -e 'cannot find' \
			"$dir/probe.err" || head -n 1 "$dir/probe.err"); Debian: libclang-rt-dev)"
		return 1
	fi
	if ! "$dir/probe" -runs=10 >"$dir/probe.out" 2>&1; then
		echo "a libFuzzer program does not run here: $(tail -n 1 "$dir/probe.out")"
		return 1
	fi
	return 0
}

# The value of "NAME: value" in libFuzzer's line $2 (cov, ft, corp, ...).
field() {
	printf '%s\n' "$2" | sed -n "s/.* $1: \\([^ ]*\\).*/\\1/p"
}

run_target() {
	t=$1 secs=$2
	bin=$FUZZ_BIN/fuzz_$t
	work=$FUZZ_OUT/corpus/$t
	crash=$FUZZ_OUT/crash/$t
	log=$FUZZ_OUT/$t.log
	mkdir -p "$work" "$crash"
	set -- "$work"
	[ -d "$src/tests/fuzz/corpus/$t" ] && set -- "$@" "$src/tests/fuzz/corpus/$t"
	[ -n "${FUZZ_SEEDS:-}" ] && [ -d "$FUZZ_SEEDS/$t" ] && set -- "$@" "$FUZZ_SEEDS/$t"
	[ "$t" = report ] && set -- "$@" "$src/tests/unit/data"
	if [ "$secs" -gt 0 ]; then
		limit=-max_total_time=$secs
	else
		limit=-runs=0
	fi
	set -- "$limit" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$crash/" "$@"
	[ -f "$src/tests/fuzz/$t.dict" ] && set -- -dict="$src/tests/fuzz/$t.dict" "$@"
	rc=0
	"$bin" "$@" >"$log" 2>&1 || rc=$?

	inited=$(grep -m 1 'INITED cov: ' "$log" || true)
	last=$(grep ' cov: ' "$log" | tail -n 1 || true)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	new=$(sed -n 's/^stat::new_units_added: *//p' "$log")
	secs_run=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
	artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | head -n 1)

	if [ "$rc" -ne 0 ] || [ -n "$artifact" ]; then
		what=$(grep -m 1 -e '^==[0-9]*==ERROR' -e 'runtime error' -e 'fuzz check failed' \
			-e '^SUMMARY' -e 'ALARM' -e 'out-of-memory' "$log" || echo "exit status $rc")
		echo "fuzz $t: CRASH after ${execs:-?} runs: $what"
		echo "fuzz $t: reproducer: ${artifact:-none written} (run it again: $bin ${artifact:-FILE}; log: $log)"
		return 1
	fi
	if [ "$secs" -eq 0 ]; then
		printf 'fuzz %s: corpus replayed: %s inputs, cov %s ft %s; no crash\n' "$t" \
			"$(field corp "$inited" | cut -d/ -f1)" "$(field cov "$inited")" "$(field ft "$inited")"
		return 0
	fi
	printf 'fuzz %s: %s runs in %s s, %s exec/s; seeds: cov %s ft %s (%s inputs); end: cov %s ft %s, corpus %s inputs (%s new); no crash\n' \
		"$t" "${execs:-?}" "${secs_run:-$secs}" "${eps:-?}" \
		"$(field cov "$inited")" "$(field ft "$inited")" "$(field corp "$inited" | cut -d/ -f1)" \
		"$(field cov "$last")" "$(field ft "$last")" "$(field corp "$last" | cut -d/ -f1)" \
		"${new:-0}"
}

case ${1:-} in
probe)
	[ $# -eq 3 ] || { echo "usage: $0 probe CC DIR" >&2; exit 2; }
	probe "$2" "$3"
	;;
run)
	[ $# -ge 3 ] || { echo "usage: $0 run SECONDS TARGET..." >&2; exit 2; }
	: "${FUZZ_BIN:?}" "${FUZZ_OUT:?}"
	secs=$2
	shift 2
	case $secs in '' | *[!0-9]*) echo "fuzz: FUZZ_SECONDS=$secs: not a whole number" >&2; exit 2 ;; esac
	fail=0
	for t in "$@"; do
		run_target "$t" "$secs" || fail=1
	done
	[ "$fail" -eq 0 ]
	;;
*)
	echo "usage: $0 probe CC DIR | run SECONDS TARGET..." >&2
	exit 2
	;;
esac

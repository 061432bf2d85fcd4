#!/bin/sh
# asan.sh: `make check-asan`: every unit test, and every fuzz target over
# its seed corpus and regression inputs (tests/fuzz/corpus/TARGET/), built
# with gcc -fsanitize=address,undefined -fno-sanitize-recover=all.
# Inputs: ASAN_DIR (environment): the folder with lsan_probe, replay_TARGET;
#         FUZZ_TARGETS: the targets to replay (default: jsonr report log);
#         LOG_SEEDS: the generated seeds of the log target; O: build output;
#         arguments: the unit test programs.
# Output: the unit tests' lines, one line per replay, a summary line with
#         the time taken; exit status 1 when anything failed.
# Leaks are checked when LeakSanitizer works here (a program that leaks on
# purpose must be caught); otherwise a line says they are not.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
: "${ASAN_DIR:?}" "${LOG_SEEDS:?}"
now() { awk '{ print $1 }' /proc/uptime; }
t0=$(now)

probe_out=$(ASAN_OPTIONS=detect_leaks=1 "$ASAN_DIR/lsan_probe" 2>&1 || true)
if printf '%s\n' "$probe_out" | grep -q 'LeakSanitizer: detected memory leaks'; then
	leaks=1
	leak_note="leaks checked"
else
	leaks=0
	why=$(printf '%s\n' "$probe_out" | grep -m 1 'does not work' ||
		printf '%s\n' "$probe_out" | grep -i -m 1 -e 'LeakSanitizer' -e 'fatal' || true)
	echo "check-asan: LeakSanitizer cannot run here (${why:-a program that leaks on purpose was not caught}): memory leaks are NOT checked"
	leak_note="leaks NOT checked (LeakSanitizer does not run here)"
fi
# Later options win: the caller's ASAN_OPTIONS / UBSAN_OPTIONS come last.
ASAN_OPTIONS="detect_leaks=$leaks:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS UBSAN_OPTIONS
case :$ASAN_OPTIONS: in *:detect_leaks=0:*) leak_note="leaks NOT checked (ASAN_OPTIONS)" ;; esac

fail=0
# a scratch folder of its own: `make unit` may run at the same time
UNIT_SCRATCH=${O:-/tmp}/tests/asan/scratch sh "$src/tests/unit/run.sh" "$@" || fail=1
nunit=$#

nrep=0
for t in ${FUZZ_TARGETS:-jsonr report log}; do
	set --
	[ -d "$src/tests/fuzz/corpus/$t" ] && set -- "$src/tests/fuzz/corpus/$t"
	[ "$t" = report ] && set -- "$@" "$src/tests/unit/data"
	[ "$t" = log ] && set -- "$@" "$LOG_SEEDS"
	"$ASAN_DIR/replay_$t" "$@" || fail=1
	nrep=$((nrep + 1))
done

secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
if [ "$fail" -eq 0 ]; then
	echo "check-asan: $nunit unit programs and $nrep corpus replays passed under ASan+UBSan in $secs s ($leak_note)"
else
	echo "check-asan: FAIL under ASan+UBSan after $secs s ($leak_note)"
fi
[ "$fail" -eq 0 ]

#!/bin/sh
# tests/lanes.sh: tests/stages.sh, the way make check runs its stages, with
# a stand-in make whose targets sleep (a target NAME-S sleeps S seconds;
# one whose name starts with "fail" fails) and log when they start and end:
#   1. two lanes and a pool: each pool stage runs once, in the lane that is
#      free first, never before its NEED has passed; the table lists every
#      stage with its lane; exit 0.
#   2. a NEED that fails: its pool stage is not run (NOT RUN in the table,
#      a line saying why), the other pool stages still run; exit 1.
#   3. a NEED its lane never reaches (an earlier stage failed): not run,
#      no wait for ever; exit 1.
#   4. KEEP_GOING=1 (make check-full): the stages one after another, each
#      run although one before it failed, the failed one FAILED in the
#      table; exit 1. Without it the first failure stops them.
# Inputs: none (O, when set, holds the scratch folder).
# Output: PASS/FAIL lines and a summary; exit 1 on a failure.
set -eu
T=${O:-${TMPDIR:-/tmp}}/tests/lanes
rm -rf "$T"
. tests/lib.sh
test_init 'stage lane tests' "$T"

cat >"$T/make" <<'MEOF'
#!/bin/sh
# the stand-in make: --no-print-directory -jN TARGET...
for a; do
	case $a in -*) continue ;; esac
	echo "start $a $(date +%s.%N)" >>"$EVENTS"
	sleep "${a##*-}"
	echo "end $a $(date +%s.%N)" >>"$EVENTS"
	case $a in fail*) exit 1 ;; esac
done
exit 0
MEOF
chmod +x "$T/make"

# stages NAME ARGS...: tests/stages.sh with the stand-in; status in $rc,
# its output in $T/NAME.out, the events in $T/NAME.events.
stages() {
	_n=$1; shift
	: >"$T/$_n.events"
	set +e
	EVENTS=$T/$_n.events MAKE=$T/make O=$T/o-$_n CHECK_RUN_TMPFS=0 timeout 60 sh tests/stages.sh "$@" >"$T/$_n.out" 2>&1
	rc=$?
	set -e
}
# at NAME EVENT STAGE: the time of a stage's start or end
at() { awk -v e="$2" -v s="$3" '$1 == e && $2 == s { print $3 }' "$T/$1.events"; }
# before A B: time A <= time B (both set)
before() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
# lane_of NAME STAGE: the lane of a stage in the table
lane_of() { awk -v s="$2" '$1 == s { print $2 }' "$T/o-$1/tests/stages.txt"; }

# 1. lane 1 runs a1 (1 s) then a2 (4 s); lane 2 b1 (0.2 s): lane 2 takes
# the pool, p1 only once a1 has passed
stages ok first-0.1 --lane a1-1 a2-4 --lane b1-0.2 --pool p1-0.5:a1-1 p2-0.5:b1-0.2 p3-0.5
check "pool: exit 0" [ "$rc" -eq 0 ]
for s in p1-0.5 p2-0.5 p3-0.5; do
	check "pool: $s ran once" [ "$(grep -c "^start $s " "$T/ok.events")" -eq 1 ]
done
check "pool: p1 started after its NEED a1 ended" before "$(at ok end a1-1)" "$(at ok start p1-0.5)"
check "pool: lane 2, free first, ran the pool (p1 $(lane_of ok p1-0.5), p2 $(lane_of ok p2-0.5), p3 $(lane_of ok p3-0.5))" \
	sh -c "[ '$(lane_of ok p1-0.5)' = 2 ] && [ '$(lane_of ok p2-0.5)' = 2 ] && [ '$(lane_of ok p3-0.5)' = 2 ]"
check "pool: the pool ran while lane 1 still ran a2" before "$(at ok end p3-0.5)" "$(at ok end a2-4)"
check "pool: every stage in the table" sh -c \
	"for s in first-0.1 a1-1 a2-4 b1-0.2 p1-0.5 p2-0.5 p3-0.5; do grep -q \"^  \$s \" '$T/o-ok/tests/stages.txt' || exit 1; done"

# 2. the NEED fails
stages failed --lane fail-0.2 --lane b1-0.5 --pool p1-0.1:fail-0.2 p2-0.1
check "failed NEED: exit 1" [ "$rc" -eq 1 ]
check "failed NEED: its pool stage not run" sh -c "! grep -q '^start p1-0.1 ' '$T/failed.events'"
check "failed NEED: said, and NOT RUN in the table" sh -c \
	"grep -q 'check: p1-0.1 not run: it needs fail-0.2, which failed' '$T/failed.out' &&
	 grep -q '^  p1-0.1 .* NOT RUN (fail-0.2)' '$T/o-failed/tests/stages.txt'"
check "failed NEED: the other pool stage ran" grep -q '^end p2-0.1 ' "$T/failed.events"

# 3. the NEED is never run: its lane failed before it
stages never --lane fail-0.2 a2-0.1 --lane b1-0.1 --pool p1-0.1:a2-0.1
check "NEED never run: exit 1, no wait (status $rc, not timeout's 124)" [ "$rc" -eq 1 ]
check "NEED never run: said" grep -q 'check: p1-0.1 not run: it needs a2-0.1, which did not run' "$T/never.out"

# 4. one after another, the second fails: KEEP_GOING runs the third
KEEP_GOING=1 stages keep a1-0.1 fail-0.1 c1-0.1
check "keep going: exit 1" [ "$rc" -eq 1 ]
check "keep going: the stage after the failed one ran" grep -q '^end c1-0.1 ' "$T/keep.events"
check "keep going: the failed one FAILED in the table" grep -q '^ *fail-0.1 .*FAILED$' "$T/o-keep/tests/stages.txt"
stages stop a1-0.1 fail-0.1 c1-0.1
check "without KEEP_GOING: the first failure stops them (exit $rc)" sh -c \
	"[ $rc -eq 1 ] && ! grep -q '^start c1-0.1 ' '$T/stop.events'"

summary

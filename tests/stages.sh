#!/bin/sh
# tests/stages.sh: the stages of `make check`, one after another, each
# timed; at the end (also after a failure) a table of each stage's wall
# time and the total. Stops at the first stage that fails, as make does.
# Each stage is its own make with -jJOBS: the compiles of a stage run
# JOBS at a time; the test scripts of a stage still run one after another
# (a recipe's lines), and a make that a script runs builds one thing at a
# time. A stage written A+B runs the make targets A and B at the same
# time (one make, -jJOBS): its time is the slower one's.
# Inputs: the stages (make targets) as arguments; MAKE (the make to run,
# default make); JOBS (default 1); O (the build output, for the table's
# copy).
# Output: each stage's own output, then "check: stage times" and one line
# per stage (minutes:seconds, and FAILED for the one that failed) and the
# total; the same table in $O/tests/stages.txt. Exit 1 when a stage failed.
set -u
MAKE=${MAKE:-make}
JOBS=${JOBS:-1}
table=
t_all=$(date +%s)
rc=0
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
for stage in "$@"; do
	t0=$(date +%s)
	# shellcheck disable=SC2046
	$MAKE --no-print-directory -j"$JOBS" $(echo "$stage" | tr + ' ') || rc=1
	dt=$(($(date +%s) - t0))
	table="$table$(printf '  %-28s %7s%s' "$stage" "$(mmss "$dt")" "$([ $rc -eq 0 ] || echo '  FAILED')")
"
	[ $rc -eq 0 ] || break
done
total=$(($(date +%s) - t_all))
out=$(printf 'check: stage times (wall clock, load %s at the end)\n%s  %-28s %7s\n' \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" "$table" total "$(mmss "$total")")
echo
echo "$out"
if [ -n "${O:-}" ]; then
	mkdir -p "$O/tests" && echo "$out" >"$O/tests/stages.txt"
fi
exit $rc

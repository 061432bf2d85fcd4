#!/bin/sh
# collect.sh: a finished (or killed) run's results into its results folder.
# Usage: qemu/collect.sh RESULTS WORK
# Inputs: WORK/watch.txt (qemu/watch.sh's times and end), WORK/plan (the
#   estimate's, qemu/estimate.sh: its total goes in run.txt), WORK/qemu.err,
#   WORK/disk.img (its log partition), RESULTS/serial.log; environment:
#   FSBENCH_HOST (the host build of fsbench), and for run.txt BOARD,
#   PROFILE, ROOTFS, BOOT (how it booted), ACCEL_TEXT (the accelerator and
#   why), GUEST (the guest's vCPUs and memory, and why), KEEP (1: the work folder is kept), SIZES (the image's sizes file),
#   CRITERIA (the verdict's criteria file; empty: no verdict), TMODEL (the
#   target's disk model, as the launcher said it; empty: none), STALLED
#   (the boots before this one that stalled and were booted again).
# Outputs: RESULTS/records.jsonl and summary.txt (`fsbench log extract` of
#   the log partition; the console's records when it holds none),
#   report.md (`fsbench report`), report.html (`fsbench report --format
#   html`: the tables and gnuplot's charts, with CRITERIA's verdict; without
#   gnuplot the page says so), run.txt (the figures of this run, also
#   appended to summary.txt); the report and run.txt are printed. With
#   CRITERIA: verdict.txt (`fsbench verdict RESULTS --criteria CRITERIA`:
#   the checks and the verdict line; with no record at all, a boot that
#   never reached the runner, `verdict: ERROR ...`) and report.junit.xml
#   (`fsbench report --format junit` with the same criteria); the verdict
#   is printed last.
#   Then, when RESULTS is a folder of $RESULTS (the default), the index of
#   $RESULTS (qemu/index.sh:
#   index.html, a row per run linking to its report), rewritten; a failure
#   there keeps the old index, says so on stderr and does not fail the run.
# Exit status: the runner's (exit_code of the run_end record); 4 when there
#   is no run_end record (the console's last 15 lines are printed). The
#   verdict does not change it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../image/lib.sh"
prog=qemu
results=$1 work=$2
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
. "$work/watch.txt"
serial=$results/serial.log

[ -z "$why_end" ] || say "$why_end"
[ ! -s "$work/qemu.err" ] || { say "QEMU said:"; sed 's/^/  /' "$work/qemu.err"; }

# The console's records, as they were printed (the prefix taken off; a
# torn line skipped, a kernel message printed right after a record left
# out: qemu/records.sh).
sh "$here/records.sh" --console "$serial" "" >"$work/console.jsonl"
src="log partition"
if [ -x "$FSBENCH_HOST" ] && "$FSBENCH_HOST" log extract "$work/disk.img" -o "$results" >/dev/null 2>"$work/extract.err"; then
	if [ ! -s "$results/records.jsonl" ] && [ -s "$work/console.jsonl" ]; then
		say "the log partition holds no record: records taken from the console"
		src="console"
	fi
else
	sed 's/^/  /' "$work/extract.err" 2>/dev/null || true
	say "log extract failed: records taken from the console"
	src="console"
fi
[ "$src" = "log partition" ] || cp "$work/console.jsonl" "$results/records.jsonl"
nrec=$(wc -l <"$results/records.jsonl" | tr -d ' ')
code=$(sh "$here/records.sh" "$results/records.jsonl" run_end exit_code | tail -n 1)
if [ -x "$FSBENCH_HOST" ] && [ "$nrec" -gt 0 ]; then
	"$FSBENCH_HOST" report "$results" >"$results/report.md" 2>"$work/report.err" ||
		{ say "report failed:"; sed 's/^/  /' "$work/report.err"; }
	"$FSBENCH_HOST" report "$results" --format html ${CRITERIA:+--criteria "$CRITERIA"} \
		>"$results/report.html" 2>"$work/html.err" ||
		{ say "HTML report failed:"; sed 's/^/  /' "$work/html.err"; }
fi

# The verdict on the host, against the same criteria as the guest's; a
# boot that never reached the runner (no record) is judged too: ERROR.
verdict=
if [ -n "${CRITERIA:-}" ] && [ -x "$FSBENCH_HOST" ]; then
	vrc=0
	"$FSBENCH_HOST" verdict "$results" --criteria "$CRITERIA" >"$results/verdict.txt" 2>"$work/verdict.err" || vrc=$?
	case $vrc in
	0|1|"$EX_ERROR") verdict=$(tail -n 1 "$results/verdict.txt") ;;
	*) verdict="verdict: none (fsbench verdict exited with $vrc)"
	   say "verdict failed:"; sed 's/^/  /' "$work/verdict.err" ;;
	esac
	"$FSBENCH_HOST" report "$results" --criteria "$CRITERIA" --format junit \
		>"$results/report.junit.xml" 2>"$work/junit.err" || [ "$nrec" = 0 ] ||
		{ say "JUnit report failed:"; sed 's/^/  /' "$work/junit.err"; rm -f "$results/report.junit.xml"; }
fi

{
	echo "run"
	echo "  board:                $BOARD"
	echo "  profile:              ${PROFILE:-from fsbench.conf}"
	echo "  rootfs:               $ROOTFS"
	echo "  boot:                 $BOOT"
	echo "  accelerator:          $ACCEL_TEXT"
	[ -z "${GUEST:-}" ] || echo "  guest:                $GUEST"
	[ -z "${TMODEL:-}" ] || echo "  target model:         $TMODEL"
	echo "  qemu start to first record: $(if [ -n "$first" ]; then secs "$t0" "$first"; else echo none; fi) s"
	echo "  total run time:       $(secs "$t0" "$t1") s"
	# the launcher's estimate of it before the boot (qemu/estimate.sh's
	# plan: QEMU start to power-off), and how far the run came from it
	est=$(sed -n 's/^total //p' "$work/plan" 2>/dev/null | head -n 1)
	[ -z "$est" ] || echo "  estimate:             $est s, the run $(awk -v e="$est" -v a="$(secs "$t0" "$t1")" \
		'BEGIN { printf "%+.0f %%", (a - e) / e * 100 }') of it"
	echo "  end:                  ${why_end:-guest powered off (QEMU status $qrc)}"
	[ "${STALLED:-0}" = 0 ] ||
		echo "  stalled boots before: $STALLED, each booted again from a fresh disk copy (QEMU's TCG lost a wake-up; their consoles in stalled-1/ ...)"
	echo "  records:              $nrec (from the $src)"
	echo "  runner exit code:     ${code:-none (no run_end record)}"
	[ -z "${CRITERIA:-}" ] || echo "  criteria:             $CRITERIA"
	[ -z "$verdict" ] || echo "  verdict:              ${verdict#verdict: }"
	[ "${KEEP:-0}" = 0 ] || echo "  work folder:          $work"
	echo "image sizes"
	sed 's/^/  /' "$SIZES" 2>/dev/null || true
} >"$results/run.txt"
cat "$results/run.txt" >>"$results/summary.txt"

[ ! -s "$results/report.md" ] || { echo; cat "$results/report.md"; }
echo
cat "$results/run.txt"
say "results: $results"
# The index of RESULTS, when this run's folder is one of RESULTS' folders
# (the default); a --results elsewhere leaves the folder that holds it
# alone: it is the user's.
top=${RESULTS:-results}
if [ "$(cd "$(dirname "$results")" 2>/dev/null && pwd -P)" = "$(cd "$top" 2>/dev/null && pwd -P)" ]; then
	sh "$here/index.sh" "${top%/}" || warn "index not rewritten: qemu/index.sh exited with $?"
else
	say "index: $results is not a folder of RESULTS ($top): $top/index.html not rewritten"
fi
if [ -n "$verdict" ]; then
	# The checks that failed, then the verdict: the last thing said.
	grep ': FAIL\|: ERROR' "$results/verdict.txt" | grep -v '^verdict: ' | sed 's/^/  /' || true
	say "$verdict (checks: $results/verdict.txt; the exit status is the runner's)"
fi
if [ -z "$code" ]; then
	# No run_end: the last console lines usually say why (panic, hang, reset).
	say "no run_end record; the console's last lines:"
	tr -d '\r' <"$serial" 2>/dev/null | tail -n 15 | sed 's/^/  /'
	exit $EX_SYSTEM
fi
exit "$code"

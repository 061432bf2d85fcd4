#!/bin/sh
# index.sh: a results folder's index page, rewritten after a run.
# Usage: qemu/index.sh DIR
# Inputs: DIR, a results folder (a folder per run, as qemu/run.sh makes
#   them); environment: FSBENCH_HOST (the host build of fsbench).
# Outputs: DIR/index.html, `fsbench history DIR --format html`: a row per
#   run, each linking to its report.html (else report.md, else its
#   records), the links relative to DIR. Written to DIR/.index.html.PID
#   (history does not read names starting with '.') and renamed over the
#   old index, so a reader never gets half a page. On stdout, where the
#   index is and how many entries of DIR history left out (folders that
#   hold no run it can read: `fsbench history DIR` names them).
# Exit status: 0, also when the index cannot be written: then the old
#   index stays and stderr says why; a run does not fail for its index.
set -eu
. "$(dirname "$0")/../image/lib.sh"
prog=qemu
dir=$1
index=$dir/index.html tmp=$dir/.index.html.$$

if [ ! -x "${FSBENCH_HOST:-}" ]; then
	warn "$index not rewritten (the old one stays): no host fsbench ${FSBENCH_HOST:-} (FSBENCH_HOST)"
	exit 0
fi
rc=0
msg=$("$FSBENCH_HOST" history "$dir" --format html 2>&1 >"$tmp") || rc=$?
if [ ! -s "$tmp" ]; then
	why="fsbench history $dir exited with $rc"
elif ! mv_err=$(mv -f "$tmp" "$index" 2>&1); then
	why="renaming $tmp: $mv_err" msg=
else
	say "index of the runs: $index"
	n=$(printf '%s\n' "$msg" | grep -c ': left out: ' || true)
	case $n in
	0) ;;
	1) say "index: 1 entry of $dir left out, not a run that can be read (fsbench history $dir names it)" ;;
	*) say "index: $n entries of $dir left out, not runs that can be read (fsbench history $dir names them)" ;;
	esac
	exit 0
fi
rm -f "$tmp" 2>/dev/null || true
warn "$index not rewritten (the old one stays): $why"
[ -z "$msg" ] || printf '%s\n' "$msg" | sed 's/^/  /' >&2
exit 0

#!/bin/sh
# records.sh: read values out of records by their keys (not by where they
# stand in the line).
# Usage: qemu/records.sh [--console] [--flat] FILE TYPE [KEY...]
#   FILE       records.jsonl (one JSON record a line), or with --console a
#              serial log whose record lines carry the FSBENCH: prefix; - is stdin
#   TYPE       only records of this type (run_start, phase, run_end, ...);
#              "" for every record
#   KEY        a value's path: type, fs, config.rounds, lat_ns.p99,
#              worker_seconds[1], target.serial (qemu/json.awk says more)
#   --flat     instead of KEYs: every value, one PATH=VALUE line each
# Output: one line per record, the values tab-separated ("" when a record
# has no such key); without KEY, the records themselves. Lines that are not
# records are skipped.
set -eu
here=$(dirname "$0")
prefix= flat=0
while :; do
	case ${1:-} in
	--console) prefix='FSBENCH:'; shift ;;
	--flat) flat=1; shift ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: records.sh [--console] [--flat] FILE TYPE [KEY...]" >&2; exit 2; }
file=$1 type=$2
shift 2
exec awk -v type="$type" -v keys="$*" -v prefix="$prefix" -v flat=$flat \
	-f "$here/json.awk" -f "$here/records.awk" "$file"

#!/bin/sh
# records.sh: read values out of records by their keys (not by where they
# stand in the line), with jq.
# Usage: qemu/records.sh [--console [--text]] [--unbuffered] [--flat] FILE TYPE [KEY...]
#   FILE       records.jsonl (one JSON record a line), or with --console a
#              serial log whose record lines carry the FSBENCH: prefix (the
#              last one on a line counts); - is stdin
#   TYPE       only records of this type (run_start, phase, run_end, ...);
#              "" for every record
#   KEY        a value's path: type, fs, config.rounds, lat_ns.p99,
#              worker_seconds[1], disks[1].serial (names joined with ".",
#              array items counted from 1; qemu/records.jq says more)
#   --flat     instead of KEYs: every value, one KEY=VALUE line each
#   --text     the console's other text too, in order: each line out is
#              "text<TAB>LINE" (a console line, or what stands before a
#              record on it) or "record<TAB>..." (a record's output)
#   --unbuffered  each line out as soon as its line is read (a pipe that
#              follows a live console)
# Output: one line per record, the values tab-separated ("" when a record
# has no such key; an array is its length); without KEY, the record's text
# itself. Lines that are not records (torn ones too) are skipped.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../image/lib.sh"
prefix= flat=0 text=0 unbuf=
while :; do
	case ${1:-} in
	--console) prefix='FSBENCH:'; shift ;;
	--flat) flat=1; shift ;;
	--text) text=1; shift ;;
	--unbuffered) unbuf=--unbuffered; shift ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] && { [ "$text" = 0 ] || [ -n "$prefix" ]; } ||
	die $EX_USAGE "usage: records.sh [--console [--text]] [--unbuffered] [--flat] FILE TYPE [KEY...]"
command -v jq >/dev/null || die $EX_SYSTEM "jq not found (Debian package jq; make deps)"
file=$1 type=$2
shift 2
# shellcheck disable=SC2086
exec jq -R -r $unbuf -L "$here" --arg prefix "$prefix" --arg type "$type" \
	--arg keys "$*" --arg flat "$flat" --arg text "$text" '
	include "records";
	($keys | split(" ") | map(select(. != ""))) as $ks
	| def out($t): $t | record | select($type == "" or .type == $type)
		| if $flat == "1" then flat elif ($ks | length) == 0 then $t else values($ks) end;
	if $text == "0" then out(text($prefix))
	else . as $line | [text($prefix)] as $t
		| if ($t | length) == 0 then "text\t" + before($prefix)
		  else ($line | before($prefix) | select(. != "") | "text\t" + .),
			(out($t[0]) | "record\t" + .) end
	end' "$file"

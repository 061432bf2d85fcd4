#!/bin/sh
# regions.sh: the GENERATED regions of the docs, kept equal to what the binary
# prints (make docs writes them, make check-docs compares).
# Usage: regions.sh --update|--check FSBENCH FILE...
# Inputs: FSBENCH, the host build of the runner; FILEs, Markdown (*.md) or
#   scdoc (*.scd) documents (missing ones and ones without markers are skipped).
# Output: --update rewrites the regions that differ and names each file it
#   changed; --check changes nothing and fails naming the file, the line and
#   the command of every region that differs. Scratch files under $TMPDIR.
#
# A region, in Markdown:
#   <!-- BEGIN GENERATED: fsbench ARGS -->
#   ...the output of `fsbench ARGS`...
#   <!-- END GENERATED -->
# and in scdoc, as comments: `; BEGIN GENERATED: fsbench ARGS`, `; END GENERATED`.
# The output goes in as is when ARGS holds --markdown (or --scdoc), else in a
# ``` block (in scdoc, backslashes doubled: scdoc reads them in literal
# blocks too). ARGS are split at spaces, never given to a shell. Markers
# inside a ``` block are text, not a region (a manual may show one).
set -eu

usage() { echo "usage: regions.sh --update|--check FSBENCH FILE..." >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1; fsb=$2; shift 2
case $mode in --update|--check) ;; *) usage ;; esac
[ -x "$fsb" ] || { echo "regions: $fsb: not an executable (make host)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fsbench-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# scan FILE: one line per region, "LINE<tab>ARGS" (ARGS without "fsbench "),
# into $tmp/regions; the old contents into $tmp/old.N. A broken structure is
# an error naming the line.
scan() {
	awk -v dir="$tmp" -v file="$1" '
	function fail(msg) { printf "%s:%d: %s\n", file, NR, msg > "/dev/stderr"; bad = 1; exit 1 }
	{
		line = $0
		if (!inregion && line ~ /^```/) { fence = !fence; next }
		if (fence) next
		if (line ~ /^(<!-- |; )BEGIN GENERATED: /) {
			if (inregion) fail("BEGIN GENERATED inside a region (no END GENERATED since line " start ")")
			args = line
			sub(/^(<!-- |; )BEGIN GENERATED: /, "", args)
			sub(/ -->$/, "", args)
			if (args !~ /^fsbench( |$)/) fail("a region names a command other than fsbench: " args)
			sub(/^fsbench ?/, "", args)
			n++; inregion = 1; start = NR
			printf "%d\t%s\n", NR, args > (dir "/regions")
			printf "" > (dir "/old." n)
			next
		}
		if (line ~ /^(<!-- |; )END GENERATED( -->)?$/) {
			if (!inregion) fail("END GENERATED without BEGIN GENERATED")
			inregion = 0
			next
		}
		if (inregion) print line > (dir "/old." n)
	}
	END {
		if (bad) exit 1
		if (inregion) { printf "%s:%d: BEGIN GENERATED without END GENERATED\n", file, start > "/dev/stderr"; exit 1 }
	}' "$1"
}

# gen N ARGS KIND: the region text into $tmp/new.N
gen() {
	n=$1; args=$2; kind=$3
	set -f
	# shellcheck disable=SC2086
	if ! "$fsb" $args > "$tmp/out" 2> "$tmp/err"; then
		set +f
		echo "regions: $file: fsbench $args failed: $(head -n 3 "$tmp/err")" >&2
		return 1
	fi
	set +f
	case " $args " in
	*" --markdown "*|*" --scdoc "*) cp "$tmp/out" "$tmp/new.$n" ;;
	*)
		{
			echo '```'
			if [ "$kind" = scd ]; then sed 's/\\/\\\\/g' "$tmp/out"; else cat "$tmp/out"; fi
			echo '```'
		} > "$tmp/new.$n" ;;
	esac
}

# rewrite FILE: FILE with every region replaced by $tmp/new.N, to stdout
rewrite() {
	awk -v dir="$tmp" '
	{
		line = $0
		if (!inregion && line ~ /^```/) fence = !fence
		if (!fence && line ~ /^(<!-- |; )BEGIN GENERATED: /) {
			print line
			n++; inregion = 1
			f = dir "/new." n
			while ((getline l < f) > 0) print l
			close(f)
			next
		}
		if (!fence && line ~ /^(<!-- |; )END GENERATED( -->)?$/) { inregion = 0; print line; next }
		if (!inregion) print line
	}' "$1"
}

status=0; regions=0; differ=0; files=0
for file in "$@"; do
	[ -f "$file" ] || continue
	grep -q 'BEGIN GENERATED: ' "$file" || continue
	case $file in *.scd) kind=scd ;; *) kind=md ;; esac
	rm -f "$tmp"/regions "$tmp"/old.* "$tmp"/new.*
	if ! scan "$file"; then status=1; continue; fi
	[ -f "$tmp/regions" ] || continue
	files=$((files + 1))
	n=0; stale=0
	while IFS='	' read -r line args; do
		n=$((n + 1)); regions=$((regions + 1))
		if ! gen "$n" "$args" "$kind"; then status=1; stale=-1; break; fi
		if ! cmp -s "$tmp/old.$n" "$tmp/new.$n"; then
			stale=$((stale + 1)); differ=$((differ + 1))
			if [ "$mode" = --check ]; then
				echo "check-docs: $file:$line: the region of 'fsbench $args' differs from what the binary prints (make docs):"
				diff -u "$tmp/old.$n" "$tmp/new.$n" | sed -n '3,14p' | sed 's/^/  | /'
				status=1
			fi
		fi
	done < "$tmp/regions"
	if [ "$mode" = --update ] && [ "$stale" -gt 0 ]; then
		rewrite "$file" > "$tmp/file"
		cat "$tmp/file" > "$file"
		echo "docs: $file: $stale of $n regions rewritten"
	fi
done
if [ "$mode" = --check ]; then
	echo "check-docs: $regions regions in $files files, $differ differ"
else
	echo "docs: $regions regions in $files files, $differ rewritten"
fi
exit $status

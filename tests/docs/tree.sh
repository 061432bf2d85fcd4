#!/bin/sh
# tree.sh: the source tree keeps its shape.
# Usage: tree.sh [ROOT] (default: the tree this script is in).
# Checks: the top level holds only the fixed layout; no file stem (name
# without .c or .h) of runner/ in two folders; no source file over
# TREE_MAX_LINES lines (900), tests included; no include in runner/run/
# from a room to one on its floor or above (the floors below); no record
# type compared by its name, no verdict rule recognized by its function
# pointer, no C string literal over 400 characters. With git, the files are those
# git knows (tracked, or new and not ignored); without it, the files on disk
# outside out/.
# Output: one line per failure, a summary; exit 1 when one failed.
set -eu
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
max=${TREE_MAX_LINES:-900}
cd "$root"

# git only when ROOT is the top of its work tree (a scratch tree under an
# ignored out/ of a clone is not what that clone tracks)
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
	files() { git ls-files -co --exclude-standard; }
else
	files() { find . -path ./out -prune -o -type f -print | sed 's|^\./||'; }
fi

fail=0
bad() { echo "tree: $*"; fail=$((fail + 1)); }

# The top level: Makefile, README.md, the seven folders, .ci and .gitignore.
layout=" Makefile README.md runner image board qemu tests results .ci .gitignore "
for top in $(files | sed 's|/.*||' | sort -u); do
	case "$layout" in
	*" $top "*) ;;
	*) bad "top level: '$top' is not part of the layout (Makefile, README.md, runner/, image/, board/, qemu/, tests/, results/, .ci/, .gitignore)" ;;
	esac
done

# One name, one room: a stem of runner/ in two folders.
dups=$(files | sort | grep -E '^runner/.*\.[ch]$' |
	awk '{ d = $0; sub(/\/[^\/]*$/, "", d); f = $0; sub(/.*\//, "", f); sub(/\.[ch]$/, "", f);
	       if (!((f, d) in seen)) { seen[f, d] = 1; n[f]++; where[f] = where[f] " " d } }
	     END { for (f in n) if (n[f] > 1) print f ":" where[f] }' | sort)
if [ -n "$dups" ]; then
	echo "$dups" | while IFS= read -r l; do echo "tree: file name in two folders: $l"; done
	fail=$((fail + $(echo "$dups" | wc -l)))
fi

# No source file over $max lines.
long=$(files | grep -E '\.(c|h)$' | while IFS= read -r f; do
	[ -f "$f" ] || continue
	n=$(wc -l < "$f")
	[ "$n" -le "$max" ] || echo "$f: $n lines"
done)
if [ -n "$long" ]; then
	echo "$long" | while IFS= read -r l; do echo "tree: over $max lines: $l"; done
	fail=$((fail + $(echo "$long" | wc -l)))
fi

# The floors of runner/run/, from the ground up: a room includes only rooms
# on a floor below its own ("." = the files at run/'s top: the settings).
# Rooms on one floor (fs, stores) include neither each other.
floors=${TREE_RUN_FLOORS:-"core target evidence fs,stores . engine"}
ups=$(files | grep -E '^runner/run/.*\.[ch]$' | while IFS= read -r f; do
	[ ! -f "$f" ] || grep -H '^#include "run/' "$f" || :
done | awk -v floors="$floors" '
	function room(p) { sub(/^run\//, "", p); return p ~ /\// ? substr(p, 1, index(p, "/") - 1) : "." }
	BEGIN { n = split(floors, fl, " "); for (i = 1; i <= n; i++) { m = split(fl[i], r, ","); for (j = 1; j <= m; j++) at[r[j]] = i } }
	{
		f = $0; sub(/:.*/, "", f); inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
		p = f; sub(/^runner\//, "", p); a = room(p); b = room(inc)
		if (!(a in at)) { if (!(a in told)) print f ": room " a "/ is on no floor (tests/docs/tree.sh: floors)"; told[a] = 1; next }
		if (!(b in at)) next
		if (a != b && at[b] >= at[a])
			print f " includes " inc ": floor " at[b] " (" b ") is not below floor " at[a] " (" a ")"
	}')
if [ -n "$ups" ]; then
	echo "$ups" | while IFS= read -r l; do echo "tree: arrow back up in run/: $l"; done
	fail=$((fail + $(echo "$ups" | wc -l)))
fi

# Record types by their schema ids, rules by their keys: no strcmp of a
# type (a variable named *type*) against a record type's name (log/fields.h's FSB_REC_TYPES; use
# fsb_rec_lookup and FSB_REC_x), no verdict key recognized by comparing
# one of its functions (give the key its own function in the table).
types=$(sed -n '/^#define FSB_REC_TYPES(X)/,/^$/p' runner/log/fields.h 2>/dev/null |
	grep -o 'X([a-z_]*)' | sed 's/X(\(.*\))/\1/' | paste -sd'|' -)
hand=$(files | grep -E '^runner/.*\.c$' | while IFS= read -r f; do
	[ ! -f "$f" ] || [ -z "$types" ] ||
		grep -HnE "str(n)?cmp\([^,;]*type[^,;]*, *\"($types)\"" "$f" | sed 's/^\([^:]*:[0-9]*\):.*/\1: a record type compared by its name/' || :
	[ ! -f "$f" ] || grep -HnE '(->|\.)(eval|derive|parse|measure) *[!=]= *[a-z_]+' "$f" |
		sed 's/^\([^:]*:[0-9]*\):.*/\1: a rule recognized by its function/' || :
done)
# Text as data: no C string literal of runner/ over 400 characters (a long
# text is adjacent literals, one line each, or a table's rows).
long_lit=$(files | grep -E '^runner/.*\.[ch]$' | while IFS= read -r f; do
	[ ! -f "$f" ] || grep -HnE '"([^"\\]|\\.){401,}"' "$f" | sed 's/^\([^:]*:[0-9]*\):.*/\1: a string literal over 400 characters/' || :
done)
[ -z "$long_lit" ] || hand="${hand:+$hand
}$long_lit"
if [ -n "$hand" ]; then
	echo "$hand" | while IFS= read -r l; do echo "tree: $l"; done
	fail=$((fail + $(echo "$hand" | wc -l)))
fi

if [ "$fail" -gt 0 ]; then
	echo "tree: $fail failed"
	exit 1
fi
echo "tree: ok (layout, one name per room, no source file over $max lines, the floors of run/, record types by id, rules by key, no literal over 400 characters)"

#!/bin/sh
# run.sh: tests of the generated docs: regions.sh on scratch documents, and
# the generators of the binary (config --markdown|--scdoc, help TOPIC); the
# messages and exit codes of the scripts and the runner (vocab.sh).
# Usage: run.sh FSBENCH (the host build). Scratch files under $O/tests/docs.
# Output: one line per check, a summary; exit 1 when one failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fsb=${1:?usage: run.sh FSBENCH}
O=${O:-$(pwd)/out}
S=$O/tests/docs
rm -rf "$S"; mkdir -p "$S"
. "$(dirname "$0")/../lib.sh"
test_init docs "$S"
# regions MODE FILE...: run regions.sh, output in $S/out, exit status in $rc
regions() { set +e; sh "$here/regions.sh" "$@" >"$S/out" 2>&1; rc=$?; set -e; }
has() { grep -qF -- "$1" "$S/out"; }

# ---- the generators ----
"$fsb" config --markdown > "$S/md"
check "config --markdown: a table key | default | meaning" \
	sh -c "head -n 2 '$S/md' | tr -d '\n' | grep -qx '| key | default | meaning ||---|---|---|'"
keys=$("$fsb" config --show | awk '{ print $1 }' | sed 's/^\(mkfs_opts\|mount_opts\)\..*/\1.FS/; s/^variant\..*/variant.FS:NAME/' | sort -u)
missing=
for k in $keys; do grep -q "^| \`$k\` |" "$S/md" || missing="$missing $k"; done
check "config --markdown: one row for every key of config --show${missing:+ (missing:$missing)}" [ -z "$missing" ]
check "config --markdown: a choice's | is escaped" grep -qF 'name\|shuffled' "$S/md"
check "config --markdown: keys the profile sets say so" grep -q '^| `dirs` | profile |' "$S/md"
check "config --markdown: a long help whole, its allowed values to the last (profile)" \
	grep -q '^| `profile` | `seed` | .*; allowed: seed, smoke, .*fileserver-aged |$' "$S/md"
"$fsb" config --scdoc > "$S/scd"
check "config --scdoc: a list item per key" grep -qx '\*file\\_size\* (default: set by the profile)' "$S/scd"
check "config --scdoc: no backquotes (scdoc has no code font)" sh -c "! grep -q '\`' '$S/scd'"
set +e; "$fsb" config --markdown --profile smoke >/dev/null 2>&1; rc=$?; set -e
check "config --markdown with another argument: misuse (exit $rc)" [ "$rc" = 2 ]
"$fsb" help exit-codes > "$S/ex"
"$fsb" --help > "$S/help"
check "help exit-codes: the lines of --help" sh -c "tail -n \$(wc -l <'$S/ex') '$S/help' | cmp -s - '$S/ex'"
check "help exit-codes --markdown: six codes" sh -c "[ \$('$fsb' help exit-codes --markdown | grep -c '^| [0-9] |') = 6 ]"
check "help commands: every command of --help" sh -c "'$fsb' help commands | awk '{ print \$1 }' | while read -r c; do grep -q \"^  \$c \" '$S/help' || exit 1; done"
set +e; "$fsb" help nosuch >/dev/null 2>"$S/err"; rc=$?; set -e
check "help nosuch: misuse (exit $rc), says so" sh -c "[ $rc = 2 ] && grep -q '^fsbench: help nosuch: no such topic' '$S/err'"

# ---- the record schema: its table in FORMATS.md, the committed records ----
root=$(cd "$here/../.." && pwd)
"$fsb" log schema --markdown > "$S/schema"
check "log schema --markdown: a table type | field | JSON type | required | unit | meaning" \
	sh -c "head -n 1 '$S/schema' | grep -qx '| type | field | JSON type | required | unit | meaning |'"
types=$("$fsb" log schema | sed -n 's/^\([a-z_]*\) (schema [0-9]*):.*/\1/p')
grep '^<!-- BEGIN GENERATED: fsbench log schema --markdown ' "$root/runner/FORMATS.md" | tr ' ' '\n' > "$S/intables"
missing=
for t in $types; do grep -qx "$t" "$S/intables" || missing="$missing $t"; done
check "FORMATS.md: every record type in a generated table${missing:+ (missing:$missing)}" [ -z "$missing" ]
set +e; "$fsb" log schema --markdown nosuch >/dev/null 2>"$S/err"; rc=$?; set -e
check "log schema nosuch: misuse (exit $rc), names it" sh -c "[ $rc = 2 ] && grep -q 'nosuch: no such record type' '$S/err'"
# the committed records: the runner's own (html's smoke run) in full; the
# rest written by hand or by older runners (no span_seconds yet): their
# names. report-bad.jsonl is meant to be bad.
set +e; "$fsb" log check "$root/tests/html/data/smoke.jsonl" >"$S/out" 2>&1; rc=$?; set -e
check "log check: tests/html/data/smoke.jsonl breaks no rule of the schema (exit $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || sed -n 1,5p "$S/out"
set --
for f in "$root"/tests/unit/data/*.jsonl "$root"/tests/fuzz/corpus/report/*.jsonl \
	"$root"/tests/html/data/*.jsonl "$root/tests/qemu/smoke-serial.log"; do
	case $f in */report-bad.jsonl) ;; *) set -- "$@" "$f" ;; esac
done
set +e; "$fsb" log check --names "$@" >"$S/out" 2>&1; rc=$?; set -e
check "log check --names: the schema knows every type and field of the committed records (exit $rc)" [ "$rc" = 0 ]
[ "$rc" = 0 ] || sed -n 1,5p "$S/out"
printf 'console noise\nFSB: {"schema":1,"type":"note","run_id":"a","seq":0,"t":0,"msg":"m","mgs":1}\n' > "$S/bad.log"
set +e; "$fsb" log check "$S/bad.log" >"$S/out" 2>"$S/err"; rc=$?; set -e
check "log check: a violation is FILE:LINE: TYPE: WHAT, exit 1 (exit $rc)" \
	sh -c "[ $rc = 1 ] && grep -qx '$S/bad.log:2: note: unknown field \"mgs\"' '$S/out'"
set +e; "$fsb" log check >/dev/null 2>&1; rc=$?; set -e
check "log check without a file: misuse (exit $rc)" [ "$rc" = 2 ]
set +e; "$fsb" log check "$S/no-such-file" >/dev/null 2>"$S/err"; rc=$?; set -e
check "log check of a missing file: exit 4, names it (exit $rc)" sh -c "[ $rc = 4 ] && grep -q 'no-such-file' '$S/err'"

# ---- regions.sh on a scratch document ----
cat > "$S/doc.md" <<'EOF'
# A manual

<!-- BEGIN GENERATED: fsbench config --markdown -->
| key | default | meaning |
| stale | | |
<!-- END GENERATED -->

Between the regions.

<!-- BEGIN GENERATED: fsbench help exit-codes -->
<!-- END GENERATED -->

A marker shown in a code block is text, not a region:

```
<!-- BEGIN GENERATED: fsbench no-such-command -->
```
EOF
cp "$S/doc.md" "$S/doc.orig"
regions --check "$fsb" "$S/doc.md"
check "check: stale regions fail (exit $rc)" [ "$rc" = 1 ]
check "check: names the file, line and command" has "$S/doc.md:3: the region of 'fsbench config --markdown' differs"
check "check: names the second region too" has "$S/doc.md:10: the region of 'fsbench help exit-codes' differs"
check "check: changes nothing" cmp -s "$S/doc.md" "$S/doc.orig"
regions --update "$fsb" "$S/doc.md"
check "update: exit 0 ($rc), says what it rewrote" sh -c "[ $rc = 0 ] && grep -q '2 of 2 regions rewritten' '$S/out'"
{
	sed -n '1,3p' "$S/doc.orig"
	"$fsb" config --markdown
	sed -n '6,10p' "$S/doc.orig"
	echo '```'; "$fsb" help exit-codes; echo '```'
	sed -n '11,$p' "$S/doc.orig"
} > "$S/doc.want"
check "update: markdown as is, text in a \`\`\` block, the rest untouched" cmp "$S/doc.md" "$S/doc.want"
regions --check "$fsb" "$S/doc.md"
check "check after update: passes (exit $rc)" [ "$rc" = 0 ]
regions --update "$fsb" "$S/doc.md"
check "update again: nothing rewritten" sh -c "[ $rc = 0 ] && grep -q ', 0 rewritten' '$S/out' && cmp -s '$S/doc.md' '$S/doc.want'"

printf '; BEGIN GENERATED: fsbench help commands\n; END GENERATED\n' > "$S/page.scd"
regions --update "$fsb" "$S/page.scd"
check "scdoc: a text region becomes a literal block" \
	sh -c "[ $rc = 0 ] && sed -n 2p '$S/page.scd' | grep -qx '\`\`\`' && grep -q '^run ' '$S/page.scd'"

printf 'x\n<!-- BEGIN GENERATED: fsbench --help -->\ny\n' > "$S/open.md"
regions --check "$fsb" "$S/open.md"
check "a region without END fails, naming its line" sh -c "[ $rc = 1 ] && grep -q 'open.md:2: BEGIN GENERATED without END GENERATED' '$S/out'"
printf '<!-- BEGIN GENERATED: ls -l -->\n<!-- END GENERATED -->\n' > "$S/other.md"
regions --update "$fsb" "$S/other.md"
check "a region naming another program fails" sh -c "[ $rc = 1 ] && grep -q 'other than fsbench' '$S/out'"
printf '<!-- BEGIN GENERATED: fsbench no-such-command -->\n<!-- END GENERATED -->\n' > "$S/fails.md"
regions --update "$fsb" "$S/fails.md"
check "a command that fails is an error, the file untouched" \
	sh -c "[ $rc = 1 ] && grep -q 'fsbench no-such-command failed' '$S/out' && [ \$(wc -l < '$S/fails.md') = 2 ]"

top=$(cd "$here/../.." && pwd)

# ---- measured run times: qemu/figures.txt -> the help -> the docs ----
# runner/figures.awk makes the runner's header from figures.txt's run lines;
# the settings' help (so config --markdown, runner/SETTINGS.md and the man page)
# quotes them. A changed figure changes the header; the binary's help holds
# the header's every figure, in the sentence that quotes it.
awk -f "$top/runner/figures.awk" "$top/qemu/figures.txt" > "$S/fig.h"
check "figures.awk: a figure per profile the help quotes (explain, fio, fill, tuning)" sh -c \
	"for p in EXPLAIN FIO FILL TUNING; do grep -q \"^#define FSB_TCG_\$p \\\"\" '$S/fig.h' || exit 1; done"
fig() { sed -n "s/^#define FSB_TCG_$1 \"\\([^\"]*\\)\".*/\\1/p" "$2"; }
check "figures.awk: 1231.8 s is said as the launcher says it (21 min)" [ "$(fig EXPLAIN "$S/fig.h")" = "21 min" ]
sed 's/^\(qemu-x86_64 tcg fio run\) [0-9.]*/\1 5400/' "$top/qemu/figures.txt" > "$S/figures.txt"
awk -f "$top/runner/figures.awk" "$S/figures.txt" > "$S/fig2.h"
check "figures.awk: fio's run at 5400 s in the data gives 1 h 30 min in the header" [ "$(fig FIO "$S/fig2.h")" = "1 h 30 min" ]
printf 'qemu-x86_64 tcg fio run soon\n' > "$S/bad-figures.txt"
check "figures.awk: a run time that is not a number fails, naming the line" sh -c \
	"! awk -f '$top/runner/figures.awk' '$S/bad-figures.txt' >/dev/null 2>'$S/fig.err' && grep -q 'bad-figures.txt:1: run SECONDS: not a number: soon' '$S/fig.err'"
check "config --markdown quotes explain's figure from the data" grep -qF "under QEMU TCG $(fig EXPLAIN "$S/fig.h") at \`files = 1000\`" "$S/md"
check "config --markdown quotes fio's figure from the data" grep -qF "($(fig FIO "$S/fig.h") under QEMU TCG, about 2 min on hardware)" "$S/md"
check "config --markdown quotes fill's figure from the data" grep -qF "$(fig FILL "$S/fig.h") under TCG on 2 GiB" "$S/md"
check "config --markdown quotes tuning's figure from the data" grep -qF "($(fig TUNING "$S/fig.h") under QEMU TCG for the 11 columns" "$S/md"

# ---- one vocabulary: messages and exit codes (vocab.sh) ----
. "$here/vocab.sh"

# ---- the tree's shape (tree.sh) on a scratch tree without git ----
T=$S/tree
mkdir -p "$T/runner/a" "$T/runner/b" "$T/tests/unit" "$T/out"
touch "$T/Makefile" "$T/README.md" "$T/runner/a/one.c" "$T/runner/b/two.c" "$T/out/left-over"
tree() { set +e; sh "$here/tree.sh" "$T" >"$S/out" 2>&1; rc=$?; set -e; }
tree
check "tree: the fixed layout passes (out/ not looked at)" sh -c "[ $rc = 0 ] && grep -q '^tree: ok' '$S/out'"
: > "$T/--help"; mkdir -p "$T/hist"; touch "$T/hist/records.jsonl"
tree
check "tree: a stray top-level file and folder fail, each named" \
	sh -c "[ $rc = 1 ] && grep -q \"'--help' is not part\" '$S/out' && grep -q \"'hist' is not part\" '$S/out'"
rm -rf "$T/--help" "$T/hist"
touch "$T/runner/a/two.h"
tree
check "tree: one file name in two folders of runner/ fails" \
	sh -c "[ $rc = 1 ] && grep -q 'file name in two folders: two: runner/a runner/b' '$S/out'"
rm "$T/runner/a/two.h"
awk 'BEGIN { for (i = 0; i < 901; i++) print "/* " i " */" }' > "$T/tests/unit/test_long.c"
tree
check "tree: a source file over 900 lines fails, tests included" \
	sh -c "[ $rc = 1 ] && grep -q 'over 900 lines: tests/unit/test_long.c: 901 lines' '$S/out'"
rm "$T/tests/unit/test_long.c"
mkdir -p "$T/runner/run/core" "$T/runner/run/engine" "$T/runner/run/stores"
printf '#include "run/core/low.h"\n#include "run/settings.h"\n' > "$T/runner/run/engine/top.c"
printf '#include "run/core/low.h"\n' > "$T/runner/run/settings.h"
touch "$T/runner/run/core/low.h"
tree
check "tree: run/'s rooms including rooms on lower floors pass" sh -c "[ $rc = 0 ] && grep -q '^tree: ok' '$S/out'"
printf '#include "run/engine/top.h"\n' > "$T/runner/run/core/back.c"
printf '#include "run/settings.h"\n' > "$T/runner/run/stores/under.c"
tree
check "tree: an include of run/ from a lower floor to a higher one fails, each named" \
	sh -c "[ $rc = 1 ] && grep -q 'arrow back up in run/: runner/run/core/back.c includes run/engine/top.h: floor 6 (engine) is not below floor 1 (core)' '$S/out' &&
	       grep -q 'arrow back up in run/: runner/run/stores/under.c includes run/settings.h: floor 5 (.) is not below floor 4 (stores)' '$S/out'"
rm "$T/runner/run/core/back.c" "$T/runner/run/stores/under.c"
mkdir -p "$T/runner/run/attic"
printf '#include "run/core/low.h"\n' > "$T/runner/run/attic/old.c"
tree
check "tree: a room of run/ on no floor fails" \
	sh -c "[ $rc = 1 ] && grep -q 'runner/run/attic/old.c: room attic/ is on no floor' '$S/out'"
rm -r "$T/runner/run/attic"
mkdir -p "$T/runner/log"
printf '#define FSB_REC_TYPES(X) \\\n\tX(run_start) X(fs_end) \\\n\n' >"$T/runner/log/fields.h"
printf 'int f(const char *type, const char *key)\n{\n\treturn !strcmp(key, "fs_end") + !strcmp(type, "fs_end");\n}\nint g(const struct k *k)\n{\n\treturn k->eval == vd_eval_x;\n}\n' >"$T/runner/a/hand.c"
tree
check "tree: a record type compared by its name and a rule recognized by its function fail, each named" \
	sh -c "[ $rc = 1 ] && grep -q '^tree: runner/a/hand.c:3: a record type compared by its name' '$S/out' &&
	       grep -q '^tree: runner/a/hand.c:7: a rule recognized by its function' '$S/out' &&
	       [ \$(grep -c 'hand.c' '$S/out') = 2 ]"
rm "$T/runner/a/hand.c"
printf 'const char *short_one = "%s";\nconst char *long_one = "%s";\n' "$(printf '%0400d' 0)" "$(printf '%0401d' 0)" >"$T/runner/a/text.c"
tree
check "tree: a string literal over 400 characters fails, named; one of 400 passes" \
	sh -c "[ $rc = 1 ] && grep -q '^tree: runner/a/text.c:2: a string literal over 400 characters' '$S/out' &&
	       [ \$(grep -c 'text.c' '$S/out') = 1 ]"
rm "$T/runner/a/text.c"

# ---- links (links.py): on scratch documents, then on the tree's ----
L=$S/links
mkdir -p "$L/sub"
printf '# Top\n\n## A `code` heading, with punctuation!\n\n## Twice\n\n## Twice\n' >"$L/sub/t.md"
printf '[a](sub/t.md) [b](sub/t.md#a-code-heading-with-punctuation) [c](sub/t.md#twice-1) [d](#here)\n# Here\n[e](https://example.org/x#y) [f](sub/)\n```\n[g](nowhere.md)\n```\n`[h](nowhere.md)`\n[ref]: sub/t.md#top\n' >"$L/good.md"
links() { set +e; python3 "$here/links.py" "$@" >"$S/out" 2>&1; rc=$?; set -e; }
links "$L/good.md"
check "links: files, anchors as GitHub makes them (code, punctuation, a repeat), other sites, code skipped: pass" \
	sh -c "[ $rc = 0 ] && [ ! -s '$S/out' ]"
printf 'x\n[a](sub/none.md) [b](sub/t.md#no-such)\n[ref]: #gone\n' >"$L/bad.md"
links "$L/bad.md"
check "links: a missing file, a missing anchor and a reference's fail, each named with its line" \
	sh -c "[ $rc = 1 ] && grep -q '^$L/bad.md:2: sub/none.md: no such file' '$S/out' &&
	       grep -q '^$L/bad.md:2: sub/t.md#no-such: no heading with the anchor #no-such' '$S/out' &&
	       grep -q '^$L/bad.md:3: #gone: no heading with the anchor #gone' '$S/out'"
top=$(cd "$here/../.." && pwd)
links $(cd "$top" && find . -name '*.md' -not -path './out/*' -not -path './.git/*' | sed 's,^\./,,' | sort)
check "links: every link of the tree's Markdown files that points into the tree resolves" \
	sh -c "[ $rc = 0 ]" || sed 's/^/  /' "$S/out"

summary

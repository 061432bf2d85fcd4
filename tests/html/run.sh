#!/bin/sh
# run.sh: `fsbench report --format html` read by a real browser.
# Pages: a recorded host smoke run (tests/html/data/smoke.jsonl: ext4, xfs,
# btrfs on a loop device, 2 rounds, layout records with block lists) with
# tests/html/criteria.conf (a failing verdict), and without criteria; the
# same run without its layout records; older records without block lists
# (tests/unit/data/report-layout.jsonl); a run of each other kind, the
# records of the unit tests (tests/unit/fixtures.h): a sustained write, a
# power-cut campaign, a file server (its fixture without the small-file
# phases, as the profile fileserver runs it), each showing what it
# measures and no line about what it does not; the smoke run without
# gnuplot on PATH, with a gnuplot that fails, and with text that must be escaped;
# the index of a results folder (qemu/index.sh: `fsbench history
# --format html`) of runs copied from these records, one folder's name
# needing escapes: every link resolves to a file that is there.
# Each page: well-formed XML (xmllint --noout), every table of the Markdown
# report, nothing loaded from outside; in headless Chromium (cdp.py, the
# DevTools protocol): no console error, every chart the page promises holds
# an <svg> that draws its data, the verdict (or the line that there is
# none) first, what the page says and does not say, and a screenshot of the
# whole page.
# Usage: run.sh FSBENCH (the host build). Needs xmllint; the browser checks
# need chromium and python3, the charts gnuplot: each missing one is a SKIP
# with the reason.
# Output: one line per check, a summary; exit 1 when one failed. Scratch
# files and the screenshots (PAGE.png) under $O/tests/html.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fsb=${1:?usage: run.sh FSBENCH}
O=${O:-$(pwd)/out}
S=$O/tests/html
rm -rf "$S"; mkdir -p "$S"
. "$here/../lib.sh"
test_init html "$S"
smoke=$here/data/smoke.jsonl
older=$top/tests/unit/data/report-layout.jsonl
crit=$here/criteria.conf

browser=
if ! have chromium; then
	skip "browser checks: chromium not found (Debian package chromium; make deps)"
elif ! have python3; then
	skip "browser checks: python3 not found (it speaks the DevTools protocol, tests/html/cdp.py)"
else
	browser=chromium
fi
charts=1
have gnuplot || { skip "charts: gnuplot not found (Debian package gnuplot-nox; make deps)"; charts=0; }
xml=1
have xmllint || { fail "xmllint not found (Debian package libxml2-utils; make deps)"; xml=0; }

# page NAME ARGS...: fsbench report ARGS --format html > NAME.html, and the
# Markdown report of the same run > NAME.md (md FILE NAME [ARGS])
page() {
	_n=$1; shift
	expect_rc 0 "$_n: report --format html" "$fsb" report "$@" --format html
	cp "$S/out" "$S/$_n.html"
}
md() { _f=$1 _m=$2; shift 2; "$fsb" report "$_f" "$@" >"$S/$_m.md" 2>/dev/null || true; }

# well-formed, self-contained, and every table of the Markdown report:
# a grid per Markdown grid (its rule line) with the same rows, a list item
# per "- " line (the verdict's items apart), a heading per "## " heading
static_checks() {
	_n=$1 _md=$2 _h=$S/$1.html
	[ "$xml" = 0 ] || check "$_n: well-formed (xmllint --noout)" xmllint --noout "$_h"
	check "$_n: nothing loaded from outside the page (no src, link, script, http href)" \
		sh -c "! grep -Eiq '<script|<link|<iframe|<img| src=|href=.https?:|url\\((.)?https?:' '$_h'"
	_rules=$(grep -Ec '^\|[-:|]+\|$' "$S/$_md.md" || true)
	_rows=$(grep -c '^|' "$S/$_md.md" || true)
	_tables=$(grep -o '<table>' "$_h" | wc -l)
	_trs=$(grep -o '<tr>' "$_h" | wc -l)
	check "$_n: a table per Markdown grid ($_tables, $_rules)" [ "$_tables" -eq "$_rules" ]
	check "$_n: as many rows as the Markdown grids ($_trs, $((_rows - _rules)))" \
		[ "$_trs" -eq $((_rows - _rules)) ]
	_li=$(sed '/<div class="verdict/,/<\/div>/d' "$_h" | grep -o '<li>' | wc -l)
	_dash=$(grep -c '^- ' "$S/$_md.md" || true)
	check "$_n: a list item per Markdown line ($_li, $_dash)" [ "$_li" -eq "$_dash" ]
	grep '^## ' "$S/$_md.md" | sed 's/^## //; s/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' \
		| sed "s/'/\\&#39;/g" >"$S/$_n.heads"
	check "$_n: every Markdown heading is a heading" \
		sh -c 'while IFS= read -r h; do grep -Fq "<h2>$h</h2>" "$1" || { echo "missing: $h"; exit 1; }; done <"$2"' - "$_h" "$S/$_n.heads"
}

# One headless Chromium for every page (cdp.py --serve, its requests and
# answers on two named pipes, fds 7 and 8): started by the first browse,
# ended by cdp_end (its standard input closed).
cdp_pid=
cdp_start() {
	mkfifo "$S/cdp.req" "$S/cdp.rep"
	python3 "$here/cdp.py" --serve "$browser" <"$S/cdp.req" >"$S/cdp.rep" 2>"$S/cdp.err" &
	cdp_pid=$!
	exec 7>"$S/cdp.req" 8<"$S/cdp.rep"
}
cdp_end() {
	[ -n "$cdp_pid" ] || return 0
	exec 7>&- 8<&-
	wait "$cdp_pid" || true
	cdp_pid=
}
# browse NAME [PAGE]: load NAME.html (or PAGE) in Chromium: NAME.json
# (cdp.py's view of it), NAME.png; no console error
browse() {
	[ -n "$browser" ] || return 1
	[ -n "$cdp_pid" ] || cdp_start
	printf '%s\t%s\t%s\n' "${2:-$S/$1.html}" "$S/$1.png" "$S/$1.json" >&7
	_ans=
	IFS= read -r _ans <&8 || _ans="error: the browser's helper ended: $(tail -n 3 "$S/cdp.err" | tr '\n' ' ')"
	if [ "$_ans" = ok ]; then
		pass "$1: loaded in headless Chromium"
	else
		fail "$1: headless Chromium did not load the page"; echo "     | $_ans"; return 1
	fi
	check "$1: no console error" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["errors"]: print(e)
sys.exit(1 if d["errors"] else 0)' "$S/$1.json"
	check "$1: a screenshot of the page ($S/$1.png)" \
		sh -c "[ \$(wc -c <'$S/$1.png') -gt 10000 ] && head -c 8 '$S/$1.png' | od -An -c | grep -q 'P   N   G'"
}

# charts_are NAME "DRAWN" "ABSENT": the charts drawn (each an <svg> with
# drawn paths and marks of its data, laid out larger than 100x100) and the
# ones said to be absent, in the page's order
charts_are() {
	check "$1: charts drawn: $2; said absent: ${3:-none}" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
want, absent = sys.argv[2].split(), sys.argv[3].split()
got = [c["id"] for c in d["charts"]]
ok = got == want and d["absent"] == absent
for c in d["charts"]:
    good = c["svg"] and c["paths"] > 0 and c["data"] > 0 and c["width"] > 100 and c["height"] > 100
    print(c)
    ok = ok and good
print("charts", got, "absent", d["absent"], "nocharts", d["nocharts"])
sys.exit(0 if ok else 1)' "$S/$1.json" "$2" "${3:-}"
}

# reads NAME "SAID" ["NOT SAID"]: the page's text as a reader sees it holds
# each '|'-separated text of SAID and none of NOT SAID
reads() {
	check "$1: says: $2${3:+; does not say: $3}" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["text"]
ok = True
for s in filter(None, sys.argv[2].split("|")):
    if s not in t:
        print("missing:", s); ok = False
for s in filter(None, sys.argv[3].split("|")):
    if s in t:
        print("there:", s); ok = False
sys.exit(0 if ok else 1)' "$S/$1.json" "$2" "${3:-}"
}

# first NAME ID: right under the page's heading, the verdict's box
# ("verdict") or the line that there is none ("no-verdict")
first() {
	check "$1: first under the heading: #$2" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("first:", d["first"])
sys.exit(0 if d["first"] == sys.argv[2] else 1)' "$S/$1.json" "$2"
}

# kind NAME RECORDS: the page of one kind of run, whole, and its tables
# those of the Markdown report (the exit status is the command's, not the
# page's: a run without phase records may exit non-zero)
kind() {
	"$fsb" report "$2" --format html >"$S/$1.html" 2>"$S/$1.err" || :
	check "$1: report --format html writes a whole page" \
		sh -c "[ \"\$(tail -n 1 '$S/$1.html')\" = '</html>' ]"
	md "$2" "$1"
	static_checks "$1" "$1"
}

# ---- a recorded smoke run, its verdict failing ----
md "$smoke" full --criteria "$crit"
page full "$smoke" --criteria "$crit"
static_checks full full
check "full: the verdict box names the failed check" \
	sh -c "grep -A4 '<div class=\"verdict fail\"' '$S/full.html' | grep -q 'ext4 delete seconds'"
info "full: $(wc -c <"$S/full.html") bytes"
if [ "$charts" = 1 ] && browse full; then
	charts_are full "verdict seconds latency layout rounds"
	first full verdict
fi

# ---- the same run without criteria ----
md "$smoke" smoke
page plain "$smoke"
static_checks plain smoke
check "plain: no verdict box without a verdict" sh -c "! grep -q 'class=\"verdict' '$S/plain.html'"
check "plain: one line says no criteria were given" grep -Fq \
	'<p class="noverdict" id="no-verdict">No verdict: no criteria given (fsbench report RUN --criteria FILE).</p>' \
	"$S/plain.html"
# the small-file rounds: their shape, their charts, no line of what is not
# there, and one at the end of what the run does not measure
if [ "$charts" = 1 ] && browse plain; then
	charts_are plain "seconds latency layout rounds"
	first plain no-verdict
	reads plain "config: profile smoke; fs ext4,xfs,btrfs; 4 dirs x 500 files x 4096 bytes; 4 workers; 2 rounds|Not in this run: fio workloads, fill test, power cuts, sustained writes, file server." \
		"No phase records|: none: |sustain="
fi

# ---- the same run without its layout records: it should have them, the
# layout chart says it has none ----
grep -v '"type":"layout"' "$smoke" >"$S/nolayout.jsonl"
kind nolayout "$S/nolayout.jsonl"
if [ "$charts" = 1 ] && browse nolayout; then
	charts_are nolayout "seconds latency rounds" "layout"
	reads nolayout "Layout of d0000: none: no layout record with block lists|Not in this run: fio workloads, fill test, power cuts, sustained writes, file server." \
		"No phase records"
fi

# ---- a run of each other kind: what it measures, and nothing of the
# small-file rounds it does not run (no chart, no "none" line, no shape) ----
nosmall="No phase records|: none: |Seconds per phase|Latency percentiles|dirs x"
kind sustain "$top/tests/unit/data/report-sustain.jsonl"
if [ "$charts" = 1 ] && browse sustain; then
	charts_are sustain "sustain"
	first sustain no-verdict
	reads sustain "config: profile sustain; fs ext4; sustain=raw, sustain_seconds=14, sustain_share=50, sustain_base=3, sustain_hold=3, sustain_rise=5|Not in this run: small-file phases, fio workloads, fill test, power cuts, file server." \
		"$nosmall|powercut=|fileserver="
fi
kind powercut "$top/tests/unit/data/report-powercut.jsonl"
if [ "$charts" = 1 ] && browse powercut; then
	charts_are powercut "powercut"
	first powercut no-verdict
	reads powercut "config: profile powercut; fs ext4,xfs; powercut=2, powercut_window=10, powercut_seed=305441741, powercut_workers=4, powercut_batch=100, powercut_files=32|Not in this run: small-file phases, fio workloads, fill test, sustained writes, file server." \
		"$nosmall|sustain="
fi
grep -v '"type":"phase"' "$top/tests/unit/data/report-fileserver.jsonl" |
	sed 's/"profile":"fileserver-aged"/"profile":"fileserver"/; s/"smallfile":1/"smallfile":0/' \
	>"$S/fileserver.jsonl"
kind fileserver "$S/fileserver.jsonl"
if [ "$charts" = 1 ] && browse fileserver; then
	charts_are fileserver "fileserver"
	first fileserver no-verdict
	reads fileserver "config: profile fileserver; fs ext4,xfs,btrfs; fileserver=1, fileserver_aged=1, fileserver_files=200|Not in this run: small-file phases, fio workloads, fill test, power cuts, sustained writes." \
		"$nosmall|Layout of d0000|Seconds per round|sustain="
fi

# ---- records of an older runner: no block lists for the picture ----
md "$older" older
page older "$older"
static_checks older older
if [ "$charts" = 1 ] && browse older; then
	charts_are older "seconds latency rounds" "layout"
fi

# ---- no gnuplot: every table, and why there are no charts ----
expect_rc 0 "nognuplot: report --format html with PATH=/nonexistent" \
	env PATH=/nonexistent "$fsb" report "$smoke" --format html
cp "$S/out" "$S/nognuplot.html"
static_checks nognuplot smoke
check "nognuplot: the page says gnuplot is not on PATH" \
	grep -q '<p class="nocharts" id="no-charts">No charts: gnuplot not found on PATH' "$S/nognuplot.html"
check "nognuplot: no chart" sh -c "! grep -q '<svg\\|<figure' '$S/nognuplot.html'"
if browse nognuplot; then
	check "nognuplot: the reader sees why, and every table" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["nocharts"], d["tables"])
sys.exit(0 if d["nocharts"] and "gnuplot not found" in d["nocharts"] and not d["charts"]
         and d["tables"] == int(sys.argv[2]) else 1)' "$S/nognuplot.json" "$(grep -c '<div class="table"' "$S/plain.html")"
fi

# ---- FSBENCH_GNUPLOT: a program that fails, a path that is not there ----
expect_rc 0 "gnuplot fails: report --format html with FSBENCH_GNUPLOT=false" \
	env FSBENCH_GNUPLOT=false "$fsb" report "$smoke" --format html
cp "$S/out" "$S/failing.html"
check "failing: the page says gnuplot failed, with its exit status" \
	grep -q 'No charts: [^ ]*/false failed (exit status 1)' "$S/failing.html"
check "failing: every table still there" \
	[ "$(grep -c '<div class="table"' "$S/failing.html")" -eq "$(grep -c '<div class="table"' "$S/nognuplot.html")" ]
expect_rc 0 "FSBENCH_GNUPLOT=/nonexistent/gnuplot" \
	env FSBENCH_GNUPLOT=/nonexistent/gnuplot "$fsb" report "$smoke" --format html
check "the page names the missing program" \
	sh -c "printf '%s' \"\$1\" | grep -q 'No charts: /nonexistent/gnuplot not found (not an executable file)'" - "$OUT"

# ---- text that must be escaped, in the page and for gnuplot ----
# (and a filesystem name with quotes and '#', through gnuplot's script and data)
sed 's/"hostname":"[^"]*"/"hostname":"<script>alert(\\"x\\")<\/script> \&amp; '"'"'q'"'"'"/
	s/"fs":"xfs"/"fs":"x'"'"'f\\"s#1"/g' "$smoke" >"$S/escape.jsonl"
md "$S/escape.jsonl" escape
page escape "$S/escape.jsonl"
static_checks escape escape
check "escape: the host name is text, escaped" \
	grep -Fq 'host: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;amp; &#39;q&#39;' "$S/escape.html"
check "escape: the filesystem name is text, escaped" \
	grep -Fq '<th class="r">x&#39;f&quot;s#1</th>' "$S/escape.html"
if [ "$charts" = 1 ] && browse escape; then
	charts_are escape "seconds latency layout rounds"
fi

# ---- compare: the ratios of the rows, then the runs' charts side by side ----
expect_rc 0 "compare: compare A B --format html" "$fsb" compare "$smoke" "$S/escape.jsonl" --format html
cp "$S/out" "$S/compare.html"
"$fsb" compare "$smoke" "$S/escape.jsonl" >"$S/compare.md" 2>/dev/null || true
static_checks compare compare
check "compare: both runs in the charts' legends (A ..., B ...)" \
	sh -c "grep -q '>A ext4 fresh<' '$S/compare.html' && grep -q '>B ext4 fresh<' '$S/compare.html'"
check "compare: no line about a verdict: compare has none" sh -c "! grep -q 'no-verdict' '$S/compare.html'"
check "compare: the ratio chart names each row (fs phase)" \
	sh -c "grep -q 'id=\"chart-ratios\"' '$S/compare.html' && grep -q '<text>ext4 create (incl. sync)<' '$S/compare.html'"
if [ "$charts" = 1 ] && browse compare; then
	charts_are compare "ratios seconds latency layout rounds"
fi

# ---- the index of a results folder: a row per run, each linking to its report ----
R=$S/results
e_acute=$(printf '\303\251')
odd='20251130-120000-odd &"<b> #?%'$e_acute	# a name a URL and the page must escape
mkdir -p "$R/20251129-080000-smoke" "$R/$odd" "$R/20251128-070000-older"
cp "$smoke" "$R/20251129-080000-smoke/records.jsonl"
"$fsb" report "$R/20251129-080000-smoke" --format html >"$R/20251129-080000-smoke/report.html"
cp "$S/escape.jsonl" "$R/$odd/records.jsonl"
"$fsb" report "$R/$odd" --format html >"$R/$odd/report.html"
cp "$older" "$R/20251128-070000-older/records.jsonl"
"$fsb" report "$R/20251128-070000-older" >"$R/20251128-070000-older/report.md"
cp "$top/tests/unit/data/report-two-runs.jsonl" "$R/two-runs.jsonl"
expect_rc 0 "index: qemu/index.sh writes the results folder's index.html" \
	env FSBENCH_HOST="$fsb" sh "$top/qemu/index.sh" "$R"
check "index: it says where" contains "$OUT" "qemu: index of the runs: $R/index.html"
[ "$xml" = 0 ] || check "index: well-formed (xmllint --noout)" xmllint --noout "$R/index.html"
check "index: a row per run" [ "$(grep -c '^<tr><td><a href=' "$R/index.html")" -eq 4 ]
check "index: the odd folder name percent-encoded in the href, escaped in the text" grep -Fq \
	'<a href="20251130-120000-odd%20%26%22%3Cb%3E%20%23%3F%25%C3%A9/report.html">20251130-120000-odd &amp;&quot;&lt;b&gt; #?%'"$e_acute"'</a>' \
	"$R/index.html"
if browse index "$R/index.html"; then
	check "index: every link resolves to a file of the folder (report.html, report.md, records)" python3 -c '
import json, os, sys, urllib.parse
d, root, odd = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
want = {"20251129-080000-smoke/report.html", odd + "/report.html",
        "20251128-070000-older/report.md", "two-runs.jsonl"}
got, ok = set(), True
for l in d["links"]:
    u = urllib.parse.urlparse(l["url"])
    path = urllib.parse.unquote(u.path)
    there = u.scheme == "file" and os.path.isfile(path)
    print(l["text"], "->", l["href"], "->", path, "ok" if there else "NOT THERE")
    ok = ok and there and path.startswith(root + "/")
    got.add(os.path.relpath(path, root))
names = sorted(l["text"] for l in d["links"])
print("names", names)
sys.exit(0 if ok and got == want and odd in names else 1)' "$S/index.json" "$R" "$odd"
fi

cdp_end
summary

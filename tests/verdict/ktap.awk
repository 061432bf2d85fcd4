# ktap.awk: a strict parser of KTAP version 1 (the kernel's
# Documentation/dev-tools/ktap.rst), for the tests of `fsbench report
# --format ktap`. Usage: awk -f ktap.awk FILE
#
# Checks: the first line is "KTAP version 1"; each test, and each subtest
# (a "KTAP version 1" line indented two spaces deeper than its parent),
# has its plan "1..N" before its first result and exactly N results,
# numbered 1, 2, ... N; a result line is "ok N NAME" or "not ok N NAME",
# optionally followed by " # DIRECTIVE [reason]" with a directive KTAP
# knows (SKIP with ok or not ok; XFAIL; TIMEOUT and ERROR with not ok
# only; TODO is refused: KTAP does not recognise it); a name is not empty
# and holds no '#'; indentation is two spaces a level, never deeper than
# the test that is open; a subtest ends with the result line of its
# parent, one level up, and that parent is not ok when one of its
# results was not ok (without SKIP); diagnostic lines are "# TEXT" at any
# place. Stricter than KTAP for what fsbench writes: no blank or unknown
# line, no tab, no carriage return, a plan for every test.
# Output: one line per result, "KIND<TAB>DEPTH<TAB>NAME<TAB>DIRECTIVE",
# KIND pass, fail or skip (the directive and its reason, or empty), then
# "ktap: N results: P pass, F fail, S skip; top level M"; each violation
# on stderr as "ktap: FILE:LINE: what"; exit 1 when there was one.
function bad(what) {
	printf "ktap: %s:%d: %s\n", FILENAME, FNR, what > "/dev/stderr"
	errors++
}
# Close the level on top: its results must match its plan; its parent's
# next result is then the subtest's own.
function close_level() {
	if (plan[depth] < 0)
		bad("a subtest at depth " depth " ended without a plan")
	else if (count[depth] != plan[depth])
		bad("a subtest at depth " depth " has " count[depth] " results, its plan says " plan[depth])
	childfail = hasfail[depth]
	depth--
	pending[depth] = 1
	pendfail[depth] = childfail
}
BEGIN { depth = -1; errors = 0; total = 0 }
{
	line = $0
	if (line ~ /\r/) { bad("a carriage return"); next }
	if (line ~ /\t/) { bad("a tab"); next }
	match(line, /^ */)
	ind = RLENGTH
	text = substr(line, ind + 1)
	if (FNR == 1) {
		if (line != "KTAP version 1") { bad("the first line is not 'KTAP version 1': " line); exit 1 }
		depth = 0; plan[0] = -1; count[0] = 0; hasfail[0] = 0; pending[0] = 0
		next
	}
	if (text == "") { bad("a blank line"); next }
	if (ind % 2) { bad("indented by " ind " spaces, not a multiple of two"); next }
	lev = ind / 2
	if (text == "KTAP version 1") {
		if (lev == depth) { bad("a subtest starts before the result line of the one before it"); next }
		if (lev != depth + 1) { bad("a version line at depth " lev " inside a test at depth " depth); next }
		if (plan[depth] < 0) { bad("a subtest before its parent's plan"); next }
		if (pending[depth]) { bad("a subtest follows a subtest that has no result line"); next }
		depth++; plan[depth] = -1; count[depth] = 0; hasfail[depth] = 0; pending[depth] = 0
		next
	}
	if (lev > depth) { bad("indented to depth " lev " inside a test at depth " depth); next }
	while (lev < depth)
		close_level()
	if (text ~ /^#( |$)/)
		next
	if (text ~ /^1\.\.[0-9]+$/) {
		if (plan[depth] >= 0) { bad("a second plan"); next }
		if (count[depth] > 0) { bad("a plan after results"); next }
		plan[depth] = substr(text, 4) + 0
		next
	}
	if (text !~ /^(not )?ok [0-9]+( |$)/) { bad("not a KTAP line: " text); next }
	res = text ~ /^not ok / ? "not ok" : "ok"
	rest = substr(text, length(res) + 2)
	num = rest; sub(/ .*/, "", num)
	rest = substr(rest, length(num) + 1)
	dir = ""; reason = ""
	if (index(rest, " # ")) {
		tail = substr(rest, index(rest, " # ") + 3)
		rest = substr(rest, 1, index(rest, " # ") - 1)
		dir = tail; sub(/ .*/, "", dir)
		reason = substr(tail, length(dir) + 2)
		if (dir !~ /^(SKIP|XFAIL|TIMEOUT|ERROR)$/) {
			if (dir == "TODO") bad("the TODO directive (KTAP does not recognise it)")
			dir = ""; reason = tail	# diagnostic data, no directive
		}
	}
	name = rest; sub(/^ /, "", name)
	if (name == "") bad("result " num " has no name")
	if (index(name, "#")) bad("result " num "'s name holds a '#'")
	if (plan[depth] < 0) bad("a result before the plan")
	if (num + 0 != count[depth] + 1) bad("result " num " where " count[depth] + 1 " was next")
	if ((dir == "TIMEOUT" || dir == "ERROR") && res == "ok") bad("ok with the " dir " directive")
	kind = dir == "SKIP" ? "skip" : res == "ok" ? "pass" : "fail"
	if (pending[depth]) {
		if (pendfail[depth] && kind != "fail")
			bad("'" name "' is " kind " but one of its subtests is not ok")
		pending[depth] = 0
	}
	count[depth]++
	if (kind == "fail") hasfail[depth] = 1
	n[kind]++
	total++
	printf "%s\t%d\t%s\t%s\n", kind, depth, name, dir == "" ? "" : dir (reason == "" ? "" : " " reason)
}
END {
	if (depth < 0) { bad("no input"); exit 1 }
	while (depth > 0)
		close_level()
	if (pending[0]) bad("the last subtest has no result line")
	if (plan[0] < 0) bad("no plan")
	else if (count[0] != plan[0]) bad(count[0] " results at the top level, the plan says " plan[0])
	printf "ktap: %d results: %d pass, %d fail, %d skip; top level %d\n", total, n["pass"], n["fail"], n["skip"], count[0]
	exit errors ? 1 : 0
}

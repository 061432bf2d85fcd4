#!/bin/sh
# run.sh: `make install` into a scratch DESTDIR, then the installed files:
# the static runner runs and names its build, the man page renders.
# Inputs: $O (build output, default out/) with runner/fsbench and doc/fsbench.1
# (make check-install builds both first). Needs no root.
# Outputs: scratch files under $O/tests/install; one line per check, a summary.
set -eu
O=${O:-$(pwd)/out}
S=$O/tests/install
D=$S/dest
rm -rf "$S"; mkdir -p "$S"
. "$(dirname "$0")/../lib.sh"
test_init install "$S"

if make -s --no-print-directory O="$O" DESTDIR="$D" PREFIX=/opt/fsb install >"$S/install.log" 2>&1; then
	pass "make install DESTDIR=... PREFIX=/opt/fsb"
else
	fail "make install DESTDIR=... PREFIX=/opt/fsb"; tail -n 10 "$S/install.log"
fi
bin=$D/opt/fsb/bin/fsbench
man1=$D/opt/fsb/share/man/man1/fsbench.1
check "the runner at PREFIX/bin/fsbench, executable" [ -x "$bin" ]
check "the man page at PREFIX/share/man/man1/fsbench.1" [ -f "$man1" ]
check "nothing else installed" sh -c "[ \"\$(cd '$D' && find . -type f | sort | tr '\n' ' ')\" = './opt/fsb/bin/fsbench ./opt/fsb/share/man/man1/fsbench.1 ' ]"
check "the installed runner is the static one" cmp -s "$bin" "$O/runner/fsbench"
check "the man page is not executable" sh -c "[ ! -x '$man1' ]"

set +e; "$bin" --version >"$S/version" 2>&1; rc=$?; set -e
ver=$(cat "$S/version")
if [ -e .git ] && command -v git >/dev/null && want=$(git describe --always --dirty --tags 2>/dev/null); then :; else want=unknown; fi
check "installed fsbench --version: exit 0 ($rc)" [ "$rc" = 0 ]
check "--version names the version and the build: '$ver'" \
	sh -c "echo '$ver' | grep -qx 'fsbench [0-9][0-9.]* (build $want)'"
check "--version: the FSB_VERSION of runner/fsbench.h" \
	sh -c "'$bin' --version | grep -q \"^fsbench \$(sed -n 's/.*define FSB_VERSION \"\\(.*\\)\"/\\1/p' runner/fsbench.h) \""

# the man page: roff that renders, with the sections a reader looks for
check "man page: .TH fsbench 1" grep -q '^\.TH "fsbench" "1"' "$man1"
for sec in NAME SYNOPSIS COMMANDS SETTINGS "EXIT STATUS" FILES EXAMPLES; do
	check "man page: section $sec" grep -q "^\.SH $sec\$" "$man1"
done
render=
if command -v man >/dev/null && man -l --help >/dev/null 2>&1; then
	render="man -l"
	MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$man1" 2>"$S/man.err" | col -b >"$S/man.txt" || true
elif command -v groff >/dev/null; then
	render="groff -man -Tutf8"
	groff -man -Tutf8 -ww "$man1" 2>"$S/man.err" | col -b >"$S/man.txt" || true
fi
if [ -n "$render" ]; then
	check "$render: renders without warnings" sh -c "[ -s '$S/man.txt' ] && [ ! -s '$S/man.err' ]"
	check "$render: a setting and its allowed values" grep -q 'an integer from 1 to 4096' "$S/man.txt"
	check "$render: the exit codes" grep -q 'refused by the safety rules' "$S/man.txt"
	# every key of config --show has its entry (one for mkfs_opts.FS,
	# mount_opts.FS and variant.FS:NAME, whatever FS and NAME)
	missing=
	for k in $("$bin" config --show | awk '{ print $1 }' | sed -e 's/^\(mkfs_opts\|mount_opts\)\..*/\1.FS/' -e 's/^variant\..*/variant.FS:NAME/' | sort -u); do
		grep -q "^ *$k[ =]" "$S/man.txt" || grep -q "^ *$k\$" "$S/man.txt" || missing="$missing $k"
	done
	check "$render: every setting has its entry${missing:+ (missing:$missing)}" [ -z "$missing" ]
else
	skip "rendering the man page: neither man (man-db) nor groff is installed"
fi

summary

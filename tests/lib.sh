# tests/lib.sh: the one library of the shell tests (sourced, POSIX sh).
#
# Every check ends in exactly one result line:
#   PASS: what was checked
#   FAIL: what was checked (and, indented below it, the evidence)
#   SKIP: what was not checked: the reason
# and lines that carry a figure or a hint start with "INFO: ". The last line
# of a test script is its summary, "NAME: P passed, F failed, S skipped",
# and the script exits 1 when anything failed.
#
#   test_init NAME DIR   name the summary; DIR holds the captured output of
#                        the checks (created; the caller owns and cleans it)
#   pass WHAT, fail WHAT, skip WHAT, info TEXT
#   check WHAT CMD...    run CMD (output captured): PASS when it exits 0,
#                        else FAIL with the last 20 lines of its output
#   expect_rc RC WHAT CMD...  run CMD: PASS when it exits RC; its stdout and
#                        stderr are then in $OUT and $ERR
#   expect_err TEXT      PASS when the last expect_rc's stderr holds TEXT
#   contains STR SUB     true when STR holds SUB (for check)
#   have TOOL            true when TOOL is on PATH
#   summary              the summary line, with the script's wall time and
#                        its commands' processor time (user + system);
#                        returns 1 when anything failed
#   IMAGE_BUDGET_MIB     the image budget in MiB (below)
#   BRIEF                the settings a boot that checks a path (firmware,
#                        bootloader, board, harness) adds to the smoke
#                        profile: every filesystem still, one round of
#                        4 x 50 files (every phase, mkfs and mount, at
#                        an eighth of the profile's files). The smoke
#                        profile boots in make check with a quarter of
#                        its files (tests/qemu/run.sh, smoke-ext4).

T_PASS=0 T_FAIL=0 T_SKIP=0
T_START=$(date +%s)
BRIEF='fsbench.rounds=1 fsbench.files=50'
# The image budget: kernel + initramfs + rootfs contents (image/sizes.sh's
# "image total") of every board under this many MiB (the rootfs's modules
# are a squashfs image: image/stage.sh).
IMAGE_BUDGET_MIB=40
T_NAME=tests T_DIR=${TMPDIR:-/tmp}

test_init() { T_NAME=$1; T_DIR=$2; mkdir -p "$T_DIR"; }

pass() { T_PASS=$((T_PASS + 1)); echo "PASS: $*"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "FAIL: $*"; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "SKIP: $*"; }
info() { echo "INFO: $*"; }

check() {
	_d=$1; shift
	if "$@" >"$T_DIR/check.out" 2>&1; then
		pass "$_d"
	else
		fail "$_d"
		tail -n 20 "$T_DIR/check.out" | sed 's/^/     | /'
	fi
}

expect_rc() {
	_want=$1 _d=$2; shift 2
	set +e
	"$@" >"$T_DIR/out" 2>"$T_DIR/err"
	_rc=$?
	set -e
	OUT=$(cat "$T_DIR/out"); ERR=$(cat "$T_DIR/err")
	if [ "$_rc" -eq "$_want" ]; then
		pass "$_d (exit $_rc)"
	else
		fail "$_d: exit $_rc, wanted $_want"
		tail -n 5 "$T_DIR/err" | sed 's/^/     | /'
	fi
}

contains() { case "$1" in *"$2"*) return 0 ;; esac; return 1; }

expect_err() {
	if contains "$ERR" "$1"; then pass "message says: $1"
	else fail "message lacks '$1': $(echo "$ERR" | head -n 3)"; fi
}

have() { command -v "$1" >/dev/null 2>&1; }

summary() {
	# the second line of `times`: the children's user and system time
	# (run here, not in $(...): a subshell has no children of its own)
	times >"$T_DIR/times.out"
	_cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] }
		printf "%d:%02d", t / 60, t % 60 }' "$T_DIR/times.out")
	_wall=$(($(date +%s) - T_START))
	printf '%s: %s passed, %s failed, %s skipped (%d:%02d, %s cpu)\n' "$T_NAME" "$T_PASS" "$T_FAIL" "$T_SKIP" \
		$((_wall / 60)) $((_wall % 60)) "${_cpu:-?}"
	[ "$T_FAIL" -eq 0 ]
}

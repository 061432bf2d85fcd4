# lib.sh: the one message vocabulary of the scripts in image/ and qemu/
# (sourced, POSIX sh; the scripts run with set -eu).
#
#   . "$(dirname "$0")/lib.sh"        (qemu/: "$here/../image/lib.sh")
#
#   say TEXT...        "PROG: TEXT" on stdout (what the script is doing)
#   warn TEXT...       "PROG: TEXT" on stderr, and go on
#   die CODE TEXT...   "PROG: TEXT" on stderr, then exit CODE
#
# PROG is the script's name without .sh (stage, kernel, fio); the
# launcher's steps under qemu/ set prog=qemu after sourcing, since a user
# runs them as one program. One line each, the house shape of the runner's
# messages (runner/lib/msg.h): what was being done, the object, the reason.
#
# CODE is one of the runner's exit codes (runner/lib/msg.h, the README's
# table), by name:
#   EX_FAIL=1     a benchmark or verification failure
#   EX_USAGE=2    misuse: a bad argument, option, board name or input file
#                 given by the user
#   EX_REFUSED=3  refused by the safety rules
#   EX_SYSTEM=4   system failure: a tool failed or is missing, a download,
#                 a file that cannot be read or written
#   EX_ERROR=5    the test could not judge (fsbench verdict: ERROR)
# (tests/docs/vocab.sh checks these numbers against msg.h.)

EX_FAIL=1
EX_USAGE=2
EX_REFUSED=3
EX_SYSTEM=4
EX_ERROR=5

prog=$(basename "$0" .sh)

say() { printf '%s: %s\n' "$prog" "$*"; }
warn() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() {
	_code=$1
	shift
	printf '%s: %s\n' "$prog" "$*" >&2
	exit "$_code"
}

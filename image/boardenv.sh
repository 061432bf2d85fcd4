#!/bin/sh
# boardenv.sh: print a board's BOARD_* variables as shell assignments.
# Input: $1 the board.mk file. Output (stdout): export BOARD_X='value' lines,
# for scripts run outside make: eval "$(sh image/boardenv.sh board/B/board.mk)".
# The values are make's own: board.mk read through board/common/load.mk,
# with the defaults of its architecture, in a clean environment.
set -eu
. "$(dirname "$0")/lib.sh"
f=${1:?board.mk}
[ -f "$f" ] || die $EX_USAGE "no $f"
top=$(cd "$(dirname "$0")/.." && pwd)
f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
# shellcheck disable=SC2016
env -i PATH="$PATH" make -s --no-print-directory -C "$top" -f board/common/load.mk \
	board_mk="$f" --eval 'boardenv: ; @:$(foreach v,$(sort $(filter BOARD_%,$(.VARIABLES))),$(info export $(v)='"'"'$(strip $($(v)))'"'"'))' \
	boardenv

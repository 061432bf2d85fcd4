#!/bin/sh
# boardenv.sh: print a board.mk's BOARD_* variables as shell assignments.
# Input: $1 the board.mk file. Output (stdout): export BOARD_X='value' lines,
# for scripts run outside make: eval "$(sh image/boardenv.sh board/B/board.mk)".
# board.mk keeps to `NAME := value` lines (backslash continuations allowed).
set -eu
f=${1:?board.mk}
sed -e ':a' -e '/\\$/N; s/\\\n[ 	]*/ /; ta' "$f" |
	sed -n "s/^\(BOARD_[A-Z0-9_]*\)[ 	]*:\{0,1\}=[ 	]*\(.*\)$/export \1='\2'/p" |
	sed 's/[ 	]*'"'"'$/'"'"'/'

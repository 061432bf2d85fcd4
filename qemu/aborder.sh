#!/bin/sh
# aborder.sh: the order of an A/B's boots, drawn from a seed.
# Usage: qemu/aborder.sh SEED BLOCKS [FIRST]
#   SEED    an integer from 1 to 2147483646 (qemu/aborder.sh --seed draws
#           one from /dev/urandom and prints it)
#   BLOCKS  how many blocks of one A and one B
#   FIRST   the number of the first block (default 1): RUNS=auto adds
#           blocks to an A/B already begun, and block K's order is the
#           same whether it was drawn with the first blocks or later
# Output: one line per boot, "BLOCK SIDE" (e.g. "1 B", "1 A", "2 A",
#   "2 B"): each block holds one A and one B, in an order drawn from the
#   seed, so a side's position in its block is a coin toss and a drift of
#   the machine falls on both sides alike.
# The draw: Park and Miller's minimal standard generator (x <- 48271 x mod
#   2^31 - 1; every product below 2^53, so any awk computes it exactly), one
#   draw per block from the seed's stream; below half, A first. The same
#   seed gives the same order on any machine: the A/B launcher, the labgrid
#   test and the LAVA submitter all take their order from here.
# Exit status: 0; 2 on misuse.
set -eu
. "$(cd "$(dirname "$0")" && pwd)/../image/lib.sh"
if [ "${1:-}" = --seed ]; then
	s=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	echo $((s % 2147483646 + 1))
	exit 0
fi
[ $# -ge 2 ] && [ $# -le 3 ] || die "$EX_USAGE" "usage: aborder.sh SEED BLOCKS [FIRST] | aborder.sh --seed"
seed=$1 blocks=$2 first=${3:-1}
case $seed in '' | *[!0-9]*) die "$EX_USAGE" "seed '$seed': not a whole number from 1 to 2147483646" ;; esac
case $blocks in '' | *[!0-9]*) die "$EX_USAGE" "blocks '$blocks': not a whole number" ;; esac
case $first in '' | *[!0-9]* | 0) die "$EX_USAGE" "first block '$first': not a whole number from 1" ;; esac
[ "${#seed}" -le 10 ] && [ "$seed" -ge 1 ] && [ "$seed" -le 2147483646 ] ||
	die "$EX_USAGE" "seed '$seed': not a whole number from 1 to 2147483646"
awk -v seed="$seed" -v blocks="$blocks" -v first="$first" 'BEGIN {
	m = 2147483647; x = seed + 0
	for (b = 1; b < first + blocks; b++) {
		x = (x * 48271) % m
		if (b < first)
			continue
		if (x < m / 2) { print b, "A"; print b, "B" }
		else { print b, "B"; print b, "A" }
	}
}'

#!/bin/sh
# aa.sh: the A/A test of repetitions, the false-flag rate (make check-aa):
# TRIALS runs (default 20) of ext4 and a variant identical to it
# (variant.ext4:aa = mkfs:-q, the -q mkfs has already), REPEAT repetitions
# each (default 5), interleaved, on one loop device; each trial's report's
# variant-against-base table is read and its flagged rows counted. Passes
# when at least MIN trials (default 19) flag no row: a variant that is
# its base is told apart at most 1 time in 20 (a 5 % family-wise rate).
# Not part of make check (about 20 x 50 s on a busy 2-core host).
# Usage: O=out sh tests/host/aa.sh   (root, jq; TRIALS, REPEAT, MIN,
#        DIRS, FILES to change the trial)
# Inputs: $O/runner/fsbench, $O/host/fsbench; the kernel's ext4.
# Outputs: $O/tests/host-aa/trial-N.jsonl and aa.txt (one line per trial,
# then the count); touches only the loop device it makes.
set -eu
. "$(dirname "$0")/lib.sh"
# The false-flag rate is the disk's noise: on the host's disk by default.
: "${HOST_SCRATCH:=disk}"
host_start host-aa aa
TRIALS=${TRIALS:-20} REPEAT=${REPEAT:-5} MIN=${MIN:-19} DIRS=${DIRS:-4} FILES=${FILES:-500}
printf 'variant.ext4:aa = mkfs:-q\n' > "$S/aa.conf"
new_loop LA "$S/aa.img" 1G
clean=0
: > "$S/aa.txt"
t=1
while [ "$t" -le "$TRIALS" ]; do
	# the loop device is still ours (a device detached by someone else
	# and given to another test must be neither run on nor detached)
	if [ "$(losetup -n -O BACK-FILE "$LA" 2>/dev/null)" != "$S/aa.img" ]; then
		fail "aa: trial $t: $LA no longer holds $S/aa.img (detached from outside); stopping, leaving it alone"
		T_LOOPS=""
		break
	fi
	expect_rc 0 "aa: trial $t: ext4 and ext4:aa, $REPEAT repetitions" "$FSB" run --target "$LA" \
		--config "$S/aa.conf" --fs ext4,ext4:aa --repeat "$REPEAT" --dirs "$DIRS" --files "$FILES" \
		--workers "$DIRS" --rounds 1 --capacity 0 --mnt "$S/mnt" --progress 0 --yes
	grep '^{' "$T_DIR/out" > "$S/trial-$t.jsonl" || true
	"$HFSB" report "$S/trial-$t.jsonl" --format csv | grep '^versus_base,ext4:aa,' > "$S/versus-$t.csv" || true
	rows=$(wc -l < "$S/versus-$t.csv")
	flagged=$(awk -F, '$11 != "" { printf "%s%s (ratio %s, p %s, Holm %s)", n++ ? ", " : "", $5, $8, $9, $10 }' "$S/versus-$t.csv")
	echo "trial $t: $rows rows, flagged: ${flagged:-none}" | tee -a "$S/aa.txt"
	[ "$rows" -gt 0 ] || fail "aa: trial $t: no variant-against-base rows"
	[ -n "$flagged" ] || [ "$rows" -eq 0 ] || clean=$((clean + 1))
	t=$((t + 1))
done
# the cleanup detaches the device only while it still holds the file
[ "$(losetup -n -O BACK-FILE "$LA" 2>/dev/null)" = "$S/aa.img" ] || T_LOOPS=""
echo "A/A: $clean of $TRIALS trials flagged no row ($REPEAT repetitions, $DIRS x $FILES files)" | tee -a "$S/aa.txt"
check "aa: at least $MIN of $TRIALS trials flag no row (got $clean)" [ "$clean" -ge "$MIN" ]
summary

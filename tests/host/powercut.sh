#!/bin/sh
# powercut.sh: host tests of the power-cut campaign (powercut = N): the
# runner is killed (SIGKILL) at a random moment after its armed line, the
# test unmounts what it left mounted, and the next run with the same
# settings and log checks the cycle and goes on, until the campaign ends.
# On ext4, xfs and btrfs loop devices (those the kernel has; f2fs is left
# to QEMU). A process kill keeps the page cache, so nothing acknowledged
# may be lost: every cycle must be clean. Then a tampered case: after the
# kill the test truncates one acknowledged file and overwrites the middle
# of another; the check must report lost = 1 and torn = 1 naming both, and
# the verdict keys must FAIL.
# Inputs: $O holding runner/fsbench and host/fsbench; root; jq; python3; the
# filesystems' checkers (e2fsck, xfs_repair, btrfs). POWERCUT_SEED=N
# replays a run (the seed is printed).
# Outputs: scratch files under $O/tests/host-powercut; one line per check,
# INFO lines with the measured rate and times, a summary. Called by
# tests/host/run.sh; touches only its own loop device.
set -eu
. "$(dirname "$0")/lib.sh"
pid=
end_runner() { [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true; }
# python3 asks whether the kernel let the device go
host_start host-powercut "power-cut host tests" jq python3

SEED=${POWERCUT_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
info "seed $SEED (POWERCUT_SEED=$SEED replays the kill moments and the runner's seed)"
k=0
# delay MAX K: the K-th kill moment, seconds in [0, MAX), from the seed
# delay MAX K: the K-th kill's moment after the armed line, from the seed,
# 0.5 s to MAX: a kill before the first batch (100 ms) is logged would
# leave nothing acknowledged to check
delay() { awk -v s="$SEED" -v k="$2" -v m="$1" 'BEGIN { srand(s * 1000 + k); printf "%.2f", 0.5 + rand() * (m - 0.5) }'; }
now() { date +%s.%N; }

new_loop DEV "$S/target.img" 1200M
MNT=$S/mnt

# wait_line FILE TEXT SECONDS: TEXT appears in FILE, or the runner ends
wait_line() {
	_i=0
	while [ $_i -lt $(($3 * 20)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.05; _i=$((_i + 1))
	done
	return 1
}
# unmount what the killed runner left (its workers die with it), then
# wait until the kernel lets the device go (an exclusive open succeeds:
# what the runner's target check asks; btrfs may hold it a moment after
# its umount)
free_dev() { python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))' "$DEV" 2>/dev/null; }
unmount_left() {
	_i=0
	while grep -q " $MNT " /proc/self/mountinfo && [ $_i -lt 100 ]; do
		umount "$MNT" 2>/dev/null || sleep 0.1; _i=$((_i + 1))
	done
	! grep -q " $MNT " /proc/self/mountinfo || return 1
	_i=0
	while ! free_dev && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ $_i -eq 0 ] || info "$DEV free $_i x 0.1 s after the umount"
}

# campaign NAME WAIT ARGS...: runs of the runner, each killed a moment in
# [0, WAIT) s after its armed line (WAIT "window": after its window-over
# line instead), until one ends by itself; $PREKILL runs right before
# each kill, $HOOK after it, before the unmount. $S/NAME.out: every run's stdout; RC the last run's
# exit status; KILLS the kills.
campaign() {
	_n=$1 _wait=$2; shift 2
	: >"$S/$_n.out"; KILLS=0; RC=
	while [ "$KILLS" -le 10 ]; do
		t0=$(now)
		# emptied here, not only by the redirect of the runner started in
		# the background: wait_line must not find the armed line of the
		# run before (the next one's check would then be shut down, or a
		# runner that already ended killed)
		: >"$S/run.out"
		"$FSB" run --target "$DEV" --yes --log "$S/$_n.log" --mnt "$MNT" --progress 0 "$@" \
			>"$S/run.out" 2>"$S/run.err" &
		pid=$!
		if wait_line "$S/run.out" "FSBENCH-POWERCUT: armed" 120; then
			echo "$(now) $t0" >>"$S/$_n.armed"
			if [ "$_wait" = window ]; then
				wait_line "$S/run.out" "FSBENCH-POWERCUT: window over" 120 || true
			else
				k=$((k + 1)); d=$(delay "$_wait" "$k")
				echo "$d" >>"$S/$_n.delays"
				sleep "$d"
			fi
			[ -z "${PREKILL:-}" ] || $PREKILL
			# after its armed line a runner waits for the cut: one that
			# has ended is a failure, said with its output
			if ! kill -KILL "$pid" 2>/dev/null; then
				set +e; wait "$pid"; RC=$?; set -e; pid=
				cat "$S/run.out" >>"$S/$_n.out"
				fail "$_n: the runner ended (exit $RC) before its kill, after its armed line; its last lines:"
				tail -n 5 "$S/run.out" "$S/run.err" | cut -c1-300
				return 1
			fi
			set +e; wait "$pid" 2>/dev/null; set -e; pid=
			KILLS=$((KILLS + 1))
			cat "$S/run.out" >>"$S/$_n.out"
			[ -z "${HOOK:-}" ] || $HOOK
			unmount_left || { fail "$_n: $MNT still mounted after the kill"; return 1; }
			continue
		fi
		set +e; wait "$pid"; RC=$?; set -e; pid=
		cat "$S/run.out" >>"$S/$_n.out"
		return 0
	done
	fail "$_n: more than 10 kills"; return 1
}

for fs in ext4 xfs btrfs; do
	if ! grep -qw "$fs" /proc/filesystems && ! modprobe "$fs" 2>/dev/null; then
		skip "power cuts on $fs: this kernel has no $fs"; continue
	fi
	chk=$(case $fs in ext4) echo e2fsck ;; xfs) echo xfs_repair ;; btrfs) echo btrfs ;; esac)
	if ! PATH=$PATH:/sbin:/usr/sbin have "$chk"; then
		skip "power cuts on $fs: its checker $chk not found"; continue
	fi
	rm -f "$S/$fs.armed" "$S/$fs.delays"
	campaign "$fs" 2.4 --fs "$fs" --powercut 2 --powercut_window 2 --powercut_seed "$((SEED + 1))" || :
	"$HFSB" log extract "$S/$fs.log" >"$S/$fs.jsonl" 2>/dev/null
	R=$S/$fs.jsonl
	check "$fs: 2 kills, then the last run ends the campaign (exit ${RC:-none})" [ "$KILLS" -eq 2 -a "${RC:-x}" = 0 ]
	check "$fs: the armed lines, each with the cycle, the filesystem, the seed and the window" \
		[ "$(grep -c "^FSBENCH-POWERCUT: armed cycle=[12]/2 fs=$fs seed=$((SEED + 1)) window=2\$" "$S/$fs.out")" -eq 2 ]
	check "$fs: one run in the log, started once, ended once (ok)" [ "$(count "$R" '.type == "run_start"')" -eq 1 -a \
		"$(count "$R" '.type == "run_end" and .status == "ok"')" -eq 1 -a "$(jq -r .run_id "$R" | sort -u | wc -l)" -eq 1 ]
	check "$fs: the seq numbers follow each other across the boots" \
		jq -e -n '[inputs | .seq] | . == [range(length)]' "$R"
	check "$fs: each cycle's seed in the log before its first acknowledgement" jq -e -n \
		'[inputs | select(.type == "powercut_arm" or .type == "powercut_ack")] | group_by(.cycle) | length == 2 and all(.[0].type == "powercut_arm")' "$R"
	check "$fs: 2 cycles checked, nothing lost or torn (a process kill keeps the page cache), the checker clean" \
		[ "$(count "$R" ".type == \"powercut\" and .fs == \"$fs\" and .lost == 0 and .torn == 0 and .fsck == \"clean\"
			and .mount == \"ok\" and .acknowledged > 0 and .verified + .in_flight == .files and .files == 128")" -eq 2 ]
	check "$fs: the checker ran read-only before the mount" \
		[ "$(count "$R" ".type == \"powercut\" and .checks[0].when == \"before_mount\" and (.checks[0].argv | test(\"$chk\")) and .checks[0].status == 0")" -eq 2 ]
	check "$fs: fs_end ok after the last cycle" [ "$(count "$R" ".type == \"fs_end\" and .fs == \"$fs\" and .status == \"ok\"")" -eq 1 ]
	check "$fs: fsbench log check: every record of the log against the schema" "$HFSB" log check "$S/$fs.log"
	printf 'powercut_lost = 0\npowercut_torn = 0\npowercut_fsck = clean\npowercut_cycles = 2\n' >"$S/crit"
	check "$fs: the verdict keys PASS" "$HFSB" verdict "$R" --criteria "$S/crit"
	check "$fs: the report's power-cut table" sh -c "\"$HFSB\" report \"$R\" 2>/dev/null | grep -q '^## Power cuts'"
	info "$fs: $(jq -r -n '[inputs | select(.type == "powercut")] | map("cycle \(.cycle): \(.acknowledged) ops acknowledged in \(.cut_s) s, \(.ops_per_s | floor) ops/s, \(.in_flight) in flight, check \(.seconds * 1000 | floor) ms") | join("; ")' "$R")"
	info "$fs: killed $(tr '\n' ' ' <"$S/$fs.delays")s after the armed lines (window 2 s)"
	info "$fs: boot to armed line: $(awk '{ printf "%s%.2f s", (NR > 1 ? ", " : ""), $1 - $2 }' "$S/$fs.armed")"
done

# ---- a cut the filesystem sees: shut down without flushing its log ----
# (xfs_io's shutdown, XFS_IOC_GOINGDOWN, which ext4 takes too) while the
# workers write, then the kill: the journal is left to replay, as after a
# cut, and what the filesystem had not written is gone; fsync'd data must
# survive it
godown() { xfs_io -x -c shutdown "$MNT" >>"$S/godown.err" 2>&1 || echo "shutdown failed" >>"$S/godown.err"; }
if ! have xfs_io; then
	skip "power cuts by filesystem shutdown: xfs_io (xfsprogs) not found"
else
	for fs in ext4 xfs; do
		grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null || { skip "shutdown on $fs: this kernel has no $fs"; continue; }
		: >"$S/godown.err"
		PREKILL=godown campaign "$fs-down" 2.4 --fs "$fs" --powercut 2 --powercut_window 2 --powercut_seed "$((SEED + 3))" || :
		"$HFSB" log extract "$S/$fs-down.log" >"$S/$fs-down.jsonl" 2>/dev/null
		R=$S/$fs-down.jsonl
		check "$fs shut down: the shutdown took (xfs_io)" sh -c "! grep -q 'shutdown failed' '$S/godown.err'"
		check "$fs shut down: 2 kills, then the campaign ends (exit ${RC:-none})" [ "$KILLS" -eq 2 -a "${RC:-x}" = 0 ]
		check "$fs shut down: 2 cycles, nothing acknowledged lost or torn, the checker clean at last" \
			[ "$(count "$R" ".type == \"powercut\" and .lost == 0 and .torn == 0 and .fsck == \"clean\" and .mount == \"ok\"")" -eq 2 ]
		check "$fs shut down: a checker that was not clean before the mount ran again after the replay" \
			[ "$(count "$R" '.type == "powercut" and (.checks[0].result == "clean" or ((.checks | length) == 2 and .checks[1].when == "after_replay"))')" -eq 2 ]
		info "$fs shut down: $(jq -r -n '[inputs | select(.type == "powercut")] | map("cycle \(.cycle): \(.acknowledged) acknowledged, \(.in_flight) in flight, checker " + ([.checks[] | "\(.when) \(.result) (\(.status))"] | join(", "))) | join("; ")' "$R")"
	done
fi

# ---- a log without room for a cycle: nothing armed, said why ----
set +e
"$FSB" run --target "$DEV" --yes --log "$S/small.log" --log_size 64k --mnt "$MNT" --progress 0 \
	--fs ext4 --powercut 1 --powercut_window 10 >"$S/small.out" 2>"$S/small.err"
rc=$?
set -e
check "a log of 64 KiB: no cycle armed, the run fails (exit $rc)" sh -c "[ $rc -eq 1 ] && ! grep -q FSBENCH-POWERCUT '$S/small.out'"
check "a log of 64 KiB: the error names the room left and the room a cycle needs" [ "$(count "$S/small.out" '.type == "error" and .op == "powercut"
	and (.msg | test("^the log has [0-9]+ KiB left, a cycle of powercut_window=10 and powercut_batch=100 needs 472 KiB"))')" -eq 1 ]

# ---- a tampered case: one file truncated, one overwritten in the middle ----
# after the window (nothing in flight), on the filesystem the killed runner
# left mounted: the first file of worker 0 cut to half its size, 100 bytes
# of noise in the middle of the first file of worker 1
tamper() {
	[ ! -e "$S/tampered" ] || return 0
	f1=$(ls "$MNT/powercut/w00" | grep -v '\.new$' | head -n 1)
	f2=$(ls "$MNT/powercut/w01" | grep -v '\.new$' | head -n 1)
	s1=$(stat -c %s "$MNT/powercut/w00/$f1"); s2=$(stat -c %s "$MNT/powercut/w01/$f2")
	truncate -s $((s1 / 2)) "$MNT/powercut/w00/$f1"
	head -c 100 /dev/urandom | dd of="$MNT/powercut/w01/$f2" bs=1 seek=$((s2 / 2)) conv=notrunc status=none
	echo "w00/$f1 w01/$f2" >"$S/tampered"
	info "tampered: w00/$f1 cut from $s1 to $((s1 / 2)) bytes, w01/$f2 ($s2 bytes) overwritten at $((s2 / 2))"
}
if grep -qw ext4 /proc/filesystems || modprobe ext4 2>/dev/null; then
	rm -f "$S/tampered"
	HOOK=tamper campaign tamper window --fs ext4 --powercut 1 --powercut_window 1 --powercut_seed "$((SEED + 2))" || :
	"$HFSB" log extract "$S/tamper.log" >"$S/tamper.jsonl" 2>/dev/null
	R=$S/tamper.jsonl
	lost=none torn=none
	[ ! -e "$S/tampered" ] || read -r lost torn <"$S/tampered"
	check "tampered: one kill, then the check fails the run (exit ${RC:-none})" [ "$KILLS" -eq 1 -a "${RC:-x}" = 1 ]
	check "tampered: lost = 1 and torn = 1, nothing in flight after the window" [ "$(count "$R" '.type == "powercut"
		and .lost == 1 and .torn == 1 and .final == true and .in_flight == 0 and .verified == .files - 2')" -eq 1 ]
	check "tampered: the record names $lost lost (cut to half) and $torn torn" [ "$(count "$R" ".type == \"powercut\"
		and ([.bad[] | select(.file == \"$lost\" and .class == \"lost\" and .size * 2 <= .expected_size)] | length) == 1
		and ([.bad[] | select(.file == \"$torn\" and .class == \"torn\" and .size == .expected_size)] | length) == 1")" -eq 1 ]
	check "tampered: the run ends failed, fs_end failed" [ "$(count "$R" '(.type == "run_end" or .type == "fs_end") and .status == "failed"')" -eq 2 ]
	check "tampered: fsbench log check" "$HFSB" log check "$S/tamper.log"
	printf 'powercut_lost = 0\npowercut_torn = 0\npowercut_fsck = clean\npowercut_cycles = 1\n' >"$S/crit"
	expect_rc 1 "tampered: the verdict FAILs" "$HFSB" verdict "$R" --criteria "$S/crit"
	check "tampered: each failing check names its own files: the lost one the lost, the torn one the torn" sh -c "grep -q 'files lost after power cuts: 1 ($lost); .*: FAIL' \"$S/out\" &&
		grep -q 'files torn after power cuts: 1 ($torn); .*: FAIL' \"$S/out\" && grep -q 'checker after power cuts: clean; limit clean: PASS' \"$S/out\""
else
	skip "power cuts, tampered: this kernel has no ext4"
fi
summary

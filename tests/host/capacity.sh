#!/bin/sh
# capacity.sh: host tests of the capacity check (setting capacity, on by
# default) on a 1 GiB loop device over a sparse file: honest, so the check
# passes with every field of its record as the plan says, before the
# first filesystem; the record against the schema (fsbench log check), the
# report's table, the verdict key `capacity = honest` (PASS; and with the
# check off, not measured: FAIL); nothing written without --yes, and the
# refusal says the check's signatures; on a partition, nothing outside it
# changes; no check in --dir mode. The check's
# time and I/Os on the device are printed as INFO (the cost figure).
# Inputs: $O holding runner/fsbench and host/fsbench; root; jq.
# Outputs: scratch files under $O/tests/host-capacity; one line per check
# and a summary. Called by tests/host/run.sh; touches only its own loop
# devices and tmpfs mount. Needs sfdisk and blockdev (util-linux).
set -eu
. "$(dirname "$0")/lib.sh"
host_start host-capacity "capacity host tests" jq
# val FILE FILTER: FILTER of FILE's capacity record (one a line)
val() { jq -n -r "[inputs | select(.type == \"capacity\")] | if length == 1 then .[0] | $2 else \"\(length) capacity records\" end" "$1"; }

GiB=1073741824
new_loop L "$S/disk.img" 1G
mark "$L"
before=$(fingerprint "$L")

# ---- without --yes: nothing written, and the message says what would be ----
expect_rc 3 "no --yes: refused" "$FSB" run --target "$L" --fs ext4 --smallfile 0 --mnt "$S/mnt"
expect_err "with the capacity check's signatures across the whole device, then mkfs ext4"
expect_err "add --yes"
check "no --yes: the device is untouched" [ "$(fingerprint "$L")" = "$before" ]
expect_rc 3 "capacity = 0, no --yes: refused" "$FSB" run --target "$L" --fs ext4 --smallfile 0 \
	--capacity 0 --mnt "$S/mnt"
check "capacity = 0: the refusal does not name the check" sh -c '! echo "$1" | grep -q "capacity check"' _ "$ERR"

# ---- an honest device: the check passes, the filesystems follow ----
expect_rc 0 "honest 1 GiB loop device: run with the check (on by default)" "$FSB" run --target "$L" \
	--fs ext4 --dirs 1 --files 10 --rounds 1 --workers 1 --progress 0 --mnt "$S/mnt" --yes --log "$S/run.log"
cp "$S/out" "$S/run.jsonl"; cp "$S/err" "$S/run.err"
check "stderr: the check says what it writes and that the device is honest" \
	grep -q "^fsbench: capacity: $L: honest, 1.0 GiB verified" "$S/run.err"
order=$(jq -n -r '[inputs | .type] | map(select(. == "health" or . == "capacity" or . == "fs_start")) | join(" ")' "$S/run.jsonl")
check "the check runs after the health record before, before the first filesystem ($order)" \
	[ "$order" = "health capacity fs_start health" ]
check "record: device, honest, claimed = verified = 1 GiB" \
	[ "$(val "$S/run.jsonl" '"\(.device) \(.honest) \(.claimed_bytes) \(.verified_bytes)"')" = "$L true $GiB $GiB" ]
# the plan for 1 GiB: the dense first MiB (256 blocks, one write and one
# read), a grid block every MiB (1023) and the last block, one flush
check "record: stride 1 MiB, 1280 signatures written and read, 2051 I/Os, no bisection, no bad block" \
	[ "$(val "$S/run.jsonl" '"\(.stride_bytes) \(.signatures_written) \(.signatures_read) \(.ios) \(.steps) \(.bad_blocks)"')" = "1048576 1280 1280 2051 0 0" ]
check "record: no aliasing offset, no first bad offset" \
	[ "$(val "$S/run.jsonl" '[has("alias_offset"), has("alias_of"), has("first_bad"), has("found")] | map(tostring) | join(" ")')" = "false false false false" ]
expect_rc 0 "the records (stdout) against the schema" "$HFSB" log check "$S/run.jsonl"
expect_rc 0 "the records (results log) against the schema" "$HFSB" log check "$S/run.log"
secs=$(val "$S/run.jsonl" .seconds)
ios=$(val "$S/run.jsonl" .ios)
info "capacity check on a 1 GiB loop device (--direct-io=on, sparse file): $secs s, $ios I/Os ($(awk -v s="$secs" -v n="$ios" 'BEGIN { printf "%.0f us an I/O", s / n * 1e6 }'))"
check "the check took under a minute" awk -v s="$secs" 'BEGIN { exit !(s > 0 && s < 60) }'

# ---- the report and the verdict ----
expect_rc 0 "report --format csv" "$HFSB" report "$S/run.jsonl" --format csv
check "report: the capacity row (device, claimed, verified, honest)" \
	contains "$OUT" "capacity,$L,$GiB,$GiB,yes,"
expect_rc 0 "report (Markdown)" "$HFSB" report "$S/run.jsonl"
check "report: the capacity table" contains "$OUT" "Capacity: does the target hold what it claims"
printf 'capacity = honest\n' >"$S/honest.criteria"
expect_rc 0 "verdict capacity = honest: PASS" "$HFSB" verdict "$S/run.jsonl" --criteria "$S/honest.criteria"
check "verdict: the check names the size verified" \
	contains "$OUT" "the target holds the size it claims (capacity check): honest: 1.0 GiB of 1.0 GiB verified; limit honest: PASS"
expect_rc 0 "write-criteria from the run" "$HFSB" verdict "$S/run.jsonl" --write-criteria
check "write-criteria: capacity = honest" sh -c 'echo "$1" | grep -qx "capacity = honest"' _ "$OUT"

# ---- the check off: no record, the key not measured ----
expect_rc 0 "capacity = 0: run" "$FSB" run --target "$L" --fs ext4 --smallfile 0 --mnt "$S/mnt" --yes --capacity 0
cp "$S/out" "$S/off.jsonl"
check "capacity = 0: no capacity record" [ "$(val "$S/off.jsonl" .)" = "0 capacity records" ]
check "capacity = 0: run_start's config says capacity 0" \
	[ "$(jq -n -r '[inputs | select(.type == "run_start")][0].config.capacity' "$S/off.jsonl")" = 0 ]
expect_rc 1 "capacity = 0: verdict capacity = honest FAILs" "$HFSB" verdict "$S/off.jsonl" --criteria "$S/honest.criteria"
check "verdict: not measured, and why" contains "$OUT" "not measured (no capacity record: the setting capacity was off, or a --dir run)"

# ---- a partition: the check stays inside it ----
# A GPT disk of three partitions, the check (and the mkfs) on the middle
# one: the partitions before and after it, the partition table and its
# backup at the disk's end are the same bytes after the run.
truncate -s 1100M "$S/parts.img"
printf 'label: gpt\n,16M,L\n,1040M,L\n,,L\n' | sfdisk -q "$S/parts.img" >/dev/null
LP=$(losetup --find --show --partscan --direct-io=on "$S/parts.img"); remember_loop "$LP" "$S/parts.img"
part_node P1 "$LP" 1; part_node P2 "$LP" 2; part_node P3 "$LP" 3
mark "$P1"; mark "$P3"
dd if=/dev/urandom of="$P3" bs=1M seek=40 count=2 conv=fsync status=none	# its last MiB too
# around: a checksum of everything on the disk but the middle partition
around() {
	{ cat "$P1" "$P3"; dd if="$LP" bs=1M count=1 status=none
	  dd if="$LP" bs=1M skip=1099 status=none; } | cksum
}
was=$(around)
p2=$(blockdev --getsize64 "$P2")
expect_rc 0 "partition 2 of 3: run with the check" "$FSB" run --target "$P2" --fs ext4 --smallfile 0 \
	--mnt "$S/mnt" --yes --progress 0
check "partition: the record checked the partition's $p2 bytes, honest" \
	[ "$(val "$S/out" '"\(.device) \(.claimed_bytes) \(.verified_bytes) \(.honest)"')" = "$P2 $p2 $p2 true" ]
check "partition: the other partitions, the table and its backup are untouched" [ "$(around)" = "$was" ]

# ---- --dir: no device, no check ----
mkdir -p "$S/tmpfs"; mount -t tmpfs -o size=64m fsbench-test "$S/tmpfs"; remember_mount "$S/tmpfs"
expect_rc 0 "--dir run" "$FSB" run --dir "$S/tmpfs" --dirs 1 --files 10 --rounds 1 --workers 1 --progress 0
check "--dir: no capacity record" [ "$(val "$S/out" .)" = "0 capacity records" ]

summary

#!/bin/sh
# fileserver.sh: host tests of the file-server workload (setting
# fileserver, run/engine/fileserver.c) and of fresh against fragmented
# (fileserver_aged): on a 1 GiB loop device, ext4, XFS and btrfs each run
# the workload (200 files of mean 128 KiB, 4 workers, 2 s) fresh, then
# after the fill's aging (to 50 %, 30 % deleted, twice): six `fileserver`
# records, each ok with every operation done and every byte checked, the
# aged one holding its aging; the records against the schema; the
# report's table and ranking; the verdict keys; LAVA's lines; a fileset
# that does not fit refused with its sizes. Prints each run's ops/s and
# append p99, and each over ext4's, as INFO.
# Inputs: $O holding runner/fsbench and host/fsbench; root; jq.
# Outputs: scratch files under $O/tests/host-fileserver; one line per check
# and a summary. Called by tests/host/run.sh; touches only its own loop
# device. FILESERVER_FS= picks the filesystems (default ext4,xfs,btrfs).
set -eu
. "$(dirname "$0")/lib.sh"
host_start host-fileserver "file-server host tests" jq

FS=${FILESERVER_FS:-ext4,xfs,btrfs}
NFS=$(echo "$FS" | tr ',' '\n' | wc -l)
new_loop L "$S/disk.img" 1G
t0=$(date +%s)
expect_rc 0 "fileserver: fresh and aged on $FS" "$FSB" run --target "$L" --fs "$FS" --smallfile 0 \
	--fileserver 1 --fileserver_aged 1 --fileserver_seconds 2 --fill_pct 50 --fill_delete_pct 30 \
	--lava 1 --mnt "$S/mnt" --progress 0 --capacity 0 --control 0 --yes
t1=$(date +%s)
grep '^{' "$T_DIR/out" >"$S/run.jsonl" || true
jq -c 'select(.type == "fileserver")' "$S/run.jsonl" >"$S/fsv.jsonl" || true
grep '^FSBENCH-RESULT: test_case_id=fileserver-' "$T_DIR/out" >"$S/lava.txt" || true
info "fileserver: the run took $((t1 - t0)) s"
check "fileserver: a record per filesystem and state, in order, each ok" \
	[ "$(jq -r 'select(.type == "fileserver") | "\(.fs) \(.state) \(.status)"' "$S/run.jsonl" | tr '\n' ,)" = \
	"$(echo "$FS" | tr ',' '\n' | while read -r f; do printf '%s fresh ok,%s aged ok,' "$f" "$f"; done)" ]
check "fileserver: every operation done and timed, every byte checked, no error" [ "$(count "$S/run.jsonl" \
	'.type == "fileserver" and .files == 200 and .dirwidth == 20 and .dirs == 10 and .workers == 4
	and .runtime == 2 and .seconds >= 1.9 and .seconds < 4 and .verified == true and .errors == 0
	and .verify_errors == 0 and .prealloc_files > 140 and .prealloc_files < 190
	and ([.create, .append, .read, .delete, .stat] | all(.ops > 0 and .lat_ns.p50 > 0
		and .lat_ns.p99 >= .lat_ns.p50 and .lat_ns.max >= .lat_ns.p99 and .lat_ns.ops == .ops))
	and .ops == (.create.ops + .append.ops + .read.ops + .delete.ops + .stat.ops)
	and .read.bytes == .bytes_read and .bytes_written == .create.bytes + .append.bytes')" -eq $((2 * NFS)) ]
check "fileserver: the aged runs follow the aging, on a fuller filesystem than fresh" [ "$(jq -s '
	[ group_by(.fs)[] | select(length == 2) | (map(select(.state == "fresh"))[0]) as $f
	  | (map(select(.state == "aged"))[0]) as $a
	  | select($a.aging.written > 0 and $a.aging.deleted > 0 and $a.aging.peak >= 0.45
		and $a.aging.fill_pct == 50 and $a.aging.delete_pct == 30
		and $a.level > $f.level + 0.2 and ($f | has("aging") | not)) ] | length' "$S/fsv.jsonl")" -eq "$NFS" ]
check "fileserver: the mount point is unmounted after the run" sh -c "! grep -q ' $S/mnt ' /proc/self/mountinfo"
check "fileserver: the records pass the schema" sh -c "[ -s '$S/run.jsonl' ] && '$HFSB' log check '$S/run.jsonl'"
check "fileserver: LAVA: two lines per record, passing" [ "$(grep -c 'result=pass measurement=' "$S/lava.txt")" -eq $((4 * NFS)) ]
"$HFSB" report "$S/run.jsonl" >"$S/report.md" 2>&1 || true
check "fileserver: the report's table: a row per filesystem and state" \
	[ "$(grep -c '^| \(ext4\|xfs\|btrfs\) *| \(fresh\|aged\) .* ok, every byte checked' "$S/report.md")" -eq $((2 * NFS)) ]
check "fileserver: the report says whether the ranking changed" \
	sh -c "grep -q '^Ranking by operations per second: fresh .*; aged .*: the \(same order\|order changed\)' '$S/report.md'"
printf 'min_fileserver_ops_per_s = 1\nmax_fileserver_append_p99_ms = 100000\n' >"$S/ok.conf"
expect_rc 0 "fileserver: the verdict keys pass on loose limits" "$HFSB" verdict "$S/run.jsonl" --criteria "$S/ok.conf"
check "fileserver: a check per record and key" [ "$(grep -c ' file server (\(fresh\|aged\)): .*: PASS$' "$T_DIR/out")" -eq $((4 * NFS)) ]
printf 'min_fileserver_ops_per_s = 100000000\n' >"$S/bad.conf"
expect_rc 1 "fileserver: the verdict fails a floor no run reaches" "$HFSB" verdict "$S/run.jsonl" --criteria "$S/bad.conf"
# the figures, and each over ext4's in the same state
jq -r -s 'map(select(.type == "fileserver")) | . as $all | .[] | .state as $st
	| (first($all[] | select(.fs == "ext4" and .state == $st)) // null) as $e
	| "INFO: fileserver \(.fs) \(.state): \(.ops_per_s | floor) ops/s, append p99 \(.append.lat_ns.p99 / 1e6) ms"
	  + (if $e then ", ops/s x\(.ops_per_s / $e.ops_per_s * 100 | floor / 100) of ext4" else "" end)' "$S/run.jsonl"
grep '^Ranking' "$S/report.md" | sed 's/^/INFO: /'

# the small-file rounds too: round 1 fresh, round 2 again after the aging
new_loop L3 "$S/rounds.img" 1G
expect_rc 0 "fileserver: with the small-file rounds, on ext4 and xfs" "$FSB" run --target "$L3" --fs ext4,xfs \
	--dirs 2 --files 200 --workers 2 --rounds 1 --fileserver 1 --fileserver_aged 1 --fileserver_seconds 1 \
	--fill_pct 40 --mnt "$S/mnt" --progress 0 --capacity 0 --control 0 --yes
grep '^{' "$T_DIR/out" >"$S/rounds.jsonl" || true
check "fileserver: round 1's phases fresh, round 2's after the aging, after both file-server runs" [ "$(jq -s -r '
	[ .[] | select(.type == "phase" or .type == "fileserver") | "\(.fs) \(.type) \(.round // .state) \(.after_aging // false)" ]
	| group_by(.) | map(.[0] + " x\(length)") | join(",")' "$S/rounds.jsonl")" = \
	"ext4 fileserver aged false x1,ext4 fileserver fresh false x1,ext4 phase 1 false x6,ext4 phase 2 true x6,xfs fileserver aged false x1,xfs fileserver fresh false x1,xfs phase 1 false x6,xfs phase 2 true x6" ]
check "fileserver: the phases of round 2 follow the aged file-server run" [ "$(jq -s '[ .[] | select(.type == "phase" or .type == "fileserver")
	| "\(.type)/\(.round // .state)" ] | map(select(. != "phase/1")) | unique | length' "$S/rounds.jsonl")" -eq 3 ]
check "fileserver: the records pass the schema" sh -c "[ -s '$S/rounds.jsonl' ] && '$HFSB' log check '$S/rounds.jsonl'"
"$HFSB" report "$S/rounds.jsonl" >"$S/rounds.md" 2>&1 || true
check "fileserver: the report ranks the small-file phases fresh and after the aging" \
	[ "$(grep -c '^Small files, ranking by \(create\|read\|delete\) seconds: fresh (round 1) .*; after the aging (round 2) ' "$S/rounds.md")" -eq 3 ]
grep '^Small files' "$S/rounds.md" | sed 's/^/INFO: /'

# a fileset that does not fit: refused with the sizes, the filesystem failed
# (a device of its own: the kernel may still hold the first one a moment)
new_loop L2 "$S/small.img" 1G
expect_rc 1 "fileserver: a fileset larger than the filesystem fails" "$FSB" run --target "$L2" --fs ext4 \
	--smallfile 0 --fileserver 1 --fileserver_files 100 --fileserver_size 20M --mnt "$S/mnt" \
	--progress 0 --capacity 0 --control 0 --yes
check "fileserver: its record says the fileset's and the free space's sizes" [ "$(printf '%s\n' "$OUT" | count /dev/stdin \
	'.type == "fileserver" and .status == "failed" and (.msg | test("fileset needs [0-9]+ MiB .* has [0-9]+ MiB free"))')" -eq 1 ]
summary

#!/bin/sh
# aging.sh: the aging study of runner/SUITE.md (issue 31): which mechanism,
# if any, makes ext4's cold read by file name slower after a create/delete
# cycle. Each combination of the create settings (create_lockstep 0/1 x
# create_cpu free/pinned/migrate) is one run of three columns: ext4 with
# mb_stream_req 16 (its default, set explicitly) and 0, through the
# variants ext4:s16 and ext4:s0 (`variant.ext4:s0 = sysfs:mb_stream_req=0`),
# and XFS, the control that should not age. Not part of `make check`: a
# measurement, minutes on the host, hours in a guest under TCG.
#
# Usage (as root, from the top of the tree):
#   O=out sh tests/host/aging.sh host     on a loop device (--direct-io=on)
#                                         over a sparse file on $O's disk
#   O=out sh tests/host/aging.sh qemu     in a QEMU guest of AGING_SMP vCPUs,
#                                         one boot a combination
#   sh tests/host/aging.sh table DIR...   the table of runs already made
# Inputs (environment): O (build output: $O/host/fsbench, and for qemu
# $O/image/qemu-x86_64/disk-ext4.img from `make image`), AGING_DIRS (16),
# AGING_FILES (2000 a directory), AGING_ROUNDS (3), AGING_SIZE (the
# target, 4G), AGING_LOCKSTEP ("0 1"), AGING_CPU ("free pinned migrate"),
# AGING_FS (ext4:s16,ext4:s0,xfs), AGING_SMP (16), AGING_TIMEOUT (a boot's
# limit, 10800 s), AGING_EXTRA (more KEY=VALUE settings, e.g. freespace=0
# to spare a guest the e4defrag scans), AGING_OUT (the runs' folder,
# $O/aging-MODE).
# Outputs: AGING_OUT/lockL-CPU/ (records.jsonl: the run's records; stderr
# or the launcher's run.txt), AGING_OUT/table.md: per combination and
# column, the `layout` record's name-order near (share of name-consecutive
# files of d0000 within 64 KiB after the previous one) and median jump in
# 4 KiB blocks per round, the read by name per round (seconds), the aged
# rounds' median against round 1 (fresh) and the aged inode-order read.
# Touches only the loop device it makes (host) and the launcher's own
# target file (qemu); never a global drop_caches.
set -eu
mode=${1:-}
[ $# -gt 0 ] && shift
O=${O:-$(pwd)/out}
DIRS=${AGING_DIRS:-16}
FILES=${AGING_FILES:-2000}
ROUNDS=${AGING_ROUNDS:-3}
SIZE=${AGING_SIZE:-4G}
LOCKS=${AGING_LOCKSTEP:-0 1}
CPUS=${AGING_CPU:-free pinned migrate}
FS=${AGING_FS:-ext4:s16,ext4:s0,xfs}
SMP=${AGING_SMP:-16}
OUT=${AGING_OUT:-$O/aging-$mode}

# table DIR...: one Markdown row per run folder and column
table() {
	printf '| run | column | near %% r1 / r2 / r3 | median jump r1 / r2 / r3 | read by name r1 / r2 / r3 (s) | aged / fresh | read inode order, aged (s) |\n'
	printf '|---|---|---|---|---|---:|---:|\n'
	for d in "$@"; do
		[ -d "$d" ] || continue
		[ -s "$d/records.jsonl" ] || { echo "| $(basename "$d") | (no records) | | | | | |"; continue; }
		jq -rs --arg run "$(basename "$d")" '
		def f2: (. * 100 | round / 100 | tostring);
		def f1: (. * 1000 | round / 10 | tostring);
		def med: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		. as $all | [$all[] | select(.type == "fs_start") | .fs] | unique[] as $fs |
		[$all[] | select(.type == "layout" and .fs == $fs)] as $lay |
		[$all[] | select(.type == "phase" and .fs == $fs and .phase == "read")] as $rd |
		[$all[] | select(.type == "phase" and .fs == $fs and .phase == "read_inode" and .round > 1) | .seconds] as $ri |
		([$rd[] | select(.round > 1) | .seconds] | med) as $aged |
		([$rd[] | select(.round == 1) | .seconds] | .[0]) as $fresh |
		"| \($run) | \($fs) | \([$lay[] | .name_order.near // 0 | f1] | join(" / "))" +
		" | \([$lay[] | .name_order.median_jump_blocks // 0 | tostring] | join(" / "))" +
		" | \([$rd[] | .seconds | f2] | join(" / "))" +
		" | \(if $aged and $fresh and $fresh > 0 then ($aged / $fresh | f2) else "-" end)" +
		" | \(if ($ri | length) > 0 then ($ri | med | f2) else "-" end) |"' "$d/records.jsonl"
	done
}

# the settings of one combination, as KEY=VALUE words
words() {
	echo "fs=$FS variant.ext4:s16=sysfs:mb_stream_req=16 variant.ext4:s0=sysfs:mb_stream_req=0" \
		"dirs=$DIRS workers=$DIRS files=$FILES file_size=4096 rounds=$ROUNDS" \
		"create_lockstep=$1 create_cpu=$2 capacity=0 fstrim=0 control=0 progress=0" \
		"${AGING_EXTRA:-}"
}

case $mode in
table)
	table "$@"
	exit 0
	;;
host)
	[ "$(id -u)" = 0 ] || { echo "aging.sh: host: needs root (loop devices, mount)" >&2; exit 2; }
	command -v jq >/dev/null || { echo "aging.sh: jq not found" >&2; exit 2; }
	FSB=${FSBENCH:-$O/host/fsbench}
	[ -x "$FSB" ] || { echo "aging.sh: $FSB: not built (make O=$O host)" >&2; exit 2; }
	mkdir -p "$OUT"
	img=$OUT/target.img
	rm -f "$img"
	truncate -s "$SIZE" "$img"
	loop=$(losetup --find --show --direct-io=on "$img")
	# detach only the device made here, while it still holds our file
	trap 'if [ "$(losetup -n -O BACK-FILE "$loop" 2>/dev/null)" = "$(readlink -f "$img")" ]; then
		umount "$OUT/mnt" 2>/dev/null || true; losetup -d "$loop"; fi; rm -f "$img"' EXIT INT TERM
	mkdir -p "$OUT/mnt"
	echo "aging.sh: $loop over $img ($SIZE, direct I/O), $(uname -r), $(nproc) CPUs"
	for l in $LOCKS; do
		for c in $CPUS; do
			d=$OUT/lock$l-$c
			mkdir -p "$d"
			set --
			for w in $(words "$l" "$c"); do set -- "$@" "--${w%%=*}" "${w#*=}"; done
			t0=$(date +%s)
			"$FSB" run --target "$loop" --yes --mnt "$OUT/mnt" "$@" >"$d/records.jsonl" 2>"$d/stderr" ||
				echo "aging.sh: lock$l-$c: fsbench exit $? (see $d/stderr)"
			echo "aging.sh: lock$l-$c: $(( $(date +%s) - t0 )) s"
		done
	done
	;;
qemu)
	command -v jq >/dev/null || { echo "aging.sh: jq not found" >&2; exit 2; }
	IMG=${AGING_DISK:-$O/image/qemu-x86_64/disk-ext4.img}
	[ -s "$IMG" ] || { echo "aging.sh: $IMG: not built (make O=$O image)" >&2; exit 2; }
	mkdir -p "$OUT"
	for l in $LOCKS; do
		for c in $CPUS; do
			d=$OUT/lock$l-$c
			rm -rf "$d"
			app=""
			for w in $(words "$l" "$c"); do app="$app fsbench.$w"; done
			t0=$(date +%s)
			O=$O sh qemu/run.sh --disk "$IMG" --accel tcg --smp "$SMP" --mem 4096 --quiet \
				--criteria none --target-size "$SIZE" --timeout "${AGING_TIMEOUT:-10800}" \
				--results "$d" --append "${app# }" >"$OUT/lock$l-$c.out" 2>&1 ||
				echo "aging.sh: lock$l-$c: launcher exit $? (see $OUT/lock$l-$c.out)"
			echo "aging.sh: lock$l-$c: $(( $(date +%s) - t0 )) s"
		done
	done
	;;
*)
	echo "usage: sh tests/host/aging.sh host|qemu|table DIR..." >&2
	exit 2
	;;
esac
table "$OUT"/lock* >"$OUT/table.md"
cat "$OUT/table.md"

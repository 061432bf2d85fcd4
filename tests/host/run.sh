#!/bin/sh
# run.sh: host integration tests of the runner, on loop devices over sparse
# files (--direct-io=on, as in the reference setup).
# Inputs: $O (build output, default out/) holding runner/fsbench and host/fsbench.
# Outputs: scratch files under $O/tests/host; one line per check, a summary.
# Needs root (loop devices, mount). Touches only the loop devices it makes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
O=${O:-$(pwd)/out}
FSB=$O/runner/fsbench
HFSB=$O/host/fsbench
S=$O/tests/host
rm -rf "$S"; mkdir -p "$S"
trap cleanup EXIT INT TERM
test_init host "$S"

if [ "$(id -u)" != 0 ]; then
	skip "host tests: need root for loop devices and mount"; summary; exit $?
fi
[ -x "$FSB" ] || { echo "host tests: $FSB missing (make runner)"; exit 1; }

# ---- reading phase records (awk; one line per record that breaks a rule) ----
# phase_times FILE: seconds is the workers' span plus the timed syncfs
# (create, delete: sync_seconds > 0), and the span holds every worker's time
phase_times() {
	awk '/"type":"phase"/ {
		id = "?"; if (match($0, /"fs":"[^"]*","round":[0-9]*,"phase":"[a-z_]*"/)) id = substr($0, RSTART, RLENGTH)
		if (!match($0, /,"seconds":[-0-9.e+]+/)) { print id ": no seconds"; next }
		sec = substr($0, RSTART + 11, RLENGTH - 11) + 0
		if (!match($0, /"span_seconds":[-0-9.e+]+/)) { print id ": no span_seconds"; next }
		span = substr($0, RSTART + 15, RLENGTH - 15) + 0
		sync = 0; synced = match($0, /"sync_seconds":[-0-9.e+]+/)
		if (synced) sync = substr($0, RSTART + 15, RLENGTH - 15) + 0
		if ((id ~ /"phase":"(create|delete)"/) != (synced && sync > 0)) print id ": sync_seconds " sync
		d = sec - sync - span; if (d < 0) d = -d
		if (d > 2e-8 * sec + 1e-12) print id ": seconds " sec " - sync_seconds " sync " != span_seconds " span
		if (!match($0, /"worker_seconds":\[[^]]*\]/)) { print id ": no worker_seconds"; next }
		n = split(substr($0, RSTART + 18, RLENGTH - 19), ws, ",")
		for (i = 1; i <= n; i++) if (ws[i] + 0 > span * (1 + 1e-8)) print id ": worker " i - 1 " took " ws[i] " > span_seconds " span
	}' "$1"
}
# walks FILE PHASE: per record of PHASE, how its walk of d0000 went:
# "files:name|other inodes:ascending|other|none"
walks() {
	awk -v ph="$2" '/"type":"phase"/ && index($0, "\"phase\":\"" ph "\"") {
		f = "none"; i = "none"
		if (match($0, /"walk":\{"dir":"d0000","index":\[[0-9,]*\]/)) {
			n = split(substr($0, RSTART + 31, RLENGTH - 32), a, ",")
			f = n > 1 ? "name" : "other"; for (k = 1; k <= n; k++) if (a[k] != k - 1) f = "other"
		}
		if (match($0, /"inode":\[[0-9,]*\]/)) {
			n = split(substr($0, RSTART + 9, RLENGTH - 10), a, ",")
			i = n > 1 ? "ascending" : "other"; for (k = 2; k <= n; k++) if (a[k] + 0 <= a[k - 1] + 0) i = "other"
		}
		print "files:" f " inodes:" i
	}' "$1"
}
# mounts FILE: a cold phase ran on a new mount (a mount id not seen before),
# a phase that is not cold on the mount of the phase before it
mounts() {
	awk '/"type":"phase"/ {
		id = "?"; if (match($0, /"fs":"[^"]*","round":[0-9]*,"phase":"[a-z_]*"/)) id = substr($0, RSTART, RLENGTH)
		if (!match($0, /"mnt_id":[0-9]+/)) { print id ": no mnt_id"; next }
		m = substr($0, RSTART + 9, RLENGTH - 9)
		if (index($0, "\"cold\":true")) { if (m in seen) print id ": cold, but mount " m " again" }
		else if (prev != "" && m != prev) print id ": not cold, but mount " m " after " prev
		seen[m] = 1; prev = m
	}' "$1"
}
# none "description" "lines": PASS when there are no lines, else the first few
none() {
	if [ -z "$2" ]; then pass "$1"; else fail "$1"; echo "$2" | head -n 5 | sed 's/^/     | /'; fi
}
unique_mnt_ids() { grep '"type":"phase"' "$1" | grep -q '"mnt_id_unique":true'; }

# ---- the binary ----
check "fsbench is statically linked" sh -c "file '$FSB' | grep -q 'statically linked'"
expect_rc 0 "fsbench --help" "$FSB" --help
check "help lists the commands" contains "$OUT" "report"
expect_rc 0 "fsbench run --help" "$FSB" run --help
missing=
for k in profile fs dirs files file_size workers rounds phase_timeout target dir log mnt prefix yes verify mkfs_opts.FS mount_opts.FS; do
	contains "$OUT" "  $k " || missing="$missing $k"
done
check "run --help documents every key${missing:+ (missing:$missing)}" [ -z "$missing" ]

# ---- refusals: misuse (exit 2), nothing run ----
expect_rc 2 "missing --target" "$FSB" run --profile smoke
expect_err "no target"
expect_rc 2 "bad number" "$FSB" run --target /dev/null --dirs abc
expect_err "dirs=abc: not a number; allowed: an integer from 1 to 4096"
expect_rc 2 "out of range" "$FSB" run --target /dev/null --rounds 0
expect_err "rounds=0: out of range"
expect_rc 2 "unknown fs" "$FSB" run --target /dev/null --fs ext4,zfs
expect_err "unknown filesystem 'zfs'"
expect_rc 2 "unknown option" "$FSB" run --target /dev/null --bogus 1
expect_err "unknown option '--bogus'"
expect_rc 2 "empty item in the fs list" "$FSB" run --target /dev/null --fs ext4,,xfs
expect_err "fs=ext4,,xfs: item 2 is empty"
expect_rc 2 "a filesystem listed twice" "$FSB" run --target /dev/null --fs ext4,ext4
expect_err "fs=ext4,ext4: filesystem 'ext4' is listed twice"
printf 'fs = xfs,btrfs,xfs\n' > "$S/dup.conf"
expect_rc 2 "a repeat in a config file" "$FSB" config --show --config "$S/dup.conf"
expect_err "dup.conf:1: fs=xfs,btrfs,xfs: filesystem 'xfs' is listed twice"
printf 'quiet fsbench.fs=ext4,\n' > "$S/cmdline-fs"
expect_rc 2 "an empty item on the kernel command line" "$FSB" run --target /dev/null --cmdline="$S/cmdline-fs"
expect_err "fs=ext4,: item 2 is empty"
printf 'dirs = 4\nspeed = fast\n' > "$S/bad.conf"
expect_rc 2 "unknown key in a config file" "$FSB" run --target /dev/null --config "$S/bad.conf"
expect_err "bad.conf:2: unknown key 'speed'"
printf 'quiet fsbench.workers=99 fsbench.dirs=4\n' > "$S/cmdline"
expect_rc 2 "bad value on the kernel command line" "$FSB" run --target /dev/null --cmdline="$S/cmdline"
expect_err "workers=99: more workers than dirs=4"

# ---- config layers ----
printf 'profile = smoke\nfiles = 300\nrounds = 4\n' > "$S/layer.conf"
printf 'console=ttyS0 fsbench.rounds=3 fsbench.dirs=2\n' > "$S/cmdline2"
expect_rc 0 "config --show" "$FSB" config --show --config "$S/layer.conf" --cmdline="$S/cmdline2" --dirs 3 --workers 1
check "option beats the kernel command line" sh -c "grep -q '^dirs  *= 3  *# command line' '$S/out'"
check "kernel command line beats the file" sh -c "grep -q '^rounds  *= 3  *# kernel command line' '$S/out'"
check "the file beats the profile" sh -c "grep -q '^files  *= 300  *# config file layer.conf:2' '$S/out'"
check "the profile beats the defaults" sh -c "grep -q '^file_size  *= 4096  *# profile' '$S/out'"

# ---- refusals on devices (exit 3), nothing written ----
new_loop L1 "$S/big.img" 2G
mark "$L1"; fp=$(fingerprint "$L1")
expect_rc 3 "no --yes: says what it would destroy and stops" "$FSB" run --target "$L1" --profile smoke --fs ext4
expect_err "would destroy $L1"
check "no --yes: device untouched" [ "$(fingerprint "$L1")" = "$fp" ]

new_loop LS "$S/small.img" 256M
mark "$LS"; fps=$(fingerprint "$LS")
expect_rc 3 "too small a device" "$FSB" run --target "$LS" --profile smoke --fs ext4 --yes
expect_err "too small for the profile: 256.0 MiB, needs at least 1.0 GiB"
check "too small: device untouched" [ "$(fingerprint "$LS")" = "$fps" ]
check "refusal record lists the disks" sh -c "grep -q '\"refused\":true' '$S/out' && grep -q '\"disks\":\\[' '$S/out'"

expect_rc 3 "not a block device" "$FSB" run --target "$S/big.img" --profile smoke --yes
expect_err "not a block device"
expect_rc 3 "no such device" "$FSB" run --target /dev/fsbench-none --profile smoke --yes
expect_err "No such file or directory"
check "no such device: run_start says device mode, the target as named in config" \
	sh -c "grep '\"type\":\"run_start\"' '$S/out' | grep '\"mode\":\"device\"' | grep -q '\"target\":\"/dev/fsbench-none\"'"
expect_rc 3 "target that holds the log" "$FSB" run --target "$L1" --log "$L1" --profile smoke --yes
expect_err "holds the log"
check "holds the log: device untouched" [ "$(fingerprint "$L1")" = "$fp" ]
expect_rc 3 "no disk with that serial" "$FSB" run --target serial:NO-SUCH-SERIAL --profile smoke --yes
expect_err "no disk matches"

# mounted device, and a disk holding a mounted partition
new_loop LM "$S/mounted.img" 1100M
/usr/sbin/mke2fs -q -F -t ext4 "$LM"
mkdir -p "$S/mnt-m"; mount "$LM" "$S/mnt-m"; remember_mount "$S/mnt-m"
echo keep > "$S/mnt-m/keep"
expect_rc 3 "mounted device" "$FSB" run --target "$LM" --profile smoke --yes
expect_err "is mounted at $S/mnt-m"
check "mounted device: its file survived" [ "$(cat "$S/mnt-m/keep")" = keep ]

truncate -s 1200M "$S/parted.img"
printf 'label: gpt\n,100M,L\n,,L\n' | sfdisk -q "$S/parted.img" >/dev/null
LP=$(losetup --find --show --partscan "$S/parted.img"); T_LOOPS="$T_LOOPS $LP"
part_node LP1 "$LP" 1
/usr/sbin/mke2fs -q -F -t ext4 "$LP1"
mkdir -p "$S/mnt-p"; mount "$LP1" "$S/mnt-p"; remember_mount "$S/mnt-p"
echo keep > "$S/mnt-p/keep"
expect_rc 3 "disk holding a mounted partition" "$FSB" run --target "$LP" --profile smoke --yes
expect_err "$LP1 is mounted at $S/mnt-p"
check "mounted partition: its file survived" [ "$(cat "$S/mnt-p/keep")" = keep ]

# the machine's own root disk: asked WITHOUT --yes, so even a broken check
# could only print "would destroy" (and fail this test), never format it
root_dev=$(awk '$5 == "/" { print $3; exit }' /proc/self/mountinfo)
root_path=/dev/$(basename "$(readlink -f "/sys/dev/block/$root_dev" 2>/dev/null)" 2>/dev/null)
if [ -b "$root_path" ]; then
	expect_rc 3 "the root filesystem's disk ($root_path)" "$FSB" run --target "$root_path" --profile smoke
	expect_err "root filesystem"
else
	skip "root filesystem refusal: root device $root_dev has no /dev node here"
fi

# ---- the smoke suite on every filesystem of the table the kernel has ----
fslist=
for fs in $("$HFSB" config --filesystems | cut -f1); do
	if grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null; then
		fslist=${fslist:+$fslist,}$fs
	else
		skip "$fs on the host: this kernel has no $fs (not in /proc/filesystems, modprobe $fs failed); $fs is covered by the QEMU boot test"
	fi
done
nfs=$(echo "$fslist" | tr ',' '\n' | wc -l)
expect_rc 0 "smoke suite on $fslist" "$FSB" run --target "$L1" --fs "$fslist" --profile smoke \
	--log "$S/run.log" --mnt "$S/mnt" --yes
cp "$S/out" "$S/run.stdout"; cp "$S/err" "$S/run.stderr"
expect_rc 0 "log extract" "$HFSB" log extract "$S/run.log" -o "$S/run1"
check "log extract equals stdout" cmp -s "$S/run.stdout" "$S/run1/records.jsonl"
expect_rc 0 "report (csv)" "$HFSB" report "$S/run1" --format csv
cp "$S/out" "$S/run1.csv"
for fs in $(echo "$fslist" | tr ',' ' '); do
	wrong=
	for r in 1 2; do
		for ph in create stat read read_inode delete; do
			n=$(awk -F, -v fs="$fs" -v r="$r" -v ph="$ph" '
				$1 == "rounds" && $2 == "fs" { for (i = 1; i <= NF; i++) col[$i] = i; next }
				$1 == "rounds" && $(col["fs"]) == fs && $(col["round"]) == r && $(col["phase"]) == ph {
					print $(col["files"]) "/" $(col["errors"]) "/" $(col["verify_errors"]) }' "$S/run1.csv")
			[ "$n" = "2000/0/0" ] || wrong="$wrong r$r/$ph=$n"
		done
	done
	check "$fs: every phase of both rounds present, 2000 files, no errors, verification clean${wrong:+ (files/errors/verify:$wrong)}" [ -z "$wrong" ]
done
check "read_inode phases record order inode" sh -c "grep '\"phase\":\"read_inode\"' '$S/run.stdout' | grep '\"type\":\"phase\"' | grep -c '\"order\":\"inode\"' | grep -qx $((nfs * 2))"
check "every phase is cold (remounted)" sh -c "! grep '\"type\":\"phase\"' '$S/run.stdout' | grep -q '\"cold\":false'"
check "every phase verified its reads" sh -c "grep '\"type\":\"phase\"' '$S/run.stdout' | grep '\"phase\":\"read' | grep -q '\"verified\":true'"
check "run_end ok" sh -c "grep '\"type\":\"run_end\"' '$S/run.stdout' | grep -q '\"status\":\"ok\"'"
check "mkfs and kernel versions recorded" sh -c "grep -q '\"version\":\"mke2fs' '$S/run.stdout' && grep -q '\"kernel\":\"$(uname -r)\"' '$S/run.stdout'"
check "target identity recorded (loop, direct I/O)" sh -c "grep -q '\"loop_direct_io\":true' '$S/run.stdout'"
check "progress lines on stderr" grep -q 'create: .* files/s' "$S/run.stderr"
check "latency percentiles present" sh -c "grep '\"type\":\"phase\"' '$S/run.stdout' | grep -q '\"lat_ns\":{\"p50\":[1-9]'"
check "layout record (FIEMAP) for every fs and round" sh -c "[ \$(grep '\"type\":\"layout\"' '$S/run.stdout' | grep -c '\"name_order\":{\"steps\":499,') -eq $((nfs * 2)) ]"
check "mount point left unmounted" sh -c "! grep -q ' $S/mnt ' /proc/self/mountinfo"
none "seconds is the workers' span plus the timed syncfs (create, delete)" "$(phase_times "$S/run.stdout")"
check "read_inode opens d0000's files in ascending inode order" \
	[ "$(walks "$S/run.stdout" read_inode | cut -d' ' -f2 | sort -u)" = inodes:ascending ]
check "read opens d0000's files in name order" [ "$(walks "$S/run.stdout" read | cut -d' ' -f1 | sort -u)" = files:name ]
check "create makes d0000's files in name order" [ "$(walks "$S/run.stdout" create | sort -u)" = "files:name inodes:none" ]
# health: one record before the first filesystem, one after the last; a
# loop device has no SMART log, link or temperature, and each part says so
health_order=$(awk '/"type":"health"/ { if (index($0, "\"when\":\"before\"")) { nb++; b = NR } else if (index($0, "\"when\":\"after\"")) { na++; a = NR } }
	/"type":"fs_start"/ && !f { f = NR } /"type":"fs_end"/ { e = NR }
	END { print (nb == 1 && na == 1 && f && b < f && e < a) ? "ok" : "before " nb "x at line " b ", after " na "x at line " a ", filesystems lines " f "-" e }' "$S/run.stdout")
check "health record before the first filesystem and after the last${health_order#ok}" [ "$health_order" = ok ]
for part in nvme_smart ata_smart pcie_link temperature; do
	check "loop device: health $part says not available, with the reason (both records)" \
		[ "$(grep -c "\"type\":\"health\".*\"$part\":\"not available: a loop device (the disk under its backing file is not the target)\"" "$S/run.stdout")" -eq 2 ]
done
check "loop device: the difference says not available too" \
	grep -q '"type":"health".*"when":"after".*"delta":{"nvme_smart":"not available: a loop device' "$S/run.stdout"
check "loop device: no SMART numbers in the health records" sh -c "! grep '\"type\":\"health\"' '$S/run.stdout' | grep -q 'data_units'"
check "report: the health section shows the reasons" \
	sh -c "grep -q '^health,nvme_smart,not available: a loop device' '$S/run1.csv'"

if unique_mnt_ids "$S/run.stdout"; then
	none "every cold phase ran on a new mount (mount id)" "$(mounts "$S/run.stdout")"
	check "$((nfs * 10)) phases, $((nfs * 10)) mounts" \
		[ "$(grep '"type":"phase"' "$S/run.stdout" | grep -o '"mnt_id":[0-9]*' | sort -u | wc -l)" -eq $((nfs * 10)) ]
else
	skip "remount evidence: kernel $(uname -r) gives no unique mount id (statx STATX_MNT_ID_UNIQUE, Linux 6.8); a reused id cannot tell a remount"
fi

# ---- a flipped bit is a verification failure, not a silent pass ----
expect_rc 1 "injected corruption fails the run" "$FSB" run --target "$L1" --fs ext4 --profile smoke \
	--rounds 1 --fault d0001/f0000007:100 --mnt "$S/mnt" --yes
check "verify_error names file, offset and count" sh -c "grep '\"type\":\"verify_error\"' '$S/out' | grep '\"phase\":\"read\"' | grep -q '\"file\":\"d0001/f0000007\".*\"offset\":100,\"count\":1'"
check "inode-order read catches it too" sh -c "grep '\"type\":\"verify_error\"' '$S/out' | grep -q '\"phase\":\"read_inode\"'"
check "phase record counts it" sh -c "grep '\"type\":\"phase\"' '$S/out' | grep '\"phase\":\"read\"' | grep -q '\"verify_errors\":1'"

# ---- create_order = shuffled: name order leaves the disk, every file still right ----
expect_rc 0 "shuffled creation on ext4" "$FSB" run --target "$L1" --fs ext4 --profile smoke \
	--rounds 1 --create_order shuffled --mnt "$S/mnt" --yes
cp "$S/out" "$S/shuf.stdout"
check "shuffled: the create record says order shuffled" sh -c \
	"grep '\"type\":\"phase\"' '$S/shuf.stdout' | grep '\"phase\":\"create\"' | grep -q '\"order\":\"shuffled\"'"
check "shuffled: every phase 2000 files, no errors, verification clean" sh -c \
	"[ \$(grep '\"type\":\"phase\"' '$S/shuf.stdout' | grep -c '\"files\":2000,.*\"errors\":0,\"verify_errors\":0') -eq 5 ]"
none "shuffled: seconds is the span plus the timed syncfs" "$(phase_times "$S/shuf.stdout")"
check "shuffled: create makes d0000's files out of name order" [ "$(walks "$S/shuf.stdout" create)" = "files:other inodes:none" ]
check "shuffled: read_inode opens them in inode order, which is not name order" \
	[ "$(walks "$S/shuf.stdout" read_inode)" = "files:other inodes:ascending" ]
check "shuffled: read opens them in name order, which is not inode order" \
	[ "$(walks "$S/shuf.stdout" read)" = "files:name inodes:other" ]
expect_rc 0 "shuffled: report" "$HFSB" report "$S/shuf.stdout"
check "shuffled: the layout shows name order off the disk, inode order on it" \
	contains "$OUT" "- ext4: created in shuffled order (round 1): name order is not disk order"
expect_rc 0 "name-order run: report" "$HFSB" report "$S/run.stdout"
check "name-order run: no such finding (name order follows the disk)" sh -c "! echo \"\$1\" | grep -q 'disk order'" _ "$OUT"

# ---- a full log is reported, never wrapped ----
expect_rc 1 "log too small for the run" "$FSB" run --target "$L1" --fs ext4 --profile smoke --rounds 1 \
	--log "$S/small.log" --log_size 40k --mnt "$S/mnt" --yes
expect_err "log is full"
cp "$S/out" "$S/full.stdout"
check "full log: the run still completed on stdout" sh -c "grep -q '\"type\":\"run_end\"' '$S/out'"
expect_rc 0 "full log: extract" "$HFSB" log extract "$S/small.log" -o "$S/small"
head -n 5 "$S/full.stdout" > "$S/a5"; head -n 5 "$S/small/records.jsonl" > "$S/b5"
check "full log: the records before it filled are kept" cmp -s "$S/a5" "$S/b5"

# ---- ENOSPC ends that filesystem's run, and the run goes on ----
mkdir -p "$S/tiny"; mount -t tmpfs -o size=64m,nr_inodes=300 fsbench-test "$S/tiny"; remember_mount "$S/tiny"
expect_rc 1 "out of inodes (ENOSPC) fails the run" "$FSB" run --dir "$S/tiny" --profile smoke
check "ENOSPC error record is fatal" sh -c "grep '\"type\":\"error\"' '$S/out' | grep -q '\"errno\":28.*\"fatal\":true'"
check "fs_end failed, run_end failed" sh -c "grep -q '\"type\":\"fs_end\".*\"status\":\"failed\"' '$S/out' && grep -q '\"type\":\"run_end\".*\"status\":\"failed\"' '$S/out'"

# ---- --dir: an existing directory, warm cache, said so ----
mkdir -p "$S/tmpfs"; mount -t tmpfs -o size=256m fsbench-test "$S/tmpfs"; remember_mount "$S/tmpfs"
expect_rc 0 "--dir on tmpfs" "$FSB" run --dir "$S/tmpfs" --profile smoke --log "$S/dir.log"
expect_err "warm cache"
check "--dir: phases are not cold" sh -c "grep '\"type\":\"phase\"' '$S/out' | grep -q '\"cold\":false'"
none "--dir: every phase on the same mount" "$(mounts "$S/out")"
check "--dir: the mount id is there" grep -q '"type":"phase".*"mnt_id":[0-9]' "$S/out"
none "--dir: seconds is the span plus the timed syncfs" "$(phase_times "$S/out")"
check "--dir: fs detected as tmpfs" grep -q '"fs":"tmpfs"' "$S/out"
check "--dir: directory left empty" [ -z "$(ls -A "$S/tmpfs")" ]
check "--dir: health before and after says not available, with the reason" \
	[ "$(grep -c '"type":"health".*"nvme_smart":"not available: dir mode: the directory is not a disk of its own"' "$S/out")" -eq 2 ]
expect_rc 3 "--dir that is a file, refused" "$FSB" run --dir "$S/dir.log" --profile smoke
expect_err "refusing: dir $S/dir.log: not a directory"
expect_rc 3 "--dir that does not exist, refused" "$FSB" run --dir "$S/no-such-dir" --profile smoke
expect_err "refusing: dir $S/no-such-dir: No such file or directory"

# ---- phase timeout kills the workers and fails that filesystem ----
mkdir -p "$S/big-tmpfs"; mount -t tmpfs -o size=20g fsbench-test "$S/big-tmpfs"; remember_mount "$S/big-tmpfs"
expect_rc 1 "phase timeout" "$FSB" run --dir "$S/big-tmpfs" --dirs 2 --workers 2 --files 2000000 --file_size 1 \
	--rounds 1 --phase_timeout 1 --progress 0
check "timeout error record" sh -c "grep '\"type\":\"error\"' '$S/out' | grep -q '\"op\":\"timeout\"'"

# ---- a worker's end reaches its record: the errno, or the signal ----
mkdir -p "$S/huge-tmpfs"; mount -t tmpfs -o size=64g fsbench-test "$S/huge-tmpfs"; remember_mount "$S/huge-tmpfs"
expect_rc 1 "a worker that cannot allocate its work (ulimit -v)" sh -c 'ulimit -v 32768; exec "$0" "$@"' \
	"$FSB" run --dir "$S/huge-tmpfs" --dirs 1 --workers 1 --files 10000000 --file_size 1 --rounds 1 \
	--create_order shuffled --progress 0
check "its error record carries ENOMEM, the worker's directory, fatal" sh -c \
	"grep '\"type\":\"error\"' '$S/out' | grep -q '\"phase\":\"create\",\"op\":\"alloc\",\"file\":\"d0000\",\"errno\":12,.*\"fatal\":true'"
check "the filesystem fails with the reason, not a dead worker" sh -c \
	"grep '\"type\":\"fs_end\"' '$S/out' | grep -q '\"status\":\"failed\",\"reason\":\"round 1 create: Out of memory\"'"

"$FSB" run --dir "$S/big-tmpfs" --dirs 2 --workers 2 --files 2000000 --file_size 1 --rounds 1 \
	--progress 0 >"$S/kill.out" 2>"$S/kill.err" &
fpid=$!
workers=""; i=0	# the two workers: the children of this fsbench
while [ $i -lt 200 ]; do
	workers=$(grep -l "^PPid:[[:space:]]*$fpid\$" /proc/[0-9]*/status 2>/dev/null | cut -d/ -f3 || true)
	[ "$(echo $workers | wc -w)" -ge 2 ] && break
	sleep 0.05; i=$((i + 1))
done
[ -n "$workers" ] && kill -TERM $workers
set +e; wait $fpid; rc=$?; set -e
check "workers killed by SIGTERM: the run fails (exit $rc)" [ "$rc" -eq 1 ]
check "one error record per worker, naming the signal" sh -c \
	"[ \$(grep '\"type\":\"error\"' '$S/kill.out' | grep '\"op\":\"worker\"' | grep -c '\"msg\":\"worker [01] (d000[01]) killed by signal 15 (Terminated)\",\"fatal\":true,\"worker\":[01],\"signal\":15') -eq 2 ]"
check "the filesystem fails with the worker and the signal" sh -c \
	"grep '\"type\":\"fs_end\"' '$S/kill.out' | grep -q '\"reason\":\"round 1 create: worker [01] (d000[01]) killed by signal 15'"

summary

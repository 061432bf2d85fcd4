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

if [ "$(id -u)" != 0 ]; then
	echo "SKIP host tests: need root for loop devices and mount"; exit 0
fi
[ -x "$FSB" ] || { echo "host tests: $FSB missing (make runner)"; exit 1; }

# ---- the binary ----
check "fsbench is statically linked" sh -c "file '$FSB' | grep -q 'statically linked'"
expect_rc 0 "fsbench --help" "$FSB" --help
check "help lists the commands" contains "$OUT" "report"
expect_rc 0 "fsbench run --help" "$FSB" run --help
for k in profile fs dirs files file_size workers rounds phase_timeout target dir log mnt prefix yes verify mkfs_opts.FS mount_opts.FS; do
	contains "$OUT" "  $k " || bad "run --help lacks key $k"
done
ok "run --help documents every key"

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
	for r in 1 2; do
		for ph in create stat read read_inode delete; do
			n=$(awk -F, -v fs="$fs" -v r="$r" -v ph="$ph" '
				$1 == "rounds" && $2 == "fs" { for (i = 1; i <= NF; i++) col[$i] = i; next }
				$1 == "rounds" && $(col["fs"]) == fs && $(col["round"]) == r && $(col["phase"]) == ph {
					print $(col["files"]) "/" $(col["errors"]) "/" $(col["verify_errors"]) }' "$S/run1.csv")
			[ "$n" = "2000/0/0" ] || bad "$fs round $r $ph: files/errors/verify = '$n', wanted 2000/0/0"
		done
	done
	ok "$fs: every phase of both rounds present, 2000 files, no errors, verification clean"
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
check "--dir: fs detected as tmpfs" grep -q '"fs":"tmpfs"' "$S/out"
check "--dir: directory left empty" [ -z "$(ls -A "$S/tmpfs")" ]

# ---- phase timeout kills the workers and fails that filesystem ----
mkdir -p "$S/big-tmpfs"; mount -t tmpfs -o size=20g fsbench-test "$S/big-tmpfs"; remember_mount "$S/big-tmpfs"
expect_rc 1 "phase timeout" "$FSB" run --dir "$S/big-tmpfs" --dirs 2 --workers 2 --files 2000000 --file_size 1 \
	--rounds 1 --phase_timeout 1 --progress 0
check "timeout error record" sh -c "grep '\"type\":\"error\"' '$S/out' | grep -q '\"op\":\"timeout\"'"

summary

#!/bin/sh
# run.sh: host integration tests of the runner, on loop devices over sparse
# files (--direct-io=on, as in the reference setup).
# Inputs: $O (build output, default out/) holding runner/fsbench and host/fsbench.
# Outputs: scratch files under $O/tests/host (a tmpfs while it runs: lib.sh,
# host_init); one line per check, a summary.
# Needs root (loop devices, mount) and jq (the records are read by key).
# Touches only the loop devices it makes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
host_init host

if [ "$(id -u)" != 0 ]; then
	skip "host tests: need root for loop devices and mount"; summary; exit $?
fi
[ -x "$FSB" ] || { echo "host tests: $FSB missing (make runner)"; exit 1; }
have jq || { fail "host tests: jq not found, it reads the records (Debian package jq; make deps)"; summary; exit 1; }

# ---- reading records: jq, every field found by its key ----
# count FILE FILTER: how many records of FILE (one a line) pass the jq
# FILTER; nothing (so that a comparison with a number fails) when jq cannot
# read FILE
# some FILE FILTER...: for each FILTER, a record of FILE passes it
some() {
	_f=$1; shift
	for _q in "$@"; do [ "$(count "$_f" "$_q")" -gt 0 ] || return 1; done
}
# rules FILE PROGRAM: one line per phase record that breaks a rule (the jq
# PROGRAM, run on each with $id naming it); a line saying so when FILE has
# no phase record or jq cannot read it
rules() {
	jq -n -r "[inputs | select(.type == \"phase\")]
		| if length == 0 then \"no phase record\" else .[] | \"\\(.fs) round \\(.round) \\(.phase)\" as \$id | $2 end" "$1" ||
		echo "jq could not read $1"
}
# phase_times FILE: seconds is the workers' span plus the timed syncfs
# (create, delete: sync_seconds > 0), and the span holds every worker's time
phase_times() {
	rules "$1" '
		if (.seconds | type) != "number" then "\($id): no seconds"
		elif (.span_seconds | type) != "number" then "\($id): no span_seconds"
		else .seconds as $sec | .span_seconds as $span
			| (if has("sync_seconds") then .sync_seconds else 0 end) as $sync
			| (select((.phase == "create" or .phase == "delete") != (has("sync_seconds") and $sync > 0))
				| "\($id): sync_seconds \($sync)"),
			  (($sec - $sync - $span) as $d | select((if $d < 0 then -$d else $d end) > 2e-8 * $sec + 1e-12)
				| "\($id): seconds \($sec) - sync_seconds \($sync) != span_seconds \($span)"),
			  (if (.worker_seconds | type) != "array" then "\($id): no worker_seconds"
			   else .worker_seconds | to_entries[] | select(.value > $span * (1 + 1e-8))
				| "\($id): worker \(.key) took \(.value) > span_seconds \($span)" end)
		end'
}
# walks FILE PHASE: per record of PHASE, how its walk of d0000 went:
# "files:name|other|none inodes:ascending|other|none"
walks() {
	jq -n -r --arg ph "$2" 'inputs | select(.type == "phase" and .phase == $ph)
		| (if .walk.dir == "d0000" and (.walk.index | type) == "array" then
			.walk.index as $a
			| if ($a | length) > 1 and $a == [range($a | length)] then "name" else "other" end
		   else "none" end) as $f
		| (if (.walk.inode | type) == "array" then
			.walk.inode as $a
			| if ($a | length) > 1 and all(range(1; $a | length); $a[.] > $a[. - 1]) then "ascending" else "other" end
		   else "none" end) as $i
		| "files:\($f) inodes:\($i)"' "$1" || echo "jq could not read $1"
}
# mounts FILE: a cold phase ran on a new mount (a mount id not seen before),
# a phase that is not cold on the mount of the phase before it
mounts() {
	jq -n -r 'reduce (inputs | select(.type == "phase")) as $r ({seen: {}, prev: null, out: []};
		"\($r.fs) round \($r.round) \($r.phase)" as $id
		| if ($r.mnt_id | type) != "number" then .out += ["\($id): no mnt_id"]
		  else ($r.mnt_id | tostring) as $m
			| if $r.cold == true then
				(if .seen[$m] then .out += ["\($id): cold, but mount \($m) again"] else . end)
			  elif .prev != null and $m != .prev then .out += ["\($id): not cold, but mount \($m) after \(.prev)"]
			  else . end
			| .seen[$m] = true | .prev = $m
		  end) | .out[]' "$1" || echo "jq could not read $1"
}
# none "description" "lines": PASS when there are no lines, else the first few
none() {
	if [ -z "$2" ]; then pass "$1"; else fail "$1"; echo "$2" | head -n 5 | sed 's/^/     | /'; fi
}
unique_mnt_ids() { some "$1" '.type == "phase" and .mnt_id_unique == true'; }

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
expect_err "workers=99 (kernel command line) and dirs=4 (kernel command line): more workers than dirs"

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
check "refusal record lists the disks" some "$S/out" '.type == "error" and .refused == true and (.disks | type) == "array"'

expect_rc 3 "not a block device" "$FSB" run --target "$S/big.img" --profile smoke --yes
expect_err "not a block device"
expect_rc 3 "no such device" "$FSB" run --target /dev/fsbench-none --profile smoke --yes
expect_err "No such file or directory"
check "no such device: run_start says device mode, the target as named in config" \
	some "$S/out" '.type == "run_start" and .mode == "device" and .config.target == "/dev/fsbench-none"'
expect_rc 3 "target that holds the log" "$FSB" run --target "$L1" --log "$L1" --profile smoke --yes
expect_err "holds the log"
check "holds the log: device untouched" [ "$(fingerprint "$L1")" = "$fp" ]
expect_rc 3 "no disk with that serial" "$FSB" run --target serial:NO-SUCH-SERIAL --profile smoke --yes
expect_err "no disk matches"
# target_wait: the spec is tried again for that long, then refused the same way
t0=$(date +%s%N)
expect_rc 3 "no disk with that serial, target_wait 1" "$FSB" run --target serial:NO-SUCH-SERIAL \
	--target_wait=1 --profile smoke --yes
t1=$(date +%s%N)
expect_err "no disk matches"
check "target_wait 1: refused after 1 s of waiting, not at once" [ $(((t1 - t0) / 1000000)) -ge 1000 ]

# mounted DEV TARGET WHAT: an ext4 on DEV mounted at $S/mnt-NAME with a
# file, then a run on TARGET refused (3) saying DEV is mounted there, and
# the file still there
mounted() {
	/usr/sbin/mke2fs -q -F -t ext4 "$1"
	_m=$S/mnt-$(basename "$1")
	mkdir -p "$_m"; mount "$1" "$_m"; remember_mount "$_m"
	echo keep > "$_m/keep"
	expect_rc 3 "$3" "$FSB" run --target "$2" --profile smoke --yes
	expect_err "$1 is mounted at $_m"
	check "$3: its file survived" [ "$(cat "$_m/keep")" = keep ]
}

# mounted device, and a disk holding a mounted partition
new_loop LM "$S/mounted.img" 1100M
mounted "$LM" "$LM" "mounted device"

truncate -s 1200M "$S/parted.img"
printf 'label: gpt\n,100M,L\n,,L\n' | sfdisk -q "$S/parted.img" >/dev/null
LP=$(losetup --find --show --partscan "$S/parted.img"); remember_loop "$LP" "$S/parted.img"
part_node LP1 "$LP" 1
mounted "$LP1" "$LP" "disk holding a mounted partition"

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
check "log check: every record of the smoke run (stdout and the results log) against the record schema" \
	"$HFSB" log check "$S/run.stdout" "$S/run.log"
expect_rc 0 "report (csv)" "$HFSB" report "$S/run1" --format csv
cp "$S/out" "$S/run1.csv"

# ---- the readers take the results log itself: report, verdict, compare and
# history on the log file, on a whole GPT disk image holding it and on that
# image's log partition give what they give on the extracted records ----
J=$S/run1/records.jsonl
# reader IN CMD ARGS...: `fsbench CMD ARGS` with every @IN@ as IN
reader() {
	_in=$1; shift
	_n=$#
	while [ "$_n" -gt 0 ]; do
		_a=$1; shift
		[ "$_a" != @IN@ ] || _a=$_in
		set -- "$@" "$_a"
		_n=$((_n - 1))
	done
	"$HFSB" "$@"
}
# same_reader SRC DESC CMD ARGS...: the same exit code and stdout with @IN@
# as SRC and as the records, SRC's name put as the records' (a file's name
# is in some outputs)
same_reader() {
	_src=$1 _d=$2; shift 2
	set +e
	reader "$_src" "$@" >"$S/rd.src" 2>"$S/rd.src.err"; _r1=$?
	reader "$J" "$@" >"$S/rd.j" 2>"$S/rd.j.err"; _r2=$?
	set -e
	sed -e "s#$_src#$J#g" -e "s#$(basename "$_src")#records.jsonl#g" "$S/rd.src" >"$S/rd.norm"
	check "$_d: exit $_r1 and the output of the records (exit $_r2)" \
		sh -c '[ "$1" = "$2" ] && [ -s "$3" ] && cmp "$3" "$4" || { diff "$3" "$4" | head -n 8; exit 1; }' \
		_ "$_r1" "$_r2" "$S/rd.norm" "$S/rd.j"
}
expect_rc 0 "verdict --write-criteria of the records" "$HFSB" verdict "$J" --write-criteria
cp "$S/out" "$S/run1.criteria"
truncate -s 16M "$S/gpt.img"
printf 'label: gpt\nstart=2048, size=24576, type=L, name="fsbench-log"\n' | sfdisk -q "$S/gpt.img" >/dev/null
dd if="$S/run.log" of="$S/gpt.img" bs=512 seek=2048 conv=notrunc status=none
LG=$(losetup --find --show --partscan "$S/gpt.img"); remember_loop "$LG" "$S/gpt.img"
part_node LG1 "$LG" 1
for src in "$S/run.log" "$S/gpt.img" "$LG1"; do
	case $src in "$S/run.log") what="log file" ;; "$S/gpt.img") what="GPT disk image" ;; *) what="log partition" ;; esac
	same_reader "$src" "$what: report" report @IN@
	same_reader "$src" "$what: report (csv)" report @IN@ --format csv
	same_reader "$src" "$what: report --run" report @IN@ --run "$(jq -rn 'first(inputs | .run_id)' "$J")"
	same_reader "$src" "$what: verdict" verdict @IN@ --criteria "$S/run1.criteria"
	same_reader "$src" "$what: verdict --write-criteria" verdict @IN@ --write-criteria
	same_reader "$src" "$what: compare" compare @IN@ @IN@
	same_reader "$src" "$what: history" history @IN@ --format csv
done
head -c 8192 "$HFSB" >"$S/prog.bin"
expect_rc 2 "report of a program: refused" "$HFSB" report "$S/prog.bin"
expect_err "report $S/prog.bin: not records, a results log, a serial log or a run folder (starts with 0x7f 'ELF': a program?)"
truncate -s 16M "$S/nolog.img"
printf 'label: gpt\n,,L\n' | sfdisk -q "$S/nolog.img" >/dev/null
expect_rc 2 "history of a disk image without the log partition: refused" "$HFSB" history "$S/nolog.img"
expect_err "a GPT disk image without a partition named fsbench-log"

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
check "read_inode phases record order inode" \
	[ "$(count "$S/run.stdout" '.type == "phase" and .phase == "read_inode" and .order == "inode"')" -eq $((nfs * 2)) ]
check "every phase is cold (remounted) but fstrim, which is not" \
	[ "$(count "$S/run.stdout" '.type == "phase" and (.cold != true) != (.phase == "fstrim")')" -eq 0 ]
check "fstrim after each round's delete: trim ok, bytes trimmed > 0 (a loop device discards), files and workers 0" \
	[ "$(count "$S/run.stdout" '.type == "phase" and .phase == "fstrim" and .trim == "ok" and .bytes > 0 and .files == 0 and .workers == 0')" -eq $((nfs * 2)) ]
check "run_start: the loop device's discard limits, DLFEAT not available (not NVMe)" \
	[ "$(count "$S/run.stdout" '.type == "run_start" and .target.discard.granularity > 0 and .target.discard.max_bytes > 0 and (.target.discard.dlfeat | startswith("not available: not an NVMe disk"))')" -eq 1 ]
check "discard_check: not run on a loop device, says why" \
	[ "$(count "$S/run.stdout" '.type == "discard_check" and (.status | startswith("not run: DLFEAT not available"))')" -eq 1 ]
check "control: before the first filesystem" \
	[ "$(jq -n '[inputs | select(.type == "control" or .type == "fs_start") | .type] | .[0]' "$S/run.stdout")" = '"control"' ]
check "control: at the start, 7 samples of the CPU loop, the copy and the tmpfs (a tmpfs of its own), under 10 s" \
	[ "$(count "$S/run.stdout" '.type == "control" and .after == null and (.cpu_s | length) == 7 and (.copy_s | length) == 7 and (.tmpfs_s | length) == 7 and .tmpfs == "mounted" and ([.cpu_s[], .copy_s[], .tmpfs_s[]] | all(. > 0)) and .seconds < 10')" -eq 1 ]
check "control: after each filesystem, in the run's order, 3 samples each" jq -ne \
	'[inputs] | [.[] | select(.type == "fs_end") | .fs] == [.[] | select(.type == "control" and .after != null and .samples == 3 and (.cpu_s | length) == 3 and (.tmpfs_s | length) == 3) | .after]' "$S/run.stdout"
check "control: no tmpfs left mounted or on disk under /tmp" \
	sh -c '! grep -q " /tmp/fsbench-control\." /proc/mounts && ! ls -d /tmp/fsbench-control.* 2>/dev/null'
check "control: each waited for a quiet target (yes, 0.2 s at least, under 5 s) and counted its requests during the samples" \
	[ "$(count "$S/run.stdout" '.type == "control" and (.quiet != "yes" or .quiet_wait_s < 0.2 or .quiet_wait_s >= 5 or (.target_ios | type) != "number")')" -eq 0 ]
# A target busy when the run starts: a reader of the loop device (O_DIRECT)
# for 3 s from just before the run; the control at the start waits until
# it has stopped, so none of its requests falls in the samples.
timeout 3 sh -c "while :; do dd if='$L1' of=/dev/null bs=64k count=64 iflag=direct 2>/dev/null; done" &
busy=$!
expect_rc 0 "a run started while another reader uses the target" "$FSB" run --target "$L1" --fs ext4 --profile smoke \
	--files 20 --rounds 1 --capacity 0 --progress 0 --yes
wait "$busy" 2>/dev/null || true
w=$(jq -n 'first(inputs | select(.type == "control" and .after == null)) | "\(.quiet) \(.quiet_wait_s) \(.target_ios)"' "$S/out")
check "control: the start's samples waited for the reader to stop (quiet, waited, requests: $w)" \
	[ "$(count "$S/out" '.type == "control" and .after == null and .quiet == "yes" and .quiet_wait_s >= 1.5 and .target_ios == 0')" -eq 1 ]
check "every phase verified its reads" sh -c '[ "$1" -gt 0 ] && [ "$2" -eq 0 ]' _ \
	"$(count "$S/run.stdout" '.type == "phase" and (.phase | startswith("read"))')" \
	"$(count "$S/run.stdout" '.type == "phase" and (.phase | startswith("read")) and .verified != true')"
check "run_end ok" some "$S/run.stdout" '.type == "run_end" and .status == "ok"'
check "mkfs and kernel versions recorded" some "$S/run.stdout" \
	'.type == "fs_start" and (.mkfs.version // "" | startswith("mke2fs"))' ".type == \"run_start\" and .host.kernel == \"$(uname -r)\""
check "target identity recorded (loop, direct I/O)" some "$S/run.stdout" '.type == "run_start" and .target.loop_direct_io == true'
check "progress lines on stderr" grep -q 'create: .* files/s' "$S/run.stderr"
check "latency percentiles present" some "$S/run.stdout" '.type == "phase" and (.lat_ns.p50 | type) == "number" and .lat_ns.p50 > 0'
check "layout record (FIEMAP) for every fs and round" \
	[ "$(count "$S/run.stdout" '.type == "layout" and .name_order.steps == 499')" -eq $((nfs * 2)) ]
check "layout record: the picture's block lists, 256 of 500 files in each order" \
	[ "$(count "$S/run.stdout" '.type == "layout" and (.name_blocks | length) == 256 and (.inode_blocks | length) == 256 and all(.name_blocks[], .inode_blocks[]; type == "number")')" -eq $((nfs * 2)) ]
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
for part in nvme_smart ata_smart pcie_link temperature flash; do
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
		[ "$(jq -n '[inputs | select(.type == "phase") | .mnt_id | numbers] | unique | length' "$S/run.stdout")" -eq $((nfs * 10)) ]
else
	skip "remount evidence: kernel $(uname -r) gives no unique mount id (statx STATX_MNT_ID_UNIQUE, Linux 6.8); a reused id cannot tell a remount"
fi

. "$here/explain.sh"	# the freespace record and the rewrite remedy

# ---- a flipped bit is a verification failure, not a silent pass ----
expect_rc 1 "injected corruption fails the run" "$FSB" run --target "$L1" --fs ext4 --profile smoke \
	--rounds 1 --fault d0001/f0000007:100 --mnt "$S/mnt" --yes
check "verify_error names file, offset and count" \
	some "$S/out" '.type == "verify_error" and .phase == "read" and .file == "d0001/f0000007" and .offset == 100 and .count == 1'
check "inode-order read catches it too" some "$S/out" '.type == "verify_error" and .phase == "read_inode"'
check "phase record counts it" some "$S/out" '.type == "phase" and .phase == "read" and .verify_errors == 1'

# ---- create_order = shuffled: name order leaves the disk, every file still right ----
expect_rc 0 "shuffled creation on ext4" "$FSB" run --target "$L1" --fs ext4 --profile smoke \
	--rounds 1 --create_order shuffled --mnt "$S/mnt" --yes
cp "$S/out" "$S/shuf.stdout"
check "shuffled: the create record says order shuffled" \
	some "$S/shuf.stdout" '.type == "phase" and .phase == "create" and .order == "shuffled"'
check "shuffled: every phase 2000 files, no errors, verification clean" \
	[ "$(count "$S/shuf.stdout" '.type == "phase" and .files == 2000 and .errors == 0 and .verify_errors == 0')" -eq 5 ]
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
check "full log: the run still completed on stdout" some "$S/out" '.type == "run_end"'
expect_rc 0 "full log: extract" "$HFSB" log extract "$S/small.log" -o "$S/small"
head -n 5 "$S/full.stdout" > "$S/a5"; head -n 5 "$S/small/records.jsonl" > "$S/b5"
check "full log: the records before it filled are kept" cmp -s "$S/a5" "$S/b5"

# ---- ENOSPC ends that filesystem's run, and the run goes on ----
mkdir -p "$S/tiny"; mount -t tmpfs -o size=64m,nr_inodes=300 fsbench-test "$S/tiny"; remember_mount "$S/tiny"
expect_rc 1 "out of inodes (ENOSPC) fails the run" "$FSB" run --dir "$S/tiny" --profile smoke
check "ENOSPC error record is fatal" some "$S/out" '.type == "error" and .errno == 28 and .fatal == true'
check "fs_end failed, run_end failed" some "$S/out" '.type == "fs_end" and .status == "failed"' '.type == "run_end" and .status == "failed"'

# ---- --dir: an existing directory, warm cache, said so ----
mkdir -p "$S/tmpfs"; mount -t tmpfs -o size=256m fsbench-test "$S/tmpfs"; remember_mount "$S/tmpfs"
expect_rc 0 "--dir on tmpfs" "$FSB" run --dir "$S/tmpfs" --profile smoke --log "$S/dir.log"
expect_err "warm cache"
check "--dir: phases are not cold" some "$S/out" '.type == "phase" and .cold == false'
none "--dir: every phase on the same mount" "$(mounts "$S/out")"
check "--dir: the mount id is there" some "$S/out" '.type == "phase" and (.mnt_id | type) == "number"'
none "--dir: seconds is the span plus the timed syncfs" "$(phase_times "$S/out")"
check "--dir: fs detected as tmpfs" some "$S/out" '.fs == "tmpfs"'
check "--dir: directory left empty" [ -z "$(ls -A "$S/tmpfs")" ]
check "--dir: the control records too, at the start and after the directory" \
	[ "$(count "$S/out" '.type == "control" and .after == null and (.cpu_s | length) == 7'):$(count "$S/out" '.type == "control" and .after == "dir" and (.cpu_s | length) == 3')" = 1:1 ]
check "--dir: no target, so no quiet wait nor request count in the control records" \
	[ "$(count "$S/out" '.type == "control" and (has("quiet") or has("quiet_wait_s") or has("target_ios"))')" -eq 0 ]
expect_rc 0 "--dir with control = 0" "$FSB" run --dir "$S/tmpfs" --dirs 1 --files 10 --rounds 1 --workers 1 --progress 0 --control 0
check "control = 0: no control record" [ "$(count "$S/out" '.type == "control"')" -eq 0 ]
check "--dir: health before and after says not available, with the reason" \
	[ "$(grep -c '"type":"health".*"nvme_smart":"not available: dir mode: the directory is not a disk of its own"' "$S/out")" -eq 2 ]
expect_rc 2 "--dir that is a file: misuse" "$FSB" run --dir "$S/dir.log" --profile smoke
expect_err "run --dir $S/dir.log: not a directory"
expect_rc 2 "--dir that does not exist: misuse" "$FSB" run --dir "$S/no-such-dir" --profile smoke
expect_err "run --dir $S/no-such-dir: No such file or directory"

# ---- kernel messages: from run start on, each tagged with its phase ----
# A message written to /dev/kmsg as "<4>TEXT" is in the kernel log at level
# 4 (warning), facility 1 (user). One written before the run must not be
# recorded; those written while create runs (200,000 files in one
# directory: a second or more) are tagged create, at most 32 of them.
# Other programs may log warnings meanwhile: the checks count this test's
# own messages by their tag, and the cap by what create has in all.
tag="fsbench-test-$$"
# kmsg_count TEXT-PREFIX: kmsg records of the run whose text starts so
kmsg_count() { count "$S/kmsg.out" ".type == \"kmsg\" and (.text | startswith(\"$1\"))"; }
if ! { echo "<4>$tag: before the run" > /dev/kmsg; } 2>/dev/null; then
	skip "kernel messages: /dev/kmsg cannot be written here (no kernel log to test with)"
else
	# its kernel sequence number: every record of the run must be later
	before=$(dd if=/dev/kmsg bs=8192 iflag=nonblock 2>/dev/null | grep -a "$tag: before the run" | cut -d, -f2 || true)
	mkdir -p "$S/kmsg-tmpfs"; mount -t tmpfs -o size=1g fsbench-test "$S/kmsg-tmpfs"; remember_mount "$S/kmsg-tmpfs"
	"$FSB" run --dir "$S/kmsg-tmpfs" --dirs 1 --workers 1 --files 200000 --file_size 1 --rounds 1 \
		--progress 0 >"$S/kmsg.out" 2>"$S/kmsg.err" &
	fpid=$!
	i=0
	# inside create's span: its workers have made file 1000 (phase_start
	# comes before they start, and a message then belongs between phases)
	while ! [ -e "$S"/kmsg-tmpfs/fsbench-*/d0000/f0001000 ] && [ $i -lt 1000 ]; do
		sleep 0.01; i=$((i + 1))
	done
	echo "<4>$tag: during create" > /dev/kmsg
	echo "<3>$tag: an error during create" > /dev/kmsg
	n=0; while [ $n -lt 40 ]; do n=$((n + 1)); echo "<4>$tag: burst $n" > /dev/kmsg; done
	# the phase record of create comes after its end: not there yet, the
	# messages above were written while it ran
	grep -q '"type":"phase"[,}]' "$S/kmsg.out" && early=1 || early=0
	set +e; wait $fpid; rc=$?; set -e
	check "kernel messages: the run goes on (exit $rc)" [ "$rc" -eq 0 ]
	check "kernel messages: the messages were written while create ran" [ "$early" -eq 0 ]
	check "kernel messages: run_start says /dev/kmsg is read" some "$S/kmsg.out" '.type == "run_start" and .kmsg == "/dev/kmsg"'
	check "kernel messages: run_start has the kernel clock's offset from CLOCK_MONOTONIC (its line read back)" some "$S/kmsg.out" \
		'.type == "run_start" and (.kmsg_clock_offset_us | type) == "number"'
	check "kernel messages: the one written before the run is not recorded" [ "$(kmsg_count "$tag: before the run")" -eq 0 ]
	check "kernel messages: nothing from before the run (kernel_seq after ${before:-?}, the one written before it)" \
		[ -n "$before" -a "$(count "$S/kmsg.out" ".type == \"kmsg\" and .kernel_seq <= ${before:-0}")" = 0 ]
	check "kernel messages: a warning in create: fs, round, phase, level 4, facility user, the text" some "$S/kmsg.out" \
		".type == \"kmsg\" and .fs == \"tmpfs\" and .round == 1 and .phase == \"create\" and (.ts_usec | type) == \"number\" and .level == 4 and .facility == 1 and (.kernel_seq | type) == \"number\" and .text == \"$tag: during create\""
	check "kernel messages: an error in create: level 3" some "$S/kmsg.out" \
		".type == \"kmsg\" and .phase == \"create\" and .level == 3 and .text == \"$tag: an error during create\""
	ncreate=$(count "$S/kmsg.out" '.type == "kmsg" and .phase == "create"')
	dropped=$(jq -n '[inputs | select(.type == "kmsg_dropped" and .phase == "create") | .count] | add // 0' "$S/kmsg.out")
	nmine=$(kmsg_count "$tag: ")
	check "kernel messages: create keeps 32 records ($ncreate)" [ "$ncreate" -eq 32 ]
	check "kernel messages: the rest are counted: $nmine of this test's 42 recorded + $dropped dropped >= 42" \
		[ $((nmine + dropped)) -ge 42 -a "$dropped" -ge 10 ]
	check "kernel messages: run_end counts them" some "$S/kmsg.out" \
		".type == \"run_end\" and .kmsg_recorded == $(count "$S/kmsg.out" '.type == "kmsg"') and .kmsg_dropped == $dropped"
	expect_rc 0 "kernel messages: report" "$HFSB" report "$S/kmsg.out"
	check "kernel messages: the report lists them per phase" sh -c \
		"echo \"\$1\" | grep -q '^| tmpfs |     1 | create  *| warning *| user *| *[0-9]*\\.[0-9]\\{6\\} | $tag: during create *|\$'" _ "$OUT"
	check "kernel messages: the report lists what was dropped" sh -c \
		"echo \"\$1\" | grep -q '^| tmpfs |     1 | create  *| - *| - *| *- | $dropped more not recorded (at most 32 per phase) *|\$'" _ "$OUT"
	check "kernel messages: the report header counts them" sh -c \
		"echo \"\$1\" | grep -q '^- kernel log: [0-9]* messages at warning level or above during the run, $dropped more not recorded (at most 32 per phase)'" _ "$OUT"
	expect_rc 0 "kernel messages: report (csv)" "$HFSB" report "$S/kmsg.out" --format csv
	check "kernel messages: csv has them" sh -c "echo \"\$1\" | grep -q '^kmsg,tmpfs,1,create,4,1,[0-9]*,$tag: during create,\$'" _ "$OUT"
fi
# the kernel's own warnings between phases: ext4 warns "Ignoring removed
# orlov option" at every mount with it, so at the first mount (fs ext4, no
# round yet) and at the remount before each of stat, read, read_inode, delete
if grep -qw ext4 /proc/filesystems; then
	expect_rc 0 "kernel messages: ext4 mounted with a removed option (orlov)" "$FSB" run --target "$L1" --fs ext4 \
		--profile smoke --rounds 1 --mount_opts.ext4 orlov --mnt "$S/mnt" --progress 0 --yes
	cp "$S/out" "$S/kmsg-orlov.out"
	# orlov FILTER: the kernel's orlov warnings that also pass FILTER
	orlov() { count "$S/kmsg-orlov.out" ".type == \"kmsg\" and .level == 4 and .facility == 0 and .text == \"EXT4-fs: Ignoring removed orlov option\" and ($1)"; }
	check "kernel messages: the kernel's warning at the first mount: fs ext4, no round, between" \
		[ "$(orlov '.fs == "ext4" and .round == null and .phase == "between"')" -eq 1 ]
	check "kernel messages: and at each of the 4 remounts: round 1, between" \
		[ "$(orlov '.fs == "ext4" and .round == 1 and .phase == "between"')" -eq 4 ]
	check "kernel messages: none of them in a phase" [ "$(orlov 'true')" -eq 5 ]
	expect_rc 0 "kernel messages: report of the ext4 run" "$HFSB" report "$S/kmsg-orlov.out"
	check "kernel messages: the report lists the remounts' warnings between phases" sh -c \
		"[ \$(echo \"\$1\" | grep -c '^| ext4 |     1 | between | warning | kern  *| *[0-9.]* | EXT4-fs: Ignoring removed orlov option  *|\$') -eq 4 ]" _ "$OUT"
else
	skip "kernel messages between phases: this kernel has no ext4"
fi
# where /dev/kmsg cannot be opened (no CAP_SYSLOG with dmesg_restrict = 1) the run goes on and says why
if [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" != 1 ]; then
	skip "kernel log not available: kernel.dmesg_restrict is not 1 here, so any user may read /dev/kmsg"
elif ! have setpriv; then
	skip "kernel log not available: setpriv (util-linux) not found to run as nobody"
else
	# the binary and the directory on a tmpfs of their own, so nobody reaches both
	mkdir -p "$S/kmsg-nobody"; mount -t tmpfs -o size=256m fsbench-test "$S/kmsg-nobody"; remember_mount "$S/kmsg-nobody"
	chmod 755 "$S/kmsg-nobody"; cp "$FSB" "$S/kmsg-nobody/fsbench"; mkdir -m 1777 "$S/kmsg-nobody/run"
	expect_rc 0 "kernel log not available (as nobody): the run goes on" setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all "$S/kmsg-nobody/fsbench" run --dir "$S/kmsg-nobody/run" --profile smoke \
		--rounds 1 --progress 0
	expect_err "kernel log /dev/kmsg: Operation not permitted: kernel messages are not recorded"
	echo "$OUT" >"$S/kmsg-nobody.out"
	check "kernel log not available: run_start says why" some "$S/kmsg-nobody.out" \
		'.type == "run_start" and .kmsg == "not available: /dev/kmsg: Operation not permitted"'
	check "kernel log not available: no kmsg counts in run_end" \
		[ "$(count "$S/kmsg-nobody.out" '.type == "run_end" and has("kmsg_recorded")')" = 0 ]
fi

# ---- phase timeout kills the workers and fails that filesystem ----
mkdir -p "$S/big-tmpfs"; mount -t tmpfs -o size=20g fsbench-test "$S/big-tmpfs"; remember_mount "$S/big-tmpfs"
expect_rc 1 "phase timeout" "$FSB" run --dir "$S/big-tmpfs" --dirs 2 --workers 2 --files 2000000 --file_size 1 \
	--rounds 1 --phase_timeout 1 --progress 0
check "timeout error record" some "$S/out" '.type == "error" and .op == "timeout"'

# ---- a worker's end reaches its record: the errno, or the signal ----
mkdir -p "$S/huge-tmpfs"; mount -t tmpfs -o size=64g fsbench-test "$S/huge-tmpfs"; remember_mount "$S/huge-tmpfs"
expect_rc 1 "a worker that cannot allocate its work (ulimit -v)" sh -c 'ulimit -v 32768; exec "$0" "$@"' \
	"$FSB" run --dir "$S/huge-tmpfs" --dirs 1 --workers 1 --files 10000000 --file_size 1 --rounds 1 \
	--create_order shuffled --progress 0
check "its error record carries ENOMEM, the worker's directory, fatal" some "$S/out" \
	'.type == "error" and .phase == "create" and .op == "alloc" and .file == "d0000" and .errno == 12 and .fatal == true'
check "the filesystem fails with the reason, not a dead worker" some "$S/out" \
	'.type == "fs_end" and .status == "failed" and .reason == "round 1 create: Out of memory"'

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
check "one error record per worker, naming the signal" [ "$(count "$S/kill.out" '.type == "error" and .op == "worker"
	and (.msg // "" | test("^worker [01] \\(d000[01]\\) killed by signal 15 \\(Terminated\\)$"))
	and .fatal == true and (.worker == 0 or .worker == 1) and .signal == 15')" -eq 2 ]
check "the filesystem fails with the worker and the signal" some "$S/kill.out" \
	'.type == "fs_end" and (.reason // "" | test("^round 1 create: worker [01] \\(d000[01]\\) killed by signal 15"))'

# ---- the fio workloads and the fill test ----
. "$here/fio.sh"
# ---- the sustained write ----
. "$here/sustain.sh"
# ---- the file-server workload, fresh and aged ----
if O="$O" sh "$here/fileserver.sh"; then pass "file server: tests/host/fileserver.sh"; else fail "file server: tests/host/fileserver.sh"; fi
# ---- variants of a filesystem (the tuning matrix) ----
. "$here/variants.sh"
# ---- repetitions: interleaved, rep in the records, the statistics ----
. "$here/repeat.sh"

# ---- packing: SQLite and a pack file ----
if O="$O" sh "$here/pack.sh"; then pass "packing: tests/host/pack.sh"; else fail "packing: tests/host/pack.sh"; fi

# ---- the power-cut campaign: kills, the next runs' checks, a tampered case ----
if O="$O" sh "$here/powercut.sh"; then pass "power cuts: tests/host/powercut.sh"; else fail "power cuts: tests/host/powercut.sh"; fi

# ---- the capacity check ----
if O="$O" sh "$here/capacity.sh"; then pass "capacity: tests/host/capacity.sh"; else fail "capacity: tests/host/capacity.sh"; fi

# ---- the aging study's settings: lockstep, the CPUs, a variant's sysfs knob ----
if O="$O" sh "$here/lockstep.sh"; then pass "aging settings: tests/host/lockstep.sh"; else fail "aging settings: tests/host/lockstep.sh"; fi

summary

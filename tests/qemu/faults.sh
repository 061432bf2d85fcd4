#!/bin/sh
# tests/qemu/faults.sh: faults a bring-up meets, made by QEMU under the NVMe
# target, and what the records and `fsbench verdict` (host side) make of
# them. First, without a boot (options): the launcher's options, misuse,
# and the QEMU argv of each fault. Each run is short: the smoke profile,
# one round, a 1 GiB target (eio: 125 files a directory, a quarter of
# the profile's); slow brief (BRIEF of tests/lib.sh); the
# capacity check off (as qemu/run.sh has it unless asked; said again
# in the EIO, unplug and slow runs: its reads and writes across the target
# would meet the EIO rules and the throttle before the filesystems do, and
# shift the unplug's moment).
#   eio      QEMU's blkdebug driver under the target fails, in one run,
#            writes, in another reads, of one 4 KiB block in every 16 of
#            the space where ext4 can put file data on the 1 GiB target:
#            wherever this boot's allocator puts the smoke files, their
#            data is hit (eio_rules below). ext4 then f2fs: `kmsg`
#            records with the kernel's I/O error lines in ext4's create
#            (writes: the syncfs fails, ext4 stops) or read phase (reads:
#            `error` records naming the files hit), f2fs runs whole and
#            clean, the guest powers off, and the verdict (errors = 0,
#            kmsg = 0) FAILs naming both.
#   unplug   the target on a hot-pluggable PCIe root port, `device_del` on
#            QEMU's monitor once 8 records are on the console (ext4's stat
#            phase has started; phase_timeout = 60): the run ends with
#            run_end (no hang, no watchdog kill), the removal is recorded
#            (error or kmsg records after it), every record before the
#            removal is kept on the log partition, the health record
#            after the run finds no disk, the verdict FAILs.
#   slow     the target throttled to 200 I/O operations a second: the
#            criterion min_files_per_s.ext4.read = 400 FAILs naming the
#            limit and the measured files/s.
# The healthy run against the board's shipped criteria is the smoke run of
# tests/qemu/run.sh.
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board is a SKIP: the root port and the target are this board's),
# FAULTS_TEST_ONLY (names of the cases to run: options eio unplug slow).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-faults/.
set -eu

O=${O:?run through make check-qemu}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-faults
only=${FAULTS_TEST_ONLY:-options eio unplug slow}
. tests/qemu/lib.sh

qemu_start 'qemu fault tests' "faults on $BOARD: the injected blocks and the root port are qemu-x86_64's" jq
# The launcher's side, without a boot: the options, and the QEMU argv
# cmdline.sh makes for each fault (the target's lines unchanged without;
# argv of tests/qemu/lib.sh).
if wanted options; then
	check "options: cmdline.sh without a fault" argv plain
	check "options: without a fault the target is raw over its file, on the root bus" sh -c \
		"grep -qxF 'file=$T/argv-plain/target.img,format=raw,if=none,id=target,cache=none,discard=unmap' '$T/argv-plain/qemu.argv' &&
		grep -qxF 'nvme,drive=target,serial=fsbench-target' '$T/argv-plain/qemu.argv' &&
		! grep -q 'blkdebug\|throttling\|pcie-root-port\|chardev=mon' '$T/argv-plain/qemu.argv'"
	check "options: cmdline.sh with TFAULT and TTHROTTLE" argv fault TFAULT=/x/rules TTHROTTLE=300
	check "options: blkdebug between raw and the file, throttled" grep -qxF \
		"driver=raw,file.driver=blkdebug,file.config=/x/rules,file.image.driver=file,file.image.filename=$T/argv-fault/target.img,if=none,id=target,cache=none,discard=unmap,throttling.iops-total=300" \
		"$T/argv-fault/qemu.argv"
	check "options: cmdline.sh with TUNPLUG" argv unplug TUNPLUG=1
	check "options: unplug: a root port, the NVMe on it, a monitor on named pipes" sh -c \
		"grep -qxF 'pcie-root-port,id=fsbench-rp,chassis=1,slot=1' '$T/argv-unplug/qemu.argv' &&
		grep -qxF 'nvme,drive=target,serial=fsbench-target,id=fsbench-target,bus=fsbench-rp' '$T/argv-unplug/qemu.argv' &&
		grep -qxF 'pipe,id=mon,path=$T/argv-unplug/monitor' '$T/argv-unplug/qemu.argv' &&
		[ -p '$T/argv-unplug/monitor.in' ] && [ -p '$T/argv-unplug/monitor.out' ]"
	for bad in '--target-fault rules' '--target-fault blkdebug:/no/such/file' \
		'--target-throttle 0' '--target-throttle x' '--unplug-target-after-records -1'; do
		# shellcheck disable=SC2086
		expect_rc 2 "options: $bad is misuse" sh qemu/run.sh --disk "$IMG/disk-ext4.img" $bad
	done
fi

made build.log host image ROOTFS=ext4 || { summary; exit 1; }

# boot NAME LAUNCHER-OPTIONS...: status in $rc, results in $res.
boot() {
	name=$1; shift
	res=$T/$name
	set +e
	sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$res" --quiet \
		--profile smoke --timeout 600 "$@" >"$T/$name.out" 2>&1
	rc=$?
	set -e
	info "$name: launcher exit $rc, $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
}
# verdict NAME CRITERIA: `fsbench verdict` of the run; status in $vrc, the
# lines in $T/NAME.verdict.
verdict() {
	set +e
	"$FSB" verdict "$T/$1" --criteria "$2" >"$T/$1.verdict" 2>&1
	vrc=$?
	set -e
	sed 's/^/     | /' "$T/$1.verdict"
}
# count RESULTS TYPE JQ-FILTER: the records of the type that match.
count() { recs "$1" "$2" | jq -c "select($3)" | wc -l; }
powered_off() {
	check "$1: the guest powered off (no watchdog, no timeout)" grep -q 'end: *guest powered off' "$2/run.txt"
}

# The EIO rules. Where a fresh ext4 puts the smoke files is not fixed: the
# block allocator takes the first group that has a free 512-block stretch
# for each CPU's preallocation, from the goal group on (group 2 of the 1
# GiB target in every boot measured, group 1 on a newer kernel). The rules
# therefore cover the space where ext4 can put file data at all: the free
# blocks of every block group but group 0 (with flex_bg group 0 holds the
# bitmaps, the inode tables and the directories, and the allocator keeps
# file data out of it), read with dumpe2fs from an ext4 that the host's
# mke2fs makes on a file of the target's size with the runner's arguments
# and the image's mke2fs.conf (the same layout as in the guest: no backup
# superblock or descriptor block, no journal block is hit); without the
# last MiB (mke2fs clears the device's end) and without 16 MiB from each
# log that mkfs.f2fs starts (read with dump.f2fs from an f2fs made the same
# way; f2fs runs after ext4 on the same target and must stay clean). One
# rule every 16 blocks: a write-back (merged, hundreds of blocks) always
# covers one, a cold read of a 4 KiB file does in 1 of 16 files.
EIO_STRIDE=16
# eio_rules FILE IO SIZE: blkdebug rules failing IO (read, write) with EIO
# on every EIO_STRIDE-th block of that space (one rule a block's first
# sector); the ranges and a summary line in FILE.ranges. Exit 1 with the
# reason on stderr when a tool fails.
eio_rules() {
	_img=$T/layout.img
	rm -f "$_img" && truncate -s "$3" "$_img" &&
		MKE2FS_CONFIG=$IMG/rootfs/etc/mke2fs.conf mke2fs -t ext4 -F -q "$_img" &&
		dumpe2fs "$_img" >"$T/layout.ext4" 2>/dev/null || { echo "mke2fs, dumpe2fs on $_img failed" >&2; return 1; }
	rm -f "$_img" && truncate -s "$3" "$_img" && mkfs.f2fs -f -q "$_img" >/dev/null &&
		dump.f2fs -d 1 "$_img" >"$T/layout.f2fs" 2>&1 || { echo "mkfs.f2fs, dump.f2fs on $_img failed" >&2; return 1; }
	rm -f "$_img"
	awk -v io="$2" -v stride="$EIO_STRIDE" -v ranges="$1.ranges" '
		FILENAME ~ /f2fs$/ {
			if (match($0, /^(main_blkaddr|log_blocks_per_seg|cur_(node|data)_segno\[[0-9]\]) .*: *[0-9]+\]$/)) {
				v = $NF; sub(/\]$/, "", v)
				if ($1 == "main_blkaddr") main = v
				else if ($1 == "log_blocks_per_seg") lseg = v
				else seg[++nseg] = v
			}
			next
		}
		/^Block count:/ { total = $3 }
		/^Blocks per group:/ { per = $4 }
		/^ *Free blocks: [0-9]/ {
			sub(/^ *Free blocks: /, "")
			n = split($0, r, /, */)
			for (i = 1; i <= n; i++) {
				split(r[i], ab, "-"); if (ab[2] == "") ab[2] = ab[1]
				if (ab[1] + 0 >= per) { nr++; lo[nr] = ab[1] + 0; hi[nr] = ab[2] + 0 }
			}
		}
		END {
			if (!total || !per || !nr || main == "" || lseg == "" || !nseg) { print "no layout" > "/dev/stderr"; exit 1 }
			end = total - 256	# not the last MiB
			for (i = 1; i <= nseg; i++) { flo[i] = main + seg[i] * 2 ^ lseg; fhi[i] = flo[i] + 4096 }
			for (k = 1; k <= nr; k++) {
				printf "%d-%d\n", lo[k], hi[k] > ranges
				for (b = lo[k]; b <= hi[k] && b < end; b += stride) {
					skip = 0
					for (i = 1; i <= nseg; i++) if (b >= flo[i] && b < fhi[i]) skip = 1
					if (skip) continue
					printf "[inject-error]\nevent = \"%s_aio\"\niotype = \"%s\"\nerrno = \"5\"\nsector = \"%d\"\nonce = \"off\"\n\n", io, io, b * 8
					rules++
				}
			}
			printf "%d rules over %d ranges of ext4 free space from block %d, f2fs logs at", rules, nr, lo[1] > ranges
			for (i = 1; i <= nseg; i++) printf " %d", flo[i] > ranges
			printf "\n" > ranges
		}' "$T/layout.ext4" "$T/layout.f2fs" >"$1" || { echo "no ext4 or f2fs layout in $T/layout.ext4, $T/layout.f2fs" >&2; return 1; }
}
# A TCG guest whose vCPU the host holds back (make check's other lane)
# warns "hrtimer: interrupt took N ns" (in one eio boot of 2 under
# stress-ng --cpu 3): the emulator's timing, not the disk's. f2fs's
# count leaves it out, and the criteria ignore it, as the QEMU boards' do.
TCG_KMSG='hrtimer: interrupt took'
# eio_common NAME: f2fs after ext4 ran clean, the guest powered off, and the
# verdict (fs_ok = f2fs, errors = 0, kmsg = 0) fails on errors and kmsg.
eio_common() {
	powered_off "$1" "$res"
	check "$1: launcher exit 1 (the runner's: benchmark failure)" [ "$rc" -eq 1 ]
	check "$1: f2fs (after ext4) ran to the end" has "$res" fs_end fs=f2fs status=ok
	f2fs_bad=$(for t in error kmsg verify_error phase; do recs "$res" $t; done | jq -c --arg tcg "$TCG_KMSG" \
		'select(.fs == "f2fs" and (.type != "phase" or .errors > 0) and (.type != "kmsg" or (.text | contains($tcg) | not)))')
	check "$1: f2fs has no error, kmsg or verify_error record and no phase errors" [ -z "$f2fs_bad" ]
	[ -z "$f2fs_bad" ] || printf '%s\n' "$f2fs_bad" | head -n 5 | sed 's/^/     | /'
	printf 'fs_ok = f2fs\nerrors = 0\nkmsg = 0\nkmsg_ignore = %s\n' "$TCG_KMSG" >"$T/$1.criteria"
	verdict "$1" "$T/$1.criteria"
	check "$1: verdict exit 1" [ "$vrc" -eq 1 ]
	check "$1: the errors check FAILs" grep -q "^error records.*: FAIL (.*$1.criteria:2)" "$T/$1.verdict"
	check "$1: the kmsg check FAILs" grep -q "^kernel messages.*: FAIL (.*$1.criteria:3)" "$T/$1.verdict"
	check "$1: f2fs ran to the end: PASS" grep -q '^f2fs ran to the end.*: PASS' "$T/$1.verdict"
	check "$1: verdict: FAIL (2 of 3 checks failed)" grep -qx 'verdict: FAIL (2 of 3 checks failed)' "$T/$1.verdict"
}

if wanted eio; then
	eio=1
	for t in mke2fs dumpe2fs mkfs.f2fs dump.f2fs; do
		have $t || { eio=0; skip "eio: $t not found, it reads the layout the rules aim at (e2fsprogs, f2fs-tools; make deps)"; }
	done
fi
if wanted eio && [ "$eio" = 1 ]; then
	# Writes: the data written back at create's syncfs.
	check "eio-write: blkdebug write rules over ext4's data space (1 GiB)" eio_rules "$T/eio-write.rules" write 1G
	info "eio-write: $(tail -n 1 "$T/eio-write.rules.ranges")"
	boot eio-write --target-size 1G --target-fault "blkdebug:$T/eio-write.rules" --append "fsbench.fs=ext4,f2fs fsbench.rounds=1 fsbench.files=125 fsbench.capacity=0"
	nw=$(count "$res" kmsg '.fs == "ext4" and .phase == "create" and (.text | test("I/O error|critical medium error"))')
	info "eio-write: kmsg in ext4 create: $nw; e.g. $(recs "$res" kmsg | jq -r 'select(.fs == "ext4") | .text' | sed -n '1p;3p' | tr '\n' '|')"
	check "eio-write: kmsg records with the kernel's write I/O errors in ext4's create phase" [ "$nw" -ge 1 ]
	check "eio-write: ... naming the inodes hit (ext4_end_bio: writing to inode N)" [ "$(count "$res" kmsg '.phase == "create" and (.text | test("writing to inode [0-9]+"))')" -ge 1 ]
	check "eio-write: ext4's create phase counts the error (syncfs)" [ "$(count "$res" phase '.fs == "ext4" and .phase == "create" and .errors > 0')" -eq 1 ]
	check "eio-write: ext4 failed" has "$res" fs_end fs=ext4 status=failed
	eio_common eio-write

	# Reads: the cold read phases.
	check "eio-read: blkdebug read rules over ext4's data space (1 GiB)" eio_rules "$T/eio-read.rules" read 1G
	boot eio-read --target-size 1G --target-fault "blkdebug:$T/eio-read.rules" --append "fsbench.fs=ext4,f2fs fsbench.rounds=1 fsbench.files=125 fsbench.capacity=0"
	n=$(count "$res" error '.fs == "ext4" and .phase == "read" and .errno == 5 and (.file // "") != ""')
	info "eio-read: $n error records with EIO for ext4 files in read, $(count "$res" error '.phase == "read_inode"') in read_inode; e.g. $(recs "$res" error | jq -r '"\(.phase) \(.op) \(.file): \(.msg)"' | head -n 2 | tr '\n' '|')"
	check "eio-read: error records (EIO, the file named) for ext4 files in read" [ "$n" -ge 1 ]
	nr=$(count "$res" kmsg '.fs == "ext4" and .phase == "read" and (.text | test("I/O error|critical medium error"))')
	info "eio-read: kmsg in ext4 read: $nr; e.g. $(recs "$res" kmsg | jq -r 'select(.fs == "ext4") | "\(.phase): \(.text)"' | head -n 2 | tr '\n' '|')"
	check "eio-read: kmsg records with the kernel's read I/O errors in ext4's read phase" [ "$nr" -ge 1 ]
	check "eio-read: no kmsg record of ext4 before its read phase" \
		[ "$(count "$res" kmsg '.fs == "ext4" and (.phase == "create" or .phase == "stat")')" -eq 0 ]
	eio_common eio-read
fi

if wanted unplug; then
	boot unplug --target-size 1G --unplug-target-after-records 8 \
		--append "fsbench.fs=ext4 fsbench.rounds=1 fsbench.phase_timeout=60 fsbench.capacity=0"
	check "unplug: the launcher unplugged the target" grep -q 'target unplugged after 8 records' "$T/unplug.out"
	check "unplug: run_end recorded (no hang)" [ "$(recs "$res" run_end | wc -l)" -eq 1 ]
	powered_off unplug "$res"
	# Every record on the console before the removal is on the log partition.
	console "$res" | head -n 8 | jq -c '{type, seq}' >"$T/unplug.before"
	jq -c '{type, seq}' "$res/records.jsonl" | head -n 8 >"$T/unplug.kept"
	check "unplug: the 8 records before the removal are kept on the log partition" cmp "$T/unplug.before" "$T/unplug.kept"
	check "unplug: records read back from the log partition" grep -q 'from the log partition' "$res/run.txt"
	console "$res" | jq -c '{type, seq}' >"$T/unplug.console"
	jq -c '{type, seq}' "$res/records.jsonl" >"$T/unplug.records"
	check "unplug: the log partition holds every record of the console ($(wc -l <"$T/unplug.console"))" cmp "$T/unplug.console" "$T/unplug.records"
	ne=$(count "$res" error '.seq > 8') nk=$(count "$res" kmsg '.seq > 8')
	info "unplug: after the removal $ne error records ($(recs "$res" error | jq -r '"\(.phase // "-") \(.op): \(.msg)"' | head -n 2 | tr '\n' ';')), $nk kmsg records ($(recs "$res" kmsg | jq -r '.text' | head -n 2 | tr '\n' ';'))"
	check "unplug: the removal is recorded (error or kmsg records)" [ $((ne + nk)) -ge 1 ]
	gone=$(recs "$res" health | jq -r 'select(.when == "after") | .nvme_smart | strings')
	info "unplug: the after health record: $gone"
	check "unplug: the disk left the guest (the after health record cannot open it)" \
		contains "$gone" "No such file or directory"
	st=$(rec "$res" fs_end fs status | awk -F'\t' '$1 == "ext4" { print $2 }')
	check "unplug: ext4 did not run to the end (fs_end ${st:-none})" [ "$st" != ok ]
	printf 'fs_ok = ext4\nerrors = 0\nkmsg = 0\n' >"$T/unplug.criteria"
	verdict unplug "$T/unplug.criteria"
	check "unplug: verdict exit 1, FAIL" sh -c "[ $vrc -eq 1 ] && grep -q '^verdict: FAIL' '$T/unplug.verdict'"
	check "unplug: ext4 ran to the end: FAIL" grep -q '^ext4 ran to the end.*: FAIL' "$T/unplug.verdict"
fi

if wanted slow; then
	boot slow --target-size 1G --target-throttle 200 --append "fsbench.fs=ext4 $BRIEF fsbench.capacity=0"
	check "slow: launcher exit 0" [ "$rc" -eq 0 ]
	printf 'min_files_per_s.ext4.read = 400\nmin_files_per_s.ext4.create = 50\n' >"$T/slow.criteria"
	verdict slow "$T/slow.criteria"
	fps=$(rec "$res" phase phase files_per_s | awk -F'\t' '$1 == "read" { print $2 }')
	info "slow: ext4 read at 200 IOPS: $fps files/s"
	check "slow: verdict exit 1" [ "$vrc" -eq 1 ]
	line=$(grep '^ext4 read files/s' "$T/slow.verdict" || true)
	shown=$(echo "$line" | sed -n 's/^[^:]*: \([0-9.]*\) files\/s, round 1; limit >= 400 files\/s: FAIL (.*slow.criteria:1)$/\1/p')
	check "slow: the read floor FAILs naming the limit and the measured files/s ($fps)" \
		awk -v a="$shown" -v b="$fps" 'BEGIN { exit !(a != "" && a - b < 1 && b - a < 1) }'
	check "slow: the create floor (50 files/s) still passes" grep -q '^ext4 create files/s.*: PASS' "$T/slow.verdict"
fi

summary

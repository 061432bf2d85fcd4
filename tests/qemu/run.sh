#!/bin/sh
# tests/qemu/run.sh: boot the board's image in QEMU (TCG unless KVM really
# works) and assert on what comes back.
#   1. smoke profile, ext4 rootfs: all four filesystems, every round and phase,
#      no errors, verification clean; the serial log carries the same records
#      with the prefix, init's lines and the power-off; every record of both
#      against the record schema (fsbench log check); the launcher's exit
#      status is the runner's; the freespace record of each filesystem
#      (the staged tools, f2fs's segments); the run figures are in the summary; the
#      results folder's index.html links to the run's report.html; TRIM:
#      the fstrim phase of each filesystem and round (bytes trimmed > 0 on
#      ext4, xfs and btrfs), the NVMe's discard limits and DLFEAT (reads
#      zeroes) in run_start's target, and a discarded range of it read back
#      as zeroes (discard_check ok: QEMU honours the deallocate with
#      discard=unmap). It is what `make run` does, so it is also judged by
#      the board's shipped criteria (PASS; not their floors of files/s,
#      the host's speed), and the NVMe's count of the
#      bytes it wrote is held within 32 MiB a filesystem and round of the
#      files' data.
#   2. the same with the rootfs on f2fs, brief (BRIEF of tests/lib.sh:
#      one round of fewer files) on ext4 and nilfs2, the optional fifth
#      filesystem (what it checks is the f2fs rootfs, and nilfs2 in the
#      image: its mkfs, module and cleaner, which runs beside every mount
#      and stops before the umount, its freespace segments).
#   (The UEFI boot of the same image, the settings in the ESP's
#   fsbench.conf: tests/qemu/uefi.sh.)
#   3. with a stand-in runner (tests/qemu/fake-fsbench) in a copy of the
#      ext4 image (written into its root partition by debugfs):
#      a runner that hangs is ended by init's watchdog (power-off), a kernel
#      panic ends the run (panic=1, -no-reboot), and the launcher's overall
#      timeout kills a guest that never ends; all three fail with status 4.
#      With console=tty0 last, init mirrors its lines and the records to the
#      serial port, and the serial port is not init's controlling terminal.
#   4. a run killed part-way (QEMU killed after a few records): every record
#      the log partition holds is intact, in order, and equal to what the
#      console showed (of the records both hold: the console can be a
#      record behind the log, whose write comes first); at most the record
#      being written at the kill is lost;
#      no run_end, so the launcher fails (status 4).
#   5. a guest that stops for good (a stand-in QEMU that sleeps, --stall
#      2): with --stall-retries 1 the launcher boots again from a fresh
#      copy (the stand-in then prints a run's records and ends): exit 0,
#      the stalled boot's console and threads in RESULTS/stalled-1/,
#      run.txt and QEMU_STALL_LOG say so; with 0 retries, or when the
#      second boot stops too, the run ends stalled (status 4).
# Inputs (environment): O (build output, absolute), BOARD, FSBENCH_IMAGE
# (runner binary for the image, default the `make runner` one), QEMU_TEST_ONLY
# (run only the tests whose names are listed: ext4 f2fs fake kill stall).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Results
# folders under $O/tests/qemu/.
set -eu

O=${O:?run through make check-qemu}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu
only=${QEMU_TEST_ONLY:-ext4 f2fs fake kill stall}
. tests/qemu/lib.sh

qemu_start 'qemu tests'

# boot NAME ROOTFS [launcher options...]: run the launcher, status in $rc.
boot() {
	name=$1 rootfs=$2; shift 2
	res=$T/$name
	if ! make -s --no-print-directory image ROOTFS="$rootfs" >"$T/build-$rootfs.log" 2>&1; then
		fail "$name: make image ROOTFS=$rootfs"; tail -n 20 "$T/build-$rootfs.log"
		return 1
	fi
	set +e
	RESULTS=$T sh qemu/run.sh --disk "$IMG/disk-$rootfs.img" --results "$res" --quiet "$@" >"$T/$name.out" 2>&1
	rc=$?
	set -e
	info "$name: $(grep -E 'accelerator:' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
	info "$name: $(grep -E 'first record' "$res/run.txt" 2>/dev/null | sed 's/^ *//'), $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
	return 0
}

# check_full NAME: a complete smoke run on the filesystems it was given.
check_full() {
	name=$1 res=$T/$1
	check_run "$name" "$res"
	# The freespace record after each round's reads, read in the guest: the
	# tools the image stages (e4defrag, btrfs) and f2fs's /proc and /sys.
	rec "$res" freespace fs defrag.score free_extents.count btrfs.device_size f2fs.segments \
		f2fs.free_segments nilfs2.clean_segments >"$T/$name.freespace"
	nr=$(rec "$res" run_start config.rounds | tail -n 1)
	nf=$(echo $fslist | wc -w)
	check "$name: freespace: ext4's defrag score and free extents, xfs's free extents, btrfs's usage, f2fs's and nilfs2's segments, of those run ($fslist), each of ${nr:-?} rounds" \
		sh -c "[ \$(grep -Ec '^(ext4	[0-9]+	[1-9][0-9]*				|xfs		[1-9][0-9]*				|btrfs			[1-9][0-9]*			|f2fs				[1-9][0-9]*	[0-9]*	|nilfs2						[1-9][0-9]*)\$' '$T/$name.freespace') -eq $((nf * ${nr:-0})) ] && [ ${nr:-0} -ge 1 ]"
	# Serial log: the same records with the prefix, init's lines, power-off.
	console "$res" >"$T/$name.console"
	check "$name: the console carries the same records as the log partition" cmp "$T/$name.console" "$res/records.jsonl"
	check "$name: every record of the log partition and of the serial log against the record schema (log check)" \
		"${FSBENCH_HOST:-$O/host/fsbench}" log check "$res/records.jsonl" "$res/serial.log"
	check "$name: serial log shows init starting fsbench" grep -q 'fsbench-init: starting fsbench' "$res/serial.log"
	check "$name: serial log shows fsbench's exit status 0" grep -q 'fsbench-init: fsbench exited with 0 ' "$res/serial.log"
	check "$name: progress lines on the console" grep -q 'files/s' "$res/serial.log"
	check "$name: report.md has the runner/SUITE.md summary table" grep -q 'create (incl. sync)' "$res/report.md"
	check "$name: report.html next to it, the same summary table" grep -q '<td>create (incl. sync)</td>' "$res/report.html"
	check "$name: index.html of the results folder rewritten, its row linking to report.html" \
		grep -q "<td><a href=\"$name/report.html\">$name</a></td>" "$T/index.html"
	check "$name: the launcher says where the index is" grep -q "^qemu: index of the runs: $T/index.html\$" "$T/$name.out"
	if have gnuplot; then
		check "$name: report.html has the charts" grep -q '<figure class="chart" id="chart-layout"' "$res/report.html"
	else
		check "$name: report.html says why it has no charts" grep -q 'No charts: gnuplot not found' "$res/report.html"
	fi
	# The emulated NVMe counts what it wrote (SMART log, data units of
	# 512,000 bytes): the health difference holds the files' data, plus
	# mkfs, journals and metadata, within a bound.
	check "$name: health before and after, the NVMe SMART log read" \
		[ "$(rec "$res" health when nvme_smart.data_units_written | grep -c '^[ab][a-z]*	[0-9][0-9]*$')" -eq 2 ]
	hw=$(rec "$res" health when delta.nvme_smart.bytes_written | awk -F'\t' '$1 == "after" { print $2 }')
	hc=$(rec "$res" phase phase bytes | awk -F'\t' '$1 == "create" { s += $2 } END { print s + 0 }')
	info "$name: health: the disk wrote ${hw:-?} bytes (SMART data units), the create phases ${hc} bytes of file data"
	check "$name: health: bytes written by the disk >= the files' data, <= 4x + 256 MiB" \
		sh -c "[ '${hw:-0}' -ge '$hc' ] && [ '$hc' -gt 0 ] && [ '${hw:-0}' -le \$(( $hc * 4 + 268435456 )) ]"
	# QEMU has no eMMC or UFS: the flash object says why, on both records
	check "$name: health: no flash object on the NVMe target, the reason instead" \
		[ "$(rec "$res" health when flash | grep -c '^[ab][a-z]*	not available: an NVMe disk')" -eq 2 ]
	# TRIM: an fstrim phase after each round's delete, FITRIM ok; f2fs
	# discards online by default (its mount's discard option), so its
	# FITRIM finds nothing left and reports 0 bytes
	rec "$res" phase fs round phase bytes trim | awk -F'\t' '$3 == "fstrim"' >"$T/$name.fstrim"
	nt=$(wc -l <"$T/$name.fstrim")
	nok=$(awk -F'\t' '$5 == "ok" && ($4 > 0 || $1 == "f2fs")' "$T/$name.fstrim" | wc -l)
	info "$name: fstrim (fs, round, bytes, seconds): $(rec "$res" phase fs round phase bytes seconds | awk -F'\t' '$3 == "fstrim" { printf "%s %s %s %s; ", $1, $2, $4, $5 }')"
	check "$name: fstrim: a phase of each filesystem ($fslist) and round, trim ok, bytes trimmed > 0 (f2fs >= 0)" \
		[ "$nt" -eq $((nf * ${nr:-0})) -a "$nok" -eq "$nt" -a "$nt" -gt 0 ]
	check "$name: run_start: the NVMe's discard granularity and limit, DLFEAT read zeroes" \
		sh -c "sh qemu/records.sh '$res/records.jsonl' run_start target.discard.granularity target.discard.max_bytes target.discard.dlfeat.read | grep -qE '^[1-9][0-9]*	[1-9][0-9]*	zeroes\$'"
	check "$name: discard_check: the discarded range of the target read back as zeroes, after a pattern was written" \
		has "$res" discard_check device=/dev/nvme0n1 status=ok written=true nonzero_bytes=0
	check "$name: report.md has the TRIM table, the read-back ok" grep -q '| target .*read back after a discard: ok' "$res/report.md"
	for f in 'accelerator:' 'first record:' 'total run time:' 'image total'; do
		check "$name: summary.txt has '$f'" grep -q "$f" "$res/summary.txt"
	done
}

# fake_image DISK OUT: a copy of DISK whose root partition (fsbench-root,
# ext4) holds tests/qemu/fake-fsbench as /usr/bin/fsbench, written by
# debugfs at the partition's offset; read back to be sure. The launcher
# takes the kernel, initramfs and sizes from the disk's folder: links to
# DISK's.
fake_image() {
	mkdir -p "$(dirname "$2")"
	for _f in kernel vmlinux initramfs.cpio.gz sizes-ext4.txt; do
		[ ! -e "$(dirname "$1")/$_f" ] || ln -sf "$(cd "$(dirname "$1")" && pwd)/$_f" "$(dirname "$2")/$_f"
	done
	cp --sparse=always "$1" "$2"
	_start=$(part_start "$2" fsbench-root)
	[ -n "$_start" ] || { echo "$1: no fsbench-root partition"; return 1; }
	_fs="$2?offset=$((_start * 512))"
	printf 'rm /usr/bin/fsbench\nwrite tests/qemu/fake-fsbench /usr/bin/fsbench\nsif /usr/bin/fsbench mode 0100755\n' >"$T/fake.debugfs"
	debugfs -w -f "$T/fake.debugfs" "$_fs" || return 1
	debugfs -R 'cat /usr/bin/fsbench' "$_fs" 2>/dev/null | cmp - tests/qemu/fake-fsbench
}

# The smoke run of every filesystem carries a brief file-server run each
# (60 files of mean 16 KiB, 2 workers, 1 s, after the rounds: a mkfs and
# about 2 s a filesystem under TCG).
FSV_BRIEF='fsbench.fileserver=1 fsbench.fileserver_files=60 fsbench.fileserver_size=16k fsbench.fileserver_workers=2 fsbench.fileserver_seconds=1'
# The smoke profile with a quarter of its files (125 a directory): the
# same filesystems, rounds, phases and evidence at a third of the guest's
# time (the whole profile took 125 s of it).
SMOKE_QUARTER='fsbench.files=125'
if wanted ext4 && boot smoke-ext4 ext4 --profile smoke --append "$SMOKE_QUARTER $FSV_BRIEF"; then
	check_full smoke-ext4
	# What `make run` is, a quarter of its files: the smoke profile on the
	# board's 10 GiB target,
	# judged by the board's shipped criteria, which it passes (but for
	# their floors of files/s: a test does not time the machine; the slow
	# case of tests/qemu/faults.sh has a floor fail); and the NVMe's count
	# of what it wrote within 32 MiB a filesystem and round of the files'
	# data (mkfs, journals and logs, metadata, and the file-server run's
	# mkfs and files: 15 MiB on average without it, measured)
	vrc=0
	grep -v '^min_files_per_s' "board/$BOARD/criteria.conf" >"$T/smoke-ext4.criteria"
	"${FSBENCH_HOST:-$O/host/fsbench}" verdict "$T/smoke-ext4" --criteria "$T/smoke-ext4.criteria" \
		>"$T/smoke-ext4.verdict" 2>&1 || vrc=$?
	check "smoke-ext4: verdict against board/$BOARD/criteria.conf (no floors of files/s): PASS (exit 0)" \
		sh -c "[ $vrc -eq 0 ] && grep -qx 'verdict: PASS' '$T/smoke-ext4.verdict'" || tail -n 5 "$T/smoke-ext4.verdict"
	wrote=$(rec "$T/smoke-ext4" phase phase bytes | awk -F'\t' '$1 == "create" { s += $2 } END { printf "%d", s }')
	nfr=$(rec "$T/smoke-ext4" phase fs round phase | awk -F'\t' '$3 == "create"' | wc -l)
	units=$(rec "$T/smoke-ext4" health when delta.nvme_smart.data_units_written | awk -F'\t' '$1 == "after" { print $2 }')
	case $units in ''|*[!0-9]*) fail "smoke-ext4: no data_units_written in the after health record's delta ($units)" ;; *)
		dw=$((units * 512000))
		info "smoke-ext4: the suite wrote $wrote bytes in $nfr rounds of its filesystems, the NVMe counted $units data units ($dw bytes): $((dw - wrote)) bytes more (mkfs, journal, metadata)"
		check "smoke-ext4: data units written cover the files' data, within 32 MiB a filesystem and round more" \
			[ "$dw" -ge "$wrote" -a "$((dw - wrote))" -le "$((nfr * 32 * 1048576))" ] ;;
	esac
	rec "$T/smoke-ext4" fileserver fs state status ops_per_s append.lat_ns.p99 >"$T/smoke-ext4.fileserver"
	info "smoke-ext4: fileserver (fs, state, status, ops/s, append p99 ns): $(tr '\t\n' ' ;' <"$T/smoke-ext4.fileserver")"
	check "smoke-ext4: a fresh fileserver record of each filesystem ($fslist), ok, every operation done" \
		sh -c "[ \$(awk -F'\t' '\$2 == \"fresh\" && \$3 == \"ok\" && \$4 > 0 && \$5 > 0' '$T/smoke-ext4.fileserver' | wc -l) -eq $(echo $fslist | wc -w) ]"
	check "smoke-ext4: report.md has the file-server table" grep -q '^| ext4 *| fresh .* ok, every byte checked' "$T/smoke-ext4/report.md"
fi
if wanted f2fs && boot smoke-f2fs f2fs --profile smoke --append "fsbench.fs=ext4,nilfs2 $BRIEF"; then
	check_full smoke-f2fs
	check "smoke-f2fs: the rootfs was f2fs" grep -q 'fsbench-init: rootfs /dev/vda[0-9]* / f2fs ro,' "$T/smoke-f2fs/serial.log"
	# nilfs2: made by the image's mkfs.nilfs2, its cleaner started beside
	# the mount (fs_start) and stopped before each umount (no error record:
	# one that had exited, or could not start, would be one)
	check "smoke-f2fs: nilfs2 ran, made by mkfs.nilfs2, its module loaded" \
		has "$T/smoke-f2fs" fs_start fs=nilfs2 "support=module loaded by fsbench"
	check "smoke-f2fs: nilfs2's fs_start names its cleaner, nilfs_cleanerd DEV MNT" \
		sh -c "sh qemu/records.sh '$T/smoke-f2fs/records.jsonl' fs_start fs cleaner | grep -qx 'nilfs2	/usr/sbin/nilfs_cleanerd /dev/nvme0n1 /tmp/fsbench-mnt'"
	check "smoke-f2fs: no cleaner error (it ran to each umount)" \
		sh -c "! sh qemu/records.sh '$T/smoke-f2fs/records.jsonl' error op | grep -qx cleaner"
fi

if wanted fake; then
	# the ext4 image with the stand-in as /usr/bin/fsbench: a copy, its
	# root partition rewritten in place by debugfs (no image build)
	fdisk=$T/fake-image/disk-ext4.img
	if ! make -s --no-print-directory image ROOTFS=ext4 >"$T/build-fake.log" 2>&1 ||
		! fake_image "$IMG/disk-ext4.img" "$fdisk" >>"$T/build-fake.log" 2>&1; then
		fail "fake: the ext4 image with the stand-in runner"; tail -n 20 "$T/build-fake.log"
	else
		# fake NAME launcher-options...: status in $rc. Each case runs
		# once, without a retry: the boots that "never started the
		# stand-in" were the panic case crashing the kernel before init
		# had written run_start to the console (the stand-in now waits for
		# it) and the kernel's early IO-APIC timer check panicking under
		# TCG on a busy host (no_timer_check in board.mk). A case that fails
		# shows what the launcher said and the console's end; make soak
		# counts how often a boot fails.
		# show NAME: what the launcher said and the guest console's end.
		show() {
			info "$1: what the launcher said:"
			grep -E '^qemu:|^  end:|^  total run time:' "$T/$1.out" | tail -n 8 || true
			info "$1: the console's last lines:"
			tail -n 15 "$T/$1/serial.log" 2>/dev/null | tr -d '\r' || true
		}
		fake() {
			n=$1; shift
			set +e
			sh qemu/run.sh --disk "$fdisk" --results "$T/$n" --quiet --accel tcg "$@" >"$T/$n.out" 2>&1
			rc=$?
			set -e
			nfail0=$T_FAIL
		}
		# After a case's checks: on a failure, what the launcher printed.
		explain() { [ "$T_FAIL" -eq "$nfail0" ] || show "$1"; }
		fake watchdog --timeout 120 \
			--append "fake_fsbench=hang fsbench.phase_timeout=1 fsbench_init.margin=3"
		check "watchdog: init's watchdog fired" grep -q 'fsbench-init: watchdog: no record for 4s' "$T/watchdog/serial.log"
		check "watchdog: the guest powered off by itself" sh -c "grep -q 'reboot: Power down' '$T/watchdog/serial.log' && grep -q 'end: *guest powered off' '$T/watchdog/run.txt'"
		check "watchdog: launcher status 4 (no run_end)" [ "$rc" -eq 4 ]
		check "watchdog: the run_start record was kept" [ "$(recs "$T/watchdog" run_start | wc -l)" -eq 1 ]
		explain watchdog
		fake panic --timeout 120 --append "fake_fsbench=panic"
		check "panic: the kernel panicked" grep -q 'Kernel panic' "$T/panic/serial.log"
		check "panic: the run_start record reached the console before the panic" \
			[ "$(console "$T/panic" | grep -c '"type":"run_start"')" -eq 1 ]
		check "panic: QEMU ended by itself (panic=1, -no-reboot)" grep -q 'end: *guest powered off' "$T/panic/run.txt"
		check "panic: launcher status 4 (no run_end)" [ "$rc" -eq 4 ]
		explain panic
		# console=ttyS0 (the board's) then console=tty0: the screen is
		# /dev/console, as on pc-x86_64; init mirrors to the serial port
		# without making it the run's controlling terminal.
		fake mirror --timeout 120 --append "console=tty0"
		check "mirror: init mirrors to the serial port" grep -q 'fsbench-init: starting fsbench (console also on /dev/ttyS0)' "$T/mirror/serial.log"
		check "mirror: the stand-in's messages reach the serial port" grep -q 'fake-fsbench: mkfs.xfs' "$T/mirror/serial.log"
		check "mirror: init has no controlling terminal (tty_nr 0)" grep -q "fake-fsbench: init's tty_nr 0," "$T/mirror/serial.log"
		console "$T/mirror" >"$T/mirror.console"
		check "mirror: the serial port's records equal the log partition's" cmp "$T/mirror.console" "$T/mirror/records.jsonl"
		check "mirror: launcher status 0" [ "$rc" -eq 0 ]
		explain mirror
		fake timeout --timeout 20 --append "fake_fsbench=hang"
		check "timeout: the launcher killed QEMU after 20 s" grep -q 'timeout: killed after 20s' "$T/timeout.out"
		check "timeout: launcher status 4" [ "$rc" -eq 4 ]
		check "timeout: the launcher shows the console's last lines" grep -q "console's last lines" "$T/timeout.out"
		explain timeout
	fi
fi

if wanted kill && boot killed ext4 --profile smoke --kill-after-records 12; then
	res=$T/killed
	check "killed: launcher reports the kill" grep -q 'killed after 12 records' "$T/killed.out"
	check "killed: launcher fails without run_end (status 4)" [ "$rc" -eq 4 ]
	check "killed: no run_end record" [ "$(recs "$res" run_end | wc -l)" -eq 0 ]
	console "$res" >"$T/killed.console"
	nlog=$(wc -l <"$res/records.jsonl")
	ncon=$(wc -l <"$T/killed.console")
	info "killed: $ncon records on the console, $nlog in the log partition"
	check "killed: the log kept every record but at most the one being written ($nlog of $ncon)" \
		test "$nlog" -ge 12 -a "$nlog" -ge $((ncon - 1))
	# The records both hold: the log is written first, so the console can
	# also be behind it (a long record, a layout one of 7 KiB, still on
	# its way over the serial port at the kill: its line cut short there)
	nboth=$((nlog < ncon ? nlog : ncon))
	head -n "$nboth" "$T/killed.console" >"$T/killed.console.head"
	head -n "$nboth" "$res/records.jsonl" >"$T/killed.log.head"
	check "killed: log records equal the console's, in order ($nboth both hold)" cmp "$T/killed.log.head" "$T/killed.console.head"
	seqs=$(rec "$res" "" seq | tr '\n' ' ')
	want=$(seq 0 $((nlog - 1)) | tr '\n' ' ')
	check "killed: sequence numbers 0..$((nlog - 1)) without a gap" [ "$seqs" = "$want" ]
fi

if wanted stall && [ "$BOARD" = qemu-x86_64 ]; then
	# A stand-in for the board's QEMU: the first STAND_STALLS starts take
	# no processor time (sleep); a later one prints a run's first and last
	# records on the console and ends.
	SB=$T/stall-bin
	mkdir -p "$SB"
	make -s --no-print-directory image ROOTFS=ext4 >"$T/build-stall.log" 2>&1 || {
		fail "stall: make image ROOTFS=ext4"; tail -n 20 "$T/build-stall.log"; }
	cat >"$SB/$BOARD_QEMU" <<'QEOF'
#!/bin/sh
echo start >>"$STAND_STARTS"
if [ "$(wc -l <"$STAND_STARTS")" -le "$STAND_STALLS" ]; then exec sleep 60; fi
for a; do case $a in *id=con,path=*) con=${a##*path=} ;; esac; done
printf 'FSBENCH:{"schema":1,"type":"run_start","run_id":"5a5a5a5a5a5a5a5a","seq":0,"t":0.1}\nFSBENCH:{"schema":1,"type":"run_end","run_id":"5a5a5a5a5a5a5a5a","seq":1,"t":0.2,"status":"ok","exit_code":0,"seconds":0.1,"fs_ok":0,"fs_failed":0}\nfsbench-init: powering off\n' >>"$con"
QEOF
	chmod +x "$SB/$BOARD_QEMU"
	# stall NAME STALLS RETRIES: the launcher over the stand-in; status in $rc
	stall() {
		rm -rf "$T/$1" "$T/$1.starts" "$T/$1.log"
		set +e
		PATH=$SB:$PATH STAND_STARTS=$T/$1.starts STAND_STALLS=$2 QEMU_STALL_LOG=$T/$1.log \
			sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$T/$1" --quiet --accel tcg --stall 2 \
			--stall-retries "$3" --criteria none --timeout 60 >"$T/$1.out" 2>&1
		rc=$?
		set -e
	}
	starts() { wc -l <"$T/$1.starts" | tr -d ' '; }
	stall stall-again 1 1
	check "stall: a guest stopped for good is booted again (--stall-retries 1): 2 starts ($(starts stall-again)), exit 0 ($rc)" \
		sh -c "[ $(starts stall-again) -eq 2 ] && [ $rc -eq 0 ]"
	check "stall: the stalled boot's console, end and threads in RESULTS/stalled-1/" sh -c \
		"grep -q '^why_end=.stalled: ' '$T/stall-again/stalled-1/watch.txt' && [ -f '$T/stall-again/stalled-1/serial.log' ] && [ -s '$T/stall-again/stalled-1/stall.txt' ]"
	check "stall: run.txt: the second boot's end, and the stalled boot before it" sh -c \
		"grep -q '^  end: *guest powered off' '$T/stall-again/run.txt' && grep -q '^  stalled boots before: 1, each booted again' '$T/stall-again/run.txt'"
	check "stall: one line in QEMU_STALL_LOG, naming the results" grep -q "$T/stall-again: stalled: .*; booted again\$" "$T/stall-again.log"
	stall stall-none 1 0
	check "stall: without retries the run ends stalled: 1 start, exit 4 ($rc), nothing in QEMU_STALL_LOG" sh -c \
		"[ $(starts stall-none) -eq 1 ] && [ $rc -eq 4 ] && grep -q '^  end: *stalled: ' '$T/stall-none/run.txt' && [ ! -s '$T/stall-none.log' ]"
	stall stall-twice 2 1
	check "stall: a second stop with no retry left ends the run stalled: 2 starts, exit 4 ($rc), run.txt names the first" sh -c \
		"[ $(starts stall-twice) -eq 2 ] && [ $rc -eq 4 ] && grep -q '^  end: *stalled: ' '$T/stall-twice/run.txt' && grep -q '^  stalled boots before: 1' '$T/stall-twice/run.txt'"
fi

summary

#!/bin/sh
# tests/qemu/launcher.sh: the launcher's own parts, without booting: the
# record reader, the per-round figures, the estimate, the progress line.
#   1. qemu/records.sh (jq) finds values by key wherever they stand, nested
#      keys by path, array items from 1, every value with --flat, the
#      console's other text in order with --text, skips lines that are
#      not records, and leaves out a kernel message printed right after a
#      record on its line.
#   2. qemu/rounds.awk: one line per filesystem of a recorded smoke run.
#   3. qemu/estimate.sh for the smoke and seed profiles from
#      qemu/figures.txt (total = boot + rounds x the figures, scaled), a
#      short run offered for seed, an earlier run in RESULTS preferred.
#   4. a recorded serial log (tests/qemu/smoke-serial.log, a smoke run on
#      four filesystems) replayed into qemu/watch.sh, output not a terminal:
#      a plain progress line per phase (fs n of N, round, phase, %, elapsed,
#      time left), % never going back, the end at 100%, no control
#      characters; a record's line said as it comes (the guest paused
#      after the first phase_start), not when a buffer fills.
#   5. the same under a pseudo-terminal (script -qc, util-linux): the line is
#      redrawn in place (a carriage return and a cleared line), one newline
#      at the end.
#   5c. qemu/kvm-probe.sh's kept answer (a stand-in QEMU that counts its
#      starts): reused with the same cache, kernel and machine, probed
#      again when one changes or without a cache.
#   6. qemu/run.sh --help and make help name RESULTS; make help lists every
#      variable a user may set (each ?= of the Makefile and the .mk files).
#   7. qemu/index.sh: a results folder's index.html rewritten, a link per
#      run, where it is said, entries that are not runs counted; when
#      fsbench history fails or there is no host fsbench, the old index
#      stays, stderr says why, the exit status is 0 and no temporary file
#      is left.
#   8. the guest's size (qemu/cmdline.sh, the accelerator given, not
#      probed: KVM does not have to run here): under KVM one vCPU per
#      worker of the profile, at most the host's cores, at least the
#      board's, memory to match; under TCG the board's 2 vCPUs and 2048 MiB
#      whatever the workers; QEMU_SMP and QEMU_MEM win; a bad number
#      refused; the size and why in OUT.guest (run.txt's guest line).
#   8b. the target's bus (TBUS, --target-bus): each bus's -device
#      arguments (the q35 machine's own AHCI, an ich9-ahci elsewhere), an
#      unknown bus refused by cmdline.sh and run.sh naming the value, the
#      unplug refused with any bus but nvme, an SD card whose size is not a
#      power of 2 refused, one that is passes.
#   8c. qemu/run.sh's QEMU argv over a stand-in QEMU (no boot): the guest's
#      words of each bus (the target, its wait, the drivers init loads, an
#      SD card without discards), of a zoned target (the namespaces by
#      wwid), a disk model's NBD drive, the QMP and monitor pipes.
#   9. a kernel of your own (image/kernel.sh check and stage, on made-up
#      trees: empty modules, no boot): a tree with every module the
#      qemu-x86_64 board needs passes; without f2fs (or with f2fs only as
#      =m in .config) or without virtio_blk it is refused with exit 2 and a
#      line naming the module, what it is for and the tree; f2fs built in
#      (modules.builtin or =y in .config) needs no module; a missing
#      checksum driver is optional, so are the other buses' drivers
#      (BOARD_BUS_MODULES) and an optional filesystem's module (nilfs2,
#      said in kernel-absent.txt); a folder with vmlinuz-VERSION and
#      lib/modules/VERSION and a build tree without modules_install (its
#      modules.order, with NAME.o or the older kernel/DIR/NAME.ko) are found; staged, the modules land in
#      lib/modules/VERSION with the config's built-in ones in modules.builtin.
# Inputs (environment): O (build output, absolute; FSBENCH_HOST defaults to
# $O/host/fsbench).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work
# files under $O/tests/launcher/.
set -eu

O=${O:?run through make check-qemu}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
T=$O/tests/launcher
LOG=tests/qemu/smoke-serial.log
. tests/qemu/lib.sh
rm -rf "$T"
test_init 'launcher tests' "$T"
export FSBENCH_HOST

# --- 1. records.sh ---------------------------------------------------------
{
	echo 'noise FSBENCH:{"type":"phase","config":{"fs":"nested"},"round":2,"fs":"xfs","lat_ns":{"p99":7},"w":[1.5,2],"s":"a\"b"}'
	echo 'FSBENCH:{"type":"phase", "fs" : "ext4" ,"round":1}'
	echo 'FSBENCH:{"type":"phase","fs":"torn'
	echo 'fsbench: a console line'
	echo 'FSBENCH:{"type":"run_end","exit_code":3}'
} >"$T/rec.log"
sh qemu/records.sh --console "$T/rec.log" phase fs round config.fs lat_ns.p99 'w[2]' s missing >"$T/rec.out"
printf 'xfs\t2\tnested\t7\t2\ta"b\t\next4\t1\t\t\t\t\t\n' >"$T/rec.want"
check "records.sh: values by key, nested by path, torn and console lines skipped" cmp "$T/rec.out" "$T/rec.want"
check "records.sh: a type's records only" [ "$(sh qemu/records.sh --console "$T/rec.log" run_end exit_code)" = 3 ]
printf '%s\r\n' 'FSBENCH:{"type":"fs_end","fs":"f2fs","ok":false,"n":null,"disks":[{"serial":"a"},{"serial":"b"}],"e":{},"o":{"mkfs_opts.ext4":"-m 1"}}' >>"$T/rec.log"
check "records.sh: array items counted from 1, an array is its length, false and null, a name with a dot, a carriage return dropped" \
	[ "$(sh qemu/records.sh --console "$T/rec.log" fs_end 'disks[2].serial' disks ok n 'disks[3].serial' o.mkfs_opts.ext4 | od -An -c | tr -s ' ')" = \
	"$(printf 'b\t2\tfalse\t\t\t-m 1\n' | od -An -c | tr -s ' ')" ]
# a kernel message the serial console printed right after a record, before
# its newline (seen in the unplug case of tests/qemu/faults.sh)
printf '%s\n' 'FSBENCH:{"type":"verify_error","seq":10,"file":"d0000/f0000017"}[   12.555790] Buffer I/O error on dev nvme0n1, logical block 0, lost sync page write' \
	'FSBENCH:{"type":"verify_error","seq":11,"text":"}[   1.5] stays"}' >"$T/printk.log"
check "records.sh: a kernel message right after a record is left out; a record that holds such text whole stays whole" \
	[ "$(sh qemu/records.sh --console "$T/printk.log" "")" = '{"type":"verify_error","seq":10,"file":"d0000/f0000017"}
{"type":"verify_error","seq":11,"text":"}[   1.5] stays"}' ]
sh qemu/records.sh --console --flat "$T/rec.log" fs_end >"$T/flat.out"
printf '%s\n' type=fs_end fs=f2fs ok=false n= 'disks[1].serial=a' 'disks[2].serial=b' 'o.mkfs_opts.ext4=-m 1' >"$T/flat.want"
check "records.sh --flat: every value as KEY=VALUE, in the record's order" cmp "$T/flat.out" "$T/flat.want"
sh qemu/records.sh --console --text "$T/rec.log" "" type >"$T/text.out"
printf 'text\t%s\n' 'noise ' >"$T/text.want"
printf 'record\t%s\n' phase phase >>"$T/text.want"
printf 'text\t%s\n' 'fsbench: a console line' >>"$T/text.want"
printf 'record\t%s\n' run_end fs_end >>"$T/text.want"
check "records.sh --text: the console's other text and the records, in order" cmp "$T/text.out" "$T/text.want"

# --- 2. rounds.awk -----------------------------------------------------------
tr -d '\r' <"$LOG" | sed -n 's/^.*FSBENCH:{/{/p' >"$T/smoke.jsonl"
sh qemu/records.sh "$T/smoke.jsonl" "" type t fs phase seconds status config.rounds config.dirs config.files |
	awk -F'\t' -f qemu/rounds.awk >"$T/rounds.out"
check "rounds.awk: one line per filesystem, in run order" \
	[ "$(cut -d' ' -f1 "$T/rounds.out" | tr '\n' ' ')" = "ext4 xfs btrfs f2fs " ]
check "rounds.awk: 2000 files, five phases each" \
	[ "$(awk '$2 == 2000 && NF == 8 && $4 ~ /^create=/ && $8 ~ /^delete=/' "$T/rounds.out" | wc -l)" -eq 4 ]

# --- 3. estimate -----------------------------------------------------------
# want PROFILE: boot + rounds x files/figure-files x round seconds + end, from
# qemu/figures.txt for qemu-x86_64 under TCG (4 filesystems).
want() {
	r=$("$FSBENCH_HOST" config --get rounds --profile "$1")
	n=$(($("$FSBENCH_HOST" config --get dirs --profile "$1") * $("$FSBENCH_HOST" config --get files --profile "$1")))
	awk -v p="$1" -v r="$r" -v n="$n" '$1 == "qemu-x86_64" && $2 == "tcg" && $3 == p {
		if ($4 == "boot" || $4 == "end") t += $5; else if ($4 != "run") t += r * $6 * n / $5 }
		END { printf "%.1f", t }' qemu/figures.txt
}
est() {	# NAME PROFILE [RESULTS]
	BOARD=qemu-x86_64 ACCEL=tcg PROFILE=$2 CONF=board/qemu-x86_64/fsbench.conf \
		RESULTS=${3:-$T/none} sh qemu/estimate.sh "$T/$1.plan" >"$T/$1.out" 2>&1 || true
	info "$1: $(head -n 1 "$T/$1.out")"
}
if [ ! -x "$FSBENCH_HOST" ]; then
	fail "estimate: no host fsbench $FSBENCH_HOST (make host)"
else
	for p in smoke seed; do
		est "$p" "$p"
		check "estimate $p: the plan's total is boot + rounds x figures ($(want "$p") s)" \
			[ "$(awk '$1 == "total" { print $2 }' "$T/$p.plan")" = "$(want "$p")" ]
		check "estimate $p: four filesystems in the plan" [ "$(grep -c '^fs ' "$T/$p.plan")" -eq 4 ]
	done
	check "estimate smoke: under 5 minutes, said in seconds or minutes" \
		grep -Eq '^this run should take about [0-9]+ (s|min) here.*smoke: 4 filesystems .* x 2 rounds of 2000 files, TCG' "$T/smoke.out"
	check "estimate seed: hours (figures of TCG, 2 cores)" \
		grep -Eq '^this run should take about [2-5] h [0-9]{2} min here.*seed: 4 filesystems .* x 3 rounds of 320000 files, TCG' "$T/seed.out"
	check "estimate seed: says where its figures come from" grep -q 'figures from qemu/figures.txt (qemu-x86_64, TCG, seed)' "$T/seed.out"
	check "estimate seed: offers a short run (PROFILE=smoke)" grep -Eq '^a short run: PROFILE=smoke .*about [0-9]+ (s|min)$' "$T/seed.out"
	check "estimate smoke: no short run offered" [ "$(grep -c 'short run' "$T/smoke.out")" -eq 0 ]
	# An earlier smoke run in RESULTS (run.txt + records.jsonl) is preferred;
	# one of another accelerator is not.
	mkdir -p "$T/res/20260101-000000-qemu-x86_64-smoke" "$T/res/20260102-000000-qemu-x86_64-smoke"
	for d in "$T"/res/*/; do
		cp "$T/smoke.jsonl" "$d/records.jsonl"
		printf 'run\n  board:                qemu-x86_64\n  profile:              smoke\n  accelerator:          TCG (asked for)\n  qemu start to first record: 4.0 s\n  total run time:       %s s\n  runner exit code:     0\n' \
			"$(sh qemu/records.sh "$T/smoke.jsonl" fs_end t | tail -n 1 | awk '{ printf "%.1f", $1 + 4.0 + 1.5 }')" >"$d/run.txt"
	done
	sed -i 's/TCG (asked for)/KVM (probe guest booted in 1.0 s)/' "$T/res/20260102-000000-qemu-x86_64-smoke/run.txt"
	est earlier smoke "$T/res"
	check "estimate: an earlier run of the same board, profile and accelerator is used" \
		grep -q 'figures from the earlier run 20260101-000000-qemu-x86_64-smoke' "$T/earlier.out"
	check "estimate: its figures (rounds.awk) are the plan's" sh -c \
		"[ \"\$(grep -c '^fs ' '$T/earlier.plan')\" -eq 4 ] && grep -q '^boot 4.0$' '$T/earlier.plan'"
	# its boot, its filesystems and its end (the last fs_end to power-off,
	# 1.5 s here): the estimate of a run like it is its own time again
	rt=$(sed -n 's/^ *total run time: *\([0-9.]*\) s$/\1/p' "$T/res/20260101-000000-qemu-x86_64-smoke/run.txt")
	check "estimate: an earlier run's end counted, its estimate its own time ($rt s) within 0.3 s" \
		awk -v a="$(awk '$1 == "total" { print $2 }' "$T/earlier.plan")" -v b="$rt" 'BEGIN { d = a - b; exit !(b > 0 && d < 0.3 && d > -0.3) }'
fi

# --- 4. progress, plain lines ------------------------------------------------
# A stand-in for QEMU: the recorded log written line by line into the
# console file, as a guest would.
# With a third argument N, it pauses 5 s after line N; a fourth is the
# pause after each line (default 0.01 s: the plain lines come from the
# progress log whatever the pace; the terminal's redraws, at most one a
# second and one a phase, want a slower pace).
cat >"$T/fake-qemu.sh" <<'END'
n=0
while IFS= read -r l; do
	printf '%s\n' "$l"; n=$((n + 1))
	[ "$n" != "${3:-}" ] || sleep 5
	sleep "${4:-0.01}"
done <"$1" >>"$2"
END
# watch NAME [watch options]: the command line of qemu/watch.sh on it
# (the fake QEMU pausing after line $pause when that is set).
watch() {
	n=$1; shift
	mkdir -p "$T/w-$n"
	: >"$T/w-$n/serial.log"
	echo sh qemu/watch.sh --serial "$T/w-$n/serial.log" --work "$T/w-$n" --plan "$T/smoke.plan" "$@" \
		-- sh "$T/fake-qemu.sh" "$LOG" "$T/w-$n/serial.log" "${pause:-0}" "${pace:-0.01}"
}
$(watch plain) >"$T/plain.out" 2>&1
grep '^qemu: ' "$T/plain.out" >"$T/plain.lines" || true
info "plain: $(wc -l <"$T/plain.lines") progress lines, e.g. '$(sed -n 3p "$T/plain.lines")'"
check "plain: one line per phase (4 filesystems x 2 rounds x 5 phases): 'fs n of 4 (FS), round r of 2, PHASE, P%, elapsed H:MM:SS, about T left'" \
	[ "$(grep -Ec '^qemu: fs [1-4] of 4 \((ext4|xfs|btrfs|f2fs)\), round [12] of 2, (create|stat|read|read_inode|delete), [0-9]+%, elapsed [0-9]+:[0-9]{2}:[0-9]{2}, about [0-9]+ (s|min) left$' "$T/plain.lines")" -eq 40 ]
for n in 1 2 3 4; do
	check "plain: filesystem $n of 4 shown" grep -q "^qemu: fs $n of 4 " "$T/plain.lines"
done
check "plain: the overall % never goes back" sh -c "sed -n 's/.*, \([0-9]*\)%, .*/\1/p' '$T/plain.lines' | sort -n -c"
check "plain: the last line is the end at 100%" sh -c "tail -n 1 '$T/plain.lines' | grep -Eq '^qemu: run ended, 100%, elapsed '"
check "plain: the console is shown without the record lines" sh -c \
	"grep -q '^fsbench: ext4 round 1/2 create: ' '$T/plain.out' && ! grep -q 'FSBENCH:{' '$T/plain.out'"
check "plain: no control characters (no carriage return, no escape)" sh -c "! grep -q \"\$(printf '[\\r\\033]')\" '$T/plain.out'"
check "plain: watch.txt has the times and QEMU's status" sh -c \
	". '$T/w-plain/watch.txt' && [ -n \"\$first\" ] && [ \"\$qrc\" = 0 ] && [ -z \"\$why_end\" ]"
# A phase the plan does not weigh (fstrim after each delete, as a runner
# with fstrim = 1 writes it) keeps the position its round has reached.
sed 's/^\(FSBENCH:{"schema":1,"type":"phase","run_id":"[0-9a-f]*","seq":[0-9]*,"t":[0-9.]*,\("fs":"[a-z0-9]*","round":[0-9]*,\)"phase":"delete".*\)$/\1\
FSBENCH:{"schema":1,"type":"phase_start","run_id":"x","seq":0,"t":0,\2"phase":"fstrim"}\
FSBENCH:{"schema":1,"type":"phase","run_id":"x","seq":0,"t":0,\2"phase":"fstrim"}/' "$LOG" >"$T/trim.log"
$(LOG=$T/trim.log watch trim) >"$T/trim.out" 2>&1
grep '^qemu: ' "$T/trim.out" >"$T/trim.lines" || true
check "fstrim: a line for it after each delete (8), the overall % never goes back" sh -c \
	"[ \$(grep -c ', fstrim, ' '$T/trim.lines') -eq 8 ] && sed -n 's/.*, \([0-9]*\)%, .*/\1/p' '$T/trim.lines' | sort -n -c"

# Live: a record is read as it comes, not when a buffer fills. The guest
# pauses 5 s right after the first phase_start (a moment in): its line must
# be out before the pause ends.
pause=$(grep -n -m 1 "FSBENCH:{.*\"type\":\"phase_start\"" "$LOG" | cut -d: -f1)
$(watch live --quiet) >"$T/live.out" 2>&1
pause=
first=$(grep -m 1 '^qemu: fs ' "$T/live.out" || true)
info "live: the first phase's line: '$first'"
check "live: the first phase's line is out within 3 s of the start, during the guest's 5 s pause" sh -c \
	"echo '$first' | grep -q '^qemu: fs 1 of 4 (ext4), round 1 of 2, create, 0%, elapsed 0:00:0[0-2], '"

# --- 5. progress on a terminal ---------------------------------------------
if ! command -v script >/dev/null 2>&1; then
	skip "tty: no script (util-linux) to give the launcher a pseudo-terminal"
else
	# quiet: the progress line alone, redrawn in place.
	script -qc "$(pace=0.04 watch tty --quiet)" /dev/null </dev/null >"$T/tty.out" 2>&1 || true
	draws=$(grep -o "$(printf '\r\033')\[Kqemu: " "$T/tty.out" | wc -l)
	info "tty: $draws draws of the progress line"
	check "tty: the progress line is redrawn in place (carriage return, cleared line), many times" [ "$draws" -ge 5 ]
	check "tty: one line: a single newline, at the end" [ "$(tr -d '\r' <"$T/tty.out" | wc -l)" -eq 1 ]
	check "tty: the last draw is the end at 100%" sh -c \
		"tr '\\r' '\\n' <'$T/tty.out' | grep -v '^\$' | tail -n 1 | grep -q 'qemu: run ended, 100%'"
	check "tty: fs n of 4 and the time left in the line" grep -Eq 'qemu: fs [1-4] of 4 .*%, elapsed .*, about .* left' "$T/tty.out"
fi

# --- 5b. a stalled guest -----------------------------------------------------
# A stand-in QEMU that writes a line and then takes no processor time
# (sleep) is ended after --stall seconds with why_end saying so and its
# threads listed; one that keeps computing is not.
mkdir -p "$T/w-stall" "$T/w-busy"
: >"$T/w-stall/serial.log"; : >"$T/w-busy/serial.log"
t_s=$(date +%s)
sh qemu/watch.sh --quiet --stall 2 --serial "$T/w-stall/serial.log" --work "$T/w-stall" -- \
	sh -c 'echo "fsbench-init: powering off" >>"$1"; exec sleep 60' sh "$T/w-stall/serial.log" >"$T/stall.out" 2>&1
t_e=$(($(date +%s) - t_s))
check "stall: a guest without processor time for 2 s is ended, said so (in $t_e s)" sh -c \
	". '$T/w-stall/watch.txt' && case \"\$why_end\" in 'stalled: the guest stopped for good, QEMU used no processor time in 2s'*) [ $t_e -le 10 ] ;; *) false ;; esac &&
	 grep -q '^qemu: stalled: ' '$T/stall.out'"
check "stall: its threads' states in stall.txt" grep -Eq '^[0-9]+ sleep [A-Z] ' "$T/w-stall/stall.txt"
sh qemu/watch.sh --quiet --stall 2 --serial "$T/w-busy/serial.log" --work "$T/w-busy" -- \
	sh -c 'end=$(($(date +%s) + 5)); while [ $(date +%s) -lt $end ]; do :; done' >"$T/busy.out" 2>&1
check "stall: a guest that computes for 5 s is not ended (--stall 2)" sh -c \
	". '$T/w-busy/watch.txt' && [ -z \"\$why_end\" ] && [ ! -e '$T/w-busy/stall.txt' ]"
expect_rc 2 "stall: --stall x is misuse" sh qemu/watch.sh --stall x --serial "$T/w-busy/serial.log" --work "$T/w-busy" -- true

# --- 5c. the KVM probe's kept answer -------------------------------------
# qemu/kvm-probe.sh with a stand-in QEMU of the host's architecture that
# counts its starts and boots at once: a first probe starts it, a second
# with the same cache gives the kept answer (no start, "reused"), a changed
# kernel file or machine probes again; no cache, always a probe. Needs a
# /dev/kvm this user may open (the probe refuses before anything else).
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	K=$T/kvm
	mkdir -p "$K/bin"
	qname=qemu-system-$(uname -m)
	cat >"$K/bin/$qname" <<'QEOF'
#!/bin/sh
echo x >>"$KVM_STARTS"
for a; do case $a in file:*) echo 'Linux version 6.1.0 (stand-in)' >"${a#file:}" ;; esac; done
QEOF
	chmod +x "$K/bin/$qname"
	printf 'kernel\n' >"$K/kernel"
	probe() {
		PATH=$K/bin:$PATH KVM_STARTS=$K/starts BOARD_QEMU=$qname BOARD_QEMU_MACHINE=${KM:-q35} \
			BOARD_QEMU_CPU_KVM=host BOARD_CONSOLE=ttyS0 sh qemu/kvm-probe.sh "$K/kernel" "$K" "$@"
	}
	starts() { wc -l <"$K/starts" 2>/dev/null | tr -d ' ' || echo 0; }
	: >"$K/starts"
	out=$(probe "$K/cache")
	check "kvm-probe: a first probe starts QEMU and says the guest booted ($out)" sh -c \
		"[ $(starts) -eq 1 ] && case '$out' in 'probe guest booted in '*' s') true ;; *) false ;; esac"
	out=$(probe "$K/cache")
	check "kvm-probe: the second, same cache: the kept answer, QEMU not started ($out)" sh -c \
		"[ $(starts) -eq 1 ] && case '$out' in 'probe guest booted in '*' s (probed at '*', reused)') true ;; *) false ;; esac"
	probe >/dev/null
	check "kvm-probe: without a cache, always a probe" [ "$(starts)" -eq 2 ]
	touch -d '2026-01-01 00:00:00' "$K/kernel"
	out=$(probe "$K/cache")
	check "kvm-probe: another kernel file (its time changed): a new probe ($out)" sh -c \
		"[ $(starts) -eq 3 ] && ! echo '$out' | grep -q reused"
	out=$(KM=pc probe "$K/cache")
	check "kvm-probe: another machine: a new probe" sh -c "[ $(starts) -eq 4 ] && ! echo '$out' | grep -q reused"
	out=$(KM=pc probe "$K/cache")
	check "kvm-probe: ... and that answer kept" sh -c "[ $(starts) -eq 4 ] && echo '$out' | grep -q reused"
	check "kvm-probe: no scratch file left beside the cache" sh -c "[ -z \"\$(ls '$K' | grep '^cache\\.')\" ]"
else
	skip "kvm-probe: no /dev/kvm this user may open (the probe stops before QEMU)"
fi

# --- 6. the documented override and make help ---------------------------
check "run.sh --help: RESULTS is documented" sh -c "sh qemu/run.sh --help | grep -q 'RESULTS (where runs land'"
make -s --no-print-directory help O="$T/o" >"$T/help.out" 2>&1
check "make help: the Build, Run, Test, Benchmark, Cleaning and Variables sections" sh -c \
	"for s in Build Run Test Benchmark Cleaning Variables; do grep -q \"^\$s\" '$T/help.out' || exit 1; done"
missing=
for v in $(sed -n 's/^\([A-Z][A-Z0-9_]*\) *?=.*/\1/p' Makefile image/image.mk tests/*/*.mk | sort -u) QEMU_ARGS; do
	grep -q "^  $v=" "$T/help.out" || missing="$missing $v"
done
if [ -z "$missing" ]; then pass "make help: every variable a user may set"; else fail "make help: not listed:$missing"; fi

# --- 7. the index of a results folder --------------------------------------
R=$T/index
mkdir -p "$R/20251130-100000-qemu-x86_64-smoke" "$R/notes"
cp "$T/smoke.jsonl" "$R/20251130-100000-qemu-x86_64-smoke/records.jsonl"
"$FSBENCH_HOST" report "$R/20251130-100000-qemu-x86_64-smoke" --format html \
	>"$R/20251130-100000-qemu-x86_64-smoke/report.html" 2>/dev/null
cp "$T/smoke.jsonl" "$R/older.jsonl"
expect_rc 0 "index.sh: a results folder of two runs and a folder of notes" sh qemu/index.sh "$R"
check "index.sh: says where the index is" contains "$OUT" "qemu: index of the runs: $R/index.html"
check "index.sh: the folder that is not a run counted as left out" \
	contains "$OUT" "qemu: index: 1 entry of $R left out, not a run that can be read"
check "index.sh: a link per run, to its report.html or its records" sh -c \
	"grep -c '<td><a href=\"20251130-100000-qemu-x86_64-smoke/report.html\">' '$R/index.html' &&
	 grep -c '<td><a href=\"older.jsonl\">' '$R/index.html'"
cp "$R/index.html" "$T/index.before"
printf '#!/bin/sh\necho "fsbench: history $2: Permission denied" >&2\nexit 4\n' >"$T/failing-fsbench"
chmod +x "$T/failing-fsbench"
expect_rc 0 "index.sh: fsbench history fails" env FSBENCH_HOST="$T/failing-fsbench" sh qemu/index.sh "$R"
check "index.sh: the old index stays" cmp "$R/index.html" "$T/index.before"
check "index.sh: stderr says so, with what history said" sh -c \
	"printf '%s\n' \"\$1\" | grep -qxF 'qemu: $R/index.html not rewritten (the old one stays): fsbench history $R exited with 4' &&
	 printf '%s\n' \"\$1\" | grep -qxF '  fsbench: history $R: Permission denied'" - "$ERR"
expect_rc 0 "index.sh: no host fsbench" env FSBENCH_HOST=/nonexistent sh qemu/index.sh "$R"
check "index.sh: stderr says so" contains "$ERR" "not rewritten (the old one stays): no host fsbench /nonexistent"
check "index.sh: the old index stays, no temporary file left" sh -c \
	"cmp '$R/index.html' '$T/index.before' && [ -z \"\$(ls -A '$R' | grep '^\\.')\" ]"

# --- 8. the guest's size -------------------------------------------------------
eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"
guest() {	# NAME VAR=VALUE...: cmdline.sh's argv in $T/smp-NAME/qemu.argv
	_w=$T/smp-$1; shift
	mkdir -p "$_w"
	env WORK="$_w" CPU=max SERIAL="$_w/serial.log" KERNEL=k INITRD=i ROOTFS=ext4 \
		PROFILE=seed TCACHE=none "$@" sh qemu/cmdline.sh "$_w/qemu.argv"
}
# size NAME: "-smp N -m M" from the argv
size() { awk 'p == "-smp" || p == "-m" { printf "%s%s %s", (n++ ? " " : ""), p, $0 } { p = $0 }' "$T/smp-$1/qemu.argv"; }
guest kvm16 ACCEL=kvm WORKERS=16 HOST_CPUS=256
check "guest: KVM, 16 workers, 256 cores: 16 vCPUs, 5120 MiB" [ "$(size kvm16)" = "-smp 16 -m 5120" ]
check "guest: why, in OUT.guest" grep -qxF "16 vCPUs, 5120 MiB (KVM: the profile's 16 workers; 256 host cores)" "$T/smp-kvm16/qemu.argv.guest"
guest kvmfew ACCEL=kvm WORKERS=16 HOST_CPUS=6
check "guest: KVM, 16 workers, 6 cores: 6 vCPUs" [ "$(size kvmfew)" = "-smp 6 -m 2560" ]
guest kvm1 ACCEL=kvm WORKERS=1 HOST_CPUS=8
check "guest: KVM, 1 worker: the board's 2 vCPUs, its 2048 MiB" [ "$(size kvm1)" = "-smp 2 -m 2048" ]
guest tcg16 ACCEL=tcg WORKERS=16 HOST_CPUS=256
check "guest: TCG, 16 workers: the board's 2 vCPUs, 2048 MiB" [ "$(size tcg16)" = "-smp 2 -m 2048" ]
check "guest: TCG: why" grep -qxF "2 vCPUs, 2048 MiB (TCG: the board's BOARD_QEMU_SMP)" "$T/smp-tcg16/qemu.argv.guest"
guest tcgset ACCEL=tcg WORKERS=16 SMP=4 MEM=3000
check "guest: QEMU_SMP=4 QEMU_MEM=3000 under TCG" [ "$(size tcgset)" = "-smp 4 -m 3000" ]
guest tcgone ACCEL=tcg WORKERS=4 SMP=1
check "guest: QEMU_SMP=1: one vCPU, said in the singular" sh -c \
	"[ \"\$(awk 'p == \"-smp\" { print } { p = \$0 }' '$T/smp-tcgone/qemu.argv')\" = 1 ] && grep -qxF '1 vCPU, 2048 MiB (QEMU_SMP)' '$T/smp-tcgone/qemu.argv.guest'"
guest kvmset ACCEL=kvm WORKERS=16 HOST_CPUS=256 SMP=3
check "guest: QEMU_SMP=3 under KVM, memory to match" [ "$(size kvmset)" = "-smp 3 -m 2048" ]
expect_rc 2 "guest: QEMU_SMP=0 refused" guest bad ACCEL=tcg SMP=0
check "guest: the message names QEMU_SMP" contains "$ERR" "qemu: QEMU_SMP '0': a number > 0"
expect_rc 2 "run.sh: --smp x refused before anything runs" sh qemu/run.sh --smp x --disk /nonexistent
check "run.sh: the message says what is wanted" contains "$ERR" "a number > 0, not 'x'"

# --- 8b. the target's bus ------------------------------------------------------
# argv NAME: the -device arguments of cmdline.sh's argv, one a line
devs() { awk 'p == "-device" { print } { p = $0 }' "$T/smp-$1/qemu.argv"; }
guest bus-nvme ACCEL=tcg
check "bus: nvme by default" [ "$(devs bus-nvme | tail -n 1)" = "nvme,drive=target,serial=fsbench-target" ]
guest bus-ahci ACCEL=tcg TBUS=ahci
check "bus: ahci on q35: ide-hd on the machine's AHCI" [ "$(devs bus-ahci | tail -n 1)" = "ide-hd,bus=ide.0,drive=target,serial=fsbench-target" ]
guest bus-ahci-virt ACCEL=tcg TBUS=ahci BOARD_QEMU_MACHINE=virt
check "bus: ahci elsewhere: an ich9-ahci of its own" [ "$(devs bus-ahci-virt | tail -n 2 | tr '\n' ' ')" = "ich9-ahci,id=fsbench-ahci ide-hd,bus=fsbench-ahci.0,drive=target,serial=fsbench-target " ]
guest bus-usb ACCEL=tcg TBUS=usb
check "bus: usb: usb-storage on a qemu-xhci" [ "$(devs bus-usb | tail -n 2 | tr '\n' ' ')" = "qemu-xhci,id=fsbench-xhci usb-storage,bus=fsbench-xhci.0,drive=target,serial=fsbench-target " ]
guest bus-uas ACCEL=tcg TBUS=uas
check "bus: uas: usb-uas and its scsi-hd" [ "$(devs bus-uas | tail -n 3 | tr '\n' ' ')" = "qemu-xhci,id=fsbench-xhci usb-uas,id=fsbench-uas,bus=fsbench-xhci.0 scsi-hd,bus=fsbench-uas.0,scsi-id=0,lun=0,drive=target,serial=fsbench-target " ]
guest bus-sd ACCEL=tcg TBUS=sd
check "bus: sd: sd-card on an sdhci-pci, no serial" [ "$(devs bus-sd | tail -n 2 | tr '\n' ' ')" = "sdhci-pci,id=fsbench-sdhci sd-card,bus=sd-bus,drive=target " ]
guest bus-scsi ACCEL=tcg TBUS=scsi
check "bus: scsi: scsi-hd on a virtio-scsi-pci" [ "$(devs bus-scsi | tail -n 2 | tr '\n' ' ')" = "virtio-scsi-pci,id=fsbench-scsi scsi-hd,bus=fsbench-scsi.0,drive=target,serial=fsbench-target " ]
guest bus-usb-thr ACCEL=tcg TBUS=usb TTHROTTLE=200
check "bus: the throttle (a block-layer driver) under usb-storage" sh -c \
	"grep -q '^file=.*,id=target,cache=none,discard=unmap,throttling.iops-total=200\$' '$T/smp-bus-usb-thr/qemu.argv' &&
	 grep -qx 'usb-storage,bus=fsbench-xhci.0,drive=target,serial=fsbench-target' '$T/smp-bus-usb-thr/qemu.argv'"
expect_rc 2 "bus: cmdline.sh TBUS=floppy refused" guest bus-bad ACCEL=tcg TBUS=floppy
check "bus: cmdline.sh names the value" contains "$ERR" "TBUS 'floppy'"
expect_rc 2 "run.sh: --target-bus floppy refused" sh qemu/run.sh --target-bus floppy --disk /nonexistent
check "run.sh: the message names the value and the buses" contains "$ERR" "--target-bus 'floppy': nvme, ahci, usb, uas, sd or scsi"
expect_rc 2 "run.sh: --target-bus usb with the unplug refused" \
	sh qemu/run.sh --target-bus usb --unplug-target-after-records 3 --disk /nonexistent
check "run.sh: the unplug needs nvme, and says so" contains "$ERR" "only with --target-bus nvme"
expect_rc 2 "run.sh: an SD card of 10G refused (not a power of 2)" \
	sh qemu/run.sh --target-bus sd --target-size 10G --disk /nonexistent
check "run.sh: the SD size message" contains "$ERR" "the SD card's size must be a power of 2"
expect_rc 2 "run.sh: an SD card of 256M passes the size check (then: no disk image)" \
	sh qemu/run.sh --target-bus sd --target-size 256M --disk /nonexistent
check "run.sh: ... and stops at the missing disk image" contains "$ERR" "no disk image /nonexistent"

# --- 8c. run.sh's argv: what its options give cmdline.sh ---------------------
# run.sh over a stand-in QEMU that ends at once (no boot) and a made-up
# image folder, QEMU's argv kept in the work folder (--work): the guest's
# words of each bus and of a zoned target, a disk model's NBD drive, the
# watch's QMP and monitor pipes.
RI=$T/runimg
mkdir -p "$RI"
: >"$RI/kernel"; : >"$RI/initramfs.cpio.gz"; truncate -s 1M "$RI/disk-ext4.img"
printf '#!/bin/sh\nexit 0\n' >"$RI/qemu"; chmod +x "$RI/qemu"
# runargv NAME OPTION...: run.sh's QEMU argv in $T/run-NAME/qemu.argv, its
# -append in APP, a line in ARG per -drive and -device argument
runargv() {
	_n=$1; shift
	rm -rf "$T/run-$_n" "$T/run-$_n.res"
	(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"
	 BOARD=qemu-x86_64 BOARD_QEMU=$RI/qemu sh qemu/run.sh --disk "$RI/disk-ext4.img" --accel tcg --quiet \
		--stall 0 --work "$T/run-$_n" --results "$T/run-$_n.res" "$@") >"$T/run-$_n.out" 2>&1 || true
	APP=$(awk 'p == "-append" { print } { p = $0 }' "$T/run-$_n/qemu.argv" 2>/dev/null) || APP=
	ARG=$(awk 'p == "-drive" || p == "-device" { print } { p = $0 }' "$T/run-$_n/qemu.argv" 2>/dev/null) || ARG=
}
W='fsbench.yes=1 fsbench.profile=smoke'
runargv nvme --profile smoke
check "run.sh: nvme: the guest told its buses' drivers, the capacity check off" contains "$APP" "$W fsbench_init.buses=nvme fsbench.capacity=0"
runargv ahci --profile smoke --target-bus ahci
check "run.sh: ahci: the target by its serial, a wait, SATA's drivers" \
	contains "$APP" "$W fsbench.target=serial:fsbench-target fsbench.target_wait=30 fsbench_init.buses=sata fsbench.capacity=0"
runargv uas --profile smoke --target-bus uas --append fsbench.target_wait=5
check "run.sh: uas: USB's drivers, the wait --append gave kept" \
	contains "$APP" "fsbench.target_wait=5 fsbench.target=serial:fsbench-target fsbench_init.buses=usb fsbench.capacity=0"
runargv sd --profile smoke --target-bus sd --append fsbench.mkfs_opts.xfs=-f
check "run.sh: sd: the card's name, no discards but the mkfs_opts --append gave, no fstrim" contains "$APP" \
	"fsbench.mkfs_opts.xfs=-f fsbench.target=model:QEMU! fsbench.target_wait=30 fsbench_init.buses=mmc fsbench.mkfs_opts.ext4=-Enodiscard fsbench.mkfs_opts.btrfs=-K fsbench.mkfs_opts.f2fs=-t0 fsbench.fstrim=0 fsbench.capacity=0"
check "run.sh: sd: an 8G card unless --target-size says" grep -q '^qemu: boot .*, target 8G SD card ' "$T/run-sd.out"
ZW=nvme.1b36-667362656e63682d746172676574-51454d55204e564d65204374726c
runargv zoned --profile smoke --target-zoned 32M,max_open=4 --target-size 1G --zoned-size 512M
check "run.sh: zoned: the zoned namespace the target, the conventional one zoned_conv" contains "$APP" \
	"$W fsbench.target=wwn:$ZW-00000002 fsbench.zoned_conv=wwn:$ZW-00000001 fsbench_init.buses=nvme fsbench.capacity=0"
check "run.sh: zoned: QEMU's namespace of 512M zoned in 32M, at most 4 open" sh -c \
	"echo '$ARG' | grep -q 'nsid=2,uuid=5a0e4a5e-0000-4000-8000-000000000002,zoned=true,zoned.zone_size=32M,zoned.max_open=4\$' &&
	 [ \$(stat -c %s '$T/run-zoned/zoned.img') = 536870912 ]"
runargv conv --profile smoke --target-zoned --target-ns conventional --target-size 128M
check "run.sh: zoned, --target-ns conventional: that namespace the target, no zoned_conv" \
	contains "$APP" "$W fsbench.target=wwn:$ZW-00000001 fsbench_init.buses=nvme fsbench.capacity=0"
runargv events --target-throttle 50 --throttle-at 2:iops=10 --cut-after-line X
check "run.sh: --throttle-at: QMP's named pipes, the target's device named" sh -c \
	"[ -p '$T/run-events/qmp.in' ] && echo '$ARG' | grep -qxF 'nvme,drive=target,serial=fsbench-target,id=fsbench-target' &&
	 echo '$ARG' | grep -q 'throttling.iops-total=50\$'"
runargv unplug --unplug-target-after-records 3
check "run.sh: the unplug: the monitor's named pipes, a root port" sh -c \
	"[ -p '$T/run-unplug/monitor.in' ] && echo '$ARG' | grep -q '^pcie-root-port,'"
if have nbdkit; then
	runargv model --target-model cache:16M --target-bus scsi
	check "run.sh: --target-model: the target read through nbd on the model's socket" sh -c \
		"echo '$ARG' | grep -q '^driver=raw,file.driver=nbd,file.server.type=unix,file.server.path=$T/run-model/target.sock,' &&
		 grep -q '^qemu: target model: cache:16M (volatile write cache of 16M' '$T/run-model.out' &&
		 echo '$ARG' | grep -qxF 'scsi-hd,bus=fsbench-scsi.0,drive=target,serial=fsbench-target'"
else
	skip "run.sh: --target-model: nbdkit not installed"
fi

# --- 9. a kernel of your own -------------------------------------------------------
K=$T/kernel
V=6.1.0-test
"$FSBENCH_HOST" config --filesystems >"$T/filesystems.txt"
# mktree DIR: a build tree after make modules_install INSTALL_MOD_PATH=DIR,
# every module the board and the filesystems need (empty files)
mktree() {
	rm -rf "$1"
	mkdir -p "$1/arch/x86/boot" "$1/include/config" "$1/lib/modules/$V/kernel"
	echo bzImage >"$1/arch/x86/boot/bzImage"
	echo "$V" >"$1/include/config/kernel.release"
	printf 'CONFIG_F2FS_FS=m\nCONFIG_VIRTIO_BLK=m\n' >"$1/.config"
	for m in $(cut -f4 "$T/filesystems.txt" | tr ',' ' ') $BOARD_MODULES $BOARD_BOOT_MODULES $BOARD_INIT_MODULES; do
		: >"$1/lib/modules/$V/kernel/$m.ko"
	done
	: >"$1/lib/modules/$V/modules.builtin"
}
kcheck() { env BOARD=qemu-x86_64 FILESYSTEMS="$T/filesystems.txt" sh image/kernel.sh check "$@"; }
mktree "$K/full"
expect_rc 0 "kernel: a tree with every module the board needs" kcheck "$K/full" "$K/out-full"
check "kernel: kernel-src.txt names the version, the image and the modules" sh -c \
	"grep -qxF 'kernel $V' '$K/out-full/kernel-src.txt' && grep -qxF 'image $K/full/arch/x86/boot/bzImage' '$K/out-full/kernel-src.txt' &&
	 grep -qxF 'modules $K/full/lib/modules/$V' '$K/out-full/kernel-src.txt'"
cp "$K/out-full/kernel-src.txt" "$T/ksrc.before"
touch -d @1700000000 "$K/out-full/kernel-src.txt"
kcheck "$K/full" "$K/out-full" >/dev/null 2>&1
check "kernel: an unchanged kernel leaves kernel-src.txt as it was (no restage)" \
	[ "$(stat -c %Y "$K/out-full/kernel-src.txt")" = 1700000000 ]
touch -d @1700000100 "$K/full/lib/modules/$V/kernel/f2fs.ko"
kcheck "$K/full" "$K/out-full" >/dev/null 2>&1
check "kernel: a rebuilt module rewrites kernel-src.txt" [ "$(stat -c %Y "$K/out-full/kernel-src.txt")" != 1700000000 ]

# nilfs2 is optional (the table's last column): a tree without it is taken,
# its module said absent (stage.sh leaves it out; the runner skips nilfs2)
mktree "$K/nonilfs"
rm "$K/nonilfs/lib/modules/$V/kernel/nilfs2.ko"
expect_rc 0 "kernel: a tree without nilfs2, an optional filesystem, is taken" kcheck "$K/nonilfs" "$K/out-nonilfs"
check "kernel: nilfs2 listed in kernel-absent.txt" grep -qxF nilfs2 "$K/out-nonilfs/kernel-absent.txt"

mktree "$K/nof2fs"
rm "$K/nof2fs/lib/modules/$V/kernel/f2fs.ko"
sed -i '/F2FS/d' "$K/nof2fs/.config"
expect_rc 2 "kernel: a tree without f2fs is refused" kcheck "$K/nof2fs" "$K/out-nof2fs"
check "kernel: the message names f2fs and where it looked" contains "$ERR" \
	"kernel: f2fs: neither built in nor a module in $K/nof2fs/lib/modules/$V (CONFIG_F2FS_FS is not set in .config)"
check "kernel: the last line names the tree and counts" contains "$ERR" \
	"kernel: $K/nof2fs: 1 module(s) the board qemu-x86_64 needs are missing (kernel $V"
check "kernel: nothing else is said missing" [ "$(printf '%s\n' "$ERR" | grep -c ': neither built in\|: missing:')" = 1 ]
printf 'CONFIG_F2FS_FS=m\n' >>"$K/nof2fs/.config"
expect_rc 2 "kernel: f2fs =m in .config, not installed: refused" kcheck "$K/nof2fs" "$K/out-nof2fs"
check "kernel: the message says to install the modules" contains "$ERR" \
	"(the config has CONFIG_F2FS_FS=m: make modules_install INSTALL_MOD_PATH=$K/nof2fs)"
sed -i 's/^CONFIG_F2FS_FS=m$/CONFIG_F2FS_FS=y/' "$K/nof2fs/.config"
expect_rc 0 "kernel: f2fs =y in .config: built in, no module needed" kcheck "$K/nof2fs" "$K/out-nof2fs"
check "kernel: said built in by the config" grep -qxF "built in by the config: f2fs" "$K/out-nof2fs/kernel-src.txt"
sed -i '/F2FS/d' "$K/nof2fs/.config"
echo kernel/fs/f2fs/f2fs.ko >"$K/nof2fs/lib/modules/$V/modules.builtin"
expect_rc 0 "kernel: f2fs in modules.builtin: no module needed" kcheck "$K/nof2fs" "$K/out-nof2fs"

mktree "$K/novirtio"
rm "$K/novirtio/lib/modules/$V/kernel/virtio_blk.ko"
expect_rc 2 "kernel: a tree without virtio_blk is refused" kcheck "$K/novirtio" "$K/out-novirtio"
check "kernel: the message says the rootfs cannot be found" contains "$ERR" \
	"kernel: virtio_blk: missing: the rootfs cannot be found (the config has CONFIG_VIRTIO_BLK=m"

mktree "$K/nocrc"
rm "$K/nocrc/lib/modules/$V/kernel/crc32c-intel.ko"
expect_rc 0 "kernel: no crc32c-intel: optional" kcheck "$K/nocrc" "$K/out-nocrc"
check "kernel: kernel-absent.txt names it" grep -qxF crc32c-intel "$K/out-nocrc/kernel-absent.txt"
mktree "$K/nobus"
for m in $BOARD_BUS_MODULES; do rm -f "$K/nobus/lib/modules/$V/kernel/$m.ko"; done
expect_rc 0 "kernel: none of the other buses' drivers (BOARD_BUS_MODULES): optional" kcheck "$K/nobus" "$K/out-nobus"
check "kernel: kernel-absent.txt names them" sh -c \
	"grep -qxF usb_storage '$K/out-nobus/kernel-absent.txt' && grep -qxF sdhci_pci '$K/out-nobus/kernel-absent.txt'"

mktree "$K/t"
mkdir -p "$K/folder/lib/modules"
cp "$K/t/arch/x86/boot/bzImage" "$K/folder/vmlinuz-$V"
cp "$K/t/.config" "$K/folder/config-$V"
mv "$K/t/lib/modules/$V" "$K/folder/lib/modules/"
expect_rc 0 "kernel: a folder with vmlinuz-VERSION, config-VERSION and lib/modules/VERSION" kcheck "$K/folder" "$K/out-folder"
check "kernel: its image and config found" sh -c \
	"grep -qxF 'image $K/folder/vmlinuz-$V' '$K/out-folder/kernel-src.txt' && grep -qxF 'config $K/folder/config-$V' '$K/out-folder/kernel-src.txt'"
rm -rf "$K/folder/lib/modules/$V"
mkdir -p "$K/folder/lib/modules/6.9.9"
expect_rc 2 "kernel: a folder whose modules are of another version" kcheck "$K/folder" "$K/out-folder"

# a build tree without modules_install: modules.order, .ko next to the sources
mktree "$K/build"
rm -rf "$K/build/lib"
mkdir -p "$K/build/fs/f2fs" "$K/build/drivers/block"
: >"$K/build/modules.order"
for m in $(cut -f4 "$T/filesystems.txt" | tr ',' ' ') $BOARD_MODULES $BOARD_BOOT_MODULES $BOARD_INIT_MODULES; do
	case $m in f2fs) d=fs/f2fs ;; *) d=drivers/block ;; esac
	: >"$K/build/$d/$m.ko"
	# f2fs as kernels before 5.x wrote it (kernel/DIR/NAME.ko)
	case $m in f2fs) echo "kernel/$d/$m.ko" ;; *) echo "$d/$m.o" ;; esac >>"$K/build/modules.order"
done
echo fs/ext4/ext4.ko >"$K/build/modules.builtin"
expect_rc 0 "kernel: a build tree without modules_install (modules.order)" kcheck "$K/build" "$K/out-build"
mkdir -p "$K/out-build/pkgroot/lib/modules/6.1.0-debian" "$K/out-build/pkgroot/boot"
: >"$K/out-build/pkgroot/boot/vmlinuz-6.1.0-debian"
expect_rc 0 "kernel: staged into a packages' tree" env FILESYSTEMS="$T/filesystems.txt" \
	sh image/kernel.sh stage "$K/build" "$K/out-build/pkgroot"
check "kernel: staged: the image, the modules under kernel/, modules.order and modules.builtin, the package's kernel gone" sh -c \
	"cd '$K/out-build/pkgroot' && cmp boot/vmlinuz-$V '$K/build/arch/x86/boot/bzImage' &&
	 [ -f lib/modules/$V/kernel/fs/f2fs/f2fs.ko ] && grep -qxF kernel/fs/f2fs/f2fs.ko lib/modules/$V/modules.order &&
	 grep -qxF kernel/fs/ext4/ext4.ko lib/modules/$V/modules.builtin &&
	 [ ! -e lib/modules/6.1.0-debian ] && [ ! -e boot/vmlinuz-6.1.0-debian ]"
expect_rc 2 "kernel: not a folder" kcheck "$K/nonexistent" "$K/out-x"
check "kernel: the message names PATH" contains "$ERR" "kernel: $K/nonexistent: not a folder"

summary

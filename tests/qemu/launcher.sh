#!/bin/sh
# tests/qemu/launcher.sh: the launcher's own parts, without booting: the
# record reader, the per-round figures, the estimate, the progress line.
#   1. qemu/records.sh (jq) finds values by key wherever they stand, nested
#      keys by path, array items from 1, every value with --flat, the
#      console's other text in order with --text, and skips lines that are
#      not records.
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
#   6. qemu/run.sh --help and make help name RESULTS; make help lists every
#      variable a user may set (each ?= of the Makefile and the .mk files).
#   7. qemu/index.sh: a results folder's index.html rewritten, a link per
#      run, where it is said, entries that are not runs counted; when
#      fsbench history fails or there is no host fsbench, the old index
#      stays, stderr says why, the exit status is 0 and no temporary file
#      is left.
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
# want PROFILE: boot + rounds x files/figure-files x round seconds, from
# qemu/figures.txt for qemu-x86_64 under TCG (4 filesystems).
want() {
	r=$("$FSBENCH_HOST" config --get rounds --profile "$1")
	n=$(($("$FSBENCH_HOST" config --get dirs --profile "$1") * $("$FSBENCH_HOST" config --get files --profile "$1")))
	awk -v p="$1" -v r="$r" -v n="$n" '$1 == "qemu-x86_64" && $2 == "tcg" && $3 == p {
		if ($4 == "boot") t += $5; else t += r * $6 * n / $5 }
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
		printf 'run\n  board:                qemu-x86_64\n  profile:              smoke\n  accelerator:          TCG (asked for)\n  qemu start to first record: 4.0 s\n  runner exit code:     0\n' >"$d/run.txt"
	done
	sed -i 's/TCG (asked for)/KVM (probe guest booted in 1.0 s)/' "$T/res/20260102-000000-qemu-x86_64-smoke/run.txt"
	est earlier smoke "$T/res"
	check "estimate: an earlier run of the same board, profile and accelerator is used" \
		grep -q 'figures from the earlier run 20260101-000000-qemu-x86_64-smoke' "$T/earlier.out"
	check "estimate: its figures (rounds.awk) are the plan's" sh -c \
		"[ \"\$(grep -c '^fs ' '$T/earlier.plan')\" -eq 4 ] && grep -q '^boot 4.0$' '$T/earlier.plan'"
fi

# --- 4. progress, plain lines ------------------------------------------------
# A stand-in for QEMU: the recorded log written line by line into the
# console file, as a guest would.
# With a third argument N, it pauses 5 s after line N.
cat >"$T/fake-qemu.sh" <<'END'
n=0
while IFS= read -r l; do
	printf '%s\n' "$l"; n=$((n + 1))
	[ "$n" != "${3:-}" ] || sleep 5
	sleep 0.04
done <"$1" >>"$2"
END
# watch NAME [watch options]: the command line of qemu/watch.sh on it
# (the fake QEMU pausing after line $pause when that is set).
watch() {
	n=$1; shift
	mkdir -p "$T/w-$n"
	: >"$T/w-$n/serial.log"
	echo sh qemu/watch.sh --serial "$T/w-$n/serial.log" --work "$T/w-$n" --plan "$T/smoke.plan" "$@" \
		-- sh "$T/fake-qemu.sh" "$LOG" "$T/w-$n/serial.log" ${pause:-}
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

# Live: a record is read as it comes, not when a buffer fills. The guest
# pauses 5 s right after the first phase_start (0.4 s in): its line must
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
	script -qc "$(watch tty --quiet)" /dev/null </dev/null >"$T/tty.out" 2>&1 || true
	draws=$(grep -o "$(printf '\r\033')\[Kqemu: " "$T/tty.out" | wc -l)
	info "tty: $draws draws of the progress line"
	check "tty: the progress line is redrawn in place (carriage return, cleared line), many times" [ "$draws" -ge 5 ]
	check "tty: one line: a single newline, at the end" [ "$(tr -d '\r' <"$T/tty.out" | wc -l)" -eq 1 ]
	check "tty: the last draw is the end at 100%" sh -c \
		"tr '\\r' '\\n' <'$T/tty.out' | grep -v '^\$' | tail -n 1 | grep -q 'qemu: run ended, 100%'"
	check "tty: fs n of 4 and the time left in the line" grep -Eq 'qemu: fs [1-4] of 4 .*%, elapsed .*, about .* left' "$T/tty.out"
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

summary

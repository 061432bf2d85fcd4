#!/bin/sh
# tests/qemu/ab.sh: the A/B experiment (qemu/ab.sh, make ab) in QEMU.
# Every boot is the smallest that still has read rows: ext4 alone, 1
# directory of 200 files, 1 worker, 1 round, a 1 GiB target (about 7 s a
# boot under TCG on an idle host; the compare's rows: create, stat, read
# cold, read in inode order, delete).
#   1. The order replayed, without a boot: ab.sh --dry-run with the same
#      seed twice prints the same order (qemu/aborder.sh's), another seed
#      another; a drawn seed is said first and replays; RUNS=auto's first
#      blocks; a bad seed, RUNS, RUNS_MIN/RUNS_MAX, a kernel and an image
#      for one side, an image or kernel that is not there, launcher options
#      qemu/run.sh refuses or that ab.sh gives itself (--work), a setting
#      the runner refuses: exit 2 naming the input, and nothing written.
#   2. A slower side: B's target throttled (--target-throttle 100), 5
#      boots a side. ab.sh exits 1 and ends FSBENCH-AB: FAIL (verdict.txt
#      too, naming the slower rows); every read row of compare.csv is
#      flagged slower; the seed is the first line, the estimate comes
#      before the first boot, a progress line per boot (block, side,
#      elapsed, time left); order.txt holds the seed and the 10 boots in
#      the dry run's order, each block one A and one B, each with its exit
#      status; every boot reached run_end on a target of its own (no
#      --work, a run id each), B's throttled and A's not; ab.txt, the
#      compare's three formats. The estimate and the time taken as INFO.
#      Why 100 and not 500 I/O operations a second: at 500 the 200 cold
#      reads took 0.31 s against 0.15 s, and with the host busy (make
#      check's other lane) A's boots spread over that, so one read row
#      stayed unflagged; at 100 the reads take 2 s whatever the host does.
#   3. The same boots, the first two a side compared alone: `fsbench
#      compare` exits 5 and says the rows cannot be decided and how many
#      runs a side would (the compare's undecided rows; fails until that
#      compare lands).
#   4. A side that does not boot, each the first boot of its A/B (a seed
#      whose first block starts with it): B's QEMU refuses its options
#      (--smp 999), and A's image is not a disk image (a file of random
#      bytes beside the image's kernel and initramfs): ab.sh exits 5, ends
#      FSBENCH-AB: ERROR, names the side, the boot and its folder and what
#      the launcher said; order.txt has that one boot with its status.
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board is a SKIP: the throttle's figures are qemu-x86_64's).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-ab/.
set -eu

O=${O:?run through make check-qemu-ab}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-ab
. tests/qemu/lib.sh

qemu_start 'qemu A/B tests' "A/B on $BOARD: the test's throttle figures are qemu-x86_64's" jq
made build.log host image ROOTFS=ext4 || { summary; exit 1; }
IMG=$O/image/$BOARD/disk-ext4.img
# Every A/B's results under $T; the boots' settings.
RESULTS=$T/results
export RESULTS
SMALL="--target-size 1G --timeout 300 --append 'fsbench.fs=ext4 fsbench.dirs=1 fsbench.workers=1 fsbench.files=200 fsbench.rounds=1'"

# --- 1. the order replayed, misuse, without a boot ---------------------
order() { grep "^ab:   boot " "$T/dry.out" | sed 's/^ab: *//'; }
ab_dry() { sh qemu/ab.sh --dry-run --qemu-args "$SMALL" "$@" >"$T/dry.out" 2>&1; }
check "order: a dry run with seed 12345" ab_dry --seed 12345 --runs 5
order >"$T/order1"
check "order: the first line says the seed and how to replay it" \
	[ "$(head -n 1 "$T/dry.out")" = 'ab: seed 12345 (SEED=12345 replays this order)' ]
check "order: the estimate said" grep -q '^ab: this A/B should take about .* (10 boots: ' "$T/dry.out"
ab_dry --seed 12345 --runs 5 || true
order >"$T/order2"
check "order: the same seed, the same order (10 boots)" sh -c \
	"cmp '$T/order1' '$T/order2' && [ \$(wc -l <'$T/order1') = 10 ]"
sh qemu/aborder.sh 12345 5 | awk '{ n++; printf "boot %02d: block %d, side %s (boot-%02d-%s)\n", n, $1, $2, n, $2 }' >"$T/order.want"
check "order: the order is qemu/aborder.sh's for the seed" cmp "$T/order.want" "$T/order1"
ab_dry --seed 54321 --runs 5 || true
order >"$T/order3"
check "order: another seed, another order" sh -c "! cmp -s '$T/order1' '$T/order3'"
ab_dry --runs 5 || true
drawn=$(sed -n '1s/^ab: seed \([0-9]*\) (SEED=\1 replays this order)$/\1/p' "$T/dry.out")
order >"$T/order4"
ab_dry --runs 5 --seed "${drawn:-0}" || true
order >"$T/order5"
check "order: a drawn seed (${drawn:-none}) is said first and replays its order" sh -c \
	"[ -n '$drawn' ] && cmp '$T/order4' '$T/order5'"
ab_dry --seed 12345 --runs auto --runs-min 3 || true
check "order: RUNS=auto begins with RUNS_MIN blocks" sh -c \
	"[ \$(grep -c '^ab:   boot ' '$T/dry.out') = 6 ] && grep -q 'at most .* (20 blocks)' '$T/dry.out'"
ab_dry --seed 12345 --runs 2 --b-image "$IMG" || true
check "control: auto is report when a side boots another image" grep -q '^ab: compare: --control report (' "$T/dry.out"
ab_dry --seed 12345 --runs 2 --b-append fsbench.rounds=1 || true
check "control: auto is judge when the sides differ in settings only" grep -q '^ab: compare: --control judge (' "$T/dry.out"
ab_dry --seed 12345 --runs 2 --b-image "$IMG" --control judge || true
check "control: CONTROL=judge as asked" grep -q '^ab: compare: --control judge (' "$T/dry.out"
check "order: a dry run writes nothing" [ ! -e "$RESULTS" ]
for bad in 0 2147483647 12a -5; do
	expect_rc 2 "misuse: seed '$bad'" sh qemu/ab.sh --dry-run --seed "$bad"
	expect_err "SEED (--seed) '$bad'"
done
expect_rc 2 "misuse: RUNS=0" sh qemu/ab.sh --runs 0
expect_err "RUNS (--runs; or auto) '0'"
expect_rc 2 "misuse: RUNS=many" sh qemu/ab.sh --runs many
expect_err "RUNS (--runs; or auto) 'many'"
expect_rc 2 "misuse: RUNS_MIN above RUNS_MAX" sh qemu/ab.sh --runs auto --runs-min 6 --runs-max 5
expect_err 'RUNS_MIN (6) is more than RUNS_MAX (5)'
expect_rc 2 "misuse: A_KERNEL and A_IMAGE" sh qemu/ab.sh --a-kernel "$T" --a-image "$IMG"
expect_err 'side A: A_KERNEL (--a-kernel) and A_IMAGE (--a-image) both given'
expect_rc 2 "misuse: B_IMAGE not there" sh qemu/ab.sh --b-image "$T/no-such.img"
expect_err "B_IMAGE (--b-image) $T/no-such.img: no such file"
expect_rc 2 "misuse: A_KERNEL not there" sh qemu/ab.sh --a-kernel "$T/no-such-kernel"
expect_err "A_KERNEL (--a-kernel) $T/no-such-kernel: no such folder"
expect_rc 2 "misuse: B_QEMU_ARGS qemu/run.sh refuses" sh qemu/ab.sh --b-qemu-args '--target-throttle many'
expect_err "B_QEMU_ARGS (--b-qemu-args) '--target-throttle many': qemu/run.sh refuses them: --target-throttle IOPS"
expect_rc 2 "misuse: --work among QEMU_ARGS" sh qemu/ab.sh --qemu-args '--work /tmp/x'
expect_err 'QEMU_ARGS (--qemu-args): --work: every boot of an A/B gets a fresh disk copy and target'
expect_rc 2 "misuse: a setting the runner refuses" sh qemu/ab.sh --b-append 'fsbench.files=0'
expect_err 'side B (APPEND, '
expect_rc 2 "misuse: CRITERIA not there" sh qemu/ab.sh --criteria "$T/no-such.conf"
expect_err "CRITERIA (--criteria) $T/no-such.conf: no such file"
expect_rc 2 "misuse: CONTROL neither auto, judge nor report" sh qemu/ab.sh --control off
expect_err "CONTROL (--control) 'off': auto, judge or report"
check "misuse: nothing written, nothing booted" [ ! -e "$RESULTS" ]

# --- 2. B throttled, 5 boots a side -------------------------------------
ab=$T/throttle
SEED=12345
set +e
sh qemu/ab.sh --seed $SEED --runs 5 --results "$ab" --qemu-args "$SMALL" \
	--b-qemu-args '--target-throttle 100' >"$T/throttle.out" 2>"$T/throttle.err"
rc=$?
set -e
info "throttle: $(grep '^ab: this A/B should take' "$T/throttle.out" | sed 's/ (10 boots.*//')"
info "throttle: $(grep '^ab: 10 boots and the compare took' "$T/throttle.out")"
check "throttle: ab.sh exits 1 (a row slower): $rc" [ "$rc" = 1 ] ||
	{ tail -n 15 "$T/throttle.out"; tail -n 15 "$T/throttle.err"; }
check "throttle: the last line printed is FSBENCH-AB: FAIL" [ "$(tail -n 1 "$T/throttle.out")" = 'FSBENCH-AB: FAIL' ]
check "throttle: verdict.txt ends FSBENCH-AB: FAIL" [ "$(tail -n 1 "$ab/verdict.txt" 2>/dev/null)" = 'FSBENCH-AB: FAIL' ]
check "throttle: verdict.txt names the read rows slower" sh -c \
	"grep -q '^slower: ext4 read cold (fresh fs): B/A ' '$ab/verdict.txt' &&
	grep -q '^slower: ext4 read inode order (fresh fs): B/A ' '$ab/verdict.txt'"
# the read rows of compare.csv and their flags
awk -F, '$1 == "compare" && $2 == "fs" { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "compare" && $3 ~ /^read/ { print $3 ": " $c["b_flag"] " (B/A " $c["b_over_a"] ")" }' \
	"$ab/compare.csv" >"$T/reads" 2>/dev/null || true
info "throttle: $(tr '\n' ';' <"$T/reads")"
check "throttle: every read row flagged slower ($(wc -l <"$T/reads") rows)" sh -c \
	"[ \$(wc -l <'$T/reads') -ge 2 ] && ! grep -v ': slower (' '$T/reads'"
check "throttle: the first line is the seed" \
	[ "$(head -n 1 "$T/throttle.out")" = "ab: seed $SEED (SEED=$SEED replays this order)" ]
check "throttle: the estimate before the first boot" sh -c \
	"grep -n '^ab: this A/B should take\|^ab: boot 1 of 10 ' '$T/throttle.out' | head -n 1 | grep -q 'should take'"
n=1 miss=
while [ $n -le 10 ]; do
	grep -q "^ab: boot $n of 10 (block [1-5], side [AB]): boot-$(printf %02d $n)-[AB]; elapsed .*, about .* left" \
		"$T/throttle.out" || miss="$miss $n"
	n=$((n + 1))
done
check "throttle: a progress line per boot, with elapsed and time left${miss:+ (missing:$miss)}" [ -z "$miss" ]
{
	echo "seed $SEED"
	sh qemu/aborder.sh $SEED 5 | awk '{ n++; printf "%d %s boot-%02d-%s 0\n", $1, $2, n, $2 }'
} >"$T/ordertxt.want"
check "throttle: order.txt: the seed, then the 10 boots in the seed's order, each exit 0" \
	cmp "$T/ordertxt.want" "$ab/order.txt"
check "throttle: each block one A and one B" sh -c \
	"sed 1d '$ab/order.txt' | awk '{ s[\$1] = s[\$1] \$2 } END { for (b in s) if (s[b] != \"AB\" && s[b] != \"BA\") exit 1 }'"
ends= ids= fresh=1 thr=1
for d in "$ab"/boot-*-[AB]; do
	[ -d "$d" ] || continue
	ends="$ends$(rec "$d" run_end exit_code | tail -n 1)"
	ids="$ids $(rec "$d" run_start run_id | tail -n 1)"
	! grep -q '(--work)\|work folder:' "$d/launcher.txt" "$d/run.txt" || fresh=0
	case $d in
	*-A) ! grep -q 'target throttled' "$d/launcher.txt" || thr=0 ;;
	*-B) grep -q 'target throttled: at most 100 I/O operations a second' "$d/launcher.txt" || thr=0 ;;
	esac
done
check "throttle: 10 boot folders, each with run_end exit 0" [ "$ends" = 0000000000 ]
check "throttle: 10 run ids, all different" \
	[ "$(echo "$ids" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" = 10 ]
check "throttle: every boot on a fresh disk copy and target (no --work, nothing kept)" [ "$fresh" = 1 ]
check "throttle: B's boots throttled, A's not" [ "$thr" = 1 ]
check "throttle: ab.txt: seed, runs, profile, board, each side's settings" sh -c \
	"grep -qx 'seed: $SEED (SEED=$SEED replays the order)' '$ab/ab.txt' &&
	grep -qx 'runs: 5 a side' '$ab/ab.txt' && grep -qx 'profile: smoke' '$ab/ab.txt' &&
	grep -qx 'board: $BOARD' '$ab/ab.txt' && grep -qx 'B qemu args: --target-throttle 100' '$ab/ab.txt' &&
	grep -qx 'A image: $IMG' '$ab/ab.txt' && grep -q '^A kernel: ' '$ab/ab.txt'"
check "throttle: compare.md, compare.html and compare.csv" sh -c \
	"grep -q '^| ext4 | read cold (fresh fs) ' '$ab/compare.md' &&
	grep -qi '<html' '$ab/compare.html' && grep -q '^compare,ext4,read cold (fresh fs),' '$ab/compare.csv'"

# --- 3. the first two boots a side alone: undecided ---------------------
a2=$(awk -v d="$ab" '$2 == "A" { print d "/" $3 }' "$ab/order.txt" | head -n 2 | tr '\n' ' ')
b2=$(awk -v d="$ab" '$2 == "B" { print d "/" $3 }' "$ab/order.txt" | head -n 2 | tr '\n' ' ')
# shellcheck disable=SC2086
expect_rc 5 "undecided: the first 2 runs against 2 with --fail-on-regression" \
	"$FSB" compare $a2 -- $b2 --fail-on-regression
check "undecided: stderr says the rows cannot be decided and the runs a side that would" sh -c \
	"grep -q 'cannot be decided' '$T/err' && grep -q 'runs a side' '$T/err'"

# --- 4. a side that does not boot -----------------------------------------
# noboot NAME SEED ARGS...: an A/B whose first boot fails; its output in
# $T/NAME.out and .err, its status in $rc.
noboot() {
	_n=$1 _s=$2
	shift 2
	set +e
	sh qemu/ab.sh --seed "$_s" --runs 5 --results "$T/$_n" --qemu-args "$SMALL" "$@" >"$T/$_n.out" 2>"$T/$_n.err"
	rc=$?
	set -e
}
# 30000: block 1 starts with B; 12345 with A (qemu/aborder.sh)
check "noboot: seed 30000 boots B first, 12345 A first" sh -c \
	"[ \"\$(sh qemu/aborder.sh 30000 1 | head -n 1)\" = '1 B' ] && [ \"\$(sh qemu/aborder.sh 12345 1 | head -n 1)\" = '1 A' ]"
noboot qemu 30000 --b-qemu-args '--smp 999'
check "noboot: B's QEMU refuses to start: ab.sh exits 5 (ERROR): $rc" [ "$rc" = 5 ]
check "noboot: the last line printed is FSBENCH-AB: ERROR" [ "$(tail -n 1 "$T/qemu.out")" = 'FSBENCH-AB: ERROR' ]
check "noboot: the side, the boot and its folder named" \
	grep -q "^ab: boot 1 of 10 (block 1, side B) did not finish: no run_end record (qemu/run.sh exit 4.*its folder: $T/qemu/boot-01-B" "$T/qemu.err"
check "noboot: what QEMU said" grep -q "^ab: .*Invalid SMP CPUs 999" "$T/qemu.err"
check "noboot: verdict.txt the same, ending FSBENCH-AB: ERROR" sh -c \
	"grep -q 'side B' '$T/qemu/verdict.txt' && [ \"\$(tail -n 1 '$T/qemu/verdict.txt')\" = 'FSBENCH-AB: ERROR' ]"
check "noboot: the A/B stopped at that boot (order.txt: its line, status 4)" sh -c \
	"[ \"\$(sed 1d '$T/qemu/order.txt')\" = '1 B boot-01-B 4' ] && [ \$(ls -d '$T/qemu'/boot-* | wc -l) = 1 ]"
mkdir -p "$T/notdisk"
ln -sf "$O/image/$BOARD/kernel" "$O/image/$BOARD/initramfs.cpio.gz" "$T/notdisk/"
head -c 1048576 /dev/urandom >"$T/notdisk/disk-ext4.img"
noboot image 12345 --a-image "$T/notdisk/disk-ext4.img"
check "noboot: A's image is not a disk image: ab.sh exits 5 (ERROR): $rc" [ "$rc" = 5 ]
check "noboot: the last line printed is FSBENCH-AB: ERROR" [ "$(tail -n 1 "$T/image.out")" = 'FSBENCH-AB: ERROR' ]
check "noboot: side A, its boot and folder named, with what the launcher said" sh -c \
	"grep -q '^ab: boot 1 of 10 (block 1, side A) did not boot: .*its folder: $T/image/boot-01-A' '$T/image.err' &&
	grep -q '^ab: .*no fsbench-esp partition' '$T/image.err'"
summary

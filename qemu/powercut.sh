#!/bin/sh
# powercut.sh: a power-cut campaign in QEMU. Boots the image with the
# runner's campaign (runner/POWERCUTS.md), cuts the power at a
# random moment of each cycle's window (SIGKILL of QEMU, and of the disk
# model's nbdkit with --target-model: its cache is gone), boots again from
# the same disk and target (the next boot checks what the cut left), until
# the runner ends the campaign by itself; then the report and the verdict
# of every record the log partition holds.
#
# Usage: qemu/powercut.sh --disk DISK.img [options] [-- qemu/run.sh options]
#   --cycles N        cycles per filesystem (fsbench.powercut; default 3)
#   --fs LIST         the filesystems, comma-separated (fsbench.fs; default
#                     ext4,xfs,btrfs,f2fs; variants and the optional nilfs2
#                     too: ext4,ext4:nobarrier,nilfs2)
#   --window S        the workload's window, seconds (fsbench.powercut_window;
#                     default 10): each cut lands in it
#   --seed S          the campaign's seed (1 to 4294967295): the runner's
#                     operations and contents, and the moments of the cuts
#                     here (default: a random one, printed first; the same
#                     seed replays the same campaign)
#   --target-model M  the target through a disk model (qemu/run.sh
#                     --target-model: cache, an honest disk with a volatile
#                     write cache; lying, whose flushes lie from a second
#                     before each cut)
#   --results DIR     the campaign's folder (default
#                     $RESULTS/<date>-<board>-powercut): boot-K/ per boot
#                     (qemu/run.sh's results), records.jsonl (every record
#                     of the log partition), report.md, verdict.txt
#   --criteria FILE   the verdict's criteria (default: powercut_lost = 0,
#                     powercut_torn = 0, powercut_fsck = clean,
#                     powercut_cycles = N: at least N cycles a filesystem)
#   --max-boots N     give up after N boots (default: cycles x filesystems
#                     + 2)
# Each boot: qemu/run.sh --work (the same disk and target each time)
#   --cut-after-line 'FSBENCH-POWERCUT: armed' --cut-delay D, D drawn from
#   the seed between 1.5 s and the window less 0.5 s. The first line says
#   the seed; each boot's line says its cut's moment.
# Inputs (environment): as qemu/run.sh (O, RESULTS, FSBENCH_HOST, BOARD,
#   BOARD_*).
# Exit status: the verdict's (0 PASS, 1 FAIL); 2 misuse; 4 a boot that
#   ended neither by a cut nor by the campaign's end (its folder says why).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/defaults.sh"
. "$here/../image/lib.sh"
prog=qemu

disk= cycles=3 fslist=ext4,xfs,btrfs,f2fs window=10 seed= tmodel= results= criteria= maxboots=
while [ $# -gt 0 ]; do
	case $1 in
	--disk) disk=$2; shift ;;
	--cycles) cycles=$2; shift ;;
	--fs) fslist=$2; shift ;;
	--window) window=$2; shift ;;
	--seed) seed=$2; shift ;;
	--target-model) tmodel=$2; shift ;;
	--results) results=$2; shift ;;
	--criteria) criteria=$2; shift ;;
	--max-boots) maxboots=$2; shift ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	*) die $EX_USAGE "powercut.sh: unknown option '$1' (--help)" ;;
	esac
	shift
done
num() { case $2 in ''|*[!0-9]*) die $EX_USAGE "$1 $2: not a whole number" ;; esac; }
num --cycles "$cycles"
num --window "$window"
[ "$cycles" -ge 1 ] || die $EX_USAGE "--cycles $cycles: at least 1"
[ "$window" -ge 3 ] || die $EX_USAGE "--window $window: at least 3 s (the cut lands 1.5 s to the window's end less 0.5 s)"
[ -n "$disk" ] || die $EX_USAGE "--disk DISK.img is required"
[ -f "$disk" ] || die $EX_USAGE "--disk $disk: no such file (make image)"
case $tmodel in ''|cache|cache:*|lying) ;; *) die $EX_USAGE "--target-model $tmodel: cache or lying" ;; esac
[ -z "$criteria" ] || [ -f "$criteria" ] || die $EX_USAGE "--criteria $criteria: no such file"
if [ -n "$seed" ]; then
	num --seed "$seed"
	[ "$seed" -ge 1 ] && [ "$seed" -le 4294967295 ] || die $EX_USAGE "--seed $seed: 1 to 4294967295"
else
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	[ "$seed" -ge 1 ] || seed=1
fi
nfs=$(echo "$fslist" | tr , '\n' | grep -c .)
[ -n "$maxboots" ] || maxboots=$((cycles * nfs + 2))
num --max-boots "$maxboots"
[ -x "$FSBENCH_HOST" ] || die $EX_SYSTEM "no host fsbench $FSBENCH_HOST (make host)"

[ -n "$results" ] || results=$RESULTS/$(date +%Y%m%d-%H%M%S)-$BOARD-powercut
mkdir -p "$results"
results=$(cd "$results" && pwd)
work=$results/work
say "powercut: seed $seed (replay: --seed $seed), $cycles cycles on each of $fslist, window $window s${tmodel:+, target model $tmodel}"
say "powercut: results in $results"

# cut K: the moment of boot K's cut after the armed line, from the seed
cut() {
	awk -v s="$seed" -v k="$1" -v w="$window" 'BEGIN { srand(s + 7919 * k); printf "%.1f", 1.5 + rand() * (w - 2) }'
}

append="fsbench.powercut=$cycles fsbench.powercut_window=$window fsbench.powercut_seed=$seed fsbench.fs=$fslist"
k=0
end=
while [ "$k" -lt "$maxboots" ]; do
	k=$((k + 1))
	d=$(cut "$k")
	say "powercut: boot $k: the cut $d s after the armed line"
	set +e
	sh "$here/run.sh" --disk "$disk" --work "$work" --results "$results/boot-$k" --quiet \
		--profile powercut --append "$append" --criteria none \
		--cut-after-line 'FSBENCH-POWERCUT: armed' --cut-delay "$d" \
		${tmodel:+--target-model "$tmodel"} "$@" >"$results/boot-$k.out" 2>&1
	rc=$?
	set -e
	endline=$(sed -n 's/^ *end: *//p' "$results/boot-$k/run.txt" 2>/dev/null | tail -n 1)
	armed=$(tr -d '\r' <"$results/boot-$k/serial.log" 2>/dev/null | grep -o 'FSBENCH-POWERCUT: armed.*' | tail -n 1 || true)
	case $endline in
	'power cut'*)
		say "powercut: boot $k: ${armed#FSBENCH-POWERCUT: }; cut"
		;;
	*)
		if grep -q '"type":"run_end"' "$results/boot-$k/records.jsonl" 2>/dev/null &&
			[ -z "$armed" ]; then
			say "powercut: boot $k: the campaign ended (${endline:-no end line})"
			end=ok
			break
		fi
		tail -n 20 "$results/boot-$k.out" >&2
		die $EX_SYSTEM "boot $k ended neither by a cut nor by the campaign's end (launcher status $rc, ${endline:-no end line}): $results/boot-$k/"
		;;
	esac
done
[ -n "$end" ] || die $EX_SYSTEM "the campaign did not end within $maxboots boots (--max-boots): $results/"

# every record of the log partition: the campaign's runs, one a boot
"$FSBENCH_HOST" log extract "$work/disk.img" -o "$results" >/dev/null 2>"$results/extract.err" ||
	{ cat "$results/extract.err" >&2; die $EX_SYSTEM "fsbench log extract $work/disk.img failed"; }
"$FSBENCH_HOST" report "$results/records.jsonl" >"$results/report.md" 2>"$results/report.err" ||
	say "powercut: fsbench report failed: $results/report.err"
if [ -z "$criteria" ]; then
	criteria=$results/criteria.conf
	printf 'powercut_lost = 0\npowercut_torn = 0\npowercut_fsck = clean\npowercut_cycles = %s\n' "$cycles" >"$criteria"
fi
vrc=0
"$FSBENCH_HOST" verdict "$results/records.jsonl" --criteria "$criteria" >"$results/verdict.txt" 2>&1 || vrc=$?
cat "$results/verdict.txt"
say "powercut: $k boots; report $results/report.md; verdict $results/verdict.txt"
[ "$vrc" -le 1 ] || die $EX_SYSTEM "fsbench verdict failed (status $vrc): $results/verdict.txt"
exit "$vrc"

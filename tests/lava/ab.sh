#!/bin/sh
# tests/lava/ab.sh: an A/B experiment on a LAVA lab. Side A's and side B's
# jobs are submitted with lavacli in blocks of one A and one B, each
# block's order drawn from a seed (qemu/aborder.sh, the one place it is
# drawn), each block on one device: the board is the block (a block's A
# and B on the same board, never A on one board against B on another;
# block K on the K-th of the devices, from the first again after the
# last). Each job's records are read back from its log (the console's
# FSBENCH:{...} lines), then `fsbench compare A1 ... -- B1 ...
# --fail-on-regression` judges the two sides' runs.
# Usage: tests/lava/ab.sh [OPTIONS] JOB_A JOB_B OUT
#   JOB_A, JOB_B  the two sides' LAVA jobs (board/NAME/lava/job.yaml with
#                 the lab's urls: two images, or one image with two
#                 command lines); each boot's copy asks for its block's
#                 device by tag and is named "NAME: A/B seed S block K
#                 side X" after JOB's job_name
#   OUT           the A/B's folder (made; what is in it is replaced)
#   --devices "D1 D2 ..."  the devices the blocks run on, each carrying a
#                 tag of its own name (lavacli devices tags add D D);
#                 required
#   --uri URI     lavacli's --uri (http://USER:TOKEN@SERVER/RPC2); else
#   --identity ID lavacli's identity (lavacli identities add; default:
#                 lavacli's "default")
#   --seed S      the order's seed (default: one drawn, printed)
#   --blocks N    blocks (default 5: with fewer runs a side compare
#                 cannot decide a row, and says so)
#   --first-block K  the number of the first block (default 1): blocks
#                 added to an A/B begun with the same seed (aborder.sh's
#                 FIRST; block K still on the K-th device); compare the
#                 records of both OUT folders together
#   --fresh-target SIZE  QEMU devices: each job's target (the -drive with
#                 id=target in its context's extra_options) on a sparse
#                 file of its own of SIZE (truncate -s), made beside the
#                 job's own target file as target-K-BLOCK-SIDE.img and
#                 removed once its job has ended (two devices of one
#                 worker must not share a target; each boot a fresh one)
#   --fsbench FILE  the host's fsbench (default: fsbench on PATH)
#   --timeout S   seconds to wait for each job (default 7200)
# The jobs are all submitted at once, in the order: LAVA's scheduler gives
# a device its jobs by priority, then by submission; that each device ran
# its blocks' jobs one after another in the order is checked from the
# jobs' start and end times.
# Output in OUT: order.txt (aborder.sh's lines, after a comment with the
#   seed), one folder per boot K-BLOCK-SIDE/ (job.yaml, job.log: lavacli
#   jobs logs --raw, show.yaml, console.txt, records.jsonl), boots.txt (a
#   line per boot: K BLOCK SIDE DEVICE JOB START END HEALTH RUN_ID),
#   compare.md (compare's table), compare.err (its stderr), compare.status.
# Exit status: fsbench compare's: 0 no row slower and every row decided, 1
#   rows slower, 5 rows that could not be decided (compare.err names them
#   and the runs a side needed); 2 misuse; 4 a system failure: lavacli
#   failed, a job did not complete or did not end in time, its records are
#   not one whole run, a device ran its jobs out of the order.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/image/lib.sh"
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
export PATH
py=/usr/bin/python3

devices='' uri='' ident='' seed='' blocks=5 first=1 fresh='' fsbench=fsbench timeout=7200
while [ $# -gt 0 ]; do
	case $1 in
	--devices) devices=${2:?}; shift 2 ;;
	--uri) uri=${2:?}; shift 2 ;;
	--identity) ident=${2:?}; shift 2 ;;
	--seed) seed=${2:?}; shift 2 ;;
	--blocks) blocks=${2:?}; shift 2 ;;
	--first-block) first=${2:?}; shift 2 ;;
	--fresh-target) fresh=${2:?}; shift 2 ;;
	--fsbench) fsbench=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	-*) die "$EX_USAGE" "unknown option '$1' (the header of tests/lava/ab.sh lists them)" ;;
	*) break ;;
	esac
done
[ $# -eq 3 ] || die "$EX_USAGE" "usage: ab.sh [--devices \"D1 ...\"] [--uri URI | --identity ID] [--seed S] [--blocks N] [--first-block K] [--fresh-target SIZE] [--fsbench FILE] [--timeout S] JOB_A JOB_B OUT"
job_a=$1 job_b=$2 out=$3
[ -n "$devices" ] || die "$EX_USAGE" "--devices: the devices the blocks run on (each tagged with its own name)"
for j in "$job_a" "$job_b"; do [ -f "$j" ] || die "$EX_USAGE" "$j: no such job file"; done
case $blocks in '' | *[!0-9]* | 0) die "$EX_USAGE" "--blocks '$blocks': a whole number from 1" ;; esac
case $timeout in '' | *[!0-9]*) die "$EX_USAGE" "--timeout '$timeout': whole seconds" ;; esac
for t in lavacli jq; do
	command -v "$t" >/dev/null 2>&1 || die "$EX_SYSTEM" "$t not found (sh image/deps.sh lavaserver)"
done
command -v "$fsbench" >/dev/null 2>&1 || die "$EX_SYSTEM" "$fsbench: no fsbench for the host (make host; --fsbench FILE)"
"$py" -c 'import yaml' 2>/dev/null || die "$EX_SYSTEM" "no PyYAML in $py (Debian python3-yaml)"
# cli ARGS...: lavacli on the lab (a URI and an identity hold no blanks)
lab=
if [ -n "$uri" ]; then lab="--uri $uri"; elif [ -n "$ident" ]; then lab="-i $ident"; fi
# shellcheck disable=SC2086
cli() { nice -n 19 lavacli $lab "$@"; }
# yget FILE KEY: a top-level value of a YAML file
yget() { "$py" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# ---- the order ----------------------------------------------------------
[ -n "$seed" ] || seed=$(sh "$ROOT/qemu/aborder.sh" --seed)
order=$(sh "$ROOT/qemu/aborder.sh" "$seed" "$blocks" "$first") || exit "$EX_USAGE"
rm -rf "$out"
mkdir -p "$out"
{ echo "# qemu/aborder.sh $seed $blocks $first"; echo "$order"; } >"$out/order.txt"
# shellcheck disable=SC2086
set -- $devices
ndev=$#
say "seed $seed, $blocks blocks on $ndev device(s): $(echo "$order" | awk '{ printf "%s%s%s", s, $1, $2; s = " " }') (again: --seed $seed)"

# ---- each boot's job, all submitted in the order -----------------------
: >"$out/submitted"
k=0
while read -r block side; do
	case $block in '#'*) continue ;; esac
	k=$((k + 1))
	# shellcheck disable=SC2086
	set -- $devices
	shift $(((block - 1) % ndev))
	dev=$1
	d=$out/$k-$block-$side
	mkdir -p "$d"
	if [ "$side" = A ]; then job=$job_a; else job=$job_b; fi
	target=
	if [ -n "$fresh" ]; then
		# the job's own target file's folder
		tf=$("$py" -c 'import sys, yaml, re
for o in (yaml.safe_load(open(sys.argv[1])).get("context") or {}).get("extra_options") or []:
    m = re.search(r"(?:^-drive |,)file=([^,]*)", str(o))
    if str(o).startswith("-drive ") and "id=target" in str(o).split(None, 1)[1].split(",") and m:
        print(m.group(1))' "$job")
		[ -n "$tf" ] || die "$EX_USAGE" "--fresh-target: $job has no target drive (-drive file=...,id=target) in context.extra_options"
		target=$(dirname "$tf")/target-$k-$block-$side.img
		rm -f "$target"
		truncate -s "$fresh" "$target" || die "$EX_SYSTEM" "truncate -s $fresh $target"
	fi
	"$py" "$ROOT/tests/lava/lava.py" abjob "$job" "$dev" \
		"$(yget "$job" job_name): A/B seed $seed block $block side $side" "$target" "$d/job.yaml" ||
		die "$EX_USAGE" "$job: cannot make boot $k's job"
	id=$(cli jobs submit "$d/job.yaml" 2>"$d/submit.err") || id=
	case $id in '' | *[!0-9]*) die "$EX_SYSTEM" "lavacli jobs submit $d/job.yaml: ${id}$(cat "$d/submit.err")" ;; esac
	echo "$k $block $side $dev $id $target" >>"$out/submitted"
	say "boot $k: block $block side $side on $dev: job $id"
done <"$out/order.txt"

# ---- each job waited for, its records read back --------------------------
fail=
: >"$out/boots.txt"
while read -r k block side dev id target; do
	d=$out/$k-$block-$side
	# shellcheck disable=SC2086
	if ! timeout -k 10 "$timeout" nice -n 19 lavacli $lab jobs wait "$id" --polling 10 >"$d/wait.out" 2>&1 </dev/null; then
		fail="$fail job $id (boot $k) did not end: $(tail -n 1 "$d/wait.out");"
	fi
	cli jobs show "$id" --yaml >"$d/show.yaml" 2>&1 </dev/null || :
	cli jobs logs "$id" --raw >"$d/job.log" 2>&1 </dev/null || :
	[ -z "$target" ] || rm -f "$target"
	"$py" "$ROOT/tests/lava/lava.py" console "$d/job.log" | tr -d '\r' >"$d/console.txt" 2>/dev/null || :
	sh "$ROOT/qemu/records.sh" --console "$d/console.txt" "" >"$d/records.jsonl" 2>/dev/null || :
	health=$(yget "$d/show.yaml" health 2>/dev/null || echo -)
	start=$(yget "$d/show.yaml" start_time 2>/dev/null || echo -)
	end=$(yget "$d/show.yaml" end_time 2>/dev/null || echo -)
	ran=$(yget "$d/show.yaml" device 2>/dev/null || echo -)
	rid=$(jq -r 'select(.type == "run_start") | .run_id' "$d/records.jsonl" 2>/dev/null | head -n 1)
	echo "$k $block $side $ran $id $start $end $health ${rid:--}" >>"$out/boots.txt"
	[ "$health" = Complete ] || fail="$fail job $id (boot $k) $health;"
	[ "$ran" = "$dev" ] || fail="$fail job $id (boot $k, block $block) ran on $ran, not its block's $dev;"
	# one whole run: one run id, seq 0, 1, 2, ..., run_start first,
	# run_end ok with exit code 0
	jq -s -e 'length > 0 and (map(.run_id) | unique | length == 1) and .[0].type == "run_start"
		and ([.[].seq] == [range(length)])
		and (map(select(.type == "run_end")) | length == 1 and .[0].status == "ok" and .[0].exit_code == 0)' \
		"$d/records.jsonl" >/dev/null 2>&1 ||
		fail="$fail job $id (boot $k): its console's records are not one whole run ($d/records.jsonl);"
done <"$out/submitted"
rm -f "$out/submitted"
# each device ran its jobs one after another, in the order
bad=$(awk '{ if (($4 in last) && $6 < end[$4]) print "job " $5 " on " $4 " started before job " last[$4] " ended;"
	last[$4] = $5; end[$4] = $7 }' "$out/boots.txt")
fail="$fail$bad"
[ -z "$fail" ] || die "$EX_SYSTEM" "the A/B is not whole:$fail (boots.txt in $out)"

# ---- the judgement -------------------------------------------------------
set --
for s in A B; do
	[ "$s" = A ] || set -- "$@" --
	for f in $(awk -v s="$s" '$3 == s { print $1 "-" $2 "-" $3 }' "$out/boots.txt"); do
		set -- "$@" "$out/$f/records.jsonl"
	done
done
set +e
"$fsbench" compare "$@" --fail-on-regression >"$out/compare.md" 2>"$out/compare.err"
rc=$?
set -e
echo "$rc" >"$out/compare.status"
case $rc in
0) say "compare: no row slower, every row decided ($out/compare.md)" ;;
1) say "compare: rows slower ($out/compare.md)" ;;
5) say "compare: rows that could not be decided ($out/compare.err)" ;;
*) warn "compare: exit $rc: $(head -n 1 "$out/compare.err")" ;;
esac
exit "$rc"

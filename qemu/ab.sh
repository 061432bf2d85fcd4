#!/bin/sh
# ab.sh: an A/B experiment in QEMU: did this kernel or setting make my
# storage worse? Side A and side B booted in blocks of one A and one B,
# each block's order drawn from a seed (qemu/aborder.sh), each boot a
# qemu/run.sh of its own on a fresh target, then `fsbench compare` of the
# A runs against the B runs.
#
# Usage: qemu/ab.sh [options]
#   --a-kernel PATH, --b-kernel PATH   the side boots a kernel of your own
#                     (a build tree, or a folder with a kernel image and
#                     lib/modules/VERSION): its image is built before the
#                     first boot as `make image KERNEL=PATH` builds it, in
#                     its own folder ($O/image/BOARD-kernel-N/; ROOTFS from
#                     the environment, default ext4). Not with --x-image
#   --a-image IMG, --b-image IMG   the side boots IMG, a disk-*.img that
#                     `make image` built (kernel, initramfs from its folder,
#                     as qemu/run.sh --disk takes them)
#                     A side given neither boots the board's image,
#                     $O/image/BOARD/disk-ROOTFS.img (make image)
#   --a-append WORDS, --b-append WORDS   more kernel command line words for
#                     the side's boots (fsbench.mount_opts.ext4=noatime);
#                     their fsbench.KEY=VALUE settings are checked on the
#                     host before the first boot
#   --a-qemu-args ARGS, --b-qemu-args ARGS   more qemu/run.sh options for
#                     the side's boots (--target-throttle 500), split into
#                     words as the shell splits them (quotes kept)
#   --qemu-args ARGS  qemu/run.sh options for every boot, before the side's.
#                     Not --disk, --kernel, --results, --work, --profile,
#                     --criteria (ab.sh gives those); the options are
#                     checked by qemu/run.sh's own parser before any boot
#   --runs N|auto     boots a side (default 8): N blocks of one A and one
#                     B. 8 is the fewest that can flag a single row of the
#                     full suite: its 28 rows (4 filesystems x 7) are judged
#                     with Benjamini-Hochberg, whose strictest step asks
#                     p < 0.05/28 = 0.0018; the exact Mann-Whitney test of
#                     n runs against n reaches that from n = 7 (2/C(14,7) =
#                     0.00058; n = 6: 0.0022), and 8 leaves a run to spare.
#                     auto: --runs-min blocks, then one block more at a
#                     time, compared after each, until the compare no
#                     longer exits 5 (a row undecided) or --runs-max blocks
#   --runs-min N      with --runs auto: the blocks to begin with (default 4)
#   --runs-max N      with --runs auto: the most blocks (default 20)
#   --seed N          the order's seed, 1 to 2147483646 (default: drawn,
#                     qemu/aborder.sh --seed): the same seed, the same order
#   --profile NAME    fsbench.profile of every boot (default smoke: an A/B
#                     boots 16 times or more)
#   --control MODE    how the compare treats the runs' control (fsbench
#                     compare --control): judge (a side whose control
#                     differs from A's judged relative to it), report (the
#                     conditions reported, the rows judged on their own
#                     seconds), or auto (the default): report when the
#                     sides boot different kernels or images (--x-kernel,
#                     --x-image: the control runs on each side's kernel,
#                     so the change moves it too; the interleaved order
#                     already puts the host's drift on both sides), else
#                     judge
#   --criteria FILE   each boot judged against FILE too (qemu/run.sh
#                     --criteria; default none: the A/B's verdict is the
#                     compare's)
#   --results DIR     the A/B's folder (default $RESULTS/<date>-<board>-ab,
#                     the date as qemu/run.sh names its folders; -2, -3 ...
#                     when it exists)
#   --dry-run         print the seed, the order and the estimate; build and
#                     boot nothing, write nothing
# Inputs (environment): BOARD (default qemu-x86_64), O (build output,
#   default out), RESULTS (default results), ROOTFS (default ext4),
#   FSBENCH_HOST (default $O/host/fsbench); what qemu/run.sh reads.
# What it says: its first line is the seed and how to replay it
#   (ab: seed 12345 (SEED=12345 replays this order)); before the first boot
#   what the whole A/B will take here (qemu/estimate.sh's figure of one
#   boot of each side, times the boots, plus OVERHEAD_S a boot for the
#   launcher's work around QEMU and the compare; the images' builds come
#   before it and are not in it); a line per boot (ab: boot 3 of 16 (block
#   2, side B): ...) with the time elapsed and left, the boot's own output
#   in its folder (launcher.txt); at the end the time taken beside the
#   estimate, the compare's table, and last FSBENCH-AB: PASS, FAIL or ERROR.
# Outputs, in the A/B's folder: boot-NN-S/ (each boot's results folder,
#   qemu/run.sh --results: NN its number in the order, S its side; and
#   launcher.txt, what qemu/run.sh printed), order.txt ("seed N", then a
#   line per boot as it ends: block, side, folder, qemu/run.sh's exit
#   status), ab.txt (the settings of each side: kernel, image, append, QEMU
#   arguments; profile, board, seed, runs), compare.md, compare.html,
#   compare.csv (`fsbench compare boot-*-A -- boot-*-B
#   --fail-on-regression`, --format html, csv), compare.err (its stderr),
#   verdict.txt (the lines that say why, then FSBENCH-AB: ...).
# Exit status: 0 PASS (every row decided, none slower); 1 FAIL (a row
#   slower, or a B boot whose runner failed: named); 5 ERROR (a row that
#   could not be decided, named with the runs a side that would decide it;
#   a boot that did not finish: no run_end record, qemu/run.sh exit 4,
#   named with its side, folder and the console's last lines: the A/B
#   stops there; an A boot whose runner failed; a compare that failed);
#   2 misuse, before any boot (a bad --runs, --seed or setting, both a
#   kernel and an image for one side, a missing file: the input named).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
O=${O:-out}
RESULTS=${RESULTS:-results}
BOARD=${BOARD:-qemu-x86_64}
ROOTFS=${ROOTFS:-ext4}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
export O RESULTS BOARD ROOTFS
. "$here/../image/lib.sh"
prog=ab

# What a boot costs beyond QEMU start to power-off (qemu/estimate.sh's
# figure): the launcher's disk copy, records, reports and index, ab.sh's
# own reading of them, the compare's share. Measured here
# (results/MEASUREMENTS-KERNELS.md, "An A/B's time").
OVERHEAD_S=1.5

a_kernel= a_image= a_append= a_qargs= b_kernel= b_image= b_append= b_qargs=
qargs= runs=8 runs_min=4 runs_max=20 seed= profile=smoke criteria= abdir= dry=0 control=auto
need() { [ $# -ge 2 ] || die $EX_USAGE "$1: a value is missing (--help lists the options)"; }
while [ $# -gt 0 ]; do
	case $1 in
	--a-kernel) need "$@"; a_kernel=$2; shift ;;
	--b-kernel) need "$@"; b_kernel=$2; shift ;;
	--a-image) need "$@"; a_image=$2; shift ;;
	--b-image) need "$@"; b_image=$2; shift ;;
	--a-append) need "$@"; a_append=$2; shift ;;
	--b-append) need "$@"; b_append=$2; shift ;;
	--a-qemu-args) need "$@"; a_qargs=$2; shift ;;
	--b-qemu-args) need "$@"; b_qargs=$2; shift ;;
	--qemu-args) need "$@"; qargs=$2; shift ;;
	--runs) need "$@"; runs=$2; shift ;;
	--runs-min) need "$@"; runs_min=$2; shift ;;
	--runs-max) need "$@"; runs_max=$2; shift ;;
	--seed) need "$@"; seed=$2; shift ;;
	--profile) need "$@"; profile=$2; shift ;;
	--criteria) need "$@"; criteria=$2; shift ;;
	--control) need "$@"; control=$2; shift ;;
	--results) need "$@"; abdir=$2; shift ;;
	--dry-run) dry=1 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//; /^set -eu/d'; exit 0 ;;
	*) die $EX_USAGE "unknown option '$1' (--help lists them)" ;;
	esac
	shift
done

# --- misuse, before anything is built or booted ------------------------
case $control in
auto) if [ -n "$a_kernel$b_kernel$a_image$b_image" ]; then control=report; else control=judge; fi ;;
judge|report) ;;
*) die $EX_USAGE "CONTROL (--control) '$control': auto, judge or report" ;;
esac
whole() { case $2 in '' | *[!0-9]* | 0*) die $EX_USAGE "$1 '$2': not a whole number from 1" ;; esac; }
case $runs in
auto)
	whole 'RUNS_MIN (--runs-min)' "$runs_min"
	whole 'RUNS_MAX (--runs-max)' "$runs_max"
	[ "$runs_min" -le "$runs_max" ] ||
		die $EX_USAGE "RUNS_MIN ($runs_min) is more than RUNS_MAX ($runs_max)"
	;;
*) whole 'RUNS (--runs; or auto)' "$runs" ;;
esac
if [ -n "$seed" ]; then
	m=$(sh "$here/aborder.sh" "$seed" 1 2>&1 >/dev/null) ||
		die $EX_USAGE "SEED (--seed) '$seed': ${m#aborder: seed \'$seed\': }"
fi
[ -f "$top/board/$BOARD/board.mk" ] || die $EX_USAGE "BOARD '$BOARD': no board/$BOARD/board.mk"
[ -x "$FSBENCH_HOST" ] || die $EX_USAGE "no host fsbench $FSBENCH_HOST (make host)"
FSBENCH_HOST=$(cd "$(dirname "$FSBENCH_HOST")" && pwd)/$(basename "$FSBENCH_HOST")
export FSBENCH_HOST
conf=$top/board/$BOARD/fsbench.conf
m=$("$FSBENCH_HOST" config --get profile --profile "$profile" 2>&1) ||
	die $EX_USAGE "PROFILE (--profile) '$profile': $m"
if [ -n "$criteria" ]; then
	[ -f "$criteria" ] || die $EX_USAGE "CRITERIA (--criteria) $criteria: no such file"
	criteria=$(cd "$(dirname "$criteria")" && pwd)/$(basename "$criteria")
fi

# words STRING: STRING split as the shell splits it, one word a line
# (qemu/run.sh options given as one string, quotes kept).
words() { eval "set -- $1" && for _w; do printf '%s\n' "$_w"; done; }
# appends STRING: the words of every --append among qemu/run.sh options.
appends() {
	eval "set -- $1"
	while [ $# -gt 0 ]; do
		[ "$1" != --append ] || [ $# -lt 2 ] || { printf '%s ' "$2"; shift; }
		shift
	done
}
# checkargs NAME STRING: qemu/run.sh options of the input NAME: parsed by
# the shell, none that ab.sh gives itself, and accepted by qemu/run.sh's
# own parser (it reads every option before it looks for the disk: a disk
# that is not there is how a boot's options are checked without a boot).
nodisk=/nonexistent/fsbench-ab-no-such-disk.img
checkargs() {
	_n=$1 _s=$2
	_m=$( (eval "set -- $_s") 2>&1) || die $EX_USAGE "$_n '$_s': not words the shell can split: ${_m##*: }"
	for _w in $(words "$_s" | grep -x -- '--disk\|--kernel\|--results\|--work\|--profile\|--criteria' || true); do
		case $_w in
		--disk | --kernel) die $EX_USAGE "$_n: $_w: give a side's image or kernel with A_IMAGE, A_KERNEL, B_IMAGE, B_KERNEL" ;;
		--results) die $EX_USAGE "$_n: --results: each boot's folder is the A/B's (RESULTS, or ab.sh --results)" ;;
		--work) die $EX_USAGE "$_n: --work: every boot of an A/B gets a fresh disk copy and target" ;;
		--profile) die $EX_USAGE "$_n: --profile: PROFILE (ab.sh --profile) is every boot's" ;;
		--criteria) die $EX_USAGE "$_n: --criteria: CRITERIA (ab.sh --criteria) is every boot's" ;;
		esac
	done
	eval "set -- $_s"
	_m=$(sh "$here/run.sh" --disk "$nodisk" "$@" 2>&1 >/dev/null) && _rc=0 || _rc=$?
	case $_rc:$_m in
	2:*"no disk image $nodisk"*) ;;
	*) die $EX_USAGE "$_n '$_s': qemu/run.sh refuses them: $(echo "${_m#qemu: }" | head -n 1)" ;;
	esac
}
# checkset NAME WORDS: the fsbench.KEY=VALUE words of a side resolve on
# the host as the guest's runner resolves them (other words are left to
# the kernel).
checkset() {
	_a=
	for _w in $2; do
		case $_w in fsbench.profile=*) ;; fsbench.*=*) _a="$_a --${_w#fsbench.}" ;; esac
	done
	# shellcheck disable=SC2086
	_m=$("$FSBENCH_HOST" config --show --config "$conf" --profile "$profile" $_a 2>&1 >/dev/null) ||
		die $EX_USAGE "$1: a setting the runner refuses: ${_m#fsbench: }"
}
checkargs 'QEMU_ARGS (--qemu-args)' "$qargs"
for s in a b; do
	S=$(echo $s | tr ab AB)
	eval "k=\$${s}_kernel i=\$${s}_image ap=\$${s}_append qa=\$${s}_qargs"
	[ -z "$k" ] || [ -z "$i" ] ||
		die $EX_USAGE "side $S: ${S}_KERNEL (--$s-kernel) and ${S}_IMAGE (--$s-image) both given: one or the other"
	if [ -n "$k" ]; then
		[ -d "$k" ] || die $EX_USAGE "${S}_KERNEL (--$s-kernel) $k: no such folder (a kernel build tree, or a folder with a kernel image and lib/modules/VERSION)"
		eval "${s}_kernel=\$(cd \"\$k\" && pwd)"
	elif [ -n "$i" ]; then
		[ -f "$i" ] || die $EX_USAGE "${S}_IMAGE (--$s-image) $i: no such file"
		d=$(cd "$(dirname "$i")" && pwd)
		for f in kernel initramfs.cpio.gz; do
			[ -f "$d/$f" ] || die $EX_USAGE "${S}_IMAGE (--$s-image) $i: no $f beside it (a disk-*.img of make image: its folder holds the kernel and initramfs it boots)"
		done
		eval "${s}_image=\$d/\$(basename \"\$i\")"
	fi
	checkargs "${S}_QEMU_ARGS (--$s-qemu-args)" "$qa"
	checkset "side $S (APPEND, QEMU_ARGS' --append)" "$(appends "$qargs") $(appends "$qa") $ap"
done
defimg=$O/image/$BOARD/disk-$ROOTFS.img
[ ! -f "$defimg" ] || defimg=$(cd "$(dirname "$defimg")" && pwd)/$(basename "$defimg")
for s in a b; do
	eval "k=\$${s}_kernel i=\$${s}_image"
	if [ -z "$k$i" ] && [ ! -f "$defimg" ] && [ "$dry" = 0 ]; then
		die $EX_USAGE "side $(echo $s | tr ab AB): no disk image $O/image/$BOARD/disk-$ROOTFS.img (make image; or A_IMAGE, A_KERNEL, B_IMAGE, B_KERNEL)"
	fi
done

# --- the seed: the first line said -------------------------------------
[ -n "$seed" ] || seed=$(sh "$here/aborder.sh" --seed)
say "seed $seed (SEED=$seed replays this order)"

if [ "$runs" = auto ]; then
	blocks=$runs_min
	runs_text="auto: $runs_min blocks, then one more at a time while a row is undecided, at most $runs_max"
else
	blocks=$runs
	runs_text="$runs a side"
fi
dur() {
	awk -v s="$1" 'BEGIN { s = int(s + 0.5)
		if (s < 90) printf "%d s", s
		else if (s < 5400) printf "%d min %d s", s / 60, s % 60
		else { m = int(s / 60 + 0.5); printf "%d h %02d min", m / 60, m % 60 } }'
}

# --- the A/B's folder ----------------------------------------------------
if [ "$dry" = 0 ]; then
	if [ -z "$abdir" ]; then
		abdir=$RESULTS/$(date +%Y%m%d-%H%M%S)-$BOARD-ab
		n=1 base=$abdir
		while [ -e "$abdir" ]; do n=$((n + 1)); abdir=$base-$n; done
	fi
	[ ! -e "$abdir/order.txt" ] || die $EX_USAGE "the A/B folder $abdir already holds an A/B (order.txt)"
	mkdir -p "$abdir"
	abdir=$(cd "$abdir" && pwd)
	say "results: $abdir"
fi

# --- each side's disk: a kernel's image built now ------------------------
for s in a b; do
	S=$(echo $s | tr ab AB)
	eval "k=\$${s}_kernel i=\$${s}_image"
	if [ -n "$k" ]; then
		if [ "$dry" = 1 ]; then
			eval "${s}_disk='(built from $k before the first boot)'"
			continue
		fi
		say "side $S: the image with the kernel $k (make image KERNEL=$k; log: $abdir/image-$S.log)"
		d=$(sh "$here/kimage.sh" "$k" "$abdir/image-$S.log") || case $? in
		2) die $EX_USAGE "${S}_KERNEL (--$s-kernel) $k: no image (above: what is missing; the whole log in $abdir/image-$S.log)" ;;
		*) die $EX_SYSTEM "${S}_KERNEL $k: the build named no image ($abdir/image-$S.log)" ;;
		esac
		eval "${s}_disk=\$d"
	elif [ -n "$i" ]; then
		eval "${s}_disk=\$i"
	else
		eval "${s}_disk=\$defimg"
	fi
done

# --- what it will take ---------------------------------------------------
# The accelerator as the boots will find it (qemu/kvm-probe.sh's kept
# answer, or --accel among the options), then qemu/estimate.sh's figure
# of one boot of each side.
accel=
for w in $(words "$qargs $a_qargs $b_qargs" | sed -n '/^--accel$/{n;p}'); do accel=$w; done
case $accel in
kvm | tcg) ;;
*)
	accel=tcg
	for d in "$a_disk" "$b_disk" "$defimg"; do
		kf=$(dirname "$d")/kernel
		[ -f "$kf" ] || continue
		eval "$(sh "$top/image/boardenv.sh" "$top/board/$BOARD/board.mk")"
		pw=$(mkdir -p "$O/run" && mktemp -d "$O/run/ab-probe.XXXXXX")
		sh "$here/kvm-probe.sh" "$kf" "$pw" "$O/run/kvm-probe-$BOARD.txt" >/dev/null 2>&1 && accel=kvm
		rm -rf "$pw"
		break
	done
	;;
esac
# estimate SIDE: seconds of one boot of the side, QEMU start to power-off
# (empty: no estimate).
estimate() {
	eval "_ap=\$${1}_append _qa=\$${1}_qargs"
	_p=$(mktemp)
	ACCEL=$accel PROFILE=$profile CONF=$conf SETTINGS="fsbench.capacity=0 $(appends "$qargs") $(appends "$_qa") $_ap" \
		sh "$here/estimate.sh" "$_p" >/dev/null 2>&1 || true
	sed -n 's/^total //p' "$_p"
	rm -f "$_p"
}
est_a=$(estimate a) est_b=$(estimate b)
total_est=
if [ -n "$est_a" ] && [ -n "$est_b" ]; then
	# ab_est BLOCKS: the seconds of BLOCKS blocks
	ab_est() { awk -v a="$est_a" -v b="$est_b" -v o="$OVERHEAD_S" -v n="$1" 'BEGIN { printf "%.0f", n * (a + b + 2 * o) }'; }
	total_est=$(ab_est "$blocks")
	what="$((2 * blocks)) boots: $blocks of A at about $(dur "$est_a") and $blocks of B at about $(dur "$est_b"), QEMU start to power-off (qemu/estimate.sh, $(echo "$accel" | tr a-z A-Z)), $OVERHEAD_S s a boot around them"
	if [ "$runs" = auto ]; then
		say "this A/B should take about $(dur "$total_est") here for its first $blocks blocks, at most $(dur "$(ab_est "$runs_max")") ($runs_max blocks) ($what; the images' builds not included)"
	else
		say "this A/B should take about $(dur "$total_est") here ($what; the images' builds not included)"
	fi
else
	say "no estimate of the A/B's time: qemu/estimate.sh has none for these settings"
fi

# --- the order -----------------------------------------------------------
order=$(sh "$here/aborder.sh" "$seed" "$blocks")
if [ "$dry" = 1 ]; then
	say "order (seed $seed, $blocks blocks of one A and one B$([ "$runs" != auto ] || echo ", RUNS=auto: its first blocks; later blocks drawn from the same seed")):"
	n=0
	echo "$order" | while read -r blk side; do
		n=$((n + 1))
		nn=$(printf %02d $n)
		say "  boot $nn: block $blk, side $side (boot-$nn-$side)"
	done
	say "side A: disk $a_disk${a_append:+, append $a_append}${a_qargs:+, qemu/run.sh $a_qargs}"
	say "side B: disk $b_disk${b_append:+, append $b_append}${b_qargs:+, qemu/run.sh $b_qargs}"
	say "compare: --control $control$([ "$control" = report ] && echo ' (the sides boot other kernels or images: the rows on their own seconds)' || echo ' (a side whose control differs judged relative to it)')"
	say "dry run: nothing built, nothing booted"
	exit 0
fi

# --- ab.txt: the settings of each side -----------------------------------
kernel_of() {
	_d=$(dirname "$1")
	if [ -f "$_d/kernel-src.txt" ]; then
		echo "$(sed -n 's/^kernel //p' "$_d/kernel-src.txt") from $(sed -n 's/^image //p' "$_d/kernel-src.txt")"
	else
		echo "the image's own ($_d/kernel: board $BOARD's kernel package)"
	fi
}
{
	echo "seed: $seed (SEED=$seed replays the order)"
	echo "runs: $runs_text"
	echo "profile: $profile"
	echo "board: $BOARD"
	echo "criteria: ${criteria:-none}"
	echo "control: $control (fsbench compare --control $control)"
	echo "qemu args (every boot): $qargs"
	if [ -n "$total_est" ]; then
		echo "estimate: $total_est s for $((2 * blocks)) boots (one boot of A $est_a s, of B $est_b s, QEMU start to power-off, $OVERHEAD_S s around each; $accel)"
	else
		echo "estimate: none"
	fi
	echo "started: $(date '+%Y-%m-%d %H:%M:%S')"
	for s in a b; do
		S=$(echo $s | tr ab AB)
		eval "d=\$${s}_disk k=\$${s}_kernel ap=\$${s}_append qa=\$${s}_qargs"
		echo "$S kernel: $(if [ -n "$k" ]; then echo "$k: $(kernel_of "$d")"; else kernel_of "$d"; fi)"
		echo "$S image: $d"
		echo "$S append: $ap"
		echo "$S qemu args: $qa"
	done
} >"$abdir/ab.txt"
echo "seed $seed" >"$abdir/order.txt"

# --- the boots -------------------------------------------------------------
now() { date +%s; }
t0=$(now)
compared=0 nboot=0 blk_done=0 done_a=0 done_b=0 sum_a=0 sum_b=0 b_failed= a_failed=
planned=$((2 * blocks))
# left BOOTS_A BOOTS_B: seconds the boots still to come take: each side's
# boots so far, else the estimate.
left() {
	awk -v na="$1" -v nb="$2" -v da="$done_a" -v db="$done_b" -v sa="$sum_a" -v sb="$sum_b" \
		-v ea="$est_a" -v eb="$est_b" -v o="$OVERHEAD_S" 'BEGIN {
		ma = da ? sa / da : (ea == "" ? -1 : ea + o)
		mb = db ? sb / db : (eb == "" ? -1 : eb + o)
		if (ma < 0 || mb < 0) { print ""; exit }
		printf "%.0f", na * ma + nb * mb }'
}
# fail_boot WHY: the A/B stops at a boot that did not finish: ERROR,
# naming its side, number and folder, with the console's last lines (the
# launcher's when the console is empty: QEMU that did not start).
fail_boot() {
	_why=$(
		echo "boot $nboot of $planned (block $blk, side $side) $1; its folder: $abdir/boot-$nn-$side"
		if [ -s "$bdir/serial.log" ]; then
			echo "the console's last lines ($bdir/serial.log):"
			tail -n 15 "$bdir/serial.log" | sed 's/^/  /'
		else
			# QEMU that did not start: what it said, as the launcher
			# printed it, and how the launcher saw it end
			echo "the console is empty; what the launcher said ($bdir/launcher.txt):"
			_l=$(sed -n '/^qemu: QEMU said:$/,/^$/p' "$bdir/launcher.txt" | sed '/^$/d')
			[ -n "$_l" ] || _l=$(grep '^qemu:' "$bdir/launcher.txt" | tail -n 10)
			printf '%s\n' "$_l" | sed 's/^/  /'
			sed -n 's/^ *end: */  run.txt: end: /p' "$bdir/run.txt" 2>/dev/null || true
		fi
		echo "the A/B stops here: side $side did not finish a boot, so the A/B cannot judge it"
	)
	printf '%s\n' "$_why" | sed 's/^/ab: /' >&2
	finish ERROR "$_why"
}
# finish VERDICT LINES: verdict.txt (LINES, then FSBENCH-AB: VERDICT), its
# last line printed last; exit 0, 1 or 5.
finish() {
	{
		[ -z "$2" ] || printf '%s\n' "$2"
		echo "FSBENCH-AB: $1"
	} >"$abdir/verdict.txt"
	t=$(($(now) - t0))
	if [ "$compared" = 1 ]; then _w="$nboot boots and the compare took"; else _w="$nboot boot$([ "$nboot" = 1 ] || echo s) took"; fi
	# the estimate of the boots made (RUNS=auto makes more than its first)
	[ -z "$total_est" ] || total_est=$(ab_est "$blocks")
	say "$_w $(dur "$t") ($t s)${total_est:+; the estimate was $(dur "$total_est") ($total_est s for $((2 * blocks)) boots)}"
	echo "finished: $(date '+%Y-%m-%d %H:%M:%S'), $t s" >>"$abdir/ab.txt"
	echo "FSBENCH-AB: $1"
	case $1 in PASS) exit 0 ;; FAIL) exit $EX_FAIL ;; *) exit $EX_ERROR ;; esac
}
# boot BLOCK SIDE: one boot, its line in order.txt when it ends.
boot() {
	blk=$1 side=$2
	nboot=$((nboot + 1))
	nn=$(printf %02d "$nboot")
	bdir=$abdir/boot-$nn-$side
	el=$(($(now) - t0))
	ba=$(echo "$order" | sed -n "$((nboot + 1)),\$p" | grep -c ' A$' || true)
	bb=$(echo "$order" | sed -n "$((nboot + 1)),\$p" | grep -c ' B$' || true)
	[ "$side" = A ] && ba=$((ba + 1)) || bb=$((bb + 1))
	lt=$(left "$ba" "$bb")
	more=
	[ "$runs" != auto ] || [ "$planned" -ge $((2 * runs_max)) ] || more=", more if rows stay undecided (at most $((2 * runs_max)) boots)"
	say "boot $nboot of $planned (block $blk, side $side): boot-$nn-$side; elapsed $(dur "$el")${lt:+, about $(dur "$lt") left}$more"
	_s=$(echo "$side" | tr AB ab)
	eval "_d=\$${_s}_disk _ap=\$${_s}_append _qa=\$${_s}_qargs"
	mkdir -p "$bdir"
	eval "set -- $qargs $_qa"
	[ -z "$_ap" ] || set -- --append "$_ap" "$@"
	[ -n "$criteria" ] || set -- --criteria none "$@"
	[ -z "$criteria" ] || set -- --criteria "$criteria" "$@"
	tb=$(now)
	rc=0
	sh "$here/run.sh" --disk "$_d" --results "$bdir" --profile "$profile" --quiet --stall-retries 1 "$@" \
		>"$bdir/launcher.txt" 2>&1 </dev/null || rc=$?
	tt=$(($(now) - tb))
	echo "$blk $side boot-$nn-$side $rc" >>"$abdir/order.txt"
	code=
	[ ! -f "$bdir/records.jsonl" ] || code=$(sh "$here/records.sh" "$bdir/records.jsonl" run_end exit_code | tail -n 1)
	if [ "$rc" = 4 ] || [ -z "$code" ]; then
		say "boot $nboot of $planned (block $blk, side $side): no run_end record (qemu/run.sh exit $rc) after $(dur "$tt")"
		case $rc in
		2) fail_boot "did not boot: qemu/run.sh refused it (exit 2), no run_end record" ;;
		*) fail_boot "did not finish: no run_end record (qemu/run.sh exit $rc: the guest crashed, hung, was killed or never started)" ;;
		esac
	fi
	if [ "$side" = A ]; then done_a=$((done_a + 1)) sum_a=$((sum_a + tt)); else done_b=$((done_b + 1)) sum_b=$((sum_b + tt)); fi
	case $rc in
	0) say "boot $nboot of $planned (block $blk, side $side): exit 0 in $(dur "$tt")" ;;
	1)
		w="boot $nboot of $planned (side $side, $abdir/boot-$nn-$side): the runner exited 1: a filesystem failed or a read did not match ($bdir/report.md)"
		warn "$w"
		if [ "$side" = A ]; then a_failed="$a_failed
$w"; else b_failed="$b_failed
$w"; fi
		;;
	*)
		say "boot $nboot of $planned (block $blk, side $side): exit $rc after $(dur "$tt")"
		fail_boot "ended with exit $rc (the runner's or the launcher's: not a run the A/B can judge; $bdir/launcher.txt)"
		;;
	esac
}
# compare: the A runs against the B runs so far; compare.md and
# compare.err; its exit status in crc.
compare() {
	_a=$(awk '$2 == "A" { printf " %s", $3 }' "$abdir/order.txt")
	_b=$(awk '$2 == "B" { printf " %s", $3 }' "$abdir/order.txt")
	crc=0 compared=1
	# shellcheck disable=SC2086
	(cd "$abdir" && "$FSBENCH_HOST" compare $_a -- $_b --fail-on-regression --control "$control") \
		>"$abdir/compare.md" 2>"$abdir/compare.err" || crc=$?
}
# run_blocks FIRST COUNT: the boots of those blocks, in the seed's order.
run_blocks() {
	for _x in $(sh "$here/aborder.sh" "$seed" "$2" "$1" | tr ' ' :); do
		boot "${_x%:*}" "${_x#*:}"
	done
	blk_done=$(($1 + $2 - 1))
}

run_blocks 1 "$blocks"
compare
if [ "$runs" = auto ]; then
	while [ "$crc" = 5 ] && [ "$blk_done" -lt "$runs_max" ]; do
		say "after block $blk_done ($blk_done runs a side): still undecided:"
		sed 's/^fsbench: /  /' "$abdir/compare.err"
		order="$order
$(sh "$here/aborder.sh" "$seed" 1 $((blk_done + 1)))"
		blocks=$((blocks + 1))
		planned=$((planned + 2))
		run_blocks $((blk_done + 1)) 1
		compare
	done
	say "RUNS=auto: stopped after $blk_done blocks ($([ "$crc" = 5 ] && echo "RUNS_MAX reached, rows still undecided" || echo "compare decided: exit $crc"))"
	echo "runs done: $blk_done a side (RUNS=auto)" >>"$abdir/ab.txt"
fi
a=$(awk '$2 == "A" { printf " %s", $3 }' "$abdir/order.txt")
b=$(awk '$2 == "B" { printf " %s", $3 }' "$abdir/order.txt")
# shellcheck disable=SC2086
(cd "$abdir" && "$FSBENCH_HOST" compare $a -- $b --fail-on-regression --control "$control" --format html >compare.html 2>/dev/null) || true
# shellcheck disable=SC2086
(cd "$abdir" && "$FSBENCH_HOST" compare $a -- $b --fail-on-regression --control "$control" --format csv >compare.csv 2>/dev/null) || true
cat "$abdir/compare.md"
[ ! -s "$abdir/compare.err" ] || cat "$abdir/compare.err" >&2

# slower: the rows compare.csv flags slower, one line each
slower() {
	awk -F, '
		$1 == "compare" && $2 == "fs" { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "compare" && c["b_flag"] && $c["b_flag"] == "slower" {
			p = c["b_p_bh"] ? "p (BH) " $c["b_p_bh"] : "p " $c["b_p"]
			printf "slower: %s %s: B/A %s, %s\n", $2, $3, $c["b_over_a"], p
		}' "$abdir/compare.csv"
}
# The verdict: the compare's exit status, and the boots whose runner
# failed (A's: the A/B cannot judge; B's: a failure of the disk or kernel
# under test).
errlines=$(cat "$abdir/compare.err")
lines=
case $crc in
0) lines="every row decided, none slower ($nboot boots; compare.md)" ;;
1) lines=$(printf '%s\n%s\n' "$errlines" "$(slower)") ;;
5) lines=$errlines ;;
*) finish ERROR "fsbench compare failed (exit $crc): $errlines" ;;
esac
if [ -n "$a_failed" ]; then
	lines=$(printf '%s\n%s\n%s\n' "$lines" "$a_failed" "side A's runner failed: the A/B cannot judge B against it")
	finish ERROR "$(echo "$lines" | sed '/^$/d')"
fi
[ "$crc" != 5 ] || finish ERROR "$(echo "$lines" | sed '/^$/d')"
if [ -n "$b_failed" ]; then
	[ "$crc" != 0 ] || lines="no row slower, but side B's runner failed:"
	finish FAIL "$(printf '%s\n%s\n' "$lines" "$b_failed" | sed '/^$/d')"
fi
[ "$crc" = 0 ] && finish PASS "$lines"
finish FAIL "$(echo "$lines" | sed '/^$/d')"

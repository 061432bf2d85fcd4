#!/bin/sh
# bench.sh: the runner's create phase held against a bare C loop (bare.c) and
# fs_mark, with the same files: DIRS directories x FILES files x SIZE bytes,
# one worker process per directory.
#
# Inputs (environment; tests/bench/bench.mk sets them):
#   O             output folder, absolute (scratch lives in $O/bench)
#   FSBENCH       the runner (fsbench, static musl)
#   BARE          the bare loop built from tests/bench/bare.c
#   BENCH_DIRS    directories = worker processes     (default 4)
#   BENCH_FILES   files per directory                (default 20000)
#   BENCH_SIZE    bytes per file                     (default 4096)
#   BENCH_REPEAT  measurements per tool and case     (default 3)
#   BENCH_CASES   cases, in order: ext4 tmpfs        (default both)
#   BENCH_IMG     size of the sparse ext4 image      (default 4G)
#   BENCH_WAIT    before each measurement, wait up to this many seconds for
#                 the CPUs to be idle (under 10 % in use)   (default 0: no wait)
#   FS_MARK       fs_mark binary                     (default fs_mark)
#   The nice value it starts with is every tool's (bench.mk: nice -n -20).
# Cases:
#   ext4   a loop device (--direct-io=on) over $O/bench/ext4.img; every
#          measurement starts from a fresh mkfs (`mke2fs -t ext4 -F -q`, as the
#          runner does) and mount; the runner does its own with --target.
#   tmpfs  a fresh tmpfs mounted at $O/bench/tmpfs for every measurement; the
#          runner gets it with --dir.
#   Tools run interleaved, the order rotating each repeat.
# Outputs:
#   stdout                 one line per measurement, then the medians, the
#                          ratios and PASS/FAIL lines for the two targets
#                          (overhead over the bare loop < 5 %, runner >= fs_mark)
#   $O/bench/results.tsv   one row per measurement
#   $O/bench/summary.txt   the summary as printed
# Timing, all tools: files / (last worker end - first worker start + syncfs).
#   fs_mark has no such clock: it is timed from its fork to its exit by
#   `bare -x` (start-up included), plus syncfs.
# Sum of rates, all tools: fs_mark's own way of counting (the sum over the
#   worker processes of each one's files / its own seconds, no sync): fs_mark
#   prints it, the runner's worker_seconds and the bare loop give it.
# CPU time per file, all tools: user + system time of the worker processes
#   (runner: its children reaped during the create phase, from
#   /proc/PID/stat; bare and fs_mark: getrusage in bare). Other work on the
#   machine moves files/s a lot and CPU time per file little, so the overhead
#   is also given from it.
# Needs root (loop device, mount). Touches only the loop device it attached,
# and the mounts under $O/bench; all undone on exit.
# Exit status: 0 when every measurement ran (FAIL lines are a measurement, not
# an error), 1 on an error, 2 when not root or a setting is wrong.
set -eu

: "${O:?O (output folder) not set}"
: "${FSBENCH:?FSBENCH not set}"
: "${BARE:?BARE not set}"
DIRS=${BENCH_DIRS:-4}
FILES=${BENCH_FILES:-20000}
SIZE=${BENCH_SIZE:-4096}
REPEAT=${BENCH_REPEAT:-3}
CASES=${BENCH_CASES:-ext4 tmpfs}
IMG_SIZE=${BENCH_IMG:-4G}
FS_MARK=${FS_MARK:-fs_mark}
WAIT=${BENCH_WAIT:-0}

die() { echo "bench: $*" >&2; exit 1; }

case $WAIT in ''|*[!0-9]*) echo "bench: BENCH_WAIT: not a number: '$WAIT'" >&2; exit 2 ;; esac
for v in "$DIRS" "$FILES" "$SIZE" "$REPEAT"; do
	case $v in ''|*[!0-9]*|0) echo "bench: not a positive number: '$v'" >&2; exit 2 ;; esac
done
for c in $CASES; do
	case $c in ext4|tmpfs) ;; *) echo "bench: unknown case '$c' (ext4, tmpfs)" >&2; exit 2 ;; esac
done
if [ "$(id -u)" != 0 ]; then
	echo "bench: needs root (loop device, mkfs, mount); run: sudo make bench" >&2
	exit 2
fi
[ -x "$FSBENCH" ] || die "runner $FSBENCH: not built"
[ -x "$BARE" ] || die "bare loop $BARE: not built"
HAVE_FSMARK=1
command -v "$FS_MARK" >/dev/null 2>&1 || HAVE_FSMARK=0
for t in mke2fs losetup mount umount mountpoint truncate; do
	command -v $t >/dev/null 2>&1 || die "$t: not found"
done

S=$O/bench
MNT=$S/mnt
TMP=$S/tmpfs
IMG=$S/ext4.img
TSV=$S/results.tsv
SUMMARY=$S/summary.txt
TOTAL=$((DIRS * FILES))
DEV=

mkdir -p "$S" "$MNT" "$TMP"

cleanup() {
	for m in "$MNT" "$TMP"; do
		if mountpoint -q "$m"; then umount "$m" || umount -l "$m" || :; fi
	done
	if [ -n "$DEV" ]; then losetup -d "$DEV" || echo "bench: losetup -d $DEV failed" >&2; fi
	rm -f "$IMG"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# a previous run killed hard may have left its own mounts and loop device
for m in "$MNT" "$TMP"; do
	if mountpoint -q "$m"; then umount "$m"; fi
done
if [ -e "$IMG" ]; then
	for d in $(losetup --list -n -O NAME -j "$IMG"); do losetup -d "$d"; done
fi

case " $CASES " in *" ext4 "*)
	rm -f "$IMG"
	truncate -s "$IMG_SIZE" "$IMG"
	DEV=$(losetup --find --show --direct-io=on "$IMG") || die "losetup $IMG failed"
	echo "bench: ext4 on $DEV (direct-io) over $IMG ($IMG_SIZE, sparse)"
esac

# ---- one measurement per function; each prints
# "files seconds sync_seconds sum_of_rates cpu_seconds" ----

fresh() {	# fresh() CASE: an empty filesystem mounted at the case's folder
	case $1 in
	ext4)
		mke2fs -t ext4 -F -q "$DEV" >/dev/null || die "mke2fs $DEV failed"
		mount -t ext4 "$DEV" "$MNT" || die "mount $DEV on $MNT failed"
		;;
	tmpfs)
		mount -t tmpfs bench-tmpfs "$TMP" || die "mount tmpfs on $TMP failed"
		;;
	esac
}

release() {	# release() CASE: unmount what fresh() mounted
	case $1 in
	ext4) umount "$MNT" || die "umount $MNT failed" ;;
	tmpfs) umount "$TMP" || die "umount $TMP failed" ;;
	esac
}

# where CASE TOOL: the folder that gets the tool's directories. As the runner:
# the filesystem's root on ext4 (ext4 spreads top-level directories over the
# block groups, so the level matters), a folder inside tmpfs (its --dir).
where() {
	if [ "$1" = ext4 ]; then
		echo "$MNT"
	else
		mkdir "$TMP/$2" && echo "$TMP/$2"
	fi
}

num() {	# num KEY: the value of "KEY":N in the JSON line on stdin
	sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p"
}

kv() {	# kv KEY: the value of KEY=N in the line on stdin
	awk -v k="$1=" '{ for (i = 1; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }'
}

# ticks PID: user + system clock ticks of PID's children reaped so far
ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{ print $14 + $15 }'
}

run_runner() {
	out=$S/runner.json
	fifo=$S/runner.fifo
	case=$1
	if [ "$case" = ext4 ]; then
		set -- --target "$DEV" --fs ext4 --mnt "$MNT" --yes
	else
		fresh tmpfs
		set -- --dir "$TMP"
	fi
	rm -f "$fifo"
	mkfifo "$fifo"
	: >"$out"
	"$FSBENCH" run "$@" --rounds=1 --dirs="$DIRS" --files="$FILES" --workers="$DIRS" \
		--file_size="$SIZE" --progress=0 --verify=0 >"$fifo" 2>"$S/runner.err" &
	pid=$!
	# The create workers are reaped at the end of the phase, after its
	# phase_start record and before its phase record; the stat phase's are
	# reaped after an unmount, a mount and a directory walk, long after.
	t0=
	t1=
	while IFS= read -r l; do
		case $l in
		*'"type":"phase_start"'*'"phase":"create"'*) t0=$(ticks $pid) ;;
		*'"type":"phase"'*'"phase":"create"'*) t1=$(ticks $pid) ;;
		esac
		printf '%s\n' "$l" >>"$out"
	done <"$fifo"
	rc=0
	wait $pid || rc=$?
	rm -f "$fifo"
	if [ "$case" = tmpfs ]; then release tmpfs; fi
	if [ $rc != 0 ]; then
		cat "$S/runner.err" >&2
		die "fsbench run exited $rc (records in $out)"
	fi
	line=$(grep '"type":"phase"' "$out" | grep '"phase":"create"' | head -n 1)
	if [ -z "$line" ] || [ -z "$t0" ] || [ -z "$t1" ]; then die "no create phase record in $out"; fi
	cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')
	sum=$(echo "$line" | sed -n 's/.*"worker_seconds":\[\([^]]*\)\].*/\1/p' |
		awk -F , -v f="$FILES" '{ for (i = 1; i <= NF; i++) if ($i > 0) s += f / $i; printf "%.1f", s }')
	echo "$(echo "$line" | num files) $(echo "$line" | num seconds) $(echo "$line" | num sync_seconds) $sum $cpu"
}

run_bare() {
	fresh "$1"
	d=$(where "$1" bare) || die "mkdir in $TMP failed"
	line=$("$BARE" "$d" "$DIRS" "$FILES" "$SIZE") || die "bare loop failed"
	release "$1"
	echo "$(echo "$line" | kv files) $(echo "$line" | kv seconds) $(echo "$line" | kv sync_seconds)" \
		"$(echo "$line" | kv files_per_s_procsum) $(echo "$line" | kv cpu_seconds)"
}

run_fsmark() {
	fresh "$1"
	d=$(where "$1" fs_mark) || die "mkdir in $TMP failed"
	set -- "$1"
	i=0
	args=
	while [ $i -lt "$DIRS" ]; do	# fs_mark wants paths shorter than 40 bytes
		args="$args -d d$(printf %04d $i)"
		i=$((i + 1))
	done
	rm -f "$S/fs_mark.log"
	# names: 8 random characters, like the runner's f0000042
	# shellcheck disable=SC2086
	out=$(cd "$d" && "$BARE" -x . "$FS_MARK" $args -n "$FILES" -s "$SIZE" -S 0 -L 1 -k \
		-p 8 -r 8 -l "$S/fs_mark.log") || { echo "$out" >&2; die "fs_mark failed"; }
	release "$1"
	echo "$out" >"$S/fs_mark.out"
	own=$(echo "$out" | awk '/^FSUse%/ { getline; print $4; exit }')
	line=$(echo "$out" | grep '^exec_seconds=')
	ex=$(echo "$line" | kv exec_seconds)
	sy=$(echo "$line" | kv sync_seconds)
	cpu=$(echo "$line" | kv cpu_seconds)
	if [ -z "$own" ] || [ -z "$ex" ]; then die "cannot read fs_mark's output (in $S/fs_mark.out)"; fi
	echo "$TOTAL $(awk -v a="$ex" -v b="$sy" 'BEGIN { printf "%.6f", a + b }') $sy $own $cpu"
}

# cpu_busy: percent of the CPUs in use over one second (the bench is idle then)
cpu_busy() {
	a=$(head -n 1 /proc/stat)
	sleep 1
	b=$(head -n 1 /proc/stat)
	echo "$a $b" | awk '{ n = (NF - 2) / 2	# "cpu" u n s idle iowait ... twice
		for (i = 2; i <= n + 1; i++) { t0 += $i; t1 += $(i + n + 1) }
		idle = ($(n + 1 + 5) + $(n + 1 + 6)) - ($5 + $6)
		printf "%.0f", (t1 > t0) ? 100 * (1 - idle / (t1 - t0)) : 0 }'
}

# quiet: wait (up to $WAIT s) for the CPUs to be idle; prints the last % in use
quiet() {
	waited=0
	while :; do
		b=$(cpu_busy)
		if [ "$b" -le 10 ] || [ "$waited" -ge "$WAIT" ]; then
			echo "$b"
			return
		fi
		sleep 4
		waited=$((waited + 5))
	done
}

# ---- the measurements ----

TOOLS="runner bare fs_mark"
[ $HAVE_FSMARK = 1 ] || { TOOLS="runner bare"; echo "bench: SKIP fs_mark: $FS_MARK not installed (Debian package fsmark)"; }

echo "bench: $DIRS dirs x $FILES files x $SIZE B, $DIRS worker processes, $REPEAT repeats, cases: $CASES"
busy=$(cpu_busy)
echo "bench: CPU in use by other work before the start: $busy% of $(getconf _NPROCESSORS_ONLN) CPUs; nice $(nice)"
if [ "$busy" -gt 10 ]; then
	echo "bench: WARNING: the machine is busy; expect noisy figures (see the per-repeat ratios)"
fi
printf 'case\trepeat\ttool\tfiles\tseconds\tsync_seconds\tfiles_per_s\tfiles_per_s_nosync\tsum_of_rates\tcpu_seconds\tcpu_us_per_file\tbusy_before\n' >"$TSV"
printf '%-6s %-3s %-8s %12s %12s %10s %14s %12s %6s\n' case rep tool 'files/s' 'no sync' 'sync s' 'sum of rates' 'CPU us/file' 'busy'
for c in $CASES; do
	r=1
	while [ $r -le "$REPEAT" ]; do
		# rotate the order: runner bare fs_mark, bare fs_mark runner, ...
		order=$TOOLS
		k=1
		while [ $k -lt $r ]; do
			first=${order%% *}
			order="${order#* } $first"
			k=$((k + 1))
		done
		for t in $order; do
			busy=$(quiet)
			case $t in
			runner) fig=$(run_runner "$c") || exit 1 ;;
			bare) fig=$(run_bare "$c") || exit 1 ;;
			fs_mark) fig=$(run_fsmark "$c") || exit 1 ;;
			esac
			# shellcheck disable=SC2086
			set -- $fig
			[ $# = 5 ] || die "$t on $c: no figures"
			[ "$1" = "$TOTAL" ] || die "$t on $c: $1 files, expected $TOTAL"
			row=$(awk -v c="$c" -v r="$r" -v t="$t" -v f="$1" -v s="$2" -v y="$3" -v o="$4" -v u="$5" -v b="$busy" 'BEGIN {
				printf "%s\t%d\t%s\t%d\t%.6f\t%.6f\t%.1f\t%.1f\t%s\t%.3f\t%.3f\t%d\n",
					c, r, t, f, s, y, f / s, f / (s - y), o, u, 1e6 * u / f, b }')
			echo "$row" >>"$TSV"
			echo "$row" | awk -F '\t' '{ printf "%-6s %-3s %-8s %12.0f %12.0f %10.3f %14.0f %12.2f %5d%%\n", $1, $2, $3, $7, $8, $6, $9, $11, $12 }'
		done
		r=$((r + 1))
	done
done

# ---- medians and ratios ----
# A ratio is taken within each repeat (the tools ran back to back there, so
# they shared whatever else the machine was doing) and the median of those
# is the figure; the per-repeat ratios are listed to show the spread.

awk -F '\t' -v dirs="$DIRS" -v files="$FILES" -v size="$SIZE" -v rep="$REPEAT" '
function median(list,   n, i, j, t, a) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)	# insertion sort, n is small
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(key, v) { lst[key] = lst[key] " " v }
# ratios(c, t1, m1, t2, m2): the per-repeat ratios t1.m1 / t2.m2, space-separated
function ratios(c, t1, m1, t2, m2,   r, out) {
	out = ""
	for (r = 1; r <= nrep[c]; r++)
		if ((c, r, t1, m1) in v && (c, r, t2, m2) in v && v[c, r, t2, m2] > 0)
			out = out sprintf(" %.3f", v[c, r, t1, m1] / v[c, r, t2, m2])
	return out
}
function line(c, what, list, limit, higher,   m, ok) {
	m = median(list)
	ok = higher ? m >= limit : 1 - m < limit
	if (higher)
		printf "%-6s %-42s %.3f            %s (>= %g)   per repeat:%s\n", c, what, m, ok ? "PASS" : "FAIL", limit, list
	else
		printf "%-6s %-42s %.3f (%5.1f%%)   %s (< %g%%)   per repeat:%s\n", c, what, m, 100 * (1 - m), ok ? "PASS" : "FAIL", 100 * limit, list
}
NR > 1 {
	if (!($1 in seen)) { seen[$1] = 1; cases[++nc] = $1 }
	if ($2 > nrep[$1]) nrep[$1] = $2
	v[$1, $2, $3, "sync"] = $7
	v[$1, $2, $3, "nosync"] = $8
	add($1 SUBSEP $3 SUBSEP "sync", $7)
	add($1 SUBSEP $3 SUBSEP "nosync", $8)
	v[$1, $2, $3, "cpu"] = $11
	add($1 SUBSEP $3 SUBSEP "cpu", $11)
	v[$1, $2, $3, "sum"] = $9
	add($1 SUBSEP $3 SUBSEP "sum", $9)
	has[$1, $3] = 1
}
END {
	printf "\nmedian of %d, %d dirs x %d files x %d B, one process per directory\n", rep, dirs, files, size
	printf "%-6s %-8s %14s %14s %14s %14s\n", "case", "tool", "files/s", "no sync", "sum of rates", "CPU us/file"
	split("runner bare fs_mark", tools, " ")
	for (i = 1; i <= nc; i++) {
		c = cases[i]
		for (k = 1; k <= 3; k++) {
			t = tools[k]
			if (!has[c, t]) continue
			printf "%-6s %-8s %14.0f %14.0f %14.0f %14.2f\n", c, t, median(lst[c, t, "sync"]),
				median(lst[c, t, "nosync"]), median(lst[c, t, "sum"]), median(lst[c, t, "cpu"])
		}
	}
	printf "\nratio (overhead = 1 - runner/bare), median of the per-repeat ratios;\n"
	printf "from CPU time per file the ratio is bare/runner, the throughput ratio when CPU-bound\n"
	for (i = 1; i <= nc; i++) {
		c = cases[i]
		line(c, "runner/bare (overhead)", ratios(c, "runner", "sync", "bare", "sync"), 0.05, 0)
		line(c, "runner/bare (overhead), no sync", ratios(c, "runner", "nosync", "bare", "nosync"), 0.05, 0)
		line(c, "runner/bare (overhead), CPU per file", ratios(c, "bare", "cpu", "runner", "cpu"), 0.05, 0)
		if (!has[c, "fs_mark"]) {
			printf "%-6s %-42s SKIP: fs_mark not installed\n", c, "runner/fs_mark"
			continue
		}
		line(c, "runner/fs_mark", ratios(c, "runner", "sync", "fs_mark", "sync"), 1, 1)
		line(c, "runner/fs_mark, sum of rates (as fs_mark)", ratios(c, "runner", "sum", "fs_mark", "sum"), 1, 1)
		line(c, "runner/fs_mark, CPU per file", ratios(c, "fs_mark", "cpu", "runner", "cpu"), 1, 1)
	}
}' "$TSV" >"$SUMMARY"
busy=$(cpu_busy)
echo "CPU in use by other work after the end: $busy%" >>"$SUMMARY"
cat "$SUMMARY"
echo "bench: rows in $TSV, summary in $SUMMARY"

#!/bin/sh
# bench.sh: every phase of the runner (create, stat, read with verification
# off and on, delete) held against a bare C loop making the same system calls
# (bare.c), and against fs_mark (create) and fio's filestat and filedelete
# engines (stat, delete), with the same files: DIRS directories x FILES files
# x SIZE bytes, one worker process per directory.
#
# Inputs (environment; tests/bench/bench.mk sets them):
#   O             output folder, absolute (scratch lives in $O/bench)
#   FSBENCH       the runner (fsbench, static musl)
#   BARE          the bare loops built from tests/bench/bare.c
#   BENCH_DIRS    directories = worker processes     (default 4)
#   BENCH_FILES   files per directory                (default 20000)
#   BENCH_SIZE    bytes per file                     (default 4096)
#   BENCH_REPEAT  measurements per tool and case     (default 5)
#   BENCH_CASES   cases, in order: ext4 tmpfs        (default both)
#   BENCH_IMG     size of the sparse ext4 image      (default 4G)
#   BENCH_WAIT    before each measurement, wait up to this many seconds for
#                 the CPUs to be idle (under 10 % in use)   (default 0: no wait)
#   FS_MARK       fs_mark binary                     (default fs_mark)
#   FIO           fio binary (3.x: filestat, filedelete engines) (default fio)
#   The nice value it starts with is every tool's (bench.mk: nice -n -20).
# Cases:
#   ext4   a loop device (--direct-io=on) over $O/bench/ext4.img; every
#          measurement starts from a fresh mkfs (`mke2fs -t ext4 -F -q`, as the
#          runner does) and mount, and every phase after create from an
#          unmount and mount (a cold cache, as the runner's phases); the
#          runner does its own with --target.
#   tmpfs  a fresh tmpfs mounted at $O/bench/tmpfs for every measurement; the
#          runner gets it with --dir. Warm: tmpfs has no colder state.
#   Tools run interleaved, the order rotating each repeat.
# One measurement of a tool is the whole sequence on fresh files:
#   runner   `fsbench run --rounds=1 --verify=1`: create, stat (sizes
#            checked), read (every byte checked: "read_verify"), delete; and
#            a second run with --verify=0 for "read" (its other phases unused)
#   bare     bare -p create, -p stat, -p read, -p read -v ("read_verify"),
#            -p read -m ("read_memcmp"), -p read -3 ("read3"), -p read -3 -v
#            ("read3_verify"), -p delete
#   fs_mark  create (fs_mark's own names and loop)
#   fio      files laid out by a sync write job (untimed), then the filestat
#            job (stat) and the filedelete job (delete), one fio job a
#            directory. fio stat()s every file in its set-up, before the job's
#            clock starts: on ext4 its job runs on a warm inode cache (the
#            runner's and bare's phases start cold), so there its ratio is
#            printed for information, without PASS/FAIL
# What the floor (bare) includes, phase by phase - the same system calls as
# the runner, nothing else:
#   every phase after create opens its directory and lists it (getdents64)
#   inside its timed region, as the runner's phase does (a phase is "list,
#   then visit in walk order"); read puts the listing in name order. bare
#   prints the listing's share (list_seconds) and the summary shows it.
#   read_verify checks every byte with the runner's own check
#   (fsb_pattern_check, run/core/pattern.c, built into bare): checking the bytes
#   is work the phase must do, so the floor does it too; the overhead is
#   the rest (clock reads, histogram, the per-file seed). read_memcmp checks
#   them with the C library's memcmp instead (the least a check of every
#   byte costs): runner read_verify / bare read_memcmp is printed for
#   information, and shows what the runner's check costs beyond a memcmp.
#   read and read_verify make four calls a file (open, read, the read of 0
#   bytes that says the end, close); read3 and read3_verify three, as the
#   runner's read phases: open, one read of the file's size and a byte more
#   (a short read of a regular file is its end), close. The runner's read
#   phases are held against both: the four-call loop as before, the
#   three-call loop as the floor of what they do.
#   Every bare read variant is the first read after a create, as each of the
#   runner's read phases with verification off and on is (refill(): the
#   files deleted and created again, untimed, before each but the first).
#   The runner's per-file clock reads (the latency histogram), the
#   histogram itself and the shared progress counter are its overhead: the
#   floor has none of them.
# Outputs:
#   stdout                 one line per tool, phase and measurement, then the
#                          medians, the ratios and PASS/FAIL lines for the
#                          targets (overhead over the bare loop < 5 % in every
#                          phase, runner >= fs_mark on create, runner >= fio
#                          on stat and delete on tmpfs)
#   $O/bench/results.tsv   one row per tool, phase and measurement
#   $O/bench/summary.txt   the summary as printed
# Timing, runner and bare: files / (last worker end - first worker start +
#   syncfs for create and delete).
#   fs_mark has no such clock: it is timed from its fork to its exit by
#   `bare -x` (start-up included), plus syncfs. fio: its own job_runtime
#   (whole milliseconds), the longest of its jobs, no sync; start-up and its
#   own stat() of every file before the job are outside.
# Sum of rates (create): fs_mark's own way of counting (the sum over the
#   worker processes of each one's files / its own seconds, no sync): fs_mark
#   prints it, the runner's worker_seconds and the bare loop give it.
# CPU time per file, runner and bare: user + system time of the worker
#   processes (runner: its children reaped during the phase, from
#   /proc/PID/stat; bare and fs_mark: getrusage in bare). Other work on the
#   machine moves files/s a lot and CPU time per file little, so the overhead
#   is also given from it. It is counted in clock ticks (1/100 s): a phase of
#   a few hundredths of a second (tmpfs) gives a coarse figure.
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
REPEAT=${BENCH_REPEAT:-5}
CASES=${BENCH_CASES:-ext4 tmpfs}
IMG_SIZE=${BENCH_IMG:-4G}
FS_MARK=${FS_MARK:-fs_mark}
FIO=${FIO:-fio}
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
HAVE_FIO=1
# (--enghelp=ENGINE exits 1 for an engine without options: the list instead)
"$FIO" --enghelp 2>/dev/null | grep -q '^[[:space:]]*filestat$' || HAVE_FIO=0
"$FIO" --enghelp 2>/dev/null | grep -q '^[[:space:]]*filedelete$' || HAVE_FIO=0
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

# ---- one measurement per function; each prints a line a phase:
# "phase files seconds sync_seconds sum_of_rates cpu_seconds list_seconds"
# (a figure a tool does not give: -1) ----

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

cold() {	# cold() CASE: a cold cache for the next phase (ext4: unmount, mount)
	if [ "$1" = ext4 ]; then
		umount "$MNT" || die "umount $MNT failed"
		mount -t ext4 "$DEV" "$MNT" || die "mount $DEV on $MNT failed"
	fi
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

# ticks PID: TICKS = user + system clock ticks of PID's children reaped so
# far; -1 when PID has ended. Shell builtins only, no command substitution:
# it runs while the runner's workers do, and a process of its own (a fork,
# an exec of sed or awk: milliseconds each) would take their CPU
ticks() {
	TICKS=-1
	_st=
	{ IFS= read -r _st; } 2>/dev/null <"/proc/$1/stat" || return 0
	_st=${_st##*) }
	# shellcheck disable=SC2086
	set -- $_st
	[ $# -ge 15 ] && TICKS=$((${14} + ${15}))
	return 0
}

# run_runner CASE VERIFY PHASE[=NAME]...: one `fsbench run`; a line for each
# PHASE named (as NAME when given)
run_runner() {
	out=$S/runner.json
	fifo=$S/runner.fifo
	case=$1
	verify=$2
	shift 2
	wanted=$*
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
		--file_size="$SIZE" --progress=0 --verify="$verify" >"$fifo" 2>"$S/runner.err" &
	pid=$!
	# A phase's workers are reaped at its end, after its phase_start record
	# and before its phase record: the CPU ticks between the two are theirs.
	# The loop forks nothing while the runner runs: its records come while
	# the next phase's workers start, on the same CPUs.
	: >"$S/runner.ticks"
	while IFS= read -r l; do
		case $l in
		*'"type":"phase_start"'*|*'"type":"phase"'*)
			p=${l#*\"phase\":\"}	# builtins only, as ticks()
			p=${p%%\"*}
			ticks $pid
			echo "$p $TICKS" >>"$S/runner.ticks"
			;;
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
	for w in $wanted; do
		ph=${w%%=*}
		name=${w#*=}
		line=$(grep '"type":"phase"' "$out" | grep "\"phase\":\"$ph\"" | head -n 1)
		[ -n "$line" ] || die "no $ph phase record in $out"
		# -1: the runner had ended when the phase's records were read (its
		# last phase, always; any phase of a run shorter than the reading)
		cpu=$(awk -v p="$ph" -v hz="$(getconf CLK_TCK)" '$1 == p { t[++n] = $2 }
			END { if (n < 2) exit 1; if (t[1] < 0 || t[2] < 0) print -1
				else printf "%.2f", (t[2] - t[1]) / hz }' "$S/runner.ticks") ||
			die "no phase_start and phase records for $ph in $out"
		sum=$(echo "$line" | sed -n 's/.*"worker_seconds":\[\([^]]*\)\].*/\1/p' |
			awk -F , -v f="$FILES" '{ for (i = 1; i <= NF; i++) if ($i > 0) s += f / $i; printf "%.1f", s }')
		sy=$(echo "$line" | num sync_seconds)	# only in a phase that syncs
		echo "$name $(echo "$line" | num files) $(echo "$line" | num seconds) ${sy:-0} $sum $cpu -1"
	done
}

# refill CASE DIR: the bare loop's files deleted and created again, untimed:
# a file's first read after its create costs more than a later one (its
# atime updated under relatime, its page first marked accessed), and the
# runner's read phases (with verification off and on) are each the first
# read after the runner's create; so is each read variant of the floor
refill() {
	"$BARE" -p delete "$2" "$DIRS" "$FILES" "$SIZE" >/dev/null || die "bare loop failed (delete, refill)"
	"$BARE" -p create "$2" "$DIRS" "$FILES" "$SIZE" >/dev/null || die "bare loop failed (create, refill)"
}

run_bare() {
	fresh "$1"
	d=$(where "$1" bare) || die "mkdir in $TMP failed"
	for p in create stat read read_verify read_memcmp read3 read3_verify delete; do
		case $p in read?*) refill "$1" "$d" ;; esac
		[ $p = create ] || cold "$1"
		case $p in
		read_verify) line=$("$BARE" -p read -v "$d" "$DIRS" "$FILES" "$SIZE") ;;
		read_memcmp) line=$("$BARE" -p read -m "$d" "$DIRS" "$FILES" "$SIZE") ;;
		read3) line=$("$BARE" -p read -3 "$d" "$DIRS" "$FILES" "$SIZE") ;;
		read3_verify) line=$("$BARE" -p read -3 -v "$d" "$DIRS" "$FILES" "$SIZE") ;;
		*) line=$("$BARE" -p $p "$d" "$DIRS" "$FILES" "$SIZE") ;;
		esac || die "bare loop failed ($p)"
		echo "$p $(echo "$line" | kv files) $(echo "$line" | kv seconds) $(echo "$line" | kv sync_seconds)" \
			"$(echo "$line" | kv files_per_s_procsum) $(echo "$line" | kv cpu_seconds) $(echo "$line" | kv list_seconds)"
	done
	release "$1"
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
	echo "create $TOTAL $(awk -v a="$ex" -v b="$sy" 'BEGIN { printf "%.6f", a + b }') $sy $own $cpu -1"
}

# fio_job DIR ENGINE-LINES: a job file, one job a directory d0000 ..
fio_job() {
	printf '[global]\nnrfiles=%s\nfilesize=%s\nsize=%s\nbs=%s\nopenfiles=1\n' \
		"$FILES" "$SIZE" "$((FILES * SIZE))" "$SIZE"
	printf 'file_service_type=sequential\ninvalidate=0\nfadvise_hint=0\ncreate_on_open=0\n'
	printf '%b\n' "$2"
	i=0
	while [ $i -lt "$DIRS" ]; do
		printf '[d%04d]\ndirectory=%s/d%04d\n' $i "$1" $i
		i=$((i + 1))
	done
}

# fio_figures: "files seconds" from fio's JSON on stdin (the jobs' read
# operations, the longest job_runtime)
fio_figures() {
	awk '/"read" : \{/ { inread = 1 }
		inread && /"total_ios"/ { gsub(/[^0-9]/, "", $3); n += $3; inread = 0 }
		/"job_runtime"/ { gsub(/[^0-9]/, "", $3); if ($3 + 0 > ms) ms = $3 + 0 }
		END { if (ms <= 0) exit 1; printf "%d %.3f", n, ms / 1000 }'
}

run_fio() {
	fresh "$1"
	d=$(where "$1" fio) || die "mkdir in $TMP failed"
	i=0
	while [ $i -lt "$DIRS" ]; do
		mkdir "$d/$(printf d%04d $i)" || die "mkdir in $d failed"
		i=$((i + 1))
	done
	fio_job "$d" 'ioengine=sync\nrw=write' >"$S/fio-layout.fio"
	"$FIO" --output-format=json "$S/fio-layout.fio" >"$S/fio.json" 2>"$S/fio.err" ||
		{ cat "$S/fio.err" >&2; die "fio (laying out files) failed"; }
	for p in stat delete; do
		cold "$1"
		fio_job "$d" "ioengine=file$p" >"$S/fio-$p.fio"
		"$FIO" --output-format=json "$S/fio-$p.fio" >"$S/fio.json" 2>"$S/fio.err" ||
			{ cat "$S/fio.err" >&2; die "fio file$p failed"; }
		fig=$(fio_figures <"$S/fio.json") || die "cannot read fio's output (in $S/fio.json)"
		echo "$p $fig 0 -1 -1 -1"
	done
	release "$1"
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

TOOLS="runner bare fs_mark fio"
if [ $HAVE_FSMARK = 0 ]; then
	TOOLS=$(echo "$TOOLS" | sed 's/ fs_mark//')
	echo "bench: SKIP fs_mark: $FS_MARK not installed (Debian package fsmark)"
fi
if [ $HAVE_FIO = 0 ]; then
	TOOLS=$(echo "$TOOLS" | sed 's/ fio//')
	echo "bench: SKIP fio: $FIO not installed or without the filestat/filedelete engines (Debian package fio, 3.x)"
fi

echo "bench: $DIRS dirs x $FILES files x $SIZE B, $DIRS worker processes, $REPEAT repeats, cases: $CASES"
busy=$(cpu_busy)
echo "bench: CPU in use by other work before the start: $busy% of $(getconf _NPROCESSORS_ONLN) CPUs; nice $(nice)"
if [ "$busy" -gt 10 ]; then
	echo "bench: WARNING: the machine is busy; expect noisy figures (see the per-repeat ratios)"
fi
printf 'case\trepeat\ttool\tphase\tfiles\tseconds\tsync_seconds\tfiles_per_s\tfiles_per_s_nosync\tsum_of_rates\tcpu_seconds\tcpu_us_per_file\tlist_seconds\tbusy_before\n' >"$TSV"
printf '%-6s %-3s %-8s %-12s %12s %12s %10s %14s %12s %6s\n' case rep tool phase 'files/s' 'no sync' 'sync s' 'sum of rates' 'CPU us/file' 'busy'
for c in $CASES; do
	r=1
	while [ $r -le "$REPEAT" ]; do
		# rotate the order: runner bare fs_mark fio, bare fs_mark fio runner, ...
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
			runner)
				fig=$(run_runner "$c" 1 create stat read=read_verify delete) || exit 1
				busy2=$(quiet)
				fig="$fig
$(run_runner "$c" 0 read)" || exit 1
				;;
			bare) fig=$(run_bare "$c") || exit 1 ;;
			fs_mark) fig=$(run_fsmark "$c") || exit 1 ;;
			fio) fig=$(run_fio "$c") || exit 1 ;;
			esac
			echo "$fig" | while read -r ph f sec sy o u l; do
				[ -n "$l" ] || die "$t on $c: no figures"
				[ "$f" = "$TOTAL" ] || die "$t on $c, $ph: $f files, expected $TOTAL"
				b=$busy
				[ "$t $ph" != "runner read" ] || b=$busy2
				awk -v c="$c" -v r="$r" -v t="$t" -v p="$ph" -v f="$f" -v s="$sec" -v y="$sy" -v o="$o" \
					-v u="$u" -v l="$l" -v b="$b" 'BEGIN {
					printf "%s\t%d\t%s\t%s\t%d\t%.6f\t%.6f\t%.1f\t%.1f\t%s\t%.3f\t%.3f\t%s\t%d\n",
						c, r, t, p, f, s, y, f / s, f / (s - y), o, u, u < 0 ? -1 : 1e6 * u / f, l, b }'
			done >"$S/rows" || exit 1
			cat "$S/rows" >>"$TSV"
			awk -F '\t' '{ printf "%-6s %-3s %-8s %-12s %12.0f %12.0f %10.3f %14s %12s %5d%%\n", $1, $2, $3, $4, $8, $9, $7,
				$10 < 0 ? "-" : sprintf("%.0f", $10), $12 < 0 ? "-" : sprintf("%.2f", $12), $14 }' "$S/rows"
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
# ratios(c, p, t1, m1, t2, m2): the per-repeat ratios t1.m1 / t2.m2 in phase p
function ratios(c, p, t1, m1, t2, m2) { return ratios2(c, p, t1, m1, p, t2, m2) }
# ratios2(c, p1, t1, m1, p2, t2, m2): the same, t1 in phase p1 / t2 in phase p2
function ratios2(c, p1, t1, m1, p2, t2, m2,   r, out) {
	out = ""
	for (r = 1; r <= nrep[c]; r++)
		if ((c, r, p1, t1, m1) in v && (c, r, p2, t2, m2) in v && v[c, r, p2, t2, m2] > 0)
			out = out sprintf(" %.3f", v[c, r, p1, t1, m1] / v[c, r, p2, t2, m2])
	return out
}
# verdict 0: overhead 1 - m < limit; 1: m >= limit; 2: no verdict (info)
function line(c, p, what, list, limit, higher,   m, ok) {
	if (list == "") {
		printf "%-6s %-12s %-36s no figures\n", c, p, what
		return
	}
	m = median(list)
	ok = higher ? m >= limit : 1 - m < limit
	if (higher == 2)
		printf "%-6s %-12s %-36s %.3f (%5.1f%%)   info        per repeat:%s\n", c, p, what, m, 100 * (1 - m), list
	else if (higher)
		printf "%-6s %-12s %-36s %.3f            %s (>= %g)   per repeat:%s\n", c, p, what, m, ok ? "PASS" : "FAIL", limit, list
	else
		printf "%-6s %-12s %-36s %.3f (%5.1f%%)   %s (< %g%%)   per repeat:%s\n", c, p, what, m, 100 * (1 - m), ok ? "PASS" : "FAIL", 100 * limit, list
}
NR > 1 {
	if (!($1 in seen)) { seen[$1] = 1; cases[++nc] = $1 }
	if ($2 > nrep[$1]) nrep[$1] = $2
	k = $1 SUBSEP $4 SUBSEP $3
	v[$1, $2, $4, $3, "sync"] = $8
	v[$1, $2, $4, $3, "nosync"] = $9
	add(k SUBSEP "sync", $8)
	add(k SUBSEP "nosync", $9)
	if ($12 >= 0) { v[$1, $2, $4, $3, "cpu"] = $12; add(k SUBSEP "cpu", $12) }
	if ($10 >= 0) { v[$1, $2, $4, $3, "sum"] = $10; add(k SUBSEP "sum", $10) }
	if ($13 >= 0 && $6 > 0) add(k SUBSEP "list", 100 * $13 / $6)
	has[$1, $4, $3] = 1
}
END {
	np = split("create stat read read_verify read_memcmp read3 read3_verify delete", phases, " ")
	split("runner bare fs_mark fio", tools, " ")
	printf "\nmedian of %d, %d dirs x %d files x %d B, one process per directory\n", rep, dirs, files, size
	printf "(list %%: the share of the bare loop'"'"'s time spent listing the directory)\n"
	printf "%-6s %-12s %-8s %12s %12s %14s %12s %7s\n", "case", "phase", "tool", "files/s", "no sync", "sum of rates", "CPU us/file", "list %"
	for (i = 1; i <= nc; i++) {
		c = cases[i]
		for (q = 1; q <= np; q++) {
			p = phases[q]
			for (k = 1; k <= 4; k++) {
				t = tools[k]
				if (!has[c, p, t]) continue
				key = c SUBSEP p SUBSEP t
				printf "%-6s %-12s %-8s %12.0f %12.0f %14s %12s %7s\n", c, p, t, median(lst[key, "sync"]),
					median(lst[key, "nosync"]), (key, "sum") in lst ? sprintf("%.0f", median(lst[key, "sum"])) : "-",
					(key, "cpu") in lst ? sprintf("%.2f", median(lst[key, "cpu"])) : "-",
					(key, "list") in lst ? sprintf("%.1f", median(lst[key, "list"])) : "-"
			}
		}
	}
	printf "\nratio (overhead = 1 - runner/bare), median of the per-repeat ratios;\n"
	printf "from CPU time per file the ratio is bare/runner, the throughput ratio when CPU-bound\n"
	printf "(CPU time is counted in 1/100 s ticks: an info line where a phase takes a few ticks)\n"
	for (i = 1; i <= nc; i++) {
		c = cases[i]
		for (q = 1; q <= np; q++) {
			p = phases[q]
			if (!has[c, p, "runner"] || !has[c, p, "bare"]) continue
			synced = p == "create" || p == "delete"
			line(c, p, "runner/bare (overhead)", ratios(c, p, "runner", "sync", "bare", "sync"), 0.05, 0)
			if (synced)
				line(c, p, "runner/bare (overhead), no sync", ratios(c, p, "runner", "nosync", "bare", "nosync"), 0.05, 0)
			if (!((c, p, "runner", "cpu") in lst))
				printf "%-6s %-12s %-36s no figures: the runner had ended when its %s records were read\n", c, p, "runner/bare, CPU per file", p
			else
				line(c, p, "runner/bare, CPU per file", ratios(c, p, "bare", "cpu", "runner", "cpu"), 0.05, p == "create" ? 0 : 2)
			# the three-call floor: the target of the read phases
			if ((p == "read" || p == "read_verify") && has[c, p == "read" ? "read3" : "read3_verify", "bare"]) {
				f3 = p == "read" ? "read3" : "read3_verify"
				line(c, p, "runner/bare " f3 " (3 calls)", ratios2(c, p, "runner", "sync", f3, "bare", "sync"), 0.05, 0)
				line(c, p, "runner/bare " f3 ", CPU per file", ratios2(c, f3, "bare", "cpu", p, "runner", "cpu"), 0.05, 2)
			}
			if (p == "read_verify" && has[c, "read_memcmp", "bare"]) {
				line(c, p, "runner/bare read_memcmp", ratios2(c, p, "runner", "sync", "read_memcmp", "bare", "sync"), 0.05, 2)
				line(c, p, "runner/bare read_memcmp, CPU per file", ratios2(c, "read_memcmp", "bare", "cpu", p, "runner", "cpu"), 0.05, 2)
			}
			if (p == "create") {
				if (!has[c, p, "fs_mark"]) {
					printf "%-6s %-12s %-36s SKIP: fs_mark not installed\n", c, p, "runner/fs_mark"
					continue
				}
				line(c, p, "runner/fs_mark", ratios(c, p, "runner", "sync", "fs_mark", "sync"), 1, 1)
				line(c, p, "runner/fs_mark, sum of rates (as fs_mark)", ratios(c, p, "runner", "sum", "fs_mark", "sum"), 1, 1)
				line(c, p, "runner/fs_mark, CPU per file", ratios(c, p, "fs_mark", "cpu", "runner", "cpu"), 1, 1)
			}
			if (p == "stat" || p == "delete") {
				if (!has[c, p, "fio"]) {
					printf "%-6s %-12s %-36s SKIP: fio not installed\n", c, p, "runner/fio"
					continue
				}
				# fio syncs nothing: the runner without its sync. fio stats
				# every file in its own set-up, before its job starts: on ext4
				# its job runs on a warm inode cache, the runner'"'"'s cold.
				line(c, p, "runner/fio" (synced ? ", no sync" : "") (c == "ext4" ? " (fio warm)" : ""),
					ratios(c, p, "runner", "nosync", "fio", "nosync"), 1, c == "ext4" ? 2 : 1)
			}
		}
	}
}' "$TSV" >"$SUMMARY"
busy=$(cpu_busy)
echo "CPU in use by other work after the end: $busy%" >>"$SUMMARY"
cat "$SUMMARY"
echo "bench: rows in $TSV, summary in $SUMMARY"

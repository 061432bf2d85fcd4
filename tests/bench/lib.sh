# lib.sh: what a bench on tmpfs (fileserver.sh, readmin.sh) starts with,
# sourced after its inputs are checked.
# bench_tmpfs WHAT DIR: root, else a message and exit 1 (the mounts);
# B=$O/bench, M=$B/DIR its mount point, OUTF=$B/WHAT.txt emptied;
# say (a line to stdout and OUTF), fresh (a new 2 GiB tmpfs at M, the one
# before unmounted) and cleanup (M unmounted, at exit too).
bench_tmpfs() {
	[ "$(id -u)" = 0 ] || { echo "bench $1: needs root (tmpfs mounts)" >&2; exit 1; }
	B=$O/bench
	M=$B/$2
	mkdir -p "$M"
	OUTF=$B/$1.txt
	: >"$OUTF"
	trap cleanup EXIT INT TERM
}
say() { echo "$*" | tee -a "$OUTF"; }
cleanup() { mountpoint -q "$M" && umount "$M" || true; }
fresh() { cleanup; mount -t tmpfs -o size=2g "fsbench-${M##*/}" "$M"; }

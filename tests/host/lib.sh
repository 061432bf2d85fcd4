# lib.sh: helpers for the host integration tests (sourced, POSIX sh).
# Every loop device and mount a test makes is remembered and undone at exit;
# nothing else is ever detached or unmounted.

. "$(dirname "$0")/../lib.sh"
T_LOOPS=""; T_MOUNTS=""; T_SCRATCH=""

# host_init NAME: the start of a host test script: O (default ./out), FSB
# and HFSB (the device and host builds of fsbench), S ($O/tests/NAME,
# emptied), the exit trap (end_runner, a script's own when it defines one,
# then cleanup), test_init NAME S, and one `count FILE FILTER` (how many
# records of FILE, one a line, pass the jq FILTER; nothing, so that a
# comparison with a number fails, when jq cannot read FILE).
# As root, S is a tmpfs of its own (mounted here, unmounted at exit): the
# loop devices' sparse files and the runs' files are in memory, so no
# check waits on the host's disk (a loop device over a file on disk waits
# for the disk at every flush: check-host took 4:13 there, 2:36 on the
# tmpfs, results/MEASUREMENTS.md). HOST_SCRATCH=disk keeps S on $O's disk.
# A script that failed leaves its files under 1 MiB (the outputs, logs
# and records, not the disk images) in $O/tests/NAME.failed.
host_init() {
	O=${O:-$(pwd)/out}
	FSB=$O/runner/fsbench
	HFSB=$O/host/fsbench
	S=$O/tests/$1
	! mountpoint -q "$S" 2>/dev/null || umount "$S" 2>/dev/null || umount -l "$S"
	rm -rf "$S" "$S.failed"; mkdir -p "$S"
	if [ "${HOST_SCRATCH:-tmpfs}" = tmpfs ] && [ "$(id -u)" = 0 ] &&
		mount -t tmpfs -o size=12g,mode=0755 "fsbench-$1" "$S"; then
		T_SCRATCH=$S
	fi
	trap 'end_runner; cleanup' EXIT INT TERM
	test_init "$1" "$S"
}
end_runner() { :; }

# host_start NAME WHAT [TOOL...]: a host test script's start: host_init
# NAME, then what every such test needs, each missing one said with WHAT
# and the script ended: root for the loop devices and mounts (a SKIP), the
# runner's build $FSB and each TOOL (jq, python3...; a FAIL).
host_start() {
	_what=$2
	host_init "$1"; shift 2
	if [ "$(id -u)" != 0 ]; then skip "$_what: need root for loop devices and mount"; summary; exit $?; fi
	[ -x "$FSB" ] || { fail "$_what: $FSB missing (make runner)"; summary; exit 1; }
	for _t; do
		have "$_t" || { fail "$_what: $_t not found (make deps)"; summary; exit 1; }
	done
}
count() { jq -n "[inputs | select($2)] | length" "$1"; }

new_loop() {	# new_loop VAR FILE SIZE [losetup options]: VAR = the device, remembered for cleanup
	_var=$1; truncate -s "$3" "$2"
	_dev=$(losetup --find --show --direct-io=on "$2")
	remember_loop "$_dev" "$2"
	eval "$_var=\$_dev"
}
# remember_loop DEV FILE: DEV, attached to FILE by this test, detached at
# exit only while FILE is still what it holds: a device detached early (a
# test's own unplug) may be another test's by then.
remember_loop() { T_LOOPS="$T_LOOPS $1|$(readlink -f "$2")"; }

T_NODES=""
part_node() {	# part_node VAR DEV N: VAR = DEVpN, adding the partition and its node when nothing (udev) did
	_pv=$1; shift
	p="${1}p$2"; name=$(basename "$p")
	[ -e "/sys/class/block/$name" ] || partx -a "$1" 2>/dev/null || true
	i=0; while [ ! -e "/sys/class/block/$name/dev" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	if [ ! -b "$p" ]; then
		mm=$(cat "/sys/class/block/$name/dev")
		mknod "$p" b "${mm%%:*}" "${mm##*:}"; T_NODES="$T_NODES $p"
	fi
	eval "$_pv=\$p"
}

remember_mount() { T_MOUNTS="$1 $T_MOUNTS"; }

cleanup() {
	for m in $T_MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
	# Partitions first: a detached loop device can keep its partitions
	# (loopNp1 listed with its old size) when they were busy at detach.
	for e in $T_LOOPS; do
		l=${e%%|*}
		[ "$(losetup -n -O BACK-FILE "$l" 2>/dev/null | sed 's/ (deleted)$//')" = "${e#*|}" ] || continue
		partx -d "$l" 2>/dev/null || true
		losetup -d "$l" 2>/dev/null || true
	done
	for n in $T_NODES; do rm -f "$n"; done
	[ -n "$T_SCRATCH" ] || return 0
	if [ "$T_FAIL" -gt 0 ]; then
		mkdir -p "$T_SCRATCH.failed"
		(cd "$T_SCRATCH" && find . -type f -size -1024k) | tar -C "$T_SCRATCH" -cf - -T - 2>/dev/null |
			tar -C "$T_SCRATCH.failed" -xf - 2>/dev/null || true
	fi
	# A detached loop device lets go of its file a moment later.
	_i=0
	until umount "$T_SCRATCH" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -lt 30 ] || { umount -l "$T_SCRATCH" 2>/dev/null || true; break; }
		sleep 0.1
	done
}

# fingerprint DEV: checksum of the places a mkfs would write (start, 64 KiB, 1 MiB, end)
fingerprint() {
	{ dd if="$1" bs=64k count=32 status=none; dd if="$1" bs=64k skip=$(( $(blockdev --getsize64 "$1") / 65536 - 16 )) status=none; } | cksum
}
mark() {	# write a recognisable pattern at the start of DEV
	yes 'fsbench test marker' | head -c 2097152 | dd of="$1" bs=64k conv=notrunc,fsync status=none
}

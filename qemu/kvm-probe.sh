#!/bin/sh
# kvm-probe.sh: does KVM really run a guest of this board here?
# Boots the kernel with an init that does not exist: the kernel panics and
# (panic=-1, -no-reboot) QEMU exits. A KVM that hangs is killed after 8 s.
# Usage: qemu/kvm-probe.sh KERNEL WORK [CACHE]
#   CACHE  a file that keeps the answer: a later probe with the same host
#          boot (/proc/sys/kernel/random/boot_id), the same /dev/kvm (its
#          device number, inode and change time: a reloaded kvm module
#          makes a new one), the same QEMU binary, machine and CPU, and the
#          same kernel file (path, size, modification time) gives that
#          answer again, with when it was probed, instead of booting (a
#          hung probe costs 8 s of processor time each boot). Anything else
#          probes again and rewrites it. Without CACHE, always a probe.
# Inputs (environment, from board.mk): BOARD_QEMU, BOARD_QEMU_MACHINE,
#   BOARD_QEMU_CPU_KVM, BOARD_CONSOLE.
# Output: one line on stdout, why ("probe guest booted in 1.2 s", "no usable
#   /dev/kvm", "KVM probe guest hung, killed after 8.0 s", ...; a reused
#   answer ends "(probed at 2026-12-02 21:03:11, reused)");
#   WORK/kvm-probe.log (the probe's console) and WORK/kvm-probe.err.
# Exit status: 0 when KVM ran the guest, 1 when it did not.
set -eu
kernel=$1 work=$2 cache=${3:-}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
	echo "no usable /dev/kvm"
	exit 1
fi
case $BOARD_QEMU in
*-"$(uname -m)") ;;
*) echo "no KVM for $BOARD_QEMU on a $(uname -m) host"; exit 1 ;;
esac

# The key of a cached answer: one line; empty (no reuse) when a part of
# it cannot be read.
key=
if [ -n "$cache" ]; then
	qemu=$(command -v "$BOARD_QEMU" 2>/dev/null) &&
		key="$(cat /proc/sys/kernel/random/boot_id 2>/dev/null) kvm=$(stat -L -c '%t:%T:%i:%Z' /dev/kvm 2>/dev/null) qemu=$qemu:$(stat -L -c '%s:%Y' "$qemu" 2>/dev/null) machine=$BOARD_QEMU_MACHINE cpu=$BOARD_QEMU_CPU_KVM kernel=$kernel:$(stat -L -c '%s:%Y' "$kernel" 2>/dev/null)" ||
		key=
	# the cache: line 1 the key, line 2 the status, line 3 the answer,
	# line 4 when it was probed
	if [ -n "$key" ] && [ -f "$cache" ] && [ "$(sed -n 1p "$cache")" = "$key" ]; then
		st=$(sed -n 2p "$cache") ans=$(sed -n 3p "$cache") at=$(sed -n 4p "$cache")
		case $st in
		0 | 1)
			[ -n "$ans" ] && {
				echo "$ans (probed at $at, reused)"
				exit "$st"
			}
			;;
		esac
	fi
fi

t0=$(now)
set +e
timeout -k 1 8 "$BOARD_QEMU" -machine "$BOARD_QEMU_MACHINE,accel=kvm" \
	-cpu "$BOARD_QEMU_CPU_KVM" -m 256 -nodefaults -no-reboot -display none \
	-kernel "$kernel" -append "${BOARD_CONSOLE:+console=${BOARD_CONSOLE%%,*} }panic=-1 rdinit=/none" \
	-serial "file:$work/kvm-probe.log" </dev/null >"$work/kvm-probe.err" 2>&1
rc=$?
set -e
if [ $rc -eq 0 ] && grep -q 'Linux version' "$work/kvm-probe.log"; then
	ans="probe guest booted in $(secs "$t0" "$(now)") s" st=0
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	ans="KVM probe guest hung, killed after $(secs "$t0" "$(now)") s" st=1
else
	ans="KVM probe failed, QEMU status $rc: $(grep -v warning "$work/kvm-probe.err" | head -n 1)" st=1
fi
# kept for the next probe (a file of this process's own, then renamed:
# two launchers may probe at once)
if [ -n "$key" ]; then
	printf '%s\n%s\n%s\n%s\n' "$key" "$st" "$ans" "$(date '+%Y-%m-%d %H:%M:%S')" >"$cache.$$" 2>/dev/null &&
		mv -f "$cache.$$" "$cache" 2>/dev/null || rm -f "$cache.$$"
fi
echo "$ans"
exit $st

#!/bin/sh
# kvm-probe.sh: does KVM really run a guest of this board here?
# Boots the kernel with an init that does not exist: the kernel panics and
# (panic=-1, -no-reboot) QEMU exits. A KVM that hangs is killed after 8 s.
# Usage: qemu/kvm-probe.sh KERNEL WORK
# Inputs (environment, from board.mk): BOARD_QEMU, BOARD_QEMU_MACHINE,
#   BOARD_QEMU_CPU_KVM, BOARD_CONSOLE.
# Output: one line on stdout, why ("probe guest booted in 1.2 s", "no usable
#   /dev/kvm", "KVM probe guest hung, killed after 8.0 s", ...);
#   WORK/kvm-probe.log (the probe's console) and WORK/kvm-probe.err.
# Exit status: 0 when KVM ran the guest, 1 when it did not.
set -eu
kernel=$1 work=$2

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
t0=$(now)
set +e
timeout -k 1 8 "$BOARD_QEMU" -machine "$BOARD_QEMU_MACHINE,accel=kvm" \
	-cpu "$BOARD_QEMU_CPU_KVM" -m 256 -nodefaults -no-reboot -display none \
	-kernel "$kernel" -append "${BOARD_CONSOLE:+console=${BOARD_CONSOLE%%,*} }panic=-1 rdinit=/none" \
	-serial "file:$work/kvm-probe.log" </dev/null >"$work/kvm-probe.err" 2>&1
rc=$?
set -e
if [ $rc -eq 0 ] && grep -q 'Linux version' "$work/kvm-probe.log"; then
	echo "probe guest booted in $(secs "$t0" "$(now)") s"
	exit 0
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "KVM probe guest hung, killed after $(secs "$t0" "$(now)") s"
else
	echo "KVM probe failed, QEMU status $rc: $(grep -v warning "$work/kvm-probe.err" | head -n 1)"
fi
exit 1

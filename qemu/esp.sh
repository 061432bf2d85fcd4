#!/bin/sh
# esp.sh: the run's settings into the ESP's fsbench.conf of a disk image
# (the launcher's work copy: a UEFI boot takes no command line from us).
# mtools reaches the FAT at its offset; nothing is mounted.
# Usage: qemu/esp.sh DISK CONF [--profile NAME] [WORD...]
#        qemu/esp.sh --criteria DISK [FILE]
#   DISK      the disk image, changed in place (the fsbench-esp partition)
#   CONF      where the resulting fsbench.conf is also written (for the
#             launcher's estimate)
#   --profile NAME   profile = NAME
#   WORD      kernel command line words: each fsbench.KEY=VALUE becomes
#             KEY = VALUE; other words cannot be applied and are said
# Every KEY's old lines are replaced; yes = 1 is always set.
# --criteria: FILE becomes the ESP's criteria.conf (the verdict the guest
# runs after the run); without FILE the ESP's criteria.conf is removed.
# Output: DISK and CONF; "qemu: ..." lines for words not applied.
# Exit status: 0; 2 when DISK has no fsbench-esp partition (not a board's
#   disk image); 4 when the ESP or its fsbench.conf cannot be read or
#   written (image/lib.sh).
set -eu
. "$(dirname "$0")/../image/lib.sh"
prog=qemu
what=--uefi
# espof DISK: the fsbench-esp partition of DISK as mtools names it.
# sfdisk's dump is text (not JSON): the partition's start sector by its name.
espof() {
	off=$(sfdisk --dump "$1" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
	[ -n "$off" ] || die $EX_USAGE "$what: no fsbench-esp partition in $1"
	echo "$1@@$((off * 512))"
}
if [ "$1" = --criteria ]; then
	what=--criteria
	esp=$(espof "$2")
	if [ -n "${3:-}" ]; then
		mcopy -o -i "$esp" "$3" ::criteria.conf || die $EX_SYSTEM "$what: cannot write criteria.conf to the ESP"
	elif mdir -i "$esp" ::criteria.conf >/dev/null 2>&1; then
		mdel -i "$esp" ::criteria.conf || die $EX_SYSTEM "$what: cannot remove criteria.conf from the ESP"
	fi
	exit 0
fi
disk=$1 conf=$2
shift 2
profile=
if [ "${1:-}" = --profile ]; then profile=$2; shift 2; fi
words=$*

esp=$(espof "$disk")
mtype -i "$esp" ::fsbench.conf >"$conf" || die $EX_SYSTEM "$what: cannot read fsbench.conf from the ESP"
set -- yes=1
[ -z "$profile" ] || set -- "$@" "profile=$profile"
for w in $words; do
	case $w in
	fsbench.*=*) set -- "$@" "${w#fsbench.}" ;;
	*) say "--uefi: '$w' is not a fsbench setting: not applied" ;;
	esac
done
for kv in "$@"; do
	k=${kv%%=*}
	sed -i "/^[ 	]*$k[ 	]*=/d" "$conf"
	echo "$k = ${kv#*=}" >>"$conf"
done
mcopy -o -i "$esp" "$conf" ::fsbench.conf || die $EX_SYSTEM "$what: cannot write fsbench.conf to the ESP"

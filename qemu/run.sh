#!/bin/sh
# run.sh: boot a board's image in QEMU, run the suite, collect the results.
#
# Usage: qemu/run.sh --disk DISK.img [options]
#   --kernel PATH     a kernel of your own (a build tree, or a folder with a
#                     kernel image and lib/modules/VERSION): the image is
#                     built with it first (make image KERNEL=PATH, in
#                     $O/image/BOARD-kernel-N/; ROOTFS from the environment,
#                     default ext4) and booted; what the board needs that it
#                     lacks is said and nothing boots (exit 2). Not with --disk
#   --smp N           the guest's vCPUs (default QEMU_SMP, else: under KVM
#                     one per worker of the profile, at least BOARD_QEMU_SMP,
#                     at most the host's cores; under TCG BOARD_QEMU_SMP)
#   --mem MIB         the guest's memory (default QEMU_MEM, else: under KVM
#                     1024 + 256 a vCPU, at least BOARD_QEMU_MEM; under TCG
#                     BOARD_QEMU_MEM)
#   --disk IMG        the board's disk image (kernel, initramfs.cpio.gz and
#                     sizes-*.txt are taken from the same folder; vmlinux,
#                     when there, is booted instead of kernel: PVH entry, no
#                     decompression in the guest)
#   --profile NAME    fsbench.profile= on the kernel command line (seed, smoke)
#   --results DIR     this run's results folder (default
#                     $RESULTS/<date>-<board>-<profile>)
#   --timeout S       overall limit; QEMU is killed after S seconds
#                     (default: 900 for smoke, 43200 otherwise)
#   --accel A         auto (KVM if a probe guest runs, else TCG; the answer
#                     kept in $O/run/kvm-probe-BOARD.txt and reused while
#                     the host boot, /dev/kvm, QEMU and kernel are the
#                     same), kvm, tcg
#   --append WORDS    more kernel command line words (fsbench.fs=ext4 ...);
#                     fsbench.capacity=0 is added unless they set it: the
#                     launcher's target is a file of the size it asked for
#   --target-size S   size of the sparse target file (default BOARD_TARGET_SIZE)
#   --extra-disk FILE:SERIAL  one more NVMe disk (repeatable), backed by FILE
#                     itself (not copied), serial SERIAL; the target's serial
#                     is fsbench-target, the boot disk's (virtio) fsbench-boot
#   --uefi            boot the disk image itself through the board's firmware
#                     (BOARD_QEMU_FIRMWARE: UEFI's EFI/BOOT/BOOT*.EFI on the
#                     ESP; without BOARD_QEMU_FIRMWARE_VARS, U-Boot given
#                     with -bios: extlinux/extlinux.conf on the ESP);
#                     the settings go into the ESP's fsbench.conf of the work
#                     copy (profile, yes = 1, fsbench.KEY=VALUE of --append)
#   --criteria FILE   the verdict's criteria: FILE replaces criteria.conf on
#                     the ESP of the work copy (the guest runs the verdict
#                     after the run) and the host's verdict checks the
#                     collected records against it (default: the board's
#                     board/$BOARD/criteria.conf, which the image build puts
#                     on the ESP; none: no host verdict, and none on the ESP)
#   --quiet           do not show the console on the terminal (by default
#                     it is shown as it comes, without the record lines)
#   --target-fault blkdebug:FILE  the target's I/O goes through QEMU's
#                     blkdebug driver with the rules in FILE (e.g.
#                     [inject-error] event = "read_aio" iotype = "read"
#                     errno = "5" sector = "N" once = "off": EIO for every
#                     read that covers sector N); FILE is copied to the run
#   --target-throttle IOPS  the target serves at most IOPS I/O operations a
#                     second (QEMU block throttling, throttling.iops-total)
#   --keep            keep the work folder (disk copy, target file); its
#                     path is in run.txt ("work folder:")
#   --work DIR        the work folder is DIR (made if missing; kept
#                     afterwards): a disk.img and a target.img already in
#                     it are booted as they are, not made anew (the next
#                     boot of a power-cut campaign: the log partition and
#                     the target as the cut left them; qemu/powercut.sh)
#   --target-bus BUS  the bus the target sits on (qemu/bus.sh)
#   --target-zoned [ZONE_SIZE[,...]], --zoned-size S, --target-ns NS  a
#                     zoned NVMe namespace as the target (qemu/zoned.sh)
#   --target-model MODEL  the target is a disk model (qemu/model.sh)
#   --stall S, --stall-retries N, --kill-after-records N,
#   --cut-after-line TEXT, --cut-delay S, --lie-lead S,
#   --throttle-at SECONDS:SPEC, --unplug-target-after-records N,
#   --lie-after-records N  what happens to the running guest
#                     (qemu/events.sh)
# These last options in full: --help shows them after this text.
# Before it boots, the launcher says what the run will take here and how to
# get a short one (qemu/estimate.sh: earlier runs in $RESULTS, else
# qemu/figures.txt); while it runs, one overall progress line (filesystem n
# of N, round, phase, %, elapsed, time left): redrawn in place on a
# terminal, plain lines otherwise (qemu/watch.sh).
# Inputs (environment, exported by image/image.mk from board.mk): QEMU_SMP,
#   QEMU_MEM (as --smp, --mem); BOARD,
#   BOARD_QEMU, BOARD_QEMU_MACHINE, BOARD_QEMU_CPU_TCG, BOARD_QEMU_CPU_KVM,
#   BOARD_QEMU_SMP, BOARD_QEMU_MEM, BOARD_CONSOLE, BOARD_CMDLINE,
#   BOARD_TARGET_SIZE, BOARD_QEMU_PFLASH_SIZE (firmware flash size, copies
#   padded to it) (read from board/$BOARD/board.mk when not set); O (build
#   output, default out); RESULTS (where runs land, one folder each, and
#   where earlier runs are looked up for the estimate; default results);
#   FSBENCH_HOST (the host build of fsbench, default $O/host/fsbench).
# Outputs: the results folder: serial.log, records.jsonl and summary.txt
#   (from `fsbench log extract` of the disk's log partition), report.md
#   (`fsbench report`), run.txt (the figures of this run, also appended to
#   summary.txt), and with criteria verdict.txt (`fsbench verdict`) and
#   report.junit.xml. Work files go under $O/run/. The report is printed,
#   then the verdict's last line. Then, when the results folder is in
#   $RESULTS (the default), $RESULTS/index.html is rewritten: a row per run
#   there, each linking to its report (qemu/index.sh).
# Exit status: the runner's (exit_code of the run_end record); 4 when there
# is no run_end record (the guest crashed, hung or was killed: the console's
# last 15 lines are printed, they usually say why); 2 on misuse. The
# verdict does not change it: it is printed last (qemu: verdict: ...).
# The steps, one script each: kvm-probe.sh (the accelerator), esp.sh (UEFI:
# the settings on the ESP), estimate.sh, cmdline.sh (QEMU's argv), watch.sh
# (QEMU run and watched), collect.sh (the results), kimage.sh (--kernel:
# the image); sourced, bus.sh,
# zoned.sh and model.sh (the target's bus, zoned namespace and disk model)
# and events.sh (the watch's options, watch.sh run with them, a stalled
# guest booted again).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/defaults.sh"
. "$here/../image/lib.sh"
prog=qemu

# The arguments as given, quoted for eval: a stalled boot is booted again
# with them (--stall-retries).
orig=
for a; do orig="$orig '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"; done

disk= profile= results= timeout= accel=auto append= quiet=0 keep=0 uefi=0 extra=
criteria=$here/../board/$BOARD/criteria.conf onesp=
tfault= tthrottle= tbus=nvme tsize_set= kpath= workdir=
for f in bus zoned model events; do . "$here/$f.sh"; done
smp=${QEMU_SMP:-} mem=${QEMU_MEM:-}
tsize=${BOARD_TARGET_SIZE:-10G}
while [ $# -gt 0 ]; do
	case $1 in
	--disk) disk=$2; shift ;;
	--kernel) kpath=$2; shift ;;
	--smp) smp=$2; shift ;;
	--mem) mem=$2; shift ;;
	--profile) profile=$2; shift ;;
	--results) results=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--accel) accel=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--work) workdir=$2; shift ;;
	--target-size) tsize=$2 tsize_set=1; shift ;;
	--extra-disk)
		case $2 in *?:?*) ;; *) die $EX_USAGE "--extra-disk FILE:SERIAL" ;; esac
		[ -f "${2%:*}" ] || die $EX_USAGE "--extra-disk: no file ${2%:*}"
		extra="$extra $2"; shift ;;
	--criteria) criteria=$2 onesp=1; shift ;;
	--target-fault)
		case $2 in blkdebug:?*) ;; *) die $EX_USAGE "--target-fault blkdebug:FILE" ;; esac
		tfault=${2#blkdebug:}
		[ -f "$tfault" ] || die $EX_USAGE "--target-fault: no file $tfault"
		shift ;;
	--target-throttle)
		case $2 in ''|*[!0-9]*|0) die $EX_USAGE "--target-throttle IOPS: a number > 0" ;; esac
		tthrottle=$2; shift ;;
	--quiet) quiet=1 ;;
	--uefi) uefi=1 ;;
	--keep) keep=1 ;;
	-h|--help)
		sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//; /^set -eu/d'
		for f in bus zoned model events; do
			echo "Options of qemu/$f.sh:"
			awk '/^# Options/ { on = 1; next } on && !/^#   / { exit } on { sub(/^# /, ""); print }' "$here/$f.sh"
		done
		exit 0 ;;
	*)	# the options of bus.sh, zoned.sh, model.sh and events.sh
		for f in bus zoned model events; do "${f}_opt" "$@" && break; done
		[ "$nargs" -gt 0 ] || die $EX_USAGE "unknown option '$1' (--help lists them)"
		shift $((nargs - 1)) ;;
	esac
	shift
done
events_check
bus_check
zoned_check
bus_words
for v in "$smp" "$mem"; do
	case $v in ''|*[!0-9]*|0) [ -z "$v" ] || die $EX_USAGE "--smp, --mem, QEMU_SMP, QEMU_MEM: a number > 0, not '$v'" ;; esac
done
if [ -n "$kpath" ]; then
	[ -z "$disk" ] || die $EX_USAGE "--kernel PATH builds its own disk image: not with --disk"
	[ -d "$kpath" ] || die $EX_USAGE "--kernel: no folder $kpath"
	say "image with the kernel $kpath (make image KERNEL=$kpath)"
	klog=$(mkdir -p "$O" && cd "$O" && pwd)/kernel-image.log
	disk=$(sh "$here/kimage.sh" "$kpath" "$klog") || case $? in
	2) die $EX_USAGE "--kernel $kpath: no image (above: what is missing; the whole log in $klog)" ;;
	*) die $EX_SYSTEM "--kernel $kpath: the build said no image path ($klog)" ;;
	esac
fi
[ -n "$disk" ] || die $EX_USAGE "--disk IMG is required"
[ -f "$disk" ] || die $EX_USAGE "no disk image $disk (make image)"
if [ -z "${BOARD_QEMU:-}" ]; then
	bmk=$here/../board/$BOARD/board.mk
	[ -f "$bmk" ] || die $EX_USAGE "no board $BOARD ($bmk)"
	eval "$(sh "$here/../image/boardenv.sh" "$bmk")"
fi
case $accel in auto|kvm|tcg) ;; *) die $EX_USAGE "--accel: auto, kvm or tcg" ;; esac
if [ "$criteria" = none ]; then
	criteria=
elif [ ! -f "$criteria" ]; then
	[ -z "$onesp" ] || die $EX_USAGE "--criteria: no file $criteria"
	criteria=	# a board without criteria.conf
fi
[ -z "$criteria" ] || criteria=$(cd "$(dirname "$criteria")" && pwd)/$(basename "$criteria")
imgdir=$(cd "$(dirname "$disk")" && pwd)
rootfs=$(basename "$disk" .img)
rootfs=${rootfs#disk-}
[ -n "$timeout" ] || case $profile in smoke) timeout=900 ;; *) timeout=43200 ;; esac
stamp=$(date +%Y%m%d-%H%M%S)
[ -n "$results" ] || results=$RESULTS/$stamp-$BOARD-${profile:-default}
mkdir -p "$results" "$O/run"
results=$(cd "$results" && pwd)
if [ -n "$workdir" ]; then
	mkdir -p "$workdir" || die $EX_USAGE "--work $workdir: cannot make the folder"
	work=$(cd "$workdir" && pwd)
	keep=1
else
	work=$(mktemp -d "$O/run/$BOARD.XXXXXX")
	work=$(cd "$work" && pwd)
fi
cleanup() { model_stop KILL; [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- accelerator: KVM only when a guest really runs ------------------------
why=
case $accel in
auto) if why=$(sh "$here/kvm-probe.sh" "$imgdir/kernel" "$work" "$O/run/kvm-probe-$BOARD.txt"); then accel=kvm; else accel=tcg; fi ;;
*) why="asked for" ;;
esac
if [ "$accel" = kvm ]; then cpu=$BOARD_QEMU_CPU_KVM; else cpu=$BOARD_QEMU_CPU_TCG; fi
accel_text="$(echo "$accel" | tr a-z A-Z)${why:+ ($why)}"
say "accelerator: $accel_text"

kernel=$imgdir/kernel
[ ! -f "$imgdir/vmlinux" ] || kernel=$imgdir/vmlinux

# --- disks: a work copy of the image, a sparse target ------------------
if [ -n "$workdir" ] && [ -f "$work/disk.img" ]; then
	say "disk: $work/disk.img as the last boot left it (--work)"
else
	cp --sparse=always "$disk" "$work/disk.img"
fi
if [ -n "$workdir" ] && [ -f "$work/target.img" ]; then
	say "target: $work/target.img as the last boot left it (--work)"
else
	truncate -s "$tsize" "$work/target.img"
fi
if [ -n "$tzoned" ] && ! { [ -n "$workdir" ] && [ -f "$work/zoned.img" ]; }; then
	truncate -s "$zsize" "$work/zoned.img"
fi
tcache=none
# O_DIRECT probed by a read: a write would clear the start of a target
# an earlier boot left (--work)
if ! dd if="$work/target.img" of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null; then
	tcache=writeback
	say "O_DIRECT not supported under $O: target opened with cache=writeback"
fi

# --- the target's disk model (--target-model): nbdkit over the file -------
model_start

# --- the verdict's criteria on the ESP (--criteria) ---------------------
if [ -n "$onesp" ]; then
	sh "$here/esp.sh" --criteria "$work/disk.img" $criteria
fi

# --- the capacity check: off on the launcher's own target --------------
# The target is the sparse file made above: its size is what the launcher
# asked for, so the check (on by default on hardware, ~4 s a boot under
# TCG) is off unless asked for (fsbench.capacity=1, as with a wrap model).
case " $append " in
*" fsbench.capacity="*) ;;
*) append="$append fsbench.capacity=0" ;;
esac

# --- settings: the ESP's fsbench.conf (UEFI) or the board's ------------
if [ "$uefi" = 1 ]; then
	[ -f "${BOARD_QEMU_FIRMWARE:-}" ] || die $EX_USAGE "--uefi: no firmware ${BOARD_QEMU_FIRMWARE:-} (BOARD_QEMU_FIRMWARE)"
	conf=$work/fsbench.conf
	sh "$here/esp.sh" "$work/disk.img" "$conf" ${profile:+--profile "$profile"} $append
	if [ -n "${BOARD_QEMU_FIRMWARE_VARS:-}" ]; then
		boot="UEFI firmware ($BOARD_QEMU_FIRMWARE)"
	else
		boot="firmware ($BOARD_QEMU_FIRMWARE, -bios: the disk's extlinux.conf)"
	fi
else
	conf=$here/../board/$BOARD/fsbench.conf
	boot="direct kernel boot ($(basename "$kernel"))"
fi
if [ -f "$imgdir/kernel-src.txt" ]; then
	boot="$boot, kernel $(sed -n 's/^kernel //p' "$imgdir/kernel-src.txt") from $(sed -n 's/^image //p' "$imgdir/kernel-src.txt")"
fi

# --- what it will take -------------------------------------------------
ACCEL=$accel PROFILE=$profile CONF=$conf SETTINGS=$append \
	sh "$here/estimate.sh" "$work/plan" | sed 's/^/qemu: /'

# --- QEMU --------------------------------------------------------------
# The profile's workers, as the guest's runner resolves them (the guest's
# vCPUs under KVM follow them: cmdline.sh).
workers=
if [ -x "$FSBENCH_HOST" ]; then
	set -- config --get workers
	[ ! -f "$conf" ] || set -- "$@" --config "$conf"
	[ -z "$profile" ] || set -- "$@" --profile "$profile"
	for w in $append; do
		case $w in fsbench.profile=*) ;; fsbench.*=*) set -- "$@" "--${w#fsbench.}" ;; esac
	done
	workers=$("$FSBENCH_HOST" "$@" 2>/dev/null) || workers=
fi
serial=$results/serial.log
: >"$serial"
if [ -n "$tfault" ]; then
	cp "$tfault" "$work/blkdebug.conf"
	tfault=$work/blkdebug.conf
fi
tunplug=0
[ "$unplug_after" = 0 ] || tunplug=1
tqmp=0
[ -z "$throttle_at" ] || tqmp=1
TZONED=$tzoned ZUUID_CONV=$ZUUID_CONV ZUUID_ZONED=$ZUUID_ZONED TQMP=$tqmp TBUS=$tbus TFAULT=$tfault TTHROTTLE=$tthrottle TUNPLUG=$tunplug TSOCK=$tsock \
	WORK=$work ACCEL=$accel CPU=$cpu SERIAL=$serial UEFI=$uefi KERNEL=$kernel \
	INITRD=$imgdir/initramfs.cpio.gz ROOTFS=$rootfs PROFILE=$profile \
	APPEND=$append TCACHE=$tcache EXTRA=$extra WORKERS=$workers SMP=$smp MEM=$mem \
	sh "$here/cmdline.sh" "$work/qemu.argv"
guest=$(cat "$work/qemu.argv.guest")
set --
while IFS= read -r a; do set -- "$@" "$a"; done <"$work/qemu.argv"
say "boot $BOARD ($([ "$uefi" = 1 ] && echo "${BOARD_QEMU_FIRMWARE_VARS:+UEFI }firmware, disk image" || echo "direct kernel boot")), rootfs $rootfs, profile ${profile:-from fsbench.conf}, target $tsize $(bus_name) (cache=$tcache), timeout ${timeout}s"
say "guest: $guest"
say "console: $serial"
[ -z "$tfault" ] || say "target fault: QEMU blkdebug rules $tfault"
[ -z "$tmodel" ] || say "target model: $tmodel_text"
[ -z "$tthrottle" ] || say "target throttled: at most $tthrottle I/O operations a second"
events_say
zoned_say

# --- run and watch; a stalled guest booted again (--stall-retries) -----
events_watch "$@"
# QEMU has ended: what it did not flush is gone. After a power cut the
# model goes as abruptly.
if grep -q "^why_end='power cut" "$work/watch.txt" 2>/dev/null; then model_stop KILL; else model_stop TERM; fi
[ -z "$tmodel" ] || cp "$work/nbdkit.log" "$results/diskmodel.log"
[ "$quiet" = 1 ] || echo
events_retry

# --- results -----------------------------------------------------------
rc=0
STALLED=${QEMU_STALL_ATTEMPT:-0} TMODEL=$tmodel_text CRITERIA=$criteria PROFILE=$profile ROOTFS=$rootfs BOOT=$boot ACCEL_TEXT=$accel_text KEEP=$keep GUEST=$guest \
	SIZES=$imgdir/sizes-$rootfs.txt sh "$here/collect.sh" "$results" "$work" || rc=$?
exit $rc

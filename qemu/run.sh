#!/bin/sh
# run.sh: boot a board's image in QEMU, run the suite, collect the results.
#
# Usage: qemu/run.sh --disk DISK.img [options]
#   --disk IMG        the board's disk image (kernel, initramfs.cpio.gz and
#                     sizes-*.txt are taken from the same folder; vmlinux,
#                     when there, is booted instead of kernel: PVH entry, no
#                     decompression in the guest)
#   --profile NAME    fsbench.profile= on the kernel command line (seed, smoke)
#   --results DIR     results folder (default results/<date>-<board>-<profile>)
#   --timeout S       overall limit; QEMU is killed after S seconds
#                     (default: 900 for smoke, 43200 otherwise)
#   --accel A         auto (KVM if a probe guest runs, else TCG), kvm, tcg
#   --append WORDS    more kernel command line words (fsbench.fs=ext4 ...)
#   --kill-after-records N   kill QEMU once N records are on the console
#                     (tests: a run cut short must keep its records)
#   --target-size S   size of the sparse target file (default BOARD_TARGET_SIZE)
#   --extra-disk FILE:SERIAL  one more NVMe disk (repeatable), backed by FILE
#                     itself (not copied), serial SERIAL; the target's serial
#                     is fsbench-target, the boot disk's (virtio) fsbench-boot
#   --uefi            boot the disk image itself through UEFI firmware
#                     (BOARD_QEMU_FIRMWARE: EFI/BOOT/BOOT*.EFI on the ESP);
#                     the settings go into the ESP's fsbench.conf of the work
#                     copy (profile, yes = 1, fsbench.KEY=VALUE of --append)
#   --quiet           do not show the console on the terminal (by default
#                     it is shown as it comes, without the record lines)
#   --keep            keep the work folder (disk copy, target file); its
#                     path is in run.txt ("work folder:")
# Inputs (environment, exported by image/image.mk from board.mk): BOARD,
#   BOARD_QEMU, BOARD_QEMU_MACHINE, BOARD_QEMU_CPU_TCG, BOARD_QEMU_CPU_KVM,
#   BOARD_QEMU_SMP, BOARD_QEMU_MEM, BOARD_CONSOLE, BOARD_CMDLINE,
#   BOARD_TARGET_SIZE, BOARD_QEMU_PFLASH_SIZE (firmware flash size, copies
#   padded to it) (read from board/$BOARD/board.mk when not set); O (build output, default out); FSBENCH_HOST (the host
#   build of fsbench, default $O/host/fsbench).
# Outputs: the results folder: serial.log, records.jsonl and summary.txt
#   (from `fsbench log extract` of the disk's log partition), report.md
#   (`fsbench report`), run.txt (the figures of this run, also appended to
#   summary.txt). Work files go under $O/run/. The report is printed.
# Exit status: the runner's (exit_code of the run_end record); 4 when there is
# no run_end record (the guest crashed, hung or was killed: the console's
# last 15 lines are printed, they usually say why); 2 on misuse.
set -eu

PREFIX='FSBENCH:'
O=${O:-out}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
BOARD=${BOARD:-qemu-x86_64}

say() { echo "qemu: $*"; }
die() { echo "qemu: $*" >&2; exit "${2:-4}"; }

disk= profile= results= timeout= accel=auto append= kill_after=0 quiet=0 keep=0 uefi=0 extra=
tsize=${BOARD_TARGET_SIZE:-10G}
while [ $# -gt 0 ]; do
	case $1 in
	--disk) disk=$2; shift ;;
	--profile) profile=$2; shift ;;
	--results) results=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--accel) accel=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--kill-after-records) kill_after=$2; shift ;;
	--target-size) tsize=$2; shift ;;
	--extra-disk)
		case $2 in *?:?*) ;; *) die "--extra-disk FILE:SERIAL" 2 ;; esac
		[ -f "${2%:*}" ] || die "--extra-disk: no file ${2%:*}" 2
		extra="$extra $2"; shift ;;
	--quiet) quiet=1 ;;
	--uefi) uefi=1 ;;
	--keep) keep=1 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//; /^set -eu/d'; exit 0 ;;
	*) die "unknown option '$1' (--help lists them)" 2 ;;
	esac
	shift
done
[ -n "$disk" ] || die "--disk IMG is required" 2
[ -f "$disk" ] || die "no disk image $disk (make image)" 2
if [ -z "${BOARD_QEMU:-}" ]; then
	bmk=$(dirname "$0")/../board/$BOARD/board.mk
	[ -f "$bmk" ] || die "no board $BOARD ($bmk)" 2
	eval "$(sh "$(dirname "$0")/../image/boardenv.sh" "$bmk")"
fi
imgdir=$(cd "$(dirname "$disk")" && pwd)
rootfs=$(basename "$disk" .img)
rootfs=${rootfs#disk-}
[ -n "$timeout" ] || case $profile in smoke) timeout=900 ;; *) timeout=43200 ;; esac
stamp=$(date +%Y%m%d-%H%M%S)
[ -n "$results" ] || results=results/$stamp-$BOARD-${profile:-default}
mkdir -p "$results" "$O/run"
results=$(cd "$results" && pwd)
work=$(mktemp -d "$O/run/$BOARD.XXXXXX")
work=$(cd "$work" && pwd)
qpid=
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	[ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# --- accelerator -------------------------------------------------------
# KVM only when a guest really runs: boot the kernel with an init that does
# not exist; the kernel panics and (panic=-1, -no-reboot) QEMU exits. A KVM
# that hangs is killed after a few seconds and TCG is used.
probe_kvm() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || { why="no usable /dev/kvm"; return 1; }
	case $BOARD_QEMU in
	*-"$(uname -m)") ;;
	*) why="no KVM for $BOARD_QEMU on a $(uname -m) host"; return 1 ;;
	esac
	t0=$(now)
	set +e
	timeout -k 1 8 "$BOARD_QEMU" -machine "$BOARD_QEMU_MACHINE,accel=kvm" \
		-cpu "$BOARD_QEMU_CPU_KVM" -m 256 -nodefaults -no-reboot -display none \
		-kernel "$imgdir/kernel" -append "${BOARD_CONSOLE:+console=${BOARD_CONSOLE%%,*} }panic=-1 rdinit=/none" \
		-serial "file:$work/kvm-probe.log" </dev/null >"$work/kvm-probe.err" 2>&1
	rc=$?
	set -e
	if [ $rc -eq 0 ] && grep -q 'Linux version' "$work/kvm-probe.log"; then
		why="probe guest booted in $(secs "$t0" "$(now)") s"
		return 0
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		why="KVM probe guest hung, killed after $(secs "$t0" "$(now)") s"
	else
		why="KVM probe failed, QEMU status $rc: $(grep -v warning "$work/kvm-probe.err" | head -n 1)"
	fi
	return 1
}
why=
case $accel in
auto) if probe_kvm; then accel=kvm; else accel=tcg; fi ;;
kvm|tcg) why="asked for" ;;
*) die "--accel: auto, kvm or tcg" 2 ;;
esac
if [ "$accel" = kvm ]; then
	cpu=$BOARD_QEMU_CPU_KVM
	say "accelerator: KVM ${why:+($why)}"
else
	cpu=$BOARD_QEMU_CPU_TCG
	say "accelerator: TCG${why:+ ($why)}"
fi

kernel=$imgdir/kernel
[ ! -f "$imgdir/vmlinux" ] || kernel=$imgdir/vmlinux

# --- disks -------------------------------------------------------------
cp --sparse=always "$disk" "$work/disk.img"
truncate -s "$tsize" "$work/target.img"
tcache=none
if ! dd if=/dev/zero of="$work/target.img" bs=4096 count=1 conv=notrunc oflag=direct 2>/dev/null; then
	tcache=writeback
	say "O_DIRECT not supported under $O: target opened with cache=writeback"
fi

cmdline="${BOARD_CONSOLE:+console=$BOARD_CONSOLE }${BOARD_CMDLINE:-}"
cmdline="$cmdline root=PARTLABEL=fsbench-root rootfstype=$rootfs fsbench.yes=1"
[ -z "$profile" ] || cmdline="$cmdline fsbench.profile=$profile"
cmdline="$cmdline$append"

# UEFI: no command line from us; the run's settings go into the ESP's
# fsbench.conf of the work copy (mtools reaches the FAT at its offset).
if [ "$uefi" = 1 ]; then
	[ -f "${BOARD_QEMU_FIRMWARE:-}" ] || die "--uefi: no firmware ${BOARD_QEMU_FIRMWARE:-} (BOARD_QEMU_FIRMWARE)" 2
	off=$(sfdisk --dump "$work/disk.img" | sed -n 's/.*start= *\([0-9]*\),.*name="fsbench-esp".*/\1/p')
	[ -n "$off" ] || die "--uefi: no fsbench-esp partition in $disk"
	esp="$work/disk.img@@$((off * 512))"
	mtype -i "$esp" ::fsbench.conf >"$work/fsbench.conf" || die "--uefi: cannot read fsbench.conf from the ESP"
	set -- yes=1
	[ -z "$profile" ] || set -- "$@" "profile=$profile"
	for w in $append; do
		case $w in
		fsbench.*=*) set -- "$@" "${w#fsbench.}" ;;
		*) say "--uefi: '$w' is not a fsbench setting: not applied" ;;
		esac
	done
	for kv in "$@"; do
		k=${kv%%=*}
		sed -i "/^[ 	]*$k[ 	]*=/d" "$work/fsbench.conf"
		echo "$k = ${kv#*=}" >>"$work/fsbench.conf"
	done
	mcopy -o -i "$esp" "$work/fsbench.conf" ::fsbench.conf || die "--uefi: cannot write fsbench.conf to the ESP"
	cp "$BOARD_QEMU_FIRMWARE_VARS" "$work/efivars.fd"
	# Flash banks of a fixed size (arm64 virt: 64 MiB): pad copies.
	fwcode=$BOARD_QEMU_FIRMWARE
	if [ -n "${BOARD_QEMU_PFLASH_SIZE:-}" ]; then
		cp "$fwcode" "$work/efi-code.fd"
		fwcode=$work/efi-code.fd
		for f in "$fwcode" "$work/efivars.fd"; do
			[ "$(stat -c %s "$f")" -ge "$(numfmt --from=iec "$BOARD_QEMU_PFLASH_SIZE")" ] ||
				truncate -s "$BOARD_QEMU_PFLASH_SIZE" "$f"
		done
	fi
fi

serial=$results/serial.log
: >"$serial"
con="file,id=con,path=$serial"

set -- "$BOARD_QEMU" -machine "$BOARD_QEMU_MACHINE,accel=$accel" -cpu "$cpu" \
	-smp "$BOARD_QEMU_SMP" -m "$BOARD_QEMU_MEM" -nodefaults -no-reboot \
	-display none -monitor none -chardev "$con" -serial chardev:con
if [ "$uefi" = 1 ]; then
	set -- "$@" \
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$fwcode" \
		-drive "if=pflash,format=raw,unit=1,file=$work/efivars.fd"
else
	set -- "$@" -kernel "$kernel" -initrd "$imgdir/initramfs.cpio.gz" -append "$cmdline"
fi
set -- "$@" \
	-drive "file=$work/disk.img,format=raw,if=none,id=boot" \
	-device virtio-blk-pci,drive=boot,serial=fsbench-boot \
	-drive "file=$work/target.img,format=raw,if=none,id=target,cache=$tcache" \
	-device nvme,drive=target,serial=fsbench-target
n=0
for x in $extra; do
	n=$((n + 1))
	set -- "$@" -drive "file=$(cd "$(dirname "${x%:*}")" && pwd)/$(basename "${x%:*}"),format=raw,if=none,id=extra$n,cache=$tcache" \
		-device "nvme,drive=extra$n,serial=${x##*:}"
done
echo "$*" >"$work/qemu.cmd"
say "boot $BOARD ($([ "$uefi" = 1 ] && echo "UEFI firmware, disk image" || echo "direct kernel boot")), rootfs $rootfs, profile ${profile:-from fsbench.conf}, target $tsize NVMe (cache=$tcache), timeout ${timeout}s"
say "console: $serial"

# --- run ---------------------------------------------------------------
t0=$(now)
"$@" </dev/null >"$work/qemu.out" 2>"$work/qemu.err" &
qpid=$!
# Progress: the console as it comes, without the record lines (they are in
# serial.log and the log partition; the runner's progress lines say the same).
tpid=
if [ "$quiet" = 0 ]; then
	tail --pid="$qpid" -s 0.2 -n +1 -f "$serial" | tr -d '\r' |
		grep --line-buffered -v "^$PREFIX{" &
	tpid=$!
fi
first= why_end=
while kill -0 "$qpid" 2>/dev/null; do
	sleep 0.2
	if [ -z "$first" ] && grep -q "$PREFIX{" "$serial" 2>/dev/null; then
		first=$(now)
	fi
	el=$(secs "$t0" "$(now)")
	if [ "${el%.*}" -ge "$timeout" ]; then
		why_end="timeout: killed after ${timeout}s"
		break
	fi
	if [ "$kill_after" -gt 0 ] &&
		[ "$(grep -c "$PREFIX{" "$serial" 2>/dev/null || true)" -ge "$kill_after" ]; then
		why_end="killed after $kill_after records (--kill-after-records)"
		break
	fi
done
if [ -n "$why_end" ]; then
	kill -TERM "$qpid" 2>/dev/null || true
	sleep 2
	kill -KILL "$qpid" 2>/dev/null || true
fi
qrc=0
wait "$qpid" || qrc=$?
qpid=
[ -z "$tpid" ] || wait "$tpid" || true	# tail ends with QEMU (--pid)
t1=$(now)
[ -n "$first" ] || { grep -q "$PREFIX{" "$serial" && first=$t1; } || true
[ "$quiet" = 1 ] || echo
[ -z "$why_end" ] || say "$why_end"
[ ! -s "$work/qemu.err" ] || { say "QEMU said:"; sed 's/^/  /' "$work/qemu.err"; }

# --- results -----------------------------------------------------------
tr -d '\r' <"$serial" | sed -n "s/^.*$PREFIX{/{/p" >"$work/console.jsonl"
src="log partition"
if [ -x "$FSBENCH_HOST" ] && "$FSBENCH_HOST" log extract "$work/disk.img" -o "$results" >/dev/null 2>"$work/extract.err"; then
	if [ ! -s "$results/records.jsonl" ] && [ -s "$work/console.jsonl" ]; then
		say "the log partition holds no record: records taken from the console"
		src="console"
	fi
else
	sed 's/^/  /' "$work/extract.err" 2>/dev/null || true
	say "log extract failed: records taken from the console"
	src="console"
fi
[ "$src" = "log partition" ] || cp "$work/console.jsonl" "$results/records.jsonl"
nrec=$(wc -l <"$results/records.jsonl" | tr -d ' ')
code=$(sed -n 's/.*"type":"run_end".*"exit_code":\([0-9]*\).*/\1/p' "$results/records.jsonl" | tail -n 1)
if [ -x "$FSBENCH_HOST" ] && [ "$nrec" -gt 0 ]; then
	"$FSBENCH_HOST" report "$results" >"$results/report.md" 2>"$work/report.err" ||
		{ say "report failed:"; sed 's/^/  /' "$work/report.err"; }
fi

{
	echo "run"
	echo "  board:                $BOARD"
	echo "  profile:              ${profile:-from fsbench.conf}"
	echo "  rootfs:               $rootfs"
	echo "  boot:                 $([ "$uefi" = 1 ] && echo "UEFI firmware ($BOARD_QEMU_FIRMWARE)" || echo "direct kernel boot ($(basename "$kernel"))")"
	echo "  accelerator:          $(echo "$accel" | tr a-z A-Z)${why:+ ($why)}"
	echo "  qemu start to first record: $(if [ -n "$first" ]; then secs "$t0" "$first"; else echo none; fi) s"
	echo "  total run time:       $(secs "$t0" "$t1") s"
	echo "  end:                  ${why_end:-guest powered off (QEMU status $qrc)}"
	echo "  records:              $nrec (from the $src)"
	echo "  runner exit code:     ${code:-none (no run_end record)}"
	[ "$keep" = 0 ] || echo "  work folder:          $work"
	echo "image sizes"
	sed 's/^/  /' "$imgdir/sizes-$rootfs.txt" 2>/dev/null || true
} >"$results/run.txt"
cat "$results/run.txt" >>"$results/summary.txt"

[ ! -s "$results/report.md" ] || { echo; cat "$results/report.md"; }
echo
cat "$results/run.txt"
say "results: $results"
if [ -z "$code" ]; then
	# No run_end: the last console lines usually say why (panic, hang, reset).
	say "no run_end record; the console's last lines:"
	tr -d '\r' <"$serial" 2>/dev/null | tail -n 15 | sed 's/^/  /'
	exit 4
fi
exit "$code"

#!/bin/sh
# tests/qemu/uefi.sh: the x86_64 disk image booted by UEFI firmware (QEMU
# q35 + OVMF, no -kernel: the firmware starts EFI/BOOT/BOOTX64.EFI from the
# image's ESP), as a PC booting the stick would.
#   1. direct (only when named in UEFI_TEST_ONLY: a figure, no check of its
#      own): a direct kernel boot of the same image whose run is refused at
#      once (target serial:none): the time from QEMU start to the first
#      record, the reference for 2.
#   2. uefi: a brief smoke run (BRIEF) on ext4 through OVMF (what it checks
#      is the firmware's boot and the ESP; the four filesystems run in
#      tests/qemu/run.sh): ext4 ends ok, the records are read back from the image's log
#      partition, run_start names the firmware (DMI BIOS vendor OVMF), the
#      ESP then holds results/RUN_ID.jsonl (equal to the log's records) and
#      results/RUN_ID.md (the report), read with mtools; the guest powered
#      itself off (on_finish = poweroff); the settings given (BRIEF) reached
#      the runner through the ESP's fsbench.conf; the firmware started one boot
#      entry, the disk's, at the first try (no entry failed, no fall-through
#      to the UEFI shell or a boot menu). With 1, the ratio of the first-record
#      times (UEFI over direct boot) is printed as a figure, not checked:
#      under TCG on 2 cores it measures 2.4 to 2.9 quiet and up to 5 on a
#      loaded host (the firmware and the XZ decompression the direct
#      vmlinux boot skips; see results/MEASUREMENTS.md).
#   3. pc: the pc-x86_64 board's image through OVMF with its fsbench.conf as
#      shipped (target = serial:SET-ME): the run is refused (status 3), and
#      the refusal with every disk (the boot disk and the NVMe target by
#      serial) is on the ESP (with its report listing the disks) and in the
#      log partition; the serial port
#      (not /dev/console there) carries init's lines and the records too.
# Inputs (environment): O (build output, absolute), UEFI_TEST_ONLY (names of
# the runs: direct uefi pc; default uefi pc).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Results
# under $O/tests/qemu-uefi/.
set -eu

O=${O:?run through make check-qemu}
T=$O/tests/qemu-uefi
only=${UEFI_TEST_ONLY:-uefi pc}
. tests/qemu/lib.sh


rm -rf "$T"
test_init 'qemu UEFI tests' "$T"
# The board's settings stay out of the environment: qemu/run.sh and make
# read each board's own.
qemu=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_QEMU")
fw=$(eval "$(sh image/boardenv.sh board/qemu-x86_64/board.mk)"; echo "$BOARD_QEMU_FIRMWARE")
command -v "$qemu" >/dev/null || { skip "$qemu not installed"; summary; exit 0; }
[ -f "$fw" ] || { skip "no firmware $fw (package ovmf)"; summary; exit 0; }
for t in mdir mtype sfdisk; do
	command -v $t >/dev/null || { skip "$t not installed (mtools, fdisk)"; summary; exit 0; }
done

first() { sed -n 's/.*first record: *\([0-9.]*\) s.*/\1/p' "$1/run.txt" 2>/dev/null; }
# build BOARD: make its ext4 image.
build() {
	make -s --no-print-directory BOARD="$1" image ROOTFS=ext4 >"$T/build-$1.log" 2>&1 && return 0
	fail "make BOARD=$1 image"; tail -n 20 "$T/build-$1.log"; return 1
}
# boot NAME BOARD [launcher options]: status in $rc, work folder in $work.
boot() {
	name=$1 b=$2; shift 2
	res=$T/$name
	set +e
	env -u BOARD_QEMU BOARD=$b sh qemu/run.sh --disk "$O/image/$b/disk-ext4.img" --results "$res" \
		--quiet --keep "$@" >"$T/$name.out" 2>&1
	rc=$?
	set -e
	work=$(sed -n 's/^ *work folder: *//p' "$res/run.txt" 2>/dev/null)
	info "$name: $(grep -E 'first record' "$res/run.txt" 2>/dev/null | sed 's/^ *//'), $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
}
done_work() { case $work in "$O"/run/*) rm -rf "$work" ;; esac; }

build qemu-x86_64 || { summary; exit 1; }
t_direct=
if wanted direct; then
	boot direct qemu-x86_64 --profile smoke --append fsbench.target=serial:none
	check "direct: the run was refused (status 3)" [ "$rc" -eq 3 ]
	t_direct=$(first "$T/direct")
	check "direct: a first record" [ -n "$t_direct" ]
	done_work
fi

if wanted uefi; then
	boot uefi qemu-x86_64 --uefi --profile smoke --append "fsbench.fs=ext4 $BRIEF" --timeout 900
	res=$T/uefi
	check "uefi: launcher exit status 0" [ "$rc" -eq 0 ] || tail -n 30 "$T/uefi.out"
	check "uefi: booted through the firmware, no -kernel" sh -c \
		"grep -q 'boot: *UEFI firmware' '$res/run.txt' && ! grep -q -- '-kernel' '$work/qemu.cmd'"
	check "uefi: the firmware started the disk's boot entry" grep -q 'BdsDxe: starting' "$res/serial.log"
	# What a slow UEFI boot would hide: an entry that failed before the
	# disk's, or the firmware falling through to its shell or menu.
	check "uefi: one boot entry started, none failed, no shell or menu" sh -c \
		"[ \$(tr -d '\r' <'$res/serial.log' | grep -c 'BdsDxe: starting') -eq 1 ] &&
		! tr -d '\r' <'$res/serial.log' | grep -q -i -E 'BdsDxe: failed|startup\.nsh|Interactive Shell|Boot Manager Menu'"
	check "uefi: records read back from the log partition" grep -q 'from the log partition' "$res/run.txt"
	check "uefi: the settings reached the runner through the ESP's fsbench.conf (fs = ext4, rounds = 1)" \
		has "$res" run_start config.fs=ext4 config.rounds=1
	check "uefi: run_start names the firmware (DMI bios_vendor OVMF)" sh -c \
		"sh qemu/records.sh '$res/records.jsonl' run_start host.dmi.bios_vendor | grep -q OVMF"
	check_suite uefi "$res"
	check "uefi: run_end ok, exit_code 0" has "$res" run_end status=ok exit_code=0
	if esp_results uefi "$work" "$res"; then
		check "uefi: the ESP's report has the table and ext4's column" sh -c \
			"grep -q 'create (incl. sync)' '$T/uefi.esp.md' && grep -q -E '[|] *ext4 *[|]' '$T/uefi.esp.md'"
	fi
	check "uefi: init said where the results went" grep -q "fsbench-init: results: .* results/$id.jsonl" "$res/serial.log"
	check "uefi: on_finish poweroff: the guest powered off" sh -c \
		"grep -q 'fsbench-init: powering off' '$res/serial.log' && grep -q 'reboot: Power down' '$res/serial.log' && grep -q 'end: *guest powered off' '$res/run.txt'"
	t_uefi=$(first "$res")
	if [ -n "$t_direct" ] && [ -n "$t_uefi" ]; then
		r=$(awk -v u="$t_uefi" -v d="$t_direct" 'BEGIN { printf "%.2f", u / d }')
		info "first record: UEFI $t_uefi s, direct kernel boot $t_direct s: ratio $r (load $(cut -d' ' -f1-3 /proc/loadavg))"
	else
		info "first record: UEFI ${t_uefi:-?} s (the ratio to a direct kernel boot: UEFI_TEST_ONLY='direct uefi')"
	fi
	done_work
fi

if wanted pc; then
	if build pc-x86_64; then
		boot pc pc-x86_64 --uefi --profile smoke --timeout 300
		res=$T/pc
		check "pc: refused as shipped (target serial:SET-ME), status 3" [ "$rc" -eq 3 ] || tail -n 20 "$T/pc.out"
		check "pc: records read back from the log partition" grep -q 'from the log partition' "$res/run.txt"
		# console=ttyS0,115200 console=tty0: the screen is /dev/console; init
		# mirrors its lines, the runner's messages and the records to ttyS0.
		check "pc: init's lines on the serial port too" grep -q 'fsbench-init: starting fsbench (console also on /dev/ttyS0)' "$res/serial.log"
		check "pc: the runner's refusal message on the serial port" grep -q 'fsbench: refusing: target serial:SET-ME' "$res/serial.log"
		console "$res" >"$T/pc.serial.jsonl"
		check "pc: the records on the serial port equal the log partition's" cmp "$T/pc.serial.jsonl" "$res/records.jsonl"
		flat "$res" error >"$T/pc.error"
		check "pc: the refusal lists the boot disk and the NVMe target" sh -c \
			"grep -qx refused=true '$T/pc.error' && grep -qx 'disks\[[0-9]*\]\.serial=fsbench-boot' '$T/pc.error' &&
			 grep -qx 'disks\[[0-9]*\]\.serial=fsbench-target' '$T/pc.error'"
		if esp_results pc "$work" "$res"; then
			check "pc: the ESP's report says SET-ME matched nothing and lists the disks" sh -c \
				"grep -q 'serial:SET-ME (not resolved to a disk)' '$T/pc.esp.md' && grep -q '| fsbench-target ' '$T/pc.esp.md'"
		fi
		done_work
	fi
fi

summary

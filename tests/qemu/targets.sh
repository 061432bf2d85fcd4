#!/bin/sh
# tests/qemu/targets.sh: target selection by identity in a QEMU guest with
# several disks: the boot disk (virtio, serial fsbench-boot: ESP, rootfs, log
# partition), the launcher's own target (NVMe, fsbench-target) and two more
# NVMe disks from files of this test: fsbench-named (the one named) and
# fsbench-other (filled with a known pattern that must survive every run).
#   1. target = serial:fsbench-named: a brief smoke run (BRIEF) on ext4 on that disk only
#      (the run_start target has its serial; it now holds ext4; the pattern
#      disk is byte-identical); the hardware record (DMI, CPU, memory,
#      kernel, target model/serial/firmware/size/block sizes/transport/PCIe
#      link); the records and report on the ESP (results/RUN_ID.jsonl, .md,
#      read with mtools); on_finish = poweroff powers the guest off.
#   2. refusals, each with exit status 3, an error record with refused:true
#      and a disks array holding every disk's serial, read back from the log
#      partition, and the pattern disk untouched:
#      serial:fsbench-boot (the disk with the ESP, rootfs and log partition),
#      serial:no-such-disk (no match), model:* (matches every NVMe disk).
#      The no-match run also sets on_finish = reboot (QEMU's -no-reboot ends
#      the guest) and the refusal lands on the ESP too, its report listing
#      the disks.
# Inputs (environment): O (build output, absolute), BOARD (default
# qemu-x86_64), TARGETS_TEST_ONLY (names of the runs to do: named boot
# nomatch glob).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-targets/.
set -eu

O=${O:?run through make check-qemu}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-targets
only=${TARGETS_TEST_ONLY:-named boot nomatch glob}
. tests/qemu/lib.sh

qemu_start 'qemu target tests'
for t in mdir mtype sfdisk sha256sum; do
	command -v $t >/dev/null || { skip "$t not installed (mtools, fdisk, coreutils)"; summary; exit 0; }
done
made build.log image ROOTFS=ext4 || { summary; exit 1; }

# The disks of this test: sparse 2 GiB files. The pattern disk has the
# pattern at its start, in the middle and at its end.
other=$T/other.img named=$T/named.img
truncate -s 2G "$other" "$named"
yes 'fsbench pattern disk: must stay untouched' | head -c 4194304 >"$T/pattern"
for at in 0 256 511; do	# in 4 MiB blocks
	dd if="$T/pattern" of="$other" bs=4M seek=$at conv=notrunc,fsync 2>/dev/null
done
# untouched: the pattern where it was, and not a block more allocated (a
# write anywhere else, zeros included, would allocate one); reading the
# whole 2 GiB each time cost 6 s of processor time a run.
other_sum() {
	for at in 0 256 511; do
		dd if="$other" bs=4M skip=$at count=1 2>/dev/null | sha256sum
	done
	stat -c '%s %b' "$other"
}
want_sum=$(other_sum)

# boot NAME TARGET-SPEC [launcher options]: status in $rc, work folder in $work.
boot() {
	name=$1 spec=$2; shift 2
	res=$T/$name
	set +e
	sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$res" --quiet --keep \
		--profile smoke --timeout 600 \
		--extra-disk "$other:fsbench-other" --extra-disk "$named:fsbench-named" \
		--append "fsbench.fs=ext4 $BRIEF fsbench.target=$spec" "$@" >"$T/$name.out" 2>&1
	rc=$?
	set -e
	work=$(sed -n 's/^ *work folder: *//p' "$res/run.txt" 2>/dev/null)
	info "$name: $(grep -E 'first record' "$res/run.txt" 2>/dev/null | sed 's/^ *//'), $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
	check "$name: records read back from the log partition" grep -q 'from the log partition' "$res/run.txt"
	check "$name: the pattern disk (fsbench-other) is untouched" [ "$(other_sum)" = "$want_sum" ]
}
done_work() { case $work in "$O"/run/*) rm -rf "$work" ;; esac; }

# check_refused NAME WHY-TEXT: a refusal with every disk listed.
check_refused() {
	name=$1 res=$T/$1 err=$T/$1.error
	check "$name: launcher exit status 3 (refused)" [ "$rc" -eq 3 ] || tail -n 20 "$T/$name.out"
	flat "$res" error >"$err"
	check "$name: one error record with refused:true" [ "$(grep -cx 'refused=true' "$err")" -eq 1 ]
	check "$name: the refusal says '$2'" grep -q -- "^msg=.*$2" "$err"
	grep '^disks\[[0-9]*\]\.' "$err" | sed 's/^disks\[[0-9]*\]\.//' >"$err.disks"
	for s in fsbench-boot fsbench-target fsbench-named fsbench-other; do
		check "$name: the disks array lists serial $s" grep -qx "serial=$s" "$err.disks"
	done
	check "$name: the disks array has path, model, size, transport" sh -c \
		"grep -q '^path=/dev/nvme' '$err.disks' && grep -qx 'model=QEMU NVMe Ctrl' '$err.disks' && grep -qx 'size_bytes=2147483648' '$err.disks' && grep -qx 'transport=nvme' '$err.disks'"
	check "$name: run_end status refused, exit_code 3" has "$res" run_end status=refused exit_code=3
	check "$name: the named disk was not written (no block allocated)" [ "$(du -k "$named" | cut -f1)" -eq 0 ]
}

if wanted named; then
	boot named serial:fsbench-named
	res=$T/named
	check "named: launcher exit status 0" [ "$rc" -eq 0 ] || tail -n 30 "$T/named.out"
	flat "$res" run_start >"$T/named.start"
	grep '^target\.' "$T/named.start" | sed 's/^target\.//' >"$T/named.target"
	info "named: target $(tr '\n' ' ' <"$T/named.target")"
	check "named: the run was on serial fsbench-named" grep -qx 'serial=fsbench-named' "$T/named.target"
	check "named: ext4 fs_end ok" has "$res" fs_end fs=ext4 status=ok
	check "named: run_end ok, exit_code 0" has "$res" run_end exit_code=0
	# ext4 superblock magic 0xef53 at byte 1080 of the named disk.
	check "named: the named disk now holds ext4" [ "$(od -An -tx1 -j1080 -N2 "$named" | tr -d ' ')" = 53ef ]
	for k in model serial firmware size_bytes logical_block physical_block transport pcie_link_speed; do
		check "named: run_start target has $k" grep -q "^$k=" "$T/named.target"
	done
	check "named: target transport nvme, model QEMU NVMe Ctrl" sh -c \
		"grep -qx 'transport=nvme' '$T/named.target' && grep -qx 'model=QEMU NVMe Ctrl' '$T/named.target'"
	for k in dmi sys_vendor product_name bios_vendor cpu_model cpus mem_bytes kernel machine; do
		check "named: run_start host has $k" grep -Eq "^host\.([a-z_]+\.)?$k(=|\.)" "$T/named.start"
	done
	if esp_results named "$work" "$res"; then
		check "named: the ESP's report has the table and the target" sh -c \
			"grep -q 'create (incl. sync)' '$T/named.esp.md' && grep -q 'serial fsbench-named' '$T/named.esp.md'"
	fi
	check "named: on_finish poweroff: init powered off" sh -c \
		"grep -q 'fsbench-init: on_finish poweroff' '$res/serial.log' && grep -q 'fsbench-init: powering off' '$res/serial.log' && grep -q 'reboot: Power down' '$res/serial.log'"
	done_work
fi

# The named disk is zeroed again for the refusals (they must not write it).
truncate -s 0 "$named"
truncate -s 2G "$named"

if wanted boot; then
	boot boot serial:fsbench-boot
	check_refused boot 'holds the root filesystem'
	done_work
fi
if wanted nomatch; then
	boot nomatch serial:no-such-disk --append fsbench.on_finish=reboot
	check_refused nomatch 'no disk matches'
	check "nomatch: on_finish reboot: init rebooted (QEMU -no-reboot exits)" sh -c \
		"grep -q 'fsbench-init: rebooting' '$T/nomatch/serial.log' && grep -q 'reboot: Restarting system' '$T/nomatch/serial.log'"
	if esp_results nomatch "$work" "$T/nomatch"; then
		mkdir -p "$T/nomatch-esp"
		cp "$T/nomatch.esp.jsonl" "$T/nomatch-esp/records.jsonl"
		flat "$T/nomatch-esp" error >"$T/nomatch.esp.error"
		check "nomatch: the refusal with the disk list is on the ESP" sh -c \
			"grep -qx refused=true '$T/nomatch.esp.error' && grep -q '^disks\[1\]\.serial=' '$T/nomatch.esp.error'"
		check "nomatch: the ESP's report lists the disks by serial" sh -c \
			"grep -q 'Disks the runner saw' '$T/nomatch.esp.md' && grep -q '| fsbench-named ' '$T/nomatch.esp.md'"
		check "nomatch: init found a report to write" sh -c "! grep -q 'results: no report' '$T/nomatch/serial.log'"
	fi
	done_work
fi
if wanted glob; then
	boot glob 'model:*'
	check_refused glob 'disks match; name exactly one'
	done_work
fi

summary

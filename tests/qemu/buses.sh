#!/bin/sh
# tests/qemu/buses.sh: the target on every bus but NVMe, one brief boot each
# (ext4, one round of 50 files a directory: fsbench.fs=ext4
# fsbench.rounds=1 fsbench.files=50), two boots at a time:
#   ahci  ide-hd on the q35 machine's AHCI (qemu/run.sh --target-bus ahci)
#   usb   usb-storage on a qemu-xhci (bulk-only)
#   uas   usb-uas with a scsi-hd on a qemu-xhci
#   sd    sd-card on an sdhci-pci (1 GiB: QEMU wants a power of 2; its
#         mke2fs with lazy_journal_init: emulated SD is slow)
#   scsi  scsi-hd on a virtio-scsi-pci
# Each boot: the launcher's exit status 0 and run_end ok; the target
# selected by identity (run_start's target serial fsbench-target, the SD
# card's model QEMU!, its CID name) and on the bus asked for (its
# transport); the health records' `bus` (sata, usb, usb, mmc, scsi); and
# that bus's facts: on ahci the ATA SMART attributes and the error log's
# count read through SG_IO and the SATA link; on usb the transport bot and
# a speed, on uas the transport uas and a speed; on sd the card's type, CID
# and CSD; on scsi (and ahci, usb, uas) the SCSI identity. The usb and
# ahci boots carry criteria of the board's inventory (target_bus and a
# faster bus mode than QEMU's): the verdict FAILs naming the measured and
# the expected value. Every boot's target goes through the volatile-cache
# model (--target-model cache): what of the guest's durable writes reaches
# a disk on each bus, the writes with FUA and the flushes the model
# counted, beside the cache and FUA the guest's kernel believes in
# (run_start's target write_cache and fua): the guest's flushes reach the
# model on every bus whose disk it believes has a volatile cache (the SD
# card's it believes has none: it sends no flush), and no FUA write where
# the guest sends none
# (qemu/README.md, "What reaches the disk": tests/qemu/diskmodel.sh's boot
# counts the NVMe).
# Inputs (environment): O (build output, absolute), BOARD (default
# qemu-x86_64), BUSES_TEST_ONLY (the buses to boot: ahci usb uas sd scsi).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-buses/.
set -eu

O=${O:?run through make check-qemu-buses}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-buses
only=${BUSES_TEST_ONLY:-ahci usb uas sd scsi}
. tests/qemu/lib.sh

qemu_start 'qemu bus tests'
made build.log image ROOTFS=ext4 || { summary; exit 1; }

# The devices QEMU here must have for each bus; a bus whose devices are
# missing is a SKIP with their names.
devices=$("$BOARD_QEMU" -machine none -device help 2>&1 | sed -n 's/^name "\([^"]*\)".*/\1/p')
needs() {
	case $1 in
	ahci) echo ide-hd ;;
	usb) echo qemu-xhci usb-storage ;;
	uas) echo qemu-xhci usb-uas scsi-hd ;;
	sd) echo sdhci-pci sd-card ;;
	scsi) echo virtio-scsi-pci scsi-hd ;;
	esac
}
runnable=
for b in $only; do
	miss=
	for d in $(needs "$b"); do
		echo "$devices" | grep -qxF "$d" || miss="$miss $d"
	done
	if [ -n "$miss" ]; then skip "$b: $BOARD_QEMU has no device$miss (qemu-system-* -device help)"
	else runnable="$runnable $b"; fi
done

# boot BUS: the launcher in the background; its status in $T/BUS.rc.
boot() {
	(
		set +e
		# the SD card: 1 GiB (a power of 2, the least the smoke profile
		# takes); emulated SD is slow and mke2fs zeroes the journal
		# through it (62 s here): not on the card, a fresh sparse file
		# that reads zeros already (lazy_journal_init)
		sz= mk= crit=none
		[ "$1" != sd ] || sz="--target-size 1G" mk=" fsbench.mkfs_opts.ext4=-Enodiscard,lazy_journal_init=1"
		[ ! -f "$T/$1.criteria" ] || crit=$T/$1.criteria
		sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$T/$1" --quiet \
			--profile smoke --timeout 300 --target-bus "$1" $sz --criteria "$crit" --target-model cache \
			--append "fsbench.fs=ext4 fsbench.rounds=1 fsbench.files=50$mk" >"$T/$1.out" 2>&1
		echo $? >"$T/$1.rc"
	) &
}
# The board's inventory (the verdict's keys of what the target must be):
# the USB disk and the SATA disk each with criteria its bus meets and a
# bus mode it did not come up in (QEMU's xHCI runs usb-storage at 5000
# Mb/s, its AHCI links at 1.5 Gb/s): the verdict must FAIL naming both
# values.
printf 'target_bus = usb\nusb_speed = 10000\n' >"$T/usb.criteria"
printf 'target_bus = sata\nsata_link = 3\n' >"$T/ahci.criteria"
# Two guests at a time (each is a TCG process of its own).
set -- $runnable
while [ $# -gt 0 ]; do
	boot "$1"; p1=$!; p2=
	if [ $# -gt 1 ]; then boot "$2"; p2=$!; shift; fi
	shift
	wait $p1 ${p2:+$p2} || true
done

# facts RES: the health record before's values, PATH=VALUE lines.
facts() { flat "$1" health | awk '/^when=/ { n++ } n == 1'; }
for b in $runnable; do
	res=$T/$b
	rc=$(cat "$T/$b.rc" 2>/dev/null || echo none)
	check "$b: launcher exit status 0" [ "$rc" = 0 ] || tail -n 20 "$T/$b.out"
	check "$b: run_end ok" has "$res" run_end status=ok
	info "$b: $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
	facts "$res" >"$T/$b.health"
	case $b in
	ahci) want=sata ;;
	usb|uas) want=usb ;;
	sd) want=mmc ;;
	scsi) want=scsi ;;
	esac
	if [ "$b" = sd ]; then
		check "sd: the target selected by model (QEMU!, the CID's name)" has "$res" run_start target.model='QEMU!'
	else
		check "$b: the target selected by serial fsbench-target" has "$res" run_start target.serial=fsbench-target
	fi
	check "$b: run_start's target transport $want" has "$res" run_start target.transport=$want
	check "$b: health bus = $want (before and after)" \
		[ "$(rec "$res" health bus | sort -u)" = "$want" ]
	has_fact() { grep -q "^$1" "$T/$b.health"; }
	case $b in
	ahci)
		check "ahci: ATA SMART attributes read (SG_IO)" has_fact 'ata_smart.attributes\[[0-9]*\].id='
		check "ahci: the summary error log's count read" has_fact 'ata_smart.error_count=[0-9]'
		check "ahci: the temperature from ATA attribute 190 (QEMU's ide-hd has no 194)" has_fact 'temperature.source=ata smart attribute 190$'
		check "ahci: the SATA link's port and speed" sh -c "grep -q '^sata_link.port=ata' '$T/$b.health' && grep -q '^sata_link.speed=' '$T/$b.health'"
		check "ahci: inventory: target_bus = sata passes" grep -q '^target bus: sata; limit sata: PASS' "$res/verdict.txt"
		check "ahci: inventory: sata_link = 3 fails with the measured 1.5 Gb/s and the limit" \
			grep -q '^SATA link.*: 1.5 Gb/s.*; limit >= 3 Gb/s: FAIL' "$res/verdict.txt"
		check "ahci: inventory: the verdict FAILs" grep -q '^verdict: FAIL (1 of 2 checks failed)' "$res/verdict.txt"
		grep -E '^ata_smart\.(revision|overall|power_on_hours|power_cycles|error_count|attributes)' "$T/$b.health" |
			tr '\n' ' ' | sed 's/^/INFO: ahci: /; s/$/\n/'
		;;
	usb)
		check "usb: transport bot" has_fact 'usb.transport=bot$'
		check "usb: a speed" has_fact 'usb.speed_mbps=[0-9]'
		check "usb: inventory: target_bus = usb passes" grep -q '^target bus: usb; limit usb: PASS' "$res/verdict.txt"
		check "usb: inventory: usb_speed = 10000 fails with the measured 5000 Mb/s and the limit" \
			grep -q '^USB speed.*: 5000 Mb/s (USB 3.00, bot); limit >= 10000 Mb/s: FAIL' "$res/verdict.txt"
		check "usb: inventory: the verdict FAILs" grep -q '^verdict: FAIL (1 of 2 checks failed)' "$res/verdict.txt"
		;;
	uas)
		check "uas: transport uas" has_fact 'usb.transport=uas$'
		check "uas: a speed" has_fact 'usb.speed_mbps=[0-9]'
		;;
	sd)
		check "sd: the card's type SD" has_fact 'mmc.type=SD$'
		check "sd: the card's CID" has_fact 'mmc.cid=[0-9a-f]\{32\}$'
		check "sd: the card's CSD" has_fact 'mmc.csd=[0-9a-f]\{32\}$'
		check "sd: the bus timing or why not" sh -c "grep -q '^mmc.timing=\|^mmc.timing_why=not available: ' '$T/$b.health'"
		;;
	esac
	case $b in
	ahci|usb|uas|scsi)
		check "$b: the SCSI identity" sh -c "grep -q '^scsi.vendor=.' '$T/$b.health' && grep -q '^scsi.model=.' '$T/$b.health'" ;;
	esac
	grep -E '^(bus|sata_link|usb|mmc|scsi)[.=]' "$T/$b.health" | tr '\n' ' ' | sed "s/^/INFO: $b: /; s/\$/\\n/"
	# what reached the disk model: "W writes, F of them FUA; N flushes"
	wc=$(flat "$res" run_start | sed -n 's/^target\.write_cache=//p')
	fua=$(flat "$res" run_start | sed -n 's/^target\.fua=//p')
	got=$(sed -n 's/.*client gone: \([0-9]*\) writes, \([0-9]*\) of them FUA; \([0-9]*\) flushes.*/\1 \2 \3/p' "$res/diskmodel.log" 2>/dev/null)
	set -- $got
	info "$b: the guest's kernel: ${wc:-?} cache, fua ${fua:-?}; the model: ${1:-?} writes, ${2:-?} with FUA, ${3:-?} flushes"
	# QEMU flushes its drive itself as it exits (2 flushes): the guest's
	# are those beyond. The SD card's kernel believes in no volatile cache
	# and sends none: behind a cache, an SD card is a lying disk.
	if [ "$b" = sd ]; then
		check "sd: the guest believes the card has no volatile cache (write through) and sends no flush" \
			sh -c "[ '$wc' = 'write through' ] && [ '${3:-9}' -le 2 ]"
	else
		check "$b: the guest believes in a volatile cache (write back)" [ "$wc" = "write back" ]
		check "$b: the guest's flushes reach the model (more than QEMU's own 2)" [ "${3:-0}" -gt 2 ]
	fi
	[ "$fua" != false ] || check "$b: the guest sends no FUA, and no FUA write reaches the model" [ "${2:-x}" = 0 ]
done
summary

#!/bin/sh
# tests/qemu/zoned.sh: a zoned target in QEMU (qemu/run.sh --target-zoned:
# one NVMe controller, nsid 1 conventional, nsid 2 zoned through QEMU's ZNS
# emulation). First, without a boot (case argv): the launcher's misuse
# (another bus, a zone size that is no power of 2, a capacity above the
# zone size, --target-ns alone) and QEMU's argv (the controller and its
# two namespaces with their UUIDs). Then one brief boot (case boot: BRIEF,
# fs = btrfs,f2fs,ext4,xfs) on the zoned namespace of 2 GiB in zones of 64 MiB
# holding 48 MiB each:
#   the run_start target is the zoned namespace (found by its wwid), its zone model
#   host-managed, 32 zones of 64 MiB, capacity 48 MiB, all empty at the
#   start (BLKREPORTZONE); zoned_conv is the conventional namespace;
#   btrfs made natively (-O zoned) and f2fs with its metadata on the
#   conventional namespace (-m -c), each through every phase without an
#   error, fs_end ok; ext4 and xfs refused (fs_end refused, the reason naming
#   the host-managed zoned device), and the run ok (fs_refused 2); every record
#   passes fsbench log check; the report has the zoned table; the
#   conventional namespace's file holds f2fs's superblock.
# Inputs (environment): O (build output, absolute), BOARD (qemu-x86_64;
# another board is a SKIP), ZONED_TEST_ONLY (the cases: argv boot).
# Output: PASS/FAIL/SKIP lines and a summary; exit 1 on a failure. Work and
# results under $O/tests/qemu-zoned/.
set -eu

O=${O:?run through make check-qemu-zoned}
BOARD=${BOARD:-qemu-x86_64}
T=$O/tests/qemu-zoned
only=${ZONED_TEST_ONLY:-argv boot}
. tests/qemu/lib.sh

qemu_start 'qemu zoned tests' "zoned on $BOARD: the zoned namespace is QEMU's NVMe emulation on qemu-x86_64's board" jq
CONV=5a0e4a5e-0000-4000-8000-000000000001 ZONED=5a0e4a5e-0000-4000-8000-000000000002
# the namespaces' wwid in the guest (Linux 6.1): vendor, serial, model, nsid
WWID=nvme.1b36-667362656e63682d746172676574-51454d55204e564d65204374726c-0000000

# --- the launcher, without a boot -------------------------------------
if wanted argv; then
	: >"$T/none.img"
	for bad in '--target-zoned --target-bus ahci' '--target-zoned 3M' '--target-zoned 512K' \
		'--target-zoned 64M,capacity=65M' '--target-zoned 64M,max_open=x' '--target-zoned 64M,zones=3' \
		'--target-ns zoned' '--target-zoned --target-ns both' '--target-zoned --zoned-size 100M'; do
		# shellcheck disable=SC2086
		expect_rc 2 "options: $bad is misuse" sh qemu/run.sh --disk "$T/none.img" $bad
	done
	check "argv: TZONED: one controller, the conventional namespace nsid 1, the zoned one nsid 2" \
		argv zoned TZONED=zoned=true,zoned.zone_size=64M,zoned.zone_capacity=48M \
		ZUUID_CONV=$CONV ZUUID_ZONED=$ZONED
	check "argv: the namespaces, their UUIDs and the zoned properties" sh -c \
		"grep -qxF 'nvme,id=fsbench-ctrl,serial=fsbench-target' '$T/argv-zoned/qemu.argv' &&
		grep -qxF 'nvme-ns,drive=target,bus=fsbench-ctrl,nsid=1,uuid=$CONV' '$T/argv-zoned/qemu.argv' &&
		grep -qxF 'nvme-ns,drive=zoned,bus=fsbench-ctrl,nsid=2,uuid=$ZONED,zoned=true,zoned.zone_size=64M,zoned.zone_capacity=48M' '$T/argv-zoned/qemu.argv' &&
		grep -q '^file=$T/argv-zoned/zoned.img,format=raw,if=none,id=zoned,' '$T/argv-zoned/qemu.argv' &&
		! grep -qxF 'nvme,drive=target,serial=fsbench-target' '$T/argv-zoned/qemu.argv'"
	check "argv: cmdline.sh without TZONED" argv plain
	check "argv: without TZONED the target is one NVMe disk" sh -c \
		"grep -qxF 'nvme,drive=target,serial=fsbench-target' '$T/argv-plain/qemu.argv' &&
		! grep -q nvme-ns '$T/argv-plain/qemu.argv'"
fi

wanted boot || { summary; exit $?; }
made build.log host image ROOTFS=ext4 || { summary; exit 1; }
res=$T/boot
set +e
sh qemu/run.sh --disk "$IMG/disk-ext4.img" --results "$res" --quiet --keep --criteria none \
	--profile smoke --timeout 600 --target-size 2G --target-zoned 64M,capacity=48M \
	--append "$BRIEF fsbench.fs=btrfs,f2fs,ext4,xfs" >"$T/boot.out" 2>&1
rc=$?
set -e
work=$(sed -n 's/^ *work folder: *//p' "$res/run.txt" 2>/dev/null)
info "boot: launcher exit $rc, $(grep -E 'total run time' "$res/run.txt" 2>/dev/null | sed 's/^ *//')"
check "boot: the launcher exits 0 (the run is ok: a refused column does not fail it)" [ "$rc" = 0 ]
check "boot: the target is the zoned namespace (nsid 2), found by its wwid" \
	has "$res" run_start target.wwn="${WWID}2" config.target="wwn:${WWID}2"
check "boot: its zone model: host-managed, 32 zones of 64 MiB, no open or active limit" \
	has "$res" run_start target.zoned.model=host-managed target.zoned.zone_bytes=67108864 \
	target.zoned.zones=32 target.zoned.max_open_zones=0 target.zoned.max_active_zones=0
check "boot: its zones (BLKREPORTZONE): 32 sequential-write-required, all empty, 48 MiB each" \
	has "$res" run_start target.zoned.report.seq_required=32 target.zoned.report.conventional=0 \
	target.zoned.report.cond_empty=32 target.zoned.report.written_bytes=0 \
	target.zoned.report.capacity_min_bytes=50331648 target.zoned.report.capacity_max_bytes=50331648
check "boot: zoned_conv is the conventional namespace (zone model none)" \
	has "$res" run_start zoned_conv.wwn="${WWID}1" zoned_conv.zoned.model=none
check "boot: btrfs made in its zoned mode on the zoned namespace" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' fs_start fs zoned_mode mkfs.argv |
	grep -q '^btrfs	native	.*mkfs.btrfs -f -q -O zoned -d single -m single /dev/nvme'"
cdev=$(rec "$res" run_start zoned_conv.path | tail -n 1)
zdev=$(rec "$res" run_start target.path | tail -n 1)
check "boot: f2fs made on the conventional namespace ($cdev), the zoned one ($zdev) beside it" \
	has "$res" fs_start fs=f2fs "zoned_mode=metadata on conventional device" device="$cdev" zoned_device="$zdev"
check "boot: f2fs's mkfs: -m -c ZONED CONV" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' fs_start fs mkfs.argv | grep -qx 'f2fs	.*mkfs.f2fs -f -q -m -c $zdev $cdev'"
for fs in btrfs f2fs; do
	check "boot: $fs: fs_end ok" has "$res" fs_end fs=$fs status=ok
	check "boot: $fs: every phase of round 1 once, no error, no verification failure" sh -c \
		"n=\$(sh qemu/records.sh '$res/records.jsonl' phase fs round errors verify_errors | grep -c '^$fs	1	0	0\$');
		[ \"\$n\" -ge 5 ] && [ \"\$(sh qemu/records.sh '$res/records.jsonl' phase fs | grep -c '^$fs\$')\" = \"\$n\" ]"
done
check "boot: ext4 refused: fs_end refused, the reason names the host-managed zoned device" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' fs_end fs status reason |
	grep -q '^ext4	refused	ext4 on /dev/nvme[0-9n]*: a host-managed zoned device (sequential writes only, zones of 64 MiB): ext4 has no zoned mode'"
check "boot: ext4 was never made (no fs_start for it, one for btrfs and f2fs)" sh -c \
	"[ \"\$(sh qemu/records.sh '$res/records.jsonl' fs_start fs | tr '\n' ' ')\" = 'btrfs f2fs ' ]"
check "boot: xfs refused: its zoned mode is newer than this kernel" sh -c \
	"sh qemu/records.sh '$res/records.jsonl' fs_end fs status reason |
	grep -q '^xfs	refused	xfs on /dev/nvme[0-9n]*: a host-managed zoned device (sequential writes only, zones of 64 MiB): XFS writes in place here: its zoned mode (Linux 6.15 and xfsprogs 6.15 or later) is not one fsbench makes (kernel 6.1'"
check "boot: run_end ok, 2 filesystems ok, none failed, 2 refused" \
	has "$res" run_end status=ok fs_ok=2 fs_failed=0 fs_refused=2
check "boot: no error record" sh -c "[ -z \"\$(sh qemu/records.sh '$res/records.jsonl' error type)\" ]"
check "boot: every record passes fsbench log check" sh -c \
	"[ -s '$res/records.jsonl' ] && '$FSB' log check '$res/records.jsonl'"
check "boot: the report's zoned table: the target's zones, the columns" sh -c \
	"grep -q '^## Zoned target' '$res/report.md' &&
	grep -q 'host-managed: 32 zones of 64.0 MiB, capacity 48.0 MiB' '$res/report.md' &&
	grep -q 'refused: ext4 on' '$res/report.md'"
check "boot: the conventional namespace holds f2fs's superblock (metadata), the zoned one no ext4" sh -c \
	"[ \"\$(od -An -tx1 -j1024 -N4 '$work/target.img' | tr -d ' ')\" = 1020f5f2 ] &&
	[ \"\$(od -An -tx1 -j1080 -N2 '$work/zoned.img' | tr -d ' ')\" != 53ef ]"
[ -z "$work" ] || rm -rf "$work"
summary

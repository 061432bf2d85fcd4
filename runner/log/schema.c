/* schema.c: the record schema table (log/schema.h). One row per record
 * type, one row per field; nested objects are shapes of their own. A field
 * name is K(name) (log/fields.h), so a name the list does not hold does not
 * compile. Adding a record: a name in FSB_REC_TYPES, its fields' names in
 * FSB_FIELD_NAMES, a shape and a row here, a loader hook in report/load/ if
 * the report reads it; `make docs` writes FORMATS.md's tables. */
#include <string.h>

#include "log/schema.h"

#define I FSB_J_INT
#define N FSB_J_NUM
#define S FSB_J_STR
#define B FSB_J_BOOL
#define OB FSB_J_OBJ
#define AI FSB_J_ARR_INT
#define AN FSB_J_ARR_NUM
#define AO FSB_J_ARR_OBJ

/* A field: required (R) or optional (O); types, unit, meaning; with a
 * shape (RS, OS) for an object or an array of objects. */
/* (# and ## straight in the row, so that a name that is also a macro,
 * errno, is not expanded) */
#define R(n, t, u, m) { &#n[0 * FSB_K_##n], (t), 1, 1, u, NULL, m }
#define O(n, t, u, m) { &#n[0 * FSB_K_##n], (t), 0, 1, u, NULL, m }
#define RS(n, t, sub, m) { &#n[0 * FSB_K_##n], (t), 1, 1, "", &sub, m }
#define OS(n, t, sub, m) { &#n[0 * FSB_K_##n], (t), 0, 1, "", &sub, m }
#define SHAPE(name, ...) \
	static const struct fsb_field name##_f[] = { __VA_ARGS__ }; \
	static const struct fsb_shape name = { name##_f, sizeof(name##_f) / sizeof(name##_f[0]), 0 }

static const struct fsb_field common_f[] = {
	R(schema, I, "", "the schema version, 1"),
	R(type, S, "", "the record type (the rows below)"),
	R(run_id, S, "", "the run, 16 hex digits"),
	R(seq, I, "", "the record's number within the run: 0, 1, 2, ..."),
	R(t, N, "s", "seconds since the run started"),
	O(rep, I, "", "the repetition (setting `repeat`), from 1: in every record of the repetitions when `repeat` is not 1 (the columns' records, their phases, errors and evidence); absent means 1"),
};
const struct fsb_shape fsb_rec_common = { common_f, sizeof(common_f) / sizeof(common_f[0]), 0 };


/* ---- run_start ---- */
SHAPE(dmi,
	O(sys_vendor, S, "", "/sys/class/dmi/id/sys_vendor"),
	O(product_name, S, "", "/sys/class/dmi/id/product_name"),
	O(board_vendor, S, "", "/sys/class/dmi/id/board_vendor"),
	O(board_name, S, "", "/sys/class/dmi/id/board_name"),
	O(bios_vendor, S, "", "/sys/class/dmi/id/bios_vendor"),
	O(bios_version, S, "", "/sys/class/dmi/id/bios_version"),
	O(bios_date, S, "", "/sys/class/dmi/id/bios_date"));
SHAPE(host,
	O(hostname, S, "", "the host name"),
	O(kernel, S, "", "`uname -r` of the kernel the runner runs on, e.g. `6.1.0-57-amd64` (a kernel of your own shows its own)"),
	O(kernel_build, S, "", "`uname -v`, e.g. `#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)`"),
	O(machine, S, "", "`uname -m`"),
	R(cpu_model, S, "", "the CPU's model name"),
	R(cpus, I, "", "the online CPUs (in QEMU the guest's vCPUs)"),
	R(mem_bytes, I, "bytes", "the memory the kernel sees (in QEMU the guest's)"),
	RS(dmi, OB, dmi, "the machine's DMI strings the kernel has (x86, UEFI arm64)"),
	O(dt_model, S, "", "the device tree's model (boards without DMI)"));
SHAPE(dlfeat,
	R(raw, I, "", "the DLFEAT byte of Identify Namespace (byte 33)"),
	R(read, S, "", "what a read of a deallocated block returns (bits 2:0): `not reported`, `zeroes`, `ones`, `reserved`"),
	R(write_zeroes_dealloc, B, "", "bit 3: Write Zeroes may deallocate (the DEAC bit)"),
	R(guard_crc, B, "", "bit 4: a deallocated block's guard field is the CRC of its data"));
SHAPE(discard,
	O(granularity, I, "bytes", "`queue/discard_granularity` (the whole disk's for a partition): 0 when the device does not discard"),
	O(max_bytes, I, "bytes", "`queue/discard_max_bytes`: the most one discard may cover, as the kernel sends it"),
	O(max_hw_bytes, I, "bytes", "`queue/discard_max_hw_bytes`: the device's own limit"),
	O(write_zeroes_max_bytes, I, "bytes", "`queue/write_zeroes_max_bytes` (0: no Write Zeroes; also 0 before Linux 4.10)"),
	O(limits, S, "", "instead of the four limits when they could not be read: `not available: REASON`"),
	RS(dlfeat, OB | S, dlfeat, "NVMe: DLFEAT from Identify Namespace (admin passthrough, opcode 0x06, CNS 0), or `not available: REASON` (not an NVMe disk, the passthrough refused)"));
SHAPE(zone_report,
	R(zones, I, "", "the zones reported"),
	R(conventional, I, "", "conventional zones (random writes allowed)"),
	R(seq_required, I, "", "sequential-write-required zones"),
	R(seq_preferred, I, "", "sequential-write-preferred zones (host-aware)"),
	R(cond_empty, I, "", "sequential zones empty"),
	R(cond_open, I, "", "sequential zones open (implicitly or explicitly)"),
	R(cond_closed, I, "", "sequential zones closed"),
	R(cond_full, I, "", "sequential zones full"),
	R(cond_readonly, I, "", "sequential zones read-only"),
	R(cond_offline, I, "", "sequential zones offline"),
	R(written_bytes, I, "bytes", "what the sequential zones' write pointers say is written (a full zone: its capacity)"),
	O(capacity_min_bytes, I, "bytes", "the smallest capacity of a sequential zone (a ZNS zone may hold less than its size); absent when the kernel does not report capacities"),
	O(capacity_max_bytes, I, "bytes", "the largest"));
SHAPE(zoned,
	R(model, S, "", "`queue/zoned`: `none`, `host-aware` (zones, random writes still accepted) or `host-managed` (sequential writes only: ext4 and XFS are refused)"),
	O(zone_bytes, I, "bytes", "`queue/chunk_sectors` x 512: the zone size"),
	O(zones, I, "", "`queue/nr_zones`"),
	O(max_open_zones, I, "", "`queue/max_open_zones` (0: no limit)"),
	O(max_active_zones, I, "", "`queue/max_active_zones` (0: no limit)"),
	O(limits, S, "", "instead of the two limits when the kernel has neither (before Linux 5.9): `not available: REASON`"),
	OS(report, OB | S, zone_report, "the zones as `BLKREPORTZONE` gives them, or `not available: REASON`"));
SHAPE(target,
	R(path, S, "", "the target as named (`\"\"` for a refused device, the directory with `--dir`); the only field of a run without a resolved disk"),
	O(name, S, "", "the kernel's name of the disk (`nvme0n1`)"),
	O(dev, S, "", "major:minor"),
	O(size_bytes, I, "bytes", "its size"),
	O(model, S, "", "the disk's model"),
	O(serial, S, "", "the disk's serial number"),
	O(firmware, S, "", "the disk's firmware revision"),
	O(wwn, S, "", "the disk's world wide name"),
	O(transport, S, "", "`nvme`, `sata`, `usb`, `virtio`, `loop`, ..."),
	O(partition, B, "", "the target is a partition"),
	O(partlabel, S, "", "the partition's GPT name"),
	O(rotational, I, "", "1 for a spinning disk"),
	O(logical_block, I, "bytes", "the logical block size"),
	O(physical_block, I, "bytes", "the physical block size"),
	O(write_cache, S, "", "the cache the kernel believes the disk has (`queue/write_cache`): `write back` (volatile: the kernel sends flushes) or `write through`"),
	O(fua, B, "", "the kernel sends writes with FUA (force unit access) to the disk (`queue/fua`); without it a write that must be durable is followed by a flush"),
	O(loop_backing_file, S, "", "a loop device's backing file"),
	O(loop_direct_io, B, "", "a loop device with direct I/O on"),
	O(pcie_link_speed, S, "", "the PCIe link's speed as sysfs writes it"),
	O(pcie_link_width, S, "", "the PCIe link's width"),
	OS(discard, OB, discard, "what the disk's discard (TRIM, deallocate) offers and promises, in `run_start` (setting `fstrim`)"),
	OS(zoned, OB | S, zoned, "the disk's zone model (a zoned block device: host-managed SMR, ZNS NVMe): model, zone size and count, open and active limits, and for a zoned disk its zones; `not available: REASON` when `queue/zoned` cannot be read"));
static const struct fsb_shape config_shape = { NULL, 0, 1 };
SHAPE(run_start,
	R(tool, S, "", "`fsbench`"),
	R(version, S, "", "the runner's version"),
	R(mode, S, "", "`device` or `dir`"),
	R(time_unix, I, "s", "the wall clock at the start, seconds since 1970"),
	RS(host, OB, host, "the machine the runner runs on"),
	RS(target, OB, target, "the disk under test"),
	OS(zoned_conv, OB, target, "the conventional device of setting `zoned_conv` beside a host-managed zoned target (f2fs keeps its metadata there), with the same facts as `target`"),
	OS(config, OB, config_shape, "every setting with its value (`fsbench config --show`): the keys of SETTINGS.md's table, `mkfs_opts.FS`, `mount_opts.FS`, `variant.FS:NAME`"),
	O(log, S, "", "the results log's device or file"),
	O(kmsg, S, "", "`/dev/kmsg` when the kernel log is read, or `not available: /dev/kmsg: REASON` (e.g. `Operation not permitted` without `CAP_SYSLOG` when `kernel.dmesg_restrict` is 1; the run goes on)"),
	O(kmsg_clock_offset_us, I, "us", "the kernel log's clock minus `CLOCK_MONOTONIC`: measured at run start with one info-level line, `fsbench: kernel log read from here on`, written to `/dev/kmsg` and read back (the two clocks drift apart while a machine is up)"),
	O(kmsg_clock, S, "", "instead of `kmsg_clock_offset_us` when it could not be measured: why (e.g. `writing /dev/kmsg: Permission denied`); the phases' bounds are then taken as `CLOCK_MONOTONIC` gives them"));

SHAPE(note, R(msg, S, "", "what the runner has to say"));

/* ---- filesystems ---- */
SHAPE(mkfs_obj,
	R(path, S, "", "the mkfs tool run"),
	R(argv, S, "", "the command as run: the defaults, `mkfs_opts.FS`, a variant's arguments, the device"),
	R(version, S, "", "the tool's version line"),
	R(seconds, N, "s", "what the mkfs took"));
SHAPE(variant,
	R(name, S, "", "the column (`f2fs:s4z4`)"),
	R(base, S, "", "its filesystem (`f2fs`)"),
	R(mkfs, S, "", "its mkfs arguments (`-s 4 -z 4`; `\"\"` for none)"),
	R(mount, S, "", "its mount options (`\"\"` for none)"),
	O(sysfs, S, "", "its sysfs knobs, written after every mount (`mb_stream_req=0`); absent for none"),
	R(source, S, "", "`built in`, or where its setting is: `config file my.conf:3`, `kernel command line`, `command line --variant.f2fs:s4z4`"),
	O(unsafe, S, "", "a built-in variant marked unsafe: why (`nobarrier`: acknowledged writes may be lost on a power cut); absent for the others"));
SHAPE(mountinfo,
	O(type, S, "", "the filesystem type"),
	O(source, S, "", "the device"),
	O(opts, S, "", "the mount's options (`rw,noatime`)"),
	O(super_opts, S, "", "the filesystem's options (`rw,compress=zstd:3,...`)"),
	O(error, S, "", "instead of the others when it could not be read"));
SHAPE(fs_start,
	R(fs, S, "", "the column: a filesystem (`ext4`) or a variant (`f2fs:s4z4`)"),
	O(device, S, "", "the device it is made on (device mode)"),
	O(dir, S, "", "the directory (`--dir` mode), instead of `device`"),
	R(support, S, "", "how the kernel supports it (`built in`, `module NAME`, or the directory mode's `existing directory: ...`)"),
	O(mount_opts, S, "", "the mount options as given to mount: `mount_opts.FS`, then the variant's, joined by a comma (`nodiratime,noatime`)"),
	O(mnt, S, "", "the mount point"),
	OS(variant, OB, variant, "only for a variant ([Variants in the records](#variants-in-the-records))"),
	OS(mkfs, OB, mkfs_obj, "the mkfs as run"),
	OS(mountinfo, OB, mountinfo, "the mount as the kernel reports it in `/proc/self/mountinfo`, read right after the first mount (before this record is written); every column has it, a variant or not"),
	O(zoned_mode, S, "", "on a host-managed zoned target: how the filesystem uses it: `native` (btrfs, `mkfs.btrfs -O zoned`: the whole filesystem on the zoned device) or `metadata on conventional device` (f2fs, `mkfs.f2fs -m -c ZONED CONV`: `device` is the conventional device of setting `zoned_conv`, holding the metadata, the mount's source)"),
	O(zoned_device, S, "", "the zoned target, when `device` is the conventional device beside it (f2fs)"),
	O(cleaner, S, "", "the filesystem's cleaner started beside each read-write mount, as its mount helper would (nilfs2: `nilfs_cleanerd DEV MNT`, as mount.nilfs2 runs it), the command as run, or `not running` when it could not start (an `error` record says why); absent for a filesystem without one"));
SHAPE(fs_end,
	R(fs, S, "", "the column"),
	R(status, S, "", "`ok`, `failed`, `skipped` (the kernel lacks the filesystem, its mkfs is not in the image), `refused` (the target cannot hold it: ext4 or XFS on a host-managed zoned device, f2fs there without `zoned_conv`; the run does not fail for it)"),
	R(reason, S, "", "why it failed, was skipped or refused (`\"\"` when ok)"));
SHAPE(mkfs,
	R(fs, S, "", "the column"),
	R(for, S, "", "`fio`, `fill`, `sustain` or `fileserver`"),
	RS(mkfs, OB, mkfs_obj, "the mkfs as run"));

/* ---- phases ---- */
SHAPE(phase_start,
	R(fs, S, "", "the column"),
	R(round, I, "", "the round, from 1"),
	R(phase, S, "", "the phase about to run"));
SHAPE(lat_ns,
	R(p50, I, "ns", "median latency of one operation (one file)"),
	R(p90, I, "ns", "90th percentile"),
	R(p99, I, "ns", "99th percentile"),
	R(p999, I, "ns", "99.9th percentile"),
	R(max, I, "ns", "the longest"),
	R(mean, I, "ns", "the mean"),
	R(ops, I, "", "operations timed"));
SHAPE(walk,
	R(dir, S, "", "`d0000`"),
	R(index, AI, "", "the first 16 files of d0000 in the order the phase visited them: file numbers (f0000042 is 42)"),
	O(inode, AI, "", "their inode numbers, for the phases that list the directory"));
SHAPE(phase,
	R(fs, S, "", "the column"),
	R(round, I, "", "from 1 (round 1 is the fresh mkfs)"),
	R(phase, S, "", "`create`, `stat`, `read` (file-name order), `read_inode` (readdir entries sorted by inode number), `delete`; the optional `rewrite`, `read_after_rewrite`, `fstrim`, `sqlite_*`, `pack_*`"),
	R(order, S, "", "`name`, `inode` or `readdir` (`shuffled` for `create` with `create_order = shuffled`; `none` for `fstrim`)"),
	R(cold, B, "", "the phase ran on a fresh mount"),
	O(lockstep, B, "", "`create` with `create_lockstep`: the workers took turns file by file"),
	O(cpu_policy, S, "", "`create` with `create_cpu` not `free`: `pinned` or `migrate`"),
	O(cpus_used, I, "", "with `cpu_policy`: the CPUs the workers created files on"),
	O(after_aging, B, "", "`true` in the rounds that ran again after the file server's aging (`fileserver_aged` with `smallfile`): rounds `rounds` + 1 to 2 x `rounds`, on the fragmented filesystem"),
	R(seconds, N, "s", "from the first worker's start to the last worker's end, plus the `syncfs` for `create` and `delete`"),
	R(files, I, "", "files done"),
	R(bytes, I, "bytes", "bytes written or read"),
	R(files_per_s, N, "1/s", "`files / seconds`"),
	R(mib_per_s, N, "MiB/s", "`bytes / seconds`"),
	RS(lat_ns, OB, lat_ns, "per-file latency"),
	R(errors, I, "", "errors (each also an `error` record, up to a limit)"),
	R(verify_errors, I, "", "files whose bytes did not check out"),
	R(verified, B, "", "every byte read was checked"),
	R(workers, I, "", "worker processes"),
	R(worker_seconds, AN, "s", "each worker's time"),
	O(sync_seconds, N, "s", "the timed `syncfs` (create, delete, the `_write` and `_delete` phases)"),
	R(span_seconds, N, "s", "first worker start to last worker end: `seconds` without the sync"),
	OS(walk, OB, walk, "the order the phase really went"),
	O(mnt_id, I, "", "statx: the mount the phase ran on"),
	O(mnt_id_unique, B, "", "`mnt_id` is unique (a new one after every remount, Linux 6.8+)"),
	O(timed_out, B, "", "the phase hit `phase_timeout`"),
	O(trim, S, "", "`fstrim` only: `ok`, or `not supported: REASON` (the filesystem or its device does not discard: not an error) or the error. Its `bytes` are what FITRIM reports it trimmed, `seconds` the one FITRIM call, `files` and `workers` 0"));
SHAPE(verify_error,
	R(fs, S, "", "the column"),
	R(round, I, "", "the round"),
	R(phase, S, "", "the phase"),
	R(file, S, "", "`d0003/f0000042`"),
	R(what, S, "", "`verify` (a byte differs), `size`"),
	R(offset, I, "bytes", "the first byte that differs"),
	R(count, I, "bytes", "how many differ"));
SHAPE(disk,
	R(path, S, "", "the disk"),
	R(model, S, "", "its model"),
	R(serial, S, "", "its serial"),
	R(size_bytes, I, "bytes", "its size"),
	R(transport, S, "", "its bus"),
	O(partlabel, S, "", "a partition's GPT name"));
SHAPE(error,
	O(fs, S, "", "the column (absent outside a filesystem)"),
	O(round, I, "", "the round (absent outside one)"),
	O(phase, S, "", "the phase, or a stage of the fio workloads and the fill (`fio_WORKLOAD`, `fill_before`, `fill_after`, `fill`, `delete`, `rewrite`)"),
	R(op, S, "", "what failed: `open`, `write`, `mkfs`, `mount`, `worker`, `target`, `log`, `fio`, `db_insert`, ..."),
	O(file, S, "", "the file, directory or device"),
	R(errno, I, "", "the errno (0 when none applies)"),
	R(msg, S, "", "what happened"),
	R(fatal, B, "", "the filesystem (or the run) stopped there"),
	O(worker, I, "", "a worker that died (`op` `worker`): its number"),
	O(signal, I, "", "the signal that killed it"),
	O(exit_status, I, "", "or its exit status"),
	O(refused, B, "", "a refusal of the target"),
	OS(disks, AO, disk, "a refusal's every disk seen"));

/* ---- evidence ---- */
SHAPE(layout_order,
	R(steps, I, "", "consecutive pairs of mapped files"),
	R(forward, N, "", "fraction of consecutive files whose data is at a higher disk offset"),
	R(near, N, "", "fraction starting within 64 KiB after the previous file's end (a sequential read)"),
	R(median_jump_blocks, I, "4 KiB blocks", "median distance between consecutive files"));
SHAPE(layout,
	R(fs, S, "", "the column"),
	R(round, I, "", "the round"),
	R(dir, S, "", "`d0000`"),
	O(error, S, "", "instead of the numbers, without FIEMAP: `no FIEMAP on this filesystem`"),
	O(files, I, "", "files in the directory"),
	O(mapped, I, "", "files with data mapped"),
	O(inline, I, "", "files with inline data"),
	O(extents_mean, N, "", "extents per file, mean"),
	O(extents_max, I, "", "extents per file, most"),
	OS(name_order, OB, layout_order, "where d0000's files sit on the disk in file-name order"),
	OS(inode_order, OB, layout_order, "in inode order"),
	O(first_blocks, AI, "4 KiB blocks", "the first files' block numbers, name order"),
	O(name_blocks, AI, "4 KiB blocks", "the picture of the HTML report: the block number of the file at place i x `files` / 256 in name order (every file when there are 256 or fewer; unmapped files left out)"),
	O(inode_blocks, AI, "4 KiB blocks", "the same in inode order"));
SHAPE(statfs,
	R(block_size, I, "bytes", "`f_bsize`"),
	R(size_bytes, I, "bytes", "the filesystem's size"),
	R(free_bytes, I, "bytes", "free"),
	R(avail_bytes, I, "bytes", "available to a user"));
SHAPE(free_extents,
	O(error, S, "", "why the part could not be read (a kernel without GETFSMAP); instead of the numbers"),
	O(source, S, "", "`GETFSMAP`"),
	O(count, I, "", "free extents: the free space as the kernel's space map (`FS_IOC_GETFSMAP`) lists it, adjacent free records merged"),
	O(free_bytes, I, "bytes", "their sum"),
	O(mean_bytes, I, "bytes", "mean extent"),
	O(largest_bytes, I, "bytes", "the largest"));
SHAPE(defrag,
	O(error, S, "", "why it could not be read (`e4defrag` missing)"),
	O(source, S, "", "`e4defrag -c`"),
	O(score, I, "", "0-30: no problem, 31-55: a little fragmented, 56 and up: needs defrag"),
	O(extents_now, I, "", "the files' extents now"),
	O(extents_best, I, "", "and at best"));
SHAPE(btrfs_profile,
	R(type, S, "", "`Data`, `Metadata`, `System`"),
	R(profile, S, "", "`single`, `DUP`, ..."),
	R(size, I, "bytes", "allocated to it"),
	R(used, I, "bytes", "used of it"));
SHAPE(btrfs,
	O(error, S, "", "why it could not be read"),
	O(source, S, "", "`/sys/fs/btrfs/FSID/allocation`: the btrfs whose `devices/` holds the target; the numbers `btrfs filesystem usage -b` prints, from the same counters (the boot image needs no btrfs tool)"),
	O(device_size, I, "bytes", "the devices' sizes (`/sys/class/block/DEV/size`)"),
	O(allocated, I, "bytes", "the sum of each chunk type's `disk_total`"),
	O(unallocated, I, "bytes", "`device_size` - `allocated`"),
	O(used, I, "bytes", "the sum of each chunk type's `disk_used`"),
	O(free_estimated, I, "bytes", "the data chunks' free bytes plus the unallocated space at the data profile's ratio"),
	OS(profiles, AO, btrfs_profile, "one per chunk type"));
SHAPE(f2fs,
	O(error, S, "", "why it could not be read"),
	O(source, S, "", "`/proc/fs/f2fs/DEV/segment_info, /sys/fs/f2fs/DEV/`"),
	O(blocks_per_segment, I, "", "blocks in a segment"),
	O(segments, I, "", "the main area's segments"),
	O(empty_segments, I, "", "with no valid block"),
	O(full_segments, I, "", "with every block valid"),
	O(partial_segments, I, "", "partly valid: what garbage collection must move"),
	O(partial_valid_blocks, I, "", "valid blocks in those"),
	O(free_segments, I, "", "`/sys/fs/f2fs/DEV/free_segments` (each of these when the kernel has it)"),
	O(dirty_segments, I, "", "sysfs `dirty_segments`"),
	O(ovp_segments, I, "", "sysfs `ovp_segments`"),
	O(reserved_blocks, I, "", "sysfs `reserved_blocks`"),
	O(gc_background_calls, I, "", "sysfs `gc_background_calls`"),
	O(gc_foreground_calls, I, "", "sysfs `gc_foreground_calls`"),
	O(moved_blocks_background, I, "", "sysfs `moved_blocks_background`"),
	O(moved_blocks_foreground, I, "", "sysfs `moved_blocks_foreground`"),
	O(unusable, I, "", "sysfs `unusable`"));
SHAPE(nilfs2,
	O(error, S, "", "why it could not be read"),
	O(source, S, "", "`/sys/fs/nilfs2/DEV/`"),
	O(segments, I, "", "`segments/segments_number`: the segments of the volume"),
	O(blocks_per_segment, I, "", "`segments/blocks_per_segment`"),
	O(clean_segments, I, "", "`segments/clean_segments`: free to write; only the cleaner (`nilfs_cleanerd`) makes more"),
	O(dirty_segments, I, "", "`segments/dirty_segments`: holding data, live or not"),
	O(checkpoints, I, "", "`checkpoints/checkpoints_number`: the checkpoints kept (the cleaner removes those past its protection period)"));
SHAPE(freespace,
	R(fs, S, "", "the column"),
	R(round, I, "", "the round"),
	OS(statfs, OB, statfs, "`statfs` of the mount"),
	OS(free_extents, OB, free_extents, "ext4, XFS"),
	OS(defrag, OB, defrag, "ext4"),
	OS(btrfs, OB, btrfs, "btrfs"),
	OS(f2fs, OB, f2fs, "f2fs: from `/proc/fs/f2fs/DEV/segment_info` and `/sys/fs/f2fs/DEV/`"),
	OS(nilfs2, OB, nilfs2, "nilfs2: from `/sys/fs/nilfs2/DEV/`"),
	R(seconds, N, "s", "what reading it took (untimed for the phases)"));
SHAPE(kmsg,
	O(fs, S, "", "the column of the phase or gap (absent outside a filesystem)"),
	O(round, I, "", "its round (absent before the first phase)"),
	R(phase, S, "", "the phase whose time span (from just before its `phase_start` record to the end of its workers and its sync) holds `ts_usec`, or `between` (a mkfs, a mount, a remount, the layout map)"),
	R(ts_usec, I, "us", "the kernel's timestamp as `/dev/kmsg` gives it (its local clock; the phases' bounds are moved onto it by run_start's `kmsg_clock_offset_us`)"),
	R(level, I, "", "0 emerg .. 4 warning"),
	R(facility, I, "", "0 the kernel, 1 a program that wrote to `/dev/kmsg`"),
	R(kernel_seq, I, "", "its sequence number in `/dev/kmsg`"),
	R(text, S, "", "the message's first line, its `\\xHH` escapes decoded (bytes that are not UTF-8 become `?`), at most 1023 bytes"),
	O(cut, B, "", "`true` when the line was longer"));
SHAPE(kmsg_dropped,
	O(fs, S, "", "as in `kmsg`"),
	O(round, I, "", "as in `kmsg`"),
	R(phase, S, "", "as in `kmsg`"),
	R(count, I, "", "more messages at warning level or above in that phase or gap than the `max` that are recorded; several for one phase add up"),
	R(max, I, "", "the records kept per phase or gap (32, `FSB_KMSG_MAX` in `run/evidence/kmsg.h`)"));

/* ---- health ---- */
#define SMART_COUNTERS(U) \
	R(data_units_read, I | S, "1000 x 512 bytes", U), \
	R(data_units_written, I | S, "1000 x 512 bytes", U), \
	R(host_read_commands, I | S, "", U), \
	R(host_write_commands, I | S, "", U), \
	R(controller_busy_time_min, I | S, "min", U), \
	R(power_cycles, I | S, "", U), \
	R(power_on_hours, I | S, "h", U), \
	R(unsafe_shutdowns, I | S, "", U), \
	R(media_errors, I | S, "", "media and data integrity errors; " U), \
	R(error_log_entries, I | S, "", U), \
	O(bytes_read, I, "bytes", "data units read x 512,000 (left out beyond 64 bits)"), \
	O(bytes_written, I, "bytes", "data units written x 512,000 (left out beyond 64 bits)")
SHAPE(nvme_smart,
	R(critical_warning, I, "", "bit field"),
	R(temperature_k, I, "K", "composite temperature"),
	R(available_spare, I, "%", "available spare"),
	R(available_spare_threshold, I, "%", "its threshold"),
	R(percentage_used, I, "%", "life used"),
	SMART_COUNTERS("a 128-bit counter: one beyond 64 bits is written as a string of its decimal digits"));
SHAPE(ata_attr,
	R(id, I, "", "the attribute's id"),
	R(current, I, "", "its normalized value"),
	R(worst, I, "", "the worst normalized value"),
	R(raw, I, "", "the 48-bit raw value"));
SHAPE(ata_smart,
	R(revision, I, "", "of the attribute table"),
	O(overall, S, "", "`passed`, or `failing` (a threshold exceeded); left out when the status could not be read"),
	O(reallocated_sectors, I, "", "raw value of id 5 (each named attribute left out when the disk has none; the 48-bit raw value as the disk gives it, some vendors pack more than a count in it)"),
	O(power_on_hours, I, "h", "id 9"),
	O(power_cycles, I, "", "id 12"),
	O(reported_uncorrectable, I, "", "id 187"),
	O(current_pending_sectors, I, "", "id 197"),
	O(offline_uncorrectable, I, "", "id 198"),
	O(udma_crc_errors, I, "", "id 199"),
	O(temperature_celsius, I, "°C", "id 194, the raw value's low byte"),
	R(error_count, I | S, "", "the summary error log's device error count, or its reason"),
	RS(attributes, AO, ata_attr, "every used entry of the table, in its order"));
SHAPE(pcie_link,
	R(device, S, "", "the first PCI device above the disk in sysfs with a trained link (`0000:01:00.0`)"),
	R(speed, S, "", "sysfs `current_link_speed`, as the kernel writes it"),
	R(width, S, "", "`current_link_width`"),
	R(max_speed, S, "", "`max_link_speed`"),
	R(max_width, S, "", "`max_link_width`"),
	R(at_max, B, "", "the link runs at its maximum speed and width"));
SHAPE(temperature,
	R(celsius, N, "°C", "the disk's temperature"),
	R(source, S, "", "`nvme smart log`, `ata smart attribute 194` (else `190`, the airflow temperature), or `hwmon NAME`"));
SHAPE(delta_nvme,
	SMART_COUNTERS("after minus before"),
	R(new_critical_warning, I, "", "bits set after that were not before"),
	R(percentage_used, I, "%", "signed difference"),
	R(available_spare, I, "%", "signed difference"),
	O(went_backwards, S, "", "comma-separated counters that went down (another disk or a reset; their difference is 0)"));
SHAPE(delta_ata,
	O(reallocated_sectors, I, "", "signed difference (each when both records have it)"),
	O(reported_uncorrectable, I, "", "signed difference"),
	O(current_pending_sectors, I, "", "signed difference (a pending sector that was reallocated goes down)"),
	O(offline_uncorrectable, I, "", "signed difference"),
	O(udma_crc_errors, I, "", "signed difference"),
	R(error_count, I | S, "", "signed difference, or its reason"));
SHAPE(flash,
	R(kind, S, "", "`emmc` (EXT_CSD, CMD8 through `MMC_IOC_CMD` on the whole `/dev/mmcblkN`) or `ufs` (the ufshcd driver's sysfs `health_descriptor/`, `device_descriptor/`, `string_descriptors/`)"),
	R(source, S, "", "where it was read"),
	R(life_a, S, "", "life time estimation A (JEDEC: eMMC EXT_CSD [268], UFS bDeviceLifeTimeEstA) as its band of life used: `0-10%` ... `90-100%`, `exceeded` (beyond the estimated life), `undefined` (0x00), `reserved 0xNN`; or `not available: REASON` (an eMMC before 5.0)"),
	O(life_a_raw, I, "", "its raw value"),
	O(life_a_pct_max, I, "%", "the band's upper bound, 10 .. 100 (left out for `exceeded`, `undefined`, reserved)"),
	R(life_b, S, "", "life time estimation B (EXT_CSD [269], bDeviceLifeTimeEstB), the same way (A and B are two kinds of cells; the vendor says which)"),
	O(life_b_raw, I, "", "its raw value"),
	O(life_b_pct_max, I, "%", "the band's upper bound"),
	R(pre_eol, S, "", "pre-EOL information (EXT_CSD [267], bPreEOLInfo), the reserved blocks used: `normal`, `warning` (80 %), `urgent` (90 %; UFS calls it critical), `undefined` (0x00), `reserved 0xNN`; or the reason"),
	O(pre_eol_raw, I, "", "its raw value"),
	O(spec, S, "", "the standard's version the device implements (`eMMC 5.1` from EXT_CSD_REV, `UFS 3.1` from wSpecVersion)"),
	O(ext_csd_rev, I, "", "eMMC: EXT_CSD_REV [192] (8: eMMC 5.1)"),
	O(hs_timing, S, "", "eMMC: the timing interface the host selected, HS_TIMING [185]: `legacy`, `HS` (high speed, SDR or DDR52: the DDR bit is in BUS_WIDTH [183], which a host cannot read back), `HS200`, `HS400` (the same for HS400 enhanced strobe)"),
	O(card_modes, S, "", "eMMC: the modes the device supports, DEVICE_TYPE [196]: `HS26`, `HS52`, `DDR52`, `DDR52_1.2V`, `HS200`, `HS200_1.2V`, `HS400`, `HS400_1.2V`, comma-separated"),
	O(strobe_support, B, "", "eMMC: STROBE_SUPPORT [184], HS400 enhanced strobe"),
	O(bkops, S, "", "eMMC: BKOPS_STATUS [246]: `not required`, `outstanding (non-critical)`, `outstanding (performance impacted)`, `outstanding (critical)`"),
	O(cache_kib, I, "KiB", "eMMC: CACHE_SIZE [249-252]"),
	O(cache_on, B, "", "eMMC: CACHE_CTRL [33], the cache is on"),
	O(boot_partition, S, "", "eMMC: the partition the device boots from, PARTITION_CONFIG [179]: `none`, `boot0`, `boot1`, `user`"),
	O(boot_kib, I, "KiB", "eMMC: each boot partition's size, BOOT_SIZE_MULT [226] x 128 KiB"),
	O(rpmb_kib, I, "KiB", "eMMC: the RPMB partition's size, RPMB_SIZE_MULT [168] x 128 KiB"),
	O(size_bytes, I, "bytes", "eMMC: the user area, SEC_COUNT [212-215] x 512 (left out on a device of 2 GB or less, which has none)"),
	O(firmware, S, "", "eMMC: FIRMWARE_VERSION [254-261], as text when printable, else 16 hex digits"),
	O(device_version, I, "", "eMMC: DEVICE_VERSION [262-263]"),
	O(manufacturer_id, S, "", "UFS: wManufacturerID as sysfs writes it"),
	O(manufacturer, S, "", "UFS: the manufacturer name string descriptor"),
	O(product, S, "", "UFS: the product name"),
	O(serial, S, "", "UFS: the serial number"),
	O(revision, S, "", "UFS: the product revision"));
SHAPE(delta_flash,
	O(life_a, S, "", "`BEFORE -> AFTER` when the band changed (each field only when it changed)"),
	O(life_b, S, "", "the same for life time estimation B"),
	O(pre_eol, S, "", "the same for the pre-EOL information"),
	O(bkops, S, "", "eMMC: the same for BKOPS_STATUS"),
	R(changed, I, "", "how many of these changed"));
SHAPE(delta,
	RS(nvme_smart, OB | S, delta_nvme, "the counters' differences, or the reason"),
	OS(ata_smart, OB | S, delta_ata, "only when a record tried ATA SMART; or the reason"),
	R(temperature_celsius, N | S, "°C", "the difference, or the reason"),
	O(pcie_link_changed, B, "", "the link's speed or width changed (when both records have a link)"),
	OS(flash, OB | S, delta_flash, "what changed in `flash`, or the reason there is no difference"));
SHAPE(sata_link,
	R(port, S, "", "the ATA port (`ata1`)"),
	R(speed, S, "", "the link's `sata_spd` as sysfs writes it (`6.0 Gbps`, `<unknown>`)"),
	O(speed_gbps, N, "Gbit/s", "the number in `speed`; left out when it has none"),
	R(limit, S, "", "`sata_spd_limit` (`<unknown>` when the port has no limit set)"));
SHAPE(usb,
	R(device, S, "", "the USB device's sysfs name (`2-1`)"),
	R(speed_mbps, N, "Mbit/s", "sysfs `speed`: 1.5, 12, 480, 5000, 10000, 20000"),
	R(version, S, "", "sysfs `version`, the USB version the device declares (`3.00`)"),
	R(transport, S, "", "`uas` (USB Attached SCSI) or `bot` (bulk-only, the usb-storage driver)"));
SHAPE(mmc,
	R(type, S, "", "`SD`, `MMC`, `SDIO`"),
	R(name, S, "", "the product name of the CID"),
	R(manfid, S, "", "the manufacturer id of the CID"),
	R(oemid, S, "", "the OEM/application id of the CID"),
	R(date, S, "", "the manufacturing date of the CID (`MM/YYYY`)"),
	R(serial, S, "", "the serial number of the CID"),
	R(cid, S, "", "the whole CID register, hex"),
	R(csd, S, "", "the whole CSD register, hex"),
	O(timing, S, "", "the bus timing the host runs the card at (`HS400`, `HS200`, `DDR52`, `SDR104`, `HS`, `legacy`), from debugfs mmcN/ios"),
	O(timing_why, S, "", "without `timing`: why it could not be read (`not available: ...`)"));
SHAPE(scsi,
	R(vendor, S, "", "sysfs `vendor` (`ATA` for a disk behind libata)"),
	R(model, S, "", "sysfs `model`"),
	R(rev, S, "", "sysfs `rev`"));
SHAPE(health,
	R(when, S, "", "`before`: after `run_start`, before the first filesystem; `after`: after the last filesystem, before `run_end`"),
	R(device, S, "", "the whole disk"),
	R(transport, S, "", "its bus"),
	RS(nvme_smart, OB | S, nvme_smart, "the SMART / health log (Get Log Page 0x02, whole controller), or `not available: REASON` (a loop device, `--dir` mode, not an NVMe disk, the passthrough refused: the reason says which); never a guessed value"),
	RS(ata_smart, OB | S, ata_smart, "a SATA disk, or a SAS/USB bridge passing ATA through (SMART READ DATA, READ LOG 0x01 and RETURN STATUS through ATA PASS-THROUGH (16)); or the reason (`not available: SMART READ DATA on /dev/sda: SCSI status 0x2, sense key 0x5, ASC 0x24 ASCQ 0x00`)"),
	RS(pcie_link, OB | S, pcie_link, "the disk's PCIe link, or the reason"),
	RS(temperature, OB | S, temperature, "the disk's temperature, or the reason"),
	OS(delta, OB, delta, "in the `after` record: after minus before"),
	OS(flash, OB | S, flash, "a managed flash target's wear and identity (an eMMC, a UFS device), or `not available: REASON` (every other target: an NVMe, SATA, SD, USB, virtio disk; an eMMC before 5.0 has the object with reasons for its life fields); QEMU 7.2 emulates neither an eMMC nor UFS"),
	O(bus, S, "", "the disk's bus, from its sysfs path and the driver above it: `nvme`, `sata`, `usb`, `mmc`, `scsi` (any other disk of the SCSI layer: virtio-scsi, SAS), `virtio` (virtio-blk), `other` (a loop device, `--dir`); the bus parts below in records from this version on"),
	OS(sata_link, OB | S, sata_link, "a disk behind an ATA port: its link, or the reason"),
	OS(usb, OB | S, usb, "a disk behind a USB mass-storage interface: the USB device, or the reason"),
	OS(mmc, OB | S, mmc, "an SD/MMC card: its registers from sysfs (/sys/block/mmcblkN/device/), or the reason"),
	OS(scsi, OB | S, scsi, "a disk of the SCSI layer (SATA, USB and SCSI disks): its identity from sysfs, or the reason"));

/* ---- stores ---- */
SHAPE(space,
	R(fs, S, "", "the column"),
	R(round, I, "", "the round"),
	R(phase, S, "", "`create`, `sqlite_write`, `pack_write`"),
	R(store, S, "", "`files`, `sqlite`, `pack`"),
	R(files, I, "", "the files stored"),
	R(bytes, I, "bytes", "their bytes"),
	O(used_before, I, "bytes", "the filesystem's used space before the phase, `statvfs` (`f_blocks` - `f_bfree`) x `f_frsize`"),
	O(used_after, I, "bytes", "after it, once the store has settled: after the next phase's fresh mount (XFS trims speculative preallocation by then), before its `phase_start`"),
	O(used_delta, I, "bytes", "`used_after` - `used_before` (signed)"),
	O(file, S, "", "the store's file (`fsbench.sqlite`, `fsbench.pack`)"),
	O(file_size, I, "bytes", "its size"),
	O(file_disk_bytes, I, "bytes", "`st_blocks` x 512 of it"),
	O(error, S, "", "why the file could not be read, instead of its sizes"),
	O(disk_bytes, I, "bytes", "what the store takes on disk: its file's blocks, or for `files` the `used_delta`"));
SHAPE(clat_ns,
	O(p50, I, "ns", "completion latency, median (the percentiles only where that direction did I/O)"),
	O(p90, I, "ns", "90th percentile"),
	O(p99, I, "ns", "99th percentile"),
	O(p999, I, "ns", "99.9th percentile"),
	R(mean, N, "ns", "the mean"));
SHAPE(fio_lat,
	R(mean, N, "ns", "submission + completion, mean"),
	R(max, I, "ns", "the longest"));
SHAPE(fio_dir,
	R(iops, N, "1/s", "I/O per second"),
	R(bw_bytes, I, "bytes/s", "bandwidth"),
	R(mib_per_s, N, "MiB/s", "bandwidth"),
	R(io_bytes, I, "bytes", "bytes moved"),
	R(ios, I, "", "I/Os done"),
	R(runtime_s, N, "s", "fio's runtime of the direction"),
	RS(clat_ns, OB, clat_ns, "completion latency"),
	RS(lat_ns, OB, fio_lat, "submission + completion"));
SHAPE(fio,
	R(fs, S, "", "a filesystem column, or `raw` for the target device"),
	R(workload, S, "", "`oltp`, `web`, `vm`, `randwrite`"),
	R(filename, S, "", "the file on the mount, or the device"),
	R(rw, S, "", "fio's option"),
	O(rwmixread, I, "%", "randrw only"),
	R(bs, S, "", "fio's option"),
	R(iodepth, I, "", "fio's option"),
	R(numjobs, I, "", "fio's option"),
	R(size, I, "bytes", "`fio_size`, or less where the filesystem has less room"),
	R(runtime, I, "s", "the setting"),
	R(seconds, N, "s", "fio's whole run, laying out its file included"),
	R(status, S, "", "`ok`, `failed`"),
	O(fio_version, S, "", "`fio-3.33`"),
	O(iops, N, "1/s", "read + write"),
	O(mib_per_s, N, "MiB/s", "read + write"),
	O(runtime_s, N, "s", "fio's, the longer of read and write"),
	OS(read, OB, fio_dir, "the reads (fio's own numbers: `--output-format=json`, `group_reporting`, one entry for all `numjobs` processes)"),
	OS(write, OB, fio_dir, "the writes"),
	R(errors, I, "", "the job's error, an errno: 0; 1 for a failed run"),
	O(msg, S, "", "a failed one's reason (`fio exited with status 1: fio: ...`, `fio output: not JSON: expected ',' or '}' at column 812`), instead of the numbers"));
SHAPE(fill_stage,
	R(files, I, "", "files written or deleted"),
	R(bytes, I, "bytes", "their bytes"),
	R(seconds, N, "s", "syncfs included"),
	R(level, N, "", "the fill level after it: used / (used + available), as df shows it (statvfs; the blocks reserved for root are not room)"),
	R(enospc, B, "", "the filesystem said full before the level was reached"));
SHAPE(fill,
	R(fs, S, "", "the column"),
	R(fill_pct, I, "%", "the setting"),
	R(delete_pct, I, "%", "the setting"),
	R(seed, I, "", "of the file sizes"),
	R(fs_bytes, I, "bytes", "the filesystem's size (statvfs)"),
	R(probe_size, I, "bytes", "the random write's file: `fio_size`, at most 2 % of the filesystem, whole MiB"),
	R(runtime, I, "s", "each random write"),
	OS(fill, OB, fill_stage, "filling"),
	OS(delete, OB, fill_stage, "deleting a share"),
	OS(rewrite, OB, fill_stage, "filling again"),
	O(level, N, "", "after the rewrite"),
	O(fio_version, S, "", "fio's"),
	OS(before, OB, fio_dir, "the random write before (as `write` of a `fio` record)"),
	OS(after, OB, fio_dir, "and after"),
	O(iops_ratio, N, "", "after / before"),
	R(status, S, "", "`ok`, `failed`"),
	O(msg, S, "", "why it failed"));

/* ---- the power-cut campaign (run/engine/powercut.c) ---- */
SHAPE(pc_disk,
	O(unsafe_shutdowns, I, "", "the NVMe SMART log's unsafe shutdowns"),
	O(power_cycles, I, "", "the NVMe SMART log's power cycles"));
SHAPE(powercut_arm,
	R(fs, S, "", "the column"),
	R(cycle, I, "", "the cycle of this filesystem, from 1"),
	R(cycles, I, "", "`powercut`: the cycles per filesystem"),
	R(seed, I, "", "the campaign's seed (`powercut_seed`, or the one picked)"),
	R(cycle_seed, S, "", "the cycle's seed, 16 hex digits, from the campaign's seed, the filesystem's place in `fs` and the cycle: what the operations and contents follow"),
	R(window, I, "s", "`powercut_window`"),
	R(batch_ms, I, "ms", "`powercut_batch`: the time between batches"),
	R(workers, I, "", "`powercut_workers`"),
	R(files, I, "", "`powercut_files`: file slots per worker"),
	R(lead, I, "", "operations a worker may run past its last logged one (16): those after the last batch may have been in flight at the cut"),
	R(device, S, "", "the target"),
	OS(before, OB, pc_disk, "the disk's counters at the arm (NVMe only)"));
SHAPE(powercut_ack,
	R(fs, S, "", "the column"),
	R(cycle, I, "", "the cycle"),
	R(at, N, "s", "seconds since the workload started (the `armed` line)"),
	R(ops, AI, "", "per worker, the operations acknowledged so far: its operations 0 to N-1 had their fsyncs return before this record was written"),
	O(final, B, "", "the window is over and every worker stopped between two operations: none is in flight after this batch (not when a worker died of an error: its operation may have landed in part)"));
SHAPE(pc_check,
	R(when, S, "", "`before_mount` (the filesystem as the cut left it), or `after_replay` (after a mount and umount replayed the journal; only when the first was not clean)"),
	R(argv, S, "", "the checker as run (`e2fsck -fn DEV`, `xfs_repair -n DEV`, `btrfs check --readonly DEV`, `fsck.f2fs --dry-run DEV`)"),
	R(status, I, "", "its exit status (128 + signal when killed; -errno when it could not run)"),
	R(result, S, "", "`clean` (status 0), `repair_needed` (it found damage), `failed` (it could not check), `none` (the filesystem has no checker: nilfs2; `argv` is `-`)"),
	O(text, S, "", "the last lines of its output, when not clean"));
SHAPE(pc_bad,
	R(file, S, "", "the slot's file, `wWW/sSSS` under `powercut/`"),
	R(class, S, "", "`lost` or `torn`"),
	R(op, S, "", "the last acknowledged operation on it: `create`, `append`, `replace`, `delete`"),
	R(expected_size, I, "bytes", "its acknowledged size (0: acknowledged deleted)"),
	O(size, I, "bytes", "the size found; absent when the file is missing"));
SHAPE(powercut,
	R(fs, S, "", "the column"),
	R(cycle, I, "", "the cycle of this filesystem, from 1"),
	R(cycles, I, "", "`powercut`"),
	R(seed, I, "", "the campaign's seed"),
	R(cycle_seed, S, "", "the cycle's seed (16 hex digits)"),
	R(cut_s, N, "s", "when the cut came, as far as the log tells: the last batch's `at`, seconds after the workload's start"),
	R(final, B, "", "the last batch was `final`: the cut came after the window, with no operation in flight"),
	R(acknowledged, I, "", "operations acknowledged in the log (all workers)"),
	R(ops_per_s, N, "1/s", "`acknowledged` / `cut_s`: the workload's rate"),
	R(files, I, "", "slots checked (`powercut_workers` x `powercut_files`)"),
	R(verified, I, "", "slots holding exactly what the log acknowledged (a file whole, or no file)"),
	R(in_flight, I, "", "slots in a state an operation after the last batch may leave (it ran, in part or whole)"),
	R(lost, I, "", "slots whose acknowledged file is missing or shorter, or whose acknowledged delete was undone"),
	R(torn, I, "", "slots holding neither: a replaced file mixed of old and new, garbage"),
	R(fsck, S, "", "the checker's result: `clean`, `repair_needed`, `failed`, `none` (no checker: nilfs2, judged by its mount and files alone) (the last of `checks`)"),
	RS(checks, AO, pc_check, "each run of the checker"),
	R(mount, S, "", "`ok`, or why the filesystem did not mount after the cut (then every acknowledged file counts as lost)"),
	OS(bad, AO, pc_bad, "the lost and torn files, at most 16"),
	R(seconds, N, "s", "the check after the boot: checker, mount, verification"),
	OS(before, OB, pc_disk, "the disk's counters at the arm (NVMe only)"),
	OS(after, OB, pc_disk, "and after the cut"));
/* ---- capacity ---- */
SHAPE(capacity,
	R(device, S, "", "the target checked"),
	R(claimed_bytes, I, "bytes", "the size the device says it has"),
	R(verified_bytes, I, "bytes", "`claimed_bytes` when honest, else the real size found: the first offset that fails, to the 4 KiB block (a wrap: to the 512-byte sector)"),
	R(honest, B, "", "the whole claimed size holds what was written: no offset aliases another, no run of bad blocks reaches the end (`bad_blocks` aside)"),
	O(first_bad, I, "bytes", "not honest: the first offset that does not hold what was written (`verified_bytes`)"),
	O(found, S, "", "not honest: what the first bad offset held: `alias` (another offset's signature: the two are one block), `zeros`, `stale` (an earlier signature of the check: the write was lost), `garbage` (no signature of this run), or `error: REASON`"),
	O(alias_offset, I, "bytes", "a device that wraps: the first offset that aliases an earlier one"),
	O(alias_of, I, "bytes", "the offset it aliases (a wrap onto the start: 0)"),
	R(bad_blocks, I, "", "4 KiB blocks below the real size that did not read back, with good ones after them: media errors or lost writes, not a capacity lie (the filesystems meet them)"),
	R(stride_bytes, I, "bytes", "between two grid samples: a power of two, at least 1 MiB, with at most 4096 samples; the dense region at the start is as long"),
	R(signatures_written, I, "", "4 KiB blocks of signatures written (eight 512-byte sectors each)"),
	R(signatures_read, I, "", "and read back"),
	R(ios, I, "", "read, write and flush calls, the bisection's included"),
	R(steps, I, "", "bisection steps to the first bad offset (0 when honest)"),
	R(seconds, N, "s", "what the check took"));

/* ---- the sustained write (run/stores/sustain.c) ---- */
SHAPE(sustain,
	R(fs, S, "", "a filesystem column, or `raw` for the target device"),
	R(workload, S, "", "`seq` (fio's `write`, 1 MiB blocks, iodepth 8) or `rand` (`randwrite`, 4 KiB, iodepth 32)"),
	R(filename, S, "", "the file on the mount, or the device"),
	R(rw, S, "", "fio's option"),
	R(bs, S, "", "fio's option"),
	R(iodepth, I, "", "fio's option"),
	R(size, I, "bytes", "the span written: the whole device, or 80 % of the filesystem's free space (whole MiB); a sequential write that reaches its end starts again at its start"),
	R(runtime, I, "s", "`sustain_seconds`"),
	R(seconds, N, "s", "fio's whole run, from its start to its end"),
	R(status, S, "", "`ok`, `failed`"),
	O(msg, S, "", "a failed one's reason"),
	O(fio_version, S, "", "`fio-3.33`"),
	O(mib_per_s, N, "MiB/s", "fio's mean over the whole write"),
	O(iops, N, "1/s", "fio's mean"),
	R(samples, I, "", "per-second throughput samples in the `sustain_series` records that follow"),
	R(first_s, N, "s", "the end of the first sample, seconds after this write started: sample i covers the second that ends at `first_s` + i"),
	R(temp_source, S, "", "where the temperature was read every second (`nvme smart log`, `ata smart attribute 194`, `hwmon NAME`), or `not available: REASON`"),
	R(share_pct, I, "%", "`sustain_share`: the cliff's threshold, a share of the base"),
	R(base_s, I, "s", "`sustain_base`: the samples whose median is the base"),
	R(hold_s, I, "s", "`sustain_hold`: how long the fall must hold"),
	R(rise_c, I, "Celsius", "`sustain_rise`: the rise that makes a cliff thermal"));
SHAPE(sustain_series,
	R(fs, S, "", "as the `sustain` record before it"),
	R(workload, S, "", "as the `sustain` record before it"),
	R(from, I, "", "the index of this record's first sample (records of at most 200 samples, in order)"),
	R(mib_per_s, AN, "MiB/s", "throughput, one sample a second: fio's bandwidth log (`log_avg_msec=1000`), a second without one 0; the sample fio writes as its job ends is left out (it is no whole second's average)"),
	R(celsius, AN, "Celsius", "the disk's temperature read at the end of each sample's second (null: not read)"));

/* ---- the file-server workload (run/engine/fileserver.c) ---- */
SHAPE(fsv_op,
	R(ops, I, "", "operations done"),
	R(ops_per_s, N, "1/s", "`ops` over the run's `seconds`"),
	R(bytes, I, "bytes", "written (create, append) or read (read); 0 for delete and stat"),
	RS(lat_ns, OB, lat_ns, "the latency of one operation: open, the calls and close (create: of a whole file; append: of a random amount; read: of a whole file, its check of every byte left out), `unlink`, `stat`"));
SHAPE(fsv_aging,
	R(fill_pct, I, "%", "`fill_pct`: the level each fill reached for"),
	R(delete_pct, I, "%", "`fill_delete_pct`: the share deleted after each fill"),
	R(written, I, "", "files the two fills wrote (4 KiB to 1 MiB, the fill's seed)"),
	R(deleted, I, "", "files the two deletes removed, at random"),
	R(bytes, I, "bytes", "the fills' bytes"),
	R(seconds, N, "s", "the aging, each stage's syncfs included"),
	R(peak, N, "", "the level the second fill reached (used / (used + available))"),
	R(level, N, "", "the level the aging left, before the fileset was made"));
SHAPE(fileserver,
	R(fs, S, "", "the column"),
	R(state, S, "", "`fresh` (a fresh mkfs) or `aged` (the same filesystem after the fill's aging: `fileserver_aged`)"),
	R(files, I, "", "`fileserver_files`: the fileset's files"),
	R(dirwidth, I, "", "`fileserver_dirwidth`: entries per directory"),
	R(dirs, I, "", "the tree's directories"),
	R(mean_size, I, "bytes", "`fileserver_size`: the mean of the gamma distribution of the file sizes"),
	R(shape, N, "", "the gamma distribution's shape (1.5, filebench's)"),
	R(iosize, I, "bytes", "`fileserver_iosize`: bytes per read and write call of a whole file"),
	R(append_mean, I, "bytes", "`fileserver_append`: an append is uniform from 1 to twice this less 1"),
	R(workers, I, "", "worker processes (`fileserver_workers`, at most `files`)"),
	R(runtime, I, "s", "`fileserver_seconds`"),
	R(seed, I, "", "`fileserver_seed`"),
	R(fileset_bytes, I, "bytes", "the sizes of every file of the set, summed"),
	R(prealloc_files, I, "", "files made before the clock started (about 80 %)"),
	R(prealloc_bytes, I, "bytes", "their bytes"),
	R(prealloc_s, N, "s", "making them (the workers in parallel) and a syncfs"),
	O(level, N, "", "the filesystem's fill level once they were made (statvfs)"),
	OS(aging, OB, fsv_aging, "`aged` only: the fill's aging that ran before"),
	R(seconds, N, "s", "from the first worker's start to the last one's end"),
	R(ops, I, "", "operations of every kind"),
	R(ops_per_s, N, "1/s", "`ops` / `seconds`"),
	R(bytes_read, I, "bytes", "read"),
	R(bytes_written, I, "bytes", "written: creates and appends"),
	R(mib_per_s, N, "MiB/s", "bytes read and written / `seconds`"),
	RS(create, OB, fsv_op, "create and write a whole file"),
	RS(append, OB, fsv_op, "open and append a random amount (the write-up's guide to random writes)"),
	RS(read, OB, fsv_op, "open and read a whole file"),
	RS(delete, OB, fsv_op, "delete a file"),
	RS(stat, OB, fsv_op, "stat a file"),
	R(skipped, I, "", "operations left out for want of a file in the state they need (no free slot to create, no file to read)"),
	R(errors, I, "", "failed system calls (a worker stops at its first)"),
	R(verify_errors, I, "", "reads whose bytes were not the file's, and stats whose size was not its length; the first is a `verify_error` record before this one"),
	R(verified, B, "", "every byte read was checked"),
	R(status, S, "", "`ok`, `failed`"),
	O(msg, S, "", "why it failed"));

/* ---- verdict ---- */
SHAPE(check,
	R(what, S, "", "the check"),
	R(measured, S, "", "what was measured, as text"),
	R(limit, S, "", "the limit, as text"),
	R(pass, B, "", "it passed"),
	R(where, S, "", "the criterion: `FILE:LINE` or `baseline`"),
	O(result, S, "", "`pass`, `fail`, `error` (it could not judge) or `skip` (it does not apply to this target); older records have `pass` alone"),
	O(why, S, "", "an `error` or `skip`: why"),
	O(known, S, "", "a failure that a known issue matches (`--known`): the issue's link"),
	O(known_where, S, "", "the known issue's `FILE:LINE`"),
	O(known_until, S, "", "its expiry date, YYYY-MM-DD"),
	O(known_expired, B, "", "the known issue had expired: the failure counts"));
SHAPE(verdict,
	R(status, S, "", "`pass`, `fail`, `error`"),
	R(checks, I, "", "checks made"),
	R(failed, I, "", "of them failed and count (not known, or `strict`)"),
	O(errors, I, "", "checks that could not judge"),
	O(skipped, I, "", "checks that do not apply"),
	O(known, I, "", "failures a known issue matches (not counted in `failed` unless `strict`)"),
	O(strict, B, "", "`--strict`: known failures count"),
	RS(check, AO, check, "each check"));

SHAPE(discard_check,
	R(device, S, "", "the target (never another disk)"),
	R(status, S, "", "`ok` (the range read back as zeroes), `not zero`, `not run: REASON` (the disk does not promise zeroes after a deallocate), or `failed: OP: REASON`"),
	O(offset, I, "bytes", "the range's start on the target: the middle of the disk, aligned to the discard granularity"),
	O(length, I, "bytes", "the range's length: 1 MiB, or the granularity when larger"),
	O(written, B, "", "a pattern with no zero byte was written over the range and read back before the discard"),
	O(nonzero_bytes, I, "bytes", "bytes of the range that were not 0 when read back (O_DIRECT) after BLKDISCARD"),
	O(first_nonzero, I, "bytes", "the first of them, on the target"),
	O(seconds, N, "s", "write, discard and reads"));

/* ---- the run's conditions (run/engine/control.c) ---- */
SHAPE(control,
	O(after, S, "", "the filesystem column the control followed (a repetition's is in `rep`; `dir` in `--dir` mode); absent: the run's start, before the first"),
	R(samples, I, "", "timed samples of each item (after one untimed pass), the items interleaved: cpu, copy, tmpfs, cpu, ...: 7 at the start, 3 after each filesystem"),
	R(cpu_iterations, I, "", "the CPU loop's steps (xorshift64*, one 64-bit state)"),
	R(copy_bytes, I, "bytes", "the memory copy's size (`memcpy` between two buffers touched before)"),
	R(tmpfs_files, I, "", "the tmpfs item's files of 4 KiB: made and written, read back, removed"),
	R(cpu_s, AN, "s", "the CPU loop's time, one number a sample"),
	R(copy_s, AN, "s", "the memory copy's time, one number a sample"),
	O(tmpfs_s, AN, "s", "the tmpfs item's time, one number a sample (absent when `tmpfs` is not available)"),
	R(tmpfs, S, "", "where the tmpfs item ran: `mounted` (a tmpfs of its own on a new directory under /tmp, removed after), `/dev/shm` (a new directory there, when mounting is not allowed), or `not available: REASON`"),
	O(quiet, S, "", "the target before the samples: `yes` (no request in flight and none completed for 0.2 s, read from the whole disk's `stat` in sysfs), `no: still serving requests after 5 s (N in flight)` (the samples ran anyway), or `not available: REASON`; absent in `--dir` mode. A request the target serves takes processor time from the samples (under QEMU, the host's)"),
	O(quiet_wait_s, N, "s", "how long the control waited for that before its samples (0.2 s at the least when the target was already quiet; at most 5 s)"),
	O(target_ios, I, "", "requests the target completed while the samples ran (reads, writes, discards, flushes): 0 when nothing else used the disk"),
	R(seconds, N, "s", "the whole control"));

SHAPE(run_end,
	R(status, S, "", "`ok`, `failed`, `refused`"),
	R(exit_code, I, "", "the runner's exit code"),
	R(seconds, N, "s", "the whole run"),
	R(fs_ok, I, "", "filesystems that passed"),
	R(fs_failed, I, "", "that failed"),
	O(fs_refused, I, "", "that the target could not hold (`fs_end` `refused`); absent when none"),
	O(kmsg_recorded, I, "", "`kmsg` records (when the kernel log was read)"),
	O(kmsg_dropped, I, "", "the sum of `kmsg_dropped` counts"),
	O(kmsg_lost, I, "", "messages of any level the kernel overwrote in its buffer before they were read (also said in a `note` when it happens)"));

/* ---- repetitions ---- */
SHAPE(repeat_phase,
	R(round, I, "", "the round"),
	R(phase, S, "", "the phase"),
	R(n, I, "", "its repetitions (samples)"),
	R(median, N, "s", "the median of their `seconds`"),
	O(lo, N, "s", "the 95 % confidence interval of the median, distribution-free (order statistics, `runner/lib/stats.c`): its low end; absent below 6 samples"),
	O(hi, N, "s", "its high end"),
	O(ci_pct, N, "%", "its width, `(hi - lo) / median` x 100"),
	R(converged, B, "", "the interval is within `width_pct`"),
	O(converged_at, I, "", "the repetition at which its interval was first within `width_pct`"));
SHAPE(repeat,
	R(fs, S, "", "the column"),
	R(reps, I, "", "its repetitions run"),
	R(max, I, "", "the setting `repeat_max`"),
	R(width_pct, I, "%", "the setting `repeat_width`"),
	R(converged, B, "", "every phase's interval came within `width_pct` (`false`: `repeat_max` was reached, or the column failed)"),
	RS(phases, AO, repeat_phase, "each phase of each round (not `fstrim`)"));

#define T(n, m) [FSB_REC_##n] = { #n, 1, &n, m }
const struct fsb_rtype fsb_rec_types[FSB_REC_N] = {
	T(run_start, "the run's first record: the machine, the target, the settings"),
	T(note, "a remark of the runner"),
	T(fs_start, "a column starts: its filesystem made and mounted (device mode), or the directory (`--dir`)"),
	T(phase_start, "a phase is about to run (its kernel messages count from here)"),
	T(phase, "a phase's result"),
	T(verify_error, "a file whose bytes did not check out (before its phase record)"),
	T(error, "an error (before the phase record it belongs to); a refusal of the target"),
	T(layout, "where directory d0000's files sit on the disk (FIEMAP), after `read_inode`, with the setting `layout` (the default)"),
	T(freespace, "the evidence on fragmentation: the filesystem's free space and its own parts, each an object of numbers or `{\"error\": \"the reason\"}`. After each round's reads (after `read_inode` and its `layout` record, before `rewrite`), with the setting `freespace` (the default), on a device only"),
	T(kmsg, "a kernel message at warning level or above that appeared during the run, read from `/dev/kmsg` between phases and at run end, never during a phase; `t` is when the runner read it. At most 32 per phase or gap"),
	T(kmsg_dropped, "more kernel messages in a phase or gap than are recorded"),
	T(health, "the disk's health, before the first filesystem and after the last; each of the four parts is an object or a string `not available: REASON`, never a guessed value"),
	T(space, "what a store takes on disk (with `pack = 1`), after the next phase's fresh mount"),
	T(mkfs, "the filesystem made fresh again for the fio workloads, the fill or the sustained write after the rounds (with `smallfile = 0` the fresh filesystem of `fs_start` is used and there is none)"),
	T(fio, "a fio workload's result (settings `fio`, `fio_raw`): after a filesystem's rounds, before its `fs_end`; the raw target's after the last filesystem"),
	T(fill, "the fill test (setting `fill`): fill, delete a share, fill again, a random write before and after"),
	T(powercut_arm, "a power-cut cycle starts (setting `powercut`): the filesystem made fresh and mounted; written before the `FSBENCH-POWERCUT: armed` line, so the log holds the seed before any cut can come"),
	T(powercut_ack, "a batch of acknowledgements of the power-cut workload, written (O_DIRECT|O_DSYNC) while no worker runs more than `lead` operations past it: an operation counts as acknowledged only once a batch names it"),
	T(powercut, "a power-cut cycle's result, written on the boot after the cut: the checker before the mount, the mount (the journal replays), every slot checked against the acknowledged operations"),
	T(capacity, "the capacity check (setting `capacity`, on a device only): signatures written across the whole target, read back past every cache; after the `health` record before, before the first filesystem"),
	T(fs_end, "a column ends"),
	T(run_end, "the run's last record"),
	T(discard_check, "the read-back of a discarded range (setting `fstrim`, on a device only): after the last filesystem, where the disk promises zeroes after a deallocate (NVMe DLFEAT), a range of the target written, discarded with BLKDISCARD and read back with O_DIRECT"),
	T(verdict, "the checks of `fsbench verdict`, written after the run by `fsbench verdict --log`: the `seq` after the run's last record in the log, and that record's `t`; a later `verdict` record of a run replaces an earlier one"),
	T(sustain, "a sustained write (setting `sustain`): fio's summary, where its per-second samples were taken and the settings the cliff is found with; its `sustain_series` records follow it. On each filesystem after its fio and fill, on the raw target after the last filesystem's (and after the raw fio workloads)"),
	T(sustain_series, "the per-second throughput and temperature of the `sustain` record before it (the report's cliff and chart read them)"),
	T(repeat, "the end of a column's repetitions with `repeat = auto`: after its last repetition's `fs_end`, where every phase's 95 % interval ended and which did not converge"),
	T(fileserver, "the file-server workload (setting `fileserver`): after a filesystem's fio, fill and sustained write, on a fresh mkfs (`fresh`) and with `fileserver_aged` once more after the fill's aging (`aged`); per operation its count, rate and latency"),
	T(control, "the run's conditions (setting `control`): a short fixed control before the first filesystem and again after each (a CPU loop, a memory copy, files on a tmpfs), each timed a few times, so that `fsbench compare` can tell a change of the machine from a change of the disk"),
};
#undef T

int fsb_rec_lookup(const char *name)
{
	for (int i = 0; i < FSB_REC_N; i++)
		if (fsb_rec_types[i].name && !strcmp(fsb_rec_types[i].name, name))
			return i;
	return -1;
}

const struct fsb_field *fsb_shape_field(const struct fsb_shape *s, const char *name)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->f[i].name, name))
			return &s->f[i];
	return NULL;
}

const char *fsb_jtype_text(unsigned types, char *buf, size_t len)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ FSB_J_INT, "integer" }, { FSB_J_NUM, "number" }, { FSB_J_STR, "string" },
		{ FSB_J_BOOL, "boolean" }, { FSB_J_OBJ, "object" }, { FSB_J_NULL, "null" },
		{ FSB_J_ARR_INT, "array of integers" }, { FSB_J_ARR_NUM, "array of numbers" },
		{ FSB_J_ARR_OBJ, "array of objects" },
	};
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(types & names[i].bit) || o >= len)
			continue;
		int n = snprintf(buf + o, len - o, "%s%s", o ? " or " : "", names[i].name);
		o = n < 0 ? len : o + (size_t)n;
	}
	return buf;
}

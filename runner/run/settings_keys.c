/* settings_keys.c: the settings' key table and the profiles, data only
 * (settings_keys.h); parsing, merging and printing are settings.c's. */
#include <stdint.h>

#include "run/settings_keys.h"
#include "fsb_figures.h"	/* FSB_TCG_*: measured run times, from qemu/figures.txt (Makefile) */



/* "Every default filesystem of the table, in its order" (run/fs/fs.c: every
 * row but the optional ones, nilfs2), where a default or a profile names the
 * filesystems: the list is written in one place. */
const char set_all_fs[] = "every filesystem";
/* Every default filesystem, each followed by its built-in variants
 * (run/fs/variant.c). */
const char set_all_columns[] = "every filesystem and variant";
const struct set_key set_keys[] = {
	{ "profile", K_PROFILE, F(profile), 0, 0, "seed",
	  "workload preset: `seed` is runner/SUITE.md exactly (16 dirs x 20,000 files x 4 KiB, 16 "
		"workers, 3 rounds, every filesystem); `smoke` is 4 x 500 x 4 KiB, 4 workers, 2 "
		"rounds (CI-sized, still ages); `explain` is `seed` with the rewrite remedy "
		"(`rewrite`) and packing (`pack`: SQLite and a pack file), beside the `freespace` "
		"and `layout` evidence (both on by default), files created in name order (under "
		"QEMU TCG " FSB_TCG_EXPLAIN " at `files = 1000`, the whole profile about 7 h; "
		"about 30 min on hardware; runner/PROFILES.md); `fio` is the four fio "
		"workloads, 5 s over 256 MiB each, on every filesystem and the raw target, no "
		"small-file rounds (" FSB_TCG_FIO " under QEMU TCG, about 2 min on hardware); "
		"`fill` is the fill test on every filesystem (10 s random writes of at most 64 "
		"MiB), no small-file rounds (its time grows with the target: " FSB_TCG_FILL " "
		"under TCG on 2 GiB, about 47 min on 10 GiB; runner/FIO.md); `tuning` is the "
		"tuning matrix: every default filesystem and each of its built-in variants as a "
		"column (`variant.FS:NAME`), 4 x 1000 x 4 KiB, 4 workers, 2 rounds ("
		FSB_TCG_TUNING " under QEMU TCG for the 11 columns it had before the 5 of "
		"ext4:discard to f2fs:nobarrier, which add about half as much again; 1-2 min on "
		"hardware; runner/TUNING.md); `powercut` is the power-cut "
		"campaign: every filesystem, 3 cycles each with a 10 s window, no small-file "
		"rounds (a cut from outside ends every cycle; runner/POWERCUTS.md); "
		"`sustain` is the sustained write (`sustain = both`): 120 s sequential and 120 s "
		"4 KiB random on a file of every filesystem and on the raw target, no small-file "
		"rounds (about 21 min, the same under TCG: it is timed; runner/SUSTAIN.md); "
		"`fileserver` is the file-server workload, filebench's personality "
		"at the size of runner/SUITE.md's write-up: 100,000 files of mean 1.25 MiB (about "
		"122 GiB: a disk of 160 GiB or more), 50 workers, 60 s, no small-file rounds "
		"(runner/FILESERVER.md); `fileserver-aged` is `fileserver` on the fresh "
		"filesystem and again after the fill's aging (`fileserver_aged`), the write-up's "
		"control experiment" },
	{ "fs", K_FSLIST, F(fs), 0, 0, set_all_fs,
	  "filesystems, comma-separated, run in this order; each a filesystem FS or a variant of "
		"one, FS:NAME (`variant.FS:NAME`), run as a column of its own. The default is "
		"every filesystem of the table but the optional `nilfs2`, which runs only where a "
		"list names it (`fs = ext4,nilfs2`; runner/NILFS2.md)" },
	{ "dirs", K_U32, F(dirs), 1, 4096, "16", "directories (one worker each when workers = dirs)" },
	{ "files", K_U32, F(files), 1, 10000000, "20000", "files per directory" },
	{ "file_size", K_SIZE, F(file_size), 1, 64ull << 20, "4096",
	  "bytes per file (suffixes `k`, `M`: 1024-based)" },
	{ "workers", K_U32, F(workers), 1, 4096, "16",
	  "worker processes, at most `dirs`; directories are dealt out round-robin" },
	{ "rounds", K_U32, F(rounds), 1, 100, "3",
	  "rounds per filesystem: round 1 on a fresh mkfs, later rounds on the aged filesystem" },
	{ "phase_timeout", K_U32, F(phase_timeout), 0, 604800, "3600",
	  "seconds a phase may take before its workers are killed and the filesystem fails (0 = no limit)" },
	{ "target", K_STR, F(target), 0, 0, "",
	  "the disk to format and run on (destroyed!): `/dev/NAME`, `path:P`, `partlabel:L`, "
		"`serial:S`, `wwn:W` or `model:GLOB`; exactly one disk must match" },
	{ "dir", K_STR, F(dir), 0, 0, "",
	  "an existing directory to run in instead of a target: no mkfs, no remount, warm cache" },
	{ "log", K_STR, F(log), 0, 0, "",
	  "crash-safe results log: a file, a raw partition, or `partlabel:NAME`" },
	{ "log_size", K_SIZE, F(log_size), 0, UINT64_MAX, "0",
	  "largest size of a log file in bytes (0 = no limit; a partition is limited by its size)" },
	{ "mnt", K_STR, F(mnt), 0, 0, "/tmp/fsbench-mnt",
	  "mount point for the filesystem under test (created if missing)" },
	{ "prefix", K_STR, F(prefix), 0, 0, "",
	  "text printed before every record on stdout (the boot image prints `FSBENCH:` on its serial console)" },
	{ "yes", K_BOOL, F(yes), 0, 1, "0", "really format the target (without it: print what "
		"would be destroyed and stop)" },
	{ "capacity", K_BOOL, F(capacity), 0, 1, "1",
	  "before the filesystems, check that the target holds what it claims (fake-capacity flash "
		"that wraps around, a device that returns zeros or errors past its real size): 4 "
		"KiB blocks of signatures in a dense region at its start and at every stride "
		"across it (at most 4096), read back past every cache, a bisection to the real "
		"size; a `capacity` record, and a target that is not honest fails the run before "
		"any mkfs. Overwrites the whole device like the mkfs (needs `yes`), saves nothing. "
		"Costs about 8,000 I/Os and 2 x 256 MiB per TB (2,051 I/Os on 1 GiB): about 1.5 s "
		"on a 1 GiB and 3 s on a 10 GiB loop device here, under 1 s per TB on an NVMe SSD "
		"(runner/CAPACITY.md); not with `dir`" },
	{ "verify", K_BOOL, F(verify), 0, 1, "1", "check every byte read against the expected pattern" },
	{ "progress", K_BOOL, F(progress), 0, 1, "1",
	  "progress line on stderr (fs, round, phase, files done/total, rate) at most every 2 seconds" },
	{ "create_order", K_CHOICE, F(create_order), 0, 0, "name",
	  "order of the create phase in each directory. `name`: in name order, as in "
		"runner/SUITE.md (name order = creation order); `shuffled`: in a fixed random "
		"order per directory and round (the same on every machine), so name order no "
		"longer follows creation, inode or disk order: runner/SUITE.md's aged-ext4 "
		"condition on any filesystem, to see the inode-order remedy. The create record's "
		"`order` says which: name|shuffled" },
	{ "create_lockstep", K_BOOL, F(create_lockstep), 0, 1, "0",
	  "the create phase's workers take turns file by file: worker 0 creates its next file, "
		"then worker 1, and so on, each only after every other worker made its previous "
		"one, so the filesystem allocates for the directories interleaved one file at a "
		"time, as when each worker has a core of its own (the aging study, runner/SUITE.md; "
		"the create's time then measures the turns, not the filesystem). The create "
		"record says `lockstep`" },
	{ "create_cpu", K_CHOICE, F(create_cpu), 0, 0, "free",
	  "the CPUs of the create phase's workers. `free`: where the scheduler puts them; "
		"`pinned`: worker i stays on the i-th allowed CPU (modulo their number); "
		"`migrate`: before each file, a worker moves to the next allowed CPU "
		"(sched_setaffinity), so that its files are allocated from every CPU in turn (ext4 "
		"takes a small file's blocks from the preallocation of the CPU it is created on: "
		"runner/SUITE.md). The create record says `cpu_policy` and `cpus_used` when not "
		"free: free|pinned|migrate" },
	{ "layout", K_BOOL, F(layout), 0, 1, "1",
	  "after each round's reads, map directory `d0000`'s files with FIEMAP (untimed) and "
		"record how file-name order and inode order follow the disk (`layout` record)" },
	{ "freespace", K_BOOL, F(freespace), 0, 1, "1",
	  "after each round's reads, record the evidence on fragmentation (untimed, `freespace` "
		"record): the free-space extents (GETFSMAP: ext4, XFS), ext4's `e4defrag -c` "
		"score, btrfs's allocation (/sys/fs/btrfs, as `btrfs filesystem usage -b` shows "
		"it), f2fs's segments (/proc/fs/f2fs/DEV/segment_info, /sys/fs/f2fs/DEV/); not in "
		"`dir` mode" },
	{ "rewrite", K_BOOL, F(rewrite), 0, 1, "0",
	  "the rewrite remedy in every aged round (2 and later), after the reads: phase `rewrite` "
		"copies each directory file by file in name order to a new one, swaps it in place "
		"of the old one and removes the old (timed with syncfs), then phase "
		"`read_after_rewrite` reads by name again, cold and verified" },
	{ "on_finish", K_CHOICE, F(on_finish), 0, 0, "poweroff",
	  "boot image only: what init does after the run (`shell`: a BusyBox shell on the "
		"console): poweroff|reboot|halt|shell" },
	{ "lava", K_BOOL, F(lava), 0, 1, "0",
	  "lines for a LAVA `monitors` test on stdout (the console): `FSBENCH-LAVA: start run=ID` "
		"after run_start, `FSBENCH-RESULT: test_case_id=FS-rROUND-PHASE result=pass|fail "
		"measurement=SECONDS units=s` after each phase; the boot image adds the verdict's "
		"checks, `fsbench-run` and `FSBENCH-LAVA: end run=ID` (runner/FORMATS.md)" },
	{ "fault", K_STR, F(fault), 0, 0, "",
	  "self-test of verification: after each create, flip one bit of the byte at OFFSET of "
		"DIR/FILE (`DIR/FILE:OFFSET`, e.g. `d0001/f0000007:100`); the read phases must "
		"report it" },
	{ "smallfile", K_BOOL, F(smallfile), 0, 1, "1",
	  "run the small-file rounds x phases of runner/SUITE.md on each filesystem (1 but in the "
		"profiles `fio` and `fill`); 0: only the `fio` workloads and `fill`" },
	{ "fio", K_STR, F(fio), 0, 0, "",
	  "block-level fio workloads of runner/SUITE.md, comma-separated, run with the real `fio` "
		"on each filesystem (one file on a fresh mkfs) after its rounds, and with "
		"`fio_raw` on the raw target: `oltp` (randrw 70 % read, 4k, iodepth 32, 16 jobs), "
		"`web` (read, 1M, iodepth 8, 8 jobs), `vm` (randrw 50 %, 64k, iodepth 16, 32 "
		"jobs), `randwrite` (4k, iodepth 32, 1 job); all libaio, direct=1, time-based; "
		"empty (but in the profile `fio`): none (`fio` record)" },
	{ "fio_runtime", K_U32, F(fio_runtime), 1, 86400, "30",
	  "seconds each fio workload runs (fio's runtime, time_based; 30 but in the profiles `fio` "
		"and `fill`); also the length of each 4 KiB random write of `fill`" },
	{ "fio_size", K_SIZE, F(fio_size), 1 << 20, UINT64_MAX, "1G",
	  "bytes each fio workload spans (1G but in the profiles `fio` and `fill`): its file on a "
		"filesystem (at most 80 % of the free space) or the start of the raw target; "
		"`fill`'s random write file is this, at most 2 % of the filesystem" },
	{ "fio_raw", K_BOOL, F(fio_raw), 0, 1, "0",
	  "also run the `fio` workloads on the raw target device after the filesystems (fs `raw`; "
		"overwrites its first `fio_size` bytes, like the mkfs it needs `yes`; not with "
		"`dir`; 0 but in the profile `fio`)" },
	{ "fill", K_BOOL, F(fill), 0, 1, "0",
	  "the aging test of runner/SUITE.md on each filesystem, on a fresh mkfs: 4 KiB random "
		"write (fio randwrite), fill to `fill_pct` with files of 4 KiB to 1 MiB (fixed "
		"seed), delete `fill_delete_pct` of them at random, fill again, the same random "
		"write (`fill` record; not with `dir`; 0 but in the profile `fill`)" },
	{ "fill_pct", K_U32, F(fill_pct), 10, 99, "95",
	  "`fill`: the level to fill to, percent, as df shows it (used / (used + available))" },
	{ "fill_delete_pct", K_U32, F(fill_delete_pct), 1, 90, "30",
	  "`fill`: the share of its files deleted at random before it fills again, percent" },
	{ "pack", K_BOOL, F(pack), 0, 1, "0",
	  "packing, after each round's delete: the same files (same content, names as keys "
		"`d0003/f0000042`) written to one SQLite database (`fsbench.sqlite`, table "
		"`files(path TEXT PRIMARY KEY, data BLOB)`, one transaction per worker's "
		"directory) and to one pack file (`fsbench.pack`, runner/FORMATS.md), each then "
		"read back cold by name (verified) and deleted: phases `sqlite_write`, "
		"`sqlite_read`, `sqlite_delete`, `pack_write`, `pack_read`, `pack_delete`; `space` "
		"records give the bytes each store takes on disk. The `fault` byte is flipped in "
		"each store too" },
	{ "powercut", K_U32, F(powercut), 0, 1000, "0",
	  "the power-cut campaign (0 = off): this many cycles per filesystem of `fs`, each a fresh "
		"mkfs, the durability workload for `powercut_window` seconds and a power cut from "
		"outside (a QEMU kill, a switched socket, a hand on the plug), then on the next "
		"boot the filesystem's checker, the mount and a check of every acknowledged "
		"operation (`powercut` record; runner/POWERCUTS.md). The run is then the "
		"campaign only: no small-file rounds, fio or fill. Needs `log` (the campaign's "
		"memory across boots) and a `target`" },
	{ "powercut_window", K_U32, F(powercut_window), 1, 86400, "10",
	  "`powercut`: seconds the durability workload runs, the window in which the cut may land; "
		"when it is over without a cut the runner stops writing, prints `FSBENCH-POWERCUT: "
		"window over, cut the power now` and waits" },
	{ "powercut_seed", K_U32, F(powercut_seed), 0, 4294967295u, "0",
	  "`powercut`: the campaign's seed (1 to 4294967295), from which every cycle's operations "
		"and file contents follow; 0 = pick one, printed on the `armed` line and kept in "
		"the log, so that a failing campaign can be replayed" },
	{ "powercut_workers", K_U32, F(powercut_workers), 1, 64, "4",
	  "`powercut`: worker processes of the durability workload, each in its own directory" },
	{ "powercut_batch", K_U32, F(powercut_batch), 10, 60000, "100",
	  "`powercut`: milliseconds between batches of acknowledgements: each batch is a "
		"`powercut_ack` record of one 4 KiB block in the log, so a cycle takes about "
		"`powercut_window` x 1000 / `powercut_batch` blocks of it (400 KiB at the "
		"defaults; the runner refuses to arm a cycle the log has no room for); a worker "
		"runs at most 16 operations past the last batch, so a longer interval slows the "
		"workload" },
	{ "powercut_files", K_U32, F(powercut_files), 1, 4096, "32",
	  "`powercut`: file slots per worker (files of 4 KiB to 1 MiB, grown by appends up to 2 "
		"MiB: at most 2 MiB x workers x files on the target)" },
	{ "sustain", K_CHOICE, F(sustain), 0, 0, "off",
	  "the sustained write (speed that holds): a sequential write (1 MiB blocks, iodepth 8) "
		"and then a 4 KiB random write (iodepth 32), each for `sustain_seconds` with fio, "
		"throughput sampled every second (fio's bandwidth log) and the disk's temperature "
		"every second (NVMe SMART log, ATA SMART attribute 194, hwmon), on the raw target "
		"after the filesystems (the whole device, overwritten: needs `yes`) and/or on a "
		"file on each filesystem of `fs` (on a fresh mkfs; 80 % of its free space); "
		"`sustain` and `sustain_series` records; the report finds the cliff "
		"(runner/SUSTAIN.md). Not with `dir`; off but in the profile "
		"`sustain`: off|raw|fs|both" },
	{ "sustain_seconds", K_U32, F(sustain_seconds), 5, 86400, "120",
	  "`sustain`: seconds each write runs (the amount is a time, not a size: long enough to "
		"pass the disk's write cache and warm it up; 120 s at 2 GB/s writes 240 GB)" },
	{ "sustain_share", K_U32, F(sustain_share), 1, 99, "50",
	  "`sustain`: the cliff is where throughput falls below this share of the first seconds' median, percent" },
	{ "sustain_base", K_U32, F(sustain_base), 1, 3600, "5",
	  "`sustain`: the first seconds whose median is the base the cliff is measured against" },
	{ "sustain_hold", K_U32, F(sustain_hold), 1, 3600, "5",
	  "`sustain`: seconds the fall must hold to be a cliff: the median of the samples from the "
		"cliff over this many seconds, and of every sample to the end, are below the share "
		"too (a dip that recovers is no cliff)" },
	{ "sustain_rise", K_U32, F(sustain_rise), 1, 100, "5",
	  "`sustain`: degrees Celsius above the first seconds' median temperature that, reached "
		"from `sustain_hold` seconds before the cliff to one after it, make the cliff "
		"coincide with a temperature rise (throttling)" },
	{ "fstrim", K_BOOL, F(fstrim), 0, 1, "1",
	  "after each round's delete, the `fstrim` phase: the filesystem's free space discarded "
		"(FITRIM), timed; after the last filesystem, a discarded range of the target read "
		"back where the disk promises zeroes (NVMe DLFEAT); on a device only" },
	{ "target_wait", K_U32, F(target_wait), 0, 600, "0",
	  "seconds to wait for the `target` to appear when no disk matches it yet (a USB, SCSI or "
		"SD disk shows up a moment after its driver loads): the spec is tried again every "
		"0.2 s; 0 = refuse at once" },
	{ "zoned_conv", K_STR, F(zoned_conv), 0, 0, "",
	  "a conventional disk beside a host-managed zoned `target` (ZNS NVMe, host-managed SMR), "
		"named like `target` and held to the same safety rules: f2fs keeps its metadata "
		"there (`mkfs.f2fs -m -c ZONED CONV`, mounted from CONV; destroyed like the "
		"target); without it f2fs is refused on such a target, as ext4 and XFS always are "
		"(`fs_end` `refused`); btrfs needs none (`mkfs.btrfs -O zoned`). Under QEMU: "
		"`qemu/run.sh --target-zoned` sets it to the same controller's conventional "
		"namespace (runner/ZONED.md)" },
	{ "repeat", K_U32_AUTO, F(repeat), 1, 1000, "1",
	  "repetitions: each column's rounds run this many times, each on a fresh mkfs, the "
		"columns interleaved (A B A B, so a drift of the machine or the disk does not fall "
		"on one column); `auto`: repeat until the 95 % confidence interval of every "
		"phase's median (seconds) is within `repeat_width`, at most `repeat_max` times (at "
		"least 6: a 95 % interval of a median needs 6 samples), a `repeat` record saying "
		"which phases did not converge. Records of a run with repetitions carry `rep`; the "
		"report shows the median of the repetitions with its interval, the verdict judges "
		"that median (runner/REPETITIONS.md). The fio workloads, fill and "
		"sustained write run once, after a column's last repetition" },
	{ "repeat_width", K_U32, F(repeat_width), 1, 100, "5",
	  "`repeat = auto`: the width of the 95 % confidence interval of each phase's median that "
		"ends the repetitions, percent of the median" },
	{ "repeat_max", K_U32, F(repeat_max), 6, 1000, "20",
	  "`repeat = auto`: the most repetitions of a column; phases whose interval is still wider "
		"are named in its `repeat` record and the report" },
	{ "control", K_BOOL, F(control), 0, 1, "1",
	  "measure the run's conditions before the first filesystem and after each (`control` "
		"records; at the start about 0.1 s on a host, 0.5 s under QEMU TCG, after a "
		"filesystem less than half that): a CPU loop of 1M steps, a copy of 8 MiB and 32 "
		"files of 4 KiB made, read and removed on a tmpfs, each timed 7 times at the start "
		"and 3 times after each filesystem, once the target has been quiet for 0.2 s (no "
		"request in flight or completed; waited for at most 5 s, said in the record with "
		"the requests it served during the samples); `fsbench compare` pools and tests "
		"them to tell a change of the machine from one of the disk (results/README.md, "
		"fsbench compare)" },
	{ "fileserver", K_BOOL, F(fileserver), 0, 1, "0",
	  "the file-server workload (filebench's `fileserver` personality, written in the runner) "
		"on each filesystem after its rounds, on a fresh mkfs: a fileset of "
		"`fileserver_files` files in directories `fileserver_dirwidth` wide, sizes drawn "
		"from a gamma distribution (shape 1.5) of mean `fileserver_size`, 80 % of them "
		"made before the clock starts; then `fileserver_workers` worker processes loop for "
		"`fileserver_seconds`: create and write a whole file, open and append a random "
		"amount, open and read a whole file (every byte checked), delete a file, stat a "
		"file (`fileserver` record: per operation counts, throughput and latency "
		"percentiles; runner/FILESERVER.md; 0 but in the profiles `fileserver` "
		"and `fileserver-aged`)" },
	{ "fileserver_aged", K_BOOL, F(fileserver_aged), 0, 1, "0",
	  "`fileserver`: the control experiment of fresh against fragmented: after the run on the "
		"fresh filesystem, its fileset removed, the filesystem aged by the fill (fill to "
		"`fill_pct` with files of 4 KiB to 1 MiB, delete `fill_delete_pct` of them at "
		"random, fill again, delete `fill_delete_pct` again to leave scattered holes for "
		"the fileset) and the workload run again on it: a second `fileserver` record with "
		"state `aged`; with `smallfile`, the small-file rounds then run again on that "
		"filesystem (rounds `rounds` + 1 to 2 x `rounds`, their phase records marked "
		"`after_aging`); the report says whether the ranking of the filesystems changed (1 "
		"in the profile `fileserver-aged`)" },
	{ "fileserver_files", K_U32, F(fileserver_files), 1, 10000000, "200",
	  "`fileserver`: files in the fileset (filebench's nfiles: 10000; the write-up's and the profiles': 100000)" },
	{ "fileserver_dirwidth", K_U32, F(fileserver_dirwidth), 2, 100000, "20",
	  "`fileserver`: entries per directory (filebench's meandirwidth); the tree is as deep as it must be" },
	{ "fileserver_size", K_SIZE, F(fileserver_size), 1, 1ull << 30, "128k",
	  "`fileserver`: the mean file size of the fileset, bytes (gamma distribution, shape 1.5, "
		"as filebench's; suffixes `k`, `M`; the profiles': 1280k = 1.25 MiB)" },
	{ "fileserver_workers", K_U32, F(fileserver_workers), 1, 1024, "4",
	  "`fileserver`: worker processes (filebench's nthreads: 50, the profiles' too), each with "
		"its share of the fileset" },
	{ "fileserver_iosize", K_SIZE, F(fileserver_iosize), 4096, 64ull << 20, "1M",
	  "`fileserver`: bytes per read and write call of a whole file (filebench's iosize)" },
	{ "fileserver_append", K_SIZE, F(fileserver_append), 1, 64ull << 20, "16k",
	  "`fileserver`: the mean size of an append, bytes: each is uniform from 1 to twice this "
		"less 1 (filebench's meanappendsize)" },
	{ "fileserver_seconds", K_U32, F(fileserver_seconds), 1, 86400, "3",
	  "`fileserver`: seconds the workers loop (the profiles': 60)" },
	{ "fileserver_seed", K_U32, F(fileserver_seed), 0, 4294967295u, "1",
	  "`fileserver`: the seed of the file sizes, the preallocated files and each worker's "
		"choices (the same fileset and sequence on every machine)" },
};
/* The per-filesystem keys, after the fixed ones in help and docs. */
const char set_help_mkfs_opts[] =
	"extra mkfs arguments for FS (split at spaces), after the defaults";
const char set_help_mount_opts[] =
	"mount options for FS (comma-separated, as for `mount -o`; flags such as `noatime` go to "
		"`mount(2)` flags, the rest to the filesystem)";
const char set_help_variant[] =
	"a variant of filesystem FS, named in `fs` as a column of its own: `mkfs:ARGS` (mkfs "
		"arguments, split at spaces, after the defaults and mkfs_opts.FS) and/or "
		"`mount:OPTS` (mount options, comma-separated, after mount_opts.FS: a later option "
		"wins), e.g. `variant.f2fs:s8 = mkfs:-s 8`. NAME is 1 to 15 of a-z, 0-9, _; "
		"mkfs:ARGS runs to a word beginning with mount: or sysfs:, in any order; "
		"`sysfs:KEY=VALUE[,KEY=VALUE]` writes VALUE to /sys/fs/FS/DEV/KEY after every "
		"mount of the column (DEV the device's name), e.g. `variant.ext4:stream0 = "
		"sysfs:mb_stream_req=0` (runner/SUITE.md); a setting replaces a built-in row of "
		"that name whole (runner/TUNING.md)";
const struct profile set_profiles[] = {
	{ "seed", { { "fs", set_all_fs }, { "dirs", "16" }, { "files", "20000" },
		    { "file_size", "4096" }, { "workers", "16" }, { "rounds", "3" } } },
	{ "smoke", { { "fs", set_all_fs }, { "dirs", "4" }, { "files", "500" },
		     { "file_size", "4096" }, { "workers", "4" }, { "rounds", "2" } } },
	{ "explain", { { "fs", set_all_fs }, { "dirs", "16" }, { "files", "20000" },
		       { "file_size", "4096" }, { "workers", "16" }, { "rounds", "3" },
		       { "rewrite", "1" }, { "pack", "1" } } },
	{ "fio", { { "fs", set_all_fs }, { "smallfile", "0" }, { "fio", "oltp,web,vm,randwrite" },
		   { "fio_runtime", "5" }, { "fio_size", "256M" }, { "fio_raw", "1" } } },
	{ "fill", { { "fs", set_all_fs }, { "smallfile", "0" }, { "fill", "1" },
		    { "fio_runtime", "10" }, { "fio_size", "64M" } } },
	{ "powercut", { { "fs", set_all_fs }, { "smallfile", "0" }, { "powercut", "3" },
			{ "powercut_window", "10" } } },
	{ "tuning", { { "fs", set_all_columns }, { "dirs", "4" }, { "files", "1000" },
		      { "file_size", "4096" }, { "workers", "4" }, { "rounds", "2" } } },
	{ "sustain", { { "fs", set_all_fs }, { "smallfile", "0" }, { "sustain", "both" },
		       { "sustain_seconds", "120" } } },
	{ "fileserver", { { "fs", set_all_fs }, { "smallfile", "0" }, { "fileserver", "1" },
			  { "fileserver_files", "100000" }, { "fileserver_size", "1280k" },
			  { "fileserver_workers", "50" }, { "fileserver_seconds", "60" } } },
	{ "fileserver-aged", { { "fs", set_all_fs }, { "smallfile", "0" }, { "fileserver", "1" },
			       { "fileserver_aged", "1" }, { "fileserver_files", "100000" },
			       { "fileserver_size", "1280k" }, { "fileserver_workers", "50" },
			       { "fileserver_seconds", "60" } } },
};
const size_t set_nkeys = sizeof(set_keys) / sizeof(set_keys[0]);
const size_t set_nprofiles = sizeof(set_profiles) / sizeof(set_profiles[0]);

/* Per-filesystem keys follow the fixed ones in src[]/origin[]. */
_Static_assert(sizeof(set_keys) / sizeof(set_keys[0]) + 2 * FSB_MAX_FS <=
	       sizeof(((struct fsb_config *)0)->src),
	       "struct fsb_config: src[] and origin[] need a slot per key");

/* reference.c: the published figures of runner/SUITE.md (see reference.h).
 *
 * runner/SUITE.md gives, per filesystem, the median of 3 rounds of each phase and
 * the cold read split into the fresh round and the aged ones. The only
 * inode-order read published is aged ext4's (4.4 s, the remedy measured on
 * the aged filesystem); the other read_inode rows have no reference.
 */
#include "report/sections/reference.h"

static const struct rep_ref_fs ref_fs[] = {
	{ "ext4", 8.5, 0.45, 5.2, 35.3, 32.8, 4.4 },
	{ "xfs", 52.3, 1.05, 11.0, 11.0, 28.5, -1 },
	{ "btrfs", 70.5, 1.92, 4.8, 5.2, 23.5, -1 },
	{ "f2fs", 15.5, 3.17, 8.2, 8.2, 5.1, -1 },
};

const struct rep_reference rep_reference = {
	.run_id = "5417e000000000fe",
	.tool = "SUITE.md",
	.mode = "device",
	.hostname = "the published run",
	.kernel = "6.17",
	.target = "loop --direct-io=on over a 10 GB image file on NVMe",
	.profile = "seed",
	.dirs = 16,
	.files = 20000,
	.file_size = 4096,
	.workers = 16,
	.rounds = 3,
	.phase_files = 320000,
	.about = "A: SUITE.md's published run (kernel 6.17, loop --direct-io=on over a 10 GB"
		 " file on NVMe); `fsbench compare --reference` lists all four filesystems.",
	.about_variants = "A: SUITE.md's published run (kernel 6.17, loop --direct-io=on over a 10 GB"
		 " file on NVMe); `fsbench compare --reference` lists all four filesystems."
		 " A variant's rows (FS:NAME (A: FS)) hold its base filesystem's figures, made and"
		 " mounted with the default options.",
	.fs = ref_fs,
	.nfs = sizeof(ref_fs) / sizeof(ref_fs[0]),
};

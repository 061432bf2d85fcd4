/* reference.h: the published figures of runner/SUITE.md (reference.c), data only.
 * sidebyside.c turns them into a run, so `fsbench compare --reference B` and
 * the report of a seed-shaped run hold a run against them. */
#ifndef FSB_REPORT_REFERENCE_H
#define FSB_REPORT_REFERENCE_H

#include <stddef.h>

#define REP_REFERENCE_NAME "SUITE.md reference"	/* its input name in reports */

/* One filesystem's medians of 3 rounds, seconds; < 0: not published. */
struct rep_ref_fs {
	const char *fs;
	double create, stat, read_fresh, read_aged, del, read_inode_aged;
};

struct rep_reference {
	const char *run_id;	/* fixed: the same run every time */
	const char *tool, *mode, *hostname, *kernel, *target;
	const char *profile;	/* the workload: profile and shape */
	unsigned dirs, files, file_size, workers, rounds;
	unsigned phase_files;	/* files per phase: dirs x files */
	const char *about;	/* one line on where the figures come from */
	const char *about_variants;	/* the same, and what a variant's row holds */
	const struct rep_ref_fs *fs;
	size_t nfs;
};

extern const struct rep_reference rep_reference;

#endif

/* powercut.h: the power-cut campaign (setting `powercut`): per filesystem
 * of `fs`, `powercut` cycles, each a fresh mkfs, the durability workload
 * (run/stores/durable.h) with its acknowledgements in the results log, and a
 * cut from outside; the boot after the cut finds the cycle in the log
 * (resume.c), runs the filesystem's checker, mounts and checks every
 * acknowledged operation. runner/POWERCUTS.md says it for users. */
#ifndef FSB_POWERCUT_H
#define FSB_POWERCUT_H

#include <stdint.h>

#include "run/core/context.h"

/* The console lines whoever cuts the power matches (runner/POWERCUTS.md). */
#define FSB_PC_MARK "FSBENCH-POWERCUT:"
#define FSB_PC_WINDOW_OVER FSB_PC_MARK " window over, cut the power now"
#define FSB_PC_MAX_WORKERS 64
#define FSB_PC_MAX_BAD 16	/* lost and torn files named in a record */

/* What the log holds of the campaign a cut interrupted (resume.c). */
struct fsb_pc_resume {
	int found;		/* the log's last run is a campaign to go on with */
	char why[256];		/* a campaign there but not resumed: why */
	uint64_t run_id, next_seq;
	double last_t;		/* the last record's t */
	int fs_ok, fs_failed;	/* its fs_end records so far */
	int failed;		/* a cycle or a filesystem failed so far */
	int fs_failed_now;	/* a cycle of the armed filesystem failed so far */
	/* the last powercut_arm, and whether its powercut record is there */
	int armed, verified;
	int fs_ended;		/* the armed filesystem's fs_end is there (its last cycle checked) */
	char fs[32];
	unsigned cycle, cycles, window, workers, files;
	unsigned lead;		/* ops that may have been in flight past the last batch */
	uint32_t seed;
	uint64_t cycle_seed;
	int have_before;
	uint64_t unsafe_before, power_before;
	/* the last powercut_ack of the armed cycle */
	unsigned nops;
	uint64_t ops[FSB_PC_MAX_WORKERS];
	double at;
	int final;
};

/* Read the log at path (which may not exist yet) for a campaign of cfg's
 * settings that a cut interrupted. 0 (rs->found says), or -errno. */
int fsb_pc_scan(const char *path, const struct fsb_config *cfg, struct fsb_pc_resume *rs);

struct fsb_disk;
/* The campaign on target t: the interrupted cycle's check (rs->found),
 * then the next cycle, which never returns (it waits for the cut); returns
 * when the last cycle of the last filesystem is checked. */
void fsb_powercut_run(struct fsb_ctx *c, const struct fsb_disk *t, const struct fsb_pc_resume *rs);

#endif

/* pccheck.h: the check of a power-cut cycle on the boot after the cut
 * (run/engine/powercut.h): the filesystem's checker, read-only, before the
 * mount; the mount (the journal replays); every slot of every worker
 * against what the log acknowledged; the powercut record. */
#ifndef FSB_PCCHECK_H
#define FSB_PCCHECK_H

#include "run/engine/powercut.h"

struct fsb_column;
/* 0 when the cycle passed (nothing lost or torn, the checker clean), 1
 * when it failed. */
int fsb_pc_check(struct fsb_ctx *c, const struct fsb_disk *t, const struct fsb_column *col,
		 unsigned long mflags, const char *mdata, const struct fsb_pc_resume *rs);

#endif

/* suite.h: the rounds x phases of every filesystem. */
#ifndef FSB_SUITE_H
#define FSB_SUITE_H

#include "run/core/context.h"
#include "run/target/target.h"

/* Run the suite on target (device mode) or in cfg.dir (target == NULL).
 * Emits fs_start / phase_start / phase / error / fs_end records. */
void fsb_suite_run(struct fsb_ctx *c, const struct fsb_disk *target);

#endif

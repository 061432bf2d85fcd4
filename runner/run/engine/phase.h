/* phase.h: the phases of the suite, one row each (their row type and the
 * worker's interface are run/core/worker.h's), and one timed phase run by a
 * set of worker processes. */
#ifndef FSB_PHASE_H
#define FSB_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/worker.h"

extern const struct fsb_phase_def fsb_phases[];
extern const size_t fsb_phase_count;

/* The records' "order" of a phase: readdir, name, inode, or create_order for
 * the phase that creates. */
const char *fsb_phase_order(const struct fsb_phase_def *ph, const char *create_order);

/* Put a listing in walk order (WALK_NAME, WALK_INODE; others: unchanged). */
void fsb_walk_sort(struct fsb_entry *ent, size_t n, enum fsb_walk walk);

struct fsb_workers;

/* Shared state for up to n workers, allocated once per run. */
struct fsb_workers *fsb_workers_new(uint32_t n);
void fsb_workers_free(struct fsb_workers *w);
struct fsb_wstate *fsb_worker_state(struct fsb_workers *w, uint32_t i);

/* Run one phase. Returns 0 (see res for what happened) or -errno when the
 * workers could not be started. */
int fsb_phase_run(struct fsb_workers *w, const struct fsb_phase_args *a,
		  struct fsb_phase_result *res);

#endif

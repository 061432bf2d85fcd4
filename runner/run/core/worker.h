/* worker.h: what the work of a phase, written outside phase.c (files.c,
 * run/stores/pack.c), may use of its worker: the phase's arguments, the
 * worker's state (counts, latency histogram), its buffers, its error list
 * and the clock. */
#ifndef FSB_WORKER_H
#define FSB_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "run/engine/phase.h"

const struct fsb_phase_args *fsb_w_args(const struct fsb_wctx *w);
struct fsb_wstate *fsb_w_state(struct fsb_wctx *w);
/* The worker's buffer: *len bytes (min(file_size, 1 MiB), at least 4 KiB),
 * page-aligned, allocated before the barrier. */
unsigned char *fsb_w_buf(struct fsb_wctx *w, size_t *len);
/* A phase that creates in a shuffled order (create_order): the worker's
 * room for the order of one directory (files numbers); NULL otherwise. */
uint32_t *fsb_w_perm(struct fsb_wctx *w);
/* Record an error of file idx of directory dir (idx UINT32_MAX: the
 * directory or the store itself): errno err, or verify = 1 for wrong
 * content (off: the first wrong byte, count: how many). Returns 1 when the
 * worker must stop (a fatal errno, or too many errors). */
int fsb_w_error(struct fsb_wctx *w, const char *op, uint32_t dir, uint32_t idx, int err,
		int verify, uint64_t off, uint64_t count);

/* CLOCK_MONOTONIC nanoseconds, inline: the work reads it once a file */
static inline uint64_t fsb_w_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif

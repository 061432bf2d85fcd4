/* lockstep.h: workers that take turns file by file (the setting
 * create_lockstep): worker 0 creates its next file, then worker 1, ...,
 * then worker 0 again, so the filesystem sees the workers' allocations
 * interleaved one file at a time, as when every worker has a core of its
 * own (runner/SUITE.md, the aging study).
 *
 * The turn lives in memory shared by the worker processes (made before the
 * fork). A worker that has no more files, or has died, leaves: its turns
 * are skipped from then on, so workers with fewer files (dirs not a
 * multiple of workers) or one that stopped on an error never hold up the
 * others. Waiting is a futex per worker, woken by the one that passes it
 * the turn; a waiter also looks every 20 ms whether the holder has left. */
#ifndef FSB_LOCKSTEP_H
#define FSB_LOCKSTEP_H

#include <stdint.h>

struct fsb_lockstep;

/* n workers (1 to 4096), worker 0's turn first; NULL with errno set. */
struct fsb_lockstep *fsb_lockstep_new(uint32_t n);
void fsb_lockstep_free(struct fsb_lockstep *ls);

/* In worker me: pass the turn on when *held (the file of the turn is
 * done), then wait for the next one; *held is 1 on return. Call it before
 * each file. */
void fsb_lockstep_next(struct fsb_lockstep *ls, uint32_t me, int *held);

/* Worker me has no more files (in the worker), or has exited (in the
 * parent): its turns are skipped, and a turn it holds is passed on. */
void fsb_lockstep_leave(struct fsb_lockstep *ls, uint32_t me);

/* Turns taken so far (each fsb_lockstep_next that returned). */
uint64_t fsb_lockstep_turns(const struct fsb_lockstep *ls);

#endif

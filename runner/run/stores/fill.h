/* fill.h: runner/SUITE.md's aging comparison: the 4 KiB random write
 * (fio's randwrite) on a fresh filesystem, then the filesystem filled to
 * fill_pct with files of mixed sizes, fill_delete_pct of them deleted at
 * random, filled again to fill_pct, and the same random write once more:
 * one `fill` record with both results and the levels reached.
 *
 * The files are written by the runner itself, not by fio: the fill must
 * stop at a level measured with statvfs, keep the list of its files to
 * delete a random share of them, and take ENOSPC as "full", none of which
 * a fio job can do. Sizes come from a fixed seed (the same files on every
 * machine): an octave of 4 KiB blocks 2^e (e = 0..7) picked uniformly,
 * then a size uniform in [2^e, 2^(e+1)] blocks: 4 KiB to 1 MiB, mean
 * about 190 KiB.
 */
#ifndef FSB_FILL_H
#define FSB_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/context.h"
#include "run/stores/fio.h"

#define FSB_FILL_SEED 0x66696c6cull	/* "fill" */

/* The size of the n-th file drawn from *state (splitmix64), in bytes. */
uint64_t fsb_fill_size(uint64_t *state);
/* A filesystem's fill level as df shows it: used / (used + available). */
double fsb_fill_level(uint64_t blocks, uint64_t bfree, uint64_t bavail);

/* The fill test on one filesystem (setting fill); 0, or -1 with why (the
 * failure has its error record). */
int fsb_fill_fs(struct fsb_ctx *c, struct fsb_fresh *fr, char *why, size_t len);

/* What the aging of fsb_fill_age did. */
struct fsb_age {
	uint64_t written, deleted;	/* files */
	uint64_t bytes;			/* written */
	double seconds;			/* the whole aging, each stage's syncfs included */
	double peak;			/* the level the second fill reached */
	double level;			/* the level it left */
};

/* The fill's stages as aging, without its random writes: fill to
 * fill_pct, delete fill_delete_pct of the files at random, fill again,
 * then delete fill_delete_pct once more, so that the free space it leaves
 * is holes between its files (the fill's files stay, in the directory
 * `fill`). Each stage is tagged for the kernel's messages as `aging`. 0,
 * or -1 with why (the failure has its error record, phase `aging`). */
int fsb_fill_age(struct fsb_ctx *c, const char *fs, const char *mnt, struct fsb_age *a,
		 char *why, size_t len);

#endif

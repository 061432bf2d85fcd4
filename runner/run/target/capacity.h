/* capacity.h: does the target hold what it claims? The capacity check
 * (setting `capacity`) writes signatures across the whole target and
 * reads them back past every cache: fake-capacity flash (a "64 GB" card
 * that wraps around at 8 GB), and a device that returns zeros, stale data
 * or errors past its real size, are caught with the real size.
 *
 * Each 512-byte sector written carries a signature: a magic, the run id,
 * the sector's own offset, the pass that wrote it and a CRC32C. The spread
 * pass writes a dense region [0, stride) in 1 MiB writes, one 4 KiB block
 * at each multiple of the stride (a power of two, at least 1 MiB, with at
 * most FSB_CAP_GRID of them) and the last block, from the end down (of the
 * offsets that land on one block, the lowest writes last); then flushes
 * (fsync: the device's cache; BLKFLSBUF: the host's) and reads everything
 * back with O_DIRECT. A device that wraps at R (the offset x lands on
 * x mod R) puts the first grid block at or past R onto the dense region:
 * its read names the dense block, and the pair gives R.
 * Blocks that read back zeros, an older pass, not a signature of this
 * run, or an error, from one on to the end, are past the real size (a bad
 * block with good ones after it is a media error or a lost write: counted,
 * not a capacity lie). Either way a bisection between
 * the last good sample and the first bad one (fresh signatures, a flush,
 * the reads) finds the first bad offset to the 4 KiB block.
 *
 * What it cannot see: a device that maps the offsets past its real size
 * somewhere other than onto its start (an FTL that scatters them); only a
 * write of every block (f3write, h2testw) finds that. A device's own RAM
 * cache that survives the flush can hide a wrap for the blocks it holds.
 *
 * It writes only within [0, size) of the I/O it is given, and saves
 * nothing it overwrote: the run formats the target right after. */
#ifndef FSB_CAPACITY_H
#define FSB_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include "log/record.h"

#define FSB_CAP_SECTOR 512u		/* a signature's size */
#define FSB_CAP_BLOCK 4096u		/* a grid sample's size, and the precision */
#define FSB_CAP_CHUNK (1u << 20)	/* the dense region's writes and reads */
#define FSB_CAP_MIN_STRIDE (1ull << 20)
#define FSB_CAP_GRID 4096u		/* grid samples at most (beyond the dense region) */

/* The device under the check: size bytes, reached through these calls (a
 * block device, or a made-up device in a test). Each returns 0 when len
 * bytes moved, else -errno (a short transfer is -EIO). flush puts what was
 * written on the media and drops any cached copy. */
struct fsb_cap_io {
	void *h;
	uint64_t size;
	int (*pread)(void *h, void *buf, size_t len, uint64_t off);
	int (*pwrite)(void *h, const void *buf, size_t len, uint64_t off);
	int (*flush)(void *h);
};

/* What the first bad offset held. */
enum fsb_cap_found {
	FSB_CAP_OK = 0,
	FSB_CAP_ALIAS,		/* the signature of another offset: the two are one block */
	FSB_CAP_ZEROS,		/* zeros */
	FSB_CAP_STALE,		/* this run's signature of an earlier pass: the write was lost */
	FSB_CAP_GARBAGE,	/* no signature of this run */
	FSB_CAP_EIO,		/* the read or the write failed (err) */
};

struct fsb_cap_result {
	uint64_t claimed;	/* the size the device says */
	uint64_t verified;	/* claimed when honest, else the real size found */
	int honest;
	enum fsb_cap_found found;	/* !honest: what the first bad offset held */
	int err;		/* FSB_CAP_EIO: the errno */
	uint64_t first_bad;	/* !honest: the first offset that fails (== verified) */
	int have_alias;
	uint64_t alias_offset, alias_of;	/* the first offset that aliases an earlier one, and that one */
	uint64_t bad_blocks;	/* blocks that did not read back below the real size (good
				 * ones after them): media errors or lost writes, not a
				 * capacity lie; the filesystems meet them */
	uint64_t stride;	/* between grid samples; also the dense region's size */
	uint64_t written, read;	/* signature blocks (4 KiB) written and read back */
	uint64_t ios;		/* read, write and flush calls */
	unsigned steps;		/* bisection steps */
	double seconds;
};

/* The spread pass for a device of size bytes: its stride, and its I/O
 * calls (writes, one flush, reads; the bisection adds at most 5 per step,
 * log2(stride / 4 KiB) steps). */
void fsb_cap_plan(uint64_t size, uint64_t *stride, uint64_t *ios);
/* The check on io. 0 and *res; -errno when it could not be made (no
 * memory, a device smaller than 4 KiB, the first block or a flush failing:
 * the device's I/O is broken, which says nothing of its size). */
int fsb_cap_check(const struct fsb_cap_io *io, uint64_t run_id, struct fsb_cap_result *res);
/* "alias", "zeros", "stale", "garbage", "error". */
const char *fsb_cap_found_name(enum fsb_cap_found f);

/* The block device at path for the check: opened O_RDWR | O_DIRECT |
 * O_EXCL (a device mounted or held elsewhere is refused), its size from
 * BLKGETSIZE64. 0, or -errno. */
int fsb_cap_open(const char *path, struct fsb_cap_io *io);
void fsb_cap_close(struct fsb_cap_io *io);
/* The capacity record's fields (after fsb_rec_start). */
void fsb_cap_json(struct fsb_rec *r, const char *device, const struct fsb_cap_result *res);

#endif

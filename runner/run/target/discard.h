/* discard.h: what the target's discard (TRIM, deallocate) promises: the
 * block layer's limits from sysfs (queue/discard_granularity,
 * discard_max_bytes, discard_max_hw_bytes, write_zeroes_max_bytes) and,
 * on NVMe, DLFEAT from Identify Namespace (what a read of a deallocated
 * block returns); and the check of that promise: a range of the raw
 * target written, discarded (BLKDISCARD) and read back with O_DIRECT.
 *
 * Library code: reads and decodes, returns -errno, never prints. What
 * cannot be read is kept as a reason ("not available: ..."). */
#ifndef FSB_DISCARD_H
#define FSB_DISCARD_H

#include <stddef.h>
#include <stdint.h>

#include "log/record.h"
#include "run/target/target.h"

/* Identify Namespace (CNS 0): 4096 bytes, DLFEAT at byte 33. */
#define FSB_NVME_IDENTIFY_LEN 4096
#define FSB_NVME_ID_NS_DLFEAT 33

/* DLFEAT bits 2:0: the value read from a deallocated logical block. */
enum fsb_dlfeat_read {
	FSB_DLFEAT_NOT_REPORTED = 0,	/* 000b */
	FSB_DLFEAT_ZEROES = 1,		/* 001b: all bytes 0x00 */
	FSB_DLFEAT_ONES = 2,		/* 010b: all bytes 0xff */
	FSB_DLFEAT_RESERVED = 3,	/* 011b to 111b */
};

struct fsb_dlfeat {
	uint8_t raw;
	enum fsb_dlfeat_read read;
	int write_zeroes_dealloc;	/* bit 3: Write Zeroes may deallocate (DEAC) */
	int guard_crc;			/* bit 4: the guard field of a deallocated block is its CRC */
};

struct fsb_discard {
	int have_limits;		/* the sysfs queue attributes were read */
	uint64_t granularity, max_bytes, max_hw_bytes, write_zeroes_max;
	char limits_why[320];		/* "not available: ..." when !have_limits */
	int have_dlfeat;
	struct fsb_dlfeat dlfeat;
	char dlfeat_why[200];		/* "not available: ..." when !have_dlfeat */
};

/* Decode the DLFEAT byte. */
void fsb_dlfeat_decode(uint8_t raw, struct fsb_dlfeat *d);
/* "not reported", "zeroes", "ones", "reserved" */
const char *fsb_dlfeat_read_text(enum fsb_dlfeat_read r);
/* DLFEAT from an Identify Namespace data structure of len bytes: 0, or
 * -EINVAL when it is too short. */
int fsb_id_ns_dlfeat(const uint8_t *id, size_t len, struct fsb_dlfeat *d);

/* Read what the disk d promises into x (sysfs, and on NVMe Identify
 * Namespace through the admin passthrough). Always fills x; 0. */
int fsb_discard_probe(const struct fsb_disk *d, struct fsb_discard *x);
/* x as the object member key of r. */
void fsb_discard_json(struct fsb_rec *r, const char *key, const struct fsb_discard *x);

/* The read-back check of one range. */
struct fsb_zero_check {
	uint64_t offset, length;	/* the range, bytes */
	uint64_t nonzero_bytes;		/* bytes of it that were not 0 after the discard */
	uint64_t first_nonzero;		/* offset on the device of the first of them */
	int written;			/* a pattern was written and read back before the discard */
	double seconds;
};

/* The range the check uses on a device of size bytes with the discard
 * granularity gran (0: unknown): length bytes (a multiple of the
 * granularity, at least 1 MiB) at an offset aligned to it in the middle
 * of the device. -EINVAL when the device is too small. */
int fsb_zero_range(uint64_t size, uint64_t gran, uint64_t *offset, uint64_t *length);
/* Count the bytes of buf[0..len) that are not 0: the count, the index of
 * the first in *first (len when none). */
uint64_t fsb_nonzero(const uint8_t *buf, size_t len, size_t *first);
/* On the block device path (the named target only): write a pattern to
 * the range, read it back, BLKDISCARD it, read it back with O_DIRECT and
 * count what is not zero. 0 (the counts in k), or -errno with what failed
 * in op ("open", "write", "discard", "read"). */
int fsb_zero_check_run(const char *path, struct fsb_zero_check *k, const char **op);

#endif

/* zone.h: the target's zone model. A zoned block device (host-managed SMR
 * disk, ZNS NVMe namespace) is split into zones that are written only
 * sequentially, at their write pointer, and reset whole; the kernel says
 * so in sysfs (queue/zoned: none, host-aware, host-managed;
 * queue/chunk_sectors: the zone size; queue/nr_zones; queue/max_open_zones
 * and queue/max_active_zones, 0 for no limit) and hands out the zones
 * themselves through the BLKREPORTZONE ioctl (each zone's type, condition,
 * write pointer and capacity: a ZNS zone may hold less than its size).
 *
 * Library code: reads and decodes, returns -errno, never prints. What
 * cannot be read is kept as a reason ("not available: ..."). */
#ifndef FSB_ZONE_H
#define FSB_ZONE_H

#include <stddef.h>
#include <stdint.h>

#include "log/record.h"

enum fsb_zone_model {
	FSB_ZONE_NONE = 0,		/* a conventional device: random writes anywhere */
	FSB_ZONE_HOST_AWARE,		/* zones, but random writes still accepted */
	FSB_ZONE_HOST_MANAGED,		/* sequential-write-required zones: random writes fail */
};

/* The block layer's facts, from the disk's queue folder in sysfs. */
struct fsb_zoneinfo {
	int have;			/* queue/zoned was read and understood */
	enum fsb_zone_model model;
	uint64_t zone_bytes;		/* chunk_sectors x 512 (0: none, or not zoned) */
	uint64_t nr_zones;		/* queue/nr_zones (Linux 4.20) */
	int have_limits;		/* max_open_zones and max_active_zones were read (Linux 5.9) */
	uint64_t max_open, max_active;	/* 0: no limit */
	char why[160];			/* "not available: ..." when !have */
};

/* The zones as BLKREPORTZONE reports them (linux/blkzoned.h, a stable
 * UAPI, written out here: musl's headers do not carry it). */
struct fsb_blk_zone {
	uint64_t start;			/* sectors */
	uint64_t len;			/* sectors */
	uint64_t wp;			/* the write pointer, sectors */
	uint8_t type;			/* FSB_ZONE_TYPE_* */
	uint8_t cond;			/* FSB_ZONE_COND_* */
	uint8_t non_seq;
	uint8_t reset;
	uint8_t resv[4];
	uint64_t capacity;		/* sectors, with FSB_ZONE_REP_CAPACITY */
	uint8_t reserved[24];
};
_Static_assert(sizeof(struct fsb_blk_zone) == 64, "struct blk_zone is 64 bytes");
struct fsb_blk_zone_report {
	uint64_t sector;
	uint32_t nr_zones;
	uint32_t flags;			/* FSB_ZONE_REP_CAPACITY: capacity is valid */
};
_Static_assert(sizeof(struct fsb_blk_zone_report) == 16, "struct blk_zone_report is 16 bytes");
#define FSB_ZONE_REP_CAPACITY 1u
#define FSB_ZONE_TYPE_CONVENTIONAL 1
#define FSB_ZONE_TYPE_SEQWRITE_REQ 2
#define FSB_ZONE_TYPE_SEQWRITE_PREF 3
#define FSB_ZONE_COND_NOT_WP 0
#define FSB_ZONE_COND_EMPTY 1
#define FSB_ZONE_COND_IMP_OPEN 2
#define FSB_ZONE_COND_EXP_OPEN 3
#define FSB_ZONE_COND_CLOSED 4
#define FSB_ZONE_COND_READONLY 0xd
#define FSB_ZONE_COND_FULL 0xe
#define FSB_ZONE_COND_OFFLINE 0xf

/* The zones summed up: how many of each type, the sequential zones by
 * condition, what their write pointers say is written, their capacity. */
struct fsb_zone_tally {
	uint64_t zones;
	uint64_t conventional, seq_required, seq_preferred, other_type;
	uint64_t empty, open, closed, full, readonly, offline;	/* sequential zones */
	uint64_t written_bytes;		/* sequential zones: (wp - start) x 512, full ones whole */
	int capacity_reported;		/* the kernel gave each zone's capacity */
	uint64_t capacity_min, capacity_max;	/* sequential zones, bytes */
};

/* "none", "host-aware", "host-managed" into *m: 0, or -EINVAL. */
int fsb_zone_model_parse(const char *text, enum fsb_zone_model *m);
const char *fsb_zone_model_text(enum fsb_zone_model m);
/* The facts from a queue folder (/sys/class/block/DISK/queue, or a
 * folder of a test with the same files). Always fills z; 0. */
int fsb_zoneinfo_read(const char *queue_dir, struct fsb_zoneinfo *z);
/* Sequential-write-required zones: only what writes at the write pointer
 * works (every filesystem but a zoned one fails on it). */
static inline int fsb_zoned_strict(const struct fsb_zoneinfo *z)
{
	return z->have && z->model == FSB_ZONE_HOST_MANAGED;
}

/* Add n reported zones to t (flags: the report's, FSB_ZONE_REP_CAPACITY). */
void fsb_zone_tally_add(struct fsb_zone_tally *t, const struct fsb_blk_zone *z, size_t n,
			uint32_t flags);
/* Every zone of the block device at path through BLKREPORTZONE into t:
 * 0, or -errno (ENOTTY: the kernel has no zoned block device support). */
int fsb_zone_report(const char *path, struct fsb_zone_tally *t);

/* The facts (and for a zoned device the report of the device at path,
 * or why there is none) as the object member key of r. */
void fsb_zone_json(struct fsb_rec *r, const char *key, const struct fsb_zoneinfo *z, const char *path);

#endif

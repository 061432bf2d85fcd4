/* zone.c: the target's zone model from sysfs and BLKREPORTZONE (zone.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/sysfs.h"
#include "run/target/zone.h"

/* linux/blkzoned.h: BLKREPORTZONE _IOWR(0x12, 130, struct blk_zone_report) */
#define BLKREPORTZONE_ _IOWR(0x12, 130, struct fsb_blk_zone_report)

#define REPORT_CHUNK 256	/* zones asked for per ioctl: 16 KiB */

static const char *const model_names[] = {
	[FSB_ZONE_NONE] = "none",
	[FSB_ZONE_HOST_AWARE] = "host-aware",
	[FSB_ZONE_HOST_MANAGED] = "host-managed",
};

int fsb_zone_model_parse(const char *text, enum fsb_zone_model *m)
{
	for (size_t i = 0; i < sizeof(model_names) / sizeof(model_names[0]); i++)
		if (text && !strcmp(text, model_names[i])) {
			*m = (enum fsb_zone_model)i;
			return 0;
		}
	return -EINVAL;
}

const char *fsb_zone_model_text(enum fsb_zone_model m)
{
	return (unsigned)m < sizeof(model_names) / sizeof(model_names[0]) ? model_names[m] : "?";
}

int fsb_zoneinfo_read(const char *queue_dir, struct fsb_zoneinfo *z)
{
	char buf[64];
	uint64_t sectors = 0;
	int e;

	memset(z, 0, sizeof(*z));
	e = fsb_read_attr(queue_dir, "zoned", buf, sizeof(buf));
	if (e < 0) {
		snprintf(z->why, sizeof(z->why), "not available: %.100s/zoned: %s", queue_dir, strerror(-e));
		return 0;
	}
	if (fsb_zone_model_parse(buf, &z->model) < 0) {
		snprintf(z->why, sizeof(z->why), "not available: %.100s/zoned: unknown model '%.20s'",
			 queue_dir, buf);
		return 0;
	}
	z->have = 1;
	if (z->model == FSB_ZONE_NONE)
		return 0;
	/* the zone size; chunk_sectors is the zone size on a zoned disk */
	if (fsb_attr_u64(queue_dir, "chunk_sectors", &sectors) == 0)
		z->zone_bytes = sectors * 512;
	if (fsb_attr_u64(queue_dir, "nr_zones", &z->nr_zones) < 0)
		z->nr_zones = 0;
	z->have_limits = fsb_attr_u64(queue_dir, "max_open_zones", &z->max_open) == 0 &&
			 fsb_attr_u64(queue_dir, "max_active_zones", &z->max_active) == 0;
	if (!z->have_limits)
		z->max_open = z->max_active = 0;
	return 0;
}

void fsb_zone_tally_add(struct fsb_zone_tally *t, const struct fsb_blk_zone *z, size_t n,
			uint32_t flags)
{
	for (size_t i = 0; i < n; i++, z++) {
		uint64_t cap = (flags & FSB_ZONE_REP_CAPACITY) ? z->capacity : z->len;

		t->zones++;
		if (z->type == FSB_ZONE_TYPE_CONVENTIONAL) {
			t->conventional++;
			continue;
		}
		if (z->type == FSB_ZONE_TYPE_SEQWRITE_REQ)
			t->seq_required++;
		else if (z->type == FSB_ZONE_TYPE_SEQWRITE_PREF)
			t->seq_preferred++;
		else {
			t->other_type++;
			continue;
		}
		switch (z->cond) {
		case FSB_ZONE_COND_EMPTY: t->empty++; break;
		case FSB_ZONE_COND_IMP_OPEN: case FSB_ZONE_COND_EXP_OPEN: t->open++; break;
		case FSB_ZONE_COND_CLOSED: t->closed++; break;
		case FSB_ZONE_COND_FULL: t->full++; break;
		case FSB_ZONE_COND_READONLY: t->readonly++; break;
		case FSB_ZONE_COND_OFFLINE: t->offline++; break;
		default: break;
		}
		/* a full zone's write pointer means nothing: its capacity is written */
		if (z->cond == FSB_ZONE_COND_FULL)
			t->written_bytes += cap * 512;
		else if (z->cond != FSB_ZONE_COND_OFFLINE && z->wp > z->start && z->wp - z->start <= z->len)
			t->written_bytes += (z->wp - z->start) * 512;
		if (t->seq_required + t->seq_preferred == 1 || cap * 512 < t->capacity_min)
			t->capacity_min = cap * 512;
		if (cap * 512 > t->capacity_max)
			t->capacity_max = cap * 512;
		if (flags & FSB_ZONE_REP_CAPACITY)
			t->capacity_reported = 1;
	}
}

int fsb_zone_report(const char *path, struct fsb_zone_tally *t)
{
	size_t size = sizeof(struct fsb_blk_zone_report) + REPORT_CHUNK * sizeof(struct fsb_blk_zone);
	struct fsb_blk_zone_report *rep;
	uint64_t sector = 0;
	int fd, e = 0;

	memset(t, 0, sizeof(*t));
	if (!(rep = malloc(size)))
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		e = -errno;
		free(rep);
		return e;
	}
	for (;;) {
		const struct fsb_blk_zone *z = (const void *)(rep + 1);
		memset(rep, 0, size);
		rep->sector = sector;
		rep->nr_zones = REPORT_CHUNK;
		if (ioctl(fd, BLKREPORTZONE_, rep) < 0) {
			e = -errno;
			break;
		}
		if (rep->nr_zones == 0)
			break;
		fsb_zone_tally_add(t, z, rep->nr_zones, rep->flags);
		const struct fsb_blk_zone *last = &z[rep->nr_zones - 1];
		if (last->start + last->len <= sector || last->len == 0) {
			e = -EIO;	/* no progress: a report the kernel should not give */
			break;
		}
		sector = last->start + last->len;
	}
	close(fd);
	free(rep);
	return e;
}

void fsb_zone_json(struct fsb_rec *r, const char *key, const struct fsb_zoneinfo *z, const char *path)
{
	struct fsb_zone_tally t;
	char why[160];
	int e;

	if (!z->have) {
		rec_str(r, key, z->why);
		return;
	}
	rec_obj(r, key);
	rec_str(r, K(model), fsb_zone_model_text(z->model));
	if (z->model == FSB_ZONE_NONE) {
		rec_close(r);
		return;
	}
	rec_u64(r, K(zone_bytes), z->zone_bytes);
	rec_u64(r, K(zones), z->nr_zones);
	if (z->have_limits) {
		rec_u64(r, K(max_open_zones), z->max_open);
		rec_u64(r, K(max_active_zones), z->max_active);
	} else {
		rec_str(r, K(limits), "not available: no queue/max_open_zones, queue/max_active_zones (before Linux 5.9)");
	}
	e = path && path[0] ? fsb_zone_report(path, &t) : -ENODEV;
	if (e < 0) {
		snprintf(why, sizeof(why), "not available: BLKREPORTZONE on %.80s: %s", path ? path : "",
			 strerror(-e));
		rec_str(r, K(report), why);
	} else {
		rec_obj(r, K(report));
		rec_u64(r, K(zones), t.zones);
		rec_u64(r, K(conventional), t.conventional);
		rec_u64(r, K(seq_required), t.seq_required);
		rec_u64(r, K(seq_preferred), t.seq_preferred);
		rec_u64(r, K(cond_empty), t.empty);
		rec_u64(r, K(cond_open), t.open);
		rec_u64(r, K(cond_closed), t.closed);
		rec_u64(r, K(cond_full), t.full);
		rec_u64(r, K(cond_readonly), t.readonly);
		rec_u64(r, K(cond_offline), t.offline);
		rec_u64(r, K(written_bytes), t.written_bytes);
		if (t.capacity_reported) {
			rec_u64(r, K(capacity_min_bytes), t.capacity_min);
			rec_u64(r, K(capacity_max_bytes), t.capacity_max);
		}
		rec_close(r);
	}
	rec_close(r);
}

/* freespace.c: the parts of the freespace record, one function per source,
 * and the filesystem table's hooks that put them together. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/exec.h"
#include "log/record.h"
#include "run/evidence/freespace.h"

/* The kernel's GETFSMAP interface (include/uapi/linux/fsmap.h), declared
 * here because musl has no kernel headers. */
struct fsb_fsmap {
	uint32_t fmr_device;
	uint32_t fmr_flags;
	uint64_t fmr_physical;
	uint64_t fmr_owner;
	uint64_t fmr_offset;
	uint64_t fmr_length;
	uint64_t fmr_reserved[3];
};

struct fsb_fsmap_head {
	uint32_t fmh_iflags;
	uint32_t fmh_oflags;
	uint32_t fmh_count;
	uint32_t fmh_entries;
	uint64_t fmh_reserved[6];
	struct fsb_fsmap fmh_keys[2];
	struct fsb_fsmap fmh_recs[];
};

#define FSB_FS_IOC_GETFSMAP _IOWR('X', 59, struct fsb_fsmap_head)
#define FSB_FMR_OF_LAST 0x20u
#define FSB_FMR_OWN_FREE 1u	/* FMR_OWNER(0, 1) */
#define FSMAP_BATCH 512

int fsb_fsmap_free(int fd, struct fsb_free_extents *fe)
{
	size_t size = sizeof(struct fsb_fsmap_head) + FSMAP_BATCH * sizeof(struct fsb_fsmap);
	struct fsb_fsmap_head *h = calloc(1, size);
	uint64_t run = 0, end = 0;	/* the free extent being merged */
	uint32_t dev = 0;
	int have = 0, last = 0;

	memset(fe, 0, sizeof(*fe));
	if (!h)
		return -ENOMEM;
	/* the high key as xfs_io sets it: everything up to the end (XFS
	 * refuses a high key with a length) */
	h->fmh_keys[1].fmr_device = UINT32_MAX;
	h->fmh_keys[1].fmr_flags = UINT32_MAX;
	h->fmh_keys[1].fmr_physical = UINT64_MAX;
	h->fmh_keys[1].fmr_owner = UINT64_MAX;
	h->fmh_keys[1].fmr_offset = UINT64_MAX;
	while (!last) {
		h->fmh_count = FSMAP_BATCH;
		h->fmh_entries = 0;
		if (ioctl(fd, FSB_FS_IOC_GETFSMAP, h) < 0) {
			int e = errno;
			free(h);
			return e == ENOTTY || e == EINVAL ? -EOPNOTSUPP : -e;
		}
		if (!h->fmh_entries)
			break;
		for (uint32_t i = 0; i < h->fmh_entries; i++) {
			const struct fsb_fsmap *m = &h->fmh_recs[i];
			if (m->fmr_flags & FSB_FMR_OF_LAST)
				last = 1;
			if (m->fmr_owner != FSB_FMR_OWN_FREE || !m->fmr_length)
				continue;
			if (have && m->fmr_device == dev && m->fmr_physical == end) {
				run += m->fmr_length;	/* adjacent: one extent */
				end += m->fmr_length;
				continue;
			}
			if (have) {
				fe->count++;
				fe->free_bytes += run;
				if (run > fe->largest_bytes)
					fe->largest_bytes = run;
			}
			have = 1;
			dev = m->fmr_device;
			run = m->fmr_length;
			end = m->fmr_physical + m->fmr_length;
		}
		/* go on after the last record returned */
		h->fmh_keys[0] = h->fmh_recs[h->fmh_entries - 1];
	}
	if (have) {
		fe->count++;
		fe->free_bytes += run;
		if (run > fe->largest_bytes)
			fe->largest_bytes = run;
	}
	free(h);
	return 0;
}

__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

/* The first line of text holding label; its rest after label, or NULL. */
static const char *after(const char *text, const char *label)
{
	const char *p = text;

	while ((p = strstr(p, label))) {
		if (p == text || p[-1] == '\n' || p[-1] == ' ' || p[-1] == '\t')
			return p + strlen(label);
		p++;
	}
	return NULL;
}

/* A whole number at p (after blanks), ending the word; end past it. -1
 * when there is none ("1.00GiB" is not one). */
static int num_at(const char *p, uint64_t *v, const char **end)
{
	char *e;
	unsigned long long n;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	n = strtoull(p, &e, 10);
	if (errno || (*e && !strchr(" \t\r\n,/", *e)))
		return -1;
	*v = n;
	if (end)
		*end = e;
	return 0;
}

int fsb_parse_e4defrag(const char *text, struct fsb_e4defrag *d, char *why, size_t len)
{
	const char *p = text ? after(text, "Fragmentation score") : NULL;
	const char *e;

	d->extents_now = d->extents_best = UINT64_MAX;
	if (!p)
		return bad(why, len, "e4defrag -c: no \"Fragmentation score\" line");
	if (num_at(p, &d->score, &e) < 0 || (*e && *e != '\n' && *e != ' ' && *e != '\r'))
		return bad(why, len, "e4defrag -c: \"Fragmentation score\" is not a whole number");
	if ((p = after(text, "Total/best extents"))) {
		uint64_t now, best;
		if (num_at(p, &now, &e) == 0 && *e == '/' && num_at(e + 1, &best, NULL) == 0) {
			d->extents_now = now;
			d->extents_best = best;
		}
	}
	return 0;
}

int fsb_parse_f2fs_segment_info(const char *text, uint32_t blocks_per_seg,
				struct fsb_f2fs_segments *s, char *why, size_t len)
{
	const char *p;
	uint64_t line = 0;

	memset(s, 0, sizeof(*s));
	if (!text || strncmp(text, "format: segment_type|valid_blocks\n", 34))
		return bad(why, len, "segment_info: not \"format: segment_type|valid_blocks\" on line 1");
	p = strchr(text + 34, '\n');	/* the legend line */
	if (!p)
		return bad(why, len, "segment_info: no segments");
	for (p++; *p; line++) {
		uint64_t first, v;
		const char *e;
		/* "0         3|0     3|12 ...": the line's first segment, then
		 * type|valid for up to ten segments */
		if (num_at(p, &first, &e) < 0 || first != s->segments)
			return bad(why, len, "segment_info: line %" PRIu64 " of the segments does not start"
				   " with segment %" PRIu64, line + 1, s->segments);
		p = e;
		for (;;) {
			while (*p == ' ')
				p++;
			if (*p == '\n' || !*p)
				break;
			if (*p < '0' || *p > '9' || p[1] != '|' || num_at(p + 2, &v, &e) < 0)
				return bad(why, len, "segment_info: segment %" PRIu64 ": not TYPE|VALID_BLOCKS",
					   s->segments);
			if (v > blocks_per_seg)
				return bad(why, len, "segment_info: segment %" PRIu64 ": %" PRIu64
					   " valid blocks, more than %u in a segment", s->segments, v,
					   blocks_per_seg);
			s->segments++;
			if (v == 0)
				s->empty++;
			else if (v == blocks_per_seg)
				s->full++;
			else {
				s->partial++;
				s->partial_valid += v;
			}
			if (v > s->max_valid)
				s->max_valid = v;
			p = e;
		}
		if (*p == '\n')
			p++;
	}
	if (!s->segments)
		return bad(why, len, "segment_info: no segments");
	return 0;
}

/* ---- the hooks ---- */

/* Run a tool (found in FSB_TOOL_PATH) into out; 0, or -1 with why said. */
static int run_tool(char *const argv[], char *out, size_t outlen, char *why, size_t len)
{
	char path[PATH_MAX];
	char *av[16];
	size_t n = 0;

	if (fsb_which(argv[0], path, sizeof(path)) < 0) {
		snprintf(why, len, "%s not found in %s", argv[0], FSB_TOOL_PATH);
		return -1;
	}
	av[n++] = path;
	for (size_t i = 1; argv[i] && n < 15; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	int r = fsb_exec(av, out, outlen, 600);
	if (r != 0) {	/* what it printed says why: on one line */
		size_t n = strlen(out);
		while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
			out[--n] = 0;
		for (char *p = out; *p; p++)
			if (*p == '\n' || *p == '\t')
				*p = *p == '\n' ? '|' : ' ';
		if (r < 0)
			snprintf(why, len, "%s: %s", argv[0], strerror(-r));
		else
			snprintf(why, len, "%s: exit status %d: %.180s", argv[0], r, out);
		return -1;
	}
	return 0;
}

static char *slurp(const char *path);

static void part_error(struct fsb_rec *r, const char *key, const char *why)
{
	rec_obj(r, key);
	rec_str(r, K(error), why);
	rec_close(r);
}

static void free_extents(struct fsb_rec *r, const char *mnt)
{
	struct fsb_free_extents fe;
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;

	if (fd < 0) {
		part_error(r, K(free_extents), strerror(errno));
		return;
	}
	e = fsb_fsmap_free(fd, &fe);
	close(fd);
	if (e < 0) {
		part_error(r, K(free_extents), e == -EOPNOTSUPP ? "no GETFSMAP on this kernel"
			   : strerror(-e));
		return;
	}
	rec_obj(r, K(free_extents));
	rec_str(r, K(source), "GETFSMAP");
	rec_u64(r, K(count), fe.count);
	rec_u64(r, K(free_bytes), fe.free_bytes);
	rec_u64(r, K(mean_bytes), fe.count ? fe.free_bytes / fe.count : 0);
	rec_u64(r, K(largest_bytes), fe.largest_bytes);
	rec_close(r);
}

void fsb_freespace_ext4(struct fsb_rec *r, const char *mnt, const char *dev)
{
	static char out[65536];	/* its 5 most fragmented files, a line per error */
	char why[256];
	char *argv[] = { "e4defrag", "-c", (char *)mnt, NULL };
	struct fsb_e4defrag d;

	(void)dev;
	free_extents(r, mnt);
	if (run_tool(argv, out, sizeof(out), why, sizeof(why)) < 0 ||
	    fsb_parse_e4defrag(out, &d, why, sizeof(why)) < 0) {
		part_error(r, K(defrag), why);
		return;
	}
	rec_obj(r, K(defrag));
	rec_str(r, K(source), "e4defrag -c");
	rec_u64(r, K(score), d.score);
	if (d.extents_now != UINT64_MAX) {
		rec_u64(r, K(extents_now), d.extents_now);
		rec_u64(r, K(extents_best), d.extents_best);
	}
	rec_close(r);
}

void fsb_freespace_xfs(struct fsb_rec *r, const char *mnt, const char *dev)
{
	(void)dev;
	free_extents(r, mnt);
}

/* A number from a one-number file of sysfs: 0, or -1 (why says). */
static int sysfs_num(const char *path, uint64_t *v, char *why, size_t len)
{
	char *t = slurp(path);
	int e = t ? num_at(t, v, NULL) : -1;

	if (e < 0)
		bad(why, len, "%s: %s", path, t ? "not a number" : strerror(errno));
	free(t);
	return e < 0 ? -1 : 0;
}

int fsb_btrfs_sysfs(const char *fsroot, const char *blockroot, const char *devname,
		    struct fsb_btrfs_usage *u, char *why, size_t len)
{
	static const char *const types[] = { "data", "metadata", "system" };
	static const char *const names[] = { "Data", "Metadata", "System" };
	char base[PATH_MAX], path[PATH_MAX + 128];
	uint64_t data_total = 0, data_used = 0, data_disk = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;

	memset(u, 0, sizeof(*u));
	/* the filesystem whose devices/ holds this device */
	base[0] = 0;
	if (!(d = opendir(fsroot)))
		return bad(why, len, "%s: %s", fsroot, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/devices/%s", fsroot, e->d_name, devname);
		if (lstat(path, &st) == 0) {
			snprintf(base, sizeof(base), "%s/%s", fsroot, e->d_name);
			break;
		}
	}
	closedir(d);
	if (!base[0])
		return bad(why, len, "%s: no btrfs with the device %s", fsroot, devname);
	/* its devices' sizes, as the block layer has them */
	snprintf(path, sizeof(path), "%s/devices", base);
	if (!(d = opendir(path)))
		return bad(why, len, "%s: %s", path, strerror(errno));
	int err = 0;
	while ((e = readdir(d)) && !err) {
		uint64_t sectors;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/size", blockroot, e->d_name);
		if (sysfs_num(path, &sectors, why, len) < 0)
			err = -1;
		else
			u->device_size += sectors * 512;
	}
	closedir(d);
	if (err)
		return -EBADMSG;
	/* each chunk type: its chunks on the disks, and per profile */
	for (size_t i = 0; i < 3; i++) {
		static const char *const attr[] = { "disk_total", "disk_used", "total_bytes", "bytes_used" };
		uint64_t disk_total, disk_used, total, used;
		uint64_t *v[] = { &disk_total, &disk_used, &total, &used };
		for (size_t j = 0; j < 4; j++) {
			snprintf(path, sizeof(path), "%s/allocation/%s/%s", base, types[i], attr[j]);
			if (sysfs_num(path, v[j], why, len) < 0)
				return -EBADMSG;
		}
		u->allocated += disk_total;
		u->used += disk_used;
		if (i == 0) {
			data_total = total;
			data_used = used;
			data_disk = disk_total;
		}
		/* the profiles: a folder each (single, dup, raid1, ...) */
		snprintf(path, sizeof(path), "%s/allocation/%s", base, types[i]);
		if (!(d = opendir(path)))
			return bad(why, len, "%s: %s", path, strerror(errno));
		while ((e = readdir(d)) && !err) {
			char sub[sizeof(path) + 320];
			struct fsb_btrfs_profile *f;
			if (e->d_name[0] == '.')
				continue;
			snprintf(sub, sizeof(sub), "%s/%s/total_bytes", path, e->d_name);
			if (stat(sub, &st) < 0)
				continue;	/* a number of the type, not a profile */
			if (u->nprof == FSB_BTRFS_PROFILES) {
				err = bad(why, len, "%s: more than %d chunk profiles", base, FSB_BTRFS_PROFILES);
				break;
			}
			f = &u->prof[u->nprof];
			snprintf(f->type, sizeof(f->type), "%s", names[i]);
			/* as btrfs prints them: single, DUP, RAID1, ... */
			size_t k;
			for (k = 0; e->d_name[k] && k + 1 < sizeof(f->profile); k++)
				f->profile[k] = strcmp(e->d_name, "single") ? (char)toupper((unsigned char)e->d_name[k])
									  : e->d_name[k];
			f->profile[k] = 0;
			if (sysfs_num(sub, &f->size, why, len) < 0) {
				err = -1;
				break;
			}
			snprintf(sub, sizeof(sub), "%s/%s/used_bytes", path, e->d_name);
			if (sysfs_num(sub, &f->used, why, len) < 0) {
				err = -1;
				break;
			}
			u->nprof++;
		}
		closedir(d);
		if (err)
			return -EBADMSG;
	}
	u->unallocated = u->device_size > u->allocated ? u->device_size - u->allocated : 0;
	/* free as `btrfs filesystem usage` estimates it: what the data chunks
	 * have left, and the unallocated space at the data profile's ratio */
	double ratio = data_total ? (double)data_disk / (double)data_total : 1.0;
	if (ratio < 1.0)
		ratio = 1.0;
	u->free_estimated = (data_total > data_used ? data_total - data_used : 0) +
			    (uint64_t)((double)u->unallocated / ratio);
	return 0;
}

void fsb_freespace_btrfs(struct fsb_rec *r, const char *mnt, const char *dev)
{
	char real[PATH_MAX], why[PATH_MAX + 192];
	struct fsb_btrfs_usage u;

	(void)mnt;
	if (!dev || !realpath(dev, real)) {
		part_error(r, K(btrfs), dev ? strerror(errno) : "no device");
		return;
	}
	const char *name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	if (fsb_btrfs_sysfs("/sys/fs/btrfs", "/sys/class/block", name, &u, why, sizeof(why)) < 0) {
		part_error(r, K(btrfs), why);
		return;
	}
	rec_obj(r, K(btrfs));
	rec_str(r, K(source), "/sys/fs/btrfs/FSID/allocation");
	rec_u64(r, K(device_size), u.device_size);
	rec_u64(r, K(allocated), u.allocated);
	rec_u64(r, K(unallocated), u.unallocated);
	rec_u64(r, K(used), u.used);
	rec_u64(r, K(free_estimated), u.free_estimated);
	rec_arr(r, K(profiles));
	for (size_t i = 0; i < u.nprof; i++) {
		rec_obj(r, NULL);
		rec_str(r, K(type), u.prof[i].type);
		rec_str(r, K(profile), u.prof[i].profile);
		rec_u64(r, K(size), u.prof[i].size);
		rec_u64(r, K(used), u.prof[i].used);
		rec_close(r);
	}
	rec_close(r);
	rec_close(r);
}

/* A file's whole text into a malloc'd buffer (NULL, errno set, on error). */
static char *slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, n = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	if (!(buf = malloc(cap))) {
		close(fd);
		return NULL;
	}
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	return buf;
}

void fsb_freespace_f2fs(struct fsb_rec *r, const char *mnt, const char *dev)
{
	/* the sysfs files worth a number, those this kernel has */
	static const char *const sysfs[] = {
		K(free_segments), K(dirty_segments), K(ovp_segments), K(reserved_blocks),
		K(gc_background_calls), K(gc_foreground_calls), K(moved_blocks_background),
		K(moved_blocks_foreground), K(unusable), NULL,
	};
	char real[PATH_MAX], path[PATH_MAX + 64], why[PATH_MAX + 192];
	const char *name;
	struct fsb_f2fs_segments s;

	(void)mnt;
	if (!dev || !realpath(dev, real)) {
		part_error(r, K(f2fs), dev ? strerror(errno) : "no device");
		return;
	}
	name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	snprintf(path, sizeof(path), "/proc/fs/f2fs/%s/segment_info", name);
	char *text = slurp(path);
	if (!text) {
		snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
		part_error(r, K(f2fs), why);
		return;
	}
	/* blocks per segment: 512 (2 MiB of 4 KiB blocks) unless sysfs says */
	uint32_t bps = 512;
	snprintf(path, sizeof(path), "/sys/fs/f2fs/%s/blks_per_seg", name);
	char *b = slurp(path);
	uint64_t v;
	if (b && num_at(b, &v, NULL) == 0 && v > 0 && v <= 65536)
		bps = (uint32_t)v;
	free(b);
	int e = fsb_parse_f2fs_segment_info(text, bps, &s, why, sizeof(why));
	free(text);
	if (e < 0) {
		part_error(r, K(f2fs), why);
		return;
	}
	rec_obj(r, K(f2fs));
	rec_str(r, K(source), "/proc/fs/f2fs/DEV/segment_info, /sys/fs/f2fs/DEV/");
	rec_u64(r, K(blocks_per_segment), bps);
	rec_u64(r, K(segments), s.segments);
	rec_u64(r, K(empty_segments), s.empty);
	rec_u64(r, K(full_segments), s.full);
	rec_u64(r, K(partial_segments), s.partial);
	rec_u64(r, K(partial_valid_blocks), s.partial_valid);
	for (size_t i = 0; sysfs[i]; i++) {
		snprintf(path, sizeof(path), "/sys/fs/f2fs/%s/%s", name, sysfs[i]);
		char *t = slurp(path);
		if (t && num_at(t, &v, NULL) == 0)
			rec_u64(r, sysfs[i], v);
		free(t);
	}
	rec_close(r);
}

void fsb_freespace_nilfs2(struct fsb_rec *r, const char *mnt, const char *dev)
{
	/* /sys/fs/nilfs2/DEV/: DEV the block device's name */
	static const char *const files[][2] = {
		{ "segments/segments_number", K(segments) },
		{ "segments/blocks_per_segment", K(blocks_per_segment) },
		{ "segments/clean_segments", K(clean_segments) },
		{ "segments/dirty_segments", K(dirty_segments) },
		{ "checkpoints/checkpoints_number", K(checkpoints) },
	};
	char real[PATH_MAX], path[PATH_MAX + 64], why[PATH_MAX + 192];
	uint64_t v[sizeof(files) / sizeof(files[0])];
	const char *name;

	(void)mnt;
	if (!dev || !realpath(dev, real)) {
		part_error(r, K(nilfs2), dev ? strerror(errno) : "no device");
		return;
	}
	name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/sys/fs/nilfs2/%s/%s", name, files[i][0]);
		if (sysfs_num(path, &v[i], why, sizeof(why)) < 0) {
			part_error(r, K(nilfs2), why);
			return;
		}
	}
	rec_obj(r, K(nilfs2));
	rec_str(r, K(source), "/sys/fs/nilfs2/DEV/");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		rec_u64(r, files[i][1], v[i]);
	rec_close(r);
}

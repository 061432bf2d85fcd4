/* fill.c: fill to fill_pct, delete fill_delete_pct at random, fill again,
 * and the 4 KiB random write before and after (fill.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/msg.h"
#include "lib/time.h"
#include "run/core/pattern.h"
#include "run/stores/fill.h"
#include "run/evidence/kmsg.h"

#define FILES_PER_DIR 1000
#define CHUNK (1u << 20)

uint64_t fsb_fill_size(uint64_t *state)
{
	uint64_t base = 1ull << (fsb_splitmix64(state) % 8);

	return (base + fsb_splitmix64(state) % (base + 1)) * 4096;
}

double fsb_fill_level(uint64_t blocks, uint64_t bfree, uint64_t bavail)
{
	uint64_t used = blocks > bfree ? blocks - bfree : 0;

	return used + bavail ? (double)used / (double)(used + bavail) : 1.0;
}

struct fill {
	struct fsb_ctx *c;
	const char *fs;
	int dfd;		/* the fill directory */
	uint64_t rng;
	uint32_t *live;		/* numbers of the files there are */
	size_t nlive, cap;
	uint32_t next;		/* number of the next file */
	unsigned char *buf;
	int err;		/* errno of a failure other than ENOSPC */
	char errfile[64];
};

/* What a stage did. */
struct stage {
	uint64_t files, bytes;
	double seconds, level;
	int enospc;
};

static int level_now(struct fill *f, double *level, uint64_t *total)
{
	struct statvfs vf;

	if (fstatvfs(f->dfd, &vf) < 0)
		return -errno;
	*level = fsb_fill_level(vf.f_blocks, vf.f_bfree, vf.f_bavail);
	uint64_t used = vf.f_blocks > vf.f_bfree ? vf.f_blocks - vf.f_bfree : 0;
	*total = (used + vf.f_bavail) * (uint64_t)vf.f_frsize;
	return 0;
}

static void names(uint32_t n, char *dir, char *path)
{
	snprintf(dir, 16, "d%04u", n / FILES_PER_DIR);
	snprintf(path, 32, "d%04u/f%07u", n / FILES_PER_DIR, n);
}

/* Write one file of size bytes; 0, 1 when the filesystem is full (the
 * partial file removed), -1 on another error (f->err). */
static int write_file(struct fill *f, uint64_t size, struct stage *st)
{
	char dir[16], path[32];
	uint32_t n = f->next;

	names(n, dir, path);
	if (n % FILES_PER_DIR == 0 && mkdirat(f->dfd, dir, 0755) < 0 && errno != EEXIST) {
		if (errno == ENOSPC)
			return 1;
		f->err = errno;
		snprintf(f->errfile, sizeof(f->errfile), "%s", dir);
		return -1;
	}
	int fd = openat(f->dfd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == ENOSPC)
			return 1;
		f->err = errno;
		snprintf(f->errfile, sizeof(f->errfile), "%s", path);
		return -1;
	}
	uint64_t done = 0;
	int e = 0;
	while (done < size) {
		size_t k = size - done < CHUNK ? (size_t)(size - done) : CHUNK;
		ssize_t w = write(fd, f->buf, k);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : ENOSPC;
			break;
		}
		done += (uint64_t)w;
	}
	if (close(fd) < 0 && !e)
		e = errno;
	if (e) {
		unlinkat(f->dfd, path, 0);
		if (e == ENOSPC || e == EDQUOT)
			return 1;
		f->err = e;
		snprintf(f->errfile, sizeof(f->errfile), "%s", path);
		return -1;
	}
	if (f->nlive == f->cap) {
		size_t nc = f->cap ? f->cap * 2 : 4096;
		uint32_t *nl = realloc(f->live, nc * sizeof(*nl));
		if (!nl) {
			unlinkat(f->dfd, path, 0);
			f->err = ENOMEM;
			snprintf(f->errfile, sizeof(f->errfile), "%s", path);
			return -1;
		}
		f->live = nl;
		f->cap = nc;
	}
	f->live[f->nlive++] = n;
	f->next++;
	st->files++;
	st->bytes += size;
	return 0;
}

/* Write files until the level reaches target (a fraction): each pass
 * writes what the gap measured after a syncfs holds, until the level is
 * there, the filesystem is full, or a pass gains nothing. */
static int fill_to(struct fill *f, double target, struct stage *st)
{
	double t0 = fsb_now(), level = 0, prev = -1;
	uint64_t total = 0;
	int e;

	memset(st, 0, sizeof(*st));
	for (int pass = 0; pass < 32; pass++) {
		if (syncfs(f->dfd) < 0 || (e = level_now(f, &level, &total)) < 0) {
			f->err = errno ? errno : EIO;
			snprintf(f->errfile, sizeof(f->errfile), ".");
			return -1;
		}
		if (level >= target || level <= prev || st->enospc)
			break;
		prev = level;
		uint64_t gap = (uint64_t)((target - level) * (double)total);
		if (gap < 4096)
			break;
		uint64_t written = 0;
		while (written < gap) {
			uint64_t size = fsb_fill_size(&f->rng);
			if (size > gap - written)	/* the last file: what is left, whole blocks */
				size = (gap - written + 4095) / 4096 * 4096;
			int r = write_file(f, size, st);
			if (r < 0)
				return -1;
			if (r > 0) {
				st->enospc = 1;
				break;
			}
			written += size;
		}
	}
	st->level = level;
	st->seconds = fsb_now() - t0;
	return 0;
}

/* Delete pct % of the files, picked with the seeded generator. */
static int delete_share(struct fill *f, unsigned pct, struct stage *st)
{
	double t0 = fsb_now();
	uint64_t total;
	size_t n = f->nlive * pct / 100;
	char dir[16], path[32];
	struct stat sb;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < n; i++) {	/* a partial Fisher-Yates shuffle */
		size_t j = i + (size_t)(fsb_splitmix64(&f->rng) % (f->nlive - i));
		uint32_t t = f->live[i];
		f->live[i] = f->live[j];
		f->live[j] = t;
		names(f->live[i], dir, path);
		if (fstatat(f->dfd, path, &sb, 0) == 0)
			st->bytes += (uint64_t)sb.st_size;
		if (unlinkat(f->dfd, path, 0) < 0) {
			f->err = errno;
			snprintf(f->errfile, sizeof(f->errfile), "%s", path);
			return -1;
		}
		st->files++;
	}
	memmove(f->live, f->live + n, (f->nlive - n) * sizeof(*f->live));
	f->nlive -= n;
	if (syncfs(f->dfd) < 0 || level_now(f, &st->level, &total) < 0) {
		f->err = errno;
		snprintf(f->errfile, sizeof(f->errfile), ".");
		return -1;
	}
	st->seconds = fsb_now() - t0;
	return 0;
}

static void stage_json(struct fsb_rec *r, const char *key, const struct stage *s)
{
	rec_obj(r, key);
	rec_u64(r, K(files), s->files);
	rec_u64(r, K(bytes), s->bytes);
	rec_dbl(r, K(seconds), s->seconds);
	rec_dbl(r, K(level), s->level);
	rec_bool(r, K(enospc), s->enospc);
	rec_close(r);
}

/* The random write on a new file of the filesystem, deleted after it. */
static int probe(struct fsb_ctx *c, const char *fio, const char *fs, const char *mnt,
		 uint64_t size, const char *stage, struct fsb_fio_result *res, char *why,
		 size_t len)
{
	char fname[FSB_PATH_MAX + 64], phase[32];
	struct fsb_fio_job job = {
		.w = fsb_fio_workload("randwrite"), .fs = fs, .filename = fname, .size = size,
		.runtime = c->cfg.fio_runtime, .timeout = c->cfg.phase_timeout,
	};
	double secs;

	snprintf(fname, sizeof(fname), "%s/fsbench-fill-probe", mnt);
	snprintf(phase, sizeof(phase), "fill_%s", stage);
	fsb_kmsg_drain(c);
	fsb_kmsg_mark(c, fs, 0, phase);
	int rc = fsb_fio_exec(fio, &job, res, &secs, why, len);
	fsb_kmsg_mark(c, fs, 0, NULL);
	unlink(fname);
	if (rc < 0)
		fsb_error_rec(c, fs, 0, phase, "fio", fname, 0, 1, why);
	else if (c->cfg.progress)
		fsb_say(c->say, "%s fill: 4 KiB random write %s: %.0f IOPS", fs, stage, res->wr.iops);
	return rc;
}

int fsb_fill_fs(struct fsb_ctx *c, struct fsb_fresh *fr, char *why, size_t len)
{
	const struct fsb_config *cfg = &c->cfg;
	struct fill f = { .c = c, .fs = fr->fs, .dfd = -1, .rng = FSB_FILL_SEED };
	struct fsb_fio_result before, after;
	struct stage st_fill, st_del, st_re;
	char fio[FSB_PATH_MAX], dir[FSB_PATH_MAX + 16], w1[512];
	int rc = -1, have_before = 0, have_after = 0, stages = 0;
	struct statvfs vf;

	if (!cfg->fill)
		return 0;
	if (fsb_fio_find(c, fr->fs, fio, sizeof(fio), why, len) < 0)
		return -1;
	if (fsb_fresh_get(fr, "fill", why, len) < 0)
		return -1;
	fr->fresh = 0;
	/* the probe: fio_size, at most 2 % of the filesystem (it must fit in
	 * what a fill to fill_pct leaves), whole MiB, at least 1 MiB */
	if (statvfs(fr->mnt, &vf) < 0) {
		snprintf(why, len, "fill: statvfs %s: %s", fr->mnt, strerror(errno));
		fsb_error_rec(c, fr->fs, 0, "fill", "statvfs", fr->mnt, errno, 1, why);
		return -1;
	}
	uint64_t fs_bytes = (uint64_t)vf.f_blocks * vf.f_frsize;
	uint64_t psize = cfg->fio_size;
	if (psize > fs_bytes / 50)
		psize = fs_bytes / 50;
	psize &= ~((1ull << 20) - 1);
	if (psize < (1u << 20))
		psize = 1u << 20;

	memset(&st_fill, 0, sizeof(st_fill));
	st_del = st_re = st_fill;
	f.buf = malloc(CHUNK);
	snprintf(dir, sizeof(dir), "%s/fill", fr->mnt);
	if (!f.buf) {
		snprintf(why, len, "fill: out of memory");
		fsb_error_rec(c, fr->fs, 0, "fill", "alloc", NULL, ENOMEM, 1, why);
		goto out;
	}
	for (size_t i = 0; i < CHUNK; i += 8) {	/* data no filesystem can compress */
		uint64_t v = fsb_splitmix64(&f.rng);
		memcpy(f.buf + i, &v, 8);
	}
	f.rng = FSB_FILL_SEED;

	if (probe(c, fio, fr->fs, fr->mnt, psize, "before", &before, w1, sizeof(w1)) < 0) {
		snprintf(why, len, "fill: 4 KiB random write before: %s", w1);
		goto out;
	}
	have_before = 1;
	if (mkdir(dir, 0755) < 0 || (f.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(why, len, "fill: %s: %s", dir, strerror(errno));
		fsb_error_rec(c, fr->fs, 0, "fill", "mkdir", dir, errno, 1, why);
		goto out;
	}
	double target = cfg->fill_pct / 100.0;
	static const char *const stage_name[] = { "fill", "delete", "rewrite" };
	for (stages = 0; stages < 3; stages++) {
		fsb_kmsg_drain(c);
		fsb_kmsg_mark(c, fr->fs, 0, stage_name[stages]);
		if (cfg->progress)
			fsb_say(c->say, "%s fill: %s", fr->fs, stages == 0 ? "filling" : stages == 1 ? "deleting" : "filling again");
		int e = stages == 0 ? fill_to(&f, target, &st_fill)
			: stages == 1 ? delete_share(&f, cfg->fill_delete_pct, &st_del)
			: fill_to(&f, target, &st_re);
		fsb_kmsg_mark(c, fr->fs, 0, NULL);
		if (e < 0) {
			snprintf(why, len, "fill: %s %s: %s", stage_name[stages], f.errfile, strerror(f.err));
			fsb_error_rec(c, fr->fs, 0, stage_name[stages], stage_name[stages], f.errfile, f.err, 1, why);
			goto out;
		}
	}
	if (probe(c, fio, fr->fs, fr->mnt, psize, "after", &after, w1, sizeof(w1)) < 0) {
		snprintf(why, len, "fill: 4 KiB random write after: %s", w1);
		goto out;
	}
	have_after = 1;
	rc = 0;
out:;
	struct fsb_rec r;
	fsb_kmsg_drain(c);
	fsb_rec_start(c, &r, FSB_REC_fill);
	rec_str(&r, K(fs), fr->fs);
	rec_u64(&r, K(fill_pct), cfg->fill_pct);
	rec_u64(&r, K(delete_pct), cfg->fill_delete_pct);
	rec_u64(&r, K(seed), FSB_FILL_SEED);
	rec_u64(&r, K(fs_bytes), fs_bytes);
	rec_u64(&r, K(probe_size), psize);
	rec_u64(&r, K(runtime), cfg->fio_runtime);
	if (stages > 0)
		stage_json(&r, K(fill), &st_fill);
	if (stages > 1)
		stage_json(&r, K(delete), &st_del);
	if (stages > 2)
		stage_json(&r, K(rewrite), &st_re);
	if (stages > 0)
		rec_dbl(&r, K(level), stages > 2 ? st_re.level : stages > 1 ? st_del.level : st_fill.level);
	if (have_before) {
		rec_str(&r, K(fio_version), before.version);
		fsb_fio_dir_json(&r, K(before), &before.wr);
	}
	if (have_after)
		fsb_fio_dir_json(&r, K(after), &after.wr);
	if (have_before && have_after && before.wr.iops > 0)
		rec_dbl(&r, K(iops_ratio), after.wr.iops / before.wr.iops);
	rec_str(&r, K(status), rc == 0 ? "ok" : "failed");
	if (rc)
		rec_str(&r, K(msg), why);
	fsb_emit(c, &r);
	if (rc == 0 && cfg->progress)
		fsb_say(c->say, "%s fill: %.1f %% full, 4 KiB random write %.0f -> %.0f IOPS", fr->fs,
			st_re.level * 100, before.wr.iops, after.wr.iops);
	if (f.dfd >= 0)
		close(f.dfd);
	free(f.live);
	free(f.buf);
	return rc;
}

int fsb_fill_age(struct fsb_ctx *c, const char *fs, const char *mnt, struct fsb_age *a,
		 char *why, size_t len)
{
	const struct fsb_config *cfg = &c->cfg;
	struct fill f = { .c = c, .fs = fs, .dfd = -1, .rng = FSB_FILL_SEED };
	struct stage st;
	char dir[FSB_PATH_MAX + 16];
	static const char *const stage_name[] = { "fill", "delete", "rewrite", "delete" };
	double t0 = fsb_now();
	int rc = -1;

	memset(a, 0, sizeof(*a));
	snprintf(dir, sizeof(dir), "%s/fill", mnt);
	if (!(f.buf = malloc(CHUNK))) {
		snprintf(why, len, "aging: out of memory");
		fsb_error_rec(c, fs, 0, "aging", "alloc", NULL, ENOMEM, 1, why);
		return -1;
	}
	for (size_t i = 0; i < CHUNK; i += 8) {	/* as fsb_fill_fs's */
		uint64_t v = fsb_splitmix64(&f.rng);
		memcpy(f.buf + i, &v, 8);
	}
	f.rng = FSB_FILL_SEED;
	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) ||
	    (f.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(why, len, "aging: %s: %s", dir, strerror(errno));
		fsb_error_rec(c, fs, 0, "aging", "mkdir", dir, errno, 1, why);
		goto out;
	}
	for (int k = 0; k < 4; k++) {
		fsb_kmsg_drain(c);
		fsb_kmsg_mark(c, fs, 0, "aging");
		if (cfg->progress)
			fsb_say(c->say, "%s aging: %s", fs, k == 0 ? "filling" : k == 2 ? "filling again" : "deleting");
		int e = k % 2 == 0 ? fill_to(&f, cfg->fill_pct / 100.0, &st)
				   : delete_share(&f, cfg->fill_delete_pct, &st);
		fsb_kmsg_mark(c, fs, 0, NULL);
		if (e < 0) {
			snprintf(why, len, "aging: %s %s: %s", stage_name[k], f.errfile, strerror(f.err));
			fsb_error_rec(c, fs, 0, "aging", stage_name[k], f.errfile, f.err, 1, why);
			goto out;
		}
		if (k % 2 == 0) {
			a->written += st.files;
			a->bytes += st.bytes;
			a->peak = st.level;
		} else {
			a->deleted += st.files;
		}
		a->level = st.level;
	}
	rc = 0;
out:
	a->seconds = fsb_now() - t0;
	if (f.dfd >= 0)
		close(f.dfd);
	free(f.live);
	free(f.buf);
	return rc;
}

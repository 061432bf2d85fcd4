/* pack.c: the pack file phases, the stores, the fault self-test on a pack
 * and the `space` record (pack.h). The SQLite phases are in packdb.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/time.h"
#include "run/core/context.h"
#include "run/stores/pack.h"
#include "run/stores/packfile.h"
#include "run/core/worker.h"

int fsb_pack_wanted(const struct fsb_config *cfg, uint32_t round)
{
	(void)round;
	return cfg->pack;
}

static int pack_fault(const char *root, const char *key, uint64_t off, char *why, size_t len);

static const struct fsb_store stores[] = {
	{ "files", NULL, NULL },
	{ "sqlite", FSB_SQLITE_FILE, fsb_sqlite_fault },
	{ "pack", FSB_PACK_FILE, pack_fault },
};

const struct fsb_store *fsb_store_of(const struct fsb_phase_def *ph)
{
	for (size_t i = 1; i < sizeof(stores) / sizeof(stores[0]); i++) {
		size_t n = strlen(stores[i].name);
		if (!strncmp(ph->name, stores[i].name, n) && ph->name[n] == '_')
			return &stores[i];
	}
	return NULL;
}

/* ---- the pack file phases ---- */

/* Each directory's files one after the other in its region of the data,
 * then its slice of the index; the worker of d0000 writes the header. */
int fsb_pack_write(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	struct fsb_pack_hdr h;
	size_t buflen;
	unsigned char *buf = fsb_w_buf(w, &buflen), *ix;
	int fd, stop = 0;

	fsb_pack_layout(&h, a->dirs, a->files, a->file_size);
	uint64_t e0 = (uint64_t)d->dir * a->files;
	ix = malloc((size_t)a->files * FSB_PACK_ENT);
	if (!ix)
		return fsb_w_error(w, "alloc", d->dir, UINT32_MAX, ENOMEM, 0, 0, 0);
	fd = openat(d->base_fd, FSB_PACK_FILE, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(ix);
		return fsb_w_error(w, "open", d->dir, UINT32_MAX, errno, 0, 0, 0);
	}
	if (d->dir == 0) {
		unsigned char hb[FSB_PACK_HDR];
		fsb_pack_hdr_put(hb, &h);
		if (pwrite(fd, hb, sizeof(hb), 0) != (ssize_t)sizeof(hb))
			stop = fsb_w_error(w, "write", 0, UINT32_MAX, errno ? errno : EIO, 0, 0, sizeof(hb));
	}
	uint64_t t0 = fsb_now_ns();
	for (uint32_t i = 0; i < a->files && !stop; i++) {
		uint64_t seed = fsb_pattern_seed(d->dir, i, a->round), at = h.data_off + (e0 + i) * a->file_size;
		uint64_t off = 0, t1;
		struct fsb_pack_ent e;

		while (off < a->file_size) {
			size_t n = a->file_size - off < buflen ? (size_t)(a->file_size - off) : buflen;
			fsb_pattern_fill(a->pat, buf, n, seed, off);
			ssize_t r = pwrite(fd, buf, n, (off_t)(at + off));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				stop = fsb_w_error(w, "write", d->dir, i, r < 0 ? errno : EIO, 0, off, n);
				break;
			}
			off += (uint64_t)r;
		}
		fsb_pack_key(d->dir, i, e.key);
		e.off = at;
		e.len = (uint32_t)a->file_size;
		fsb_pack_ent_put(ix + (size_t)i * FSB_PACK_ENT, &e);
		t1 = fsb_now_ns();
		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		ws->bytes += off;
		ws->done++;
	}
	size_t ixlen = (size_t)a->files * FSB_PACK_ENT;
	if (!stop && pwrite(fd, ix, ixlen, (off_t)(h.index_off + e0 * FSB_PACK_ENT)) != (ssize_t)ixlen)
		stop = fsb_w_error(w, "write", d->dir, UINT32_MAX, errno ? errno : EIO, 0, 0, ixlen);
	if (close(fd) < 0)
		stop |= fsb_w_error(w, "close", d->dir, UINT32_MAX, errno, 0, 0, 0);
	free(ix);
	return stop;
}

/* Map and check the index, then each file by name: look its key up, read
 * its bytes, check them (outside the latency). */
int fsb_pack_read(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	struct fsb_pack_index ix;
	size_t buflen;
	unsigned char *buf = fsb_w_buf(w, &buflen);
	char why[160];
	int fd, rc, stop = 0;

	fd = openat(d->base_fd, FSB_PACK_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fsb_w_error(w, "open", d->dir, UINT32_MAX, errno, 0, 0, 0);
	if ((rc = fsb_pack_index_open(&ix, fd, why, sizeof(why))) < 0) {
		close(fd);
		/* a damaged index: every file of the batch is unreadable */
		return fsb_w_error(w, "index", d->dir, UINT32_MAX, -rc, 0, 0, 0);
	}
	for (uint32_t i = 0; i < a->files && !stop; i++) {
		uint64_t seed = fsb_pattern_seed(d->dir, i, a->round), off = 0, lat, bad = 0, first = 0;
		struct fsb_pack_ent e;
		char key[FSB_PACK_KEY];
		uint64_t t0 = fsb_now_ns();

		fsb_pack_key(d->dir, i, key);
		if (fsb_pack_find(&ix, key, &e) < 0) {
			stop = fsb_w_error(w, "lookup", d->dir, i, ENOENT, 0, 0, 0);
			continue;
		}
		lat = 0;
		while (off < e.len) {
			size_t n = e.len - off < buflen ? (size_t)(e.len - off) : buflen;
			ssize_t r = pread(fd, buf, n, (off_t)(e.off + off));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				stop = fsb_w_error(w, "read", d->dir, i, r < 0 ? errno : EIO, 0, off, n);
				break;
			}
			lat += fsb_now_ns() - t0;
			if (a->verify) {
				uint64_t f = 0, limit = off < a->file_size ? a->file_size - off : 0;
				size_t chk = (uint64_t)r < limit ? (size_t)r : (size_t)limit;
				size_t b = fsb_pattern_check(a->pat, buf, chk, seed, off, &f);
				if (b && !bad)
					first = f;
				bad += b;
			}
			off += (uint64_t)r;
			t0 = fsb_now_ns();
		}
		lat += fsb_now_ns() - t0;
		fsb_hist_add(&ws->hist, lat);
		ws->bytes += off;
		if (a->verify && off != a->file_size) {
			uint64_t diff = off > a->file_size ? off - a->file_size : a->file_size - off;
			if (!bad)
				first = off < a->file_size ? off : a->file_size;
			bad += diff;
		}
		if (bad)
			stop |= fsb_w_error(w, "verify", d->dir, i, 0, 1, first, bad);
		ws->done++;
	}
	fsb_pack_index_close(&ix);
	close(fd);
	return stop;
}

/* One unlink, by the worker of d0000; every file of a batch goes with it. */
int fsb_pack_delete(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);

	if (d->dir == 0) {
		uint64_t t0 = fsb_now_ns();
		int r = unlinkat(d->base_fd, FSB_PACK_FILE, 0);
		fsb_hist_add(&ws->hist, fsb_now_ns() - t0);
		if (r < 0)
			return fsb_w_error(w, "unlink", 0, UINT32_MAX, errno, 0, 0, 0);
	}
	ws->done += a->files;
	return 0;
}

static int pack_fault(const char *root, const char *key, uint64_t off, char *why, size_t len)
{
	char path[FSB_PATH_MAX + 32];
	struct fsb_pack_index ix;
	struct fsb_pack_ent e;
	unsigned char b;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", root, FSB_PACK_FILE);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(why, len, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if ((rc = fsb_pack_index_open(&ix, fd, why, len)) < 0) {
		close(fd);
		return rc;
	}
	rc = fsb_pack_find(&ix, key, &e);
	fsb_pack_index_close(&ix);
	if (rc < 0 || off >= e.len) {
		snprintf(why, len, "%s: %s", path, rc < 0 ? "no such key" : "offset past the end");
		close(fd);
		return rc < 0 ? rc : -EINVAL;
	}
	errno = 0;
	rc = pread(fd, &b, 1, (off_t)(e.off + off)) == 1 ? 0 : -1;
	b ^= 0x01;
	if (rc < 0 || pwrite(fd, &b, 1, (off_t)(e.off + off)) != 1 || fsync(fd) < 0) {
		rc = errno ? -errno : -EIO;
		snprintf(why, len, "%s: %s", path, strerror(-rc));
		close(fd);
		return rc;
	}
	close(fd);
	return 0;
}

/* ---- the space record ---- */

static int used_bytes(int fd, uint64_t *used)
{
	struct statvfs v;

	if (fstatvfs(fd, &v) < 0)
		return -errno;
	*used = (uint64_t)(v.f_blocks - v.f_bfree) * v.f_frsize;
	return 0;
}

void fsb_space_start(struct fsb_space *sp, const struct fsb_config *cfg,
		     const struct fsb_phase_def *ph, uint32_t round, int root_fd)
{
	memset(sp, 0, sizeof(*sp));
	if (!(ph->flags & FSB_PH_SPACE) || !cfg->pack)
		return;
	sp->on = 1;
	sp->ph = ph;
	sp->round = round;
	sp->store = fsb_store_of(ph);
	if (!sp->store)
		sp->store = &stores[0];
	sp->have_before = used_bytes(root_fd, &sp->used_before) == 0;
}

void fsb_space_done(struct fsb_space *sp, const struct fsb_phase_result *res, uint64_t file_size)
{
	sp->files = res->files;
	sp->bytes = res->files * file_size;
}

void fsb_space_flush(struct fsb_ctx *c, struct fsb_space *sp, const char *fs, int root_fd)
{
	struct fsb_rec r;
	struct stat st;
	uint64_t after = 0;
	int have_after, have_file = 0, file_err = 0;

	if (!sp->on || root_fd < 0) {
		sp->on = 0;
		return;
	}
	sp->on = 0;
	have_after = used_bytes(root_fd, &after) == 0;
	if (sp->store->file) {
		if (fstatat(root_fd, sp->store->file, &st, 0) == 0)
			have_file = 1;
		else
			file_err = errno;
	}
	fsb_rec_phase(c, &r, FSB_REC_space, fs, sp->round, sp->ph->name);
	rec_str(&r, K(store), sp->store->name);
	rec_u64(&r, K(files), sp->files);
	rec_u64(&r, K(bytes), sp->bytes);
	if (sp->have_before && have_after) {
		rec_u64(&r, K(used_before), sp->used_before);
		rec_u64(&r, K(used_after), after);
		rec_i64(&r, K(used_delta), after >= sp->used_before
			? (int64_t)(after - sp->used_before) : -(int64_t)(sp->used_before - after));
	}
	if (sp->store->file) {
		rec_str(&r, K(file), sp->store->file);
		if (have_file) {
			rec_u64(&r, K(file_size), (uint64_t)st.st_size);
			rec_u64(&r, K(file_disk_bytes), (uint64_t)st.st_blocks * 512);
		} else {
			rec_str(&r, K(error), strerror(file_err));
		}
	}
	/* what the store takes: its file's blocks, or for one file per file
	 * the used space the phase added */
	if (sp->store->file ? have_file : sp->have_before && have_after)
		rec_u64(&r, K(disk_bytes), sp->store->file ? (uint64_t)st.st_blocks * 512
			: after > sp->used_before ? after - sp->used_before : 0);
	fsb_emit(c, &r);
}

/* files.c: the work of the phases on files, one file per file: create,
 * stat, read (every order), delete and the rewrite remedy, each on one
 * directory of a worker (run/core/worker.h), as run/stores/pack.c holds
 * the work of the packing phases. The table that names them and the engine
 * that runs them are phase.c's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/engine/files.h"
#include "run/core/names.h"
#include "run/core/worker.h"

/* "f0000041" -> "f0000042" in place (the create loop's names, in order) */
static inline void next_name(char *n)
{
	for (int i = 7; i >= 1; i--) {
		if (n[i] != '9') {
			n[i]++;
			return;
		}
		n[i] = '0';
	}
}

/* perm[0..n) = 0..n-1 in a fixed random order for (dir, round): a
 * Fisher-Yates shuffle driven by splitmix64, the same on every machine. */
static void shuffle_order(uint32_t *perm, uint32_t n, uint32_t dir, uint32_t round)
{
	uint64_t s = ((uint64_t)dir << 32 | round) ^ 0x5fb5c0de0f5eed01ull;

	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n; i > 1; i--) {
		uint64_t z = fsb_splitmix64(&s);
		uint32_t j = (uint32_t)(z % i), t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

int fsb_files_create(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	uint32_t *perm = fsb_w_perm(w);
	size_t buflen;
	unsigned char *buf = fsb_w_buf(w, &buflen);
	int basefd = d->base_fd;
	uint32_t dir = d->dir;
	const char *dname = d->name;
	char name[12];
	int dfd;

	if (mkdirat(basefd, dname, 0755) < 0 && errno != EEXIST)
		return fsb_w_error(w, "mkdir", dir, UINT32_MAX, errno, 0, 0, 0);
	dfd = openat(basefd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fsb_w_error(w, "open", dir, UINT32_MAX, errno, 0, 0, 0);
	size_t first = a->file_size < buflen ? (size_t)a->file_size : buflen;
	int turns = a->lockstep || a->cpu != FSB_CPU_FREE;
	uint64_t t0;

	/* One clock read per file: an operation's latency runs from the end of
	 * the previous one, so it also holds the next file's name and content
	 * (about 0.1 us for 4 KiB), never a second clock read. */
	if (perm)
		shuffle_order(perm, a->files, dir, a->round);
	if (d->first) {
		for (uint32_t k = 0; k < a->files && k < FSB_TRACE_N; k++)
			ws->trace_idx[k] = perm ? perm[k] : k;
		ws->ntrace = a->files < FSB_TRACE_N ? a->files : FSB_TRACE_N;
	}
	uint32_t i0 = perm ? perm[0] : 0;
	fsb_file_name(i0, name);
	fsb_pattern_fill(a->pat, buf, first, fsb_pattern_seed(dir, i0, a->round), 0);
	t0 = fsb_w_now_ns();
	for (uint32_t k = 0; k < a->files; k++) {
		uint32_t i = perm ? perm[k] : k;
		uint64_t seed = fsb_pattern_seed(dir, i, a->round), left = a->file_size, off = 0, t1;
		int fd, stop = 0;

		if (k > 0) {
			if (perm)
				fsb_file_name(i, name);
			else
				next_name(name);
			fsb_pattern_fill(a->pat, buf, first, seed, 0);
		}
		if (turns)	/* create_lockstep, create_cpu */
			fsb_w_turn(w);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			if (fsb_w_error(w, "create", dir, i, errno, 0, 0, 0))
				break;
			t0 = fsb_w_now_ns();
			continue;
		}
		while (left > 0) {
			size_t n = left < buflen ? (size_t)left : buflen;
			ssize_t r;
			if (off > 0)
				fsb_pattern_fill(a->pat, buf, n, seed, off);
			r = write(fd, buf, n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				stop = fsb_w_error(w, "write", dir, i, r < 0 ? errno : EIO, 0, off, n);
				break;
			}
			left -= (uint64_t)r;
			off += (uint64_t)r;
		}
		if (close(fd) < 0)
			stop |= fsb_w_error(w, "close", dir, i, errno, 0, 0, 0);
		t1 = fsb_w_now_ns();
		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		ws->bytes += off;
		ws->done++;
		if (stop)
			break;
	}
	close(dfd);
	return ws->fatal || ws->errors + ws->verify_errors >= FSB_WERR_LIMIT;
}

/* stat, read and delete read the clock once per file, as create does: an
 * operation's latency runs from the end of the previous one (the loop's own
 * bookkeeping, a few nanoseconds, is in it), never a second clock read. */
int fsb_files_stat(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	int dfd = d->fd;
	uint32_t dir = d->dir;
	size_t n = d->n;
	struct stat st;
	uint64_t t0 = fsb_w_now_ns();

	for (size_t k = 0; k < n; k++) {
		int r = fstatat(dfd, d->ent[k].name, &st, AT_SYMLINK_NOFOLLOW);
		uint64_t t1 = fsb_w_now_ns();

		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		if (r < 0) {
			if (fsb_w_error(w, "stat", dir, d->ent[k].idx, errno, 0, 0, 0))
				return 1;
			continue;
		}
		if ((uint64_t)st.st_size != a->file_size && a->verify &&
		    fsb_w_error(w, "size", dir, d->ent[k].idx, 0, 1, (uint64_t)st.st_size, a->file_size))
			return 1;
		ws->done++;
	}
	return 0;
}

/* Check len bytes read at file offset off (bytes past the file's size are
 * counted at the end, not here): adds the wrong ones to *bad, the first
 * wrong offset in *first. */
static void check_span(const struct fsb_phase_args *a, const unsigned char *buf, size_t len,
		       uint64_t seed, uint64_t off, uint64_t *bad, uint64_t *first)
{
	uint64_t f = 0, limit = off < a->file_size ? a->file_size - off : 0;
	size_t chk = (uint64_t)len < limit ? len : (size_t)limit;
	size_t b = fsb_pattern_check(a->pat, buf, chk, seed, off, &f);

	if (b && !*bad)
		*first = f;
	*bad += b;
}

/* A file in three system calls: open, read, close. The last read of a file
 * asks for what is left of its expected size and one byte more: on a
 * regular file a short read is the end, so a read that gets exactly what
 * is left ends the file without a read of 0 bytes; one that gets the byte
 * more finds a longer file, read on to its end as any file that is not
 * the expected size (every byte past the size counts as wrong). Reads
 * before the last ask for buflen bytes. Each read goes at the end of what
 * is in the buffer (2 x buflen + 4 KiB): a file of up to buflen bytes is
 * checked after its close, outside its latency, with one clock read more;
 * a longer one is checked as the buffer fills, the check cut out of its
 * latency. */
int fsb_files_read(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	size_t buflen;
	unsigned char *buf = fsb_w_buf(w, &buflen);
	int dfd = d->fd;
	uint32_t dir = d->dir;
	size_t n = d->n;
	uint64_t t0 = fsb_w_now_ns();

	for (size_t k = 0; k < n; k++) {
		uint32_t idx = d->ent[k].idx;
		uint64_t seed = fsb_pattern_seed(dir, idx, a->round), off = 0, lat = 0, t1;
		uint64_t bad = 0, first = 0;
		size_t pos = 0;	/* bytes in the buffer not checked yet */
		int fd, stop = 0;

		fd = openat(dfd, d->ent[k].name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (fsb_w_error(w, "open", dir, idx, errno, 0, 0, 0))
				return 1;
			t0 = fsb_w_now_ns();
			continue;
		}
		for (;;) {
			size_t ask = buflen;
			ssize_t r;

			if (off <= a->file_size && a->file_size - off <= buflen)
				ask = (size_t)(a->file_size - off) + 1;	/* the last read */
			r = read(fd, buf + pos, ask);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				stop = fsb_w_error(w, "read", dir, idx, errno, 0, off, 0);
				break;
			}
			if (r == 0)
				break;
			off += (uint64_t)r;
			if (a->verify) {
				pos += (size_t)r;
				if (pos > buflen) {	/* no room for the next read */
					t1 = fsb_w_now_ns();
					lat += t1 - t0;
					check_span(a, buf, pos, seed, off - pos, &bad, &first);
					pos = 0;
					t0 = fsb_w_now_ns();
				}
			}
			if (off == a->file_size && (size_t)r < ask)
				break;	/* exactly the expected size, then the end */
		}
		close(fd);
		t1 = fsb_w_now_ns();
		fsb_hist_add(&ws->hist, lat + (t1 - t0));
		t0 = t1;
		ws->bytes += off;
		if (a->verify) {
			if (pos) {
				check_span(a, buf, pos, seed, off - pos, &bad, &first);
				t0 = fsb_w_now_ns();
			}
			if (off != a->file_size) {
				/* short or long file: the missing or extra bytes count as wrong */
				uint64_t diff = off > a->file_size ? off - a->file_size : a->file_size - off;
				if (!bad)
					first = off < a->file_size ? off : a->file_size;
				bad += diff;
			}
		}
		if (bad)
			stop |= fsb_w_error(w, "verify", dir, idx, 0, 1, first, bad);
		ws->done++;
		if (stop)
			return 1;
	}
	return 0;
}

int fsb_files_delete(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	struct fsb_wstate *ws = fsb_w_state(w);
	int dfd = d->fd;
	uint32_t dir = d->dir;
	size_t n = d->n;
	uint64_t t0 = fsb_w_now_ns();

	for (size_t k = 0; k < n; k++) {
		int r = unlinkat(dfd, d->ent[k].name, 0);
		uint64_t t1 = fsb_w_now_ns();

		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		if (r < 0 && fsb_w_error(w, "unlink", dir, d->ent[k].idx, errno, 0, 0, 0))
			return 1;
		ws->done++;
	}
	if (unlinkat(d->base_fd, d->name, AT_REMOVEDIR) < 0)
		return fsb_w_error(w, "rmdir", dir, UINT32_MAX, errno, 0, 0, 0);
	return 0;
}

/* Copy one file (src in sdfd) to a new one of the same name in ddfd through
 * the worker's buffer; the bytes copied in *bytes. 0, or the stop of fsb_w_error(). */
static int copy_file(struct fsb_wctx *w, int sdfd, int ddfd, uint32_t dir,
		     const struct fsb_entry *e, uint64_t *bytes)
{
	int in, out, stop = 0;
	uint64_t off = 0;
	size_t buflen;
	unsigned char *buf = fsb_w_buf(w, &buflen);

	in = openat(sdfd, e->name, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fsb_w_error(w, "open", dir, e->idx, errno, 0, 0, 0);
	out = openat(ddfd, e->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		stop = fsb_w_error(w, "create", dir, e->idx, errno, 0, 0, 0);
		close(in);
		return stop;
	}
	for (;;) {
		ssize_t r = read(in, buf, buflen), put = 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			stop = fsb_w_error(w, "read", dir, e->idx, errno, 0, off, 0);
			break;
		}
		if (r == 0)
			break;
		while (put < r) {
			ssize_t k = write(out, buf + put, (size_t)(r - put));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				stop = fsb_w_error(w, "write", dir, e->idx, k < 0 ? errno : EIO, 0, off, (uint64_t)(r - put));
				break;
			}
			put += k;
			off += (uint64_t)k;
		}
		if (stop)
			break;
	}
	if (close(out) < 0 && !stop)
		stop = fsb_w_error(w, "close", dir, e->idx, errno, 0, 0, 0);
	close(in);
	*bytes = off;
	return stop;
}

/* Swap directory a and b of dfd (RENAME_EXCHANGE); where the filesystem
 * cannot, move a aside to tmp and b to a: then tmp is the old one. */
static int swap_dirs(int dfd, const char *a, const char *b, const char *tmp, const char **old)
{
#ifdef SYS_renameat2
	if (syscall(SYS_renameat2, dfd, b, dfd, a, 2 /* RENAME_EXCHANGE */) == 0) {
		*old = b;
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
#endif
	if (renameat(dfd, a, dfd, tmp) < 0)
		return -1;
	if (renameat(dfd, b, dfd, a) < 0) {
		int e = errno;
		renameat(dfd, tmp, dfd, a);
		errno = e;
		return -1;
	}
	*old = tmp;
	return 0;
}

/* The rewrite remedy: copy the directory's files, in name order, into a
 * new directory (d0003.new), swap it in place of the old one, remove the
 * old one's files and the old directory. One latency per file copied. */
int fsb_files_rewrite(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	struct fsb_wstate *ws = fsb_w_state(w);
	uint32_t dir = d->dir;
	char nname[24], tname[24];
	const char *old;
	int nfd;

	snprintf(nname, sizeof(nname), "%s.new", d->name);
	snprintf(tname, sizeof(tname), "%s.old", d->name);
	if (mkdirat(d->base_fd, nname, 0755) < 0)
		return fsb_w_error(w, "mkdir", dir, UINT32_MAX, errno, 0, 0, 0);
	nfd = openat(d->base_fd, nname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (nfd < 0)
		return fsb_w_error(w, "open", dir, UINT32_MAX, errno, 0, 0, 0);
	uint64_t t0 = fsb_w_now_ns();
	for (size_t k = 0; k < d->n; k++) {
		uint64_t bytes = 0, t1;
		int stop = copy_file(w, d->fd, nfd, dir, &d->ent[k], &bytes);
		t1 = fsb_w_now_ns();
		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		ws->bytes += bytes;
		if (stop) {
			close(nfd);
			return 1;
		}
		ws->done++;
	}
	close(nfd);
	if (swap_dirs(d->base_fd, d->name, nname, tname, &old) < 0)
		return fsb_w_error(w, "rename", dir, UINT32_MAX, errno, 0, 0, 0);
	/* d->fd is still the old directory, wherever it is named now */
	for (size_t k = 0; k < d->n; k++)
		if (unlinkat(d->fd, d->ent[k].name, 0) < 0 &&
		    fsb_w_error(w, "unlink", dir, d->ent[k].idx, errno, 0, 0, 0))
			return 1;
	if (unlinkat(d->base_fd, old, AT_REMOVEDIR) < 0)
		return fsb_w_error(w, "rmdir", dir, UINT32_MAX, errno, 0, 0, 0);
	return 0;
}

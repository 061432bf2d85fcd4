/* fileserver.c: the file-server workload (fileserver.h). The parent makes
 * the tree of directories, forks the workers and waits; each worker makes
 * its share of the preallocated files, says it is ready, waits for the
 * start, then loops over the five operations until its time is up. Their
 * results (a latency histogram per operation, bytes, counts, the first
 * error) live in one shared anonymous mapping the parent merges. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/msg.h"
#include "lib/time.h"
#include "run/core/hist.h"
#include "run/core/pattern.h"
#include "run/engine/fileserver.h"
#include "run/engine/fileset.h"
#include "run/engine/lava.h"
#include "run/evidence/kmsg.h"
#include "run/stores/fill.h"

const char *const fsb_fsv_op_name[FSB_FSV_NOPS] = { "create", "append", "read", "delete", "stat" };

/* ---- the workers ---- */

/* One worker's results, in the shared mapping. */
struct wres {
	struct fsb_hist hist[FSB_FSV_NOPS];
	uint64_t bytes[FSB_FSV_NOPS];
	uint64_t skipped;		/* operations with no file in the state they need */
	uint64_t start_ns, end_ns;
	uint64_t pre_files, pre_bytes;	/* preallocated */
	uint64_t errors, verify_errors;
	int err;			/* the first error's errno */
	char errop[16], errfile[96];
	char vop[16], vfile[96];	/* the first verify error */
	uint64_t voff;
	int ended;
};

/* What every worker reads. */
struct job {
	int dfd;			/* the fileset's folder */
	uint32_t n, width, workers, seconds;
	uint64_t seed, iosize, append;
	const uint64_t *size;		/* the fileset's sizes */
	const struct fsb_pattern *pat;
	struct wres *res;		/* workers of them */
};

/* A worker's own files: every workers-th of the set from its number. */
struct wstate {
	const struct job *J;
	struct wres *R;
	uint32_t n, nexist;
	uint32_t *idx, *gen;
	uint64_t *cur;			/* each file's length now */
	unsigned char *exists;
	char *paths;			/* n paths of stride bytes */
	size_t stride;
	unsigned char *buf;		/* iosize bytes */
	uint64_t rng;
	uint64_t excl;			/* ns of pattern work in the operation, not its latency */
	uint64_t stat_size;		/* what the last stat found */
};

static void fail_op(struct wstate *S, const char *op, uint32_t k, int e)
{
	if (!S->R->errors++) {
		S->R->err = e;
		snprintf(S->R->errop, sizeof(S->R->errop), "%s", op);
		snprintf(S->R->errfile, sizeof(S->R->errfile), "%s", S->paths + k * S->stride);
	}
}

static void verify_fail(struct wstate *S, const char *op, uint32_t k, uint64_t off)
{
	if (!S->R->verify_errors++) {
		snprintf(S->R->vop, sizeof(S->R->vop), "%s", op);
		snprintf(S->R->vfile, sizeof(S->R->vfile), "%s", S->paths + k * S->stride);
		S->R->voff = off;
	}
}

static uint64_t seed_of(const struct wstate *S, uint32_t k)
{
	return fsb_pattern_seed((uint32_t)S->J->seed, S->idx[k], S->gen[k]);
}

/* len bytes of file k's pattern from off, written to fd in iosize calls;
 * the pattern's making is kept out of the latency (S->excl). 0 or errno. */
static int put(struct wstate *S, int fd, uint32_t k, uint64_t off, uint64_t len)
{
	uint64_t seed = seed_of(S, k);

	while (len) {
		size_t n = len < S->J->iosize ? (size_t)len : (size_t)S->J->iosize;
		uint64_t t0 = fsb_now_ns();
		fsb_pattern_fill(S->J->pat, S->buf, n, seed, off);
		S->excl += fsb_now_ns() - t0;
		for (size_t done = 0; done < n;) {
			ssize_t w = write(fd, S->buf + done, n - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return w < 0 ? errno : ENOSPC;
			done += (size_t)w;
		}
		off += n;
		len -= n;
	}
	return 0;
}

/* A free slot (want 0) or a file that is there (want 1), or -1. */
static int64_t pick(struct wstate *S, int want)
{
	if (want ? S->nexist == 0 : S->nexist == S->n)
		return -1;
	uint32_t k = (uint32_t)(fsb_fsv_next(&S->rng) % S->n);
	while (S->exists[k] != want)
		k = k + 1 == S->n ? 0 : k + 1;
	return k;
}

/* Make file k whole (a new generation); 0 or errno (the file removed). */
static int make_file(struct wstate *S, uint32_t k)
{
	const char *path = S->paths + k * S->stride;
	int fd = openat(S->J->dfd, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int e;

	if (fd < 0)
		return errno;
	S->gen[k]++;
	e = put(S, fd, k, 0, S->J->size[S->idx[k]]);
	if (close(fd) < 0 && !e)
		e = errno;
	if (e) {
		unlinkat(S->J->dfd, path, 0);
		return e;
	}
	S->exists[k] = 1;
	S->nexist++;
	S->cur[k] = S->J->size[S->idx[k]];
	return 0;
}

static int op_append(struct wstate *S, uint32_t k)
{
	uint64_t len = fsb_fsv_append_size(&S->rng, S->J->append);
	int fd = openat(S->J->dfd, S->paths + k * S->stride, O_WRONLY | O_APPEND | O_CLOEXEC);
	int e;

	if (fd < 0)
		return errno;
	e = put(S, fd, k, S->cur[k], len);
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e) {
		S->cur[k] += len;
		S->R->bytes[FSB_FSV_APPEND] += len;
	}
	return e;
}

/* Read file k whole in iosize calls, every byte checked (the check kept
 * out of the latency). */
static int op_read(struct wstate *S, uint32_t k)
{
	int fd = openat(S->J->dfd, S->paths + k * S->stride, O_RDONLY | O_CLOEXEC);
	uint64_t off = 0, seed = seed_of(S, k), want = S->cur[k];
	int e = 0, bad = 0;

	if (fd < 0)
		return errno;
	for (;;) {
		ssize_t r = read(fd, S->buf, (size_t)S->J->iosize);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			break;
		}
		if (r == 0)
			break;
		uint64_t t0 = fsb_now_ns(), first;
		size_t n = (size_t)r;
		if (off + n > want) {	/* longer than it should be */
			if (!bad++)
				verify_fail(S, "read", k, want > off ? want : off);
			n = want > off ? (size_t)(want - off) : 0;
		}
		if (!bad && fsb_pattern_check(S->J->pat, S->buf, n, seed, off, &first) && !bad++)
			verify_fail(S, "read", k, first);
		S->excl += fsb_now_ns() - t0;
		off += (uint64_t)r;
	}
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && !bad && off < want)	/* shorter */
		verify_fail(S, "read", k, off);
	if (!e)
		S->R->bytes[FSB_FSV_READ] += off;
	return e;
}

static void lap(struct wstate *S, enum fsb_fsv_op op, uint64_t *t)
{
	uint64_t now = fsb_now_ns(), d = now - *t;

	fsb_hist_add(&S->R->hist[op], d > S->excl ? d - S->excl : 0);
	S->excl = 0;
	*t = now;
}

static int op_create(struct wstate *S, uint32_t k)
{
	int e = make_file(S, k);

	if (!e)
		S->R->bytes[FSB_FSV_CREATE] += S->cur[k];
	return e;
}

static int op_delete(struct wstate *S, uint32_t k)
{
	if (unlinkat(S->J->dfd, S->paths + k * S->stride, 0) < 0)
		return errno;
	S->exists[k] = 0;
	S->nexist--;
	return 0;
}

/* The size is checked after the lap, out of the latency. */
static int op_stat(struct wstate *S, uint32_t k)
{
	struct stat sb;

	if (fstatat(S->J->dfd, S->paths + k * S->stride, &sb, 0) < 0)
		return errno;
	S->stat_size = (uint64_t)sb.st_size;
	return 0;
}

/* The loop until the time is up, or the first error: each operation in
 * turn (create on a free slot, the others on a file that is there). */
static void run_loop(struct wstate *S)
{
	static int (*const op[FSB_FSV_NOPS])(struct wstate *, uint32_t) = {
		op_create, op_append, op_read, op_delete, op_stat,
	};
	const struct job *J = S->J;
	uint64_t t = fsb_now_ns(), end = t + (uint64_t)J->seconds * 1000000000ull;
	int64_t k;
	int e = 0;

	S->R->start_ns = t;
	while (t < end && !e) {
		S->excl = 0;
		for (int i = 0; i < FSB_FSV_NOPS; i++) {
			if ((k = pick(S, i != FSB_FSV_CREATE)) < 0) {
				S->R->skipped++;
				continue;
			}
			if ((e = op[i](S, (uint32_t)k)) != 0) {
				fail_op(S, fsb_fsv_op_name[i], (uint32_t)k, e);
				break;
			}
			lap(S, (enum fsb_fsv_op)i, &t);
			if (i == FSB_FSV_STAT && S->stat_size != S->cur[k])
				verify_fail(S, "stat", (uint32_t)k, S->stat_size);
		}
	}
	S->R->end_ns = fsb_now_ns();
}

static int wait_go(int fd)
{
	char ch;
	ssize_t r;

	while ((r = read(fd, &ch, 1)) < 0 && errno == EINTR)
		;
	return r;	/* 0: the parent closed it, go */
}

/* A worker process: its files, the preallocation, ready, go, the loop. */
static void worker(const struct job *J, uint32_t w, int ready_fd, int go_fd)
{
	struct wstate S = { .J = J, .R = &J->res[w] };

	for (uint32_t i = 0; i < FSB_FSV_NOPS; i++)
		fsb_hist_init(&S.R->hist[i]);
	S.n = J->n / J->workers + (w < J->n % J->workers);
	S.stride = fsb_fsv_path_max(J->n, J->width);
	S.idx = calloc(S.n ? S.n : 1, sizeof(*S.idx));
	S.gen = calloc(S.n ? S.n : 1, sizeof(*S.gen));
	S.cur = calloc(S.n ? S.n : 1, sizeof(*S.cur));
	S.exists = calloc(S.n ? S.n : 1, 1);
	S.paths = calloc(S.n ? S.n : 1, S.stride);
	S.buf = malloc((size_t)J->iosize);
	S.rng = J->seed * 0x9e3779b97f4a7c15ull + w + 1;
	if (!S.idx || !S.gen || !S.cur || !S.exists || !S.paths || !S.buf) {
		S.R->errors = 1;
		S.R->err = ENOMEM;
		snprintf(S.R->errop, sizeof(S.R->errop), "alloc");
		_exit(1);
	}
	for (uint32_t k = 0; k < S.n; k++) {
		S.idx[k] = w + k * J->workers;
		fsb_fsv_path(S.paths + k * S.stride, S.stride, S.idx[k], J->n, J->width);
	}
	for (uint32_t k = 0; k < S.n; k++) {
		if (!fsb_fsv_prealloc(J->seed, S.idx[k]))
			continue;
		int e = make_file(&S, k);
		if (e) {
			fail_op(&S, "prealloc", k, e);
			_exit(1);
		}
		S.R->pre_files++;
		S.R->pre_bytes += S.cur[k];
	}
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	close(ready_fd);
	if (wait_go(go_fd) != 0)
		_exit(1);
	run_loop(&S);
	S.R->ended = 1;
	_exit(S.R->errors ? 1 : 0);
}

/* ---- one run ---- */

struct fsv_run {
	struct fsb_ctx *c;
	const char *fs, *mnt, *state;
	const struct fsb_age *age;	/* NULL: fresh */
	uint64_t *size;
	uint64_t fileset_bytes;
	const struct fsb_pattern *pat;
};

/* Make every directory of the tree under dfd. 0 or -errno (what in why). */
static int make_dirs(int dfd, uint32_t n, uint32_t width, char *why, size_t len)
{
	char path[512];

	for (uint64_t i = 0; i < n; i += width) {
		int plen = fsb_fsv_path(path, sizeof(path), (uint32_t)i, n, width);
		if (plen < 0 || (size_t)plen >= sizeof(path))
			return -ENAMETOOLONG;
		for (char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
			*p = 0;
			if (mkdirat(dfd, path, 0755) < 0 && errno != EEXIST) {
				int e = errno;
				snprintf(why, len, "mkdir %.200s: %s", path, strerror(e));
				return -e;
			}
			*p = '/';
		}
	}
	return 0;
}

/* Remove the tree under dfd (depth at most 64). */
static void remove_tree(int dfd, int depth)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dfd, e->d_name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth > 64)
			continue;
		int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub >= 0) {
			remove_tree(sub, depth + 1);
			close(sub);
		}
		unlinkat(dfd, e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

static void op_json(struct fsb_rec *r, const char *key, const struct fsb_hist *h, uint64_t bytes,
		    double secs)
{
	rec_obj(r, key);
	rec_u64(r, K(ops), h->count);
	rec_dbl(r, K(ops_per_s), secs > 0 ? (double)h->count / secs : 0);
	rec_u64(r, K(bytes), bytes);
	rec_obj(r, K(lat_ns));
	rec_u64(r, K(p50), fsb_hist_pct(h, 50));
	rec_u64(r, K(p90), fsb_hist_pct(h, 90));
	rec_u64(r, K(p99), fsb_hist_pct(h, 99));
	rec_u64(r, K(p999), fsb_hist_pct(h, 99.9));
	rec_u64(r, K(max), h->count ? h->max : 0);
	rec_u64(r, K(mean), h->count ? h->sum / h->count : 0);
	rec_u64(r, K(ops), h->count);
	rec_close(r);
	rec_close(r);
}

/* What the workers did, merged. */
struct merged {
	struct fsb_hist hist[FSB_FSV_NOPS];
	uint64_t bytes[FSB_FSV_NOPS], ops, skipped, pre_files, pre_bytes, errors, verify_errors;
	double seconds;
	const struct wres *err, *verr;	/* the first worker with one */
	uint32_t ended;
};

static void merge(const struct wres *res, uint32_t workers, struct merged *m)
{
	uint64_t first = UINT64_MAX, last = 0;

	memset(m, 0, sizeof(*m));
	for (int i = 0; i < FSB_FSV_NOPS; i++)
		fsb_hist_init(&m->hist[i]);
	for (uint32_t w = 0; w < workers; w++) {
		const struct wres *R = &res[w];
		for (int i = 0; i < FSB_FSV_NOPS; i++) {
			fsb_hist_merge(&m->hist[i], &R->hist[i]);
			m->bytes[i] += R->bytes[i];
		}
		if (R->start_ns && R->start_ns < first)
			first = R->start_ns;
		if (R->end_ns > last)
			last = R->end_ns;
		m->skipped += R->skipped;
		m->pre_files += R->pre_files;
		m->pre_bytes += R->pre_bytes;
		m->errors += R->errors;
		m->verify_errors += R->verify_errors;
		m->ended += (uint32_t)R->ended;
		if (R->errors && !m->err)
			m->err = R;
		if (R->verify_errors && !m->verr)
			m->verr = R;
	}
	for (int i = 0; i < FSB_FSV_NOPS; i++)
		m->ops += m->hist[i].count;
	m->seconds = last > first ? (double)(last - first) / 1e9 : 0;
}

static void emit(struct fsv_run *V, const struct merged *m, double pre_s, double level,
		 const char *status, const char *msg)
{
	const struct fsb_config *cfg = &V->c->cfg;
	struct fsb_rec r;
	double s = m->seconds;

	fsb_rec_start(V->c, &r, FSB_REC_fileserver);
	rec_str(&r, K(fs), V->fs);
	rec_str(&r, K(state), V->state);
	rec_u64(&r, K(files), cfg->fileserver_files);
	rec_u64(&r, K(dirwidth), cfg->fileserver_dirwidth);
	rec_u64(&r, K(dirs), fsb_fsv_dirs(cfg->fileserver_files, cfg->fileserver_dirwidth));
	rec_u64(&r, K(mean_size), cfg->fileserver_size);
	rec_dbl(&r, K(shape), FSB_FSV_SHAPE);
	rec_u64(&r, K(iosize), cfg->fileserver_iosize);
	rec_u64(&r, K(append_mean), cfg->fileserver_append);
	rec_u64(&r, K(workers), cfg->fileserver_workers);
	rec_u64(&r, K(runtime), cfg->fileserver_seconds);
	rec_u64(&r, K(seed), cfg->fileserver_seed);
	rec_u64(&r, K(fileset_bytes), V->fileset_bytes);
	rec_u64(&r, K(prealloc_files), m->pre_files);
	rec_u64(&r, K(prealloc_bytes), m->pre_bytes);
	rec_dbl(&r, K(prealloc_s), pre_s);
	if (isfinite(level))
		rec_dbl(&r, K(level), level);
	if (V->age) {
		rec_obj(&r, K(aging));
		rec_u64(&r, K(fill_pct), cfg->fill_pct);
		rec_u64(&r, K(delete_pct), cfg->fill_delete_pct);
		rec_u64(&r, K(written), V->age->written);
		rec_u64(&r, K(deleted), V->age->deleted);
		rec_u64(&r, K(bytes), V->age->bytes);
		rec_dbl(&r, K(seconds), V->age->seconds);
		rec_dbl(&r, K(peak), V->age->peak);
		rec_dbl(&r, K(level), V->age->level);
		rec_close(&r);
	}
	rec_dbl(&r, K(seconds), s);
	rec_u64(&r, K(ops), m->ops);
	rec_dbl(&r, K(ops_per_s), s > 0 ? (double)m->ops / s : 0);
	rec_u64(&r, K(bytes_read), m->bytes[FSB_FSV_READ]);
	rec_u64(&r, K(bytes_written), m->bytes[FSB_FSV_CREATE] + m->bytes[FSB_FSV_APPEND]);
	rec_dbl(&r, K(mib_per_s), s > 0 ? (double)(m->bytes[FSB_FSV_READ] + m->bytes[FSB_FSV_CREATE] +
					       m->bytes[FSB_FSV_APPEND]) / s / 1048576.0 : 0);
	for (int i = 0; i < FSB_FSV_NOPS; i++)
		op_json(&r, fsb_fsv_op_name[i], &m->hist[i], m->bytes[i], s);
	rec_u64(&r, K(skipped), m->skipped);
	rec_u64(&r, K(errors), m->errors);
	rec_u64(&r, K(verify_errors), m->verify_errors);
	rec_bool(&r, K(verified), 1);
	rec_str(&r, K(status), status);
	if (msg)
		rec_str(&r, K(msg), msg);
	fsb_emit(V->c, &r);
}

static void kill_all(const pid_t *pid, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (pid[i] > 0)
			kill(pid[i], SIGKILL);
}

/* One run of the workload on the mounted filesystem. 0, or -1 (why). */
static int run_once(struct fsv_run *V, char *why, size_t len)
{
	struct fsb_ctx *c = V->c;
	const struct fsb_config *cfg = &c->cfg;
	uint32_t W = cfg->fileserver_workers < cfg->fileserver_files ? cfg->fileserver_workers
								      : cfg->fileserver_files;
	char dir[FSB_PATH_MAX + 32], phase[32], msg[512] = "";
	struct statvfs vf;
	struct merged m;
	double level = NAN, pre_s = 0;
	int dfd = -1, ready[2] = { -1, -1 }, go[2] = { -1, -1 }, rc = -1, timed_out = 0;
	uint32_t alive = 0, got = 0;
	pid_t *pid = NULL;
	struct wres *res = MAP_FAILED;
	size_t maplen = (size_t)W * sizeof(struct wres);

	snprintf(phase, sizeof(phase), "fileserver_%s", V->state);
	snprintf(dir, sizeof(dir), "%s/%s", V->mnt, FSB_FSV_DIR);
	if (statvfs(V->mnt, &vf) == 0) {
		uint64_t avail = (uint64_t)vf.f_bavail * vf.f_frsize;
		if (avail < V->fileset_bytes + V->fileset_bytes / 4) {
			snprintf(why, len, "fileserver %s: the fileset needs %" PRIu64 " MiB and a quarter more "
				 "for its appends (fileserver_files x fileserver_size), %s has %" PRIu64 " MiB free",
				 V->state, V->fileset_bytes >> 20, V->mnt, avail >> 20);
			fsb_error_rec(c, V->fs, 0, phase, "space", V->mnt, ENOSPC, 1, why);
			memset(&m, 0, sizeof(m));
			emit(V, &m, 0, NAN, "failed", why);
			return -1;
		}
	}
	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) ||
	    (dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(msg, sizeof(msg), "mkdir %.300s: %s", dir, strerror(errno));
		goto out;
	}
	int e = make_dirs(dfd, cfg->fileserver_files, cfg->fileserver_dirwidth, msg, sizeof(msg));
	if (e < 0) {
		if (!msg[0])
			snprintf(msg, sizeof(msg), "the tree under %.300s: %s", dir, strerror(-e));
		goto out;
	}
	res = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = calloc(W, sizeof(*pid));
	if (res == MAP_FAILED || !pid || pipe2(ready, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0) {
		snprintf(msg, sizeof(msg), "workers' state: %s", strerror(errno ? errno : ENOMEM));
		goto out;
	}
	memset(res, 0, maplen);
	struct job J = { .dfd = dfd, .n = cfg->fileserver_files, .width = cfg->fileserver_dirwidth,
			 .workers = W, .seconds = cfg->fileserver_seconds, .seed = cfg->fileserver_seed,
			 .iosize = cfg->fileserver_iosize, .append = cfg->fileserver_append,
			 .size = V->size, .pat = V->pat, .res = res };
	fsb_kmsg_drain(c);
	fsb_kmsg_mark(c, V->fs, 0, phase);
	if (cfg->progress)
		fsb_say(c->say, "%s fileserver %s: %u files of mean %" PRIu64 " KiB, %u workers, %u s",
			V->fs, V->state, cfg->fileserver_files, cfg->fileserver_size >> 10, W,
			cfg->fileserver_seconds);
	double t0 = fsb_now();
	for (uint32_t i = 0; i < W; i++) {
		pid_t p = fork();
		if (p < 0) {
			snprintf(msg, sizeof(msg), "fork: %s", strerror(errno));
			break;
		}
		if (p == 0) {
			close(ready[0]);
			close(go[1]);
			worker(&J, i, ready[1], go[0]);
		}
		pid[i] = p;
		alive++;
	}
	close(ready[1]);
	close(go[0]);
	ready[1] = go[0] = -1;
	while (got < alive) {	/* EOF when they all wrote or died */
		char ch;
		ssize_t r = read(ready[0], &ch, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got++;
	}
	if (msg[0] || got < W)
		kill_all(pid, W);
	else if (syncfs(dfd) < 0)
		snprintf(msg, sizeof(msg), "syncfs after the preallocation: %s", strerror(errno));
	pre_s = fsb_now() - t0;
	if (fstatvfs(dfd, &vf) == 0)
		level = fsb_fill_level(vf.f_blocks, vf.f_bfree, vf.f_bavail);
	if (msg[0])
		kill_all(pid, W);
	close(go[1]);	/* go */
	go[1] = -1;
	double start = fsb_now(), limit = cfg->phase_timeout ? cfg->fileserver_seconds + cfg->phase_timeout : 0;
	while (alive > 0) {
		int st;
		pid_t p = waitpid(-1, &st, WNOHANG);
		if (p > 0) {
			for (uint32_t i = 0; i < W; i++)
				if (pid[i] == p) {
					pid[i] = 0;
					alive--;
				}
			continue;
		}
		if (p < 0 && errno != EINTR)
			break;
		if (limit && !timed_out && fsb_now() - start > limit) {
			kill_all(pid, W);
			timed_out = 1;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	fsb_kmsg_mark(c, V->fs, 0, NULL);
	fsb_kmsg_drain(c);
	merge(res, W, &m);
	if (!msg[0] && m.err)
		snprintf(msg, sizeof(msg), "%s %s/%s: %s", m.err->errop, FSB_FSV_DIR, m.err->errfile,
			 strerror(m.err->err));
	else if (!msg[0] && timed_out)
		snprintf(msg, sizeof(msg), "timed out after %u s (fileserver_seconds + phase_timeout)",
			 cfg->fileserver_seconds + cfg->phase_timeout);
	else if (!msg[0] && m.ended < W)
		snprintf(msg, sizeof(msg), "%u of %u workers did not finish", W - m.ended, W);
	if (m.verr) {
		struct fsb_rec r;
		char file[FSB_PATH_MAX];
		snprintf(file, sizeof(file), "%s/%s", FSB_FSV_DIR, m.verr->vfile);
		fsb_rec_phase(c, &r, FSB_REC_verify_error, V->fs, 0, phase);
		rec_str(&r, K(file), file);
		rec_str(&r, K(what), m.verr->vop);
		rec_u64(&r, K(offset), m.verr->voff);
		rec_u64(&r, K(count), m.verify_errors);
		fsb_emit(c, &r);
		c->failed = 1;
	}
	rc = msg[0] ? -1 : 0;
	if (msg[0])
		fsb_error_rec(c, V->fs, 0, phase, m.err ? m.err->errop : "fileserver",
			      m.err ? m.err->errfile : dir, m.err ? m.err->err : 0, 1, msg);
	emit(V, &m, pre_s, level, rc == 0 && !m.verify_errors ? "ok" : "failed", msg[0] ? msg : NULL);
	double p99 = (double)fsb_hist_pct(&m.hist[FSB_FSV_APPEND], 99) / 1e6;
	fsb_lava_fileserver(c, V->fs, V->state, rc == 0 && !m.verify_errors,
			    m.seconds > 0 ? (double)m.ops / m.seconds : 0, p99);
	if (cfg->progress && rc == 0)
		fsb_say(c->say, "%s fileserver %s: %.0f ops/s, append p99 %.2f ms%s", V->fs, V->state,
			m.seconds > 0 ? (double)m.ops / m.seconds : 0, p99,
			m.verify_errors ? " (verify errors)" : "");
	if (rc < 0)
		snprintf(why, len, "fileserver %s: %s", V->state, msg);
	goto done;
out:
	snprintf(why, len, "fileserver %s: %s", V->state, msg);
	fsb_error_rec(c, V->fs, 0, phase, "fileserver", dir, errno, 1, why);
	memset(&m, 0, sizeof(m));
	emit(V, &m, 0, NAN, "failed", why);
done:
	for (int i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
		if (go[i] >= 0)
			close(go[i]);
	}
	if (dfd >= 0) {
		remove_tree(dfd, 0);
		close(dfd);
		rmdir(dir);
	}
	if (res != MAP_FAILED)
		munmap(res, maplen);
	free(pid);
	return rc;
}

int fsb_fileserver_fs(struct fsb_ctx *c, struct fsb_fresh *fr, char *why, size_t len)
{
	const struct fsb_config *cfg = &c->cfg;
	struct fsv_run V = { .c = c, .fs = fr->fs, .mnt = fr->mnt, .state = "fresh" };
	struct fsb_pattern *pat = NULL;
	struct fsb_age age;
	int rc = -1;

	if (!cfg->fileserver)
		return 0;
	if (fsb_fresh_get(fr, "fileserver", why, len) < 0)
		return -1;
	fr->fresh = 0;
	V.size = malloc((size_t)cfg->fileserver_files * sizeof(*V.size));
	pat = malloc(sizeof(*pat));
	if (!V.size || !pat) {
		snprintf(why, len, "fileserver: out of memory for %u files", cfg->fileserver_files);
		fsb_error_rec(c, fr->fs, 0, "fileserver_fresh", "alloc", NULL, ENOMEM, 1, why);
		goto out;
	}
	fsb_pattern_init(pat);
	V.pat = pat;
	fsb_fsv_sizes(cfg->fileserver_seed, cfg->fileserver_files, cfg->fileserver_size, V.size);
	for (uint32_t i = 0; i < cfg->fileserver_files; i++)
		V.fileset_bytes += V.size[i];
	if (run_once(&V, why, len) < 0)
		goto out;
	if (cfg->fileserver_aged) {
		V.state = "aged";
		if (fsb_fill_age(c, fr->fs, fr->mnt, &age, why, len) < 0)
			goto out;
		V.age = &age;
		if (run_once(&V, why, len) < 0)
			goto out;
	}
	rc = 0;
out:
	free(V.size);
	free(pat);
	return rc;
}

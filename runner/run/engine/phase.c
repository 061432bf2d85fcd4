/* phase.c: the phase table, worker processes and the barrier; the work of
 * each phase is files.c's (one file per file) and run/stores/pack.c's.
 *
 * One worker process per directory (directories are dealt out round-robin
 * when there are fewer workers). Workers set up (allocate) first, report
 * ready, and wait on a barrier pipe; the parent closes it and all start
 * together. Each worker records its own start and end on CLOCK_MONOTONIC;
 * a phase's time is last end - first start (never a sum of per-worker rates).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/msg.h"
#include "lib/time.h"
#include "run/core/cfg.h"
#include "run/core/lockstep.h"
#include "run/stores/pack.h"
#include "run/engine/files.h"
#include "run/engine/fstrim.h"
#include "run/engine/phase.h"
#include "run/core/names.h"
#include "run/core/wctx.h"
#include "run/core/worker.h"

#define CHUNK (1u << 20)	/* largest single read/write */
#define LISTBUF (64u << 10)	/* getdents64 buffer: a few calls for 20,000 names */

struct fsb_workers {
	uint32_t n;
	size_t size;
	struct fsb_wstate *st;
};

struct fsb_workers *fsb_workers_new(uint32_t n)
{
	struct fsb_workers *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->n = n;
	w->size = sizeof(struct fsb_wstate) * n;
	w->st = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->st == MAP_FAILED) {
		free(w);
		return NULL;
	}
	return w;
}

void fsb_workers_free(struct fsb_workers *w)
{
	if (w) {
		munmap(w->st, w->size);
		free(w);
	}
}

struct fsb_wstate *fsb_worker_state(struct fsb_workers *w, uint32_t i)
{
	return &w->st[i];
}

/* ---- inside a worker ---- */

static int cmp_idx(const void *x, const void *y)
{
	const struct fsb_entry *a = x, *b = y;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_ino(const void *x, const void *y)
{
	const struct fsb_entry *a = x, *b = y;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

/* Name order in linear time for the usual listing, every number 0..n-1
 * once: each entry is swapped into its slot. 0 when done; -1 (some number
 * out of range or twice, the order unfinished) leaves it to a sort. */
static int place_by_idx(struct fsb_entry *ent, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ent[i].idx >= n)
			return -1;
	for (size_t i = 0; i < n; i++)
		while (ent[i].idx != i) {
			uint32_t j = ent[i].idx;
			struct fsb_entry t = ent[j];

			if (t.idx == j)
				return -1;
			ent[j] = ent[i];
			ent[i] = t;
		}
	return 0;
}

/* Inode order: a radix sort, a byte of the inode number a pass from the
 * lowest, a pass skipped when that byte is the same in every entry (inode
 * numbers seldom use more than four bytes); tmp holds n entries. Linear
 * time, where the C library's qsort took a tenth of a tmpfs read phase. */
static void sort_by_ino(struct fsb_entry *ent, struct fsb_entry *tmp, size_t n)
{
	struct fsb_entry *src = ent, *dst = tmp, *t;

	if (n < 2)
		return;
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 }, pos = 0;

		for (size_t i = 0; i < n; i++)
			count[(src[i].ino >> shift) & 255]++;
		if (count[(src[0].ino >> shift) & 255] == n)
			continue;
		for (unsigned b = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].ino >> shift) & 255]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != ent)
		memcpy(ent, src, n * sizeof(*ent));
}

/* fsb_walk_sort with tmp (n entries) for the inode order at hand */
static void walk_sort(struct fsb_entry *ent, size_t n, enum fsb_walk walk, struct fsb_entry *tmp)
{
	if (walk == WALK_NAME && place_by_idx(ent, n) < 0)
		qsort(ent, n, sizeof(ent[0]), cmp_idx);
	else if (walk == WALK_INODE && tmp)
		sort_by_ino(ent, tmp, n);
	else if (walk == WALK_INODE)
		qsort(ent, n, sizeof(ent[0]), cmp_ino);
}

void fsb_walk_sort(struct fsb_entry *ent, size_t n, enum fsb_walk walk)
{
	struct fsb_entry *tmp = walk == WALK_INODE ? malloc(n * sizeof(*tmp) + 1) : NULL;

	walk_sort(ent, n, walk, tmp);
	free(tmp);
}

/* Read the directory (the timed "scandir"): our files into w->ent. The
 * directory was just opened (its offset is 0); getdents64 straight into a
 * LISTBUF buffer (musl's readdir asks for 2 KiB at a time: ten times the
 * calls). */
static int list_dir(struct fsb_wctx *w, int dfd, uint32_t dir, size_t *count)
{
	size_t n = 0;
	int stop = 0;

	while (!stop) {
		long got = syscall(SYS_getdents64, dfd, w->lbuf, LISTBUF);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fsb_w_error(w, "readdir", dir, UINT32_MAX, errno, 0, 0, 0);
			break;
		}
		if (got == 0)
			break;
		for (long pos = 0; pos < got && !stop;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			const char *name = w->lbuf + pos + 19;
			unsigned short reclen;
			uint64_t ino;
			long idx;

			memcpy(&ino, w->lbuf + pos, 8);
			memcpy(&reclen, w->lbuf + pos + 16, 2);
			pos += reclen;
			if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			idx = fsb_parse_name(name);
			if (idx < 0 || idx >= (long)w->a->files || n >= w->cap) {
				stop = fsb_w_error(w, "unexpected", dir, UINT32_MAX, EEXIST, 0, 0, 0);
				continue;
			}
			w->ent[n].ino = ino;
			w->ent[n].idx = (uint32_t)idx;
			memcpy(w->ent[n].name, name, 9);
			n++;
		}
	}
	if (n != w->a->files)
		fsb_w_error(w, "missing", dir, UINT32_MAX, ENOENT, 0, 0, (uint64_t)w->a->files - n);
	*count = n;
	return 0;
}


/* The rewrite remedy and the read after it: with the setting on, in an
 * aged round (2 and later). */
static int want_rewrite(const struct fsb_config *cfg, uint32_t round)
{
	return cfg->rewrite && round >= 2;
}

/* The suite, in order, one row a phase: its name in the records, the walk
 * (the order it visits the files in, the records' "order"), what comes with
 * it (FSB_PH_*: a fresh mount, a timed sync, verification, the fault
 * self-test, the layout record) and the work on one directory. */
const struct fsb_phase_def fsb_phases[] = {
	{ "create", WALK_CREATE, FSB_PH_COLD | FSB_PH_SYNC | FSB_PH_FAULT | FSB_PH_SPACE,
	  fsb_files_create, NULL },
	{ "stat", WALK_READDIR, FSB_PH_COLD | FSB_PH_VERIFY, fsb_files_stat, NULL },
	{ "read", WALK_NAME, FSB_PH_COLD | FSB_PH_VERIFY, fsb_files_read, NULL },
	{ "read_inode", WALK_INODE, FSB_PH_COLD | FSB_PH_VERIFY | FSB_PH_LAYOUT, fsb_files_read, NULL },
	{ "rewrite", WALK_NAME, FSB_PH_COLD | FSB_PH_SYNC, fsb_files_rewrite, want_rewrite },
	{ "read_after_rewrite", WALK_NAME, FSB_PH_COLD | FSB_PH_VERIFY, fsb_files_read, want_rewrite },
	{ "delete", WALK_READDIR, FSB_PH_COLD | FSB_PH_SYNC, fsb_files_delete, NULL },
	/* the free space discarded (fstrim = 1), on the mount delete ran on */
	{ "fstrim", WALK_KEYS, FSB_PH_SELF, NULL, fsb_fstrim_wanted },
	/* packing (pack = 1): the same files in one SQLite database, then in
	 * one pack file (run/stores/pack.h) */
	{ "sqlite_write", WALK_KEYS, FSB_PH_COLD | FSB_PH_SYNC | FSB_PH_FAULT | FSB_PH_SPACE,
	  fsb_sqlite_write, fsb_pack_wanted },
	{ "sqlite_read", WALK_KEYS, FSB_PH_COLD | FSB_PH_VERIFY, fsb_sqlite_read, fsb_pack_wanted },
	{ "sqlite_delete", WALK_KEYS, FSB_PH_COLD | FSB_PH_SYNC, fsb_sqlite_delete, fsb_pack_wanted },
	{ "pack_write", WALK_KEYS, FSB_PH_COLD | FSB_PH_SYNC | FSB_PH_FAULT | FSB_PH_SPACE,
	  fsb_pack_write, fsb_pack_wanted },
	{ "pack_read", WALK_KEYS, FSB_PH_COLD | FSB_PH_VERIFY, fsb_pack_read, fsb_pack_wanted },
	{ "pack_delete", WALK_KEYS, FSB_PH_COLD | FSB_PH_SYNC, fsb_pack_delete, fsb_pack_wanted },
};
const size_t fsb_phase_count = sizeof(fsb_phases) / sizeof(fsb_phases[0]);

const char *fsb_phase_order(const struct fsb_phase_def *ph, const char *create_order)
{
	static const char *const name[] = {
		[WALK_READDIR] = "readdir", [WALK_NAME] = "name", [WALK_INODE] = "inode",
		[WALK_KEYS] = "name",
	};

	return ph->walk == WALK_CREATE ? create_order : name[ph->walk];
}

/* A worker that cannot set up says why, in its state, and stops. */
static void setup_failed(struct fsb_wctx *w, const char *op, uint32_t dir, int err)
{
	fsb_w_error(w, op, dir, UINT32_MAX, err, 0, 0, 0);
	if (w->ws->nerr)
		w->ws->err[w->ws->nerr - 1].fatal = 1;
	w->ws->fatal = err;
	_exit(1);
}

/* create_cpu: the CPUs the worker may use (its affinity, inherited from
 * the runner), and worker id pinned to one of them */
static void cpu_setup(struct fsb_wctx *w, uint32_t id)
{
	static uint16_t cpus[FSB_CPU_MAX];
	cpu_set_t set;

	if (w->a->cpu == FSB_CPU_FREE || sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (int c = 0; c < FSB_CPU_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[w->ncpu++] = (uint16_t)c;
	w->cpu = cpus;
	if (w->ncpu && w->a->cpu == FSB_CPU_PINNED) {
		CPU_ZERO(&set);
		CPU_SET(cpus[id % w->ncpu], &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			setup_failed(w, "affinity", id, errno);
	}
}

static void worker(const struct fsb_phase_args *a, struct fsb_wstate *ws, uint32_t id,
		   int ready_fd, int barrier_fd, struct fsb_lockstep *ls)
{
	const struct fsb_phase_def *ph = a->phase;
	struct fsb_wctx w = { .a = a, .ws = ws, .id = id, .ls = ls };
	char c = 0, dname[12];
	void *buf;
	int e;

	/* set-up before the barrier: nothing but the measured work after it */
	w.buflen = a->file_size < CHUNK ? (size_t)a->file_size : CHUNK;
	if (w.buflen < 4096)
		w.buflen = 4096;
	/* twice buflen and a page: a read checks its file after the close,
	 * and its last read asks for a byte more (fsb_files_read) */
	if ((e = posix_memalign(&buf, 4096, 2 * w.buflen + 4096)))
		setup_failed(&w, "alloc", id, e);
	memset(buf, 0, 2 * w.buflen + 4096);
	w.buf = buf;
	if (ph->walk == WALK_CREATE)
		cpu_setup(&w, id);
	if (ph->walk == WALK_CREATE && a->shuffled) {
		w.perm = calloc(a->files, sizeof(*w.perm));
		if (!w.perm)
			setup_failed(&w, "alloc", id, errno);
	}
	if (ph->walk != WALK_CREATE && ph->walk != WALK_KEYS) {
		w.cap = (size_t)a->files + 64;
		w.ent = calloc(w.cap, sizeof(*w.ent));
		w.lbuf = malloc(LISTBUF);
		if (ph->walk == WALK_INODE)
			w.tmp = calloc(w.cap, sizeof(*w.tmp));
		if (!w.ent || !w.lbuf || (ph->walk == WALK_INODE && !w.tmp))
			setup_failed(&w, "alloc", id, errno);
		memset(w.lbuf, 0, LISTBUF);	/* touch the pages now */
		for (size_t i = 0; i < w.cap; i += 4096 / sizeof(*w.ent))
			w.ent[i].ino = 0;	/* touch the pages now */
	}
	if (write(ready_fd, &c, 1) != 1)
		setup_failed(&w, "ready", id, errno);
	close(ready_fd);
	while (read(barrier_fd, &c, 1) < 0 && errno == EINTR)
		;
	ws->start_ns = fsb_w_now_ns();
	for (uint32_t dir = id; dir < a->dirs; dir += a->workers) {
		int stop = 0, dfd = -1;
		size_t n = 0;

		w.trace = dir == id;
		fsb_dir_name(dir, dname);
		if (ph->walk != WALK_CREATE && ph->walk != WALK_KEYS) {
			dfd = openat(a->base_fd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (dfd < 0) {
				if (fsb_w_error(&w, "open", dir, UINT32_MAX, errno, 0, 0, 0))
					break;
				continue;
			}
			if (list_dir(&w, dfd, dir, &n) < 0) {
				close(dfd);
				break;
			}
			walk_sort(w.ent, n, ph->walk, w.tmp);
			if (w.trace) {	/* the very listing the phase walks, in its order */
				for (size_t k = 0; k < n && k < FSB_TRACE_N; k++) {
					ws->trace_idx[k] = w.ent[k].idx;
					ws->trace_ino[k] = w.ent[k].ino;
				}
				ws->ntrace = n < FSB_TRACE_N ? (uint32_t)n : FSB_TRACE_N;
			}
		}
		struct fsb_wdir d = { .base_fd = a->base_fd, .fd = dfd, .dir = dir, .name = dname, .n = n,
				      .ent = w.ent, .first = w.trace };
		stop = ph->op(&w, &d);
		if (dfd >= 0)
			close(dfd);
		if (stop)
			break;
	}
	if (ls)	/* no more files: its turns are skipped */
		fsb_lockstep_leave(ls, id);
	ws->end_ns = fsb_w_now_ns();
	ws->ended = 1;
	_exit(0);
}

/* ---- in the parent ---- */

static void progress_line(const struct fsb_phase_args *a, struct fsb_workers *w, double t0)
{
	uint64_t done = 0, total = (uint64_t)a->dirs * a->files;
	double el = fsb_now() - t0;

	for (uint32_t i = 0; i < a->workers; i++)
		done += w->st[i].done;
	fsb_say(a->say, "%s %s: %llu/%llu files (%.0f%%), %.0f files/s, %.0f s",
		a->label, a->phase->name, (unsigned long long)done,
		(unsigned long long)total, total ? 100.0 * (double)done / (double)total : 0.0,
		el > 0 ? (double)done / el : 0.0, el);
}

int fsb_phase_run(struct fsb_workers *w, const struct fsb_phase_args *a,
		  struct fsb_phase_result *res)
{
	int ready[2], barrier[2], alive = 0, err = 0;
	struct fsb_lockstep *ls = NULL;
	pid_t *pids;
	char c;
	uint64_t first = UINT64_MAX, last = 0, seen[FSB_CPU_MAX / 64] = { 0 };
	double started, next_progress, killed_at = 0;

	memset(res, 0, sizeof(*res));
	fsb_hist_init(&res->hist);
	if (a->workers > w->n)
		return -EINVAL;
	memset(w->st, 0, sizeof(struct fsb_wstate) * a->workers);
	for (uint32_t i = 0; i < a->workers; i++)
		fsb_hist_init(&w->st[i].hist);
	pids = calloc(a->workers, sizeof(*pids));
	if (!pids)
		return -ENOMEM;
	if (a->lockstep && a->phase->walk == WALK_CREATE && !(ls = fsb_lockstep_new(a->workers))) {
		free(pids);
		return -errno;
	}
	if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(barrier, O_CLOEXEC) < 0) {
		fsb_lockstep_free(ls);
		free(pids);
		return -errno;
	}
	for (uint32_t i = 0; i < a->workers; i++) {
		pid_t p = fork();
		if (p < 0) {
			err = -errno;
			break;
		}
		if (p == 0) {
			close(ready[0]);
			close(barrier[1]);
			worker(a, &w->st[i], i, ready[1], barrier[0], ls);
		}
		pids[i] = p;
		alive++;
	}
	close(ready[1]);
	close(barrier[0]);
	/* wait until every worker is set up (EOF when they all wrote or died) */
	for (int got = 0; got < alive;) {
		ssize_t r = read(ready[0], &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got++;
	}
	close(ready[0]);
	if (err) {	/* could not start them all: stop those that did */
		for (uint32_t i = 0; i < a->workers; i++)
			if (pids[i] > 0)
				kill(pids[i], SIGKILL);
	}
	close(barrier[1]);	/* go */
	started = fsb_now();
	next_progress = started + 2.0;
	while (alive > 0) {
		int status;
		pid_t p = waitpid(-1, &status, WNOHANG);

		if (p > 0) {
			for (uint32_t i = 0; i < a->workers; i++)
				if (pids[i] == p) {
					pids[i] = 0;
					alive--;
					if (ls)	/* a turn it held goes on */
						fsb_lockstep_leave(ls, i);
					if (WIFSIGNALED(status))
						w->st[i].signal = WTERMSIG(status);
					else if (WIFEXITED(status))
						w->st[i].exit_status = WEXITSTATUS(status);
					if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
						res->crashed = 1;
				}
			continue;
		}
		if (p < 0 && errno != EINTR)
			break;
		double now = fsb_now();
		if (a->timeout && !killed_at && now - started > a->timeout) {
			for (uint32_t i = 0; i < a->workers; i++)
				if (pids[i] > 0)
					kill(pids[i], SIGKILL);
			res->timed_out = 1;
			killed_at = now;
		}
		if (killed_at && now - killed_at > 10.0)
			break;	/* workers stuck in the kernel: leave them */
		if (a->progress && now >= next_progress) {
			progress_line(a, w, started);
			next_progress = now + 2.0;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	free(pids);
	if (ls)
		res->turns = fsb_lockstep_turns(ls);
	fsb_lockstep_free(ls);
	if (err)
		return err;

	for (uint32_t i = 0; i < a->workers; i++) {
		struct fsb_wstate *s = &w->st[i];
		if (s->start_ns && s->start_ns < first)
			first = s->start_ns;
		if (s->end_ns > last)
			last = s->end_ns;
		if (!s->ended)
			res->crashed = 1;
		res->files += s->done;
		res->bytes += s->bytes;
		res->errors += s->errors;
		res->verify_errors += s->verify_errors;
		if (s->fatal && !res->fatal)
			res->fatal = s->fatal;
		fsb_hist_merge(&res->hist, &s->hist);
		for (uint32_t k = 0; k < FSB_CPU_MAX / 64; k++)
			seen[k] |= s->cpus_seen[k];
	}
	for (uint32_t k = 0; k < FSB_CPU_MAX / 64; k++)
		res->cpus_used += (uint32_t)__builtin_popcountll(seen[k]);
	if (res->timed_out || res->crashed)
		last = fsb_now_ns();
	res->span_seconds = first != UINT64_MAX && last > first ? (double)(last - first) / 1e9 : 0;
	res->seconds = res->span_seconds;
	if ((a->phase->flags & FSB_PH_SYNC) && !res->timed_out) {
		double s0 = fsb_now();
		if (syncfs(a->base_fd) < 0 && !res->fatal) {
			res->fatal = errno;
			res->errors++;
		}
		res->sync_seconds = fsb_now() - s0;
		res->seconds += res->sync_seconds;
	}
	return 0;
}

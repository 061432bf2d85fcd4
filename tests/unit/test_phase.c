/* test_phase.c: the phase table and the phase engine, run in a scratch
 * directory: what seconds holds, the order each phase walks, and what a
 * worker that dies or fails leaves for its record. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/settings.h"
#include "run/fs/mount.h"
#include "run/core/pattern.h"
#include "run/engine/phase.h"
#include "run/core/names.h"
#include "unit.h"

#define DIRS 2
#define FILES 300

static const struct fsb_phase_def *phase(const char *name)
{
	for (size_t i = 0; i < fsb_phase_count; i++)
		if (!strcmp(fsb_phases[i].name, name))
			return &fsb_phases[i];
	return NULL;
}

static void args(struct fsb_phase_args *a, const char *name, int base, const struct fsb_pattern *pat)
{
	memset(a, 0, sizeof(*a));
	a->phase = phase(name);
	a->base_fd = base;
	a->dirs = DIRS;
	a->files = FILES;
	a->workers = DIRS;
	a->round = 1;
	a->file_size = 100;
	a->verify = 1;
	a->timeout = 60;
	a->label = "test";
	a->shuffled = 1;
	a->pat = pat;
}

/* seconds is the workers' span (first start to last end) plus the timed sync;
 * the span holds every worker's own time */
static void check_time(struct fsb_workers *w, const struct fsb_phase_result *res, int synced)
{
	CHECK(res->span_seconds > 0);
	CHECK(fabs(res->seconds - res->span_seconds - res->sync_seconds) < 1e-12);
	if (synced)
		CHECK(res->sync_seconds > 0);
	else
		CHECK(res->sync_seconds == 0);
	for (uint32_t i = 0; i < DIRS; i++) {
		const struct fsb_wstate *s = fsb_worker_state(w, i);
		CHECK(s->end_ns > s->start_ns);
		CHECK((double)(s->end_ns - s->start_ns) / 1e9 <= res->span_seconds + 1e-9);
	}
}

static int ascending_ino(const struct fsb_wstate *s)
{
	for (uint32_t k = 1; k < s->ntrace; k++)
		if (s->trace_ino[k] <= s->trace_ino[k - 1])
			return 0;
	return 1;
}

static int name_order(const struct fsb_wstate *s)
{
	for (uint32_t k = 0; k < s->ntrace; k++)
		if (s->trace_idx[k] != k)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	struct fsb_entry e[5] = {
		{ 40, 3, "f0000003" }, { 10, 1, "f0000001" }, { 50, 0, "f0000000" },
		{ 20, 4, "f0000004" }, { 30, 2, "f0000002" },
	};
	struct fsb_pattern pat;
	struct fsb_phase_args a;
	struct fsb_phase_result res;
	struct fsb_workers *w;
	struct rlimit old, lim;
	int base;
	(void)argc;

	/* the table: the suite's phases in order, each with its walk */
	static const char *const names[] = { "create", "stat", "read", "read_inode", "delete" };
	size_t always = 0;	/* the rows that run every round (optional ones have wanted) */
	for (size_t i = 0; i < fsb_phase_count; i++)
		if (!fsb_phases[i].wanted && always++ < 5)
			CHECK_STR(fsb_phases[i].name, names[always - 1]);
	CHECK_EQ_U(always, 5);
	/* the rewrite remedy: between read_inode and delete, its setting on, in
	 * an aged round (2 and later) */
	CHECK(phase("rewrite") == phase("read_inode") + 1);
	CHECK(phase("read_after_rewrite") == phase("rewrite") + 1);
	CHECK(phase("delete") == phase("read_after_rewrite") + 1);
	struct fsb_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	static const char *const remedy[] = { "rewrite", "read_after_rewrite" };
	for (size_t i = 0; i < 2; i++) {
		const struct fsb_phase_def *p = phase(remedy[i]);
		CHECK(p && p->wanted);
		if (!p || !p->wanted)
			continue;
		cfg.rewrite = 0;
		CHECK(!p->wanted(&cfg, 2));
		cfg.rewrite = 1;
		CHECK(!p->wanted(&cfg, 1));
		CHECK(p->wanted(&cfg, 2));
		CHECK(p->wanted(&cfg, 3));
	}
	CHECK_STR(fsb_phase_order(phase("rewrite"), "shuffled"), "name");
	CHECK(phase("rewrite")->flags & FSB_PH_SYNC);
	CHECK(phase("rewrite")->flags & FSB_PH_COLD);
	CHECK(phase("read_after_rewrite")->flags & FSB_PH_VERIFY);
	CHECK(phase("read_after_rewrite")->flags & FSB_PH_COLD);
	CHECK_STR(fsb_phase_order(phase("create"), "shuffled"), "shuffled");
	CHECK_STR(fsb_phase_order(phase("create"), "name"), "name");
	CHECK_STR(fsb_phase_order(phase("stat"), "name"), "readdir");
	CHECK_STR(fsb_phase_order(phase("read"), "shuffled"), "name");
	CHECK_STR(fsb_phase_order(phase("read_inode"), "name"), "inode");
	CHECK_STR(fsb_phase_order(phase("delete"), "name"), "readdir");
	CHECK(phase("create")->flags & FSB_PH_SYNC);
	CHECK(phase("delete")->flags & FSB_PH_SYNC);
	CHECK(!(phase("read")->flags & FSB_PH_SYNC));
	CHECK(phase("read_inode")->flags & FSB_PH_VERIFY);
	CHECK(phase("read_inode")->flags & FSB_PH_LAYOUT);
	CHECK(phase("create")->flags & FSB_PH_FAULT);

	/* the sort each walk uses */
	fsb_walk_sort(e, 5, WALK_READDIR);
	CHECK_EQ_U(e[0].ino, 40);	/* readdir: as listed */
	fsb_walk_sort(e, 5, WALK_INODE);
	for (int i = 0; i < 5; i++)
		CHECK_EQ_U(e[i].ino, 10 * (i + 1));
	CHECK_STR(e[0].name, "f0000001");
	fsb_walk_sort(e, 5, WALK_NAME);
	for (int i = 0; i < 5; i++)
		CHECK_EQ_U(e[i].idx, i);
	CHECK_EQ_U(e[0].ino, 50);
	{	/* name order with files missing (a sort) or a number twice */
		struct fsb_entry g[4] = {
			{ 1, 7, "f0000007" }, { 2, 1, "f0000001" }, { 3, 3, "f0000003" }, { 4, 0, "f0000000" },
		}, t[4] = {
			{ 1, 2, "f0000002" }, { 2, 0, "f0000000" }, { 3, 2, "f0000002" }, { 4, 1, "f0000001" },
		};
		static const uint32_t gi[] = { 0, 1, 3, 7 }, ti[] = { 0, 1, 2, 2 };

		fsb_walk_sort(g, 4, WALK_NAME);
		fsb_walk_sort(t, 4, WALK_NAME);
		for (int i = 0; i < 4; i++) {
			CHECK_EQ_U(g[i].idx, gi[i]);
			CHECK_EQ_U(t[i].idx, ti[i]);
		}
		CHECK_EQ_U(g[3].ino, 1);
	}
	{	/* inode order over numbers of several bytes */
		static const uint64_t ino[] = { 0x100000001ull, 5, 0x10000, 300, UINT64_MAX, 0x1ff, 4,
						0x100000000ull, 0xff00 };
		static const uint64_t want[] = { 4, 5, 300, 0x1ff, 0xff00, 0x10000, 0x100000000ull,
						 0x100000001ull, UINT64_MAX };
		struct fsb_entry h[9];

		for (uint32_t i = 0; i < 9; i++) {
			h[i].ino = ino[i];
			h[i].idx = i;
			fsb_file_name(i, h[i].name);
		}
		fsb_walk_sort(h, 9, WALK_INODE);
		for (int i = 0; i < 9; i++)
			CHECK_EQ_U(h[i].ino, want[i]);
		CHECK_EQ_U(h[0].idx, 6);
		CHECK_STR(h[0].name, "f0000006");
	}

	/* the engine, in a scratch directory */
	fsb_pattern_init(&pat);
	CHECK(fsb_mkdir_p("phase") == 0);
	base = open("phase", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	w = fsb_workers_new(DIRS);
	CHECK(base >= 0 && w != NULL);
	if (base < 0 || !w)
		return unit_done(argv[0]);

	/* create, shuffled: the files go out in the shuffled order */
	args(&a, "create", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors, 0);
	check_time(w, &res, 1);
	CHECK_EQ_U(fsb_worker_state(w, 0)->ntrace, FSB_TRACE_N);
	CHECK(!name_order(fsb_worker_state(w, 0)));

	/* stat: no sync, seconds is the span */
	args(&a, "stat", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	check_time(w, &res, 0);

	/* read_inode opens the files in inode order, read in name order; with a
	 * shuffled create the two differ */
	args(&a, "read_inode", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	check_time(w, &res, 0);
	for (uint32_t i = 0; i < DIRS; i++) {
		const struct fsb_wstate *s = fsb_worker_state(w, i);
		CHECK_EQ_U(s->ntrace, FSB_TRACE_N);
		CHECK(ascending_ino(s));
		CHECK(!name_order(s));
	}
	args(&a, "read", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	for (uint32_t i = 0; i < DIRS; i++) {
		const struct fsb_wstate *s = fsb_worker_state(w, i);
		CHECK_EQ_U(s->ntrace, FSB_TRACE_N);
		CHECK(name_order(s));
		CHECK(!ascending_ino(s));
	}

	/* rewrite: every file copied in name order into a new directory that
	 * takes the old one's place (new inodes), timed with its sync; the
	 * old one is gone and the read after it finds every byte */
	struct stat before, after;
	CHECK(fstatat(base, "d0000/f0000007", &before, 0) == 0);
	args(&a, "rewrite", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.bytes, DIRS * FILES * 100);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	check_time(w, &res, 1);
	CHECK(name_order(fsb_worker_state(w, 0)));
	CHECK(fstatat(base, "d0000/f0000007", &after, 0) == 0);
	CHECK(after.st_ino != before.st_ino);
	CHECK_EQ_U(after.st_size, 100);
	CHECK(faccessat(base, "d0000.new", F_OK, 0) < 0 && errno == ENOENT);
	CHECK(faccessat(base, "d0000.old", F_OK, 0) < 0 && errno == ENOENT);
	CHECK(faccessat(base, "d0001.new", F_OK, 0) < 0 && errno == ENOENT);
	args(&a, "read_after_rewrite", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	CHECK(name_order(fsb_worker_state(w, 1)));
	/* a stale copy in the way: the error names the directory, nothing lost */
	CHECK(mkdirat(base, "d0001.new", 0755) == 0);
	args(&a, "rewrite", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK(res.errors > 0);
	CHECK_STR(fsb_worker_state(w, 1)->err[0].op, "mkdir");
	CHECK_EQ_U(fsb_worker_state(w, 1)->err[0].err, EEXIST);
	CHECK(unlinkat(base, "d0001.new", AT_REMOVEDIR) == 0);
	args(&a, "read", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);

	/* a worker killed by a signal: the parent keeps which one. Writing
	 * past RLIMIT_FSIZE raises SIGXFSZ in the workers (the parent writes
	 * no file while the limit is on). */
	args(&a, "create", base, &pat);
	a.file_size = 8192;
	a.round = 2;
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
	lim = old;
	lim.rlim_cur = 4096;
	CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK(res.crashed);
	CHECK_EQ_U(res.fatal, 0);
	for (uint32_t i = 0; i < DIRS; i++) {
		const struct fsb_wstate *s = fsb_worker_state(w, i);
		CHECK_EQ_U(s->signal, SIGXFSZ);
		CHECK(!s->ended);
	}

	/* the same with SIGXFSZ ignored: write fails with EFBIG, and the
	 * errno reaches the worker's error list with the file */
	signal(SIGXFSZ, SIG_IGN);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK(!res.crashed);
	CHECK(res.errors > 0);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, SIG_DFL);
	for (uint32_t i = 0; i < DIRS; i++) {
		const struct fsb_wstate *s = fsb_worker_state(w, i);
		CHECK_EQ_U(s->signal, 0);
		CHECK(s->ended);
		CHECK(s->nerr > 0);
		if (s->nerr) {
			CHECK_EQ_U(s->err[0].err, EFBIG);
			CHECK_STR(s->err[0].op, "write");
			CHECK_EQ_U(s->err[0].dir, i);
			CHECK(s->err[0].idx < FILES);
			CHECK_EQ_U(s->err[0].off, 4096);
			CHECK(!s->err[0].fatal);
		}
	}

	/* delete: timed sync again; the directories go */
	args(&a, "delete", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * FILES);
	CHECK_EQ_U(res.errors, 0);
	check_time(w, &res, 1);
	CHECK(faccessat(base, "d0000", F_OK, 0) < 0 && errno == ENOENT);

	/* a directory that is not there: the errno of the failed open */
	args(&a, "stat", base, &pat);
	CHECK(fsb_phase_run(w, &a, &res) == 0);
	CHECK(res.errors > 0);
	CHECK_EQ_U(fsb_worker_state(w, 1)->err[0].err, ENOENT);
	CHECK_STR(fsb_worker_state(w, 1)->err[0].op, "open");

	fsb_workers_free(w);
	close(base);
	return unit_done(argv[0]);
}

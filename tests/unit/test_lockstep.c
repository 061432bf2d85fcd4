/* test_lockstep.c: the aging study's settings (runner/SUITE.md): the
 * workers' turns file by file (run/core/lockstep.h) in strict order, with
 * workers that have fewer files and one that dies holding the turn; the
 * create phase with create_lockstep and create_cpu in a scratch
 * directory; the settings create_lockstep, create_cpu and a variant's
 * sysfs:KEY=VALUE through the layers, their errors, the column and the
 * config record; the knobs written and read back (run/fs/knobs.h) under a
 * fake /sys/fs. */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/core/lockstep.h"
#include "run/core/pattern.h"
#include "run/core/worker.h"
#include "run/engine/phase.h"
#include "run/fs/mount.h"
#include "run/fs/knobs.h"
#include "run/fs/variant.h"
#include "run/settings.h"
#include "unit.h"

#define NW 4
#define LOGN 4096

/* what the children write: the worker of each turn, in turn order */
struct shlog {
	_Atomic uint32_t n;
	uint32_t who[LOGN];
};

/* n workers, worker i making files[i] files in lockstep (die: worker
 * that exits holding its turn after its first file, without leaving);
 * the parent leaves for every worker that exits, as the engine does.
 * The log of turns, or NULL when the workers did not end in 10 s. */
static struct shlog *run_turns(uint32_t n, const uint32_t *files, int die)
{
	struct shlog *log = mmap(NULL, sizeof(*log), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct fsb_lockstep *ls = fsb_lockstep_new(n);
	pid_t pid[NW];

	if (log == MAP_FAILED || !ls)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		if ((pid[i] = fork()) == 0) {
			int held = 0;

			for (uint32_t k = 0; k < files[i]; k++) {
				fsb_lockstep_next(ls, i, &held);
				log->who[atomic_fetch_add(&log->n, 1) % LOGN] = i;
				if (die >= 0 && (uint32_t)die == i)
					_exit(3);	/* holding the turn */
				if (k % 7 == 0)
					usleep(200);	/* a slow file: the others must wait */
			}
			fsb_lockstep_leave(ls, i);
			_exit(0);
		}
	}
	for (uint32_t left = n, tries = 0; left && tries < 10000; tries++) {
		int st;
		pid_t p = waitpid(-1, &st, WNOHANG);

		for (uint32_t i = 0; p > 0 && i < n; i++)
			if (pid[i] == p) {
				fsb_lockstep_leave(ls, i);
				left--;
			}
		if (p <= 0)
			usleep(1000);
		if (tries == 9999) {
			for (uint32_t i = 0; i < n; i++)
				kill(pid[i], SIGKILL);
			while (wait(NULL) > 0)
				;
			fsb_lockstep_free(ls);
			return NULL;
		}
	}
	CHECK_EQ_U(fsb_lockstep_turns(ls), log->n);
	fsb_lockstep_free(ls);
	return log;
}

static void test_turns(void)
{
	/* 4 workers of 50 files: 0 1 2 3 0 1 2 3 ... */
	static const uint32_t even[NW] = { 50, 50, 50, 50 };
	struct shlog *log = run_turns(NW, even, -1);
	int strict = 1;

	CHECK(log != NULL);
	if (!log)
		return;
	CHECK_EQ_U(log->n, 200);
	for (uint32_t k = 0; k < log->n; k++)
		strict &= log->who[k] == k % NW;
	CHECK(strict);
	munmap(log, sizeof(*log));

	/* fewer files for some: once a worker is done its turns are skipped */
	static const uint32_t uneven[NW] = { 6, 2, 6, 4 };
	static const uint32_t want[] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 2, 3, 0, 2, 3, 0, 2, 0, 2 };
	log = run_turns(NW, uneven, -1);
	CHECK(log != NULL);
	if (!log)
		return;
	CHECK_EQ_U(log->n, sizeof(want) / sizeof(want[0]));
	strict = 1;
	for (uint32_t k = 0; k < log->n && k < sizeof(want) / sizeof(want[0]); k++)
		strict &= log->who[k] == want[k];
	CHECK(strict);
	munmap(log, sizeof(*log));

	/* worker 1 dies holding its turn: the others go on without it */
	log = run_turns(NW, even, 1);
	CHECK(log != NULL);
	if (!log)
		return;
	CHECK_EQ_U(log->n, 151);
	CHECK_EQ_U(log->who[0], 0);
	CHECK_EQ_U(log->who[1], 1);
	CHECK_EQ_U(log->who[2], 2);
	strict = 1;
	for (uint32_t k = 4; k < log->n; k++)	/* 3 0 2 3 0 2 ... */
		strict &= log->who[k] != 1 && log->who[k] != log->who[k - 1];
	CHECK(strict);
	munmap(log, sizeof(*log));

	/* one worker alone: every turn its own, none waited for */
	static const uint32_t one[1] = { 20 };
	log = run_turns(1, one, -1);
	CHECK(log && log->n == 20);
	if (log)
		munmap(log, sizeof(*log));
	CHECK(fsb_lockstep_new(0) == NULL);
}

static const struct fsb_phase_def *phase(const char *name)
{
	for (size_t i = 0; i < fsb_phase_count; i++)
		if (!strcmp(fsb_phases[i].name, name))
			return &fsb_phases[i];
	return NULL;
}

/* the create phase with the settings: 5 directories for 4 workers (worker
 * 0 has two), every file made, a turn each, the CPUs noted */
static void test_create(void)
{
	struct fsb_pattern pat;
	struct fsb_phase_args a;
	struct fsb_phase_result res;
	struct fsb_workers *w = fsb_workers_new(4);
	static const enum fsb_cpu_policy pol[] = { FSB_CPU_FREE, FSB_CPU_PINNED, FSB_CPU_MIGRATE };
	char dir[32];
	cpu_set_t set;
	uint32_t allowed = sched_getaffinity(0, sizeof(set), &set) == 0 ? (uint32_t)CPU_COUNT(&set) : 1;

	fsb_pattern_init(&pat);
	CHECK(w != NULL);
	for (int lock = 0; lock < 2 && w; lock++)
		for (size_t p = 0; p < 3; p++) {
			snprintf(dir, sizeof(dir), "c%d%zu", lock, p);
			CHECK(fsb_mkdir_p(dir) == 0);
			int base = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			memset(&a, 0, sizeof(a));
			a.phase = phase("create");
			a.base_fd = base;
			a.dirs = 5;
			a.files = 40;
			a.workers = 4;
			a.round = 1;
			a.file_size = 100;
			a.timeout = 60;
			a.label = "test";
			a.lockstep = lock;
			a.cpu = pol[p];
			a.pat = &pat;
			CHECK(fsb_phase_run(w, &a, &res) == 0);
			CHECK_EQ_U(res.files, 200);
			CHECK_EQ_U(res.errors, 0);
			CHECK(!res.crashed && !res.timed_out);
			CHECK_EQ_U(res.turns, lock ? 200 : 0);
			if (pol[p] == FSB_CPU_FREE)
				CHECK_EQ_U(res.cpus_used, 0);
			else
				CHECK(res.cpus_used >= 1 && res.cpus_used <= allowed);
			/* migrate: every allowed CPU (worker 0's 80 files each
			 * on the next one) */
			if (pol[p] == FSB_CPU_MIGRATE)
				CHECK_EQ_U(res.cpus_used, allowed < 80 ? allowed : 80);
			struct stat st;
			CHECK(fstatat(base, "d0004/f0000039", &st, 0) == 0 && st.st_size == 100);
			close(base);
		}
	fsb_workers_free(w);
	CHECK_EQ_U(fsb_cpu_policy("free"), FSB_CPU_FREE);
	CHECK_EQ_U(fsb_cpu_policy("pinned"), FSB_CPU_PINNED);
	CHECK_EQ_U(fsb_cpu_policy("migrate"), FSB_CPU_MIGRATE);
	CHECK(fsb_cpu_policy("spread") < 0);
}

/* merge one command-line layer of key=value pairs (NULL-ended) */
static int merge(struct fsb_config *c, const char *const *kv, char *err, size_t len)
{
	struct fsb_layer l = { .src = SRC_CLI, .origin = "command line" };
	int rc = 0;

	for (size_t i = 0; kv[i] && rc == 0; i += 2)
		rc = fsb_layer_add(&l, kv[i], kv[i + 1], "command line", err, len);
	struct fsb_layer *ls[] = { &l };
	if (rc == 0)
		rc = fsb_config_merge(c, ls, 1, err, len);
	fsb_layer_free(&l);
	return rc;
}

static void test_settings(void)
{
	static struct fsb_config c;
	char err[1024], val[256], json[65536];
	struct fsb_column col;

	/* the defaults: free, no lockstep */
	const char *none[] = { NULL };
	CHECK(merge(&c, none, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.create_lockstep, 0);
	CHECK_STR(c.create_cpu, "free");
	CHECK(fsb_config_get(&c, "create_cpu", val, sizeof(val)) == 0);
	CHECK_STR(val, "free");

	const char *on[] = { "create_lockstep", "yes", "create_cpu", "migrate", "fs", "ext4,ext4:s0",
			     "variant.ext4:s0", "sysfs:mb_stream_req=0", NULL };
	CHECK(merge(&c, on, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.create_lockstep, 1);
	CHECK_STR(c.create_cpu, "migrate");
	CHECK(fsb_config_column(&c, "ext4:s0", &col) == 0);
	CHECK_STR(col.sysfs, "mb_stream_req=0");
	CHECK_STR(col.mkfs, "");
	CHECK_STR(col.mount, "");
	CHECK(fsb_config_column(&c, "ext4", &col) == 0);
	CHECK_STR(col.sysfs, "");
	CHECK(fsb_config_get(&c, "variant.ext4:s0", val, sizeof(val)) == 0);
	CHECK_STR(val, "sysfs:mb_stream_req=0");
	/* the config record says which */
	CHECK(fsb_config_json(&c, json, sizeof(json)) >= 0);
	CHECK_CONTAINS(json, "\"create_lockstep\":1");
	CHECK_CONTAINS(json, "\"create_cpu\":\"migrate\"");
	CHECK_CONTAINS(json, "\"variant.ext4:s0\":\"sysfs:mb_stream_req=0\"");

	const char *pin[] = { "create_cpu", "pinned", "variant.ext4:x", "mount:noatime sysfs:a=1,b_2=x.y-z",
			      "fs", "ext4:x", NULL };
	CHECK(merge(&c, pin, err, sizeof(err)) == 0);
	CHECK_STR(c.create_cpu, "pinned");
	CHECK(fsb_config_column(&c, "ext4:x", &col) == 0);
	CHECK_STR(col.mount, "noatime");
	CHECK_STR(col.sysfs, "a=1,b_2=x.y-z");
	CHECK(fsb_config_get(&c, "variant.ext4:x", val, sizeof(val)) == 0);
	CHECK_STR(val, "mount:noatime sysfs:a=1,b_2=x.y-z");

	/* errors name the key, the value and what is allowed */
	const char *bad1[] = { "create_cpu", "spread", NULL };
	CHECK(merge(&c, bad1, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "create_cpu=spread");
	CHECK_CONTAINS(err, "free|pinned|migrate");
	const char *bad2[] = { "create_lockstep", "2", NULL };
	CHECK(merge(&c, bad2, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "create_lockstep=2");
	static const struct { const char *in, *why; } bad[] = {
		{ "sysfs:", "bad at ''" },
		{ "sysfs:mb_stream_req", "bad at 'mb_stream_req'" },
		{ "sysfs:mb_stream_req=", "bad at 'mb_stream_req='" },
		{ "sysfs:../x=1", "bad at '../x=1'" },
		{ "sysfs:a=1/2", "bad at 'a=1/2'" },
		{ "sysfs:a=1,", "bad at ''" },
		{ "sysfs:A=1", "KEY of a-z, 0-9, _" },
		{ "sysfs:a=1 sysfs:b=2", "sysfs: given twice" },
		{ "sysfs:a=1 x", "'x' begins none of mkfs:, mount:, sysfs:" },
	};
	char mk[128], mo[128], sy[128], why[256];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		CHECK(fsb_variant_parse_sysfs(bad[i].in, mk, sizeof(mk), mo, sizeof(mo), sy, sizeof(sy),
					      why, sizeof(why)) < 0);
		CHECK_CONTAINS(why, bad[i].why);
	}
	const char *bad3[] = { "variant.ext4:y", "sysfs:x", NULL };
	CHECK(merge(&c, bad3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "variant.ext4:y=sysfs:x: sysfs:x: bad at 'x'");
	/* mkfs:ARGS end at sysfs: as at mount: */
	CHECK(fsb_variant_parse_sysfs("mkfs:-b 1024 sysfs:k=v mount:ro", mk, sizeof(mk), mo, sizeof(mo),
				      sy, sizeof(sy), why, sizeof(why)) == 0);
	CHECK_STR(mk, "-b 1024");
	CHECK_STR(mo, "ro");
	CHECK_STR(sy, "k=v");
	CHECK(fsb_variant_text_sysfs(val, sizeof(val), mk, mo, sy) > 0);
	CHECK_STR(val, "mkfs:-b 1024 mount:ro sysfs:k=v");
	CHECK(fsb_variant_text_sysfs(val, sizeof(val), "", "", "k=v") > 0);
	CHECK_STR(val, "sysfs:k=v");
	CHECK(fsb_variant_text_sysfs(val, sizeof(val), "", "", "") > 0);
	CHECK_STR(val, "mkfs:");
	CHECK(fsb_variant_text_sysfs(val, 8, "", "", "k=verylong") < 0);
	/* the call without the part accepts and drops it */
	CHECK(fsb_variant_parse("sysfs:k=v", mk, sizeof(mk), mo, sizeof(mo), why, sizeof(why)) == 0);
}

/* a file holding text */
static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_sysfs(void)
{
	char why[512], buf[64];

	/* the knobs of /dev/fake7's ext4 under a fake root; dev named by a
	 * symlink resolves to its target's name */
	CHECK(fsb_mkdir_p("sys/ext4/fake7") == 0);
	put("fake7", "");
	CHECK(symlink("fake7", "link") == 0);
	put("sys/ext4/fake7/mb_stream_req", "");
	put("sys/ext4/fake7/mb_group_prealloc", "");
	CHECK(fsb_fs_sysfs_set("sys", "ext4", "link", "mb_stream_req=0,mb_group_prealloc=32", why,
			       sizeof(why)) == 0);
	FILE *f = fopen("sys/ext4/fake7/mb_stream_req", "r");
	CHECK(f && fgets(buf, sizeof(buf), f));
	if (f)
		fclose(f);
	CHECK_STR(buf, "0");
	/* a knob the filesystem does not have, or one that reads back
	 * otherwise (the kernel refused the value) */
	CHECK(fsb_fs_sysfs_set("sys", "ext4", "fake7", "no_such=1", why, sizeof(why)) == -ENOENT);
	CHECK_CONTAINS(why, "sys/ext4/fake7/no_such: No such file or directory");
	put("sys/ext4/fake7/mb_stream_req", "16\n");
	CHECK(fsb_fs_sysfs_set("sys", "ext4", "fake7", "mb_stream_req=0", why, sizeof(why)) == -EINVAL);
	CHECK_CONTAINS(why, "reads back 06, not 0");
	CHECK(fsb_fs_kernel_has("no-such-filesystem") == 0);
}

int main(int argc, char **argv)
{
	(void)argc;
	test_turns();
	test_create();
	test_settings();
	test_sysfs();
	return unit_done(argv[0]);
}

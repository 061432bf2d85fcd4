/* test_fileserver.c: the file-server workload (run/engine/fileserver.h,
 * fileset.h): the gamma sampler's mean and variance against the
 * distribution's, the fileset's sizes, tree and preallocation, the
 * settings and profiles, a short run in the test's folder (its records
 * against the schema, every operation done and checked), the report's
 * table and ranking (normalised to ext4, fresh against aged), the verdict
 * keys, the LAVA lines and the chart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/sections/served.h"
#include "report/writers/chart.h"
#include "run/engine/fileserver.h"
#include "run/engine/lava.h"
#include "run/settings.h"
#include "fixtures.h"
#include "layers.h"
#include "runctx.h"
#include "schemas.h"
#include "unit.h"
#include "verdicts.h"

/* n numbers of gamma(k, theta): their mean and variance against k theta
 * and k theta^2, within tol (relative). */
static void gamma_moments(double k, double theta, double tol)
{
	uint64_t s = 42;
	const int n = 200000;
	double sum = 0, sq = 0, min = INFINITY;

	for (int i = 0; i < n; i++) {
		double x = fsb_fsv_gamma(&s, k, theta);
		sum += x;
		sq += x * x;
		if (x < min)
			min = x;
	}
	double mean = sum / n, var = (sq - n * mean * mean) / (n - 1);
	CHECK(fabs(mean - k * theta) < tol * k * theta);
	CHECK(fabs(var - k * theta * theta) < 3 * tol * k * theta * theta);
	CHECK(min > 0);
	if (!(fabs(mean - k * theta) < tol * k * theta) || !(fabs(var - k * theta * theta) < 3 * tol * k * theta * theta))
		fprintf(stderr, "gamma(%g, %g): mean %g var %g\n", k, theta, mean, var);
}

static void test_gamma(void)
{
	uint64_t s = 7;
	double sum = 0, sq = 0;
	int out = 0;

	/* uniform in (0, 1): mean 1/2, variance 1/12 */
	for (int i = 0; i < 100000; i++) {
		double u = fsb_fsv_uniform(&s);
		out += !(u > 0 && u < 1);
		sum += u;
		sq += u * u;
	}
	CHECK(out == 0);
	CHECK(fabs(sum / 100000 - 0.5) < 0.005);
	CHECK(fabs(sq / 100000 - 0.25 - 1.0 / 12) < 0.005);
	/* normal: mean 0, variance 1 */
	sum = sq = 0;
	for (int i = 0; i < 100000; i++) {
		double z = fsb_fsv_normal(&s);
		sum += z;
		sq += z * z;
	}
	CHECK(fabs(sum / 100000) < 0.02 && fabs(sq / 100000 - 1) < 0.02);
	/* filebench's shape 1.5, an exponential (1), a large shape and the
	 * k < 1 path: mean k theta, variance k theta^2 */
	gamma_moments(1.5, 1.0, 0.01);
	gamma_moments(1.5, 131072 / 1.5, 0.01);
	gamma_moments(1.0, 2.0, 0.01);
	gamma_moments(9.0, 0.5, 0.01);
	gamma_moments(0.5, 1.0, 0.02);
	/* the same seed, the same numbers */
	uint64_t a = 99, b = 99;
	CHECK(fsb_fsv_gamma(&a, 1.5, 1) == fsb_fsv_gamma(&b, 1.5, 1));
}

static void test_fileset(void)
{
	enum { N = 100000 };
	static uint64_t size[N];
	char p[128];
	double sum = 0;
	unsigned pre = 0;

	fsb_fsv_sizes(1, N, 1310720, size);
	for (int i = 0; i < N; i++)
		sum += (double)size[i];
	CHECK(fabs(sum / N / 1310720 - 1) < 0.01);	/* the write-up's 1.25 MiB mean */
	uint64_t again[4];
	fsb_fsv_sizes(1, 4, 1310720, again);
	CHECK(memcmp(again, size, sizeof(again)) == 0);
	fsb_fsv_sizes(2, 4, 1310720, again);
	CHECK(memcmp(again, size, sizeof(again)) != 0);
	for (uint32_t i = 0; i < N; i++)
		pre += (unsigned)fsb_fsv_prealloc(1, i);
	CHECK(pre > 79000 && pre < 81000);
	/* appends: 1 to 2 mean - 1, mean 16 KiB */
	uint64_t s = 3, lo = UINT64_MAX, hi = 0;
	sum = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t a = fsb_fsv_append_size(&s, 16384);
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
		sum += (double)a;
	}
	CHECK(lo >= 1 && hi <= 32767 && fabs(sum / 100000 / 16384 - 1) < 0.01);
	CHECK(fsb_fsv_append_size(&s, 1) == 1);
	/* the tree: filebench's 10000 files 20 wide, the write-up's 100000 */
	CHECK_EQ_U(fsb_fsv_levels(200, 20), 1);
	CHECK_EQ_U(fsb_fsv_dirs(200, 20), 10);
	fsb_fsv_path(p, sizeof(p), 67, 200, 20);
	CHECK_STR(p, "d3/f67");
	CHECK_EQ_U(fsb_fsv_levels(10000, 20), 3);
	CHECK_EQ_U(fsb_fsv_dirs(10000, 20), 500 + 25 + 2);
	CHECK_EQ_U(fsb_fsv_levels(N, 20), 3);
	CHECK_EQ_U(fsb_fsv_dirs(N, 20), 5000 + 250 + 13);
	CHECK(fsb_fsv_path(p, sizeof(p), 99999, N, 20) == 17);
	CHECK_STR(p, "d12/d9/d19/f99999");
	CHECK(fsb_fsv_path(p, 4, 99999, N, 20) == 17);	/* cut, the length still said */
	CHECK_EQ_U(fsb_fsv_path_max(N, 20), 3 * 4 + 1 + 5 + 1);	/* "d19/d19/d19/f99999" */
	CHECK(fsb_fsv_path(p, sizeof(p), 79999, N, 20) <= 18 && fsb_fsv_path(p, sizeof(p), 7999, N, 20) < 18);
	size_t longest = 0;
	for (uint32_t i = 0; i < 2000; i++) {
		size_t l = (size_t)fsb_fsv_path(p, sizeof(p), i, 2000, 7);
		longest = l > longest ? l : longest;
	}
	CHECK_EQ_U(longest + 1, fsb_fsv_path_max(2000, 7));
}

static void test_settings(void)
{
	struct fsb_config c;
	char err[512];

	CHECK(cli_merge(&c, (const char *const[]){ NULL }, err, sizeof(err)) == 0);
	CHECK(c.fileserver == 0 && c.fileserver_aged == 0 && c.fileserver_files == 200 &&
	      c.fileserver_dirwidth == 20 && c.fileserver_size == 131072 && c.fileserver_workers == 4 &&
	      c.fileserver_iosize == 1048576 && c.fileserver_append == 16384 && c.fileserver_seconds == 3);
	CHECK(cli_merge(&c, CLI("profile", "fileserver"), err, sizeof(err)) == 0);
	CHECK(c.fileserver == 1 && c.fileserver_aged == 0 && c.smallfile == 0 &&
	      c.fileserver_files == 100000 && c.fileserver_size == 1310720 &&
	      c.fileserver_workers == 50 && c.fileserver_seconds == 60);
	CHECK(cli_merge(&c, CLI("profile", "fileserver-aged"), err, sizeof(err)) == 0);
	CHECK(c.fileserver == 1 && c.fileserver_aged == 1 && c.fileserver_files == 100000);
	CHECK(cli_merge(&c, CLI("fileserver_aged", "1"), err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "fileserver_aged=1 without fileserver=1");
	CHECK(cli_merge(&c, CLI("fileserver_aged", "1", "fileserver", "1", "dir", "/tmp"), err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "fileserver_aged=1 and dir=/tmp");
	CHECK(cli_refused(&c, "fileserver_iosize", "1k", err, sizeof(err)));
}

/* A second of the workload in this test's folder: 60 files of mean 8 KiB
 * in directories 8 wide, 3 workers, appends of mean 2 KiB. */
static void test_run(void)
{
	struct fsb_ctx c;
	char mnt[512], why[512] = "", *text;
	FILE *f = ctx_open(&c);

	if (!f || !getcwd(mnt, sizeof(mnt))) {
		CHECK(0);
		return;
	}
	c.run_id = 0xf5;
	c.cfg.fileserver = 1;
	c.cfg.fileserver_files = 60;
	c.cfg.fileserver_dirwidth = 8;
	c.cfg.fileserver_size = 8192;
	c.cfg.fileserver_workers = 3;
	c.cfg.fileserver_append = 2048;
	c.cfg.fileserver_iosize = 4096;
	c.cfg.fileserver_seconds = 1;
	c.cfg.progress = 0;
	c.cfg.lava = 1;
	struct fsb_fresh fr = { .fs = "dir", .mnt = mnt, .fresh = 1 };
	CHECK(fsb_fileserver_fs(&c, &fr, why, sizeof(why)) == 0);
	if (why[0])
		fprintf(stderr, "fileserver: %s\n", why);
	CHECK(c.failed == 0);
	long n = lseek(c.out_fd, 0, SEEK_END);
	text = calloc(1, (size_t)n + 1);
	CHECK(text && pread(c.out_fd, text, (size_t)n, 0) == n);
	fclose(f);
	if (!text)
		return;
	CHECK(schema_violations(text) == 0);
	CHECK_CONTAINS(text, "\"type\":\"fileserver\",");
	CHECK_CONTAINS(text, "\"state\":\"fresh\",\"files\":60,\"dirwidth\":8,\"dirs\":8,");
	CHECK_CONTAINS(text, "\"status\":\"ok\"");
	CHECK_CONTAINS(text, "\"errors\":0,\"verify_errors\":0,\"verified\":true");
	CHECK_CONTAINS(text, "FSBENCH-RESULT: test_case_id=fileserver-dir-fresh result=pass measurement=");
	CHECK_CONTAINS(text, "FSBENCH-RESULT: test_case_id=fileserver-dir-fresh-append-p99 result=pass measurement=");
	/* every operation ran, each timed; the fileset is gone */
	struct rep_set set;
	const struct rep_run *r = unit_run_text(&set, text, "mem");
	CHECK(r && r->nfsv == 1);
	if (r && r->nfsv == 1) {
		const struct rep_fileserver *v = &r->fsv[0];
		CHECK(v->seconds > 0.9 && v->seconds < 3);
		for (int i = 0; i < REP_FSV_NOPS; i++)
			CHECK(v->op[i].ops > 10 && v->op[i].p50 > 0 && v->op[i].p99 >= v->op[i].p50);
		CHECK(v->op[REP_FSV_CREATE].ops == v->op[REP_FSV_DELETE].ops ||
		      v->op[REP_FSV_CREATE].ops + 3 >= v->op[REP_FSV_DELETE].ops);
		CHECK(v->op[REP_FSV_READ].bytes > 0 && v->op[REP_FSV_APPEND].bytes > 0);
	}
	rep_free(&set);
	CHECK(access(FSB_FSV_DIR, F_OK) != 0);
	free(text);
}

/* A file server's record: fs in a state, its operations per second and
 * the random append's p99 (ns). */
#define REC(seq, fs, state, ops, p99) \
	"{\"schema\":1,\"type\":\"fileserver\",\"run_id\":\"00000000000000bb\",\"seq\":" #seq ",\"t\":1," \
	"\"fs\":\"" fs "\",\"state\":\"" state "\",\"files\":200,\"dirwidth\":20,\"dirs\":10,\"mean_size\":131072," \
	"\"shape\":1.5,\"iosize\":1048576,\"append_mean\":16384,\"workers\":4,\"runtime\":3,\"seed\":1," \
	"\"fileset_bytes\":26000000,\"prealloc_files\":160,\"prealloc_bytes\":21000000,\"prealloc_s\":0.1," \
	"\"seconds\":3,\"ops\":" #ops "0,\"ops_per_s\":" #ops ",\"bytes_read\":1,\"bytes_written\":1,\"mib_per_s\":50," \
	"\"create\":{\"ops\":1,\"ops_per_s\":1,\"bytes\":1,\"lat_ns\":{\"p50\":1,\"p90\":1,\"p99\":1,\"p999\":1,\"max\":1,\"mean\":1,\"ops\":1}}," \
	"\"append\":{\"ops\":9,\"ops_per_s\":3,\"bytes\":1,\"lat_ns\":{\"p50\":1000,\"p90\":1,\"p99\":" #p99 ",\"p999\":1,\"max\":1,\"mean\":1,\"ops\":9}}," \
	"\"read\":{\"ops\":1,\"ops_per_s\":1,\"bytes\":1,\"lat_ns\":{\"p50\":1,\"p90\":1,\"p99\":2000000,\"p999\":1,\"max\":1,\"mean\":1,\"ops\":1}}," \
	"\"delete\":{\"ops\":1,\"ops_per_s\":1,\"bytes\":0,\"lat_ns\":{\"p50\":1,\"p90\":1,\"p99\":1,\"p999\":1,\"max\":1,\"mean\":1,\"ops\":1}}," \
	"\"stat\":{\"ops\":1,\"ops_per_s\":1,\"bytes\":0,\"lat_ns\":{\"p50\":1,\"p90\":1,\"p99\":1,\"p999\":1,\"max\":1,\"mean\":1,\"ops\":1}}," \
	"\"skipped\":0,\"errors\":0,\"verify_errors\":0,\"verified\":true,\"status\":\"ok\"}\n"

/* report-fileserver.jsonl (fixtures.h): three filesystems, fresh and aged:
 * xfs leads fresh, btrfs leads aged; ext4's figures are the ratios' base;
 * a read phase of each before and after the aging. */
static void test_report(void)
{
	struct rep_set set = { 0 };
	struct rep_table t;
	char err[256], fresh[256], aged[256], out[4096];
	char *text = fixture_text(path_fileserver);
	FILE *f;

	CHECK(text && strchr(text, '\n') && schema_violations(strchr(text, '\n') + 1) == 0);
	free(text);
	CHECK(rep_load(&set, path_fileserver, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nfsv == 6);
	if (!r || r->nfsv != 6)
		return;
	CHECK(rep_table_fileserver(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 6);
	CHECK_STR(rep_table_cell(&t, 1, 0)->text, "xfs");
	CHECK_STR(rep_table_cell(&t, 1, 1)->text, "fresh");
	CHECK(fabs(rep_table_cell(&t, 1, 2)->num - 1500) < 1e-9);
	CHECK(fabs(rep_table_cell(&t, 1, 3)->num - 1.5) < 1e-9);	/* ops/s over ext4's */
	CHECK(fabs(rep_table_cell(&t, 1, 5)->num - 2) < 1e-9);		/* append p99, ms */
	CHECK(fabs(rep_table_cell(&t, 1, 6)->num - 0.5) < 1e-9);	/* over ext4's */
	CHECK(fabs(rep_table_cell(&t, 0, 3)->num - 1) < 1e-9);
	CHECK_STR(rep_table_cell(&t, 5, 0)->text, "btrfs");
	CHECK_STR(rep_table_cell(&t, 5, 1)->text, "aged");
	CHECK(fabs(rep_table_cell(&t, 5, 3)->num - 900.0 / 800) < 1e-9);
	rep_table_free(&t);

	CHECK(rep_fsv_ranking(r, REP_FSV_BY_OPS, fresh, aged, sizeof(fresh)) == REP_FSV_RANK_CHANGED);
	CHECK_STR(fresh, "xfs > ext4 > btrfs");
	CHECK_STR(aged, "btrfs > ext4 > xfs");
	CHECK(rep_fsv_ranking(r, REP_FSV_BY_APPEND, fresh, aged, sizeof(fresh)) == REP_FSV_RANK_CHANGED);
	CHECK_STR(fresh, "xfs > ext4 > btrfs");
	CHECK(rep_table_fileserver_ranking(r, &t) == 0);
	rep_table_view(&t, REP_VIEW_READ);
	CHECK_CONTAINS(rep_table_cell(&t, 0, 0)->text, "Ranking by operations per second: fresh xfs > ext4 > btrfs; aged btrfs > ext4 > xfs: the order changed");
	CHECK(t.nrows == 3 && rep_table_cell(&t, 2, 0) &&
	      !strcmp(rep_table_cell(&t, 2, 0)->text, "Small files, ranking by read seconds: fresh (round 1) "
		      "ext4 > xfs > btrfs; after the aging (round 2) xfs > btrfs > ext4: the order changed."));
	rep_table_free(&t);

	vd_lines("ext4,xfs,btrfs", r, "min_fileserver_ops_per_s", "700", out, sizeof(out));
	CHECK_CONTAINS(out, "PASS ext4 file server (fresh): operations per second: 1000 ops/s");
	CHECK_CONTAINS(out, "FAIL btrfs file server (fresh): operations per second: 500 ops/s");
	CHECK_CONTAINS(out, "FAIL xfs file server (aged)");
	vd_lines("ext4,xfs,btrfs", r, "max_fileserver_append_p99_ms", "5", out, sizeof(out));
	CHECK_CONTAINS(out, "PASS ext4 file server (aged): random append p99: 5.000 ms (of 9 appends)");
	CHECK_CONTAINS(out, "FAIL btrfs file server (fresh): random append p99: 8.000 ms");
	CHECK_CONTAINS(out, "FAIL xfs file server (aged)");
	vd_lines("ext4,xfs,btrfs", r, "max_fileserver_append_p99_ms", "0", out, sizeof(out));
	CHECK_CONTAINS(out, "bad: ");
	chart_check(r, "fileserver");
	rep_free(&set);

	/* the same order in both states: unchanged */
	static const char same[] =
		"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"00000000000000cc\",\"seq\":0,\"t\":0}\n"
		REC(1, "ext4", "fresh", 1000, 4000000) REC(2, "xfs", "fresh", 900, 2000000)
		REC(3, "ext4", "aged", 700, 4000000) REC(4, "xfs", "aged", 600, 2000000);
	struct rep_set s2 = { 0 };
	f = fmemopen((void *)same, sizeof(same) - 1, "r");
	CHECK(rep_load_stream(&s2, f, "mem", err, sizeof(err)) == 0);
	fclose(f);
	r = rep_find(&s2, NULL);
	CHECK(r && rep_fsv_ranking(r, REP_FSV_BY_OPS, fresh, aged, sizeof(fresh)) == REP_FSV_RANK_SAME);
	rep_free(&s2);
}
#undef REC

static void test_lava(void)
{
	struct fsb_ctx c;
	FILE *f = ctx_open(&c);

	if (!f)
		return;
	c.cfg.lava = 1;
	fsb_lava_fileserver(&c, "f2fs:s4", "aged", 0, 812.5, 3.25);
	CHECK_STR(ctx_text(&c), "FSBENCH-RESULT: test_case_id=fileserver-f2fs-s4-aged result=fail measurement=812.5 units=ops/s\n"
		  "FSBENCH-RESULT: test_case_id=fileserver-f2fs-s4-aged-append-p99 result=fail measurement=3.25 units=ms\n");
	fclose(f);
}

FIXTURES_MAIN(test_gamma, test_fileset, test_settings, test_run, test_report, test_lava)

/* test_fio.c: the fio workloads (run/stores/fio.h) and the fill test (run/stores/fill.h):
 * fio 3.33's JSON folded (recorded outputs in data/), truncated and invalid
 * output refused with the reason and no crash, the argv fio gets, a fio
 * that is missing or exits nonzero giving an error record that names it,
 * the settings, the fill's sizes and level, and the report's tables. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/sections/workloads.h"
#include "report/model.h"
#include "run/settings.h"
#include "run/core/context.h"
#include "run/stores/fill.h"
#include "run/stores/fio.h"
#include "records.h"
#include "layers.h"
#include "unit.h"

static char *slurp(const char *name, size_t *len)
{
	const char *dir = getenv("FSB_TESTDATA");
	char path[1024];
	FILE *f;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/unit/data", name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fabs(b) + 1e-9;
}

static void test_parse(void)
{
	struct fsb_fio_result r;
	char why[256] = "";
	size_t len;
	char *t = slurp("fio-3.33-oltp.json", &len);

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(fsb_fio_parse(t, len, &r, why, sizeof(why)) == 0);
	CHECK_STR(r.version, "fio-3.33");
	CHECK(r.error == 0);
	CHECK(near(r.rd.iops, 110000.996016));
	CHECK(near(r.wr.iops, 47547.808765));
	CHECK_EQ_U(r.rd.bw_bytes, 450564079);
	CHECK_EQ_U(r.wr.bw_bytes, 194755824);
	CHECK_EQ_U(r.rd.io_bytes, 452366336);
	CHECK_EQ_U(r.rd.total_ios, 110441);
	CHECK(near(r.rd.runtime_s, 1.004));
	CHECK(near(r.runtime_s, 1.004));	/* not job_runtime: 16 jobs' sum */
	CHECK(r.rd.have_pct && r.wr.have_pct);
	CHECK_EQ_U(r.rd.clat_pct[0], 2146304);
	CHECK_EQ_U(r.rd.clat_pct[1], 5996544);
	CHECK_EQ_U(r.rd.clat_pct[2], 12648448);
	CHECK_EQ_U(r.rd.clat_pct[3], 18481152);
	CHECK_EQ_U(r.wr.clat_pct[2], 13303808);
	CHECK(near(r.wr.clat_mean, 3529905.101303));
	CHECK_EQ_U(r.wr.lat_max, 34983261);

	/* a warning line before the JSON is skipped */
	char *warn = malloc(len + 64);
	int n = snprintf(warn, len + 64, "note: both iodepth >= 1 and synchronous I/O engine\n%s", t);
	CHECK(fsb_fio_parse(warn, (size_t)n, &r, why, sizeof(why)) == 0);
	CHECK(near(r.rd.iops, 110000.996016));
	free(warn);

	/* every truncation is refused with the reason, and nothing crashes */
	size_t bad = 0, said = 0;
	for (size_t cut = 0; cut < len - 2; cut++) {	/* the end is "}\n" */
		why[0] = 0;
		if (fsb_fio_parse(t, cut, &r, why, sizeof(why)) < 0)
			bad++;
		if (strstr(why, "not JSON") || strstr(why, "no JSON object"))
			said++;
	}
	CHECK_EQ_U(bad, len - 2);
	CHECK_EQ_U(said, len - 2);
	CHECK(fsb_fio_parse(t, len / 2, &r, why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "fio output: not JSON: ");
	CHECK_CONTAINS(why, "at column");
	free(t);

	t = slurp("fio-3.33-web.json", &len);
	CHECK(t && fsb_fio_parse(t, len, &r, why, sizeof(why)) == 0);
	CHECK(near(r.rd.iops, 1474.543708));
	CHECK(r.wr.iops == 0 && r.wr.bw_bytes == 0 && !r.wr.have_pct);
	CHECK_EQ_U(r.rd.clat_pct[2], 117964800);
	free(t);

	static const struct { const char *text, *why; } invalid[] = {
		{ "", "no JSON object in fio's output (0 bytes)" },
		{ "fio: engine libaio not loadable\n", "no JSON object" },
		{ "{\"fio version\" : \"fio-3.33\"", "fio output: not JSON: " },
		{ "{}", "fio output: no \"jobs\" array" },
		{ "{\"jobs\": []}", "fio output: no \"jobs\" array" },
		{ "{\"jobs\": {}}", "fio output: no \"jobs\" array" },
		{ "{\"jobs\": [{\"read\": 1, \"write\": {}}]}", "job 0 has no \"read\" and \"write\" objects" },
		{ "[1, 2]", "no JSON object" },
		{ "{\"jobs\": [{\"read\": {}, \"write\": {}}]} trailing", "not JSON" },
	};
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		why[0] = 0;
		CHECK(fsb_fio_parse(invalid[i].text, strlen(invalid[i].text), &r, why, sizeof(why)) < 0);
		CHECK_CONTAINS(why, invalid[i].why);
	}
	/* wrong types inside a job read as absent, not as a crash */
	const char *odd = "{\"jobs\": [{\"read\": {\"iops\": \"x\", \"clat_ns\": {\"percentile\": 3}}, \"write\": {}}]}";
	CHECK(fsb_fio_parse(odd, strlen(odd), &r, why, sizeof(why)) == 0);
	CHECK(r.rd.iops == 0 && !r.rd.have_pct && r.version[0] == 0);
}

/* A stand-in for fio: a script; its argv goes to args.txt. */
static void script(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	fprintf(f, "#!/bin/sh\nprintf '%%s\\n' \"$@\" > args.txt\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

/* The records written to a ctx's out_fd, as one string. */
static char *records(FILE *f)
{
	static char buf[65536];

	fflush(f);
	size_t n = (size_t)pread(fileno(f), buf, sizeof(buf) - 1, 0);
	buf[n] = 0;
	return buf;
}

static void test_exec(void)
{
	static struct fsb_ctx c;
	char why[512], cwd[512], fake[600], data[1024];
	struct fsb_fio_result r;
	double secs;
	struct fsb_fio_job job = {
		.w = fsb_fio_workload("oltp"), .fs = "ext4", .filename = "/mnt/a:b/fsbench-fio.oltp",
		.size = 64 << 20, .runtime = 3, .timeout = 60,
	};

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	snprintf(fake, sizeof(fake), "%s/fio", cwd);
	const char *dir = getenv("FSB_TESTDATA");
	snprintf(data, sizeof(data), "%s/fio-3.33-oltp.json", dir ? dir : "tests/unit/data");

	/* fio's JSON through --output */
	char body[1400];
	snprintf(body, sizeof(body), "for a; do case $a in --output=*) cp '%s' \"${a#--output=}\";; esac; done\n"
		 "echo 'fio: some warning on stderr'", data);
	script(fake, body);
	CHECK(fsb_fio_exec(fake, &job, &r, &secs, why, sizeof(why)) == 0);
	CHECK(near(r.wr.iops, 47547.808765));
	FILE *af = fopen("args.txt", "r");
	char argbuf[4096] = "";
	if (af) {
		argbuf[fread(argbuf, 1, sizeof(argbuf) - 1, af)] = 0;
		fclose(af);
	}
	static const char *const want[] = {
		"--name=oltp\n", "--filename=/mnt/a\\:b/fsbench-fio.oltp\n", "--rw=randrw\n",
		"--rwmixread=70\n", "--bs=4k\n", "--iodepth=32\n", "--numjobs=16\n",
		"--size=67108864\n", "--runtime=3\n", "--ioengine=libaio\n", "--direct=1\n",
		"--group_reporting\n", "--time_based\n", "--output-format=json\n",
		"--percentile_list=50:90:99:99.9\n",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_CONTAINS(argbuf, want[i]);
	/* the output file is gone */
	const char *o = strstr(argbuf, "--output=");
	if (o) {
		char opath[600];
		sscanf(o + 9, "%599[^\n]", opath);
		CHECK(access(opath, F_OK) != 0);
	}

	/* exits nonzero: its last line on stderr is the reason */
	script(fake, "echo 'fio: pid=0, err=22/file:filesetup.c' >&2\necho 'fio: bad option --bs=4q' >&2\nexit 1");
	CHECK(fsb_fio_exec(fake, &job, &r, &secs, why, sizeof(why)) < 0);
	CHECK_STR(why, "fio exited with status 1: fio: bad option --bs=4q");
	/* writes something that is not JSON */
	script(fake, "for a; do case $a in --output=*) echo '{\"jobs\": [' > \"${a#--output=}\";; esac; done");
	CHECK(fsb_fio_exec(fake, &job, &r, &secs, why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "fio output: not JSON");
	/* the job's own error */
	script(fake, "for a; do case $a in --output=*) echo '{\"jobs\": [{\"error\": 5, \"read\": {}, \"write\": {}}]}' > \"${a#--output=}\";; esac; done");
	CHECK(fsb_fio_exec(fake, &job, &r, &secs, why, sizeof(why)) < 0);
	char eio[128];	/* the C library's words for EIO (glibc's and musl's differ) */
	snprintf(eio, sizeof(eio), "fio: the job ended with error 5 (%s)", strerror(EIO));
	CHECK_STR(why, eio);
	/* not there */
	CHECK(fsb_fio_exec("/nonexistent/fio", &job, &r, &secs, why, sizeof(why)) < 0);
	CHECK_STR(why, "fio /nonexistent/fio: No such file or directory");

	/* the records: an error record naming fio, then the failed fio record */
	FILE *out = tmpfile();
	memset(&c, 0, sizeof(c));
	fsb_config_defaults(&c.cfg);
	c.cfg.progress = 0;
	c.out_fd = fileno(out);
	CHECK(fsb_fio_one(&c, "/nonexistent/fio", &job, why, sizeof(why)) < 0);
	script(fake, "echo 'fio: file system full' >&2; exit 1");
	CHECK(fsb_fio_one(&c, fake, &job, why, sizeof(why)) < 0);
	snprintf(body, sizeof(body), "for a; do case $a in --output=*) cp '%s' \"${a#--output=}\";; esac; done", data);
	script(fake, body);
	CHECK(fsb_fio_one(&c, fake, &job, why, sizeof(why)) == 0);
	const char *rec = records(out);
	CHECK_CONTAINS(rec, "\"type\":\"error\"");
	CHECK_CONTAINS(rec, "\"fs\":\"ext4\",\"phase\":\"fio_oltp\",\"op\":\"fio\",\"file\":\"/mnt/a:b/fsbench-fio.oltp\","
		       "\"errno\":0,\"msg\":\"fio /nonexistent/fio: No such file or directory\",\"fatal\":true");
	CHECK_CONTAINS(rec, "\"msg\":\"fio exited with status 1: fio: file system full\"");
	CHECK_CONTAINS(rec, "\"type\":\"fio\"");
	CHECK_CONTAINS(rec, "\"status\":\"failed\",\"msg\":\"fio exited with status 1: fio: file system full\",\"errors\":1");
	CHECK_CONTAINS(rec, "\"workload\":\"oltp\"");
	CHECK_CONTAINS(rec, "\"status\":\"ok\",\"fio_version\":\"fio-3.33\"");
	CHECK_CONTAINS(rec, "\"clat_ns\":{\"p50\":2146304,\"p90\":5996544,\"p99\":12648448,\"p999\":18481152");

	/* the records go back through the report: its fio table */
	struct rep_set set;
	char err[256];
	CHECK(unit_load_records(&set, rec, "fio.jsonl", err, sizeof(err)) == 0);
	const struct rep_run *run = rep_find(&set, NULL);
	CHECK(run && run->nfio == 3);
	if (run && run->nfio == 3) {
		CHECK_STR(run->fio[0].status, "failed");
		CHECK(run->fio[0].iops[0] < 0);
		CHECK(near(run->fio[2].iops[0], 110000.996016));
		CHECK(near(run->fio[2].p99_ns[1], 13303808));
	}
	rep_free(&set);
	fclose(out);
	unlink(fake);
	unlink("args.txt");
}

static void test_settings(void)
{
	char why[256];
	struct fsb_config c;
	char err[512];

	CHECK(fsb_fio_list_check("", why, sizeof(why)) == 0);
	CHECK(fsb_fio_list_check("oltp,web,vm,randwrite", why, sizeof(why)) == 0);
	CHECK(fsb_fio_list_check("oltp,tpcc", why, sizeof(why)) < 0);
	CHECK_STR(why, "unknown workload 'tpcc'; allowed: a comma-separated list of oltp, web, vm, randwrite");
	CHECK(fsb_fio_list_check("web,,vm", why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "item 2 is empty");
	CHECK(fsb_fio_list_check("vm,vm", why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "workload 'vm' is listed twice");

	CHECK(cli_merge(&c, CLI("fio", "oltp,bogus"), err, sizeof(err)) < 0);
	CHECK_STR(err, "command line --fio: fio=oltp,bogus: unknown workload 'bogus'; allowed: a comma-separated list of oltp, web, vm, randwrite");
	CHECK(cli_merge(&c, CLI("fill", "1", "dir", "/tmp"), err, sizeof(err)) < 0);
	CHECK_STR(err, "command line --fill: fill=1 and dir=/tmp: fill needs a target (it fills a whole filesystem)");

	/* the profiles */
	CHECK(cli_merge(&c, CLI("profile", "fio"), err, sizeof(err)) == 0);
	CHECK(!c.smallfile && c.fio_raw && !c.fill);
	CHECK_STR(c.fio, "oltp,web,vm,randwrite");
	CHECK(c.fio_runtime == 5 && c.fio_size == 256ull << 20);
	CHECK(cli_merge(&c, CLI("profile", "fill"), err, sizeof(err)) == 0);
	CHECK(!c.smallfile && c.fill && c.fill_pct == 95 && c.fill_delete_pct == 30 && !c.fio[0]);
	/* the defaults change nothing of a run */
	CHECK(fsb_config_merge(&c, layers, 0, err, sizeof(err)) == 0);
	CHECK(c.smallfile && !c.fio[0] && !c.fill && !c.fio_raw);
}

static void test_fill(void)
{
	uint64_t s = FSB_FILL_SEED, s2 = FSB_FILL_SEED, sum = 0, lo = UINT64_MAX, hi = 0;
	int same = 1;

	for (int i = 0; i < 100000; i++) {
		uint64_t v = fsb_fill_size(&s);
		same &= v == fsb_fill_size(&s2);
		sum += v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		if (v % 4096)
			same = 0;
	}
	CHECK(same);			/* seeded: the same sizes every time, whole blocks */
	CHECK_EQ_U(lo, 4096);
	CHECK_EQ_U(hi, 1 << 20);
	CHECK(sum / 100000 > 170 * 1024 && sum / 100000 < 210 * 1024);	/* mean about 190 KiB */
	/* df's level: used / (used + available), the reserve left out */
	CHECK(near(fsb_fill_level(1000, 100, 50), 900.0 / 950.0));
	CHECK(near(fsb_fill_level(1000, 1000, 950), 0));
	CHECK(near(fsb_fill_level(1000, 50, 0), 1));
}

static void test_tables(void)
{
	static const char text[] =
		"{\"type\":\"run_start\",\"run_id\":\"r1\",\"seq\":0}\n"
		"{\"type\":\"fio\",\"run_id\":\"r1\",\"fs\":\"ext4\",\"workload\":\"randwrite\",\"status\":\"ok\","
		"\"read\":{\"iops\":0,\"mib_per_s\":0,\"clat_ns\":{\"mean\":0}},"
		"\"write\":{\"iops\":100744.1,\"mib_per_s\":393.5,\"clat_ns\":{\"p99\":626688}},\"errors\":0}\n"
		"{\"type\":\"fio\",\"run_id\":\"r1\",\"fs\":\"ext4\",\"workload\":\"web\",\"status\":\"ok\","
		"\"read\":{\"iops\":1350,\"mib_per_s\":1349.8,\"clat_ns\":{\"p99\":95944704}},"
		"\"write\":{\"iops\":0,\"mib_per_s\":0,\"clat_ns\":{}},\"errors\":0}\n"
		"{\"type\":\"fio\",\"run_id\":\"r1\",\"fs\":\"raw\",\"workload\":\"randwrite\",\"status\":\"failed\","
		"\"msg\":\"fio exited with status 1: boom\",\"errors\":1}\n"
		"{\"type\":\"fill\",\"run_id\":\"r1\",\"fs\":\"ext4\",\"level\":0.95,\"fill\":{\"files\":9166},"
		"\"rewrite\":{\"files\":2848},\"before\":{\"iops\":100000,\"clat_ns\":{\"p99\":1613824}},"
		"\"after\":{\"iops\":70000,\"clat_ns\":{\"p99\":4292608}},\"status\":\"ok\"}\n";
	struct rep_set set;
	struct rep_table t;
	char err[256];

	CHECK(unit_load_records(&set, text, "t.jsonl", err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nfio == 3 && r->nfill == 1);
	if (!r || r->nfio != 3 || r->nfill != 1)
		return;
	CHECK(rep_table_fio(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 3);
	/* grouped by workload: randwrite ext4, randwrite raw, web ext4 */
	CHECK_STR(rep_table_cell(&t, 0, 1)->text, "ext4");
	CHECK_STR(rep_table_cell(&t, 1, 1)->text, "raw");
	CHECK_STR(rep_table_cell(&t, 2, 0)->text, "web");
	CHECK(near(rep_table_cell(&t, 0, 3)->num, 100744.1));
	CHECK(near(rep_table_cell(&t, 0, 6)->num, 626.688));
	CHECK(rep_table_cell(&t, 0, 5)->kind == CELL_MISSING);	/* no reads: no read p99 */
	CHECK(rep_table_cell(&t, 1, 2)->kind == CELL_MISSING);
	CHECK_STR(rep_table_cell(&t, 1, 7)->text, "failed: fio exited with status 1: boom");
	CHECK(near(rep_table_cell(&t, 2, 4)->num, 1349.8));
	rep_table_free(&t);
	CHECK(rep_table_fill(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 1);
	CHECK(near(rep_table_cell(&t, 0, 1)->num, 0.95));
	CHECK_EQ_U(rep_table_cell(&t, 0, 2)->count, 9166 + 2848);
	CHECK(near(rep_table_cell(&t, 0, 5)->num, 0.7));
	CHECK(near(rep_table_cell(&t, 0, 7)->num, 4292.608));
	rep_table_free(&t);
	rep_free(&set);

	/* a bad number is a clear error naming the record */
	static const char bad[] = "{\"type\":\"fio\",\"run_id\":\"r1\",\"fs\":\"xfs\",\"workload\":\"vm\","
		"\"read\":{\"iops\":\"many\"}}\n";
	CHECK(unit_load_records(&set, bad, "bad.jsonl", err, sizeof(err)) < 0);
	CHECK_STR(err, "bad.jsonl:1: fio record: \"read.iops\" must be a number >= 0");
	rep_free(&set);
	static const char nows[] = "{\"type\":\"fio\",\"run_id\":\"r1\",\"fs\":\"xfs\"}\n";
	CHECK(unit_load_records(&set, nows, "bad.jsonl", err, sizeof(err)) < 0);
	CHECK_STR(err, "bad.jsonl:1: fio record without a \"workload\" string");
	rep_free(&set);
}

UNIT_MAIN(test_parse, test_exec, test_settings, test_fill, test_tables)

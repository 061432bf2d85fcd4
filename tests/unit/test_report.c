/* test_report.c: loading result records and the report/compare tables,
 * against the fixtures in $FSB_TESTDATA (tests/unit/data/report-*.jsonl).
 *
 * report-run.jsonl: one run, ext4 and xfs x 3 rounds, f2fs skipped, one
 * error and one verify_error, console noise and "FSB: " prefixes, a CRLF
 * line. Per-round seconds are chosen so that medians differ from means and
 * from round 1 (ext4 create 8, 9, 20: median 9.00, mean 12.3).
 *
 * report-layout.jsonl: ext4 and xfs x 3 rounds with a `layout` record after
 * each round's reads. ext4 is runner/SUITE.md's aging case: round 1 (fresh) reads
 * sequentially in both orders, rounds 2 and 3 (aged) only in inode order
 * (round 2: name near 2%, inode near 98%, read 37.1 s, read_inode 4.4 s);
 * xfs stays sequential in both orders (no finding).
 * report-layout-bad.jsonl: line 4 is a layout record with a percentage
 * (98) where a fraction belongs.
 * report-refused.jsonl: a refused run (no disk with the serial asked for):
 * the refusal lists three disks and one element that is not an object.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsbench.h"
#include "report/output.h"
#include "cmd.h"
#include "records.h"
#include "unit.h"

static char path_run[1100], path_two[1100], path_bad[1100], path_nophase[1100];
static char path_layout[1100], path_layout_bad[1100], path_refused[1100];

static int readable(const char *dir)
{
	char p[1100];
	snprintf(p, sizeof(p), "%s/report-run.jsonl", dir);
	return access(p, R_OK) == 0;
}

/* $FSB_TESTDATA, else tests/unit/data here or in a parent folder (the
 * tests run in a scratch folder under the build output). */
static void paths(void)
{
	static char found[512];
	const char *d = getenv("FSB_TESTDATA");

	if (!d || !readable(d)) {
		const char *env = d;
		d = NULL;
		strcpy(found, "tests/unit/data");
		for (int up = 0; up < 8 && !d; up++) {
			if (readable(found))
				d = found;
			else if (strlen(found) + 4 < sizeof(found))
				memmove(found + 3, found, strlen(found) + 1), memcpy(found, "../", 3);
		}
		if (!d)
			d = env ? env : "tests/unit/data";	/* the loads below fail visibly */
		else if (env)
			fprintf(stderr, "test_report: FSB_TESTDATA=%s has no fixtures, using %s\n",
				env, d);
	}
	snprintf(path_run, sizeof(path_run), "%s/report-run.jsonl", d);
	snprintf(path_two, sizeof(path_two), "%s/report-two-runs.jsonl", d);
	snprintf(path_bad, sizeof(path_bad), "%s/report-bad.jsonl", d);
	snprintf(path_nophase, sizeof(path_nophase), "%s/report-nophase.jsonl", d);
	snprintf(path_layout, sizeof(path_layout), "%s/report-layout.jsonl", d);
	snprintf(path_layout_bad, sizeof(path_layout_bad), "%s/report-layout-bad.jsonl", d);
	snprintf(path_refused, sizeof(path_refused), "%s/report-refused.jsonl", d);
}

static const struct rep_writer *MD, *CSV;

/* A built table (rc 0) kept to the view of writer w. */
static int view(int rc, struct rep_table *t, const struct rep_writer *w)
{
	if (!rc)
		rep_table_view(t, w->view);
	return rc;
}

/* The text writer w shows for a cell (the last few stay valid), or NULL
 * outside the table. */
static const char *cell(const struct rep_table *t, const struct rep_writer *w,
			size_t row, size_t col)
{
	static char buf[8][REP_CELL_BUF];
	static unsigned next;
	const struct rep_cell *c = rep_table_cell(t, row, col);
	if (!c)
		return NULL;
	return rep_cell_text(w, c, buf[next++ % 8], sizeof(buf[0]));
}

static const char *head(const struct rep_table *t, size_t col)
{
	return col < t->ncols ? t->col[col].head : NULL;
}

/* Load records from a string; returns rc, err gets the message. */
static int load_text(struct rep_set *set, const char *text, char *err, size_t errlen)
{
	return unit_load_records(set, text, "mem.jsonl", err, errlen);
}

/* Render a whole report into a string (caller frees). */
static char *render(const struct rep_run *r, const struct rep_writer *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	CHECK(rep_print(m, r, w) == 0);
	fclose(m);
	return buf;
}

static void test_load(void)
{
	struct rep_set set;
	char err[512];

	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	CHECK_EQ_U(set.nruns, 1);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_STR(r->run_id, "1a2b3c4d5e6f7a8b");
	CHECK(r->have_start && r->have_end);
	CHECK_STR(r->hostname, "bench1");
	CHECK_STR(r->mem_bytes, "68719476736");
	CHECK_STR(r->status, "failed");
	CHECK_EQ_U(r->exit_code, 1);
	CHECK_EQ_U(r->nph, 30);
	CHECK_EQ_U(r->nfs, 3);
	CHECK_STR(r->nfs > 2 ? r->fs[0].name : NULL, "ext4");
	CHECK_STR(r->nfs > 2 ? r->fs[1].name : NULL, "xfs");
	CHECK_STR(r->nfs > 2 ? r->fs[2].name : NULL, "f2fs");
	CHECK_STR(r->nfs > 2 ? r->fs[2].status : NULL, "skipped");
	CHECK_STR(r->nfs > 2 ? r->fs[2].reason : NULL, "mkfs.f2fs not found");
	CHECK_EQ_U(r->nfs > 2 ? r->fs[2].nphases : 99, 0);
	CHECK_EQ_U(r->nev, 2);
	CHECK_EQ_U(r->nev_total, 2);
	/* the phase on a CRLF line and the unprefixed ones are all there */
	const struct rep_phase *p = r->nph == 30 ? &r->ph[6] : NULL;	/* ext4 r2 stat, unprefixed */
	CHECK(p && strcmp(p->phase, "stat") == 0 && p->round == 2 && p->seconds == 0.45);
	CHECK(p && p->cold == 1 && p->workers == 16 && p->have_lat);
	CHECK(p && p->lat_ns[LAT_P50] == 1700 && p->lat_ns[LAT_MEAN] == 5000);
	CHECK(p && p->sync_seconds < 0);
	p = r->nph == 30 ? &r->ph[20] : NULL;	/* xfs r2 create */
	CHECK(p && strcmp(p->fs, "xfs") == 0 && p->errors == 1 && p->sync_seconds == 1.0);
	CHECK(p && p->files == 320000 && p->bytes == 320000ull * 4096);
	rep_free(&set);
	CHECK(set.runs == NULL && set.nruns == 0);
}

static void test_median(void)
{
	double a[] = { 3, 1, 2 };
	double b[] = { 4, 1, 3, 2 };
	double c[] = { 7 };
	double d[] = { 20, 8, 9 };
	CHECK(rep_median(a, 3) == 2);
	CHECK(rep_median(b, 4) == 2.5);
	CHECK(rep_median(c, 1) == 7);
	CHECK(rep_median(d, 3) == 9);	/* not the mean, 12.33 */
}

static void test_summary(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];
	double v = 0;

	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	if (!r) {
		CHECK(r != NULL);
		return;
	}
	CHECK(rep_summary(r, "ext4", ROW_CREATE, 0, &v) == 1 && v == 9.0);
	CHECK(rep_summary(r, "ext4", ROW_READ_FRESH, 0, &v) == 1 && v == 5.2);
	CHECK(rep_summary(r, "ext4", ROW_READ_AGED, 0, &v) == 1 && v == 35.0);
	CHECK(rep_summary(r, "xfs", ROW_DELETE, 0, &v) == 1 && v == 28.5);
	CHECK(rep_summary(r, "f2fs", ROW_CREATE, 0, &v) == 0);
	CHECK(rep_summary(r, "ext4", ROW_CREATE, 1, &v) == 1 && v > 35555.5 && v < 35555.6);
	CHECK_STR(rep_row_name(ROW_READ_AGED), "read cold (aged fs)");

	static const char *const md[ROW_N][3] = {
		{ "create (incl. sync)", "9.00", "52.3" },
		{ "stat walk (cold)", "0.450", "1.05" },
		{ "read cold (fresh fs)", "5.20", "11.0" },
		{ "read cold (aged fs)", "35.0", "11.4" },
		{ "read inode order (fresh fs)", "4.00", "10.0" },
		{ "read inode order (aged fs)", "4.60", "10.7" },
		{ "delete (incl. sync)", "32.8", "28.5" },
	};
	CHECK(view(rep_table_summary(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.ncols, 3);	/* f2fs was skipped: no column */
	CHECK_EQ_U(t.nrows, ROW_N);
	CHECK_STR(head(&t, 0), "phase");
	CHECK_STR(head(&t, 1), "ext4");
	CHECK_STR(head(&t, 2), "xfs");
	for (size_t i = 0; i < ROW_N && t.nrows == ROW_N; i++)
		for (size_t c = 0; c < 3; c++)
			CHECK_STR(cell(&t, MD, i, c), md[i][c]);
	rep_table_free(&t);

	CHECK(view(rep_table_summary(r, &t), &t, CSV) == 0);
	CHECK_STR(cell(&t, CSV, ROW_CREATE, 1), "9.000000");
	CHECK_STR(cell(&t, CSV, ROW_CREATE, 2), "52.300000");
	CHECK_STR(cell(&t, CSV, ROW_READ_AGED, 1), "35.000000");
	CHECK_STR(cell(&t, CSV, ROW_INODE_AGED, 2), "10.700000");
	CHECK_STR(cell(&t, CSV, ROW_STAT, 1), "0.450000");
	rep_table_free(&t);

	CHECK(view(rep_table_rate(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 2);
	CHECK_STR(cell(&t, MD, 0, 0), "create files/s");
	CHECK_STR(cell(&t, MD, 0, 1), "35556");
	CHECK_STR(cell(&t, MD, 0, 2), "6119");
	CHECK_STR(cell(&t, MD, 1, 0), "delete files/s");
	CHECK_STR(cell(&t, MD, 1, 1), "9756");
	CHECK_STR(cell(&t, MD, 1, 2), "11228");
	rep_table_free(&t);

	CHECK(view(rep_table_fs_status(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 1);	/* only what needs a note */
	CHECK_STR(cell(&t, MD, 0, 0), "f2fs");
	CHECK_STR(cell(&t, MD, 0, 1), "skipped");
	CHECK_STR(cell(&t, MD, 0, 2), "mkfs.f2fs not found");
	rep_table_free(&t);
	CHECK(view(rep_table_fs_status(r, &t), &t, CSV) == 0);
	CHECK_EQ_U(t.nrows, 3);
	CHECK_STR(cell(&t, CSV, 1, 1), "ok");
	rep_table_free(&t);

	CHECK(view(rep_table_run(r, &t), &t, MD) == 0);
	CHECK_STR(cell(&t, MD, 0, 1), "1a2b3c4d5e6f7a8b");
	CHECK_STR(cell(&t, MD, 1, 1), "bench1 (x86_64), 16 CPUs, 64.0 GiB");
	CHECK_STR(cell(&t, MD, 3, 1), "6.17.0-test (#1 SMP)");
	CHECK_STR(cell(&t, MD, 4, 1), "/dev/nvme1n1, Test NVMe (serial S123), 10.0 GiB");
	CHECK_STR(cell(&t, MD, 5, 1), "profile seed; fs ext4,xfs,f2fs; 16 dirs x 20000 files"
		  " x 4096 bytes; 16 workers; 3 rounds");
	CHECK_STR(cell(&t, MD, 6, 1), "failed (exit 1, 1234.5 s)");
	rep_table_free(&t);
	rep_free(&set);
}

static void test_rounds_latency_errors(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];

	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	if (!r) {
		CHECK(r != NULL);
		return;
	}
	CHECK(view(rep_table_rounds(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 30);
	CHECK_EQ_U(t.ncols, 11);
	static const char *const r12[] = { "ext4", "3", "read", "name", "yes", "40.0", "-",
		"320000", "8000", "0", "1" };
	static const char *const r20[] = { "xfs", "2", "create", "name", "no", "50.0", "1.00",
		"320000", "6400", "1", "0" };
	for (size_t c = 0; c < 11 && t.nrows == 30; c++) {
		CHECK_STR(cell(&t, MD, 12, c), r12[c]);
		CHECK_STR(cell(&t, MD, 20, c), r20[c]);
	}
	CHECK_STR(cell(&t, MD, 1, 3), "readdir");
	CHECK_STR(cell(&t, MD, 1, 5), "0.400");
	rep_table_free(&t);
	CHECK(view(rep_table_rounds(r, &t), &t, CSV) == 0);
	CHECK_STR(head(&t, 8), "files_per_s");
	CHECK_STR(cell(&t, CSV, 12, 5), "40.000000");
	CHECK_STR(cell(&t, CSV, 12, 6), "");
	CHECK_STR(cell(&t, CSV, 12, 8), "8000.0");
	rep_table_free(&t);

	CHECK(view(rep_table_latency(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 30);
	CHECK_STR(head(&t, 6), "p99.9");
	static const char *const l27[] = { "xfs", "3", "read", "1.80", "12.3", "459.8",
		"2346", "13000" };
	for (size_t c = 0; c < 8; c++)
		CHECK_STR(cell(&t, MD, 27, c), l27[c]);
	rep_table_free(&t);
	CHECK(view(rep_table_latency(r, &t), &t, CSV) == 0);
	static const char *const c27[] = { "xfs", "3", "read", "1.800", "12.345", "459.789",
		"2345.678", "13000.000" };
	for (size_t c = 0; c < 8; c++)
		CHECK_STR(cell(&t, CSV, 27, c), c27[c]);
	rep_table_free(&t);

	CHECK(view(rep_table_errors(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 2);
	static const char *const e0[] = { "verify_error", "ext4", "3", "read", "verify",
		"d01/f000007", "3996 bytes wrong, the first at offset 100" };
	static const char *const e1[] = { "error", "xfs", "2", "create", "open",
		"d03/f000123", "No space left on device (errno 28)" };
	for (size_t c = 0; c < 7; c++) {
		CHECK_STR(cell(&t, MD, 0, c), e0[c]);
		CHECK_STR(cell(&t, MD, 1, c), e1[c]);
	}
	rep_table_free(&t);
	rep_free(&set);
}

static void test_render_md(void)
{
	struct rep_set set;
	char err[512];

	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	char *s = set.nruns ? render(rep_find(&set, NULL), MD) : NULL;
	CHECK_CONTAINS(s, "# fsbench report\n\n- run: 1a2b3c4d5e6f7a8b\n");
	CHECK_CONTAINS(s, "- status: failed (exit 1, 1234.5 s)\n");
	CHECK_CONTAINS(s, "## Summary (seconds, median of rounds, lower is better)\n\n"
		       "| phase                       |  ext4 |  xfs |\n"
		       "|-----------------------------|------:|-----:|\n"
		       "| create (incl. sync)         |  9.00 | 52.3 |\n"
		       "| stat walk (cold)            | 0.450 | 1.05 |\n"
		       "| read cold (fresh fs)        |  5.20 | 11.0 |\n"
		       "| read cold (aged fs)         |  35.0 | 11.4 |\n");
	CHECK_CONTAINS(s, "| delete (incl. sync)         |  32.8 | 28.5 |\n\n"
		       "- f2fs: skipped: mkfs.f2fs not found\n");
	CHECK_CONTAINS(s, "| create files/s | 35556 |  6119 |\n");
	CHECK_CONTAINS(s, "| ext4 |     3 | read       | name    | yes  |    40.0 |      - | 320000 |"
		       "    8000 |      0 |             1 |\n");
	CHECK(s && !strstr(s, "warm cache"));
	CHECK_CONTAINS(s, "| xfs  |     3 | read       | 1.80 | 12.3 | 459.8 |  2346 | 13000 |\n");
	CHECK_CONTAINS(s, "## Errors and verification failures\n");
	/* a seed-shaped run stands next to runner/SUITE.md's figures, its filesystems only */
	CHECK_CONTAINS(s, "## Against the SUITE.md reference (A: published, B: this run;");
	CHECK_CONTAINS(s, "| ext4 | create (incl. sync)         |  8.50 |  9.00 | 1.06 |\n");
	CHECK_CONTAINS(s, "| xfs  | read cold (aged fs)         |  11.0 |  11.4 | 1.04 |\n");
	CHECK(s && !strstr(s, "| f2fs |"));
	/* sections in order */
	const char *a = s ? strstr(s, "## Summary") : NULL, *b = s ? strstr(s, "## Files per") : NULL,
		   *c = s ? strstr(s, "## Rounds") : NULL, *d = s ? strstr(s, "## Latency") : NULL,
		   *e = s ? strstr(s, "## Errors") : NULL;
	const char *g = s ? strstr(s, "## Against the SUITE.md") : NULL;
	CHECK(a && b && c && d && e && g && a < g && g < b && b < c && c < d && d < e);
	free(s);
	/* not in CSV, and not for another workload */
	s = set.nruns ? render(rep_find(&set, NULL), CSV) : NULL;
	CHECK(s && !strstr(s, "SUITE.md"));
	free(s);
	rep_free(&set);
	static const char *const other[] = { "\"profile\":\"smoke\",\"dirs\":16,\"files\":20000",
		"\"profile\":\"seed\",\"dirs\":16,\"files\":500" };
	for (size_t i = 0; i < 2; i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"c1\",\"seq\":0,"
			 "\"config\":{%s,\"file_size\":4096}}\n"
			 "{\"schema\":1,\"type\":\"phase\",\"run_id\":\"c1\",\"seq\":1,\"fs\":\"ext4\","
			 "\"round\":1,\"phase\":\"create\",\"seconds\":1.5,\"files\":2000}\n", other[i]);
		CHECK(load_text(&set, text, err, sizeof(err)) == 0);
		s = set.nruns ? render(set.runs[0], MD) : NULL;
		CHECK(s && strstr(s, "## Summary") && !strstr(s, "Against the SUITE.md"));
		free(s);
		rep_free(&set);
	}
}

/* The writers are rows of one table; --format names and --help come from it. */
static void test_writers(void)
{
	char buf[256];

	CHECK(MD == &rep_writers[0]);	/* the default */
	CHECK(rep_writer_find("markdown") == MD);
	CHECK(rep_writer_find("xml") == NULL);
	CHECK(MD->view == REP_VIEW_READ && CSV->view == REP_VIEW_DATA);
	rep_writer_names(buf, sizeof(buf), "|", "|", 0);
	CHECK_STR(buf, "md|csv|html|junit");
	rep_writer_names(buf, sizeof(buf), "|", "|", REP_NAMES_TABLES);
	CHECK_STR(buf, "md|csv|html");	/* compare: no junit */
	rep_writer_names(buf, sizeof(buf), ", ", " or ", REP_NAMES_ABOUT | REP_NAMES_TABLES);
	CHECK_STR(buf, "md (Markdown, the default), csv or html (one HTML page with charts)");
	rep_writer_names(buf, sizeof(buf), ", ", " or ", REP_NAMES_ABOUT);
	CHECK_STR(buf, "md (Markdown, the default), csv, html (one HTML page with charts) or junit"
		  " (JUnit XML, for CI)");
	rep_writer_names(buf, 5, "|", "|", 0);
	CHECK_STR(buf, "md|c");	/* cut, terminated */

	/* every writer renders every fixture, whole lines only */
	const char *const in[] = { path_run, path_two, path_nophase, path_layout, path_refused };
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct rep_set set;
		char err[512];
		CHECK_EQ_U(rep_load(&set, in[i], err, sizeof(err)), 0);
		for (const struct rep_writer *w = rep_writers; w->name; w++) {
			for (size_t k = 0; k < set.nruns; k++) {
				char *s = render(set.runs[k], w);
				CHECK(s && *s && s[strlen(s) - 1] == '\n');
				free(s);
			}
		}
		rep_free(&set);
	}
}

/* Builders hold values; the writers alone format them. */
static void test_typed_cells(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512], b1[64], b2[64];

	CHECK_EQ_U(rep_load(&set, path_run, err, sizeof(err)), 0);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_EQ_U(rep_table_summary(r, &t), 0);
	const struct rep_cell *c = rep_table_cell(&t, ROW_CREATE, 1);
	CHECK(c && c->kind == CELL_SECONDS && c->num == 9.0 && c->text == NULL);
	c = rep_table_cell(&t, ROW_CREATE, 0);
	CHECK(c && c->kind == CELL_TEXT);
	CHECK(rep_table_cell(&t, ROW_N, 0) == NULL);
	CHECK(rep_table_cell(&t, 0, 3) == NULL);
	rep_table_free(&t);

	/* the same cell, two writers */
	CHECK_EQ_U(rep_table_rounds(r, &t), 0);
	c = rep_table_cell(&t, 12, 6);	/* no sync_seconds */
	CHECK(c && c->kind == CELL_MISSING);
	CHECK_STR(rep_cell_text(MD, c, b1, sizeof(b1)), "-");
	CHECK_STR(rep_cell_text(CSV, c, b2, sizeof(b2)), "");
	c = rep_table_cell(&t, 12, 1);
	CHECK(c && c->kind == CELL_COUNT && c->count == 3);
	c = rep_table_cell(&t, 12, 8);
	CHECK(c && c->kind == CELL_RATE);
	CHECK_STR(rep_cell_text(MD, c, b1, sizeof(b1)), "8000");
	CHECK_STR(rep_cell_text(CSV, c, b2, sizeof(b2)), "8000.0");
	rep_table_free(&t);

	/* a list cut short: a reader is told so, the data is not */
	struct rep_cell more = { .kind = CELL_TEXT, .more = 1, .text = "1 2 3 4" };
	CHECK_STR(rep_cell_text(MD, &more, b1, sizeof(b1)), "1 2 3 4 ...");
	CHECK_STR(rep_cell_text(CSV, &more, b2, sizeof(b2)), "1 2 3 4");
	struct rep_cell bytes = { .kind = CELL_BYTES, .count = 3 * 1024 * 1024 };
	CHECK_STR(rep_cell_text(MD, &bytes, b1, sizeof(b1)), "3.0 MiB");
	CHECK_STR(rep_cell_text(CSV, &bytes, b2, sizeof(b2)), "3145728");
	struct rep_cell pct = { .kind = CELL_PERCENT, .num = 0.98 };
	CHECK_STR(rep_cell_text(MD, &pct, b1, sizeof(b1)), "98.0");
	CHECK_STR(rep_cell_text(CSV, &pct, b2, sizeof(b2)), "98.000");
	rep_free(&set);
}

/* One table, two views: the rows and columns each view has. */
static void test_views(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];

	CHECK_EQ_U(rep_load(&set, path_run, err, sizeof(err)), 0);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_EQ_U(view(rep_table_run(r, &t), &t, MD), 0);
	CHECK_EQ_U(t.nrows, 7);	/* run, host, cpu, kernel, target, config, status */
	CHECK_STR(cell(&t, MD, 6, 0), "status");
	rep_table_free(&t);
	CHECK_EQ_U(view(rep_table_run(r, &t), &t, CSV), 0);
	CHECK_EQ_U(t.nrows, 24);	/* one row per field */
	CHECK_STR(cell(&t, CSV, 23, 0), "seconds");
	CHECK_STR(cell(&t, CSV, 23, 1), "1234.500");
	rep_table_free(&t);

	/* a column of one view: compare's runs */
	struct rep_cmp_run cr[2] = { { r, "a.jsonl" }, { r, "b.jsonl" } };
	CHECK_EQ_U(view(rep_table_cmp_runs(cr, 2, &t), &t, MD), 0);
	CHECK_EQ_U(t.ncols, 2);
	CHECK_STR(head(&t, 1), "run");
	rep_table_free(&t);
	CHECK_EQ_U(view(rep_table_cmp_runs(cr, 2, &t), &t, CSV), 0);
	CHECK_EQ_U(t.ncols, 3);
	CHECK_STR(head(&t, 1), "run_id");
	CHECK_STR(cell(&t, CSV, 1, 2), "b.jsonl");
	rep_table_free(&t);
	rep_free(&set);
}

static void test_render_csv(void)
{
	struct rep_set set;
	char err[512];

	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	char *s = set.nruns ? render(rep_find(&set, NULL), CSV) : NULL;
	CHECK(s && strncmp(s, "run,key,value\nrun,run_id,1a2b3c4d5e6f7a8b\n", 42) == 0);
	CHECK_CONTAINS(s, "\nrun,fs,\"ext4,xfs,f2fs\"\n");
	CHECK_CONTAINS(s, "\n\nsummary,phase,ext4,xfs\n"
		       "summary,create (incl. sync),9.000000,52.300000\n"
		       "summary,stat walk (cold),0.450000,1.050000\n");
	CHECK_CONTAINS(s, "summary,read cold (aged fs),35.000000,11.400000\n");
	CHECK_CONTAINS(s, "\n\nrate,phase,ext4,xfs\nrate,create files/s,35555.6,6118.5\n");
	CHECK_CONTAINS(s, "\n\nfs_status,fs,status,reason\nfs_status,ext4,ok,\n");
	CHECK_CONTAINS(s, "fs_status,f2fs,skipped,mkfs.f2fs not found\n");
	CHECK_CONTAINS(s, "\nrounds,ext4,3,read,name,yes,40.000000,,320000,8000.0,0,1\n");
	CHECK_CONTAINS(s, "\nlatency,xfs,3,read,1.800,12.345,459.789,2345.678,13000.000\n");
	CHECK_CONTAINS(s, "\nerrors,error,xfs,2,create,open,d03/f000123,"
		       "No space left on device (errno 28)\n");

	/* every line names its table; one blank line between tables */
	static const char *const names[] = { "run,", "summary,", "rate,", "fs_status,",
		"rounds,", "latency,", "errors," };
	size_t blanks = 0, lines = 0, named = 0, heads = 0;
	for (char *l = s; l && *l;) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		lines++;
		if (len == 0) {
			blanks++;
			heads++;	/* the next line is a header */
		}
		for (size_t i = 0; i < 7; i++)
			if (strncmp(l, names[i], strlen(names[i])) == 0)
				named++;
		if (!nl)
			break;
		l = nl + 1;
	}
	CHECK_EQ_U(blanks, 6);
	CHECK_EQ_U(named + blanks, lines);
	/* the tables in the order of the report's sections */
	const char *at[7];
	for (size_t i = 0; i < 7; i++) {
		char nl[32];
		snprintf(nl, sizeof(nl), "\n%s", names[i]);
		at[i] = s ? (i ? strstr(s, nl) : s) : NULL;
		CHECK(at[i] != NULL && (i == 0 || (at[i - 1] && at[i - 1] < at[i])));
	}
	CHECK(s && s[strlen(s) - 1] == '\n' && strstr(s, "\n\n\n") == NULL);
	free(s);
	rep_free(&set);
}

static void test_prefix(void)
{
	struct rep_set set;
	char err[512];
	static const char text[] =
		"U-Boot 2024.01\n"
		"\n"
		"[    2.0] fsbench: starting\n"
		"FSB: {\"type\":\"run_start\",\"run_id\":\"r1\",\"host\":{\"hostname\":\"h\"}}\n"
		"console noise FSB: {\"type\":\"phase\",\"run_id\":\"r1\",\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"create\",\"seconds\":2.5,\"files\":100}\r\n"
		"{\"type\":\"phase\",\"run_id\":\"r1\",\"fs\":\"ext4\",\"round\":2,"
		"\"phase\":\"create\",\"seconds\":1.5}\n"
		"no brace here\n"
		"FSB: {\"type\":\"run_end\",\"run_id\":\"r1\",\"status\":\"ok\"}";	/* no final newline */

	CHECK(load_text(&set, text, err, sizeof(err)) == 0);
	CHECK_EQ_U(set.lines, 8);
	CHECK_EQ_U(set.records, 4);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nph == 2 && r->have_end && r->have_start);
	CHECK(r && r->nph == 2 && r->ph[0].seconds == 2.5 && r->ph[0].files_per_s == 40);
	CHECK(r && r->nph == 2 && r->ph[1].round == 2);
	rep_free(&set);

	/* the error column counts the prefix: '{' is column 6 here */
	CHECK(load_text(&set, "FSB: x\nFSB: {\"a\" 1}\n", err, sizeof(err)) == -EBADMSG);
	CHECK_STR(err, "mem.jsonl:2: expected ':', found '1' at column 11");
	rep_free(&set);
	CHECK(load_text(&set, "noise {\n", err, sizeof(err)) == -EBADMSG);
	CHECK_STR(err, "mem.jsonl:1: unexpected end of input (expected a string (member name)) at column 8");
	rep_free(&set);
}

static void test_bad_records(void)
{
	struct rep_set set;
	char err[512];
	static const struct { const char *text, *msg; } cases[] = {
		{ "{\"run_id\":\"r\"}", "mem.jsonl:1: record without a \"type\" string" },
		{ "{\"type\":\"note\"}", "mem.jsonl:1: note record without a \"run_id\"" },
		{ "{\"type\":\"note\",\"run_id\":\"\"}", "mem.jsonl:1: note record with an empty \"run_id\"" },
		{ "\n{\"type\":\"phase\",\"run_id\":1,\"round\":1,\"phase\":\"stat\",\"seconds\":1}",
		  "mem.jsonl:2: phase record without a \"fs\" string" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1,\"seconds\":1}",
		  "mem.jsonl:1: phase record without a \"phase\" string" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":0,\"phase\":\"stat\",\"seconds\":1}",
		  "mem.jsonl:1: phase record: \"round\" must be a whole number from 1" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1.5,\"phase\":\"stat\",\"seconds\":1}",
		  "mem.jsonl:1: phase record: \"round\" must be a whole number from 1" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1,\"phase\":\"stat\"}",
		  "mem.jsonl:1: phase record: \"seconds\" must be a number >= 0" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1,\"phase\":\"stat\",\"seconds\":1e999}",
		  "mem.jsonl:1: phase record: \"seconds\" must be a number >= 0" },
		{ "{\"type\":\"fs_end\",\"run_id\":1}", "mem.jsonl:1: fs_end record without a \"fs\" string" },
		{ "{\"type\":\"note\",\"run_id\":1} {}", "mem.jsonl:1: trailing characters after the value at column 28" },
#define LAY_NAME "\"name_order\":{\"forward\":0.5,\"near\":0.5,\"median_jump_blocks\":3}"
#define LAY_INODE "\"inode_order\":{\"forward\":0.5,\"near\":0.5,\"median_jump_blocks\":3}"
		{ "{\"type\":\"layout\",\"run_id\":1,\"round\":1,\"files\":2," LAY_NAME "," LAY_INODE "}",
		  "mem.jsonl:1: layout record without a \"fs\" string" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":0,\"files\":2," LAY_NAME "," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"round\" must be a whole number from 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2," LAY_NAME "," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"files\" must be a whole number >= 0" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_INODE "}",
		  "mem.jsonl:1: layout record without a \"name_order\" object (or an \"error\")" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  "\"inode_order\":[]}",
		  "mem.jsonl:1: layout record without a \"inode_order\" object (or an \"error\")" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  "\"inode_order\":{\"forward\":0.5,\"near\":1.5,\"median_jump_blocks\":3}}",
		  "mem.jsonl:1: layout record: \"inode_order.near\" must be a number from 0 to 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2,"
		  "\"name_order\":{\"forward\":\"0.5\",\"near\":0.5,\"median_jump_blocks\":3}," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"name_order.forward\" must be a number from 0 to 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2,"
		  "\"name_order\":{\"forward\":0.5,\"near\":-0.1,\"median_jump_blocks\":3}," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"name_order.near\" must be a number from 0 to 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2,"
		  "\"name_order\":{\"forward\":0.5,\"near\":0.5,\"median_jump_blocks\":-1}," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"name_order.median_jump_blocks\" must be a whole number >= 0" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  LAY_INODE ",\"first_blocks\":[1,\"2\"]}",
		  "mem.jsonl:1: layout record: \"first_blocks\" must be an array of block numbers" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  LAY_INODE ",\"first_blocks\":7}",
		  "mem.jsonl:1: layout record: \"first_blocks\" must be an array of block numbers" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"error\":5}",
		  "mem.jsonl:1: layout record: \"error\" must be a non-empty string" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"error\":\"\"}",
		  "mem.jsonl:1: layout record: \"error\" must be a non-empty string" },
#undef LAY_NAME
#undef LAY_INODE
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(load_text(&set, cases[i].text, err, sizeof(err)) == -EBADMSG);
		CHECK_STR(err, cases[i].msg);
		rep_free(&set);
	}

	/* a line longer than REP_MAX_LINE is refused, not parsed */
	size_t n = REP_MAX_LINE + 10;
	char *big = malloc(n + 1);
	if (big) {
		memset(big, ' ', n);
		big[0] = '{';
		big[n] = '\0';
		CHECK(load_text(&set, big, err, sizeof(err)) == -EBADMSG);
		CHECK_CONTAINS(err, "mem.jsonl:1: line too long");
		rep_free(&set);
		free(big);
	}

	/* a malformed fixture line: file name, line, reason, column */
	CHECK(rep_load(&set, path_bad, err, sizeof(err)) == -EBADMSG);
	char want[1200];
	snprintf(want, sizeof(want), "%s:3: expected ':', found '\"' at column 41", path_bad);
	CHECK_STR(err, want);
	rep_free(&set);

	/* a read error (a folder opened as a stream) is not an end of input */
	FILE *dirf = fopen(".", "r");
	if (dirf) {
		memset(&set, 0, sizeof(set));
		CHECK(rep_load_stream(&set, dirf, "here", err, sizeof(err)) == -EISDIR);
		CHECK_STR(err, "here: Is a directory");
		fclose(dirf);
		rep_free(&set);
	}

	/* a malformed layout record in a file: file name, line, which field */
	CHECK(rep_load(&set, path_layout_bad, err, sizeof(err)) == -EBADMSG);
	snprintf(want, sizeof(want), "%s:4: layout record: \"name_order.near\" must be a number"
		 " from 0 to 1", path_layout_bad);
	CHECK_STR(err, want);
	rep_free(&set);

	CHECK(rep_load(&set, "no/such/file.jsonl", err, sizeof(err)) == -ENOENT);
	CHECK_STR(err, "no/such/file.jsonl: No such file or directory");
	rep_free(&set);
}

static void test_lenient(void)
{
	struct rep_set set;
	char err[512];
	/* numeric run_id, the same round twice (the later wins), no lat_ns, no
	 * files_per_s, a '|' in a name, unknown record types */
	static const char text[] =
		"{\"type\":\"fs_start\",\"run_id\":7,\"fs\":\"a|b\"}\n"
		"{\"type\":\"diagnosis\",\"run_id\":7,\"x\":[1,2,{\"y\":null}]}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":1,\"phase\":\"create\",\"seconds\":4,\"files\":8}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":1,\"phase\":\"create\",\"seconds\":6}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":2,\"phase\":\"create\",\"seconds\":1}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":1,\"phase\":\"read\",\"seconds\":1,\"cold\":false}\n"
		"{\"type\":\"verify_error\",\"run_id\":7,\"fs\":\"a|b\",\"round\":2,\"phase\":\"stat\","
		"\"file\":\"d00/f1\",\"what\":\"size\",\"offset\":0,\"count\":4096}\n";

	CHECK(load_text(&set, text, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, "7");
	CHECK(r != NULL);
	if (r) {
		double v = 0;
		CHECK(rep_summary(r, "a|b", ROW_CREATE, 0, &v) == 1 && v == 3.5);	/* (6+1)/2 */
		CHECK(r->nph == 4 && r->ph[0].files_per_s == 2 && !r->ph[0].have_lat);
		char *s = render(r, MD);
		CHECK_CONTAINS(s, "| a\\|b |");
		CHECK_CONTAINS(s, "- status: incomplete (no run_end record)\n");
		CHECK_CONTAINS(s, "- host: unknown (no run_start record)\n");
		CHECK_CONTAINS(s, "- a\\|b: incomplete: no fs_end record\n- warm cache: 1 stat/read phase"
			       " ran without a remount (cold: false); those \"cold\" figures are warm\n");
		CHECK_CONTAINS(s, "| a\\|b |     2 | create |   - |   - |   - |     - |   - |\n");
		CHECK_CONTAINS(s, "| verify_error | a\\|b |     2 | stat  | size | d00/f1 | size 0, expected 4096 |\n");	/* no latency */
		free(s);
	}
	rep_free(&set);

	/* many rounds (more than the summary's first buffer holds) */
	char *rounds = malloc(21 * 120 + 1);
	if (rounds) {
		size_t k = 0;
		for (int i = 21; i >= 1; i--)	/* seconds = round, newest first */
			k += (size_t)sprintf(rounds + k, "{\"type\":\"phase\",\"run_id\":\"m\","
					     "\"fs\":\"x\",\"round\":%d,\"phase\":\"read\","
					     "\"seconds\":%d}\n", i, i * (i % 2 ? 1 : 100));
		CHECK(load_text(&set, rounds, err, sizeof(err)) == 0);
		r = rep_find(&set, NULL);
		double v = 0;
		/* rounds 2..21: 10 odd ones (3..21) and 10 even ones (x100) */
		CHECK(r && rep_summary(r, "x", ROW_READ_AGED, 0, &v) == 1 && v == (21 + 200) / 2.0);
		CHECK(r && rep_summary(r, "x", ROW_READ_FRESH, 0, &v) == 1 && v == 1);
		rep_free(&set);
		free(rounds);
	}

	/* more error records than are kept: counted, and said so */
	char *many = malloc(150 * 80 + 200);
	if (many) {
		size_t k = (size_t)sprintf(many, "{\"type\":\"phase\",\"run_id\":\"e\",\"fs\":\"x\","
					   "\"round\":1,\"phase\":\"read\",\"seconds\":1}\n");
		for (int i = 0; i < 150; i++)
			k += (size_t)sprintf(many + k, "{\"type\":\"error\",\"run_id\":\"e\",\"fs\":\"x\","
					     "\"msg\":\"m%d\"}\n", i);
		CHECK(load_text(&set, many, err, sizeof(err)) == 0);
		r = rep_find(&set, NULL);
		CHECK(r && r->nev == REP_MAX_EVENTS && r->nev_total == 150);
		struct rep_table t;
		if (r && view(rep_table_errors(r, &t), &t, MD) == 0) {
			CHECK_EQ_U(t.nrows, REP_MAX_EVENTS + 1);
			CHECK_STR(cell(&t, MD, 0, 6), "m0");
			CHECK_STR(cell(&t, MD, REP_MAX_EVENTS, 6), "50 more not listed");
			rep_table_free(&t);
		}
		rep_free(&set);
		free(many);
	}
}

static void test_two_runs(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];

	CHECK(rep_load(&set, path_two, err, sizeof(err)) == 0);
	CHECK_EQ_U(set.nruns, 2);
	const struct rep_run *last = rep_find(&set, NULL);
	const struct rep_run *a = rep_find(&set, "aaaa000000000001");
	CHECK_STR(last ? last->run_id : NULL, "bbbb000000000002");
	CHECK_STR(a ? a->run_id : NULL, "aaaa000000000001");
	CHECK(rep_find(&set, "aaaa") == a);	/* a unique prefix */
	CHECK(rep_find(&set, "zzzz") == NULL);
	CHECK(rep_find(&set, "") == NULL);
	CHECK_STR(a ? a->hostname : NULL, "hostA");
	CHECK_EQ_U(a ? a->nph : 0, 4);
	CHECK_EQ_U(last ? last->nph : 0, 9);

	/* one round: the aged cells say "-", and each run has its own values */
	if (a && view(rep_table_summary(a, &t), &t, MD) == 0) {
		CHECK_EQ_U(t.ncols, 2);
		CHECK_STR(cell(&t, MD, ROW_CREATE, 1), "10.0");
		CHECK_STR(cell(&t, MD, ROW_READ_FRESH, 1), "6.00");
		CHECK_STR(cell(&t, MD, ROW_READ_AGED, 1), "-");
		CHECK_STR(cell(&t, MD, ROW_INODE_FRESH, 1), "-");
		rep_table_free(&t);
	}
	if (last && view(rep_table_summary(last, &t), &t, MD) == 0) {
		CHECK_EQ_U(t.ncols, 3);
		CHECK_STR(head(&t, 2), "btrfs");
		CHECK_STR(cell(&t, MD, ROW_CREATE, 1), "18.0");
		CHECK_STR(cell(&t, MD, ROW_CREATE, 2), "70.5");
		CHECK_STR(cell(&t, MD, ROW_READ_AGED, 2), "-");
		CHECK_STR(cell(&t, MD, ROW_INODE_FRESH, 1), "2.50");
		rep_table_free(&t);
	}
	rep_free(&set);

	/* an ambiguous prefix finds nothing */
	CHECK(load_text(&set, "{\"type\":\"note\",\"run_id\":\"ab1\"}\n"
			"{\"type\":\"note\",\"run_id\":\"ab2\"}\n", err, sizeof(err)) == 0);
	CHECK(rep_find(&set, "ab") == NULL);
	CHECK(rep_find(&set, "ab2") == set.runs[1]);
	rep_free(&set);
}

/* Two runs side by side. The table has the rows A and B both have (B ran
 * ext4 with one round and btrfs, A ext4 and xfs with three): the rows only
 * one of them has are named under it. */
static void test_compare(void)
{
	struct rep_set sa, sb;
	struct rep_table t;
	struct rep_cmp_count cnt[2];
	char err[512];

	CHECK(rep_load(&sa, path_run, err, sizeof(err)) == 0);
	CHECK(rep_load(&sb, path_two, err, sizeof(err)) == 0);
	const struct rep_run *a = rep_find(&sa, NULL), *b = rep_find(&sb, NULL);
	if (!a || !b) {
		CHECK(a && b);
		return;
	}
	struct rep_cmp_run runs[2] = { { a, "A.jsonl" }, { b, "B.jsonl" } };
	CHECK(view(rep_table_cmp(runs, 2, 0.10, &t, cnt), &t, MD) == 0);
	/* ext4: the 5 rows B has of A's 7 */
	CHECK_EQ_U(t.nrows, 5);
	static const char *const r0[] = { "ext4", "create (incl. sync)", "9.00", "18.0", "2.00",
					  "133.3", "within spread" };
	/* read fresh ran one round: A's spread is that of read aged (rounds 2
	 * and 3: 30 and 40 s) */
	static const char *const r2[] = { "ext4", "read cold (fresh fs)", "5.20", "3.00", "0.58",
					  "28.6", "faster" };
	static const char *const r4[] = { "ext4", "delete (incl. sync)", "32.8", "15.0", "0.46",
					  "10.7", "faster" };
	for (size_t c = 0; c < 7; c++) {
		CHECK_STR(cell(&t, MD, 0, c), r0[c]);
		CHECK_STR(cell(&t, MD, 2, c), r2[c]);
		CHECK_STR(cell(&t, MD, 4, c), r4[c]);
	}
	CHECK_EQ_U(cnt[1].compared, 5);
	CHECK_EQ_U(cnt[1].faster, 3);
	CHECK_EQ_U(cnt[1].noise, 2);
	CHECK_EQ_U(cnt[1].slower, 0);
	rep_table_free(&t);

	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m) {
		CHECK(rep_print_compare(m, runs, 2, 0.10, MD, cnt) == 0);
		fclose(m);
		CHECK_CONTAINS(buf, "- A: run 1a2b3c4d5e6f7a8b (A.jsonl), host bench1, kernel 6.17.0-test (#1 SMP), 16 CPUs, profile seed\n");
		CHECK_CONTAINS(buf, "| ext4 | create (incl. sync)         |  9.00 |  18.0 | 2.00 |"
			       "     133.3 | within spread |\n");
		CHECK_CONTAINS(buf, "\n- ext4 read cold (aged fs): not in B (in A)\n"
			       "- ext4 read inode order (aged fs): not in B (in A)\n"
			       "- xfs: not in B (in A)\n"
			       "- btrfs: not in A (in B); not compared: A lacks it\n");
		CHECK_CONTAINS(buf, "- B against A: 0 slower, 3 faster, 2 beyond the tolerance but"
			       " within the spread, of 5 rows compared (tolerance 10%)\n");
		free(buf);
	}
	buf = NULL;
	m = open_memstream(&buf, &len);
	if (m) {
		CHECK(rep_print_compare(m, runs, 2, 0.10, CSV, cnt) == 0);
		fclose(m);
		CHECK_CONTAINS(buf, "runs,A,1a2b3c4d5e6f7a8b,A.jsonl\n");
		CHECK_CONTAINS(buf, "\n\ncompare,fs,phase,a_seconds,a_rounds,a_spread_pct,a_spread_from,"
			       "b_seconds,b_rounds,b_spread_pct,b_spread_from,b_over_a,b_limit_pct,b_flag\n"
			       "compare,ext4,create (incl. sync),9.000000,3,133.333,rounds,18.000000,1,,"
			       "none,2.0000,133.333,within_spread\n"
			       "compare,ext4,stat walk (cold),");
		CHECK_CONTAINS(buf, "\ncompare,ext4,read cold (fresh fs),5.200000,1,28.571,phase,3.000000,"
			       "1,,none,0.5769,28.571,faster\n");
		CHECK_CONTAINS(buf, "\nmissing,xfs,,B,A\n");
		CHECK_CONTAINS(buf, "\nflags,side,compared,slower,faster,within_spread,tolerance_pct\n"
			       "flags,B,5,0,3,2,10.0\n");
		free(buf);
	}
	/* junit is not a format of tables; one run is not a comparison */
	CHECK(rep_print_compare(stdout, runs, 2, 0.10, rep_writer_find("junit"), cnt) == -EINVAL);
	CHECK(rep_print_compare(stdout, runs, 1, 0.10, MD, cnt) == -EINVAL);
	rep_free(&sa);
	rep_free(&sb);
}

static void test_layout_table(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];

	CHECK(rep_load(&set, path_layout, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	if (!r) {
		CHECK(r != NULL);
		rep_free(&set);
		return;
	}
	CHECK_EQ_U(r->nph, 30);
	CHECK_EQ_U(r->nlay, 6);
	const struct rep_layout *y = r->nlay == 6 ? &r->lay[1] : NULL;	/* ext4 round 2 */
	CHECK(y && strcmp(y->fs, "ext4") == 0 && y->round == 2 && !y->error);
	CHECK(y && y->files == 20000 && y->name.near == 0.02 && y->inode.near == 0.98);
	CHECK(y && y->name.forward == 0.51 && y->name.median_jump == 48211 && y->inode.median_jump == 1);
	CHECK(y && y->nfirst == 8 && y->first[0] == 1607168 && y->first[2] == 49817 && y->first[7] == 4);
	CHECK(y && y->line == 13);

	/* Markdown: percentages with one decimal, the first 4 blocks, "..." for more */
	CHECK(view(rep_table_layout(r, &t), &t, MD) == 0);
	CHECK_STR(t.name, "layout");
	CHECK_STR(t.title, "Layout (directory d0000, FIEMAP)");
	CHECK_EQ_U(t.ncols, 10);
	CHECK_EQ_U(t.nrows, 6);
	static const char *const hm[] = { "fs", "round", "files", "name forward %", "name near %",
		"name median jump", "inode forward %", "inode near %", "inode median jump",
		"first blocks (name order)" };
	static const char *const m1[] = { "ext4", "2", "20000", "51.0", "2.0", "48211", "99.9",
		"98.0", "1", "1607168 2157687 49817 1607169 ..." };
	static const char *const m3[] = { "xfs", "1", "20000", "97.0", "95.0", "1", "97.0",
		"95.0", "1", "24 25 26" };
	for (size_t c = 0; c < 10 && t.ncols == 10 && t.nrows == 6; c++) {
		CHECK_STR(head(&t, c), hm[c]);
		CHECK_STR(cell(&t, MD, 1, c), m1[c]);
		CHECK_STR(cell(&t, MD, 3, c), m3[c]);
	}
	CHECK_STR(cell(&t, MD, 4, 9), "1048600 1048601 1048602 1048603");	/* exactly 4: no "..." */
	CHECK_STR(cell(&t, MD, 2, 1), "3");
	CHECK_STR(cell(&t, MD, 2, 8), "1");
	rep_table_free(&t);

	/* CSV: three decimals, no "...", an error column */
	CHECK(view(rep_table_layout(r, &t), &t, CSV) == 0);
	CHECK_EQ_U(t.ncols, 11);
	static const char *const hc[] = { "fs", "round", "files", "name_forward_pct",
		"name_near_pct", "name_median_jump_blocks", "inode_forward_pct", "inode_near_pct",
		"inode_median_jump_blocks", "first_blocks", "error" };
	static const char *const c1[] = { "ext4", "2", "20000", "51.000", "2.000", "48211",
		"99.900", "98.000", "1", "1607168 2157687 49817 1607169", "" };
	for (size_t c = 0; c < 11 && t.ncols == 11 && t.nrows == 6; c++) {
		CHECK_STR(head(&t, c), hc[c]);
		CHECK_STR(cell(&t, CSV, 1, c), c1[c]);
	}
	rep_table_free(&t);

	/* the finding: ext4, the earliest aged round; not xfs */
	CHECK(view(rep_table_layout_findings(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 1);
	CHECK_STR(cell(&t, MD, 0, 0), "ext4");
	CHECK_STR(cell(&t, MD, 0, 1), "aged (round 2): name order is no longer disk order"
		  " (near 2% vs 98% by inode); reading in inode order is the remedy"
		  " (read_inode: 4.4 s vs read: 37.1 s)");
	rep_table_free(&t);

	/* a run without layout records has an empty layout table */
	rep_free(&set);
	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	r = rep_find(&set, NULL);
	CHECK(r && r->nlay == 0);
	if (r && view(rep_table_layout(r, &t), &t, MD) == 0) {
		CHECK_EQ_U(t.nrows, 0);
		rep_table_free(&t);
	}
	rep_free(&set);
}

static void test_layout_render(void)
{
	struct rep_set set;
	char err[512];

	CHECK(rep_load(&set, path_layout, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	char *s = r ? render(r, MD) : NULL;
	CHECK_CONTAINS(s, "\n\n## Layout (directory d0000, FIEMAP)\n\n"
		       "| fs   | round | files | name forward % | name near % | name median jump |"
		       " inode forward % | inode near % | inode median jump |"
		       " first blocks (name order)           |\n");
	CHECK_CONTAINS(s, "\n| ext4 |     2 | 20000 |           51.0 |         2.0 |            48211 |"
		       "            99.9 |         98.0 |                 1 |"
		       " 1607168 2157687 49817 1607169 ...   |\n");
	CHECK_CONTAINS(s, "| 2097200 2097201 2097202 2097203 ... |\n\n"
		       "- ext4: aged (round 2): name order is no longer disk order (near 2% vs 98%"
		       " by inode); reading in inode order is the remedy (read_inode: 4.4 s vs"
		       " read: 37.1 s)\n");
	CHECK(s && !strstr(s, "- xfs: aged"));
	CHECK(s && !strstr(s, "(round 3)"));
	/* after the latency table, at the end (no errors in this run) */
	const char *lat = s ? strstr(s, "## Latency") : NULL, *lay = s ? strstr(s, "## Layout") : NULL;
	CHECK(lat && lay && lat < lay);
	CHECK(s && s[strlen(s) - 1] == '\n' && strstr(s, "\n\n\n") == NULL);
	free(s);

	s = r ? render(r, CSV) : NULL;
	CHECK_CONTAINS(s, "\n\nlayout,fs,round,files,name_forward_pct,name_near_pct,"
		       "name_median_jump_blocks,inode_forward_pct,inode_near_pct,"
		       "inode_median_jump_blocks,first_blocks,error\n"
		       "layout,ext4,1,20000,99.900,98.000,1,99.900,98.000,1,49152 49153 49154 49155,\n"
		       "layout,ext4,2,20000,51.000,2.000,48211,99.900,98.000,1,"
		       "1607168 2157687 49817 1607169,\n");
	CHECK_CONTAINS(s, "\nlayout,xfs,3,20000,96.000,93.000,2,97.000,95.000,1,"
		       "2097200 2097201 2097202 2097203,\n");
	lat = s ? strstr(s, "\nlatency,fs,") : NULL;
	lay = s ? strstr(s, "\nlayout,fs,") : NULL;
	CHECK(lat && lay && lat < lay);
	CHECK(s && s[strlen(s) - 1] == '\n' && strstr(s, "\n\n\n") == NULL);
	free(s);
	rep_free(&set);

	/* no layout records: no layout table in either format */
	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	r = rep_find(&set, NULL);
	s = r ? render(r, MD) : NULL;
	CHECK(s && !strstr(s, "Layout"));
	free(s);
	s = r ? render(r, CSV) : NULL;
	CHECK(s && !strstr(s, "layout,"));
	free(s);
	rep_free(&set);
}

static void test_layout_findings(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];
#define LAY(fs, round, nn, in) "{\"type\":\"layout\",\"run_id\":\"L\",\"fs\":\"" fs "\"," \
	"\"round\":" #round ",\"files\":100,\"name_order\":{\"forward\":0.5,\"near\":" #nn "," \
	"\"median_jump_blocks\":9},\"inode_order\":{\"forward\":0.9,\"near\":" #in "," \
	"\"median_jump_blocks\":1}}\n"
#define PH(fs, round, ph, secs) "{\"type\":\"phase\",\"run_id\":\"L\",\"fs\":\"" fs "\"," \
	"\"round\":" #round ",\"phase\":\"" ph "\",\"seconds\":" #secs "}\n"
	static const char text[] =
		/* a: at the threshold (70% - 40% = 30%, 0.29999999999999993 in binary); no read times */
		LAY("a", 2, 0.4, 0.7)
		/* b: name order at 50% is not below 50% */
		LAY("b", 2, 0.5, 0.95)
		/* c: inode order only 29% better */
		LAY("c", 2, 0.4, 0.69)
		/* d: the fresh round never counts */
		LAY("d", 1, 0.02, 0.98)
		/* e: rounds 4 and 3 show it (the earlier round is reported), round 2
		 * does not; inode order was slower there */
		PH("e", 3, "read", 0.5) PH("e", 3, "read_inode", 0.75)
		LAY("e", 2, 0.6, 0.9) LAY("e", 4, 0.05, 0.95) LAY("e", 3, 0.1, 0.9)
		/* f: no FIEMAP */
		"{\"type\":\"layout\",\"run_id\":\"L\",\"fs\":\"f\",\"round\":2,\"dir\":\"d0000\","
		"\"error\":\"no FIEMAP on this filesystem\"}\n"
		/* g: the same round twice: the later record wins (and shows nothing) */
		LAY("g", 2, 0.02, 0.98) LAY("g", 2, 0.9, 0.95)
		/* h: both orders scattered (no order follows the disk): nothing to fix by order */
		LAY("h", 3, 0.01, 0.02);
#undef LAY
#undef PH

	CHECK(load_text(&set, text, err, sizeof(err)) == 0);
	CHECK_STR(err, "");
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nlay == 10);
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK(view(rep_table_layout_findings(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 2);
	CHECK_STR(cell(&t, MD, 0, 0), "a");
	CHECK_STR(cell(&t, MD, 0, 1), "aged (round 2): name order is no longer disk order"
		  " (near 40% vs 70% by inode); reading in inode order is the remedy"
		  " (no read and read_inode times for this round)");
	CHECK_STR(cell(&t, MD, 1, 0), "e");
	CHECK_STR(cell(&t, MD, 1, 1), "aged (round 3): name order is no longer disk order"
		  " (near 10% vs 90% by inode); reading in inode order was not faster here"
		  " (read_inode: 0.750 s vs read: 0.500 s)");
	rep_table_free(&t);

	/* the error variant: a row of "-" with the reason (Markdown), an error
	 * column (CSV); the replaced record is listed once */
	CHECK(view(rep_table_layout(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 10);
	size_t fr = 8;
	for (size_t i = 0; i < t.nrows; i++)
		if (strcmp(cell(&t, MD, i, 0), "f") == 0)
			fr = i;
	CHECK_EQ_U(fr, 7);
	CHECK_STR(cell(&t, MD, fr, 1), "2");
	for (size_t c = 2; c < 9; c++)
		CHECK_STR(cell(&t, MD, fr, c), "-");
	CHECK_STR(cell(&t, MD, fr, 9), "no FIEMAP on this filesystem");
	CHECK_STR(cell(&t, MD, 8, 0), "g");
	CHECK_STR(cell(&t, MD, 8, 4), "90.0");	/* the later record */
	CHECK_STR(cell(&t, MD, 0, 9), "-");	/* no first_blocks */
	rep_table_free(&t);
	CHECK(view(rep_table_layout(r, &t), &t, CSV) == 0);
	for (size_t c = 2; c < 10; c++)
		CHECK_STR(cell(&t, CSV, 7, c), "");
	CHECK_STR(cell(&t, CSV, 7, 10), "no FIEMAP on this filesystem");
	CHECK_STR(cell(&t, CSV, 0, 10), "");
	rep_table_free(&t);
	rep_free(&set);
}

/* A refused run: the report lists the disks the runner saw, and it is
 * complete without phases (report exits 0). */
static void test_refused(void)
{
	struct rep_set set;
	char err[256] = "";
	CHECK_EQ_U(rep_load(&set, path_refused, err, sizeof(err)), 0);
	CHECK_EQ_U(set.nruns, 1);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_EQ_U(r->ndisk, 3);	/* the element that is not an object is left out */
	if (r->ndisk == 3) {
		CHECK_STR(r->disk[1].path, "/dev/nvme0n1");
		CHECK_STR(r->disk[1].model, "Test NVMe 1TB");
		CHECK_STR(r->disk[1].serial, "S6Z1NJ0T");
		CHECK_EQ_U(r->disk[1].size, 1000204886016ULL);
		CHECK_STR(r->disk[2].partlabel, "fsbench-log");
		CHECK(r->disk[0].partlabel == NULL);
	}
	char *md = render(r, MD);
	CHECK_CONTAINS(md, "- status: refused (exit 3, 0.0 s)\n");
	CHECK_CONTAINS(md, "- target: serial:NOPE (not resolved to a disk)\n");
	CHECK_CONTAINS(md, "no disk has serial 'NOPE', fatal |");
	CHECK_CONTAINS(md, "## Disks the runner saw");
	CHECK_CONTAINS(md, "| /dev/nvme0n1 | 931.5 GiB | Test NVMe 1TB | S6Z1NJ0T   | nvme      | -           |\n");
	CHECK_CONTAINS(md, "| /dev/sda     |  14.6 GiB | USB Stick     | 4C53       | usb       | fsbench-log |\n");
	free(md);
	char *csv = render(r, CSV);
	CHECK_CONTAINS(csv, "run,target,\n");
	CHECK_CONTAINS(csv, "run,target_spec,serial:NOPE\n");
	CHECK_CONTAINS(csv, "disks,path,size_bytes,model,serial,transport,partlabel\n"
		       "disks,/dev/mmcblk0,31268536320,-,0x1234abcd,mmc,-\n");
	free(csv);
	rep_free(&set);

	/* a run with phases lists no disks */
	CHECK_EQ_U(rep_load(&set, path_run, err, sizeof(err)), 0);
	if (set.nruns) {
		CHECK_EQ_U(set.runs[0]->ndisk, 0);
		md = render(set.runs[0], MD);
		CHECK(md && !strstr(md, "Disks the runner saw"));
		free(md);
	}
	rep_free(&set);

	char *o, *e;
	char *a[] = { "report", path_refused, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a, &o, &e), 0);
	CHECK_CONTAINS(o, "| /dev/mmcblk0 |  29.1 GiB |");
	CHECK_STR(e, "");
	free(o), free(e);
}

/* A refusal whose "disks" list holds no object gives no disk; the next
 * refusal's list is the one kept. The list of the first used to be
 * allocated and then lost: `make check-asan` (LeakSanitizer) fails on it. */
static void test_refused_empty_disks(void)
{
	struct rep_set set;
	char err[256];
	static const char text[] =
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,\"disks\":[1,\"x\",null]}\n"
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,\"disks\":[[],{}]}\n"
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,"
		"\"disks\":[{\"path\":\"/dev/sdb\",\"size_bytes\":512}]}\n"
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,"
		"\"disks\":[{\"path\":\"/dev/sdc\"}]}\n";

	CHECK_EQ_U(load_text(&set, text, err, sizeof(err)), 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ_U(r->nev_total, 4);
		CHECK_EQ_U(r->ndisk, 1);	/* [[],{}]: {} is an object, a disk without fields */
		if (r->ndisk == 1)
			CHECK(r->disk[0].path == NULL && r->disk[0].size == 0);
	}
	rep_free(&set);
}

/* create_order = shuffled: the finding holds from round 1 and says why. */
static void test_shuffled_finding(void)
{
	static const char *const fmt =
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"e1\",\"seq\":1,\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"create\",\"order\":\"%s\",\"seconds\":8.2,\"files\":320000}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"e1\",\"seq\":2,\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"read\",\"order\":\"name\",\"seconds\":10.1,\"files\":320000}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"e1\",\"seq\":3,\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"read_inode\",\"order\":\"inode\",\"seconds\":7.0,\"files\":320000}\n"
		"{\"schema\":1,\"type\":\"layout\",\"run_id\":\"e1\",\"seq\":4,\"fs\":\"ext4\","
		"\"round\":1,\"dir\":\"d0000\",\"files\":20000,\"mapped\":20000,"
		"\"name_order\":{\"steps\":19999,\"forward\":0.49,\"near\":0.001,\"median_jump_blocks\":518037},"
		"\"inode_order\":{\"steps\":19999,\"forward\":0.996,\"near\":0.987,\"median_jump_blocks\":2}}\n";
	char text[2048], err[256];
	struct rep_set set;

	snprintf(text, sizeof(text), fmt, "shuffled");
	CHECK_EQ_U(load_text(&set, text, err, sizeof(err)), 0);
	char *md = set.nruns ? render(set.runs[0], MD) : NULL;
	CHECK_CONTAINS(md, "- ext4: created in shuffled order (round 1): name order is not disk order"
		       " (near 0% vs 99% by inode); reading in inode order is the remedy"
		       " (read_inode: 7.0 s vs read: 10.1 s)\n");
	CHECK_CONTAINS(md, "| ext4 |     1 | create     | shuffled |");
	free(md);
	rep_free(&set);

	/* the same layout in round 1 of a name-order run is not a finding:
	 * a fresh filesystem created in name order is the baseline */
	snprintf(text, sizeof(text), fmt, "name");
	CHECK_EQ_U(load_text(&set, text, err, sizeof(err)), 0);
	md = set.nruns ? render(set.runs[0], MD) : NULL;
	CHECK(md && !strstr(md, "name order is not disk order") && !strstr(md, "aged (round"));
	free(md);
	rep_free(&set);
}

/* The runner/SUITE.md reference as a run, and compare --reference. */
static void test_reference(void)
{
	struct rep_set set;
	char err[256] = "", small[64];
	double v = 0;

	CHECK(rep_reference_text(small, sizeof(small)) == -ENOSPC);
	CHECK_EQ_U(rep_load_reference(&set, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_STR(set.path, REP_REFERENCE_NAME);
	CHECK_EQ_U(set.nruns, 1);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (r) {
		CHECK_EQ_U(r->nfs, 4);
		/* runner/SUITE.md's table, cell by cell */
		static const struct { const char *fs; enum rep_row row; double want; } cells[] = {
			{ "ext4", ROW_CREATE, 8.5 }, { "xfs", ROW_CREATE, 52.3 },
			{ "btrfs", ROW_CREATE, 70.5 }, { "f2fs", ROW_CREATE, 15.5 },
			{ "ext4", ROW_STAT, 0.45 }, { "f2fs", ROW_STAT, 3.17 },
			{ "ext4", ROW_READ_FRESH, 5.2 }, { "ext4", ROW_READ_AGED, 35.3 },
			{ "btrfs", ROW_READ_FRESH, 4.8 }, { "btrfs", ROW_READ_AGED, 5.2 },
			{ "xfs", ROW_READ_AGED, 11.0 }, { "ext4", ROW_INODE_AGED, 4.4 },
			{ "ext4", ROW_DELETE, 32.8 }, { "f2fs", ROW_DELETE, 5.1 },
		};
		for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
			v = -1;
			CHECK(rep_summary(r, cells[i].fs, cells[i].row, 0, &v) == 1);
			CHECK(v > cells[i].want - 1e-9 && v < cells[i].want + 1e-9);
		}
		CHECK(rep_summary(r, "xfs", ROW_INODE_AGED, 0, &v) == 0);	/* not published */
		CHECK(rep_summary(r, "ext4", ROW_INODE_FRESH, 0, &v) == 0);
		CHECK_STR(r->status, "ok");
	}
	rep_free(&set);

	char *o, *e;
	char *a1[] = { "compare", "--reference", path_run, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "(SUITE.md reference), host the published run, kernel 6.17, profile seed");
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)        |  8.50 |  9.00 | 1.06 |     141.2 |"
		       "        |\n");
	CHECK_STR(e, "");
	free(o), free(e);
	char *a2[] = { "compare", path_run, "--reference", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "compare,xfs,delete (incl. sync),28.500000,3,0.000,rounds,28.500000,3,"
		       "70.175,rounds,1.0000,70.175,within_tolerance\n");
	CHECK_CONTAINS(o, "missing,f2fs,,B,A\n");	/* the run skipped f2fs */
	free(o), free(e);

	char *u1[] = { "compare", "--reference", NULL };
	char *u2[] = { "compare", "--reference", path_run, path_two, NULL };
	char *u3[] = { "compare", path_run, path_two, "--reference", NULL };
	char *u4[] = { "report", "--reference", path_run, NULL };
	char **us[] = { u1, u2, u3, u4 };
	static const char *const umsg[] = {
		"fsbench: compare: missing B\n",
		"fsbench: compare: too many arguments",
		"fsbench: compare: --reference and two runs: give B only",
		"fsbench: report: unknown option '--reference'",
	};
	int (*fns[])(int, char **) = { cmd_compare, cmd_compare, cmd_compare, cmd_report };
	for (size_t i = 0; i < 4; i++) {
		CHECK_EQ_U(run_cmd(fns[i], us[i], &o, &e), 2);
		CHECK_STR(o, "");
		CHECK_CONTAINS(e, umsg[i]);
		free(o), free(e);
	}
}

static void test_commands(void)
{
	char *o, *e;
	char dir[] = "rundir";

	/* a run folder: RUN/records.jsonl */
	mkdir(dir, 0755);
	FILE *src = fopen(path_run, "r"), *dst = fopen("rundir/records.jsonl", "w");
	CHECK(src && dst);
	if (src && dst) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), src)) > 0)
			fwrite(buf, 1, n, dst);
	}
	if (src)
		fclose(src);
	if (dst)
		fclose(dst);

	char *a1[] = { "report", "rundir/", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "| create (incl. sync)         |  9.00 | 52.3 |\n");
	CHECK_STR(e, "");
	free(o), free(e);

	char *a2[] = { "report", "--format", "csv", "rundir", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a2, &o, &e), 0);
	CHECK(o && strncmp(o, "run,key,value\n", 14) == 0);
	free(o), free(e);

	char *a3[] = { "report", path_two, "--run=aaaa", "--format=md", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a3, &o, &e), 0);
	CHECK_CONTAINS(o, "- run: aaaa000000000001\n");
	free(o), free(e);

	/* misuse: 2, with the usage */
	char *u1[] = { "report", NULL };
	char *u2[] = { "report", "--format", NULL };
	char *u3[] = { "report", "--format", "xml", path_run, NULL };
	char *u4[] = { "report", "--bogus", path_run, NULL };
	char *u5[] = { "report", path_run, path_two, NULL };
	char *u6[] = { "report", "--run", "zzzz", path_two, NULL };
	char **us[] = { u1, u2, u3, u4, u5, u6 };
	static const char *const umsg[] = {
		"fsbench: report: missing RUN\nusage: fsbench report RUN",
		"fsbench: report: --format needs an argument\nusage:",
		"fsbench: report: unknown format 'xml' (md, csv, html or junit)\nusage:",
		"fsbench: report: unknown option '--bogus'\nusage:",
		"fsbench: report: too many arguments",
		"no run 'zzzz' (runs: aaaa000000000001 bbbb000000000002)",
	};
	for (size_t i = 0; i < 6; i++) {
		CHECK_EQ_U(run_cmd(cmd_report, us[i], &o, &e), 2);
		CHECK_STR(o, "");
		CHECK_CONTAINS(e, umsg[i]);
		free(o), free(e);
	}
	char *h[] = { "report", "--help", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, h, &o, &e), 0);
	CHECK_CONTAINS(o, "usage: fsbench report RUN [--format md|csv|html|junit] [--run RUNID]");
	free(o), free(e);

	/* input that cannot be opened or is malformed: 4, nothing on stdout */
	char *b1[] = { "report", "no/such/dir", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, b1, &o, &e), 4);
	CHECK_STR(o, "");
	CHECK_STR(e, "fsbench: report no/such/dir: No such file or directory\n");
	free(o), free(e);
	char *b2[] = { "report", path_bad, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, b2, &o, &e), 4);
	CHECK_STR(o, "");
	CHECK_CONTAINS(e, "report-bad.jsonl:3: expected ':', found '\"' at column 41\n");
	CHECK(e && strncmp(e, "fsbench: report ", 16) == 0);
	free(o), free(e);

	/* no phase records: reported as such, exit 1 */
	char *b3[] = { "report", path_layout_bad, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, b3, &o, &e), 4);
	CHECK_STR(o, "");
	CHECK_CONTAINS(e, "report-layout-bad.jsonl:4: layout record: \"name_order.near\" must be"
		       " a number from 0 to 1\n");
	free(o), free(e);
	char *b4[] = { "report", path_layout, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, b4, &o, &e), 0);
	CHECK_CONTAINS(o, "- ext4: aged (round 2): name order is no longer disk order");
	CHECK_STR(e, "");
	free(o), free(e);

	char *n1[] = { "report", path_nophase, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, n1, &o, &e), 1);
	CHECK_CONTAINS(o, "No phase records in this run.\n\n- xfs: failed: mount: No such device\n");
	CHECK_CONTAINS(o, "| error | xfs |     - | mount | mount | /dev/nvme1n1 | No such device (errno 19), fatal |");
	CHECK_CONTAINS(e, "run cccc000000000003 has no phase records");
	free(o), free(e);
	char *n2[] = { "report", "/dev/null", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, n2, &o, &e), 1);
	CHECK_STR(e, "fsbench: report /dev/null: no records\n");
	free(o), free(e);

	/* compare */
	char *c1[] = { "compare", "rundir", path_two, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c1, &o, &e), 0);
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)         |  9.00 |  18.0 | 2.00 |");
	CHECK_CONTAINS(o, "(rundir/records.jsonl)");
	free(o), free(e);
	char *c2[] = { "compare", path_run, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c2, &o, &e), 2);
	CHECK_CONTAINS(e, "fsbench: compare: missing B\nusage: fsbench compare A B");
	free(o), free(e);
	char *c3[] = { "compare", path_run, path_bad, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c3, &o, &e), 4);
	CHECK_STR(o, "");
	free(o), free(e);
	char *c4[] = { "compare", path_run, path_nophase, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c4, &o, &e), 1);
	CHECK_STR(o, "");
	free(o), free(e);
	char *c5[] = { "compare", "--run", "x", path_run, path_two, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c5, &o, &e), 2);
	free(o), free(e);

	remove("rundir/records.jsonl");
	rmdir(dir);
}

int main(int argc, char **argv)
{
	(void)argc;
	MD = rep_writer_find("md");
	CSV = rep_writer_find("csv");
	if (!MD || !CSV) {
		fprintf(stderr, "test_report: no md or csv writer\n");
		return 1;
	}
	paths();
	test_load();
	test_median();
	test_summary();
	test_rounds_latency_errors();
	test_render_md();
	test_render_csv();
	test_prefix();
	test_bad_records();
	test_lenient();
	test_two_runs();
	test_compare();
	test_layout_table();
	test_layout_render();
	test_layout_findings();
	test_refused();
	test_refused_empty_disks();
	test_reference();
	test_shuffled_finding();
	test_commands();
	test_writers();
	test_typed_cells();
	test_views();
	return unit_done(argv[0]);
}

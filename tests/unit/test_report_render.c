/* test_report_render.c: the report in each writer (fixtures.h): the whole
 * report in Markdown and CSV, the writer table, typed cells and their
 * views. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsbench.h"
#include "report/output.h"
#include "cmd.h"
#include "fixtures.h"
#include "records.h"
#include "unit.h"

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

/* The writers are rows of one table; --format names and --help come from it. */
static void test_writers(void)
{
	char buf[256];

	CHECK(MD == &rep_writers[0]);	/* the default */
	CHECK(rep_writer_find("markdown") == MD);
	CHECK(rep_writer_find("xml") == NULL);
	CHECK(MD->view == REP_VIEW_READ && CSV->view == REP_VIEW_DATA);
	rep_writer_names(buf, sizeof(buf), "|", "|", 0);
	CHECK_STR(buf, "md|csv|html|junit|ktap");
	rep_writer_names(buf, sizeof(buf), "|", "|", REP_NAMES_TABLES);
	CHECK_STR(buf, "md|csv|html");	/* compare: no junit, no ktap */
	rep_writer_names(buf, sizeof(buf), ", ", " or ", REP_NAMES_ABOUT | REP_NAMES_TABLES);
	CHECK_STR(buf, "md (Markdown, the default), csv or html (one HTML page with charts)");
	rep_writer_names(buf, sizeof(buf), ", ", " or ", REP_NAMES_ABOUT);
	CHECK_STR(buf, "md (Markdown, the default), csv, html (one HTML page with charts), junit"
		  " (JUnit XML, for CI) or ktap (KTAP version 1, for kernel CI)");
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
	/* what a power cut may take: the cache the kernel believes in, FUA */
	CHECK_STR(cell(&t, MD, 4, 1), "/dev/nvme1n1, Test NVMe (serial S123), 10.0 GiB;"
		  " write back cache, FUA");
	rep_table_free(&t);
	CHECK_EQ_U(view(rep_table_run(r, &t), &t, CSV), 0);
	CHECK_EQ_U(t.nrows, 26);	/* one row per field */
	{
		static const struct cell_want want[] = {
			{ 14, 0, "target_write_cache" }, { 14, 1, "write back" }, { 15, 1, "true" },
			{ 25, 0, "seconds" }, { 25, 1, "1234.500" },
		};
		CELLS_CHECK(&t, CSV, want);
	}
	rep_table_free(&t);

	/* a column of one view: compare's runs */
	struct rep_cmp_run cr[2] = { { .run = r, .name = "a.jsonl" }, { .run = r, .name = "b.jsonl" } };
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

FIXTURES_MAIN(test_render_md, test_render_csv, test_writers, test_typed_cells, test_views)

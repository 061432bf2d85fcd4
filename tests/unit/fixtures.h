/* fixtures.h: what the report's unit tests (test_report_*.c) share: the
 * fixtures in $FSB_TESTDATA (tests/unit/data/report-*.jsonl), the md and
 * csv writers, and a table's cells as a writer shows them.
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
 *
 * Runs of the other kinds, each its run_start (partial: the config of
 * `fsbench config --show`, every key of the settings table) and its own
 * records:
 * report-sustain.jsonl: profile sustain, two sustained writes on raw: seq
 * falls from 40 to 10 MiB/s at its 8th sample while the disk warms from
 * 40 to 60 C; rand holds (test_sustain.c).
 * report-powercut.jsonl: profile powercut, ext4's two cycles clean, xfs's
 * one with a file lost and one torn, its checker not clean after the
 * replay (test_powercut.c).
 * report-fileserver.jsonl: profile fileserver-aged with smallfile = 1 and
 * layout = 0: the file server on ext4, xfs and btrfs, fresh and aged (xfs
 * leads fresh, btrfs aged; ext4's figures are the ratios' base), and a
 * read phase of each before (round 1) and after the aging (round 2)
 * (test_fileserver.c).
 *
 * A test program calls fixtures_init(argv[0]) first.
 */
#ifndef FSB_UNIT_FIXTURES_H
#define FSB_UNIT_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/output.h"
#include "report/writers/chart.h"
#include "records.h"
#include "unit.h"

static char path_run[1100], path_two[1100], path_bad[1100], path_nophase[1100];
static char path_layout[1100], path_layout_bad[1100], path_refused[1100];
static char path_sustain[1100], path_powercut[1100], path_fileserver[1100];
static const struct rep_writer *MD, *CSV;

static inline int fixtures_readable(const char *dir)
{
	char p[1100];
	snprintf(p, sizeof(p), "%s/report-run.jsonl", dir);
	return access(p, R_OK) == 0;
}

/* The fixtures: $FSB_TESTDATA, else tests/unit/data here or in a parent
 * folder (the tests run in a scratch folder under the build output); the
 * md and csv writers. Returns 0, or 1 when a writer is missing. */
static inline int fixtures_init(const char *prog)
{
	static char found[512];
	const char *d = getenv("FSB_TESTDATA");
	const char *b = strrchr(prog, '/');

	prog = b ? b + 1 : prog;
	MD = rep_writer_find("md");
	CSV = rep_writer_find("csv");
	if (!MD || !CSV) {
		fprintf(stderr, "%s: no md or csv writer\n", prog);
		return 1;
	}
	if (!d || !fixtures_readable(d)) {
		const char *env = d;
		d = NULL;
		strcpy(found, "tests/unit/data");
		for (int up = 0; up < 8 && !d; up++) {
			if (fixtures_readable(found))
				d = found;
			else if (strlen(found) + 4 < sizeof(found))
				memmove(found + 3, found, strlen(found) + 1), memcpy(found, "../", 3);
		}
		if (!d)
			d = env ? env : "tests/unit/data";	/* the loads fail visibly */
		else if (env)
			fprintf(stderr, "%s: FSB_TESTDATA=%s has no fixtures, using %s\n",
				prog, env, d);
	}
	snprintf(path_run, sizeof(path_run), "%s/report-run.jsonl", d);
	snprintf(path_two, sizeof(path_two), "%s/report-two-runs.jsonl", d);
	snprintf(path_bad, sizeof(path_bad), "%s/report-bad.jsonl", d);
	snprintf(path_nophase, sizeof(path_nophase), "%s/report-nophase.jsonl", d);
	snprintf(path_layout, sizeof(path_layout), "%s/report-layout.jsonl", d);
	snprintf(path_layout_bad, sizeof(path_layout_bad), "%s/report-layout-bad.jsonl", d);
	snprintf(path_refused, sizeof(path_refused), "%s/report-refused.jsonl", d);
	snprintf(path_sustain, sizeof(path_sustain), "%s/report-sustain.jsonl", d);
	snprintf(path_powercut, sizeof(path_powercut), "%s/report-powercut.jsonl", d);
	snprintf(path_fileserver, sizeof(path_fileserver), "%s/report-fileserver.jsonl", d);
	return 0;
}

/* unit_run() after fixtures_init(); FIXTURES_MAIN(test_a, test_b) is the
 * main() of a test of the fixtures. */
static inline int fixtures_run(const char *prog, unit_test *const *test, size_t n)
{
	return fixtures_init(prog) ? 1 : unit_run(prog, test, n);
}
#define FIXTURES_MAIN(...) UNIT_MAIN_WITH(fixtures_run, __VA_ARGS__)

/* A fixture's text (malloc'd; "" when it cannot be read, said on stderr). */
static inline char *fixture_text(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len), *f = fopen(path, "r");
	char chunk[4096];
	size_t n;

	if (!m)
		return NULL;
	if (!f)
		fprintf(stderr, "fixture %s: cannot be read\n", path);
	while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (f)
		fclose(f);
	fclose(m);
	return buf;
}

/* The run of a fixture (unit_loaded), or NULL. */
static inline const struct rep_run *fixture_run(struct rep_set *set, const char *path)
{
	char err[512];

	return unit_loaded(set, rep_load(set, path, err, sizeof(err)), path, err);
}

/* A built table (rc 0) kept to the view of writer w. */
static inline int view(int rc, struct rep_table *t, const struct rep_writer *w)
{
	if (!rc)
		rep_table_view(t, w->view);
	return rc;
}

/* The text writer w shows for a cell (the last few stay valid), or NULL
 * outside the table. */
static inline const char *cell(const struct rep_table *t, const struct rep_writer *w,
			       size_t row, size_t col)
{
	static char buf[8][REP_CELL_BUF];
	static unsigned next;
	const struct rep_cell *c = rep_table_cell(t, row, col);
	if (!c)
		return NULL;
	return rep_cell_text(w, c, buf[next++ % 8], sizeof(buf[0]));
}

static inline const char *head(const struct rep_table *t, size_t col)
{
	return col < t->ncols ? t->col[col].head : NULL;
}

/* Load records from a string; returns rc, err gets the message. */
static inline int load_text(struct rep_set *set, const char *text, char *err, size_t errlen)
{
	return unit_load_records(set, text, "mem.jsonl", err, errlen);
}

/* Render a whole report into a string (caller frees). */
static inline char *render(const struct rep_run *r, const struct rep_writer *w)
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

/* The charts of run r as the HTML page has them (caller frees). */
static inline char *chart_text(const struct rep_run *r)
{
	char *html = NULL;
	size_t len = 0;
	FILE *h = open_memstream(&html, &len);

	if (!h)
		return NULL;
	CHECK(chart_html(h, &r, NULL, 1, NULL, NULL) == 0);
	fclose(h);
	return html;
}

/* The charts of run r: with gnuplot the page holds the figure of the
 * chart named (its <figure> tag); without it the same script runs,
 * checked (chart_text). */
static inline void chart_check(const struct rep_run *r, const char *chart)
{
	char *html = chart_text(r), figure[160];

	snprintf(figure, sizeof(figure),
		 "<figure class=\"chart\" id=\"chart-%s\" data-chart=\"%s\">", chart, chart);
	if (system("command -v gnuplot >/dev/null 2>&1") == 0)
		CHECK_CONTAINS(html, figure);
	free(html);
}

#endif

/* test_report_kinds.c: a report shows what the run holds (report/measures.h)
 * for each kind of run of fixtures.h: a sustained write, a power-cut
 * campaign, a file server with and without small-file phases, a smoke-like
 * run without layout records, a run that should have had phase records
 * and has none. For each: the config line's settings, the sections and
 * HTML charts left out without a word (one line at the end names what the
 * run does not measure), the "none" lines kept where the run should have
 * had the data, and the verdict (or the line that there is none) first on
 * the HTML page. The charts are drawn by a stand-in for gnuplot that writes
 * an empty picture per chart. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/measures.h"
#include "report/output.h"
#include "report/writers/chart.h"
#include "fixtures.h"
#include "records.h"
#include "unit.h"

static const struct rep_writer *HTML;

/* Every chart of a page in its order: "drawn" gets the ids of the figures,
 * "absent" those said to be absent, space-separated. */
static void charts_of(const char *page, char *drawn, char *absent, size_t len)
{
	drawn[0] = absent[0] = '\0';
	for (const char *p = page; p && (p = strstr(p, " data-chart=\"")); ) {
		const char *tag = p;
		while (tag > page && *tag != '<')
			tag--;
		p += strlen(" data-chart=\"");
		size_t n = strcspn(p, "\"");
		char *to = strncmp(tag, "<figure", 7) == 0 ? drawn : absent;
		size_t o = strlen(to);
		snprintf(to + o, len - o, "%s%.*s", o ? " " : "", (int)n, p);
		p += n;
	}
}

/* The report of r in writer w, v its verdict (or NULL). */
static char *report(const struct rep_run *r, const struct rep_writer *w, const struct vd_result *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	CHECK(rep_print_checks(m, r, w, v) == 0);
	fclose(m);
	return buf;
}

/* Does s end with the line? */
static int ends_with_line(const char *s, const char *line)
{
	size_t n = s ? strlen(s) : 0, k = strlen(line);

	return n > k + 1 && s[n - 1] == '\n' && s[n - k - 2] == '\n' &&
	       strncmp(s + n - k - 1, line, k) == 0;
}

/* What a reader and a browser get of one kind of run. */
struct want {
	const char *config;	/* the config line, whole */
	const char *unmeasured;	/* the report's last line */
	const char *drawn, *absent;	/* the HTML charts */
	const char *sections;	/* "## " headings that must be there, '|'-separated */
	const char *not_there;	/* text that must not be there, '|'-separated */
};

static void each(const char *list, const char *s, int there, const char *what)
{
	char item[200];

	for (const char *p = list; p && *p; ) {
		size_t n = strcspn(p, "|");
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		if (there != (s && strstr(s, item) != NULL)) {
			CHECK(!"each");
			fprintf(stderr, "  %s: \"%s\" %s\n", what, item, there ? "missing" : "there");
		} else {
			CHECK(1);
		}
		p += n + (p[n] == '|');
	}
}

static void check_run(const char *what, const struct rep_run *r, const struct want *w)
{
	char line[1200], drawn[300], absent[300];
	int failed = unit_fail;

	char *md = report(r, MD, NULL);
	snprintf(line, sizeof(line), "- config: %s\n", w->config);
	CHECK_CONTAINS(md, line);
	CHECK(ends_with_line(md, w->unmeasured));
	each(w->sections, md, 1, "Markdown");
	each(w->not_there, md, 0, "Markdown");
	free(md);

	char *page = report(r, HTML, NULL);
	charts_of(page, drawn, absent, sizeof(drawn));
	CHECK_STR(drawn, w->drawn);
	CHECK_STR(absent, w->absent);
	each(w->not_there, page, 0, "HTML");
	/* no verdict: the line that says so, first */
	const char *nov = page ? strstr(page, "<p class=\"noverdict\" id=\"no-verdict\">No verdict: "
					     "no criteria given (fsbench report RUN --criteria FILE).</p>") : NULL;
	CHECK(nov != NULL);
	CHECK(page && nov && nov == strstr(page, "</h1>\n") + strlen("</h1>\n"));
	CHECK(page && !strstr(page, "class=\"verdict"));
	free(page);
	if (unit_fail > failed)
		fprintf(stderr, "  (the report of %s)\n", what);
}

/* The charts of every page are drawn by this stand-in: an empty picture
 * for each chart of the script. */
static void stand_in_gnuplot(void)
{
	char dir[PATH_MAX], gp[PATH_MAX + 32];
	FILE *g = fopen("gnuplot-kinds", "w");

	CHECK(g != NULL);
	if (!g)
		return;
	fputs("#!/bin/sh\nsed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\" | while read -r f; do\n"
	      "  echo '<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>' >\"$f\"; done\n", g);
	fclose(g);
	chmod("gnuplot-kinds", 0755);
	snprintf(gp, sizeof(gp), "%s/gnuplot-kinds", getcwd(dir, sizeof(dir)) ? dir : ".");
	setenv(CHART_GNUPLOT_ENV, gp, 1);
}

static const struct rep_run *load(struct rep_set *set, const char *path)
{
	char err[512];

	memset(set, 0, sizeof(*set));
	CHECK(rep_load(set, path, err, sizeof(err)) == 0);
	return set->nruns ? rep_find(set, NULL) : NULL;
}

/* A sustained write: its settings, its chart, nothing of small files. */
static void test_sustain(void)
{
	struct rep_set set;
	const struct rep_run *r = load(&set, path_sustain);
	static const struct want w = {
		.config = "profile sustain; fs ext4; sustain=raw, sustain_seconds=14, sustain_share=50, "
			  "sustain_base=3, sustain_hold=3, sustain_rise=5",
		.unmeasured = "Not in this run: small-file phases, fio workloads, fill test, power cuts, "
			      "file server.",
		.drawn = "sustain", .absent = "",
		.sections = "## Speed that holds",
		.not_there = "No phase records|dirs x|## Summary|none: no phase records|"
			     "Seconds per phase|powercut=|fileserver=|fio_runtime=",
	};

	if (r)
		check_run("sustain", r, &w);
	/* as data, the tables a program finds stay the same */
	char *csv = r ? report(r, CSV, NULL) : NULL;
	CHECK_CONTAINS(csv, "\nsummary,phase\n");
	CHECK(csv && !strstr(csv, "Not in this run"));
	free(csv);
	rep_free(&set);
}

/* The first from in s replaced by to, no longer than from. */
static void replace(char *s, const char *from, const char *to)
{
	char *at = s ? strstr(s, from) : NULL;

	CHECK(at != NULL && strlen(to) <= strlen(from));
	if (!at || strlen(to) > strlen(from))
		return;
	memcpy(at, to, strlen(to));
	memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
}

/* The file server with the small-file rounds before and after its aging
 * (layout = 0: no layout chart and no line about it), then as the profile
 * fileserver runs it: no small-file phases. */
static void test_fileserver(void)
{
	struct rep_set set;
	const struct rep_run *r = load(&set, path_fileserver);
	static const struct want both = {
		.config = "profile fileserver-aged; fs ext4,xfs,btrfs; 4 dirs x 500 files x 4096 bytes; "
			  "4 workers; 1 round; fileserver=1, fileserver_aged=1, fileserver_files=200, "
			  "fileserver_dirwidth=20, fileserver_size=131072, fileserver_workers=4, "
			  "fileserver_iosize=1048576, fileserver_append=16384, fileserver_seconds=3, "
			  "fileserver_seed=1",
		.unmeasured = "Not in this run: layout, fio workloads, fill test, power cuts, "
			      "sustained writes.",
		.drawn = "seconds latency rounds fileserver", .absent = "",
		.sections = "## Summary|## Rounds|## File server",
		.not_there = "No phase records|Layout of d0000|sustain=",
	};
	static const struct want alone = {
		.config = "profile fileserver; fs ext4,xfs,btrfs; fileserver=1, fileserver_aged=1, "
			  "fileserver_files=200, fileserver_dirwidth=20, fileserver_size=131072, "
			  "fileserver_workers=4, fileserver_iosize=1048576, fileserver_append=16384, "
			  "fileserver_seconds=3, fileserver_seed=1",
		.unmeasured = "Not in this run: small-file phases, fio workloads, fill test, power cuts, "
			      "sustained writes.",
		.drawn = "fileserver", .absent = "",
		.sections = "## File server",
		.not_there = "No phase records|dirs x|## Summary|none: no phase records",
	};

	if (r)
		check_run("fileserver-aged with small files", r, &both);
	rep_free(&set);

	/* the same records without the phases, as the profile runs them */
	char *text = fixture_text(path_fileserver), *o = text, *line, err[512];
	for (char *p = text; p && *p; p = line) {
		line = strchr(p, '\n');
		line = line ? line + 1 : p + strlen(p);
		if (strstr(p, "\"type\":\"phase\"") && strstr(p, "\"type\":\"phase\"") < line)
			continue;
		memmove(o, p, (size_t)(line - p));
		o += line - p;
	}
	if (o)
		*o = '\0';
	replace(text, "\"smallfile\":1", "\"smallfile\":0");
	replace(text, "\"profile\":\"fileserver-aged\"", "\"profile\":\"fileserver\"");
	CHECK(text && load_text(&set, text, err, sizeof(err)) == 0);
	r = set.nruns ? rep_find(&set, NULL) : NULL;
	CHECK(r && !r->nph && r->nfsv == 6);
	if (r)
		check_run("fileserver", r, &alone);
	rep_free(&set);
	free(text);
}

/* Runs of one kind each, and what the report of each shows. */
static void test_kinds(void)
{
	static const struct {
		const char *what, *path;
		struct want w;
	} kinds[] = {
		/* a power-cut campaign */
		{ "powercut", path_powercut, {
			.config = "profile powercut; fs ext4,xfs; powercut=2, powercut_window=10, "
				  "powercut_seed=305441741, powercut_workers=4, powercut_batch=100, powercut_files=32",
			.unmeasured = "Not in this run: small-file phases, fio workloads, fill test, "
				      "sustained writes, file server.",
			.drawn = "powercut", .absent = "",
			.sections = "## Power cuts",
			.not_there = "No phase records|dirs x|## Summary|none: no phase records|sustain=",
		} },
		/* small-file rounds without layout records (an older runner, or no
		 * FIEMAP): the layout chart still says it has none. */
		{ "small files, no layout records", path_run, {
			.config = "profile seed; fs ext4,xfs,f2fs; 16 dirs x 20000 files x 4096 bytes; "
				  "16 workers; 3 rounds",
			.unmeasured = "Not in this run: fio workloads, fill test, power cuts, sustained writes, "
				      "file server.",
			.drawn = "seconds latency rounds", .absent = "layout",
			.sections = "## Summary|## Rounds|## Latency",
			.not_there = "No phase records|sustain=",
		} },
		/* a run of the small-file rounds that holds no phase record: that is
		 * evidence, every "none" line stays. */
		{ "small files without phase records", path_nophase, {
			.config = "profile seed; fs xfs; 16 dirs x 20000 files x 4096 bytes; 16 workers; 3 rounds",
			.unmeasured = "Not in this run: fio workloads, fill test, power cuts, sustained writes, "
				      "file server.",
			.drawn = "", .absent = "seconds latency layout rounds",
			.sections = "No phase records in this run.",
			.not_there = "sustain=",
		} },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct rep_set set;
		const struct rep_run *r = load(&set, kinds[i].path);

		if (r)
			check_run(kinds[i].what, r, &kinds[i].w);
		rep_free(&set);
	}
}

/* The rule from records and settings, one run_start each (and records). */
static void test_rule(void)
{
	static const struct {
		const char *config, *records;
		unsigned want;	/* bit m: measures m */
	} cases[] = {
		/* an older runner's config: what the records hold */
		{ "\"fs\":\"ext4\"", "", 1u << REP_M_SMALLFILE | 1u << REP_M_LAYOUT },
		{ "\"fs\":\"ext4\"", "{\"type\":\"fio\",\"fs\":\"ext4\",\"workload\":\"oltp\"}", 1u << REP_M_FIO },
		/* the settings where no record says: what should be there */
		{ "\"smallfile\":1,\"layout\":0,\"sustain\":\"both\"", "",
		  1u << REP_M_SMALLFILE | 1u << REP_M_SUSTAIN },
		{ "\"smallfile\":0,\"fio\":\"oltp,web\",\"fill\":1", "", 1u << REP_M_FIO | 1u << REP_M_FILL },
		/* a campaign runs alone, whatever smallfile says */
		{ "\"smallfile\":1,\"powercut\":3", "", 1u << REP_M_POWERCUT },
		{ "\"smallfile\":0,\"sustain\":\"off\",\"fileserver\":1", "", 1u << REP_M_FILESERVER },
	};
	char text[1024], err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rep_set set;
		int n = snprintf(text, sizeof(text), "{\"type\":\"run_start\",\"run_id\":\"00000000000000e%zx\","
				 "\"config\":{%s}}\n", i, cases[i].config);
		if (*cases[i].records)	/* the record's run_id after its type */
			snprintf(text + n, sizeof(text) - (size_t)n, "{\"run_id\":\"00000000000000e%zx\",%s\n",
				 i, cases[i].records + 1);
		int rc = load_text(&set, text, err, sizeof(err));
		if (rc)
			fprintf(stderr, "case %zu: %s\n", i, err);
		CHECK(rc == 0 && set.nruns == 1);
		unsigned got = 0;
		for (int m = REP_M_ANY + 1; set.nruns && m < REP_M_N; m++)
			got |= (unsigned)rep_measures(set.runs[0], (enum rep_measure)m) << m;
		if (got != cases[i].want)
			fprintf(stderr, "case %zu: measures 0x%x, want 0x%x\n", i, got, cases[i].want);
		CHECK_EQ_U(got, cases[i].want);
		rep_free(&set);
	}
	/* a run that should have phase records says so */
	struct rep_set set;
	CHECK(load_text(&set, "{\"type\":\"run_start\",\"run_id\":\"00000000000000f1\","
			"\"config\":{\"profile\":\"x\",\"smallfile\":1,\"sustain\":\"raw\"}}\n", err,
			sizeof(err)) == 0);
	char *md = set.nruns ? report(set.runs[0], MD, NULL) : NULL;
	CHECK_CONTAINS(md, "No phase records in this run.\n");
	CHECK_CONTAINS(md, "; sustain=raw\n");
	free(md);
	rep_free(&set);
}

/* With a verdict, its box is first, before the charts. */
static void test_verdict_first(void)
{
	struct rep_set set;
	struct vd_criteria c;
	struct vd_result res;
	char err[256];
	const struct rep_run *r = load(&set, path_sustain);

	if (!r)
		return;
	vd_criteria_init(&c, "ext4", "create", "read");
	CHECK(vd_criteria_add(&c, "sustain_level", "30", "t:1", err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	char *page = report(r, HTML, &res);
	const char *box = page ? strstr(page, "<div class=\"verdict fail\" id=\"verdict\">") : NULL;
	CHECK(box && box == strstr(page, "</h1>\n") + strlen("</h1>\n"));
	CHECK(page && !strstr(page, "No verdict"));
	char drawn[300], absent[300];
	charts_of(page, drawn, absent, sizeof(drawn));
	CHECK_STR(drawn, "verdict sustain");
	free(page);
	vd_result_free(&res);
	vd_criteria_free(&c);
	rep_free(&set);
}

int main(int argc, char **argv)
{
	(void)argc;
	if (fixtures_init(argv[0]) || !(HTML = rep_writer_find("html")))
		return 1;
	stand_in_gnuplot();
	test_sustain();
	test_kinds();
	test_fileserver();
	test_rule();
	test_verdict_first();
	return unit_done(argv[0]);
}

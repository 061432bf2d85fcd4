/* output.c: the report as a list of sections and the writers that print
 * it (see output.h). */
#include "report/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/measures.h"
#include "report/writers/chart.h"
#include "report/sections/workloads.h"
#include "report/sections/variants.h"
#include "report/sections/repetitions.h"
#include "report/sections/fragmentation.h"
#include "report/sections/packing.h"
#include "report/sections/cuts.h"
#include "report/sections/honesty.h"
#include "report/sections/sustained.h"
#include "report/sections/served.h"
#include "report/sections/trim.h"
#include "report/sections/zoned.h"

const struct rep_writer rep_writers[] = {
	{ .name = "md", .alias = "markdown", .about = "Markdown, the default",
	  .view = REP_VIEW_READ, .begin = md_begin, .table = md_table, .cell = md_cell },
	{ .name = "csv", .view = REP_VIEW_DATA,
	  .begin = csv_begin, .table = csv_table, .cell = csv_cell },
	{ .name = "html", .about = "one HTML page with charts", .view = REP_VIEW_READ,
	  .begin = html_begin, .table = html_table, .cell = md_cell,
	  .figures = chart_html, .end = html_end },
	{ .name = "junit", .about = "JUnit XML, for CI", .doc = junit_doc },
	{ .name = "ktap", .about = "KTAP version 1, for kernel CI", .doc = ktap_doc },
	{ .name = NULL },
};

const struct rep_writer *rep_writer_find(const char *name)
{
	for (const struct rep_writer *w = rep_writers; w->name; w++)
		if (strcmp(name, w->name) == 0 || (w->alias && strcmp(name, w->alias) == 0))
			return w;
	return NULL;
}

void rep_writer_names(char *buf, size_t len, const char *sep, const char *last, int flags)
{
	const struct rep_writer *list[16];
	size_t n = 0, count = 0;
	int about = flags & REP_NAMES_ABOUT;

	for (const struct rep_writer *w = rep_writers; w->name && count < 16; w++)
		if (!(flags & REP_NAMES_TABLES) || !w->doc)
			list[count++] = w;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < count && n < len; i++) {
		const struct rep_writer *w = list[i];
		int k = snprintf(buf + n, len - n, "%s%s%s%s%s", i == 0 ? "" :
				 i + 1 == count ? last : sep, w->name,
				 about && w->about ? " (" : "", about && w->about ? w->about : "",
				 about && w->about ? ")" : "");
		if (k < 0)
			break;
		n += (size_t)k;
	}
}

const char *rep_cell_text(const struct rep_writer *w, const struct rep_cell *c,
			  char *buf, size_t len)
{
	char num[REP_CELL_BUF];
	const char *s, *tail;

	w->cell(c, num, sizeof(num), &s, &tail);
	snprintf(buf, len, "%s%s", s, tail);
	return buf;
}

/* One section of a run's report. */
struct section {
	const char *name;
	int (*build)(const struct rep_run *r, struct rep_table *t);
	unsigned view;		/* only in this view; 0: in every view */
	int rows;		/* left out when it has no rows */
	enum rep_measure of;	/* what it shows (measures.h): for a reader, left
				 * out of a run that does not measure it (the
				 * `unmeasured` line names it), and one of the
				 * small-file rounds left out of a run without
				 * phase records; as data, an empty table is kept
				 * so a program finds the same tables */
	const char *none;	/* for a reader, this line stands in for a
				 * section of the small-file rounds left out of a
				 * run that measures them but holds no phase record */
	int (*when)(const struct rep_run *r);	/* NULL: always */
	const char *under;	/* for a reader, notes right under the section so
				 * named, shown when they have rows; as data, a
				 * table at this place */
};

static const struct section sections[] = {
	{ .name = "run", .build = rep_table_run },
	{ .name = "summary", .build = rep_table_summary, .of = REP_M_SMALLFILE,
	  .none = "No phase records in this run." },
	{ .name = "reference", .build = rep_table_reference, .view = REP_VIEW_READ,
	  .of = REP_M_SMALLFILE, .when = rep_seed_shaped },
	{ .name = "rate", .build = rep_table_rate, .of = REP_M_SMALLFILE },
	{ .name = "variants", .build = rep_table_variants, .rows = 1, .when = rep_has_variants },
	{ .name = "fs_status", .build = rep_table_fs_status, .under = "summary" },
	{ .name = "warm", .build = rep_table_warm, .view = REP_VIEW_READ,
	  .of = REP_M_SMALLFILE, .under = "summary" },
	{ .name = "rounds", .build = rep_table_rounds, .of = REP_M_SMALLFILE },
	{ .name = "repetitions", .build = rep_table_repetitions, .when = rep_has_reps },
	{ .name = "versus_base", .build = rep_table_versus, .rows = 1, .when = rep_has_reps_variants },
	{ .name = "latency", .build = rep_table_latency, .of = REP_M_SMALLFILE },
	{ .name = "layout", .build = rep_table_layout, .rows = 1, .of = REP_M_LAYOUT },
	{ .name = "layout_findings", .build = rep_table_layout_findings, .view = REP_VIEW_READ,
	  .of = REP_M_LAYOUT, .under = "layout" },
	{ .name = "fio", .build = rep_table_fio, .rows = 1, .of = REP_M_FIO },
	{ .name = "fill", .build = rep_table_fill, .rows = 1, .of = REP_M_FILL },
	{ .name = "freespace", .build = rep_table_freespace, .rows = 1, .of = REP_M_SMALLFILE },
	{ .name = "freespace_findings", .build = rep_table_freespace_findings,
	  .view = REP_VIEW_READ, .of = REP_M_SMALLFILE, .under = "freespace" },
	{ .name = "remedy", .build = rep_table_remedy, .rows = 1, .of = REP_M_SMALLFILE },
	{ .name = "packing", .build = rep_table_packing, .rows = 1, .of = REP_M_SMALLFILE },
	{ .name = "powercut", .build = rep_table_powercut, .rows = 1, .of = REP_M_POWERCUT },
	{ .name = "sustain", .build = rep_table_sustain, .rows = 1, .of = REP_M_SUSTAIN },
	{ .name = "fileserver", .build = rep_table_fileserver, .rows = 1, .of = REP_M_FILESERVER },
	{ .name = "fileserver_ranking", .build = rep_table_fileserver_ranking, .rows = 1,
	  .of = REP_M_FILESERVER, .under = "fileserver" },
	{ .name = "capacity", .build = rep_table_capacity, .rows = 1 },
	{ .name = "trim", .build = rep_table_trim, .rows = 1 },
	{ .name = "zoned", .build = rep_table_zoned, .rows = 1, .when = rep_has_zones },
	{ .name = "health", .build = rep_table_health, .rows = 1 },
	{ .name = "errors", .build = rep_table_errors, .rows = 1 },
	{ .name = "kmsg", .build = rep_table_kmsg, .rows = 1 },
	{ .name = "disks", .build = rep_table_disks, .rows = 1 },
	{ .name = "unmeasured", .build = rep_table_unmeasured, .view = REP_VIEW_READ, .rows = 1 },
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

/* A line of text as a table of one cell. */
static int text_table(struct rep_table *t, const char *name, const char *line)
{
	tab_init(t, name, NULL, SHAPE_TEXT, 1);
	tab_col(t, 0, 0, name, NULL);
	tab_text(t, tab_row(t), 0, "%s", line);
	return tab_done(t);
}

/* figs: the figures' text written after begin (len bytes), or NULL. */
static void write_doc(FILE *out, const struct rep_writer *w, const char *title,
		      const struct rep_table *const *seq, size_t n,
		      const char *figs, size_t len)
{
	w->begin(out, title);
	if (figs)
		fwrite(figs, 1, len, out);
	for (size_t i = 0; i < n; i++)
		w->table(out, seq[i], i ? seq[i - 1] : NULL);
	if (w->end)
		w->end(out);
}

/* The figures of the runs in memory, before anything is printed. Returns 0
 * (*figs NULL for a format without figures), or -ENOMEM. */
static int build_figures(const struct rep_writer *w, const struct rep_run *const *runs,
			 const char *const *labels, size_t n, const struct vd_result *v,
			 const struct chart_cmp *cmp, char **figs, size_t *len)
{
	FILE *f;
	int rc;

	*figs = NULL;
	*len = 0;
	if (!w->figures)
		return 0;
	if (!(f = open_memstream(figs, len)))
		return -ENOMEM;
	rc = w->figures(f, runs, labels, n, v, cmp);
	if (fclose(f) || rc) {
		free(*figs);
		*figs = NULL;
		return -ENOMEM;
	}
	return 0;
}

int rep_print(FILE *out, const struct rep_run *r, const struct rep_writer *w)
{
	return rep_print_checks(out, r, w, NULL);
}

int rep_print_checks(FILE *out, const struct rep_run *r, const struct rep_writer *w,
		     const struct vd_result *v)
{
	struct rep_table t[NSECTIONS + 1];	/* the sections, then the verdict */
	int built[NSECTIONS + 1] = { 0 };
	const struct rep_table *seq[NSECTIONS + 1];
	size_t n = 0;
	int read = w->view == REP_VIEW_READ, rc = 0;

	if (w->doc)
		return w->doc(out, r, v);
	/* build everything first: a failure prints nothing */
	for (size_t i = 0; i < NSECTIONS && !rc; i++) {
		const struct section *s = &sections[i];
		if ((s->view && !(s->view & w->view)) || (s->when && !s->when(r)))
			continue;
		if (read && !rep_measures(r, s->of))
			continue;	/* the `unmeasured` line names it */
		if (read && rep_measure_phases(s->of) && !r->nph) {
			if (!s->none)
				continue;
			rc = text_table(&t[i], s->name, s->none);
		} else {
			rc = s->build(r, &t[i]);
		}
		if (!rc) {
			rep_table_view(&t[i], w->view);
			built[i] = 1;
		}
	}
	if (!rc && v) {	/* the checks of a verdict close the report */
		rc = vd_table(v, &t[NSECTIONS]);
		if (!rc) {
			rep_table_view(&t[NSECTIONS], w->view);
			built[NSECTIONS] = 1;
		}
	}
	for (size_t i = 0; i < NSECTIONS && !rc; i++) {
		if (!built[i] || (sections[i].rows && !t[i].nrows) || (read && sections[i].under))
			continue;
		seq[n++] = &t[i];
		for (size_t j = 0; read && j < NSECTIONS; j++)
			if (built[j] && t[j].nrows && sections[j].under &&
			    strcmp(sections[j].under, sections[i].name) == 0)
				seq[n++] = &t[j];
	}
	if (!rc && built[NSECTIONS])
		seq[n++] = &t[NSECTIONS];
	char *figs = NULL;
	size_t flen = 0;
	const char *label = r->run_id;
	if (!rc)
		rc = build_figures(w, &r, &label, 1, v, NULL, &figs, &flen);
	if (!rc)
		write_doc(out, w, "fsbench report", seq, n, figs, flen);
	free(figs);
	for (size_t i = 0; i <= NSECTIONS; i++)
		if (built[i])
			rep_table_free(&t[i]);
	return rc;
}

int rep_print_compare(FILE *out, const struct rep_cmp_run *runs, size_t n, double tolerance,
		      const struct rep_writer *w, struct rep_cmp_count *count)
{
	struct rep_table t[5];
	const struct rep_table *seq[5];
	size_t nt = 0, ns = 0;
	int rc;

	if (w->doc || n < 2 || n > REP_CMP_MAX)	/* not a format of tables */
		return -EINVAL;
	rc = rep_table_cmp_runs(runs, n, &t[nt]);
	if (!rc && !(rc = rep_table_cmp(runs, n, tolerance, &t[++nt], count)) &&
	    !(rc = rep_table_cmp_conditions(runs, n, tolerance, &t[++nt])) &&
	    !(rc = rep_table_cmp_missing(runs, n, &t[++nt])) &&
	    !(rc = rep_table_cmp_flags(count, n, tolerance, &t[++nt])))
		nt++;
	if (rc) {	/* t[nt] failed and is freed */
		while (nt--)
			rep_table_free(&t[nt]);
		return rc;
	}
	for (size_t i = 0; i < nt; i++) {
		rep_table_view(&t[i], w->view);
		if (t[i].nrows || (strcmp(t[i].name, "missing") && strcmp(t[i].name, "conditions")))
			seq[ns++] = &t[i];
	}
	/* The charts of the runs side by side, each named by its letter as in
	 * the runs table. */
	const struct rep_run *rr[REP_CMP_MAX];
	const char *labels[REP_CMP_MAX];
	static const char letters[] = "A\0B\0C\0D\0E\0F\0G\0H\0I\0J\0K\0L\0M\0"
		"N\0O\0P\0Q\0R\0S\0T\0U\0V\0W\0X\0Y\0Z";
	char *figs = NULL;
	size_t flen = 0;
	for (size_t i = 0; i < n; i++) {
		rr[i] = runs[i].run;
		labels[i] = letters + 2 * i;
	}
	/* with the figures, the ratios of the rows first */
	struct chart_cmp cmp = { .tolerance = tolerance };
	struct rep_cmp_ratio *ratio = NULL;
	rc = w->figures ? rep_cmp_ratios(runs, n, tolerance, &ratio, &cmp.n) : 0;
	cmp.ratio = ratio;
	if (!rc)
		rc = build_figures(w, rr, labels, n, NULL, &cmp, &figs, &flen);
	free(ratio);
	if (!rc)
		write_doc(out, w, "fsbench compare", seq, ns, figs, flen);
	free(figs);
	for (size_t i = 0; i < nt; i++)
		rep_table_free(&t[i]);
	return rc;
}

int rep_print_history(FILE *out, const struct rep_history *h, const struct rep_writer *w)
{
	struct rep_table t;
	const struct rep_table *seq[1] = { &t };
	int rc;

	if (w->doc)	/* not a format of tables */
		return -EINVAL;
	if ((rc = rep_table_history(h, &t)))
		return rc;
	rep_table_view(&t, w->view);
	write_doc(out, w, "fsbench history", seq, 1, NULL, 0);
	rep_table_free(&t);
	return 0;
}

int rep_print_changes(FILE *out, const struct rep_history *h, const struct rep_ediv_opts *o,
		      const struct rep_writer *w, size_t *found)
{
	struct rep_table t[4];
	const struct rep_table *seq[3];
	size_t nt = 3;
	int rc;

	if (w->doc)	/* not a format of tables */
		return -EINVAL;
	if ((rc = rep_table_changes_method(o, &t[0])))
		return rc;
	if ((rc = rep_table_changes(h, o, &t[1], &t[2], found))) {
		rep_table_free(&t[0]);
		return rc;
	}
	/* for a reader, a line stands in for a table of no change point */
	int none = w->view == REP_VIEW_READ && !t[1].nrows;
	if (none && (rc = text_table(&t[3], "changes", "No change point in any series."))) {
		for (size_t i = 0; i < 3; i++)
			rep_table_free(&t[i]);
		return rc;
	}
	nt += none;
	for (size_t i = 0; i < nt; i++)
		rep_table_view(&t[i], w->view);
	seq[0] = &t[0];
	seq[1] = none ? &t[3] : &t[1];
	seq[2] = &t[2];
	write_doc(out, w, "fsbench history --changes", seq, 3, NULL, 0);
	for (size_t i = 0; i < nt; i++)
		rep_table_free(&t[i]);
	return 0;
}

/* writer.h: the output formats of `fsbench report` and `compare`. A
 * format is one row of rep_writers[] (output.c): its name, the view it
 * shows (table.h) and its functions (md.c, csv.c, junit.c, html.c). Only a
 * writer turns a cell's value into characters. */
#ifndef FSB_REPORT_WRITER_H
#define FSB_REPORT_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "report/model.h"
#include "report/table.h"

struct vd_result;	/* report/verdict/criteria.h */
struct rep_cmp_ratio;	/* report/compare/sidebyside.h */

/* A comparison's rows for the ratio chart (compare's HTML figures, chart.h):
 * each later side's ratio of medians with its interval and flag. */
struct chart_cmp {
	const struct rep_cmp_ratio *ratio;
	size_t n;
	double tolerance;	/* a fraction: the band drawn about 1 */
};

struct rep_writer {
	const char *name;	/* --format NAME */
	const char *alias;	/* another name it answers to, or NULL */
	const char *about;	/* what it is, for --help, or NULL */
	unsigned view;		/* REP_VIEW_READ or REP_VIEW_DATA */
	/* The start of a document: "fsbench report", "fsbench compare". */
	void (*begin)(FILE *out, const char *title);
	/* One table, projected to the view; prev is the table before it in the
	 * document, NULL for the first. */
	void (*table)(FILE *out, const struct rep_table *t, const struct rep_table *prev);
	/* The text of a cell: *s, then *tail (often ""). A number is written
	 * into buf (len >= REP_CELL_BUF). */
	void (*cell)(const struct rep_cell *c, char *buf, size_t len,
		     const char **s, const char **tail);
	/* A format that is not a sequence of tables (junit): the whole
	 * report of a run, with the verdict's checks when there are (v may be
	 * NULL). When set, begin, table and cell are not used by report. */
	int (*doc)(FILE *out, const struct rep_run *r, const struct vd_result *v);
	/* Pictures of the runs (html: the charts, chart.h), written after
	 * begin, before the tables; labels[i] names runs[i]; v: the verdict's
	 * checks or NULL; cmp: a comparison's ratios or NULL. Returns 0, or
	 * -ENOMEM. NULL: a format without them. */
	int (*figures)(FILE *out, const struct rep_run *const *runs, const char *const *labels,
		       size_t n, const struct vd_result *v, const struct chart_cmp *cmp);
	/* The end of a document (html: the closing tags), or NULL. */
	void (*end)(FILE *out);
};

#define REP_CELL_BUF 512	/* the longest "%.6f" of a double fits */

/* Every writer; the first is the default. Ends with a row without a name. */
extern const struct rep_writer rep_writers[];
/* The writer by name or alias; NULL when there is none. */
const struct rep_writer *rep_writer_find(const char *name);
/* The writers' names joined: sep between two, last before the last one;
 * with REP_NAMES_ABOUT in flags, each followed by " (about)" when it has
 * one ("md (Markdown, the default) or csv"); with REP_NAMES_TABLES, only
 * the writers of tables (not junit: compare). Cut to len - 1 bytes. */
#define REP_NAMES_ABOUT 1
#define REP_NAMES_TABLES 2
void rep_writer_names(char *buf, size_t len, const char *sep, const char *last, int flags);
/* The text w shows for c, cut to len - 1 bytes; returns buf. */
const char *rep_cell_text(const struct rep_writer *w, const struct rep_cell *c,
			  char *buf, size_t len);

int junit_doc(FILE *out, const struct rep_run *r, const struct vd_result *v);
/* ktap.c: the same tests as KTAP version 1 (the kernel's
 * Documentation/dev-tools/ktap.rst). */
int ktap_doc(FILE *out, const struct rep_run *r, const struct vd_result *v);
/* md.c, csv.c: the rows of rep_writers[]; html shows a cell as md does. */
void md_begin(FILE *out, const char *title);
void md_table(FILE *out, const struct rep_table *t, const struct rep_table *prev);
void md_cell(const struct rep_cell *c, char *buf, size_t len, const char **s, const char **tail);
void csv_begin(FILE *out, const char *title);
void csv_table(FILE *out, const struct rep_table *t, const struct rep_table *prev);
void csv_cell(const struct rep_cell *c, char *buf, size_t len, const char **s, const char **tail);
/* md.c: a cell's text for md_cell, or with data set for csv_cell. */
void rep_cell_format(const struct rep_cell *c, int data, char *buf, size_t len, const char **s,
		     const char **tail);
/* html.c: one self-contained HTML page (well-formed XHTML, inline CSS, no
 * script); its figures are chart.h's. */
void html_begin(FILE *out, const char *title);
void html_table(FILE *out, const struct rep_table *t, const struct rep_table *prev);
void html_end(FILE *out);
/* Text for HTML: & < > " ' as references, control characters as spaces. */
void html_text(FILE *out, const char *s);
/* Text for XML or HTML: & < > " as references, ' as apos, control
 * characters as ctl (NULL s: nothing). */
void markup_text(FILE *out, const char *s, const char *apos, int ctl);

#endif

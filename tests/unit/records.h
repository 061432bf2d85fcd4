/* records.h: records from a string, loaded by the report's loader, for the
 * unit tests of the report, the verdict, the kernel messages and health. */
#ifndef FSB_UNIT_RECORDS_H
#define FSB_UNIT_RECORDS_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/model.h"
#include "report/output.h"
#include "unit.h"

/* Load the JSON lines of text as the file NAME; returns rep_load_stream's
 * result (or -errno), err gets its message. */
static inline int unit_load_records(struct rep_set *set, const char *text, const char *name,
				    char *err, size_t errlen)
{
	memset(set, 0, sizeof(*set));
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f)
		return -errno;
	int rc = rep_load_stream(set, f, name, err, errlen);
	fclose(f);
	return rc;
}

/* The same as mem.jsonl, its message on stderr when the load fails. */
static inline int unit_load_text(struct rep_set *set, const char *text)
{
	char err[512];
	int rc = unit_load_records(set, text, "mem.jsonl", err, sizeof(err));

	if (rc)
		fprintf(stderr, "load: %s\n", err);
	return rc;
}

/* The run of a load of NAME that returned rc with the message err: the
 * load and the run checked, the message on stderr; or NULL. */
static inline const struct rep_run *unit_loaded(struct rep_set *set, int rc, const char *name,
						const char *err)
{
	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "load %s: %s\n", name, err);
	const struct rep_run *r = rep_find(set, NULL);
	CHECK(r != NULL);
	return r;
}

/* The run of text loaded as NAME (unit_loaded), or NULL. */
static inline const struct rep_run *unit_run_text(struct rep_set *set, const char *text,
						  const char *name)
{
	char err[512];

	return unit_loaded(set, unit_load_records(set, text, name, err, sizeof(err)), name, err);
}

/* What the report of run r writes in the format fmt (md, csv, ktap,
 * junit), as a string (caller frees): the whole report, or with checks
 * only its checks (rep_print_checks); either returning 0 is checked. */
static inline char *report_text(const struct rep_run *r, const char *fmt, int checks)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const struct rep_writer *w = rep_writer_find(fmt);

	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK_EQ_U(checks ? rep_print_checks(f, r, w, NULL) : rep_print(f, r, w), 0);
	fclose(f);
	return buf;
}

/* A cell a table must show: its row, its column and its text. */
struct cell_want {
	size_t row, col;
	const char *text;
};

/* Each cell of want in table t as writer w shows it (NULL: the cell's own
 * text, "" when it has none), a check each; CELLS_CHECK(t, w, want). */
static inline void cells_check(const struct rep_table *t, const struct rep_writer *w,
			       const struct cell_want *want, size_t n)
{
	char buf[REP_CELL_BUF];

	for (size_t i = 0; i < n; i++) {
		const struct rep_cell *c = rep_table_cell(t, want[i].row, want[i].col);
		const char *got = w ? (c ? rep_cell_text(w, c, buf, sizeof(buf)) : NULL)
				    : (c && c->text ? c->text : "");
		int failed = unit_fail;

		CHECK_STR(got, want[i].text);
		if (unit_fail != failed)
			fprintf(stderr, "  the cell at row %zu, column %zu\n", want[i].row, want[i].col);
	}
}
#define CELLS_CHECK(t, w, want) cells_check(t, w, want, sizeof(want) / sizeof(want[0]))

#endif

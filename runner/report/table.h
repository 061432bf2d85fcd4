/* table.h: a table of typed cells (table.c). Builders (tables.c, sidebyside.c)
 * put values in cells: a count, seconds, a rate, a percentage, text, a
 * link, or nothing; only a writer (md.c, csv.c, html.c) turns a value into
 * characters.
 *
 * Views: a writer either shows a report to a reader (Markdown) or hands its
 * data to a program (CSV). A row or a column may belong to one view only: a
 * reader gets sentences where a program gets one value per field, and a
 * program gets every filesystem's status where a reader gets only what
 * needs a note. rep_table_view() keeps one view's rows and columns, and
 * the column names of that view; a writer gets only projected tables.
 */
#ifndef FSB_REPORT_TABLE_H
#define FSB_REPORT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REP_VIEW_READ 1u	/* for a reader: Markdown */
#define REP_VIEW_DATA 2u	/* for a program: CSV */
#define REP_VIEW_ALL (REP_VIEW_READ | REP_VIEW_DATA)

/* What a cell holds, and so how a writer shows it. */
enum rep_kind {
	CELL_EMPTY = 0,	/* nothing, in every writer */
	CELL_MISSING,	/* a value that is not there ("-" for a reader) */
	CELL_TEXT,	/* text as is */
	CELL_COUNT,	/* a whole number */
	CELL_NUMBER,	/* a number with .prec decimals in every writer */
	CELL_SECONDS,	/* a duration in seconds */
	CELL_RATE,	/* files per second */
	CELL_RATIO,	/* one figure over another (B/A) */
	CELL_PERCENT,	/* a fraction 0..1, shown as a percentage */
	CELL_USEC,	/* a latency in microseconds */
	CELL_BYTES,	/* a size in bytes */
	CELL_LINK,	/* text that links to .href, a path relative to the
			 * document: a reader follows it (Markdown [text](href),
			 * HTML <a>), a program gets the text (CSV) */
};

struct rep_cell {
	enum rep_kind kind;
	int prec;		/* CELL_NUMBER: decimals */
	int more;		/* CELL_TEXT: a list cut short (a reader sees "...") */
	char *text;		/* CELL_TEXT, CELL_LINK */
	char *href;		/* CELL_LINK: a relative path, not encoded */
	double num;		/* CELL_NUMBER .. CELL_USEC */
	uint64_t count;		/* CELL_COUNT, CELL_BYTES */
};

/* How a table is laid out for a reader (as data it is always rows). */
enum rep_shape {
	SHAPE_GRID = 0,		/* a grid with a heading */
	SHAPE_KV,		/* "key: value" lines */
	SHAPE_NOTES,		/* "cell: cell: cell" lines, empty cells left out */
	SHAPE_TEXT,		/* a paragraph: one line per row */
};

struct rep_col {
	char *head;		/* a reader's name of the column */
	char *key;		/* the data view's name; NULL: the same as head */
	unsigned char right;	/* right-aligned (numbers) */
	unsigned char view;	/* REP_VIEW_*: the views that have the column */
};

struct rep_table {
	const char *name;	/* as data, the first column: summary, rate, rounds, ... */
	const char *title;	/* a reader's heading, or NULL */
	const char *note;	/* a reader's line under the table, or NULL */
	enum rep_shape shape;
	int oom;		/* a cell could not be allocated */
	size_t ncols, nrows, caprows;
	struct rep_col *col;	/* ncols */
	struct rep_cell *cells;	/* nrows * ncols, row-major */
	unsigned char *rview;	/* nrows: the views that have the row */
};

/* The cell at row, col; NULL outside the table. */
const struct rep_cell *rep_table_cell(const struct rep_table *t, size_t row, size_t col);
/* Keep the rows and columns of one view (REP_VIEW_READ or _DATA), with that
 * view's column names. Never fails. */
void rep_table_view(struct rep_table *t, unsigned view);
void rep_table_free(struct rep_table *t);

/* Building a table. Each call after a failed allocation does nothing (t->oom
 * is set); tab_done() then frees the table and returns -ENOMEM. */
int tab_init(struct rep_table *t, const char *name, const char *title,
	     enum rep_shape shape, size_t ncols);
/* tab_init with columns of text, each named as data as for a reader: the
 * names, ended by NULL. */
int tab_init_text(struct rep_table *t, const char *name, const char *title,
		  enum rep_shape shape, ...);
/* Column col: its name for a reader and as data (key NULL: the same). */
void tab_col(struct rep_table *t, size_t col, int right, const char *head, const char *key);
/* Only in view (REP_VIEW_READ or _DATA). */
void tab_col_only(struct rep_table *t, size_t col, unsigned view);
/* A new row in every view, or only in view; its cells start empty. Returns
 * its index. */
size_t tab_row(struct rep_table *t);
size_t tab_row_only(struct rep_table *t, unsigned view);
void tab_text(struct rep_table *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A link: text, and href a path relative to the document (the writers
 * percent-encode it). */
void tab_link(struct rep_table *t, size_t row, size_t col, const char *text, const char *href);
void tab_missing(struct rep_table *t, size_t row, size_t col);
void tab_count(struct rep_table *t, size_t row, size_t col, uint64_t n);
void tab_bytes(struct rep_table *t, size_t row, size_t col, uint64_t n);
/* kind: CELL_SECONDS, _RATE, _RATIO, _PERCENT or _USEC. */
void tab_num(struct rep_table *t, size_t row, size_t col, enum rep_kind kind, double v);
/* tab_num when ok, else a missing cell. */
void tab_num_if(struct rep_table *t, size_t row, size_t col, int ok, enum rep_kind kind, double v);
/* The text s, or a missing cell when s is NULL. */
void tab_str(struct rep_table *t, size_t row, size_t col, const char *s);
void tab_fixed(struct rep_table *t, size_t row, size_t col, double v, int prec);
/* tab_fixed when ok, else a missing cell. */
void tab_fixed_if(struct rep_table *t, size_t row, size_t col, int ok, double v, int prec);
/* Mark a text cell as a list cut short. */
void tab_more(struct rep_table *t, size_t row, size_t col);
int tab_done(struct rep_table *t);

/* "64.0 GiB", "1.5 MiB" or "512 bytes" for a byte count written in digits;
 * any other text as it is (NULL as ""). */
void rep_bytes_text(char *buf, size_t len, const char *digits);

/* The href of a link as a URL path: every byte but A-Z a-z 0-9 - . _ ~ /
 * percent-encoded (so a name with spaces, '&', '"', '<', '#', '?', '%' or
 * a ':' that would read as a scheme stays one relative path), written to
 * out (NULL: nothing written); returns its length. */
size_t rep_href(FILE *out, const char *href);

#endif

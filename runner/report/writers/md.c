/* md.c: the Markdown writer, for a reader (see writer.h). */
#include "report/writers/writer.h"

#include <stdlib.h>
#include <string.h>

/* The text of a cell for a reader, or with data set for a program (csv.c):
 * empty where a reader sees "-", and more digits than a reader needs. */
void rep_cell_format(const struct rep_cell *c, int data, char *buf, size_t len, const char **s,
		     const char **tail)
{
	double v = c->num;
	char digits[24];

	*s = buf;
	*tail = "";
	buf[0] = '\0';
	switch (c->kind) {
	case CELL_EMPTY:
		*s = "";
		break;
	case CELL_MISSING:
		*s = data ? "" : "-";
		break;
	case CELL_TEXT:
	case CELL_LINK:	/* the text; md_table and html_table make a link of it */
		*s = c->text ? c->text : "";
		if (c->kind == CELL_TEXT && c->more && !data)
			*tail = " ...";
		break;
	case CELL_COUNT:
	case CELL_BYTES:
		snprintf(digits, sizeof(digits), "%llu", (unsigned long long)c->count);
		if (c->kind == CELL_BYTES && !data)
			rep_bytes_text(buf, len, digits);
		else
			snprintf(buf, len, "%s", digits);
		break;
	case CELL_NUMBER:
		snprintf(buf, len, "%.*f", c->prec, v);
		break;
	case CELL_SECONDS:	/* for reading: three significant digits or so */
		snprintf(buf, len, data ? "%.6f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
		break;
	case CELL_RATE:
		snprintf(buf, len, data ? "%.1f" : "%.0f", v);
		break;
	case CELL_RATIO:
		snprintf(buf, len, data ? "%.4f" : "%.2f", v);
		break;
	case CELL_PERCENT:
		snprintf(buf, len, data ? "%.3f" : "%.1f", v * 100);
		break;
	case CELL_USEC:
		snprintf(buf, len, data ? "%.3f" : v < 10 ? "%.2f" : v < 1000 ? "%.1f" : "%.0f", v);
		break;
	}
}

void md_cell(const struct rep_cell *c, char *buf, size_t len, const char **s, const char **tail)
{
	rep_cell_format(c, 0, buf, len, s, tail);
}

/* Markdown text of a cell: '|' escaped, control characters as spaces. */
static size_t md_width(const char *s)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xc0) == 0x80)
			continue;	/* UTF-8 continuation byte */
		w += *p == '|' ? 2 : 1;
	}
	return w;
}

static void md_put(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '|')
			fputs("\\|", out);
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', out);
		else
			fputc(*p, out);
	}
}

static int alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* The text of a link: '\\', '[', ']' and what else Markdown reads inside
 * it ('`', '*', '<', '>', '|', and '_' unless between two letters or
 * digits, where it cannot start emphasis: x86_64) backslash-escaped,
 * control characters as spaces. Returns its width; out NULL: nothing
 * written. */
static size_t md_put_label(FILE *out, const char *s)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xc0) == 0x80) {
			if (out)
				fputc(*p, out);
			continue;
		}
		w++;
		if (strchr("\\[]`*<>|", *p) ||
		    (*p == '_' && !(p > (const unsigned char *)s && alnum(p[-1]) && alnum(p[1])))) {
			w++;
			if (out)
				fputc('\\', out);
		}
		if (out)
			fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, out);
	}
	return w;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/* The text of a cell or a column head, and its width. */
struct md_text {
	char buf[REP_CELL_BUF];
	const char *s, *tail;
	const char *href;	/* a link's, or NULL */
	size_t width;
};

static void md_body(const struct rep_table *t, size_t row, size_t col, struct md_text *m)
{
	const struct rep_cell *c = rep_table_cell(t, row, col);
	md_cell(c, m->buf, sizeof(m->buf), &m->s, &m->tail);
	m->href = c->kind == CELL_LINK && c->href ? c->href : NULL;
	if (m->href)	/* [text](href) */
		m->width = md_put_label(NULL, m->s) + rep_href(NULL, m->href) + 4;
	else
		m->width = md_width(m->s) + md_width(m->tail);
}

static void md_head(const struct rep_table *t, size_t col, struct md_text *m)
{
	m->s = t->col[col].head ? t->col[col].head : "";
	m->tail = "";
	m->href = NULL;
	m->width = md_width(m->s);
}

static void md_out(FILE *out, const struct md_text *m)
{
	if (m->href) {
		fputc('[', out);
		md_put_label(out, m->s);
		fputs("](", out);
		rep_href(out, m->href);
		fputc(')', out);
		return;
	}
	md_put(out, m->s);
	md_put(out, m->tail);
}

static void md_grid(FILE *out, const struct rep_table *t)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(*w));
	struct md_text m;

	for (size_t c = 0; w && c < t->ncols; c++) {
		md_head(t, c, &m);
		w[c] = m.width > 3 ? m.width : 3;
		for (size_t r = 0; r < t->nrows; r++) {
			md_body(t, r, c, &m);
			if (m.width > w[c])
				w[c] = m.width;
		}
	}
	/* without memory for the widths the table is printed unaligned */
	for (size_t r = 0; r < t->nrows + 2; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw = w ? w[c] : 3;
			int right = t->col[c].right;
			if (c == 0)
				fputc('|', out);
			if (r == 1) {	/* the rule under the heads */
				for (size_t i = 0; i < cw + (right ? 1 : 2); i++)
					fputc('-', out);
				if (right)
					fputc(':', out);
				fputc('|', out);
				continue;
			}
			if (r == 0)
				md_head(t, c, &m);
			else
				md_body(t, r - 2, c, &m);
			fputc(' ', out);
			if (right && w)
				pad(out, cw - m.width);
			md_out(out, &m);
			if (!right && w)
				pad(out, cw - m.width);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	free(w);
}

/* "- cell: cell" lines; notes leave empty cells out. */
static void md_lines(FILE *out, const struct rep_table *t)
{
	struct md_text m;

	for (size_t r = 0; r < t->nrows; r++) {
		fputs("-", out);
		int first = 1;
		for (size_t c = 0; c < t->ncols; c++) {
			md_body(t, r, c, &m);
			if (!*m.s && !*m.tail && t->shape == SHAPE_NOTES)
				continue;
			fputs(first ? " " : ": ", out);
			md_out(out, &m);
			first = 0;
		}
		fputc('\n', out);
	}
}

void md_begin(FILE *out, const char *title)
{
	fprintf(out, "# %s\n\n", title);
}

/* Tables are apart by a blank line; notes that follow notes go on in the
 * same list. */
void md_table(FILE *out, const struct rep_table *t, const struct rep_table *prev)
{
	struct md_text m;

	if (prev && !(prev->shape == SHAPE_NOTES && t->shape == SHAPE_NOTES))
		fputc('\n', out);
	switch (t->shape) {
	case SHAPE_GRID:
		if (t->title)
			fprintf(out, "## %s\n\n", t->title);
		md_grid(out, t);
		break;
	case SHAPE_KV:
	case SHAPE_NOTES:
		md_lines(out, t);
		break;
	case SHAPE_TEXT:
		for (size_t r = 0; r < t->nrows; r++) {
			for (size_t c = 0; c < t->ncols; c++) {
				md_body(t, r, c, &m);
				md_out(out, &m);
			}
			fputc('\n', out);
		}
		break;
	}
	if (t->note)
		fprintf(out, "\n%s\n", t->note);
}

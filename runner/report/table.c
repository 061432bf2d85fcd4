/* table.c: tables of typed cells, their building and their views (see
 * table.h). */
#include "report/table.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tab_init(struct rep_table *t, const char *name, const char *title,
	     enum rep_shape shape, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->title = title;
	t->shape = shape;
	t->ncols = ncols;
	t->col = calloc(ncols ? ncols : 1, sizeof(*t->col));
	if (!t->col) {
		t->oom = 1;
		return -ENOMEM;
	}
	for (size_t c = 0; c < ncols; c++)
		t->col[c].view = REP_VIEW_ALL;
	return 0;
}

int tab_init_text(struct rep_table *t, const char *name, const char *title,
		  enum rep_shape shape, ...)
{
	va_list ap;
	size_t n = 0;
	int rc;

	va_start(ap, shape);
	while (va_arg(ap, const char *))
		n++;
	va_end(ap);
	rc = tab_init(t, name, title, shape, n);
	va_start(ap, shape);
	for (size_t c = 0; c < n; c++)
		tab_col(t, c, 0, va_arg(ap, const char *), NULL);
	va_end(ap);
	return rc;
}

__attribute__((format(printf, 1, 0)))
static char *vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *dup_or_oom(struct rep_table *t, const char *s)
{
	char *d = strdup(s);
	if (!d)
		t->oom = 1;
	return d;
}

void tab_col(struct rep_table *t, size_t col, int right, const char *head, const char *key)
{
	if (t->oom || col >= t->ncols)
		return;
	struct rep_col *c = &t->col[col];
	free(c->head);
	free(c->key);
	c->head = dup_or_oom(t, head);
	c->key = key ? dup_or_oom(t, key) : NULL;
	c->right = (unsigned char)(right != 0);
}

void tab_col_only(struct rep_table *t, size_t col, unsigned view)
{
	if (!t->oom && col < t->ncols)
		t->col[col].view = (unsigned char)view;
}

size_t tab_row_only(struct rep_table *t, unsigned view)
{
	if (t->oom)
		return 0;
	if (t->nrows == t->caprows) {
		size_t nc = t->caprows ? t->caprows * 2 : 16;
		size_t per = t->ncols ? t->ncols : 1;
		if (nc > SIZE_MAX / sizeof(struct rep_cell) / per) {
			t->oom = 1;
			return 0;
		}
		struct rep_cell *c = realloc(t->cells, nc * per * sizeof(*c));
		if (!c) {
			t->oom = 1;
			return 0;
		}
		t->cells = c;
		unsigned char *v = realloc(t->rview, nc);
		if (!v) {
			t->oom = 1;
			return 0;
		}
		t->rview = v;
		t->caprows = nc;
	}
	memset(t->cells + t->nrows * t->ncols, 0, t->ncols * sizeof(*t->cells));
	t->rview[t->nrows] = (unsigned char)view;
	return t->nrows++;
}

size_t tab_row(struct rep_table *t)
{
	return tab_row_only(t, REP_VIEW_ALL);
}

/* The cell to set, emptied; NULL after a failure or out of the table. */
static struct rep_cell *slot(struct rep_table *t, size_t row, size_t col)
{
	if (t->oom || row >= t->nrows || col >= t->ncols)
		return NULL;
	struct rep_cell *c = &t->cells[row * t->ncols + col];
	free(c->text);
	free(c->href);
	memset(c, 0, sizeof(*c));
	return c;
}

void tab_text(struct rep_table *t, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;
	struct rep_cell *c = slot(t, row, col);
	if (!c)
		return;
	c->kind = CELL_TEXT;
	va_start(ap, fmt);
	c->text = vfmt(fmt, ap);
	va_end(ap);
	if (!c->text) {
		c->kind = CELL_EMPTY;
		t->oom = 1;
	}
}

void tab_link(struct rep_table *t, size_t row, size_t col, const char *text, const char *href)
{
	struct rep_cell *c = slot(t, row, col);
	if (!c)
		return;
	c->kind = CELL_LINK;
	c->text = strdup(text);
	c->href = strdup(href);
	if (!c->text || !c->href) {
		free(c->text);
		free(c->href);
		memset(c, 0, sizeof(*c));
		t->oom = 1;
	}
}

void tab_missing(struct rep_table *t, size_t row, size_t col)
{
	struct rep_cell *c = slot(t, row, col);
	if (c)
		c->kind = CELL_MISSING;
}

void tab_count(struct rep_table *t, size_t row, size_t col, uint64_t n)
{
	struct rep_cell *c = slot(t, row, col);
	if (c) {
		c->kind = CELL_COUNT;
		c->count = n;
	}
}

void tab_bytes(struct rep_table *t, size_t row, size_t col, uint64_t n)
{
	struct rep_cell *c = slot(t, row, col);
	if (c) {
		c->kind = CELL_BYTES;
		c->count = n;
	}
}

void tab_num(struct rep_table *t, size_t row, size_t col, enum rep_kind kind, double v)
{
	struct rep_cell *c = slot(t, row, col);
	if (c) {
		c->kind = kind;
		c->num = v;
	}
}

void tab_num_if(struct rep_table *t, size_t row, size_t col, int ok, enum rep_kind kind, double v)
{
	if (ok)
		tab_num(t, row, col, kind, v);
	else
		tab_missing(t, row, col);
}

void tab_str(struct rep_table *t, size_t row, size_t col, const char *s)
{
	if (s)
		tab_text(t, row, col, "%s", s);
	else
		tab_missing(t, row, col);
}

void tab_fixed_if(struct rep_table *t, size_t row, size_t col, int ok, double v, int prec)
{
	if (ok)
		tab_fixed(t, row, col, v, prec);
	else
		tab_missing(t, row, col);
}

void tab_fixed(struct rep_table *t, size_t row, size_t col, double v, int prec)
{
	struct rep_cell *c = slot(t, row, col);
	if (c) {
		c->kind = CELL_NUMBER;
		c->num = v;
		c->prec = prec;
	}
}

void tab_more(struct rep_table *t, size_t row, size_t col)
{
	if (!t->oom && row < t->nrows && col < t->ncols)
		t->cells[row * t->ncols + col].more = 1;
}

const struct rep_cell *rep_table_cell(const struct rep_table *t, size_t row, size_t col)
{
	if (row >= t->nrows || col >= t->ncols)
		return NULL;
	return &t->cells[row * t->ncols + col];
}

void rep_table_view(struct rep_table *t, unsigned view)
{
	size_t dst = 0, nrows = 0, ncols = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		int keep = (t->rview[r] & view) != 0;
		for (size_t c = 0; c < t->ncols; c++) {
			struct rep_cell *src = &t->cells[r * t->ncols + c];
			if (keep && (t->col[c].view & view))
				t->cells[dst++] = *src;
			else {
				free(src->text);
				free(src->href);
			}
		}
		if (keep)
			t->rview[nrows++] = (unsigned char)view;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		struct rep_col col = t->col[c];
		if (!(col.view & view)) {
			free(col.head);
			free(col.key);
			continue;
		}
		if (view == REP_VIEW_DATA && col.key) {
			free(col.head);
			col.head = col.key;
		} else {
			free(col.key);
		}
		col.key = NULL;
		col.view = (unsigned char)view;
		t->col[ncols++] = col;
	}
	t->nrows = nrows;
	t->ncols = ncols;
}

void rep_table_free(struct rep_table *t)
{
	if (t->col)
		for (size_t c = 0; c < t->ncols; c++) {
			free(t->col[c].head);
			free(t->col[c].key);
		}
	if (t->cells)
		for (size_t i = 0; i < t->nrows * t->ncols; i++) {
			free(t->cells[i].text);
			free(t->cells[i].href);
		}
	free(t->col);
	free(t->cells);
	free(t->rview);
	memset(t, 0, sizeof(*t));
}

int tab_done(struct rep_table *t)
{
	if (t->oom) {
		rep_table_free(t);
		return -ENOMEM;
	}
	return 0;
}

static int all_digits(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

void rep_bytes_text(char *buf, size_t len, const char *text)
{
	if (!all_digits(text)) {
		snprintf(buf, len, "%s", text ? text : "");
		return;
	}
	double b = strtod(text, NULL);
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%s bytes", text);
}

size_t rep_href(FILE *out, const char *href)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)href; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			if (out)
				fputc(*p, out);
			n++;
		} else {
			if (out)
				fprintf(out, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
			n += 3;
		}
	}
	return n;
}

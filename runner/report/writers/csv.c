/* csv.c: the CSV writer, data for a program (see writer.h). Every line
 * starts with the name of its table; a blank line ends a table. */
#include "report/writers/writer.h"

#include <string.h>

void csv_cell(const struct rep_cell *c, char *buf, size_t len, const char **s, const char **tail)
{
	double v = c->num;

	*s = buf;
	*tail = "";
	buf[0] = '\0';
	switch (c->kind) {
	case CELL_EMPTY:
	case CELL_MISSING:
		*s = "";
		break;
	case CELL_TEXT:
	case CELL_LINK:	/* the text: the value; the href is a reader's way to it */
		*s = c->text ? c->text : "";
		break;
	case CELL_COUNT:
	case CELL_BYTES:
		snprintf(buf, len, "%llu", (unsigned long long)c->count);
		break;
	case CELL_NUMBER:
		snprintf(buf, len, "%.*f", c->prec, v);
		break;
	/* data keeps more digits than a reader needs */
	case CELL_SECONDS:
		snprintf(buf, len, "%.6f", v);
		break;
	case CELL_RATE:
		snprintf(buf, len, "%.1f", v);
		break;
	case CELL_RATIO:
		snprintf(buf, len, "%.4f", v);
		break;
	case CELL_PERCENT:
		snprintf(buf, len, "%.3f", v * 100);
		break;
	case CELL_USEC:
		snprintf(buf, len, "%.3f", v);
		break;
	}
}

static void csv_put(FILE *out, const char *s)
{
	int quote = strpbrk(s, ",\"") != NULL;
	if (quote)
		fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"')
			fputs("\"\"", out);
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', out);
		else
			fputc(*p, out);
	}
	if (quote)
		fputc('"', out);
}

void csv_begin(FILE *out, const char *title)
{
	(void)out;
	(void)title;
}

void csv_table(FILE *out, const struct rep_table *t, const struct rep_table *prev)
{
	char buf[REP_CELL_BUF];
	const char *s, *tail;

	if (prev)
		fputc('\n', out);
	fputs(t->name, out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(',', out);
		csv_put(out, t->col[c].head ? t->col[c].head : "");
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(t->name, out);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(',', out);
			csv_cell(rep_table_cell(t, r, c), buf, sizeof(buf), &s, &tail);
			csv_put(out, s);
		}
		fputc('\n', out);
	}
}

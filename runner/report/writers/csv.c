/* csv.c: the CSV writer, data for a program (see writer.h). Every line
 * starts with the name of its table; a blank line ends a table. */
#include "report/writers/writer.h"

#include <string.h>

void csv_cell(const struct rep_cell *c, char *buf, size_t len, const char **s, const char **tail)
{
	rep_cell_format(c, 1, buf, len, s, tail);
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

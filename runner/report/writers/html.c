/* html.c: the HTML writer, for a reader (see writer.h): one page that
 * opens offline, well-formed XHTML (an XML parser reads it), the style
 * inline and no script. Its charts come from chart.c. */
#include "report/writers/writer.h"

#include <string.h>

void markup_text(FILE *out, const char *s, const char *apos, int ctl)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs(apos, out); break;
		default:
			fputc(*p < 0x20 || *p == 0x7f ? ctl : *p, out);
		}
	}
}

void html_text(FILE *out, const char *s)
{
	markup_text(out, s, "&#39;", ' ');
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:75em;padding:0 1em;"
	"color:#222;background:#fff;line-height:1.4}\n"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em}\n"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.92em}\n"
	"th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}\n"
	"th{background:#f0f0f0}td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tbody tr:nth-child(even){background:#fafafa}\n"
	"ul.kv{padding-left:1.2em}p.note{color:#555;font-size:.92em}\n"
	"figure.chart{margin:1em 0;border:1px solid #ddd;padding:.5em}\n"
	"figure.chart svg{max-width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.92em;color:#444;margin-bottom:.4em}\n"
	"p.nocharts{background:#fff4e0;border:1px solid #e0b060;padding:.5em}\n"
	"div.verdict{padding:.5em .8em;border:2px solid;margin:1em 0}\n"
	"div.pass{border-color:#2a8a2a;background:#eef8ee}div.fail{border-color:#c02020;background:#fbeeee}\n"
	"div.error{border-color:#b07000;background:#fdf5e6}\n"
	"p.noverdict{padding:.5em .8em;border:1px solid #ccc;color:#444}\n";

void html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n<title>", out);
	html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	html_text(out, title);
	fputs("</h1>\n", out);
}

void html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

/* A cell; a link as <a href> (the href percent-encoded, so nothing in it
 * needs a reference). */
static void html_body(FILE *out, const struct rep_table *t, size_t row, size_t col)
{
	char buf[REP_CELL_BUF];
	const char *s, *tail;
	const struct rep_cell *c = rep_table_cell(t, row, col);

	md_cell(c, buf, sizeof(buf), &s, &tail);
	if (c->kind == CELL_LINK && c->href) {
		fputs("<a href=\"", out);
		rep_href(out, c->href);
		fputs("\">", out);
		html_text(out, s);
		fputs("</a>", out);
		return;
	}
	html_text(out, s);
	html_text(out, tail);
}

static void html_grid(FILE *out, const struct rep_table *t)
{
	fputs("<table>\n<thead><tr>", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs(t->col[c].right ? "<th class=\"r\">" : "<th>", out);
		html_text(out, t->col[c].head ? t->col[c].head : "");
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			fputs(t->col[c].right ? "<td class=\"r\">" : "<td>", out);
			html_body(out, t, r, c);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* "cell: cell" items; notes leave empty cells out. */
static void html_lines(FILE *out, const struct rep_table *t)
{
	fputs("<ul class=\"kv\">\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		int first = 1;
		fputs("<li>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			char buf[REP_CELL_BUF];
			const char *s, *tail;
			md_cell(rep_table_cell(t, r, c), buf, sizeof(buf), &s, &tail);
			if (!*s && !*tail && t->shape == SHAPE_NOTES)
				continue;
			if (!first)
				fputs(": ", out);
			html_body(out, t, r, c);
			first = 0;
		}
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

void html_table(FILE *out, const struct rep_table *t, const struct rep_table *prev)
{
	(void)prev;
	fputs("<div class=\"table\" data-table=\"", out);
	html_text(out, t->name ? t->name : "");
	fputs("\">\n", out);
	switch (t->shape) {
	case SHAPE_GRID:
		if (t->title) {
			fputs("<h2>", out);
			html_text(out, t->title);
			fputs("</h2>\n", out);
		}
		html_grid(out, t);
		break;
	case SHAPE_KV:
	case SHAPE_NOTES:
		html_lines(out, t);
		break;
	case SHAPE_TEXT:
		for (size_t r = 0; r < t->nrows; r++) {
			fputs("<p>", out);
			for (size_t c = 0; c < t->ncols; c++)
				html_body(out, t, r, c);
			fputs("</p>\n", out);
		}
		break;
	}
	if (t->note) {
		fputs("<p class=\"note\">", out);
		html_text(out, t->note);
		fputs("</p>\n", out);
	}
	fputs("</div>\n", out);
}

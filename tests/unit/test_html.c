/* test_html.c: the HTML writer (report/writers/html.c): text escaped, tables as
 * markup, a whole page well-formed (every tag closed in order, every '&' a
 * reference), the layout record's block lists read for the picture, and
 * the page without gnuplot. */
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "records.h"
#include "unit.h"

static char *capture_text(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	html_text(m, s);
	fclose(m);
	return buf;
}

static void test_escape(void)
{
	char *s = capture_text("a<b>&\"c'd\x01\x7f\te");
	CHECK_STR(s, "a&lt;b&gt;&amp;&quot;c&#39;d   e");
	free(s);
	s = capture_text("ext4 \xc3\xa9t\xc3\xa9");	/* UTF-8 as it is */
	CHECK_STR(s, "ext4 \xc3\xa9t\xc3\xa9");
	free(s);
	s = capture_text("");
	CHECK_STR(s, "");
	free(s);
}

static void test_table(void)
{
	struct rep_table t;
	char *buf = NULL;
	size_t len = 0;

	CHECK_EQ_U(tab_init(&t, "x", "A <title> & more", SHAPE_GRID, 2), 0);
	tab_col(&t, 0, 0, "fs<", NULL);
	tab_col(&t, 1, 1, "seconds", NULL);
	size_t r = tab_row(&t);
	tab_text(&t, r, 0, "<script>'&'</script>");
	tab_num(&t, r, 1, CELL_SECONDS, 1.5);
	r = tab_row(&t);
	tab_text(&t, r, 0, "a");
	tab_missing(&t, r, 1);
	CHECK_EQ_U(tab_done(&t), 0);
	t.note = "note \"quoted\"";
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	html_table(m, &t, NULL);
	fclose(m);
	CHECK_STR(buf, "<div class=\"table\" data-table=\"x\">\n"
		  "<h2>A &lt;title&gt; &amp; more</h2>\n"
		  "<table>\n<thead><tr><th>fs&lt;</th><th class=\"r\">seconds</th></tr></thead>\n"
		  "<tbody>\n"
		  "<tr><td>&lt;script&gt;&#39;&amp;&#39;&lt;/script&gt;</td><td class=\"r\">1.50</td></tr>\n"
		  "<tr><td>a</td><td class=\"r\">-</td></tr>\n"
		  "</tbody>\n</table>\n"
		  "<p class=\"note\">note &quot;quoted&quot;</p>\n</div>\n");
	free(buf);
	rep_table_free(&t);
}

/* A table through one writer's table function, as text. */
static char *render(void (*table)(FILE *, const struct rep_table *, const struct rep_table *),
		    const struct rep_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	table(m, t, NULL);
	fclose(m);
	return buf;
}

static char *href_text(const char *href)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	size_t n = rep_href(m, href);
	fclose(m);
	CHECK_EQ_U(n, len);	/* the length it says is the length written */
	CHECK_EQ_U(rep_href(NULL, href), len);
	return buf;
}

/* A link cell (table.h CELL_LINK) in each writer: Markdown [text](href),
 * CSV the text, HTML <a href>; the href percent-encoded, the text escaped
 * for each. */
static void test_link(void)
{
	struct rep_table t;
	const char *odd = "a b&\"c<d>|[e]_f*g`h\\i#?%:\x01_x86_64_";
	char *s;

	s = href_text("run 1/report.html");
	CHECK_STR(s, "run%201/report.html");
	free(s);
	s = href_text(odd);
	CHECK_STR(s, "a%20b%26%22c%3Cd%3E%7C%5Be%5D_f%2Ag%60h%5Ci%23%3F%25%3A%01_x86_64_");
	free(s);
	s = href_text("http://x/\xc3\xa9-._~");	/* no scheme, UTF-8 by byte */
	CHECK_STR(s, "http%3A//x/%C3%A9-._~");
	free(s);

	CHECK_EQ_U(tab_init(&t, "runs", NULL, SHAPE_GRID, 2), 0);
	tab_col(&t, 0, 0, "run", NULL);
	tab_col(&t, 1, 1, "s", NULL);
	size_t r = tab_row(&t);
	tab_link(&t, r, 0, odd, "a b&\"c<d>|[e]_f*g`h\\i#?%:\x01_x86_64_/report.html");
	tab_num(&t, r, 1, CELL_SECONDS, 2);
	r = tab_row(&t);
	tab_link(&t, r, 0, "plain", "plain.jsonl");
	tab_missing(&t, r, 1);
	CHECK_EQ_U(tab_done(&t), 0);
	const struct rep_cell *c = rep_table_cell(&t, 1, 0);
	CHECK(c && c->kind == CELL_LINK);

	s = render(md_table, &t);
	CHECK_STR(s, "| run                                                                                                                             |    s |\n"
		  "|---------------------------------------------------------------------------------------------------------------------------------|-----:|\n"
		  "| [a b&\"c\\<d\\>\\|\\[e\\]\\_f\\*g\\`h\\\\i#?%: \\_x86_64\\_]"
		  "(a%20b%26%22c%3Cd%3E%7C%5Be%5D_f%2Ag%60h%5Ci%23%3F%25%3A%01_x86_64_/report.html) | 2.00 |\n"
		  "| [plain](plain.jsonl)                                                                                                            |    - |\n");
	free(s);
	s = render(csv_table, &t);
	CHECK_STR(s, "runs,run,s\n"
		  "runs,\"a b&\"\"c<d>|[e]_f*g`h\\i#?%: _x86_64_\",2.000000\n"
		  "runs,plain,\n");
	free(s);
	s = render(html_table, &t);
	CHECK_STR(s, "<div class=\"table\" data-table=\"runs\">\n"
		  "<table>\n<thead><tr><th>run</th><th class=\"r\">s</th></tr></thead>\n<tbody>\n"
		  "<tr><td><a href=\"a%20b%26%22c%3Cd%3E%7C%5Be%5D_f%2Ag%60h%5Ci%23%3F%25%3A%01_x86_64_/report.html\">"
		  "a b&amp;&quot;c&lt;d&gt;|[e]_f*g`h\\i#?%: _x86_64_</a></td><td class=\"r\">2.00</td></tr>\n"
		  "<tr><td><a href=\"plain.jsonl\">plain</a></td><td class=\"r\">-</td></tr>\n"
		  "</tbody>\n</table>\n</div>\n");
	free(s);
	/* in a list, and a link kept or dropped with its view */
	t.shape = SHAPE_KV;
	s = render(html_table, &t);
	CHECK_CONTAINS(s, "<li><a href=\"plain.jsonl\">plain</a>: -</li>\n");
	free(s);
	s = render(md_table, &t);
	CHECK_CONTAINS(s, "- [plain](plain.jsonl): -\n");
	free(s);
	tab_col_only(&t, 1, REP_VIEW_DATA);
	rep_table_view(&t, REP_VIEW_READ);
	CHECK_EQ_U(t.ncols, 1);
	c = rep_table_cell(&t, 1, 0);
	CHECK(c && c->kind == CELL_LINK && !strcmp(c->href, "plain.jsonl"));
	rep_table_free(&t);
}

/* Well-formed enough for an XML parser: every element closed in order or
 * self-closed, every '&' starting a reference, no '<' inside a tag. Returns
 * NULL or what is wrong. */
static const char *well_formed(const char *s)
{
	static char why[200];
	char stack[64][32];
	int depth = 0;

	for (const char *p = s; *p; p++) {
		if (*p == '&') {
			size_t n = strspn(p + 1, "#abcdefghijklmnopqrstuvwxyz0123456789");
			if (n == 0 || p[1 + n] != ';') {
				snprintf(why, sizeof(why), "a bare '&' at %.20s", p);
				return why;
			}
			continue;
		}
		if (*p != '<')
			continue;
		const char *e = strchr(p, '>');
		if (!e)
			return "a tag without its '>'";
		if (memchr(p + 1, '<', (size_t)(e - p - 1))) {
			snprintf(why, sizeof(why), "a '<' inside a tag at %.30s", p);
			return why;
		}
		if (p[1] == '!' || p[1] == '?') {	/* the doctype, a comment */
			p = e;
			continue;
		}
		int close = p[1] == '/';
		const char *nm = p + 1 + close;
		size_t n = strcspn(nm, " \t\n/>");
		if (n == 0 || n >= 32)
			return "a tag without a name";
		if (close) {
			if (!depth || strncmp(stack[depth - 1], nm, n) || stack[depth - 1][n]) {
				snprintf(why, sizeof(why), "</%.*s> closes <%s>", (int)n, nm,
					 depth ? stack[depth - 1] : "nothing");
				return why;
			}
			depth--;
		} else if (e[-1] != '/') {
			if (depth == 64)
				return "too deep";
			memcpy(stack[depth], nm, n);
			stack[depth++][n] = '\0';
		}
		p = e;
	}
	if (depth) {
		snprintf(why, sizeof(why), "<%s> not closed", stack[depth - 1]);
		return why;
	}
	return NULL;
}

static const char run_text[] =
	"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"00000000000000aa\",\"seq\":0,\"t\":0,"
	"\"host\":{\"hostname\":\"<b>&amp;\\\"host'</b>\"},\"config\":{\"profile\":\"smoke\",\"rounds\":2}}\n"
	"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"00000000000000aa\",\"seq\":1,\"t\":1,\"fs\":\"ext4\","
	"\"round\":1,\"phase\":\"create\",\"seconds\":1.5,\"files\":100,\"bytes\":409600,"
	"\"lat_ns\":{\"p50\":1000,\"p90\":2000,\"p99\":3000,\"p999\":4000,\"max\":5000,\"mean\":1500}}\n"
	"{\"schema\":1,\"type\":\"layout\",\"run_id\":\"00000000000000aa\",\"seq\":2,\"t\":2,\"fs\":\"ext4\","
	"\"round\":1,\"dir\":\"d0000\",\"files\":100,"
	"\"name_order\":{\"steps\":99,\"forward\":1,\"near\":1,\"median_jump_blocks\":1},"
	"\"inode_order\":{\"steps\":99,\"forward\":1,\"near\":1,\"median_jump_blocks\":1},"
	"\"first_blocks\":[10,11],\"name_blocks\":[10,11,12],\"inode_blocks\":[12,10,11]}\n"
	"{\"schema\":1,\"type\":\"error\",\"run_id\":\"00000000000000aa\",\"seq\":3,\"t\":3,\"fs\":\"ext4\","
	"\"round\":1,\"phase\":\"create\",\"op\":\"open\",\"file\":\"d0000/<f>\",\"errno\":5,"
	"\"msg\":\"I/O error & \\\"more\\\"\",\"fatal\":false}\n"
	"{\"schema\":1,\"type\":\"run_end\",\"run_id\":\"00000000000000aa\",\"seq\":4,\"t\":4,"
	"\"status\":\"ok\",\"exit_code\":0,\"seconds\":4}\n";

static void test_page(void)
{
	const struct rep_writer *w = rep_writer_find("html");
	struct rep_set set;
	char err[512], *buf = NULL;
	size_t len = 0;

	CHECK(w && w->begin && w->table && w->figures && w->end && !w->doc);
	if (!w)
		return;
	CHECK_EQ_U(unit_load_records(&set, run_text, "page.jsonl", err, sizeof(err)), 0);
	if (!set.nruns)
		return;
	const struct rep_run *r = set.runs[0];
	/* the picture's block lists, as the layout record has them */
	CHECK_EQ_U(r->nlay, 1);
	if (r->nlay) {
		CHECK_EQ_U(r->lay[0].npic[0], 3);
		CHECK_EQ_U(r->lay[0].npic[1], 3);
		CHECK(r->lay[0].pic[1] && r->lay[0].pic[1][0] == 12);
	}
	/* no gnuplot: the page says why, with every table */
	setenv("FSBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	CHECK_EQ_U(rep_print(m, r, w), 0);
	fclose(m);
	const char *why = well_formed(buf);
	if (why)
		fprintf(stderr, "test_html: %s\n", why);
	CHECK(why == NULL);
	CHECK(strncmp(buf, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"", 58) == 0);
	CHECK_CONTAINS(buf, "No charts: /nonexistent/gnuplot not found (not an executable file)");
	CHECK_CONTAINS(buf, "&lt;b&gt;&amp;amp;&quot;host&#39;&lt;/b&gt;");
	CHECK_CONTAINS(buf, "I/O error &amp; &quot;more&quot;");
	CHECK(strstr(buf, "<svg") == NULL && strstr(buf, "<script") == NULL);
	CHECK(len > 7 && strcmp(buf + len - 8, "</html>\n") == 0);
	free(buf);
	unsetenv("FSBENCH_GNUPLOT");

	/* a bad block list is a malformed record */
	static const char bad[] =
		"{\"schema\":1,\"type\":\"layout\",\"run_id\":\"00000000000000ab\",\"seq\":0,\"t\":0,"
		"\"fs\":\"ext4\",\"round\":1,\"dir\":\"d0000\",\"files\":3,"
		"\"name_order\":{\"steps\":2,\"forward\":1,\"near\":1,\"median_jump_blocks\":1},"
		"\"inode_order\":{\"steps\":2,\"forward\":1,\"near\":1,\"median_jump_blocks\":1},"
		"\"name_blocks\":[1,\"x\"]}\n";
	struct rep_set b;
	CHECK(unit_load_records(&b, bad, "bad.jsonl", err, sizeof(err)) == -EBADMSG);
	CHECK_CONTAINS(err, "\"name_blocks\" must be an array of block numbers");
	rep_free(&b);
	rep_free(&set);
}

UNIT_MAIN(test_escape, test_table, test_link, test_page)

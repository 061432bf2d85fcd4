/* chart_compare.c: a comparison's chart (chart_kit.h): one line per later
 * side's row, its ratio of medians to A's as a point with its 95 %
 * interval as a bar, on a log scale, rows flagged slower in red and faster
 * in green, undecided in orange, the rest grey; 1 and the tolerance's
 * band about it as lines. */
#include <math.h>
#include <stdio.h>

#include "report/compare/sidebyside.h"
#include "report/writers/chart_kit.h"
#include "report/writers/writer.h"

void chart_ratios(struct chk_ctx *x)
{
	const struct chart_cmp *cmp = x->cmp;
	char path[600], label[200], text[200];
	/* the point's column per flag: slower, faster, undecided, the rest */
	enum { SLOW, FAST, UND, REST, NK };
	static const char *const title[NK] = { "slower", "faster", "cannot decide", "not flagged" };
	static const char *const colour[NK] = { "#d62728", "#2ca02c", "#ff7f0e", "#7f7f7f" };

	if (!cmp)
		return;	/* not a comparison: no chart promised */
	struct chk_chart *c = chk_new_chart(x, "ratios", "Ratios to A");
	snprintf(c->caption, sizeof(c->caption), "Each later side's row: the ratio of its median "
		 "to A's (a point; right of 1: slower) with its 95 %% bootstrap interval (the bar), "
		 "on a log scale; the dashed lines are 1 and the tolerance (%.0f %%) about it. "
		 "Coloured by the row's flag (the comparison table's); (ctl): judged relative "
		 "to the control.", cmp->tolerance * 100);
	if (!cmp->n) {
		snprintf(c->absent, sizeof(c->absent), "no row with a value on both sides");
		return;
	}
	FILE *d = chk_data_file(x, path, sizeof(path));
	if (!d)
		return;
	int sides = 0;	/* several later sides: each row named with its side */
	for (size_t i = 1; i < cmp->n; i++)
		sides |= cmp->ratio[i].side != cmp->ratio[0].side;
	double lo = 1 / (1 + cmp->tolerance), hi = 1 + cmp->tolerance;
	for (size_t i = cmp->n; i-- > 0;) {	/* the first row on top */
		const struct rep_cmp_ratio *r = &cmp->ratio[i];
		int k = r->flag == CMP_SLOWER ? SLOW : r->flag == CMP_FASTER ? FAST :
			r->flag == CMP_UNDECIDED ? UND : REST;
		snprintf(text, sizeof(text), "%s%s%s %s%s", sides ? (char[]){ r->side, 0 } : "",
			 sides ? ": " : "", r->fs, rep_row_name(r->row), r->on_ctl ? " (ctl)" : "");
		chk_gp_text(label, sizeof(label), text);
		fprintf(d, "\"%s\"", label);
		for (int j = 0; j < NK; j++)
			chk_fmt_num(d, j == k ? r->ratio : NAN);
		chk_fmt_num(d, isnan(r->lo) ? r->ratio : r->lo);
		chk_fmt_num(d, isnan(r->hi) ? r->ratio : r->hi);
		fputc('\n', d);
		lo = fmin(lo, isnan(r->lo) ? r->ratio : r->lo);
		hi = fmax(hi, isnan(r->hi) ? r->ratio : r->hi);
	}
	chk_data_close(x, d);
	int h = 120 + (int)cmp->n * 22;
	chk_gp_start(x, c, 900, h < 260 ? 260 : h > 2400 ? 2400 : h);
	fprintf(x->gp, "set logscale x\nset xrange [%g:%g]\nset yrange [-0.7:%zu.7]\n"
		"unset grid\nset grid xtics\nset xtics (0.25, 0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2, 3, 4, 8)\n"
		"set xlabel 'ratio to A (log scale)'\n"
		"set ytics font ',9'\nset lmargin 34\nset key outside top center horizontal\n"
		"set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#000000'\n"
		"set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc rgb '#555555'\n"
		"set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc rgb '#555555'\n"
		"plot ", lo / 1.1, hi * 1.1, cmp->n - 1, 1 + cmp->tolerance, 1 + cmp->tolerance,
		1 / (1 + cmp->tolerance), 1 / (1 + cmp->tolerance));
	/* the rows' names from an unseen point at 1, every row has one */
	fprintf(x->gp, "'%s' using (1):0:ytic(1) with points pt -1 ps 0 notitle", path);
	for (int j = 0; j < NK; j++)
		fprintf(x->gp, ", '%s' using %d:0:6:7 with xerrorbars pt 7 ps 0.9 lc rgb '%s' "
			"title '%s'", path, j + 2, colour[j], title[j]);
	fputc('\n', x->gp);
}

/* chart_kit.c: what the HTML page's charts are drawn with (chart_kit.h). */
#include "report/writers/chart_kit.h"

#include <errno.h>
#include <math.h>
#include <string.h>

const char *const chk_colours[CHK_NCOLOURS] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

/* Text inside a gnuplot string (in single quotes) or a quoted data field
 * (in double quotes): quotes, backslashes, '#' (a comment in a data file)
 * and control characters become '_'. */
void chk_gp_text(char *dst, size_t len, const char *s)
{
	size_t o = 0;

	for (; s && *s && o + 1 < len; s++)
		dst[o++] = strchr("\"'\\#", *s) || (unsigned char)*s < 0x20 ? '_' : *s;
	if (len)
		dst[o] = '\0';
}

/* The name of a series: "ext4 fresh", "RUN ext4 fresh" with several runs. */
void chk_series_name(const struct chk_ctx *x, size_t run, const char *fs, const char *what,
		     char *buf, size_t len)
{
	char t[200];

	if (x->n > 1)
		snprintf(t, sizeof(t), "%s %s%s%s", x->labels[run] ? x->labels[run] : "?", fs,
			 *what ? " " : "", what);
	else
		snprintf(t, sizeof(t), "%s%s%s", fs, *what ? " " : "", what);
	chk_gp_text(buf, len, t);
}

/* A new data file: its path in path. */
FILE *chk_data_file(struct chk_ctx *x, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/d%u.dat", x->dir, x->nfiles++);
	if (!(f = fopen(path, "w")))
		x->err = errno ? errno : EIO;
	return f;
}

void chk_data_close(struct chk_ctx *x, FILE *f)
{
	if (f && fclose(f))
		x->err = errno ? errno : EIO;
}

struct chk_chart *chk_new_chart(struct chk_ctx *x, const char *id, const char *name)
{
	struct chk_chart *c = &x->chart[x->ncharts++];

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->name = name;
	snprintf(c->svg, sizeof(c->svg), "%s/%s.svg", x->dir, id);
	return c;
}

/* The start of a chart in the script: a clean state, its size and file. */
void chk_gp_start(struct chk_ctx *x, const struct chk_chart *c, int w, int h)
{
	fprintf(x->gp, "reset\nset terminal svg noenhanced size %d,%d font 'sans,11' "
		"background '#ffffff'\nset output '%s'\nset grid ytics\n"
		"set format y '%%g'\n", w, h, c->svg);
}

void chk_fmt_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.9g", v);
	else
		fputs(" NaN", f);
}

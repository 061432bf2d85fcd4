/* chart.c: the HTML page's charts, drawn by gnuplot (see chart.h). One
 * gnuplot script writes every chart as an SVG file in a temporary folder;
 * the pictures are then copied into the page, their ids made unique. */
#include "report/writers/chart.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/exec.h"
#include "report/measures.h"
#include "report/sections/summary.h"
#include "report/verdict/criteria.h"
#include "report/writers/chart_kit.h"
#include "report/writers/writer.h"

/* ---- the runs' numbers ---- */

static const struct rep_phase *find_phase(const struct rep_run *r, const char *fs,
					  unsigned round, const char *phase)
{
	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].round == round && strcmp(r->ph[i].fs, fs) == 0 &&
		    strcmp(r->ph[i].phase, phase) == 0)
			return &r->ph[i];
	return NULL;
}

/* The last round of fs (0: none). */
static unsigned last_round(const struct rep_run *r, const char *fs)
{
	unsigned last = 0;

	for (size_t i = 0; i < r->nph; i++)
		if (strcmp(r->ph[i].fs, fs) == 0 && r->ph[i].round > last)
			last = r->ph[i].round;
	return last;
}

/* Fresh: round 1's seconds; aged: the median of rounds 2..N. NaN when none. */
static double seconds_of(const struct rep_run *r, const char *fs, const char *phase, int aged)
{
	double v[64];
	size_t n = 0;

	for (size_t i = 0; i < r->nph && n < 64; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase) || (aged ? p->round < 2 : p->round != 1))
			continue;
		v[n++] = p->seconds;
	}
	return n ? rep_median(v, n) : NAN;
}

static void collect_phases(struct chk_ctx *x)
{
	for (size_t k = 0; k < x->n; k++)
		for (size_t i = 0; i < x->runs[k]->nph; i++) {
			const char *p = x->runs[k]->ph[i].phase;
			size_t j = 0;
			while (j < x->nphase && strcmp(x->phase[j], p))
				j++;
			if (j == x->nphase && x->nphase < CHK_MAX_PHASES)
				x->phase[x->nphase++] = p;
		}
}

/* ---- the charts ---- */

/* Seconds per phase: a bar per filesystem, fresh and aged, clustered by
 * phase. */
static void chart_seconds(struct chk_ctx *x)
{
	struct chk_chart *c = chk_new_chart(x, "seconds", "Seconds per phase");
	char path[600], name[200];
	struct ser { size_t run; const char *fs; int aged; size_t colour; } s[256];
	size_t ns = 0, fsi = 0;

	snprintf(c->caption, sizeof(c->caption), "Seconds per phase and filesystem (lower is "
		 "better): fresh is round 1 on a new mkfs (solid), aged the median of the later "
		 "rounds (light).");
	for (size_t k = 0; k < x->n; k++)
		for (size_t f = 0; f < x->runs[k]->nfs; f++, fsi++)
			for (int aged = 0; aged < 2 && ns < 256; aged++) {
				int any = 0;
				for (size_t p = 0; p < x->nphase && !any; p++)
					any = isfinite(seconds_of(x->runs[k], x->runs[k]->fs[f].name,
								  x->phase[p], aged));
				if (any)
					s[ns++] = (struct ser){ k, x->runs[k]->fs[f].name, aged,
								  fsi % CHK_NCOLOURS };
			}
	if (!ns) {
		snprintf(c->absent, sizeof(c->absent), "no phase records");
		return;
	}
	FILE *d = chk_data_file(x, path, sizeof(path));
	if (!d)
		return;
	fputs("phase", d);
	for (size_t i = 0; i < ns; i++) {
		chk_series_name(x, s[i].run, s[i].fs, s[i].aged ? "aged" : "fresh", name, sizeof(name));
		fprintf(d, " \"%s\"", name);
	}
	fputc('\n', d);
	for (size_t p = 0; p < x->nphase; p++) {
		chk_gp_text(name, sizeof(name), x->phase[p]);
		fprintf(d, "\"%s\"", name);
		for (size_t i = 0; i < ns; i++)
			chk_fmt_num(d, seconds_of(x->runs[s[i].run], s[i].fs, x->phase[p], s[i].aged));
		fputc('\n', d);
	}
	chk_data_close(x, d);
	int w = 360 + (int)(x->nphase * ns) * 16;
	chk_gp_start(x, c, w < 720 ? 720 : w > 1600 ? 1600 : w, 420);
	fprintf(x->gp, "set style data histograms\nset style histogram clustered gap 1\n"
		"set boxwidth 0.9\nset yrange [0:*]\nset ylabel 'seconds'\n"
		"set key outside right top vertical\nplot ");
	for (size_t i = 0; i < ns; i++)
		fprintf(x->gp, "%s'%s' using %zu%s title columnheader(%zu) lc rgb '%s' "
			"fs solid %s border lc rgb '#555555'", i ? ", " : "", path, i + 2,
			i ? "" : ":xtic(1)", i + 2, chk_colours[s[i].colour], s[i].aged ? "0.35" : "0.9");
	fputc('\n', x->gp);
}

/* Panels in a grid of at most cols columns. */
static void grid_of(size_t panels, size_t maxcols, size_t *rows, size_t *cols)
{
	*cols = panels < maxcols ? panels : maxcols;
	*rows = *cols ? (panels + *cols - 1) / *cols : 0;
}

/* Latency percentiles per phase: a panel per phase, a line per filesystem,
 * fresh (round 1) solid, aged (the last round) dashed. */
static void chart_latency(struct chk_ctx *x)
{
	static const char *const pname[] = { "p50", "p90", "p99", "p99.9", "max" };
	struct chk_chart *c = chk_new_chart(x, "latency", "Latency percentiles");
	struct panel { size_t phase; char path[600]; size_t ns; } pan[CHK_MAX_PHASES];
	struct ser { size_t run; const char *fs; unsigned round; int aged; size_t colour; };
	struct ser *s = calloc(CHK_MAX_PHASES * 64, sizeof(*s));
	size_t np = 0;
	char name[200];

	snprintf(c->caption, sizeof(c->caption), "Latency of one operation per phase, "
		 "microseconds on a log scale, at the percentiles p50 to max: fresh is round 1 "
		 "(solid), aged the last round (dashed).");
	if (!s) {
		x->err = ENOMEM;
		return;
	}
	for (size_t p = 0; p < x->nphase; p++) {
		struct panel *pp = &pan[np];
		struct ser *ps = s + np * 64;
		size_t fsi = 0;
		pp->ns = 0;
		for (size_t k = 0; k < x->n; k++)
			for (size_t f = 0; f < x->runs[k]->nfs; f++, fsi++) {
				const char *fs = x->runs[k]->fs[f].name;
				unsigned last = last_round(x->runs[k], fs);
				for (int aged = 0; aged < 2 && pp->ns < 64; aged++) {
					unsigned round = aged ? last : 1;
					const struct rep_phase *ph;
					if (aged && last < 2)
						continue;
					ph = find_phase(x->runs[k], fs, round, x->phase[p]);
					if (!ph || !ph->have_lat)
						continue;
					int any = 0;
					for (int q = LAT_P50; q <= LAT_MAX; q++)
						any |= ph->lat_ns[q] > 0;
					if (any)
						ps[pp->ns++] = (struct ser){ k, fs, round, aged,
									       fsi % CHK_NCOLOURS };
				}
			}
		if (!pp->ns)
			continue;
		pp->phase = p;
		FILE *d = chk_data_file(x, pp->path, sizeof(pp->path));
		if (!d)
			break;
		fputs("pct", d);
		for (size_t i = 0; i < pp->ns; i++) {
			char what[40];
			snprintf(what, sizeof(what), ps[i].aged ? "aged r%u" : "fresh", ps[i].round);
			chk_series_name(x, ps[i].run, ps[i].fs, what, name, sizeof(name));
			fprintf(d, " \"%s\"", name);
		}
		fputc('\n', d);
		for (int q = LAT_P50; q <= LAT_MAX; q++) {
			fprintf(d, "\"%s\"", pname[q]);
			for (size_t i = 0; i < pp->ns; i++) {
				const struct rep_phase *ph = find_phase(x->runs[ps[i].run], ps[i].fs,
									ps[i].round, x->phase[p]);
				double ns = ph ? ph->lat_ns[q] : -1;
				chk_fmt_num(d, ns > 0 ? ns / 1000 : NAN);
			}
			fputc('\n', d);
		}
		chk_data_close(x, d);
		np++;
	}
	if (!np) {
		snprintf(c->absent, sizeof(c->absent), "no phase record with latencies");
		free(s);
		return;
	}
	size_t rows, cols;
	grid_of(np, 3, &rows, &cols);
	chk_gp_start(x, c, (int)(cols * 430), (int)(rows * 330));
	fprintf(x->gp, "set multiplot layout %zu,%zu\nset logscale y\nset ylabel 'us'\n"
		"set key top left font ',8'\n", rows, cols);
	for (size_t i = 0; i < np; i++) {
		char ph[64];
		chk_gp_text(ph, sizeof(ph), x->phase[pan[i].phase]);
		fprintf(x->gp, "set title '%s'\nplot ", ph);
		for (size_t j = 0; j < pan[i].ns; j++) {
			const struct ser *q = s + i * 64 + j;
			fprintf(x->gp, "%s'%s' using 0:%zu%s with linespoints title columnheader(%zu) "
				"lc rgb '%s' dt %d pt 7 ps 0.5", j ? ", " : "", pan[i].path, j + 2,
				j ? "" : ":xtic(1)", j + 2, chk_colours[q->colour], q->aged ? 2 : 1);
		}
		fputc('\n', x->gp);
	}
	fputs("unset multiplot\n", x->gp);
	free(s);
}

/* The layout picture: a row per filesystem and round (1 and the last), a
 * panel for name order and one for inode order, each file's block number
 * against its place in the order. */
static void chart_layout(struct chk_ctx *x)
{
	struct chk_chart *c = chk_new_chart(x, "layout", "Layout of d0000");
	struct row { const struct rep_layout *y; size_t run; char path[600]; } *row;
	size_t nr = 0, maxr = 0;

	snprintf(c->caption, sizeof(c->caption), "Where the files of directory d0000 sit on "
		 "the disk (FIEMAP, sampled): each point is a file, across at its place in "
		 "file-name order (left) or inode order (right), up at its 4 KiB block number. "
		 "A rising line is a sequential read; name order scattered while inode order "
		 "still rises is the aged filesystem of the layout findings.");
	for (size_t k = 0; k < x->n; k++)
		maxr += 2 * x->runs[k]->nfs;
	if (!(row = calloc(maxr ? maxr : 1, sizeof(*row)))) {
		x->err = ENOMEM;
		return;
	}
	for (size_t k = 0; k < x->n; k++) {
		const struct rep_run *r = x->runs[k];
		for (size_t f = 0; f < r->nfs; f++) {
			const struct rep_layout *first = NULL, *last = NULL;
			for (size_t i = 0; i < r->nlay; i++) {
				const struct rep_layout *y = &r->lay[i];
				if (y->fs != r->fs[f].name || y->error || !y->npic[0] || !y->npic[1])
					continue;
				if (!first || y->round < first->round)
					first = y;
				if (!last || y->round > last->round)
					last = y;
			}
			if (!first)
				continue;
			row[nr].y = first;
			row[nr++].run = k;
			if (last != first) {
				row[nr].y = last;
				row[nr++].run = k;
			}
		}
	}
	if (!nr) {
		snprintf(c->absent, sizeof(c->absent), "no layout record with block lists "
			 "(records of an older runner, or no FIEMAP)");
		free(row);
		return;
	}
	for (size_t i = 0; i < nr && !x->err; i++) {
		const struct rep_layout *y = row[i].y;
		FILE *d = chk_data_file(x, row[i].path, sizeof(row[i].path));
		if (!d)
			break;
		for (int o = 0; o < 2; o++) {
			size_t n = y->npic[o];
			fprintf(d, "# %s order\n", o ? "inode" : "name");
			for (size_t j = 0; j < n; j++) {
				double place = y->files > n ? (double)j * (double)y->files / (double)n
							    : (double)j;
				fprintf(d, "%.1f %llu\n", place, (unsigned long long)y->pic[o][j]);
			}
			fputs("\n\n", d);
		}
		chk_data_close(x, d);
	}
	chk_gp_start(x, c, 2 * 430, (int)(nr * 290));
	fprintf(x->gp, "set multiplot layout %zu,2\nset format y '%%.1s%%c'\n"
		"set format x '%%.0s%%c'\nset ylabel '4 KiB block'\nunset key\n", nr);
	for (size_t i = 0; i < nr; i++) {
		const struct rep_layout *y = row[i].y;
		uint64_t lo = UINT64_MAX, hi = 0;
		char title[260], t[220];
		for (int o = 0; o < 2; o++)
			for (size_t j = 0; j < y->npic[o]; j++) {
				lo = y->pic[o][j] < lo ? y->pic[o][j] : lo;
				hi = y->pic[o][j] > hi ? y->pic[o][j] : hi;
			}
		if (hi == lo)
			hi = lo + 1;
		/* the same height in both panels of a row */
		fprintf(x->gp, "set yrange [%llu:%llu]\n", (unsigned long long)(lo - lo / 50),
			(unsigned long long)(hi + (hi - lo) / 50));
		for (int o = 0; o < 2; o++) {
			snprintf(t, sizeof(t), "%s%s%s round %u (%s): %s order",
				 x->n > 1 ? x->labels[row[i].run] : "", x->n > 1 ? " " : "", y->fs,
				 y->round, y->round == 1 ? "fresh" : "aged", o ? "inode" : "name");
			chk_gp_text(title, sizeof(title), t);
			fprintf(x->gp, "set title '%s'\nset xlabel 'file, in %s order'\n"
				"plot '%s' index %d using 1:2 with points pt 7 ps 0.35 lc rgb '%s'\n",
				title, o ? "inode" : "name", row[i].path, o, chk_colours[o]);
		}
	}
	fputs("unset multiplot\n", x->gp);
	free(row);
}

/* Per-round trend lines: a panel per phase, seconds against the round. */
static void chart_rounds(struct chk_ctx *x)
{
	struct chk_chart *c = chk_new_chart(x, "rounds", "Seconds per round");
	unsigned maxr = 0;
	char name[200];

	snprintf(c->caption, sizeof(c->caption), "Seconds of each round, per phase and "
		 "filesystem: round 1 is the fresh mkfs, later rounds run on the aged filesystem.");
	for (size_t k = 0; k < x->n; k++)
		for (size_t i = 0; i < x->runs[k]->nph; i++)
			if (x->runs[k]->ph[i].round > maxr)
				maxr = x->runs[k]->ph[i].round;
	if (maxr < 2) {
		snprintf(c->absent, sizeof(c->absent), "%s", maxr ? "one round: no trend" :
			 "no phase records");
		return;
	}
	char (*path)[600] = calloc(x->nphase ? x->nphase : 1, sizeof(*path));
	if (!path) {
		x->err = ENOMEM;
		return;
	}
	for (size_t p = 0; p < x->nphase; p++) {
		FILE *d = chk_data_file(x, path[p], sizeof(path[p]));
		if (!d)
			break;
		fputs("round", d);
		for (size_t k = 0; k < x->n; k++)
			for (size_t f = 0; f < x->runs[k]->nfs; f++) {
				chk_series_name(x, k, x->runs[k]->fs[f].name, "", name, sizeof(name));
				fprintf(d, " \"%s\"", name);
			}
		fputc('\n', d);
		for (unsigned r = 1; r <= maxr; r++) {
			fprintf(d, "%u", r);
			for (size_t k = 0; k < x->n; k++)
				for (size_t f = 0; f < x->runs[k]->nfs; f++) {
					const struct rep_phase *ph = find_phase(x->runs[k],
						x->runs[k]->fs[f].name, r, x->phase[p]);
					chk_fmt_num(d, ph ? ph->seconds : NAN);
				}
			fputc('\n', d);
		}
		chk_data_close(x, d);
	}
	size_t rows, cols;
	grid_of(x->nphase, 3, &rows, &cols);
	chk_gp_start(x, c, (int)(cols * 430), (int)(rows * 300));
	fprintf(x->gp, "set multiplot layout %zu,%zu\nset xtics 1\nset xrange [0.8:%u.2]\n"
		"set yrange [0:*]\nset xlabel 'round'\nset ylabel 'seconds'\n"
		"set key top left font ',8'\n", rows, cols, maxr);
	for (size_t p = 0; p < x->nphase; p++) {
		char ph[64];
		size_t col = 2, fsi = 0, drawn = 0;
		chk_gp_text(ph, sizeof(ph), x->phase[p]);
		fprintf(x->gp, "set title '%s'\nplot ", ph);
		for (size_t k = 0; k < x->n; k++)
			for (size_t f = 0; f < x->runs[k]->nfs; f++, fsi++, col++) {
				int any = 0;
				for (unsigned r = 1; r <= maxr && !any; r++)
					any = find_phase(x->runs[k], x->runs[k]->fs[f].name, r,
							 x->phase[p]) != NULL;
				if (!any)
					continue;
				fprintf(x->gp, "%s'%s' using 1:%zu with linespoints title "
					"columnheader(%zu) lc rgb '%s' pt 7 ps 0.6", drawn ? ", " : "",
					path[p], col, col, chk_colours[fsi % CHK_NCOLOURS]);
				drawn++;
			}
		if (!drawn)	/* a phase is in some run: never here */
			fputs("NaN notitle", x->gp);
		fputc('\n', x->gp);
	}
	fputs("unset multiplot\n", x->gp);
	free(path);
}

/* The verdict's evidence: each check with a number and a limit, measured
 * over limit. */
static void chart_verdict(struct chk_ctx *x)
{
	const struct vd_result *v = x->v;
	struct chk_chart *c;
	char path[600], what[200];
	size_t n = 0;

	if (!v || !v->n)
		return;	/* no verdict: no chart promised */
	c = chk_new_chart(x, "verdict", "Verdict checks");
	snprintf(c->caption, sizeof(c->caption), "Each check with a number and a limit: the "
		 "value measured over its limit, on a log scale (1 is the limit: a maximum fails "
		 "above it, a minimum below it); failed checks in red.");
	for (size_t i = 0; i < v->n; i++)
		n += isfinite(v->check[i].value) && isfinite(v->check[i].bound) &&
		     v->check[i].bound != 0;
	if (!n) {
		snprintf(c->absent, sizeof(c->absent), "no check with a number and a limit");
		return;
	}
	FILE *d = chk_data_file(x, path, sizeof(path));
	if (!d)
		return;
	for (size_t i = 0; i < v->n; i++) {
		const struct vd_check *k = &v->check[i];
		if (!(isfinite(k->value) && isfinite(k->bound) && k->bound != 0))
			continue;
		double q = k->value / k->bound;
		chk_gp_text(what, sizeof(what), k->what);
		fprintf(d, "\"%s\"", what);
		chk_fmt_num(d, k->pass ? q : NAN);
		chk_fmt_num(d, k->pass ? NAN : q);
		fputc('\n', d);
	}
	chk_data_close(x, d);
	int w = 300 + (int)n * 60;
	chk_gp_start(x, c, w < 640 ? 640 : w > 1600 ? 1600 : w, 520);
	fprintf(x->gp, "set style fill solid 0.8 border lc rgb '#555555'\nset boxwidth 0.7\n"
		"set logscale y\nset xrange [-0.6:%zu.6]\nset ylabel 'measured / limit (log scale)'\n"
		"set xtics rotate by -35 left font ',9'\nset bmargin 14\nset key outside top center horizontal\n"
		"plot '%s' using 0:2:xtic(1) with boxes lc rgb '#2ca02c' title 'pass', "
		"'' using 0:3 with boxes lc rgb '#d62728' title 'fail', "
		"1 with lines dt 2 lc rgb '#000000' title 'limit'\n", n - 1, path);
}

/* The power-cut campaign: per cycle, the operations acknowledged (bars,
 * left axis) and the files lost or torn after the cut (right axis). */
static void chart_powercut(struct chk_ctx *x)
{
	char path[600], name[200], label[120];
	size_t n = 0;

	for (size_t k = 0; k < x->n; k++)
		n += x->runs[k]->npc;
	if (!n)
		return;	/* not a campaign: no chart promised */
	struct chk_chart *c = chk_new_chart(x, "powercut", "Power cuts");
	snprintf(c->caption, sizeof(c->caption), "Each power-cut cycle: the operations the log "
		 "acknowledged before the cut (blue, left axis) and the files lost or torn after "
		 "it (red, right axis: anything above 0 is data the disk acknowledged and lost).");
	FILE *d = chk_data_file(x, path, sizeof(path));
	if (!d)
		return;
	for (size_t k = 0; k < x->n; k++)
		for (size_t i = 0; i < x->runs[k]->npc; i++) {
			const struct rep_powercut *p = &x->runs[k]->pc[i];
			snprintf(label, sizeof(label), "c%u", p->cycle);
			chk_series_name(x, k, p->fs, label, name, sizeof(name));
			fprintf(d, "\"%s\"", name);
			chk_fmt_num(d, (double)p->acked);
			chk_fmt_num(d, (double)(p->lost + p->torn));
			fputc('\n', d);
		}
	chk_data_close(x, d);
	int w = 300 + (int)n * 50;
	chk_gp_start(x, c, w < 640 ? 640 : w > 1600 ? 1600 : w, 420);
	fprintf(x->gp, "set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 border lc rgb '#555555'\nset boxwidth 0.9\n"
		"set yrange [0:*]\nset y2range [0:*]\nset y2tics\nset ylabel 'operations acknowledged'\n"
		"set y2label 'files lost or torn'\nset xtics rotate by -35 left font ',9'\n"
		"set key outside top center horizontal\n"
		"plot '%s' using 2:xtic(1) lc rgb '%s' title 'acknowledged', "
		"'' using 3 axes x1y2 lc rgb '#d62728' title 'lost or torn'\n", path, chk_colours[0]);
}

/* ---- gnuplot and the page ---- */

/* prog on $PATH (or as is with a '/'): 0 and path, or -ENOENT. */
static int which_path(const char *prog, char *path, size_t len)
{
	const char *p = getenv("PATH");
	struct stat st;

	if (strchr(prog, '/')) {
		snprintf(path, len, "%s", prog);
		return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0 ?
		       0 : -ENOENT;
	}
	if (!p)
		p = FSB_TOOL_PATH;
	for (;;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n)
			snprintf(path, len, "%.*s/%s", (int)n, p, prog);
		else	/* an empty entry is the current folder */
			snprintf(path, len, "./%s", prog);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
			return 0;
		if (!e)
			return -ENOENT;
		p = e + 1;
	}
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[600];

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

#define MAX_SVG (32u * 1024u * 1024u)	/* the largest picture copied into the page */

/* Copy the SVG file from its <svg> on, with every id and reference to one
 * prefixed "chart-ID-" so several pictures share one page. Returns 0, or
 * -1 when the file holds no picture. */
static int copy_svg(FILE *out, const char *path, const char *id)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *svg;
	size_t len = 0, cap = 0;

	if (!f)
		return -1;
	for (;;) {
		if (len + 65536 + 1 > cap) {
			char *nb = cap + 65536 > MAX_SVG ? NULL : realloc(buf, cap + 65536 + 1);
			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (!got)
			break;
	}
	fclose(f);
	if (!buf)
		return -1;
	buf[len] = '\0';
	if (!(svg = strstr(buf, "<svg")) || !strstr(svg, "</svg>")) {
		free(buf);
		return -1;
	}
	static const char *const refs[] = { " id=\"", " id='", "\nid=\"", "\tid='",
					    "href=\"#", "href='#", "url(#" };
	for (const char *p = svg; *p; ) {
		size_t i;
		if (starts(p, "<title>Gnuplot</title>")) {
			p += strlen("<title>Gnuplot</title>");
			continue;
		}
		for (i = 0; i < sizeof(refs) / sizeof(refs[0]) && !starts(p, refs[i]); i++)
			;
		if (i < sizeof(refs) / sizeof(refs[0])) {
			fprintf(out, "%schart-%s-", refs[i], id);
			p += strlen(refs[i]);
		} else {
			fputc(*p++, out);
		}
	}
	free(buf);
	return 0;
}

/* "no charts: REASON" */
static void no_charts(FILE *out, const char *why, const char *detail)
{
	fputs("<p class=\"nocharts\" id=\"no-charts\">No charts: ", out);
	html_text(out, why);
	if (detail && *detail) {
		fputs(": ", out);
		html_text(out, detail);
	}
	fputs(". The tables below hold every figure.</p>\n", out);
}

/* The verdict first: its box, or for one run a line that there is none. */
static void verdict_box(FILE *out, const struct vd_result *v, int one_run)
{
	if (!v) {
		if (one_run)
			fputs("<p class=\"noverdict\" id=\"no-verdict\">No verdict: no criteria given "
			      "(fsbench report RUN --criteria FILE).</p>\n", out);
		return;
	}
	fprintf(out, "<div class=\"verdict %s\" id=\"verdict\">\n<p><strong>", vd_kinds[v->kind].word);
	html_text(out, v->title);
	fputs("</strong></p>\n", out);
	if (v->nfail || v->nerror || v->nskip) {
		fputs("<ul>\n", out);
		for (size_t i = 0; i < v->n; i++) {
			const struct vd_check *k = &v->check[i];
			char res[700];
			if (k->kind == VD_PASS)
				continue;
			fprintf(out, "<li class=\"%s\">", vd_kinds[k->kind].word);
			html_text(out, k->what);
			fputs(": measured ", out);
			html_text(out, k->measured);
			fputs(", limit ", out);
			html_text(out, k->limit);
			fputs(" (", out);
			html_text(out, k->where);
			fputs(")", out);
			if (k->kind != VD_FAIL || k->known[0]) {
				vd_result_text(k, 0, res, sizeof(res));
				fputs(": ", out);
				html_text(out, res);
			}
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("</div>\n", out);
}

/* The first line of gnuplot's messages that names a problem. */
static void first_line(char *s)
{
	char *e = strchr(s, '\n');
	while (e && e[1] && !strstr(s, "rror") && !strstr(s, "arning")) {
		s = e + 1;
		e = strchr(s, '\n');
	}
	if (e)
		*e = '\0';
}

/* The charts in the page's order, each with what it shows (measures.h): a
 * chart of what no run of the page measures is left out without a word
 * (the report's last line names what a run does not measure); one of what
 * a run measures but holds no data for says why in its place. */
static const struct {
	void (*draw)(struct chk_ctx *x);
	enum rep_measure of;
} charts[] = {
	{ chart_ratios, REP_M_ANY },
	{ chart_verdict, REP_M_ANY },
	{ chart_seconds, REP_M_SMALLFILE },
	{ chart_latency, REP_M_SMALLFILE },
	{ chart_layout, REP_M_LAYOUT },
	{ chart_rounds, REP_M_SMALLFILE },
	{ chart_powercut, REP_M_POWERCUT },
	{ chart_sustain, REP_M_SUSTAIN },
	{ chart_fileserver, REP_M_FILESERVER },
};

static int measured(const struct chk_ctx *x, enum rep_measure m)
{
	if (m == REP_M_ANY)
		return 1;
	for (size_t k = 0; k < x->n; k++)
		if (rep_measures(x->runs[k], m))
			return 1;
	return 0;
}

#define NOT_FOUND_HINT "install gnuplot (Debian package gnuplot-nox), or name the program in " \
	CHART_GNUPLOT_ENV

int chart_html(FILE *out, const struct rep_run *const *runs, const char *const *labels,
	       size_t n, const struct vd_result *v, const struct chart_cmp *cmp)
{
	struct chk_ctx *x = calloc(1, sizeof(*x));
	const char *prog = getenv(CHART_GNUPLOT_ENV);
	const char *tmp = getenv("TMPDIR");
	char gnuplot[512], script[600], msg[4096] = "";
	int rc;

	if (!x)
		return -ENOMEM;
	x->runs = runs;
	x->labels = labels;
	x->n = n;
	x->v = v;
	x->cmp = cmp;
	verdict_box(out, v, n == 1 && !cmp);
	fputs("<section id=\"charts\">\n<h2>Charts</h2>\n", out);
	if (!prog || !*prog)
		prog = "gnuplot";
	/* the charts' data and script are made with or without gnuplot: the
	 * same code runs (and is tested) wherever the page is written */
	int found = which_path(prog, gnuplot, sizeof(gnuplot)) == 0;
	char missing[600];
	snprintf(missing, sizeof(missing), "%s not found %s", prog,
		 strchr(prog, '/') ? "(not an executable file)" : "on PATH");
	if (!tmp || !*tmp || strchr(tmp, '\'') || strlen(tmp) > 200)
		tmp = "/tmp";
	snprintf(x->dir, sizeof(x->dir), "%s/fsbench-chart.XXXXXX", tmp);
	if (!mkdtemp(x->dir)) {
		if (found)
			no_charts(out, "no temporary folder for gnuplot", strerror(errno));
		else
			no_charts(out, missing, NOT_FOUND_HINT);
		goto done;
	}
	snprintf(script, sizeof(script), "%s/charts.gp", x->dir);
	if (!(x->gp = fopen(script, "w"))) {
		no_charts(out, "cannot write the gnuplot script", strerror(errno));
		remove_dir(x->dir);
		goto done;
	}
	collect_phases(x);
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++)
		if (measured(x, charts[i].of))
			charts[i].draw(x);
	if (fclose(x->gp) && !x->err)
		x->err = errno ? errno : EIO;
	if (x->err == ENOMEM) {
		remove_dir(x->dir);
		free(x);
		return -ENOMEM;
	}
	if (!found) {
		no_charts(out, missing, NOT_FOUND_HINT);
		remove_dir(x->dir);
		goto done;
	}
	if (x->err) {
		no_charts(out, "cannot write gnuplot's input", strerror(x->err));
		remove_dir(x->dir);
		goto done;
	}
	char *argv[] = { gnuplot, script, NULL };
	rc = fsb_exec(argv, msg, sizeof(msg), CHART_TIMEOUT);
	if (rc) {
		char why[700];
		if (rc < 0)
			snprintf(why, sizeof(why), "%s could not be started (%s)", gnuplot,
				 strerror(-rc));
		else if (rc > 128)
			snprintf(why, sizeof(why), "%s was killed by signal %d%s", gnuplot, rc - 128,
				 rc - 128 == 9 ? " (over " "the time limit?)" : "");
		else
			snprintf(why, sizeof(why), "%s failed (exit status %d)", gnuplot, rc);
		first_line(msg);
		no_charts(out, why, msg);
		remove_dir(x->dir);
		goto done;
	}
	for (size_t i = 0; i < x->ncharts; i++) {
		struct chk_chart *c = &x->chart[i];
		if (c->absent[0]) {
			fprintf(out, "<p class=\"absent\" data-chart=\"%s\">%s: none: ", c->id, c->name);
			html_text(out, c->absent);
			fputs(".</p>\n", out);
			continue;
		}
		fprintf(out, "<figure class=\"chart\" id=\"chart-%s\" data-chart=\"%s\">\n"
			"<figcaption><strong>%s.</strong> ", c->id, c->id, c->name);
		html_text(out, c->caption);
		fputs("</figcaption>\n", out);
		if (copy_svg(out, c->svg, c->id))
			fputs("<p class=\"absent\">gnuplot drew no picture.</p>\n", out);
		fputs("\n</figure>\n", out);
	}
	remove_dir(x->dir);
done:
	fputs("</section>\n", out);
	free(x);
	return 0;
}

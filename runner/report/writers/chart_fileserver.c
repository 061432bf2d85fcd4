/* chart_fileserver.c: the file-server workload's chart (chart_kit.h): two
 * panels of bars per filesystem, fresh (solid) and aged (light): the
 * operations per second and the random append's 99th percentile. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/sections/served.h"
#include "report/writers/chart_kit.h"

#define MAX_ROWS 64

void chart_fileserver(struct chk_ctx *x)
{
	struct row { size_t run; const char *fs; } row[MAX_ROWS];
	size_t nr = 0;
	int aged = 0;
	char path[600], name[200];

	for (size_t k = 0; k < x->n; k++)
		for (size_t i = 0; i < x->runs[k]->nfsv && nr < MAX_ROWS; i++) {
			const struct rep_fileserver *v = &x->runs[k]->fsv[i];
			int seen = 0;
			for (size_t j = 0; j < nr && !seen; j++)
				seen = row[j].run == k && !strcmp(row[j].fs, v->fs);
			aged |= !strcmp(v->state, "aged");
			if (!seen)
				row[nr++] = (struct row){ k, v->fs };
		}
	if (!nr)
		return;	/* no file-server run: no chart promised */
	struct chk_chart *c = chk_new_chart(x, "fileserver", "File server");
	snprintf(c->caption, sizeof(c->caption), "The file-server workload per filesystem: "
		 "operations per second (left, higher is better) and the random append's 99th "
		 "percentile in milliseconds (right, lower is better)%s.",
		 aged ? "; fresh solid, aged (after the fill's aging) light" : ", on a fresh filesystem");
	FILE *d = chk_data_file(x, path, sizeof(path));
	if (!d)
		return;
	fputs("fs fresh_ops aged_ops fresh_p99 aged_p99\n", d);
	for (size_t i = 0; i < nr; i++) {
		chk_series_name(x, row[i].run, row[i].fs, "", name, sizeof(name));
		fprintf(d, "\"%s\"", name);
		for (int by = 0; by < 2; by++)
			for (int s = 0; s < 2; s++) {
				const struct rep_fileserver *v = rep_fsv_find(x->runs[row[i].run], row[i].fs,
									      rep_fsv_state[s]);
				double m = v ? rep_fsv_measure(v, by) : NAN;
				chk_fmt_num(d, by == REP_FSV_BY_APPEND ? m / 1e6 : m);
			}
		fputc('\n', d);
	}
	chk_data_close(x, d);
	int w = 420 + (int)nr * 60;
	chk_gp_start(x, c, w > 1600 ? 1600 : w, 400);
	fprintf(x->gp, "set multiplot layout 1,2\nset style data histograms\n"
		"set style histogram clustered gap 1\nset boxwidth 0.9\nset yrange [0:*]\n"
		"set key outside bottom center horizontal\n");
	for (int by = 0; by < 2; by++) {
		fprintf(x->gp, "set title '%s'\nset ylabel '%s'\nplot '%s' using %d:xtic(1) title 'fresh' "
			"lc rgb '%s' fs solid 0.9 border lc rgb '#555555'",
			by ? "random append p99" : "operations per second", by ? "ms" : "ops/s", path,
			2 + 2 * by, chk_colours[0]);
		if (aged)
			fprintf(x->gp, ", '' using %d title 'aged' lc rgb '%s' fs solid 0.35 border lc rgb "
				"'#555555'", 3 + 2 * by, chk_colours[0]);
		fputc('\n', x->gp);
	}
	fputs("unset multiplot\n", x->gp);
}

/* chart_sustain.c: the sustained writes' chart (chart_kit.h): a panel per
 * write (run, filesystem, sequential or random), throughput over time on
 * the left axis, the disk's temperature on the right, the cliff's
 * threshold and moment marked. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/sections/sustained.h"
#include "report/writers/chart_kit.h"

#define MAX_PANELS 16

void chart_sustain(struct chk_ctx *x)
{
	struct panel {
		size_t run;
		const struct rep_sustain *s;
		char path[600];
		double thr, at_s;
		int temps;
	} *pan = calloc(MAX_PANELS, sizeof(*pan));
	size_t np = 0, total = 0;
	char name[200], what[64];

	if (!pan) {
		x->err = ENOMEM;
		return;
	}
	for (size_t k = 0; k < x->n; k++)
		for (size_t i = 0; i < x->runs[k]->nsus; i++) {
			const struct rep_sustain *s = &x->runs[k]->sus[i];
			if (s->n)
				total++;
			if (!s->n || np == MAX_PANELS)
				continue;
			pan[np].run = k;
			pan[np].s = s;
			np++;
		}
	if (!total) {
		free(pan);
		return;	/* no sustained write: no chart promised */
	}
	struct chk_chart *c = chk_new_chart(x, "sustain", "Speed that holds");
	snprintf(c->caption, sizeof(c->caption), "Each sustained write: throughput every second "
		 "(blue, MiB/s, left axis, each second's mean at its middle) and the disk's "
		 "temperature (red, degrees Celsius, right axis; absent where it could not be read), "
		 "seconds after the write started; the dashed line is the cliff's threshold, the "
		 "dotted one its moment.%s",
		 total > np ? " Only the first 16 writes are drawn." : "");
	for (size_t p = 0; p < np; p++) {
		struct panel *q = &pan[p];
		struct rep_cliff cl;
		FILE *d = chk_data_file(x, q->path, sizeof(q->path));
		if (!d)
			break;
		if (rep_sustain_cliff(q->s, &cl, &q->at_s) == -ENOMEM)
			x->err = ENOMEM;
		q->thr = isfinite(cl.threshold) ? cl.threshold : NAN;
		for (size_t i = 0; i < q->s->n; i++) {
			/* the middle of the sample's second */
			chk_fmt_num(d, q->s->first_s + (double)i - 0.5);
			chk_fmt_num(d, q->s->mib[i]);
			chk_fmt_num(d, q->s->celsius[i]);
			fputc('\n', d);
			q->temps |= isfinite(q->s->celsius[i]);
		}
		chk_data_close(x, d);
	}
	if (x->err) {
		free(pan);
		return;
	}
	chk_gp_start(x, c, 900, 300 * (int)np);
	fprintf(x->gp, "set multiplot layout %zu,1\nset xlabel 'seconds after the start'\n"
		"set ylabel 'MiB/s'\nset yrange [0:*]\nset key outside top center horizontal\n", np);
	for (size_t p = 0; p < np; p++) {
		struct panel *q = &pan[p];
		snprintf(what, sizeof(what), "%s", q->s->workload);
		chk_series_name(x, q->run, q->s->fs, what, name, sizeof(name));
		fprintf(x->gp, "set title '%s'\nunset arrow\n", name);
		if (q->temps)
			fprintf(x->gp, "set y2tics\nset y2label 'Celsius'\nset y2range [0:*]\n");
		else
			fprintf(x->gp, "unset y2tics\nunset y2label\n");
		if (isfinite(q->at_s))
			fprintf(x->gp, "set arrow from %.3f, graph 0 to %.3f, graph 1 nohead dt 3 lc rgb '#000000'\n",
				q->at_s, q->at_s);
		fprintf(x->gp, "plot '%s' using 1:2 with lines lw 2 lc rgb '%s' title 'MiB/s'", q->path,
			chk_colours[0]);
		if (isfinite(q->thr))
			fprintf(x->gp, ", %.6g with lines dt 2 lc rgb '#555555' title 'threshold'", q->thr);
		if (q->temps)
			fprintf(x->gp, ", '' using 1:3 axes x1y2 with lines lc rgb '#d62728' title 'Celsius'");
		fputc('\n', x->gp);
	}
	fputs("unset multiplot\n", x->gp);
	free(pan);
}

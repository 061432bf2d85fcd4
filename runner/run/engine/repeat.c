/* repeat.c: a column's repetitions, and when to stop them (repeat.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lib/stats.h"
#include "run/core/cfg.h"
#include "run/core/context.h"
#include "run/engine/phase.h"
#include "run/engine/repeat.h"

int fsb_repeat_on(const struct fsb_config *cfg)
{
	return cfg->repeat != 1 && cfg->smallfile;
}

int fsb_reps_init(struct fsb_reps *r, const struct fsb_config *cfg, size_t nphases)
{
	size_t cells;

	*r = (struct fsb_reps){ .autom = cfg->repeat == 0, .rounds = cfg->rounds, .nph = nphases };
	r->want = r->autom ? cfg->repeat_max : cfg->repeat;
	cells = (size_t)r->rounds * r->nph;
	r->sec = calloc(cells * r->want, sizeof(*r->sec));
	r->n = calloc(cells, sizeof(*r->n));
	r->first_ok = calloc(cells, sizeof(*r->first_ok));
	if (!r->sec || !r->n || !r->first_ok) {
		fsb_reps_free(r);
		return -ENOMEM;
	}
	return 0;
}

void fsb_reps_free(struct fsb_reps *r)
{
	free(r->sec);
	free(r->n);
	free(r->first_ok);
	r->sec = NULL;
	r->n = r->first_ok = NULL;
}

void fsb_reps_add(struct fsb_reps *r, uint32_t round, size_t phase, double seconds)
{
	size_t cell;

	if (!r->n || round < 1 || round > r->rounds || phase >= r->nph)
		return;
	cell = (size_t)(round - 1) * r->nph + phase;
	if (r->n[cell] < r->want)
		r->sec[cell * r->want + r->n[cell]++] = seconds;
}

/* The interval of a cell: 0 and its width in percent of the median, or
 * -EDOM (too few samples). */
static int cell_ci(const struct fsb_reps *r, size_t cell, double *med, double *lo, double *hi,
		   double *width)
{
	const double *v = r->sec + cell * r->want;
	int e = stats_median_ci(v, r->n[cell], FSB_REPEAT_LEVEL, lo, hi);

	if (e < 0)
		return e;
	*med = stats_median(v, r->n[cell]);
	*width = *med > 0 ? (*hi - *lo) / *med * 100 : (*hi > *lo ? INFINITY : 0);
	return 0;
}

/* Is every phase's interval within the width? Notes when each first was. */
static int converged(const struct fsb_config *cfg, struct fsb_reps *r)
{
	int all = 1;

	for (size_t cell = 0; r->n && cell < (size_t)r->rounds * r->nph; cell++) {
		double med, lo, hi, width;
		if (!r->n[cell])
			continue;
		if (cell_ci(r, cell, &med, &lo, &hi, &width) == 0 && width <= cfg->repeat_width) {
			if (!r->first_ok[cell])
				r->first_ok[cell] = r->done;
		} else {
			all = 0;
		}
	}
	return all;
}

void fsb_reps_record(struct fsb_ctx *c, const struct fsb_reps *r, const char *column)
{
	struct fsb_rec rec;

	if (!r->autom || !r->stop)
		return;

	fsb_rec_start(c, &rec, FSB_REC_repeat);
	rec_str(&rec, K(fs), column);
	rec_u64(&rec, K(reps), r->done);
	rec_u64(&rec, K(max), c->cfg.repeat_max);
	rec_u64(&rec, K(width_pct), c->cfg.repeat_width);
	rec_bool(&rec, K(converged), r->converged);
	rec_arr(&rec, K(phases));
	for (size_t cell = 0; cell < (size_t)r->rounds * r->nph; cell++) {
		double med, lo, hi, width;
		if (!r->n[cell])
			continue;
		int e = cell_ci(r, cell, &med, &lo, &hi, &width);
		rec_obj(&rec, NULL);
		rec_u64(&rec, K(round), cell / r->nph + 1);
		rec_str(&rec, K(phase), fsb_phases[cell % r->nph].name);
		rec_u64(&rec, K(n), r->n[cell]);
		rec_dbl(&rec, K(median), stats_median(r->sec + cell * r->want, r->n[cell]));
		if (e == 0) {
			rec_dbl(&rec, K(lo), lo);
			rec_dbl(&rec, K(hi), hi);
			rec_dbl(&rec, K(ci_pct), width);
		}
		rec_bool(&rec, K(converged), e == 0 && width <= c->cfg.repeat_width);
		if (r->first_ok[cell])
			rec_u64(&rec, K(converged_at), r->first_ok[cell]);
		rec_close(&rec);
	}
	rec_close(&rec);
	fsb_emit(c, &rec);
}

void fsb_reps_end(struct fsb_ctx *c, struct fsb_reps *r, int failed)
{
	r->done++;
	if (r->autom)
		r->converged = !failed && converged(&c->cfg, r);
	r->stop = failed || r->converged || r->done >= r->want;
}

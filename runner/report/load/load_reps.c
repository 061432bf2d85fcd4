/* load_reps.c: a run with repetitions (setting repeat): its `repeat`
 * records, and its phase rows folded into one per fs, round and phase, the
 * median of the repetitions, so that every table, the charts, compare and
 * the verdict read the median (the repetitions stay in raw for the
 * statistics: report/sections/repetitions.c). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "report/load/loader.h"

static double num_or_nan(const struct jsonr *v)
{
	return jsonr_is(v, JSONR_NUM) ? jsonr_num(v, NAN) : NAN;
}

int ld_load_repeat(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	int rc = 0;
	const char *fs = ld_need_str(L, rec, "repeat", "fs", &rc);
	const struct jsonr *ph = jsonr_get(rec, "phases");
	size_t n = jsonr_len(ph);

	if (rc)
		return rc;
	if (ld_grow((void **)&r->rpt, &r->caprpt, r->nrpt, sizeof(*r->rpt)))
		return ld_oom(L);
	struct rep_repeat *x = &r->rpt[r->nrpt];
	memset(x, 0, sizeof(*x));
	x->line = L->line;
	x->reps = (unsigned)jsonr_u64(jsonr_get(rec, "reps"), 0);
	x->max = (unsigned)jsonr_u64(jsonr_get(rec, "max"), 0);
	x->width_pct = (unsigned)jsonr_u64(jsonr_get(rec, "width_pct"), 0);
	x->converged = jsonr_bool(jsonr_get(rec, "converged"), 0);
	if (!(x->fs = strdup(fs)) || (n && !(x->ph = calloc(n, sizeof(*x->ph))))) {
		free(x->fs);
		return ld_oom(L);
	}
	r->nrpt++;
	for (size_t i = 0; i < n; i++) {
		const struct jsonr *e = jsonr_at(ph, i);
		struct rep_repeat_phase *p = &x->ph[x->nph];
		const char *name = jsonr_str(jsonr_get(e, "phase"));
		if (!name)
			return ld_bad(L, "repeat record: phases[%zu] without a \"phase\"", i);
		if (!(p->phase = strdup(name)))
			return ld_oom(L);
		x->nph++;
		p->round = (unsigned)jsonr_u64(jsonr_get(e, "round"), 0);
		p->n = (unsigned)jsonr_u64(jsonr_get(e, "n"), 0);
		p->converged_at = (unsigned)jsonr_u64(jsonr_get(e, "converged_at"), 0);
		p->median = num_or_nan(jsonr_get(e, "median"));
		p->lo = num_or_nan(jsonr_get(e, "lo"));
		p->hi = num_or_nan(jsonr_get(e, "hi"));
		p->ci_pct = num_or_nan(jsonr_get(e, "ci_pct"));
		p->converged = jsonr_bool(jsonr_get(e, "converged"), 0);
	}
	return 0;
}

static int same_row(const struct rep_phase *a, const struct rep_phase *b)
{
	return a->fs == b->fs && a->round == b->round && !strcmp(a->phase, b->phase);
}

static char *dup_opt(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The median of one field over the repetitions of a row (those with it:
 * v >= 0); -1 when none has it. */
static double median_of(const struct rep_phase *raw, const size_t *idx, size_t n, double *buf,
			size_t off)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		double v = *(const double *)((const char *)&raw[idx[i]] + off);
		if (v >= 0)
			buf[k++] = v;
	}
	return k ? stats_median(buf, k) : -1;
}

/* One row of ph from the repetitions idx[0..n-1] of raw: the first one's
 * text and counts, the median of every time, rate and latency, the sum of
 * the errors. */
static int fold_row(struct rep_phase *row, const struct rep_phase *raw, const size_t *idx, size_t n,
		    double *buf)
{
	const struct rep_phase *first = &raw[idx[0]];

	*row = *first;
	row->phase = strdup(first->phase);
	row->order = dup_opt(first->order);
	row->trim = dup_opt(first->trim);
	if (!row->phase || (first->order && !row->order) || (first->trim && !row->trim)) {
		free(row->phase);
		free(row->order);
		free(row->trim);
		return -ENOMEM;
	}
	row->nrep = (unsigned)n;
	row->rep = 0;
	row->seconds = median_of(raw, idx, n, buf, offsetof(struct rep_phase, seconds));
	row->files_per_s = median_of(raw, idx, n, buf, offsetof(struct rep_phase, files_per_s));
	row->sync_seconds = median_of(raw, idx, n, buf, offsetof(struct rep_phase, sync_seconds));
	for (int k = 0; k < LAT_N; k++)
		row->lat_ns[k] = median_of(raw, idx, n, buf, offsetof(struct rep_phase, lat_ns) +
					   (size_t)k * sizeof(double));
	row->errors = row->verify_errors = 0;
	for (size_t i = 0; i < n; i++) {
		row->errors += raw[idx[i]].errors;
		row->verify_errors += raw[idx[i]].verify_errors;
		row->have_lat |= raw[idx[i]].have_lat;
	}
	return 0;
}

int ld_fold_reps(struct rep_run *r)
{
	struct rep_phase *raw = r->ph, *ph;
	size_t n = r->nph, nrow = 0, *idx, *row_of;
	double *buf;
	int rc = 0;

	if (r->reps < 2 || r->raw)	/* no repetitions, or folded already */
		return 0;
	ph = calloc(n, sizeof(*ph));
	idx = malloc(n * sizeof(*idx));
	row_of = malloc(n * sizeof(*row_of));
	buf = malloc(n * sizeof(*buf));
	if (!ph || !idx || !row_of || !buf) {
		rc = -ENOMEM;
		goto out;
	}
	/* the rows in order of first appearance */
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && !same_row(&raw[j], &raw[i]))
			j++;
		row_of[i] = j < i ? row_of[j] : nrow++;
	}
	for (size_t k = 0; k < nrow && !rc; k++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (row_of[i] == k)
				idx[m++] = i;
		if (fold_row(&ph[k], raw, idx, m, buf) < 0) {
			rc = -ENOMEM;
			for (size_t j = 0; j < k; j++) {
				free(ph[j].phase);
				free(ph[j].order);
				free(ph[j].trim);
			}
		}
	}
	if (!rc) {
		r->raw = raw;
		r->nraw = n;
		r->ph = ph;
		r->nph = r->capph = nrow;
		ph = NULL;
	}
out:
	free(ph);
	free(idx);
	free(row_of);
	free(buf);
	return rc;
}

void ld_reps_free(struct rep_run *r)
{
	ld_free_array(r->raw, r->nraw, sizeof(*r->raw), LD_OWNED(ld_phase_owned));
	for (size_t i = 0; i < r->nrpt; i++) {
		for (size_t k = 0; k < r->rpt[i].nph; k++)
			free(r->rpt[i].ph[k].phase);
		free(r->rpt[i].ph);
		free(r->rpt[i].fs);
	}
	free(r->rpt);
}

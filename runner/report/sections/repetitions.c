/* repetitions.c: the statistics of a run with repetitions (repetitions.h). */
#include "report/sections/repetitions.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "report/sections/variants.h"

int rep_has_reps(const struct rep_run *r)
{
	return r->raw != NULL;
}

int rep_has_reps_variants(const struct rep_run *r)
{
	return rep_has_reps(r) && rep_has_variants(r);
}

/* The seconds of the repetitions of fs, round, phase into v (room for
 * r->nraw); how many. */
static size_t samples(const struct rep_run *r, const char *fs, unsigned round, const char *phase,
		      double *v)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nraw; i++) {
		const struct rep_phase *p = &r->raw[i];
		if (p->round == round && !strcmp(p->fs, fs) && !strcmp(p->phase, phase))
			v[n++] = p->seconds;
	}
	return n;
}

/* The repeat record's word on a phase: "yes", "no" or NULL (none). */
static const char *converged(const struct rep_run *r, const char *fs, unsigned round,
			     const char *phase)
{
	const char *said = NULL;

	for (size_t i = 0; i < r->nrpt; i++) {
		if (strcmp(r->rpt[i].fs, fs))
			continue;
		for (size_t k = 0; k < r->rpt[i].nph; k++) {
			const struct rep_repeat_phase *p = &r->rpt[i].ph[k];
			if (p->round == round && !strcmp(p->phase, phase))
				said = p->converged ? "yes" : "no";
		}
	}
	return said;
}

int rep_table_repetitions(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "phase", NULL }, { "n", NULL },
		{ "median s", "median_seconds" }, { "95 % CI low", "ci_low_seconds" },
		{ "95 % CI high", "ci_high_seconds" }, { "CI width %", "ci_width_pct" },
		{ "CV %", "cv_pct" }, { "converged", NULL },
	};
	size_t nh = sizeof(h) / sizeof(h[0]);
	double *v = malloc((r->nraw ? r->nraw : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	tab_init(t, "repetitions", "Repetitions (the median of each phase's seconds over the"
		 " repetitions, its 95 % confidence interval, the coefficient of variation)",
		 SHAPE_GRID, nh);
	for (size_t c = 0; c < nh; c++)
		tab_col(t, c, c == 1 || (c >= 3 && c <= 8), h[c].head, h[c].key);
	t->note = "Each row is n repetitions of the phase, each on a fresh mkfs, the columns"
		  " interleaved. The interval is distribution-free, from order statistics:"
		  " [x(k), x(n-k+1)] of the sorted seconds, k the largest with binomial coverage"
		  " of at least 95 % (the sign test's interval; it needs n >= 6, `-` below)."
		  " CI width is (high - low) / median, CV the standard deviation over the mean."
		  " converged: with `repeat = auto`, the interval came within `repeat_width`."
		  " Every other table shows these medians, and the verdict judges them"
		  " (runner/lib/stats.c computes them).";
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		size_t n = samples(r, p->fs, p->round, p->phase, v), row = tab_row(t);
		double lo, hi, med = stats_median(v, n), cv = stats_cv(v, n);
		const char *conv = converged(r, p->fs, p->round, p->phase);

		tab_text(t, row, 0, "%s", p->fs);
		tab_count(t, row, 1, p->round);
		tab_text(t, row, 2, "%s", p->phase);
		tab_count(t, row, 3, n);
		tab_num(t, row, 4, CELL_SECONDS, med);
		if (stats_median_ci(v, n, 0.95, &lo, &hi) == 0) {
			tab_num(t, row, 5, CELL_SECONDS, lo);
			tab_num(t, row, 6, CELL_SECONDS, hi);
			tab_num_if(t, row, 7, med > 0, CELL_PERCENT, (hi - lo) / med);
		} else {
			for (size_t c = 5; c <= 7; c++)
				tab_missing(t, row, c);
		}
		tab_num_if(t, row, 8, isfinite(cv), CELL_PERCENT, cv);
		tab_str(t, row, 9, conv);
	}
	free(v);
	return tab_done(t);
}

int rep_vs_judge(const struct rep_run *r, const char *fs, const char *base, unsigned round,
		 const char *phase, struct rep_vs *out)
{
	double *a = malloc((r->nraw ? r->nraw : 1) * 2 * sizeof(*a)), *b = a ? a + r->nraw : NULL;
	int rc = 0;

	if (!a)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	out->na = samples(r, fs, round, phase, a);
	out->nb = samples(r, base, round, phase, b);
	double ma = stats_median(a, out->na), mb = stats_median(b, out->nb);
	if (!out->na || !out->nb || !(mb > 0))
		rc = -ENOENT;
	else if ((rc = stats_mwu(a, out->na, b, out->nb, &out->u, &out->p)) == 0)
		out->ratio = ma / mb;
	out->p_holm = out->p;
	free(a);
	return rc;
}

void rep_vs_holm(struct rep_vs *vs, size_t n, double tolerance)
{
	/* the k-th smallest p times (n - k), never below the one before, at most 1 */
	double prev = 0;
	for (size_t k = 0; k < n; k++) {
		size_t m = n;	/* the k-th smallest not yet taken */
		for (size_t i = 0; i < n; i++)
			if (vs[i].flag == VS_NONE && (m == n || vs[i].p < vs[m].p))
				m = i;
		double adj = vs[m].p * (double)(n - k);
		prev = adj > prev ? adj : prev;
		vs[m].p_holm = prev < 1 ? prev : 1;
		vs[m].flag = VS_SAME;
	}
	for (size_t i = 0; i < n; i++)
		if (vs[i].p_holm < REP_ALPHA && fabs(vs[i].ratio - 1) > tolerance)
			vs[i].flag = vs[i].ratio > 1 ? VS_SLOWER : VS_FASTER;
}

/* The column of the run named name, or NULL. */
static const struct rep_fs *column(const struct rep_run *r, const char *name)
{
	for (size_t i = 0; name && i < r->nfs; i++)
		if (!strcmp(r->fs[i].name, name))
			return &r->fs[i];
	return NULL;
}

int rep_table_versus(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "variant", NULL }, { "base", NULL }, { "round", NULL }, { "phase", NULL },
		{ "n", "n_variant" }, { "n base", "n_base" }, { "ratio", "ratio_seconds" },
		{ "p", "p_mann_whitney" }, { "p (Holm)", "p_holm" }, { "", "flag" },
	};
	size_t nh = sizeof(h) / sizeof(h[0]);
	struct rep_vs *vs = calloc(r->nph ? r->nph : 1, sizeof(*vs));
	size_t *at = calloc(r->nph ? r->nph : 1, sizeof(*at));

	if (!vs || !at) {
		free(vs);
		free(at);
		return -ENOMEM;
	}
	tab_init(t, "versus_base", "Variants against their base (median seconds over the"
		 " repetitions, variant / base; Mann-Whitney U)", SHAPE_GRID, nh);
	for (size_t c = 0; c < nh; c++)
		tab_col(t, c, c == 2 || (c >= 4 && c <= 8), h[c].head, h[c].key);
	t->note = "ratio above 1: the variant took longer. p is the two-sided Mann-Whitney U"
		  " test of the two columns' repetitions (exact without ties and under 50"
		  " samples each, else the normal approximation with the tie and continuity"
		  " corrections); p (Holm) is p adjusted over the variant's rows (Holm's"
		  " step-down), so that the 5 % holds for the variant's whole table: a variant"
		  " identical to its base flags no row in 95 % of runs. A row is flagged slower"
		  " or faster only when p (Holm) < 0.05 and the ratio is beyond 1 +- the compare"
		  " tolerance (10 %). Few repetitions cannot reach it: 5 against 5 give at best"
		  " p = 0.0079, so at most 6 rows can be flagged; 8 against 8 give 0.00016.";
	/* each variant column in turn: its rows, one family */
	for (size_t f = 0; f < r->nfs; f++) {
		const struct rep_fs *v = &r->fs[f];
		size_t n = 0;
		if (!v->variant || !column(r, v->base))
			continue;
		for (size_t i = 0; i < r->nph; i++) {
			const struct rep_phase *p = &r->ph[i];
			if (strcmp(p->fs, v->name))
				continue;
			int e = rep_vs_judge(r, v->name, v->base, p->round, p->phase, &vs[n]);
			if (e == -ENOMEM) {
				free(vs);
				free(at);
				rep_table_free(t);
				return -ENOMEM;
			}
			if (e == 0)
				at[n++] = i;
		}
		rep_vs_holm(vs, n, REP_CMP_TOLERANCE);
		for (size_t k = 0; k < n; k++) {
			const struct rep_phase *p = &r->ph[at[k]];
			size_t row = tab_row(t);
			tab_text(t, row, 0, "%s", v->name);
			tab_text(t, row, 1, "%s", v->base);
			tab_count(t, row, 2, p->round);
			tab_text(t, row, 3, "%s", p->phase);
			tab_count(t, row, 4, vs[k].na);
			tab_count(t, row, 5, vs[k].nb);
			tab_num(t, row, 6, CELL_RATIO, vs[k].ratio);
			tab_fixed(t, row, 7, vs[k].p, 4);
			tab_fixed(t, row, 8, vs[k].p_holm, 4);
			tab_text(t, row, 9, "%s", vs[k].flag == VS_SLOWER ? "slower" :
				 vs[k].flag == VS_FASTER ? "faster" : "");
		}
	}
	free(vs);
	free(at);
	return tab_done(t);
}

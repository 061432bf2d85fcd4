/* signif.c: compare by significance (signif.h). */
#include "report/compare/signif.h"
#include "report/load/loader.h"
#include "report/table.h"
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rep_cmp_flag_name(enum rep_cmp_flag f, unsigned view)
{
	int data = view == REP_VIEW_DATA;
	switch (f) {
	case CMP_SAME:
		return data ? "within_tolerance" : "";
	case CMP_NOISE:
		return data ? "not_significant" : "not significant";
	case CMP_FEW:
		return data ? "too_few" : "too few samples";
	case CMP_SLOWER:
		return "slower";
	case CMP_FASTER:
		return "faster";
	case CMP_NONE:
		break;
	}
	return "";
}

/* ---- the test ---- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rep_cmp_seed(const char *fs, unsigned row)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	for (const char *p = fs; p && *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h ^ ((uint64_t)row << 56);
}

/* The median of n values drawn with replacement from v, into buf. */
static double draw_median(const double *v, size_t n, double *buf, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = v[(size_t)(((splitmix(s) >> 32) * (uint64_t)n) >> 32)];
	return stats_median(buf, n);
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The percentile interval of mb / ma over REP_CMP_BOOT resamples. */
static int bootstrap(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
		     double *lo, double *hi)
{
	double *r = malloc(REP_CMP_BOOT * sizeof(*r));
	double *buf = malloc((na > nb ? na : nb) * sizeof(*buf));
	if (!r || !buf) {
		free(r);
		free(buf);
		return -ENOMEM;
	}
	uint64_t s = seed;
	for (size_t i = 0; i < REP_CMP_BOOT; i++) {
		double ma = draw_median(a, na, buf, &s);
		double mb = draw_median(b, nb, buf, &s);
		r[i] = ma > 0 ? mb / ma : INFINITY;
	}
	qsort(r, REP_CMP_BOOT, sizeof(*r), cmp_dbl);
	/* the (B + 1) * (1 -+ level) / 2 -th smallest */
	size_t k = (size_t)((REP_CMP_BOOT + 1) * (1 - REP_CMP_LEVEL) / 2);
	*lo = r[k ? k - 1 : 0];
	*hi = r[REP_CMP_BOOT - (k ? k : 1)];
	free(r);
	free(buf);
	return 0;
}

/* The smallest two-sided p of the exact test for sizes m and n:
 * 2 / C(m + n, m), the two most extreme orderings. */
static double smallest_p(size_t m, size_t n)
{
	double c = 1;
	for (size_t i = 1; i <= m; i++)
		c = c * (double)(n + i) / (double)i;
	return 2 / c;
}

int rep_cmp_test(const double *a, size_t na, const double *b, size_t nb, double tolerance,
		 uint64_t seed, struct rep_cmp_test *t)
{
	memset(t, 0, sizeof(*t));
	t->na = na;
	t->nb = nb;
	t->p = 1;
	if (!na || !nb)
		return 0;
	t->ma = stats_median(a, na);
	t->mb = stats_median(b, nb);
	if (isnan(t->ma) || isnan(t->mb))
		return -ENOMEM;
	if (!(t->ma > 0))
		return 0;
	t->ratio = t->mb / t->ma;
	int rc = stats_mwu(a, na, b, nb, &t->u, &t->p);
	if (rc)
		return rc;
	t->testable = smallest_p(na, nb) < REP_CMP_ALPHA;
	if (na >= 2 && nb >= 2) {
		if ((rc = bootstrap(a, na, b, nb, seed, &t->lo, &t->hi)))
			return rc;
		t->have_ci = 1;
	}
	if (!(fabs(t->ratio - 1) > tolerance))
		t->flag = CMP_SAME;
	else if (!t->testable)
		t->flag = CMP_FEW;
	else if (!(t->p < REP_CMP_ALPHA))
		t->flag = CMP_NOISE;
	else
		t->flag = t->ratio > 1 ? CMP_SLOWER : CMP_FASTER;
	return 0;
}

/* ---- the samples ---- */

/* Which rounds a row takes: 0 all, 1 round 1 only, 2 rounds >= 2 (as
 * summary.c's rows). */
static int row_rounds(enum rep_row row)
{
	switch (row) {
	case ROW_READ_FRESH:
	case ROW_INODE_FRESH:
		return 1;
	case ROW_READ_AGED:
	case ROW_INODE_AGED:
		return 2;
	default:
		return 0;
	}
}

static int grow(double **v, double **w, size_t *cap, size_t n)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	double *nv = realloc(*v, nc * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	if (w) {
		double *nw = realloc(*w, nc * sizeof(**w));
		if (!nw)
			return -ENOMEM;
		*w = nw;
	}
	*cap = nc;
	return 0;
}

/* A later record of ph[0..nph) has the same fs, phase, repetition and
 * round as record i. */
static int later_twin(const struct rep_phase *ph, size_t nph, size_t i)
{
	const struct rep_phase *p = &ph[i];
	for (size_t j = i + 1; j < nph; j++) {
		const struct rep_phase *q = &ph[j];
		if (q->round == p->round && q->rep == p->rep && !strcmp(q->fs, p->fs) &&
		    !strcmp(q->phase, p->phase))
			return 1;
	}
	return 0;
}

long rep_cmp_samples(const struct rep_run *const *runs, size_t nruns, const char *fs,
		     enum rep_row row, unsigned items, double **v, double **rel)
{
	const char *phase = rep_row_phase(row);
	int rounds = row_rounds(row);
	double *x = NULL, *y = NULL;
	size_t n = 0, cap = 0;
	int want_rel = rel != NULL;

	*v = NULL;
	if (rel)
		*rel = NULL;
	for (size_t k = 0; k < nruns && want_rel; k++)
		if (!(rep_control_index(runs[k], items) > 0))
			want_rel = 0;
	for (size_t k = 0; k < nruns; k++) {
		const struct rep_run *r = runs[k];
		double ci = want_rel ? rep_control_index(r, items) : 0;
		/* a run with repetitions: every repetition's record is a
		 * sample (ph holds their medians: report/load/load_reps.c) */
		const struct rep_phase *ph = r->raw ? r->raw : r->ph;
		size_t nph = r->raw ? r->nraw : r->nph;
		for (size_t i = 0; i < nph; i++) {
			const struct rep_phase *p = &ph[i];
			if (strcmp(p->fs, fs) || strcmp(p->phase, phase))
				continue;
			if ((rounds == 1 && p->round != 1) || (rounds == 2 && p->round < 2))
				continue;
			/* the same round of a repetition twice: the later wins */
			if (later_twin(ph, nph, i))
				continue;
			if (grow(&x, want_rel ? &y : NULL, &cap, n)) {
				free(x);
				free(y);
				return -ENOMEM;
			}
			x[n] = p->seconds;
			if (want_rel)
				y[n] = p->seconds / ci;
			n++;
		}
	}
	*v = x;
	if (rel)
		*rel = want_rel ? y : (free(y), NULL);
	return (long)n;
}

/* ---- the conditions ---- */

static const char *const item_key[REP_CTL_N] = { "cpu_s", "copy_s", "tmpfs_s" };
static const char *const size_key[REP_CTL_N] = { "cpu_iterations", "copy_bytes", "tmpfs_files" };

const char *rep_control_item(unsigned item)
{
	static const char *const name[REP_CTL_N] = { "cpu", "copy", "tmpfs" };
	return item < REP_CTL_N ? name[item] : "?";
}

/* A run's control records: the start's and one after each filesystem;
 * their samples pooled, item by item, in the order of the log. */
int ld_load_control(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	double *add[REP_CTL_N] = { NULL };
	size_t nadd[REP_CTL_N] = { 0 };
	const char *why = NULL;

	for (unsigned it = 0; it < REP_CTL_N && !why; it++) {
		const struct jsonr *a = jsonr_get(rec, item_key[it]);
		if (!a)
			continue;
		size_t n = jsonr_len(a);
		if (!jsonr_is(a, JSONR_ARR) || n > 10000) {
			why = "control record: a sample list must be an array of at most 10000 numbers";
			break;
		}
		if (!n)
			continue;
		if (!(add[it] = malloc(n * sizeof(double)))) {
			for (unsigned k = 0; k < REP_CTL_N; k++)
				free(add[k]);
			return ld_oom(L);
		}
		for (size_t i = 0; i < n && !why; i++) {
			double x = jsonr_num(jsonr_at(a, i), -1);
			if (!(x >= 0 && isfinite(x)))
				why = "control record: a sample must be a number of seconds >= 0";
			add[it][i] = x;
		}
		nadd[it] = n;
		uint64_t size = jsonr_u64(jsonr_get(rec, size_key[it]), 0);
		if (!why && r->ctl.have && r->ctl.n[it] && r->ctl.size[it] != size)
			why = "control record: its sizes differ from the run's first control record";
	}
	if (why) {
		for (unsigned k = 0; k < REP_CTL_N; k++)
			free(add[k]);
		return ld_bad(L, "%s", why);
	}
	for (unsigned it = 0; it < REP_CTL_N; it++) {
		if (!nadd[it])
			continue;
		double *v = realloc(r->ctl.v[it], (r->ctl.n[it] + nadd[it]) * sizeof(double));
		if (!v) {
			for (unsigned k = it; k < REP_CTL_N; k++)
				free(add[k]);
			return ld_oom(L);
		}
		memcpy(v + r->ctl.n[it], add[it], nadd[it] * sizeof(double));
		free(add[it]);
		r->ctl.v[it] = v;
		r->ctl.n[it] += nadd[it];
		r->ctl.size[it] = jsonr_u64(jsonr_get(rec, size_key[it]), 0);
	}
	if (!r->ctl.have)
		r->ctl.line = L->line;
	r->ctl.have = 1;
	r->ctl.records++;
	return 0;
}

void ld_control_free(struct rep_run *r)
{
	for (unsigned it = 0; it < REP_CTL_N; it++)
		free(r->ctl.v[it]);
	memset(&r->ctl, 0, sizeof(r->ctl));
}

double rep_control_index(const struct rep_run *r, unsigned items)
{
	double lg = 0;
	unsigned k = 0;

	if (!r->ctl.have || !items)
		return 0;
	for (unsigned it = 0; it < REP_CTL_N; it++) {
		if (!(items & (1u << it)))
			continue;
		if (!r->ctl.n[it])
			return 0;
		double m = stats_median(r->ctl.v[it], r->ctl.n[it]);
		if (!(m > 0))
			return 0;
		lg += log(m);
		k++;
	}
	return exp(lg / k);
}

/* The items every run of a side has, pooled into *v. */
static long pool(const struct rep_run *const *runs, size_t n, unsigned it, double **v)
{
	size_t total = 0, o = 0;
	for (size_t k = 0; k < n; k++)
		total += runs[k]->ctl.n[it];
	if (!(*v = malloc((total ? total : 1) * sizeof(**v))))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		memcpy(*v + o, runs[k]->ctl.v[it], runs[k]->ctl.n[it] * sizeof(**v));
		o += runs[k]->ctl.n[it];
	}
	return (long)total;
}

int rep_cmp_conditions(const struct rep_run *const *a, size_t na, const struct rep_run *const *b,
		       size_t nb, double tolerance, struct rep_cmp_cond *c)
{
	memset(c, 0, sizeof(*c));
	c->items = (1u << REP_CTL_N) - 1;
	for (size_t k = 0; k < na + nb; k++) {
		const struct rep_run *r = k < na ? a[k] : b[k - na];
		if (!r->ctl.have)
			return 0;
		for (unsigned it = 0; it < REP_CTL_N; it++)	/* no samples, or other work */
			if (!r->ctl.n[it] || r->ctl.size[it] != a[0]->ctl.size[it])
				c->items &= ~(1u << it);
	}
	if (!c->items)
		return 0;
	c->have = 1;
	for (unsigned it = 0; it < REP_CTL_N; it++) {
		if (!(c->items & (1u << it)))
			continue;
		double *va, *vb;
		long ma = pool(a, na, it, &va), mb = ma < 0 ? -1 : pool(b, nb, it, &vb);
		if (ma < 0 || mb < 0) {
			if (ma >= 0)
				free(va);
			return -ENOMEM;
		}
		int rc = rep_cmp_test(va, (size_t)ma, vb, (size_t)mb, tolerance,
				      rep_cmp_seed(rep_control_item(it), ROW_N + it), &c->item[it]);
		free(va);
		free(vb);
		if (rc)
			return rc;
		if (c->item[it].flag == CMP_SLOWER || c->item[it].flag == CMP_FASTER)
			c->differ = 1;
	}
	return 0;
}

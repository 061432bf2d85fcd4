/* signif.c: compare by significance (signif.h). */
#include "report/compare/signif.h"
#include "report/table.h"
#include "lib/stats.h"

#include <errno.h>
#include <limits.h>
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
	case CMP_UNDECIDED:
		return data ? "undecided" : "cannot decide";
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

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The median of n values drawn with replacement from v, into buf (sorted
 * there: no copy, no allocation in the resampling loop). */
static double draw_median(const double *v, size_t n, double *buf, uint64_t *s)
{
	for (size_t i = 0; i < n; i++) {	/* drawn into place: an insertion sort */
		double x = v[(size_t)(((splitmix(s) >> 32) * (uint64_t)n) >> 32)];
		size_t j = i;
		for (; j > 0 && buf[j - 1] > x && n <= 64; j--)
			buf[j] = buf[j - 1];
		buf[j] = x;
	}
	if (n > 64)
		qsort(buf, n, sizeof(*buf), cmp_dbl);
	return n % 2 ? buf[n / 2] : (buf[n / 2 - 1] + buf[n / 2]) / 2;
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

/* The pooled standard deviation of the logs of a and b, each about its
 * own mean; NAN with fewer than 3 values or one not above 0. */
static double log_sd(const double *a, size_t na, const double *b, size_t nb)
{
	double ss = 0;
	for (int side = 0; side < 2; side++) {
		const double *v = side ? b : a;
		size_t n = side ? nb : na;
		double mean = 0;
		for (size_t i = 0; i < n; i++) {
			if (!(v[i] > 0))
				return NAN;
			mean += log(v[i]) / (double)n;
		}
		for (size_t i = 0; i < n; i++)
			ss += (log(v[i]) - mean) * (log(v[i]) - mean);
	}
	return na + nb >= 3 ? sqrt(ss / (double)(na + nb - 2)) : NAN;
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
	t->sd = log_sd(a, na, b, nb);
	t->q = t->p;
	t->level = REP_CMP_ALPHA;
	t->mdc = INFINITY;
	if (na >= 2 && nb >= 2) {
		if ((rc = bootstrap(a, na, b, nb, seed, &t->lo, &t->hi)))
			return rc;
		t->have_ci = 1;
	}
	if (!(fabs(t->ratio - 1) > tolerance))
		t->flag = CMP_SAME;
	else if (!t->testable)
		t->flag = CMP_UNDECIDED;
	else if (!(t->p < REP_CMP_ALPHA))
		t->flag = CMP_NOISE;
	else
		t->flag = t->ratio > 1 ? CMP_SLOWER : CMP_FASTER;
	return 0;
}

/* ---- the rows judged together ---- */

static int cmp_by_p(const void *x, const void *y)
{
	double a = (*(struct rep_cmp_test *const *)x)->p, b = (*(struct rep_cmp_test *const *)y)->p;
	return a < b ? -1 : a > b;
}

/* The runs a side that would decide a row of spread sd whose ratio is
 * ratio: those at which a change of the size seen (when beyond the
 * tolerance: it would be flagged) or of the tolerance (when within: it
 * would be ruled out) is seen with REP_CMP_POWER at level (sd 0 or
 * unknown: at which the sizes allow a p below the level at all);
 * REP_CMP_NEED_MAX + 1 when none up to it. The power grows with the
 * runs: a bisection. */
static unsigned runs_needed(double sd, double ratio, double tolerance, double level, long *crit)
{
	double shift = fmax(fabs(log(ratio)), log1p(tolerance));
	double d = isfinite(sd) && sd > 0 ? shift / sd : INFINITY;
	unsigned lo = 1, hi = REP_CMP_NEED_MAX + 1;	/* lo fails, hi passes */
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		int ok;
		/* crit[n]: n against n at level, kept for the family's rows */
		if (crit[mid] == LONG_MIN && stats_mwu_crit(mid, mid, level, &crit[mid]))
			crit[mid] = -1;
		if (!isfinite(d))
			ok = crit[mid] >= 0;
		else
			ok = stats_mwu_power_at(mid, mid, d, crit[mid]) >= REP_CMP_POWER;
		if (ok)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int rep_cmp_judge(struct rep_cmp_test *const *t, size_t m, double tolerance)
{
	struct rep_cmp_test **by = malloc((m ? m : 1) * sizeof(*by));
	long crit[REP_CMP_NEED_MAX + 2];
	size_t k = 0;

	if (!by)
		return -ENOMEM;
	for (size_t i = 0; i < REP_CMP_NEED_MAX + 2; i++)
		crit[i] = LONG_MIN;
	for (size_t i = 0; i < m; i++)
		if (t[i]->flag != CMP_NONE)
			by[k++] = t[i];
	qsort(by, k, sizeof(*by), cmp_by_p);
	/* q(i) = min over j >= i of p(j) k / j, at most 1 */
	double run = 1;
	for (size_t j = k; j-- > 0;) {
		double q = by[j]->p * (double)k / (double)(j + 1);
		run = q < run ? q : run;
		by[j]->q = run;
	}
	double level = k ? REP_CMP_ALPHA / (double)k : REP_CMP_ALPHA;
	for (size_t j = 0; j < k; j++) {
		struct rep_cmp_test *x = by[j];
		x->level = level;
		x->need = 0;
		x->need_atleast = 0;
		double d = stats_mwu_mdc(x->na, x->nb, level, REP_CMP_POWER);
		x->mdc = !isfinite(d) || isnan(x->sd) ? INFINITY : expm1(d * x->sd);
		int beyond = fabs(x->ratio - 1) > tolerance;
		if (beyond && x->q < REP_CMP_ALPHA)
			x->flag = x->ratio > 1 ? CMP_SLOWER : CMP_FASTER;
		else if (x->mdc <= tolerance)
			x->flag = beyond ? CMP_NOISE : CMP_SAME;
		else {
			x->flag = CMP_UNDECIDED;
			x->need_atleast = isnan(x->sd);
			x->need = runs_needed(x->sd, x->ratio, tolerance, level, crit);
		}
	}
	free(by);
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
	double *x = NULL, *y = NULL, *sec = NULL;
	unsigned *rp = NULL;
	size_t n = 0, cap = 0, scap = 0;
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
		/* a run with repetitions: every repetition's records (ph holds
		 * their medians: report/load/load_reps.c) */
		const struct rep_phase *ph = r->raw ? r->raw : r->ph;
		size_t nph = r->raw ? r->nraw : r->nph, ns = 0;
		if (scap < nph) {	/* sec: the rounds, then one repetition's */
			double *ns_ = realloc(sec, 2 * nph * sizeof(*sec));
			unsigned *nr = ns_ ? realloc(rp, nph * sizeof(*rp)) : NULL;
			if (ns_)
				sec = ns_;
			if (!nr)
				goto oom;
			rp = nr;
			scap = nph;
		}
		for (size_t i = 0; i < nph; i++) {
			const struct rep_phase *p = &ph[i];
			if (strcmp(p->fs, fs) || strcmp(p->phase, phase))
				continue;
			if ((rounds == 1 && p->round != 1) || (rounds == 2 && p->round < 2))
				continue;
			/* the same round of a repetition twice: the later wins */
			if (later_twin(ph, nph, i))
				continue;
			sec[ns] = p->seconds;
			rp[ns++] = p->rep;
		}
		/* one sample a repetition, in the order they first appear */
		for (size_t i = 0; i < ns; i++) {
			size_t m = 0, j;
			for (j = 0; j < i && rp[j] != rp[i]; j++)
				;
			if (j < i)
				continue;	/* this repetition is done */
			for (j = i; j < ns; j++)
				if (rp[j] == rp[i])
					sec[scap + m++] = sec[j];
			if (grow(&x, want_rel ? &y : NULL, &cap, n))
				goto oom;
			x[n] = stats_median(sec + scap, m);
			if (want_rel)
				y[n] = x[n] / ci;
			n++;
		}
	}
	free(sec);
	free(rp);
	*v = x;
	if (rel)
		*rel = want_rel ? y : (free(y), NULL);
	return (long)n;
oom:
	free(sec);
	free(rp);
	free(x);
	free(y);
	return -ENOMEM;
}

/* ---- the conditions ---- */

const char *rep_control_item(unsigned item)
{
	static const char *const name[REP_CTL_N] = { "cpu", "copy", "tmpfs" };
	return item < REP_CTL_N ? name[item] : "?";
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

/* stats.c: the median and the Mann-Whitney U test (stats.h). */
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

double stats_median(const double *v, size_t n)
{
	double small[64], *c = small;

	if (!n)
		return NAN;
	if (n > sizeof(small) / sizeof(small[0]) && !(c = malloc(n * sizeof(*c))))
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_dbl);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	if (c != small)
		free(c);
	return m;
}

/* A value and the sample it came from. */
struct obs {
	double x;
	int from_a;
};

static int cmp_obs(const void *x, const void *y)
{
	return cmp_dbl(&((const struct obs *)x)->x, &((const struct obs *)y)->x);
}

/* P(U <= k) for U of samples of sizes m and n without ties: the counts of
 * U are the coefficients of the Gaussian binomial [m+n choose m]_q, the
 * product over i = 1..m of (1 - q^(n+i)) / (1 - q^i), built one factor at
 * a time. Every count is a whole number of at most C(50, 25) < 2^53, so a
 * double holds it exactly. */
static int exact_cdf(size_t m, size_t n, double k, double *lower, double *upper)
{
	size_t top = m * n;
	double *c = calloc(top + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t s = n + i;
		for (size_t j = top; j >= s; j--)	/* times (1 - q^s) */
			c[j] -= c[j - s];
		for (size_t j = i; j <= top; j++)	/* over (1 - q^i) */
			c[j] += c[j - i];
	}
	double all = 0, lo = 0, hi = 0;
	for (size_t j = 0; j <= top; j++) {
		all += c[j];
		if ((double)j <= k)
			lo += c[j];
		if ((double)j >= k)
			hi += c[j];
	}
	free(c);
	*lower = lo / all;
	*upper = hi / all;
	return 0;
}

int stats_mwu(const double *a, size_t na, const double *b, size_t nb, double *u, double *p)
{
	size_t n = na + nb;

	if (!na || !nb)
		return -EINVAL;
	struct obs *o = malloc(n * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		o[i] = (struct obs){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		o[na + i] = (struct obs){ b[i], 0 };
	qsort(o, n, sizeof(*o), cmp_obs);

	double ra = 0, ties = 0;	/* a's rank sum (mid-ranks), sum of t^3 - t */
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && o[j].x == o[i].x)
			j++;
		double t = (double)(j - i), mid = (double)(i + 1 + j) / 2;
		for (size_t k = i; k < j; k++)
			if (o[k].from_a)
				ra += mid;
		ties += t * t * t - t;
		i = j;
	}
	free(o);
	double ua = ra - (double)na * (double)(na + 1) / 2;
	*u = ua;

	if (ties == 0 && n <= 50) {
		double lo, hi;
		if (exact_cdf(na, nb, ua, &lo, &hi))
			return -ENOMEM;
		double q = 2 * (lo < hi ? lo : hi);
		*p = q > 1 ? 1 : q;
		return 0;
	}
	double dn = (double)n, mu = (double)na * (double)nb / 2;
	double var = (double)na * (double)nb / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
	if (!(var > 0)) {	/* every value the same */
		*p = 1;
		return 0;
	}
	double d = fabs(ua - mu) - 0.5;
	if (d < 0)
		d = 0;
	double q = erfc(d / sqrt(var) / sqrt(2.0));
	*p = q > 1 ? 1 : q;
	return 0;
}

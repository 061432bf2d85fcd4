/* stats.c: median, its order-statistics interval, the coefficient of
 * variation, Mann-Whitney U (lib/stats.h). Checked against R by
 * tests/unit/test_stats.c (tests/unit/data/stats.R). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_dbl);
	return s;
}

double stats_median(const double *v, size_t n)
{
	double *s, m;

	if (!n || !(s = sorted_copy(v, n)))
		return NAN;
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* P(B <= k) for B ~ Bin(n, 1/2), summed in logs (n may be large). */
static double binom_half_cdf(size_t n, size_t k)
{
	double sum = 0, lc = 0;	/* log C(n, 0) */

	for (size_t i = 0; i <= k && i <= n; i++) {
		sum += exp(lc - (double)n * M_LN2);
		lc += log((double)(n - i)) - log((double)(i + 1));
	}
	return sum;
}

int stats_median_ci(const double *v, size_t n, double level, double *lo, double *hi)
{
	double tail = (1 - level) / 2;
	size_t k = 0;	/* the interval is [x(k), x(n-k+1)], 1-based; 0: none */
	double *s;

	if (!(level > 0 && level < 1))
		return -EINVAL;
	/* the largest k with P(B <= k-1) <= tail */
	while (k + 1 <= (n + 1) / 2 && binom_half_cdf(n, k) <= tail)
		k++;
	if (!n || k == 0)
		return -EDOM;
	if (!(s = sorted_copy(v, n)))
		return -ENOMEM;
	*lo = s[k - 1];
	*hi = s[n - k];
	free(s);
	return 0;
}

double stats_cv(const double *v, size_t n)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	if (mean == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(n - 1)) / mean;
}

/* The exact two-sided p of U = u for samples of m and n without ties:
 * the counts of every U from the Gaussian binomial coefficient
 * [m+n choose m]_q, c[a][w] over b = 0..n (c_b[a][w] = c_{b-1}[a][w] +
 * c_b[a-1][w-b]), then R's rule: 2 x the smaller tail, at most 1. */
static int mwu_exact(size_t m, size_t n, double u, double *p)
{
	size_t W = m * n + 1;
	double *c = calloc((m + 1) * W, sizeof(*c)), total = 0, below = 0, above = 0;

	if (!c)
		return -ENOMEM;
	for (size_t a = 0; a <= m; a++)
		c[a * W] = 1;	/* b = 0: one way, U = 0 */
	for (size_t b = 1; b <= n; b++)
		for (size_t a = 1; a <= m; a++)
			for (size_t w = b; w < W; w++)
				c[a * W + w] += c[(a - 1) * W + w - b];
	for (size_t w = 0; w < W; w++) {
		double cw = c[m * W + w];
		total += cw;
		if ((double)w <= u)
			below += cw;
		if ((double)w >= u)
			above += cw;
	}
	free(c);
	/* R: u above the middle takes the upper tail P(U >= u), else the lower */
	double tailp = u > (double)(m * n) / 2 ? above / total : below / total;
	*p = fmin(1, 2 * tailp);
	return 0;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_dbl(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

int stats_mwu(const double *a, size_t na, const double *b, size_t nb, double *u, double *p)
{
	size_t n = na + nb;
	struct ranked *r;
	double ranksum = 0, ties = 0;
	int tied = 0;

	if (!na || !nb)
		return -EINVAL;
	if (!(r = malloc(n * sizeof(*r))))
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (size_t j = 0; j < nb; j++)
		r[na + j] = (struct ranked){ b[j], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* mid-ranks; sum of t^3 - t over the groups of ties */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		double t = (double)(j - i + 1), rank = ((double)i + (double)j) / 2 + 1;
		for (size_t k = i; k <= j; k++)
			if (r[k].from_a)
				ranksum += rank;
		if (t > 1) {
			tied = 1;
			ties += t * t * t - t;
		}
		i = j + 1;
	}
	free(r);
	*u = ranksum - (double)na * (double)(na + 1) / 2;
	if (!tied && na < 50 && nb < 50)
		return mwu_exact(na, nb, *u, p);
	double z = *u - (double)na * (double)nb / 2;
	double dn = (double)n;
	double sigma = sqrt((double)na * (double)nb / 12 * ((dn + 1) - ties / (dn * (dn - 1))));
	if (!(sigma > 0)) {
		*p = 1;
		return 0;
	}
	z -= z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
	*p = fmin(1, erfc(fabs(z) / sigma / M_SQRT2));
	return 0;
}

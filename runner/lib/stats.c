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

/* The counts of every U = 0 .. m n for samples of m and n without ties,
 * from the Gaussian binomial coefficient [m+n choose m]_q: c[a][w] over
 * b = 0..n (c_b[a][w] = c_{b-1}[a][w] + c_b[a-1][w-b]); the m n + 1
 * counts of a = m returned (malloc'd), or NULL. */
static double *mwu_counts(size_t m, size_t n)
{
	size_t W = m * n + 1;
	double *c = calloc((m + 1) * W, sizeof(*c));

	if (!c)
		return NULL;
	for (size_t a = 0; a <= m; a++)
		c[a * W] = 1;	/* b = 0: one way, U = 0 */
	for (size_t b = 1; b <= n; b++)
		for (size_t a = 1; a <= m; a++)
			for (size_t w = b; w < W; w++)
				c[a * W + w] += c[(a - 1) * W + w - b];
	memmove(c, c + m * W, W * sizeof(*c));
	return c;
}

/* The exact two-sided p of U = u: R's rule, 2 x the smaller tail, at
 * most 1. */
static int mwu_exact(size_t m, size_t n, double u, double *p)
{
	size_t W = m * n + 1;
	double *c = mwu_counts(m, n), total = 0, below = 0, above = 0;

	if (!c)
		return -ENOMEM;
	for (size_t w = 0; w < W; w++) {
		double cw = c[w];
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

/* ---- the power of the test, and the smallest change it sees ---- */

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

/* The upper quantile z with 2 (1 - Phi(z)) = level, by bisection. */
static double norm_two_sided(double level)
{
	double lo = 0, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / M_SQRT2) > level)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

int stats_mwu_crit(size_t m, size_t n, double level, long *crit)
{
	double mn = (double)m * (double)n;

	*crit = -1;
	if (!m || !n || !(level > 0 && level < 1))
		return -EINVAL;
	if (m < 50 && n < 50) {	/* exact: the counts' lower tail */
		double *c = mwu_counts(m, n), total = 0, below = 0;
		if (!c)
			return -ENOMEM;
		for (size_t w = 0; w <= m * n; w++)
			total += c[w];
		for (size_t w = 0; 2 * w < m * n; w++) {
			below += c[w];
			if (!(2 * below / total < level))
				break;
			*crit = (long)w;
		}
		free(c);
		return 0;
	}
	/* the normal approximation as stats_mwu has it, without ties */
	double sigma = sqrt(mn * ((double)(m + n) + 1) / 12);
	double u = floor(mn / 2 - 0.5 - norm_two_sided(level) * sigma);
	while (u >= 0 && !(erfc((mn / 2 - u - 0.5) / sigma / M_SQRT2) < level))
		u--;
	while (u + 1 < mn / 2 && erfc((mn / 2 - u - 1.5) / sigma / M_SQRT2) < level)
		u++;
	*crit = u < 0 ? -1 : (long)u;
	return 0;
}

/* E[Phi(Z - d)^2], Z standard normal: P(X > Y1, X > Y2) for X ~ N(0, 1)
 * and Y1, Y2 ~ N(d, 1) (Simpson's rule over +-8, 200 steps: within 1e-9
 * of a 4000-step sum over +-10). */
static double both_below(double d)
{
	const int k = 200;
	const double a = -8, h = 16.0 / k;
	double s = 0;
	for (int i = 0; i <= k; i++) {
		double z = a + h * i, f = exp(-z * z / 2) / sqrt(2 * M_PI) * pow(norm_cdf(z - d), 2);
		s += f * (i == 0 || i == k ? 1 : i % 2 ? 4 : 2);
	}
	return s * h / 3;
}

double stats_mwu_power_at(size_t m, size_t n, double d, long crit)
{
	double mn = (double)m * (double)n;
	double p1 = norm_cdf(-d / M_SQRT2), p2 = both_below(d);
	double mu = mn * p1;
	double var = mn * (p1 * (1 - p1) + ((double)m + (double)n - 2) * (p2 - p1 * p1));
	if (crit < 0)
		return 0;
	if (!(var > 0))
		return mu <= (double)crit ? 1 : 0;
	return norm_cdf(((double)crit + 0.5 - mu) / sqrt(var));
}

double stats_mwu_power(size_t m, size_t n, double d, double level)
{
	long crit;

	if (stats_mwu_crit(m, n, level, &crit) || crit < 0)
		return 0;
	return stats_mwu_power_at(m, n, d, crit);
}

double stats_mwu_mdc(size_t m, size_t n, double level, double power)
{
	double lo = 0, hi = 40;
	long crit;

	if (stats_mwu_crit(m, n, level, &crit) || crit < 0 || !(stats_mwu_power_at(m, n, hi, crit) >= power))
		return INFINITY;
	for (int i = 0; i < 32; i++) {	/* to 40 / 2^32 */
		double mid = (lo + hi) / 2;
		if (stats_mwu_power_at(m, n, mid, crit) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

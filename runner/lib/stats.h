/* stats.h: the few statistics the runner and the report need, on small
 * samples (a phase's repetitions, two columns' repetitions): the median,
 * its distribution-free confidence interval from order statistics, the
 * coefficient of variation, the Mann-Whitney U test and its power
 * (lib/stats.c).
 * Pure functions: nothing printed, nothing kept; the inputs are not
 * changed (a sorted copy is made where one is needed). */
#ifndef FSB_STATS_H
#define FSB_STATS_H

#include <stddef.h>

/* The median of v[0..n-1], n >= 1: the middle value, or the mean of the
 * two middle values for an even n. NaN when n is 0 or there is no memory
 * for the sorted copy. */
double stats_median(const double *v, size_t n);

/* The distribution-free confidence interval of the median at `level`
 * (0.95 for 95 %): [x(k), x(n-k+1)] of the sorted sample with the largest
 * k whose binomial coverage 1 - 2 P(B <= k-1), B ~ Bin(n, 1/2), is at least
 * level (the sign test's interval; no assumption on the distribution).
 * Returns 0, or -EDOM when n is too small for the level (at 95 % n must be
 * at least 6; lo and hi are then left untouched), -EINVAL for a level
 * outside (0, 1), -ENOMEM. */
int stats_median_ci(const double *v, size_t n, double level, double *lo, double *hi);

/* The coefficient of variation: the sample standard deviation (n - 1 in
 * the denominator) over the mean. NaN when n < 2 or the mean is 0. */
double stats_cv(const double *v, size_t n);

/* The Mann-Whitney U test (Wilcoxon rank-sum) of a against b, two-sided.
 * *u is the U of a: the pairs (a[i], b[j]) with a[i] > b[j], a tie
 * counting one half (R's W of wilcox.test(a, b)). *p is exact (the
 * distribution of U by counting) when both samples are smaller than 50
 * and no value is tied; otherwise the normal approximation with the tie
 * correction of the variance and a continuity correction of 1/2 (R's
 * wilcox.test(a, b, exact = FALSE, correct = TRUE)); 1 when every value
 * is the same. Returns 0, -EINVAL when a sample is empty, -ENOMEM. */
int stats_mwu(const double *a, size_t na, const double *b, size_t nb, double *u, double *p);

/* The test's critical value at `level` for samples of m and n without
 * ties: the largest U whose two-sided p (as stats_mwu gives it) is below
 * level, into *crit; -1 when no U is (the sizes are too small for the
 * level: 3 against 3 at 0.05). 0, -EINVAL, -ENOMEM. */
int stats_mwu_crit(size_t m, size_t n, double level, long *crit);

/* The power of the test at `level` against a shift of d standard
 * deviations (A's values N(0, 1), B's N(d, 1), d >= 0): the chance that
 * the U of A is at most the critical value. U under the shift taken as
 * normal with Lehmann's mean and variance, m n p1 and m n (p1 (1 - p1) +
 * (m + n - 2) (p2 - p1^2)), p1 = Phi(-d / sqrt 2), p2 = E[Phi(Z - d)^2]
 * (the two "X above both Ys" probabilities are equal for a normal
 * shift), with a continuity correction of 1/2. 0 when the sizes allow no
 * p below level. */
double stats_mwu_power(size_t m, size_t n, double d, double level);
/* The same with the critical value given (stats_mwu_crit's; < 0: 0). */
double stats_mwu_power_at(size_t m, size_t n, double d, long crit);

/* The minimum detectable shift: the smallest d (standard deviations) at
 * which stats_mwu_power reaches `power` (0.8), by bisection; INFINITY when
 * no shift does (the sizes are too small for the level). */
double stats_mwu_mdc(size_t m, size_t n, double level, double power);

#endif

/* stats.h: numbers of samples (stats.c): the median and the Mann-Whitney U
 * test. Library code: no printing, -errno on failure. */
#ifndef FSB_STATS_H
#define FSB_STATS_H

#include <stddef.h>

/* The median of v[0..n), n >= 1 (v is not changed: a copy is sorted); an
 * even n: the mean of the two middle values. NaN when n is 0 or out of
 * memory. */
double stats_median(const double *v, size_t n);

/* The Mann-Whitney U test of a[0..na) against b[0..nb): *u is a's U (the
 * pairs a > b, a tie counting one half), *p the two-sided p-value: from
 * the exact distribution of U when there are no ties and na + nb <= 50,
 * else the normal approximation with the tie and continuity corrections.
 * 0, or -EINVAL when na or nb is 0, -ENOMEM. */
int stats_mwu(const double *a, size_t na, const double *b, size_t nb, double *u, double *p);

#endif

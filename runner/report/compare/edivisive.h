/* edivisive.h: change points of a series by E-divisive means (edivisive.c),
 * for `fsbench history --changes` (changes.h).
 *
 * The method is Matteson and James, "A Nonparametric Approach for Multiple
 * Change Point Analysis of Multivariate Data", JASA 109 (2014), as
 * MongoDB's signal-processing-algorithms and Apache Otava (formerly Hunter)
 * use it: the divergence of two parts of a segment is the energy statistic
 * with exponent 1,
 *
 *   Q = m n / (m + n) * (2/(m n) sum |x_i - y_j| - 1/C(m,2) sum_{i<k} |x_i - x_k|
 *                                             - 1/C(n,2) sum_{j<k} |y_j - y_k|)
 *
 * (x the m values before the split, y the n after it); the split of a
 * segment is where Q is largest (ties: the earliest), each part at least
 * min_seg long, and the best split of all segments is the candidate (the
 * end of a segment is the series' end or a change point found before:
 * MongoDB's simplification, no search for a second end). The candidate is
 * a change point when a permutation test finds it significant: the values
 * of each segment shuffled within it, perms times, the best split of the
 * shuffled series found the same way; p = (1 + the shuffles whose Q is at
 * least the candidate's) / (1 + perms). A change point found, the search
 * goes on in its two parts, until a candidate's p exceeds sig or no
 * segment can be split. The shuffles come from a seeded generator
 * (splitmix64), so a series and a seed always give the same result, on
 * every machine.
 *
 * Nothing here prints or allocates beyond its work arrays.
 */
#ifndef FSB_REPORT_EDIVISIVE_H
#define FSB_REPORT_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

#define REP_EDIV_SIG 0.01	/* significance level */
#define REP_EDIV_PERMS 199u	/* permutations */
#define REP_EDIV_MIN_SEG 3u	/* values on each side of a change, at least */
#define REP_EDIV_SEED 1u
#define REP_EDIV_MAX_PERMS 100000u

struct rep_ediv_opts {
	double sig;		/* 0 < sig < 1 */
	unsigned perms;		/* 1 .. REP_EDIV_MAX_PERMS */
	size_t min_seg;		/* >= 2 */
	uint64_t seed;
};

/* One change point. */
struct rep_ediv_cp {
	size_t at;		/* the index of the first value of the new level */
	double q;		/* the energy statistic of the split */
	double p;		/* its permutation p-value */
};

/* The defaults above. */
void rep_ediv_defaults(struct rep_ediv_opts *o);
/* 0 when o can be used; -EINVAL when a field is out of range, or when perms
 * is too few to reach sig (the smallest p is 1 / (perms + 1)). */
int rep_ediv_check(const struct rep_ediv_opts *o);
/* The change points of x[0..n) (finite values), sorted by index, into
 * cp[0..*ncp) (room for n / o->min_seg of them is enough; cpmax says how
 * many fit). The permutations are seeded with seed. Returns 0; -EINVAL
 * (o out of range), -ENOMEM. */
int rep_ediv(const double *x, size_t n, const struct rep_ediv_opts *o, uint64_t seed,
	     struct rep_ediv_cp *cp, size_t cpmax, size_t *ncp);

/* splitmix64: the generator of the permutations, for a caller that needs
 * the same stream (the tests' synthetic series). */
uint64_t rep_ediv_next(uint64_t *state);

#endif

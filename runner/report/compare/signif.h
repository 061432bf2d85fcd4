/* signif.h: compare by significance (signif.c): a row's samples on each
 * side, the ratio of their medians with a bootstrap interval, the
 * Mann-Whitney U test, and the runs' conditions (their `control`
 * records) compared the same way. Library code: -errno, never prints. */
#ifndef FSB_REPORT_SIGNIF_H
#define FSB_REPORT_SIGNIF_H

#include <stddef.h>
#include <stdint.h>

#include "report/model.h"
#include "report/sections/summary.h"

#define REP_CMP_ALPHA 0.05	/* a difference is significant when p < this */
#define REP_CMP_BOOT 2000	/* bootstrap resamples of the ratio of medians */
#define REP_CMP_LEVEL 0.95	/* the interval's level */

/* How a later side's row stands against A's. */
enum rep_cmp_flag {
	CMP_NONE = 0,	/* nothing to compare: a side without a value, A at 0 s */
	CMP_SAME,	/* the ratio of medians is within the tolerance */
	CMP_NOISE,	/* beyond the tolerance, not significant (p >= 0.05) */
	CMP_SLOWER,	/* flagged: beyond the tolerance, significant, slower */
	CMP_FASTER,	/* flagged: beyond the tolerance, significant, faster */
	CMP_FEW,	/* beyond the tolerance, too few samples: no p the
			 * sizes allow is below 0.05 (e.g. 3 against 3) */
};
/* The flag as a reader sees it (view REP_VIEW_READ: "slower", "not
 * significant", "too few samples", "" within the tolerance) or as data
 * ("within_tolerance", "not_significant", "too_few"). */
const char *rep_cmp_flag_name(enum rep_cmp_flag f, unsigned view);

/* B's samples against A's. */
struct rep_cmp_test {
	size_t na, nb;
	double ma, mb;		/* the medians */
	double ratio;		/* mb / ma */
	int have_ci;		/* both sides have 2 samples or more */
	double lo, hi;		/* the percentile bootstrap interval of the ratio
				 * (REP_CMP_BOOT resamples of each side, REP_CMP_LEVEL) */
	double u, p;		/* Mann-Whitney U (A's) and its two-sided p */
	int testable;		/* the smallest p these sizes allow is < REP_CMP_ALPHA */
	enum rep_cmp_flag flag;
};
/* The test of b against a, tolerance a fraction: flagged (CMP_SLOWER,
 * CMP_FASTER) only when |ratio - 1| > tolerance and p < REP_CMP_ALPHA.
 * The bootstrap draws from seed: the same inputs give the same interval.
 * 0, or -ENOMEM. */
int rep_cmp_test(const double *a, size_t na, const double *b, size_t nb, double tolerance,
		 uint64_t seed, struct rep_cmp_test *t);
/* A seed for a row: from its filesystem's name and the row, so that a
 * row's interval does not depend on which other rows are compared. */
uint64_t rep_cmp_seed(const char *fs, unsigned row);

/* The samples of a summary row on one side: the seconds of every round
 * the row takes (rep_summary_stats' rounds) of every repetition of every
 * run, a round of a repetition recorded twice counting once (the later
 * record). With rel, also each sample over its run's control index
 * (rep_control_index of items); rel is left NULL when a run has no
 * control. *v and *rel malloc'd (NULL when none). The count, or -ENOMEM. */
long rep_cmp_samples(const struct rep_run *const *runs, size_t nruns, const char *fs,
		     enum rep_row row, unsigned items, double **v, double **rel);

/* The control items' names: "cpu", "copy", "tmpfs". */
const char *rep_control_item(unsigned item);
/* A run's control index: the geometric mean of the medians of the items
 * in the mask items (bit REP_CTL_*), seconds; 0 when the run lacks one. */
double rep_control_index(const struct rep_run *r, unsigned items);

/* The conditions of side B against side A, from their control records. */
struct rep_cmp_cond {
	int have;		/* every run of both sides has a control record */
	unsigned items;		/* the items every one of them has (bits) */
	struct rep_cmp_test item[REP_CTL_N];	/* each item's samples, pooled per side */
	int differ;		/* an item flagged slower or faster */
};
/* 0, or -ENOMEM. */
int rep_cmp_conditions(const struct rep_run *const *a, size_t na, const struct rep_run *const *b,
		       size_t nb, double tolerance, struct rep_cmp_cond *c);

#endif

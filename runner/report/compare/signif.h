/* signif.h: compare by significance (signif.c): a row's samples on each
 * side (one a run, or a repetition of a run), the ratio of their medians
 * with a bootstrap interval, the Mann-Whitney U test, the false flags
 * controlled over a side's rows (Benjamini-Hochberg), the smallest change
 * the samples could have seen and the runs that would decide a row they
 * cannot; and the runs' conditions (their `control` records) compared the
 * same way. Library code: -errno, never prints. */
#ifndef FSB_REPORT_SIGNIF_H
#define FSB_REPORT_SIGNIF_H

#include <stddef.h>
#include <stdint.h>

#include "report/model.h"
#include "report/sections/summary.h"

#define REP_CMP_ALPHA 0.05	/* a difference is significant when p < this */
#define REP_CMP_BOOT 2000	/* bootstrap resamples of the ratio of medians */
#define REP_CMP_LEVEL 0.95	/* the interval's level */
#define REP_CMP_POWER 0.80	/* the power of the minimum detectable change */
#define REP_CMP_NEED_MAX 200	/* runs a side looked at for a row undecided */

/* How a later side's row stands against A's. */
enum rep_cmp_flag {
	CMP_NONE = 0,	/* nothing to compare: a side without a value, A at 0 s */
	CMP_SAME,	/* the ratio of medians is within the tolerance */
	CMP_NOISE,	/* beyond the tolerance, not significant (p >= 0.05) */
	CMP_SLOWER,	/* flagged: beyond the tolerance, significant, slower */
	CMP_FASTER,	/* flagged: beyond the tolerance, significant, faster */
	CMP_UNDECIDED,	/* not flagged, and these samples could not have seen
			 * a change of the tolerance: too few, or too spread
			 * (rep_cmp_judge; rep_cmp_test alone: no p the sizes
			 * allow is below 0.05, e.g. 3 against 3) */
};
/* The flag as a reader sees it (view REP_VIEW_READ: "slower", "not
 * significant", "cannot decide", "" within the tolerance) or as data
 * ("within_tolerance", "not_significant", "undecided"). */
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
	double sd;		/* the pooled standard deviation of the samples'
				 * logs (each about its side's mean); NAN with
				 * fewer than 3 samples, or a sample <= 0 */
	/* rep_cmp_judge's, over a family of rows: */
	double q;		/* p adjusted (Benjamini-Hochberg); p alone */
	double level;		/* the level of the minimum detectable change:
				 * REP_CMP_ALPHA over the rows of the family */
	double mdc;		/* the minimum detectable change, B/A - 1: the
				 * smallest slowdown these sizes and this spread
				 * flag at level with REP_CMP_POWER; INFINITY when
				 * none would be (too few samples, spread unknown) */
	unsigned need;		/* CMP_UNDECIDED: the runs a side that would
				 * decide it: flag a change of the size seen
				 * when it is beyond the tolerance, else rule
				 * out one of the tolerance, with REP_CMP_POWER
				 * (REP_CMP_NEED_MAX + 1: more) */
	int need_atleast;	/* need from the sizes alone: no spread known */
	enum rep_cmp_flag flag;
};
/* The test of b against a, tolerance a fraction: flagged (CMP_SLOWER,
 * CMP_FASTER) only when |ratio - 1| > tolerance and p < REP_CMP_ALPHA.
 * The bootstrap draws from seed: the same inputs give the same interval.
 * 0, or -ENOMEM. */
int rep_cmp_test(const double *a, size_t na, const double *b, size_t nb, double tolerance,
		 uint64_t seed, struct rep_cmp_test *t);
/* The rows of a family (one side's rows against A) judged together:
 * each test's p adjusted over the m tests that have a value (flag other
 * than CMP_NONE) by Benjamini-Hochberg into q; flagged slower or faster
 * when q < REP_CMP_ALPHA and the ratio is beyond the tolerance; otherwise
 * decided (CMP_SAME, CMP_NOISE) when the minimum detectable change at
 * REP_CMP_ALPHA / m (the level one row changed alone must reach) is
 * within the tolerance, else CMP_UNDECIDED with the runs a side that
 * would bring it there. Why Benjamini-Hochberg: when no row changed (an
 * A/A) its false-discovery rate is the chance of any false flag, held at
 * 5 %; when a change is real on many rows (a slower disk slows every read
 * row) it keeps the power that Holm's steps lose. 0, or -ENOMEM. */
int rep_cmp_judge(struct rep_cmp_test *const *t, size_t m, double tolerance);

/* A seed for a row: from its filesystem's name and the row, so that a
 * row's interval does not depend on which other rows are compared. */
uint64_t rep_cmp_seed(const char *fs, unsigned row);

/* The samples of a summary row on one side: one per repetition of every
 * run (a run without repetitions is one), the median of the seconds of
 * the rounds the row takes (rep_summary_stats' rounds) in it; a round of
 * a repetition recorded twice counts once (the later record). A run's
 * rounds age one filesystem in one boot: they are not independent of
 * each other, its repetitions (each on a new filesystem) and other runs
 * are. With rel, also each sample over its run's control index
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

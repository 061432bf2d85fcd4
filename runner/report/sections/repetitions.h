/* repetitions.h: the statistics of a run with repetitions (setting
 * repeat; repetitions.c): per fs, round and phase the median of the
 * repetitions' seconds, its distribution-free 95 % confidence interval
 * from order statistics, the coefficient of variation and n (lib/stats.h);
 * and each variant against its base column, the ratio of the medians with
 * the Mann-Whitney U test's p. */
#ifndef FSB_REPORT_REPETITIONS_H
#define FSB_REPORT_REPETITIONS_H

#include "report/model.h"
#include "report/table.h"

#define REP_ALPHA 0.05		/* a difference is significant below this p */

/* 1 when r has repetitions (a phase record with rep above 1). */
int rep_has_reps(const struct rep_run *r);
/* 1 when r has repetitions and a variant column. */
int rep_has_reps_variants(const struct rep_run *r);
/* One row per fs, round and phase: n, median, the interval, its width,
 * the CV, and with `repeat = auto` whether it converged. 0 or -ENOMEM. */
int rep_table_repetitions(const struct rep_run *r, struct rep_table *t);

/* A variant's phase against its base's. */
enum rep_vs_flag { VS_NONE, VS_SAME, VS_SLOWER, VS_FASTER };
struct rep_vs {
	double ratio;		/* median seconds of the variant / of the base */
	double u, p;		/* Mann-Whitney U of the variant, two-sided p */
	double p_holm;		/* p adjusted over the variant's rows (Holm) */
	size_t na, nb;		/* repetitions of the variant, of the base */
	enum rep_vs_flag flag;
};
/* The variant's (fs) phase of a round against the same of column base,
 * from the repetitions in r->raw: ratio, U and p (p_holm = p, flag
 * VS_NONE). -ENOENT when one of them has none, -ENOMEM. */
int rep_vs_judge(const struct rep_run *r, const char *fs, const char *base, unsigned round,
		 const char *phase, struct rep_vs *out);
/* Holm's adjustment of the p of n comparisons (one family: a variant's
 * rows), into each p_holm, then each flag: SLOWER or FASTER when p_holm <
 * REP_ALPHA and the ratio is beyond 1 +- tolerance, else SAME. So the 5 %
 * holds for the family, not each row: an A/A variant flags no row in 95 %
 * of runs. */
void rep_vs_holm(struct rep_vs *vs, size_t n, double tolerance);
/* One row per variant column, round and phase with its base column in the
 * run: the ratio, p, Holm's p and the flag (tolerance: REP_CMP_TOLERANCE).
 * 0 or -ENOMEM. */
int rep_table_versus(const struct rep_run *r, struct rep_table *t);

#endif

/* sidebyside.h: two runs or more side by side, flagged beyond the noise, and the published reference as a run
 * (sidebyside.c). Builders fill *t (table.h) and return 0, or -ENOMEM with *t
 * freed. */
#ifndef FSB_REPORT_COMPARE_H
#define FSB_REPORT_COMPARE_H

#include "report/model.h"
#include "report/sections/summary.h"
#include "report/table.h"

#define REP_CMP_MAX 26		/* runs compared at once: A to Z */
#define REP_CMP_TOLERANCE 0.10	/* --tolerance's default, a fraction */

/* A run to compare and where it was read from. */
struct rep_cmp_run {
	const struct rep_run *run;
	const char *name;
};

/* How a later run's summary cell stands against A's. */
enum rep_cmp_flag {
	CMP_NONE = 0,	/* nothing to compare: a side without a value, A at 0 s */
	CMP_SAME,	/* the difference is within the tolerance */
	CMP_NOISE,	/* beyond the tolerance, within the spread of the rounds */
	CMP_SLOWER,	/* flagged: slower by more than both */
	CMP_FASTER,	/* flagged: faster by more than both */
};

/* The rule: b is flagged when |b.median - a.median| exceeds both
 * tolerance x a.median and the larger of a's and b's spread x median (for
 * a spread of the rounds, (max - min) / median: the range of the rounds).
 * tolerance is a fraction. */
enum rep_cmp_flag rep_cmp_judge(const struct rep_stats *a, const struct rep_stats *b,
				double tolerance);
/* The flag as a reader sees it (view REP_VIEW_READ: "slower", "within
 * spread", "" within the tolerance) or as data ("within_tolerance"). */
const char *rep_cmp_flag_name(enum rep_cmp_flag f, unsigned view);

/* Where a row's spread comes from. */
enum rep_cmp_spread {
	CMP_SPREAD_NONE = 0,	/* the phase ran one round: the tolerance alone */
	CMP_SPREAD_ROUNDS,	/* its own rounds: (slowest - fastest) / median */
	CMP_SPREAD_PHASE,	/* one round: the spread of the same phase's
				 * other row (read fresh <-> read aged) */
	CMP_SPREAD_PHASE_ROUNDS,	/* one round, and the other row too: the
				 * spread of the phase's rounds, fresh and
				 * aged together (rep_phase_stats) */
};
/* "rounds", "phase", "phase_rounds", "none". */
const char *rep_cmp_spread_from(enum rep_cmp_spread f);
/* A summary row of r as compare judges it: rep_summary_stats, with a
 * one-round row's spread taken from its phase's other row or from all the
 * phase's rounds (CMP_SPREAD_PHASE, _PHASE_ROUNDS). 1, 0
 * when r has no such row, -1 when out of memory. */
int rep_cmp_row(const struct rep_run *r, const char *fs, enum rep_row row,
		struct rep_stats *st, enum rep_cmp_spread *from);

/* What a later run's rows came to (rep_table_cmp). */
struct rep_cmp_count {
	size_t compared, slower, faster, noise;
};

/* Which runs are compared (A, B, C, ...): a sentence for a reader, id and
 * input as data. */
int rep_table_cmp_runs(const struct rep_cmp_run *runs, size_t n, struct rep_table *t);
/* The summary rows, per filesystem (A's, then those only later runs have)
 * that A and at least one later run have: every run's median, rounds and
 * spread (rep_cmp_row), each later run's ratio to A, its limit (the
 * largest of the tolerance and the two spreads, as a fraction of A) and
 * its flag; count[i] (n entries,
 * [0] unused) gets what run i's rows came to. 2 <= n <= REP_CMP_MAX, else
 * -EINVAL. */
int rep_table_cmp(const struct rep_cmp_run *runs, size_t n, double tolerance,
		  struct rep_table *t, struct rep_cmp_count *count);
/* What some runs have and others lack: a filesystem without phase records,
 * or a summary row (an aged row of a one-round run); no rows when every
 * run has the same. */
int rep_table_cmp_missing(const struct rep_cmp_run *runs, size_t n, struct rep_table *t);
/* The flags of each later run, counted. */
int rep_table_cmp_flags(const struct rep_cmp_count *count, size_t n, double tolerance,
			struct rep_table *t);

/* The reference (reference.h) as the records such a run would have: every
 * round of a phase has the median (so the median of rounds is the figure
 * itself); `read` has the fresh figure in round 1 and the aged one in the
 * later rounds. Into buf: 0, or -ENOSPC when len is too small. */
int rep_reference_text(char *buf, size_t len);
/* The reference loaded as a run into set, named REP_REFERENCE_NAME: 0, or
 * -errno with err set. */
int rep_load_reference(struct rep_set *set, char *err, size_t errlen);
/* 1 when r ran the reference's workload (profile and shape), so its figures
 * can stand next to the published ones. */
int rep_seed_shaped(const struct rep_run *r);
/* r (B) against the reference (A), the filesystems r ran. */
int rep_table_reference(const struct rep_run *r, struct rep_table *t);

#endif

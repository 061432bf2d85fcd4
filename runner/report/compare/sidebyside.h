/* sidebyside.h: two runs (or groups of runs) or more side by side, the
 * runs and what some lack (sidebyside.c), the rows flagged by significance
 * and the conditions (cmptable.c), and the published reference as a run
 * (sidebyside.c). Builders fill *t (table.h) and return 0, or -ENOMEM with *t
 * freed. */
#ifndef FSB_REPORT_COMPARE_H
#define FSB_REPORT_COMPARE_H

#include "report/compare/signif.h"
#include "report/model.h"
#include "report/sections/summary.h"
#include "report/table.h"

#define REP_CMP_MAX 26		/* sides compared at once: A to Z */
#define REP_CMP_INPUTS 64	/* inputs named at once, every side's */

/* A side to compare (A, B, ...): a run, or a group of runs whose samples
 * are pooled (`fsbench compare A1 A2 -- B1 B2`), and where each was read
 * from. */
struct rep_cmp_run {
	const struct rep_run *run;	/* the side's first run: its filesystems,
					 * its charts */
	const char *name;		/* where run was read from */
	const struct rep_run *const *group;	/* every run of the side
					 * (group[0] == run), or NULL: run alone */
	const char *const *names;	/* where each was read from, or NULL */
	size_t ngroup;
	int fixed;		/* A only: published figures, not samples (the
				 * reference): a row is judged by the tolerance alone */
	int raw;		/* a later side: judged on its own seconds even when
				 * its conditions differ from A's (compare --control
				 * report: sides whose kernels differ, whose control
				 * the change itself moves) */
};
/* The runs of a side: its group, or its run alone; *n their count. */
const struct rep_run *const *rep_cmp_members(const struct rep_cmp_run *side, size_t *n);
/* The filesystems with phase records in any side's first run: A's in its
 * order, then those only later sides have. *cols malloc'd; 0 or -ENOMEM. */
int rep_cmp_fs_union(const struct rep_cmp_run *runs, size_t n, const char ***cols,
		     size_t *ncols);

/* What a later side's rows came to (rep_table_cmp). */
struct rep_cmp_count {
	size_t compared, slower, faster, noise, undecided;
	int raw;		/* the side's rows judged on their own seconds
				 * whatever its conditions (rep_cmp_run.raw) */
	int conditions;		/* 1 they differ, 0 the same, -1 not measured
				 * (a run without a control record) */
	unsigned need;		/* the most runs a side an undecided row needs
				 * (REP_CMP_NEED_MAX + 1: more than that) */
	int need_atleast;	/* one of them from the sizes alone */
	char rows[400];		/* the undecided rows, "ext4 stat (9), ...": cut
				 * at a whole row, "and N more" */
	char slow_rows[400];	/* the rows flagged slower, the same way */
};

/* Which runs are compared (A, B, C, ...): a sentence for a reader, id and
 * input as data. */
int rep_table_cmp_runs(const struct rep_cmp_run *runs, size_t n, struct rep_table *t);
/* The summary rows, per filesystem (A's, then those only later sides
 * have) that A and at least one later side have: every side's median of
 * its samples (rep_cmp_samples), each later side's ratio to A with its
 * bootstrap interval, the Mann-Whitney p and the flag (rep_cmp_test), the
 * rows of each later side judged together (rep_cmp_judge: p adjusted over
 * them, the minimum detectable change, the runs that would decide a row
 * that cannot be); when every run has a control record, the same
 * relative to the control, and a side whose conditions differ from A's
 * (rep_cmp_conditions) is judged on that; count[i] (n entries, [0]
 * unused) gets what side i's rows came to.
 * 2 <= n <= REP_CMP_MAX, else -EINVAL. */
int rep_table_cmp(const struct rep_cmp_run *runs, size_t n, double tolerance,
		  struct rep_table *t, struct rep_cmp_count *count);
/* A later side's row as the ratio chart draws it (rep_cmp_ratios). */
struct rep_cmp_ratio {
	char side;		/* 'B', 'C', ... */
	const char *fs;		/* the filesystem (a run's own string) */
	enum rep_row row;
	double ratio, lo, hi;	/* of the test the row is judged on; lo and
				 * hi NAN without an interval */
	enum rep_cmp_flag flag;	/* the one that counts */
	int on_ctl;		/* judged relative to the control */
};
/* Every later side's rows that have a value, judged as rep_table_cmp
 * judges them (the same rows, tests and families), into *out (malloc'd,
 * *nout of them; NULL when none). 0, -EINVAL (n), or -ENOMEM. */
int rep_cmp_ratios(const struct rep_cmp_run *runs, size_t n, double tolerance,
		   struct rep_cmp_ratio **out, size_t *nout);

/* The conditions: each later side's control items against A's (no rows
 * when a run has no control record). */
int rep_table_cmp_conditions(const struct rep_cmp_run *runs, size_t n, double tolerance,
			     struct rep_table *t);
/* What some runs have and others lack: a filesystem without phase records,
 * or a summary row (an aged row of a one-round run); no rows when every
 * run has the same. */
int rep_table_cmp_missing(const struct rep_cmp_run *runs, size_t n, struct rep_table *t);
/* The flags of each later side, counted, and its conditions. */
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

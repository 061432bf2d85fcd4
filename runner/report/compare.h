/* compare.h: two runs side by side, and the published reference as a run
 * (compare.c). Builders fill *t (table.h) and return 0, or -ENOMEM with *t
 * freed. */
#ifndef FSB_REPORT_COMPARE_H
#define FSB_REPORT_COMPARE_H

#include "report/model.h"
#include "report/table.h"

/* Which runs are compared: a sentence for a reader, id and input as data. */
int rep_table_runs(const struct rep_run *a, const char *aname,
		   const struct rep_run *b, const char *bname, struct rep_table *t);
/* The summary rows of A and B and B/A, per filesystem: A's filesystems,
 * then those only B has. */
int rep_table_compare(const struct rep_run *a, const struct rep_run *b, struct rep_table *t);

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

/* fragmentation.h: the evidence on fragmentation (fragmentation.c) and the
 * remedies on the aged filesystem (remedy.c), as tables of one run's
 * report. Each builder fills *t and returns 0, or -ENOMEM with *t freed. */
#ifndef FSB_REPORT_FREESPACE_H
#define FSB_REPORT_FREESPACE_H

#include "report/model.h"
#include "report/table.h"

/* Fragmentation is ruled out (runner/SUITE.md) when e4defrag's score says
 * no defrag is needed (0-30: "no problem") and the free space is in a few
 * large extents: a mean free extent of REP_FREE_MEAN_MIN bytes or more. */
#define REP_DEFRAG_SCORE_OK 30
#define REP_FREE_MEAN_MIN (16ull << 20)

/* The freespace records, one row each (no rows when the run has none). */
int rep_table_freespace(const struct rep_run *r, struct rep_table *t);
/* Per filesystem, from its last round's record: fragmentation ruled out
 * ("not fragmentation: ...") or not ("fragmentation not ruled out: ..."). */
int rep_table_freespace_findings(const struct rep_run *r, struct rep_table *t);
/* runner/SUITE.md's remedy table from the run's own phase records, per
 * filesystem with a rewrite phase: the baseline (the aged round's read by
 * name), inode order (read_inode), the rewrite (its cost, and
 * read_after_rewrite). No rows when no filesystem has a rewrite. */
int rep_table_remedy(const struct rep_run *r, struct rep_table *t);

#endif

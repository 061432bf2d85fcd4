/* tables.h: the tables of one run's report (tables.c). Each builder fills
 * *t with typed cells (table.h) and returns 0, or -ENOMEM with *t freed.
 */
#ifndef FSB_REPORT_TABLES_H
#define FSB_REPORT_TABLES_H

#include "report/model.h"
#include "report/table.h"

#define REP_LAYOUT_SHOW 4	/* first_blocks the layout table shows */

/* The aging finding under the layout table (runner/SUITE.md, "The ext4 aging
 * finding"): in an aged round (>= REP_AGED_ROUND), name order no longer
 * follows the disk (name-order near < REP_NAME_NEAR_MAX) while inode order
 * still does (inode-order near >= name-order near + REP_INODE_NEAR_GAP).
 * near = fraction of consecutive files within 64 KiB after the previous
 * file's end, i.e. a sequential read. */
#define REP_AGED_ROUND 2
#define REP_NAME_NEAR_MAX 0.5
#define REP_INODE_NEAR_GAP 0.3

/* Host, target, config and status: sentences for a reader, one field per
 * row as data. */
int rep_table_run(const struct rep_run *r, struct rep_table *t);
/* Columns of the summary: filesystems with at least one phase record. */
int rep_table_summary(const struct rep_run *r, struct rep_table *t);
int rep_table_rate(const struct rep_run *r, struct rep_table *t);
/* Every filesystem's status; a reader sees those that are not "ok". */
int rep_table_fs_status(const struct rep_run *r, struct rep_table *t);
/* The note on stat/read phases that ran warm (no rows when none did). */
int rep_table_warm(const struct rep_run *r, struct rep_table *t);
int rep_table_rounds(const struct rep_run *r, struct rep_table *t);
int rep_table_latency(const struct rep_run *r, struct rep_table *t);
/* Layout records, one row each (no rows when the run has none). */
int rep_table_layout(const struct rep_run *r, struct rep_table *t);
/* The aging finding, one row per filesystem that shows it (fs, sentence). */
int rep_table_layout_findings(const struct rep_run *r, struct rep_table *t);
int rep_table_errors(const struct rep_run *r, struct rep_table *t);
/* Kernel messages and the counts of those not recorded, one row each (no
 * rows when the run has none). */
int rep_table_kmsg(const struct rep_run *r, struct rep_table *t);
/* The health records: before, after and the difference, one row per
 * item (no rows when the run has none). */
int rep_table_health(const struct rep_run *r, struct rep_table *t);
/* The disks a refused run saw, one row each (no rows without a refusal). */
int rep_table_disks(const struct rep_run *r, struct rep_table *t);

/* wear.c: the health table's flash rows (none when the records have no
 * `flash` member): hs the before and after records. */
void rep_health_wear_rows(struct rep_table *t, const struct rep_health *const *hs);

#endif

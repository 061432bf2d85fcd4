/* served.h: the file-server workload's tables of a run's report (served.c):
 * one row per filesystem and state (fresh, aged) with its operations per
 * second and random append latency, each also over ext4's; and whether the
 * ranking of the filesystems changed between fresh and fragmented. */
#ifndef FSB_REPORT_SERVED_H
#define FSB_REPORT_SERVED_H

#include "report/model.h"
#include "report/table.h"

#define REP_FSV_MAX_FS 32
enum { REP_FSV_BY_OPS, REP_FSV_BY_APPEND };	/* higher ops/s, lower append p99 is better */
enum { REP_FSV_RANK_NONE, REP_FSV_RANK_SAME, REP_FSV_RANK_CHANGED };
extern const char *const rep_fsv_state[2];	/* "fresh", "aged" */

/* The run's record of fs in state (the later one wins), or NULL. */
const struct rep_fileserver *rep_fsv_find(const struct rep_run *r, const char *fs, const char *state);
/* A record's ops/s (REP_FSV_BY_OPS) or append p99 in ns (BY_APPEND); NaN
 * for a failed run. */
double rep_fsv_measure(const struct rep_fileserver *v, int by);
/* The filesystems ranked best first by `by` in each state ("xfs > ext4 >
 * btrfs", "" when none) into fresh and aged (len bytes each). Returns
 * REP_FSV_RANK_SAME or _CHANGED for the order of the filesystems both
 * states have, REP_FSV_RANK_NONE when fewer than two have both. */
int rep_fsv_ranking(const struct rep_run *r, int by, char *fresh, char *aged, size_t len);

/* The same for a small-file phase (create, read, delete: fastest first):
 * round 1 against the first round run after the file server's aging
 * (`after_aging`, its round in *aged_round). */
int rep_phase_ranking(const struct rep_run *r, const char *phase, char *fresh, char *aged, size_t len,
		      unsigned *aged_round);

/* Per filesystem and state: ops/s and its ratio to ext4's, the append's
 * p50 and p99 and the p99's ratio to ext4's, the read's p99, MiB/s, the
 * operations, the status. No rows without records. */
int rep_table_fileserver(const struct rep_run *r, struct rep_table *t);
/* The rankings, by ops/s and by append p99, fresh and aged, and whether
 * they changed: a sentence each for a reader, a row each as data. */
int rep_table_fileserver_ranking(const struct rep_run *r, struct rep_table *t);

#endif

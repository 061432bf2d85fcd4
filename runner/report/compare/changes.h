/* changes.h: where the level of a series of runs shifted (changes.c), for
 * `fsbench history DIR --changes`.
 *
 * A series is one filesystem's summary row (summary.h: create, stat, read
 * cold on the fresh and on the aged filesystem, ..., the median of the
 * run's rounds, seconds) over the runs of a history (timeline.h), in its
 * order (by date), the runs without that row left out. Each series' change
 * points come from E-divisive means (edivisive.h), its shuffles seeded with
 * the seed and the series' name (FS and the row), so a series gives the
 * same answer whatever other series or filesystems the history holds.
 */
#ifndef FSB_REPORT_CHANGES_H
#define FSB_REPORT_CHANGES_H

#include <stddef.h>

#include "report/compare/edivisive.h"
#include "report/compare/timeline.h"
#include "report/table.h"

/* The method and its settings ("changes_method", key and value). */
int rep_table_changes_method(const struct rep_ediv_opts *o, struct rep_table *t);
/* The change points ("changes": a row each, by filesystem, row and run:
 * the run where the new level starts, its date, the level before and
 * after (the median of the runs since the change before, and up to the
 * next), their ratio, the p-value and the runs on each side), and the
 * series ("changes_series": a row per filesystem and summary row: the
 * runs, the change points found, the level of the last segment; a series
 * shorter than two segments is not searched, and says so). *found gets
 * the number of change points. Returns 0, -EINVAL (o out of range) or
 * -ENOMEM, with both tables freed. */
int rep_table_changes(const struct rep_history *h, const struct rep_ediv_opts *o,
		      struct rep_table *changes, struct rep_table *series, size_t *found);

#endif

/* zoned.h: the zoned-target table of a run's report (zoned.c): the
 * target's zone model (run_start's target.zoned) and, for each column,
 * how it was made there (fs_start's zoned_mode) or why it was refused. */
#ifndef FSB_REPORT_ZONED_H
#define FSB_REPORT_ZONED_H

#include "report/model.h"
#include "report/table.h"

/* Has the run's target a zone model other than none? */
int rep_has_zones(const struct rep_run *r);
/* A row for the target (model, zones, size, capacity, limits), then one
 * per column: how it was made, on which device, its status. */
int rep_table_zoned(const struct rep_run *r, struct rep_table *t);

#endif

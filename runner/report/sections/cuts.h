/* cuts.h: the power-cut table of a run's report (cuts.c): one row per
 * cycle of the campaign (the `powercut` setting). */
#ifndef FSB_REPORT_CUTS_H
#define FSB_REPORT_CUTS_H

#include "report/model.h"
#include "report/table.h"

/* Per `powercut` record: the filesystem, the cycle, when the cut came,
 * the operations acknowledged and their rate, the slots verified, in
 * flight, lost and torn, the checker's result and the files named. No
 * rows in a run without the campaign. */
int rep_table_powercut(const struct rep_run *r, struct rep_table *t);

#endif

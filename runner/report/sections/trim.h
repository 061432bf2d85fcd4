/* trim.h: the TRIM table of a run's report (trim.c): the fstrim phase of
 * each filesystem and round (its time, the bytes FITRIM trimmed, or why it
 * could not), and the read-back of a discarded range of the target (the
 * `discard_check` record), both with the setting `fstrim`. */
#ifndef FSB_REPORT_TRIM_H
#define FSB_REPORT_TRIM_H

#include "report/model.h"
#include "report/table.h"

/* One row per fstrim phase: fs, round, seconds, trimmed, status; and a
 * row for the read-back (fs "target"). No rows without either. */
int rep_table_trim(const struct rep_run *r, struct rep_table *t);

#endif

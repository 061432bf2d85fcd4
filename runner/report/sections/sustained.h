/* sustained.h: the sustained write's table of a run's report (sustained.c):
 * one row per `sustain` record, with the cliff cliff.h finds in its
 * series. */
#ifndef FSB_REPORT_SUSTAINED_H
#define FSB_REPORT_SUSTAINED_H

#include "report/model.h"
#include "report/sections/cliff.h"
#include "report/table.h"

/* The cliff of a sustained write, with the options of its record;
 * *at_s: FOUND: the start of the cliff's second, seconds after the write
 * started. 0, -ENOMEM, or -EINVAL (options out of range in the record). */
int rep_sustain_cliff(const struct rep_sustain *s, struct rep_cliff *c, double *at_s);

/* Per `sustain` record: fs, workload, fio's mean, the base, the cliff's
 * moment, the level after it and its share of the base, the temperatures
 * and whether the cliff coincides with a rise. No rows without records. */
int rep_table_sustain(const struct rep_run *r, struct rep_table *t);

#endif

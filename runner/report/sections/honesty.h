/* honesty.h: the capacity table of a run's report (honesty.c): does the
 * target hold what it claims (the `capacity` record, setting `capacity`). */
#ifndef FSB_REPORT_HONESTY_H
#define FSB_REPORT_HONESTY_H

#include "report/model.h"
#include "report/table.h"

/* One row: the device, its claimed and verified size, honest or not, the
 * first offset that aliases an earlier one and that one, what a bad offset
 * held, the signatures, the I/Os and the seconds. No rows in a run without
 * a capacity record. */
int rep_table_capacity(const struct rep_run *r, struct rep_table *t);

#endif

/* workloads.h: the report's tables of the fio workloads and the fill test
 * (workloads.c); each builder fills *t and returns 0, or -ENOMEM with *t freed. */
#ifndef FSB_REPORT_FIO_H
#define FSB_REPORT_FIO_H

#include "report/model.h"
#include "report/table.h"

/* One row per fio record, grouped by workload (the order they first ran),
 * then filesystem: IOPS read and write, MiB/s, p99 (no rows without fio
 * records). */
int rep_table_fio(const struct rep_run *r, struct rep_table *t);
/* One row per fill record: the level reached, the 4 KiB random write
 * before and after, their ratio (no rows without fill records). */
int rep_table_fill(const struct rep_run *r, struct rep_table *t);

#endif

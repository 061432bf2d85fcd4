/* packing.h: the packing table of a run's report (packing.c): one file per
 * file against one SQLite database and one pack file (the `pack`
 * setting), side by side per filesystem and round. */
#ifndef FSB_REPORT_PACK_H
#define FSB_REPORT_PACK_H

#include "report/model.h"
#include "report/table.h"

/* Per filesystem, round and store (files, sqlite, pack): the seconds and
 * files/s of its write, read and delete phases, and its bytes on disk
 * (the `space` record). No rows in a run without packing phases. */
int rep_table_packing(const struct rep_run *r, struct rep_table *t);

#endif

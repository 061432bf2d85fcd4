/* report.h: reading result records back and printing them: `fsbench
 * report RUN` and `fsbench compare A B` (the commands are cmd/report.c and
 * cmd/compare.c).
 *
 *   model.h     a run in memory, loaded from its records (load.c)
 *   summary.h   the summary rows, median of rounds (summary.c)
 *   table.h     tables of typed cells and their views (table.c)
 *   tables.h    the tables of one run's report (tables.c)
 *   compare.h   two runs side by side; the reference as a run (compare.c)
 *   reference.h the published figures, data only (reference.c)
 *   writer.h    the output formats, one row each (md.c, csv.c, junit.c)
 *   verdict.h   criteria and the checks of a verdict (verdict.c)
 *
 * The report is the sections[] of report.c, in one order for every format.
 * Everything is built before anything is printed: a failure prints nothing.
 */
#ifndef FSB_REPORT_H
#define FSB_REPORT_H

#include <stdio.h>

#include "report/compare.h"
#include "report/model.h"
#include "report/reference.h"
#include "report/summary.h"
#include "report/table.h"
#include "report/tables.h"
#include "report/verdict.h"
#include "report/writer.h"

/* The whole report of one run in w's format. Returns 0, or -ENOMEM. */
int rep_print(FILE *out, const struct rep_run *r, const struct rep_writer *w);
/* The same with the checks of a verdict (v may be NULL). */
int rep_print_checks(FILE *out, const struct rep_run *r, const struct rep_writer *w,
		     const struct vd_result *v);
/* A and B side by side (aname, bname: where each was read from). */
int rep_print_compare(FILE *out, const struct rep_run *a, const char *aname,
		      const struct rep_run *b, const char *bname, const struct rep_writer *w);

#endif

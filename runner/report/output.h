/* output.h: reading result records back and printing them: `fsbench
 * report RUN`, `fsbench compare A B [C ...]` and `fsbench history DIR` (the
 * commands are cmd/report.c, cmd/compare.c and cmd/history.c).
 *
 *   model.h     a run in memory, loaded from its records (load.c)
 *   summary.h   the summary rows, median of rounds (summary.c)
 *   measures.h  what a run measures, from its records and settings: the
 *               sections and charts it shows, its config line (measures.c)
 *   table.h     tables of typed cells and their views (table.c)
 *   tables.h    the tables of one run's report (tables.c)
 *   sidebyside.h runs side by side, flagged when significant; the reference
 *               as a run (sidebyside.c)
 *   timeline.h  the runs of a results folder, one row each (timeline.c)
 *   changes.h   where the level of a series of runs shifted (changes.c,
 *               by E-divisive means: edivisive.h)
 *   reference.h the published figures, data only (reference.c)
 *   writer.h    the output formats, one row each (md.c, csv.c, junit.c)
 *   criteria.h  criteria and the checks of a verdict (report/verdict/)
 *
 * The report is the sections[] of output.c, in one order for every format.
 * Everything is built before anything is printed: a failure prints nothing.
 */
#ifndef FSB_REPORT_H
#define FSB_REPORT_H

#include <stdio.h>

#include "report/compare/changes.h"
#include "report/compare/sidebyside.h"
#include "report/compare/timeline.h"
#include "report/model.h"
#include "report/sections/reference.h"
#include "report/sections/summary.h"
#include "report/table.h"
#include "report/sections/tables.h"
#include "report/verdict/criteria.h"
#include "report/writers/writer.h"

/* The whole report of one run in w's format. Returns 0, or -ENOMEM. */
int rep_print(FILE *out, const struct rep_run *r, const struct rep_writer *w);
/* The same with the checks of a verdict (v may be NULL). */
int rep_print_checks(FILE *out, const struct rep_run *r, const struct rep_writer *w,
		     const struct vd_result *v);
/* Two sides or more (runs or groups of runs, runs[0] is A) side by side,
 * flagged by significance (rep_table_cmp, tolerance a fraction), and the
 * conditions; count[i] (n entries) gets what side i's rows came to. Returns 0, -EINVAL (a writer that is not of
 * tables, n out of 2..REP_CMP_MAX) or -ENOMEM; nothing is printed then. */
int rep_print_compare(FILE *out, const struct rep_cmp_run *runs, size_t n, double tolerance,
		      const struct rep_writer *w, struct rep_cmp_count *count);

/* The runs of a results folder, one row each. Returns 0, -EINVAL (a writer
 * that is not of tables) or -ENOMEM; nothing is printed then. */
int rep_print_history(FILE *out, const struct rep_history *h, const struct rep_writer *w);
/* The change points of the runs of a results folder (changes.h): the
 * method, the change points, the series; *found gets how many change
 * points. Returns 0, -EINVAL (a writer that is not of tables, o out of
 * range) or -ENOMEM; nothing is printed then. */
int rep_print_changes(FILE *out, const struct rep_history *h, const struct rep_ediv_opts *o,
		      const struct rep_writer *w, size_t *found);

#endif

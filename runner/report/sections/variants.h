/* variants.h: the variants of a run's report (variants.c): each column
 * that is a filesystem made and mounted with more options (fs_start's
 * variant), next to the filesystems, with the mount as the kernel
 * reported it. */
#ifndef FSB_REPORT_VARIANTS_H
#define FSB_REPORT_VARIANTS_H

#include "report/model.h"
#include "report/table.h"

/* 1 when a column of r is a variant. */
int rep_has_variants(const struct rep_run *r);
/* One row per column with an fs_start: fs, base, the variant's mkfs
 * arguments and mount options, the mount as the kernel reported it,
 * where the variant was defined. Returns 0, or -ENOMEM. */
int rep_table_variants(const struct rep_run *r, struct rep_table *t);

#endif

/* variants.c: the variants of a run, one row per column (see variants.h). */
#include "report/sections/variants.h"

#include <stddef.h>

int rep_has_variants(const struct rep_run *r)
{
	for (size_t i = 0; i < r->nfs; i++)
		if (r->fs[i].variant)
			return 1;
	return 0;
}

/* text, or "-" for a reader when there is none */
static void cell(struct rep_table *t, size_t row, size_t col, const char *s)
{
	tab_str(t, row, col, s && *s ? s : NULL);
}

int rep_table_variants(const struct rep_run *r, struct rep_table *t)
{
	tab_init(t, "variants", "Variants (a filesystem made and mounted with more options, a column"
		 " of its own)", SHAPE_GRID, 9);
	tab_col(t, 0, 0, "fs", NULL);
	tab_col(t, 1, 0, "base", NULL);
	tab_col(t, 2, 0, "mkfs (added)", "mkfs");
	tab_col(t, 3, 0, "mount (added)", "mount");
	tab_col(t, 4, 0, "mounted (kernel)", "mountinfo_opts");
	tab_col(t, 5, 0, "filesystem options (kernel)", "mountinfo_super_opts");
	tab_col(t, 6, 0, "defined", "source");
	tab_col(t, 7, 0, "unsafe", "unsafe");
	tab_col(t, 8, 0, "mkfs command", "mkfs_argv");
	tab_col_only(t, 8, REP_VIEW_DATA);
	t->note = "mkfs gets the filesystem's default arguments, mkfs_opts.FS, then the variant's;"
		  " mount gets mount_opts.FS, then the variant's options (a later option wins)."
		  " The kernel's view is /proc/self/mountinfo at the first mount."
		  " unsafe: a built-in variant that may lose acknowledged writes, and why"
		  " (its figures are not a setting to run in production).";
	for (size_t i = 0; i < r->nfs; i++) {
		const struct rep_fs *f = &r->fs[i];
		if (!f->variant && !f->mkfs_argv && !f->mi_opts)
			continue;	/* no fs_start of a device run */
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", f->name);
		cell(t, row, 1, f->base);
		cell(t, row, 2, f->v_mkfs);
		cell(t, row, 3, f->v_mount);
		cell(t, row, 4, f->mi_opts);
		cell(t, row, 5, f->mi_super);
		cell(t, row, 6, f->variant ? f->v_source : NULL);
		if (f->v_unsafe)
			tab_text(t, row, 7, "UNSAFE: %s", f->v_unsafe);
		else
			tab_missing(t, row, 7);
		cell(t, row, 8, f->mkfs_argv);
	}
	return tab_done(t);
}

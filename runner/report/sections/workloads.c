/* workloads.c: the tables of the fio workloads and the fill test. */
#include <string.h>

#include "report/sections/workloads.h"

static void num_or_missing(struct rep_table *t, size_t row, size_t col, enum rep_kind kind, double v)
{
	tab_num_if(t, row, col, !(v < 0), kind, v);
}

static void status(struct rep_table *t, size_t row, size_t col, const char *st, const char *msg)
{
	if (!st)
		tab_missing(t, row, col);
	else if (msg && strcmp(st, "ok"))
		tab_text(t, row, col, "%s: %s", st, msg);
	else
		tab_text(t, row, col, "%s", st);
}

int rep_table_fio(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "workload", NULL }, { "fs", NULL }, { "read IOPS", "read_iops" },
		{ "write IOPS", "write_iops" }, { "MiB/s", "mib_per_s" },
		{ "read p99 us", "read_p99_us" }, { "write p99 us", "write_p99_us" },
		{ "status", NULL },
	};
	enum { WL, FS, RIOPS, WIOPS, MIB, RP99, WP99, ST, NH };

	tab_init(t, "fio", "fio workloads (IOPS, MiB/s read + write, p99 completion latency)",
		 SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= RIOPS && c <= WP99, h[c].head, h[c].key);
	for (size_t i = 0; i < r->nfio; i++) {
		/* the first record of each workload leads its group */
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(r->fio[j].workload, r->fio[i].workload);
		if (seen)
			continue;
		for (size_t j = i; j < r->nfio; j++) {
			const struct rep_fio *f = &r->fio[j];
			if (strcmp(f->workload, r->fio[i].workload))
				continue;
			size_t row = tab_row(t);
			tab_text(t, row, WL, "%s", f->workload);
			tab_text(t, row, FS, "%s", f->fs);
			num_or_missing(t, row, RIOPS, CELL_RATE, f->iops[0]);
			num_or_missing(t, row, WIOPS, CELL_RATE, f->iops[1]);
			if (f->mib_s[0] < 0 && f->mib_s[1] < 0)
				tab_missing(t, row, MIB);
			else
				tab_fixed(t, row, MIB, (f->mib_s[0] > 0 ? f->mib_s[0] : 0) +
					  (f->mib_s[1] > 0 ? f->mib_s[1] : 0), 1);
			num_or_missing(t, row, RP99, CELL_USEC, f->p99_ns[0] < 0 ? -1 : f->p99_ns[0] / 1000);
			num_or_missing(t, row, WP99, CELL_USEC, f->p99_ns[1] < 0 ? -1 : f->p99_ns[1] / 1000);
			status(t, row, ST, f->status, f->msg);
		}
	}
	return tab_done(t);
}

int rep_table_fill(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "filled %", "level_pct" }, { "files", NULL },
		{ "IOPS before", "iops_before" }, { "IOPS after", "iops_after" },
		{ "after/before", "iops_ratio" }, { "p99 us before", "p99_us_before" },
		{ "p99 us after", "p99_us_after" }, { "status", NULL },
	};
	enum { FS, LEVEL, FILES, IB, IA, RATIO, PB, PA, ST, NH };

	tab_init(t, "fill", "Fill test: 4 KiB random write on the fresh filesystem (before) and after filling, deleting at random and filling again",
		 SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= LEVEL && c <= PA, h[c].head, h[c].key);
	for (size_t i = 0; i < r->nfill; i++) {
		const struct rep_fill *f = &r->fill[i];
		size_t row = tab_row(t);
		tab_text(t, row, FS, "%s", f->fs);
		num_or_missing(t, row, LEVEL, CELL_PERCENT, f->level);
		tab_count(t, row, FILES, f->files);
		num_or_missing(t, row, IB, CELL_RATE, f->iops[0]);
		num_or_missing(t, row, IA, CELL_RATE, f->iops[1]);
		num_or_missing(t, row, RATIO, CELL_RATIO,
			       f->iops[0] > 0 && f->iops[1] >= 0 ? f->iops[1] / f->iops[0] : -1);
		num_or_missing(t, row, PB, CELL_USEC, f->p99_ns[0] < 0 ? -1 : f->p99_ns[0] / 1000);
		num_or_missing(t, row, PA, CELL_USEC, f->p99_ns[1] < 0 ? -1 : f->p99_ns[1] / 1000);
		status(t, row, ST, f->status, f->msg);
	}
	return tab_done(t);
}

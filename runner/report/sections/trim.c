/* trim.c: the TRIM table (trim.h): each round's fstrim and the
 * `discard_check` record. */
#include "report/sections/trim.h"

int rep_table_trim(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "seconds", NULL },
		{ "trimmed", "bytes" }, { "status", NULL },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };

	tab_init(t, "trim", "TRIM (fstrim after delete)", SHAPE_GRID, NH);
	for (size_t i = 0; i < NH; i++)
		tab_col(t, i, i >= 1 && i <= 3, h[i].head, h[i].key);
	t->note = "The fstrim phase: the filesystem's free space discarded with FITRIM after each "
		  "round's delete (setting fstrim); trimmed is what FITRIM reports. The row \"target\": "
		  "a discarded range of the disk read back where it promises zeroes (NVMe DLFEAT).";
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (!p->trim)
			continue;
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", p->fs);
		tab_count(t, row, 1, p->round);
		tab_num(t, row, 2, CELL_SECONDS, p->seconds);
		tab_bytes(t, row, 3, p->bytes);
		tab_text(t, row, 4, "%s", p->trim);
	}
	if (r->dc.have) {
		size_t row = tab_row(t);
		tab_text(t, row, 0, "target");
		tab_missing(t, row, 1);
		tab_missing(t, row, 2);
		tab_missing(t, row, 3);
		tab_text(t, row, 4, "read back after a discard: %s", r->dc.status);
	}
	return tab_done(t);
}

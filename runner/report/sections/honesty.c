/* honesty.c: the capacity table (honesty.h) of the `capacity` record. */
#include "report/sections/honesty.h"

int rep_table_capacity(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "device", NULL }, { "claimed", "claimed_bytes" }, { "verified", "verified_bytes" },
		{ "honest", NULL }, { "first aliasing offset", "alias_offset" }, { "aliases", "alias_of" },
		{ "found", NULL }, { "signatures", "signatures_written" }, { "I/Os", "ios" },
		{ "seconds", NULL },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };
	const struct rep_capacity *c = &r->cap;

	tab_init(t, "capacity", "Capacity: does the target hold what it claims", SHAPE_GRID, NH);
	for (size_t i = 0; i < NH; i++)
		tab_col(t, i, i != 0 && i != 3 && i != 6, h[i].head, h[i].key);
	t->note = "Signatures written across the whole target before the filesystems and read back "
		  "past every cache (setting capacity). Not honest: verified is the real size, the first "
		  "offset that does not hold what was written.";
	if (!c->have)
		return tab_done(t);
	size_t row = tab_row(t);
	tab_text(t, row, 0, "%s", c->device);
	tab_bytes(t, row, 1, c->claimed);
	tab_bytes(t, row, 2, c->verified);
	tab_text(t, row, 3, "%s", c->honest ? "yes" : "NO");
	if (c->have_alias) {
		tab_bytes(t, row, 4, c->alias_offset);
		tab_bytes(t, row, 5, c->alias_of);
	} else {
		tab_missing(t, row, 4);
		tab_missing(t, row, 5);
	}
	tab_str(t, row, 6, c->found);
	tab_count(t, row, 7, c->written);
	tab_count(t, row, 8, c->ios);
	tab_num_if(t, row, 9, c->seconds >= 0, CELL_SECONDS, c->seconds);
	return tab_done(t);
}

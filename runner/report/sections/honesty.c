/* honesty.c: the capacity table (honesty.h) and the loading of the
 * `capacity` record (loader.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"
#include "report/sections/honesty.h"

/* A whole number of bytes or a count of the record: required ones must be
 * there. */
static int need_u64(struct loader *L, const struct jsonr *rec, const char *key, uint64_t *v)
{
	*v = jsonr_u64(jsonr_get(rec, key), UINT64_MAX);
	if (*v == UINT64_MAX)
		return ld_bad(L, "capacity record: \"%s\" must be a whole number >= 0", key);
	return 0;
}

int ld_load_capacity(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_capacity c;
	int rc = 0;

	memset(&c, 0, sizeof(c));
	const char *dev = ld_need_str(L, rec, "capacity", "device", &rc);
	if (rc)
		return rc;
	if ((rc = need_u64(L, rec, "claimed_bytes", &c.claimed)) ||
	    (rc = need_u64(L, rec, "verified_bytes", &c.verified)))
		return rc;
	const struct jsonr *h = jsonr_get(rec, "honest");
	if (!jsonr_is(h, JSONR_BOOL))
		return ld_bad(L, "capacity record without an \"honest\" boolean");
	c.honest = h->boolean;
	if (jsonr_get(rec, "alias_offset")) {
		if ((rc = need_u64(L, rec, "alias_offset", &c.alias_offset)) ||
		    (rc = need_u64(L, rec, "alias_of", &c.alias_of)))
			return rc;
		c.have_alias = 1;
	}
	c.written = jsonr_u64(jsonr_get(rec, "signatures_written"), 0);
	c.read = jsonr_u64(jsonr_get(rec, "signatures_read"), 0);
	c.ios = jsonr_u64(jsonr_get(rec, "ios"), 0);
	c.seconds = jsonr_num(jsonr_get(rec, "seconds"), -1);
	c.line = L->line;
	c.have = 1;
	if (!(c.device = strdup(dev)) || ld_set_text(&c.found, jsonr_get(rec, "found"))) {
		free(c.device);
		return ld_oom(L);
	}
	ld_capacity_free(r);
	r->cap = c;
	return 0;
}

void ld_capacity_free(struct rep_run *r)
{
	free(r->cap.device);
	free(r->cap.found);
	memset(&r->cap, 0, sizeof(r->cap));
}

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
	if (c->found)
		tab_text(t, row, 6, "%s", c->found);
	else
		tab_missing(t, row, 6);
	tab_count(t, row, 7, c->written);
	tab_count(t, row, 8, c->ios);
	if (c->seconds >= 0)
		tab_num(t, row, 9, CELL_SECONDS, c->seconds);
	else
		tab_missing(t, row, 9);
	return tab_done(t);
}

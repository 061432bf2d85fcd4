/* load_capacity.c: the `capacity` record (the check of a disk's claimed
 * size) into the run model. */
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

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

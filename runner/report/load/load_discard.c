/* load_discard.c: the `discard_check` record (a discarded range of the
 * target read back: what it returns) into the run model. */
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

int ld_load_discard(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_discard d;
	int rc = 0;

	memset(&d, 0, sizeof(d));
	const char *dev = ld_need_str(L, rec, "discard_check", "device", &rc);
	if (rc)
		return rc;
	const char *st = ld_need_str(L, rec, "discard_check", "status", &rc);
	if (rc)
		return rc;
	d.nonzero = jsonr_u64(jsonr_get(rec, "nonzero_bytes"), 0);
	d.line = L->line;
	d.have = 1;
	if (!(d.device = strdup(dev)) || !(d.status = strdup(st))) {
		free(d.device);
		return ld_oom(L);
	}
	ld_discard_free(r);
	r->dc = d;
	return 0;
}

void ld_discard_free(struct rep_run *r)
{
	free(r->dc.device);
	free(r->dc.status);
	memset(&r->dc, 0, sizeof(r->dc));
}

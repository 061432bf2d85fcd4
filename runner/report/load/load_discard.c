/* load_discard.c: the `discard_check` record (a discarded range of the
 * target read back: what it returns) into the run model. */
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static const size_t owned[] = { offsetof(struct rep_discard, device), offsetof(struct rep_discard, status) };

int ld_load_discard(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_discard d;
	const char *dev, *st;
	int rc;

	memset(&d, 0, sizeof(d));
	if ((rc = ld_need_strs(L, rec, "discard_check", "device", &dev, "status", &st, (char *)NULL)))
		return rc;
	d.nonzero = jsonr_u64(jsonr_get(rec, "nonzero_bytes"), 0);
	d.line = L->line;
	d.have = 1;
	if (ld_copy_strs(&d, owned, (const char *const[]){ dev, st }, 2))
		return ld_oom(L);
	ld_discard_free(r);
	r->dc = d;
	return 0;
}

void ld_discard_free(struct rep_run *r)
{
	ld_free_members(&r->dc, 1, sizeof(r->dc), LD_OWNED(owned));
	memset(&r->dc, 0, sizeof(r->dc));
}

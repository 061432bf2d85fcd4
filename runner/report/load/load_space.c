/* load_space.c: the `space` records (what a store's files take on the
 * disk) into the run model. */
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static const size_t owned[] = { offsetof(struct rep_space, fs), offsetof(struct rep_space, store) };

int ld_load_space(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_space s;
	const char *fs, *store;
	int rc;

	memset(&s, 0, sizeof(s));
	if ((rc = ld_need_strs(L, rec, "space", "fs", &fs, "store", &store, (char *)NULL)) ||
	    (rc = ld_need_round(L, rec, "space", &s.round)))
		return rc;
	s.files = jsonr_u64(jsonr_get(rec, "files"), 0);
	s.bytes = jsonr_u64(jsonr_get(rec, "bytes"), 0);
	const struct jsonr *d = jsonr_get(rec, "disk_bytes");
	if (d) {
		s.disk_bytes = jsonr_u64(d, UINT64_MAX);
		if (s.disk_bytes == UINT64_MAX)
			return ld_bad(L, "space record: \"disk_bytes\" must be a whole number of bytes");
		s.have_disk = 1;
	}
	s.line = L->line;
	if (ld_grow((void **)&r->sp, &r->capsp, r->nsp, sizeof(*r->sp)))
		return ld_oom(L);
	if (ld_copy_strs(&s, owned, (const char *const[]){ fs, store }, 2))
		return ld_oom(L);
	r->sp[r->nsp++] = s;
	return 0;
}

void ld_space_free(struct rep_run *r)
{
	ld_free_array(r->sp, r->nsp, sizeof(*r->sp), LD_OWNED(owned));
}

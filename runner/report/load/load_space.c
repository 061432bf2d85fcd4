/* load_space.c: the `space` records (what a store's files take on the
 * disk) into the run model. */
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

int ld_load_space(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_space s;
	double round;
	int rc = 0;

	memset(&s, 0, sizeof(s));
	const char *fs = ld_need_str(L, rec, "space", "fs", &rc);
	if (rc)
		return rc;
	const char *store = ld_need_str(L, rec, "space", "store", &rc);
	if (rc)
		return rc;
	if ((rc = ld_need_round(L, rec, "space", &round)))
		return rc;
	s.round = (unsigned)round;
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
	if (!(s.fs = strdup(fs)) || !(s.store = strdup(store))) {
		free(s.fs);
		return ld_oom(L);
	}
	r->sp[r->nsp++] = s;
	return 0;
}

void ld_space_free(struct rep_run *r)
{
	for (size_t i = 0; i < r->nsp; i++) {
		free(r->sp[i].fs);
		free(r->sp[i].store);
	}
	free(r->sp);
	r->sp = NULL;
	r->nsp = r->capsp = 0;
}

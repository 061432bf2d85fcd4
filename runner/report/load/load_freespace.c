/* load_freespace.c: the `freespace` records (what each round's reads left
 * of the free space: statfs, free extents, the defrag score, btrfs and
 * f2fs) into the run model, one a filesystem and round. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

void ld_freespace_free(struct rep_run *r)
{
	for (size_t i = 0; i < r->nfsp; i++) {
		free(r->fsp[i].fs);
		free(r->fsp[i].error);
	}
	free(r->fsp);
	r->fsp = NULL;
	r->nfsp = r->capfsp = 0;
}

/* A whole number >= 0 of part obj; 0, or the error said. */
static int need_u64(struct loader *L, const struct jsonr *obj, const char *part,
		    const char *key, uint64_t *out)
{
	uint64_t v = jsonr_u64(jsonr_get(obj, key), UINT64_MAX);

	if (v == UINT64_MAX)
		return ld_bad(L, "freespace record: \"%s.%s\" must be a whole number >= 0", part, key);
	*out = v;
	return 0;
}

/* Part key of rec: 1 with *obj when it has numbers, 0 when it is absent
 * or says why it is missing (its reason appended to err), or the error. */
static int part(struct loader *L, const struct jsonr *rec, const char *key,
		const struct jsonr **obj, char *err, size_t errlen)
{
	const struct jsonr *v = jsonr_get(rec, key);

	*obj = NULL;
	if (!v)
		return 0;
	if (!jsonr_is(v, JSONR_OBJ))
		return ld_bad(L, "freespace record: \"%s\" must be an object", key);
	const struct jsonr *e = jsonr_get(v, "error");
	if (e) {
		if (!jsonr_is(e, JSONR_STR) || !*e->str)
			return ld_bad(L, "freespace record: \"%s.error\" must be a non-empty string", key);
		size_t n = strlen(err);
		snprintf(err + n, errlen - n, "%s%s: %s", n ? "; " : "", key, e->str);
		return 0;
	}
	*obj = v;
	return 1;
}

int ld_load_freespace(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_freespace f;
	const struct jsonr *o;
	char err[1024] = "";
	double round;
	int rc = 0;

	memset(&f, 0, sizeof(f));
	f.f_dirty = UINT64_MAX;
	const char *fsname = ld_need_str(L, rec, "freespace", "fs", &rc);
	if (rc)
		return rc;
	if ((rc = ld_need_round(L, rec, "freespace", &round)))
		return rc;
	f.round = (unsigned)round;
	f.line = L->line;
	if ((rc = part(L, rec, "statfs", &o, err, sizeof(err))) < 0)
		return rc;
	if (rc && ((rc = need_u64(L, o, "statfs", "size_bytes", &f.size_bytes)) ||
		   (rc = need_u64(L, o, "statfs", "free_bytes", &f.statfs_free))))
		return rc;
	f.have_statfs = o != NULL;
	if ((rc = part(L, rec, "free_extents", &o, err, sizeof(err))) < 0)
		return rc;
	if (rc && ((rc = need_u64(L, o, "free_extents", "count", &f.extents)) ||
		   (rc = need_u64(L, o, "free_extents", "free_bytes", &f.free_bytes)) ||
		   (rc = need_u64(L, o, "free_extents", "largest_bytes", &f.largest_bytes))))
		return rc;
	f.have_extents = o != NULL;
	if ((rc = part(L, rec, "defrag", &o, err, sizeof(err))) < 0)
		return rc;
	if (rc && (rc = need_u64(L, o, "defrag", "score", &f.score)))
		return rc;
	f.have_score = o != NULL;
	if ((rc = part(L, rec, "btrfs", &o, err, sizeof(err))) < 0)
		return rc;
	if (rc) {
		if ((rc = need_u64(L, o, "btrfs", "device_size", &f.b_size)) ||
		    (rc = need_u64(L, o, "btrfs", "allocated", &f.b_allocated)) ||
		    (rc = need_u64(L, o, "btrfs", "used", &f.b_used)) ||
		    (rc = need_u64(L, o, "btrfs", "free_estimated", &f.b_free)))
			return rc;
		const struct jsonr *pr = jsonr_get(o, "profiles");
		if (!jsonr_is(pr, JSONR_ARR))
			return ld_bad(L, "freespace record: \"btrfs.profiles\" must be an array");
		for (size_t i = 0; i < jsonr_len(pr); i++) {
			const struct jsonr *p = jsonr_at(pr, i);
			uint64_t size = 0, used = 0;
			const char *type = jsonr_str(jsonr_get(p, "type"));
			if (!type || (rc = need_u64(L, p, "btrfs.profiles[]", "size", &size)) ||
			    (rc = need_u64(L, p, "btrfs.profiles[]", "used", &used)))
				return rc ? rc : ld_bad(L, "freespace record: \"btrfs.profiles[].type\""
							" must be a string");
			if (!strcmp(type, "Data")) {
				f.b_data_size += size;
				f.b_data_used += used;
			}
		}
	}
	f.have_btrfs = o != NULL;
	if ((rc = part(L, rec, "f2fs", &o, err, sizeof(err))) < 0)
		return rc;
	if (rc) {
		if ((rc = need_u64(L, o, "f2fs", "segments", &f.f_segments)) ||
		    (rc = need_u64(L, o, "f2fs", "empty_segments", &f.f_empty)) ||
		    (rc = need_u64(L, o, "f2fs", "full_segments", &f.f_full)) ||
		    (rc = need_u64(L, o, "f2fs", "partial_segments", &f.f_partial)) ||
		    (rc = need_u64(L, o, "f2fs", "partial_valid_blocks", &f.f_partial_valid)) ||
		    (rc = need_u64(L, o, "f2fs", "blocks_per_segment", &f.f_bps)))
			return rc;
		f.f_dirty = jsonr_u64(jsonr_get(o, "dirty_segments"), UINT64_MAX);
	}
	f.have_f2fs = o != NULL;

	struct rep_freespace *slot = NULL;
	for (size_t i = 0; i < r->nfsp && !slot; i++)
		if (r->fsp[i].round == f.round && !strcmp(r->fsp[i].fs, fsname))
			slot = &r->fsp[i];	/* the same fs and round again: the later wins */
	if (!slot) {
		if (ld_grow((void **)&r->fsp, &r->capfsp, r->nfsp, sizeof(*r->fsp)))
			return ld_oom(L);
		slot = &r->fsp[r->nfsp++];
		memset(slot, 0, sizeof(*slot));
	}
	if (!(f.fs = strdup(fsname)) || (err[0] && !(f.error = strdup(err)))) {
		free(f.fs);
		return ld_oom(L);
	}
	free(slot->fs);
	free(slot->error);
	*slot = f;
	return 0;
}

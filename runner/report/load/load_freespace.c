/* load_freespace.c: the `freespace` records (what each round's reads left
 * of the free space: statfs, free extents, the defrag score, btrfs and
 * f2fs) into the run model, one a filesystem and round. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static const size_t owned[] = { offsetof(struct rep_freespace, fs), offsetof(struct rep_freespace, error) };

void ld_freespace_free(struct rep_run *r)
{
	ld_free_array(r->fsp, r->nfsp, sizeof(*r->fsp), LD_OWNED(owned));
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

/* part() and the part's whole numbers >= 0: pairs of a key and where it
 * goes (uint64_t *), ended by NULL. */
static int part_u64s(struct loader *L, const struct jsonr *rec, const char *key,
		     const struct jsonr **obj, char *err, size_t errlen, ...)
{
	va_list ap;
	const char *k;
	int rc = part(L, rec, key, obj, err, errlen), e;

	va_start(ap, errlen);
	while (rc > 0 && (k = va_arg(ap, const char *)))
		if ((e = need_u64(L, *obj, key, k, va_arg(ap, uint64_t *))))
			rc = e;
	va_end(ap);
	return rc;
}

int ld_load_freespace(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_freespace f;
	const struct jsonr *o;
	char err[1024] = "";
	const char *fsname;
	int rc;

	memset(&f, 0, sizeof(f));
	f.f_dirty = UINT64_MAX;
	if ((rc = ld_need_strs(L, rec, "freespace", "fs", &fsname, (char *)NULL)))
		return rc;
	if ((rc = ld_need_round(L, rec, "freespace", &f.round)))
		return rc;
	f.line = L->line;
	if ((rc = part_u64s(L, rec, "statfs", &o, err, sizeof(err), "size_bytes", &f.size_bytes,
			    "free_bytes", &f.statfs_free, (char *)NULL)) < 0)
		return rc;
	f.have_statfs = o != NULL;
	if ((rc = part_u64s(L, rec, "free_extents", &o, err, sizeof(err), "count", &f.extents,
			    "free_bytes", &f.free_bytes, "largest_bytes", &f.largest_bytes,
			    (char *)NULL)) < 0)
		return rc;
	f.have_extents = o != NULL;
	if ((rc = part_u64s(L, rec, "defrag", &o, err, sizeof(err), "score", &f.score, (char *)NULL)) < 0)
		return rc;
	f.have_score = o != NULL;
	if ((rc = part_u64s(L, rec, "btrfs", &o, err, sizeof(err), "device_size", &f.b_size,
			    "allocated", &f.b_allocated, "used", &f.b_used, "free_estimated", &f.b_free,
			    (char *)NULL)) < 0)
		return rc;
	if (rc) {
		const struct jsonr *pr = jsonr_get(o, "profiles");
		if (!jsonr_is(pr, JSONR_ARR))
			return ld_bad(L, "freespace record: \"btrfs.profiles\" must be an array");
		for (size_t i = 0; i < jsonr_len(pr); i++) {
			const struct jsonr *p = jsonr_at(pr, i);
			uint64_t size = 0, used = 0;
			const char *type = jsonr_str(jsonr_get(p, "type"));
			int e = 0;
			if (!type || (e = need_u64(L, p, "btrfs.profiles[]", "size", &size)) ||
			    (e = need_u64(L, p, "btrfs.profiles[]", "used", &used)))
				return e ? e : ld_bad(L, "freespace record: \"btrfs.profiles[].type\""
							" must be a string");
			if (!strcmp(type, "Data")) {
				f.b_data_size += size;
				f.b_data_used += used;
			}
		}
	}
	f.have_btrfs = o != NULL;
	if ((rc = part_u64s(L, rec, "f2fs", &o, err, sizeof(err), "segments", &f.f_segments,
			    "empty_segments", &f.f_empty, "full_segments", &f.f_full, "partial_segments",
			    &f.f_partial, "partial_valid_blocks", &f.f_partial_valid,
			    "blocks_per_segment", &f.f_bps, (char *)NULL)) < 0)
		return rc;
	if (rc)
		f.f_dirty = jsonr_u64(jsonr_get(o, "dirty_segments"), UINT64_MAX);
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
	ld_free_members(slot, 1, sizeof(*slot), LD_OWNED(owned));
	*slot = f;
	return 0;
}

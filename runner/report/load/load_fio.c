/* load_fio.c: the fio and fill records into the run model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static const size_t fio_owned[] = {
	offsetof(struct rep_fio, fs), offsetof(struct rep_fio, workload),
	offsetof(struct rep_fio, status), offsetof(struct rep_fio, msg),
};
static const size_t fill_owned[] = {
	offsetof(struct rep_fill, fs), offsetof(struct rep_fill, status), offsetof(struct rep_fill, msg),
};

void ld_fio_free(struct rep_run *r)
{
	ld_free_array(r->fio, r->nfio, sizeof(*r->fio), LD_OWNED(fio_owned));
	ld_free_array(r->fill, r->nfill, sizeof(*r->fill), LD_OWNED(fill_owned));
}

/* A number of the record, or -1 when absent; a number of another type
 * (text, a negative count) is an error. */
static int num(struct loader *L, const char *type, const struct jsonr *obj, const char *path,
	       const char *key, double *out)
{
	const struct jsonr *v = jsonr_get(obj, key);

	*out = -1;
	if (!v)
		return 0;
	if (!jsonr_is(v, JSONR_NUM) || v->num < 0)
		return ld_bad(L, "%s record: \"%s%s\" must be a number >= 0", type, path, key);
	*out = v->num;
	return 0;
}

static int strings(struct loader *L, const struct jsonr *rec, const char *type, char **status,
		   char **msg)
{
	const struct jsonr *st = jsonr_get(rec, "status");
	const struct jsonr *m = jsonr_get(rec, "msg");

	if (st && !jsonr_is(st, JSONR_STR))
		return ld_bad(L, "%s record: \"status\" must be a string", type);
	if ((st && ld_set_text(status, st)) || (jsonr_is(m, JSONR_STR) && ld_set_text(msg, m)))
		return ld_oom(L);
	return 0;
}

/* iops, mib_per_s and clat_ns.p99 of a direction object (absent: -1). */
static int direction(struct loader *L, const char *type, const struct jsonr *rec, const char *key,
		     double *iops, double *mib, double *p99)
{
	const struct jsonr *d = jsonr_get(rec, key);
	char path[32];
	int rc;

	*iops = *p99 = -1;
	if (mib)
		*mib = -1;
	if (!d)
		return 0;
	if (!jsonr_is(d, JSONR_OBJ))
		return ld_bad(L, "%s record: \"%s\" must be an object", type, key);
	snprintf(path, sizeof(path), "%s.", key);
	if ((rc = num(L, type, d, path, "iops", iops)) || (mib && (rc = num(L, type, d, path, "mib_per_s", mib))))
		return rc;
	snprintf(path, sizeof(path), "%s.clat_ns.", key);
	return num(L, type, jsonr_get(d, "clat_ns"), path, "p99", p99);
}

int ld_load_fio(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_fio f;
	double errors;
	int rc = 0;

	memset(&f, 0, sizeof(f));
	f.line = L->line;
	const char *fs, *wl;
	if ((rc = ld_need_strs(L, rec, "fio", "fs", &fs, "workload", &wl, (char *)NULL)))
		return rc;
	for (int k = 0; k < 2 && !rc; k++)
		rc = direction(L, "fio", rec, k ? "write" : "read", &f.iops[k], &f.mib_s[k], &f.p99_ns[k]);
	if (!rc)
		rc = num(L, "fio", rec, "", "errors", &errors);
	if (rc)
		return rc;
	f.errors = errors > 0 ? (uint64_t)errors : 0;
	if (!(f.fs = strdup(fs)) || !(f.workload = strdup(wl)) ||
	    (rc = strings(L, rec, "fio", &f.status, &f.msg)) ||
	    ld_grow((void **)&r->fio, &r->capfio, r->nfio, sizeof(*r->fio))) {
		ld_free_members(&f, 1, sizeof(f), LD_OWNED(fio_owned));
		return rc ? rc : ld_oom(L);
	}
	r->fio[r->nfio++] = f;
	return 0;
}

int ld_load_fill(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_fill f;
	double files[2];
	int rc = 0;

	memset(&f, 0, sizeof(f));
	f.line = L->line;
	const char *fs = ld_need_str(L, rec, "fill", "fs", &rc);
	if (rc)
		return rc;
	if ((rc = num(L, "fill", rec, "", "level", &f.level)) ||
	    (rc = direction(L, "fill", rec, "before", &f.iops[0], NULL, &f.p99_ns[0])) ||
	    (rc = direction(L, "fill", rec, "after", &f.iops[1], NULL, &f.p99_ns[1])) ||
	    (rc = num(L, "fill", jsonr_get(rec, "fill"), "fill.", "files", &files[0])) ||
	    (rc = num(L, "fill", jsonr_get(rec, "rewrite"), "rewrite.", "files", &files[1])))
		return rc;
	f.files = (uint64_t)(files[0] > 0 ? files[0] : 0) + (uint64_t)(files[1] > 0 ? files[1] : 0);
	if (!(f.fs = strdup(fs)) || (rc = strings(L, rec, "fill", &f.status, &f.msg)) ||
	    ld_grow((void **)&r->fill, &r->capfill, r->nfill, sizeof(*r->fill))) {
		ld_free_members(&f, 1, sizeof(f), LD_OWNED(fill_owned));
		return rc ? rc : ld_oom(L);
	}
	r->fill[r->nfill++] = f;
	return 0;
}

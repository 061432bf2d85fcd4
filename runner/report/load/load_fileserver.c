/* load_fileserver.c: the `fileserver` records (the file-server workload
 * on one filesystem, fresh or aged) into the run model. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

const char *const rep_fsv_op_name[REP_FSV_NOPS] = { "create", "append", "read", "delete", "stat" };

static const size_t owned[] = {
	offsetof(struct rep_fileserver, fs), offsetof(struct rep_fileserver, state),
	offsetof(struct rep_fileserver, status), offsetof(struct rep_fileserver, msg),
};

int ld_load_fileserver(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_fileserver v;
	const char *fs, *state, *st;
	int rc;

	memset(&v, 0, sizeof(v));
	if ((rc = ld_need_strs(L, rec, "fileserver", "fs", &fs, "state", &state, "status", &st,
			       (char *)NULL)))
		return rc;
	if (strcmp(state, "fresh") && strcmp(state, "aged"))
		return ld_bad(L, "fileserver record: state \"%s\" is neither fresh nor aged", state);
	const char *msg = jsonr_str(jsonr_get(rec, "msg"));
	v.ops_per_s = jsonr_num(jsonr_get(rec, "ops_per_s"), NAN);
	v.mib_per_s = jsonr_num(jsonr_get(rec, "mib_per_s"), NAN);
	v.seconds = jsonr_num(jsonr_get(rec, "seconds"), NAN);
	v.level = jsonr_num(jsonr_get(rec, "level"), NAN);
	v.aging_level = jsonr_num(jsonr_get(jsonr_get(rec, "aging"), "level"), NAN);
	v.files = jsonr_u64(jsonr_get(rec, "files"), 0);
	v.mean_size = jsonr_u64(jsonr_get(rec, "mean_size"), 0);
	v.workers = jsonr_u64(jsonr_get(rec, "workers"), 0);
	v.runtime = jsonr_u64(jsonr_get(rec, "runtime"), 0);
	v.ops = jsonr_u64(jsonr_get(rec, "ops"), 0);
	v.errors = jsonr_u64(jsonr_get(rec, "errors"), 0);
	v.verify_errors = jsonr_u64(jsonr_get(rec, "verify_errors"), 0);
	for (int i = 0; i < REP_FSV_NOPS; i++) {
		const struct jsonr *o = jsonr_get(rec, rep_fsv_op_name[i]), *lat = jsonr_get(o, "lat_ns");
		v.op[i].ops = jsonr_u64(jsonr_get(o, "ops"), 0);
		v.op[i].bytes = jsonr_u64(jsonr_get(o, "bytes"), 0);
		v.op[i].ops_per_s = jsonr_num(jsonr_get(o, "ops_per_s"), NAN);
		v.op[i].p50 = jsonr_num(jsonr_get(lat, "p50"), NAN);
		v.op[i].p90 = jsonr_num(jsonr_get(lat, "p90"), NAN);
		v.op[i].p99 = jsonr_num(jsonr_get(lat, "p99"), NAN);
		v.op[i].max = jsonr_num(jsonr_get(lat, "max"), NAN);
	}
	v.line = L->line;
	if (ld_grow((void **)&r->fsv, &r->capfsv, r->nfsv, sizeof(*r->fsv)))
		return ld_oom(L);
	if (ld_copy_strs(&v, owned, (const char *const[]){ fs, state, st, msg }, 4))
		return ld_oom(L);
	r->fsv[r->nfsv++] = v;
	return 0;
}

void ld_fileserver_free(struct rep_run *r)
{
	ld_free_array(r->fsv, r->nfsv, sizeof(*r->fsv), LD_OWNED(owned));
}

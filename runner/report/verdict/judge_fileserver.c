/* judge_fileserver.c: the keys min_fileserver_ops_per_s and
 * max_fileserver_append_p99_ms (keys.c): per `fileserver` record (each
 * filesystem, fresh and aged), its operations per second against a floor,
 * its random append's 99th percentile against a ceiling. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/sections/served.h"
#include "report/verdict/rules.h"

static int eval(struct vd_result *res, const struct vd_rule *u, const struct rep_run *r, int by)
{
	char b[32];
	size_t n = 0;

	vd_num(b, sizeof(b), u->limit);
	for (size_t i = 0; i < r->nfsv; i++) {
		const struct rep_fileserver *v = &r->fsv[i];
		if (rep_fsv_find(r, v->fs, v->state) != v)
			continue;	/* a later record of the same replaces it */
		struct vd_check *k = vd_new_check(res, u);
		if (!k)
			return -ENOMEM;
		n++;
		snprintf(k->what, sizeof(k->what), "%s file server (%s): %s", v->fs, v->state,
			 by == REP_FSV_BY_OPS ? "operations per second" : "random append p99");
		snprintf(k->limit, sizeof(k->limit), "%s %s %s", by == REP_FSV_BY_OPS ? ">=" : "<=", b,
			 by == REP_FSV_BY_OPS ? "ops/s" : "ms");
		k->unit = by == REP_FSV_BY_OPS ? "ops/s" : "ms";
		k->bound = u->limit;
		for (size_t f = 0; f < r->nfs && !k->fs; f++)
			if (!strcmp(r->fs[f].name, v->fs))
				k->fs = r->fs[f].name;
		double m = rep_fsv_measure(v, by);
		if (!isfinite(m)) {
			vd_not_measured(k, strcmp(v->status, "ok") ? "the file-server run failed"
								   : "the record lacks the figure");
			continue;
		}
		if (by == REP_FSV_BY_OPS) {
			k->value = m;
			snprintf(k->measured, sizeof(k->measured), "%.0f ops/s (%llu operations in %.1f s)", m,
				 (unsigned long long)v->ops, v->seconds);
			k->pass = m >= u->limit;
		} else {
			k->value = m / 1e6;
			snprintf(k->measured, sizeof(k->measured), "%.3f ms (of %llu appends)", k->value,
				 (unsigned long long)v->op[REP_FSV_APPEND].ops);
			k->pass = k->value <= u->limit;
		}
	}
	if (!n) {
		struct vd_check *k = vd_new_check(res, u);
		if (!k)
			return -ENOMEM;
		snprintf(k->what, sizeof(k->what), "file server: %s",
			 by == REP_FSV_BY_OPS ? "operations per second" : "random append p99");
		vd_not_measured(k, "no fileserver record");
	}
	return 0;
}

int vd_eval_fsv_ops(struct vd_result *res, const struct vd_criteria *c, const struct vd_rule *u,
		    const struct rep_run *r)
{
	(void)c;
	return eval(res, u, r, REP_FSV_BY_OPS);
}

int vd_eval_fsv_append(struct vd_result *res, const struct vd_criteria *c, const struct vd_rule *u,
		       const struct rep_run *r)
{
	(void)c;
	return eval(res, u, r, REP_FSV_BY_APPEND);
}

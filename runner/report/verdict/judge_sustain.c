/* judge_sustain.c: the key sustain_level (keys.c): per sustained write,
 * the level after its cliff (report/sections/cliff.h) against a floor. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sections/sustained.h"
#include "report/verdict/rules.h"

int vd_parse_pct(const struct vd_arg *a, struct vd_rule *u)
{
	char *end;
	double d = strtod(a->val, &end);

	if (end == a->val || *end || !(d >= 1 && d <= 100))
		return 1;
	u->limit = d;
	return 0;
}

int vd_eval_sustain(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r)
{
	char b[32];

	(void)c;
	vd_num(b, sizeof(b), u->limit);
	for (size_t i = 0; i < r->nsus; i++) {
		const struct rep_sustain *s = &r->sus[i];
		struct vd_check *k = vd_new_check(res, u);
		struct rep_cliff cl;
		double at_s;

		if (!k)
			return -ENOMEM;
		snprintf(k->what, sizeof(k->what), "%s %s sustained write: level after a cliff", s->fs,
			 s->workload);
		snprintf(k->limit, sizeof(k->limit), ">= %s %% of the base", b);
		k->unit = "%";
		k->bound = u->limit;
		for (size_t f = 0; f < r->nfs && !k->fs; f++)
			if (!strcmp(r->fs[f].name, s->fs))
				k->fs = r->fs[f].name;
		if (strcmp(s->status, "ok")) {
			vd_not_measured(k, "the write failed");
			continue;
		}
		int rc = rep_sustain_cliff(s, &cl, &at_s);
		if (rc == -ENOMEM)
			return rc;
		if (rc || cl.state == REP_CLIFF_SHORT) {
			vd_not_measured(k, rc ? "the record's cliff settings are out of range"
					      : "fewer samples than sustain_base + sustain_hold");
			continue;
		}
		if (cl.state == REP_CLIFF_NONE) {
			k->value = 100;
			snprintf(k->measured, sizeof(k->measured), "held (no cliff below %u %% of %.1f MiB/s)",
				 s->share_pct, cl.base);
		} else {
			k->value = cl.level_pct;
			snprintf(k->measured, sizeof(k->measured), "%.0f %% (%.1f of %.1f MiB/s) from %.0f s",
				 cl.level_pct, cl.level, cl.base, at_s);
		}
		k->pass = k->value >= u->limit;
	}
	if (!r->nsus) {
		struct vd_check *k = vd_new_check(res, u);
		if (!k)
			return -ENOMEM;
		snprintf(k->what, sizeof(k->what), "sustained writes: level after a cliff");
		vd_not_measured(k, "no sustain record");
	}
	return 0;
}

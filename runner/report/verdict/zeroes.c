/* zeroes.c: the criteria key discard_zeroes (keys.c): the target read back
 * zeroes where it was discarded (the `discard_check` record). */
#include "report/verdict/rules.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int vd_parse_ok(const struct vd_arg *a, struct vd_rule *u)
{
	(void)u;
	return strcmp(a->val, "ok") != 0;
}

int vd_eval_discard(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r)
{
	const struct rep_discard *d = &r->dc;
	struct vd_check *k;

	(void)c;
	if (vd_grow((void **)&res->check, &res->cap, res->n, sizeof(*res->check)))
		return -ENOMEM;
	k = &res->check[res->n++];
	memset(k, 0, sizeof(*k));
	k->value = k->bound = NAN;
	k->unit = "";
	snprintf(k->where, sizeof(k->where), "%s", u->where);
	snprintf(k->what, sizeof(k->what), "a discarded range of the target reads back as zeroes");
	snprintf(k->limit, sizeof(k->limit), "ok");
	if (!d->have) {
		snprintf(k->measured, sizeof(k->measured),
			 "not measured (no discard_check record: the setting fstrim was off, or a --dir run)");
		k->absent = 1;
		return 0;
	}
	k->measured_ok = strncmp(d->status, "not run", 7) && strncmp(d->status, "failed", 6);
	k->pass = !strcmp(d->status, "ok");
	if (!strncmp(d->status, "not run", 7)) {	/* no promise of zeroes: does not apply */
		k->skip = 1;
		snprintf(k->why, sizeof(k->why), "%.200s", d->status);
	}
	if (!strcmp(d->status, "not zero"))
		snprintf(k->measured, sizeof(k->measured), "not zero: %llu bytes of the range on %.200s",
			 (unsigned long long)d->nonzero, d->device);
	else
		snprintf(k->measured, sizeof(k->measured), "%.200s", d->status);
	return 0;
}

/* load_control.c: a run's `control` records (the machine's conditions:
 * cpu, copy and tmpfs samples) into the run model, pooled item by item. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static const char *const item_key[REP_CTL_N] = { "cpu_s", "copy_s", "tmpfs_s" };
static const char *const size_key[REP_CTL_N] = { "cpu_iterations", "copy_bytes", "tmpfs_files" };

/* A run's control records: the start's and one after each filesystem;
 * their samples pooled, item by item, in the order of the log. */
int ld_load_control(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	double *add[REP_CTL_N] = { NULL };
	size_t nadd[REP_CTL_N] = { 0 };
	const char *why = NULL;

	for (unsigned it = 0; it < REP_CTL_N && !why; it++) {
		const struct jsonr *a = jsonr_get(rec, item_key[it]);
		if (!a)
			continue;
		size_t n = jsonr_len(a);
		if (!jsonr_is(a, JSONR_ARR) || n > 10000) {
			why = "control record: a sample list must be an array of at most 10000 numbers";
			break;
		}
		if (!n)
			continue;
		if (!(add[it] = malloc(n * sizeof(double)))) {
			for (unsigned k = 0; k < REP_CTL_N; k++)
				free(add[k]);
			return ld_oom(L);
		}
		for (size_t i = 0; i < n && !why; i++) {
			double x = jsonr_num(jsonr_at(a, i), -1);
			if (!(x >= 0 && isfinite(x)))
				why = "control record: a sample must be a number of seconds >= 0";
			add[it][i] = x;
		}
		nadd[it] = n;
		uint64_t size = jsonr_u64(jsonr_get(rec, size_key[it]), 0);
		if (!why && r->ctl.have && r->ctl.n[it] && r->ctl.size[it] != size)
			why = "control record: its sizes differ from the run's first control record";
	}
	if (why) {
		for (unsigned k = 0; k < REP_CTL_N; k++)
			free(add[k]);
		return ld_bad(L, "%s", why);
	}
	for (unsigned it = 0; it < REP_CTL_N; it++) {
		if (!nadd[it])
			continue;
		double *v = realloc(r->ctl.v[it], (r->ctl.n[it] + nadd[it]) * sizeof(double));
		if (!v) {
			for (unsigned k = it; k < REP_CTL_N; k++)
				free(add[k]);
			return ld_oom(L);
		}
		memcpy(v + r->ctl.n[it], add[it], nadd[it] * sizeof(double));
		free(add[it]);
		r->ctl.v[it] = v;
		r->ctl.n[it] += nadd[it];
		r->ctl.size[it] = jsonr_u64(jsonr_get(rec, size_key[it]), 0);
	}
	if (!r->ctl.have)
		r->ctl.line = L->line;
	r->ctl.have = 1;
	r->ctl.records++;
	return 0;
}

void ld_control_free(struct rep_run *r)
{
	for (unsigned it = 0; it < REP_CTL_N; it++)
		free(r->ctl.v[it]);
	memset(&r->ctl, 0, sizeof(r->ctl));
}

/* load_sustain.c: the `sustain` records and their per-second series
 * (`sustain_series`) into the run model. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

static unsigned opt(const struct jsonr *rec, const char *key)
{
	double v = jsonr_num(jsonr_get(rec, key), 0);
	return v >= 0 && v <= 1e6 ? (unsigned)v : 0;
}

int ld_load_sustain(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_sustain s;
	int rc = 0;

	memset(&s, 0, sizeof(s));
	const char *fs = ld_need_str(L, rec, "sustain", "fs", &rc);
	const char *wl = rc ? NULL : ld_need_str(L, rec, "sustain", "workload", &rc);
	const char *st = rc ? NULL : ld_need_str(L, rec, "sustain", "status", &rc);
	if (rc)
		return rc;
	const char *msg = jsonr_str(jsonr_get(rec, "msg"));
	const char *ts = jsonr_str(jsonr_get(rec, "temp_source"));
	s.mib_per_s = jsonr_num(jsonr_get(rec, "mib_per_s"), NAN);
	s.first_s = jsonr_num(jsonr_get(rec, "first_s"), 1);
	s.runtime = opt(rec, "runtime");
	s.share_pct = opt(rec, "share_pct");
	s.base_s = opt(rec, "base_s");
	s.hold_s = opt(rec, "hold_s");
	s.rise_c = opt(rec, "rise_c");
	s.samples = jsonr_u64(jsonr_get(rec, "samples"), 0);
	s.line = L->line;
	if (ld_grow((void **)&r->sus, &r->capsus, r->nsus, sizeof(*r->sus)))
		return ld_oom(L);
	if (!(s.fs = strdup(fs)) || !(s.workload = strdup(wl)) || !(s.status = strdup(st)) ||
	    (msg && !(s.msg = strdup(msg))) || !(s.temp_source = strdup(ts ? ts : ""))) {
		free(s.fs);
		free(s.workload);
		free(s.status);
		free(s.msg);
		return ld_oom(L);
	}
	r->sus[r->nsus++] = s;
	return 0;
}

/* Room for n samples in s's series (new ones NaN). */
static int room(struct rep_sustain *s, size_t n)
{
	if (n <= s->cap)
		return 0;
	size_t nc = s->cap ? s->cap : 64;
	while (nc < n)
		nc *= 2;
	double *m = realloc(s->mib, nc * sizeof(*m));
	if (!m)
		return -ENOMEM;
	s->mib = m;
	double *c = realloc(s->celsius, nc * sizeof(*c));
	if (!c)
		return -ENOMEM;
	s->celsius = c;
	for (size_t i = s->cap; i < nc; i++)
		s->mib[i] = s->celsius[i] = NAN;
	s->cap = nc;
	return 0;
}

int ld_load_sustain_series(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	int rc = 0;
	const char *fs = ld_need_str(L, rec, "sustain_series", "fs", &rc);
	const char *wl = rc ? NULL : ld_need_str(L, rec, "sustain_series", "workload", &rc);
	if (rc)
		return rc;
	const struct jsonr *mib = jsonr_get(rec, "mib_per_s"), *cel = jsonr_get(rec, "celsius");
	double from = jsonr_num(jsonr_get(rec, "from"), -1);
	if (!(from >= 0 && from <= 1e7 && from == floor(from)))
		return ld_bad(L, "sustain_series record: \"from\" must be a whole number from 0");
	if (!jsonr_is(mib, JSONR_ARR))
		return ld_bad(L, "sustain_series record without a \"mib_per_s\" array");
	struct rep_sustain *s = NULL;
	for (size_t i = r->nsus; i-- > 0;)
		if (!strcmp(r->sus[i].fs, fs) && !strcmp(r->sus[i].workload, wl)) {
			s = &r->sus[i];
			break;
		}
	if (!s)
		return ld_bad(L, "sustain_series record of %s %s without a sustain record before it", fs, wl);
	size_t n = jsonr_len(mib), f = (size_t)from;
	if (n > 100000)
		return ld_bad(L, "sustain_series record: more than 100000 samples");
	if (room(s, f + n))
		return ld_oom(L);
	for (size_t i = 0; i < n; i++) {
		s->mib[f + i] = jsonr_num(jsonr_at(mib, i), NAN);
		s->celsius[f + i] = jsonr_num(jsonr_at(cel, i), NAN);
	}
	if (f + n > s->n)
		s->n = f + n;
	return 0;
}

void ld_sustain_free(struct rep_run *r)
{
	for (size_t i = 0; i < r->nsus; i++) {
		free(r->sus[i].fs);
		free(r->sus[i].workload);
		free(r->sus[i].status);
		free(r->sus[i].msg);
		free(r->sus[i].temp_source);
		free(r->sus[i].mib);
		free(r->sus[i].celsius);
	}
	free(r->sus);
	r->sus = NULL;
	r->nsus = r->capsus = 0;
}

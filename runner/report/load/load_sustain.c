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

static const size_t owned[] = {
	offsetof(struct rep_sustain, fs), offsetof(struct rep_sustain, workload),
	offsetof(struct rep_sustain, status), offsetof(struct rep_sustain, msg),
	offsetof(struct rep_sustain, temp_source), offsetof(struct rep_sustain, mib),
	offsetof(struct rep_sustain, celsius),
};

int ld_load_sustain(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_sustain s;
	const char *fs, *wl, *st;
	int rc;

	memset(&s, 0, sizeof(s));
	if ((rc = ld_need_strs(L, rec, "sustain", "fs", &fs, "workload", &wl, "status", &st,
			       (char *)NULL)))
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
	if (ld_copy_strs(&s, owned, (const char *const[]){ fs, wl, st, msg, ts ? ts : "" }, 5))
		return ld_oom(L);
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
	const char *fs, *wl;
	int rc = ld_need_strs(L, rec, "sustain_series", "fs", &fs, "workload", &wl, (char *)NULL);
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
	ld_free_array(r->sus, r->nsus, sizeof(*r->sus), LD_OWNED(owned));
}

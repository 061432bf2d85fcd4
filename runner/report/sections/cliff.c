/* cliff.c: the cliff of a sustained write (cliff.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/sections/cliff.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the finite values of v[from..to-1] (NaN when none),
 * sorted in scratch (room for to - from values). */
static double median(const double *v, size_t from, size_t to, double *scratch)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		if (isfinite(v[i]))
			scratch[n++] = v[i];
	if (!n)
		return NAN;
	qsort(scratch, n, sizeof(scratch[0]), cmp_dbl);
	return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

/* temp[] at the second of x[i]: NaN outside. */
static double temp_of(const double *temp, size_t nt, long off, long i)
{
	long k = i + off;

	return temp && k >= 0 && (size_t)k < nt ? temp[k] : NAN;
}

int rep_cliff_find(const double *x, size_t n, const double *temp, size_t nt, long temp_off,
		   const struct rep_cliff_opts *o, struct rep_cliff *out)
{
	if (!o || !out || (!x && n) || o->share_pct < 1 || o->share_pct > 99 || o->base_s < 1 ||
	    o->hold_s < 1 || !(o->rise_c > 0))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->base = out->threshold = out->level = out->level_pct = NAN;
	out->temp_base = out->temp_at = out->temp_peak = NAN;
	out->thermal = REP_TEMP_UNKNOWN;
	for (size_t k = 0; temp && k < nt; k++)
		if (isfinite(temp[k]) && !(temp[k] <= out->temp_peak))
			out->temp_peak = temp[k];
	/* scratch for the medians: n values, then the base's temperatures */
	double *s = malloc((n + o->base_s + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (n < (size_t)o->base_s + o->hold_s) {
		out->state = REP_CLIFF_SHORT;
		if (n)
			out->base = median(x, 0, n < o->base_s ? n : o->base_s, s);
		free(s);
		return 0;
	}
	out->base = median(x, 0, o->base_s, s);
	out->threshold = out->base * o->share_pct / 100.0;
	/* the base window's temperatures */
	double *tb = s + n;
	for (long i = 0; i < (long)o->base_s; i++)
		tb[i] = temp_of(temp, nt, temp_off, i);
	out->temp_base = median(tb, 0, o->base_s, s);
	out->state = REP_CLIFF_NONE;
	/* nothing written at the start: nothing to fall from */
	for (size_t i = o->base_s; out->base > 0 && i + o->hold_s <= n; i++) {
		if (!(x[i] < out->threshold) || !(median(x, i, i + o->hold_s, s) < out->threshold) ||
		    !(median(x, i, n, s) < out->threshold))
			continue;
		out->state = REP_CLIFF_FOUND;
		out->at = i;
		out->level = median(x, i, n, s);
		out->level_pct = out->level / out->base * 100.0;
		for (long k = (long)i - (long)o->hold_s; k <= (long)i + 1; k++) {
			double t = temp_of(temp, nt, temp_off, k);
			if (isfinite(t) && !(t <= out->temp_at))
				out->temp_at = t;
		}
		if (isfinite(out->temp_base) && isfinite(out->temp_at))
			out->thermal = out->temp_at - out->temp_base >= o->rise_c ? REP_TEMP_RISE
										  : REP_TEMP_FLAT;
		break;
	}
	free(s);
	return 0;
}

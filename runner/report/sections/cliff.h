/* cliff.h: where a sustained write's speed falls and stays down (cliff.c).
 * A pure function over a series of per-second throughput samples and the
 * disk's temperature on the same seconds; the `sustain` report section,
 * its chart and the verdict read what it finds.
 *
 * The definition (runner/SUSTAIN.md):
 *  - the base: the median of the first `base_s` samples;
 *  - the threshold: `share_pct` % of the base;
 *  - the cliff: the first sample i after the base window that is below the
 *    threshold, where the median of the `hold_s` samples from i (i
 *    included) and the median of every sample from i to the end are below
 *    it too: the speed fell there and stayed down (a dip that recovers
 *    within `hold_s` seconds, or later for good, is no cliff);
 *  - the level after it: the median of the samples from i to the end;
 *  - throttling: the temperature's highest value from `hold_s` seconds
 *    before the cliff to one second after it, against the median of the
 *    base window's temperatures: a rise of at least `rise_c` degrees
 *    Celsius coincides with the cliff. */
#ifndef FSB_REPORT_CLIFF_H
#define FSB_REPORT_CLIFF_H

#include <stddef.h>

struct rep_cliff_opts {
	unsigned share_pct;	/* the threshold, percent of the base (1..99) */
	unsigned base_s;	/* samples in the base window (>= 1) */
	unsigned hold_s;	/* samples the fall must hold (>= 1) */
	double rise_c;		/* degrees Celsius that make a rise */
};

enum rep_cliff_state {
	REP_CLIFF_NONE,		/* the speed held */
	REP_CLIFF_FOUND,
	REP_CLIFF_SHORT,	/* fewer than base_s + hold_s samples: cannot tell */
};

enum rep_cliff_temp {
	REP_TEMP_UNKNOWN = -1,	/* no temperature around the base or the cliff */
	REP_TEMP_FLAT = 0,	/* no rise of rise_c at the cliff */
	REP_TEMP_RISE = 1,	/* the cliff coincides with a temperature rise */
};

struct rep_cliff {
	enum rep_cliff_state state;
	double base;		/* the base window's median (the input's unit) */
	double threshold;
	size_t at;		/* FOUND: the cliff's sample index */
	double level;		/* FOUND: the median from the cliff to the end */
	double level_pct;	/* FOUND: level / base * 100 */
	double temp_base;	/* the base window's median temperature (NaN: none) */
	double temp_at;		/* FOUND: the highest around the cliff (NaN: none) */
	double temp_peak;	/* the highest of the whole run (NaN: none) */
	enum rep_cliff_temp thermal;	/* FOUND: whether it coincides with a rise */
};

/* Find the cliff in x[0..n-1]; temp[0..nt-1] are the temperatures (NaN
 * where not read; temp may be NULL), temp[i + temp_off] taken on the
 * second of x[i]. Returns 0 and fills out; -ENOMEM; -EINVAL when an option is out
 * of range or x is NULL with n > 0. */
int rep_cliff_find(const double *x, size_t n, const double *temp, size_t nt, long temp_off,
		   const struct rep_cliff_opts *o, struct rep_cliff *out);

#endif

/* edivisive.c: change points by E-divisive means (see edivisive.h). */
#include "report/compare/edivisive.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rep_ediv_defaults(struct rep_ediv_opts *o)
{
	o->sig = REP_EDIV_SIG;
	o->perms = REP_EDIV_PERMS;
	o->min_seg = REP_EDIV_MIN_SEG;
	o->seed = REP_EDIV_SEED;
}

int rep_ediv_check(const struct rep_ediv_opts *o)
{
	if (!(o->sig > 0 && o->sig < 1) || o->perms < 1 || o->perms > REP_EDIV_MAX_PERMS ||
	    o->min_seg < 2)
		return -EINVAL;
	if (o->sig * ((double)o->perms + 1) + 1e-9 < 1)	/* the smallest p is 1 / (perms + 1) */
		return -EINVAL;
	return 0;
}

uint64_t rep_ediv_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A whole number in [0, k), k >= 1, without the bias of a plain modulo. */
static uint64_t below(uint64_t *state, uint64_t k)
{
	uint64_t floor = (0 - k) % k, r;

	do
		r = rep_ediv_next(state);
	while (r < floor);
	return r % k;
}

/* The best split of z[s..e): *tau (the first index of the right part) and
 * its Q. Returns 0 when the segment is too short for two parts of min. */
static int best_split(const double *z, size_t s, size_t e, size_t min, size_t *tau, double *q)
{
	double wl = 0, wr = 0, c = 0;
	int found = 0;

	if (e - s < 2 * min)
		return 0;
	for (size_t i = s; i < e; i++)
		for (size_t j = i + 1; j < e; j++)
			wr += fabs(z[i] - z[j]);
	/* move z[t] from the right part to the left one, t = s, s+1, ... */
	for (size_t t = s; t + min < e; t++) {
		double a = 0, b = 0;	/* its distances to the left, to the right */
		for (size_t i = s; i < t; i++)
			a += fabs(z[i] - z[t]);
		for (size_t j = t + 1; j < e; j++)
			b += fabs(z[t] - z[j]);
		wl += a;
		wr -= b;
		c += b - a;
		double m = (double)(t + 1 - s), n = (double)(e - t - 1);
		if (t + 1 - s < min)
			continue;
		double v = m * n / (m + n) *
			   (2 * c / (m * n) - wl / (m * (m - 1) / 2) - wr / (n * (n - 1) / 2));
		if (!found || v > *q) {
			*q = v;
			*tau = t + 1;
			found = 1;
		}
	}
	return found;
}

/* The best split over the segments of z cut at b[0..nb) (b[0] = 0, b[nb-1]
 * = n): 1 with *tau and *q, 0 when no segment can be split. */
static int best_of(const double *z, const size_t *b, size_t nb, size_t min, size_t *tau,
		   double *q)
{
	int found = 0;

	for (size_t k = 0; k + 1 < nb; k++) {
		size_t t = 0;
		double v = 0;
		if (best_split(z, b[k], b[k + 1], min, &t, &v) && (!found || v > *q)) {
			*q = v;
			*tau = t;
			found = 1;
		}
	}
	return found;
}

int rep_ediv(const double *x, size_t n, const struct rep_ediv_opts *o, uint64_t seed,
	     struct rep_ediv_cp *cp, size_t cpmax, size_t *ncp)
{
	size_t *b = NULL, nb = 2;
	double *z = NULL;
	uint64_t st = seed;
	int rc = 0;

	*ncp = 0;
	if (rep_ediv_check(o))
		return -EINVAL;
	if (n < 2 * o->min_seg)
		return 0;
	b = malloc((n + 2) * sizeof(*b));
	z = malloc(n * sizeof(*z));
	if (!b || !z) {
		rc = -ENOMEM;
		goto out;
	}
	b[0] = 0;
	b[1] = n;
	for (;;) {
		size_t tau, ptau, hits = 0, limit;
		double q, pq;
		unsigned r;

		if (*ncp == cpmax || !best_of(x, b, nb, o->min_seg, &tau, &q) || !(q > 0))
			break;
		/* the shuffles needed to pass: more hits than this and p > sig */
		limit = (size_t)floor(o->sig * ((double)o->perms + 1) + 1e-9) - 1;
		for (r = 0; r < o->perms && hits <= limit; r++) {
			memcpy(z, x, n * sizeof(*z));
			for (size_t k = 0; k + 1 < nb; k++)	/* Fisher-Yates in each segment */
				for (size_t i = b[k + 1] - 1; i > b[k]; i--) {
					size_t j = b[k] + (size_t)below(&st, i - b[k] + 1);
					double t = z[i];
					z[i] = z[j];
					z[j] = t;
				}
			if (best_of(z, b, nb, o->min_seg, &ptau, &pq) && pq >= q)
				hits++;
		}
		if (hits > limit)
			break;
		/* a change point: keep the cuts and the points sorted */
		size_t at = 1;
		while (b[at] < tau)
			at++;
		memmove(b + at + 1, b + at, (nb - at) * sizeof(*b));
		b[at] = tau;
		nb++;
		size_t k = *ncp;
		while (k > 0 && cp[k - 1].at > tau) {
			cp[k] = cp[k - 1];
			k--;
		}
		cp[k].at = tau;
		cp[k].q = q;
		cp[k].p = ((double)hits + 1) / ((double)o->perms + 1);
		(*ncp)++;
	}
out:
	free(b);
	free(z);
	return rc;
}

/* fileset.c: the fileset of the file-server workload (fileset.h): its
 * sizes (a gamma distribution), which files exist before the clock starts,
 * the appends' sizes, and the tree of directories the files live in. Pure
 * functions of a seed, the same on every machine. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "run/core/pattern.h"
#include "run/engine/fileset.h"

uint64_t fsb_fsv_next(uint64_t *s)
{
	return fsb_splitmix64(s);
}

double fsb_fsv_uniform(uint64_t *s)
{
	return ((double)(fsb_fsv_next(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double fsb_fsv_normal(uint64_t *s)
{
	double u, v, q;

	do {
		u = 2 * fsb_fsv_uniform(s) - 1;
		v = 2 * fsb_fsv_uniform(s) - 1;
		q = u * u + v * v;
	} while (q >= 1 || q == 0);
	return u * sqrt(-2 * log(q) / q);
}

double fsb_fsv_gamma(uint64_t *s, double k, double theta)
{
	if (k < 1)
		return fsb_fsv_gamma(s, k + 1, theta) * pow(fsb_fsv_uniform(s), 1 / k);
	double d = k - 1.0 / 3, c = 1 / sqrt(9 * d);
	for (;;) {
		double x = fsb_fsv_normal(s), v = 1 + c * x;
		if (v <= 0)
			continue;
		v = v * v * v;
		double u = fsb_fsv_uniform(s);
		if (u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v * theta;
	}
}

void fsb_fsv_sizes(uint64_t seed, uint32_t n, uint64_t mean, uint64_t *size)
{
	uint64_t s = seed ^ 0x73697a6573ull;	/* "sizes" */

	for (uint32_t i = 0; i < n; i++)
		size[i] = (uint64_t)llround(fsb_fsv_gamma(&s, FSB_FSV_SHAPE, (double)mean / FSB_FSV_SHAPE));
}

int fsb_fsv_prealloc(uint64_t seed, uint32_t i)
{
	uint64_t s = (seed ^ 0x707265616c6c6f63ull) + (uint64_t)i * 0x9e3779b97f4a7c15ull;

	return fsb_fsv_next(&s) % 100 < FSB_FSV_PREALLOC;
}

uint64_t fsb_fsv_append_size(uint64_t *s, uint64_t mean)
{
	return 1 + fsb_fsv_next(s) % (2 * mean - 1);
}

unsigned fsb_fsv_levels(uint32_t n, uint32_t width)
{
	unsigned l = 1;
	uint64_t span = (uint64_t)width * width;

	while (span < n) {
		span *= width;
		l++;
	}
	return l;
}

uint64_t fsb_fsv_dirs(uint32_t n, uint32_t width)
{
	unsigned levels = fsb_fsv_levels(n, width);
	uint64_t total = 0, per = 1;

	for (unsigned l = 1; l <= levels; l++) {
		per *= width;
		total += (n + per - 1) / per;
	}
	return total;
}

int fsb_fsv_path(char *buf, size_t len, uint32_t i, uint32_t n, uint32_t width)
{
	unsigned levels = fsb_fsv_levels(n, width);
	size_t o = 0;

	for (unsigned l = levels; l >= 1; l--) {
		uint64_t per = 1;
		for (unsigned k = 0; k < l; k++)
			per *= width;
		int m = snprintf(buf + (o < len ? o : len), o < len ? len - o : 0, "d%" PRIu64 "/",
				 ((uint64_t)i / per) % width);
		o += (size_t)m;
	}
	int m = snprintf(buf + (o < len ? o : len), o < len ? len - o : 0, "f%" PRIu32, i);
	return (int)(o + (size_t)m);
}


static size_t digits(uint64_t v)
{
	size_t d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

size_t fsb_fsv_path_max(uint32_t n, uint32_t width)
{
	return fsb_fsv_levels(n, width) * (2 + digits(width - 1)) + 1 + digits(n ? n - 1 : 0) + 1;
}

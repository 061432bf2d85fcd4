/* test_stats.c: lib/stats.c against values computed by R
 * (tests/unit/data/stats.txt, made by tests/unit/data/stats.R; the
 * command is the file's first line). */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "unit.h"

#define MAXS 24
#define MAXN 64

static struct sample {
	char name[16];
	double v[MAXN];
	size_t n;
} smp[MAXS];
static size_t nsmp;

static struct sample *find(const char *name)
{
	for (size_t i = 0; i < nsmp; i++)
		if (!strcmp(smp[i].name, name))
			return &smp[i];
	return NULL;
}

/* R prints 17 significant digits: equal to a few units in the last place */
static int same(double got, double want)
{
	if (isnan(got) || isnan(want))
		return isnan(got) && isnan(want);
	return fabs(got - want) <= 1e-12 * fmax(1, fabs(want));
}

#define CHECK_NUM(got, want, what) do { \
	double _g = (got), _w = (want); \
	if (same(_g, _w)) unit_pass++; \
	else { unit_fail++; fprintf(stderr, "FAIL %s:%d: %s: %.17g != %.17g (R)\n", \
		__FILE__, __LINE__, what, _g, _w); } \
} while (0)

/* A normal draw from a seeded xorshift: the same draws every run. */
static double gauss(uint64_t *s)
{
	double u[2];
	for (int i = 0; i < 2; i++) {
		*s ^= *s << 13;
		*s ^= *s >> 7;
		*s ^= *s << 17;
		u[i] = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* The test's critical values (the published tables of the exact test,
 * two-sided 0.05), and its power at the minimum detectable shift held
 * against a simulation of the test itself: normal samples shifted by
 * stats_mwu_mdc's d, the share of trials stats_mwu flags at the level. */
static void test_power(void)
{
	static const struct { size_t m, n; long crit; } tab[] = {
		{ 3, 3, -1 }, { 4, 4, 0 }, { 5, 5, 2 }, { 6, 6, 5 }, { 7, 7, 8 }, { 8, 8, 13 },
		{ 9, 9, 17 }, { 10, 10, 23 }, { 5, 10, 8 },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		long c = -2;
		CHECK_EQ_U(stats_mwu_crit(tab[i].m, tab[i].n, 0.05, &c), 0);
		CHECK(c == tab[i].crit);
	}
	/* the normal approximation beyond 49 meets the exact count's side */
	long c49, c60;
	CHECK_EQ_U(stats_mwu_crit(49, 49, 0.05, &c49), 0);
	CHECK_EQ_U(stats_mwu_crit(60, 60, 0.05, &c60), 0);
	CHECK(c49 > 800 && c49 < 49 * 49 / 2 && c60 > c49 && c60 < 60 * 60 / 2);
	/* too small for the level: no shift is ever seen */
	CHECK(isinf(stats_mwu_mdc(4, 4, 0.05 / 7, 0.8)));
	CHECK(stats_mwu_power(3, 3, 10, 0.05) == 0);
	static const struct { size_t m, n; double level; } sim[] = {
		{ 5, 5, 0.05 }, { 6, 6, 0.05 / 7 }, { 8, 8, 0.05 / 28 }, { 10, 10, 0.01 },
		{ 6, 10, 0.05 / 5 }, { 20, 20, 0.05 / 28 },
	};
	uint64_t seed = 0x5eed;
	for (size_t i = 0; i < sizeof(sim) / sizeof(sim[0]); i++) {
		size_t m = sim[i].m, n = sim[i].n, hit = 0, trials = 3000;
		double d = stats_mwu_mdc(m, n, sim[i].level, 0.8), a[32], b[32], u, p;
		CHECK(isfinite(d) && d > 0);
		/* more power below d would have been found by the bisection */
		CHECK(stats_mwu_power(m, n, d * 0.98, sim[i].level) < 0.8);
		for (size_t t = 0; t < trials; t++) {
			for (size_t k = 0; k < m; k++)
				a[k] = gauss(&seed);
			for (size_t k = 0; k < n; k++)
				b[k] = d + gauss(&seed);
			CHECK_EQ_U(stats_mwu(a, m, b, n, &u, &p), 0);
			hit += p < sim[i].level && u < (double)(m * n) / 2;
		}
		/* 80 % and above: the approximation errs on the side of more
		 * power at the smallest sizes (0.84 at 5 against 5), never less
		 * than 0.8 by more than the simulation's own noise (+-0.02) */
		double power = (double)hit / (double)trials;
		if (!(power > 0.77 && power < 0.95))
			fprintf(stderr, "FAIL power %zu/%zu at %g: %.3f at d %.3f\n", m, n, sim[i].level,
				power, d);
		CHECK(power > 0.77 && power < 0.95);
	}
}

int main(int argc, char **argv)
{
	char path[4096], line[4096], what[160];
	size_t lines[5] = { 0 };	/* sample, median, ci, cv, mwu lines checked */
	(void)argc;

	snprintf(path, sizeof(path), "%s/stats.txt", getenv("FSB_TESTDATA"));
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return unit_done(argv[0]);
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *kind = strtok_r(line, " \n", &save), *name;
		if (!kind || kind[0] == '#')
			continue;
		name = strtok_r(NULL, " \n", &save);
		if (!name)
			continue;
		if (!strcmp(kind, "sample")) {
			struct sample *s = &smp[nsmp++];
			snprintf(s->name, sizeof(s->name), "%s", name);
			for (char *t; (t = strtok_r(NULL, " \n", &save)) && s->n < MAXN;)
				s->v[s->n++] = strtod(t, NULL);
			lines[0]++;
			continue;
		}
		struct sample *s = find(name);
		CHECK(s != NULL);
		if (!s)
			continue;
		if (!strcmp(kind, "median")) {
			snprintf(what, sizeof(what), "median %s", name);
			CHECK_NUM(stats_median(s->v, s->n), strtod(strtok_r(NULL, " \n", &save), NULL), what);
			lines[1]++;
		} else if (!strcmp(kind, "ci")) {
			double level = strtod(strtok_r(NULL, " \n", &save), NULL), lo = -1, hi = -1;
			char *t = strtok_r(NULL, " \n", &save);
			int e = stats_median_ci(s->v, s->n, level, &lo, &hi);
			snprintf(what, sizeof(what), "ci %s %g", name, level);
			if (!strcmp(t, "none")) {
				CHECK_EQ_U(-e, EDOM);
				CHECK(lo == -1 && hi == -1);	/* untouched */
			} else {
				CHECK_EQ_U(e, 0);
				CHECK_NUM(lo, strtod(t, NULL), what);
				CHECK_NUM(hi, strtod(strtok_r(NULL, " \n", &save), NULL), what);
			}
			lines[2]++;
		} else if (!strcmp(kind, "cv")) {
			snprintf(what, sizeof(what), "cv %s", name);
			CHECK_NUM(stats_cv(s->v, s->n), strtod(strtok_r(NULL, " \n", &save), NULL), what);
			lines[3]++;
		} else if (!strcmp(kind, "mwu")) {
			struct sample *b = find(strtok_r(NULL, " \n", &save));
			double u = -1, p = -1;
			CHECK(b != NULL);
			if (!b)
				continue;
			double want_u = strtod(strtok_r(NULL, " \n", &save), NULL);
			double want_p = strtod(strtok_r(NULL, " \n", &save), NULL);
			CHECK_EQ_U(stats_mwu(s->v, s->n, b->v, b->n, &u, &p), 0);
			snprintf(what, sizeof(what), "mwu %s %s U", s->name, b->name);
			CHECK_NUM(u, want_u, what);
			snprintf(what, sizeof(what), "mwu %s %s p", s->name, b->name);
			CHECK_NUM(p, want_p, what);
			lines[4]++;
		}
	}
	fclose(f);
	/* the file was read whole: every kind of line is there */
	CHECK(lines[0] >= 10 && lines[1] == lines[0] && lines[2] == 3 * lines[0]);
	CHECK(lines[3] >= 10 && lines[4] >= 15);

	/* what R does not say: bad arguments, the input left as it was */
	double v[] = { 3, 1, 2 }, lo, hi, u, p;
	CHECK(isnan(stats_median(v, 0)));
	CHECK_EQ_U(stats_median(v, 3), 2);
	CHECK(v[0] == 3 && v[1] == 1 && v[2] == 2);
	CHECK_EQ_U(-stats_median_ci(v, 3, 1.5, &lo, &hi), EINVAL);
	CHECK_EQ_U(-stats_median_ci(v, 0, 0.95, &lo, &hi), EDOM);
	CHECK(isnan(stats_cv(v, 1)));
	CHECK_EQ_U(-stats_mwu(v, 0, v, 3, &u, &p), EINVAL);
	/* the exact test at 49 x 49, no ties: fully separated, p = 2 / C(98, 49) */
	static double a[49], b[49];
	for (int i = 0; i < 49; i++) {
		a[i] = i;
		b[i] = 100 + i;
	}
	CHECK_EQ_U(stats_mwu(a, 49, b, 49, &u, &p), 0);
	CHECK(u == 0 && p > 0 && p < 1e-27);
	test_power();
	return unit_done(argv[0]);
}

/* test_stats.c: lib/stats.c against values computed by R
 * (tests/unit/data/stats.txt, made by tests/unit/data/stats.R; the
 * command is the file's first line). */
#include <errno.h>
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
	return unit_done(argv[0]);
}

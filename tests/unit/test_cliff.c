/* test_cliff.c: the cliff of a sustained write (report/sections/cliff.h)
 * on made-up series: a clean cliff, none, noise, a brief dip that
 * recovers, a fall inside the hold, a cliff with a temperature rise and
 * one without, too short a run, and the options' range. */
#include <math.h>
#include <stdlib.h>

#include "report/sections/cliff.h"
#include "unit.h"

#define N 60
static const struct rep_cliff_opts opts = { .share_pct = 50, .base_s = 5, .hold_s = 5,
					    .rise_c = 5 };

/* A fixed pseudo-random noise in [-1, 1). */
static double noise(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return ((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

static void test_clean(void)
{
	double x[N];
	struct rep_cliff c;

	for (int i = 0; i < N; i++)
		x[i] = i < 20 ? 400 : 100;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_FOUND);
	CHECK_EQ_U(c.at, 20);
	CHECK(c.base == 400 && c.threshold == 200);
	CHECK(c.level == 100 && c.level_pct == 25);
	CHECK(c.thermal == REP_TEMP_UNKNOWN);
	CHECK(isnan(c.temp_base) && isnan(c.temp_peak));
	/* a share below the level: no cliff */
	struct rep_cliff_opts o = opts;
	o.share_pct = 20;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &o, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE);
}

static void test_none_and_noise(void)
{
	double x[N];
	struct rep_cliff c;
	unsigned s = 42;

	for (int i = 0; i < N; i++)
		x[i] = 300;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE && c.base == 300);
	/* +-40 % noise, and single samples far down now and then */
	for (int i = 0; i < N; i++)
		x[i] = 300 * (1 + 0.4 * noise(&s));
	x[12] = x[31] = x[47] = 10;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE);
	/* the same noise over a real fall is still found, at the fall */
	for (int i = 30; i < N; i++)
		x[i] = 60 * (1 + 0.4 * noise(&s));
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_FOUND);
	CHECK_EQ_U(c.at, 30);
	CHECK(c.level > 30 && c.level < 90);
}

static void test_dips(void)
{
	double x[N];
	struct rep_cliff c;

	/* down for 2 s, back up: no cliff */
	for (int i = 0; i < N; i++)
		x[i] = i == 20 || i == 21 ? 50 : 400;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE);
	/* down for 8 s (longer than the hold), back up for the rest: no cliff */
	for (int i = 0; i < N; i++)
		x[i] = i >= 20 && i < 28 ? 50 : 400;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE);
	/* a dip at 10 that recovers, then the real fall at 40 */
	for (int i = 0; i < N; i++)
		x[i] = i == 10 || i == 11 || i >= 40 ? 50 : 400;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_FOUND);
	CHECK_EQ_U(c.at, 40);
	/* a fall in the last seconds, shorter than the hold: not yet a cliff */
	for (int i = 0; i < N; i++)
		x[i] = i >= N - 3 ? 50 : 400;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE);
	/* a fall in the base window is the base: nothing to fall from after */
	for (int i = 0; i < N; i++)
		x[i] = i >= 1 ? 50 : 400;
	CHECK(rep_cliff_find(x, N, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_NONE && c.base == 50);
}

static void test_thermal(void)
{
	double x[N], t[N + 2];
	struct rep_cliff c;

	for (int i = 0; i < N; i++)
		x[i] = i < 30 ? 400 : 80;
	/* 40 C, warming from 22 s to 70 C at 30 s, held */
	for (int k = 0; k < N + 2; k++)
		t[k] = k < 22 ? 40 : k < 30 ? 40 + (k - 22) * 30 / 8.0 : 70;
	t[3] = NAN;	/* a second not read */
	CHECK(rep_cliff_find(x, N, t, N + 2, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_FOUND);
	CHECK_EQ_U(c.at, 30);
	CHECK(c.temp_base == 40 && c.temp_at == 70 && c.temp_peak == 70);
	CHECK(c.thermal == REP_TEMP_RISE);
	/* the same cliff on a flat 45 C: no rise */
	for (int k = 0; k < N + 2; k++)
		t[k] = 45;
	CHECK(rep_cliff_find(x, N, t, N + 2, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_FOUND && c.thermal == REP_TEMP_FLAT);
	/* a rise long after the cliff does not coincide with it */
	for (int k = 0; k < N + 2; k++)
		t[k] = k < 50 ? 40 : 80;
	CHECK(rep_cliff_find(x, N, t, N + 2, 0, &opts, &c) == 0);
	CHECK(c.thermal == REP_TEMP_FLAT && c.temp_peak == 80);
	/* the offset: temp[i + 2] is x[i]'s second */
	for (int k = 0; k < N + 2; k++)
		t[k] = k < 32 ? 40 : 70;
	CHECK(rep_cliff_find(x, N, t, N + 2, 2, &opts, &c) == 0);
	CHECK(c.thermal == REP_TEMP_RISE && c.temp_base == 40);
	CHECK(rep_cliff_find(x, N, t, N + 2, -40, &opts, &c) == 0);
	CHECK(c.thermal == REP_TEMP_UNKNOWN);
}

static void test_short_and_bad(void)
{
	double x[9] = { 400, 400, 400, 400, 400, 10, 10, 10, 10 };
	struct rep_cliff c;
	struct rep_cliff_opts o = opts;

	CHECK(rep_cliff_find(x, 9, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_SHORT && c.base == 400);
	CHECK(rep_cliff_find(x, 0, NULL, 0, 0, &opts, &c) == 0);
	CHECK(c.state == REP_CLIFF_SHORT && isnan(c.base));
	o.hold_s = 4;
	CHECK(rep_cliff_find(x, 9, NULL, 0, 0, &o, &c) == 0);
	CHECK(c.state == REP_CLIFF_FOUND && c.at == 5);
	o = opts;
	o.share_pct = 100;
	CHECK(rep_cliff_find(x, 9, NULL, 0, 0, &o, &c) == -EINVAL);
	o = opts;
	o.base_s = 0;
	CHECK(rep_cliff_find(x, 9, NULL, 0, 0, &o, &c) == -EINVAL);
	CHECK(rep_cliff_find(NULL, 3, NULL, 0, 0, &opts, &c) == -EINVAL);
}

UNIT_MAIN(test_clean, test_none_and_noise, test_dips, test_thermal, test_short_and_bad)

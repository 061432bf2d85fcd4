/* test_hist.c: histogram buckets and percentiles against known data. */
#include <stdint.h>
#include <stdlib.h>

#include "run/core/hist.h"
#include "unit.h"

static int close_to(uint64_t got, uint64_t want)
{
	/* a bucket is at most 1/64 of its value wide: allow that much */
	double d = (double)got - (double)want;
	if (d < 0)
		d = -d;
	return d <= (double)want / 64.0 + 1;
}

int main(int argc, char **argv)
{
	static struct fsb_hist h, a, b;
	uint64_t lo, hi, plo, phi;
	(void)argc;

	/* buckets tile the number line without gaps or overlaps */
	int tiled = 1;
	fsb_hist_bounds(0, &plo, &phi);
	for (unsigned i = 1; i < FSB_HIST_BUCKETS; i++) {
		fsb_hist_bounds(i, &lo, &hi);
		if (lo != phi + 1 || hi < lo || fsb_hist_index(lo) != i || fsb_hist_index(hi) != i)
			tiled = 0;
		phi = hi;
	}
	CHECK(tiled);
	/* small values are exact; large ones within 1/64 */
	CHECK_EQ_U(fsb_hist_index(0), 0);
	CHECK_EQ_U(fsb_hist_index(127), 127);
	CHECK_EQ_U(fsb_hist_index(128), 128);
	fsb_hist_bounds(fsb_hist_index(1000000), &lo, &hi);
	CHECK(lo <= 1000000 && hi >= 1000000 && hi - lo + 1 <= 1000000 / 64 + 1);
	CHECK_EQ_U(fsb_hist_index(UINT64_MAX), FSB_HIST_BUCKETS - 1);

	/* empty */
	fsb_hist_init(&h);
	CHECK_EQ_U(fsb_hist_pct(&h, 50), 0);

	/* 1..1000 microseconds, in shuffled order */
	fsb_hist_init(&h);
	unsigned order[1000];
	for (unsigned i = 0; i < 1000; i++)
		order[i] = i + 1;
	srand(7);
	for (unsigned i = 999; i > 0; i--) {
		unsigned j = (unsigned)rand() % (i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < 1000; i++)
		fsb_hist_add(&h, order[i] * 1000ull);
	CHECK_EQ_U(h.count, 1000);
	CHECK_EQ_U(h.min, 1000);
	CHECK_EQ_U(h.max, 1000000);
	CHECK(close_to(fsb_hist_pct(&h, 50), 500000));
	CHECK(close_to(fsb_hist_pct(&h, 90), 900000));
	CHECK(close_to(fsb_hist_pct(&h, 99), 990000));
	CHECK(close_to(fsb_hist_pct(&h, 99.9), 999000));
	CHECK_EQ_U(fsb_hist_pct(&h, 100), 1000000);
	CHECK(close_to(fsb_hist_pct(&h, 0.1), 1000));
	CHECK_EQ_U(h.sum / h.count, 500500);

	/* a skewed distribution: 990 fast ops, 10 slow ones */
	fsb_hist_init(&a);
	for (int i = 0; i < 990; i++)
		fsb_hist_add(&a, 20000);
	for (int i = 0; i < 10; i++)
		fsb_hist_add(&a, 5000000);
	CHECK(close_to(fsb_hist_pct(&a, 50), 20000));
	CHECK(close_to(fsb_hist_pct(&a, 99), 20000));
	CHECK(close_to(fsb_hist_pct(&a, 99.9), 5000000));
	CHECK_EQ_U(fsb_hist_pct(&a, 100), 5000000);

	/* merging two halves gives the same as adding everything to one */
	fsb_hist_init(&a);
	fsb_hist_init(&b);
	for (unsigned i = 0; i < 1000; i++)
		fsb_hist_add(i % 2 ? &a : &b, order[i] * 1000ull);
	fsb_hist_merge(&a, &b);
	CHECK_EQ_U(a.count, h.count);
	CHECK_EQ_U(a.min, h.min);
	CHECK_EQ_U(a.max, h.max);
	CHECK_EQ_U(a.sum, h.sum);
	CHECK_EQ_U(fsb_hist_pct(&a, 99), fsb_hist_pct(&h, 99));
	CHECK_EQ_U(fsb_hist_pct(&a, 50), fsb_hist_pct(&h, 50));

	/* one value: every percentile is that value */
	fsb_hist_init(&b);
	fsb_hist_add(&b, 123456789);
	CHECK_EQ_U(fsb_hist_pct(&b, 50), 123456789);
	CHECK_EQ_U(fsb_hist_pct(&b, 99.9), 123456789);

	return unit_done(argv[0]);
}

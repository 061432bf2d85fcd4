/* test_layout.c: layout statistics of physical offsets in a given order. */
#include <stdint.h>

#include "run/evidence/layout.h"
#include "unit.h"

int main(int argc, char **argv)
{
	struct fsb_layout_order o;
	uint64_t seq[6] = { 4096, 8192, 12288, 16384, 20480, 24576 };
	uint64_t len[6] = { 4096, 4096, 4096, 4096, 4096, 4096 };
	/* the runner/SUITE.md sample: block numbers jumping non-monotonically */
	uint64_t aged[6] = { 1607168ull * 4096, 2157687ull * 4096, 49817ull * 4096,
			     1607169ull * 4096, 2157688ull * 4096, 49818ull * 4096 };
	uint64_t gaps[4] = { 0, 4096 + 65536, UINT64_MAX, 200 * 4096 };
	(void)argc;

	fsb_layout_order_stats(seq, len, 6, &o);
	CHECK_EQ_U(o.steps, 5);
	CHECK(o.forward == 1.0);
	CHECK(o.near == 1.0);
	CHECK_EQ_U(o.median_jump, 1);

	fsb_layout_order_stats(aged, len, 6, &o);
	CHECK_EQ_U(o.steps, 5);
	CHECK(o.forward > 0.59 && o.forward < 0.61);	/* 3 of 5 steps go up */
	CHECK(o.near == 0.0);
	CHECK(o.median_jump > 500000);

	/* 64 KiB after the previous end is still near; unmapped files are skipped */
	fsb_layout_order_stats(gaps, len, 4, &o);
	CHECK_EQ_U(o.steps, 2);
	CHECK(o.near > 0.49 && o.near < 0.51);
	CHECK(o.forward == 1.0);

	/* reversed order: never forward */
	uint64_t rev[3] = { 3 * 4096, 2 * 4096, 1 * 4096 };
	fsb_layout_order_stats(rev, len, 3, &o);
	CHECK(o.forward == 0.0);
	CHECK(o.near == 0.0);
	CHECK_EQ_U(o.median_jump, 1);

	fsb_layout_order_stats(seq, len, 1, &o);
	CHECK_EQ_U(o.steps, 0);
	fsb_layout_order_stats(seq, len, 0, &o);
	CHECK_EQ_U(o.steps, 0);
	return unit_done(argv[0]);
}

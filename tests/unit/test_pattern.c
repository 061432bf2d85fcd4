/* test_pattern.c: file content pattern and its verification. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/core/pattern.h"
#include "unit.h"

int main(int argc, char **argv)
{
	static struct fsb_pattern p;
	static unsigned char a[200000], b[200000];
	uint64_t first = 0;
	uint64_t s = fsb_pattern_seed(3, 42, 1);
	(void)argc;

	fsb_pattern_init(&p);
	/* seeds differ for every (dir, idx, round) component */
	CHECK(s != fsb_pattern_seed(3, 42, 2));
	CHECK(s != fsb_pattern_seed(3, 43, 1));
	CHECK(s != fsb_pattern_seed(4, 42, 1));
	CHECK(fsb_pattern_seed(0, 0, 1) != fsb_pattern_seed(0, 1, 0));

	/* a fill verifies; the same bytes under another seed do not */
	fsb_pattern_fill(&p, a, 4096, s, 0);
	CHECK_EQ_U(fsb_pattern_check(&p, a, 4096, s, 0, &first), 0);
	CHECK(fsb_pattern_check(&p, a, 4096, fsb_pattern_seed(3, 42, 2), 0, &first) > 4000);
	/* not a constant or zero buffer */
	memset(b, 0, 4096);
	CHECK(memcmp(a, b, 4096) != 0);
	CHECK(fsb_pattern_check(&p, b, 4096, s, 0, &first) > 4000);

	/* one flipped bit: one byte, at the right offset */
	a[1000] ^= 0x10;
	CHECK_EQ_U(fsb_pattern_check(&p, a, 4096, s, 0, &first), 1);
	CHECK_EQ_U(first, 1000);
	a[1000] ^= 0x10;
	a[7] ^= 1;
	a[4095] ^= 0x80;
	CHECK_EQ_U(fsb_pattern_check(&p, a, 4096, s, 0, &first), 2);
	CHECK_EQ_U(first, 7);
	a[7] ^= 1;
	a[4095] ^= 0x80;

	/* a block from another offset of the same file does not verify */
	fsb_pattern_fill(&p, a, 8192, s, 0);
	CHECK(fsb_pattern_check(&p, a + 4096, 4096, s, 0, &first) > 4000);
	CHECK_EQ_U(fsb_pattern_check(&p, a + 4096, 4096, s, 4096, &first), 0);

	/* unaligned pieces agree with the whole */
	fsb_pattern_fill(&p, a, 200000, s, 0);
	fsb_pattern_fill(&p, b, 1001, s, 3);
	CHECK(memcmp(a + 3, b, 1001) == 0);
	fsb_pattern_fill(&p, b + 1, 5000, s, 70001);
	CHECK(memcmp(a + 70001, b + 1, 5000) == 0);
	CHECK_EQ_U(fsb_pattern_check(&p, a + 5, 777, s, 5, &first), 0);
	CHECK_EQ_U(fsb_pattern_check(&p, b + 1, 5000, s, 70001, &first), 0);

	/* beyond the 64 KiB base table, blocks still differ */
	CHECK(memcmp(a, a + 65536, 4096) != 0);
	CHECK(memcmp(a, a + 131072, 4096) != 0);
	CHECK_EQ_U(fsb_pattern_check(&p, a + 65536, 65536, s, 65536, &first), 0);
	CHECK(fsb_pattern_check(&p, a + 65536, 4096, s, 0, &first) > 4000);

	/* a bad byte past the fast path's aligned words is still found */
	a[199999] ^= 1;
	CHECK_EQ_U(fsb_pattern_check(&p, a, 200000, s, 0, &first), 1);
	CHECK_EQ_U(first, 199999);

	return unit_done(argv[0]);
}

/* test_record.c: JSON record building. */
#include <string.h>

#include "log/record.h"
#include "unit.h"

int main(int argc, char **argv)
{
	static struct fsb_rec r;
	char q[64];
	(void)argc;

	rec_begin(&r, "phase");
	rec_str(&r, "fs", "ext4");
	rec_u64(&r, "round", 2);
	rec_dbl(&r, "seconds", 1.5);
	rec_obj(&r, "lat_ns");
	rec_u64(&r, "p50", 10);
	rec_u64(&r, "max", 99);
	rec_close(&r);
	rec_arr(&r, "worker_seconds");
	rec_arr_dbl(&r, 0.25);
	rec_arr_dbl(&r, 0.5);
	rec_close(&r);
	rec_bool(&r, "cold", 1);
	rec_i64(&r, "errno", -5);
	CHECK(rec_end(&r) > 0);
	CHECK_STR(r.buf, "{\"schema\":1,\"type\":\"phase\",\"fs\":\"ext4\",\"round\":2,\"seconds\":1.5,"
			 "\"lat_ns\":{\"p50\":10,\"max\":99},\"worker_seconds\":[0.25,0.5],"
			 "\"cold\":true,\"errno\":-5}");

	/* strings are escaped; rec_end closes what is still open */
	rec_begin(&r, "error");
	rec_obj(&r, "x");
	rec_str(&r, "msg", "a \"quoted\"\\ line\nand\ttab\x01");
	CHECK(rec_end(&r) > 0);
	CHECK_STR(r.buf, "{\"schema\":1,\"type\":\"error\",\"x\":{\"msg\":"
			 "\"a \\\"quoted\\\"\\\\ line\\nand\\ttab\\u0001\"}}");

	/* block numbers stay exact (a double would print 1.60752e+06) */
	rec_begin(&r, "layout");
	rec_arr(&r, "first_blocks");
	rec_arr_u64(&r, 1607520);
	rec_arr_u64(&r, 1607521);
	rec_arr_u64(&r, 18446744073709551615ULL);
	rec_close(&r);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"first_blocks\":[1607520,1607521,18446744073709551615]");

	/* rates and times keep 9 digits (6 would print 1.23457e+06) */
	rec_begin(&r, "phase");
	rec_dbl(&r, "files_per_s", 1234567.0);
	rec_dbl(&r, "t", 12345.6789);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"files_per_s\":1234567,\"t\":12345.6789");

	/* non-finite numbers become null */
	rec_begin(&r, "t");
	rec_dbl(&r, "v", 1.0 / 0.0);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"v\":null");

	/* overflow is reported, never a truncated line */
	static char big[3000];
	memset(big, 'x', sizeof(big) - 1);
	rec_begin(&r, "big");
	for (int i = 0; i < 10; i++)
		rec_str(&r, "k", big);
	CHECK(rec_end(&r) < 0);

	CHECK_EQ_U(json_quote(q, sizeof(q), "ab"), 4);
	CHECK_STR(q, "\"ab\"");

	return unit_done(argv[0]);
}

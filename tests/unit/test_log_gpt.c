/* test_log_gpt.c: the results log on GPT disk images: the log partition
 * found by its name and type on disks of 512 and 4096-byte sectors, one
 * past 4 GiB, and the images that are no such disk (logtest.h). Runs in a
 * scratch folder and writes its files there. */
#include "log/logfile.h"
#include "logtest.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_gpt(void)
{
	struct fsb_log_stats st;
	struct got g;
	struct fsb_log *l;

	/* 512-byte sectors: 4 MiB disk, log partition of 128 KiB at 1 MiB */
	const struct part p512[] = {
		{ "rootfs", 34, 2047 },
		{ FSB_LOG_PARTLABEL, 2048, 2048 + 255 },
		{ "fsbench-logs", 2304, 2559 },		/* a longer name: not it */
	};
	make_log("part.log", 0x4242, 7, 128 * 1024);
	make_disk("disk512.img", 512, 8192, p512, 3);
	put_file("disk512.img", 2048 * 512, "part.log");
	CHECK(read_log("disk512.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 7);
	CHECK_EQ_U(st.records, 7);
	CHECK_EQ_U(st.data_offset, 1024 * 1024);
	CHECK_EQ_U(st.capacity, 128 * 1024);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 7 * B);
	CHECK_EQ_U(g.run[6], 0x4242);
	CHECK_EQ_U(g.off[6], 6 * B);
	got_free(&g);

	/* a full partition; the bytes right after it hold a valid record,
	 * which must not be read */
	make_log("part-full.log", 0x4343, 32, 128 * 1024);
	CHECK_EQ_U(fsize("part-full.log"), 128 * 1024);
	make_log("after.log", 0x1111, 6, 0);
	put_file("disk512.img", 2048 * 512, "part-full.log");
	put_file("disk512.img", 2304 * 512, "after.log");
	CHECK(read_log("disk512.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 32);
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 128 * 1024);
	got_free(&g);

	/* the last record claims a block beyond the partition's end: torn,
	 * even though the image goes on */
	unsigned char f[8];
	fsb_put_le32(f, 5000);
	fsb_put_le32(f + 4, 2);
	patch("disk512.img", 2048 * 512 + 31 * B + 32, f, 8);
	CHECK(read_log("disk512.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 31);
	CHECK_EQ_U(st.end, LOG_END_TORN);
	CHECK_EQ_U(st.end_offset, 31 * B);
	got_free(&g);
	put_file("disk512.img", 2048 * 512, "part-full.log");

	/* 4096-byte sectors: log partition of 64 KiB at LBA 300 */
	make_disk4k();
	CHECK(read_log("disk4k.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 3);
	CHECK_EQ_U(st.data_offset, 300 * 4096);
	CHECK_EQ_U(st.capacity, 16 * 4096);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	got_free(&g);

	/* a bad record inside the partition */
	flip_byte("disk4k.img", 300 * 4096 + 2 * B + 100, 1);
	CHECK(read_log("disk4k.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 2);
	CHECK_EQ_U(st.end, LOG_END_BAD_CRC);
	CHECK_EQ_U(st.end_offset, 2 * B);
	got_free(&g);

	/* an empty log partition full of garbage: bad magic at 0, no records */
	make_disk("disk-new.img", 512, 8192, p512, 3);
	CHECK(read_log("disk-new.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 0);
	CHECK_EQ_U(st.end, LOG_END_BAD_MAGIC);
	CHECK_EQ_U(st.data_offset, 1024 * 1024);
	got_free(&g);

	/* no partition of that name */
	const struct part none[] = { { "rootfs", 34, 8000 } };
	make_disk("disk-none.img", 512, 8192, none, 1);
	CHECK_EQ_U(read_log("disk-none.img", &g, &st), -ENOENT);
	CHECK_CONTAINS(st.detail, "no partition named fsbench-log");
	got_free(&g);

	/* the partition runs past the end of the image */
	const struct part past[] = { { FSB_LOG_PARTLABEL, 2048, 9000 } };
	make_disk("disk-past.img", 512, 8192, past, 1);
	CHECK_EQ_U(read_log("disk-past.img", &g, &st), -EBADMSG);
	CHECK_CONTAINS(st.detail, "outside the image");
	got_free(&g);

	/* a 6 GiB sparse disk with the log partition at 5 GiB: every offset
	 * of the read passes 2^32 (a 32-bit off_t or size_t would wrap) */
	const struct part far[] = {
		{ "rootfs", 34, 10485759 },
		{ FSB_LOG_PARTLABEL, 10485760, 10485760 + 255 },
	};
	make_disk("disk-far.img", 512, 12582912, far, 2);
	CHECK_EQ_U(fsize("disk-far.img"), 6ull << 30);
	put_file("disk-far.img", 5ull << 30, "part.log");
	CHECK(read_log("disk-far.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 7);
	CHECK_EQ_U(st.data_offset, 5ull << 30);
	CHECK_EQ_U(st.capacity, 128 * 1024);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(g.run[6], 0x4242);
	got_free(&g);
	unlink("disk-far.img");

	/* malformed headers */
	copy_file("disk512.img", "disk-bad.img");
	unsigned char v[8];
	fsb_put_le64(v, 100000);		/* entry array LBA past the end */
	patch("disk-bad.img", 512 + 72, v, 8);
	CHECK_EQ_U(read_log("disk-bad.img", &g, &st), -EBADMSG);
	CHECK_CONTAINS(st.detail, "past the end of the image");
	got_free(&g);
	copy_file("disk512.img", "disk-bad.img");
	fsb_put_le64(v, 8190);			/* entry array starts inside, runs past the end */
	patch("disk-bad.img", 512 + 72, v, 8);
	CHECK_EQ_U(read_log("disk-bad.img", &g, &st), -EBADMSG);
	CHECK_CONTAINS(st.detail, "past the end of the image");
	got_free(&g);
	copy_file("disk512.img", "disk-bad.img");
	fsb_put_le32(v, 64);			/* entry size below 128 */
	patch("disk-bad.img", 512 + 84, v, 4);
	CHECK_EQ_U(read_log("disk-bad.img", &g, &st), -EBADMSG);
	CHECK_CONTAINS(st.detail, "entry size 64");
	got_free(&g);
	copy_file("disk512.img", "disk-bad.img");
	fsb_put_le32(v, 1000000);		/* entry count */
	patch("disk-bad.img", 512 + 80, v, 4);
	CHECK_EQ_U(read_log("disk-bad.img", &g, &st), -EBADMSG);
	got_free(&g);
	copy_file("disk512.img", "disk-bad.img");
	fsb_put_le32(v, 4000);			/* header size */
	patch("disk-bad.img", 512 + 12, v, 4);
	CHECK_EQ_U(read_log("disk-bad.img", &g, &st), -EBADMSG);
	CHECK_CONTAINS(st.detail, "header size");
	got_free(&g);
	const struct part two[] = {
		{ FSB_LOG_PARTLABEL, 2048, 2303 },
		{ FSB_LOG_PARTLABEL, 2304, 2559 },
	};
	make_disk("disk-two.img", 512, 8192, two, 2);
	CHECK_EQ_U(read_log("disk-two.img", &g, &st), -EBADMSG);
	CHECK_CONTAINS(st.detail, "two partitions");
	got_free(&g);

	/* a writer refuses a whole disk: it would overwrite the partition table */
	CHECK_EQ_U(fsb_log_open(&l, "disk512.img", 1, 0), -EMEDIUMTYPE);
	CHECK(l == NULL);
	CHECK_EQ_U(fsb_log_open(&l, "disk4k.img", 1, 0), -EMEDIUMTYPE);
	CHECK(read_log("disk512.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 32);
	got_free(&g);
}

UNIT_MAIN(test_gpt)

/* test_wide.c: values a 32-bit build (armhf: 32-bit size_t and long) must
 * keep whole: 64-bit file offsets and time_t, numbers above 2^32 and 2^53
 * in the records (block numbers of the layout record, byte counts), read
 * back exactly by the report. `make unit-cross CROSS_COMPILE=
 * arm-linux-gnueabihf-` runs it under qemu-arm-static; a cast to size_t,
 * long or double on one of these paths makes it fail there. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/jsonr.h"
#include "log/record.h"
#include "report/compare/timeline.h"
#include "report/model.h"
#include "report/output.h"
#include "report/writers/writer.h"
#include "run/evidence/layout.h"
#include "unit.h"

#define P32 4294967296ull		/* 2^32 */
#define P53 9007199254740992ull		/* 2^53: the last integer a double holds exactly */

static void test_types(void)
{
	/* -D_FILE_OFFSET_BITS=64 and musl >= 1.2 (64-bit time_t on armhf) */
	CHECK_EQ_U(sizeof(off_t), 8);
	CHECK_EQ_U(sizeof(time_t), 8);
}

/* rec_u64, rec_arr_u64 and rec_i64 print every digit; the reader gives the
 * same numbers back (jsonr_u64 reads the digits, not the double). */
static void test_record_numbers(void)
{
	static const uint64_t v[] = { P32 - 1, P32, P32 + 1, P53 + 1, UINT64_MAX };
	static const char *const text[] = { "4294967295", "4294967296", "4294967297",
					    "9007199254740993", "18446744073709551615" };
	static struct fsb_rec r;
	char want[512];
	size_t n = 0;

	rec_begin(&r, "wide");
	rec_u64(&r, "bytes", P32 + 5);
	rec_i64(&r, "neg", -(int64_t)P32 - 1);
	rec_i64(&r, "min", INT64_MIN);
	rec_arr(&r, "blocks");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		rec_arr_u64(&r, v[i]);
	rec_close(&r);
	CHECK(rec_end(&r) > 0);
	n += (size_t)snprintf(want + n, sizeof(want) - n, "{\"schema\":1,\"type\":\"wide\","
			      "\"bytes\":4294967301,\"neg\":-4294967297,"
			      "\"min\":-9223372036854775808,\"blocks\":[");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%s", i ? "," : "", text[i]);
	snprintf(want + n, sizeof(want) - n, "]}");
	CHECK_STR(r.buf, want);

	struct jsonr_doc *d = NULL;
	CHECK(jsonr_parse(r.buf, strlen(r.buf), &d, NULL) == 0);
	if (!d)
		return;
	const struct jsonr *j = jsonr_root(d);
	CHECK_EQ_U(jsonr_u64(jsonr_get(j, "bytes"), 0), P32 + 5);
	const struct jsonr *a = jsonr_get(j, "blocks");
	CHECK_EQ_U(jsonr_len(a), sizeof(v) / sizeof(v[0]));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]) && i < jsonr_len(a); i++)
		CHECK_EQ_U(jsonr_u64(jsonr_at(a, i), 0), v[i]);
	jsonr_free(d);
}

/* FIEMAP offsets past 16 TiB: 4 KiB block numbers above 2^32. */
static void test_layout_stats(void)
{
	const uint64_t base = (P32 + 7) * 4096;	/* block 2^32 + 7 */
	uint64_t phys[5], len[5];
	struct fsb_layout_order o;

	for (int i = 0; i < 5; i++) {
		phys[i] = base + (uint64_t)i * 3 * P32 * 4096;	/* 3 * 2^32 blocks apart */
		len[i] = 4096;
	}
	phys[2] = UINT64_MAX;	/* unmapped: skipped */
	fsb_layout_order_stats(phys, len, 5, &o);
	CHECK_EQ_U(o.steps, 3);
	CHECK(o.forward == 1.0);
	CHECK(o.near == 0.0);
	/* jumps of 3, 6 and 3 times 2^32 blocks: the median is 3 * 2^32 */
	CHECK_EQ_U(o.median_jump, 3 * P32);

	/* near: the next file starts right after the previous one's end, at
	 * byte offsets that do not fit in 32 bits */
	for (int i = 0; i < 5; i++) {
		phys[i] = base + (uint64_t)i * 8192;
		len[i] = 8192;
	}
	fsb_layout_order_stats(phys, len, 5, &o);
	CHECK_EQ_U(o.steps, 4);
	CHECK(o.near == 1.0);
	CHECK_EQ_U(o.median_jump, 2);
}

/* A layout record with block numbers above 2^32 and 2^53, loaded and shown
 * by the report: the same digits come out. */
static void test_layout_report(void)
{
	static const char in[] =
		"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"a1f0000000000032\",\"seq\":0,"
		"\"t\":0.0,\"tool\":\"fsbench\",\"time_unix\":4102444800,"
		"\"host\":{\"hostname\":\"arm\",\"machine\":\"armv7l\",\"mem_bytes\":6442450944},"
		"\"target\":{\"path\":\"/dev/vdb\",\"size_bytes\":17592186044416},"
		"\"config\":{\"profile\":\"smoke\"}}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"a1f0000000000032\",\"seq\":1,\"t\":1,"
		"\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\",\"order\":\"name\",\"seconds\":2,"
		"\"files\":3,\"bytes\":8589934592,\"errors\":0,\"verify_errors\":0,\"workers\":1}\n"
		"{\"schema\":1,\"type\":\"layout\",\"run_id\":\"a1f0000000000032\",\"seq\":2,\"t\":1,"
		"\"fs\":\"ext4\",\"round\":1,\"dir\":\"d0000\",\"files\":3,\"mapped\":3,\"inline\":0,"
		"\"extents_mean\":1,\"extents_max\":1,"
		"\"name_order\":{\"steps\":2,\"forward\":1,\"near\":0,\"median_jump_blocks\":4294967296},"
		"\"inode_order\":{\"steps\":2,\"forward\":1,\"near\":0,\"median_jump_blocks\":9007199254740993},"
		"\"first_blocks\":[4294967297,9007199254740993,18446744073709551614],"
		"\"name_blocks\":[4294967297,9007199254740993],\"inode_blocks\":[8589934593]}\n";
	struct rep_set set;
	char err[256] = "";
	FILE *f = fmemopen((void *)in, sizeof(in) - 1, "r");

	CHECK(f != NULL);
	if (!f)
		return;
	memset(&set, 0, sizeof(set));
	CHECK_EQ_U(rep_load_stream(&set, f, "wide.jsonl", err, sizeof(err)), 0);
	fclose(f);
	CHECK_STR(err, "");
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL && r->nlay == 1);
	if (!r || r->nlay != 1) {
		rep_free(&set);
		return;
	}
	/* run_start keeps the numbers as written */
	CHECK_STR(r->target_size, "17592186044416");
	CHECK_STR(r->mem_bytes, "6442450944");
	CHECK_STR(r->time_unix, "4102444800");
	CHECK(r->nph == 1 && r->ph[0].bytes == 2 * P32);
	const struct rep_layout *y = &r->lay[0];
	CHECK_EQ_U(y->name.median_jump, P32);
	CHECK_EQ_U(y->inode.median_jump, P53 + 1);
	CHECK_EQ_U(y->nfirst, 3);
	CHECK_EQ_U(y->first[0], P32 + 1);
	CHECK_EQ_U(y->first[1], P53 + 1);
	CHECK_EQ_U(y->first[2], UINT64_MAX - 1);
	CHECK_EQ_U(y->npic[0], 2);
	CHECK_EQ_U(y->pic[0][1], P53 + 1);
	CHECK_EQ_U(y->npic[1], 1);
	CHECK_EQ_U(y->pic[1][0], 2 * P32 + 1);

	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ_U(rep_print(m, r, rep_writer_find("md")), 0);
		fclose(m);
		CHECK_CONTAINS(buf, "4294967297 9007199254740993 18446744073709551614");
		free(buf);
	}
	rep_free(&set);
}

/* A log partition that starts past 4 GiB of its disk (a sparse GPT image):
 * the reader seeks with 64-bit offsets. */
static void test_offsets(void)
{
	const char *path = "wide.img";
	const off_t at = (off_t)(5 * P32 / 4) + 4096;	/* 5 GiB + 4 KiB */
	char buf[16] = "";
	int fd;

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(pwrite(fd, "past 4 GiB", 10, at) == 10);
	CHECK(lseek(fd, 0, SEEK_END) == at + 10);
	struct stat st;
	CHECK(fstat(fd, &st) == 0 && st.st_size == at + 10);
	CHECK(pread(fd, buf, 10, at) == 10);
	CHECK_STR(buf, "past 4 GiB");
	close(fd);
	unlink(path);
}

/* Dates past 2038 (a 32-bit time_t ends on 2038-01-19): from the record's
 * time_unix and from a folder's name, in `fsbench history`. */
static void test_time(void)
{
	static const char run[] =
		"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"%s\",\"seq\":0,\"t\":0.0,%s"
		"\"host\":{\"hostname\":\"h\"},\"config\":{\"profile\":\"smoke\"}}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"%s\",\"seq\":1,\"t\":1,"
		"\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\",\"seconds\":2,\"files\":3}\n";
	struct rep_history h;
	char err[256] = "", text[1024];

	mkdir("hist2100", 0755);
	mkdir("hist2100/a", 0755);
	snprintf(text, sizeof(text), run, "r1", "\"time_unix\":4102444800,", "r1");
	unit_write_file("hist2100/a/records.jsonl", text);		/* 2100-01-01 00:00:00 */
	mkdir("hist2100/20400229-235959-b", 0755);
	snprintf(text, sizeof(text), run, "r2", "", "r2");
	unit_write_file("hist2100/20400229-235959-b/records.jsonl", text);
	CHECK_EQ_U(rep_history_load(&h, "hist2100", err, sizeof(err)), 0);
	CHECK_EQ_U(h.n, 2);
	if (h.n == 2) {
		CHECK_STR(h.e[0].name, "20400229-235959-b");	/* by date */
		CHECK_EQ_U(h.e[0].when_from, HIST_NAME);
		CHECK_EQ_U((uint64_t)h.e[0].when, 2214172799ull);
		CHECK_EQ_U(h.e[1].when_from, HIST_RECORD);
		CHECK_EQ_U((uint64_t)h.e[1].when, 4102444800ull);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ_U(rep_print_history(m, &h, rep_writer_find("md")), 0);
		fclose(m);
		CHECK_CONTAINS(buf, "2040-02-29 23:59:59 (folder name)");
		CHECK_CONTAINS(buf, "2100-01-01 00:00:00");
		free(buf);
	}
	rep_history_free(&h);
}

UNIT_MAIN(test_types, test_record_numbers, test_layout_stats, test_layout_report, test_offsets,
	test_time)

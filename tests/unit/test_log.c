/* test_log.c: the results log: CRC32C, writer, reader, several runs,
 * records over several blocks, a torn end, damage of every kind, a full
 * log (logtest.h). Runs in a scratch folder and writes its files there. */
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

static void test_crc32c(void)
{
	unsigned char buf[32];

	CHECK_EQ_U(fsb_crc32c(0, "123456789", 9), 0xE3069283u);
	CHECK_EQ_U(fsb_crc32c(0, "", 0), 0);
	CHECK_EQ_U(fsb_crc32c(0, "a", 1), 0xC1D04330u);
	/* RFC 3720 (iSCSI) B.4 vectors */
	memset(buf, 0, sizeof(buf));
	CHECK_EQ_U(fsb_crc32c(0, buf, 32), 0x8A9136AAu);
	memset(buf, 0xff, sizeof(buf));
	CHECK_EQ_U(fsb_crc32c(0, buf, 32), 0x62A8AB43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	CHECK_EQ_U(fsb_crc32c(0, buf, 32), 0x46DD794Eu);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	CHECK_EQ_U(fsb_crc32c(0, buf, 32), 0x113FDB5Cu);
	/* feeding in pieces gives the same CRC */
	CHECK_EQ_U(fsb_crc32c(fsb_crc32c(0, "1234", 4), "56789", 5), 0xE3069283u);
}

static void test_good(void)
{
	struct fsb_log *l;
	struct fsb_log_stats st;
	struct got g;
	char *want[5];

	unlink("good.log");
	CHECK(fsb_log_open(&l, "good.log", 0x1111, 0) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 0);
	CHECK_EQ_U(st.end_offset, 0);
	CHECK_EQ_U(st.capacity, 0);
	for (int i = 0; i < 5; i++) {
		want[i] = payload(0x1111, (uint64_t)i, 100 + 300 * (size_t)i);
		CHECK(fsb_log_append(l, (uint64_t)i, want[i], strlen(want[i])) == 0);
	}
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 5);
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(st.end_offset, 5 * B);
	fsb_log_close(l);
	/* whole blocks, and one zero block after the last record */
	CHECK_EQ_U(fsize("good.log"), 6 * B);

	unsigned char hdr[FSB_LOG_HDR];
	peek("good.log", B, hdr, sizeof(hdr));
	CHECK(memcmp(hdr, "FSBLOG01", 8) == 0);
	CHECK_EQ_U(fsb_get_le32(hdr + 8), 1);		/* version */
	CHECK_EQ_U(fsb_get_le32(hdr + 12), 64);	/* header length */
	CHECK_EQ_U(fsb_get_le32(hdr + 16), 0x1111);	/* run id, low half */
	CHECK_EQ_U(fsb_get_le32(hdr + 24), 1);		/* seq */
	CHECK_EQ_U(fsb_get_le32(hdr + 32), strlen(want[1]));
	CHECK_EQ_U(fsb_get_le32(hdr + 36), 1);		/* blocks */

	read_clean("good.log", &g, &st, 5, 1, 5 * B);
	CHECK_EQ_U(st.data_offset, 0);
	CHECK_EQ_U(st.capacity, 6 * B);
	CHECK(g.nul_ok);
	for (size_t i = 0; i < 5 && i < g.n; i++) {
		CHECK_EQ_U(g.run[i], 0x1111);
		CHECK_EQ_U(g.seq[i], i);
		CHECK_EQ_U(g.off[i], i * B);
		CHECK_EQ_U(g.len[i], strlen(want[i]));
		CHECK_STR(g.data[i], want[i]);
	}
	got_free(&g);
	for (int i = 0; i < 5; i++)
		free(want[i]);

	CHECK_STR(fsb_log_end_name(LOG_END_CLEAN), "clean end");
	CHECK_STR(fsb_log_end_name(LOG_END_BAD_CRC), "bad CRC");

	/* empty and missing logs */
	int fd = open("empty.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	close(fd);
	CHECK(read_log("empty.log", &g, &st) == 0);
	CHECK_EQ_U(st.records, 0);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(fsb_log_read("no-such.log", NULL, NULL, &st), -ENOENT);
}

/* Several runs, one after another, in one log. */
static void test_runs(void)
{
	struct fsb_log *l;
	struct fsb_log_stats st;
	struct got g;

	make_log("runs.log", 0x1111, 5, 0);
	CHECK(fsb_log_open(&l, "runs.log", 0x2222, 0) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 5);	/* found at open */
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(st.end_offset, 5 * B);
	CHECK(append_n(l, 0x2222, 0, 3, 500) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 8);
	CHECK_EQ_U(st.runs, 2);
	fsb_log_close(l);

	CHECK(fsb_log_open(&l, "runs.log", 0x3333, 0) == 0);
	CHECK(append_n(l, 0x3333, 0, 2, 5000) == 0);	/* two blocks each */
	fsb_log_close(l);

	read_clean("runs.log", &g, &st, 10, 3, 12 * B);
	static const uint64_t run[10] = { 0x1111, 0x1111, 0x1111, 0x1111, 0x1111,
					  0x2222, 0x2222, 0x2222, 0x3333, 0x3333 };
	static const uint64_t seq[10] = { 0, 1, 2, 3, 4, 0, 1, 2, 0, 1 };
	static const uint64_t off[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 10 };
	for (size_t i = 0; i < 10 && i < g.n; i++) {
		CHECK_EQ_U(g.run[i], run[i]);
		CHECK_EQ_U(g.seq[i], seq[i]);
		CHECK_EQ_U(g.off[i], off[i] * B);
	}
	got_free(&g);
}

/* Records larger than a block, and payload limits. */
static void test_multiblock(void)
{
	struct fsb_log *l;
	struct fsb_log_stats st;
	struct got g;
	char *small = payload(7, 0, 100), *big = payload(7, 1, 10000);
	char *huge = payload(7, 3, FSB_LOG_MAX_PAYLOAD);

	unlink("multi.log");
	CHECK(fsb_log_open(&l, "multi.log", 7, 0) == 0);
	CHECK(fsb_log_append(l, 0, small, strlen(small)) == 0);
	CHECK(fsb_log_append(l, 1, big, strlen(big)) == 0);	/* 64 + 10000: 3 blocks */
	CHECK(fsb_log_append(l, 2, small, strlen(small)) == 0);
	CHECK_EQ_U(strlen(huge), FSB_LOG_MAX_PAYLOAD);
	CHECK(fsb_log_append(l, 3, huge, strlen(huge)) == 0);	/* 257 blocks */
	huge[FSB_LOG_MAX_PAYLOAD - 1] = ' ';
	huge[FSB_LOG_MAX_PAYLOAD] = '}';
	CHECK_EQ_U(fsb_log_append(l, 4, huge, FSB_LOG_MAX_PAYLOAD + 1), -EMSGSIZE);
	CHECK_EQ_U(fsb_log_append(l, 4, "{\"a\":\n1}", 8), -EINVAL);
	CHECK(fsb_log_append(l, 4, "{\"a\":1}\n", 8) == 0);	/* trailing newline dropped */
	CHECK(fsb_log_append(l, 5, "", 0) == 0);
	CHECK(fsb_log_append(l, 6, big, strlen(big)) == 0);
	/* a payload that ends exactly at the block end */
	char *exact = payload(7, 7, FSB_LOG_BLOCK - FSB_LOG_HDR);
	CHECK(fsb_log_append(l, 7, exact, strlen(exact)) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 8);
	fsb_log_close(l);

	CHECK(read_log("multi.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 8);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, (1 + 3 + 1 + 257 + 1 + 1 + 3 + 1) * B);
	if (g.n == 8) {
		CHECK_EQ_U(g.off[1], 1 * B);
		CHECK_EQ_U(g.off[2], 4 * B);
		CHECK_EQ_U(g.off[3], 5 * B);
		CHECK_EQ_U(g.off[4], 262 * B);
		CHECK_STR(g.data[1], big);
		CHECK_STR(g.data[2], small);
		CHECK_EQ_U(g.len[3], FSB_LOG_MAX_PAYLOAD);
		CHECK(memcmp(g.data[3], huge, FSB_LOG_MAX_PAYLOAD - 1) == 0);
		CHECK_STR(g.data[4], "{\"a\":1}");
		CHECK_EQ_U(g.len[5], 0);
		CHECK_EQ_U(g.off[7], 267 * B);
		CHECK_EQ_U(g.len[7], FSB_LOG_BLOCK - FSB_LOG_HDR);
		CHECK_STR(g.data[7], exact);
	}
	CHECK(g.nul_ok);
	got_free(&g);

	/* a bit flipped in the third block of the big record */
	copy_file("multi.log", "multi-bad.log");
	flip_byte("multi-bad.log", 3 * B + 17, 0x10);
	CHECK(read_log("multi-bad.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(st.end, LOG_END_BAD_CRC);
	CHECK_EQ_U(st.end_offset, 1 * B);
	got_free(&g);
	free(small);
	free(big);
	free(huge);
	free(exact);
}

/* The last record torn by a crash or a short copy. */
static void test_torn(void)
{
	struct fsb_log *l;
	struct fsb_log_stats st;
	struct got g;

	/* 4 one-block records, then a 3-block one at 4 * B */
	unlink("torn.log");
	CHECK(fsb_log_open(&l, "torn.log", 0xabc, 0) == 0);
	CHECK(append_n(l, 0xabc, 0, 4, 300) == 0);
	CHECK(append_n(l, 0xabc, 4, 1, 9000) == 0);
	fsb_log_close(l);
	CHECK(read_log("torn.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 5);
	got_free(&g);

	/* cut in the middle of the record's second block */
	CHECK(truncate("torn.log", 5 * B + 1000) == 0);
	CHECK(read_log("torn.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 4);
	CHECK_EQ_U(st.records, 4);
	CHECK_EQ_U(st.end, LOG_END_TORN);
	CHECK_EQ_U(st.end_offset, 4 * B);
	got_free(&g);

	/* cut inside its first block */
	CHECK(truncate("torn.log", 4 * B + 100) == 0);
	CHECK(read_log("torn.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 4);
	CHECK_EQ_U(st.end, LOG_END_TORN);
	CHECK_EQ_U(st.end_offset, 4 * B);
	got_free(&g);

	/* a header that claims more blocks than the file has */
	make_log("torn2.log", 0xdef, 3, 0);		/* 3 records + zero block */
	unsigned char f[8];
	fsb_put_le32(f, 3 * B);				/* payload length */
	fsb_put_le32(f + 4, 4);				/* blocks */
	patch("torn2.log", 2 * B + 32, f, 8);
	CHECK(read_log("torn2.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 2);
	CHECK_EQ_U(st.end, LOG_END_TORN);
	CHECK_EQ_U(st.end_offset, 2 * B);
	got_free(&g);

	/* a writer appends where the torn record was */
	CHECK(fsb_log_open(&l, "torn2.log", 0x999, 0) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 2);
	CHECK_EQ_U(st.end_offset, 2 * B);
	CHECK(append_n(l, 0x999, 0, 2, 200) == 0);
	fsb_log_close(l);
	CHECK(read_log("torn2.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 4);
	CHECK_EQ_U(st.runs, 2);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	if (g.n == 4) {
		CHECK_EQ_U(g.run[1], 0xdef);
		CHECK_EQ_U(g.run[2], 0x999);
		CHECK_EQ_U(g.off[3], 3 * B);
	}
	got_free(&g);
}

/* Damage in the middle: the reader stops there, earlier records survive. */
static void test_damage(void)
{
	struct fsb_log_stats st;
	struct got g;
	unsigned char blk[B];
	/* damage at a record: the records before it read, the end said */
	static const struct {
		const char *log;
		uint64_t off;	/* where it is */
		int how;	/* a bit flipped there (the mask), or its block 0: zeroed, -1: garbage */
		size_t n;	/* the records before it */
		int end;
	} damage[] = {
		{ "flip-hdr.log", 1 * B + 24, 0x80, 1, LOG_END_BAD_CRC },	/* record 1's seq */
		{ "flip-crc.log", 4 * B + 40, 0x01, 4, LOG_END_BAD_CRC },	/* record 4's CRC */
		{ "zero.log", 2 * B, 0, 2, LOG_END_CLEAN },	/* looks like the end */
		{ "garbage.log", 4 * B, -1, 4, LOG_END_BAD_MAGIC },
	};

	make_log("ref.log", 0x5151, 6, 0);

	/* one bit flipped in the payload of record 3 */
	copy_file("ref.log", "flip.log");
	flip_byte("flip.log", 3 * B + FSB_LOG_HDR + 20, 0x04);
	CHECK(read_log("flip.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 3);
	CHECK_EQ_U(st.records, 3);
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(st.end, LOG_END_BAD_CRC);
	CHECK_EQ_U(st.end_offset, 3 * B);
	CHECK_EQ_U(g.seq[2], 2);
	got_free(&g);

	for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		copy_file("ref.log", damage[i].log);
		if (damage[i].how > 0) {
			flip_byte(damage[i].log, damage[i].off, (unsigned char)damage[i].how);
		} else {
			if (damage[i].how < 0)
				garbage(blk, B);
			else
				memset(blk, 0, sizeof(blk));
			patch(damage[i].log, damage[i].off, blk, B);
		}
		CHECK(read_log(damage[i].log, &g, &st) == 0);
		CHECK_EQ_U(g.n, damage[i].n);
		CHECK_EQ_U(st.end, damage[i].end);
		CHECK_EQ_U(st.end_offset, damage[i].n * B);
		got_free(&g);
	}

	/* a header of another format version, or an impossible length */
	copy_file("ref.log", "version.log");
	unsigned char v[4];
	fsb_put_le32(v, 2);
	patch("version.log", 5 * B + 8, v, 4);
	CHECK(read_log("version.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 5);
	CHECK_EQ_U(st.end, LOG_END_BAD_HEADER);
	got_free(&g);
	copy_file("ref.log", "length.log");
	fsb_put_le32(v, 5000);		/* 5000 bytes do not fit in the 1 block the header says */
	patch("length.log", 1 * B + 32, v, 4);
	CHECK(read_log("length.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(st.end, LOG_END_BAD_HEADER);
	got_free(&g);

	/* a reopened damaged log appends at the damage, and ends cleanly */
	struct fsb_log *l;
	CHECK(fsb_log_open(&l, "garbage.log", 0x6262, 0) == 0);
	CHECK(append_n(l, 0x6262, 0, 1, 100) == 0);
	fsb_log_close(l);
	CHECK(read_log("garbage.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 5);	/* 4 old, the new one; old record 5 is zeroed */
	CHECK_EQ_U(st.runs, 2);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 5 * B);
	if (g.n == 5)
		CHECK_EQ_U(g.run[4], 0x6262);
	got_free(&g);
}

/* A size-limited log fills up and is never wrapped. */
static void test_full(void)
{
	struct fsb_log *l;
	struct fsb_log_stats st;
	struct got g;
	char *p = payload(0x77, 9, 200), *big = payload(0x77, 9, 9000);

	unlink("full.log");
	CHECK(fsb_log_open(&l, "full.log", 0x77, 5 * B + 100) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.capacity, 5 * B);
	CHECK(append_n(l, 0x77, 0, 3, 200) == 0);
	CHECK_EQ_U(fsb_log_append(l, 3, big, strlen(big)), -ENOSPC);	/* 3 blocks */
	CHECK(append_n(l, 0x77, 3, 2, 200) == 0);	/* the last one fills the log */
	CHECK_EQ_U(fsize("full.log"), 5 * B);
	CHECK_EQ_U(fsb_log_append(l, 5, p, strlen(p)), -ENOSPC);
	CHECK_EQ_U(fsize("full.log"), 5 * B);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 5);
	CHECK_EQ_U(st.end_offset, 5 * B);
	fsb_log_close(l);

	CHECK(read_log("full.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 5);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 5 * B);
	CHECK_EQ_U(g.seq[4], 4);
	got_free(&g);

	/* a new run on the full log appends nothing */
	CHECK(fsb_log_open(&l, "full.log", 0x88, 5 * B) == 0);
	fsb_log_stat(l, &st);
	CHECK_EQ_U(st.records, 5);
	CHECK_EQ_U(fsb_log_append(l, 0, p, strlen(p)), -ENOSPC);
	fsb_log_close(l);
	CHECK_EQ_U(fsize("full.log"), 5 * B);
	CHECK(read_log("full.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 5);
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(g.run[4], 0x77);
	got_free(&g);

	/* a log smaller than one record */
	unlink("tiny.log");
	CHECK(fsb_log_open(&l, "tiny.log", 1, 1000) == 0);
	CHECK_EQ_U(fsb_log_append(l, 0, p, strlen(p)), -ENOSPC);
	fsb_log_close(l);
	CHECK_EQ_U(fsize("tiny.log"), 0);
	free(p);
	free(big);
}

UNIT_MAIN(test_crc32c, test_good, test_runs, test_multiblock, test_torn, test_damage, test_full)

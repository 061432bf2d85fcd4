/* test_log.c: the results log: CRC32C, writer, reader, damage of every kind,
 * a full log, GPT disk images, and the `fsbench log` command. Runs in a
 * scratch folder and writes its files there. */
#include "log/logfile.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define B FSB_LOG_BLOCK
#define MAXGOT 64

/* ---- helpers ---- */

struct got {
	size_t n;
	uint64_t run[MAXGOT], seq[MAXGOT], off[MAXGOT];
	char *data[MAXGOT];
	size_t len[MAXGOT];
	int nul_ok;	/* every payload was NUL-terminated */
};

static int collect(void *arg, const struct fsb_log_rec *r)
{
	struct got *g = arg;

	if (r->data[r->len] != 0)
		g->nul_ok = 0;
	if (g->n < MAXGOT) {
		g->run[g->n] = r->run_id;
		g->seq[g->n] = r->seq;
		g->off[g->n] = r->offset;
		g->data[g->n] = malloc(r->len + 1);
		memcpy(g->data[g->n], r->data, r->len + 1);
		g->len[g->n] = r->len;
	}
	g->n++;
	return 0;
}

static void got_free(struct got *g)
{
	for (size_t i = 0; i < g->n && i < MAXGOT; i++)
		free(g->data[i]);
	memset(g, 0, sizeof(*g));
}

static int read_log(const char *path, struct got *g, struct fsb_log_stats *st)
{
	memset(g, 0, sizeof(*g));
	g->nul_ok = 1;
	return fsb_log_read(path, collect, g, st);
}

/* A JSON record of about len bytes (at least ~60). */
static char *payload(uint64_t run, uint64_t seq, size_t len)
{
	char *p = malloc(len + 128);
	int n = sprintf(p, "{\"schema\":1,\"type\":\"note\",\"run_id\":\"%016" PRIx64
			"\",\"seq\":%" PRIu64 ",\"msg\":\"", run, seq);
	for (; (size_t)n + 2 < len; n++)
		p[n] = (char)('a' + (n + seq) % 26);
	strcpy(p + n, "\"}");
	return p;
}

static int append_n(struct fsb_log *l, uint64_t run, uint64_t seq0, int n, size_t len)
{
	for (int i = 0; i < n; i++) {
		char *p = payload(run, seq0 + (uint64_t)i, len);
		int err = fsb_log_append(l, seq0 + (uint64_t)i, p, strlen(p));
		free(p);
		if (err)
			return err;
	}
	return 0;
}

/* Write a log of n one-block records of run `run` to path (new file). */
static void make_log(const char *path, uint64_t run, int n, uint64_t max_bytes)
{
	struct fsb_log *l;

	unlink(path);
	CHECK(fsb_log_open(&l, path, run, max_bytes) == 0);
	CHECK(append_n(l, run, 0, n, 200) == 0);
	fsb_log_close(l);
}

static uint64_t fsize(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : (uint64_t)-1;
}

static void patch(const char *path, uint64_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	CHECK(fd >= 0 && pwrite(fd, buf, len, (off_t)off) == (ssize_t)len);
	close(fd);
}

static void peek(const char *path, uint64_t off, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && pread(fd, buf, len, (off_t)off) == (ssize_t)len);
	close(fd);
}

static void copy_file(const char *from, const char *to)
{
	uint64_t n = fsize(from);
	char *buf = malloc(n + 1);

	peek(from, 0, buf, n);
	unlink(to);
	int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, buf, n) == (ssize_t)n);
	close(fd);
	free(buf);
}

static char *slurp(const char *path)
{
	uint64_t n = fsize(path);
	char *buf;

	if (n == (uint64_t)-1)
		return NULL;
	buf = malloc(n + 1);
	peek(path, 0, buf, n);
	buf[n] = 0;
	return buf;
}

static uint64_t rng = 88172645463325252ull;

static void garbage(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		p[i] = (unsigned char)rng;
	}
}

/* ---- tests ---- */

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

	CHECK(read_log("good.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 5);
	CHECK_EQ_U(st.records, 5);
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 5 * B);
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

	CHECK(read_log("runs.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 10);
	CHECK_EQ_U(st.records, 10);
	CHECK_EQ_U(st.runs, 3);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 12 * B);
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
	unsigned char c;
	peek("multi-bad.log", 3 * B + 17, &c, 1);
	c ^= 0x10;
	patch("multi-bad.log", 3 * B + 17, &c, 1);
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
	unsigned char c, blk[B];

	make_log("ref.log", 0x5151, 6, 0);

	/* one bit flipped in the payload of record 3 */
	copy_file("ref.log", "flip.log");
	peek("flip.log", 3 * B + FSB_LOG_HDR + 20, &c, 1);
	c ^= 0x04;
	patch("flip.log", 3 * B + FSB_LOG_HDR + 20, &c, 1);
	CHECK(read_log("flip.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 3);
	CHECK_EQ_U(st.records, 3);
	CHECK_EQ_U(st.runs, 1);
	CHECK_EQ_U(st.end, LOG_END_BAD_CRC);
	CHECK_EQ_U(st.end_offset, 3 * B);
	CHECK_EQ_U(g.seq[2], 2);
	got_free(&g);

	/* one bit flipped in the header (seq) of record 1 */
	copy_file("ref.log", "flip-hdr.log");
	peek("flip-hdr.log", 1 * B + 24, &c, 1);
	c ^= 0x80;
	patch("flip-hdr.log", 1 * B + 24, &c, 1);
	CHECK(read_log("flip-hdr.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(st.end, LOG_END_BAD_CRC);
	CHECK_EQ_U(st.end_offset, 1 * B);
	got_free(&g);

	/* flipping the CRC field itself */
	copy_file("ref.log", "flip-crc.log");
	peek("flip-crc.log", 4 * B + 40, &c, 1);
	c ^= 0x01;
	patch("flip-crc.log", 4 * B + 40, &c, 1);
	CHECK(read_log("flip-crc.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 4);
	CHECK_EQ_U(st.end, LOG_END_BAD_CRC);
	got_free(&g);

	/* block 2 zeroed: looks like the end */
	copy_file("ref.log", "zero.log");
	memset(blk, 0, sizeof(blk));
	patch("zero.log", 2 * B, blk, B);
	CHECK(read_log("zero.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 2);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	CHECK_EQ_U(st.end_offset, 2 * B);
	got_free(&g);

	/* block 4 overwritten with garbage */
	copy_file("ref.log", "garbage.log");
	garbage(blk, B);
	patch("garbage.log", 4 * B, blk, B);
	CHECK(read_log("garbage.log", &g, &st) == 0);
	CHECK_EQ_U(g.n, 4);
	CHECK_EQ_U(st.end, LOG_END_BAD_MAGIC);
	CHECK_EQ_U(st.end_offset, 4 * B);
	got_free(&g);

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

/* ---- GPT disk images ---- */

static uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

struct part {
	const char *name;
	uint64_t first, last;	/* LBAs */
};

/* Write a disk image of nsect sectors of ss bytes, garbage everywhere, with
 * a protective MBR, a primary GPT (128 entries at LBA 2) and the given
 * partitions. An image above 64 MiB is sparse: the GPT, then zeros. */
static void make_disk(const char *path, unsigned ss, uint64_t nsect,
		      const struct part *parts, int nparts)
{
	uint64_t ent_sect = 128 * 128 / ss, whole = (uint64_t)ss * nsect;
	size_t size = whole > (64u << 20) ? (size_t)(ss * (2 + ent_sect)) : (size_t)whole;
	unsigned char *d = malloc(size);
	unsigned char *mbr = d, *h = d + ss, *ents = d + 2 * ss;

	garbage(d, size);
	memset(d, 0, (size_t)(ss * (2 + ent_sect)));
	mbr[446 + 4] = 0xee;
	fsb_put_le32(mbr + 446 + 8, 1);
	fsb_put_le32(mbr + 446 + 12, nsect - 1 > 0xffffffffu ? 0xffffffffu : (uint32_t)(nsect - 1));
	mbr[510] = 0x55;
	mbr[511] = 0xaa;

	for (int i = 0; i < nparts; i++) {
		unsigned char *e = ents + 128 * i;
		garbage(e, 32);				/* type and unique GUIDs */
		fsb_put_le64(e + 32, parts[i].first);
		fsb_put_le64(e + 40, parts[i].last);
		for (size_t k = 0; parts[i].name[k]; k++)
			e[56 + 2 * k] = (unsigned char)parts[i].name[k];
	}
	memcpy(h, "EFI PART", 8);
	fsb_put_le32(h + 8, 0x00010000);
	fsb_put_le32(h + 12, 92);
	fsb_put_le64(h + 24, 1);
	fsb_put_le64(h + 32, nsect - 1);
	fsb_put_le64(h + 40, 2 + ent_sect);
	fsb_put_le64(h + 48, nsect - 2 - ent_sect);
	garbage(h + 56, 16);
	fsb_put_le64(h + 72, 2);
	fsb_put_le32(h + 80, 128);
	fsb_put_le32(h + 84, 128);
	fsb_put_le32(h + 88, crc32_ieee(ents, 128 * 128));
	fsb_put_le32(h + 16, crc32_ieee(h, 92));

	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, d, size) == (ssize_t)size);
	if (size < whole)
		CHECK(ftruncate(fd, (off_t)whole) == 0);
	close(fd);
	free(d);
}

/* Copy the file src into path at byte off. */
static void put_file(const char *path, uint64_t off, const char *src)
{
	char *buf = slurp(src);

	patch(path, off, buf, fsize(src));
	free(buf);
}

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
	put_file("disk512.img", 2048 * 512, "part-full.log");
	put_file("disk512.img", 2304 * 512, "good.log");
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
	const struct part p4k[] = {
		{ "esp", 6, 299 },
		{ FSB_LOG_PARTLABEL, 300, 315 },
	};
	make_log("part4k.log", 0x4444, 3, 64 * 1024);
	make_disk("disk4k.img", 4096, 400, p4k, 2);
	put_file("disk4k.img", 300 * 4096, "part4k.log");
	CHECK(read_log("disk4k.img", &g, &st) == 0);
	CHECK_EQ_U(g.n, 3);
	CHECK_EQ_U(st.data_offset, 300 * 4096);
	CHECK_EQ_U(st.capacity, 16 * 4096);
	CHECK_EQ_U(st.end, LOG_END_CLEAN);
	got_free(&g);

	/* a bad record inside the partition */
	unsigned char c;
	peek("disk4k.img", 300 * 4096 + 2 * B + 100, &c, 1);
	c ^= 1;
	patch("disk4k.img", 300 * 4096 + 2 * B + 100, &c, 1);
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

/* ---- the `fsbench log` command ---- */

static int run_cmd(char **argv)
{
	int argc = 0, rc, o, e, fo, fe;

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	o = dup(1);
	e = dup(2);
	fo = open("cmd.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fe = open("cmd.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fo, 1);
	dup2(fe, 2);
	close(fo);
	close(fe);
	rc = cmd_log(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o, 1);
	dup2(e, 2);
	close(o);
	close(e);
	return rc;
}

#define CMD(...) run_cmd((char *[]){ "log", __VA_ARGS__, NULL })

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void test_cmd(void)
{
	struct got g;
	struct fsb_log_stats st;
	char *out, *err, *want;
	size_t wlen = 0;

	/* runs.log: 5 records of run 1111, 3 of 2222, 2 of 3333 */
	CHECK(read_log("runs.log", &g, &st) == 0);
	for (size_t i = 0; i < g.n && i < MAXGOT; i++)
		wlen += g.len[i] + 1;
	want = malloc(wlen + 1);
	wlen = 0;
	for (size_t i = 0; i < g.n && i < MAXGOT; i++) {
		memcpy(want + wlen, g.data[i], g.len[i]);
		wlen += g.len[i];
		want[wlen++] = '\n';
	}
	want[wlen] = 0;

	CHECK_EQ_U(CMD("extract", "runs.log"), 0);
	out = slurp("cmd.out");
	err = slurp("cmd.err");
	CHECK_STR(out, want);
	CHECK_CONTAINS(err, "fsbench: log runs.log: 10 records in 3 runs recovered; "
		       "stopped at offset 49152: clean end\n");
	CHECK_CONTAINS(err, "run 0000000000002222: 3 records, seq 0 to 2");
	free(out);
	free(err);

	CHECK_EQ_U(CMD("extract", "-o", "out1", "runs.log"), 0);
	out = slurp("out1/records.jsonl");
	CHECK_STR(out, want);
	free(out);
	out = slurp("out1/summary.txt");
	err = slurp("cmd.err");
	CHECK_CONTAINS(out, "10 records in 3 runs recovered");
	CHECK_STR(out, err);
	CHECK(access("out1/records.jsonl.tmp", F_OK) != 0);
	CHECK_EQ_U(fsize("cmd.out"), 0);
	free(out);
	free(err);

	/* one run */
	CHECK_EQ_U(CMD("extract", "runs.log", "--run", "0000000000002222", "-o", "out2"), 0);
	out = slurp("out2/records.jsonl");
	CHECK_EQ_U(count_lines(out), 3);
	CHECK(out && strncmp(out, g.data[5], g.len[5]) == 0);
	free(out);
	CHECK_EQ_U(CMD("extract", "--last", "runs.log"), 0);
	out = slurp("cmd.out");
	CHECK_EQ_U(count_lines(out), 2);
	CHECK_CONTAINS(out, "\"run_id\":\"0000000000003333\"");
	free(out);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "extracted: 2 records (last run 0000000000003333)");
	free(err);
	CHECK_EQ_U(CMD("extract", "--run=4444", "runs.log"), 0);
	out = slurp("cmd.out");
	err = slurp("cmd.err");
	CHECK_EQ_U(count_lines(out), 0);
	CHECK_CONTAINS(err, "no records of the run asked for");
	free(out);
	free(err);
	got_free(&g);

	/* info */
	CHECK_EQ_U(CMD("info", "runs.log"), 0);
	out = slurp("cmd.out");
	CHECK_CONTAINS(out, "10 records in 3 runs recovered");
	CHECK_CONTAINS(out, "run 0000000000001111: 5 records");
	CHECK_CONTAINS(out, "space: 49152 of 53248 bytes used");
	free(out);

	/* a damaged log is reported, not a failure */
	CHECK_EQ_U(CMD("extract", "-o", "out3", "flip.log"), 0);
	out = slurp("out3/records.jsonl");
	CHECK_EQ_U(count_lines(out), 3);
	free(out);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "fsbench: log flip.log: 3 records in 1 run recovered; stopped at "
		       "offset 12288: bad CRC (records after this point, if any, are lost)");
	free(err);

	/* a disk image */
	CHECK_EQ_U(CMD("info", "disk4k.img"), 0);
	out = slurp("cmd.out");
	CHECK_CONTAINS(out, "2 records in 1 run recovered");
	CHECK_CONTAINS(out, "GPT partition fsbench-log at byte 1228800");
	free(out);
	CHECK_EQ_U(CMD("info", "disk-past.img"), 4);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "fsbench: log info disk-past.img: GPT partition fsbench-log");
	free(err);

	/* failures and misuse */
	CHECK_EQ_U(CMD("extract", "-o", "out4", "/nonexistent/x"), 4);
	err = slurp("cmd.err");
	CHECK_STR(err, "fsbench: log extract /nonexistent/x: No such file or directory\n");
	free(err);
	CHECK(access("out4/records.jsonl", F_OK) != 0);
	CHECK(access("out4/records.jsonl.tmp", F_OK) != 0);
	CHECK_EQ_U(CMD("extract", "--last", "/nonexistent/x"), 4);
	CHECK_EQ_U(CMD("extract"), 2);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "fsbench: log extract: missing SRC\nusage: fsbench log extract");
	free(err);
	CHECK_EQ_U(CMD("extract", "--bogus", "runs.log"), 2);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "unknown option --bogus");
	free(err);
	CHECK_EQ_U(CMD("extract", "runs.log", "--run", "xyz"), 2);
	CHECK_EQ_U(CMD("extract", "runs.log", "--run", "1", "--last"), 2);
	CHECK_EQ_U(CMD("extract", "runs.log", "other.log"), 2);
	CHECK_EQ_U(CMD("info", "runs.log", "-o", "x"), 2);
	CHECK_EQ_U(CMD("frobnicate"), 2);
	CHECK_EQ_U(run_cmd((char *[]){ "log", NULL }), 2);
	CHECK_EQ_U(CMD("--help"), 0);
	out = slurp("cmd.out");
	CHECK_CONTAINS(out, "fsbench log extract SRC [-o DIR] [--run RUNID | --last]");
	free(out);
	CHECK_EQ_U(CMD("extract", "--help"), 0);
	free(want);
}

int main(int argc, char **argv)
{
	(void)argc;
	test_crc32c();
	test_good();
	test_runs();
	test_multiblock();
	test_torn();
	test_damage();
	test_full();
	test_gpt();
	test_cmd();
	return unit_done(argv[0]);
}

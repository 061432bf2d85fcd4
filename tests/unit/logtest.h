/* logtest.h: what the results log's unit tests (test_log*.c) share: a log
 * read back into memory, records of a given size, a log of n records, a
 * file patched, peeked at, copied or read whole, and GPT disk images. The
 * tests run in a scratch folder and write their files there. */
#ifndef FSB_UNIT_LOGTEST_H
#define FSB_UNIT_LOGTEST_H

#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log/logfile.h"
#include "unit.h"

#define B FSB_LOG_BLOCK
#define MAXGOT 64

struct got {
	size_t n;
	uint64_t run[MAXGOT], seq[MAXGOT], off[MAXGOT];
	char *data[MAXGOT];
	size_t len[MAXGOT];
	int nul_ok;	/* every payload was NUL-terminated */
};

static inline int collect(void *arg, const struct fsb_log_rec *r)
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

static inline void got_free(struct got *g)
{
	for (size_t i = 0; i < g->n && i < MAXGOT; i++)
		free(g->data[i]);
	memset(g, 0, sizeof(*g));
}

static inline int read_log(const char *path, struct got *g, struct fsb_log_stats *st)
{
	memset(g, 0, sizeof(*g));
	g->nul_ok = 1;
	return fsb_log_read(path, collect, g, st);
}

/* path read to its clean end at end_offset: n records of runs runs, in *g
 * (got_free), each a check. */
static inline void read_clean(const char *path, struct got *g, struct fsb_log_stats *st,
			      size_t n, size_t runs, uint64_t end_offset)
{
	CHECK(read_log(path, g, st) == 0);
	CHECK_EQ_U(g->n, n);
	CHECK_EQ_U(st->records, n);
	CHECK_EQ_U(st->runs, runs);
	CHECK_EQ_U(st->end, LOG_END_CLEAN);
	CHECK_EQ_U(st->end_offset, end_offset);
}

/* A JSON record of about len bytes (at least ~60). */
static inline char *payload(uint64_t run, uint64_t seq, size_t len)
{
	char *p = malloc(len + 128);
	int n = sprintf(p, "{\"schema\":1,\"type\":\"note\",\"run_id\":\"%016" PRIx64
			"\",\"seq\":%" PRIu64 ",\"msg\":\"", run, seq);
	for (; (size_t)n + 2 < len; n++)
		p[n] = (char)('a' + (n + seq) % 26);
	strcpy(p + n, "\"}");
	return p;
}

static inline int append_n(struct fsb_log *l, uint64_t run, uint64_t seq0, int n, size_t len)
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
static inline void make_log(const char *path, uint64_t run, int n, uint64_t max_bytes)
{
	struct fsb_log *l;

	unlink(path);
	CHECK(fsb_log_open(&l, path, run, max_bytes) == 0);
	CHECK(append_n(l, run, 0, n, 200) == 0);
	fsb_log_close(l);
}

static inline uint64_t fsize(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : (uint64_t)-1;
}

static inline void patch(const char *path, uint64_t off, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);

	CHECK(fd >= 0 && pwrite(fd, buf, len, (off_t)off) == (ssize_t)len);
	close(fd);
}

static inline void peek(const char *path, uint64_t off, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0 && pread(fd, buf, len, (off_t)off) == (ssize_t)len);
	close(fd);
}

/* The byte of path at off xor'd with mask: a bit flipped on disk. */
static inline void flip_byte(const char *path, uint64_t off, unsigned char mask)
{
	unsigned char c;

	peek(path, off, &c, 1);
	c ^= mask;
	patch(path, off, &c, 1);
}

static inline void copy_file(const char *from, const char *to)
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

static inline char *slurp(const char *path)
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

static inline void garbage(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		p[i] = (unsigned char)rng;
	}
}

/* ---- GPT disk images ---- */

static inline uint32_t crc32_ieee(const unsigned char *p, size_t n)
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
static inline void make_disk(const char *path, unsigned ss, uint64_t nsect,
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
static inline void put_file(const char *path, uint64_t off, const char *src)
{
	char *buf = slurp(src);

	CHECK(buf != NULL);
	if (buf)
		patch(path, off, buf, fsize(src));
	free(buf);
}

/* disk4k.img: 400 sectors of 4096 bytes, an ESP and the log partition of
 * 64 KiB at LBA 300 (16 sectors) holding part4k.log, run 0x4444's 3
 * records. */
static inline void make_disk4k(void)
{
	const struct part p4k[] = {
		{ "esp", 6, 299 },
		{ FSB_LOG_PARTLABEL, 300, 315 },
	};

	make_log("part4k.log", 0x4444, 3, 64 * 1024);
	make_disk("disk4k.img", 4096, 400, p4k, 2);
	put_file("disk4k.img", 300 * 4096, "part4k.log");
}

#endif

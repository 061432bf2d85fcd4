/* test_capacity.c: the capacity check (run/target/capacity.h) on made-up
 * devices behind its I/O calls: a sparse file holds the real media, and
 * what lies past the real size follows the device's kind (wraps onto the
 * start, reads zeros, fails, reads garbage or an older run's signatures).
 * An honest device passes; each liar is caught with the right real size
 * (within 1 %); nothing is ever read or written outside the claimed size.
 * Then the record (the schema), the report's table and the verdict key
 * `capacity = honest`. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/jsonr.h"
#include "log/logfile.h"
#include "log/record.h"
#include "log/validate.h"
#include "report/output.h"
#include "report/sections/honesty.h"
#include "report/verdict/criteria.h"
#include "run/target/capacity.h"
#include "records.h"
#include "unit.h"

#define GiB (1ull << 30)
#define MiB (1ull << 20)

enum kind { HONEST, WRAP, ZEROS, FAILS, GARBAGE, OLDRUN };
static int mend;	/* the next device's spots mend on their second write */

struct fake {
	int fd;			/* the real media: a sparse file of `real` bytes */
	enum kind kind;
	uint64_t claimed, real;
	unsigned outside;	/* calls that reached past the claimed size */
	int fail_flush;
	uint64_t spot[2];	/* blocks whose reads fail (0: none), below the real size */
	int mend;		/* a write to a spot mends it (a sector the disk remaps) */
};

/* An older run's signature of the sector at off (the format of capacity.c:
 * magic, run id, offset, pass, filler, CRC32C). */
static void old_signature(uint8_t *s, uint64_t off)
{
	static const uint8_t magic[8] = { 'F', 'S', 'B', 'C', 'A', 'P', 0, 1 };
	uint64_t run = 0x1111222233334444ull;

	memset(s, 0x5a, 512);
	memcpy(s, magic, 8);
	for (int i = 0; i < 8; i++) {
		s[8 + i] = (uint8_t)(run >> (8 * i));
		s[16 + i] = (uint8_t)(off >> (8 * i));
	}
	memset(s + 24, 0, 4);
	uint32_t crc = fsb_crc32c(0, s, 508);
	for (int i = 0; i < 4; i++)
		s[508 + i] = (uint8_t)(crc >> (8 * i));
}

/* Sector by sector: below the real size the media (a wrap lands there
 * too), past it the kind's behaviour. */
static int fake_io(struct fake *f, uint8_t *buf, size_t len, uint64_t off, int wr)
{
	if (off + len > f->claimed || len % 512 || off % 512) {
		f->outside++;
		return -EINVAL;
	}
	for (int i = 0; i < 2; i++)
		if (f->spot[i] && f->spot[i] >= off && f->spot[i] < off + len) {
			if (!wr)
				return -EIO;
			if (f->mend && ++f->mend == 3)
				f->spot[i] = 0;
		}
	if (f->kind == HONEST || off + len <= f->real) {	/* all on the media: one call */
		ssize_t n = wr ? pwrite(f->fd, buf, len, (off_t)off) : pread(f->fd, buf, len, (off_t)off);
		return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
	}
	for (size_t i = 0; i < len; i += 512) {
		uint64_t o = off + i;
		if (o >= f->real) {
			switch (f->kind) {
			case WRAP:
				o %= f->real;
				break;
			case FAILS:
				return -EIO;
			case ZEROS:
				if (!wr)
					memset(buf + i, 0, 512);
				continue;
			case GARBAGE:
				if (!wr)
					memset(buf + i, 0xa5, 512);
				continue;
			case OLDRUN:
				if (!wr)
					old_signature(buf + i, o);
				continue;
			case HONEST:
				break;
			}
		}
		ssize_t n = wr ? pwrite(f->fd, buf + i, 512, (off_t)o) : pread(f->fd, buf + i, 512, (off_t)o);
		if (n != 512) {
			if (n < 0)
				return -errno;
			if (!wr)	/* a sparse hole at the end of the file */
				memset(buf + i + n, 0, 512 - (size_t)n);
			else
				return -EIO;
		}
	}
	return 0;
}

static int f_read(void *h, void *buf, size_t len, uint64_t off)
{
	return fake_io(h, buf, len, off, 0);
}

static int f_write(void *h, const void *buf, size_t len, uint64_t off)
{
	return fake_io(h, (uint8_t *)buf, len, off, 1);
}

static int f_flush(void *h)
{
	return ((struct fake *)h)->fail_flush ? -EIO : 0;
}

/* The check on a made-up device; its result in *res, its return value. */
static int run_spots(enum kind kind, uint64_t claimed, uint64_t real, struct fsb_cap_result *res,
		     unsigned *outside, uint64_t spot0, uint64_t spot1)
{
	static unsigned n;
	char name[64];
	struct fake f = { .kind = kind, .claimed = claimed, .real = real, .spot = { spot0, spot1 },
			  .mend = mend };
	struct fsb_cap_io io = { .h = &f, .size = claimed, .pread = f_read, .pwrite = f_write,
				 .flush = f_flush };

	snprintf(name, sizeof(name), "media%u", n++);
	f.fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (f.fd < 0 || ftruncate(f.fd, (off_t)(kind == HONEST ? claimed : real)) < 0) {
		perror(name);
		return -999;
	}
	int rc = fsb_cap_check(&io, 0xabcdef0123456789ull, res);
	*outside = f.outside;
	close(f.fd);
	unlink(name);
	return rc;
}

static int run(enum kind kind, uint64_t claimed, uint64_t real, struct fsb_cap_result *res,
	       unsigned *outside)
{
	return run_spots(kind, claimed, real, res, outside, 0, 0);
}

/* |got - want| <= 1 % of want */
static int within1(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;
	return d * 100 <= want;
}

static void test_honest(void)
{
	struct fsb_cap_result r;
	unsigned out;
	uint64_t stride, ios;

	CHECK(run(HONEST, 64 * GiB, 0, &r, &out) == 0);
	CHECK(r.honest);
	CHECK_EQ_U(r.verified, 64 * GiB);
	CHECK_EQ_U(r.claimed, 64 * GiB);
	CHECK_EQ_U(out, 0);
	fsb_cap_plan(64 * GiB, &stride, &ios);
	CHECK_EQ_U(stride, 16 * MiB);	/* 64 GiB / 4096 */
	CHECK_EQ_U(r.stride, stride);
	CHECK_EQ_U(r.ios, ios);
	/* the dense region (16 MiB: 4096 blocks), 4095 grid blocks, the last */
	CHECK_EQ_U(r.written, 4096 + 4095 + 1);
	CHECK_EQ_U(r.read, r.written);
	CHECK_EQ_U(r.steps, 0);
	CHECK(!r.have_alias);
	CHECK_EQ_U(r.bad_blocks, 0);

	/* unreadable blocks with good ones after them (a dense block, read
	 * one by one when its MiB fails, and a grid block): media errors,
	 * counted, not a capacity lie */
	CHECK(run_spots(HONEST, 8 * GiB, 0, &r, &out, 4096, 5 * GiB) == 0);
	CHECK(r.honest);
	CHECK_EQ_U(r.verified, 8 * GiB);
	CHECK_EQ_U(r.bad_blocks, 2);
	/* the last block unreadable until written again (its second write,
	 * by the check's probe): counted, not a capacity lie */
	mend = 1;
	CHECK(run_spots(HONEST, 8 * GiB, 0, &r, &out, 8 * GiB - 4096, 0) == 0);
	mend = 0;
	CHECK(r.honest);
	CHECK_EQ_U(r.verified, 8 * GiB);
	CHECK_EQ_U(r.bad_blocks, 1);
	/* and on a device that wraps: the wrap is still found */
	CHECK(run_spots(WRAP, 8 * GiB, 3 * GiB, &r, &out, 8192, GiB) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.verified, 3 * GiB);
	CHECK_EQ_U(r.bad_blocks, 2);

	/* a device of 3 MiB and a sector: the dense MiB, the grid at 1 and
	 * 2 MiB, the last whole block; the sector past it is left alone */
	CHECK(run(HONEST, 3 * MiB + 512, 0, &r, &out) == 0);
	CHECK(r.honest);
	CHECK_EQ_U(r.verified, 3 * MiB + 512);
	CHECK_EQ_U(r.written, 256 + 2 + 1);
	/* smaller than the stride: all of it dense */
	CHECK(run(HONEST, 600 * 1024, 0, &r, &out) == 0);
	CHECK(r.honest);
	CHECK_EQ_U(r.written, 150);
	CHECK_EQ_U(out, 0);
	/* 1 GiB: a grid every MiB */
	fsb_cap_plan(GiB, &stride, &ios);
	CHECK_EQ_U(stride, MiB);
	CHECK_EQ_U(ios, 2 * (1 + 1023 + 1) + 1);
	/* 1 TB: 4096 grid blocks of 256 MiB */
	fsb_cap_plan(1000000000000ull, &stride, &ios);
	CHECK_EQ_U(stride, 256 * MiB);
	CHECK_EQ_U(ios, 2 * (256 + 3725 + 1) + 1);
}

/* A "64 GB" card that wraps at 8 GB, and wraps at sizes that are no power
 * of two, down to the sector. */
static void test_wrap(void)
{
	static const struct { uint64_t claimed, real; } d[] = {
		{ 64 * GiB, 8 * GiB }, { 16 * GiB, 7838314496ull /* 7.3 GiB, whole 4 KiB */ },
		{ 16 * GiB, 5 * GiB + 1536 /* not a whole 4 KiB */ },
		{ 32 * GiB, 20 * GiB + 12 * 4096 }, { 16 * GiB, 512 * 1024 },
	};
	struct fsb_cap_result r;
	unsigned out;
	uint64_t stride, ios, real[sizeof(d) / sizeof(d[0])];

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		real[i] = d[i].real;
		fsb_cap_plan(d[i].claimed, &stride, &ios);
		CHECK(run(WRAP, d[i].claimed, real[i], &r, &out) == 0);
		CHECK(!r.honest);
		CHECK_EQ_U(r.found, FSB_CAP_ALIAS);
		CHECK(within1(r.verified, real[i]));
		CHECK_EQ_U(r.verified, real[i]);
		CHECK_EQ_U(r.first_bad, real[i]);
		CHECK(r.have_alias);
		/* the first aliasing block: the one at the real size, or the
		 * one holding it */
		CHECK(r.alias_offset >= real[i] && r.alias_offset - real[i] < 4096);
		CHECK_EQ_U(r.alias_offset - r.alias_of, real[i]);
		CHECK_EQ_U(out, 0);
		/* the spread pass and at most 5 calls per bisection step */
		CHECK(r.ios <= ios + 5 * (r.steps + 1));
		CHECK(r.steps <= 12);
	}
	/* the upper half onto the lower half: the dm-linear case */
	CHECK(run(WRAP, 2 * GiB, GiB, &r, &out) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.verified, GiB);
	CHECK_EQ_U(r.alias_offset, GiB);
	CHECK_EQ_U(r.alias_of, 0);
}

static void test_truncated(void)
{
	struct fsb_cap_result r;
	unsigned out;

	/* zeros past the real size: writes dropped */
	CHECK(run(ZEROS, 32 * GiB, 5 * GiB + 123 * 4096, &r, &out) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.found, FSB_CAP_ZEROS);
	CHECK_EQ_U(r.verified, 5 * GiB + 123 * 4096);
	CHECK_EQ_U(r.first_bad, r.verified);
	CHECK(!r.have_alias);
	CHECK_EQ_U(out, 0);
	/* errors past it (a device cut short) */
	CHECK(run(FAILS, 16 * GiB, 3328599654ull / 4096 * 4096, &r, &out) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.found, FSB_CAP_EIO);
	CHECK_EQ_U(r.err, EIO);
	CHECK(within1(r.verified, 3328599654ull));
	CHECK_EQ_U(out, 0);
	/* garbage past it, within the dense region too */
	CHECK(run(GARBAGE, 4 * GiB, 300 * 1024, &r, &out) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.found, FSB_CAP_GARBAGE);
	CHECK_EQ_U(r.verified, 300 * 1024);
	/* an older run's signatures, at the right offsets: not this run's */
	CHECK(run(OLDRUN, 8 * GiB, 6 * GiB, &r, &out) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.found, FSB_CAP_GARBAGE);
	CHECK_EQ_U(r.verified, 6 * GiB);
	/* the last block alone is missing */
	CHECK(run(ZEROS, GiB + 40960, GiB + 36864, &r, &out) == 0);
	CHECK(!r.honest);
	CHECK_EQ_U(r.verified, GiB + 36864);
}

/* A device whose I/O is broken says nothing of its size: an error. */
static void test_broken(void)
{
	struct fsb_cap_result r;
	unsigned out;

	CHECK(run(FAILS, GiB, 0, &r, &out) == -EIO);
	CHECK(run(HONEST, 2048, 0, &r, &out) == -EINVAL);

	struct fake f = { .kind = HONEST, .claimed = 16 * MiB, .fail_flush = 1 };
	struct fsb_cap_io io = { .h = &f, .size = f.claimed, .pread = f_read, .pwrite = f_write,
				 .flush = f_flush };
	f.fd = open("flush", O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(f.fd >= 0 && ftruncate(f.fd, (off_t)f.claimed) == 0);
	CHECK(fsb_cap_check(&io, 1, &r) == -EIO);
	close(f.fd);
	unlink("flush");
}

static void bad(void *arg, const char *msg)
{
	fprintf(stderr, "schema: %s\n", msg);
	(*(int *)arg)++;
}

/* The record of a result, checked against the schema, as a line of a run. */
static void record(const struct fsb_cap_result *res, char *line, size_t len)
{
	struct fsb_rec r;
	int n, errs = 0;

	rec_begin(&r, "capacity");
	rec_str(&r, "run_id", "00000000000000aa");
	rec_u64(&r, "seq", 2);
	rec_dbl(&r, "t", 1.5);
	fsb_cap_json(&r, "/dev/sdz", res);
	n = rec_end(&r);
	CHECK(n > 0);
	CHECK(fsb_check_text(r.buf, (size_t)n, 0, bad, &errs) == 0);
	CHECK_EQ_U(errs, 0);
	snprintf(line, len, "%.*s\n", n, r.buf);
}

static const char start[] =
	"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"00000000000000aa\",\"seq\":0,\"t\":0,"
	"\"tool\":\"fsbench\",\"version\":\"0.1.0\",\"mode\":\"device\",\"time_unix\":1,"
	"\"host\":{\"cpu_model\":\"x\",\"cpus\":1,\"mem_bytes\":1,\"dmi\":{}},\"target\":{\"path\":\"/dev/sdz\"}}\n";

/* The verdict of `capacity = honest` on the run of line: its one check. */
static int verdict(const char *line, struct vd_check *out)
{
	char text[4096], err[256];
	struct rep_set set;
	struct vd_criteria c;
	struct vd_result res;
	int rc;

	snprintf(text, sizeof(text), "%s%s", start, line);
	CHECK(unit_load_records(&set, text, "cap.jsonl", err, sizeof(err)) == 0);
	vd_criteria_init(&c, NULL, NULL, NULL);
	CHECK(vd_criteria_add(&c, "capacity", "honest", "c:1", err, sizeof(err)) == 0);
	memset(&res, 0, sizeof(res));
	rc = vd_evaluate(&c, set.runs[0], &res);
	CHECK(rc == 0 && res.n == 1);
	if (res.n)
		*out = res.check[0];
	vd_result_free(&res);
	vd_criteria_free(&c);
	rep_free(&set);
	return rc;
}

static void test_record_verdict(void)
{
	struct fsb_cap_result r;
	struct vd_check k;
	struct vd_criteria c;
	char line[2048], err[256], want[128];
	unsigned out;

	CHECK(run(HONEST, 2 * GiB, 0, &r, &out) == 0);
	record(&r, line, sizeof(line));
	CHECK_CONTAINS(line, "\"honest\":true");
	CHECK_CONTAINS(line, "\"verified_bytes\":2147483648");
	CHECK(!strstr(line, "alias_offset"));
	verdict(line, &k);
	CHECK(k.pass);
	CHECK_STR(k.limit, "honest");
	CHECK_CONTAINS(k.measured, "honest: 2.0 GiB of 2.0 GiB verified");

	CHECK(run(WRAP, 64 * GiB, 8 * GiB, &r, &out) == 0);
	record(&r, line, sizeof(line));
	CHECK_CONTAINS(line, "\"honest\":false");
	CHECK_CONTAINS(line, "\"alias_offset\":8589934592,\"alias_of\":0");
	CHECK_CONTAINS(line, "\"found\":\"alias\"");
	verdict(line, &k);
	CHECK(!k.pass);
	CHECK_CONTAINS(k.measured, "NOT honest: real size 8.0 GiB (8589934592 bytes) of 64.0 GiB claimed");
	CHECK_CONTAINS(k.measured, "offset 8589934592 aliases offset 0");

	/* the C library's text of EIO (glibc's and musl's differ) */
	CHECK(run(FAILS, 4 * GiB, GiB, &r, &out) == 0);
	record(&r, line, sizeof(line));
	snprintf(want, sizeof(want), "\"found\":\"error: %s\"", strerror(EIO));
	CHECK_CONTAINS(line, want);
	verdict(line, &k);
	CHECK(!k.pass);
	snprintf(want, sizeof(want), "offset 1073741824 reads back error: %s", strerror(EIO));
	CHECK_CONTAINS(k.measured, want);

	/* a run without the check: not measured, a failure */
	verdict("", &k);
	CHECK(!k.pass && !k.measured_ok);
	CHECK_CONTAINS(k.measured, "not measured (no capacity record");

	/* the value is `honest`, nothing else */
	vd_criteria_init(&c, NULL, NULL, NULL);
	CHECK(vd_criteria_add(&c, "capacity", "yes", "c:1", err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "capacity");
	vd_criteria_free(&c);
}

/* The report's table: one row, the real size and the aliasing pair. */
static void test_table(void)
{
	struct fsb_cap_result r;
	struct rep_set set;
	struct rep_table t;
	char text[4096], line[2048], err[256], buf[128];
	unsigned out;

	CHECK(run(WRAP, 2 * GiB, GiB, &r, &out) == 0);
	record(&r, line, sizeof(line));
	snprintf(text, sizeof(text), "%s%s", start, line);
	CHECK(unit_load_records(&set, text, "cap.jsonl", err, sizeof(err)) == 0);
	CHECK(rep_table_capacity(set.runs[0], &t) == 0);
	CHECK_EQ_U(t.nrows, 1);
	const struct rep_writer *csv = rep_writer_find("csv");
	CHECK_STR(rep_cell_text(csv, rep_table_cell(&t, 0, 2), buf, sizeof(buf)), "1073741824");
	CHECK_STR(rep_cell_text(csv, rep_table_cell(&t, 0, 3), buf, sizeof(buf)), "NO");
	CHECK_STR(rep_cell_text(csv, rep_table_cell(&t, 0, 4), buf, sizeof(buf)), "1073741824");
	CHECK_STR(rep_cell_text(csv, rep_table_cell(&t, 0, 5), buf, sizeof(buf)), "0");
	rep_table_free(&t);
	rep_free(&set);
	/* no capacity record, no row */
	CHECK(unit_load_records(&set, start, "cap.jsonl", err, sizeof(err)) == 0);
	CHECK(rep_table_capacity(set.runs[0], &t) == 0);
	CHECK_EQ_U(t.nrows, 0);
	rep_table_free(&t);
	rep_free(&set);
	/* a record without its sizes is malformed */
	snprintf(text, sizeof(text), "%s{\"schema\":1,\"type\":\"capacity\",\"run_id\":\"00000000000000aa\","
		 "\"seq\":1,\"t\":1,\"device\":\"/dev/sdz\",\"honest\":true}\n", start);
	CHECK(unit_load_records(&set, text, "cap.jsonl", err, sizeof(err)) == -EBADMSG);
	CHECK_CONTAINS(err, "cap.jsonl:2: capacity record: \"claimed_bytes\" must be a whole number");
	rep_free(&set);
}

UNIT_MAIN(test_honest, test_wrap, test_truncated, test_broken, test_record_verdict, test_table)

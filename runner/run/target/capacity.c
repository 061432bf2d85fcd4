/* capacity.c: the capacity check (capacity.h): signatures across the
 * target, read back past every cache, and the bisection to the real size. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>	/* BLKGETSIZE64, BLKFLSBUF (musl has no linux/fs.h) */
#include <unistd.h>

#include "lib/io.h"
#include "lib/time.h"
#include "log/fields.h"
#include "log/logfile.h"	/* fsb_crc32c */
#include "run/target/capacity.h"

#define B FSB_CAP_BLOCK
#define SEC FSB_CAP_SECTOR

static const uint8_t magic[8] = { 'F', 'S', 'B', 'C', 'A', 'P', 0, 1 };

/* A sector's signature: magic, run id, its offset, the pass, a filler that
 * differs per offset, run and pass, and the CRC32C of the 508 bytes before. */
static void sign(uint8_t *s, uint64_t run_id, uint64_t off, uint32_t pass)
{
	uint64_t x = (off ^ run_id ^ ((uint64_t)pass << 32)) * 0x9e3779b97f4a7c15ull | 1;

	memcpy(s, magic, 8);
	fsb_put_le64(s + 8, run_id);
	fsb_put_le64(s + 16, off);
	fsb_put_le32(s + 24, pass);
	for (unsigned i = 28; i < SEC - 4; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		fsb_put_le64(s + i, x);
	}
	fsb_put_le32(s + SEC - 4, fsb_crc32c(0, s, SEC - 4));
}

static void sign_range(uint8_t *buf, size_t len, uint64_t off, uint64_t run_id, uint32_t pass)
{
	for (size_t i = 0; i < len; i += SEC)
		sign(buf + i, run_id, off + i, pass);
}

/* What the block read at off holds, against the signatures of pass: the
 * first sector that is not right (*at), and for an alias the offset its
 * signature names (*named). */
static enum fsb_cap_found classify(const uint8_t *buf, uint64_t off, uint64_t run_id,
				   uint32_t pass, uint64_t *at, uint64_t *named)
{
	for (unsigned i = 0; i < B; i += SEC) {
		const uint8_t *s = buf + i;
		unsigned z = 0;
		*at = off + i;
		while (z < SEC && !s[z])
			z++;
		if (z == SEC)
			return FSB_CAP_ZEROS;
		if (memcmp(s, magic, 8) || fsb_get_le32(s + SEC - 4) != fsb_crc32c(0, s, SEC - 4) ||
		    fsb_get_le64(s + 8) != run_id)
			return FSB_CAP_GARBAGE;
		if ((*named = fsb_get_le64(s + 16)) != off + i)
			return FSB_CAP_ALIAS;
		if (fsb_get_le32(s + 24) != pass)
			return FSB_CAP_STALE;
	}
	return FSB_CAP_OK;
}

struct cap {
	const struct fsb_cap_io *io;
	struct fsb_cap_result *res;
	uint64_t run_id;
	uint8_t *buf;			/* FSB_CAP_CHUNK bytes, aligned */
	/* the lowest alias pair seen */
	int alias;
	uint64_t a_hi, a_lo;
	/* the run of bad blocks (not aliases) the spread pass's reads are in:
	 * where it began, what its first held, how many */
	int in_run, err;
	uint64_t run_at, nrun, nbad;
	enum fsb_cap_found found;
};

/* Every call checks its range: the check never reaches outside the device. */
static int cap_write(struct cap *k, const void *buf, size_t len, uint64_t off)
{
	if (off > k->io->size || len > k->io->size - off)
		return -EINVAL;
	k->res->ios++;
	return k->io->pwrite(k->io->h, buf, len, off);
}

static int cap_read(struct cap *k, void *buf, size_t len, uint64_t off)
{
	if (off > k->io->size || len > k->io->size - off)
		return -EINVAL;
	k->res->ios++;
	return k->io->pread(k->io->h, buf, len, off);
}

static int cap_flush(struct cap *k)
{
	k->res->ios++;
	return k->io->flush(k->io->h);
}

/* A block of the spread pass read back (in increasing order) as f. An
 * alias is the proof of a wrap; any other bad block starts or extends a
 * run of them, a good one ends it: only the run that reaches the end
 * tells the real size, a bad block with good ones after it is a media
 * error or a lost write (bad_blocks). */
static void seen(struct cap *k, enum fsb_cap_found f, uint64_t at, uint64_t named, int err)
{
	if (f == FSB_CAP_ALIAS) {
		uint64_t hi = at > named ? at : named, lo = at > named ? named : at;
		if (!k->alias || hi < k->a_hi) {
			k->alias = 1;
			k->a_hi = hi;
			k->a_lo = lo;
		}
		return;
	}
	if (f == FSB_CAP_OK) {
		k->in_run = 0;
		return;
	}
	k->nbad++;
	if (!k->in_run) {
		k->in_run = 1;
		k->run_at = at;
		k->nrun = 0;
		k->found = f;
		k->err = err;
	}
	k->nrun++;
}

/* Read len bytes at off (blocks of the spread pass) and note each block. */
static int check_read(struct cap *k, size_t len, uint64_t off)
{
	int e = cap_read(k, k->buf, len, off);

	if (e && len > B) {	/* which blocks: one by one */
		for (size_t i = 0; i < len; i += B)
			if ((e = check_read(k, B, off + i)))
				return e;
		return 0;
	}
	if (e) {
		if (!off)
			return e;	/* the first block: the I/O is broken */
		seen(k, FSB_CAP_EIO, off, 0, -e);
		return 0;
	}
	k->res->read += len / B;
	for (size_t i = 0; i < len; i += B) {
		uint64_t at, named = 0;
		enum fsb_cap_found f = classify(k->buf + i, off + i, k->run_id, 0, &at, &named);
		seen(k, f, at, named, 0);
	}
	return 0;
}

/* A write that fails is only counted: the read of the block tells. */
static int spread_write(struct cap *k, size_t len, uint64_t off)
{
	sign_range(k->buf, len, off, k->run_id, 0);
	int e = cap_write(k, k->buf, len, off);
	if (e && !off)
		return e;
	if (!e)
		k->res->written += len / B;
	return 0;
}

void fsb_cap_plan(uint64_t size, uint64_t *stride, uint64_t *ios)
{
	uint64_t c = size / B * B, s = FSB_CAP_MIN_STRIDE;

	while (s < c / FSB_CAP_GRID + (c % FSB_CAP_GRID != 0))
		s <<= 1;
	uint64_t dense = s < c ? s : c;
	uint64_t n = (dense + FSB_CAP_CHUNK - 1) / FSB_CAP_CHUNK;
	if (s < c)
		n += (c - 1) / s;
	if (c >= B && c - B >= dense && (c - B) % s)
		n++;
	*stride = s;
	*ios = 2 * n + 1;
}

/* The spread pass: the last block, the grid and the dense region written
 * from the end down, so that of the offsets that land on one block the
 * lowest writes it last; a flush; everything read back from the start up.
 * A wrap at R then shows at the first grid block past R: it reads back
 * the signature of the dense block it lands on. */
static int spread(struct cap *k, uint64_t c, uint64_t s)
{
	uint64_t dense = s < c ? s : c, last = c - B;
	int e;

	if (last >= dense && last % s && (e = spread_write(k, B, last)))
		return e;
	for (uint64_t off = (c - 1) / s * s; off >= s && off >= dense; off -= s)
		if ((e = spread_write(k, B, off)))
			return e;
	for (uint64_t end = dense; end > 0;) {
		uint64_t off = end > FSB_CAP_CHUNK ? (end - 1) / FSB_CAP_CHUNK * FSB_CAP_CHUNK : 0;
		if ((e = spread_write(k, (size_t)(end - off), off)))
			return e;
		end = off;
	}
	if ((e = cap_flush(k)))
		return e;
	for (uint64_t off = 0; off < dense; off += FSB_CAP_CHUNK) {
		size_t len = dense - off < FSB_CAP_CHUNK ? (size_t)(dense - off) : FSB_CAP_CHUNK;
		if ((e = check_read(k, len, off)))
			return e;
	}
	for (uint64_t off = s; off < c; off += s)
		if ((e = check_read(k, B, off)))
			return e;
	if (last >= dense && last % s && (e = check_read(k, B, last)))
		return e;
	return 0;
}

/* Is the block at p bad? Fresh signatures of pass at p and, with a wrap
 * of r (0: none), first at p - r; a flush; both read back. 1 bad, 0 good,
 * -errno when the flush fails. */
static int probe(struct cap *k, uint64_t p, uint32_t pass, uint64_t r)
{
	uint8_t *a = k->buf, *b = k->buf + B;
	uint64_t at, named;
	int low = r && p >= r, e;

	if (low) {
		sign_range(b, B, p - r, k->run_id, pass);
		if (cap_write(k, b, B, p - r))
			return 1;
		k->res->written++;
	}
	sign_range(a, B, p, k->run_id, pass);
	if (cap_write(k, a, B, p))
		return 1;
	k->res->written++;
	if ((e = cap_flush(k)))
		return e;
	if (cap_read(k, a, B, p))
		return 1;
	k->res->read++;
	if (classify(a, p, k->run_id, pass, &at, &named) != FSB_CAP_OK)
		return 1;
	if (low) {
		if (cap_read(k, b, B, p - r))
			return 1;
		k->res->read++;
		if (classify(b, p - r, k->run_id, pass, &at, &named) != FSB_CAP_OK)
			return 1;
	}
	return 0;
}

int fsb_cap_check(const struct fsb_cap_io *io, uint64_t run_id, struct fsb_cap_result *res)
{
	struct cap k;
	uint64_t c = io->size / B * B, s, ios;
	double t0 = fsb_now();
	void *mem;
	int e;

	memset(res, 0, sizeof(*res));
	res->claimed = io->size;
	if (c < B)
		return -EINVAL;
	fsb_cap_plan(io->size, &s, &ios);
	res->stride = s;
	if (posix_memalign(&mem, B, FSB_CAP_CHUNK))
		return -ENOMEM;
	memset(&k, 0, sizeof(k));
	k.io = io;
	k.res = res;
	k.run_id = run_id;
	k.buf = mem;
	if ((e = spread(&k, c, s)))
		goto out;

	res->bad_blocks = k.nbad - (k.in_run ? k.nrun : 0);
	uint64_t fa = k.alias ? k.a_hi : UINT64_MAX, fb = k.in_run ? k.run_at : UINT64_MAX;
	if (fb < fa) {
		/* a run of bad blocks to the end: its first, written and read
		 * again, must still fail (a read error that a write mends, a
		 * block that failed once, is a bad block) */
		int bad = probe(&k, fb / B * B, UINT32_MAX, 0);
		if (bad < 0) {
			e = bad;
			goto out;
		}
		if (!bad) {
			res->bad_blocks += k.nrun;
			fb = UINT64_MAX;
		}
	}
	if (fa == UINT64_MAX && fb == UINT64_MAX) {
		res->honest = 1;
		res->verified = io->size;
		goto out;
	}
	int alias = fa <= fb;
	uint64_t r = alias ? k.a_hi - k.a_lo : 0;
	uint64_t dense = s < c ? s : c;
	uint64_t hi = (alias ? fa : fb) / B * B, lo;
	res->found = alias ? FSB_CAP_ALIAS : k.found;
	res->err = alias ? 0 : k.err;
	if (hi) {
		/* the sample before hi: in the dense region the block before,
		 * else the grid point before (or the dense region's last block) */
		if (hi < dense)
			lo = hi - B;
		else {
			lo = hi % s ? hi / s * s : hi - s;
			if (lo < dense)
				lo = dense - B;
		}
		for (uint32_t pass = 1; hi - lo > B; pass++) {
			uint64_t mid = lo + ((hi - lo) / 2 / B * B);
			int bad = probe(&k, mid, pass, r);
			if (bad < 0) {
				e = bad;
				goto out;
			}
			if (bad)
				hi = mid;
			else
				lo = mid;
			res->steps++;
		}
	}
	res->verified = res->first_bad = hi;
	if (alias) {
		/* a wrap at r that is not a whole block: r is in the first
		 * bad block (found by its sectors past r), or the block holding
		 * r read back its own sectors in a probe (they land on the
		 * start, which holds them): either way the real size is r */
		if (r < hi + B)
			res->verified = res->first_bad = r;
		res->have_alias = 1;
		res->alias_offset = hi >= r ? hi : k.a_hi;
		res->alias_of = res->alias_offset - r;
	}
out:
	res->seconds = fsb_now() - t0;
	free(mem);
	return e;
}

const char *fsb_cap_found_name(enum fsb_cap_found f)
{
	static const char *const names[] = {
		[FSB_CAP_OK] = "ok", [FSB_CAP_ALIAS] = "alias", [FSB_CAP_ZEROS] = "zeros",
		[FSB_CAP_STALE] = "stale", [FSB_CAP_GARBAGE] = "garbage", [FSB_CAP_EIO] = "error",
	};
	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

/* ---- a block device ---- */

static int dev_fd(void *h)
{
	return (int)(intptr_t)h;
}

static int dev_pread(void *h, void *buf, size_t len, uint64_t off)
{
	return fsb_pio_all(dev_fd(h), buf, len, off, 0);
}

static int dev_pwrite(void *h, const void *buf, size_t len, uint64_t off)
{
	return fsb_pio_all(dev_fd(h), (void *)buf, len, off, 1);
}

/* fsync flushes the device's write cache; BLKFLSBUF drops the host's
 * buffer cache of the device (O_DIRECT reads do not use it, a belt to the
 * braces). */
static int dev_flush(void *h)
{
	if (fsync(dev_fd(h)) < 0)
		return -errno;
	if (ioctl(dev_fd(h), BLKFLSBUF, 0) < 0 && errno != ENOTTY && errno != EINVAL)
		return -errno;
	return 0;
}

int fsb_cap_open(const char *path, struct fsb_cap_io *io)
{
	uint64_t size;
	int fd = open(path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	memset(io, 0, sizeof(*io));
	io->h = (void *)(intptr_t)fd;
	io->size = size;
	io->pread = dev_pread;
	io->pwrite = dev_pwrite;
	io->flush = dev_flush;
	return 0;
}

void fsb_cap_close(struct fsb_cap_io *io)
{
	if (io->pread == dev_pread)
		close(dev_fd(io->h));
	memset(io, 0, sizeof(*io));
}

void fsb_cap_json(struct fsb_rec *r, const char *device, const struct fsb_cap_result *res)
{
	char why[96];

	rec_str(r, K(device), device);
	rec_u64(r, K(claimed_bytes), res->claimed);
	rec_u64(r, K(verified_bytes), res->verified);
	rec_bool(r, K(honest), res->honest);
	if (!res->honest) {
		rec_u64(r, K(first_bad), res->first_bad);
		if (res->found == FSB_CAP_EIO)
			snprintf(why, sizeof(why), "error: %s", strerror(res->err));
		rec_str(r, K(found), res->found == FSB_CAP_EIO ? why : fsb_cap_found_name(res->found));
	}
	if (res->have_alias) {
		rec_u64(r, K(alias_offset), res->alias_offset);
		rec_u64(r, K(alias_of), res->alias_of);
	}
	rec_u64(r, K(bad_blocks), res->bad_blocks);
	rec_u64(r, K(stride_bytes), res->stride);
	rec_u64(r, K(signatures_written), res->written);
	rec_u64(r, K(signatures_read), res->read);
	rec_u64(r, K(ios), res->ios);
	rec_u64(r, K(steps), res->steps);
	rec_dbl(r, K(seconds), res->seconds);
}

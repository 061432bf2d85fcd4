/* log.c: the crash-safe results log: writer (open, append, stat, close) and
 * reader (a log file, a raw partition, or the log partition of a whole GPT
 * disk image). The record layout is in log.h and runner/FORMATS.md "Log format". */
#include "log/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>	/* BLKGETSIZE64 */
#include <sys/stat.h>
#include <unistd.h>

/* Header field offsets (see log.h). */
#define H_MAGIC 0
#define H_VERSION 8
#define H_HDRLEN 12
#define H_RUN 16
#define H_SEQ 24
#define H_LEN 32
#define H_BLOCKS 36
#define H_CRC 40
#define H_FLAGS 44

/* Largest record, in blocks, and the I/O buffer: one record plus the zero
 * block written after it. */
#define MAX_BLOCKS ((FSB_LOG_HDR + FSB_LOG_MAX_PAYLOAD + FSB_LOG_BLOCK - 1) / FSB_LOG_BLOCK)
#define BUF_SIZE ((size_t)(MAX_BLOCKS + 1) * FSB_LOG_BLOCK)

/* GPT (UEFI spec, "GUID Partition Table Disk Layout"). */
#define GPT_SIG "EFI PART"
#define GPT_HDR_MIN 92
#define GPT_ENTRY_MIN 128
#define GPT_NAME_CHARS 36
#define GPT_MAX_ENTRIES 16384


static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static uint32_t rec_blocks(size_t len)
{
	return (uint32_t)((FSB_LOG_HDR + len + FSB_LOG_BLOCK - 1) / FSB_LOG_BLOCK);
}

/* CRC of a record: header with the crc field as zero, then the payload. */
static uint32_t rec_crc(const unsigned char *hdr, const unsigned char *payload, size_t len)
{
	static const unsigned char zero[4];
	uint32_t c;

	c = fsb_crc32c(0, hdr, H_CRC);
	c = fsb_crc32c(c, zero, 4);
	c = fsb_crc32c(c, hdr + H_CRC + 4, FSB_LOG_HDR - H_CRC - 4);
	return fsb_crc32c(c, payload, len);
}

const char *fsb_log_end_name(enum fsb_log_end e)
{
	switch (e) {
	case LOG_END_CLEAN: return "clean end";
	case LOG_END_BAD_MAGIC: return "bad magic";
	case LOG_END_BAD_CRC: return "bad CRC";
	case LOG_END_TORN: return "torn record";
	case LOG_END_BAD_HEADER: return "bad header";
	}
	return "unknown";
}

/* ---- the set of run ids seen (open addressing, grows at half full) ---- */

struct runset {
	uint64_t *key;
	unsigned char *used;
	size_t cap, n;
	uint64_t last;	/* fast path: runs come one after another */
	int has_last;
};

static size_t run_hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

static int runset_add(struct runset *s, uint64_t k)
{
	size_t i;

	if (s->has_last && s->last == k)
		return 0;
	if ((s->n + 1) * 2 > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		uint64_t *nkey = calloc(ncap, sizeof(*nkey));
		unsigned char *nused = calloc(ncap, 1);

		if (!nkey || !nused) {
			free(nkey);
			free(nused);
			return -ENOMEM;
		}
		for (i = 0; i < s->cap; i++) {
			if (!s->used[i])
				continue;
			size_t j = run_hash(s->key[i], ncap);
			while (nused[j])
				j = (j + 1) & (ncap - 1);
			nused[j] = 1;
			nkey[j] = s->key[i];
		}
		free(s->key);
		free(s->used);
		s->key = nkey;
		s->used = nused;
		s->cap = ncap;
	}
	for (i = run_hash(k, s->cap); s->used[i]; i = (i + 1) & (s->cap - 1))
		if (s->key[i] == k)
			goto found;
	s->used[i] = 1;
	s->key[i] = k;
	s->n++;
found:
	s->last = k;
	s->has_last = 1;
	return 0;
}

static void runset_free(struct runset *s)
{
	free(s->key);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

/* ---- I/O ---- */

/* Read or write all of len bytes at off. With O_DIRECT a file system may
 * still refuse the transfer (EINVAL): then O_DIRECT is dropped and the call
 * retried (O_DSYNC stays). Reads return fewer bytes only at the end of the
 * file. Returns bytes transferred or -errno. */
static ssize_t io_full(int fd, int *direct, int wr, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? pwrite(fd, p + done, len - done, (off_t)(off + done))
			       : pread(fd, p + done, len - done, (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EINVAL && direct && *direct) {
				int fl = fcntl(fd, F_GETFL);
				if (fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_DIRECT) == 0) {
					*direct = 0;
					continue;
				}
				errno = EINVAL;
			}
			return -errno;
		}
		if (n == 0) {
			if (wr)
				return -EIO;
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* Size of what fd holds: a block device's size or a regular file's length. */
static int fd_size(int fd, const struct stat *sb, uint64_t *size)
{
	if (S_ISBLK(sb->st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, size) < 0)
			return -errno;
		return 0;
	}
	if (S_ISREG(sb->st_mode)) {
		*size = (uint64_t)sb->st_size;
		return 0;
	}
	return -EINVAL;
}

/* ---- the scanner shared by reader and writer ---- */

struct scan {
	int fd;
	int *direct;		/* writer: O_DIRECT flag to drop on EINVAL */
	uint64_t base;		/* byte offset of the log in the file */
	uint64_t limit;		/* bytes of the log region */
	unsigned char *buf;	/* BUF_SIZE bytes (aligned for O_DIRECT) */
	struct runset *runs;
	int (*cb)(void *arg, const struct fsb_log_rec *r);
	void *arg;
};

/* Walk records from offset 0 until a block does not check out. Fills
 * records, end_offset, end and detail of st; returns 0 or -errno. */
static int scan_log(struct scan *s, struct fsb_log_stats *st)
{
	uint64_t off = 0;
	unsigned char *b = s->buf;

	st->records = 0;
	for (;;) {
		uint64_t left = s->limit - off;
		size_t want = left < FSB_LOG_BLOCK ? (size_t)left : FSB_LOG_BLOCK;
		ssize_t n;

		st->end_offset = off;
		if (want == 0) {
			st->end = LOG_END_CLEAN;
			snprintf(st->detail, sizeof(st->detail), "end of the log space");
			return 0;
		}
		n = io_full(s->fd, s->direct, 0, b, want, s->base + off);
		if (n < 0)
			return (int)n;
		if (all_zero(b, (size_t)n)) {
			st->end = LOG_END_CLEAN;
			snprintf(st->detail, sizeof(st->detail), n < FSB_LOG_BLOCK ?
				 "end of the log space" : "empty block");
			return 0;
		}
		if ((size_t)n < sizeof(FSB_LOG_MAGIC) - 1 ||
		    memcmp(b + H_MAGIC, FSB_LOG_MAGIC, sizeof(FSB_LOG_MAGIC) - 1) != 0) {
			st->end = LOG_END_BAD_MAGIC;
			snprintf(st->detail, sizeof(st->detail), "block holds no record header");
			return 0;
		}
		if ((size_t)n < FSB_LOG_BLOCK) {
			st->end = LOG_END_TORN;
			snprintf(st->detail, sizeof(st->detail),
				 "record cut short: only %zd bytes of its first block", n);
			return 0;
		}

		uint32_t ver = fsb_get_le32(b + H_VERSION), hlen = fsb_get_le32(b + H_HDRLEN);
		uint32_t len = fsb_get_le32(b + H_LEN), blocks = fsb_get_le32(b + H_BLOCKS);
		if (ver != FSB_LOG_VERSION || hlen != FSB_LOG_HDR) {
			st->end = LOG_END_BAD_HEADER;
			snprintf(st->detail, sizeof(st->detail),
				 "format version %u, header length %u (expected %u, %u)",
				 ver, hlen, FSB_LOG_VERSION, FSB_LOG_HDR);
			return 0;
		}
		if (len > FSB_LOG_MAX_PAYLOAD || blocks != rec_blocks(len)) {
			st->end = LOG_END_BAD_HEADER;
			snprintf(st->detail, sizeof(st->detail),
				 "payload length %u in %u blocks", len, blocks);
			return 0;
		}
		uint64_t size = (uint64_t)blocks * FSB_LOG_BLOCK;
		if (size > left) {
			st->end = LOG_END_TORN;
			snprintf(st->detail, sizeof(st->detail),
				 "record of %u blocks runs past the end of the log space",
				 blocks);
			return 0;
		}
		if (blocks > 1) {
			n = io_full(s->fd, s->direct, 0, b + FSB_LOG_BLOCK,
				    (size_t)(size - FSB_LOG_BLOCK), s->base + off + FSB_LOG_BLOCK);
			if (n < 0)
				return (int)n;
			if ((uint64_t)n < size - FSB_LOG_BLOCK) {
				st->end = LOG_END_TORN;
				snprintf(st->detail, sizeof(st->detail),
					 "record of %u blocks cut short", blocks);
				return 0;
			}
		}
		uint32_t want_crc = fsb_get_le32(b + H_CRC);
		uint32_t got_crc = rec_crc(b, b + FSB_LOG_HDR, len);
		if (want_crc != got_crc) {
			st->end = LOG_END_BAD_CRC;
			snprintf(st->detail, sizeof(st->detail),
				 "stored CRC32C %08x, computed %08x", want_crc, got_crc);
			return 0;
		}

		struct fsb_log_rec r = {
			.run_id = fsb_get_le64(b + H_RUN),
			.seq = fsb_get_le64(b + H_SEQ),
			.offset = off,
			.data = (const char *)b + FSB_LOG_HDR,
			.len = len,
		};
		int err = runset_add(s->runs, r.run_id);
		if (err)
			return err;
		st->records++;
		st->runs = s->runs->n;
		off += size;
		if (s->cb) {
			/* NUL-terminate for the callback: the byte after the
			 * payload is padding, or the spare block of the buffer. */
			b[FSB_LOG_HDR + len] = 0;
			if (s->cb(s->arg, &r)) {
				st->end_offset = off;
				st->end = LOG_END_CLEAN;
				snprintf(st->detail, sizeof(st->detail), "stopped by the reader");
				return 0;
			}
		}
	}
}

/* ---- GPT lookup ---- */

__attribute__((format(printf, 3, 4)))
static int gpt_fail(struct fsb_log_stats *st, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->detail, sizeof(st->detail), fmt, ap);
	va_end(ap);
	return err;
}

/* Does the UTF-16LE name of a GPT entry equal the ASCII string want? */
static int gpt_name_is(const unsigned char *name, const char *want)
{
	size_t i, n = strlen(want);

	for (i = 0; i < GPT_NAME_CHARS; i++) {
		unsigned c = name[2 * i] | (unsigned)name[2 * i + 1] << 8;
		if (i == n)
			return c == 0;
		if (c != (unsigned char)want[i])
			return 0;
	}
	return i == n;
}

/* If the file holds a GPT header at LBA 1 (512- or 4096-byte sectors), find
 * the partition named FSB_LOG_PARTLABEL and set *base and *limit to its byte
 * range. Returns 1 when found, 0 when there is no GPT, -errno on a GPT
 * without the partition (-ENOENT) or a malformed one (-EBADMSG). */
static int gpt_find_log(int fd, uint64_t size, uint64_t *base, uint64_t *limit,
			struct fsb_log_stats *st)
{
	static const unsigned ssizes[] = { 512, 4096 };
	unsigned char hdr[4096], ent[GPT_ENTRY_MIN];
	unsigned ss = 0;
	ssize_t n;

	for (size_t i = 0; i < sizeof(ssizes) / sizeof(ssizes[0]); i++) {
		n = io_full(fd, NULL, 0, hdr, ssizes[i], ssizes[i]);
		if (n < 0)
			return (int)n;
		if ((size_t)n >= GPT_HDR_MIN && memcmp(hdr, GPT_SIG, 8) == 0) {
			ss = ssizes[i];
			break;
		}
	}
	if (!ss)
		return 0;

	uint32_t hsize = fsb_get_le32(hdr + 12);
	uint64_t ent_lba = fsb_get_le64(hdr + 72);
	uint32_t count = fsb_get_le32(hdr + 80), esize = fsb_get_le32(hdr + 84);
	uint64_t nsect = size / ss;

	if (hsize < GPT_HDR_MIN || hsize > ss)
		return gpt_fail(st, -EBADMSG, "GPT header size %u out of range (sector %u)",
				hsize, ss);
	if (esize < GPT_ENTRY_MIN || esize > 4096 || esize % 8)
		return gpt_fail(st, -EBADMSG, "GPT partition entry size %u invalid", esize);
	if (count == 0 || count > GPT_MAX_ENTRIES)
		return gpt_fail(st, -EBADMSG, "GPT partition entry count %u invalid", count);
	if (ent_lba < 2 || ent_lba >= nsect ||
	    (uint64_t)count * esize > (nsect - ent_lba) * ss)
		return gpt_fail(st, -EBADMSG,
				"GPT partition entries (LBA %llu, %u entries) past the end of the image",
				(unsigned long long)ent_lba, count);

	int found = 0;
	for (uint32_t i = 0; i < count; i++) {
		n = io_full(fd, NULL, 0, ent, sizeof(ent), ent_lba * ss + (uint64_t)i * esize);
		if (n < 0)
			return (int)n;
		if ((size_t)n < sizeof(ent))
			return gpt_fail(st, -EBADMSG, "GPT partition entry %u cut short", i);
		if (all_zero(ent, 16) || !gpt_name_is(ent + 56, FSB_LOG_PARTLABEL))
			continue;
		uint64_t first = fsb_get_le64(ent + 32), last = fsb_get_le64(ent + 40);
		if (found)
			return gpt_fail(st, -EBADMSG,
					"GPT has two partitions named " FSB_LOG_PARTLABEL
					" (entries %d and %u)", found - 1, i);
		if (first < 1 || first > last || last >= nsect)
			return gpt_fail(st, -EBADMSG,
					"GPT partition " FSB_LOG_PARTLABEL
					" (LBA %llu to %llu) lies outside the image",
					(unsigned long long)first, (unsigned long long)last);
		*base = first * ss;
		*limit = (last - first + 1) * ss;
		found = (int)i + 1;
	}
	if (!found)
		return gpt_fail(st, -ENOENT, "GPT has no partition named %s", FSB_LOG_PARTLABEL);
	return 1;
}

/* ---- reader ---- */

int fsb_log_read(const char *path,
		 int (*cb)(void *arg, const struct fsb_log_rec *r), void *arg,
		 struct fsb_log_stats *st)
{
	struct runset runs = { 0 };
	struct stat sb;
	uint64_t size, base = 0, limit;
	unsigned char first[8];
	int fd, err;

	memset(st, 0, sizeof(*st));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0) {
		err = -errno;
		goto out;
	}
	err = fd_size(fd, &sb, &size);
	if (err) {
		if (err == -EINVAL)
			snprintf(st->detail, sizeof(st->detail),
				 "neither a regular file nor a block device");
		goto out;
	}
	limit = size;

	/* A log starts with a record header; otherwise look for a GPT. */
	ssize_t n = io_full(fd, NULL, 0, first, sizeof(first), 0);
	if (n < 0) {
		err = (int)n;
		goto out;
	}
	if ((size_t)n < sizeof(first) || memcmp(first, FSB_LOG_MAGIC, 8) != 0) {
		err = gpt_find_log(fd, size, &base, &limit, st);
		if (err < 0)
			goto out;
	}
	st->data_offset = base;
	st->capacity = limit;

	struct scan s = {
		.fd = fd, .base = base, .limit = limit, .runs = &runs, .cb = cb, .arg = arg,
	};
	s.buf = malloc(BUF_SIZE);
	if (!s.buf) {
		err = -ENOMEM;
		goto out;
	}
	err = scan_log(&s, st);
	free(s.buf);
out:
	runset_free(&runs);
	close(fd);
	return err < 0 ? err : 0;
}

/* ---- writer ---- */

struct fsb_log {
	int fd;
	int direct;		/* O_DIRECT still on */
	uint64_t run_id;
	int limited;		/* capacity applies (device, or max_bytes given) */
	uint64_t capacity;	/* usable bytes, whole blocks */
	uint64_t pos;		/* where the next record goes */
	unsigned char *buf;	/* BUF_SIZE, block aligned */
	struct runset runs;
	struct fsb_log_stats st;
};

void fsb_log_close(struct fsb_log *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	runset_free(&l->runs);
	free(l);
}

/* A whole GPT disk: no record at offset 0 and LBA 1 (512- or 4096-byte
 * sectors) holds a GPT header. Writing there would destroy the partition
 * table. */
static int looks_like_gpt_disk(struct fsb_log *l)
{
	unsigned char *b = l->buf;
	ssize_t n = io_full(l->fd, &l->direct, 0, b, 2 * FSB_LOG_BLOCK, 0);

	if (n < 0)
		return (int)n;
	if (n >= 520 && memcmp(b + 512, GPT_SIG, 8) == 0)
		return 1;
	if (n >= 4104 && memcmp(b + 4096, GPT_SIG, 8) == 0)
		return 1;
	return 0;
}

int fsb_log_open(struct fsb_log **out, const char *path, uint64_t run_id,
		 uint64_t max_bytes)
{
	struct fsb_log *l;
	struct stat sb;
	uint64_t size;
	void *buf = NULL;
	int err;

	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->fd = -1;
	l->run_id = run_id;

	l->direct = 1;
	l->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_DSYNC | O_DIRECT, 0644);
	if (l->fd < 0 && errno == EINVAL) {
		l->direct = 0;
		l->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_DSYNC, 0644);
	}
	if (l->fd < 0) {
		err = -errno;
		goto fail;
	}
	if (flock(l->fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		err = -EBUSY;
		goto fail;
	}
	if (fstat(l->fd, &sb) < 0) {
		err = -errno;
		goto fail;
	}
	err = fd_size(l->fd, &sb, &size);
	if (err)
		goto fail;
	l->limited = S_ISBLK(sb.st_mode) || max_bytes;
	l->capacity = S_ISBLK(sb.st_mode) ? size : max_bytes;
	l->capacity -= l->capacity % FSB_LOG_BLOCK;

	err = posix_memalign(&buf, FSB_LOG_BLOCK, BUF_SIZE);
	if (err) {
		err = -err;
		goto fail;
	}
	l->buf = buf;

	struct scan s = {
		.fd = l->fd, .direct = &l->direct, .base = 0, .buf = l->buf,
		.limit = (l->limited && size > l->capacity) ? l->capacity : size,
		.runs = &l->runs,
	};
	err = scan_log(&s, &l->st);
	if (err)
		goto fail;
	if (l->st.records == 0) {
		err = looks_like_gpt_disk(l);
		if (err < 0)
			goto fail;
		if (err) {
			err = -EMEDIUMTYPE;
			goto fail;
		}
	}
	l->pos = l->st.end_offset;
	l->st.capacity = l->capacity;
	l->st.data_offset = 0;
	*out = l;
	return 0;
fail:
	fsb_log_close(l);
	return err;
}

int fsb_log_append(struct fsb_log *l, uint64_t seq, const char *data, size_t len)
{
	unsigned char *b = l->buf;
	uint64_t size, total;
	ssize_t n;

	if (len && data[len - 1] == '\n')
		len--;
	if (len > FSB_LOG_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (memchr(data, '\n', len))
		return -EINVAL;

	size = (uint64_t)rec_blocks(len) * FSB_LOG_BLOCK;
	if (l->limited && (l->pos > l->capacity || size > l->capacity - l->pos))
		return -ENOSPC;
	total = size;
	if (!l->limited || l->capacity - l->pos - size >= FSB_LOG_BLOCK)
		total += FSB_LOG_BLOCK;	/* the zero block that ends the log */

	memset(b, 0, (size_t)total);
	memcpy(b + H_MAGIC, FSB_LOG_MAGIC, 8);
	fsb_put_le32(b + H_VERSION, FSB_LOG_VERSION);
	fsb_put_le32(b + H_HDRLEN, FSB_LOG_HDR);
	fsb_put_le64(b + H_RUN, l->run_id);
	fsb_put_le64(b + H_SEQ, seq);
	fsb_put_le32(b + H_LEN, (uint32_t)len);
	fsb_put_le32(b + H_BLOCKS, rec_blocks(len));
	fsb_put_le32(b + H_FLAGS, 0);
	memcpy(b + FSB_LOG_HDR, data, len);
	fsb_put_le32(b + H_CRC, rec_crc(b, b + FSB_LOG_HDR, len));

	n = io_full(l->fd, &l->direct, 1, b, (size_t)total, l->pos);
	if (n < 0)
		return (int)n;
	l->pos += size;
	l->st.records++;
	/* The record is on disk: a failure to grow the run set only leaves
	 * the run count short, which is no reason to report a lost record. */
	(void)runset_add(&l->runs, l->run_id);
	l->st.runs = l->runs.n;
	l->st.end_offset = l->pos;
	l->st.end = LOG_END_CLEAN;
	snprintf(l->st.detail, sizeof(l->st.detail), "after the last record written");
	return 0;
}

void fsb_log_stat(const struct fsb_log *l, struct fsb_log_stats *st)
{
	*st = l->st;
}

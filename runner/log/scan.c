/* scan.c: the record scanner that the reader and the writer share, the
 * record header's CRC, and whole-transfer I/O. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>	/* BLKGETSIZE64 */
#include <unistd.h>

#include "log/scan.h"

int log_all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

uint32_t log_rec_blocks(size_t len)
{
	return (uint32_t)((FSB_LOG_HDR + len + FSB_LOG_BLOCK - 1) / FSB_LOG_BLOCK);
}

/* CRC of a record: header with the crc field as zero, then the payload. */
uint32_t log_rec_crc(const unsigned char *hdr, const unsigned char *payload, size_t len)
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

static size_t run_hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

int log_runset_add(struct runset *s, uint64_t k)
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

void log_runset_free(struct runset *s)
{
	free(s->key);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

/* Read or write all of len bytes at off. With O_DIRECT a file system may
 * still refuse the transfer (EINVAL): then O_DIRECT is dropped and the call
 * retried (O_DSYNC stays). Reads return fewer bytes only at the end of the
 * file. Returns bytes transferred or -errno. */
ssize_t log_io_full(int fd, int *direct, int wr, void *buf, size_t len, uint64_t off)
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
int log_fd_size(int fd, const struct stat *sb, uint64_t *size)
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

/* Walk records from offset 0 until a block does not check out. Fills
 * records, end_offset, end and detail of st; returns 0 or -errno. */
int log_scan(struct scan *s, struct fsb_log_stats *st)
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
		n = log_io_full(s->fd, s->direct, 0, b, want, s->base + off);
		if (n < 0)
			return (int)n;
		if (log_all_zero(b, (size_t)n)) {
			st->end = LOG_END_CLEAN;
			snprintf(st->detail, sizeof(st->detail), (size_t)n < FSB_LOG_BLOCK ?
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
		if (len > FSB_LOG_MAX_PAYLOAD || blocks != log_rec_blocks(len)) {
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
			n = log_io_full(s->fd, s->direct, 0, b + FSB_LOG_BLOCK,
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
		uint32_t got_crc = log_rec_crc(b, b + FSB_LOG_HDR, len);
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
		int err = log_runset_add(s->runs, r.run_id);
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


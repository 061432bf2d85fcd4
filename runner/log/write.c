/* write.c: the writer: open (scan and append after the last good record),
 * append one record with O_DIRECT|O_DSYNC, stat, close. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "log/scan.h"

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
	log_runset_free(&l->runs);
	free(l);
}

/* A whole GPT disk: no record at offset 0 and LBA 1 (512- or 4096-byte
 * sectors) holds a GPT header. Writing there would destroy the partition
 * table. */
static int looks_like_gpt_disk(struct fsb_log *l)
{
	unsigned char *b = l->buf;
	ssize_t n = log_io_full(l->fd, &l->direct, 0, b, 2 * FSB_LOG_BLOCK, 0);

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
	err = log_fd_size(l->fd, &sb, &size);
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
	err = log_scan(&s, &l->st);
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

	size = (uint64_t)log_rec_blocks(len) * FSB_LOG_BLOCK;
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
	fsb_put_le32(b + H_BLOCKS, log_rec_blocks(len));
	fsb_put_le32(b + H_FLAGS, 0);
	memcpy(b + FSB_LOG_HDR, data, len);
	fsb_put_le32(b + H_CRC, log_rec_crc(b, b + FSB_LOG_HDR, len));

	n = log_io_full(l->fd, &l->direct, 1, b, (size_t)total, l->pos);
	if (n < 0)
		return (int)n;
	l->pos += size;
	l->st.records++;
	/* The record is on disk: a failure to grow the run set only leaves
	 * the run count short, which is no reason to report a lost record. */
	(void)log_runset_add(&l->runs, l->run_id);
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

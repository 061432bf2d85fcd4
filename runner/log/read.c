/* read.c: reading a log back: a log file, a raw partition, or the log
 * partition of a whole GPT disk image. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log/scan.h"

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
	err = log_fd_size(fd, &sb, &size);
	if (err) {
		if (err == -EINVAL)
			snprintf(st->detail, sizeof(st->detail),
				 "neither a regular file nor a block device");
		goto out;
	}
	limit = size;

	/* A log starts with a record header; otherwise look for a GPT. */
	ssize_t n = log_io_full(fd, NULL, 0, first, sizeof(first), 0);
	if (n < 0) {
		err = (int)n;
		goto out;
	}
	if ((size_t)n < sizeof(first) || memcmp(first, FSB_LOG_MAGIC, 8) != 0) {
		err = log_gpt_find(fd, size, &base, &limit, st);
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
	err = log_scan(&s, st);
	free(s.buf);
out:
	log_runset_free(&runs);
	close(fd);
	return err < 0 ? err : 0;
}


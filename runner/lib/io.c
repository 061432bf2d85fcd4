/* io.c: writing or reading a whole buffer. */
#include <errno.h>
#include <unistd.h>

#include "lib/io.h"

void fsb_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

int fsb_pio_all(int fd, void *buf, size_t len, uint64_t off, int wr)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? pwrite(fd, (char *)buf + done, len - done, (off_t)(off + done))
			       : pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

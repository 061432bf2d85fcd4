/* io.c: writing a whole buffer. */
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

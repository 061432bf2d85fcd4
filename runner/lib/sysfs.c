/* sysfs.c: reading one small attribute file (sysfs, procfs). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/sysfs.h"

int fsb_read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char p[PATH_MAX];
	int fd;
	ssize_t n;

	buf[0] = 0;
	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	/* trim trailing whitespace and leading spaces (SCSI pads model names) */
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = 0;
	size_t lead = strspn(buf, " ");
	if (lead)
		memmove(buf, buf + lead, strlen(buf + lead) + 1);
	return 0;
}

int fsb_attr_u64(const char *dir, const char *attr, uint64_t *v)
{
	char buf[64], *end;
	int e = fsb_read_attr(dir, attr, buf, sizeof(buf));

	if (e < 0)
		return e;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || end == buf || *end || buf[0] == '-' ? -EINVAL : 0;
}

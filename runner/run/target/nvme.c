/* nvme.c: one NVMe admin command through the kernel's passthrough (nvme.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/target/nvme.h"

#define NVME_IOCTL_ID_ _IO('N', 0x40)

int fsb_nvme_admin(const char *dev, struct fsb_nvme_admin_cmd *cmd, int ns, unsigned *status)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc, e;

	*status = 0;
	if (fd < 0)
		return -errno;
	if (ns) {
		int nsid = ioctl(fd, NVME_IOCTL_ID_);
		if (nsid <= 0) {
			e = nsid < 0 ? errno : ENODEV;
			close(fd);
			return -e;
		}
		cmd->nsid = (uint32_t)nsid;
	}
	rc = ioctl(fd, FSB_NVME_IOCTL_ADMIN_CMD, cmd);
	e = errno;
	close(fd);
	if (rc < 0)
		return -e;
	if (rc > 0) {
		*status = (unsigned)rc;
		return -EIO;
	}
	return 0;
}

void fsb_nvme_why(char *why, size_t len, const char *what, const char *dev, int e, unsigned status)
{
	if (e == -EIO && status)
		snprintf(why, len, "not available: %s on %s: NVMe status 0x%x", what, dev, status);
	else
		snprintf(why, len, "not available: NVMe admin passthrough on %s: %s", dev, strerror(-e));
}

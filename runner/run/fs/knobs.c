/* knobs.c: /proc/filesystems and a filesystem's sysfs knobs (knobs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/fs/knobs.h"

int fsb_fs_kernel_has(const char *type)
{
	FILE *fp = fopen("/proc/filesystems", "re");
	char line[256];
	int found = 0;

	while (fp && fgets(line, sizeof(line), fp)) {
		char *t = strchr(line, '\t');
		t = t ? t + 1 : line;
		t[strcspn(t, "\n")] = 0;
		if (!strcmp(t, type))
			found = 1;
	}
	if (fp)
		fclose(fp);
	return found;
}

/* One knob: write val to path, read it back. */
static int knob(const char *path, const char *val, char *why, size_t len)
{
	char back[64];
	int fd = open(path, O_WRONLY | O_CLOEXEC), e;
	ssize_t n;

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		e = errno ? errno : EIO;
		if (fd >= 0)
			close(fd);
		snprintf(why, len, "%s: %s", path, strerror(e));
		return -e;
	}
	close(fd);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || (n = read(fd, back, sizeof(back) - 1)) < 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		snprintf(why, len, "%s: read back: %s", path, strerror(e));
		return -e;
	}
	close(fd);
	back[n] = 0;
	back[strcspn(back, "\n")] = 0;
	if (strcmp(back, val)) {
		snprintf(why, len, "%s: reads back %s, not %s", path, back, val);
		return -EINVAL;
	}
	return 0;
}

int fsb_fs_sysfs_set(const char *root, const char *type, const char *dev, const char *knobs,
		     char *why, size_t len)
{
	char real[PATH_MAX], list[256], path[PATH_MAX + 512];
	const char *name;

	if (!realpath(dev, real))
		snprintf(real, sizeof(real), "%s", dev);
	name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	if (strlen(knobs) >= sizeof(list)) {
		snprintf(why, len, "sysfs:%.40s...: too long", knobs);
		return -EINVAL;
	}
	strcpy(list, knobs);
	for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		int e;

		if (!eq || eq == kv || strchr(kv, '/')) {
			snprintf(why, len, "sysfs:%s: not KEY=VALUE", kv);
			return -EINVAL;
		}
		*eq = 0;
		snprintf(path, sizeof(path), "%s/%s/%s/%s", root, type, name, kv);
		if ((e = knob(path, eq + 1, why, len)) < 0)
			return e;
	}
	return 0;
}

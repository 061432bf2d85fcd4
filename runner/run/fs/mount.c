/* mount.c: mounting the filesystem under test and telling one mount from
 * the next (the evidence that a cold phase really followed a remount). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run/core/cfg.h"
#include "run/fs/mount.h"

int fsb_mount_opts(const char *opts, unsigned long *flags, char *data, size_t len)
{
	static const struct { const char *name; unsigned long set, clear; } flag[] = {
		{ "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY },
		{ "noatime", MS_NOATIME, MS_RELATIME | MS_STRICTATIME },
		{ "relatime", MS_RELATIME, MS_NOATIME | MS_STRICTATIME },
		{ "strictatime", MS_STRICTATIME, MS_NOATIME | MS_RELATIME },
		{ "atime", 0, MS_NOATIME }, { "nodiratime", MS_NODIRATIME, 0 },
		{ "diratime", 0, MS_NODIRATIME }, { "sync", MS_SYNCHRONOUS, 0 },
		{ "async", 0, MS_SYNCHRONOUS }, { "dirsync", MS_DIRSYNC, 0 },
		{ "lazytime", MS_LAZYTIME, 0 }, { "nolazytime", 0, MS_LAZYTIME },
		{ "nosuid", MS_NOSUID, 0 }, { "nodev", MS_NODEV, 0 }, { "noexec", MS_NOEXEC, 0 },
		{ "defaults", 0, 0 },
	};
	char tmp[256], *save = NULL, *tok;
	size_t o = 0;

	*flags = 0;
	data[0] = 0;
	if (strlen(opts) >= sizeof(tmp))
		return -E2BIG;
	snprintf(tmp, sizeof(tmp), "%s", opts);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(flag) / sizeof(flag[0]); i++)
			if (!strcmp(tok, flag[i].name)) {
				*flags = (*flags & ~flag[i].clear) | flag[i].set;
				break;
			}
		if (i < sizeof(flag) / sizeof(flag[0]))
			continue;
		int n = snprintf(data + o, len - o, "%s%s", o ? "," : "", tok);
		if (n < 0 || (size_t)n >= len - o)
			return -E2BIG;
		o += (size_t)n;
	}
	return 0;
}

int fsb_mount(const char *dev, const char *mnt, const char *type, unsigned long flags,
	      const char *data)
{
	if (mount(dev, mnt, type, flags, data && data[0] ? data : NULL) < 0)
		return -errno;
	return 0;
}

int fsb_umount(const char *mnt)
{
	for (int tries = 0; tries < 50; tries++) {
		if (umount2(mnt, 0) == 0)
			return 0;
		if (errno != EBUSY)
			break;
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return -errno;
}

/* struct statx of <linux/stat.h> (a fixed 256-byte ABI), for C libraries
 * that have no statx() (musl) or an older header (no STATX_MNT_ID_UNIQUE). */
struct fsb_statx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, pad1;
	uint64_t ino, size, blocks, attributes_mask;
	struct { int64_t sec; uint32_t nsec; int32_t pad; } atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t mnt_id;
	uint64_t spare[13];
};
_Static_assert(offsetof(struct fsb_statx, mnt_id) == 0x90, "struct statx: stx_mnt_id at 0x90");
_Static_assert(sizeof(struct fsb_statx) == 256, "struct statx is 256 bytes");

#define FSB_STATX_MNT_ID	0x00001000u
#define FSB_STATX_MNT_ID_UNIQUE	0x00004000u

int fsb_mnt_id(int fd, uint64_t *id, int *unique)
{
	struct fsb_statx sx;

	memset(&sx, 0, sizeof(sx));
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, FSB_STATX_MNT_ID | FSB_STATX_MNT_ID_UNIQUE, &sx) < 0)
		return -errno;
	if (!(sx.mask & (FSB_STATX_MNT_ID | FSB_STATX_MNT_ID_UNIQUE)))
		return -EOPNOTSUPP;
	*id = sx.mnt_id;
	*unique = (sx.mask & FSB_STATX_MNT_ID_UNIQUE) != 0;
	return 0;
}

/* One field of a mountinfo line into dst, its octal escapes (\040 for a
 * space) undone. */
static void mi_field(char *dst, size_t len, const char *src, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (src[i] == '\\' && i + 3 < n &&
		    src[i + 1] >= '0' && src[i + 1] <= '3' && src[i + 2] >= '0' && src[i + 2] <= '7' &&
		    src[i + 3] >= '0' && src[i + 3] <= '7') {
			dst[o++] = (char)((src[i + 1] - '0') * 64 + (src[i + 2] - '0') * 8 + (src[i + 3] - '0'));
			i += 3;
		} else {
			dst[o++] = src[i];
		}
	}
	dst[o] = 0;
}

int fsb_mountinfo(const char *mnt, struct fsb_mountinfo *mi)
{
	char real[PATH_MAX], line[4096], point[PATH_MAX];
	FILE *f;
	int found = 0;

	if (!realpath(mnt, real))
		return -errno;
	if (!(f = fopen("/proc/self/mountinfo", "re")))
		return -errno;
	/* ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS...] - TYPE SOURCE SUPER */
	while (fgets(line, sizeof(line), f)) {
		const char *fld[6], *p = line;
		size_t len[6], n = 0;

		line[strcspn(line, "\n")] = 0;
		for (; n < 6 && *p; n++) {
			fld[n] = p;
			len[n] = strcspn(p, " ");
			p += len[n];
			p += *p == ' ';
		}
		if (n < 6)
			continue;
		mi_field(point, sizeof(point), fld[4], len[4]);
		if (strcmp(point, real))
			continue;
		const char *sep = strstr(p - 1, " - ");
		if (!sep)
			continue;
		mi_field(mi->opts, sizeof(mi->opts), fld[5], len[5]);
		p = sep + 3;
		for (n = 0; n < 3; n++) {
			fld[n] = p;
			len[n] = strcspn(p, " ");
			p += len[n];
			p += *p == ' ';
		}
		mi_field(mi->type, sizeof(mi->type), fld[0], len[0]);
		mi_field(mi->source, sizeof(mi->source), fld[1], len[1]);
		mi_field(mi->super_opts, sizeof(mi->super_opts), fld[2], len[2]);
		found = 1;	/* a later line is a mount on top: it wins */
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

int fsb_mnt_in_use(const char *mnt)
{
	struct stat a, b;
	char parent[FSB_PATH_MAX + 4];

	snprintf(parent, sizeof(parent), "%s/..", mnt);
	if (stat(mnt, &a) < 0 || stat(parent, &b) < 0)
		return 0;
	return a.st_dev != b.st_dev;
}

int fsb_mkdir_p(const char *path)
{
	char tmp[FSB_PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int fsb_rm_tree(int dfd, int depth)
{
	DIR *d;
	struct dirent *e;
	int fd = dup(dfd);

	if (fd < 0 || !(d = fdopendir(fd)))
		return -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dfd, e->d_name, 0) == 0)
			continue;
		if ((errno == EISDIR || errno == EPERM) && depth < 4) {
			int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub >= 0) {
				fsb_rm_tree(sub, depth + 1);
				close(sub);
			}
			unlinkat(dfd, e->d_name, AT_REMOVEDIR);
		}
	}
	closedir(d);
	return 0;
}

/* mount.h: the filesystem under test's mount: options, mount and umount, the
 * mount's identity, the mount point. Returns -errno; never prints. */
#ifndef FSB_MOUNT_H
#define FSB_MOUNT_H

#include <stddef.h>
#include <stdint.h>

/* Split mount options into mount(2) flags and the data string. */
int fsb_mount_opts(const char *opts, unsigned long *flags, char *data, size_t len);

/* mount(2); data "" is passed as NULL. */
int fsb_mount(const char *dev, const char *mnt, const char *type, unsigned long flags,
	      const char *data);
/* umount(2), waiting up to 5 s while the mount is busy. */
int fsb_umount(const char *mnt);

/* The id of the mount holding fd (statx). *unique = 1: the 64-bit id that is
 * never reused (STATX_MNT_ID_UNIQUE, Linux 6.8); 0: the id of
 * /proc/self/mountinfo, which a later mount may reuse. -EOPNOTSUPP when the
 * kernel gives neither. */
int fsb_mnt_id(int fd, uint64_t *id, int *unique);

/* The mount on mnt as the kernel reports it in /proc/self/mountinfo (the
 * topmost one there): its type, source, per-mount options (rw,noatime)
 * and the filesystem's own (super options). 0, -ENOENT when nothing is
 * mounted on mnt, or -errno. */
struct fsb_mountinfo {
	char type[32];
	char source[256];
	char opts[256];		/* mount options: rw, noatime, relatime, ... */
	char super_opts[512];	/* the filesystem's options: errors=..., compress=zstd */
};
int fsb_mountinfo(const char *mnt, struct fsb_mountinfo *mi);

/* 1 when something is mounted on mnt (it and its parent differ in st_dev). */
int fsb_mnt_in_use(const char *mnt);
/* mkdir -p */
int fsb_mkdir_p(const char *path);
/* Remove what the directory dfd holds (4 levels deep at most; dfd stays
 * open and the directory itself stays): 0, -1 when it cannot be read. */
int fsb_rm_tree(int dfd, int depth);

#endif

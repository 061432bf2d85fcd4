/* knobs.h: what the kernel offers a filesystem beside its mount:
 * /proc/filesystems, and the filesystem's knobs under /sys/fs/TYPE/DEV/
 * that a variant sets (run/fs/variant.h, `sysfs:KEY=VALUE`). Returns
 * -errno; never prints. */
#ifndef FSB_KNOBS_H
#define FSB_KNOBS_H

#include <stddef.h>

/* 1 when the kernel lists type in /proc/filesystems, else 0. */
int fsb_fs_kernel_has(const char *type);

/* Write each KEY=VALUE of knobs (comma-separated) to
 * ROOT/TYPE/DEV/KEY, DEV the name of the device dev (its last path
 * component, symlinks resolved: /dev/loop3 is loop3), and read it back.
 * root is "/sys/fs" but in the tests. 0, or -errno with why filled
 * ("/sys/fs/ext4/loop3/mb_stream_req: No such file or directory", "...
 * reads back 16, not 0"). */
int fsb_fs_sysfs_set(const char *root, const char *type, const char *dev, const char *knobs,
		     char *why, size_t len);

#endif

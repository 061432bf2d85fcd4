/* sysfs.h: reading one small attribute file (sysfs, procfs), as text or
 * as a number. */
#ifndef FSB_SYSFS_H
#define FSB_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/* Read DIR/ATTR into buf (at most len - 1 bytes, NUL-terminated), without
 * the trailing newline and blanks and the leading spaces (SCSI pads model
 * names). Returns 0, or -errno with buf empty. */
int fsb_read_attr(const char *dir, const char *attr, char *buf, size_t len);
/* DIR/ATTR as a whole number (no sign): 0, -errno, or -EINVAL when it is
 * not one. */
int fsb_attr_u64(const char *dir, const char *attr, uint64_t *v);

#endif

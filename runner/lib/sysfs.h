/* sysfs.h: reading one small attribute file (sysfs, procfs). */
#ifndef FSB_SYSFS_H
#define FSB_SYSFS_H

#include <stddef.h>

/* Read DIR/ATTR into buf (at most len - 1 bytes, NUL-terminated), without
 * the trailing newline and blanks and the leading spaces (SCSI pads model
 * names). Returns 0, or -errno with buf empty. */
int fsb_read_attr(const char *dir, const char *attr, char *buf, size_t len);

#endif

/* io.h: writing a whole buffer. */
#ifndef FSB_IO_H
#define FSB_IO_H

#include <stddef.h>

/* Write all n bytes of p to fd, retrying short writes and EINTR; an error
 * ends the write (what was not written is lost, as on a closed console). */
void fsb_write_all(int fd, const char *p, size_t n);

#endif

/* io.h: writing or reading a whole buffer. */
#ifndef FSB_IO_H
#define FSB_IO_H

#include <stddef.h>
#include <stdint.h>

/* Write all n bytes of p to fd, retrying short writes and EINTR; an error
 * ends the write (what was not written is lost, as on a closed console). */
void fsb_write_all(int fd, const char *p, size_t n);
/* pread (wr 0) or pwrite (wr 1) the whole of len bytes at off: 0, or
 * -errno (-EIO when short). */
int fsb_pio_all(int fd, void *buf, size_t len, uint64_t off, int wr);

#endif

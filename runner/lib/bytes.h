/* bytes.h: sizes as people read them. */
#ifndef FSB_BYTES_H
#define FSB_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* b bytes as "512 B", "4.0 KiB", "1.9 GiB" (binary units, one decimal) into
 * buf; returns buf. */
const char *fsb_human(uint64_t b, char *buf, size_t len);

#endif

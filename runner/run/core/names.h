/* names.h: the names of the directories and files a phase works on
 * (d0003/f0000042). */
#ifndef FSB_NAMES_H
#define FSB_NAMES_H

#include <stdint.h>

/* Name of file idx ("f0000042"), into buf of at least 12 bytes. */
void fsb_file_name(uint32_t idx, char *buf);
void fsb_dir_name(uint32_t dir, char *buf);
/* "f0001234" -> 1234; -1 for any other name. */
long fsb_parse_name(const char *n);

#endif

/* names.c: the names of the directories and files a phase works on. */
#include <stdint.h>
#include <stdio.h>

#include "run/core/names.h"

void fsb_file_name(uint32_t idx, char *buf)
{
	buf[0] = 'f';
	for (int i = 7; i >= 1; i--) {
		buf[i] = (char)('0' + idx % 10);
		idx /= 10;
	}
	buf[8] = 0;
}

void fsb_dir_name(uint32_t dir, char *buf)
{
	snprintf(buf, 12, "d%04u", dir);
}

/* "f0001234" -> 1234; -1 for any other name */
long fsb_parse_name(const char *n)
{
	long v = 0;

	if (n[0] != 'f')
		return -1;
	for (int i = 1; i <= 7; i++) {
		if (n[i] < '0' || n[i] > '9')
			return -1;
		v = v * 10 + (n[i] - '0');
	}
	return n[8] ? -1 : v;
}

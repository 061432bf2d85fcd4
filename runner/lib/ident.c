/* ident.c: a test case id made of free text (ident.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lib/ident.h"

static int seen(const char *id, const char (*prev)[FSB_LAVA_ID_MAX], size_t nprev)
{
	for (size_t i = 0; i < nprev; i++)
		if (!strcmp(prev[i], id))
			return 1;
	return 0;
}

int fsb_lava_text_id(char *buf, size_t len, const char *prefix, const char *text,
		     const char (*prev)[FSB_LAVA_ID_MAX], size_t nprev)
{
	size_t max = len < FSB_LAVA_ID_MAX ? len : FSB_LAVA_ID_MAX;
	size_t o, base;
	int dash = 0;

	if (max < 8)
		return -1;
	max -= 4;	/* room for "-NN" */
	o = (size_t)snprintf(buf, max, "%s", prefix);
	if (o >= max)
		o = max - 1;
	dash = o > 0 && buf[o - 1] == '-';
	for (const char *p = text; *p && o + 1 < max; p++) {
		unsigned char ch = (unsigned char)*p;
		if (isalnum(ch) || ch == '_' || ch == '.') {
			buf[o++] = (char)tolower(ch);
			dash = 0;
		} else if (!dash && o > 0) {
			buf[o++] = '-';
			dash = 1;
		}
	}
	while (o > 0 && buf[o - 1] == '-')
		o--;
	if (o == 0)
		buf[o++] = 'x';
	buf[o] = 0;
	base = o;
	for (unsigned k = 2; seen(buf, prev, nprev) && k < 100; k++)
		o = base + (size_t)snprintf(buf + base, len - base, "-%u", k);
	return (int)o;
}

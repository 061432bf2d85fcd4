/* kv.c: the `key = value` file reader (see kv.h). */
#include "lib/kv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

int fsb_kv_file(const char *path, const char *what, fsb_kv_fn fn, void *ctx,
		char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[FSB_KV_LINE], where[64];
	unsigned lineno = 0;
	const char *base = strrchr(path, '/');
	int rc = 0;

	base = base ? base + 1 : path;
	if (!f) {
		rc = -errno;
		snprintf(why, len, "%s %s: %s", what, path, strerror(errno));
		return rc;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char *s, *eq, *key, *val;
		size_t vl;

		lineno++;
		snprintf(where, sizeof(where), "%.48s:%u", base, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(why, len, "%s: line too long", where);
			rc = -EINVAL;
			break;
		}
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(why, len, "%s: expected key = value, got '%s'", where, s);
			rc = -EINVAL;
			break;
		}
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		vl = strlen(val);
		if (vl >= 2 && val[0] == '"' && val[vl - 1] == '"') {
			val[vl - 1] = 0;
			val++;
		}
		if (fn(ctx, key, val, where, why, len) < 0)
			rc = -EINVAL;
	}
	if (!rc && ferror(f)) {
		rc = -EIO;
		snprintf(why, len, "%s %s: read error", what, path);
	}
	fclose(f);
	return rc;
}

/* mkfsargv.c: the argv of one mkfs (mkfsargv.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/fs/mkfsargv.h"

static int add(struct fsb_mkfs_argv *a, const char *w)
{
	if (a->argc >= FSB_MKFS_ARGS - 1)
		return -E2BIG;
	a->argv[a->argc++] = (char *)w;
	a->argv[a->argc] = NULL;
	return 0;
}

/* The blank-separated words of buf (split in place). */
static int add_words(struct fsb_mkfs_argv *a, char *buf)
{
	char *save = NULL;

	for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		if (add(a, tok) < 0)
			return -E2BIG;
	return 0;
}

int fsb_mkfs_argv(struct fsb_mkfs_argv *a, const char *path, const struct fsb_fs *fs,
		  enum fsb_zplan plan, const char *zoned, const char *opts, const char *vopts,
		  const char *dev)
{
	int e = 0;

	memset(a, 0, sizeof(*a));
	if ((size_t)snprintf(a->opts, sizeof(a->opts), "%s", opts ? opts : "") >= sizeof(a->opts) ||
	    (size_t)snprintf(a->vopts, sizeof(a->vopts), "%s", vopts ? vopts : "") >= sizeof(a->vopts))
		return -E2BIG;
	e |= add(a, path);
	for (const char *const *v = fs->mkfs_args; *v; v++)
		e |= add(a, *v);
	if ((plan == FSB_ZPLAN_NATIVE || plan == FSB_ZPLAN_CONV) && fs->zoned_args)
		for (const char *const *v = fs->zoned_args; *v; v++)
			e |= add(a, *v);
	if (plan == FSB_ZPLAN_CONV)
		e |= add(a, zoned ? zoned : "");
	e |= add_words(a, a->opts);
	e |= add_words(a, a->vopts);
	e |= add(a, dev);
	if (e)
		return -E2BIG;
	for (int i = 0; i < a->argc; i++) {
		size_t o = strlen(a->text);
		snprintf(a->text + o, sizeof(a->text) - o, "%s%s", i ? " " : "", a->argv[i]);
	}
	return 0;
}

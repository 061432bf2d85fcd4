/* mkfsargv.h: the argv of one mkfs: the program, the filesystem's default
 * arguments, on a host-managed zoned target its zoned arguments (f2fs's
 * followed by the zoned device), the user's mkfs_opts.FS, a variant's
 * arguments, the device made. */
#ifndef FSB_MKFSARGV_H
#define FSB_MKFSARGV_H

#include "run/fs/fs.h"

#define FSB_MKFS_ARGS 64

struct fsb_mkfs_argv {
	char *argv[FSB_MKFS_ARGS];	/* NULL-terminated */
	int argc;
	char opts[256], vopts[256];	/* the split options (argv points into them) */
	char text[1024];		/* the command as one line, blank-separated */
};

/* Fill a: path (the program), fs's defaults, with plan FSB_ZPLAN_NATIVE
 * or FSB_ZPLAN_CONV fs's zoned_args (CONV: then zoned, the zoned device),
 * the blank-separated words of opts and of vopts, then dev. 0, or -E2BIG
 * when they do not fit (nothing is cut silently). */
int fsb_mkfs_argv(struct fsb_mkfs_argv *a, const char *path, const struct fsb_fs *fs,
		  enum fsb_zplan plan, const char *zoned, const char *opts, const char *vopts,
		  const char *dev);

#endif

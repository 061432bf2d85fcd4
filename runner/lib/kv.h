/* kv.h: the `key = value` file syntax of fsbench.conf and of criteria
 * files, read by one reader (kv.c).
 *
 * One setting per line, `key = value`; blank lines and lines starting
 * with `#` or `;` are skipped; spaces around key and value are dropped and
 * a value in double quotes loses them. A line longer than FSB_KV_LINE - 1
 * bytes, or one without '=', is an error naming the file and line.
 */
#ifndef FSB_KV_H
#define FSB_KV_H

#include <stddef.h>

#define FSB_KV_LINE 1024

/* Called for every setting: where is "FILE:LINE" (the file's base name).
 * Returns 0 to go on, or -1 with why filled to stop the reading. */
typedef int (*fsb_kv_fn)(void *ctx, const char *key, const char *val,
			 const char *where, char *why, size_t len);

/* Read path, calling fn for each setting in file order. what names the
 * file in messages about the file itself ("config", "criteria"). Returns 0;
 * -EINVAL for a bad line or what fn refused (why says "FILE:LINE: ...");
 * -errno when the file cannot be opened or read (why says "WHAT PATH:
 * reason"). */
int fsb_kv_file(const char *path, const char *what, fsb_kv_fn fn, void *ctx,
		char *why, size_t len);

#endif

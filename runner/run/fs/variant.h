/* variant.h: named variants of a filesystem, one row each (variant.c). A
 * variant is a column of the suite: its base filesystem made and mounted
 * with more options, "f2fs:s4z4" being f2fs made with `-s 4 -z 4`.
 *
 * A column name is FS or FS:NAME, FS a filesystem of run/fs/fs.c, NAME 1 to
 * FSB_VARIANT_SUFFIX_MAX of a-z, 0-9 and '_'. The built-in rows are below;
 * the setting `variant.FS:NAME = mkfs:ARGS mount:OPTS` (settings.c) adds a
 * row or replaces one, whole. Its value, parsed by fsb_variant_parse:
 *
 *	value = part [spaces part]	at least one part, each at most once,
 *	part  = "mkfs:" ARGS | "mount:" OPTS | "sysfs:" KNOBS	in any order
 *
 * ARGS are the words from `mkfs:` up to a word beginning with `mount:` or `sysfs:` (or
 * the end), each one argument of mkfs, as mkfs_opts.FS splits them: no
 * quoting, an argument holds no space. OPTS is one word of comma-separated
 * mount options, as for `mount -o`. The value as a whole is quoted the way
 * its layer quotes. KNOBS is one word of comma-separated KEY=VALUE, each
 * written to the filesystem's sysfs directory after every mount of the
 * column (/sys/fs/TYPE/DEV/KEY, run/fs/knobs.h; ext4's mb_stream_req),
 * KEY of a-z, 0-9 and _, VALUE of A-Z, a-z, 0-9, _, . and -. The value as
 * a whole is quoted the way its layer quotes: "..." in a config file, fsbench.variant.f2fs:s8="mkfs:-s 8"
 * on the kernel command line, one argument on the command line.
 *
 * Applied: mkfs gets the filesystem's default arguments, mkfs_opts.FS, the
 * variant's ARGS, then the device; mount gets mount_opts.FS then the
 * variant's OPTS, joined by a comma (a later option wins where two
 * conflict, as with `mount -o`: noatime after atime).
 */
#ifndef FSB_VARIANT_H
#define FSB_VARIANT_H

#include <stddef.h>
#include <stdio.h>

#include "lib/msg.h"

#define FSB_VARIANT_SUFFIX_MAX 15	/* characters after "FS:" */
#define FSB_VARIANT_NAME_MAX 32		/* a column name with its NUL */
#define FSB_VARIANT_OPTS_MAX 128	/* the mkfs arguments, the mount options, with NUL */

struct fsb_variant {
	const char *name;	/* FS:NAME */
	const char *mkfs;	/* mkfs arguments, split at spaces; "" for none */
	const char *mount;	/* mount options, comma-separated; "" for none */
	const char *about;	/* what it changes, one line */
	const char *unsafe;	/* NULL, or why it is unsafe: it may lose what the
				 * filesystem acknowledged (shown in the docs, --help,
				 * the fs_start record and the report) */
};

extern const struct fsb_variant fsb_variant_table[];
extern const size_t fsb_variant_count;

/* A built-in row by its name, NULL when there is none. */
const struct fsb_variant *fsb_variant_builtin(const char *name);

/* The base filesystem of column name (FS or FS:NAME): its index in
 * fsb_fs_table, or -1 when the text before ':' names none. */
int fsb_variant_base(const char *name);

/* Is name a column name (FS or FS:NAME)? 0, or -1 with why filled
 * ("unknown filesystem 'zfs'", ...). */
int fsb_variant_name_check(const char *name, char *why, size_t len);

/* Parse a definition (mkfs:ARGS mount:OPTS) into mkfs (the arguments
 * joined by one space) and mount. 0, or -1 with why filled. */
int fsb_variant_parse(const char *val, char *mkfs, size_t mlen, char *mount, size_t olen,
		      char *why, size_t wlen);
/* The same with the sysfs part (KNOBS) into sysfs ("" for none); the
 * call above accepts and drops it. */
int fsb_variant_parse_sysfs(const char *val, char *mkfs, size_t mlen, char *mount, size_t olen,
			    char *sysfs, size_t slen, char *why, size_t wlen);

/* A definition as text: "mkfs:-s 4 -z 4", "mount:noatime", both joined
 * by a space ("mkfs:" for a variant with neither). Returns the length, or
 * -1 when it does not fit. */
int fsb_variant_text(char *buf, size_t len, const char *mkfs, const char *mount);
/* The same with a sysfs part ("sysfs:mb_stream_req=0" after the others). */
int fsb_variant_text_sysfs(char *buf, size_t len, const char *mkfs, const char *mount,
			   const char *sysfs);

/* The built-in names, comma-separated: every row, or (base >= 0) those of
 * one filesystem. */
void fsb_variant_names(char *buf, size_t len, int base);

/* Every column the tables give, each default filesystem (not an optional
 * one, nilfs2) followed by its built-in variants
 * ("ext4,ext4:noatime,...,f2fs:nobarrier"), for the `tuning` profile. */
const char *fsb_variant_all_columns(void);

/* The built-in table for the docs (name | base | mkfs | mount | what it
 * changes | unsafe) in DOC_MARKDOWN or DOC_SCDOC; DOC_TEXT: one line per
 * row, the fields separated by a tab ("-" for an empty one). Returns 0, or -1 with
 * errno set when writing fails. */
int fsb_variant_doc(FILE *f, enum fsb_doc_fmt fmt);

#endif

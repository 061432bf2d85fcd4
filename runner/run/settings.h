/* settings.h: the runner's settings, one table of keys, and their layers. */
#ifndef FSB_CONFIG_H
#define FSB_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/msg.h"
#include "run/core/cfg.h"

/* Where a value came from, lowest to highest precedence. */
enum fsb_src {
	SRC_DEFAULT = 0,
	SRC_PROFILE,
	SRC_FILE,
	SRC_CMDLINE,	/* kernel command line, fsbench.KEY=VALUE */
	SRC_CLI,
	SRC_NSOURCES
};

/* One column of `fs`: a filesystem, or a variant of one (run/fs/variant.h). */
struct fsb_column {
	char name[32];		/* as listed: ext4, f2fs:s4z4 */
	int fsi;		/* the base filesystem's index in fsb_fs_table */
	int is_variant;
	char mkfs[128];		/* the variant's mkfs arguments ("" for none) */
	char mount[128];	/* the variant's mount options ("" for none) */
	char sysfs[128];	/* the variant's sysfs knobs, KEY=VALUE,... ("" for none) */
	char source[FSB_PATH_MAX / 2 + 32];	/* "built in", or where the setting came from */
	const char *unsafe;	/* a built-in row's reason it is unsafe (run/fs/variant.h), else NULL */
};

/* A call that fails writes its error text to err (errlen bytes), the
 * shape of every error text out-parameter of the runner. */
struct fsb_layer {
	enum fsb_src src;
	const char *origin;	/* file name, "kernel command line", "command line" */
	/* parsed key=value pairs */
	size_t n;
	struct { char *key; char *val; char where[64]; } kv[128];
};

void fsb_config_defaults(struct fsb_config *c);
/* Add one key=value to a layer; returns 0 or -1 with err filled. */
int fsb_layer_add(struct fsb_layer *l, const char *key, const char *val,
		  const char *where, char *err, size_t errlen);
/* Parse a config file (key = value lines, # comments). */
int fsb_layer_file(struct fsb_layer *l, const char *path, char *err, size_t errlen);
/* Parse fsbench.KEY=VALUE words from a kernel command line text file. */
int fsb_layer_cmdline(struct fsb_layer *l, const char *path, char *err, size_t errlen);
void fsb_layer_free(struct fsb_layer *l);
/* Merge: defaults < profile < layers[] in order. Validates everything. */
int fsb_config_merge(struct fsb_config *c, struct fsb_layer **layers, size_t nlayers,
		     char *err, size_t errlen);
/* Print the merged config, one key per line with its source. */
void fsb_config_show(const struct fsb_config *c, int fd);
/* Value of one key as text; -1 when unknown. */
int fsb_config_get(const struct fsb_config *c, const char *key, char *buf, size_t len);
/* Print the key table (for --help). */
void fsb_config_help(FILE *f);
/* The key table for the docs: DOC_MARKDOWN is SETTINGS.md's table
 * (key | default | meaning), DOC_SCDOC the man page's SETTINGS list,
 * DOC_TEXT the --help text. `fsbench config --markdown|--scdoc`. */
void fsb_config_doc(FILE *f, enum fsb_doc_fmt fmt);
/* Is this a known key (for CLI option parsing)? */
int fsb_config_known(const char *key);
/* The column name (an item of c->fs) resolved: its base filesystem, and
 * for a variant its row, from a variant.NAME setting or the built-in
 * table. 0, or -1 when name is not a column. */
int fsb_config_column(const struct fsb_config *c, const char *name, struct fsb_column *col);
/* Write the config as a JSON object body into buf (for run_start). */
int fsb_config_json(const struct fsb_config *c, char *buf, size_t len);
const char *fsb_src_name(enum fsb_src s);

#endif

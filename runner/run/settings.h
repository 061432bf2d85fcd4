/* settings.h: the runner's settings, one table of keys, and their layers. */
#ifndef FSB_CONFIG_H
#define FSB_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/msg.h"

#define FSB_MAX_FS 8
#define FSB_PATH_MAX 512
#define FSB_MAX_COLUMNS 32	/* items of `fs` */
#define FSB_MAX_VARIANTS 16	/* variant.FS:NAME settings */

/* Where a value came from, lowest to highest precedence. */
enum fsb_src {
	SRC_DEFAULT = 0,
	SRC_PROFILE,
	SRC_FILE,
	SRC_CMDLINE,	/* kernel command line, fsbench.KEY=VALUE */
	SRC_CLI,
	SRC_NSOURCES
};

struct fsb_config {
	char profile[32];
	char fs[256];		/* comma-separated columns: FS or a variant FS:NAME */
	uint32_t dirs;
	uint32_t files;		/* files per directory */
	uint64_t file_size;
	uint32_t workers;
	uint32_t rounds;
	uint32_t phase_timeout;	/* seconds, 0 = none */
	char target[FSB_PATH_MAX];
	char dir[FSB_PATH_MAX];
	char log[FSB_PATH_MAX];
	uint64_t log_size;	/* max bytes for a log file, 0 = unlimited */
	char mnt[FSB_PATH_MAX];
	char prefix[32];	/* printed before each record on stdout */
	int yes;
	int verify;
	int progress;
	int layout;		/* FIEMAP diagnosis after each round's reads */
	int freespace;		/* free-space evidence after each round's reads */
	int rewrite;		/* the rewrite remedy in aged rounds (phase.c) */
	char create_order[16];	/* "name" (runner/SUITE.md) or "shuffled" */
	char on_finish[16];	/* read by the boot image's init */
	int lava;		/* LAVA monitors lines on stdout (run/engine/lava.h) */
	char fault[64];		/* self-test: DIR/FILE:OFFSET to corrupt after create */
	int smallfile;		/* the rounds x phases of runner/SUITE.md */
	char fio[64];		/* fio workloads (run/stores/fio.h), comma-separated */
	uint32_t fio_runtime;	/* seconds per workload */
	uint64_t fio_size;	/* bytes per workload's file (or raw region) */
	int fio_raw;		/* the workloads on the raw target too */
	int fill;		/* the fill test (run/stores/fill.h) */
	uint32_t fill_pct, fill_delete_pct;
	int pack;		/* the packing phases: SQLite and a pack file (run/stores/pack.h) */
	char mkfs_opts[FSB_MAX_FS][256];	/* indexed like fs_table */
	char mount_opts[FSB_MAX_FS][256];
	/* variant.FS:NAME settings (run/fs/variant.h), each with its source */
	struct fsb_uvariant {
		char name[32];
		char mkfs[128], mount[128];
		unsigned char src;
		char origin[FSB_PATH_MAX / 2];
	} variant[FSB_MAX_VARIANTS];
	size_t nvariant;

	/* bookkeeping: source of every key, and its origin text (file:line) */
	unsigned char src[64];
	char origin[64][FSB_PATH_MAX / 2];
};

/* One column of `fs`: a filesystem, or a variant of one (run/fs/variant.h). */
struct fsb_column {
	char name[32];		/* as listed: ext4, f2fs:s4z4 */
	int fsi;		/* the base filesystem's index in fsb_fs_table */
	int is_variant;
	char mkfs[128];		/* the variant's mkfs arguments ("" for none) */
	char mount[128];	/* the variant's mount options ("" for none) */
	char source[FSB_PATH_MAX / 2 + 32];	/* "built in", or where the setting came from */
};

/* Error text for the last failing config call is written here. */
struct fsb_cfgerr {
	char msg[512];
};

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
		  const char *where, struct fsb_cfgerr *err);
/* Parse a config file (key = value lines, # comments). */
int fsb_layer_file(struct fsb_layer *l, const char *path, struct fsb_cfgerr *err);
/* Parse fsbench.KEY=VALUE words from a kernel command line text file. */
int fsb_layer_cmdline(struct fsb_layer *l, const char *path, struct fsb_cfgerr *err);
void fsb_layer_free(struct fsb_layer *l);
/* Merge: defaults < profile < layers[] in order. Validates everything. */
int fsb_config_merge(struct fsb_config *c, struct fsb_layer **layers, size_t nlayers,
		     struct fsb_cfgerr *err);
/* Print the merged config, one key per line with its source. */
void fsb_config_show(const struct fsb_config *c, int fd);
/* Value of one key as text; -1 when unknown. */
int fsb_config_get(const struct fsb_config *c, const char *key, char *buf, size_t len);
/* Print the key table (for --help). */
void fsb_config_help(FILE *f);
/* The key table for the docs: DOC_MARKDOWN is the README's settings table
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

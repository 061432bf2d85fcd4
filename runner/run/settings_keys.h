/* settings_keys.h: inside the settings: the key table and the profiles
 * (settings_keys.c), for settings.c. Not for use elsewhere: the rest of the
 * runner asks run/settings.h. */
#ifndef FSB_SETTINGS_KEYS_H
#define FSB_SETTINGS_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/cfg.h"

/* K_U32_AUTO: a whole number from min to max, or `auto`, kept as 0 */
enum ktype { K_STR, K_U32, K_SIZE, K_BOOL, K_FSLIST, K_PROFILE, K_CHOICE, K_U32_AUTO };

struct set_key {
	const char *name;
	enum ktype type;
	size_t off;
	size_t size;
	uint64_t min, max;
	const char *def;
	const char *help;
};

#define F(field) offsetof(struct fsb_config, field), sizeof(((struct fsb_config *)0)->field)

/* The fixed keys, one row each, in the order of help and docs. */
extern const struct set_key set_keys[];
extern const size_t set_nkeys;
/* "Every filesystem of the table, in its order" (run/fs/fs.c) and every
 * filesystem followed by its built-in variants (run/fs/variant.c), where a
 * default or a profile names the filesystems: compared by address. */
extern const char set_all_fs[], set_all_columns[];
/* The per-filesystem keys' help, after the fixed ones in help and docs. */
extern const char set_help_mkfs_opts[], set_help_mount_opts[], set_help_variant[];

#define PROFILE_KV 12	/* settings a profile may set */
struct profile {
	const char *name;
	const char *kv[PROFILE_KV][2];
};

extern const struct profile set_profiles[];
extern const size_t set_nprofiles;

#endif

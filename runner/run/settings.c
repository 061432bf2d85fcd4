/* settings.c: the key table, parsing of each layer, merging and printing.
 *
 * Layers, lowest to highest: built-in defaults < profile < --config FILE <
 * kernel command line (fsbench.KEY=VALUE) < command-line options.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/kv.h"
#include "lib/msg.h"
#include "run/settings.h"
#include "run/settings_keys.h"
#include "run/stores/fio.h"
#include "run/fs/fs.h"
#include "run/fs/variant.h"
#include "log/record.h"

/* A built-in value as the settings read it. */
static const char *builtin(const char *v)
{
	return v == set_all_fs ? fsb_fs_default_names() : v == set_all_columns ? fsb_variant_all_columns() : v;
}

#define VARIANT_KEY "variant."
#define NKEYS set_nkeys
/* Per-filesystem keys follow the fixed ones in src[]/origin[]. */
#define SLOT_MKFS(i) (NKEYS + (i))
#define SLOT_MOUNT(i) (NKEYS + FSB_MAX_FS + (i))
#define NPROFILES set_nprofiles

static const char *const src_names[] = { "default", "profile", "config file",
					  "kernel command line", "command line" };

const char *fsb_src_name(enum fsb_src s)
{
	return s < SRC_NSOURCES ? src_names[s] : "?";
}

__attribute__((format(printf, 3, 4)))
static int seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const struct set_key *find_key(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(set_keys[i].name, name) == 0)
			return &set_keys[i];
	return NULL;
}

/* "mkfs_opts.ext4" -> slot, or -1. */
static int fs_slot(const char *name, int *is_mount)
{
	const char *fs;

	if (strncmp(name, "mkfs_opts.", 10) == 0) {
		fs = name + 10;
		*is_mount = 0;
	} else if (strncmp(name, "mount_opts.", 11) == 0) {
		fs = name + 11;
		*is_mount = 1;
	} else {
		return -1;
	}
	return fsb_fs_index(fs);
}

int fsb_config_known(const char *key)
{
	int m;

	return find_key(key) != NULL || fs_slot(key, &m) >= 0 ||
	       !strncmp(key, VARIANT_KEY, strlen(VARIANT_KEY));
}

/* The choices of a K_CHOICE key, from the help text after its ": ". */
static const char *choices(const struct set_key *k)
{
	const char *p = strrchr(k->help, ':');
	return p ? p + 2 : "";
}

static int is_choice(const struct set_key *k, const char *val)
{
	const char *p = choices(k);
	size_t n = strlen(val);

	while (*p) {
		size_t m = strcspn(p, "|");
		if (m == n && !strncmp(p, val, n))
			return 1;
		p += m;
		if (*p == '|')
			p++;
	}
	return 0;
}

static void allowed_text(const struct set_key *k, char *buf, size_t len)
{
	switch (k->type) {
	case K_U32:
	case K_SIZE:
		if (k->max == UINT64_MAX)
			snprintf(buf, len, "an integer >= %" PRIu64, k->min);
		else
			snprintf(buf, len, "an integer from %" PRIu64 " to %" PRIu64, k->min, k->max);
		break;
	case K_BOOL:
		snprintf(buf, len, "1/0, yes/no, true/false, on/off");
		break;
	case K_FSLIST:
		snprintf(buf, len, "a comma-separated list of %s, each alone or as a variant "
			"FS:NAME (built in, or set with variant.FS:NAME)",
			 fsb_fs_names());
		break;
	case K_PROFILE: {
		size_t o = 0;
		for (size_t i = 0; i < NPROFILES; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", set_profiles[i].name);
		break;
	}
	case K_STR:
		snprintf(buf, len, "text up to %zu characters", k->size - 1);
		break;
	case K_CHOICE:
		snprintf(buf, len, "one of %s", choices(k));
		break;
	case K_U32_AUTO:
		snprintf(buf, len, "an integer from %" PRIu64 " to %" PRIu64 ", or auto", k->min, k->max);
		break;
	}
}

/* Parse an unsigned number with an optional 1024-based suffix (sizes only). */
static int parse_num(const char *s, int sized, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end && sized) {
		switch (*end) {
		case 'k': case 'K': mul = 1ull << 10; break;
		case 'm': case 'M': mul = 1ull << 20; break;
		case 'g': case 'G': mul = 1ull << 30; break;
		default: return -1;
		}
		end++;
		if (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0 || strcmp(end, "ib") == 0)
			end += strlen(end);
	}
	if (*end)
		return -1;
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

static int parse_bool(const char *s, int *out)
{
	static const char *const t[] = { "1", "yes", "true", "on" };
	static const char *const f[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, t[i]) == 0) { *out = 1; return 0; }
		if (strcasecmp(s, f[i]) == 0) { *out = 0; return 0; }
	}
	return -1;
}

/* variant.FS:NAME = mkfs:ARGS mount:OPTS: a row of the variant table (run/fs/variant.h);
 * the same name again replaces the row (a higher layer wins). */
static int apply_variant(struct fsb_config *c, const char *key, const char *val, const char *shown,
			 enum fsb_src src, const char *where, char *err, size_t errlen)
{
	const char *name = key + strlen(VARIANT_KEY);
	char mkfs[sizeof(c->variant[0].mkfs)], mount[sizeof(c->variant[0].mount)], why[240];
	char sysfs[sizeof(c->variant[0].sysfs)];
	size_t i;

	if (fsb_variant_name_check(name, why, sizeof(why)) < 0)
		return seterr(err, errlen, "%s: %s: %s", where, key, why);
	if (!strchr(name, ':'))
		return seterr(err, errlen, "%s: %s: not a variant name; allowed: variant.FS:NAME, e.g. variant.%s:mine",
			      where, key, name);
	if (fsb_variant_parse_sysfs(val, mkfs, sizeof(mkfs), mount, sizeof(mount), sysfs, sizeof(sysfs),
				    why, sizeof(why)) < 0)
		return seterr(err, errlen, "%s: %s=%s: %s", where, key, shown, why);
	for (i = 0; i < c->nvariant && strcmp(c->variant[i].name, name); i++)
		;
	if (i == c->nvariant) {
		if (c->nvariant == FSB_MAX_VARIANTS)
			return seterr(err, errlen, "%s: %s: too many variant settings; allowed: up to %d",
				      where, key, FSB_MAX_VARIANTS);
		c->nvariant++;
	}
	snprintf(c->variant[i].name, sizeof(c->variant[i].name), "%s", name);
	strcpy(c->variant[i].mkfs, mkfs);
	strcpy(c->variant[i].mount, mount);
	strcpy(c->variant[i].sysfs, sysfs);
	c->variant[i].src = (unsigned char)src;
	snprintf(c->variant[i].origin, sizeof(c->variant[i].origin), "%s", where);
	return 0;
}

/* Set one key in c from text; on error fill err naming key, value, where. */
static int apply(struct fsb_config *c, const char *name, const char *val,
		 enum fsb_src src, const char *where, char *err, size_t errlen)
{
	const struct set_key *k = find_key(name);
	char allowed[160], shown[80];
	int is_mount, slot;

	/* values in messages are cut short so the reason always fits */
	if (strlen(val) > 64)
		snprintf(shown, sizeof(shown), "%.60s...", val);
	else
		snprintf(shown, sizeof(shown), "%s", val);
	if (!k && !strncmp(name, VARIANT_KEY, strlen(VARIANT_KEY)))
		return apply_variant(c, name, val, shown, src, where, err, errlen);
	if (!k) {
		int fi = fs_slot(name, &is_mount);
		if (fi < 0)
			return seterr(err, errlen, "%s: unknown key '%s' (see 'fsbench --help' for the set_keys)",
				      where, name);
		char *dst = is_mount ? c->mount_opts[fi] : c->mkfs_opts[fi];
		if (strlen(val) >= sizeof(c->mkfs_opts[0]))
			return seterr(err, errlen, "%s: %s=%s: too long; allowed: text up to %zu characters",
				      where, name, shown, sizeof(c->mkfs_opts[0]) - 1);
		strcpy(dst, val);
		slot = is_mount ? (int)SLOT_MOUNT(fi) : (int)SLOT_MKFS(fi);
		c->src[slot] = (unsigned char)src;
		snprintf(c->origin[slot], sizeof(c->origin[slot]), "%s", where);
		return 0;
	}
	allowed_text(k, allowed, sizeof(allowed));
	char *p = (char *)c + k->off;

	switch (k->type) {
	case K_U32_AUTO:
		if (!strcmp(val, "auto")) {
			*(uint32_t *)p = 0;
			break;
		}
		/* fall through */
	case K_U32:
	case K_SIZE: {
		uint64_t v;
		if (parse_num(val, k->type == K_SIZE, &v) < 0)
			return seterr(err, errlen, "%s: %s=%s: not a number; allowed: %s", where, name, shown, allowed);
		if (v < k->min || v > k->max)
			return seterr(err, errlen, "%s: %s=%s: out of range; allowed: %s", where, name, shown, allowed);
		if (k->size == 4)
			*(uint32_t *)p = (uint32_t)v;
		else
			*(uint64_t *)p = v;
		break;
	}
	case K_BOOL: {
		int b;
		if (parse_bool(val, &b) < 0)
			return seterr(err, errlen, "%s: %s=%s: not a boolean; allowed: %s", where, name, shown, allowed);
		*(int *)p = b;
		break;
	}
	case K_FSLIST: {
		/* each item a column (FS or FS:NAME), named once: no empty item, no
		 * repeat; that a variant is defined is checked once every layer is
		 * in (fsb_config_merge) */
		char list[sizeof(((struct fsb_config *)0)->fs)], why[240];
		const char *seen[FSB_MAX_COLUMNS];
		size_t n = 0;
		if (strlen(val) >= k->size)
			return seterr(err, errlen, "%s: %s=%s: too long; allowed: up to %zu characters", where, name,
				      shown, k->size - 1);
		if (!val[strspn(val, ",")])
			return seterr(err, errlen, "%s: %s=%s: empty list; allowed: %s", where, name, shown, allowed);
		strcpy(list, val);
		for (char *item = list;;) {
			char *comma = strchr(item, ',');
			if (comma)
				*comma = 0;
			n++;
			if (!*item)
				return seterr(err, errlen, "%s: %s=%s: item %zu is empty; allowed: %s",
					      where, name, shown, n, allowed);
			if (n > FSB_MAX_COLUMNS)
				return seterr(err, errlen, "%s: %s=%s: more than %d items", where, name, shown,
					      FSB_MAX_COLUMNS);
			if (!strchr(item, ':') && fsb_fs_index(item) < 0)
				return seterr(err, errlen, "%s: %s=%s: unknown filesystem '%s'; allowed: %s",
					      where, name, shown, item, allowed);
			if (fsb_variant_name_check(item, why, sizeof(why)) < 0)
				return seterr(err, errlen, "%s: %s=%s: %s", where, name, shown, why);
			for (size_t j = 0; j + 1 < n; j++)
				if (!strcmp(seen[j], item))
					return seterr(err, errlen, "%s: %s=%s: filesystem '%s' is listed twice; allowed: %s",
						      where, name, shown, item, allowed);
			seen[n - 1] = item;
			if (!comma)
				break;
			item = comma + 1;
		}
		strcpy(p, val);
		break;
	}
	case K_PROFILE: {
		size_t i;
		for (i = 0; i < NPROFILES; i++)
			if (strcmp(set_profiles[i].name, val) == 0)
				break;
		if (i == NPROFILES)
			return seterr(err, errlen, "%s: %s=%s: unknown profile; allowed: %s", where, name, shown, allowed);
		strcpy(p, val);
		break;
	}
	case K_STR:
		if (strlen(val) >= k->size)
			return seterr(err, errlen, "%s: %s=%s: too long; allowed: %s", where, name, shown, allowed);
		strcpy(p, val);
		break;
	case K_CHOICE:
		if (!is_choice(k, val))
			return seterr(err, errlen, "%s: %s=%s: not allowed; allowed: %s", where, name, shown, allowed);
		strcpy(p, val);
		break;
	}
	c->src[k - set_keys] = (unsigned char)src;
	snprintf(c->origin[k - set_keys], sizeof(c->origin[0]), "%s", where);
	return 0;
}

void fsb_config_defaults(struct fsb_config *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < NKEYS; i++)
		if (apply(c, set_keys[i].name, builtin(set_keys[i].def), SRC_DEFAULT, "default", NULL, 0) < 0)
			abort();	/* a bad built-in default is a programming error */
}

int fsb_layer_add(struct fsb_layer *l, const char *key, const char *val,
		  const char *where, char *err, size_t errlen)
{
	if (!fsb_config_known(key))
		return seterr(err, errlen, "%s: unknown key '%s' (see 'fsbench --help' for the set_keys)", where, key);
	if (l->n >= sizeof(l->kv) / sizeof(l->kv[0]))
		return seterr(err, errlen, "%s: too many settings", where);
	l->kv[l->n].key = strdup(key);
	l->kv[l->n].val = strdup(val);
	if (!l->kv[l->n].key || !l->kv[l->n].val)
		return seterr(err, errlen, "%s: out of memory", where);
	snprintf(l->kv[l->n].where, sizeof(l->kv[l->n].where), "%s", where);
	l->n++;
	return 0;
}

void fsb_layer_free(struct fsb_layer *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->kv[i].key);
		free(l->kv[i].val);
	}
	l->n = 0;
}

/* One setting of a config file, for the reader of lib/kv.h. */
static int layer_kv(void *ctx, const char *key, const char *val, const char *where,
		    char *err, size_t errlen)
{
	return fsb_layer_add(ctx, key, val, where, err, errlen) < 0 ? -1 : 0;
}

int fsb_layer_file(struct fsb_layer *l, const char *path, char *err, size_t errlen)
{
	return fsb_kv_file(path, "config", layer_kv, l, err, errlen) ? -1 : 0;
}

int fsb_layer_cmdline(struct fsb_layer *l, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char buf[4096], word[1024];
	size_t n;
	const char *p;

	if (!f)
		return seterr(err, errlen, "kernel command line %s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = buf;
	for (;;) {
		size_t w = 0;
		int quoted = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		while (*p && (quoted || !isspace((unsigned char)*p))) {
			if (*p == '"')
				quoted = !quoted;
			else if (w < sizeof(word) - 1)
				word[w++] = *p;
			p++;
		}
		word[w] = 0;
		if (strncmp(word, "fsbench.", 8) != 0)
			continue;
		char *eq = strchr(word + 8, '=');
		if (!eq)
			return seterr(err, errlen, "kernel command line: '%s': expected fsbench.KEY=VALUE", word);
		*eq = 0;
		if (fsb_layer_add(l, word + 8, eq + 1, "kernel command line", err, errlen) < 0)
			return -1;
	}
	return 0;
}

int fsb_config_column(const struct fsb_config *c, const char *name, struct fsb_column *col)
{
	char why[240];
	const struct fsb_variant *v;

	if (fsb_variant_name_check(name, why, sizeof(why)) < 0 || strlen(name) >= sizeof(col->name))
		return -1;
	memset(col, 0, sizeof(*col));
	snprintf(col->name, sizeof(col->name), "%s", name);
	col->fsi = fsb_variant_base(name);
	if (!strchr(name, ':')) {
		snprintf(col->source, sizeof(col->source), "the filesystem table");
		return 0;
	}
	col->is_variant = 1;
	for (size_t i = 0; i < c->nvariant; i++)
		if (!strcmp(c->variant[i].name, name)) {
			const struct fsb_uvariant *u = &c->variant[i];
			const char *src = fsb_src_name((enum fsb_src)u->src);
			strcpy(col->mkfs, u->mkfs);
			strcpy(col->mount, u->mount);
			strcpy(col->sysfs, u->sysfs);
			/* "config file x.conf:3", "command line --variant.ext4:x" */
			if (!strncmp(u->origin, src, strlen(src)))
				snprintf(col->source, sizeof(col->source), "%s", u->origin);
			else
				snprintf(col->source, sizeof(col->source), "%s %s", src, u->origin);
			return 0;
		}
	if (!(v = fsb_variant_builtin(name)))
		return -1;
	snprintf(col->mkfs, sizeof(col->mkfs), "%s", v->mkfs);
	snprintf(col->mount, sizeof(col->mount), "%s", v->mount);
	snprintf(col->source, sizeof(col->source), "built in");
	col->unsafe = v->unsafe;
	return 0;
}

/* The user's row of a variant, NULL when it is the built-in one or none. */
static const struct fsb_uvariant *user_variant(const struct fsb_config *c, const char *name)
{
	for (size_t i = 0; i < c->nvariant; i++)
		if (!strcmp(c->variant[i].name, name))
			return &c->variant[i];
	return NULL;
}

/* The layer a setting came from, as a person names it: "default",
 * "profile smoke", "config file my.conf:2", "command line --dirs". */
static const char *layer_text(const struct fsb_config *c, size_t slot, char *buf, size_t len)
{
	const char *src = fsb_src_name((enum fsb_src)c->src[slot]);
	const char *where = c->origin[slot];

	if (c->src[slot] == SRC_DEFAULT || !*where)
		snprintf(buf, len, "%s", src);
	else if (!strncmp(where, src, strlen(src)))
		snprintf(buf, len, "%s", where);
	else
		snprintf(buf, len, "%s %s", src, where);
	return buf;
}

int fsb_config_merge(struct fsb_config *c, struct fsb_layer **layers, size_t nlayers,
		     char *err, size_t errlen)
{
	const char *profile = NULL;
	const char *pwhere = "default";

	fsb_config_defaults(c);
	/* The profile is chosen first (highest layer naming one wins) ... */
	for (size_t i = 0; i < nlayers; i++)
		for (size_t j = 0; j < layers[i]->n; j++)
			if (strcmp(layers[i]->kv[j].key, "profile") == 0) {
				profile = layers[i]->kv[j].val;
				pwhere = layers[i]->kv[j].where;
				if (apply(c, "profile", profile, layers[i]->src, pwhere, err, errlen) < 0)
					return -1;
			}
	/* ... its values sit above the defaults and below every layer. */
	for (size_t i = 0; i < NPROFILES; i++) {
		if (strcmp(set_profiles[i].name, c->profile) != 0)
			continue;
		for (size_t j = 0; j < PROFILE_KV && set_profiles[i].kv[j][0]; j++) {
			char where[64];
			snprintf(where, sizeof(where), "profile %s", c->profile);
			if (apply(c, set_profiles[i].kv[j][0], builtin(set_profiles[i].kv[j][1]), SRC_PROFILE, where, err, errlen) < 0)
				return -1;
		}
	}
	for (size_t i = 0; i < nlayers; i++)
		for (size_t j = 0; j < layers[i]->n; j++) {
			if (strcmp(layers[i]->kv[j].key, "profile") == 0)
				continue;
			if (apply(c, layers[i]->kv[j].key, layers[i]->kv[j].val, layers[i]->src,
				  layers[i]->kv[j].where, err, errlen) < 0)
				return -1;
		}
	/* every variant in fs defined, by a setting or the built-in table */
	char list[sizeof(c->fs)];
	snprintf(list, sizeof(list), "%s", c->fs);
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct fsb_column col;
		char names[200];
		if (fsb_config_column(c, tok, &col) == 0)
			continue;
		fsb_variant_names(names, sizeof(names), fsb_variant_base(tok));
		return seterr(err, errlen, "%s: fs=%.60s%s: unknown variant '%s'; allowed: %s%sor "
			"one set with variant.%s = mkfs:ARGS mount:OPTS",
			      c->origin[find_key("fs") - set_keys], c->fs, strlen(c->fs) > 60 ? "..." : "",
			      tok, names, names[0] ? " (built in), " : "", tok);
	}
	if (c->workers > c->dirs) {
		/* two settings, each perhaps from another layer: name both */
		char lw[FSB_PATH_MAX / 2 + 32], ld[sizeof(lw)];
		return seterr(err, errlen, "workers=%u (%s) and dirs=%u (%s): more workers than dirs; "
			      "allowed: workers from 1 to dirs", c->workers,
			      layer_text(c, (size_t)(find_key("workers") - set_keys), lw, sizeof(lw)),
			      c->dirs, layer_text(c, (size_t)(find_key("dirs") - set_keys), ld, sizeof(ld)));
	}
	if (c->target[0] && c->dir[0])
		return seterr(err, errlen, "%s: target=%s and dir=%s: give one of them, not both",
			      c->origin[find_key("dir") - set_keys], c->target, c->dir);
	char why[256];
	if (fsb_fio_list_check(c->fio, why, sizeof(why)) < 0)
		return seterr(err, errlen, "%s: fio=%s: %s", c->origin[find_key("fio") - set_keys], c->fio, why);
	if (c->dir[0] && c->fill)
		return seterr(err, errlen, "%s: fill=1 and dir=%s: fill needs a target (it fills a whole filesystem)",
			      c->origin[find_key("fill") - set_keys], c->dir);
	if (c->dir[0] && c->fio_raw && c->fio[0])
		return seterr(err, errlen, "%s: fio_raw=1 and dir=%s: the raw workloads need a target",
			      c->origin[find_key("fio_raw") - set_keys], c->dir);
	if (c->dir[0] && strcmp(c->sustain, "off"))
		return seterr(err, errlen, "%s: sustain=%s and dir=%s: the sustained write needs a "
			"target (its disk's speed and temperature)",
			      c->origin[find_key("sustain") - set_keys], c->sustain, c->dir);
	if (strcmp(c->sustain, "off") && c->sustain_base + c->sustain_hold > c->sustain_seconds)
		return seterr(err, errlen, "%s: sustain_base=%u + sustain_hold=%u is more than "
			"sustain_seconds=%u: no cliff could be found; allowed: sustain_base + "
			"sustain_hold up to sustain_seconds",
			      c->origin[find_key("sustain_seconds") - set_keys], c->sustain_base, c->sustain_hold, c->sustain_seconds);
	if (c->fileserver_aged && !c->fileserver)
		return seterr(err, errlen, "%s: fileserver_aged=1 without fileserver=1: the aged "
			"run is the file-server workload's second",
			      c->origin[find_key("fileserver_aged") - set_keys]);
	if (c->fileserver_aged && c->dir[0])
		return seterr(err, errlen, "%s: fileserver_aged=1 and dir=%s: the aging fills a "
			"whole filesystem, it needs a target",
			      c->origin[find_key("fileserver_aged") - set_keys], c->dir);
	if (c->powercut && c->dir[0])
		return seterr(err, errlen, "%s: powercut=%u and dir=%s: the power-cut campaign "
			"needs a target (it makes the filesystem it checks)",
			      c->origin[find_key("powercut") - set_keys], c->powercut, c->dir);
	if (c->powercut && (c->target[0] || c->dir[0]) && !c->log[0])
		return seterr(err, errlen, "%s: powercut=%u without log: the campaign needs the "
			"results log, it is what the next boot reads",
			      c->origin[find_key("powercut") - set_keys], c->powercut);
	return 0;
}

static void show_line(int fd, const char *name, const char *val, const struct fsb_config *c, size_t slot)
{
	const char *src = fsb_src_name((enum fsb_src)c->src[slot]);
	const char *where = c->src[slot] > SRC_PROFILE ? c->origin[slot] : "";

	/* "command line --rounds", not "command line command line --rounds" */
	if (*where && strncmp(where, src, strlen(src)) == 0)
		dprintf(fd, "%-18s = %-24s # %s\n", name, val, where);
	else
		dprintf(fd, "%-18s = %-24s # %s%s%s\n", name, val, src, *where ? " " : "", where);
}

static void value_text(const struct fsb_config *c, const struct set_key *k, char *buf, size_t len)
{
	const char *p = (const char *)c + k->off;

	switch (k->type) {
	case K_U32: snprintf(buf, len, "%u", *(const uint32_t *)p); break;
	case K_U32_AUTO:
		if (*(const uint32_t *)p)
			snprintf(buf, len, "%u", *(const uint32_t *)p);
		else
			snprintf(buf, len, "auto");
		break;
	case K_SIZE: snprintf(buf, len, "%" PRIu64, *(const uint64_t *)p); break;
	case K_BOOL: snprintf(buf, len, "%d", *(const int *)p); break;
	default: snprintf(buf, len, "%s", p); break;
	}
}

int fsb_config_get(const struct fsb_config *c, const char *name, char *buf, size_t len)
{
	const struct set_key *k = find_key(name);
	int is_mount, fi;

	if (k) {
		value_text(c, k, buf, len);
		return 0;
	}
	if (!strncmp(name, VARIANT_KEY, strlen(VARIANT_KEY))) {
		struct fsb_column col;
		const char *v = name + strlen(VARIANT_KEY);
		if (!strchr(v, ':') || fsb_config_column(c, v, &col) < 0)
			return -1;
		return fsb_variant_text_sysfs(buf, len, col.mkfs, col.mount, col.sysfs) < 0 ? -1 : 0;
	}
	fi = fs_slot(name, &is_mount);
	if (fi < 0)
		return -1;
	snprintf(buf, len, "%s", is_mount ? c->mount_opts[fi] : c->mkfs_opts[fi]);
	return 0;
}

void fsb_config_show(const struct fsb_config *c, int fd)
{
	char val[FSB_PATH_MAX + 8], name[64];

	for (size_t i = 0; i < NKEYS; i++) {
		value_text(c, &set_keys[i], val, sizeof(val));
		show_line(fd, set_keys[i].name, val, c, i);
	}
	for (size_t i = 0; i < fsb_fs_count; i++) {
		snprintf(name, sizeof(name), "mkfs_opts.%s", fsb_fs_table[i].name);
		show_line(fd, name, c->mkfs_opts[i], c, SLOT_MKFS(i));
		snprintf(name, sizeof(name), "mount_opts.%s", fsb_fs_table[i].name);
		show_line(fd, name, c->mount_opts[i], c, SLOT_MOUNT(i));
	}
	/* the variants: the built-in rows (or the setting replacing one), then
	 * the settings' own */
	for (size_t i = 0; i < fsb_variant_count + c->nvariant; i++) {
		const struct fsb_uvariant *u = i < fsb_variant_count ?
			user_variant(c, fsb_variant_table[i].name) : &c->variant[i - fsb_variant_count];
		const char *vn = i < fsb_variant_count ? fsb_variant_table[i].name : u->name;
		struct fsb_column col;
		if (i >= fsb_variant_count && fsb_variant_builtin(vn))
			continue;	/* shown in place of its built-in row */
		if (fsb_config_column(c, vn, &col) < 0 || fsb_variant_text_sysfs(val, sizeof(val), col.mkfs, col.mount,
										      col.sysfs) < 0)
			continue;
		snprintf(name, sizeof(name), VARIANT_KEY "%s", vn);
		dprintf(fd, "%-18s = %-24s # %s\n", name, val, col.source);
	}
}

/* Does a profile set this key (its default is then the profile's)? */
static int set_by_profile(const struct set_key *k)
{
	for (size_t i = 0; i < NPROFILES; i++)
		for (size_t j = 0; j < PROFILE_KV && set_profiles[i].kv[j][0]; j++)
			if (!strcmp(set_profiles[i].kv[j][0], k->name))
				return 1;
	return 0;
}

void fsb_config_help(FILE *f)
{
	char allowed[160];

	for (size_t i = 0; i < NKEYS; i++) {
		allowed_text(&set_keys[i], allowed, sizeof(allowed));
		fprintf(f, "  %-16s ", set_keys[i].name);
		fsb_doc_put(f, DOC_TEXT, set_keys[i].help);
		fprintf(f, "\n  %-16s   default: %s%s; allowed: %s\n", "",
			set_keys[i].def[0] ? builtin(set_keys[i].def) : "(none)",
			set_by_profile(&set_keys[i]) ? " (set by the profile)" : "", allowed);
	}
	fprintf(f, "  %-16s ", "mkfs_opts.FS");
	fsb_doc_put(f, DOC_TEXT, set_help_mkfs_opts);
	fprintf(f, "\n  %-16s ", "mount_opts.FS");
	fsb_doc_put(f, DOC_TEXT, set_help_mount_opts);
	fprintf(f, "\n  %-16s ", "variant.FS:NAME");
	fsb_doc_put(f, DOC_TEXT, set_help_variant);
	fprintf(f, "\n  %-16s   built in:", "");
	for (size_t i = 0; i < fsb_variant_count; i++) {
		char text[300];
		const struct fsb_variant *v = &fsb_variant_table[i];
		if (fsb_variant_text(text, sizeof(text), v->mkfs, v->mount) >= 0)
			fprintf(f, "\n  %-16s     %-15s %s%s%.*s", "", v->name, text,
				v->unsafe ? "  UNSAFE: " : "",
				v->unsafe ? (int)strcspn(v->unsafe, ":") : 0, v->unsafe ? v->unsafe : "");
	}
	fputc('\n', f);
}

/* One row of the settings table: markdown (key | default | meaning) or an
 * scdoc list item. */
static void doc_row(FILE *f, enum fsb_doc_fmt fmt, const char *name, const char *def,
		    const char *help, size_t helplen, const char *allowed)
{
	/* as long as the help is: a profile's runs to more than 2 KiB */
	size_t len = helplen + (allowed ? strlen(allowed) + 12 : 0) + 1;
	char *text = malloc(len);

	if (!text) {
		fputs("(out of memory)\n", f);
		return;
	}
	snprintf(text, len, "%.*s%s%s", (int)helplen, help,
		 allowed ? "; allowed: " : "", allowed ? allowed : "");
	if (fmt == DOC_MARKDOWN) {
		fprintf(f, "| `%s` |", name);
		if (!strcmp(def, "profile"))
			fputs(" profile", f);
		else if (def[0])
			fprintf(f, " `%s`", def);
		fputs(" | ", f);
		fsb_doc_put(f, fmt, text);
		fputs(" |\n", f);
	} else {
		fputc('*', f);
		fsb_doc_put(f, fmt, name);
		fputs("*", f);
		if (def[0]) {
			fputs(!strcmp(def, "profile") ? " (default: set by the profile)" : "=", f);
			if (strcmp(def, "profile"))
				fsb_doc_put(f, fmt, def);
		}
		fputs("\n\t", f);
		fsb_doc_put(f, fmt, text);
		fputs("\n\n", f);
	}
	free(text);
}

void fsb_config_doc(FILE *f, enum fsb_doc_fmt fmt)
{
	char allowed[160];

	if (fmt == DOC_TEXT) {
		fsb_config_help(f);
		return;
	}
	if (fmt == DOC_MARKDOWN)
		fputs("| key | default | meaning |\n|---|---|---|\n", f);
	for (size_t i = 0; i < NKEYS; i++) {
		const struct set_key *k = &set_keys[i];
		size_t n = strlen(k->help);
		/* a choice's help ends in ": a|b"; the allowed text names them */
		if (k->type == K_CHOICE)
			n = (size_t)(strrchr(k->help, ':') - k->help);
		allowed_text(k, allowed, sizeof(allowed));
		doc_row(f, fmt, k->name, set_by_profile(k) ? "profile" : builtin(k->def), k->help, n, allowed);
	}
	doc_row(f, fmt, "mkfs_opts.FS", "", set_help_mkfs_opts, strlen(set_help_mkfs_opts), NULL);
	doc_row(f, fmt, "mount_opts.FS", "", set_help_mount_opts, strlen(set_help_mount_opts), NULL);
	/* the built-in variants named after the help, from their table */
	char vtext[2048];
	size_t o = (size_t)snprintf(vtext, sizeof(vtext), "%s; built in:", set_help_variant);
	for (size_t i = 0; i < fsb_variant_count && o < sizeof(vtext); i++) {
		char def[300];
		const struct fsb_variant *v = &fsb_variant_table[i];
		if (fsb_variant_text(def, sizeof(def), v->mkfs, v->mount) >= 0)
			o += (size_t)snprintf(vtext + o, sizeof(vtext) - o, "%s `%s` (`%s`)",
					      i ? "," : "", v->name, def);
	}
	doc_row(f, fmt, "variant.FS:NAME", "", vtext, strlen(vtext), NULL);
}

int fsb_config_json(const struct fsb_config *c, char *buf, size_t len)
{
	size_t o = 0;
	char val[FSB_PATH_MAX + 8], q[2 * FSB_PATH_MAX], name[64];

#define PUT(...) do { \
		int _n = snprintf(buf + o, len - o, __VA_ARGS__); \
		if (_n < 0 || (size_t)_n >= len - o) \
			return -1; \
		o += (size_t)_n; \
	} while (0)
	PUT("{");
	for (size_t i = 0; i < NKEYS; i++) {
		value_text(c, &set_keys[i], val, sizeof(val));
		if (set_keys[i].type == K_U32 || set_keys[i].type == K_SIZE || set_keys[i].type == K_BOOL ||
		    (set_keys[i].type == K_U32_AUTO && strcmp(val, "auto"))) {
			PUT("%s\"%s\":%s", i ? "," : "", set_keys[i].name, val);
		} else {
			json_quote(q, sizeof(q), val);
			PUT("%s\"%s\":%s", i ? "," : "", set_keys[i].name, q);
		}
	}
	for (size_t i = 0; i < fsb_fs_count; i++) {
		snprintf(name, sizeof(name), "mkfs_opts.%s", fsb_fs_table[i].name);
		json_quote(q, sizeof(q), c->mkfs_opts[i]);
		PUT(",\"%s\":%s", name, q);
		snprintf(name, sizeof(name), "mount_opts.%s", fsb_fs_table[i].name);
		json_quote(q, sizeof(q), c->mount_opts[i]);
		PUT(",\"%s\":%s", name, q);
	}
	for (size_t i = 0; i < c->nvariant; i++) {	/* the settings; built-in rows are the version's */
		if (fsb_variant_text_sysfs(val, sizeof(val), c->variant[i].mkfs, c->variant[i].mount,
					   c->variant[i].sysfs) < 0)
			return -1;
		json_quote(q, sizeof(q), val);
		PUT(",\"" VARIANT_KEY "%s\":%s", c->variant[i].name, q);
	}
	PUT("}");
#undef PUT
	return (int)o;
}

/* criteria.c: criteria parsing: a criteria file's `key = value` lines
 * into rules, each key's value by its row's parse hook (rules.h). */
#include "report/verdict/rules.h"
#include "lib/kv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static int seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Is word (n bytes) one of the comma-separated names? NULL list: any. */
int vd_in_list(const char *list, const char *word, size_t n)
{
	if (!list)
		return 1;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && strncmp(p, word, n) == 0)
			return 1;
		p += l;
		if (*p)
			p++;
	}
	return 0;
}

static int is_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* A filesystem a rule may name: one of c->fs_names, or a variant of one,
 * FS:NAME (NAME a word: a column of its own, run/fs/variant.h). */
static int is_fs_name(const struct vd_criteria *c, const char *s)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	char base[32];

	if (!n || n >= sizeof(base) || (colon && !is_word(colon + 1)))
		return 0;
	memcpy(base, s, n);
	base[n] = 0;
	return is_word(base) && vd_in_list(c->fs_names, base, n);
}

void vd_criteria_init(struct vd_criteria *c, const char *fs_names,
		      const char *phase_names, const char *verify_phases)
{
	memset(c, 0, sizeof(*c));
	c->fs_names = fs_names;
	c->phase_names = phase_names;
	c->verify_phases = verify_phases;
}

void vd_criteria_free(struct vd_criteria *c)
{
	free(c->rule);
	for (size_t i = 0; i < c->nignore; i++)
		free(c->ignore[i]);
	free(c->ignore);
	c->rule = NULL;
	c->ignore = NULL;
	c->n = c->cap = c->nignore = c->capignore = 0;
}

int vd_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, nc * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

struct vd_rule *vd_new_rule(struct vd_criteria *c, const struct vd_key *k, const char *where)
{
	if (vd_grow((void **)&c->rule, &c->cap, c->n, sizeof(*c->rule)))
		return NULL;
	struct vd_rule *u = &c->rule[c->n++];
	memset(u, 0, sizeof(*u));
	u->key = k;
	strcpy(u->fs, "*");
	strcpy(u->phase, "*");
	snprintf(u->where, sizeof(u->where), "%s", where);
	return u;
}

double vd_percent(const char *s)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || !(d >= 0) || !isfinite(d))
		return -1;
	if (*end == '%')
		end++;
	return *end ? -1 : d / 100;
}

/* A number, whole when whole is set. */
static int parse_number(const char *s, int whole, int positive, double *out)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || *end || !isfinite(d) || d < 0 || (positive && d <= 0))
		return -1;
	if (whole && d != floor(d))
		return -1;
	*out = d;
	return 0;
}

/* "16GT/s x4", "16 GT/s x4", "8.0GT/s": speed in GT/s and width (0: any). */
static int parse_link(const char *s, double *speed, double *width)
{
	char *end;

	*speed = strtod(s, &end);
	if (end == s || !(*speed > 0))
		return -1;
	while (*end == ' ')
		end++;
	if (strncmp(end, "GT/s", 4) != 0)
		return -1;
	end += 4;
	while (*end == ' ')
		end++;
	*width = 0;
	if (!*end)
		return 0;
	if (*end != 'x')
		return -1;
	s = end + 1;
	*width = strtod(s, &end);
	return end == s || *end || !(*width >= 1) || *width != floor(*width) ? -1 : 0;
}

/* The .[FS.]PHASE[.ROUNDS] of a phase key into u. */
static int parse_phase_key(const struct vd_criteria *c, struct vd_rule *u, const char *key,
			   const char *rest, const char *where, char *err, size_t errlen)
{
	char part[3][32];
	size_t n = 0;

	for (const char *p = rest; n < 3;) {
		size_t l = strcspn(p, ".");
		if (l == 0 || l >= sizeof(part[0]))
			return seterr(err, errlen, "%s: %s: expected %.*s.[FS.]PHASE[.ROUNDS]",
				      where, key, (int)(rest - key - 1), key);
		memcpy(part[n], p, l);
		part[n++][l] = 0;
		p += l;
		if (!*p)
			break;
		p++;
		if (n == 3)
			return seterr(err, errlen, "%s: %s: expected %.*s.[FS.]PHASE[.ROUNDS]",
				      where, key, (int)(rest - key - 1), key);
	}
	size_t i = 0;
	/* FS. when there are 3 parts, or 2 whose second is not a round set */
	int has_rounds = n >= 2 && (strcmp(part[n - 1], "all") == 0 || strcmp(part[n - 1], "fresh") == 0 ||
				     strcmp(part[n - 1], "aged") == 0);
	if (n == 3 || (n == 2 && !has_rounds)) {
		if (strcmp(part[0], "*") && !is_fs_name(c, part[0]))
			return seterr(err, errlen, "%s: %s: unknown filesystem '%s'; allowed: * or %s, or a variant FS:NAME",
				      where, key, part[0], c->fs_names ? c->fs_names : "a name");
		strcpy(u->fs, part[0]);
		i = 1;
	}
	if (strcmp(part[i], "*") && !(is_word(part[i]) && vd_in_list(c->phase_names, part[i], strlen(part[i]))))
		return seterr(err, errlen, "%s: %s: unknown phase '%s'; allowed: * or %s",
			      where, key, part[i], c->phase_names ? c->phase_names : "a name");
	strcpy(u->phase, part[i]);
	if (i + 1 < n) {
		if (n == 3 && !has_rounds)
			return seterr(err, errlen, "%s: %s: unknown rounds '%s'; allowed: all, fresh, aged",
				      where, key, part[2]);
		u->rounds = !strcmp(part[n - 1], "fresh") ? VD_FRESH :
			    !strcmp(part[n - 1], "aged") ? VD_AGED : VD_ALL;
	}
	return 0;
}

int vd_parse_phase(const struct vd_arg *a, struct vd_rule *u)
{
	if (parse_phase_key(a->c, u, a->key, a->rest, a->where, a->err, a->errlen))
		return -1;
	return parse_number(a->val, 0, 1, &u->limit) ? 1 : 0;
}

int vd_parse_all(const struct vd_arg *a, struct vd_rule *u)
{
	(void)u;
	return strcmp(a->val, "all") != 0;
}

int vd_parse_clean(const struct vd_arg *a, struct vd_rule *u)
{
	(void)u;
	return strcmp(a->val, "clean") != 0;
}

int vd_parse_honest(const struct vd_arg *a, struct vd_rule *u)
{
	(void)u;
	return strcmp(a->val, "honest") != 0;
}

int vd_parse_count(const struct vd_arg *a, struct vd_rule *u)
{
	return parse_number(a->val, 1, 0, &u->limit) ? 1 : 0;
}

int vd_parse_positive(const struct vd_arg *a, struct vd_rule *u)
{
	return parse_number(a->val, 0, 1, &u->limit) ? 1 : 0;
}

int vd_parse_link(const struct vd_arg *a, struct vd_rule *u)
{
	if (strcmp(a->val, "max") == 0)
		return 0;	/* limit and width 0: the device's maximum */
	return parse_link(a->val, &u->limit, &u->width) ? 1 : 0;
}

/* FS,FS,...: names of c (or variants); any text when a run gave it. */
int vd_parse_fs_list(const struct vd_arg *a, struct vd_rule *u)
{
	const char *val = a->val;

	if (a->trusted) {
		snprintf(u->text, sizeof(u->text), "%s", val);
		return 0;
	}
	if (!*val || strlen(val) >= sizeof(u->text))
		return 1;
	for (const char *p = val; *p;) {
		size_t l = strcspn(p, ",");
		char w[32];
		if (!l || l >= sizeof(w))
			return 1;
		memcpy(w, p, l);
		w[l] = 0;
		if (!is_fs_name(a->c, w))
			return seterr(a->err, a->errlen, "%s: %s: unknown filesystem '%s'; allowed: %s, or a variant FS:NAME",
				      a->where, a->key, w, a->c->fs_names ? a->c->fs_names : "names");
		p += l;
		if (*p)
			p++;
	}
	snprintf(u->text, sizeof(u->text), "%s", val);
	return 0;
}

/* kmsg_ignore: no rule, patterns for the kmsg rules. */
int vd_parse_ignore(const struct vd_arg *a, struct vd_rule *u)
{
	struct vd_criteria *c = a->c;
	size_t before = c->nignore;

	(void)u;
	for (const char *p = a->val; *p;) {
		size_t l = strcspn(p, ",");
		const char *s = p, *e = p + l;
		while (s < e && *s == ' ')
			s++;
		while (e > s && e[-1] == ' ')
			e--;
		if (e > s) {
			if (vd_grow((void **)&c->ignore, &c->capignore, c->nignore, sizeof(*c->ignore)))
				return seterr(a->err, a->errlen, "%s: %s: out of memory", a->where, a->key);
			if (!(c->ignore[c->nignore] = strndup(s, (size_t)(e - s))))
				return seterr(a->err, a->errlen, "%s: %s: out of memory", a->where, a->key);
			c->nignore++;
		}
		p += l;
		if (*p)
			p++;
	}
	if (c->nignore == before)
		return seterr(a->err, a->errlen, "%s: %s: an empty pattern; allowed: %s",
			      a->where, a->key, a->k->value);
	return 0;
}

int vd_add(struct vd_criteria *c, const char *key, const char *val, const char *where,
	   int trusted, char *err, size_t errlen)
{
	const struct vd_key *k = NULL;
	const char *rest = NULL;

	for (size_t i = 0; i < vd_nkeys && !k; i++) {
		size_t l = strlen(vd_keys[i].name);
		if (!vd_keys[i].value || strncmp(key, vd_keys[i].name, l) != 0)
			continue;
		if (vd_keys[i].phase && key[l] == '.') {
			k = &vd_keys[i];
			rest = key + l + 1;
		} else if (!vd_keys[i].phase && !key[l]) {
			k = &vd_keys[i];
		}
	}
	if (!k)
		return seterr(err, errlen, "%s: %s: unknown key (see 'fsbench help criteria')", where, key);
	struct vd_arg a = { .c = c, .k = k, .key = key, .rest = rest, .val = val, .where = where,
			    .trusted = trusted, .err = err, .errlen = errlen };
	struct vd_rule *u = NULL;
	if (k->eval && !(u = vd_new_rule(c, k, where)))
		return seterr(err, errlen, "%s: %s: out of memory", where, key);
	int rc = k->parse(&a, u);
	if (rc && u)
		c->n--;
	if (rc > 0)
		return seterr(err, errlen, "%s: %s: bad value '%s'; allowed: %s", where, key, val, k->value);
	return rc ? -1 : 0;
}

int vd_criteria_add(struct vd_criteria *c, const char *key, const char *val,
		    const char *where, char *err, size_t errlen)
{
	return vd_add(c, key, val, where, 0, err, errlen);
}

static int kv_add(void *ctx, const char *key, const char *val, const char *where,
		  char *err, size_t errlen)
{
	return vd_criteria_add(ctx, key, val, where, err, errlen);
}

int vd_criteria_file(struct vd_criteria *c, const char *path, char *err, size_t errlen)
{
	return fsb_kv_file(path, "criteria", kv_add, c, err, errlen);
}


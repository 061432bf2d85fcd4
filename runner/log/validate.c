/* validate.c: a record against the schema table (log/validate.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log/validate.h"
#include "log/schema.h"

struct chk {
	const char *type;	/* the record's type, for the messages */
	unsigned flags;
	fsb_check_cb cb;
	void *arg;
	int n;
};

__attribute__((format(printf, 2, 3)))
static void bad(struct chk *c, const char *fmt, ...)
{
	char msg[512];
	int o = snprintf(msg, sizeof(msg), "%s: ", c->type);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg + o, sizeof(msg) - (size_t)o, fmt, ap);
	va_end(ap);
	c->n++;
	c->cb(c->arg, msg);
}

/* The JSON type of v as an enum fsb_jtype bit (a number is an integer when
 * written without a fraction or an exponent). */
static unsigned jtype(const struct jsonr *v)
{
	switch (v->type) {
	case JSONR_NULL: return FSB_J_NULL;
	case JSONR_BOOL: return FSB_J_BOOL;
	case JSONR_NUM: return strpbrk(v->str, ".eE") ? FSB_J_NUM : FSB_J_INT;
	case JSONR_STR: return FSB_J_STR;
	case JSONR_OBJ: return FSB_J_OBJ;
	case JSONR_ARR: break;
	}
	return 0;	/* an array: its elements say */
}

/* v's type is one the field allows: an integer is a number, null a number
 * that was not finite; an array's elements all of its kind. */
static int type_ok(const struct jsonr *v, unsigned types)
{
	unsigned t = jtype(v);

	if (v->type == JSONR_ARR) {
		unsigned want = types & FSB_J_ARR_OBJ ? FSB_J_OBJ : types & FSB_J_ARR_NUM ?
			FSB_J_NUM : types & FSB_J_ARR_INT ? FSB_J_INT : 0;
		if (!want)
			return 0;
		for (const struct jsonr *e = v->child; e; e = e->next)
			if (!type_ok(e, want))
				return 0;
		return 1;
	}
	if (types & FSB_J_NUM)
		types |= FSB_J_INT | FSB_J_NULL;
	return (t & types) != 0;
}

static const char *vtype_text(const struct jsonr *v)
{
	if (v->type == JSONR_NUM)
		return jtype(v) == FSB_J_INT ? "an integer" : "a number";
	switch (v->type) {
	case JSONR_NULL: return "null";
	case JSONR_BOOL: return "a boolean";
	case JSONR_STR: return "a string";
	case JSONR_ARR: return "an array (or one of its elements is not of its kind)";
	default: return "an object";
	}
}

static void check_obj(struct chk *c, const struct jsonr *obj, const struct fsb_shape *s,
		      const struct fsb_shape *also, const char *prefix);

static void check_member(struct chk *c, const struct jsonr *v, const struct fsb_field *d,
			 const char *path)
{
	char types[128], sub[256];

	if (!(c->flags & FSB_CHECK_NAMES) && !type_ok(v, d->types)) {
		bad(c, "field \"%s\" is %s; the schema says %s", path, vtype_text(v),
		    fsb_jtype_text(d->types, types, sizeof(types)));
		return;
	}
	if (!d->sub || d->sub->open)
		return;
	if (v->type == JSONR_OBJ) {
		if (snprintf(sub, sizeof(sub), "%s.", path) < (int)sizeof(sub))
			check_obj(c, v, d->sub, NULL, sub);
	} else if (v->type == JSONR_ARR) {
		size_t i = 0;
		for (const struct jsonr *e = v->child; e; e = e->next, i++) {
			if (e->type != JSONR_OBJ)
				continue;
			if (snprintf(sub, sizeof(sub), "%s[%zu].", path, i) < (int)sizeof(sub))
				check_obj(c, e, d->sub, NULL, sub);
		}
	}
}

/* The members of obj against shape s (and also, the common fields). */
static void check_obj(struct chk *c, const struct jsonr *obj, const struct fsb_shape *s,
		      const struct fsb_shape *also, const char *prefix)
{
	char path[256];

	for (const struct jsonr *m = obj->child; m; m = m->next) {
		const struct fsb_field *d = fsb_shape_field(also, m->key);
		if (!d)
			d = fsb_shape_field(s, m->key);
		snprintf(path, sizeof(path), "%s%s", prefix, m->key);
		if (!d) {
			bad(c, "unknown field \"%s\"", path);
			continue;
		}
		check_member(c, m, d, path);
	}
	if (c->flags & FSB_CHECK_NAMES)
		return;
	const struct fsb_shape *sh[2] = { also, s };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; sh[k] && i < sh[k]->n; i++)
			if (sh[k]->f[i].required && !jsonr_get(obj, sh[k]->f[i].name))
				bad(c, "required field \"%s%s\" missing", prefix, sh[k]->f[i].name);
}

int fsb_check_value(const struct jsonr *rec, unsigned flags, fsb_check_cb cb, void *arg)
{
	struct chk c = { .type = "record", .flags = flags, .cb = cb, .arg = arg };
	const char *type = jsonr_str(jsonr_get(rec, "type"));
	int t;

	if (!jsonr_is(rec, JSONR_OBJ)) {
		bad(&c, "not a JSON object");
		return c.n;
	}
	if (!type) {
		bad(&c, "no \"type\" string");
		return c.n;
	}
	c.type = type;
	if ((t = fsb_rec_lookup(type)) < 0) {
		bad(&c, "unknown record type");
		return c.n;
	}
	check_obj(&c, rec, fsb_rec_types[t].shape, &fsb_rec_common, "");
	return c.n;
}

int fsb_check_text(const char *text, size_t len, unsigned flags, fsb_check_cb cb, void *arg)
{
	struct jsonr_doc *doc;
	struct jsonr_err je;
	int rc = jsonr_parse(text, len, &doc, &je);

	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		char msg[160];
		snprintf(msg, sizeof(msg), "record: not JSON: %s at column %zu", je.msg, je.column);
		cb(arg, msg);
		return 1;
	}
	rc = fsb_check_value(jsonr_root(doc), flags, cb, arg);
	jsonr_free(doc);
	return rc;
}

/* jsonr.c: a small, strict JSON reader (see jsonr.h). */
#include "lib/jsonr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena: every node and string of one document ---- */

struct jsonr_chunk {
	struct jsonr_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct jsonr_doc {
	struct jsonr_chunk *chunks;
	struct jsonr *root;
};

#define CHUNK_MIN 8192u

static void *arena_alloc(struct jsonr_doc *d, size_t size)
{
	const size_t align = sizeof(max_align_t);
	struct jsonr_chunk *c = d->chunks;

	if (size > SIZE_MAX / 2)
		return NULL;
	size = (size + align - 1) / align * align;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > CHUNK_MIN ? size : CHUNK_MIN;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = d->chunks;
		c->used = 0;
		c->cap = cap;
		d->chunks = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	return p;
}

void jsonr_free(struct jsonr_doc *d)
{
	if (!d)
		return;
	struct jsonr_chunk *c = d->chunks;
	while (c) {
		struct jsonr_chunk *n = c->next;
		free(c);
		c = n;
	}
	free(d);
}

const struct jsonr *jsonr_root(const struct jsonr_doc *d)
{
	return d ? d->root : NULL;
}

/* ---- parser ---- */

struct parser {
	const char *s;
	size_t len, pos;
	int depth;
	struct jsonr_doc *doc;
	struct jsonr_err *err;
	int rc;			/* first error: -EINVAL or -ENOMEM */
};

__attribute__((format(printf, 4, 5)))
static int fail_at(struct parser *p, size_t pos, int rc, const char *fmt, ...)
{
	if (p->rc)
		return p->rc;
	p->rc = rc;
	if (p->err) {
		va_list ap;
		p->err->column = pos + 1;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* "expected X" here, or "unexpected end of input" when the text ran out. */
static int expected(struct parser *p, const char *what)
{
	if (p->pos >= p->len)
		return fail_at(p, p->pos, -EINVAL, "unexpected end of input (expected %s)", what);
	unsigned char c = (unsigned char)p->s[p->pos];
	if (c >= 0x21 && c < 0x7f)
		return fail_at(p, p->pos, -EINVAL, "expected %s, found '%c'", what, c);
	return fail_at(p, p->pos, -EINVAL, "expected %s, found byte 0x%02x", what, c);
}

static int nomem(struct parser *p)
{
	return fail_at(p, p->pos, -ENOMEM, "out of memory");
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static struct jsonr *new_node(struct parser *p, enum jsonr_type t)
{
	struct jsonr *v = arena_alloc(p->doc, sizeof(*v));
	if (!v) {
		nomem(p);
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	v->type = t;
	return v;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at p->pos + 2 (after "\u"); returns the value or -1. */
static long read_u4(struct parser *p, size_t at)
{
	long v = 0;
	for (size_t i = 0; i < 4; i++) {
		if (at + i >= p->len) {
			p->pos = at + i;
			expected(p, "4 hex digits after \\u");
			return -1;
		}
		int h = hexval((unsigned char)p->s[at + i]);
		if (h < 0) {
			fail_at(p, at + i, -EINVAL, "invalid \\u escape: '%c' is not a hex digit",
				(unsigned char)p->s[at + i] >= 0x20 ? p->s[at + i] : '?');
			return -1;
		}
		v = v * 16 + h;
	}
	return v;
}

static size_t put_utf8(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at p->pos (which is '"'). The decoded text is never longer than
 * the source text, so one allocation of the source length is enough. */
static int parse_string(struct parser *p, const char **out, size_t *outlen)
{
	size_t start = p->pos + 1, end = start;

	if (peek(p) != '"')
		return expected(p, "'\"'");
	/* find the closing quote first, to size the buffer */
	while (end < p->len && p->s[end] != '"') {
		if (p->s[end] == '\\')
			end++;
		end++;
	}
	if (end >= p->len) {
		p->pos = p->len;
		return fail_at(p, p->len, -EINVAL, "unexpected end of input (unterminated string)");
	}
	char *o = arena_alloc(p->doc, end - start + 1);
	if (!o)
		return nomem(p);
	size_t n = 0, i = start;
	while (i < end) {
		unsigned char c = (unsigned char)p->s[i];
		if (c < 0x20)
			return fail_at(p, i, -EINVAL, "control character 0x%02x in string", c);
		if (c != '\\') {
			o[n++] = (char)c;
			i++;
			continue;
		}
		char e = p->s[i + 1];	/* i + 1 < end: a '\\' never ends the scan */
		switch (e) {
		case '"': o[n++] = '"'; break;
		case '\\': o[n++] = '\\'; break;
		case '/': o[n++] = '/'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'u': {
			long cp = read_u4(p, i + 2);
			if (cp < 0)
				return p->rc;
			i += 6;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return fail_at(p, i - 6, -EINVAL,
					       "invalid \\u escape: lone low surrogate");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (i + 1 >= p->len || p->s[i] != '\\' || p->s[i + 1] != 'u')
					return fail_at(p, i - 6, -EINVAL,
						       "invalid \\u escape: high surrogate without a low one");
				long lo = read_u4(p, i + 2);
				if (lo < 0)
					return p->rc;
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail_at(p, i, -EINVAL,
						       "invalid \\u escape: high surrogate without a low one");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				i += 6;
			}
			n += put_utf8(o + n, (unsigned long)cp);
			continue;
		}
		default:
			if ((unsigned char)e >= 0x21 && (unsigned char)e < 0x7f)
				return fail_at(p, i, -EINVAL, "invalid escape '\\%c' in string", e);
			return fail_at(p, i, -EINVAL, "invalid escape in string");
		}
		i += 2;
	}
	o[n] = '\0';
	*out = o;
	*outlen = n;
	p->pos = end + 1;
	return 0;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct parser *p, struct jsonr *v)
{
	size_t start = p->pos, i = p->pos;

	if (i < p->len && p->s[i] == '-')
		i++;
	if (i >= p->len)
		return fail_at(p, i, -EINVAL, "unexpected end of input (invalid number)");
	if (p->s[i] == '0') {
		i++;
	} else if (is_digit((unsigned char)p->s[i])) {
		while (i < p->len && is_digit((unsigned char)p->s[i]))
			i++;
	} else {
		return fail_at(p, i, -EINVAL, "invalid number: expected a digit");
	}
	if (i < p->len && p->s[i] == '.') {
		i++;
		if (i >= p->len || !is_digit((unsigned char)p->s[i]))
			return fail_at(p, i, -EINVAL, "invalid number: expected a digit after '.'");
		while (i < p->len && is_digit((unsigned char)p->s[i]))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len || !is_digit((unsigned char)p->s[i]))
			return fail_at(p, i, -EINVAL, "invalid number: expected a digit in the exponent");
		while (i < p->len && is_digit((unsigned char)p->s[i]))
			i++;
	}
	if (i < p->len && (is_digit((unsigned char)p->s[i]) || p->s[i] == '.' ||
			   p->s[i] == 'e' || p->s[i] == 'E'))
		return fail_at(p, i, -EINVAL, "invalid number");
	char *t = arena_alloc(p->doc, i - start + 1);
	if (!t)
		return nomem(p);
	memcpy(t, p->s + start, i - start);
	t[i - start] = '\0';
	v->str = t;
	v->len = 0;
	v->num = strtod(t, NULL);	/* the grammar is checked; C locale */
	p->pos = i;
	return 0;
}

static int parse_literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i < n; i++) {
		if (p->pos + i >= p->len)
			return fail_at(p, p->pos + i, -EINVAL,
				       "unexpected end of input (in literal '%s')", word);
		if (p->s[p->pos + i] != word[i])
			return fail_at(p, p->pos, -EINVAL, "invalid literal (expected '%s')", word);
	}
	p->pos += n;
	return 0;
}

static struct jsonr *parse_value(struct parser *p);

static int enter(struct parser *p)
{
	if (p->depth >= JSONR_MAX_DEPTH)
		return fail_at(p, p->pos, -EINVAL, "nesting deeper than %d levels", JSONR_MAX_DEPTH);
	p->depth++;
	p->pos++;	/* the '[' or '{' */
	return 0;
}

/* An array, or an object (obj 1): its items, each a value, or a member
 * name, ':' and a value, separated by ','. */
static struct jsonr *parse_items(struct parser *p, int obj)
{
	int close = obj ? '}' : ']';
	struct jsonr *a = new_node(p, obj ? JSONR_OBJ : JSONR_ARR), **tail;
	if (!a || enter(p))
		return NULL;
	tail = &a->child;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		p->depth--;
		return a;
	}
	for (;;) {
		const char *key = NULL;
		size_t klen = 0;

		if (obj) {
			skip_ws(p);
			if (peek(p) != '"') {
				expected(p, "a string (member name)");
				return NULL;
			}
			if (parse_string(p, &key, &klen))
				return NULL;
			skip_ws(p);
			if (peek(p) != ':') {
				expected(p, "':'");
				return NULL;
			}
			p->pos++;
		}
		struct jsonr *e = parse_value(p);
		if (!e)
			return NULL;
		if (obj) {
			e->key = key;
			e->key_len = klen;
		}
		*tail = e;
		tail = &e->next;
		a->len++;
		skip_ws(p);
		int c = peek(p);
		if (c == ',') {
			p->pos++;
			continue;
		}
		if (c == close) {
			p->pos++;
			break;
		}
		expected(p, obj ? "',' or '}'" : "',' or ']'");
		return NULL;
	}
	p->depth--;
	return a;
}

static struct jsonr *parse_value(struct parser *p)
{
	struct jsonr *v;

	skip_ws(p);
	switch (peek(p)) {
	case '{':
		return parse_items(p, 1);
	case '[':
		return parse_items(p, 0);
	case '"':
		v = new_node(p, JSONR_STR);
		if (!v || parse_string(p, &v->str, &v->len))
			return NULL;
		return v;
	case 't':
	case 'f':
		v = new_node(p, JSONR_BOOL);
		if (!v)
			return NULL;
		v->boolean = peek(p) == 't';
		if (parse_literal(p, v->boolean ? "true" : "false"))
			return NULL;
		return v;
	case 'n':
		v = new_node(p, JSONR_NULL);
		if (!v || parse_literal(p, "null"))
			return NULL;
		return v;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		v = new_node(p, JSONR_NUM);
		if (!v || parse_number(p, v))
			return NULL;
		return v;
	default:
		expected(p, "a value");
		return NULL;
	}
}

int jsonr_parse(const char *text, size_t len, struct jsonr_doc **out,
		struct jsonr_err *err)
{
	struct parser p = { .s = text, .len = len, .err = err };

	*out = NULL;
	if (err) {
		err->column = 0;
		err->msg[0] = '\0';
	}
	p.doc = calloc(1, sizeof(*p.doc));
	if (!p.doc)
		return fail_at(&p, 0, -ENOMEM, "out of memory");
	struct jsonr *root = parse_value(&p);
	if (root) {
		skip_ws(&p);
		if (p.pos < p.len)
			fail_at(&p, p.pos, -EINVAL, "trailing characters after the value");
	}
	if (p.rc || !root) {
		int rc = p.rc ? p.rc : -EINVAL;
		jsonr_free(p.doc);
		return rc;
	}
	p.doc->root = root;
	*out = p.doc;
	return 0;
}

/* ---- accessors ---- */

const struct jsonr *jsonr_get(const struct jsonr *obj, const char *key)
{
	if (!obj || obj->type != JSONR_OBJ || !key)
		return NULL;
	size_t n = strlen(key);
	for (const struct jsonr *m = obj->child; m; m = m->next)
		if (m->key_len == n && memcmp(m->key, key, n) == 0)
			return m;
	return NULL;
}

const struct jsonr *jsonr_path(const struct jsonr *obj, const char *path)
{
	const struct jsonr *v = obj;
	char name[128];

	if (!path)
		return NULL;
	while (v) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(name))
			return NULL;
		memcpy(name, path, n);
		name[n] = '\0';
		v = jsonr_get(v, name);
		if (!dot)
			return v;
		path = dot + 1;
	}
	return NULL;
}

const struct jsonr *jsonr_at(const struct jsonr *v, size_t i)
{
	if (!v || (v->type != JSONR_ARR && v->type != JSONR_OBJ))
		return NULL;
	const struct jsonr *e = v->child;
	while (e && i--)
		e = e->next;
	return e;
}

size_t jsonr_len(const struct jsonr *v)
{
	return v && (v->type == JSONR_ARR || v->type == JSONR_OBJ) ? v->len : 0;
}

int jsonr_is(const struct jsonr *v, enum jsonr_type t)
{
	return v && v->type == t;
}

double jsonr_num(const struct jsonr *v, double dflt)
{
	return v && v->type == JSONR_NUM ? v->num : dflt;
}

uint64_t jsonr_u64(const struct jsonr *v, uint64_t dflt)
{
	if (!v || v->type != JSONR_NUM)
		return dflt;
	const char *t = v->str;
	if (t && t[0] != '-' && !strpbrk(t, ".eE")) {
		errno = 0;
		unsigned long long x = strtoull(t, NULL, 10);
		if (errno == 0)
			return (uint64_t)x;
		return dflt;
	}
	/* 1.5e3 and the like: accept when integral and in range */
	if (v->num >= 0 && v->num < 18446744073709551616.0 && v->num == (double)(uint64_t)v->num)
		return (uint64_t)v->num;
	return dflt;
}

int jsonr_bool(const struct jsonr *v, int dflt)
{
	return v && v->type == JSONR_BOOL ? v->boolean : dflt;
}

const char *jsonr_str(const struct jsonr *v)
{
	return v && v->type == JSONR_STR ? v->str : NULL;
}

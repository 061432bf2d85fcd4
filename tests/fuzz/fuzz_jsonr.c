/* fuzz_jsonr.c: the JSON reader (runner/lib/jsonr.c) on arbitrary bytes.
 *
 * The input is the text, exactly as long as libFuzzer gives it (no NUL
 * after it, so ASan sees any read past the end). For every input:
 * - a syntax error says where (a column inside the text or just past it)
 *   and what, and leaves no document;
 * - a parsed tree is consistent: child counts, NUL-terminated strings and
 *   keys, nesting within JSONR_MAX_DEPTH, every accessor agrees with the
 *   tree and returns "absent" for a value of another type;
 * - the tree written back as JSON parses again to the same tree.
 */
#include "fuzz.h"
#include "lib/jsonr.h"

#include <errno.h>
#include <string.h>

/* ---- a growing output buffer ---- */

struct out {
	char *s;
	size_t len, cap;
};

static void out_put(struct out *o, const void *p, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t nc = o->cap ? o->cap : 256;
		while (nc < o->len + n + 1)
			nc *= 2;
		char *s = realloc(o->s, nc);
		FUZZ_CHECK(s != NULL);
		o->s = s;
		o->cap = nc;
	}
	memcpy(o->s + o->len, p, n);
	o->len += n;
	o->s[o->len] = '\0';
}

static void out_str(struct out *o, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";

	out_put(o, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			out_put(o, e, 2);
		} else if (c < 0x20) {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			out_put(o, e, 6);
		} else {
			out_put(o, &s[i], 1);	/* bytes >= 0x80 pass as they are */
		}
	}
	out_put(o, "\"", 1);
}

static void write_json(struct out *o, const struct jsonr *v)
{
	switch (v->type) {
	case JSONR_NULL:
		out_put(o, "null", 4);
		break;
	case JSONR_BOOL:
		out_put(o, v->boolean ? "true" : "false", v->boolean ? 4 : 5);
		break;
	case JSONR_NUM:
		out_put(o, v->str, strlen(v->str));
		break;
	case JSONR_STR:
		out_str(o, v->str, v->len);
		break;
	case JSONR_ARR:
	case JSONR_OBJ:
		out_put(o, v->type == JSONR_ARR ? "[" : "{", 1);
		for (const struct jsonr *c = v->child; c; c = c->next) {
			if (c != v->child)
				out_put(o, ",", 1);
			if (v->type == JSONR_OBJ) {
				out_str(o, c->key, c->key_len);
				out_put(o, ":", 1);
			}
			write_json(o, c);
		}
		out_put(o, v->type == JSONR_ARR ? "]" : "}", 1);
		break;
	}
}

/* ---- consistency of one tree ---- */

static int has_nul(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

static void check_u64(const struct jsonr *v)
{
	uint64_t a = jsonr_u64(v, 0), b = jsonr_u64(v, 1);

	if (v->type != JSONR_NUM) {
		FUZZ_CHECK(a == 0 && b == 1);
		return;
	}
	if (a == b)	/* a value, not the default: it is the number, exactly */
		FUZZ_CHECK((double)a == v->num);
}

static void check_tree(const struct jsonr *v, int depth)
{
	FUZZ_CHECK(v->type >= JSONR_NULL && v->type <= JSONR_OBJ);
	FUZZ_CHECK(jsonr_is(v, v->type));
	FUZZ_CHECK(jsonr_num(v, 7.5) == (v->type == JSONR_NUM ? v->num : 7.5));
	FUZZ_CHECK(jsonr_bool(v, 5) == (v->type == JSONR_BOOL ? v->boolean : 5));
	FUZZ_CHECK(jsonr_str(v) == (v->type == JSONR_STR ? v->str : NULL));
	check_u64(v);

	switch (v->type) {
	case JSONR_NULL:
	case JSONR_BOOL:
		FUZZ_CHECK(v->child == NULL && jsonr_len(v) == 0);
		FUZZ_CHECK(jsonr_get(v, "x") == NULL && jsonr_at(v, 0) == NULL);
		return;
	case JSONR_NUM:
		FUZZ_CHECK(v->str != NULL && v->str[0] != '\0' && v->len == 0);
		FUZZ_CHECK(v->child == NULL && jsonr_len(v) == 0);
		return;
	case JSONR_STR:
		FUZZ_CHECK(v->str != NULL && v->str[v->len] == '\0');
		FUZZ_CHECK(v->child == NULL && jsonr_len(v) == 0);
		FUZZ_CHECK(jsonr_get(v, "x") == NULL);
		return;
	case JSONR_ARR:
	case JSONR_OBJ:
		break;
	}

	FUZZ_CHECK(depth <= JSONR_MAX_DEPTH);
	size_t n = 0;
	for (const struct jsonr *c = v->child; c; c = c->next, n++) {
		FUZZ_CHECK(jsonr_at(v, n) == c);
		if (v->type == JSONR_ARR) {
			FUZZ_CHECK(c->key == NULL);
		} else {
			FUZZ_CHECK(c->key != NULL && c->key[c->key_len] == '\0');
			if (!has_nul(c->key, c->key_len)) {
				/* jsonr_get finds the first member of that name */
				const struct jsonr *g = jsonr_get(v, c->key);
				FUZZ_CHECK(g != NULL && g->key_len == c->key_len &&
					   memcmp(g->key, c->key, c->key_len) == 0);
				for (const struct jsonr *e = v->child; e != g; e = e->next)
					FUZZ_CHECK(e->key_len != c->key_len ||
						   memcmp(e->key, c->key, c->key_len) != 0);
			}
		}
		check_tree(c, depth + 1);
	}
	FUZZ_CHECK(n == v->len && jsonr_len(v) == n);
	FUZZ_CHECK(jsonr_at(v, n) == NULL);
}

/* jsonr_path with the first member names (when they make a path). */
static void check_path(const struct jsonr *root)
{
	char path[300];
	size_t plen = 0;
	const struct jsonr *v = root, *want = NULL;

	for (int level = 0; level < 3 && jsonr_is(v, JSONR_OBJ) && v->child; level++) {
		const struct jsonr *m = v->child;
		if (m->key_len == 0 || m->key_len >= 100 || has_nul(m->key, m->key_len) ||
		    strchr(m->key, '.'))
			break;
		if (plen)
			path[plen++] = '.';
		memcpy(path + plen, m->key, m->key_len + 1);
		plen += m->key_len;
		want = jsonr_get(v, m->key);
		FUZZ_CHECK(jsonr_path(root, path) == want);
		v = want;
	}
}

static void check_same(const struct jsonr *a, const struct jsonr *b)
{
	FUZZ_CHECK(a->type == b->type);
	FUZZ_CHECK(a->key_len == b->key_len);
	if (a->key)
		FUZZ_CHECK(b->key && memcmp(a->key, b->key, a->key_len) == 0);
	switch (a->type) {
	case JSONR_NULL:
		break;
	case JSONR_BOOL:
		FUZZ_CHECK(a->boolean == b->boolean);
		break;
	case JSONR_NUM:
		FUZZ_CHECK(strcmp(a->str, b->str) == 0);
		FUZZ_CHECK(a->num == b->num);
		break;
	case JSONR_STR:
		FUZZ_CHECK(a->len == b->len && memcmp(a->str, b->str, a->len) == 0);
		break;
	case JSONR_ARR:
	case JSONR_OBJ:
		FUZZ_CHECK(a->len == b->len);
		for (const struct jsonr *x = a->child, *y = b->child; x || y;
		     x = x->next, y = y->next) {
			FUZZ_CHECK(x && y);
			check_same(x, y);
		}
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct jsonr_doc *doc = NULL, *again = NULL;
	struct jsonr_err err;

	int rc = jsonr_parse(text, size, &doc, &err);
	/* the same without an error report */
	struct jsonr_doc *d2 = NULL;
	FUZZ_CHECK(jsonr_parse(text, size, &d2, NULL) == rc);
	jsonr_free(d2);

	if (rc) {
		FUZZ_CHECK(rc == -EINVAL || rc == -ENOMEM);
		FUZZ_CHECK(doc == NULL && jsonr_root(doc) == NULL);
		FUZZ_CHECK(err.column >= 1 && err.column <= size + 1);
		FUZZ_CHECK(err.msg[0] != '\0' && memchr(err.msg, '\0', sizeof(err.msg)));
		return 0;
	}
	const struct jsonr *root = jsonr_root(doc);
	FUZZ_CHECK(root != NULL && root->key == NULL && root->next == NULL);
	check_tree(root, 1);
	check_path(root);

	struct out o = { 0 };
	write_json(&o, root);
	rc = jsonr_parse(o.s, o.len, &again, &err);
	if (rc)
		fprintf(stderr, "fuzz_jsonr: written back, the tree does not parse: %s at column %zu\n",
			err.msg, err.column);
	FUZZ_CHECK(rc == 0);
	check_same(root, jsonr_root(again));
	jsonr_free(again);
	free(o.s);
	jsonr_free(doc);
	return 0;
}

/* jsonr.h: a small JSON reader. One text (e.g. one record line) is parsed
 * into a tree of values that lives in one arena (struct jsonr_doc) and is
 * freed with it.
 *
 * Strict RFC 8259 syntax: objects, arrays, strings with every escape
 * (\" \\ \/ \b \f \n \r \t \uXXXX, surrogate pairs joined into UTF-8),
 * numbers, true, false, null. Nesting is limited to JSONR_MAX_DEPTH, so
 * hostile input can neither crash the reader nor recurse without bound. On
 * a syntax error the reader says what it expected and at which column.
 *
 * Reading the tree:
 *	const struct jsonr *lat = jsonr_get(root, "lat_ns");
 *	double p50 = jsonr_num(jsonr_get(lat, "p50"), -1);
 * Every accessor accepts NULL and a value of the wrong type, and then
 * returns "absent" (NULL, or the default given), so a chain of look-ups
 * needs no checks in between.
 */
#ifndef FSB_JSONR_H
#define FSB_JSONR_H

#include <stddef.h>
#include <stdint.h>

#define JSONR_MAX_DEPTH 64

enum jsonr_type {
	JSONR_NULL = 0,
	JSONR_BOOL,
	JSONR_NUM,
	JSONR_STR,
	JSONR_ARR,
	JSONR_OBJ,
};

struct jsonr {
	enum jsonr_type type;
	int boolean;		/* JSONR_BOOL */
	double num;		/* JSONR_NUM (may be +-HUGE_VAL for huge literals) */
	const char *str;	/* STR: decoded UTF-8, NUL-terminated;
				 * NUM: the number's literal text */
	size_t len;		/* STR: bytes in str (a \u0000 may be inside);
				 * ARR, OBJ: number of children */
	const char *key;	/* member of an object: its decoded name */
	size_t key_len;
	struct jsonr *child;	/* ARR, OBJ: first element or member */
	struct jsonr *next;	/* next sibling in the parent */
};

struct jsonr_doc;

struct jsonr_err {
	size_t column;		/* 1-based byte column of the error */
	char msg[96];		/* what went wrong, e.g. "expected ':'" */
};

/* Parse text[0..len) as exactly one JSON value, surrounded by optional
 * whitespace. Returns 0 and *out (free with jsonr_free), -EINVAL on a syntax
 * error or -ENOMEM; on error err (if not NULL) says what and where. */
int jsonr_parse(const char *text, size_t len, struct jsonr_doc **out,
		struct jsonr_err *err);
const struct jsonr *jsonr_root(const struct jsonr_doc *d);
void jsonr_free(struct jsonr_doc *d);

/* Member of an object by name (the first one, if a name repeats). */
const struct jsonr *jsonr_get(const struct jsonr *obj, const char *key);
/* Dotted path of object members: jsonr_path(rec, "lat_ns.p99"). */
const struct jsonr *jsonr_path(const struct jsonr *obj, const char *path);
/* Element i of an array (or member i of an object). */
const struct jsonr *jsonr_at(const struct jsonr *v, size_t i);
/* Children of an array or object, 0 for anything else. */
size_t jsonr_len(const struct jsonr *v);

int jsonr_is(const struct jsonr *v, enum jsonr_type t);
double jsonr_num(const struct jsonr *v, double dflt);
/* A non-negative integer literal (or an integral number in range) exactly;
 * dflt for anything else. */
uint64_t jsonr_u64(const struct jsonr *v, uint64_t dflt);
int jsonr_bool(const struct jsonr *v, int dflt);
/* The decoded string, or NULL when v is not a string. */
const char *jsonr_str(const struct jsonr *v);

#endif

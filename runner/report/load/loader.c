/* loader.c: what the loaders share: the error of a load ("NAME:LINE:
 * message"), growing arrays, and the members every record needs. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

/* Text of a scalar: a string as is, a number as written, a boolean. */
static char *scalar_text(const struct jsonr *v)
{
	if (!v)
		return NULL;
	switch (v->type) {
	case JSONR_STR:
	case JSONR_NUM:
		return strdup(v->str);
	case JSONR_BOOL:
		return strdup(v->boolean ? "true" : "false");
	default:
		return NULL;
	}
}

int ld_bad(struct loader *L, const char *fmt, ...)
{
	if (L->err && L->errlen) {
		va_list ap;
		int n = snprintf(L->err, L->errlen, "%s:%zu: ", L->name, L->line);
		if (n < 0)
			n = 0;
		if ((size_t)n < L->errlen) {
			va_start(ap, fmt);
			vsnprintf(L->err + n, L->errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -EBADMSG;
}

int ld_oom(struct loader *L)
{
	if (L->err && L->errlen)
		snprintf(L->err, L->errlen, "%s:%zu: out of memory", L->name, L->line);
	return -ENOMEM;
}

/* Grow *arr (of elem-sized items) so that one more fits. */
int ld_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	if (nc > SIZE_MAX / elem)
		return -ENOMEM;
	void *p = realloc(*arr, nc * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

void ld_free_members(void *items, size_t n, size_t size, const size_t *offs, size_t noffs)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < noffs; k++) {
			void *m;
			memcpy(&m, (char *)items + i * size + offs[k], sizeof(m));
			free(m);
		}
}

void ld_free_array(void *items, size_t n, size_t size, const size_t *offs, size_t noffs)
{
	ld_free_members(items, n, size, offs, noffs);
	free(items);
}

int ld_copy_strs(void *item, const size_t *offs, const char *const *vals, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *s = NULL;
		if (vals[i] && !(s = strdup(vals[i]))) {
			ld_free_members(item, 1, 0, offs, i);
			return -ENOMEM;
		}
		memcpy((char *)item + offs[i], &s, sizeof(s));
	}
	return 0;
}

/* Replace *slot with the text of v (when v is a scalar). -ENOMEM or 0. */
int ld_set_text(char **slot, const struct jsonr *v)
{
	if (!v || v->type == JSONR_NULL || v->type == JSONR_ARR || v->type == JSONR_OBJ)
		return 0;
	char *t = scalar_text(v);
	if (!t)
		return -ENOMEM;
	free(*slot);
	*slot = t;
	return 0;
}

int ld_set_texts(const struct jsonr *obj, ...)
{
	va_list ap;
	const char *key;
	int rc = 0;

	va_start(ap, obj);
	while (!rc && (key = va_arg(ap, const char *)))
		rc = ld_set_text(va_arg(ap, char **), jsonr_get(obj, key));
	va_end(ap);
	return rc;
}

/* A required string member of a record. */
const char *ld_need_str(struct loader *L, const struct jsonr *rec,
			    const char *type, const char *key, int *rc)
{
	const char *s = jsonr_str(jsonr_get(rec, key));
	if (!s || !*s)
		*rc = ld_bad(L, "%s record without a \"%s\" string", type, key);
	return s;
}

int ld_need_strs(struct loader *L, const struct jsonr *rec, const char *type, ...)
{
	va_list ap;
	const char *key;
	int rc = 0;

	va_start(ap, type);
	while (!rc && (key = va_arg(ap, const char *)))
		*va_arg(ap, const char **) = ld_need_str(L, rec, type, key, &rc);
	va_end(ap);
	return rc;
}

/* The "round" of a phase or layout record: a whole number from 1. */
int ld_need_round(struct loader *L, const struct jsonr *rec, const char *type,
		      unsigned *round)
{
	double v = jsonr_num(jsonr_get(rec, "round"), -1);
	if (!(v >= 1 && v <= 1000000 && v == floor(v)))
		return ld_bad(L, "%s record: \"round\" must be a whole number from 1", type);
	*round = (unsigned)v;
	return 0;
}

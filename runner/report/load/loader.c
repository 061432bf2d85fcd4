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

/* A required string member of a record. */
const char *ld_need_str(struct loader *L, const struct jsonr *rec,
			    const char *type, const char *key, int *rc)
{
	const char *s = jsonr_str(jsonr_get(rec, key));
	if (!s || !*s)
		*rc = ld_bad(L, "%s record without a \"%s\" string", type, key);
	return s;
}

/* The "round" of a phase or layout record: a whole number from 1. */
int ld_need_round(struct loader *L, const struct jsonr *rec, const char *type,
		      double *round)
{
	*round = jsonr_num(jsonr_get(rec, "round"), -1);
	if (!(*round >= 1 && *round <= 1000000 && *round == floor(*round)))
		return ld_bad(L, "%s record: \"round\" must be a whole number from 1", type);
	return 0;
}

/* record.h: building one JSON record (one line) and sending it out. */
#ifndef FSB_RECORD_H
#define FSB_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "log/fields.h"	/* K(name) and FSB_REC_type: the names a record may use */

#define FSB_SCHEMA 1
#define FSB_REC_MAX 16384

struct fsb_rec {
	char buf[FSB_REC_MAX];
	size_t len;
	int depth;
	char stack[16];	/* closing bracket of each open level */
	int first;	/* no comma needed before the next member */
	int overflow;
};

struct fsb_sink;	/* defined in record.c */

void rec_begin(struct fsb_rec *r, const char *type);
void rec_str(struct fsb_rec *r, const char *key, const char *val);
void rec_u64(struct fsb_rec *r, const char *key, uint64_t v);
void rec_i64(struct fsb_rec *r, const char *key, int64_t v);
void rec_dbl(struct fsb_rec *r, const char *key, double v);
void rec_bool(struct fsb_rec *r, const char *key, int v);
void rec_raw(struct fsb_rec *r, const char *key, const char *json);
void rec_obj(struct fsb_rec *r, const char *key);	/* open a nested object */
void rec_arr(struct fsb_rec *r, const char *key);	/* open an array */
void rec_arr_dbl(struct fsb_rec *r, double v);	/* element of an open array */
void rec_arr_u64(struct fsb_rec *r, uint64_t v);	/* exact integer element */
void rec_close(struct fsb_rec *r);		/* close object/array */
/* Finish the record (closes it); returns the text length or -1 on overflow. */
int rec_end(struct fsb_rec *r);

/* Append a JSON string literal of s to buf (escaped, quoted). */
size_t json_quote(char *buf, size_t cap, const char *s);

#endif

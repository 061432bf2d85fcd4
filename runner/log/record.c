/* record.c: building one JSON record (one line) in a fixed buffer. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log/record.h"

size_t json_quote(char *buf, size_t cap, const char *s)
{
	size_t o = 0;

	if (cap < 3)
		return 0;
	buf[o++] = '"';
	for (; *s && o + 8 < cap; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (ch) {
		case '"': buf[o++] = '\\'; buf[o++] = '"'; break;
		case '\\': buf[o++] = '\\'; buf[o++] = '\\'; break;
		case '\n': buf[o++] = '\\'; buf[o++] = 'n'; break;
		case '\t': buf[o++] = '\\'; buf[o++] = 't'; break;
		case '\r': buf[o++] = '\\'; buf[o++] = 'r'; break;
		default:
			if (ch < 0x20 || ch == 0x7f)
				o += (size_t)snprintf(buf + o, cap - o, "\\u%04x", ch);
			else
				buf[o++] = (char)ch;
		}
	}
	buf[o++] = '"';
	buf[o] = 0;
	return o;
}

static void put(struct fsb_rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct fsb_rec *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, sizeof(r->buf) - r->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(r->buf) - r->len)
		r->overflow = 1;
	else
		r->len += (size_t)n;
}

static void put_key(struct fsb_rec *r, const char *k)
{
	char q[256];

	if (!r->first)
		put(r, ",");
	r->first = 0;
	if (k) {
		json_quote(q, sizeof(q), k);
		put(r, "%s:", q);
	}
}

static void open_level(struct fsb_rec *r, char open, char close)
{
	if (r->depth >= (int)sizeof(r->stack)) {
		r->overflow = 1;
		return;
	}
	put(r, "%c", open);
	r->stack[r->depth++] = close;
	r->first = 1;
}

void rec_begin(struct fsb_rec *r, const char *type)
{
	r->len = 0;
	r->depth = 0;
	r->overflow = 0;
	open_level(r, '{', '}');
	rec_u64(r, "schema", FSB_SCHEMA);
	rec_str(r, "type", type);
}

void rec_str(struct fsb_rec *r, const char *k, const char *val)
{
	char q[4096];

	put_key(r, k);
	json_quote(q, sizeof(q), val ? val : "");
	put(r, "%s", q);
}

void rec_u64(struct fsb_rec *r, const char *k, uint64_t v)
{
	put_key(r, k);
	put(r, "%" PRIu64, v);
}

void rec_i64(struct fsb_rec *r, const char *k, int64_t v)
{
	put_key(r, k);
	put(r, "%" PRId64, v);
}

void rec_dbl(struct fsb_rec *r, const char *k, double v)
{
	put_key(r, k);
	if (!isfinite(v))
		put(r, "null");
	else
		put(r, "%.9g", v);	/* 9 digits: 0.1 ms at a day, files/s exact below 1e9 */
}

void rec_bool(struct fsb_rec *r, const char *k, int v)
{
	put_key(r, k);
	put(r, "%s", v ? "true" : "false");
}

void rec_raw(struct fsb_rec *r, const char *k, const char *json)
{
	put_key(r, k);
	put(r, "%s", json);
}

void rec_obj(struct fsb_rec *r, const char *k)
{
	put_key(r, k);
	open_level(r, '{', '}');
}

void rec_arr(struct fsb_rec *r, const char *k)
{
	put_key(r, k);
	open_level(r, '[', ']');
}

void rec_arr_dbl(struct fsb_rec *r, double v)
{
	rec_dbl(r, NULL, v);
}

void rec_arr_u64(struct fsb_rec *r, uint64_t v)
{
	rec_u64(r, NULL, v);
}

void rec_close(struct fsb_rec *r)
{
	if (r->depth <= 0)
		return;
	r->depth--;
	put(r, "%c", r->stack[r->depth]);
	r->first = 0;
}

int rec_end(struct fsb_rec *r)
{
	while (r->depth > 0)
		rec_close(r);
	if (r->overflow)
		return -1;
	return (int)r->len;
}

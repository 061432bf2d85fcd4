/* record.c: JSON records, one per line, to stdout and the results log. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fsbench.h"
#include "log/log.h"

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

static void key(struct fsb_rec *r, const char *k)
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

	key(r, k);
	json_quote(q, sizeof(q), val ? val : "");
	put(r, "%s", q);
}

void rec_u64(struct fsb_rec *r, const char *k, uint64_t v)
{
	key(r, k);
	put(r, "%" PRIu64, v);
}

void rec_i64(struct fsb_rec *r, const char *k, int64_t v)
{
	key(r, k);
	put(r, "%" PRId64, v);
}

void rec_dbl(struct fsb_rec *r, const char *k, double v)
{
	key(r, k);
	if (!isfinite(v))
		put(r, "null");
	else
		put(r, "%.9g", v);	/* 9 digits: 0.1 ms at a day, files/s exact below 1e9 */
}

void rec_bool(struct fsb_rec *r, const char *k, int v)
{
	key(r, k);
	put(r, "%s", v ? "true" : "false");
}

void rec_raw(struct fsb_rec *r, const char *k, const char *json)
{
	key(r, k);
	put(r, "%s", json);
}

void rec_obj(struct fsb_rec *r, const char *k)
{
	key(r, k);
	open_level(r, '{', '}');
}

void rec_arr(struct fsb_rec *r, const char *k)
{
	key(r, k);
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

void fsb_rec_start(struct fsb_ctx *c, struct fsb_rec *r, const char *type)
{
	char id[24];

	rec_begin(r, type);
	snprintf(id, sizeof(id), "%016" PRIx64, c->run_id);
	rec_str(r, "run_id", id);
	rec_u64(r, "seq", c->seq);
	rec_dbl(r, "t", fsb_now() - c->t0);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

int fsb_emit(struct fsb_ctx *c, struct fsb_rec *r)
{
	static char line[FSB_REC_MAX + 64];
	int n = rec_end(r);

	if (n < 0) {
		fsb_msg("record %.40s...: too long, dropped", r->buf);
		return -EOVERFLOW;
	}
	int m = snprintf(line, sizeof(line), "%s%.*s\n", c->cfg.prefix, n, r->buf);
	write_all(c->out_fd, line, (size_t)m);
	if (c->log && !c->log_failed) {
		int e = fsb_log_append(c->log, c->seq, r->buf, (size_t)n);
		if (e < 0) {
			c->log_failed = 1;
			c->failed = 1;
			fsb_msg("log %s: %s at record %" PRIu64 "; later records are on stdout only",
				c->cfg.log, e == -ENOSPC ? "log is full" : strerror(-e), c->seq);
			c->seq++;
			struct fsb_rec er;
			fsb_rec_start(c, &er, "error");
			rec_str(&er, "op", "log");
			rec_str(&er, "file", c->cfg.log);
			rec_i64(&er, "errno", -e);
			rec_str(&er, "msg", e == -ENOSPC ? "log is full; not wrapped" : strerror(-e));
			rec_bool(&er, "fatal", 0);
			n = rec_end(&er);
			m = snprintf(line, sizeof(line), "%s%.*s\n", c->cfg.prefix, n, er.buf);
			write_all(c->out_fd, line, (size_t)m);
		}
	}
	c->seq++;
	return 0;
}

void fsb_note(struct fsb_ctx *c, const char *fmt, ...)
{
	struct fsb_rec r;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fsb_rec_start(c, &r, "note");
	rec_str(&r, "msg", msg);
	fsb_emit(c, &r);
}

void fsb_error_rec(struct fsb_ctx *c, const char *fs, int round, const char *phase,
		   const char *op, const char *file, int err, int fatal, const char *msg)
{
	struct fsb_rec r;

	fsb_rec_start(c, &r, "error");
	if (fs)
		rec_str(&r, "fs", fs);
	if (round > 0)
		rec_u64(&r, "round", (uint64_t)round);
	if (phase)
		rec_str(&r, "phase", phase);
	rec_str(&r, "op", op);
	if (file)
		rec_str(&r, "file", file);
	rec_i64(&r, "errno", err);
	rec_str(&r, "msg", msg ? msg : (err ? strerror(err) : ""));
	rec_bool(&r, "fatal", fatal);
	fsb_emit(c, &r);
}

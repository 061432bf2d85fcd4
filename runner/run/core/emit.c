/* emit.c: a run's records, each to stdout (after the console prefix) and
 * to the results log, numbered in one sequence. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/io.h"
#include "lib/msg.h"
#include "lib/time.h"
#include "log/logfile.h"
#include "log/schema.h"
#include "run/core/context.h"

void fsb_rec_start(struct fsb_ctx *c, struct fsb_rec *r, enum fsb_rec_type type)
{
	char id[24];

	rec_begin(r, fsb_rec_types[type].name);
	snprintf(id, sizeof(id), "%016" PRIx64, c->run_id);
	rec_str(r, K(run_id), id);
	rec_u64(r, K(seq), c->seq);
	rec_dbl(r, K(t), fsb_now() - c->t0);
	if (c->rep)
		rec_u64(r, K(rep), c->rep);
}

void fsb_rec_phase(struct fsb_ctx *c, struct fsb_rec *r, enum fsb_rec_type type, const char *fs,
		   uint64_t round, const char *phase)
{
	fsb_rec_start(c, r, type);
	rec_str(r, K(fs), fs);
	rec_u64(r, K(round), round);
	rec_str(r, K(phase), phase);
}

int fsb_emit(struct fsb_ctx *c, struct fsb_rec *r)
{
	static char line[FSB_REC_MAX + 64];
	int n = rec_end(r);

	if (n < 0) {
		fsb_say(c->say, "record %.40s...: too long, dropped", r->buf);
		return -EOVERFLOW;
	}
	int m = snprintf(line, sizeof(line), "%s%.*s\n", c->cfg.prefix, n, r->buf);
	fsb_write_all(c->out_fd, line, (size_t)m);
	if (c->log && !c->log_failed) {
		int e = fsb_log_append(c->log, c->seq, r->buf, (size_t)n);
		if (e < 0) {
			c->log_failed = 1;
			c->failed = 1;
			fsb_say(c->say, "log %s: %s at record %" PRIu64 "; later records are on stdout only",
				c->cfg.log, e == -ENOSPC ? "log is full" : strerror(-e), c->seq);
			c->seq++;
			struct fsb_rec er;
			fsb_rec_start(c, &er, FSB_REC_error);
			rec_str(&er, K(op), "log");
			rec_str(&er, K(file), c->cfg.log);
			rec_i64(&er, K(errno), -e);
			rec_str(&er, K(msg), e == -ENOSPC ? "log is full; not wrapped" : strerror(-e));
			rec_bool(&er, K(fatal), 0);
			n = rec_end(&er);
			m = snprintf(line, sizeof(line), "%s%.*s\n", c->cfg.prefix, n, er.buf);
			fsb_write_all(c->out_fd, line, (size_t)m);
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
	fsb_rec_start(c, &r, FSB_REC_note);
	rec_str(&r, K(msg), msg);
	fsb_emit(c, &r);
}

void fsb_error_rec(struct fsb_ctx *c, const char *fs, int round, const char *phase,
		   const char *op, const char *file, int err, int fatal, const char *msg)
{
	struct fsb_rec r;

	fsb_rec_start(c, &r, FSB_REC_error);
	if (fs)
		rec_str(&r, K(fs), fs);
	if (round > 0)
		rec_u64(&r, K(round), (uint64_t)round);
	if (phase)
		rec_str(&r, K(phase), phase);
	rec_str(&r, K(op), op);
	if (file)
		rec_str(&r, K(file), file);
	rec_i64(&r, K(errno), err);
	rec_str(&r, K(msg), msg ? msg : (err ? strerror(err) : ""));
	rec_bool(&r, K(fatal), fatal);
	fsb_emit(c, &r);
}

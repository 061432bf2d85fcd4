/* runctx.h: a runner context (run/core/context.h) for the unit tests of
 * what a run writes: the defaults, its stdout a temporary file, and what
 * it wrote there. */
#ifndef FSB_UNIT_RUNCTX_H
#define FSB_UNIT_RUNCTX_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/core/context.h"
#include "run/settings.h"
#include "unit.h"

/* c with the defaults, writing to a temporary file (returned; NULL, and
 * out_fd -1, when none could be made). */
static inline FILE *ctx_open(struct fsb_ctx *c)
{
	FILE *f = tmpfile();

	memset(c, 0, sizeof(*c));
	fsb_config_defaults(&c->cfg);
	c->out_fd = f ? fileno(f) : -1;
	return f;
}

/* What the context wrote to its stdout so far (static). */
static inline char *ctx_text(const struct fsb_ctx *c)
{
	static char buf[65536];
	ssize_t n = pread(c->out_fd, buf, sizeof(buf) - 1, 0);

	buf[n > 0 ? n : 0] = 0;
	return buf;
}

#endif

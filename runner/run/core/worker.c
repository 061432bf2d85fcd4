/* worker.c: what the work of a phase may use of its worker
 * (run/core/worker.h), answered from the context the engine fills
 * (run/core/wctx.h). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "run/core/lockstep.h"
#include "run/core/wctx.h"
#include "run/core/worker.h"

int fsb_errno_fatal(int err)
{
	return err == ENOSPC || err == EIO || err == EROFS || err == EDQUOT || err == ENOMEM;
}

int fsb_w_error(struct fsb_wctx *w, const char *op, uint32_t dir, uint32_t idx, int err,
		int verify, uint64_t off, uint64_t count)
{
	struct fsb_wstate *ws = w->ws;

	if (verify)
		ws->verify_errors++;
	else
		ws->errors++;
	if (ws->nerr < FSB_WERR_MAX) {
		struct fsb_werr *e = &ws->err[ws->nerr++];
		e->dir = dir;
		e->idx = idx;
		e->err = err;
		e->verify = verify;
		e->fatal = !verify && fsb_errno_fatal(err);
		snprintf(e->op, sizeof(e->op), "%s", op);
		e->off = off;
		e->count = count;
	}
	if (!verify && fsb_errno_fatal(err)) {
		ws->fatal = err;
		return 1;
	}
	return ws->errors + ws->verify_errors >= FSB_WERR_LIMIT;
}

const struct fsb_phase_args *fsb_w_args(const struct fsb_wctx *w)
{
	return w->a;
}

struct fsb_wstate *fsb_w_state(struct fsb_wctx *w)
{
	return w->ws;
}

unsigned char *fsb_w_buf(struct fsb_wctx *w, size_t *len)
{
	*len = w->buflen;
	return w->buf;
}

uint32_t *fsb_w_perm(struct fsb_wctx *w)
{
	return w->perm;
}

int fsb_cpu_policy(const char *name)
{
	static const char *const names[] = { [FSB_CPU_FREE] = "free", [FSB_CPU_PINNED] = "pinned",
					     [FSB_CPU_MIGRATE] = "migrate" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

void fsb_w_turn(struct fsb_wctx *w)
{
	if (w->ls)
		fsb_lockstep_next(w->ls, w->id, &w->held);
	if (w->ncpu && w->a->cpu == FSB_CPU_MIGRATE) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu[(w->id + w->nfile) % w->ncpu], &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (w->a->cpu != FSB_CPU_FREE) {
		int c = sched_getcpu();

		if (c >= 0 && c < FSB_CPU_MAX)
			w->ws->cpus_seen[c / 64] |= 1ull << (c % 64);
	}
	w->nfile++;
}

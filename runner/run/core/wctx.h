/* wctx.h: a worker's context, inside: the engine (run/engine/phase.c) fills
 * it before the barrier, worker.c answers the work's fsb_w_*() from it.
 * The work itself (run/core/worker.h) sees only its name. */
#ifndef FSB_WCTX_H
#define FSB_WCTX_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/worker.h"

struct fsb_wctx {
	const struct fsb_phase_args *a;
	struct fsb_wstate *ws;
	unsigned char *buf;
	size_t buflen;
	struct fsb_entry *ent;	/* the listing of one directory */
	size_t cap;
	char *lbuf;		/* LISTBUF bytes for getdents64 */
	struct fsb_entry *tmp;	/* cap entries: the inode order's radix sort */
	uint32_t *perm;		/* shuffled create: the order of one directory */
	int trace;		/* the first directory: note the files in ws->trace_* */
	uint32_t id;		/* the worker's number */
	struct fsb_lockstep *ls;	/* create_lockstep: the turn; NULL: none */
	int held;		/* it holds the turn */
	uint32_t ncpu;		/* create_cpu: the allowed CPUs, in cpu[] */
	uint16_t *cpu;
	uint64_t nfile;		/* files begun: the migration's step */
};

#endif

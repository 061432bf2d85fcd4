/* context.h: one run's state, passed down explicitly, and the records the
 * run emits through it. */
#ifndef FSB_CONTEXT_H
#define FSB_CONTEXT_H

#include <stdint.h>

#include "lib/msg.h"
#include "log/record.h"
#include "run/core/cfg.h"

struct fsb_log;
struct fsb_kmsg;

/* One run's state, passed down explicitly. */
struct fsb_ctx {
	struct fsb_config cfg;
	uint64_t run_id;
	uint64_t seq;
	double t0;			/* monotonic seconds at run start */
	struct fsb_log *log;		/* NULL when no --log */
	int log_failed;			/* log write failed (full or I/O): reported once */
	int out_fd;			/* records on stdout */
	fsb_say_fn *say;		/* lines for the user on stderr (lib/msg.h: fsb_say) */
	int failed;			/* something failed: exit 1 */
	int fs_ok, fs_failed;
	int fs_refused;			/* columns the target cannot hold (a zoned target: run/fs/fs.h) */
	char zoned_conv_dev[FSB_PATH_MAX];	/* the resolved setting zoned_conv, or "" */
	char target_dev[FSB_PATH_MAX];	/* resolved target block device, or "" in dir mode */
	char log_dev[FSB_PATH_MAX];	/* resolved log path */
	struct fsb_kmsg *kmsg;		/* the kernel log being read (run/evidence/kmsg.h), or NULL */
	char kmsg_source[160];		/* run_start "kmsg": what is read, or why nothing */
	uint32_t rep;			/* the repetition running (run/engine/repeat.h), from 1; 0: the run does
					 * not repeat, or outside the columns */
};

/* emit.c: emit a finished record to stdout and the log. */
int fsb_emit(struct fsb_ctx *c, struct fsb_rec *r);
/* Begin a record with the common fields (schema, type, run_id, seq, t, and
 * rep inside a repetition). */
void fsb_rec_start(struct fsb_ctx *c, struct fsb_rec *r, enum fsb_rec_type type);
/* The same, then the phase's fs, round and phase fields. */
void fsb_rec_phase(struct fsb_ctx *c, struct fsb_rec *r, enum fsb_rec_type type, const char *fs,
		   uint64_t round, const char *phase);
/* Convenience records. */
void fsb_note(struct fsb_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fsb_error_rec(struct fsb_ctx *c, const char *fs, int round, const char *phase,
		   const char *op, const char *file, int err, int fatal, const char *msg);

#endif

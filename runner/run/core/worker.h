/* worker.h: what the work of a phase, written outside the engine
 * (run/engine/files.c, run/stores/pack.c), may use of its worker: the row
 * type of a phase, the directory it is given, the phase's arguments and
 * result, the worker's state (counts, latency histogram, error list), its
 * buffers and the clock. The engine (run/engine/phase.c) forks the workers
 * and fills their context (run/core/wctx.h); worker.c answers for it. */
#ifndef FSB_WORKER_H
#define FSB_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "lib/msg.h"
#include "run/core/hist.h"
#include "run/core/pattern.h"

/* How a phase walks a directory: the order of the listing it works through. */
enum fsb_walk {
	WALK_CREATE,	/* no listing: creates the files in the create_order setting */
	WALK_READDIR,	/* the listing as readdir returns it */
	WALK_NAME,	/* sorted by file name (f0000000, f0000001, ...) */
	WALK_INODE,	/* sorted by inode number */
	WALK_KEYS,	/* no listing: the files are keys of a store (run/stores/pack.h),
			 * visited in name order */
};

/* Phase flags */
#define FSB_PH_SYNC	0x01	/* syncfs after the workers, timed: part of seconds */
#define FSB_PH_VERIFY	0x02	/* checks what it reads (sizes, bytes) when verify is on */
#define FSB_PH_FAULT	0x04	/* the fault self-test flips its byte after this phase */
#define FSB_PH_LAYOUT	0x08	/* the layout and freespace records follow this phase */
#define FSB_PH_COLD	0x10	/* runs on a fresh mount: the filesystem under test is
				 * unmounted and mounted before it (not in --dir mode) */
#define FSB_PH_SPACE	0x20	/* with pack = 1, a space record follows: what the files take on disk */
#define FSB_PH_SELF	0x40	/* no workers, no op: the suite runs the phase itself
				 * (fstrim: run/engine/fstrim.h), on a device only */

struct fsb_wctx;	/* a worker's context (run/core/wctx.h), reached through fsb_w_*() */
struct fsb_config;

/* One directory entry of a worker's listing. */
struct fsb_entry {
	uint64_t ino;
	uint32_t idx;
	char name[12];
};

/* The directory a phase's work is given. */
struct fsb_wdir {
	int base_fd;		/* the directory holding it */
	int fd;			/* it, open; -1 for WALK_CREATE (the work makes it) */
	uint32_t dir;		/* its number: d0003 is 3 */
	const char *name;	/* "d0003" */
	size_t n;		/* entries of its listing, in walk order (not WALK_CREATE) */
	const struct fsb_entry *ent;	/* the listing: n entries (NULL for WALK_CREATE, WALK_KEYS) */
	int first;		/* the worker's first directory: the work of WALK_CREATE
				 * notes its files in the state's trace_* */
};

/* One phase. Adding a phase is adding a row to fsb_phases[]
 * (run/engine/phase.c). */
struct fsb_phase_def {
	const char *name;	/* the records' "phase" */
	enum fsb_walk walk;
	unsigned flags;		/* FSB_PH_* */
	/* The work on one directory; returns 1 when the worker must stop. */
	int (*op)(struct fsb_wctx *w, const struct fsb_wdir *d);
	/* Whether the phase runs in this round with these settings (an
	 * optional phase: its setting is on); NULL: every round. */
	int (*wanted)(const struct fsb_config *cfg, uint32_t round);
};

#define FSB_WERR_MAX 8
#define FSB_WERR_LIMIT 100	/* a worker gives up after this many errors */
#define FSB_TRACE_N 16		/* files of its first directory a worker notes */
#define FSB_CPU_MAX 1024	/* CPUs a worker is moved across (create_cpu) */

/* Where the create phase's workers run (the setting create_cpu). */
enum fsb_cpu_policy { FSB_CPU_FREE = 0, FSB_CPU_PINNED, FSB_CPU_MIGRATE };

struct fsb_werr {
	uint32_t dir, idx;	/* idx UINT32_MAX: the directory itself */
	int err;		/* errno, 0 for a verification failure */
	int verify;		/* 1: content mismatch (off, count) */
	int fatal;		/* it ended the worker */
	char op[12];
	uint64_t off, count;
};

/* One worker's state, in memory shared with the parent. */
struct fsb_wstate {
	uint64_t start_ns, end_ns;
	volatile uint64_t done;
	uint64_t bytes, errors, verify_errors;
	int fatal;		/* errno that ended the worker (ENOSPC, EIO, ENOMEM, ...) */
	int ended;		/* reached the end of its work */
	int signal;		/* set by the parent: the signal that killed it, 0 if none */
	int exit_status;	/* set by the parent: its exit status */
	uint32_t nerr;
	struct fsb_werr err[FSB_WERR_MAX];
	/* its first directory's first files in the order it visited them:
	 * numbers (f0000042: 42) and, for a phase that lists, inode numbers */
	uint32_t ntrace;
	uint32_t trace_idx[FSB_TRACE_N];
	uint64_t trace_ino[FSB_TRACE_N];
	/* the CPUs it created files on (create_cpu pinned or migrate), a bit each */
	uint64_t cpus_seen[FSB_CPU_MAX / 64];
	struct fsb_hist hist;
};

struct fsb_phase_args {
	const struct fsb_phase_def *phase;
	int base_fd;		/* directory holding d0000, d0001, ... */
	uint32_t dirs, files, workers, round;
	uint64_t file_size;
	int verify;
	unsigned timeout;	/* seconds, 0 = none */
	int progress;		/* progress lines, through say */
	fsb_say_fn *say;	/* the command layer's (lib/msg.h), or NULL */
	const char *label;	/* "ext4 round 1/3" for progress lines */
	int shuffled;		/* create in a fixed random order (create_order) */
	int lockstep;		/* creates take turns file by file (create_lockstep) */
	enum fsb_cpu_policy cpu;	/* the create workers' CPUs (create_cpu) */
	const struct fsb_pattern *pat;
};

struct fsb_phase_result {
	double seconds;		/* first worker start to last worker end, + sync */
	double span_seconds;	/* first worker start to last worker end */
	double sync_seconds;
	uint64_t files, bytes, errors, verify_errors;
	int fatal;		/* errno of the first fatal error, 0 if none */
	int timed_out;
	int crashed;		/* a worker died by a signal or an unexpected exit */
	uint32_t cpus_used;	/* CPUs the workers created files on (create_cpu not free) */
	uint64_t turns;		/* turns taken (create_lockstep) */
	struct fsb_hist hist;
};

/* Errors that end a filesystem's run (ENOSPC, EIO, EROFS, EDQUOT, ENOMEM). */
int fsb_errno_fatal(int err);


const struct fsb_phase_args *fsb_w_args(const struct fsb_wctx *w);
struct fsb_wstate *fsb_w_state(struct fsb_wctx *w);
/* The worker's buffer: *len bytes (min(file_size, 1 MiB), at least 4 KiB),
 * page-aligned, allocated before the barrier. */
unsigned char *fsb_w_buf(struct fsb_wctx *w, size_t *len);
/* A phase that creates in a shuffled order (create_order): the worker's
 * room for the order of one directory (files numbers); NULL otherwise. */
uint32_t *fsb_w_perm(struct fsb_wctx *w);
/* Before each file a create makes: the turn of create_lockstep (waits
 * for every other worker's file), the move of create_cpu = migrate and
 * the note of the CPU it runs on; nothing at the defaults. */
void fsb_w_turn(struct fsb_wctx *w);
/* The create_cpu setting's value as a policy; -1 when it names none. */
int fsb_cpu_policy(const char *name);
/* Record an error of file idx of directory dir (idx UINT32_MAX: the
 * directory or the store itself): errno err, or verify = 1 for wrong
 * content (off: the first wrong byte, count: how many). Returns 1 when the
 * worker must stop (a fatal errno, or too many errors). */
int fsb_w_error(struct fsb_wctx *w, const char *op, uint32_t dir, uint32_t idx, int err,
		int verify, uint64_t off, uint64_t count);

/* CLOCK_MONOTONIC nanoseconds, inline: the work reads it once a file */
static inline uint64_t fsb_w_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif

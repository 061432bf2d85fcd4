/* phase.h: one timed phase run by a set of worker processes. */
#ifndef FSB_PHASE_H
#define FSB_PHASE_H

#include <stdint.h>

#include "run/hist.h"
#include "run/pattern.h"

enum fsb_phase { PH_CREATE, PH_STAT, PH_READ, PH_READ_INODE, PH_DELETE, PH_N };
extern const char *const fsb_phase_name[PH_N];
extern const char *const fsb_phase_order[PH_N];

#define FSB_WERR_MAX 8
#define FSB_WERR_LIMIT 100	/* a worker gives up after this many errors */

struct fsb_werr {
	uint32_t dir, idx;	/* idx UINT32_MAX: the directory itself */
	int err;		/* errno, 0 for a verification failure */
	int verify;		/* 1: content mismatch (off, count) */
	char op[12];
	uint64_t off, count;
};

/* One worker's state, in memory shared with the parent. */
struct fsb_wstate {
	uint64_t start_ns, end_ns;
	volatile uint64_t done;
	uint64_t bytes, errors, verify_errors;
	int fatal;		/* errno that ended the worker (ENOSPC, EIO, ...) */
	int ended;		/* reached the end of its work */
	uint32_t nerr;
	struct fsb_werr err[FSB_WERR_MAX];
	struct fsb_hist hist;
};

struct fsb_phase_args {
	enum fsb_phase phase;
	int base_fd;		/* directory holding d0000, d0001, ... */
	int sync_fd;		/* syncfs() after create/delete; -1 = none */
	uint32_t dirs, files, workers, round;
	uint64_t file_size;
	int verify;
	unsigned timeout;	/* seconds, 0 = none */
	int progress;		/* print progress lines on stderr */
	const char *label;	/* "ext4 round 1/3" for progress lines */
	int shuffled;		/* create in a fixed random order (create_order) */
	const struct fsb_pattern *pat;
};

struct fsb_phase_result {
	double seconds;		/* first worker start to last worker end, + sync */
	double sync_seconds;
	uint64_t files, bytes, errors, verify_errors;
	int fatal;		/* errno of the first fatal error, 0 if none */
	int timed_out;
	int crashed;		/* a worker died by a signal or an unexpected exit */
	struct fsb_hist hist;
};

struct fsb_workers;

/* Shared state for up to n workers, allocated once per run. */
struct fsb_workers *fsb_workers_new(uint32_t n);
void fsb_workers_free(struct fsb_workers *w);
struct fsb_wstate *fsb_worker_state(struct fsb_workers *w, uint32_t i);

/* Run one phase. Returns 0 (see res for what happened) or -errno when the
 * workers could not be started. */
int fsb_phase_run(struct fsb_workers *w, const struct fsb_phase_args *a,
		  struct fsb_phase_result *res);

/* Name of file idx ("f0000042"), into buf of at least 12 bytes. */
void fsb_file_name(uint32_t idx, char *buf);
void fsb_dir_name(uint32_t dir, char *buf);
/* "f0001234" -> 1234; -1 for any other name. */
long fsb_parse_name(const char *n);
/* Errors that end a filesystem's run (ENOSPC, EIO, EROFS, EDQUOT, ENOMEM). */
int fsb_errno_fatal(int err);

#endif

/* fio.h: the block-level workloads of runner/SUITE.md, run with the real fio
 * (fork/execve, an argv), its JSON output folded into `fio` records; and the
 * hand-over between the suite and the work that needs a fresh filesystem of
 * its own (the fio workloads, fill.h).
 *
 * One workload is one fio job: ioengine=libaio, direct=1, group_reporting,
 * time_based for the fio_runtime setting over fio_size bytes of one file on
 * the filesystem under test (or of the raw target). fio writes its JSON to a
 * temporary file (--output), so nothing it prints on stderr can spoil it.
 */
#ifndef FSB_FIO_H
#define FSB_FIO_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/context.h"
#include "run/target/target.h"

/* One workload of runner/SUITE.md. */
struct fsb_fio_workload {
	const char *name;	/* oltp, web, vm, randwrite */
	const char *rw;		/* fio's rw= */
	unsigned rwmixread;	/* percent of reads of a randrw mix, 0: not a mix */
	const char *bs;
	unsigned iodepth, numjobs;
};

extern const struct fsb_fio_workload fsb_fio_workloads[];
extern const size_t fsb_fio_nworkloads;

const struct fsb_fio_workload *fsb_fio_workload(const char *name);
/* Check a comma-separated list of workloads (the fio setting; "" is none).
 * 0, or -1 with the reason (the unknown or repeated name, what is allowed)
 * in why. */
int fsb_fio_list_check(const char *list, char *why, size_t len);

/* Latency percentiles kept of fio's clat_ns: 50, 90, 99, 99.9. */
#define FSB_FIO_NPCT 4
extern const char *const fsb_fio_pct_key[FSB_FIO_NPCT];	/* "50.000000", ... */
extern const char *const fsb_fio_pct_name[FSB_FIO_NPCT];	/* "p50", ... */

/* One direction (read or write) of a job, as fio's JSON says it. */
struct fsb_fio_dir {
	double iops;
	uint64_t bw_bytes;	/* bytes per second */
	uint64_t io_bytes, total_ios;
	double runtime_s;	/* fio's runtime of this direction */
	int have_pct;
	uint64_t clat_pct[FSB_FIO_NPCT];	/* completion latency, ns */
	double clat_mean, lat_mean;	/* ns */
	uint64_t lat_max;	/* ns */
};

struct fsb_fio_result {
	char version[32];	/* "fio-3.33" */
	int error;		/* the job's error (an errno), 0 when none */
	double runtime_s;	/* the longer of its read and write runtimes */
	struct fsb_fio_dir rd, wr;
};

/* Fold fio's --output-format=json text into res. Text before the first '{'
 * at the start of a line (a warning fio printed there) is skipped. Returns
 * 0, or -1 with why saying what is wrong ("not JSON: expected '}' at column
 * 812", "no \"jobs\" array"). */
int fsb_fio_parse(const char *text, size_t len, struct fsb_fio_result *res, char *why,
		  size_t whylen);

/* Where a workload runs and how big it is. */
struct fsb_fio_job {
	const struct fsb_fio_workload *w;
	const char *fs;		/* the records' "fs": a filesystem, or "raw" */
	const char *filename;	/* a file on the filesystem, or the raw device */
	uint64_t size;		/* bytes */
	unsigned runtime;	/* seconds */
	unsigned timeout;	/* seconds before fio is killed, 0 = none */
};

/* Run one workload with the fio at fio_path and fold its JSON into res.
 * Returns 0; -1 with why ("fio exited with status 1: fio: ...", "fio
 * output: not JSON: ...", "fio: No such file or directory") when fio could
 * not run, failed, or its output cannot be read. */
int fsb_fio_exec(const char *fio_path, const struct fsb_fio_job *job,
		 struct fsb_fio_result *res, double *seconds, char *why, size_t whylen);

/* One workload with the fio at fio_path: its `fio` record, after an
 * error record (op "fio", the message) when it failed. 0 or -1 with why. */
int fsb_fio_one(struct fsb_ctx *c, const char *fio_path, const struct fsb_fio_job *job,
		char *why, size_t len);
/* The `fio` record of a job that ran (res) or failed (res NULL, why). */
void fsb_fio_record(struct fsb_ctx *c, const struct fsb_fio_job *job,
		    const struct fsb_fio_result *res, double seconds, const char *why);
/* Members of one direction (fill uses them for its before/after). */
void fsb_fio_dir_json(struct fsb_rec *r, const char *key, const struct fsb_fio_dir *d);

/* A filesystem handed over by the suite: mounted at mnt, and made fresh
 * again (umount, the suite's own mkfs, mount) by remake. */
struct fsb_fresh {
	const char *fs;		/* the records' "fs" */
	const char *mnt;	/* where it is mounted */
	int fresh;		/* nothing has been written since its mkfs */
	/* umount, mkfs, mount; 0, or -1 with the failure recorded and said
	 * in why. NULL in dir mode (a directory cannot be made fresh). */
	int (*remake)(void *arg, const char *why_for, char *why, size_t len);
	void *arg;
};

/* Make fr fresh if it is not (and can be); 0 or -1 with why. */
int fsb_fresh_get(struct fsb_fresh *fr, const char *for_what, char *why, size_t len);

/* The fio workloads of the fio setting on one filesystem: one fresh
 * filesystem, each workload's file made by fio and deleted after it. A
 * workload that fails has its error record and `fio` record, and the
 * others still run. Returns 0, or -1 with the first failure in why. */
int fsb_fio_fs(struct fsb_ctx *c, struct fsb_fresh *fr, char *why, size_t len);
/* The fio workloads on the raw target (fio_raw): fs "raw", fio_size bytes
 * from its start (at most its size). Failures are recorded; 0 or -1. */
int fsb_fio_raw(struct fsb_ctx *c, const struct fsb_disk *target);

/* fio's path in FSB_TOOL_PATH, or -1 with an error record (op "fio", the
 * filesystem, "fio not found in ...") and why. */
int fsb_fio_find(struct fsb_ctx *c, const char *fs, char *path, size_t plen, char *why,
		 size_t len);

#endif

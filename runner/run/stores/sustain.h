/* sustain.h: the sustained write (setting `sustain`, runner/SUSTAIN.md):
 * fio writes for `sustain_seconds`, sequential and then 4 KiB random,
 * while the runner reads the disk's temperature every second;
 * fio's per-second bandwidth log and the temperatures become a `sustain`
 * record and its `sustain_series` records. The report finds the cliff
 * (report/sections/cliff.h). */
#ifndef FSB_SUSTAIN_H
#define FSB_SUSTAIN_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/context.h"
#include "run/stores/fio.h"
#include "run/target/target.h"

/* The console line at the start of each write, before fio starts, on
 * stdout when records have a prefix there (the boot image's console): a
 * launcher that changes the disk mid-run (qemu/run.sh --throttle-at)
 * counts its seconds from the first one. */
#define FSB_SUSTAIN_MARK "FSBENCH-SUSTAIN:"

struct fsb_sustain_mode {
	const char *name;	/* the records' workload: seq, rand */
	const char *rw, *bs;	/* fio's options */
	unsigned iodepth;
};
extern const struct fsb_sustain_mode fsb_sustain_modes[];
extern const size_t fsb_sustain_nmodes;

/* The samples of a series record: at most this many each. */
#define FSB_SUSTAIN_CHUNK 200

/* fio's bandwidth log (write_bw_log with log_avg_msec=1000 and
 * log_unix_epoch=1: "TIME_MS, KIB_PER_S, DIR, BS, OFFSET" a line) into
 * per-second samples in MiB/s, the writes only (DIR 1): sample i is the
 * one logged i seconds after the first (rounded), a second without one is
 * 0, a second logged twice keeps the first; the last sample, written as
 * fio's job ends, is no whole second's average and is left out. *first_s is the first sample's
 * time after t0_ms, in seconds. Returns the samples (at most cap), or
 * -EBADMSG naming the bad line in why. */
long fsb_sustain_bwlog(const char *text, uint64_t t0_ms, double *mib, size_t cap,
		       double *first_s, char *why, size_t whylen);

/* The writes on a file on one fresh filesystem of the suite (sustain = fs
 * or both); disk: the target, whose temperature is read. 0, or -1 with
 * the first failure in why (each write's failure is recorded). */
int fsb_sustain_fs(struct fsb_ctx *c, struct fsb_fresh *fr, const struct fsb_disk *disk,
		   char *why, size_t len);
/* The writes on the raw target (sustain = raw or both), fs "raw", the
 * whole device. Failures are recorded; 0 or -1. */
int fsb_sustain_raw(struct fsb_ctx *c, const struct fsb_disk *target);

#endif

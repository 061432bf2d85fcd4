/* kmsg.h: the kernel's messages during a run (kmsg.c).
 *
 * At run start the runner opens /dev/kmsg (O_NONBLOCK) and seeks to its end,
 * so messages from before the run are never read. The suite leaves a mark
 * on a timeline at every change of where it is (a filesystem starts, a phase
 * starts, a phase ends, a filesystem ends), and drains /dev/kmsg between
 * phases and at run end: never during a phase, so the reading cannot disturb
 * the timing. Each message at warning level or above (priority <= 4) becomes
 * a `kmsg` record tagged with the mark its kernel timestamp falls after: the
 * phase whose time span holds it, or `between` phases (with the filesystem
 * and round around it, when there is one). The kernel stamps messages with
 * its local clock, which drifts away from CLOCK_MONOTONIC while the machine
 * is up; at open, one info-level line written to the kernel log and read
 * back gives the offset between them, and the marks (CLOCK_MONOTONIC) are
 * moved by it. Without it (the log cannot be written) the marks are
 * CLOCK_MONOTONIC as it is, and run_start says why.
 *
 * A burst is capped: at most FSB_KMSG_MAX records per phase (or per gap
 * between phases); the rest are counted in a `kmsg_dropped` record.
 */
#ifndef FSB_KMSG_H
#define FSB_KMSG_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/context.h"

#define FSB_KMSG_PATH "/dev/kmsg"
#define FSB_KMSG_LEVEL 4	/* record levels 0 (emerg) .. 4 (warning) */
#define FSB_KMSG_MAX 32		/* kmsg records per phase or gap; more are counted */
#define FSB_KMSG_TEXT 1024	/* bytes of a message's text kept (with its NUL) */
#define FSB_KMSG_READ 8192	/* one /dev/kmsg record at most (the kernel's limit) */
#define FSB_KMSG_DRAIN_MAX 100000	/* reads per drain; a storm is read on later drains */

/* One /dev/kmsg record: "PRI,SEQ,TS_USEC,FLAGS[,...];TEXT\n" followed by
 * continuation lines " KEY=VALUE\n" (the device the message is about:
 * SUBSYSTEM=, DEVICE=), which are skipped. In TEXT the kernel writes every
 * byte below 0x20, from 0x7f, and '\' as \xHH; they are decoded, and bytes
 * that do not form UTF-8 become '?', so the text goes into a JSON string
 * as it is. */
struct fsb_kmsg_line {
	unsigned level;		/* PRI & 7: 0 emerg .. 7 debug */
	unsigned facility;	/* PRI >> 3: 0 kern, 1 user, ... */
	uint64_t seq;		/* the kernel's sequence number */
	uint64_t ts_usec;	/* microseconds of the kernel's clock */
	char flag;		/* '-'; 'c' starts and '+' continues a fragmented
				 * line (kernels before 4.10) */
	int cut;		/* the text was longer than FSB_KMSG_TEXT - 1 bytes */
	char text[FSB_KMSG_TEXT];
};

/* Parse one record of len bytes (not NUL-terminated). 0, or -EINVAL when
 * it is not "PRI,SEQ,TS_USEC[,FLAGS...];TEXT". */
int fsb_kmsg_parse(const char *buf, size_t len, struct fsb_kmsg_line *m);

/* A change of where the suite is, from usec (CLOCK_MONOTONIC) on. */
struct fsb_kmsg_mark {
	uint64_t usec;
	char fs[16];		/* "" outside a filesystem */
	uint32_t round;		/* 0 outside a round */
	const char *phase;	/* the phase (a static name), NULL between phases */
	uint32_t recorded;	/* kmsg records of this mark */
	uint64_t dropped;	/* messages over FSB_KMSG_MAX */
	uint64_t dropped_told;	/* of those, already in a kmsg_dropped record */
};

/* The mark a message stamped ts_usec belongs to: the last one at or before
 * it (the first mark for anything earlier). n > 0. */
size_t fsb_kmsg_attribute(const struct fsb_kmsg_mark *marks, size_t n, uint64_t ts_usec);

struct fsb_kmsg;

/* Open path (FSB_KMSG_PATH) at its end, and measure the kernel clock's
 * offset (one line written to it). 0, or -errno (-ENOTTY: not a character
 * device, so not a kernel log). */
int fsb_kmsg_open(struct fsb_kmsg **out, const char *path);
/* The same on an open descriptor (taken over, set non-blocking), without the
 * seek: one record per read(2), EAGAIN when there is none (a SOCK_SEQPACKET
 * socket does the same in tests). */
int fsb_kmsg_open_fd(struct fsb_kmsg **out, int fd);
void fsb_kmsg_close(struct fsb_kmsg *k);
/* 1 when the kernel clock's offset from CLOCK_MONOTONIC was measured
 * (*offset_usec), 0 when not (*why_not says why). */
int fsb_kmsg_clock(const struct fsb_kmsg *k, int64_t *offset_usec, const char **why_not);

/* Where the run is from now on (c->kmsg may be NULL: nothing happens). fs
 * NULL or "": outside a filesystem; phase NULL: between phases. */
void fsb_kmsg_mark(struct fsb_ctx *c, const char *fs, uint32_t round, const char *phase);
/* The same at a given time (tests). */
void fsb_kmsg_mark_at(struct fsb_ctx *c, uint64_t usec, const char *fs, uint32_t round,
		      const char *phase);
/* Read every message there is and emit its records: kmsg, kmsg_dropped, and
 * a note when the kernel overwrote messages before they were read. */
void fsb_kmsg_drain(struct fsb_ctx *c);

/* Totals of the run so far, for run_end. */
struct fsb_kmsg_totals {
	uint64_t recorded;	/* kmsg records */
	uint64_t dropped;	/* warning or worse, over the cap */
	uint64_t lost;		/* any level, overwritten before they were read */
};
void fsb_kmsg_totals(const struct fsb_kmsg *k, struct fsb_kmsg_totals *t);

#endif

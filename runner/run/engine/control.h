/* control.h: the run's conditions, measured (setting `control`): a short
 * fixed control before the first filesystem, the same work on every run
 * and every machine, timed a few times each: a CPU loop, a memory copy,
 * and files made, read and removed on a tmpfs. One `control` record;
 * `fsbench compare` tests the two sides' control samples to tell a change
 * of the machine from a change of the disk (runner/README.md, compare). */
#ifndef FSB_CONTROL_H
#define FSB_CONTROL_H

struct fsb_ctx;

#define FSB_CONTROL_SAMPLES 7		/* each item's timed samples */
#define FSB_CONTROL_CPU_ITERS 1000000u	/* the CPU loop's iterations */
#define FSB_CONTROL_COPY_BYTES (8u << 20)	/* the memory copy's bytes */
#define FSB_CONTROL_FILES 32u		/* tmpfs files of 4 KiB: made, read, removed */

/* Run the control and emit its record. Nothing is written outside a tmpfs
 * of its own (or a directory under /dev/shm when it cannot mount one); a
 * tmpfs it cannot have is said in the record and the other items still
 * run. Never fails the run. */
void fsb_control_run(struct fsb_ctx *c);

#endif

/* control.h: the run's conditions, measured (setting `control`): a short
 * fixed control, the same work on every run and every machine, timed a
 * few times each: a CPU loop, a memory copy, and files made, read and
 * removed on a tmpfs. Measured before the first filesystem and again,
 * briefly, after each filesystem (and each repetition), so that the
 * samples follow the machine through the run rather than standing for it
 * at one moment. One `control` record each time; `fsbench compare` pools
 * a run's samples and tests the two sides' to tell a change of the machine
 * from a change of the disk (runner/README.md, compare). */
#ifndef FSB_CONTROL_H
#define FSB_CONTROL_H

struct fsb_ctx;

#define FSB_CONTROL_SAMPLES 7		/* each item's timed samples, at the start */
#define FSB_CONTROL_BETWEEN 3		/* and after each filesystem */
#define FSB_CONTROL_CPU_ITERS 1000000u	/* the CPU loop's iterations */
#define FSB_CONTROL_COPY_BYTES (8u << 20)	/* the memory copy's bytes */
#define FSB_CONTROL_FILES 32u		/* tmpfs files of 4 KiB: made, read, removed */

#define FSB_CONTROL_QUIET_S 0.2	/* the target quiet this long first */
#define FSB_CONTROL_QUIET_MAX_S 5.0	/* and waited for at most this long */

/* Run the control, `samples` timed samples of each item, and emit its
 * record; `after` names the filesystem column it follows (NULL: the run's
 * start); nothing when the setting `control` is 0. `disk`, the target's
 * whole-disk name in sysfs (NULL in --dir mode): the samples wait until it
 * has had no request in flight and completed none for FSB_CONTROL_QUIET_S
 * (at most FSB_CONTROL_QUIET_MAX_S), and the requests it completed during
 * them are counted, both in the record. Nothing is written outside a tmpfs
 * of its own (or a directory under /dev/shm when it cannot mount one); a
 * tmpfs it cannot have is said in the record and the other items still
 * run. Never fails the run. */
void fsb_control_run(struct fsb_ctx *c, const char *after, unsigned samples, const char *disk);

#endif

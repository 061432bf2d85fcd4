/* fstrim.h: the fstrim phase: after a round's delete phase, the
 * filesystem's free space discarded with the FITRIM ioctl (what fstrim(8)
 * and the timers that run it do), timed, as a phase record of its own
 * (phase "fstrim", bytes: what FITRIM reports it trimmed). A filesystem or
 * device without discard says so in the record ("not supported: REASON"):
 * not an error. The row in fsb_phases[] (run/engine/phase.c) carries
 * FSB_PH_SELF; the suite calls fsb_fstrim_phase for it. */
#ifndef FSB_FSTRIM_H
#define FSB_FSTRIM_H

#include <stddef.h>
#include <stdint.h>

struct fsb_ctx;
struct fsb_config;

/* Whether the phase runs (the setting fstrim). */
int fsb_fstrim_wanted(const struct fsb_config *cfg, uint32_t round);

/* What an errno of FITRIM means: 0 for success; 1 for "not supported",
 * with the reason ("not supported: ...") in why; -1 for a failure. */
int fsb_fstrim_status(int err, char *why, size_t len);

/* The phase on the filesystem mounted at mnt (column fs, round): its
 * phase_start and phase records and its LAVA line; after_aging: the
 * record says so (a round after the file server's aging). 0, or -errno when
 * FITRIM failed (its error record written). */
int fsb_fstrim_phase(struct fsb_ctx *c, const char *fs, const char *mnt, uint32_t round,
		     int after_aging);

#endif

/* pcrule.h: the one judgement of a power-cut cycle (pcrule.c), from what
 * its `powercut` record says: used by the runner when it writes the record
 * (its exit status, the filesystem's fs_end, the LAVA line), by the resume
 * of a campaign that reads the record back, and by the verdict. */
#ifndef FSB_LOG_PCRULE_H
#define FSB_LOG_PCRULE_H

#include <stdint.h>

/* The filesystem's checker and mount after the cut are fine: fsck
 * "clean", or "none" (a filesystem without a checker, nilfs2: judged by
 * its mount and its files), and mount "ok". A NULL string is not fine. */
int fsb_pc_checker_ok(const char *fsck, const char *mount);

/* The cycle failed: a file acknowledged and lost, or torn, or the checker
 * or the mount not fine (fsb_pc_checker_ok). */
int fsb_pc_failed(uint64_t lost, uint64_t torn, const char *fsck, const char *mount);

#endif

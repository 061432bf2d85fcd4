/* zerocheck.h: the discard_check record: after the last filesystem (setting
 * fstrim, on a device only), where the target promises zeroes after a
 * deallocate (NVMe DLFEAT read = zeroes), a range of it written,
 * discarded and read back (run/target/discard.h); elsewhere the record
 * says why it did not run. */
#ifndef FSB_ZEROCHECK_H
#define FSB_ZEROCHECK_H

struct fsb_ctx;
struct fsb_disk;

/* The check and its record; 0, or -1 when the range did not read back as
 * zeroes or the check failed (the run fails). */
int fsb_zero_check(struct fsb_ctx *c, const struct fsb_disk *t);

#endif

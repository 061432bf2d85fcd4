/* zerocheck.h: the discard_check record: after the last filesystem (setting
 * fstrim, on a device only), where the target promises zeroes after a
 * deallocate (NVMe DLFEAT read = zeroes), a range of it written,
 * discarded and read back (run/target/discard.h); elsewhere the record
 * says why it did not run. */
#ifndef FSB_ZEROCHECK_H
#define FSB_ZEROCHECK_H

struct fsb_ctx;
struct fsb_disk;

/* The check and its record, and a line for the user when the range did
 * not read back as zeroes or the check failed. The run goes on and does
 * not fail for it: a deallocate is advisory in NVMe (a controller may keep
 * some blocks), so whether it must hold is the verdict's (the criteria
 * key discard_zeroes). */
void fsb_zero_check(struct fsb_ctx *c, const struct fsb_disk *t);

#endif

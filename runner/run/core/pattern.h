/* pattern.h: the content of every file, derived from (directory, index, round). */
#ifndef FSB_PATTERN_H
#define FSB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define FSB_PAT_WORDS 8192	/* 64 KiB of base words, computed once */

struct fsb_pattern {
	uint64_t base[FSB_PAT_WORDS];
};

/* splitmix64's finalizer: the bits of z mixed; and the next number of the
 * splitmix64 state *s (the runner's one generator of fixed-seed numbers). */
uint64_t fsb_mix64(uint64_t z);
uint64_t fsb_splitmix64(uint64_t *s);

void fsb_pattern_init(struct fsb_pattern *p);
uint64_t fsb_pattern_seed(uint32_t dir, uint32_t idx, uint32_t round);
/* Fill buf with the bytes at file offset off..off+len of the file with seed. */
void fsb_pattern_fill(const struct fsb_pattern *p, void *buf, size_t len, uint64_t seed,
		      uint64_t off);
/* Compare buf with the expected bytes at off. Returns the number of bytes that
 * differ; *first gets the file offset of the first difference. */
size_t fsb_pattern_check(const struct fsb_pattern *p, const void *buf, size_t len,
			 uint64_t seed, uint64_t off, uint64_t *first);

#endif

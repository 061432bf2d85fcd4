/* pattern.c: file contents. Word w (8 bytes) of a file is
 *   base[w mod 8192] ^ seed ^ (w div 8192) * golden
 * where base is a fixed pseudo-random table and seed mixes the file's
 * directory, index and round. A file in the wrong place, a block from the
 * wrong offset and a stale round's content all fail to verify, and making a
 * file costs one XOR per word. */
#include <string.h>

#include "pattern.h"

#define GOLDEN 0x9e3779b97f4a7c15ull

static inline uint64_t mix(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z;
}

void fsb_pattern_init(struct fsb_pattern *p)
{
	for (uint64_t i = 0; i < FSB_PAT_WORDS; i++)
		p->base[i] = mix(0xf5b0f5b0f5b0f5b0ull + i * GOLDEN);
}

uint64_t fsb_pattern_seed(uint32_t dir, uint32_t idx, uint32_t round)
{
	return mix(((uint64_t)round << 52) ^ ((uint64_t)dir << 32) ^ idx ^ 0x5eed5eed00000000ull);
}

static inline uint64_t word(const struct fsb_pattern *p, uint64_t seed, uint64_t w)
{
	return p->base[w % FSB_PAT_WORDS] ^ seed ^ ((w / FSB_PAT_WORDS) * GOLDEN);
}

void fsb_pattern_fill(const struct fsb_pattern *p, void *buf, size_t len, uint64_t seed,
		      uint64_t off)
{
	unsigned char *b = buf;

	/* fast path: whole aligned words */
	if (off % 8 == 0) {
		uint64_t w = off / 8;
		size_t n = len / 8;
		uint64_t *d = (uint64_t *)(void *)b;

		if (((uintptr_t)b % 8) == 0) {
			for (size_t i = 0; i < n; i++)
				d[i] = word(p, seed, w + i);
			b += n * 8;
			off += n * 8;
			len -= n * 8;
		}
	}
	while (len > 0) {
		uint64_t v = word(p, seed, off / 8);
		size_t in = (size_t)(off % 8), n = 8 - in;

		if (n > len)
			n = len;
		memcpy(b, (unsigned char *)&v + in, n);
		b += n;
		off += n;
		len -= n;
	}
}

size_t fsb_pattern_check(const struct fsb_pattern *p, const void *buf, size_t len,
			 uint64_t seed, uint64_t off, uint64_t *first)
{
	const unsigned char *b = buf;
	size_t bad = 0;

	/* fast path: aligned words that match */
	if (off % 8 == 0 && ((uintptr_t)b % 8) == 0) {
		const uint64_t *s = (const void *)b;
		size_t i, n = len / 8;
		uint64_t w = off / 8;

		for (i = 0; i < n && s[i] == word(p, seed, w + i); i++)
			;
		b += i * 8;
		off += i * 8;
		len -= i * 8;
	}
	while (len > 0) {
		uint64_t v = word(p, seed, off / 8);
		size_t in = (size_t)(off % 8), n = 8 - in;

		if (n > len)
			n = len;
		if (memcmp(b, (unsigned char *)&v + in, n) != 0) {
			for (size_t i = 0; i < n; i++) {
				if (b[i] != ((unsigned char *)&v)[in + i]) {
					if (!bad && first)
						*first = off + i;
					bad++;
				}
			}
		}
		b += n;
		off += n;
		len -= n;
	}
	return bad;
}

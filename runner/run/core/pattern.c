/* pattern.c: file contents. Word w (8 bytes) of a file is
 *   base[w mod 8192] ^ seed ^ (w div 8192) * golden
 * where base is a fixed pseudo-random table and seed mixes the file's
 * directory, index and round. A file in the wrong place, a block from the
 * wrong offset and a stale round's content all fail to verify, and making a
 * file costs one XOR per word. */
#include <string.h>

#include "run/core/pattern.h"

#define GOLDEN 0x9e3779b97f4a7c15ull

/* Two words at a time (SSE2 on x86_64, NEON on aarch64), through memcpy so
 * alignment never matters. */
typedef uint64_t v2u64 __attribute__((vector_size(16)));

static inline void xor_words(uint64_t *d, const uint64_t *s, size_t n, uint64_t k)
{
	v2u64 kk = { k, k }, a, b;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		memcpy(&a, s + i, 16);
		memcpy(&b, s + i + 2, 16);
		a ^= kk;
		b ^= kk;
		memcpy(d + i, &a, 16);
		memcpy(d + i + 2, &b, 16);
	}
	for (; i < n; i++)
		d[i] = s[i] ^ k;
}

/* OR of (got ^ expected) over n words: 0 when they all match. */
static inline uint64_t diff_words(const uint64_t *got, const uint64_t *s, size_t n, uint64_t k)
{
	v2u64 kk = { k, k }, acc = { 0, 0 }, a, b, c, e;
	uint64_t r = 0;
	size_t i = 0;

	for (; i + 4 <= n; i += 4) {
		memcpy(&a, got + i, 16);
		memcpy(&b, got + i + 2, 16);
		memcpy(&c, s + i, 16);
		memcpy(&e, s + i + 2, 16);
		acc |= (a ^ c ^ kk) | (b ^ e ^ kk);
	}
	for (; i < n; i++)
		r |= got[i] ^ s[i] ^ k;
	return r | acc[0] | acc[1];
}

uint64_t fsb_mix64(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z;
}

uint64_t fsb_splitmix64(uint64_t *s)
{
	return fsb_mix64(*s += GOLDEN);
}

void fsb_pattern_init(struct fsb_pattern *p)
{
	for (uint64_t i = 0; i < FSB_PAT_WORDS; i++)
		p->base[i] = fsb_mix64(0xf5b0f5b0f5b0f5b0ull + i * GOLDEN);
}

uint64_t fsb_pattern_seed(uint32_t dir, uint32_t idx, uint32_t round)
{
	return fsb_mix64(((uint64_t)round << 52) ^ ((uint64_t)dir << 32) ^ idx ^ 0x5eed5eed00000000ull);
}

static inline uint64_t word(const struct fsb_pattern *p, uint64_t seed, uint64_t w)
{
	return p->base[w % FSB_PAT_WORDS] ^ seed ^ ((w / FSB_PAT_WORDS) * GOLDEN);
}

void fsb_pattern_fill(const struct fsb_pattern *p, void *buf, size_t len, uint64_t seed,
		      uint64_t off)
{
	unsigned char *b = buf;

	/* fast path: whole aligned words, a base-table stretch at a time */
	if (off % 8 == 0 && ((uintptr_t)b % 8) == 0) {
		uint64_t *d = (uint64_t *)(void *)b;
		uint64_t w = off / 8;
		size_t n = len / 8;

		while (n > 0) {
			size_t j = (size_t)(w % FSB_PAT_WORDS), m = FSB_PAT_WORDS - j;
			uint64_t k = seed ^ ((w / FSB_PAT_WORDS) * GOLDEN);
			if (m > n)
				m = n;
			xor_words(d, p->base + j, m, k);
			d += m;
			w += m;
			n -= m;
		}
		b = (unsigned char *)d;
		off = w * 8;
		len %= 8;
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

	/* fast path: aligned stretches that match entirely */
	if (off % 8 == 0 && ((uintptr_t)b % 8) == 0) {
		const uint64_t *s = (const void *)b;
		uint64_t w = off / 8;
		size_t n = len / 8;

		while (n > 0) {
			size_t j = (size_t)(w % FSB_PAT_WORDS), m = FSB_PAT_WORDS - j;
			uint64_t k = seed ^ ((w / FSB_PAT_WORDS) * GOLDEN);

			if (m > n)
				m = n;
			if (diff_words(s, p->base + j, m, k))
				break;	/* the slow path below finds and counts the bad bytes */
			s += m;
			w += m;
			n -= m;
		}
		b = (const unsigned char *)s;
		len -= (size_t)(w * 8 - off);
		off = w * 8;
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

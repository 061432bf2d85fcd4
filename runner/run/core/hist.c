/* hist.c: latency histogram. Values below 2 * FSB_HIST_SUB are exact; above,
 * each power of two is split into FSB_HIST_SUB equal steps, so a bucket's
 * width is at most 1/64 of its value (the same idea as fio's clat buckets). */
#include <string.h>

#include "run/core/hist.h"

void fsb_hist_init(struct fsb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned fsb_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * FSB_HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb > FSB_HIST_MAX_MSB)
		return FSB_HIST_BUCKETS - 1;
	shift = msb - FSB_HIST_SUB_BITS;
	return (msb - FSB_HIST_SUB_BITS + 1) * FSB_HIST_SUB +
	       (unsigned)((v >> shift) & (FSB_HIST_SUB - 1));
}

void fsb_hist_bounds(unsigned i, uint64_t *lo, uint64_t *hi)
{
	unsigned g, sub, shift;

	if (i < 2 * FSB_HIST_SUB) {
		*lo = *hi = i;
		return;
	}
	g = i / FSB_HIST_SUB;
	sub = i % FSB_HIST_SUB;
	shift = g - 1;
	*lo = (uint64_t)(FSB_HIST_SUB + sub) << shift;
	*hi = *lo + ((uint64_t)1 << shift) - 1;
}

void fsb_hist_merge(struct fsb_hist *dst, const struct fsb_hist *src)
{
	for (unsigned i = 0; i < FSB_HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t fsb_hist_pct(const struct fsb_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, v;

	if (h->count == 0)
		return 0;
	if (p >= 100.0)
		return h->max;
	rank = (uint64_t)(p / 100.0 * (double)h->count);
	if ((double)rank < p / 100.0 * (double)h->count)
		rank++;
	if (rank == 0)
		rank = 1;
	for (unsigned i = 0; i < FSB_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			fsb_hist_bounds(i, &lo, &hi);
			v = lo + (hi - lo) / 2;
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

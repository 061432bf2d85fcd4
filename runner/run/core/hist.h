/* hist.h: log-bucketed latency histogram (64 linear steps per power of two). */
#ifndef FSB_HIST_H
#define FSB_HIST_H

#include <stdint.h>

#define FSB_HIST_SUB_BITS 6
#define FSB_HIST_SUB (1u << FSB_HIST_SUB_BITS)
#define FSB_HIST_MAX_MSB 40		/* values >= 2^41 ns land in the last bucket */
#define FSB_HIST_BUCKETS ((FSB_HIST_MAX_MSB - FSB_HIST_SUB_BITS + 2) * FSB_HIST_SUB)

struct fsb_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t b[FSB_HIST_BUCKETS];
};

void fsb_hist_init(struct fsb_hist *h);
unsigned fsb_hist_index(uint64_t v);
/* Smallest and largest value that land in bucket i. */
void fsb_hist_bounds(unsigned i, uint64_t *lo, uint64_t *hi);

static inline void fsb_hist_add(struct fsb_hist *h, uint64_t v)
{
	h->b[fsb_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void fsb_hist_merge(struct fsb_hist *dst, const struct fsb_hist *src);
/* Value at percentile p (0 < p <= 100): the middle of the bucket holding the
 * ceil(p/100 * count)-th smallest value, clamped to [min, max]. 0 if empty. */
uint64_t fsb_hist_pct(const struct fsb_hist *h, double p);

#endif

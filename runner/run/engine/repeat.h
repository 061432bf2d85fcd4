/* repeat.h: repetitions of a column's rounds (setting `repeat`): the
 * seconds of every phase of every repetition, whether another repetition
 * is wanted (`repeat = N`: until N; `repeat = auto`: until the 95 %
 * confidence interval of every phase's median is within `repeat_width`
 * percent of it, at most `repeat_max`), and the `repeat` record that says
 * where each phase ended. The suite (run/engine/suite.c) interleaves the
 * columns: repetition 1 of every column, then repetition 2, ... */
#ifndef FSB_REPEAT_H
#define FSB_REPEAT_H

#include <stddef.h>
#include <stdint.h>

struct fsb_ctx;
struct fsb_config;

#define FSB_REPEAT_LEVEL 0.95	/* the confidence of the interval `auto` waits for */

/* One column's repetitions so far. */
struct fsb_reps {
	uint32_t want;		/* repeat = N: N; auto: repeat_max */
	int autom;		/* repeat = auto */
	uint32_t done;		/* repetitions finished */
	int stop;		/* no more: enough, converged, or the column failed */
	int converged;		/* auto: every phase's interval is within the width */
	uint32_t rounds;
	size_t nph;		/* phases of the table (run/engine/phase.h) */
	double *sec;		/* [round-1][phase][rep-1] seconds */
	uint32_t *n;		/* [round-1][phase]: samples */
	uint32_t *first_ok;	/* [round-1][phase]: the repetition its interval was first narrow enough; 0 = not yet */
};

/* Does the run repeat at all (repeat is not 1, and there are small-file
 * rounds to repeat)? */
int fsb_repeat_on(const struct fsb_config *cfg);
/* Ready r for a column. 0 or -ENOMEM. */
int fsb_reps_init(struct fsb_reps *r, const struct fsb_config *cfg, size_t nphases);
void fsb_reps_free(struct fsb_reps *r);
/* The seconds of phase (its index in fsb_phases[]) of a round, this
 * repetition. */
void fsb_reps_add(struct fsb_reps *r, uint32_t round, size_t phase, double seconds);
/* A repetition's rounds ended (failed: the column failed in it): decides
 * whether another is wanted (r->stop). */
void fsb_reps_end(struct fsb_ctx *c, struct fsb_reps *r, int failed);
/* After the column's last repetition (r->stop), with `auto`: its `repeat`
 * record. */
void fsb_reps_record(struct fsb_ctx *c, const struct fsb_reps *r, const char *column);

#endif

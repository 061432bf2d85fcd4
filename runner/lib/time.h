/* time.h: the monotonic clock used for every measurement. */
#ifndef FSB_TIME_H
#define FSB_TIME_H

#include <stdint.h>

double fsb_now(void);		/* CLOCK_MONOTONIC seconds */
uint64_t fsb_now_ns(void);	/* CLOCK_MONOTONIC nanoseconds */

#endif

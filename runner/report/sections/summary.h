/* summary.h: the rows of runner/SUITE.md's table and the median of rounds
 * (summary.c). */
#ifndef FSB_REPORT_SUMMARY_H
#define FSB_REPORT_SUMMARY_H

#include <stddef.h>

#include "report/model.h"

/* The summary rows of the reference table. */
enum rep_row {
	ROW_CREATE = 0,
	ROW_STAT,
	ROW_READ_FRESH,
	ROW_READ_AGED,
	ROW_INODE_FRESH,
	ROW_INODE_AGED,
	ROW_DELETE,
	ROW_N
};
/* "read cold (aged fs)"; "?" out of range. */
const char *rep_row_name(enum rep_row row);
/* The phase a row is the median of ("read"); "?" out of range. */
const char *rep_row_phase(enum rep_row row);
/* One summary cell: seconds (rate = 0) or files per second (rate = 1).
 * Returns 1 and *out, or 0 when there is no value (e.g. aged with 1 round). */
int rep_summary(const struct rep_run *r, const char *fs, enum rep_row row,
		int rate, double *out);
/* A summary cell and the rounds it is the median of: their count, median,
 * fastest and slowest, and the spread, (slowest - fastest) / median (0 for
 * one round). */
struct rep_stats {
	size_t n;
	double median, min, max, spread;
};
/* 1 with *st filled, 0 when there is no value, -1 when out of memory. */
int rep_summary_stats(const struct rep_run *r, const char *fs, enum rep_row row,
		      int rate, struct rep_stats *st);
/* Median of v[0..n) (sorts v); n must be > 0. Even n: mean of the middle two. */
double rep_median(double *v, size_t n);

#endif

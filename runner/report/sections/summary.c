/* summary.c: the summary rows and the median of rounds (see summary.h). */
#include "report/sections/summary.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *phase;
	int rounds;	/* 0: all rounds, 1: round 1 only, 2: rounds >= 2 */
} rows[ROW_N] = {
	[ROW_CREATE] = { "create (incl. sync)", "create", 0 },
	[ROW_STAT] = { "stat walk (cold)", "stat", 0 },
	[ROW_READ_FRESH] = { "read cold (fresh fs)", "read", 1 },
	[ROW_READ_AGED] = { "read cold (aged fs)", "read", 2 },
	[ROW_INODE_FRESH] = { "read inode order (fresh fs)", "read_inode", 1 },
	[ROW_INODE_AGED] = { "read inode order (aged fs)", "read_inode", 2 },
	[ROW_DELETE] = { "delete (incl. sync)", "delete", 0 },
};

const char *rep_row_name(enum rep_row row)
{
	return row < ROW_N ? rows[row].name : "?";
}

const char *rep_row_phase(enum rep_row row)
{
	return row < ROW_N ? rows[row].phase : "?";
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double rep_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The seconds (rate = 0) or files per second (rate = 1) of each round row
 * takes, the later record of a round winning: *vp (malloc'd, or NULL when
 * none) and the count, or -1 when out of memory. */
static long row_values(const struct rep_run *r, const char *fs, const char *phase,
		       int rounds, int rate, double **vp)
{
	double *v = NULL;
	unsigned *rd = NULL;
	size_t n = 0, cap = 0;

	*vp = NULL;
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase))
			continue;
		if ((rounds == 1 && p->round != 1) || (rounds == 2 && p->round < 2))
			continue;
		double x = rate ? p->files_per_s : p->seconds;
		size_t j;
		for (j = 0; j < n && rd[j] != p->round; j++)
			;
		if (j < n) {	/* the same round twice: the later record wins */
			v[j] = x;
			continue;
		}
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			double *nv = realloc(v, nc * sizeof(*nv));
			if (nv)
				v = nv;
			unsigned *nr = nv ? realloc(rd, nc * sizeof(*nr)) : NULL;
			if (!nr) {
				free(v);
				free(rd);
				return -1;
			}
			rd = nr;
			cap = nc;
		}
		v[n] = x;
		rd[n] = p->round;
		n++;
	}
	free(rd);
	*vp = v;
	return (long)n;
}

int rep_summary(const struct rep_run *r, const char *fs, enum rep_row row,
		int rate, double *out)
{
	struct rep_stats st;

	if (rep_summary_stats(r, fs, row, rate, &st) <= 0)
		return 0;
	*out = st.median;
	return 1;
}

int rep_summary_stats(const struct rep_run *r, const char *fs, enum rep_row row,
		      int rate, struct rep_stats *st)
{
	double *v;
	long n;

	memset(st, 0, sizeof(*st));
	if (row >= ROW_N)
		return 0;
	if ((n = row_values(r, fs, rows[row].phase, rows[row].rounds, rate, &v)) < 0)
		return -1;
	if (n) {
		st->n = (size_t)n;
		st->median = rep_median(v, st->n);	/* sorts v */
		st->min = v[0];
		st->max = v[n - 1];
		st->spread = st->median > 0 ? (st->max - st->min) / st->median : 0;
	}
	free(v);
	return n > 0;
}

/* summary.c: the summary rows and the median of rounds (see summary.h). */
#include "report/summary.h"

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

int rep_summary(const struct rep_run *r, const char *fs, enum rep_row row,
		int rate, double *out)
{
	double stackv[16], *v = stackv;
	unsigned stackr[16], *rd = stackr;
	size_t n = 0, cap = 16;
	int found = 0;

	if (row >= ROW_N)
		return 0;
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, rows[row].phase))
			continue;
		if ((rows[row].rounds == 1 && p->round != 1) ||
		    (rows[row].rounds == 2 && p->round < 2))
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
			size_t nc = cap * 2;
			double *nv = malloc(nc * sizeof(*nv));
			unsigned *nr = malloc(nc * sizeof(*nr));
			if (!nv || !nr) {
				free(nv);
				free(nr);
				break;	/* median of what fits */
			}
			memcpy(nv, v, n * sizeof(*v));
			memcpy(nr, rd, n * sizeof(*rd));
			if (v != stackv) {
				free(v);
				free(rd);
			}
			v = nv;
			rd = nr;
			cap = nc;
		}
		v[n] = x;
		rd[n] = p->round;
		n++;
	}
	if (n) {
		*out = rep_median(v, n);
		found = 1;
	}
	if (v != stackv) {
		free(v);
		free(rd);
	}
	return found;
}

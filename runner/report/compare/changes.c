/* changes.c: the change points of each filesystem's summary rows over the
 * runs of a history (see changes.h). */
#include "report/compare/changes.h"
#include "report/sections/summary.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int rep_table_changes_method(const struct rep_ediv_opts *o, struct rep_table *t)
{
	static const char *const keys[] = { "method", "values", "significance", "permutations",
					    "min_segment", "seed" };
	size_t row;

	tab_init_text(t, "changes_method", NULL, SHAPE_KV, "key", "value", (char *)NULL);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		row = tab_row(t);
		tab_text(t, row, 0, "%s", keys[k]);
		switch (k) {
		case 0:
			tab_text(t, row, 1, "E-divisive means (Matteson and James 2014): the energy "
				 "statistic (exponent 1), the best split found recursively, each "
				 "tested by permutations");
			break;
		case 1:
			tab_text(t, row, 1, "seconds of each summary row (median of a run's rounds), "
				 "one per run, runs by date");
			break;
		case 2:
			tab_text(t, row, 1, "%g", o->sig);
			break;
		case 3:
			tab_count(t, row, 1, o->perms);
			break;
		case 4:
			tab_count(t, row, 1, o->min_seg);
			break;
		default:
			tab_count(t, row, 1, o->seed);
		}
	}
	return tab_done(t);
}

/* FNV-1a of the series' name, mixed with the seed: its generator's start. */
static uint64_t series_seed(uint64_t seed, const char *fs, const char *row)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const char *parts[2] = { fs, row };

	for (int k = 0; k < 2; k++) {
		for (const unsigned char *p = (const unsigned char *)parts[k]; *p; p++)
			h = (h ^ *p) * 0x100000001b3ull;
		h = (h ^ 0) * 0x100000001b3ull;	/* the separator */
	}
	return h ^ seed;
}

/* The median of v[a..b), sorting a copy in tmp. */
static double level(const double *v, size_t a, size_t b, double *tmp)
{
	memcpy(tmp, v + a, (b - a) * sizeof(*v));
	return rep_median(tmp, b - a);
}

enum { C_FS, C_PHASE, C_RUN, C_RUN_ID, C_DATE, C_BEFORE, C_AFTER, C_RATIO, C_P, C_NBEFORE,
       C_NAFTER, C_N };
enum { S_FS, S_PHASE, S_RUNS, S_CHANGES, S_LEVEL, S_NOTE, S_N };

static void init_tables(struct rep_table *c, struct rep_table *s)
{
	tab_init(c, "changes", "Change points (the run where a new level starts; seconds, the "
		 "median of the runs of each level)", SHAPE_GRID, C_N);
	tab_col(c, C_FS, 0, "fs", NULL);
	tab_col(c, C_PHASE, 0, "phase", NULL);
	tab_col(c, C_RUN, 0, "from run", "run");
	tab_col(c, C_RUN_ID, 0, "run_id", NULL);
	tab_col(c, C_DATE, 0, "date (UTC)", "date");
	tab_col(c, C_BEFORE, 1, "before", "before_s");
	tab_col(c, C_AFTER, 1, "after", "after_s");
	tab_col(c, C_RATIO, 1, "after/before", "ratio");
	tab_col(c, C_P, 1, "p", "p_value");
	tab_col(c, C_NBEFORE, 1, "runs before", "runs_before");
	tab_col(c, C_NAFTER, 1, "runs after", "runs_after");

	tab_init(s, "changes_series", "Series (one per filesystem and summary row)", SHAPE_GRID,
		 S_N);
	tab_col(s, S_FS, 0, "fs", NULL);
	tab_col(s, S_PHASE, 0, "phase", NULL);
	tab_col(s, S_RUNS, 1, "runs", NULL);
	tab_col(s, S_CHANGES, 1, "change points", "changes");
	tab_col(s, S_LEVEL, 1, "level now", "level_s");
	tab_col(s, S_NOTE, 0, "note", NULL);
}

/* One change point's row: cp[k] of the series v (its runs idx), cut at the
 * change points before and after it. */
static void change_row(struct rep_table *t, const struct rep_history *h, const char *fs,
		       enum rep_row ri, const double *v, const size_t *idx, size_t n,
		       const struct rep_ediv_cp *cp, size_t ncp, size_t k, double *tmp)
{
	size_t a = k ? cp[k - 1].at : 0, m = cp[k].at, b = k + 1 < ncp ? cp[k + 1].at : n;
	const struct rep_hist_entry *e = &h->e[idx[m]];
	double before = level(v, a, m, tmp), after = level(v, m, b, tmp);
	size_t row = tab_row(t);

	tab_text(t, row, C_FS, "%s", fs);
	tab_text(t, row, C_PHASE, "%s", rep_row_name(ri));
	tab_link(t, row, C_RUN, e->name, e->report);
	tab_text(t, row, C_RUN_ID, "%s", e->run->run_id ? e->run->run_id : "");
	if (e->when_from) {
		struct tm tm;
		char d[32];
		gmtime_r(&e->when, &tm);
		strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
		tab_text(t, row, C_DATE, "%s", d);
	} else {
		tab_missing(t, row, C_DATE);
	}
	tab_num(t, row, C_BEFORE, CELL_SECONDS, before);
	tab_num(t, row, C_AFTER, CELL_SECONDS, after);
	tab_num_if(t, row, C_RATIO, before > 0, CELL_RATIO, after / before);
	tab_fixed(t, row, C_P, cp[k].p, 3);
	tab_count(t, row, C_NBEFORE, m - a);
	tab_count(t, row, C_NAFTER, b - m);
}

int rep_table_changes(const struct rep_history *h, const struct rep_ediv_opts *o,
		      struct rep_table *changes, struct rep_table *series, size_t *found)
{
	const char **fs = NULL;
	size_t *idx = NULL;
	double *v = NULL, *tmp = NULL;
	struct rep_ediv_cp *cp = NULL;
	long nfs;
	int rc = 0;

	*found = 0;
	if (rep_ediv_check(o))
		return -EINVAL;
	if ((nfs = rep_history_fs(h, &fs)) < 0)
		return -ENOMEM;
	init_tables(changes, series);
	size_t cap = h->n ? h->n : 1;
	idx = malloc(cap * sizeof(*idx));
	v = malloc(cap * sizeof(*v));
	tmp = malloc(cap * sizeof(*tmp));
	cp = malloc(cap * sizeof(*cp));
	if (!idx || !v || !tmp || !cp)
		rc = -ENOMEM;
	for (long f = 0; f < nfs && !rc; f++)
		for (int ri = 0; ri < ROW_N && !rc; ri++) {
			size_t n = 0, ncp = 0;
			for (size_t i = 0; i < h->n; i++)
				if (rep_summary(h->e[i].run, fs[f], (enum rep_row)ri, 0, &v[n]))
					idx[n++] = i;
			if (!n)
				continue;	/* no run has the row (aged rows of one round) */
			if (n >= 2 * o->min_seg &&
			    (rc = rep_ediv(v, n, o, series_seed(o->seed, fs[f],
							       rep_row_name((enum rep_row)ri)),
					   cp, cap, &ncp)))
				break;
			for (size_t k = 0; k < ncp; k++)
				change_row(changes, h, fs[f], (enum rep_row)ri, v, idx, n, cp, ncp, k,
					   tmp);
			*found += ncp;
			size_t row = tab_row(series);
			tab_text(series, row, S_FS, "%s", fs[f]);
			tab_text(series, row, S_PHASE, "%s", rep_row_name((enum rep_row)ri));
			tab_count(series, row, S_RUNS, n);
			if (n < 2 * o->min_seg) {
				tab_missing(series, row, S_CHANGES);
				tab_text(series, row, S_NOTE, "not searched: %zu run%s, fewer than "
					 "2 x the minimum segment (%zu)", n, n == 1 ? "" : "s",
					 o->min_seg);
			} else {
				tab_count(series, row, S_CHANGES, ncp);
			}
			tab_num(series, row, S_LEVEL, CELL_SECONDS,
				level(v, ncp ? cp[ncp - 1].at : 0, n, tmp));
		}
	free(fs);
	free(idx);
	free(v);
	free(tmp);
	free(cp);
	if (rc) {
		rep_table_free(changes);
		rep_table_free(series);
		return rc;
	}
	int r1 = tab_done(changes), r2 = tab_done(series);
	if (r1 || r2) {
		if (!r1)
			rep_table_free(changes);
		if (!r2)
			rep_table_free(series);
		return -ENOMEM;
	}
	return 0;
}

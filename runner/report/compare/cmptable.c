/* cmptable.c: the rows of two sides or more flagged by significance, the
 * conditions, and the flags counted (sidebyside.h). */
#include "report/compare/sidebyside.h"
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE "A later side's row is flagged slower or faster only when the ratio of the" \
	" medians is beyond the tolerance and the difference is significant: the" \
	" Mann-Whitney U test of the two sides' samples gives p < 0.05 (exact for up to" \
	" 50 samples without ties). The interval is the 95 % percentile bootstrap of" \
	" the ratio of medians (2000 resamples, seeded: the same runs give the same" \
	" interval). \"too few samples\": beyond the tolerance, but no p below 0.05 is" \
	" possible with so few samples (3 against 3, or 1 against 8; 4 against 4 is" \
	" enough): compare more runs a side (A1 A2 A3 A4 -- B1 B2 B3 B4)."
#define NOTE_CTL " \"ctl\": each run's samples over its control index (the geometric mean" \
	" of the medians of its control items); a side whose conditions differ from A's" \
	" (the conditions table) is judged on these, marked (ctl)."

static char letter(size_t i)
{
	return (char)('A' + i);
}

/* The control items every run of every side has, with the same work (0:
 * a run without a control record). */
static unsigned common_items(const struct rep_cmp_run *runs, size_t n)
{
	unsigned items = (1u << REP_CTL_N) - 1;
	const struct rep_run *first = runs[0].run;
	for (size_t i = 0; i < n; i++) {
		size_t nm;
		const struct rep_run *const *m = rep_cmp_members(&runs[i], &nm);
		for (size_t k = 0; k < nm; k++) {
			if (!m[k]->ctl.have)
				return 0;
			for (unsigned it = 0; it < REP_CTL_N; it++)
				if (!m[k]->ctl.n[it] || m[k]->ctl.size[it] != first->ctl.size[it])
					items &= ~(1u << it);
		}
	}
	return items;
}

static int side_conditions(const struct rep_cmp_run *runs, size_t i, double tolerance,
			   struct rep_cmp_cond *c)
{
	size_t na, nb;
	const struct rep_run *const *a = rep_cmp_members(&runs[0], &na);
	const struct rep_run *const *b = rep_cmp_members(&runs[i], &nb);
	return rep_cmp_conditions(a, na, b, nb, tolerance, c);
}

/* The columns of a later side L from c on: ratio, interval, p, [the same
 * relative to the control], flag. */
enum { PER_A = 3, PER_B = 3 + 5 + 4, PER_CTL = 5 };

static void side_cols(struct rep_table *t, size_t c, char L, int ctl)
{
	char head[64], key[64], l = (char)(L - 'A' + 'a');

	snprintf(head, sizeof(head), "%c (s)", L);
	snprintf(key, sizeof(key), "%c_seconds", l);
	tab_col(t, c++, 1, head, key);
	snprintf(key, sizeof(key), "%c_samples", l);
	tab_col(t, c, 1, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
	snprintf(key, sizeof(key), "%c_runs", l);
	tab_col(t, c, 1, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
	if (L == 'A')
		return;
	snprintf(head, sizeof(head), "%c/A", L);
	snprintf(key, sizeof(key), "%c_over_a", l);
	tab_col(t, c++, 1, head, key);
	snprintf(head, sizeof(head), "%c/A 95%% CI", L);
	tab_col(t, c, 1, head, NULL);
	tab_col_only(t, c++, REP_VIEW_READ);
	snprintf(key, sizeof(key), "%c_ci_lo", l);
	tab_col(t, c, 1, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
	snprintf(key, sizeof(key), "%c_ci_hi", l);
	tab_col(t, c, 1, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
	snprintf(head, sizeof(head), "%c p", L);
	snprintf(key, sizeof(key), "%c_p", l);
	tab_col(t, c++, 1, head, key);
	if (ctl) {
		snprintf(head, sizeof(head), "%c/A ctl", L);
		snprintf(key, sizeof(key), "%c_over_a_ctl", l);
		tab_col(t, c++, 1, head, key);
		snprintf(key, sizeof(key), "%c_ctl_ci_lo", l);
		tab_col(t, c, 1, key, NULL);
		tab_col_only(t, c++, REP_VIEW_DATA);
		snprintf(key, sizeof(key), "%c_ctl_ci_hi", l);
		tab_col(t, c, 1, key, NULL);
		tab_col_only(t, c++, REP_VIEW_DATA);
		snprintf(key, sizeof(key), "%c_ctl_p", l);
		tab_col(t, c, 1, key, NULL);
		tab_col_only(t, c++, REP_VIEW_DATA);
		snprintf(key, sizeof(key), "%c_ctl_flag", l);
		tab_col(t, c, 0, key, NULL);
		tab_col_only(t, c++, REP_VIEW_DATA);
	}
	snprintf(head, sizeof(head), "%c vs A", L);
	tab_col(t, c, 0, head, NULL);
	tab_col_only(t, c++, REP_VIEW_READ);
	snprintf(key, sizeof(key), "%c_flag", l);
	tab_col(t, c, 0, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
	snprintf(key, sizeof(key), "%c_flag_raw", l);
	tab_col(t, c, 0, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
	snprintf(key, sizeof(key), "%c_judged_on", l);
	tab_col(t, c, 0, key, NULL);
	tab_col_only(t, c++, REP_VIEW_DATA);
}

/* A test's ratio, interval (read: "0.91-1.12"; data: two numbers) and p
 * from column c on; the number of columns written. */
static size_t put_test(struct rep_table *t, size_t row, size_t c, const struct rep_cmp_test *x,
		       int with_read_ci)
{
	size_t c0 = c;
	if (x->flag == CMP_NONE) {
		size_t k = with_read_ci ? 5 : 4;
		for (size_t j = 0; j < k; j++)
			tab_missing(t, row, c + j);
		return k;
	}
	tab_num(t, row, c++, CELL_RATIO, x->ratio);
	if (with_read_ci) {
		if (x->have_ci)
			tab_text(t, row, c, "%.2f-%.2f", x->lo, x->hi);
		else
			tab_missing(t, row, c);
		c++;
	}
	if (x->have_ci) {
		tab_fixed(t, row, c++, x->lo, 4);
		tab_fixed(t, row, c++, x->hi, 4);
	} else {
		tab_missing(t, row, c++);
		tab_missing(t, row, c++);
	}
	if (isnan(x->p))
		tab_missing(t, row, c++);
	else
		tab_fixed(t, row, c++, x->p, 4);
	return c - c0;
}

/* Against published figures (no samples): the tolerance alone decides. */
static void fixed_flag(struct rep_cmp_test *x)
{
	x->have_ci = 0;	/* no samples: no interval, no p */
	x->p = NAN;
	if (x->flag == CMP_NOISE || x->flag == CMP_FEW)
		x->flag = x->ratio > 1 ? CMP_SLOWER : CMP_FASTER;
}

int rep_table_cmp(const struct rep_cmp_run *runs, size_t n, double tolerance,
		  struct rep_table *t, struct rep_cmp_count *count)
{
	struct rep_cmp_cond cond[REP_CMP_MAX];
	const char **fs;
	size_t nfs;

	if (n < 2 || n > REP_CMP_MAX)
		return -EINVAL;
	memset(count, 0, n * sizeof(*count));
	unsigned items = common_items(runs, n);
	int ctl = items != 0;
	for (size_t i = 1; i < n; i++) {
		int rc = side_conditions(runs, i, tolerance, &cond[i]);
		if (rc)
			return rc;
		count[i].conditions = cond[i].have ? cond[i].differ : -1;
	}
	if (rep_cmp_fs_union(runs, n, &fs, &nfs))
		return -ENOMEM;
	size_t per = PER_B + (ctl ? PER_CTL : 0);
	size_t ncols = 2 + PER_A + per * (n - 1);
	tab_init(t, "compare", "Comparison (seconds, median of the samples: every round of"
		 " every run of a side; B/A < 1: B is faster)", SHAPE_GRID, ncols);
	t->note = runs[0].fixed ? "A is published figures, not samples: a row is flagged"
		  " slower or faster when the ratio of the medians is beyond the tolerance." :
		  ctl ? NOTE NOTE_CTL : NOTE;
	tab_col(t, 0, 0, "fs", NULL);
	tab_col(t, 1, 0, "phase", NULL);
	side_cols(t, 2, 'A', ctl);
	for (size_t i = 1; i < n; i++)
		side_cols(t, 2 + PER_A + per * (i - 1), letter(i), ctl);

	for (size_t f = 0; f < nfs && !t->oom; f++) {
		for (int ri = 0; ri < ROW_N && !t->oom; ri++) {
			double *v[REP_CMP_MAX], *w[REP_CMP_MAX];
			long nv[REP_CMP_MAX];
			unsigned long have = 0;
			memset(v, 0, sizeof(v));
			memset(w, 0, sizeof(w));
			for (size_t i = 0; i < n; i++) {
				size_t nm;
				const struct rep_run *const *m = rep_cmp_members(&runs[i], &nm);
				nv[i] = rep_cmp_samples(m, nm, fs[f], (enum rep_row)ri, items, &v[i],
							ctl ? &w[i] : NULL);
				if (nv[i] < 0)
					t->oom = 1;
				if (nv[i] > 0)
					have |= 1ul << i;
			}
			if (!t->oom && (have & 1) && (have & ~1ul)) {
				size_t row = tab_row(t);
				tab_text(t, row, 0, "%s", fs[f]);
				tab_text(t, row, 1, "%s", rep_row_name((enum rep_row)ri));
				uint64_t seed = rep_cmp_seed(fs[f], (unsigned)ri);
				for (size_t i = 0; i < n && !t->oom; i++) {
					size_t c = i ? 2 + PER_A + per * (i - 1) : 2, nm;
					rep_cmp_members(&runs[i], &nm);
					if (have & (1ul << i)) {
						tab_num(t, row, c, CELL_SECONDS,
							stats_median(v[i], (size_t)nv[i]));
						tab_count(t, row, c + 1, (uint64_t)nv[i]);
					} else {
						tab_missing(t, row, c);
						tab_missing(t, row, c + 1);
					}
					tab_count(t, row, c + 2, nm);
					if (!i)
						continue;
					c += 3;
					struct rep_cmp_test raw, rel = { 0 };
					if (rep_cmp_test(v[0], (size_t)nv[0], v[i], (size_t)nv[i], tolerance,
							 seed, &raw)) {
						t->oom = 1;
						break;
					}
					if (runs[0].fixed)
						fixed_flag(&raw);
					c += put_test(t, row, c, &raw, 1);
					int on_ctl = 0;
					if (ctl) {
						if (w[0] && w[i] && rep_cmp_test(w[0], (size_t)nv[0], w[i],
								(size_t)nv[i], tolerance, seed, &rel)) {
							t->oom = 1;
							break;
						}
						if (!w[0] || !w[i])
							memset(&rel, 0, sizeof(rel));
						else if (runs[0].fixed)
							fixed_flag(&rel);
						c += put_test(t, row, c, &rel, 0);
						tab_text(t, row, c++, "%s", rep_cmp_flag_name(rel.flag, REP_VIEW_DATA));
						on_ctl = cond[i].have && cond[i].differ;
					}
					enum rep_cmp_flag fl = on_ctl ? rel.flag : raw.flag;
					const char *rd = rep_cmp_flag_name(fl, REP_VIEW_READ);
					if (on_ctl && fl != CMP_NONE)
						tab_text(t, row, c, "%s%s(ctl)", rd, *rd ? " " : "");
					else
						tab_text(t, row, c, "%s", rd);
					tab_text(t, row, c + 1, "%s", rep_cmp_flag_name(fl, REP_VIEW_DATA));
					tab_text(t, row, c + 2, "%s", rep_cmp_flag_name(raw.flag, REP_VIEW_DATA));
					tab_text(t, row, c + 3, "%s", on_ctl ? "control" : "raw");
					if (fl != CMP_NONE) {
						count[i].compared++;
						count[i].slower += fl == CMP_SLOWER;
						count[i].faster += fl == CMP_FASTER;
						count[i].noise += fl == CMP_NOISE;
						count[i].few += fl == CMP_FEW;
					}
				}
			}
			for (size_t i = 0; i < n; i++) {
				free(v[i]);
				free(w[i]);
			}
		}
	}
	free(fs);
	return tab_done(t);
}

int rep_table_cmp_conditions(const struct rep_cmp_run *runs, size_t n, double tolerance,
			     struct rep_table *t)
{
	if (n < 2 || n > REP_CMP_MAX)
		return -EINVAL;
	tab_init(t, "conditions", "Conditions (the runs' control: seconds, median of the"
		 " samples of every run of a side)", SHAPE_GRID, 11);
	t->note = "Each run times a fixed control before its first filesystem and after"
		  " each (setting control): a CPU loop, a memory copy, files on a tmpfs. The conditions differ"
		  " when an item's samples differ beyond the tolerance and significantly"
		  " (Mann-Whitney p < 0.05): the machine ran faster or slower, not the disk, and"
		  " that side's rows are judged relative to the control (\"ctl\").";
	static const struct { const char *head, *key; int right; } h[] = {
		{ "side", NULL, 0 }, { "item", NULL, 0 }, { "A (s)", "a_seconds", 1 },
		{ "side (s)", "seconds", 1 }, { "side/A", "over_a", 1 }, { "95% CI", NULL, 1 },
		{ "ci_lo", NULL, 1 }, { "ci_hi", NULL, 1 }, { "p", NULL, 1 },
		{ "samples", NULL, 1 }, { "vs A", NULL, 0 },
	};
	for (size_t c = 0; c < 11; c++)
		tab_col(t, c, h[c].right, h[c].head, h[c].key);
	tab_col_only(t, 5, REP_VIEW_READ);
	tab_col_only(t, 6, REP_VIEW_DATA);
	tab_col_only(t, 7, REP_VIEW_DATA);
	for (size_t i = 1; i < n && !t->oom; i++) {
		struct rep_cmp_cond cd;
		int rc = side_conditions(runs, i, tolerance, &cd);
		if (rc) {
			t->oom = 1;
			break;
		}
		for (unsigned it = 0; cd.have && it < REP_CTL_N; it++) {
			if (!(cd.items & (1u << it)))
				continue;
			const struct rep_cmp_test *x = &cd.item[it];
			size_t row = tab_row(t);
			tab_text(t, row, 0, "%c", letter(i));
			tab_text(t, row, 1, "%s", rep_control_item(it));
			tab_num(t, row, 2, CELL_SECONDS, x->ma);
			tab_num(t, row, 3, CELL_SECONDS, x->mb);
			tab_num(t, row, 4, CELL_RATIO, x->ratio);
			if (x->have_ci) {
				tab_text(t, row, 5, "%.2f-%.2f", x->lo, x->hi);
				tab_fixed(t, row, 6, x->lo, 4);
				tab_fixed(t, row, 7, x->hi, 4);
			} else {
				for (size_t c = 5; c < 8; c++)
					tab_missing(t, row, c);
			}
			tab_fixed(t, row, 8, x->p, 4);
			tab_text(t, row, 9, "%zu/%zu", x->na, x->nb);
			tab_text(t, row, 10, "%s", x->flag == CMP_SLOWER ? "differ (slower)" :
				 x->flag == CMP_FASTER ? "differ (faster)" : "same");
		}
	}
	return tab_done(t);
}

int rep_table_cmp_flags(const struct rep_cmp_count *count, size_t n, double tolerance,
			struct rep_table *t)
{
	enum { NC = 10 };
	tab_init(t, "flags", NULL, SHAPE_KV, NC);
	tab_col(t, 0, 0, "side", NULL);
	tab_col(t, 1, 0, "against", NULL);
	tab_col(t, 2, 0, "flags", NULL);
	tab_col(t, 3, 1, "compared", NULL);
	tab_col(t, 4, 1, "slower", NULL);
	tab_col(t, 5, 1, "faster", NULL);
	tab_col(t, 6, 1, "not_significant", NULL);
	tab_col(t, 7, 1, "too_few", NULL);
	tab_col(t, 8, 1, "tolerance_pct", NULL);
	tab_col(t, 9, 0, "conditions", NULL);
	for (size_t c = 0; c < NC; c++)
		tab_col_only(t, c, c == 1 || c == 2 ? REP_VIEW_READ : REP_VIEW_DATA);
	for (size_t i = 1; i < n; i++) {
		const struct rep_cmp_count *k = &count[i];
		size_t row = tab_row(t);
		const char *cond = k->conditions < 0 ? "not_measured" :
				   k->conditions ? "differ" : "same";
		tab_text(t, row, 0, "%c", letter(i));
		tab_text(t, row, 1, "%c against A", letter(i));
		tab_text(t, row, 2, "%zu slower, %zu faster, %zu beyond the tolerance but not"
			 " significant, %zu with too few samples, of %zu row%s compared (tolerance"
			 " %g%%, p < 0.05); conditions %s", k->slower, k->faster, k->noise, k->few,
			 k->compared, k->compared == 1 ? "" : "s", tolerance * 100,
			 k->conditions < 0 ? "not measured (a run without a control record, or of other work)" :
			 k->conditions ? "differ: the rows are judged relative to the control" :
			 "the same");
		tab_count(t, row, 3, k->compared);
		tab_count(t, row, 4, k->slower);
		tab_count(t, row, 5, k->faster);
		tab_count(t, row, 6, k->noise);
		tab_count(t, row, 7, k->few);
		tab_fixed(t, row, 8, tolerance * 100, 1);
		tab_text(t, row, 9, "%s", cond);
	}
	return tab_done(t);
}

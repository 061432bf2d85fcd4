/* cmptable.c: the rows of two sides or more flagged by significance, the
 * conditions, and the flags counted (sidebyside.h). */
#include "report/compare/sidebyside.h"
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE "Each run is one sample of a row (each repetition of a run, when it has" \
	" them): the median of the rounds the row takes in it (a run's rounds age one" \
	" filesystem in one boot, they are not independent of each other). A later" \
	" side's row is flagged slower or faster only when the ratio of the medians is" \
	" beyond the tolerance and the difference is significant: the Mann-Whitney U test" \
	" of the two sides' samples (exact for up to 50 samples without ties), its p" \
	" adjusted over the side's rows by Benjamini-Hochberg (p (BH) < 0.05), so that" \
	" judging many rows at once does not make false flags. MDC, the minimum" \
	" detectable change: the smallest slowdown that this many samples with this spread" \
	" (the standard deviation of their logs) would flag with 80 % power at the level" \
	" one row changed alone must reach (0.05 over the rows judged); a row not flagged" \
	" reads \"no change beyond\" it. \"cannot decide\": not flagged, and its MDC is" \
	" beyond the tolerance (too few samples, or too spread): the runs a side that" \
	" would decide it are given. The interval is the 95 % percentile bootstrap of" \
	" the ratio of medians (2000 resamples, seeded: the same runs give the same" \
	" interval)."
#define NOTE_CTL " \"ctl\": each sample over its run's control index (the geometric mean" \
	" of the medians of its control items); a side whose conditions differ from A's" \
	" (the conditions table) is judged on these, marked (ctl), unless --control report (its rows" \
	" on their own seconds)."

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

/* A side's columns: in head and key, '@' is the side's letter and '~' the
 * same in lower case ("" none); shown in both views or one. */
enum { COL_ALL = 0, COL_LATER = 1, COL_CTL = 2 };
static const struct side_col {
	const char *head, *key;
	int right;
	unsigned view;		/* 0 both, else REP_VIEW_READ or REP_VIEW_DATA */
	int which;		/* COL_ALL every side, COL_LATER not A, COL_CTL
				 * not A and with the control */
} side_col[] = {
	{ "@ (s)", "~_seconds", 1, 0, COL_ALL },
	{ "", "~_samples", 1, REP_VIEW_DATA, COL_ALL },
	{ "", "~_runs", 1, REP_VIEW_DATA, COL_ALL },
	{ "@/A", "~_over_a", 1, 0, COL_LATER },
	{ "@/A 95% CI", "", 1, REP_VIEW_READ, COL_LATER },
	{ "", "~_ci_lo", 1, REP_VIEW_DATA, COL_LATER },
	{ "", "~_ci_hi", 1, REP_VIEW_DATA, COL_LATER },
	{ "", "~_p", 1, REP_VIEW_DATA, COL_LATER },
	{ "@ p (BH)", "~_p_bh", 1, 0, COL_LATER },	/* these three: of the test the */
	{ "@ MDC", "", 1, REP_VIEW_READ, COL_LATER },	/* row is judged on (raw, or ctl) */
	{ "", "~_mdc_pct", 1, REP_VIEW_DATA, COL_LATER },
	{ "", "~_runs_needed", 1, REP_VIEW_DATA, COL_LATER },
	{ "@/A ctl", "~_over_a_ctl", 1, 0, COL_CTL },
	{ "", "~_ctl_ci_lo", 1, REP_VIEW_DATA, COL_CTL },
	{ "", "~_ctl_ci_hi", 1, REP_VIEW_DATA, COL_CTL },
	{ "", "~_ctl_p", 1, REP_VIEW_DATA, COL_CTL },
	{ "", "~_ctl_flag", 0, REP_VIEW_DATA, COL_CTL },
	{ "@ vs A", "", 0, REP_VIEW_READ, COL_LATER },
	{ "", "~_flag", 0, REP_VIEW_DATA, COL_LATER },
	{ "", "~_flag_raw", 0, REP_VIEW_DATA, COL_LATER },
	{ "", "~_judged_on", 0, REP_VIEW_DATA, COL_LATER },
};
#define NSIDE_COL (sizeof(side_col) / sizeof(side_col[0]))

/* How many columns a side has: A, a later side, with the control or not. */
static size_t side_ncols(int later, int ctl)
{
	size_t k = 0;
	for (size_t i = 0; i < NSIDE_COL; i++)
		k += side_col[i].which == COL_ALL || (later && (side_col[i].which == COL_LATER ||
								 (ctl && side_col[i].which == COL_CTL)));
	return k;
}

/* pat with '@' and '~' replaced by c, into buf. */
static void fill(char *buf, size_t len, const char *pat, char c)
{
	size_t o = 0;
	for (; *pat && o + 1 < len; pat++)
		buf[o++] = *pat == '@' || *pat == '~' ? c : *pat;
	buf[o] = 0;
}

/* The columns of side L from c on. */
static void side_cols(struct rep_table *t, size_t c, char L, int ctl)
{
	char head[64], key[64], l = (char)(L - 'A' + 'a');
	int later = L != 'A';

	for (size_t i = 0; i < NSIDE_COL; i++) {
		const struct side_col *x = &side_col[i];
		if (!(x->which == COL_ALL || (later && (x->which == COL_LATER ||
							 (ctl && x->which == COL_CTL)))))
			continue;
		fill(head, sizeof(head), x->head, L);
		fill(key, sizeof(key), x->key, l);
		/* a column of one view is named by its key there */
		tab_col(t, c, x->right, x->view == REP_VIEW_DATA ? key : head, *key ? key : NULL);
		if (x->view)
			tab_col_only(t, c, x->view);
		c++;
	}
}

/* A test's ratio, interval (read: "0.91-1.12"; data: two numbers), p;
 * with j, the test the row is judged on (x itself, or the same relative
 * to the control), j's p (BH), MDC (read: "12.0%", data: the percent) and
 * the runs that would decide it. The number of columns written. */
static size_t put_test(struct rep_table *t, size_t row, size_t c, const struct rep_cmp_test *x,
		       const struct rep_cmp_test *j)
{
	size_t c0 = c;
	int judged = j != NULL;
	if (x->flag == CMP_NONE || (j && j->flag == CMP_NONE)) {
		size_t k = judged ? 9 : 4;	/* the columns written below */
		for (size_t j = 0; j < k; j++)
			tab_missing(t, row, c + j);
		return k;
	}
	tab_num(t, row, c++, CELL_RATIO, x->ratio);
	if (judged) {
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
	tab_fixed_if(t, row, c++, !isnan(x->p), x->p, 4);
	if (!judged)
		return c - c0;
	tab_fixed_if(t, row, c++, !isnan(j->q), j->q, 4);
	if (isfinite(j->mdc)) {
		tab_text(t, row, c++, "%.1f%%", j->mdc * 100);
		tab_fixed(t, row, c++, j->mdc * 100, 1);
	} else {
		tab_missing(t, row, c++);
		tab_missing(t, row, c++);
	}
	if (j->flag == CMP_UNDECIDED)
		tab_count(t, row, c++, j->need);
	else
		tab_missing(t, row, c++);
	return c - c0;
}

/* Against published figures (no samples): the tolerance alone decides. */
static void fixed_flag(struct rep_cmp_test *x)
{
	x->have_ci = 0;	/* no samples: no interval, no p */
	x->p = x->q = NAN;
	x->mdc = INFINITY;
	if (x->flag != CMP_NONE && x->flag != CMP_SAME)
		x->flag = x->ratio > 1 ? CMP_SLOWER : CMP_FASTER;
}

/* A judged row as a reader reads it. */
static void flag_text(char *buf, size_t len, const struct rep_cmp_test *x, enum rep_cmp_flag fl)
{
	const char *rd = rep_cmp_flag_name(fl, REP_VIEW_READ);
	if (fl == CMP_UNDECIDED && x->need > REP_CMP_NEED_MAX)
		snprintf(buf, len, "%s: more than %d runs a side", rd, REP_CMP_NEED_MAX);
	else if (fl == CMP_UNDECIDED)
		snprintf(buf, len, "%s: %s%u runs a side", rd, x->need_atleast ? "at least " : "",
			 x->need);
	else if ((fl == CMP_SAME || fl == CMP_NOISE) && isfinite(x->mdc))
		snprintf(buf, len, "%s%sno change beyond %.1f%%", rd, *rd ? "; " : "",
			 x->mdc * 100);
	else
		snprintf(buf, len, "%s", rd);
}

/* Append "ext4 stat (9)" to a row list, cut at a whole row. */
static void list_row(char *buf, size_t len, size_t *more, const char *item)
{
	size_t o = strlen(buf), k = strlen(item);
	if (*more || o + k + 2 + 24 >= len) {	/* room kept for "and N more" */
		++*more;
		return;
	}
	snprintf(buf + o, len - o, "%s%s", o ? ", " : "", item);
}

static void list_end(char *buf, size_t len, size_t more)
{
	size_t o = strlen(buf);
	if (more)
		snprintf(buf + o, len - o, " and %zu more", more);
}

/* One row of the comparison: its samples and tests on every side. */
struct cmp_row {
	const char *fs;
	int ri;
	long nv[REP_CMP_MAX];
	double med[REP_CMP_MAX];
	struct rep_cmp_test raw[REP_CMP_MAX], rel[REP_CMP_MAX];
};

/* The rows (those A and a later side have), each side's tests. */
static int cmp_rows(const struct rep_cmp_run *runs, size_t n, const char **fs, size_t nfs,
		    unsigned items, double tolerance, struct cmp_row **out, size_t *nout)
{
	struct cmp_row *rows = calloc(nfs * ROW_N + 1, sizeof(*rows));
	size_t nr = 0;
	int ctl = items != 0, rc = 0;

	if (!rows)
		return -ENOMEM;
	for (size_t f = 0; f < nfs && !rc; f++)
		for (int ri = 0; ri < ROW_N && !rc; ri++) {
			double *v[REP_CMP_MAX] = { NULL }, *w[REP_CMP_MAX] = { NULL };
			struct cmp_row *x = &rows[nr];
			unsigned long have = 0;
			for (size_t i = 0; i < n; i++) {
				size_t nm;
				const struct rep_run *const *m = rep_cmp_members(&runs[i], &nm);
				x->nv[i] = rep_cmp_samples(m, nm, fs[f], (enum rep_row)ri, items, &v[i],
							   ctl ? &w[i] : NULL);
				if (x->nv[i] < 0)
					rc = -ENOMEM;
				if (x->nv[i] > 0) {
					have |= 1ul << i;
					x->med[i] = stats_median(v[i], (size_t)x->nv[i]);
				}
			}
			if (!rc && (have & 1) && (have & ~1ul)) {
				uint64_t seed = rep_cmp_seed(fs[f], (unsigned)ri);
				x->fs = fs[f];
				x->ri = ri;
				for (size_t i = 1; i < n && !rc; i++) {
					size_t nb = x->nv[i] > 0 ? (size_t)x->nv[i] : 0;
					rc = rep_cmp_test(v[0], (size_t)x->nv[0], v[i], nb, tolerance, seed,
							  &x->raw[i]);
					if (!rc && w[0] && w[i])
						rc = rep_cmp_test(w[0], (size_t)x->nv[0], w[i], nb, tolerance,
								  seed, &x->rel[i]);
				}
				nr++;
			}
			for (size_t i = 0; i < n; i++) {
				free(v[i]);
				free(w[i]);
			}
		}
	if (rc) {
		free(rows);
		return rc;
	}
	*out = rows;
	*nout = nr;
	return 0;
}

/* Each later side's rows judged together, raw and relative to the
 * control (two families), or by the tolerance alone against published
 * figures. */
static int judge_rows(struct cmp_row *rows, size_t nr, size_t n, int fixed, double tolerance)
{
	struct rep_cmp_test **fam = malloc((nr ? nr : 1) * sizeof(*fam));
	int rc = 0;
	if (!fam)
		return -ENOMEM;
	for (size_t i = 1; i < n && !rc; i++)
		for (int rel = 0; rel < 2 && !rc; rel++) {
			for (size_t r = 0; r < nr; r++)
				fam[r] = rel ? &rows[r].rel[i] : &rows[r].raw[i];
			if (fixed)
				for (size_t r = 0; r < nr; r++)
					fixed_flag(fam[r]);
			else
				rc = rep_cmp_judge(fam, nr, tolerance);
		}
	free(fam);
	return rc;
}

int rep_table_cmp(const struct rep_cmp_run *runs, size_t n, double tolerance,
		  struct rep_table *t, struct rep_cmp_count *count)
{
	struct rep_cmp_cond cond[REP_CMP_MAX];
	struct cmp_row *rows = NULL;
	size_t more[REP_CMP_MAX] = { 0 }, smore[REP_CMP_MAX] = { 0 };
	const char **fs;
	size_t nfs, nr = 0;
	int rc;

	if (n < 2 || n > REP_CMP_MAX)
		return -EINVAL;
	memset(count, 0, n * sizeof(*count));
	unsigned items = common_items(runs, n);
	int ctl = items != 0;
	for (size_t i = 1; i < n; i++) {
		if ((rc = side_conditions(runs, i, tolerance, &cond[i])))
			return rc;
		count[i].conditions = cond[i].have ? cond[i].differ : -1;
		count[i].raw = runs[i].raw;
	}
	if (rep_cmp_fs_union(runs, n, &fs, &nfs))
		return -ENOMEM;
	rc = cmp_rows(runs, n, fs, nfs, items, tolerance, &rows, &nr);
	if (!rc)
		rc = judge_rows(rows, nr, n, runs[0].fixed, tolerance);
	free(fs);
	if (rc) {
		free(rows);
		return rc;
	}
	size_t per = side_ncols(1, ctl), pa = side_ncols(0, ctl);
	size_t ncols = 2 + pa + per * (n - 1);
	tab_init(t, "compare", "Comparison (seconds, median of the samples: a sample is a run, the"
		 " median of its rounds; B/A < 1: B is faster)", SHAPE_GRID, ncols);
	t->note = runs[0].fixed ? "A is published figures, not samples: a row is flagged"
		  " slower or faster when the ratio of the medians is beyond the tolerance." :
		  ctl ? NOTE NOTE_CTL : NOTE;
	tab_col(t, 0, 0, "fs", NULL);
	tab_col(t, 1, 0, "phase", NULL);
	side_cols(t, 2, 'A', ctl);
	for (size_t i = 1; i < n; i++)
		side_cols(t, 2 + pa + per * (i - 1), letter(i), ctl);

	for (size_t r = 0; r < nr && !t->oom; r++) {
		const struct cmp_row *x = &rows[r];
		size_t row = tab_row(t);
		char item[128], txt[128];
		tab_text(t, row, 0, "%s", x->fs);
		tab_text(t, row, 1, "%s", rep_row_name((enum rep_row)x->ri));
		for (size_t i = 0; i < n; i++) {
			size_t c = i ? 2 + pa + per * (i - 1) : 2, nm;
			rep_cmp_members(&runs[i], &nm);
			if (x->nv[i] > 0) {
				tab_num(t, row, c, CELL_SECONDS, x->med[i]);
				tab_count(t, row, c + 1, (uint64_t)x->nv[i]);
			} else {
				tab_missing(t, row, c);
				tab_missing(t, row, c + 1);
			}
			tab_count(t, row, c + 2, nm);
			if (!i)
				continue;
			c += 3;
			const struct rep_cmp_test *raw = &x->raw[i], *rel = &x->rel[i];
			int on_ctl = ctl && cond[i].have && cond[i].differ && !runs[i].raw;
			const struct rep_cmp_test *j = on_ctl ? rel : raw;
			c += put_test(t, row, c, raw, j);
			if (ctl) {
				c += put_test(t, row, c, rel, NULL);
				tab_text(t, row, c++, "%s", rep_cmp_flag_name(rel->flag, REP_VIEW_DATA));
			}
			enum rep_cmp_flag fl = j->flag;
			flag_text(txt, sizeof(txt), j, fl);
			if (on_ctl && fl != CMP_NONE)
				tab_text(t, row, c, "%s%s(ctl)", txt, *txt ? " " : "");
			else
				tab_text(t, row, c, "%s", txt);
			tab_text(t, row, c + 1, "%s", rep_cmp_flag_name(fl, REP_VIEW_DATA));
			tab_text(t, row, c + 2, "%s", rep_cmp_flag_name(raw->flag, REP_VIEW_DATA));
			tab_text(t, row, c + 3, "%s", on_ctl ? "control" : "raw");
			if (fl == CMP_NONE)
				continue;
			struct rep_cmp_count *k = &count[i];
			k->compared++;
			k->slower += fl == CMP_SLOWER;
			k->faster += fl == CMP_FASTER;
			k->noise += fl == CMP_NOISE;
			if (fl == CMP_SLOWER) {
				snprintf(item, sizeof(item), "%s %s (%.2f)", x->fs,
					 rep_row_name((enum rep_row)x->ri), j->ratio);
				list_row(k->slow_rows, sizeof(k->slow_rows), &smore[i], item);
			}
			if (fl != CMP_UNDECIDED)
				continue;
			k->undecided++;
			if (j->need > k->need)
				k->need = j->need;
			k->need_atleast |= j->need_atleast;
			if (j->need > REP_CMP_NEED_MAX)
				snprintf(item, sizeof(item), "%s %s (more than %d)", x->fs,
					 rep_row_name((enum rep_row)x->ri), REP_CMP_NEED_MAX);
			else
				snprintf(item, sizeof(item), "%s %s (%s%u)", x->fs,
					 rep_row_name((enum rep_row)x->ri), j->need_atleast ? "at least " : "",
					 j->need);
			list_row(k->rows, sizeof(k->rows), &more[i], item);
		}
	}
	for (size_t i = 1; i < n; i++) {
		list_end(count[i].rows, sizeof(count[i].rows), more[i]);
		list_end(count[i].slow_rows, sizeof(count[i].slow_rows), smore[i]);
	}
	free(rows);
	return tab_done(t);
}

int rep_cmp_ratios(const struct rep_cmp_run *runs, size_t n, double tolerance,
		   struct rep_cmp_ratio **out, size_t *nout)
{
	struct rep_cmp_cond cond[REP_CMP_MAX];
	struct cmp_row *rows = NULL;
	const char **fs;
	size_t nfs, nr = 0, k = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	if (n < 2 || n > REP_CMP_MAX)
		return -EINVAL;
	unsigned items = common_items(runs, n);
	for (size_t i = 1; i < n; i++)
		if ((rc = side_conditions(runs, i, tolerance, &cond[i])))
			return rc;
	if (rep_cmp_fs_union(runs, n, &fs, &nfs))
		return -ENOMEM;
	rc = cmp_rows(runs, n, fs, nfs, items, tolerance, &rows, &nr);
	if (!rc)
		rc = judge_rows(rows, nr, n, runs[0].fixed, tolerance);
	free(fs);
	struct rep_cmp_ratio *r = rc ? NULL : calloc(nr * (n - 1) + 1, sizeof(*r));
	if (!r) {
		free(rows);
		return rc ? rc : -ENOMEM;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = 0; j < nr; j++) {
			int on_ctl = items && cond[i].have && cond[i].differ && !runs[i].raw;
			const struct rep_cmp_test *x = on_ctl ? &rows[j].rel[i] : &rows[j].raw[i];
			if (x->flag == CMP_NONE)
				continue;
			r[k++] = (struct rep_cmp_ratio){ .side = letter(i), .fs = rows[j].fs,
				.row = (enum rep_row)rows[j].ri, .ratio = x->ratio,
				.lo = x->have_ci ? x->lo : NAN, .hi = x->have_ci ? x->hi : NAN,
				.flag = x->flag, .on_ctl = on_ctl };
		}
	free(rows);
	*out = r;
	*nout = k;
	return 0;
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
	static const struct { const char *key; int right; } col[] = {
		{ "side", 0 }, { "against", 0 }, { "flags", 0 }, { "compared", 1 }, { "slower", 1 },
		{ "faster", 1 }, { "not_significant", 1 }, { "undecided", 1 }, { "runs_needed", 1 },
		{ "tolerance_pct", 1 }, { "conditions", 0 }, { "undecided_rows", 0 },
	};
	enum { NC = sizeof(col) / sizeof(col[0]) };
	tab_init(t, "flags", NULL, SHAPE_KV, NC);
	for (size_t c = 0; c < NC; c++) {
		tab_col(t, c, col[c].right, col[c].key, NULL);
		tab_col_only(t, c, c == 1 || c == 2 ? REP_VIEW_READ : REP_VIEW_DATA);
	}
	for (size_t i = 1; i < n; i++) {
		const struct rep_cmp_count *k = &count[i];
		size_t row = tab_row(t);
		char und[600] = "";
		const char *cond = k->conditions < 0 ? "not_measured" :
				   k->conditions ? "differ" : "same";
		if (k->undecided)
			snprintf(und, sizeof(und), " (%s)", k->rows);
		tab_text(t, row, 0, "%c", letter(i));
		tab_text(t, row, 1, "%c against A", letter(i));
		tab_text(t, row, 2, "%zu slower, %zu faster, %zu beyond the tolerance but not"
			 " significant, %zu that cannot be decided%s, of %zu row%s judged (tolerance"
			 " %g%%, p (BH) < 0.05); conditions %s", k->slower, k->faster, k->noise,
			 k->undecided, und, k->compared, k->compared == 1 ? "" : "s", tolerance * 100,
			 k->conditions < 0 ? "not measured (a run without a control record, or of other work)" :
			 k->conditions && k->raw ? "differ, the rows judged on their own seconds (--control report)" :
			 k->conditions ? "differ: the rows are judged relative to the control" :
			 "the same");
		tab_count(t, row, 3, k->compared);
		tab_count(t, row, 4, k->slower);
		tab_count(t, row, 5, k->faster);
		tab_count(t, row, 6, k->noise);
		tab_count(t, row, 7, k->undecided);
		if (k->undecided)
			tab_count(t, row, 8, k->need);
		else
			tab_missing(t, row, 8);
		tab_fixed(t, row, 9, tolerance * 100, 1);
		tab_text(t, row, 10, "%s", cond);
		tab_text(t, row, 11, "%s", k->rows);
	}
	return tab_done(t);
}

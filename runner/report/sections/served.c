/* served.c: the file-server workload's tables (served.h) of the
 * `fileserver` records. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/sections/served.h"

const char *const rep_fsv_state[2] = { "fresh", "aged" };

const struct rep_fileserver *rep_fsv_find(const struct rep_run *r, const char *fs, const char *state)
{
	for (size_t i = r->nfsv; i-- > 0;)	/* the later record wins */
		if (!strcmp(r->fsv[i].fs, fs) && !strcmp(r->fsv[i].state, state))
			return &r->fsv[i];
	return NULL;
}

double rep_fsv_measure(const struct rep_fileserver *v, int by)
{
	if (strcmp(v->status, "ok"))
		return NAN;
	return by == REP_FSV_BY_OPS ? v->ops_per_s : v->op[REP_FSV_APPEND].p99;
}

/* The filesystems of the run's ok records of a state, best first. */
static size_t ranked(const struct rep_run *r, const char *state, int by, const char **fs, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nfsv && n < max; i++) {
		const struct rep_fileserver *v = rep_fsv_find(r, r->fsv[i].fs, state);
		if (v != &r->fsv[i] || !isfinite(rep_fsv_measure(v, by)))
			continue;
		fs[n++] = v->fs;
	}
	/* insertion sort: few filesystems; ties keep the run's order */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			double a = rep_fsv_measure(rep_fsv_find(r, fs[j - 1], state), by);
			double b = rep_fsv_measure(rep_fsv_find(r, fs[j], state), by);
			if (by == REP_FSV_BY_OPS ? b > a : b < a) {
				const char *t = fs[j];
				fs[j] = fs[j - 1];
				fs[j - 1] = t;
			}
		}
	return n;
}

static int in_list(const char *const *fs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fs[i], name))
			return 1;
	return 0;
}

/* OUT (LEN bytes): the names of L, fastest first, joined by " > ". */
static void join_ranking(char *out, size_t len, const char *const *l, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	for (size_t i = 0; i < n && o < len; i++) {
		int k = snprintf(out + o, len - o, "%s%s", i ? " > " : "", l[i]);
		o = k < 0 ? len : o + (size_t)k;
	}
}

/* Whether rankings A and B order the filesystems both hold alike:
 * REP_FSV_RANK_NONE under two in common, else SAME or CHANGED. */
static int ranking_change(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	const char *ca[REP_FSV_MAX_FS], *cb[REP_FSV_MAX_FS];
	size_t nca = 0, ncb = 0;

	for (size_t i = 0; i < na; i++)
		if (in_list(b, nb, a[i]))
			ca[nca++] = a[i];
	for (size_t i = 0; i < nb; i++)
		if (in_list(a, na, b[i]))
			cb[ncb++] = b[i];
	if (nca < 2)
		return REP_FSV_RANK_NONE;
	for (size_t i = 0; i < nca; i++)
		if (strcmp(ca[i], cb[i]))
			return REP_FSV_RANK_CHANGED;
	return REP_FSV_RANK_SAME;
}

int rep_fsv_ranking(const struct rep_run *r, int by, char *fresh, char *aged, size_t len)
{
	const char *f[REP_FSV_MAX_FS], *a[REP_FSV_MAX_FS];
	size_t nf = ranked(r, "fresh", by, f, REP_FSV_MAX_FS), na = ranked(r, "aged", by, a, REP_FSV_MAX_FS);

	join_ranking(fresh, len, f, nf);
	join_ranking(aged, len, a, na);
	return ranking_change(f, nf, a, na);
}

/* v's figure over ext4's of the same state in the run; NaN without one. */
static double vs_ext4(const struct rep_run *r, const struct rep_fileserver *v, int by)
{
	const struct rep_fileserver *e = rep_fsv_find(r, "ext4", v->state);
	double a = rep_fsv_measure(v, by), b = e ? rep_fsv_measure(e, by) : NAN;

	return isfinite(a) && isfinite(b) && b > 0 ? a / b : NAN;
}

static void ms(struct rep_table *t, size_t row, size_t col, double ns)
{
	tab_fixed_if(t, row, col, isfinite(ns), ns / 1e6, ns < 1e7 ? 3 : 1);
}

static void num(struct rep_table *t, size_t row, size_t col, enum rep_kind kind, double v)
{
	tab_num_if(t, row, col, isfinite(v), kind, v);
}

int rep_table_fileserver(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "state", NULL }, { "ops/s", "ops_per_s" },
		{ "ops/s vs ext4", "ops_vs_ext4" }, { "append p50 ms", "append_p50_ms" },
		{ "append p99 ms", "append_p99_ms" }, { "append p99 vs ext4", "append_p99_vs_ext4" },
		{ "read p99 ms", "read_p99_ms" }, { "MiB/s", "mib_per_s" }, { "ops", NULL },
		{ "status", NULL },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };

	tab_init(t, "fileserver", "File server: operations per second and the random append's latency",
		 SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= 2 && c != NH - 1, h[c].head, h[c].key);
	t->note = "filebench's fileserver personality, run by the runner: each worker loops create "
		  "and write a whole file, open and append a random amount, open and read a whole "
		  "file (every byte checked), delete, stat, for `fileserver_seconds`. `aged` is the "
		  "same filesystem after the fill's aging (`fileserver_aged`). `vs ext4`: the figure "
		  "over ext4's in the same state (ops/s: higher is better; append p99: lower is "
		  "better). runner/FILESERVER.md.";
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < r->nfsv; i++) {
			const struct rep_fileserver *v = &r->fsv[i];
			if (strcmp(v->state, rep_fsv_state[s]) || rep_fsv_find(r, v->fs, v->state) != v)
				continue;
			size_t row = tab_row(t);
			int ok = !strcmp(v->status, "ok");
			tab_text(t, row, 0, "%s", v->fs);
			tab_text(t, row, 1, "%s", v->state);
			num(t, row, 2, CELL_RATE, ok ? v->ops_per_s : NAN);
			num(t, row, 3, CELL_RATIO, vs_ext4(r, v, REP_FSV_BY_OPS));
			ms(t, row, 4, ok ? v->op[REP_FSV_APPEND].p50 : NAN);
			ms(t, row, 5, ok ? v->op[REP_FSV_APPEND].p99 : NAN);
			num(t, row, 6, CELL_RATIO, vs_ext4(r, v, REP_FSV_BY_APPEND));
			ms(t, row, 7, ok ? v->op[REP_FSV_READ].p99 : NAN);
			tab_fixed_if(t, row, 8, ok && isfinite(v->mib_per_s), v->mib_per_s, 1);
			tab_count(t, row, 9, v->ops);
			if (ok)
				tab_text(t, row, 10, "ok, every byte checked");
			else
				tab_text(t, row, 10, "%s: %s", v->status, v->msg ? v->msg : "no reason given");
		}
	return tab_done(t);
}

/* A small-file phase's seconds of fs: fresh (round 1) or the first round
 * after the aging; NaN without one. *round gets its round. */
static double phase_secs(const struct rep_run *r, const char *fs, const char *phase, int aged,
			 unsigned *round)
{
	const struct rep_phase *best = NULL;

	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase) || p->after_aging != aged)
			continue;
		if (aged ? !best || p->round <= best->round : p->round == 1)
			best = p;
	}
	if (best)
		*round = best->round;
	return best && best->errors == 0 && best->verify_errors == 0 ? best->seconds : NAN;
}

int rep_phase_ranking(const struct rep_run *r, const char *phase, char *fresh, char *aged, size_t len,
		      unsigned *aged_round)
{
	const char *l[2][REP_FSV_MAX_FS];
	double v[2][REP_FSV_MAX_FS];
	size_t n[2] = { 0, 0 };
	char *out[2] = { fresh, aged };

	*aged_round = 0;
	for (int s = 0; s < 2; s++) {
		for (size_t f = 0; f < r->nfs && n[s] < REP_FSV_MAX_FS; f++) {
			unsigned rd = 0;
			double x = phase_secs(r, r->fs[f].name, phase, s, &rd);
			if (!isfinite(x))
				continue;
			if (s && (!*aged_round || rd < *aged_round))
				*aged_round = rd;
			size_t j = n[s]++;	/* insertion, fastest first */
			for (; j > 0 && v[s][j - 1] > x; j--) {
				v[s][j] = v[s][j - 1];
				l[s][j] = l[s][j - 1];
			}
			v[s][j] = x;
			l[s][j] = r->fs[f].name;
		}
		join_ranking(out[s], len, l[s], n[s]);
	}
	return ranking_change(l[0], n[0], l[1], n[1]);
}

int rep_table_fileserver_ranking(const struct rep_run *r, struct rep_table *t)
{
	static const char *const by_text[2] = { "operations per second", "the random append's p99 latency" };
	char fresh[256], aged[256];

	tab_init(t, "fileserver_ranking", NULL, SHAPE_TEXT, 4);
	tab_col(t, 0, 0, "ranking", "by");
	tab_col(t, 1, 0, "fresh", NULL);
	tab_col(t, 2, 0, "aged", NULL);
	tab_col(t, 3, 0, "changed", NULL);
	tab_col_only(t, 1, REP_VIEW_DATA);
	tab_col_only(t, 2, REP_VIEW_DATA);
	tab_col_only(t, 3, REP_VIEW_DATA);
	for (int by = 0; by < 2 && r->nfsv; by++) {
		int rk = rep_fsv_ranking(r, by, fresh, aged, sizeof(fresh));
		if (!fresh[0] && !aged[0])
			continue;
		size_t row = tab_row_only(t, REP_VIEW_READ);
		if (rk == REP_FSV_RANK_NONE)
			tab_text(t, row, 0, "Ranking by %s: %s%s%s%s (fewer than two filesystems in both "
				 "states: no comparison of fresh and aged).", by_text[by],
				 fresh[0] ? "fresh " : "", fresh, fresh[0] && aged[0] ? "; " : "",
				 aged[0] ? aged : "");
		else
			tab_text(t, row, 0, "Ranking by %s: fresh %s; aged %s: %s.", by_text[by], fresh, aged,
				 rk == REP_FSV_RANK_SAME ? "the same order, fragmentation did not change the "
				 "choice" : "the order changed between fresh and fragmented");
		row = tab_row_only(t, REP_VIEW_DATA);
		tab_text(t, row, 0, "%s", by == REP_FSV_BY_OPS ? "ops_per_s" : "append_p99");
		tab_text(t, row, 1, "%s", fresh);
		tab_text(t, row, 2, "%s", aged);
		tab_text(t, row, 3, "%s", rk == REP_FSV_RANK_NONE ? "" : rk == REP_FSV_RANK_SAME ? "no" : "yes");
	}
	static const char *const phases[] = { "create", "read", "delete" };
	int any_aged = 0;
	for (size_t i = 0; i < r->nph && !any_aged; i++)
		any_aged = r->ph[i].after_aging;
	for (size_t k = 0; k < sizeof(phases) / sizeof(phases[0]) && any_aged; k++) {
		unsigned ar;
		int rk = rep_phase_ranking(r, phases[k], fresh, aged, sizeof(fresh), &ar);
		if (rk == REP_FSV_RANK_NONE)
			continue;
		size_t row = tab_row_only(t, REP_VIEW_READ);
		tab_text(t, row, 0, "Small files, ranking by %s seconds: fresh (round 1) %s; after the aging "
			 "(round %u) %s: %s.", phases[k], fresh, ar, aged,
			 rk == REP_FSV_RANK_SAME ? "the same order" : "the order changed");
		row = tab_row_only(t, REP_VIEW_DATA);
		tab_text(t, row, 0, "%s_seconds", phases[k]);
		tab_text(t, row, 1, "%s", fresh);
		tab_text(t, row, 2, "%s", aged);
		tab_text(t, row, 3, "%s", rk == REP_FSV_RANK_SAME ? "no" : "yes");
	}
	return tab_done(t);
}

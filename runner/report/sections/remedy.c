/* remedy.c: runner/SUITE.md's table of the remedies on the aged
 * filesystem, from the run's own phase records: the baseline (read by
 * name), reading in inode order (read_inode) and rewriting the tree
 * (rewrite, then read_after_rewrite). */
#include <string.h>

#include "report/sections/fragmentation.h"

/* Seconds of a phase of one round (the later record, if there are two). */
static int seconds_of(const struct rep_run *r, const char *fs, unsigned round,
		      const char *phase, double *out)
{
	int found = 0;

	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->round == round && !strcmp(p->fs, fs) && !strcmp(p->phase, phase)) {
			*out = p->seconds;
			found = 1;
		}
	}
	return found;
}

int rep_table_remedy(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "remedy", NULL }, { "cost s", "cost_seconds" },
		{ "cold read by name s", "read_seconds" },
		{ "speedup", "speedup" }, { "note", NULL },
	};
	enum { FS, ROUND, REMEDY, COST, READ, SPEEDUP, NOTE, NH };

	tab_init(t, "remedy", "Remedies on the aged filesystem (runner/SUITE.md)", SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c == ROUND || c == COST || c == READ || c == SPEEDUP, h[c].head, h[c].key);
	t->note = "speedup: the baseline's cold read by name over the remedy's; the cost of "
		  "the rewrite includes its syncfs.";
	for (size_t i = 0; i < r->nfs; i++) {
		const char *fs = r->fs[i].name;
		unsigned round = 0;
		double base, fresh, inode, cost, after;

		/* the last round with a rewrite: the most aged */
		for (size_t j = 0; j < r->nph; j++)
			if (!strcmp(r->ph[j].fs, fs) && !strcmp(r->ph[j].phase, "rewrite") &&
			    r->ph[j].round > round)
				round = r->ph[j].round;
		if (!round || !seconds_of(r, fs, round, "read", &base))
			continue;
		int have_fresh = seconds_of(r, fs, 1, "read", &fresh);
		size_t row = tab_row(t);
		tab_text(t, row, FS, "%s", fs);
		tab_count(t, row, ROUND, round);
		tab_text(t, row, REMEDY, "none (baseline)");
		tab_missing(t, row, COST);
		tab_num(t, row, READ, CELL_SECONDS, base);
		tab_missing(t, row, SPEEDUP);
		if (have_fresh)
			tab_text(t, row, NOTE, "fresh filesystem (round 1): %.3g s", fresh);
		if (seconds_of(r, fs, round, "read_inode", &inode)) {
			row = tab_row(t);
			tab_text(t, row, FS, "%s", fs);
			tab_count(t, row, ROUND, round);
			tab_text(t, row, REMEDY, "read in inode order (read_inode)");
			tab_missing(t, row, COST);
			tab_num(t, row, READ, CELL_SECONDS, inode);
			tab_num_if(t, row, SPEEDUP, inode > 0, CELL_RATIO, base / inode);
			tab_text(t, row, NOTE, "nothing on disk changes");
		}
		row = tab_row(t);
		tab_text(t, row, FS, "%s", fs);
		tab_count(t, row, ROUND, round);
		tab_text(t, row, REMEDY, "rewrite the tree (rewrite)");
		if (seconds_of(r, fs, round, "rewrite", &cost))
			tab_num(t, row, COST, CELL_SECONDS, cost);
		else
			tab_missing(t, row, COST);
		if (seconds_of(r, fs, round, "read_after_rewrite", &after)) {
			tab_num(t, row, READ, CELL_SECONDS, after);
			tab_num_if(t, row, SPEEDUP, after > 0, CELL_RATIO, base / after);
			if (have_fresh && fresh > 0)
				tab_text(t, row, NOTE, "once; the read after it is %.2fx the fresh read",
					 after / fresh);
			else
				tab_text(t, row, NOTE, "once");
		} else {
			tab_missing(t, row, READ);
			tab_missing(t, row, SPEEDUP);
			tab_text(t, row, NOTE, "no read_after_rewrite record");
		}
	}
	return tab_done(t);
}

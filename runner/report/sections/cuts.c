/* cuts.c: the power-cut table (cuts.h) of the `powercut` records. */
#include <string.h>

#include "report/sections/cuts.h"

int rep_table_powercut(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "cycle", NULL }, { "cut at s", "cut_s" },
		{ "acknowledged", "acknowledged" }, { "ops/s", "ops_per_s" },
		{ "files", "files" }, { "verified", "verified" }, { "in flight", "in_flight" },
		{ "lost", "lost" }, { "torn", "torn" }, { "checker", "fsck" },
		{ "check s", "seconds" }, { "lost and torn files", "bad" },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };

	tab_init(t, "powercut", "Power cuts: what the disk acknowledged, after the power came back",
		 SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= 1 && c != 10 && c != 12, h[c].head, h[c].key);
	t->note = "One row per cycle: a fresh mkfs, the durability workload until the cut, then on "
		  "the next boot the filesystem's checker (read-only, before the mount), the mount and "
		  "every file slot against the acknowledgements in the log. Cut at: the last batch of "
		  "acknowledgements before the cut, seconds into the workload. Verified: exactly what "
		  "was acknowledged; in flight: what an operation after the last batch may leave; "
		  "lost: an acknowledged file missing or shorter; torn: neither (a mix, garbage). "
		  "A process kill keeps the page cache, a QEMU kill loses the guest's, and only a real "
		  "cut tests the disk's own cache (runner/POWERCUTS.md).";
	for (size_t i = 0; i < r->npc; i++) {
		const struct rep_powercut *p = &r->pc[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", p->fs);
		tab_text(t, row, 1, "%u/%u", p->cycle, p->cycles);
		tab_num_if(t, row, 2, p->cut_s >= 0, CELL_SECONDS, p->cut_s);
		tab_count(t, row, 3, p->acked);
		tab_num_if(t, row, 4, p->ops_per_s >= 0, CELL_RATE, p->ops_per_s);
		tab_count(t, row, 5, p->files);
		tab_count(t, row, 6, p->verified);
		tab_count(t, row, 7, p->in_flight);
		tab_count(t, row, 8, p->lost);
		tab_count(t, row, 9, p->torn);
		if (strcmp(p->mount, "ok"))
			tab_text(t, row, 10, "%s; %s", p->fsck, p->mount);
		else
			tab_text(t, row, 10, "%s", p->fsck);
		tab_num_if(t, row, 11, p->seconds >= 0, CELL_SECONDS, p->seconds);
		tab_text(t, row, 12, "%s", p->bad ? p->bad : "");
	}
	return tab_done(t);
}

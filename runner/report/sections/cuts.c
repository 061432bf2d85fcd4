/* cuts.c: the power-cut table (cuts.h) and the loading of `powercut`
 * records (loader.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"
#include "report/sections/cuts.h"

/* "w01/s017 lost, w02/s003 torn" from the record's bad array. */
static char *bad_text(const struct jsonr *bad)
{
	char buf[1024] = "";
	size_t o = 0;

	for (const struct jsonr *e = bad ? bad->child : NULL; e && o < sizeof(buf); e = e->next) {
		const char *f = jsonr_str(jsonr_get(e, "file")), *c = jsonr_str(jsonr_get(e, "class"));
		int n = snprintf(buf + o, sizeof(buf) - o, "%s%s %s", o ? ", " : "", f ? f : "?", c ? c : "?");
		o = n < 0 ? sizeof(buf) : o + (size_t)n;
	}
	return buf[0] ? strdup(buf) : NULL;
}

/* The names of the record's bad files of one class, "w01/s017, w02/s003"
 * (every one: a list is cut where it is shown), or NULL. */
static char *names_of(const struct jsonr *bad, const char *cls)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (const struct jsonr *e = bad ? bad->child : NULL; e; e = e->next) {
		const char *n = jsonr_str(jsonr_get(e, "file")), *c = jsonr_str(jsonr_get(e, "class"));
		if (n && c && !strcmp(c, cls))
			fprintf(f, "%s%s", len || ftell(f) ? ", " : "", n);
	}
	if (fclose(f) || !len) {
		free(buf);
		return NULL;
	}
	return buf;
}

int ld_load_powercut(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_powercut p;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	const char *fs = ld_need_str(L, rec, "powercut", "fs", &rc);
	if (rc)
		return rc;
	const char *fsck = ld_need_str(L, rec, "powercut", "fsck", &rc);
	if (rc)
		return rc;
	const char *mount = jsonr_str(jsonr_get(rec, "mount"));
	p.cycle = (unsigned)jsonr_u64(jsonr_get(rec, "cycle"), 0);
	p.cycles = (unsigned)jsonr_u64(jsonr_get(rec, "cycles"), 0);
	p.cut_s = jsonr_num(jsonr_get(rec, "cut_s"), -1);
	p.ops_per_s = jsonr_num(jsonr_get(rec, "ops_per_s"), -1);
	p.seconds = jsonr_num(jsonr_get(rec, "seconds"), -1);
	p.acked = jsonr_u64(jsonr_get(rec, "acknowledged"), 0);
	p.files = jsonr_u64(jsonr_get(rec, "files"), 0);
	p.verified = jsonr_u64(jsonr_get(rec, "verified"), 0);
	p.in_flight = jsonr_u64(jsonr_get(rec, "in_flight"), 0);
	p.lost = jsonr_u64(jsonr_get(rec, "lost"), 0);
	p.torn = jsonr_u64(jsonr_get(rec, "torn"), 0);
	p.line = L->line;
	if (ld_grow((void **)&r->pc, &r->cappc, r->npc, sizeof(*r->pc)))
		return ld_oom(L);
	p.bad = bad_text(jsonr_get(rec, "bad"));
	p.lost_files = names_of(jsonr_get(rec, "bad"), "lost");
	p.torn_files = names_of(jsonr_get(rec, "bad"), "torn");
	if (!(p.fs = strdup(fs)) || !(p.fsck = strdup(fsck)) || !(p.mount = strdup(mount ? mount : "ok"))) {
		free(p.fs);
		free(p.fsck);
		free(p.bad);
		free(p.lost_files);
		free(p.torn_files);
		return ld_oom(L);
	}
	r->pc[r->npc++] = p;
	return 0;
}

void ld_powercut_free(struct rep_run *r)
{
	for (size_t i = 0; i < r->npc; i++) {
		free(r->pc[i].fs);
		free(r->pc[i].fsck);
		free(r->pc[i].mount);
		free(r->pc[i].bad);
		free(r->pc[i].lost_files);
		free(r->pc[i].torn_files);
	}
	free(r->pc);
	r->pc = NULL;
	r->npc = r->cappc = 0;
}

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
		  "cut tests the disk's own cache (runner/README.md, Power cuts).";
	for (size_t i = 0; i < r->npc; i++) {
		const struct rep_powercut *p = &r->pc[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", p->fs);
		tab_text(t, row, 1, "%u/%u", p->cycle, p->cycles);
		if (p->cut_s >= 0)
			tab_num(t, row, 2, CELL_SECONDS, p->cut_s);
		else
			tab_missing(t, row, 2);
		tab_count(t, row, 3, p->acked);
		if (p->ops_per_s >= 0)
			tab_num(t, row, 4, CELL_RATE, p->ops_per_s);
		else
			tab_missing(t, row, 4);
		tab_count(t, row, 5, p->files);
		tab_count(t, row, 6, p->verified);
		tab_count(t, row, 7, p->in_flight);
		tab_count(t, row, 8, p->lost);
		tab_count(t, row, 9, p->torn);
		if (strcmp(p->mount, "ok"))
			tab_text(t, row, 10, "%s; %s", p->fsck, p->mount);
		else
			tab_text(t, row, 10, "%s", p->fsck);
		if (p->seconds >= 0)
			tab_num(t, row, 11, CELL_SECONDS, p->seconds);
		else
			tab_missing(t, row, 11);
		tab_text(t, row, 12, "%s", p->bad ? p->bad : "");
	}
	return tab_done(t);
}

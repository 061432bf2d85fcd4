/* load_powercut.c: the `powercut` records (one a power-cut cycle) into
 * the run model, with the files each found lost or torn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

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

static const size_t owned[] = {
	offsetof(struct rep_powercut, fs), offsetof(struct rep_powercut, fsck),
	offsetof(struct rep_powercut, mount), offsetof(struct rep_powercut, bad),
	offsetof(struct rep_powercut, lost_files), offsetof(struct rep_powercut, torn_files),
};

int ld_load_powercut(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_powercut p;
	const char *fs, *fsck;
	int rc;

	memset(&p, 0, sizeof(p));
	if ((rc = ld_need_strs(L, rec, "powercut", "fs", &fs, "fsck", &fsck, (char *)NULL)))
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
	if (ld_copy_strs(&p, owned, (const char *const[]){ fs, fsck, mount ? mount : "ok" }, 3))
		return ld_oom(L);
	p.bad = bad_text(jsonr_get(rec, "bad"));
	p.lost_files = names_of(jsonr_get(rec, "bad"), "lost");
	p.torn_files = names_of(jsonr_get(rec, "bad"), "torn");
	r->pc[r->npc++] = p;
	return 0;
}

void ld_powercut_free(struct rep_run *r)
{
	ld_free_array(r->pc, r->npc, sizeof(*r->pc), LD_OWNED(owned));
}

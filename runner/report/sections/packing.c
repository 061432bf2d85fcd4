/* packing.c: the packing table (packing.h) of the `space` records. */
#include <string.h>

#include "report/sections/packing.h"

/* The stores and their phases: write, read, delete. */
static const struct {
	const char *store, *ph[3];
} stores[] = {
	{ "files", { "create", "read", "delete" } },
	{ "sqlite", { "sqlite_write", "sqlite_read", "sqlite_delete" } },
	{ "pack", { "pack_write", "pack_read", "pack_delete" } },
};
#define NSTORES (sizeof(stores) / sizeof(stores[0]))

/* The phase of fs and round (the later record, if there are two). */
static const struct rep_phase *find_phase(const struct rep_run *r, const char *fs, unsigned round,
					  const char *name)
{
	const struct rep_phase *p = NULL;

	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].round == round && !strcmp(r->ph[i].fs, fs) && !strcmp(r->ph[i].phase, name))
			p = &r->ph[i];
	return p;
}

static const struct rep_space *find_space(const struct rep_run *r, const char *fs, unsigned round,
					  const char *store)
{
	const struct rep_space *s = NULL;

	for (size_t i = 0; i < r->nsp; i++)
		if (r->sp[i].round == round && !strcmp(r->sp[i].fs, fs) && !strcmp(r->sp[i].store, store))
			s = &r->sp[i];
	return s;
}

int rep_table_packing(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "round", NULL }, { "store", NULL },
		{ "write s", "write_seconds" }, { "read s", "read_seconds" },
		{ "delete s", "delete_seconds" }, { "write files/s", "write_files_per_s" },
		{ "read files/s", "read_files_per_s" }, { "delete files/s", "delete_files_per_s" },
		{ "on disk", "disk_bytes" }, { "of data", "disk_per_data" },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };

	tab_init(t, "packing", "Packing: one file per file, SQLite, one pack file", SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= 1 && c != 2, h[c].head, h[c].key);
	t->note = "files: the create, read (name order) and delete phases; sqlite: one database, "
		  "a transaction per worker's directory; pack: one pack file. Every read is "
		  "verified and runs on a fresh mount (not with --dir). On disk: a store's file blocks; for files, the used space the "
		  "create phase added (statvfs). Of data: on disk / the files' bytes.";
	for (size_t f = 0; f < r->nfs; f++) {
		const char *fs = r->fs[f].name;
		unsigned maxround = 0;
		int packed = 0;
		for (size_t i = 0; i < r->nph; i++)
			if (!strcmp(r->ph[i].fs, fs)) {
				if (r->ph[i].round > maxround)
					maxround = r->ph[i].round;
				if (!strncmp(r->ph[i].phase, "sqlite_", 7) || !strncmp(r->ph[i].phase, "pack_", 5))
					packed = 1;
			}
		if (!packed)
			continue;
		for (unsigned round = 1; round <= maxround; round++) {
			for (size_t s = 0; s < NSTORES; s++) {
				const struct rep_phase *p[3];
				int any = 0;
				for (int k = 0; k < 3; k++)
					any |= (p[k] = find_phase(r, fs, round, stores[s].ph[k])) != NULL;
				if (!any)
					continue;
				size_t row = tab_row(t);
				tab_text(t, row, 0, "%s", fs);
				tab_count(t, row, 1, round);
				tab_text(t, row, 2, "%s", stores[s].store);
				for (int k = 0; k < 3; k++) {
					if (!p[k]) {
						tab_missing(t, row, 3 + k);
						tab_missing(t, row, 6 + k);
						continue;
					}
					tab_num(t, row, 3 + k, CELL_SECONDS, p[k]->seconds);
					tab_num(t, row, 6 + k, CELL_RATE, p[k]->files_per_s);
				}
				const struct rep_space *sp = find_space(r, fs, round, stores[s].store);
				if (sp && sp->have_disk) {
					tab_bytes(t, row, 9, sp->disk_bytes);
					tab_fixed_if(t, row, 10, sp->bytes != 0,
						     (double)sp->disk_bytes / (double)sp->bytes, 2);
				} else {
					tab_missing(t, row, 9);
					tab_missing(t, row, 10);
				}
			}
		}
	}
	return tab_done(t);
}

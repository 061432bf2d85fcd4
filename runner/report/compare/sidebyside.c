/* sidebyside.c: two sides or more side by side (the runs, what some lack),
 * and the published reference as a run (see sidebyside.h). */
#include "report/compare/sidebyside.h"
#include "report/sections/reference.h"
#include "report/sections/summary.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* only_b: just the filesystems B ran (a report next to the reference). */
static int compare_table(const struct rep_run *a, const struct rep_run *b,
			 struct rep_table *t, int only_b)
{
	const struct rep_fs **cols = calloc(a->nfs + b->nfs + 1, sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; !only_b && i < a->nfs; i++)	/* A's with results */
		if (a->fs[i].nphases)
			cols[n++] = &a->fs[i];
	for (size_t i = 0; i < b->nfs; i++) {	/* then those only B has */
		size_t j;
		if (!b->fs[i].nphases)
			continue;
		for (j = 0; j < n && strcmp(cols[j]->name, b->fs[i].name); j++)
			;
		if (j == n)
			cols[n++] = &b->fs[i];
	}
	tab_init(t, "compare", "Comparison (seconds, median of rounds; B/A < 1: B is faster)",
		 SHAPE_GRID, 5);
	tab_col(t, 0, 0, "fs", NULL);
	tab_col(t, 1, 0, "phase", NULL);
	tab_col(t, 2, 1, "A (s)", "a_seconds");
	tab_col(t, 3, 1, "B (s)", "b_seconds");
	tab_col(t, 4, 1, "B/A", "b_over_a");
	for (size_t c = 0; c < n; c++) {
		/* next to the reference, a variant gets its base filesystem's figures */
		const char *aname = only_b && cols[c]->base ? cols[c]->base : cols[c]->name;
		for (int ri = 0; ri < ROW_N; ri++) {
			double va = 0, vb = 0;
			int ha = rep_summary(a, aname, (enum rep_row)ri, 0, &va);
			int hb = rep_summary(b, cols[c]->name, (enum rep_row)ri, 0, &vb);
			if (!ha && !hb)
				continue;
			size_t row = tab_row(t);
			if (strcmp(aname, cols[c]->name))
				tab_text(t, row, 0, "%s (A: %s)", cols[c]->name, aname);
			else
				tab_text(t, row, 0, "%s", cols[c]->name);
			tab_text(t, row, 1, "%s", rep_row_name((enum rep_row)ri));
			tab_num_if(t, row, 2, ha, CELL_SECONDS, va);
			tab_num_if(t, row, 3, hb, CELL_SECONDS, vb);
			tab_num_if(t, row, 4, ha && hb && va > 0, CELL_RATIO, vb / va);
		}
	}
	free(cols);
	return tab_done(t);
}

/* ---- two runs or more ---- */

static char letter(size_t i)
{
	return (char)('A' + i);
}

int rep_table_cmp_runs(const struct rep_cmp_run *runs, size_t n, struct rep_table *t)
{
	tab_init_text(t, "runs", NULL, SHAPE_KV, "side", "run", "run_id", "input", (char *)NULL);
	tab_col_only(t, 1, REP_VIEW_READ);
	tab_col_only(t, 2, REP_VIEW_DATA);
	tab_col_only(t, 3, REP_VIEW_DATA);
	for (size_t i = 0; i < n; i++) {
		size_t nm;
		const struct rep_run *const *m = rep_cmp_members(&runs[i], &nm);
		for (size_t k = 0; k < nm; k++) {
			const struct rep_run *r = m[k];
			const char *in = runs[i].names ? runs[i].names[k] : runs[i].name;
			size_t row = tab_row(t);
			if (nm > 1)	/* a side of several runs: A1, A2, ... */
				tab_text(t, row, 0, "%c%zu", letter(i), k + 1);
			else
				tab_text(t, row, 0, "%c", letter(i));
			tab_text(t, row, 1, "run %s (%s), host %s, kernel %s%s%s%s, %s%sprofile %s",
				 r->run_id, nz(in), r->hostname ? r->hostname : "?",
				 r->kernel ? r->kernel : "?", r->kernel_build ? " (" : "",
				 nz(r->kernel_build), r->kernel_build ? ")" : "",
				 r->cpus ? r->cpus : "", r->cpus ? " CPUs, " : "",
				 r->profile ? r->profile : "?");
			tab_text(t, row, 2, "%s", r->run_id);
			tab_text(t, row, 3, "%s", nz(in));
		}
	}
	return tab_done(t);
}

const struct rep_run *const *rep_cmp_members(const struct rep_cmp_run *side, size_t *n)
{
	if (side->group && side->ngroup) {
		*n = side->ngroup;
		return side->group;
	}
	*n = 1;
	return &side->run;
}

int rep_cmp_fs_union(const struct rep_cmp_run *runs, size_t n, const char ***cols, size_t *ncols)
{
	size_t cap = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		cap += runs[i].run->nfs;
	const char **c = calloc(cap + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t f = 0; f < runs[i].run->nfs; f++) {
			const struct rep_fs *fs = &runs[i].run->fs[f];
			size_t j;
			if (!fs->nphases)
				continue;
			for (j = 0; j < k && strcmp(c[j], fs->name); j++)
				;
			if (j == k)
				c[k++] = fs->name;
		}
	*cols = c;
	*ncols = k;
	return 0;
}

static int has_fs(const struct rep_run *r, const char *fs)
{
	for (size_t i = 0; i < r->nfs; i++)
		if (!strcmp(r->fs[i].name, fs) && r->fs[i].nphases)
			return 1;
	return 0;
}

/* The stats of every run for one fs and row; rc -ENOMEM. *have: a bit per
 * run with a value. */
static int row_stats(const struct rep_cmp_run *runs, size_t n, const char *fs, enum rep_row row,
		     struct rep_stats *st, unsigned long *have)
{
	*have = 0;
	for (size_t i = 0; i < n; i++) {
		int got = rep_summary_stats(runs[i].run, fs, row, 0, &st[i]);
		if (got < 0)
			return -ENOMEM;
		if (got)
			*have |= 1ul << i;
	}
	return 0;
}

/* "A, C" of the runs in mask. */
static void letters(char *buf, size_t len, unsigned long mask, size_t n)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && o + 3 < len; i++)
		if (mask & (1ul << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%c", o ? ", " : "", letter(i));
}

int rep_table_cmp_missing(const struct rep_cmp_run *runs, size_t n, struct rep_table *t)
{
	struct rep_stats st[REP_CMP_MAX];
	const char **fs;
	size_t nfs;
	char in[REP_CMP_MAX * 3 + 1], out[REP_CMP_MAX * 3 + 1];

	if (n < 2 || n > REP_CMP_MAX)
		return -EINVAL;
	if (rep_cmp_fs_union(runs, n, &fs, &nfs))
		return -ENOMEM;
	tab_init_text(t, "missing", NULL, SHAPE_NOTES, "what", "lacks", "fs", "phase", "not_in", "in",
		      (char *)NULL);
	for (size_t c = 0; c < 6; c++)
		tab_col_only(t, c, c < 2 ? REP_VIEW_READ : REP_VIEW_DATA);
	unsigned long all = (n >= sizeof(unsigned long) * 8) ? ~0ul : (1ul << n) - 1;
	for (size_t f = 0; f < nfs; f++) {
		unsigned long fsin = 0;
		for (size_t i = 0; i < n; i++)
			if (has_fs(runs[i].run, fs[f]))
				fsin |= 1ul << i;
		if (fsin != all) {	/* a run without the filesystem: one line */
			size_t row = tab_row(t);
			letters(in, sizeof(in), fsin, n);
			letters(out, sizeof(out), all & ~fsin, n);
			tab_text(t, row, 0, "%s", fs[f]);
			tab_text(t, row, 1, "not in %s (in %s)%s", out, in,
				 fsin & 1 ? "" : "; not compared: A lacks it");
			tab_text(t, row, 2, "%s", fs[f]);
			tab_text(t, row, 4, "%s", out);
			tab_text(t, row, 5, "%s", in);
		}
		for (int ri = 0; ri < ROW_N; ri++) {	/* rows of runs that have the fs */
			unsigned long have;
			if (row_stats(runs, n, fs[f], (enum rep_row)ri, st, &have)) {
				t->oom = 1;
				break;
			}
			unsigned long lack = fsin & ~have;
			if (!have || !lack)
				continue;
			size_t row = tab_row(t);
			letters(in, sizeof(in), have, n);
			letters(out, sizeof(out), lack, n);
			tab_text(t, row, 0, "%s %s", fs[f], rep_row_name((enum rep_row)ri));
			tab_text(t, row, 1, "not in %s (in %s)%s", out, in,
				 have & 1 ? "" : "; not compared: A lacks it");
			tab_text(t, row, 2, "%s", fs[f]);
			tab_text(t, row, 3, "%s", rep_row_name((enum rep_row)ri));
			tab_text(t, row, 4, "%s", out);
			tab_text(t, row, 5, "%s", in);
		}
	}
	free(fs);
	return tab_done(t);
}

/* ---- the reference as a run ---- */

static int put(char **p, size_t *left, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int put(char **p, size_t *left, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(*p, *left, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= *left)
		return -ENOSPC;
	*p += n;
	*left -= (size_t)n;
	return 0;
}

static int ref_phase(char **p, size_t *left, unsigned *seq, const char *fs, unsigned round,
		     const char *ph, const char *order, double secs)
{
	const struct rep_reference *R = &rep_reference;
	return put(p, left, "{\"schema\":1,\"type\":\"phase\",\"run_id\":\"%s\",\"seq\":%u,"
		   "\"fs\":\"%s\",\"round\":%u,\"phase\":\"%s\",\"order\":\"%s\","
		   "\"cold\":true,\"seconds\":%g,\"files\":%u,\"errors\":0,\"verify_errors\":0}\n",
		   R->run_id, (*seq)++, fs, round, ph, order, secs, R->phase_files);
}

int rep_reference_text(char *buf, size_t len)
{
	const struct rep_reference *R = &rep_reference;
	char *p = buf;
	size_t left = len;
	unsigned seq = 0;
	char fsl[128];
	size_t fn = 0;

	fsl[0] = '\0';
	for (size_t i = 0; i < R->nfs && fn < sizeof(fsl); i++)
		fn += (size_t)snprintf(fsl + fn, sizeof(fsl) - fn, "%s%s", i ? "," : "",
				       R->fs[i].fs);
	int rc = put(&p, &left,
		"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"%s\",\"seq\":%u,"
		"\"tool\":\"%s\",\"mode\":\"%s\",\"host\":{\"hostname\":\"%s\",\"kernel\":\"%s\"},"
		"\"target\":{\"path\":\"%s\"},\"config\":{\"profile\":\"%s\",\"fs\":\"%s\","
		"\"dirs\":%u,\"files\":%u,\"file_size\":%u,\"workers\":%u,\"rounds\":%u}}\n",
		R->run_id, seq++, R->tool, R->mode, R->hostname, R->kernel, R->target,
		R->profile, fsl, R->dirs, R->files, R->file_size, R->workers, R->rounds);

	for (size_t i = 0; !rc && i < R->nfs; i++) {
		const struct rep_ref_fs *f = &R->fs[i];
		for (unsigned round = 1; !rc && round <= R->rounds; round++) {
			rc = ref_phase(&p, &left, &seq, f->fs, round, "create", "name", f->create);
			if (!rc)
				rc = ref_phase(&p, &left, &seq, f->fs, round, "stat", "readdir", f->stat);
			if (!rc)
				rc = ref_phase(&p, &left, &seq, f->fs, round, "read", "name",
					       round == 1 ? f->read_fresh : f->read_aged);
			if (!rc && round > 1 && f->read_inode_aged >= 0)
				rc = ref_phase(&p, &left, &seq, f->fs, round, "read_inode", "inode",
					       f->read_inode_aged);
			if (!rc)
				rc = ref_phase(&p, &left, &seq, f->fs, round, "delete", "readdir", f->del);
		}
		if (!rc)
			rc = put(&p, &left, "{\"schema\":1,\"type\":\"fs_end\",\"run_id\":\"%s\","
				 "\"seq\":%u,\"fs\":\"%s\",\"status\":\"ok\"}\n", R->run_id, seq++, f->fs);
	}
	if (!rc)
		rc = put(&p, &left, "{\"schema\":1,\"type\":\"run_end\",\"run_id\":\"%s\","
			 "\"seq\":%u,\"status\":\"ok\",\"exit_code\":0}\n", R->run_id, seq);
	return rc;
}

int rep_load_reference(struct rep_set *set, char *err, size_t errlen)
{
	static char text[16384];
	memset(set, 0, sizeof(*set));
	int rc = rep_reference_text(text, sizeof(text));
	if (rc) {
		snprintf(err, errlen, "reference: %s", strerror(-rc));
		return rc;
	}
	FILE *f = fmemopen(text, strlen(text), "r");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "reference: %s", strerror(errno));
		return rc;
	}
	rc = rep_load_stream(set, f, REP_REFERENCE_NAME, err, errlen);
	fclose(f);
	return rc;
}

static int is_u(const char *text, unsigned v)
{
	char n[16];
	snprintf(n, sizeof(n), "%u", v);
	return text && strcmp(text, n) == 0;
}

int rep_seed_shaped(const struct rep_run *r)
{
	const struct rep_reference *R = &rep_reference;
	return r->profile && strcmp(r->profile, R->profile) == 0 && is_u(r->dirs, R->dirs) &&
	       is_u(r->files, R->files) && is_u(r->file_size, R->file_size) && r->nph;
}

int rep_table_reference(const struct rep_run *r, struct rep_table *t)
{
	struct rep_set ref;
	char err[256];

	int rc = rep_load_reference(&ref, err, sizeof(err));
	if (!rc && ref.nruns == 1)
		rc = compare_table(ref.runs[0], r, t, 1);
	else if (!rc)
		rc = -EINVAL;
	rep_free(&ref);
	if (rc)
		return rc;
	t->title = "Against the SUITE.md reference (A: published, B: this run; seconds,"
		   " median of rounds; B/A < 1: this run is faster)";
	t->note = rep_reference.about;
	for (size_t i = 0; i < r->nfs; i++)
		if (r->fs[i].base && strcmp(r->fs[i].base, r->fs[i].name)) {
			t->note = rep_reference.about_variants;
			break;
		}
	return 0;
}

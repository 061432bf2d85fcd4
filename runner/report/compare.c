/* compare.c: two runs side by side, and the published reference as a run
 * (see compare.h). */
#include "report/compare.h"
#include "report/reference.h"
#include "report/summary.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *nz(const char *s)
{
	return s ? s : "";
}

int rep_table_runs(const struct rep_run *a, const char *aname,
		   const struct rep_run *b, const char *bname, struct rep_table *t)
{
	const struct rep_run *rr[2] = { a, b };
	const char *nn[2] = { aname, bname };

	tab_init(t, "runs", NULL, SHAPE_KV, 4);
	tab_col(t, 0, 0, "side", NULL);
	tab_col(t, 1, 0, "run", NULL);
	tab_col(t, 2, 0, "run_id", NULL);
	tab_col(t, 3, 0, "input", NULL);
	tab_col_only(t, 1, REP_VIEW_READ);
	tab_col_only(t, 2, REP_VIEW_DATA);
	tab_col_only(t, 3, REP_VIEW_DATA);
	for (size_t i = 0; i < 2; i++) {
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", i ? "B" : "A");
		tab_text(t, row, 1, "run %s (%s), host %s, profile %s", rr[i]->run_id,
			 nz(nn[i]), rr[i]->hostname ? rr[i]->hostname : "?",
			 rr[i]->profile ? rr[i]->profile : "?");
		tab_text(t, row, 2, "%s", rr[i]->run_id);
		tab_text(t, row, 3, "%s", nz(nn[i]));
	}
	return tab_done(t);
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
		for (int ri = 0; ri < ROW_N; ri++) {
			double va = 0, vb = 0;
			int ha = rep_summary(a, cols[c]->name, (enum rep_row)ri, 0, &va);
			int hb = rep_summary(b, cols[c]->name, (enum rep_row)ri, 0, &vb);
			if (!ha && !hb)
				continue;
			size_t row = tab_row(t);
			tab_text(t, row, 0, "%s", cols[c]->name);
			tab_text(t, row, 1, "%s", rep_row_name((enum rep_row)ri));
			if (ha)
				tab_num(t, row, 2, CELL_SECONDS, va);
			else
				tab_missing(t, row, 2);
			if (hb)
				tab_num(t, row, 3, CELL_SECONDS, vb);
			else
				tab_missing(t, row, 3);
			if (ha && hb && va > 0)
				tab_num(t, row, 4, CELL_RATIO, vb / va);
			else
				tab_missing(t, row, 4);
		}
	}
	free(cols);
	return tab_done(t);
}

int rep_table_compare(const struct rep_run *a, const struct rep_run *b, struct rep_table *t)
{
	return compare_table(a, b, t, 0);
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
	return 0;
}

/* outcome.c: the verdict's result: its verdict line and title, the checks
 * as a `verdict` record and read back from one, and as a report table. */
#include "report/verdict/rules.h"
#include "report/table.h"
#include "log/record.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the verdict and the record ---- */

void vd_result_done(struct vd_result *res)
{
	res->nfail = 0;
	for (size_t i = 0; i < res->n; i++)
		res->nfail += !res->check[i].pass;
	if (res->nfail)
		snprintf(res->verdict, sizeof(res->verdict), "FAIL (%zu of %zu checks failed)",
			 res->nfail, res->n);
	else
		snprintf(res->verdict, sizeof(res->verdict), "PASS");
	if (res->nfail)
		snprintf(res->title, sizeof(res->title), "Verdict: %s", res->verdict);
	else
		snprintf(res->title, sizeof(res->title), "Verdict: PASS (%zu checks)", res->n);
}

void vd_result_free(struct vd_result *res)
{
	free(res->check);
	memset(res, 0, sizeof(*res));
}

int vd_result_of_run(const struct rep_run *r, struct vd_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!r->have_verdict)
		return 0;
	if (r->nchk && !(res->check = calloc(r->nchk, sizeof(*res->check))))
		return -ENOMEM;
	res->n = res->cap = r->nchk;
	for (size_t i = 0; i < r->nchk; i++) {
		const struct rep_check *c = &r->chk[i];
		struct vd_check *k = &res->check[i];
		snprintf(k->what, sizeof(k->what), "%s", c->what ? c->what : "?");
		snprintf(k->measured, sizeof(k->measured), "%s", c->measured ? c->measured : "");
		snprintf(k->limit, sizeof(k->limit), "%s", c->limit ? c->limit : "");
		snprintf(k->where, sizeof(k->where), "%s", c->where ? c->where : "");
		k->value = k->bound = NAN;
		k->unit = "";
		k->pass = c->pass;
		k->measured_ok = strncmp(k->measured, "not measured", 12) != 0;
	}
	vd_result_done(res);
	return 1;
}

/* s as a JSON string literal (log/record.h's escaping). */
static void json_str(FILE *out, const char *s)
{
	char q[2 * sizeof(((struct vd_check *)0)->measured) + 8];

	json_quote(q, sizeof(q), s);
	fputs(q, out);
}

int vd_record_body(FILE *out, const struct vd_result *res)
{
	fprintf(out, "\"status\":\"%s\",\"checks\":%zu,\"failed\":%zu,\"check\":[",
		res->nfail ? "fail" : "pass", res->n, res->nfail);
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		fputs(i ? ",{\"what\":" : "{\"what\":", out);
		json_str(out, k->what);
		fputs(",\"measured\":", out);
		json_str(out, k->measured);
		fputs(",\"limit\":", out);
		json_str(out, k->limit);
		fprintf(out, ",\"pass\":%s,\"where\":", k->pass ? "true" : "false");
		json_str(out, k->where);
		fputc('}', out);
	}
	fputc(']', out);
	return ferror(out) ? -1 : 0;
}


/* ---- as a report table ---- */

int vd_table(const struct vd_result *res, struct rep_table *t)
{
	static const char *const h[] = { "check", "measured", "limit", "result", "criterion",
					 "value", "limit_value", "unit" };
	tab_init(t, "verdict", res->title, SHAPE_GRID, 8);
	for (size_t c = 0; c < 8; c++) {
		tab_col(t, c, c >= 5 && c < 7, h[c], NULL);
		if (c >= 5)
			tab_col_only(t, c, REP_VIEW_DATA);
	}
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", k->what);
		tab_text(t, row, 1, "%s", k->measured);
		tab_text(t, row, 2, "%s", k->limit);
		tab_text(t, row, 3, "%s", k->pass ? "PASS" : "FAIL");
		tab_text(t, row, 4, "%s", k->where);
		if (isnan(k->value))
			tab_missing(t, row, 5);
		else
			tab_fixed(t, row, 5, k->value, 6);
		if (isnan(k->bound))
			tab_missing(t, row, 6);
		else
			tab_fixed(t, row, 6, k->bound, 6);
		tab_text(t, row, 7, "%s", k->unit);
	}
	return tab_done(t);
}

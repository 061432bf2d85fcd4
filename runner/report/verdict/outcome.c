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

size_t vd_counted_failures(const struct vd_result *res)
{
	return res->strict ? res->nfail : res->nfail - res->nknown;
}

/* ", N WORD" after the first part of the verdict's parentheses. */
static size_t add_part(char *buf, size_t len, size_t o, size_t n, const char *one, const char *many)
{
	if (!n || o >= len)
		return o;
	int w = snprintf(buf + o, len - o, "%s%zu %s", o ? ", " : "", n, n == 1 ? one : many);
	return w < 0 ? o : o + (size_t)w;
}

void vd_result_done(struct vd_result *res)
{
	char more[96] = "";
	size_t o = 0, counted;

	res->nfail = res->nknown = res->nerror = res->nskip = 0;
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		res->nfail += k->kind == VD_FAIL;
		res->nknown += k->kind == VD_FAIL && k->known[0] && !k->known_expired;
		res->nerror += k->kind == VD_ERROR;
		res->nskip += k->kind == VD_SKIP;
	}
	counted = vd_counted_failures(res);
	res->kind = counted ? VD_FAIL : res->nerror ? VD_ERROR : VD_PASS;
	/* what the verdict's first part does not say: errors beside failures,
	 * known failures that do not count, skipped checks */
	if (res->kind == VD_FAIL)
		o = add_part(more, sizeof(more), o, res->nerror, "error", "errors");
	if (!res->strict)
		o = add_part(more, sizeof(more), o, res->nknown, "known failure", "known failures");
	o = add_part(more, sizeof(more), o, res->nskip, "skipped", "skipped");
	switch (res->kind) {
	case VD_FAIL: {
		char strict[64] = "";
		if (res->strict && res->nknown)
			snprintf(strict, sizeof(strict), ", %zu of them known (--strict)", res->nknown);
		snprintf(res->verdict, sizeof(res->verdict), "FAIL (%zu of %zu checks failed%s%s%s)",
			 counted, res->n, strict, o ? ", " : "", more);
		snprintf(res->title, sizeof(res->title), "Verdict: %s", res->verdict);
		break;
	}
	case VD_ERROR:
		snprintf(res->verdict, sizeof(res->verdict), "ERROR (%zu of %zu checks could not judge%s%s)",
			 res->nerror, res->n, o ? ", " : "", more);
		snprintf(res->title, sizeof(res->title), "Verdict: %s", res->verdict);
		break;
	default:
		snprintf(res->verdict, sizeof(res->verdict), "PASS%s%s%s", o ? " (" : "", more, o ? ")" : "");
		snprintf(res->title, sizeof(res->title), "Verdict: PASS (%zu checks%s%s)", res->n,
			 o ? ", " : "", more);
		break;
	}
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
		/* a record without results (older) has pass alone */
		int kind = vd_kind_of_word(c->result);
		k->kind = kind >= 0 ? (enum vd_kind)kind : c->pass ? VD_PASS : VD_FAIL;
		snprintf(k->why, sizeof(k->why), "%s", c->why ? c->why : "");
		snprintf(k->known, sizeof(k->known), "%s", c->known ? c->known : "");
		snprintf(k->known_where, sizeof(k->known_where), "%s", c->known_where ? c->known_where : "");
		snprintf(k->known_until, sizeof(k->known_until), "%s", c->known_until ? c->known_until : "");
		k->known_expired = c->known_expired;
	}
	res->strict = r->verdict_strict;
	vd_result_done(res);
	return 1;
}

void vd_result_text(const struct vd_check *k, int with_where, char *buf, size_t len)
{
	const char *name = vd_kinds[k->kind].name;
	int o;

	if (k->kind == VD_PASS) {
		snprintf(buf, len, "%s", name);
		return;
	}
	if (with_where && k->where[0])
		o = snprintf(buf, len, "%s (%s)", name, k->where);
	else
		o = snprintf(buf, len, "%s", name);
	if (o < 0 || (size_t)o >= len)
		return;
	if (k->kind != VD_FAIL) {
		if (k->why[0])
			snprintf(buf + o, len - (size_t)o, ": %s", k->why);
		return;
	}
	if (k->known[0] && k->known_expired)
		snprintf(buf + o, len - (size_t)o, ", known issue %s expired on %s (%s): it counts",
			 k->known, k->known_until, k->known_where);
	else if (k->known[0])
		snprintf(buf + o, len - (size_t)o, ", known issue %s (%s, until %s)", k->known,
			 k->known_where, k->known_until);
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
	fprintf(out, "\"status\":\"%s\",\"checks\":%zu,\"failed\":%zu,", vd_kinds[res->kind].word,
		res->n, vd_counted_failures(res));
	if (res->nerror)
		fprintf(out, "\"errors\":%zu,", res->nerror);
	if (res->nskip)
		fprintf(out, "\"skipped\":%zu,", res->nskip);
	if (res->nknown)
		fprintf(out, "\"known\":%zu,", res->nknown);
	if (res->strict)
		fputs("\"strict\":true,", out);
	fputs("\"check\":[", out);
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		fputs(i ? ",{\"what\":" : "{\"what\":", out);
		json_str(out, k->what);
		fputs(",\"measured\":", out);
		json_str(out, k->measured);
		fputs(",\"limit\":", out);
		json_str(out, k->limit);
		fprintf(out, ",\"pass\":%s,\"result\":\"%s\",\"where\":", k->kind == VD_PASS ? "true" : "false",
			vd_kinds[k->kind].word);
		json_str(out, k->where);
		if (k->why[0] && (k->kind == VD_ERROR || k->kind == VD_SKIP)) {
			fputs(",\"why\":", out);
			json_str(out, k->why);
		}
		if (k->known[0]) {
			fputs(",\"known\":", out);
			json_str(out, k->known);
			fputs(",\"known_where\":", out);
			json_str(out, k->known_where);
			fputs(",\"known_until\":", out);
			json_str(out, k->known_until);
			if (k->known_expired)
				fputs(",\"known_expired\":true", out);
		}
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
		char res_text[640];
		vd_result_text(k, 0, res_text, sizeof(res_text));
		tab_text(t, row, 3, "%s", res_text);
		tab_text(t, row, 4, "%s", k->where);
		tab_fixed_if(t, row, 5, !isnan(k->value), k->value, 6);
		tab_fixed_if(t, row, 6, !isnan(k->bound), k->bound, 6);
		tab_text(t, row, 7, "%s", k->unit);
	}
	return tab_done(t);
}

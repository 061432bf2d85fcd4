/* junit.c: the JUnit XML writer (see writer.h), for CI systems: a
 * testsuite per filesystem with a testcase per round x phase (time: its
 * seconds; files/s, p99 and the verification as properties) and one for
 * whether the filesystem ran to the end (an error when it was skipped, has
 * no fs_end or failed for a reason not the disk's: infra.c; a failure when
 * it failed otherwise), and a testsuite "verdict" with a testcase per
 * check when the report was given criteria, or the run holds a verdict
 * record: a check's kind (kinds.h) is its element, failure, error or
 * skipped; a known failure stays a failure of type "known issue". Without
 * a verdict, a run that could not be judged as a whole has a testsuite
 * "run" with one error. The schema it follows is
 * tests/verdict/junit.xsd. */
#include "report/writers/writer.h"
#include "report/verdict/criteria.h"

#include <stdarg.h>
#include <string.h>

/* Text for an attribute or element: &<>"' escaped, control characters
 * (not valid in XML 1.0) as '?'. */
static void xml_put(FILE *out, const char *s)
{
	markup_text(out, s, "&apos;", '?');
}

static void prop(FILE *out, const char *indent, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void prop(FILE *out, const char *indent, const char *name, const char *fmt, ...)
{
	char v[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	fprintf(out, "%s<property name=\"%s\" value=\"", indent, name);
	xml_put(out, v);
	fputs("\"/>\n", out);
}

static int fs_ok(const struct rep_fs *f)
{
	return f->status && strcmp(f->status, "ok") == 0;
}

static int phase_failed(const struct rep_phase *p)
{
	return p->errors || p->verify_errors;
}

/* The column's "ran to the end": PASS, ERROR (it could not be judged:
 * infra.c, why in why) or FAIL. */
static enum vd_kind fs_kind(const struct rep_run *r, const struct rep_fs *f, char *why, size_t len)
{
	if (fs_ok(f))
		return VD_PASS;
	if (f->status && !strcmp(f->status, "refused"))	/* the target cannot hold it (a zoned disk) */
		return VD_SKIP;
	return vd_fs_broken(r, f->name, why, len) ? VD_ERROR : VD_FAIL;
}

static void fs_suite(FILE *out, const struct rep_run *r, const struct rep_fs *f)
{
	unsigned tests = 1, failures = 0;
	double time = 0;
	char why[256];
	enum vd_kind end = fs_kind(r, f, why, sizeof(why));

	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].fs == f->name) {
			tests++;
			failures += phase_failed(&r->ph[i]);
			time += r->ph[i].seconds;
		}
	failures += end == VD_FAIL;
	fputs("  <testsuite name=\"", out);
	xml_put(out, f->name);
	fprintf(out, "\" tests=\"%u\" failures=\"%u\" errors=\"%d\" skipped=\"%d\" time=\"%.6f\"",
		tests, failures, end == VD_ERROR, end == VD_SKIP, time);
	if (r->hostname) {
		fputs(" hostname=\"", out);
		xml_put(out, r->hostname);
		fputc('"', out);
	}
	fputs(">\n    <properties>\n", out);
	prop(out, "      ", "run_id", "%s", r->run_id);
	prop(out, "      ", "status", "%s", f->status ? f->status : "no fs_end record");
	if (r->profile)
		prop(out, "      ", "profile", "%s", r->profile);
	if (r->target_model)
		prop(out, "      ", "target_model", "%s", r->target_model);
	if (r->kernel)
		prop(out, "      ", "kernel", "%s", r->kernel);
	fputs("    </properties>\n", out);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->fs != f->name)
			continue;
		fputs("    <testcase classname=\"fsbench.", out);
		xml_put(out, f->name);
		fprintf(out, "\" name=\"round %u ", p->round);
		xml_put(out, p->phase);
		fprintf(out, "\" time=\"%.6f\">\n      <properties>\n", p->seconds);
		prop(out, "        ", "files", "%llu", (unsigned long long)p->files);
		prop(out, "        ", "files_per_s", "%.1f", p->files_per_s);
		if (p->have_lat && p->lat_ns[LAT_P99] >= 0)
			prop(out, "        ", "p99_us", "%.3f", p->lat_ns[LAT_P99] / 1000);
		if (p->verified >= 0)
			prop(out, "        ", "verified", "%s", p->verified ? "true" : "false");
		prop(out, "        ", "verify_errors", "%llu", (unsigned long long)p->verify_errors);
		prop(out, "        ", "errors", "%llu", (unsigned long long)p->errors);
		fputs("      </properties>\n", out);
		if (phase_failed(p))
			fprintf(out, "      <failure type=\"phase\" message=\"%llu errors, %llu verify "
				"errors\"/>\n", (unsigned long long)p->errors,
				(unsigned long long)p->verify_errors);
		fputs("    </testcase>\n", out);
	}
	fputs("    <testcase classname=\"fsbench.", out);
	xml_put(out, f->name);
	fputs("\" name=\"ran to the end\" time=\"0\"", out);
	if (fs_ok(f)) {
		fputs("/>\n", out);
	} else {
		char msg[600];
		snprintf(msg, sizeof(msg), "%s%s%s", f->status ? f->status : "no fs_end record",
			 f->reason && *f->reason ? ": " : "", f->reason ? f->reason : "");
		fprintf(out, ">\n      <%s type=\"", vd_kinds[end].junit);
		xml_put(out, f->status ? f->status : "missing");
		fputs("\" message=\"", out);
		xml_put(out, msg);
		fputs("\"/>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

static void verdict_suite(FILE *out, const struct vd_result *v)
{
	fprintf(out, "  <testsuite name=\"verdict\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"%zu\" time=\"0\">\n", v->n, v->nfail, v->nerror, v->nskip);
	for (size_t i = 0; i < v->n; i++) {
		const struct vd_check *k = &v->check[i];
		char msg[1400];
		fputs("    <testcase classname=\"fsbench.verdict\" name=\"", out);
		xml_put(out, k->what);
		fputs("\" time=\"0\">\n      <properties>\n", out);
		prop(out, "        ", "measured", "%s", k->measured);
		prop(out, "        ", "limit", "%s", k->limit);
		if (k->where[0])
			prop(out, "        ", "criterion", "%s", k->where);
		if (k->known[0]) {
			prop(out, "        ", "known_issue", "%s", k->known);
			prop(out, "        ", "known_issue_where", "%s", k->known_where);
			prop(out, "        ", "known_issue_until", "%s%s", k->known_until,
			     k->known_expired ? " (expired)" : "");
		}
		fputs("      </properties>\n", out);
		if (k->kind != VD_PASS) {
			const char *type = k->kind == VD_ERROR ? "could not judge"
					 : k->kind == VD_SKIP ? "does not apply"
					 : k->known[0] && !k->known_expired ? "known issue"
					 : k->measured_ok ? "criteria" : "not measured";
			char res[700];
			vd_result_text(k, 0, res, sizeof(res));
			if (k->kind == VD_FAIL && !k->known[0])
				snprintf(msg, sizeof(msg), "%s; limit %s", k->measured, k->limit);
			else
				snprintf(msg, sizeof(msg), "%s; limit %s: %s", k->measured, k->limit, res);
			fprintf(out, "      <%s type=\"%s\" message=\"", vd_kinds[k->kind].junit, type);
			xml_put(out, msg);
			fputs("\"/>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

/* Without a verdict, a run that could not be judged as a whole (no record,
 * no run_end, refused) is a testsuite "run" with one error. */
static void run_suite(FILE *out, const char *why)
{
	fputs("  <testsuite name=\"run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
	      "    <testcase classname=\"fsbench.run\" name=\"fsbench run ran to its end\" time=\"0\">\n"
	      "      <error type=\"could not judge\" message=\"", out);
	xml_put(out, why);
	fputs("\"/>\n    </testcase>\n  </testsuite>\n", out);
}

int junit_doc(FILE *out, const struct rep_run *r, const struct vd_result *v)
{
	size_t tests = 0, failures = 0, errors = 0;
	double time = 0;
	char why[256], broken[256];
	int run_err = !v && vd_run_broken(r, broken, sizeof(broken));

	for (size_t f = 0; f < r->nfs; f++) {
		enum vd_kind end = fs_kind(r, &r->fs[f], why, sizeof(why));
		tests++;	/* ran to the end */
		errors += end == VD_ERROR;
		failures += end == VD_FAIL;
	}
	tests += run_err;
	errors += run_err;
	for (size_t i = 0; i < r->nph; i++) {
		tests++;
		failures += phase_failed(&r->ph[i]);
		time += r->ph[i].seconds;
	}
	if (v) {
		tests += v->n;
		failures += v->nfail;
		errors += v->nerror;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fsbench ", out);
	xml_put(out, r->run_id ? r->run_id : "(no run)");
	/* skipped: per testsuite only (the root has no such attribute) */
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.6f\">\n",
		tests, failures, errors, time);
	if (run_err)
		run_suite(out, broken);
	for (size_t f = 0; f < r->nfs; f++)
		fs_suite(out, r, &r->fs[f]);
	if (v)
		verdict_suite(out, v);
	fputs("</testsuites>\n", out);
	return 0;
}

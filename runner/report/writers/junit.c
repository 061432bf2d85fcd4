/* junit.c: the JUnit XML writer (see writer.h), for CI systems: a
 * testsuite per filesystem with a testcase per round x phase (time: its
 * seconds; files/s, p99 and the verification as properties) and one for
 * whether the filesystem ran to the end (an error when it failed, was
 * skipped or has no fs_end), and a testsuite "verdict" with a testcase per
 * check when the report was given criteria, or the run holds a verdict
 * record. The schema it follows is
 * tests/verdict/junit.xsd. */
#include "report/writers/writer.h"
#include "report/verdict/criteria.h"

#include <stdarg.h>
#include <string.h>

/* Text for an attribute or element: &<>"' escaped, control characters
 * (not valid in XML 1.0) as '?'. */
static void xml_put(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, out);
		}
	}
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

static void fs_suite(FILE *out, const struct rep_run *r, const struct rep_fs *f)
{
	unsigned tests = 1, failures = 0;
	double time = 0;

	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].fs == f->name) {
			tests++;
			failures += phase_failed(&r->ph[i]);
			time += r->ph[i].seconds;
		}
	fputs("  <testsuite name=\"", out);
	xml_put(out, f->name);
	fprintf(out, "\" tests=\"%u\" failures=\"%u\" errors=\"%d\" skipped=\"0\" time=\"%.6f\"",
		tests, failures, !fs_ok(f), time);
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
		fputs(">\n      <error type=\"", out);
		xml_put(out, f->status ? f->status : "missing");
		fputs("\" message=\"", out);
		xml_put(out, msg);
		fputs("\"/>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

static void verdict_suite(FILE *out, const struct vd_result *v)
{
	fprintf(out, "  <testsuite name=\"verdict\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"0\" time=\"0\">\n", v->n, v->nfail);
	for (size_t i = 0; i < v->n; i++) {
		const struct vd_check *k = &v->check[i];
		char msg[700];
		fputs("    <testcase classname=\"fsbench.verdict\" name=\"", out);
		xml_put(out, k->what);
		fputs("\" time=\"0\">\n      <properties>\n", out);
		prop(out, "        ", "measured", "%s", k->measured);
		prop(out, "        ", "limit", "%s", k->limit);
		if (k->where[0])
			prop(out, "        ", "criterion", "%s", k->where);
		fputs("      </properties>\n", out);
		if (!k->pass) {
			snprintf(msg, sizeof(msg), "%s; limit %s", k->measured, k->limit);
			fprintf(out, "      <failure type=\"%s\" message=\"",
				k->measured_ok ? "criteria" : "not measured");
			xml_put(out, msg);
			fputs("\"/>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

int junit_doc(FILE *out, const struct rep_run *r, const struct vd_result *v)
{
	size_t tests = 0, failures = 0, errors = 0;
	double time = 0;

	for (size_t f = 0; f < r->nfs; f++) {
		tests++;	/* ran to the end */
		errors += !fs_ok(&r->fs[f]);
	}
	for (size_t i = 0; i < r->nph; i++) {
		tests++;
		failures += phase_failed(&r->ph[i]);
		time += r->ph[i].seconds;
	}
	if (v) {
		tests += v->n;
		failures += v->nfail;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fsbench ", out);
	xml_put(out, r->run_id);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.6f\">\n",
		tests, failures, errors, time);
	for (size_t f = 0; f < r->nfs; f++)
		fs_suite(out, r, &r->fs[f]);
	if (v)
		verdict_suite(out, v);
	fputs("</testsuites>\n", out);
	return 0;
}

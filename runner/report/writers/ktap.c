/* ktap.c: the KTAP writer (see writer.h): the kernel's Kernel Test Anything
 * Protocol, version 1 (Documentation/dev-tools/ktap.rst), for the
 * kernel's and TuxRun's tooling. The tests are those of the JUnit writer
 * (junit.c): a subtest per filesystem, in run order, holding a test per
 * round x phase (not ok when it had errors or verify errors) and one for
 * whether the filesystem ran to the end (skipped: a SKIP with the reason;
 * failed or no fs_end: not ok), and a subtest "verdict" with a test per
 * check when the report was given criteria or the run holds a verdict
 * record. A test's name is its LAVA test case id (FORMATS.md, "LAVA
 * lines"); the measurement is a diagnostic line right before its result
 * line. Subtests are indented two spaces; a parent is not ok when a test
 * of it is not ok, skipped when all of them are. */
#include "report/writers/writer.h"
#include "report/verdict/criteria.h"
#include "lib/ident.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The result kinds of the verdict and the JUnit writer (kinds.h), as KTAP
 * writes them: the one place that maps them. A parent takes the kind of
 * its highest rank child (SKIP only when every child is skipped). An
 * ERROR (the check could not judge) is "not ok" with the directive
 * ERROR and its reason: KTAP has no result of its own for it. */
enum kt_kind { KT_SKIP, KT_PASS, KT_FAIL, KT_ERROR, KT_N };
static const struct {
	const char *result;	/* "ok" or "not ok" */
	const char *directive;	/* written " # DIRECTIVE reason", or NULL */
	int rank;
} kinds[KT_N] = {
	[KT_SKIP] = { "ok", "SKIP", 0 },
	[KT_PASS] = { "ok", NULL, 1 },
	[KT_FAIL] = { "not ok", NULL, 2 },
	[KT_ERROR] = { "not ok", "ERROR", 3 },
};

static void indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
}

/* Text on one line: control characters as spaces; no_hash: '#' too (a
 * result line's description and directive reason cannot hold one). */
static void put_text(FILE *out, const char *s, int no_hash)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
		fputc(*p < 0x20 || *p == 0x7f || (no_hash && *p == '#') ? ' ' : *p, out);
}

/* "# TEXT" at depth. */
static void diag(FILE *out, int depth, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void diag(FILE *out, int depth, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	indent(out, depth);
	fputs("# ", out);
	put_text(out, line, 0);
	fputc('\n', out);
}

/* "ok N NAME", "not ok N NAME", "ok N NAME # SKIP REASON". */
static void result(FILE *out, int depth, size_t n, const char *name, enum kt_kind k,
		   const char *reason)
{
	indent(out, depth);
	fprintf(out, "%s %zu ", kinds[k].result, n);
	put_text(out, name, 1);
	if (kinds[k].directive) {
		fprintf(out, " # %s", kinds[k].directive);
		if (reason && *reason) {
			fputc(' ', out);
			put_text(out, reason, 1);
		}
	}
	fputc('\n', out);
}

/* The parent of children of kinds k[0..n). */
static enum kt_kind parent_kind(const enum kt_kind *k, size_t n)
{
	enum kt_kind worst = KT_SKIP;

	for (size_t i = 0; i < n; i++)
		if (kinds[k[i]].rank > kinds[worst].rank)
			worst = k[i];
	return worst;
}

static int fs_ok(const struct rep_fs *f)
{
	return f->status && strcmp(f->status, "ok") == 0;
}

static enum kt_kind fs_kind(const struct rep_fs *f)
{
	if (fs_ok(f))
		return KT_PASS;
	/* skipped: the image lacks it; refused: the target cannot hold it */
	return f->status && (!strcmp(f->status, "skipped") || !strcmp(f->status, "refused")) ? KT_SKIP : KT_FAIL;
}

static enum kt_kind phase_kind(const struct rep_phase *p)
{
	return p->errors || p->verify_errors ? KT_FAIL : KT_PASS;
}

static enum kt_kind check_kind(const struct vd_check *k)
{
	static const enum kt_kind of[VD_NKINDS] = {
		[VD_PASS] = KT_PASS, [VD_FAIL] = KT_FAIL, [VD_ERROR] = KT_ERROR, [VD_SKIP] = KT_SKIP,
	};
	return of[k->kind];
}

/* A filesystem's or phase's test name: NAME then SUFFIX, a variant's ':'
 * as '.' (LAVA's "f2fs.s4z4-r1-create"). */
static void fs_name(char *buf, size_t len, const char *fs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fs_name(char *buf, size_t len, const char *fs, const char *fmt, ...)
{
	va_list ap;
	size_t o = (size_t)snprintf(buf, len, "%s", fs);

	if (o < len) {
		va_start(ap, fmt);
		vsnprintf(buf + o, len - o, fmt, ap);
		va_end(ap);
	}
	for (char *c = buf; *c; c++)
		if (*c == ':')
			*c = '.';
}

/* The kind of filesystem f's subtest, and how many tests it holds. */
static enum kt_kind fs_summary(const struct rep_run *r, const struct rep_fs *f, size_t *ntests,
			       size_t *nfail)
{
	enum kt_kind worst = fs_kind(f);
	size_t n = 1, bad = fs_kind(f) == KT_FAIL;

	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].fs == f->name) {
			enum kt_kind k = phase_kind(&r->ph[i]);
			enum kt_kind both[2] = { worst, k };
			worst = parent_kind(both, 2);
			bad += k == KT_FAIL;
			n++;
		}
	*ntests = n;
	*nfail = bad;
	return worst;
}

static void fs_subtest(FILE *out, const struct rep_run *r, const struct rep_fs *f, size_t num)
{
	size_t ntests, nfail, n = 0;
	enum kt_kind k = fs_summary(r, f, &ntests, &nfail), fk = fs_kind(f);
	const char *status = f->status ? f->status : "no fs_end record";
	char name[FSB_LAVA_ID_MAX];

	fputs("  KTAP version 1\n", out);
	diag(out, 1, "Subtest: %s", f->name);
	fprintf(out, "  1..%zu\n", ntests);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		char lat[64] = "";
		if (p->fs != f->name)
			continue;
		if (p->have_lat && p->lat_ns[LAT_P99] >= 0)
			snprintf(lat, sizeof(lat), ", p99 %.3f us", p->lat_ns[LAT_P99] / 1000);
		diag(out, 1, "%s round %u %s: %.6f s, %llu files, %.1f files/s%s%s, %llu errors, "
		     "%llu verify errors", f->name, p->round, p->phase, p->seconds,
		     (unsigned long long)p->files, p->files_per_s, lat,
		     p->verified > 0 ? ", verified" : "",
		     (unsigned long long)p->errors, (unsigned long long)p->verify_errors);
		fs_name(name, sizeof(name), f->name, "-r%u-%s", p->round, p->phase);
		result(out, 1, ++n, name, phase_kind(p), NULL);
	}
	diag(out, 1, "%s: %s%s%s", f->name, status, f->reason && *f->reason ? ": " : "",
	     f->reason ? f->reason : "");
	fs_name(name, sizeof(name), f->name, "-ran-to-the-end");
	result(out, 1, ++n, name, fk, f->reason && *f->reason ? f->reason : status);
	if (k == KT_FAIL)
		diag(out, 0, "%s: %zu of %zu tests not ok", f->name, nfail, ntests);
	result(out, 0, num, f->name, k, f->reason && *f->reason ? f->reason : status);
}

static int verdict_subtest(FILE *out, const struct vd_result *v, size_t num)
{
	char (*names)[FSB_LAVA_ID_MAX] = calloc(v->n ? v->n : 1, sizeof(*names));
	enum kt_kind worst = KT_SKIP;

	if (!names)
		return -1;
	fputs("  KTAP version 1\n", out);
	diag(out, 1, "Subtest: verdict");
	fprintf(out, "  1..%zu\n", v->n);
	for (size_t i = 0; i < v->n; i++) {
		const struct vd_check *k = &v->check[i];
		enum kt_kind both[2] = { worst, check_kind(k) };
		worst = parent_kind(both, 2);
		fsb_lava_text_id(names[i], sizeof(names[i]), "verdict-", k->what,
				 (const char (*)[FSB_LAVA_ID_MAX])names, i);
		if (k->where[0] && !k->pass)
			diag(out, 1, "%s: %s; limit %s (%s)", k->what, k->measured, k->limit, k->where);
		else
			diag(out, 1, "%s: %s; limit %s", k->what, k->measured, k->limit);
		result(out, 1, i + 1, names[i], check_kind(k), k->why[0] ? k->why : NULL);
	}
	free(names);
	diag(out, 0, "verdict: %s", v->verdict);
	result(out, 0, num, "verdict", v->n ? worst : KT_SKIP, "no checks");
	return 0;
}

int ktap_doc(FILE *out, const struct rep_run *r, const struct vd_result *v)
{
	size_t n = r->nfs + (v != NULL), num = 0;

	fprintf(out, "KTAP version 1\n1..%zu\n", n);
	diag(out, 0, "fsbench run %s: profile %s, kernel %s, target %s", r->run_id,
	     r->profile ? r->profile : "?", r->kernel ? r->kernel : "?",
	     r->target_model ? r->target_model : "?");
	for (size_t f = 0; f < r->nfs; f++)
		fs_subtest(out, r, &r->fs[f], ++num);
	if (v && verdict_subtest(out, v, ++num))
		return -1;
	return 0;
}

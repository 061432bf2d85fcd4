/* verdict.c: `fsbench verdict RUN`: PASS or FAIL, one line per check, from
 * a criteria file or a known-good baseline run (report/verdict.h). */
#include "cmd/results.h"
#include "fsbench.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: fsbench verdict RUN --criteria FILE [--baseline RUN2 [--tolerance PCT]] [--run ID]\n"
	"       fsbench verdict RUN --baseline RUN2 [--tolerance PCT] [--baseline-run ID] [--run ID]\n"
	"       fsbench verdict RUN --write-criteria [--margin PCT] [--run ID]\n"
	"  RUN             a run folder (RUN/records.jsonl), a .jsonl file or a serial log; - reads stdin\n"
	"  --criteria F    the checks, `key = value` lines (keys: fsbench help criteria)\n"
	"  --baseline B    checks from a known-good run of the same board: a phase fails when it is\n"
	"                  slower than B's median by more than the tolerance and B's spread between rounds\n"
	"  --tolerance P   allowed slowdown against the baseline, percent (default 10%)\n"
	"  --baseline-run ID  which run of B (default: the last one)\n"
	"  --write-criteria   print a criteria file from RUN, a known-good run, and stop\n"
	"  --margin P      --write-criteria: floors of files/s are the slowest round's rate divided\n"
	"                  by 1 + P/100 (default 100%: half the rate)\n"
	"  --run ID        which run of RUN (default: the last one; a unique prefix is enough)\n"
	"\n"
	"Prints one line per check (WHAT: MEASURED; limit LIMIT: PASS or FAIL) and\n"
	"`verdict: PASS` or `verdict: FAIL (N of M checks failed)`. A check the run\n"
	"holds no data for says `not measured` and fails.\n"
	"exit: 0 PASS, 1 FAIL, 2 misuse or a bad criteria file, 4 an input cannot be read\n";

/* "fsbench: verdict: WHAT" and the usage; fmt holds one %s for arg. */
static int misuse(const char *fmt, const char *arg)
{
	char what[512];

	snprintf(what, sizeof(what), fmt, arg);
	fsb_msg("verdict: %s", what);
	fputs(usage, stderr);
	return EXIT_USAGE;
}

/* The number of a percent option, or -1. */
static double pct_option(const char *name, const char *val)
{
	double d = vd_percent(val);
	if (d < 0)
		misuse("%s: expected a percentage (10%%)", name);
	return d;
}

static void verdict_print(FILE *out, const struct vd_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		fprintf(out, "%s: %s; limit %s: %s", k->what, k->measured, k->limit,
			k->pass ? "PASS" : "FAIL");
		if (!k->pass && k->where[0])
			fprintf(out, " (%s)", k->where);
		fputc('\n', out);
	}
	fprintf(out, "verdict: %s\n", res->verdict);
}

int cmd_verdict(int argc, char **argv)
{
	const char *run = NULL, *criteria = NULL, *baseline = NULL, *id = NULL, *base_id = NULL;
	double tolerance = 0.10, margin = 1.0;
	int write = 0, tol_given = 0;
	struct vd_criteria vc;
	struct vd_result res;
	struct rep_set set;
	int ec;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;
		double *num = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--write-criteria")) {
			write = 1;
			continue;
		}
		if (a[0] != '-' || !strcmp(a, "-")) {
			if (run)
				return misuse("too many arguments ('%s')", a);
			run = a;
			continue;
		}
		if (!strcmp(a, "--criteria"))
			slot = &criteria;
		else if (!strcmp(a, "--baseline"))
			slot = &baseline;
		else if (!strcmp(a, "--run"))
			slot = &id;
		else if (!strcmp(a, "--baseline-run"))
			slot = &base_id;
		else if (!strcmp(a, "--tolerance"))
			num = &tolerance, tol_given = 1;
		else if (!strcmp(a, "--margin"))
			num = &margin;
		else
			return misuse("unknown option '%s'", a);
		if (i + 1 >= argc)
			return misuse("%s needs an argument", a);
		if (slot) {
			*slot = argv[++i];
		} else if ((*num = pct_option(a, argv[++i])) < 0) {
			return EXIT_USAGE;
		}
	}
	if (!run)
		return misuse("missing %s", "RUN");
	if (write && (criteria || baseline))
		return misuse("%s: give no --criteria or --baseline", "--write-criteria");
	if (!write && !criteria && !baseline)
		return misuse("nothing to check against: give %s", "--criteria FILE or --baseline RUN2");
	if (base_id && !baseline)
		return misuse("%s without --baseline", "--baseline-run");
	if (tol_given && !baseline)
		return misuse("%s without --baseline", "--tolerance");

	results_criteria_init(&vc);
	if (!write && (ec = results_criteria("verdict", &vc, criteria, baseline, base_id, tolerance)) >= 0) {
		vd_criteria_free(&vc);
		return ec;
	}
	if ((ec = results_load("verdict", &set, run)) >= 0) {
		vd_criteria_free(&vc);
		return ec;
	}
	const struct rep_run *r = rep_find(&set, id);
	if (!r) {
		fsb_msg("verdict %s: no run '%s'", set.path, id);
		ec = EXIT_USAGE;
	} else if (write) {
		ec = vd_write_criteria(stdout, r, set.path, margin) ? EXIT_SYSTEM : EXIT_OK;
		if (ec)
			fsb_msg("verdict: writing the criteria: %s", strerror(errno));
	} else if (!vc.n) {
		fsb_msg("verdict: %s: no checks", criteria ? criteria : baseline);
		ec = EXIT_USAGE;
	} else if (vd_evaluate(&vc, r, &res)) {
		ec = fsb_fail(EXIT_SYSTEM, "verdict %s: %s", set.path, strerror(ENOMEM));
	} else {
		verdict_print(stdout, &res);
		ec = results_flush("verdict");
		if (!ec && res.nfail)
			ec = EXIT_FAIL;
		vd_result_free(&res);
	}
	rep_free(&set);
	vd_criteria_free(&vc);
	return ec;
}

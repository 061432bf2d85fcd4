/* report.c: `fsbench report RUN`: one run's tables from its records. */
#include "cmd/results.h"
#include "fsbench.h"
#include "report/measures.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: fsbench report RUN [--format %1$s] [--run RUNID] [--criteria FILE]\n"
	"                      [--baseline RUN2 [--tolerance PCT]]\n"
	"  RUN         a run folder (RUN/records.jsonl), a .jsonl file, a serial log, a results\n"
	"              log (fsbench run --log), a raw log partition or a whole GPT disk image;\n"
	"              - reads stdin\n"
	"  --format F  %2$s\n"
	"  --run ID    which run of the file (default: the last one; a unique prefix is enough)\n"
	"  --criteria F, --baseline B, --tolerance P\n"
	"              the checks of fsbench verdict: a last table \"verdict\" (junit, ktap: a test each)\n"
	"  --known F [--strict]\n"
	"              known issues, as for fsbench verdict: failures they match marked known\n";

/* " (runs: ID ID ...)": the runs a file holds, for the message. */
static void list_runs(const struct rep_set *set, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, " (runs:");

	for (size_t i = 0; i < set->nruns && i < 20 && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, " %s", set->runs[i]->run_id);
	if (o < len)
		snprintf(buf + o, len - o, "%s)", set->nruns > 20 ? " ..." : "");
}

int cmd_report(int argc, char **argv)
{
	struct results_cli c = { .cmd = "report", .usage = usage, .maxpos = 1, .allow_run = 1,
				  .allow_criteria = 1 };
	struct vd_criteria vc;
	struct vd_result res, *v = NULL;
	struct vd_known kn;
	struct rep_set set;
	static const struct rep_run none;	/* no record: the boot never reached the runner */
	int ec = results_parse(&c, argc, argv);

	if (ec >= 0)
		return ec;
	results_criteria_init(&vc);
	ec = results_criteria("report", &vc, c.criteria, c.baseline, NULL, c.tolerance);
	if (ec >= 0) {
		vd_criteria_free(&vc);
		return ec;
	}
	if ((ec = results_known("report", &kn, c.known)) >= 0) {
		vd_criteria_free(&vc);
		return ec;
	}
	/* JUnit of an input without a record: the run that never started */
	ec = (c.w->doc ? results_load_empty : results_load)("report", &set, c.pos[0]);
	if (ec >= 0) {
		vd_known_free(&kn);
		vd_criteria_free(&vc);
		return ec;
	}
	const struct rep_run *r = set.nruns || c.run ? rep_find(&set, c.run) : &none;
	if (!r) {
		char runs[20 * 20 + 32];

		list_runs(&set, runs, sizeof(runs));
		fsb_msg("report %s: no run '%s'%s", set.path, c.run, runs);
		rep_free(&set);
		vd_known_free(&kn);
		vd_criteria_free(&vc);
		return EXIT_USAGE;
	}
	if (vc.n || c.w->doc || c.w->figures) {
		/* the checks asked for, else (junit, html) the run's own verdict record */
		int got = vc.n ? (vd_evaluate(&vc, r, &res) || vd_check_run(&res, r) ? -ENOMEM : 1)
			       : vd_result_of_run(r, &res);
		if (got < 0) {
			rep_free(&set);
			vd_known_free(&kn);
			vd_criteria_free(&vc);
			return fsb_fail(EXIT_SYSTEM, "report %s: %s", set.path, strerror(ENOMEM));
		}
		if (got)
			v = &res;
		if (v && c.known)
			vd_known_apply(&kn, vc.n ? &vc : NULL, r, v, c.strict);
	}
	vd_known_free(&kn);
	vd_criteria_free(&vc);
	if (rep_print_checks(stdout, r, c.w, v)) {
		fsb_msg("report %s: %s", set.path, strerror(ENOMEM));
		if (v)
			vd_result_free(v);
		rep_free(&set);
		return EXIT_SYSTEM;
	}
	if (v)
		vd_result_free(v);
	ec = results_flush("report");
	/* nothing to report is an error, never 1 (a FAIL); a refused run, or one
	 * that does not measure the small-file rounds, is complete without phases */
	if (!ec && !set.nruns) {
		fsb_msg("report %s: no records", set.path);
		ec = EXIT_ERROR;
	} else if (!ec && !r->nph && rep_measures(r, REP_M_SMALLFILE) &&
		   !(r->status && strcmp(r->status, "refused") == 0)) {
		fsb_msg("report %s: run %s has no phase records",
			set.path, r->run_id);
		ec = EXIT_ERROR;
	}
	rep_free(&set);
	return ec;
}

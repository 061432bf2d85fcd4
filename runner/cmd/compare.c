/* compare.c: `fsbench compare A B [C ...]`: runs side by side, flagged
 * where a change is beyond both the tolerance and the noise of the rounds,
 * or one run against the published reference (--reference). */
#include "cmd/results.h"
#include "fsbench.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: fsbench compare A B [C ...] [--format %1$s] [--tolerance PCT] [--fail-on-regression]\n"
	"       fsbench compare --reference B [--format %1$s] [--tolerance PCT] [--fail-on-regression]\n"
	"       fsbench compare FILE [--format %1$s] [--tolerance PCT] [--fail-on-regression]\n"
	"  A, B, C ...  run folders, .jsonl files, serial logs, results logs, raw log\n"
	"               partitions or GPT disk images (the last run of each; at most 26):\n"
	"               each later run against A, per filesystem and summary row\n"
	"  FILE         one input of several runs (a results log of runs one after another, a\n"
	"               .jsonl): every run in it, the first as A (at most 26)\n"
	"  --reference  A is the published figures of runner/SUITE.md (seed profile,\n"
	"               kernel 6.17, loop --direct-io=on over a file on NVMe)\n"
	"  --format F   %2$s\n"
	"  --tolerance PCT  a row is flagged slower or faster only when its median\n"
	"               differs from A's by more than PCT percent of A (default 10%%)\n"
	"               and by more than the spread (slowest - fastest round) of\n"
	"               either run's rounds of it (a row of one round: the spread of\n"
	"               its phase's other row, else of all the phase's rounds)\n"
	"  --fail-on-regression  exit 1 when a row of a later run is flagged slower\n";

int cmd_compare(int argc, char **argv)
{
	struct results_cli c = { .cmd = "compare", .usage = usage, .maxpos = REP_CMP_MAX,
				 .minpos = 1, .allow_ref = 1, .allow_gate = 1 };
	struct rep_set sets[REP_CMP_MAX];
	struct rep_cmp_run runs[REP_CMP_MAX];
	struct rep_cmp_count count[REP_CMP_MAX];
	size_t nsets = 0, n;
	int ec = results_parse(&c, argc, argv);

	if (ec >= 0)
		return ec;
	if (c.reference) {
		char err[256];
		if (rep_load_reference(&sets[0], err, sizeof(err))) {
			fsb_msg("compare: %s", err);
			rep_free(&sets[0]);
			return EXIT_SYSTEM;
		}
		nsets = 1;
	}
	n = nsets + c.npos;
	for (size_t i = 0; i < c.npos; i++) {
		ec = results_load("compare", &sets[nsets], c.pos[i]);
		if (ec >= 0)
			goto out;
		nsets++;
	}
	ec = -1;
	if (n == 1) {	/* one input: the runs in it */
		if (sets[0].nruns < 2) {	/* one run: B is missing, as ever */
			fsb_msg("compare: missing B");
			results_usage(&c, stderr);
			ec = EXIT_USAGE;
			goto out;
		}
		if (sets[0].nruns > REP_CMP_MAX) {
			fsb_msg("compare %s: %zu runs in it, at most %d at once", sets[0].path,
				sets[0].nruns, REP_CMP_MAX);
			ec = EXIT_USAGE;
			goto out;
		}
		n = sets[0].nruns;
	}
	for (size_t i = 0; i < n; i++) {
		runs[i].run = nsets == 1 ? sets[0].runs[i] : rep_find(&sets[i], NULL);
		runs[i].name = sets[nsets == 1 ? 0 : i].path;
		if (!runs[i].run->nph) {	/* every empty run is named */
			fsb_msg("compare %s: run %s has no phase records", runs[i].name,
				runs[i].run->run_id);
			ec = EXIT_FAIL;
		}
	}
	if (ec >= 0)
		goto out;
	if (rep_print_compare(stdout, runs, n, c.tolerance, c.w, count)) {
		ec = fsb_fail(EXIT_SYSTEM, "compare: %s", strerror(ENOMEM));
		goto out;
	}
	if ((ec = results_flush("compare")))
		goto out;
	if (c.fail_on_regression) {
		for (size_t i = 1; i < n; i++)
			if (count[i].slower) {
				fsb_msg("compare: %c (%s): %zu row%s slower than A beyond the tolerance"
					" (%g%%) and the spread of the rounds", (char)('A' + i),
					runs[i].name, count[i].slower, count[i].slower == 1 ? "" : "s",
					c.tolerance * 100);
				ec = EXIT_FAIL;
			}
	}
out:
	for (size_t i = 0; i < nsets; i++)
		rep_free(&sets[i]);
	return ec;
}

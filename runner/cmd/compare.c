/* compare.c: `fsbench compare A B [C ...]` and `fsbench compare A1 A2 -- B1
 * B2`: runs, or groups of runs, side by side, a row flagged where a change
 * is beyond the tolerance and significant, and the runs' conditions
 * compared; or one run against the published reference (--reference). */
#include "cmd/results.h"
#include "fsbench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: fsbench compare A B [C ...] [--format %1$s] [--tolerance PCT] [--fail-on-regression]\n"
	"                       [--control judge|report]\n"
	"       fsbench compare A1 [A2 ...] -- B1 [B2 ...] [-- C1 ...] [--format %1$s] [--tolerance PCT]\n"
	"                       [--fail-on-regression]\n"
	"       fsbench compare --reference B [--format %1$s] [--tolerance PCT] [--fail-on-regression]\n"
	"       fsbench compare FILE [--format %1$s] [--tolerance PCT] [--fail-on-regression]\n"
	"  A, B, C ...  run folders, .jsonl files, serial logs, results logs, raw log\n"
	"               partitions or GPT disk images (the last run of each; at most 26):\n"
	"               each later run against A, per filesystem and summary row\n"
	"  A1 ... -- B1 ...  groups: the inputs up to a '--' are one side (every run of\n"
	"               each input), their samples pooled; at most 26 sides, 64 inputs\n"
	"  FILE         one input of several runs (a results log of runs one after another, a\n"
	"               .jsonl): every run in it, the first as A (at most 26)\n"
	"  --reference  A is the published figures of runner/SUITE.md (seed profile,\n"
	"               kernel 6.17, loop --direct-io=on over a file on NVMe)\n"
	"  --format F   %2$s\n"
	"  --tolerance PCT  a row is flagged slower or faster only when the ratio of the\n"
	"               medians differs from 1 by more than PCT percent (default 10%%)\n"
	"               and the difference is significant: Mann-Whitney U over the\n"
	"               samples (a run, or a repetition of a run, is one: the median\n"
	"               of its rounds), p adjusted over the side's rows\n"
	"               (Benjamini-Hochberg) < 0.05; a row not flagged is decided when\n"
	"               its minimum detectable change (80 %% power) is within PCT,\n"
	"               else it cannot be decided and the runs a side that would are\n"
	"               given; a side whose control (the run's conditions) differs\n"
	"               from A's is judged relative to its control\n"
	"  --control M  judge (the default): as above; report: the conditions are\n"
	"               reported and every row judged on its own seconds - for sides\n"
	"               booted in turns whose kernels differ, where the control is\n"
	"               measured on each side's kernel and moves with the change\n"
	"  --fail-on-regression  exit 1 when a row of a later side is flagged slower;\n"
	"               else 5 when a row could not be decided (too few runs, or too\n"
	"               spread: the rows and the runs a side needed are named); 0 only\n"
	"               when every row was decided and none is slower\n";

/* The sides of the groups: every run of every input of a group. */
static int group_sides(const struct results_cli *c, struct rep_set *sets, struct rep_cmp_run *runs,
		       const struct rep_run ***mem, const char ***names)
{
	size_t total = 0, k = 0, nsides = c->ngroups + 1;
	for (size_t i = 0; i < c->npos; i++)
		total += sets[i].nruns;
	*mem = calloc(total + 1, sizeof(**mem));
	*names = calloc(total + 1, sizeof(**names));
	if (!*mem || !*names)
		return -ENOMEM;
	for (size_t s = 0; s < nsides; s++) {
		size_t from = s ? c->group_at[s - 1] : 0;
		size_t to = s < c->ngroups ? c->group_at[s] : c->npos, first = k;
		for (size_t i = from; i < to; i++)
			for (size_t r = 0; r < sets[i].nruns; r++) {
				(*mem)[k] = sets[i].runs[r];
				(*names)[k++] = sets[i].path;
			}
		runs[s] = (struct rep_cmp_run){ .run = (*mem)[first], .name = (*names)[first],
						.group = *mem + first, .names = *names + first,
						.ngroup = k - first };
	}
	return 0;
}

/* The runs of a side. */
static size_t side_runs(const struct rep_cmp_run *side)
{
	size_t n;
	rep_cmp_members(side, &n);
	return n;
}

int cmd_compare(int argc, char **argv)
{
	struct results_cli c = { .cmd = "compare", .usage = usage, .maxpos = REP_CMP_INPUTS,
				 .minpos = 1, .allow_ref = 1, .allow_gate = 1, .allow_groups = 1 };
	struct rep_set *sets = calloc(REP_CMP_INPUTS, sizeof(*sets));
	struct rep_cmp_run runs[REP_CMP_MAX];
	struct rep_cmp_count count[REP_CMP_MAX];
	const struct rep_run **mem = NULL;
	const char **names = NULL;
	size_t nsets = 0, n;
	int ec;

	if (!sets)
		return fsb_fail(EXIT_SYSTEM, "compare: %s", strerror(ENOMEM));
	memset(runs, 0, sizeof(runs));
	if ((ec = results_parse(&c, argc, argv)) >= 0)
		goto out;
	if (!c.ngroups && c.npos > REP_CMP_MAX) {
		fsb_msg("compare: %zu inputs, at most %d sides at once (groups: '--')", c.npos,
			REP_CMP_MAX);
		results_usage(&c, stderr);
		ec = EXIT_USAGE;
		goto out;
	}
	if (c.reference) {
		char err[256];
		if (rep_load_reference(&sets[0], err, sizeof(err))) {
			fsb_msg("compare: %s", err);
			rep_free(&sets[0]);
			ec = EXIT_SYSTEM;
			goto out;
		}
		nsets = 1;
		runs[0].fixed = 1;
	}
	n = nsets + c.npos;
	for (size_t i = 0; i < c.npos; i++) {
		ec = results_load("compare", &sets[nsets], c.pos[i]);
		if (ec >= 0)
			goto out;
		nsets++;
	}
	ec = -1;
	if (c.ngroups) {	/* groups: a side of every run of its inputs */
		n = c.ngroups + 1;
		if (group_sides(&c, sets, runs, &mem, &names)) {
			ec = fsb_fail(EXIT_SYSTEM, "compare: %s", strerror(ENOMEM));
			goto out;
		}
	} else if (n == 1) {	/* one input: the runs in it */
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
	for (size_t i = 0; i < n && !c.ngroups; i++) {
		runs[i].run = nsets == 1 ? sets[0].runs[i] : rep_find(&sets[i], NULL);
		runs[i].name = sets[nsets == 1 ? 0 : i].path;
	}
	for (size_t i = 0; i < n; i++) {
		size_t nm;
		const struct rep_run *const *m = rep_cmp_members(&runs[i], &nm);
		for (size_t k = 0; k < nm; k++)
			if (!m[k]->nph) {	/* every empty run is named */
				fsb_msg("compare %s: run %s has no phase records",
					runs[i].names ? runs[i].names[k] : runs[i].name, m[k]->run_id);
				ec = EXIT_ERROR;	/* nothing to judge, not a regression */
			}
	}
	if (ec >= 0)
		goto out;
	for (size_t i = 1; i < n; i++)
		runs[i].raw = c.control_report;
	if (rep_print_compare(stdout, runs, n, c.tolerance, c.w, count)) {
		ec = fsb_fail(EXIT_SYSTEM, "compare: %s", strerror(ENOMEM));
		goto out;
	}
	if ((ec = results_flush("compare")))
		goto out;
	if (c.fail_on_regression) {
		int undecided = 0;
		for (size_t i = 1; i < n; i++) {
			const struct rep_cmp_count *k = &count[i];
			if (k->slower) {
				fsb_msg("compare: %c (%s): %zu row%s slower than A beyond the tolerance"
					" (%g%%) and significant (p (BH) < 0.05)%s: %s",
					(char)('A' + i), runs[i].name, k->slower,
					k->slower == 1 ? "" : "s", c.tolerance * 100,
					k->conditions > 0 ? ", relative to the control" : "", k->slow_rows);
				ec = EXIT_FAIL;
			}
			if (k->undecided) {
				char need[64];
				if (k->need > REP_CMP_NEED_MAX)
					snprintf(need, sizeof(need), "more than %d", REP_CMP_NEED_MAX);
				else
					snprintf(need, sizeof(need), "%s%u", k->need_atleast ? "at least " : "",
						 k->need);
				fsb_msg("compare: %c (%s): %zu row%s cannot be decided with %zu run%s"
					" against %zu (their change could be beyond the tolerance, %g%%,"
					" unseen); %s runs a side would decide them: %s", (char)('A' + i),
					runs[i].name, k->undecided, k->undecided == 1 ? "" : "s",
					side_runs(&runs[i]), side_runs(&runs[i]) == 1 ? "" : "s",
					side_runs(&runs[0]), c.tolerance * 100, need, k->rows);
				undecided = 1;
			}
		}
		if (undecided && ec != EXIT_FAIL)
			ec = EXIT_ERROR;
	}
out:
	for (size_t i = 0; i < nsets; i++)
		rep_free(&sets[i]);
	free(sets);
	free(mem);
	free(names);
	return ec;
}

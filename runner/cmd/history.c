/* history.c: `fsbench history DIR`: one row per run folder (or .jsonl
 * file) of a results folder, sorted by date; `fsbench history FILE`: one
 * row per run of a file (records, a serial log, a results log); with
 * --changes, where the level of each filesystem's summary rows shifted
 * (report/compare/changes.h). */
#include "cmd/results.h"
#include "fsbench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
	"usage: fsbench history DIR|FILE [--format %1$s]\n"
	"       fsbench history DIR|FILE --changes [--significance P] [--permutations N]\n"
	"                       [--min-segment N] [--seed N] [--format %1$s]\n"
	"  DIR         a results folder: each run folder in it (DIR/NAME/records.jsonl,\n"
	"              with run.txt and verdict.txt when there) and each DIR/NAME.jsonl\n"
	"              is a row (its last run): date, board, kernel, target model,\n"
	"              profile, verdict, create, read and delete seconds per filesystem;\n"
	"              sorted by date. For a reader (md, html) the run's name links to\n"
	"              NAME/report.html, else NAME/report.md, else its records, relative\n"
	"              to DIR (fsbench history DIR --format html > DIR/index.html).\n"
	"              An entry that cannot be read is named on stderr and left out\n"
	"              (exit 4; 5 when it only holds no records)\n"
	"  FILE        a file of runs instead: records (.jsonl), a serial log, a results\n"
	"              log (fsbench run --log), a raw log partition or a whole GPT disk\n"
	"              image; each run in it is a row\n"
	"  --format F  %2$s\n"
	"  --changes   instead of the runs: per filesystem and summary row (seconds, median\n"
	"              of rounds), the runs where the level shifted, by E-divisive means\n"
	"              (Matteson and James 2014, a permutation test): the run where the new\n"
	"              level starts, the level before and after, their ratio, the p-value\n"
	"  --significance P  the p-value a change must reach: 0.01 or 1%% (default 0.01)\n"
	"  --permutations N  shuffles of the permutation test (default 199; at least\n"
	"              1/P - 1)\n"
	"  --min-segment N   runs on each side of a change, at least (default 3; 2 or more)\n"
	"  --seed N    the shuffles' seed (default 1): the same runs and seed, the same answer\n";

/* The options of --changes, taken out of argv (the rest stays for
 * results_parse, in order). */
struct changes_cli {
	int on, given;		/* --changes; a setting of it given */
	const char *given_name;
	struct rep_ediv_opts o;
};

/* A whole number in [lo, hi] from s, or -1. */
static int whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* The fewest permutations that can reach p-value sig: 1/(N+1) <= sig. */
static double ceil_perms(double sig)
{
	return ceil(1 / sig - 1 - 1e-9);
}

/* Take --changes and its settings out of argv (into av, *ac left).
 * Returns -1 to go on, or an exit code. */
static int changes_options(struct results_cli *c, struct changes_cli *ch, int argc, char **argv,
			   char **av, int *ac)
{
	static const char *const names[] = { "--significance", "--permutations", "--min-segment",
					     "--seed" };
	int opts = 1;

	rep_ediv_defaults(&ch->o);
	*ac = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		size_t k, klen;

		if (i == 0 || !opts || a[0] != '-') {
			av[(*ac)++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			opts = 0;
			av[(*ac)++] = argv[i];
			continue;
		}
		if (strcmp(a, "--changes") == 0) {
			ch->on = 1;
			continue;
		}
		const char *eq = strchr(a, '=');
		klen = eq ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strlen(names[k]) == klen && strncmp(a, names[k], klen) == 0)
				break;
		if (k == sizeof(names) / sizeof(names[0])) {
			av[(*ac)++] = argv[i];	/* results_parse's, with its value */
			if (!eq && (!strcmp(a, "--format") || !strcmp(a, "--run")) && i + 1 < argc)
				av[(*ac)++] = argv[++i];
			continue;
		}
		const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
		uint64_t u;
		if (!val)
			return results_misuse(c, "history: %s needs an argument", names[k]);
		ch->given = 1;
		ch->given_name = names[k];
		if (k == 0) {
			char *end;
			errno = 0;
			double p = strtod(val, &end);
			if (end != val && *end == '%' && !end[1]) {
				p /= 100;
				end++;
			}
			if (end == val || *end || errno || !(p > 0 && p < 1))
				return results_misuse(c, "history: --significance: expected a p-value between 0 "
					      "and 1 (0.01, or 1%%), got '%s'", val);
			ch->o.sig = p;
		} else if (k == 3) {
			if (whole(val, 0, UINT64_MAX, &u))
				return results_misuse(c, "history: --seed: expected a whole number, got '%s'", val);
			ch->o.seed = u;
		} else if (whole(val, k == 1 ? 1 : 2, k == 1 ? REP_EDIV_MAX_PERMS : 1000000, &u)) {
			return results_misuse(c, "history: %s: expected a whole number %s, got '%s'", names[k],
				      k == 1 ? "from 1 to 100000" : "of 2 or more", val);
		} else if (k == 1) {
			ch->o.perms = (unsigned)u;
		} else {
			ch->o.min_seg = (size_t)u;
		}
	}
	av[*ac] = NULL;
	if (ch->given && !ch->on)
		return results_misuse(c, "history: %s without --changes", ch->given_name);
	if (ch->on && rep_ediv_check(&ch->o))
		return results_misuse(c, "history: --permutations %u cannot reach --significance %g: the "
			      "smallest p-value is 1/(N+1); give at least %.0f", ch->o.perms,
			      ch->o.sig, ceil_perms(ch->o.sig));
	return -1;
}

int cmd_history(int argc, char **argv)
{
	struct results_cli c = { .cmd = "history", .usage = usage, .maxpos = 1, .posname = "DIR" };
	struct changes_cli ch = { 0 };
	struct rep_history h;
	char err[1024];
	char **av = calloc((size_t)argc + 1, sizeof(*av));
	int ac, ec, rc;
	size_t found = 0;

	if (!av)
		return fsb_fail(EXIT_SYSTEM, "history: %s", strerror(ENOMEM));
	ec = changes_options(&c, &ch, argc, argv, av, &ac);
	if (ec < 0)
		ec = results_parse(&c, ac, av);
	free(av);
	if (ec >= 0)
		return ec;
	struct stat st;
	if (stat(c.pos[0], &st) == 0 && !S_ISDIR(st.st_mode)) {	/* a file of runs */
		struct rep_set set;
		if ((ec = results_load("history", &set, c.pos[0])) >= 0)
			return ec;
		if (rep_history_of_file(&h, c.pos[0], &set)) {
			rep_history_free(&h);
			return fsb_fail(EXIT_SYSTEM, "history %s: %s", c.pos[0], strerror(ENOMEM));
		}
	} else if ((rc = rep_history_load(&h, c.pos[0], err, sizeof(err)))) {
		rep_history_free(&h);
		return fsb_fail(EXIT_SYSTEM, "history %s", err);
	}
	ec = EXIT_OK;
	for (size_t i = 0; i < h.nskip; i++) {
		fsb_msg("history %s: left out: %s", h.skip[i].name, h.skip[i].why);
		if (h.skip[i].fail ? ec == EXIT_OK : 1)
			ec = h.skip[i].fail ? EXIT_ERROR : EXIT_SYSTEM;
	}
	if (!h.n) {
		fsb_msg("history %s: no runs (run folders with records.jsonl, or .jsonl files)",
			c.pos[0]);
		if (ec == EXIT_OK)
			ec = EXIT_ERROR;
	} else if (ch.on ? rep_print_changes(stdout, &h, &ch.o, c.w, &found) :
		   rep_print_history(stdout, &h, c.w)) {
		ec = fsb_fail(EXIT_SYSTEM, "history: %s", strerror(ENOMEM));
	} else if ((rc = results_flush("history"))) {
		ec = rc;
	}
	rep_history_free(&h);
	return ec;
}

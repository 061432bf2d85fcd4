/* history.c: `fsbench history DIR`: one row per run folder (or .jsonl
 * file) of a results folder, sorted by date; `fsbench history FILE`: one
 * row per run of a file (records, a serial log, a results log). */
#include "cmd/results.h"
#include "fsbench.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
	"usage: fsbench history DIR|FILE [--format %1$s]\n"
	"  DIR         a results folder: each run folder in it (DIR/NAME/records.jsonl,\n"
	"              with run.txt and verdict.txt when there) and each DIR/NAME.jsonl\n"
	"              is a row (its last run): date, board, kernel, target model,\n"
	"              profile, verdict, create, read and delete seconds per filesystem;\n"
	"              sorted by date. For a reader (md, html) the run's name links to\n"
	"              NAME/report.html, else NAME/report.md, else its records, relative\n"
	"              to DIR (fsbench history DIR --format html > DIR/index.html).\n"
	"              An entry that cannot be read is named on stderr and left out\n"
	"              (exit 4; 1 when it only holds no records)\n"
	"  FILE        a file of runs instead: records (.jsonl), a serial log, a results\n"
	"              log (fsbench run --log), a raw log partition or a whole GPT disk\n"
	"              image; each run in it is a row\n"
	"  --format F  %2$s\n";

int cmd_history(int argc, char **argv)
{
	struct results_cli c = { .cmd = "history", .usage = usage, .maxpos = 1, .posname = "DIR" };
	struct rep_history h;
	char err[1024];
	int ec = results_parse(&c, argc, argv), rc;

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
			ec = h.skip[i].fail ? EXIT_FAIL : EXIT_SYSTEM;
	}
	if (!h.n) {
		fsb_msg("history %s: no runs (run folders with records.jsonl, or .jsonl files)",
			c.pos[0]);
		if (ec == EXIT_OK)
			ec = EXIT_FAIL;
	} else if (rep_print_history(stdout, &h, c.w)) {
		ec = fsb_fail(EXIT_SYSTEM, "history: %s", strerror(ENOMEM));
	} else if ((rc = results_flush("history"))) {
		ec = rc;
	}
	rep_history_free(&h);
	return ec;
}

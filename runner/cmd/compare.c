/* compare.c: `fsbench compare A B`: two runs side by side, or one against
 * the published reference (--reference). */
#include "cmd/results.h"
#include "fsbench.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: fsbench compare A B [--format %1$s]\n"
	"       fsbench compare --reference B [--format %1$s]\n"
	"  A, B         run folders or .jsonl files (the last run of each)\n"
	"  --reference  A is the published figures of runner/SUITE.md (seed profile,\n"
	"               kernel 6.17, loop --direct-io=on over a file on NVMe)\n"
	"  --format F   %2$s\n";

int cmd_compare(int argc, char **argv)
{
	struct results_cli c = { .cmd = "compare", .usage = usage, .maxpos = 2, .allow_ref = 1 };
	struct rep_set sa, sb;
	int ec = results_parse(&c, argc, argv);

	if (ec >= 0)
		return ec;
	if (c.reference) {
		char err[256];
		if (rep_load_reference(&sa, err, sizeof(err))) {
			fsb_msg("compare: %s", err);
			rep_free(&sa);
			return EXIT_SYSTEM;
		}
	} else {
		ec = results_load("compare", &sa, c.pos[0]);
		if (ec >= 0)
			return ec;
	}
	ec = results_load("compare", &sb, c.pos[c.reference ? 0 : 1]);
	if (ec >= 0) {
		rep_free(&sa);
		return ec;
	}
	const struct rep_run *a = rep_find(&sa, NULL), *b = rep_find(&sb, NULL);
	const struct rep_set *empty = !a->nph ? &sa : !b->nph ? &sb : NULL;
	if (empty) {
		const struct rep_run *e = empty == &sa ? a : b;
		fsb_msg("compare %s: run %s has no phase records",
			empty->path, e->run_id);
		ec = EXIT_FAIL;
	} else if (rep_print_compare(stdout, a, sa.path, b, sb.path, c.w)) {
		fsb_msg("compare: %s", strerror(ENOMEM));
		ec = EXIT_SYSTEM;
	} else {
		ec = results_flush("compare");
	}
	rep_free(&sa);
	rep_free(&sb);
	return ec;
}

/* results.h: what `fsbench report` and `fsbench compare` share
 * (results.c): their options, reading an input, and flushing the output. */
#ifndef FSB_CMD_RESULTS_H
#define FSB_CMD_RESULTS_H

#include <stddef.h>

#include "report/report.h"

struct results_cli {
	const char *cmd;	/* "report", "compare" */
	const char *usage;	/* a printf format: %1$s is the format names
				 * ("md|csv"), %2$s the same described */
	const char *pos[2];	/* the inputs named */
	size_t npos, maxpos;
	const struct rep_writer *w;	/* --format; NULL before parsing */
	const char *run;	/* --run */
	int allow_run;
	int allow_ref, reference;	/* compare --reference: A is built in */
};

/* The usage of c->cmd, to f. */
void results_usage(const struct results_cli *c, FILE *f);
/* Parse argv. Returns -1 to go on, or an exit code (usage printed). */
int results_parse(struct results_cli *c, int argc, char **argv);
/* Load one input; prints the error and returns an exit code, or -1. */
int results_load(const char *cmd, struct rep_set *set, const char *in);
/* Flush stdout: 0, or an exit code with the error printed. */
int results_flush(const char *cmd);

#endif

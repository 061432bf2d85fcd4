/* cmd.h: run a command's function (cmd_report, cmd_compare, ...) as main()
 * would, with its stdout and stderr captured, for the unit tests. */
#ifndef FSB_UNIT_CMD_H
#define FSB_UNIT_CMD_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"

/* argv ends with NULL; *out and *err get what it printed (caller frees).
 * Returns its exit code, or -1000 when nothing could be captured. */
static inline int run_cmd(int (*fn)(int, char **), char **argv, char **out, char **err)
{
	int argc = 0;
	while (argv[argc])
		argc++;
	FILE *fo = tmpfile(), *fe = tmpfile();
	if (!fo || !fe)
		return -1000;
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	int rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	FILE *fs[2] = { fo, fe };
	char **dst[2] = { out, err };
	for (int i = 0; i < 2; i++) {
		long n = ftell(fs[i]);
		if (n < 0)
			n = 0;
		*dst[i] = calloc(1, (size_t)n + 1);
		rewind(fs[i]);
		if (*dst[i] && fread(*dst[i], 1, (size_t)n, fs[i]) != (size_t)n)
			(*dst[i])[0] = '\0';
		fclose(fs[i]);
	}
	return rc;
}

/* A command's case: its arguments, its exit code, and what its stdout and
 * stderr must be (out, err) or hold (out_has, err_has); NULL: not looked
 * at. */
struct cmd_case {
	const char *argv[18];
	int rc;
	const char *out, *out_has, *err, *err_has;
};

/* Each case run through fn, each of its expectations a check; a case that
 * fails is named by its arguments on stderr. CMD_CASES(fn, table). */
#define CMD_CASES(fn, table) cmd_cases(fn, table, sizeof(table) / sizeof(table[0]))
static inline void cmd_cases(int (*fn)(int, char **), const struct cmd_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++, c++) {
		char *argv[18], *o, *e;
		int failed = unit_fail;
		size_t k = 0;

		for (; k < 17 && c->argv[k]; k++)
			argv[k] = (char *)c->argv[k];
		argv[k] = NULL;
		CHECK_EQ_U(run_cmd(fn, argv, &o, &e), c->rc);
		if (c->out)
			CHECK_STR(o, c->out);
		if (c->out_has)
			CHECK_CONTAINS(o, c->out_has);
		if (c->err)
			CHECK_STR(e, c->err);
		if (c->err_has)
			CHECK_CONTAINS(e, c->err_has);
		if (unit_fail != failed) {
			fprintf(stderr, "  in the case:");
			for (k = 0; c->argv[k]; k++)
				fprintf(stderr, " %s", c->argv[k]);
			fprintf(stderr, "\n");
		}
		free(o);
		free(e);
	}
}

#endif

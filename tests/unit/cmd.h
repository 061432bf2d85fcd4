/* cmd.h: run a command's function (cmd_report, cmd_compare, ...) as main()
 * would, with its stdout and stderr captured, for the unit tests. */
#ifndef FSB_UNIT_CMD_H
#define FSB_UNIT_CMD_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

#endif

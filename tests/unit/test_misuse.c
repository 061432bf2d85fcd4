/* test_misuse.c: every command says a misuse in one shape, through
 * fsb_misuse (lib/msg.h): "fsbench: CMD...: WHAT", then the command's usage,
 * exit 2. A --dir that is not there is misuse (2), not a refusal (3). */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "fsbench.h"
#include "unit.h"

/* Run fn with argv; check the exit code, the first line of stderr and the
 * start of its second line. */
static void misuse(int (*fn)(int, char **), char **argv, const char *first, const char *second)
{
	char *out = NULL, *err = NULL;
	int rc = run_cmd(fn, argv, &out, &err);

	CHECK_EQ_U(rc, EXIT_USAGE);
	if (err) {
		char *nl = strchr(err, '\n');
		CHECK(nl != NULL);
		if (nl) {
			*nl = 0;
			CHECK_STR(err, first);
			CHECK(strncmp(nl + 1, second, strlen(second)) == 0);
			if (strncmp(nl + 1, second, strlen(second)) != 0)
				fprintf(stderr, "  second line: %.80s\n", nl + 1);
		}
	}
	CHECK_STR(out, "");
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	(void)argc;
	/* a bad option, each command */
	static const struct {
		int (*fn)(int, char **);
		const char *argv[4], *first, *second;
	} bad[] = {
		{ cmd_run, { "run", "--bogus" }, "fsbench: run: unknown option '--bogus'", "usage: fsbench run --target DEV" },
		{ cmd_config, { "config", "--bogus" }, "fsbench: config: unknown option '--bogus'", "usage: fsbench run --target DEV" },
		{ cmd_report, { "report", "--bogus" }, "fsbench: report: unknown option '--bogus'", "usage: fsbench report RUN" },
		{ cmd_compare, { "compare", "--bogus" }, "fsbench: compare: unknown option '--bogus'", "usage: fsbench compare A B" },
		{ cmd_history, { "history", "--bogus" }, "fsbench: history: unknown option '--bogus'", "usage: fsbench history DIR" },
		{ cmd_verdict, { "verdict", "--bogus" }, "fsbench: verdict: unknown option '--bogus'", "usage: fsbench verdict RUN" },
		{ cmd_log, { "log", "extract", "--bogus" }, "fsbench: log extract: unknown option --bogus", "usage: fsbench log extract SRC" },
		{ cmd_log, { "log" }, "fsbench: log: missing command (extract, info, check or schema)", "usage: fsbench log extract SRC" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *a[4] = { 0 };

		for (size_t k = 0; k < 3 && bad[i].argv[k]; k++)
			a[k] = (char *)bad[i].argv[k];
		misuse(bad[i].fn, a, bad[i].first, bad[i].second);
	}
	/* run's misuse ends with where the options are */
	{
		char *out = NULL, *err = NULL;
		run_cmd(cmd_run, (char *[]){ "run", "--bogus", NULL }, &out, &err);
		static const char tail[] = "\ntry 'fsbench run --help' for the options and the settings\n";
		CHECK(err && strlen(err) > sizeof(tail) &&
		      !strcmp(err + strlen(err) - (sizeof(tail) - 1), tail));
		free(out);
		free(err);
	}

	/* --dir that is not there, or not a directory: misuse, nothing run */
	misuse(cmd_run, (char *[]){ "run", "--dir", "no-such-dir", "--profile", "smoke", NULL },
	       "fsbench: run --dir no-such-dir: No such file or directory",
	       "usage: fsbench run --target DEV");
	{
		FILE *f = fopen("a-file", "w");
		if (f)
			fclose(f);
	}
	misuse(cmd_run, (char *[]){ "run", "--dir", "a-file", "--profile", "smoke", NULL },
	       "fsbench: run --dir a-file: not a directory", "usage: fsbench run --target DEV");
	remove("a-file");

	/* workers from the profile, dirs from the command line: both named */
	{
		char *out = NULL, *err = NULL;
		int rc = run_cmd(cmd_config, (char *[]){ "config", "--show", "--profile", "smoke",
							 "--dirs", "2", NULL }, &out, &err);
		CHECK_EQ_U(rc, EXIT_USAGE);
		CHECK_STR(err, "fsbench: config workers=4 (profile smoke) and dirs=2 (command line --dirs): "
			  "more workers than dirs; allowed: workers from 1 to dirs\n");
		free(out);
		free(err);
	}
	return unit_done(argv[0]);
}

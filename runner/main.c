/* main.c: `fsbench COMMAND ...` dispatch, --version, and `fsbench help`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsbench.h"
#include "report/verdict/criteria.h"
#include "fsb_build.h"	/* FSB_BUILD: `git describe` of the tree built, written by the Makefile */

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "format the target and run the small-file suite" },
	{ "config", cmd_config, "print the merged settings (config --show)" },
	{ "log", cmd_log, "read a results log back (log extract, info); check records (log check, schema)" },
	{ "report", cmd_report, "the runner/SUITE.md tables from a run's records" },
	{ "compare", cmd_compare, "runs or groups of runs side by side, flagged when significant, or one against runner/SUITE.md" },
	{ "history", cmd_history, "one row per run of a results folder, by date" },
	{ "verdict", cmd_verdict, "PASS, FAIL or ERROR for a run, against a criteria file or a baseline run" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "fsbench %s: small-file filesystem benchmark (ext4, xfs, btrfs, f2fs)\n\n"
		   "usage: fsbench COMMAND [options]   (fsbench COMMAND --help for each)\n\n",
		FSB_VERSION);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nexamples:\n"
		   "  fsbench run --target /dev/loop3 --fs ext4,xfs --profile seed --log results.log --yes\n"
		   "  fsbench run --dir /mnt/scratch --profile smoke\n"
		   "  fsbench log extract results.log -o results/run-1/\n"
		   "  fsbench report results/run-1/\n"
		   "  fsbench compare results/run-1/ results/run-2/ --fail-on-regression\n"
		   "  fsbench history results/\n"
		   "  fsbench verdict results/run-1/ --criteria board/qemu-x86_64/criteria.conf\n"
		   "\n");
	fsb_exit_codes_print(f, DOC_TEXT);
}

static void usage_of(FILE *f, const void *arg)
{
	(void)arg;
	usage(f);
}

/* A misuse of fsbench itself: fsb_misuse with the usage above. */
__attribute__((format(printf, 1, 2)))
static int misuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsb_vmisuse_by(usage_of, NULL, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

static void commands_print(FILE *f, enum fsb_doc_fmt fmt)
{
	if (fmt == DOC_MARKDOWN)
		fputs("| command | what it does |\n|---|---|\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		switch (fmt) {
		case DOC_TEXT:
			fprintf(f, "%-8s %s\n", commands[i].name, commands[i].help);
			break;
		case DOC_MARKDOWN:
			fprintf(f, "| `%s` | ", commands[i].name);
			fsb_doc_put(f, fmt, commands[i].help);
			fputs(" |\n", f);
			break;
		case DOC_SCDOC:
			fprintf(f, "%s*%s*\n\t", i ? "\n" : "", commands[i].name);
			fsb_doc_put(f, fmt, commands[i].help);
			fputc('\n', f);
			break;
		}
	}
}

/* `fsbench help [TOPIC [--markdown|--scdoc]]`: the usage, or one of the
 * tables the manual's pages and the man page are generated from. */
static int cmd_help(int argc, char **argv)
{
	static const char topics[] = "commands, exit-codes, criteria";
	static const char help_usage[] =
		"usage: fsbench help [commands|exit-codes|criteria] [--markdown|--scdoc]\n";
	int fmt = DOC_TEXT;

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 3)
		return fsb_misuse(help_usage, "help: too many arguments ('%s')", argv[3]);
	if (argc == 3 && (fmt = fsb_doc_fmt_option(argv[2])) < 0)
		return fsb_misuse(help_usage, "help %s: unknown option '%s'", argv[1], argv[2]);
	if (!strcmp(argv[1], "commands"))
		commands_print(stdout, (enum fsb_doc_fmt)fmt);
	else if (!strcmp(argv[1], "exit-codes"))
		fsb_exit_codes_print(stdout, (enum fsb_doc_fmt)fmt);
	else if (!strcmp(argv[1], "criteria"))
		vd_keys_doc(stdout, (enum fsb_doc_fmt)fmt);
	else
		return fsb_misuse(help_usage, "help %s: no such topic (%s; the settings: "
				  "fsbench config --markdown)", argv[1], topics);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return misuse("missing command");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "help"))
		return cmd_help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version")) {
		printf("fsbench %s (build %s)\n", FSB_VERSION, FSB_BUILD);
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return misuse("unknown command '%s'", argv[1]);
}

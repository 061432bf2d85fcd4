/* main.c: `fsbench COMMAND ...` dispatch. */
#include <stdio.h>
#include <string.h>

#include "fsbench.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "format the target and run the small-file suite" },
	{ "config", cmd_config, "print the merged settings (config --show)" },
	{ "log", cmd_log, "read a results log back (log extract, log info)" },
	{ "report", cmd_report, "the SUITE.md tables from a run's records" },
	{ "compare", cmd_compare, "two runs side by side, or one against SUITE.md (--reference)" },
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
		   "\n");
	fsb_exit_codes_print(f, DOC_TEXT);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("fsbench %s\n", FSB_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fsb_msg("unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

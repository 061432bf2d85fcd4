/* cmd/options.c: the settings options that `fsbench run` and `fsbench
 * config` share: --KEY=VALUE, --config, --cmdline, merged into one config. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/options.h"
#include "fsbench.h"

const char fsb_run_synopsis[] =
	"usage: fsbench run --target DEV [options]    format DEV and run the suite on it\n"
	"       fsbench run --dir DIR [options]       run in an existing directory (warm cache)\n"
	"       fsbench config --show [options]       print the merged settings and their sources\n"
	"       fsbench config --get KEY [options]    print one merged setting\n"
	"       fsbench config --markdown|--scdoc     the settings table below, for the docs\n"
	"       fsbench config --filesystems          print the filesystem table (name, mkfs,\n"
	"                                             Debian package, modules, files, evidence\n"
	"                                             tools; tab-separated)\n"
	"       fsbench config --variants [--markdown|--scdoc]  the built-in variants\n"
	"                                             (name, base, mkfs, mount, what; tab-separated)\n";

/* After a misuse: the synopsis and where the rest is. */
static const char fsb_run_misuse_usage[] = "try 'fsbench run --help' for the options and the settings\n";

const char fsb_run_options[] =
	"\n"
	"options:\n"
	"  --target SPEC       the disk to destroy: /dev/NAME, path:P, partlabel:L, serial:S,\n"
	"                      wwn:W or model:GLOB (exactly one disk must match)\n"
	"  --dir DIR           an existing directory instead of a target: no mkfs, no remount\n"
	"  --fs LIST           filesystems, e.g. ext4,xfs (default: the profile's)\n"
	"  --profile NAME      seed (runner/SUITE.md reference workload), smoke (CI-sized),\n"
	"                      explain (seed with the remedies), tuning (every filesystem\n"
	"                      and its variants as columns), fio (the fio workloads), fill\n"
	"                      (the fill test)\n"
	"  --log PATH          crash-safe results log: file, raw partition or partlabel:NAME\n"
	"  --yes               really format the target (otherwise: say what would be destroyed)\n"
	"  --config FILE       read key = value settings from FILE\n"
	"  --cmdline[=FILE]    read fsbench.KEY=VALUE words from /proc/cmdline (or FILE)\n"
	"  --KEY=VALUE         any setting below, e.g. --rounds=1 --mount_opts.ext4=noatime\n"
	"  -h, --help          this help\n"
	"\n"
	"Layers, lowest first: defaults < profile < --config < --cmdline < options.\n"
	"\n"
	"settings:\n";

int fsb_run_misuse(const char *fmt, ...)
{
	static char usage[sizeof(fsb_run_synopsis) + sizeof(fsb_run_misuse_usage)];
	va_list ap;

	snprintf(usage, sizeof(usage), "%s%s", fsb_run_synopsis, fsb_run_misuse_usage);
	va_start(ap, fmt);
	fsb_vmisuse(usage, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* Parse the command line into layers and merge them. Returns -1 after
 * printing help (exit 0), an exit code > 0 on error, 0 when cfg is ready. */
int fsb_parse_settings(int argc, char **argv, struct fsb_config *cfg, int *show, const char **get)
{
	static struct fsb_layer lfile, lcmd, lcli;
	struct fsb_layer *layers[3];
	char err[512];
	const char *config_file = NULL, *cmdline_file = NULL;
	size_t nl = 0;
	int rc = 0;

	lfile.src = SRC_FILE;
	lcmd.src = SRC_CMDLINE;
	lcli.src = SRC_CLI;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char key[128], *eq;
		const char *val;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(fsb_run_synopsis, stdout);
			fputs(fsb_run_options, stdout);
			fsb_config_help(stdout);
			return -1;
		}
		if (show && !strcmp(a, "--show")) {
			*show = 1;
			continue;
		}
		if (get && !strcmp(a, "--get")) {
			if (i + 1 >= argc)
				return fsb_run_misuse("config: option '%s' needs a key", a);
			*get = argv[++i];
			continue;
		}
		if (!strcmp(a, "--yes") || !strcmp(a, "-y")) {
			if (fsb_layer_add(&lcli, "yes", "1", "command line", err, sizeof(err)) < 0)
				return fsb_run_misuse("%s", err);
			continue;
		}
		if (!strncmp(a, "--cmdline", 9) && (a[9] == 0 || a[9] == '=')) {
			cmdline_file = a[9] ? a + 10 : "/proc/cmdline";
			continue;
		}
		if (strncmp(a, "--", 2) != 0 || !a[2])
			return fsb_run_misuse("%s: unexpected argument '%s'", argv[0], a);
		snprintf(key, sizeof(key), "%s", a + 2);
		eq = strchr(key, '=');
		if (eq) {
			*eq = 0;
			val = strchr(a, '=') + 1;
		} else {
			if (!strcmp(key, "config") || fsb_config_known(key)) {
				if (i + 1 >= argc)
					return fsb_run_misuse("%s: option '%s' needs a value", argv[0], a);
				val = argv[++i];
			} else {
				val = NULL;
			}
		}
		if (!strcmp(key, "config")) {
			config_file = val;
			continue;
		}
		if (!fsb_config_known(key))
			return fsb_run_misuse("%s: unknown option '%s'", argv[0], a);
		char where[160];
		snprintf(where, sizeof(where), "command line --%s", key);
		if (fsb_layer_add(&lcli, key, val, where, err, sizeof(err)) < 0)
			return fsb_run_misuse("%s", err);
	}
	if (config_file) {
		if (fsb_layer_file(&lfile, config_file, err, sizeof(err)) < 0) {
			rc = fsb_fail(EXIT_USAGE, "%s", err);
			goto out;
		}
		layers[nl++] = &lfile;
	}
	if (cmdline_file) {
		if (fsb_layer_cmdline(&lcmd, cmdline_file, err, sizeof(err)) < 0) {
			rc = fsb_fail(EXIT_USAGE, "%s", err);
			goto out;
		}
		layers[nl++] = &lcmd;
	}
	layers[nl++] = &lcli;
	if (fsb_config_merge(cfg, layers, nl, err, sizeof(err)) < 0)
		rc = fsb_fail(EXIT_USAGE, "config %s", err);
out:
	fsb_layer_free(&lfile);
	fsb_layer_free(&lcmd);
	fsb_layer_free(&lcli);
	return rc;
}


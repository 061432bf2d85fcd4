/* cmd/config.c: `fsbench config`: the merged settings and where each came
 * from; `config --markdown|--scdoc`: the settings table for the docs;
 * `config --filesystems`: the filesystem table, for the image build and the
 * tests; `config --variants`: the built-in variants (run/fs/variant.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/options.h"
#include "fsbench.h"
#include "run/fs/fs.h"
#include "run/fs/variant.h"

int cmd_config(int argc, char **argv)
{
	static struct fsb_config cfg;
	const char *get = NULL;
	char val[FSB_PATH_MAX + 8];
	int show = 0, rc, fmt;

	/* the settings table for the docs (runner/SETTINGS.md, man page), alone */
	if (argc > 1 && (fmt = fsb_doc_fmt_option(argv[1])) >= 0) {
		if (argc > 2)
			return fsb_run_misuse("config %s: takes no other argument", argv[1]);
		fsb_config_doc(stdout, (enum fsb_doc_fmt)fmt);
		return EXIT_OK;
	}
	/* the built-in variants, alone: as text, or the docs' table */
	if (argc > 1 && !strcmp(argv[1], "--variants")) {
		fmt = DOC_TEXT;
		if (argc > 2 && (fmt = fsb_doc_fmt_option(argv[2])) < 0)
			return fsb_run_misuse("config --variants: unexpected argument '%s'", argv[2]);
		if (argc > 3)
			return fsb_run_misuse("config --variants: unexpected argument '%s'", argv[3]);
		if (fsb_variant_doc(stdout, (enum fsb_doc_fmt)fmt) < 0)
			return fsb_fail(EXIT_SYSTEM, "config --variants: write: %s", strerror(errno));
		return EXIT_OK;
	}
	/* the filesystem table, alone */
	if (argc > 1 && !strcmp(argv[1], "--filesystems")) {
		if (argc > 2)
			return fsb_run_misuse("config --filesystems: unexpected argument '%s'", argv[2]);
		if (fsb_fs_write_table(stdout) < 0)
			return fsb_fail(EXIT_SYSTEM, "config --filesystems: write: %s", strerror(errno));
		return EXIT_OK;
	}
	rc = fsb_parse_settings(argc, argv, &cfg, &show, &get);
	if (rc < 0)
		return EXIT_OK;
	if (rc)
		return rc;
	if (get) {
		if (fsb_config_get(&cfg, get, val, sizeof(val)) < 0)
			return fsb_run_misuse("config --get %s: unknown key", get);
		printf("%s\n", val);
		return EXIT_OK;
	}
	if (!show)
		return fsb_run_misuse("config: nothing to do; use 'fsbench config --show|--get KEY [options]'");
	fsb_config_show(&cfg, 1);
	return EXIT_OK;
}


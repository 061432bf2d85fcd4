/* cmd/logcheck.c: `fsbench log check FILE...`: every record of a run's
 * records (a .jsonl, a serial log, a results log) against the schema table
 * (log/schema.c); `fsbench log schema [--markdown] [TYPE...]`: the table,
 * as text or as FORMATS.md's Markdown. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/options.h"
#include "cmd/results.h"
#include "fsbench.h"
#include "lib/msg.h"
#include "log/logfile.h"
#include "log/schema.h"
#include "log/validate.h"

struct where {
	const char *file;
	const char *unit;	/* "" for a line of text, "record " for a log's record */
	size_t n;
	unsigned long violations, records;
};

static void say(void *arg, const char *msg)
{
	struct where *w = arg;

	printf("%s:%s%zu: %s\n", w->file, w->unit, w->n, msg);
	w->violations++;
}

static int check_one(struct where *w, const char *text, size_t len, unsigned flags)
{
	const char *brace = memchr(text, '{', len);

	if (!brace)
		return 0;	/* console noise */
	len -= (size_t)(brace - text);
	while (len && (brace[len - 1] == '\r' || brace[len - 1] == '\n'))
		len--;
	w->records++;
	return fsb_check_text(brace, len, flags, say, w) < 0 ? -ENOMEM : 0;
}

struct logarg {
	struct where *w;
	unsigned flags;
	int err;
};

static int on_log_record(void *arg, const struct fsb_log_rec *r)
{
	struct logarg *a = arg;

	a->w->n++;
	a->err = check_one(a->w, r->data, r->len, a->flags);
	return a->err != 0;
}

/* One file: a results log (its magic) read record by record, or text read
 * line by line (a line without a '{' is console noise; a record starts at
 * its first '{', after a console prefix). 0, or the exit code of a failure
 * to read it. */
static int check_file(const char *path, unsigned flags, struct where *w)
{
	if (results_sniff_path(path, NULL, 0) == RESULTS_LOG) {
		struct fsb_log_stats st;
		struct logarg a = { w, flags, 0 };
		w->unit = "record ";
		int e = fsb_log_read(path, on_log_record, &a, &st);
		if (e < 0 || a.err < 0)
			return fsb_fail(EXIT_SYSTEM, "log check %s: %s", path,
					st.detail[0] && e < 0 ? st.detail : strerror(e < 0 ? -e : -a.err));
		return 0;
	}
	FILE *f = fopen(path, "r");

	if (!f)
		return fsb_fail(EXIT_SYSTEM, "log check %s: %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) >= 0) {
		w->n++;
		if (check_one(w, line, (size_t)n, flags) < 0) {
			free(line);
			fclose(f);
			return fsb_fail(EXIT_SYSTEM, "log check %s: %s", path, strerror(ENOMEM));
		}
	}
	int rerr = ferror(f) ? errno : 0;
	free(line);
	fclose(f);
	if (rerr)
		return fsb_fail(EXIT_SYSTEM, "log check %s: %s", path, strerror(rerr));
	return 0;
}

int cmd_log_check(int argc, char **argv)
{
	unsigned flags = 0;
	int i = 2, files = 0, rc = EXIT_OK;
	unsigned long bad = 0, records = 0;

	if (i < argc && !strcmp(argv[i], "--names")) {
		flags |= FSB_CHECK_NAMES;
		i++;
	}
	if (i >= argc)
		return fsb_misuse(fsb_log_usage, "log check: no FILE (a records.jsonl, a serial log or a results log)");
	for (; i < argc; i++) {
		struct where w = { .file = argv[i], .unit = "" };
		int e = check_file(argv[i], flags, &w);
		if (e)
			return e;
		files++;
		bad += w.violations;
		records += w.records;
		if (!w.records) {
			printf("%s: no record\n", argv[i]);
			bad++;
		}
	}
	if (fflush(stdout))
		return fsb_fail(EXIT_SYSTEM, "log check: write stdout: %s", strerror(errno));
	fsb_msg("log check: %lu records in %d file%s, %lu violation%s of the schema%s", records,
		files, files == 1 ? "" : "s", bad, bad == 1 ? "" : "s",
		flags & FSB_CHECK_NAMES ? " (names only)" : "");
	if (bad)
		rc = EXIT_FAIL;
	return rc;
}

int cmd_log_schema(int argc, char **argv)
{
	enum fsb_doc_fmt fmt = DOC_TEXT;
	int i = 2, f;
	const char *bad = NULL;

	if (i < argc && (f = fsb_doc_fmt_option(argv[i])) >= 0) {
		if (f == DOC_SCDOC)
			return fsb_misuse(fsb_log_usage, "log schema: --scdoc: not a format of the schema (--markdown)");
		fmt = (enum fsb_doc_fmt)f;
		i++;
	}
	for (int k = i; k < argc; k++)
		if (argv[k][0] == '-')
			return fsb_misuse(fsb_log_usage, "log schema: unknown option %s", argv[k]);
	int e = fsb_schema_doc(stdout, fmt, (const char *const *)argv + i, (size_t)(argc - i), &bad);
	if (e == -EINVAL)
		return fsb_misuse(fsb_log_usage, "log schema: %s: no such record type (fsbench log schema lists them)",
				       bad);
	if (e < 0 || fflush(stdout))
		return fsb_fail(EXIT_SYSTEM, "log schema: write stdout: %s", strerror(EIO));
	return EXIT_OK;
}

/* cmd_log.c: `fsbench log extract|info`: read records back from a log file,
 * a raw log partition, or a whole GPT disk image. The only part of the log
 * code that prints. `log check` and `log schema` are cmd/logcheck.c's. */
#include "fsbench.h"
#include "lib/msg.h"
#include "log/logfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char fsb_log_usage[] =
	"usage: fsbench log extract SRC [-o DIR] [--run RUNID | --last]\n"
	"       fsbench log info SRC\n"
	"       fsbench log check [--names] FILE...\n"
	"       fsbench log schema [--markdown] [TYPE...]\n"
	"\n"
	"SRC is a log file, a raw log partition, or a whole GPT disk image (its\n"
	"partition named " FSB_LOG_PARTLABEL " is read). Records are read from the\n"
	"start up to the first block that does not check out.\n"
	"\n"
	"extract  records to stdout, one JSON record per line; summary to stderr\n"
	"  -o DIR       create DIR and write DIR/records.jsonl and DIR/summary.txt\n"
	"               instead (the summary is still printed to stderr)\n"
	"  --run RUNID  only the records of run RUNID (16 hex digits)\n"
	"  --last       only the records of the last run in the log\n"
	"info     the summary only: records, runs, where and why the read stopped,\n"
	"         space used\n"
	"check    every record of each FILE (a records.jsonl, a serial log, a results\n"
	"         log file) against the record schema: no unknown type or field,\n"
	"         every required field, each field's JSON type; one line per\n"
	"         violation, FILE:LINE: TYPE: WHAT (a results log: FILE:record N:)\n"
	"  --names      only unknown types and fields\n"
	"schema   the record schema: every type (or those named) and its fields\n"
	"  --markdown   as runner/FORMATS.md's table\n"
	"\n"
	"Exit: 0 ok (a log that ends in a bad block is reported, not a failure),\n"
	"      1 a record breaks the schema (check), 2 misuse,\n"
	"      4 cannot read SRC or write DIR.\n";

static void usage(FILE *f)
{
	fputs(fsb_log_usage, f);
}

__attribute__((format(printf, 2, 3)))
static int misuse(const char *what, const char *fmt, ...)
{
	char msg[1000];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fsb_misuse(fsb_log_usage, "%s: %s", what, msg);
}

/* ---- per-run tallies, in order of first appearance ---- */

struct run {
	uint64_t id, count, seq_min, seq_max, off_first, off_last;
};

struct ctx {
	FILE *out;		/* selected records go here (NULL: none) */
	int select;		/* 0 all, 1 only run `run` */
	uint64_t run;
	uint64_t selected;
	uint64_t last_run;	/* run id of the last record seen */
	struct run *runs;
	size_t nruns, cap;
	int err;		/* errno of a failed write or allocation */
};

static struct run *tally(struct ctx *c, uint64_t id)
{
	/* Runs come one after another: look from the most recent back. */
	for (size_t i = c->nruns; i-- > 0;)
		if (c->runs[i].id == id)
			return &c->runs[i];
	if (c->nruns == c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 8;
		struct run *n = realloc(c->runs, ncap * sizeof(*n));
		if (!n)
			return NULL;
		c->runs = n;
		c->cap = ncap;
	}
	struct run *r = &c->runs[c->nruns++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	return r;
}

static int on_record(void *arg, const struct fsb_log_rec *rec)
{
	struct ctx *c = arg;
	struct run *r = tally(c, rec->run_id);

	if (!r) {
		c->err = ENOMEM;
		return 1;
	}
	if (!r->count || rec->seq < r->seq_min)
		r->seq_min = rec->seq;
	if (!r->count || rec->seq > r->seq_max)
		r->seq_max = rec->seq;
	if (!r->count)
		r->off_first = rec->offset;
	r->off_last = rec->offset;
	r->count++;
	c->last_run = rec->run_id;

	if (c->select && rec->run_id != c->run)
		return 0;
	c->selected++;
	if (c->out && (fwrite(rec->data, 1, rec->len, c->out) != rec->len ||
		       putc('\n', c->out) == EOF)) {
		c->err = errno ? errno : EIO;
		return 1;
	}
	return 0;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The summary, as text (caller frees). */
static char *summary(const char *src, const struct fsb_log_stats *st, const struct ctx *c,
		     const char *selection, const char *dest)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "fsbench: log %s: %" PRIu64 " %s in %zu %s recovered; stopped at offset %"
		PRIu64 ": %s%s\n", src, st->records, plural(st->records, "record", "records"),
		c->nruns, plural(c->nruns, "run", "runs"), st->end_offset,
		fsb_log_end_name(st->end),
		st->end == LOG_END_CLEAN ? "" : " (records after this point, if any, are lost)");
	if (st->end != LOG_END_CLEAN && st->detail[0])
		fprintf(f, "  why: %s\n", st->detail);
	if (st->data_offset)
		fprintf(f, "  log: GPT partition " FSB_LOG_PARTLABEL " at byte %" PRIu64
			" of %s, %" PRIu64 " bytes\n", st->data_offset, src, st->capacity);
	else
		fprintf(f, "  log: starts at byte 0 of %s, %" PRIu64 " bytes\n", src, st->capacity);
	fprintf(f, "  space: %" PRIu64 " of %" PRIu64 " bytes used (%.1f%%)\n", st->end_offset,
		st->capacity, st->capacity ? 100.0 * (double)st->end_offset / (double)st->capacity : 0.0);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct run *r = &c->runs[i];
		fprintf(f, "  run %016" PRIx64 ": %" PRIu64 " %s, seq %" PRIu64 " to %" PRIu64
			"%s, offsets %" PRIu64 " to %" PRIu64 "\n", r->id, r->count,
			plural(r->count, "record", "records"), r->seq_min, r->seq_max,
			r->seq_max - r->seq_min + 1 == r->count ? "" : " (not contiguous)",
			r->off_first, r->off_last);
	}
	if (selection)
		fprintf(f, "  extracted: %" PRIu64 " %s (%s)%s%s\n", c->selected,
			plural(c->selected, "record", "records"), selection,
			dest ? " to " : "", dest ? dest : "");
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Write a whole file durably through path.tmp and rename. */
static int write_file_atomic(const char *path, const char *tmp, const char *text)
{
	size_t n = strlen(text);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	for (size_t done = 0; done < n;) {
		ssize_t w = write(fd, text + done, n - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			int err = -errno;
			close(fd);
			unlink(tmp);
			return err;
		}
		done += (size_t)w;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		int err = -errno;
		unlink(tmp);
		return err;
	}
	if (rename(tmp, path) < 0) {
		int err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int parse_run(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = strlen(s);

	if (n == 0 || n > 16)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d;
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

static int read_fail(const char *what, const char *src, int err, const struct fsb_log_stats *st)
{
	fsb_msg("%s %s: %s", what, src,
		st->detail[0] ? st->detail : strerror(-err));
	return EXIT_SYSTEM;
}

static int last_cb(void *arg, const struct fsb_log_rec *r)
{
	*(uint64_t *)arg = r->run_id;
	return 0;
}

static int do_log(int info, int argc, char **argv)
{
	const char *what = info ? "log info" : "log extract";
	const char *src = NULL, *dir = NULL, *run_arg = NULL;
	int last = 0, ret = EXIT_SYSTEM, err;
	struct ctx c = { 0 };
	struct fsb_log_stats st;
	char *jsonl = NULL, *tmp = NULL, *sumpath = NULL, *sumtmp = NULL, *text = NULL;
	char selection[64];
	int only_args = 0;

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || a[1] == '\0') {
			if (src)
				return misuse(what, "extra argument %s", a);
			src = a;
		} else if (!strcmp(a, "--")) {
			only_args = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (info) {
			return misuse(what, "unknown option %s", a);
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (++i >= argc)
				return misuse(what, "option %s needs a directory", a);
			dir = argv[i];
		} else if (!strncmp(a, "-o", 2)) {
			dir = a + 2;
		} else if (!strncmp(a, "--output=", 9)) {
			dir = a + 9;
		} else if (!strcmp(a, "--run")) {
			if (++i >= argc)
				return misuse(what, "option %s needs a run id", a);
			run_arg = argv[i];
		} else if (!strncmp(a, "--run=", 6)) {
			run_arg = a + 6;
		} else if (!strcmp(a, "--last")) {
			last = 1;
		} else {
			return misuse(what, "unknown option %s", a);
		}
	}
	if (!src)
		return misuse(what, "missing SRC");
	if (dir && !*dir)
		return misuse(what, "empty directory name for -o");
	if (run_arg && last)
		return misuse(what, "--run and --last exclude each other");
	if (run_arg && parse_run(run_arg, &c.run) < 0)
		return misuse(what, "--run %s: not a run id (up to 16 hex digits)", run_arg);

	selection[0] = 0;
	if (run_arg) {
		c.select = 1;
		snprintf(selection, sizeof(selection), "run %016" PRIx64, c.run);
	} else if (last) {
		uint64_t id = 0;
		err = fsb_log_read(src, last_cb, &id, &st);
		if (err)
			return read_fail(what, src, err, &st);
		c.select = 1;
		c.run = id;
		if (st.records)
			snprintf(selection, sizeof(selection), "last run %016" PRIx64, id);
		else
			snprintf(selection, sizeof(selection), "last run: none");
	} else if (!info) {
		snprintf(selection, sizeof(selection), "all runs");
	}

	if (dir) {
		size_t n = strlen(dir) + 32;
		jsonl = malloc(n);
		tmp = malloc(n);
		sumpath = malloc(n);
		sumtmp = malloc(n);
		if (!jsonl || !tmp || !sumpath || !sumtmp) {
			fsb_msg("%s %s: %s", what, src, strerror(ENOMEM));
			goto out;
		}
		snprintf(jsonl, n, "%s/records.jsonl", dir);
		snprintf(tmp, n, "%s/records.jsonl.tmp", dir);
		snprintf(sumpath, n, "%s/summary.txt", dir);
		snprintf(sumtmp, n, "%s/summary.txt.tmp", dir);
		if (mkdir(dir, 0755) < 0) {
			struct stat sb;
			if (errno != EEXIST || stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
				fsb_msg("create directory %s: %s", dir,
					strerror(errno == EEXIST ? ENOTDIR : errno));
				goto out;
			}
		}
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || !(c.out = fdopen(fd, "w"))) {
			fsb_msg("create %s: %s", tmp, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
	} else if (!info) {
		c.out = stdout;
	}

	err = fsb_log_read(src, on_record, &c, &st);
	if (err) {
		read_fail(what, src, err, &st);
		goto out;
	}
	if (c.err) {
		fsb_msg("write %s: %s", dir ? tmp : "stdout", strerror(c.err));
		goto out;
	}
	if (c.out) {
		int bad = fflush(c.out) != 0;
		if (!bad && dir)
			bad = fsync(fileno(c.out)) != 0;
		if (bad) {
			fsb_msg("write %s: %s", dir ? tmp : "stdout",
				strerror(errno));
			goto out;
		}
		if (dir) {
			FILE *f = c.out;
			c.out = NULL;
			if (fclose(f) != 0) {
				fsb_msg("write %s: %s", tmp, strerror(errno));
				goto out;
			}
		}
	}

	text = summary(src, &st, &c, selection[0] ? selection : NULL, jsonl);
	if (!text) {
		fsb_msg("%s %s: %s", what, src, strerror(ENOMEM));
		goto out;
	}
	if (dir) {
		/* summary.txt first: a records.jsonl always has its summary. */
		err = write_file_atomic(sumpath, sumtmp, text);
		if (err) {
			fsb_msg("write %s: %s", sumpath, strerror(-err));
			goto out;
		}
		if (rename(tmp, jsonl) < 0) {
			fsb_msg("rename %s: %s", tmp, strerror(errno));
			goto out;
		}
		sync_dir(dir);
	}
	fputs(text, info ? stdout : stderr);
	if (info && fflush(stdout) != 0) {
		fsb_msg("write stdout: %s", strerror(errno));
		goto out;
	}
	if (c.select && c.selected == 0)
		fsb_msg("%s %s: no records of the %s", what, src,
			run_arg ? "run asked for" : "last run");
	ret = EXIT_OK;
out:
	if (dir && c.out)
		fclose(c.out);
	if (dir && tmp && ret != EXIT_OK)
		unlink(tmp);
	free(text);
	free(c.runs);
	free(jsonl);
	free(tmp);
	free(sumpath);
	free(sumtmp);
	return ret;
}

int cmd_log(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub) {
		return misuse("log", "missing command (extract, info, check or schema)");
	}
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(sub, "extract"))
		return do_log(0, argc, argv);
	if (!strcmp(sub, "info"))
		return do_log(1, argc, argv);
	if (!strcmp(sub, "check"))
		return cmd_log_check(argc, argv);
	if (!strcmp(sub, "schema"))
		return cmd_log_schema(argc, argv);
	return misuse("log", "unknown command %s (extract, info, check or schema)", sub);
}

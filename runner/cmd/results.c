/* results.c: options and input shared by `fsbench report`, `compare`,
 * `history` and `verdict` (see results.h). */
#include "cmd/results.h"
#include "fsbench.h"
#include "log/logfile.h"
#include "run/fs/fs.h"
#include "run/engine/phase.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* c->usage to f with %1$s as a, %2$s as b and %% as %: the usage is a
 * template of the command's table, not a format checked by the compiler. */
static void usage_fill(FILE *f, const char *t, const char *a, const char *b)
{
	for (; *t; t++) {
		if (t[0] == '%' && t[1] == '%') {
			fputc('%', f);
			t++;
		} else if (t[0] == '%' && (t[1] == '1' || t[1] == '2') && t[2] == '$' && t[3] == 's') {
			fputs(t[1] == '1' ? a : b, f);
			t += 3;
		} else {
			fputc(*t, f);
		}
	}
}

void results_usage(const struct results_cli *c, FILE *f)
{
	char names[128], described[256];

	int tables = c->allow_criteria ? 0 : REP_NAMES_TABLES;

	rep_writer_names(names, sizeof(names), "|", "|", tables);
	rep_writer_names(described, sizeof(described), ", ", " or ", REP_NAMES_ABOUT | tables);
	usage_fill(f, c->usage, names, described);
}

static void usage_of(FILE *f, const void *arg)
{
	results_usage(arg, f);
}

/* "fsbench: WHAT" and the command's usage (fsb_misuse). */
int results_misuse(const struct results_cli *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsb_vmisuse_by(usage_of, c, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int results_parse(struct results_cli *c, int argc, char **argv)
{
	int opts = 1;

	c->w = &rep_writers[0];
	c->tolerance = REP_CMP_TOLERANCE;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		size_t klen;

		if (c->allow_groups && c->npos && strcmp(a, "--") == 0) {	/* a group ends */
			size_t from = c->ngroups ? c->group_at[c->ngroups - 1] : 0;
			if (c->npos == from)
				return results_misuse(c, "%s: no input between two '--'", c->cmd);
			if (c->ngroups + 1 == REP_CMP_MAX)
				return results_misuse(c, "%s: more than %d groups", c->cmd, REP_CMP_MAX);
			c->group_at[c->ngroups++] = c->npos;
			continue;
		}
		if (opts && strcmp(a, "--") == 0) {
			opts = 0;
			continue;
		}
		if (!opts || a[0] != '-' || strcmp(a, "-") == 0) {
			if (c->npos == c->maxpos) {
				if (c->maxpos > 2)
					return results_misuse(c, "%s: too many arguments ('%s'; at most %zu)",
						      c->cmd, a, c->maxpos);
				return results_misuse(c, "%s: too many arguments ('%s')", c->cmd, a);
			}
			c->pos[c->npos++] = a;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			results_usage(c, stdout);
			return EXIT_OK;
		}
		if (c->allow_criteria && strcmp(a, "--strict") == 0) {
			c->strict = 1;
			continue;
		}
		if (c->allow_gate && strcmp(a, "--fail-on-regression") == 0) {
			c->fail_on_regression = 1;
			continue;
		}
		if (c->allow_ref && strcmp(a, "--reference") == 0) {
			c->maxpos = 1;	/* A is given: B only */
			c->minpos = 1;
			c->reference = 1;
			if (c->npos > c->maxpos) {
				return results_misuse(c, "%s: --reference and two runs: give B only",
					c->cmd);
			}
			continue;
		}
		const char *eq = strchr(a, '=');
		klen = eq ? (size_t)(eq - a) : strlen(a);
		int is_fmt = klen == 8 && strncmp(a, "--format", 8) == 0;
		int is_run = c->allow_run && klen == 5 && strncmp(a, "--run", 5) == 0;
		int is_crit = c->allow_criteria && klen == 10 && strncmp(a, "--criteria", 10) == 0;
		int is_base = c->allow_criteria && klen == 10 && strncmp(a, "--baseline", 10) == 0;
		int is_tol = (c->allow_criteria || c->allow_gate) && klen == 11 &&
			     strncmp(a, "--tolerance", 11) == 0;
		int is_known = c->allow_criteria && klen == 7 && strncmp(a, "--known", 7) == 0;
		int is_ctl = c->allow_gate && klen == 9 && strncmp(a, "--control", 9) == 0;
		if (!is_fmt && !is_run && !is_crit && !is_base && !is_tol && !is_known && !is_ctl) {
			return results_misuse(c, "%s: unknown option '%s'", c->cmd, a);
		}
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			return results_misuse(c, "%s: %.*s needs an argument", c->cmd, (int)klen, a);
		}
		if (is_run) {
			c->run = val;
		} else if (is_crit) {
			c->criteria = val;
		} else if (is_base) {
			c->baseline = val;
		} else if (is_known) {
			c->known = val;
		} else if (is_ctl) {
			if (strcmp(val, "judge") && strcmp(val, "report"))
				return results_misuse(c, "%s: --control: judge or report, got '%s'", c->cmd, val);
			c->control_report = !strcmp(val, "report");
		} else if (is_tol) {
			if ((c->tolerance = vd_percent(val)) < 0) {
				return results_misuse(c, "%s: --tolerance: expected a percentage (10%%), got '%s'",
					c->cmd, val);
			}
		} else if (!(c->w = rep_writer_find(val))) {
			char names[128];
			rep_writer_names(names, sizeof(names), ", ", " or ",
					 c->allow_criteria ? 0 : REP_NAMES_TABLES);
			return results_misuse(c, "%s: unknown format '%s' (%s)", c->cmd, val, names);
		}
	}
	if (c->strict && !c->known)
		return results_misuse(c, "%s: --strict without --known", c->cmd);
	if (c->w->doc && !c->allow_criteria) {
		return results_misuse(c, "%s: format '%s' is for fsbench report", c->cmd, c->w->name);
	}
	if (c->ngroups && c->npos == c->group_at[c->ngroups - 1])
		return results_misuse(c, "%s: no input after the last '--'", c->cmd);
	if (c->ngroups && c->reference)
		return results_misuse(c, "%s: --reference and groups ('--'): give B only", c->cmd);
	if (c->npos < (c->minpos ? c->minpos : c->maxpos)) {
		return results_misuse(c, "%s: missing %s", c->cmd,
			c->posname ? c->posname : c->reference ? "B" : c->maxpos == 1 ? "RUN" :
			c->npos ? "B" : "A and B");
	}
	return -1;
}

/* ---- what an input is ---- */

#define SNIFF_LEN 4104	/* a GPT header's signature at 4096 (4 KiB sectors) */

/* Formats a user may have in hand instead of records, by their first bytes. */
static const struct {
	const char *magic;
	size_t len, off;
	const char *what;
} magics[] = {
	{ "\x7f" "ELF", 4, 0, "starts with 0x7f 'ELF': a program?" },
	{ "\x1f\x8b", 2, 0, "starts with 0x1f 0x8b: gzip-compressed? zcat it to a file first" },
	{ "\xfd" "7zXZ", 6, 0, "starts with 0xfd '7zXZ': xz-compressed? xzcat it to a file first" },
	{ "\x28\xb5\x2f\xfd", 4, 0, "starts with 0x28 0xb5 0x2f 0xfd: zstd-compressed? "
					   "zstdcat it to a file first" },
	{ "PK\x03\x04", 4, 0, "starts with 'PK': a zip archive? unzip it first" },
	{ "ustar", 5, 257, "a tar archive? unpack it first" },
	{ "\x89PNG", 4, 0, "starts with 0x89 'PNG': a picture" },
	{ "%PDF", 4, 0, "starts with '%PDF': a PDF document" },
	{ "hsqs", 4, 0, "starts with 'hsqs': a squashfs image" },
	{ "\x53\xef", 2, 1080, "an ext2/3/4 filesystem image: the results log is a raw "
				 "partition of its own (fsbench run --log), not a file system" },
};

/* The first bytes as "0x7f 0x45 ...", at most 4 of them. */
static void first_bytes(const unsigned char *head, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && i < 4 && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s0x%02x", i ? " " : "", head[i]);
}

enum results_kind results_sniff(const unsigned char *head, size_t n, char *what, size_t len)
{
	size_t zero = 0, odd = 0;
	char hex[32];

	if (len)
		what[0] = 0;
	if (n >= 8 && memcmp(head, FSB_LOG_MAGIC, 8) == 0)
		return RESULTS_LOG;
	if ((n >= 520 && memcmp(head + 512, "EFI PART", 8) == 0) ||
	    (n >= 4104 && memcmp(head + 4096, "EFI PART", 8) == 0))
		return RESULTS_GPT;
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (n >= magics[i].off + magics[i].len &&
		    memcmp(head + magics[i].off, magics[i].magic, magics[i].len) == 0) {
			snprintf(what, len, "%s", magics[i].what);
			return RESULTS_OTHER;
		}
	/* text: no NUL byte, and few control characters besides tab, line
	 * ends, form feed, backspace and the escapes of a console */
	for (size_t i = 0; i < n; i++) {
		unsigned char b = head[i];
		if (b == 0)
			zero++;
		else if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' &&
			 b != '\b' && b != 0x1b)
			odd++;
	}
	if (!zero && odd * 20 <= n)
		return RESULTS_TEXT;
	if (zero == n) {
		snprintf(what, len, "%zu zero bytes at its start: an erased or empty log partition? "
			 "fsbench log info says what a log holds", n);
		return RESULTS_OTHER;
	}
	first_bytes(head, n, hex, sizeof(hex));
	snprintf(what, len, "starts with %s: binary data; give a run folder, its records.jsonl, "
		 "the file or partition of fsbench run --log, or a serial log", hex);
	return RESULTS_OTHER;
}

/* The kind of the file at path (not a folder, not stdin); RESULTS_TEXT when
 * it cannot be read (rep_load says why). */
enum results_kind results_sniff_path(const char *path, char *what, size_t len)
{
	unsigned char head[SNIFF_LEN];
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return RESULTS_TEXT;
	while (n < sizeof(head)) {
		ssize_t r = read(fd, head + n, sizeof(head) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return results_sniff(head, n, what, len);
}

/* ---- a results log, as lines of records ---- */

static int log_line(void *arg, const struct fsb_log_rec *r)
{
	FILE *f = arg;

	return fwrite(r->data, 1, r->len, f) != r->len || putc('\n', f) == EOF ? -1 : 0;
}

/* Every record of the log at path (a log file, a raw partition or a whole
 * GPT disk image) into set. 0, or -errno with err saying why (-ENOENT: a
 * disk image without the log partition). */
static int load_log(const char *cmd, struct rep_set *set, const char *path, char *err,
		    size_t errlen)
{
	struct fsb_log_stats ls;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len), *f;
	int rc;

	if (!mem)
		return -ENOMEM;
	rc = fsb_log_read(path, log_line, mem, &ls);
	if (fclose(mem) != 0 && !rc)
		rc = -ENOMEM;
	if (rc)
		snprintf(err, errlen, "%s: %s%s%s", path, strerror(-rc), ls.detail[0] ? ": " : "",
			 ls.detail);
	if (!rc && !len) {	/* no record: an empty set, said by the caller */
		free(text);
		return (set->path = strdup(path)) ? 0 : -ENOMEM;
	}
	if (rc || !(f = fmemopen(text, len, "r"))) {
		free(text);
		return rc ? rc : -ENOMEM;
	}
	rc = rep_load_stream(set, f, path, err, errlen);
	fclose(f);
	free(text);
	if (!rc && ls.end != LOG_END_CLEAN)
		fsb_msg("%s %s: the log ends at byte %llu (%s): the %llu records before it are read",
			cmd, path, (unsigned long long)ls.end_offset, fsb_log_end_name(ls.end),
			(unsigned long long)ls.records);
	return rc;
}

static int load_input(const char *cmd, struct rep_set *set, const char *in, int empty_ok);

int results_load(const char *cmd, struct rep_set *set, const char *in)
{
	return load_input(cmd, set, in, 0);
}

int results_load_empty(const char *cmd, struct rep_set *set, const char *in)
{
	return load_input(cmd, set, in, 1);
}

int results_known(const char *cmd, struct vd_known *kn, const char *file)
{
	char today[16], err[600];
	time_t now = time(NULL);
	struct tm tm;
	int e;

	memset(kn, 0, sizeof(*kn));
	if (!file)
		return -1;
	if (!gmtime_r(&now, &tm) || !strftime(today, sizeof(today), "%Y-%m-%d", &tm))
		return fsb_fail(EXIT_SYSTEM, "%s: the date: %s", cmd, strerror(errno));
	if ((e = vd_known_file(kn, file, today, err, sizeof(err))) < 0) {
		vd_known_free(kn);
		if (e == -EINVAL)
			return fsb_fail(EXIT_USAGE, "%s: known issues %s", cmd, err);
		return fsb_fail(EXIT_SYSTEM, "%s: known issues %s", cmd, err);
	}
	for (size_t i = 0; i < kn->n; i++)
		if (kn->e[i].expired)
			fsb_msg("%s: known issue %s (%s) expired on %s: it no longer applies", cmd,
				kn->e[i].where, kn->e[i].link, kn->e[i].until);
	return -1;
}

static int load_input(const char *cmd, struct rep_set *set, const char *in, int empty_ok)
{
	char err[1024], what[256];
	enum results_kind kind = RESULTS_TEXT;
	struct stat st;
	int rc;

	err[0] = 0;
	memset(set, 0, sizeof(*set));
	if (strcmp(in, "-") != 0 && stat(in, &st) == 0 && !S_ISDIR(st.st_mode))
		kind = results_sniff_path(in, what, sizeof(what));
	if (kind == RESULTS_OTHER)
		return fsb_fail(EXIT_USAGE, "%s %s: not records, a results log, a serial log or a "
				"run folder (%s)", cmd, in, what);
	if (kind == RESULTS_LOG || kind == RESULTS_GPT)
		rc = load_log(cmd, set, in, err, sizeof(err));
	else
		rc = rep_load(set, in, err, sizeof(err));
	if (rc == -ENOENT && kind == RESULTS_GPT) {
		rep_free(set);
		return fsb_fail(EXIT_USAGE, "%s %s: not records, a results log, a serial log or a "
				"run folder (a GPT disk image without a partition named "
				FSB_LOG_PARTLABEL ": give the image the run wrote its log to, or the "
				"log partition)", cmd, in);
	}
	if (rc) {
		if (!err[0])
			snprintf(err, sizeof(err), "%s: %s", in, strerror(-rc));
		fsb_msg("%s %s", cmd, err);
		rep_free(set);
		return EXIT_SYSTEM;
	}
	if (!set->nruns && !empty_ok) {
		/* nothing to judge: never 1, the status of a regression or a FAIL */
		fsb_msg("%s %s: no records", cmd, set->path);
		rep_free(set);
		return EXIT_ERROR;
	}
	return -1;
}

int results_flush(const char *cmd)
{
	if (fflush(stdout) || ferror(stdout)) {
		fsb_msg("%s: writing the output: %s", cmd, strerror(errno));
		return EXIT_SYSTEM;
	}
	return 0;
}

/* The phases, and those that verify what they read, comma-separated. */
static char phase_names[256], verify_names[256];

void results_criteria_init(struct vd_criteria *vc)
{
	size_t a = 0, b = 0;

	phase_names[0] = verify_names[0] = 0;
	for (size_t i = 0; i < fsb_phase_count; i++) {
		a += (size_t)snprintf(phase_names + a, sizeof(phase_names) - a, "%s%s",
				      a ? "," : "", fsb_phases[i].name);
		if (fsb_phases[i].flags & FSB_PH_VERIFY)
			b += (size_t)snprintf(verify_names + b, sizeof(verify_names) - b, "%s%s",
					      b ? "," : "", fsb_phases[i].name);
	}
	vd_criteria_init(vc, fsb_fs_names(), phase_names, verify_names);
}

int results_criteria(const char *cmd, struct vd_criteria *vc, const char *file,
		     const char *baseline, const char *base_run, double tolerance)
{
	char err[1024];
	int rc;

	if (file && (rc = vd_criteria_file(vc, file, err, sizeof(err)))) {
		fsb_msg("%s: %s", cmd, err);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_SYSTEM;
	}
	if (baseline) {
		struct rep_set set;
		int ec = results_load(cmd, &set, baseline);
		if (ec >= 0)
			return ec;
		const struct rep_run *b = rep_find(&set, base_run);
		if (!b) {
			fsb_msg("%s: baseline %s: no run '%s'", cmd, set.path, base_run);
			rep_free(&set);
			return EXIT_USAGE;
		}
		rc = vd_criteria_baseline(vc, b, tolerance);
		rep_free(&set);
		if (rc)
			return fsb_fail(EXIT_SYSTEM, "%s: baseline %s: %s", cmd, baseline, strerror(-rc));
	}
	return -1;
}

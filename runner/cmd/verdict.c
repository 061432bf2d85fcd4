/* verdict.c: `fsbench verdict RUN`: PASS, FAIL or ERROR, one line per
 * check, from a criteria file or a known-good baseline run
 * (report/verdict/criteria.h), failures a known-issues file matches marked
 * (report/verdict/known.h); with --log, the checks also as a `verdict`
 * record appended to the run's log. */
#include "cmd/results.h"
#include "fsbench.h"
#include "lib/jsonr.h"
#include "log/logfile.h"
#include "log/record.h"
#include "run/engine/lava.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: fsbench verdict RUN --criteria FILE [--baseline RUN2 [--tolerance PCT]] [--run ID] [--log LOG] [--lava]\n"
	"                       [--known FILE [--strict]]\n"
	"       fsbench verdict RUN --baseline RUN2 [--tolerance PCT] [--baseline-run ID] [--run ID] [--log LOG] [--lava]\n"
	"                       [--known FILE [--strict]]\n"
	"       fsbench verdict RUN --write-criteria [--margin PCT] [--run ID]\n"
	"  RUN             a run folder (RUN/records.jsonl), a .jsonl file, a serial log, a results log\n"
	"                  (fsbench run --log), a raw log partition or a whole GPT disk image; - reads stdin\n"
	"  --criteria F    the checks, `key = value` lines (keys: fsbench help criteria)\n"
	"  --baseline B    checks from a known-good run of the same board: a phase fails when it is\n"
	"                  slower than B's median by more than the tolerance and B's spread between rounds\n"
	"  --tolerance P   allowed slowdown against the baseline, percent (default 10%)\n"
	"  --baseline-run ID  which run of B (default: the last one)\n"
	"  --write-criteria   print a criteria file from RUN, a known-good run, and stop\n"
	"  --margin P      --write-criteria: floors of files/s are the slowest round's rate divided\n"
	"                  by 1 + P/100 (default 100%: half the rate)\n"
	"  --run ID        which run of RUN (default: the last one; a unique prefix is enough)\n"
	"  --log LOG       also append the checks as a `verdict` record to the results log LOG\n"
	"                  (a file or a raw partition) that holds the run: its run_id, the seq after\n"
	"                  the run's last record, that record's t\n"
	"  --lava          also a line per check for a LAVA monitors test, before the verdict line:\n"
	"                  FSBENCH-RESULT: test_case_id=verdict-WHAT result=pass|fail|unknown|skip\n"
	"                  [measurement=VALUE units=UNIT] (runner/FORMATS.md)\n"
	"  --known FILE    known issues: a failure an entry matches is marked known (with its link)\n"
	"                  and does not fail the verdict; an expired entry no longer applies\n"
	"                  (lines KIND EXPIRES LINK PATTERN: runner/VERDICT.md, Known issues)\n"
	"  --strict        known failures fail the verdict too\n"
	"\n"
	"Prints one line per check (WHAT: MEASURED; limit LIMIT: PASS, FAIL, ERROR or SKIP)\n"
	"and `verdict: PASS`, `verdict: FAIL (N of M checks failed)` or `verdict: ERROR (...)`.\n"
	"A check the run holds no data for says `not measured` and fails; it is ERROR (could not\n"
	"judge) when the run broke off, never started or was refused, or its filesystem failed for\n"
	"a reason that is not the disk's; SKIP when it does not apply to the target.\n"
	"exit: 0 PASS, 1 FAIL, 5 ERROR (no failure, a check could not judge), 2 misuse, a bad\n"
	"criteria or known-issues file or a run not in LOG, 4 an input cannot be read or LOG\n"
	"cannot be written\n";

/* "fsbench: verdict: WHAT" and the usage. */
__attribute__((format(printf, 1, 2)))
static int misuse(const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return fsb_misuse(usage, "verdict: %s", what);
}

/* The number of a percent option, or -1. */
static double pct_option(const char *name, const char *val)
{
	double d = vd_percent(val);
	if (d < 0)
		misuse("%s: expected a percentage (10%%)", name);
	return d;
}

/* A LAVA test case per check (run/engine/lava.h): the id from the check's text,
 * the measurement when the check has a number. */
void verdict_lava(FILE *out, const struct vd_result *res)
{
	char (*ids)[FSB_LAVA_ID_MAX] = calloc(res->n ? res->n : 1, sizeof(*ids));
	char line[FSB_LAVA_LINE_MAX];

	if (!ids)
		return;
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		double v = k->measured_ok ? k->value : NAN;
		fsb_lava_text_id(ids[i], sizeof(ids[i]), "verdict-", k->what,
				 (const char (*)[FSB_LAVA_ID_MAX])ids, i);
		/* a known issue: its own line, just before the result it marks
		 * (the result line stays as a monitors pattern matches it) */
		if (k->known[0])
			fprintf(out, FSB_LAVA_KNOWN " test_case_id=%s link=%s %s=%s where=%s\n", ids[i],
				k->known, k->known_expired ? "expired" : "until", k->known_until,
				k->known_where);
		if (fsb_lava_result_as(line, sizeof(line), ids[i], vd_kinds[k->kind].lava, v, k->unit) > 0)
			fputs(line, out);
	}
	free(ids);
}

static void verdict_print(FILE *out, const struct vd_result *res, int lava)
{
	char text[700];

	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		vd_result_text(k, 1, text, sizeof(text));
		fprintf(out, "%s: %s; limit %s: %s\n", k->what, k->measured, k->limit, text);
	}
	if (lava)
		verdict_lava(out, res);
	fprintf(out, "verdict: %s\n", res->verdict);
}

/* The run's records in a log: how many, the last seq and that record's t. */
struct in_log {
	uint64_t run_id, last_seq, n;
	double last_t;
};

static int in_log_cb(void *arg, const struct fsb_log_rec *rec)
{
	struct in_log *il = arg;
	struct jsonr_doc *d;

	if (rec->run_id != il->run_id || (il->n && rec->seq < il->last_seq))
		return 0;
	il->n++;
	il->last_seq = rec->seq;
	if (jsonr_parse(rec->data, rec->len, &d, NULL) == 0) {
		il->last_t = jsonr_num(jsonr_get(jsonr_root(d), "t"), il->last_t);
		jsonr_free(d);
	}
	return 0;
}

/* Append res as run r's `verdict` record to the log at path: its run_id,
 * the seq after the run's last record there, that record's t. Returns 0;
 * -ESRCH when the log holds no record of the run, -errno otherwise; why
 * says more. */
static int verdict_to_log(const char *path, const struct rep_run *r,
			  const struct vd_result *res, char *why, size_t whylen)
{
	struct in_log il = { 0 };
	struct fsb_log_stats st;
	struct fsb_log *l;
	struct fsb_rec *rec = NULL;
	char *body = NULL, *line = NULL, *end;
	size_t blen = 0;
	FILE *m;
	int e;

	why[0] = 0;
	il.run_id = strtoull(r->run_id ? r->run_id : "", &end, 16);
	if (!r->run_id || !r->run_id[0] || *end)
		return snprintf(why, whylen, "the run has no run_id"), -EINVAL;
	if ((e = fsb_log_read(path, in_log_cb, &il, &st)) < 0)
		return snprintf(why, whylen, "%s", st.detail[0] ? st.detail : strerror(-e)), e;
	if (!il.n)
		return snprintf(why, whylen, "no record of run %s", r->run_id), -ESRCH;
	if (!(m = open_memstream(&body, &blen)))
		return -errno;
	e = vd_record_body(m, res);
	if (fclose(m) || e) {
		free(body);
		return -EIO;
	}
	e = -ENOMEM;
	if (!(rec = malloc(sizeof(*rec))))
		goto out;
	rec_begin(rec, FSB_REC_NAME(verdict));
	rec_str(rec, K(run_id), r->run_id);
	rec_u64(rec, K(seq), il.last_seq + 1);
	rec_dbl(rec, K(t), il.last_t);
	int n = rec_end(rec);	/* {"schema":..,"t":T} */
	if (n < 1 || !(line = malloc((size_t)n + blen + 2)))
		goto out;
	memcpy(line, rec->buf, (size_t)n - 1);
	line[n - 1] = ',';
	memcpy(line + n, body, blen);
	line[(size_t)n + blen] = '}';
	line[(size_t)n + blen + 1] = 0;
	if ((e = fsb_log_open(&l, path, il.run_id, 0)) < 0) {
		if (e == -EMEDIUMTYPE)
			snprintf(why, whylen, "a whole GPT disk: name its %s partition", FSB_LOG_PARTLABEL);
		goto out;
	}
	e = fsb_log_append(l, il.last_seq + 1, line, (size_t)n + blen + 1);
	fsb_log_close(l);
out:
	free(line);
	free(rec);
	free(body);
	return e;
}

int cmd_verdict(int argc, char **argv)
{
	const char *run = NULL, *criteria = NULL, *baseline = NULL, *id = NULL, *base_id = NULL;
	const char *log = NULL, *known = NULL;
	double tolerance = REP_CMP_TOLERANCE, margin = 1.0;
	int write = 0, tol_given = 0, lava = 0, strict = 0;
	struct vd_criteria vc;
	struct vd_result res;
	struct vd_known kn;
	struct rep_set set;
	static const struct rep_run none;	/* no record: the boot never reached the runner */
	int ec;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;
		double *num = NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--write-criteria")) {
			write = 1;
			continue;
		}
		if (!strcmp(a, "--lava")) {
			lava = 1;
			continue;
		}
		if (!strcmp(a, "--strict")) {
			strict = 1;
			continue;
		}
		if (a[0] != '-' || !strcmp(a, "-")) {
			if (run)
				return misuse("too many arguments ('%s')", a);
			run = a;
			continue;
		}
		const struct { const char *name; const char **slot; } opt[] = {
			{ "--criteria", &criteria }, { "--baseline", &baseline }, { "--run", &id },
			{ "--baseline-run", &base_id }, { "--log", &log }, { "--known", &known },
		};
		for (size_t k = 0; k < sizeof(opt) / sizeof(opt[0]) && !slot; k++)
			if (!strcmp(a, opt[k].name))
				slot = opt[k].slot;
		if (!slot && !strcmp(a, "--tolerance"))
			num = &tolerance, tol_given = 1;
		else if (!slot && !strcmp(a, "--margin"))
			num = &margin;
		else if (!slot)
			return misuse("unknown option '%s'", a);
		if (i + 1 >= argc)
			return misuse("%s needs an argument", a);
		if (slot) {
			*slot = argv[++i];
		} else if ((*num = pct_option(a, argv[++i])) < 0) {
			return EXIT_USAGE;
		}
	}
	if (!run)
		return misuse("missing %s", "RUN");
	if (write && (criteria || baseline))
		return misuse("%s: give no --criteria or --baseline", "--write-criteria");
	if (!write && !criteria && !baseline)
		return misuse("nothing to check against: give %s", "--criteria FILE or --baseline RUN2");
	if (base_id && !baseline)
		return misuse("%s without --baseline", "--baseline-run");
	if (tol_given && !baseline)
		return misuse("%s without --baseline", "--tolerance");
	if (log && write)
		return misuse("%s: give no --log", "--write-criteria");
	if (lava && write)
		return misuse("%s: give no --lava", "--write-criteria");
	if (known && write)
		return misuse("%s: give no --known", "--write-criteria");
	if (strict && !known)
		return misuse("%s without --known", "--strict");

	results_criteria_init(&vc);
	if (!write && (ec = results_criteria("verdict", &vc, criteria, baseline, base_id, tolerance)) >= 0) {
		vd_criteria_free(&vc);
		return ec;
	}
	if ((ec = results_known("verdict", &kn, known)) >= 0) {
		vd_criteria_free(&vc);
		return ec;
	}
	if ((ec = (write ? results_load : results_load_empty)("verdict", &set, run)) >= 0) {
		vd_known_free(&kn);
		vd_criteria_free(&vc);
		return ec;
	}
	/* an input without a record is judged as a run that never started */
	const struct rep_run *r = set.nruns || id ? rep_find(&set, id) : &none;
	if (!r) {
		fsb_msg("verdict %s: no run '%s'", set.path, id);
		ec = EXIT_USAGE;
	} else if (write) {
		ec = vd_write_criteria(stdout, r, set.path, margin) ? EXIT_SYSTEM : EXIT_OK;
		if (ec)
			fsb_msg("verdict: writing the criteria: %s", strerror(errno));
	} else if (!vc.n) {
		fsb_msg("verdict: %s: no checks", criteria ? criteria : baseline);
		ec = EXIT_USAGE;
	} else if (vd_evaluate(&vc, r, &res) || vd_check_run(&res, r)) {
		ec = fsb_fail(EXIT_SYSTEM, "verdict %s: %s", set.path, strerror(ENOMEM));
	} else {
		char why[200];
		int e;

		if (known)
			vd_known_apply(&kn, &vc, r, &res, strict);
		if (r->raw)	/* repetitions: every phase row is their median (report/load/load_reps.c) */
			printf("repetitions: %u; each phase's figure is the median of its repetitions\n",
			       r->reps);
		verdict_print(stdout, &res, lava);
		ec = results_flush("verdict");
		if (!ec)
			ec = vd_kinds[res.kind].exit;
		if (log && (e = verdict_to_log(log, r, &res, why, sizeof(why))) < 0) {
			fsb_msg("verdict: log %s: %s", log, why[0] ? why : strerror(-e));
			ec = e == -ESRCH || e == -EINVAL || e == -EMEDIUMTYPE ? EXIT_USAGE : EXIT_SYSTEM;
		}
		vd_result_free(&res);
	}
	rep_free(&set);
	vd_known_free(&kn);
	vd_criteria_free(&vc);
	return ec;
}

/* criteria.h: the verdict, PASS, FAIL or ERROR for a run with the evidence of
 * each check. `fsbench verdict` (cmd/verdict.c) and the JUnit writer
 * (junit.c) are its users; nothing here prints or exits.
 *
 * Criteria come from a criteria file (the `key = value` syntax of
 * fsbench.conf, read by lib/kv.h), from a known-good baseline run, or both.
 * Evaluating them against a run (model.h) gives a list of checks, each with
 * what it checked, the measured value and the limit, typed and as text.
 *
 *	struct vd_criteria c;
 *	vd_criteria_init(&c, "ext4,xfs", "create,stat,...", "stat,read,...");
 *	vd_criteria_file(&c, "criteria.conf", err, sizeof(err));
 *	vd_evaluate(&c, run, &res);	res.check[i], res.nfail
 *
 * Inside (report/verdict/): one row per key in keys.c (rules.h) carries
 * what parses it (criteria.c), evaluates it (judge.c) and derives it from
 * a run (derive.c); outcome.c holds the result as a record and a table.
 */
#ifndef FSB_REPORT_VERDICT_CRITERIA_H
#define FSB_REPORT_VERDICT_CRITERIA_H

#include <stddef.h>
#include <stdio.h>

#include "lib/msg.h"
#include "report/model.h"
#include "report/verdict/kinds.h"

/* A rule: one line of a criteria file, or one made from a baseline run
 * (rules.h, inside the verdict). */
struct vd_rule;

struct vd_criteria {
	struct vd_rule *rule;	/* in the order given */
	size_t n, cap;
	char **ignore;		/* kmsg_ignore patterns */
	size_t nignore, capignore;
	/* names a rule may use (comma-separated), NULL for any word: the
	 * filesystems, the phases, and the phases that verify what they read */
	const char *fs_names, *phase_names, *verify_phases;
};

/* One check: what was measured against which limit. */
struct vd_check {
	char what[160];		/* "ext4 create seconds (all rounds)" */
	char measured[256];	/* "0.699 s (worst of 2 rounds)", "not measured" */
	char limit[192];	/* "<= 3 s" */
	double value, bound;	/* the numbers, NaN when there is none */
	const char *unit;	/* "s", "files/s", "us", "C", "" */
	int measured_ok;	/* 0: the run holds no data for this check */
	int pass;
	char where[64];		/* the rule's FILE:LINE or "baseline" */
	const char *fs;		/* the filesystem checked, or NULL */
	/* PASS, FAIL, ERROR or SKIP (kinds.h): from pass, skip and absent by
	 * vd_classify (infra.c), with the run's evidence */
	enum vd_kind kind;
	int skip;		/* the eval hook: it does not apply to this target */
	int absent;		/* the evidence it needs is not in the run */
	const char *key;	/* the criteria key ("kmsg"); NULL when read back */
	char why[256];		/* ERROR, SKIP: why it could not judge */
	/* a known issue that matches this failure (known.h): its link, its
	 * FILE:LINE and expiry date; expired: it matched but no longer applies */
	char known[160], known_where[96], known_until[12];
	int known_expired;
};

struct vd_result {
	struct vd_check *check;
	size_t n, cap;
	size_t nfail;		/* FAIL checks, known ones too */
	size_t nknown;		/* of them, matched by a known issue that applies */
	size_t nerror, nskip;
	int strict;		/* known failures fail the verdict too */
	enum vd_kind kind;	/* the verdict: FAIL when a failure counts (not known,
				 * or --strict), else ERROR when a check is, else PASS */
	char verdict[256];	/* "PASS" or "FAIL (N of M checks failed)", ... */
	char title[288];	/* "Verdict: PASS (M checks)", "Verdict: FAIL (...)" */
};

/* A check's result as text: "PASS"; "FAIL", with_where " (WHERE)", and
 * ", known issue LINK (FILE:LINE, until DATE)" or its expiry; "ERROR" or
 * "SKIP", with_where " (WHERE)", then ": WHY". */
void vd_result_text(const struct vd_check *k, int with_where, char *buf, size_t len);
/* The failures that fail the verdict: known ones only with strict. */
size_t vd_counted_failures(const struct vd_result *res);
/* The verdict line, title and kind of res from its checks' kinds. */
void vd_result_done(struct vd_result *res);

/* infra.c: ERROR apart from FAIL. Why run r as a whole could not be
 * judged: 1 with why (no record: the boot never reached the runner; no
 * run_start; refused; no run_end: it broke off; a fatal error that is not
 * the disk's), else 0. */
int vd_run_broken(const struct rep_run *r, char *why, size_t len);
/* Why column fs of run r could not be judged, for a reason not the
 * disk's: 1 with why (no fs_end; skipped: no kernel support, no mkfs
 * tool; failed with a fatal error that is not the disk's), else 0. */
int vd_fs_broken(const struct rep_run *r, const char *fs, char *why, size_t len);
/* Each check's kind from its evaluation and the run's evidence (vd_evaluate
 * calls it). */
void vd_classify(struct vd_result *res, const struct rep_run *r);
/* A check of the run itself, ERROR, appended to the evaluated res only when
 * the run could not be judged (vd_run_broken), and the verdict made again:
 * what `verdict` and `report --criteria` show. 0, or -ENOMEM (res freed). */
int vd_check_run(struct vd_result *res, const struct rep_run *r);

void vd_criteria_init(struct vd_criteria *c, const char *fs_names,
		      const char *phase_names, const char *verify_phases);
void vd_criteria_free(struct vd_criteria *c);
/* One criterion: key and value as in a criteria file, where = "FILE:LINE".
 * Returns 0, or -1 with err "WHERE: KEY: reason; allowed: ...". */
int vd_criteria_add(struct vd_criteria *c, const char *key, const char *val,
		    const char *where, char *err, size_t errlen);
/* A criteria file. Returns 0; -EINVAL for an unknown key or a bad value
 * (err names file, line and key); -errno when it cannot be read. */
int vd_criteria_file(struct vd_criteria *c, const char *path, char *err, size_t errlen);
/* Criteria from a known-good run of the same board: per filesystem and
 * summary row (summary.h), the median of the baseline's rounds plus the
 * larger of tolerance (0.10 = 10 %) and the spread between its rounds;
 * the filesystems that ran to the end; errors, verification and the
 * evidence the baseline has. Returns 0, or -ENOMEM. */
int vd_criteria_baseline(struct vd_criteria *c, const struct rep_run *base, double tolerance);

/* Every rule against run r. Returns 0, or -ENOMEM. */
int vd_evaluate(const struct vd_criteria *c, const struct rep_run *r, struct vd_result *res);
void vd_result_free(struct vd_result *res);
/* The checks of run r's `verdict` record as a result. Returns 1 and *res
 * (free with vd_result_free), 0 when r has no verdict record, -ENOMEM. */
int vd_result_of_run(const struct rep_run *r, struct vd_result *res);
/* The checks as a `verdict` record body (no braces): "status":"pass",
 * "checks":N,"failed":N,"check":[{"what":..,"measured":..,"limit":..,
 * "pass":true,"where":..},...]. Returns 0, or -1 when writing fails. */
int vd_record_body(FILE *out, const struct vd_result *res);

/* A criteria file for run r: its filesystems, verification, errors, the
 * evidence it has, and a floor of files per second per filesystem and
 * phase (a rate does not depend on the profile's size as seconds do): the
 * slowest round's rate / (1 + margin), 2 digits rounded down. Returns 0,
 * or -1 when writing fails. */
int vd_write_criteria(FILE *out, const struct rep_run *r, const char *source, double margin);

/* "10%", "10", "0.5%": a percentage as a fraction; -1 when it is none. */
double vd_percent(const char *s);

/* The checks as a report table ("verdict"): check, measured, limit,
 * result, criterion; as data also the numbers and their unit. Its title
 * is res->title: res must outlive t. Returns 0, or -ENOMEM. */
struct rep_table;
int vd_table(const struct vd_result *res, struct rep_table *t);

/* The criteria keys as a table: `fsbench help criteria [--markdown|--scdoc]`. */
void vd_keys_doc(FILE *f, enum fsb_doc_fmt fmt);

#endif

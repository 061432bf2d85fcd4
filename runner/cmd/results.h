/* results.h: what `fsbench report`, `compare`, `history` and `verdict`
 * share (results.c): their options, reading an input, and flushing the
 * output. */
#ifndef FSB_CMD_RESULTS_H
#define FSB_CMD_RESULTS_H

#include <stddef.h>

#include "report/output.h"
#include "report/verdict/criteria.h"
#include "report/verdict/known.h"

struct results_cli {
	const char *cmd;	/* "report", "compare" */
	const char *usage;	/* a printf format: %1$s is the format names
				 * ("md|csv"), %2$s the same described */
	const char *pos[REP_CMP_INPUTS];	/* the inputs named */
	size_t npos, maxpos;
	/* compare: `--` between inputs starts a group (a side of several
	 * runs): group_at[g] is the index in pos of group g + 1's first input */
	int allow_groups;
	size_t group_at[REP_CMP_MAX], ngroups;
	size_t minpos;		/* inputs needed; 0: maxpos */
	const char *posname;	/* "DIR": what a missing input is called; NULL:
				 * RUN, or A and B */
	const struct rep_writer *w;	/* --format; NULL before parsing */
	const char *run;	/* --run */
	int allow_run;
	int allow_ref, reference;	/* compare --reference: A is built in */
	/* compare: --tolerance PCT, --fail-on-regression, --control judge|report */
	int allow_gate, fail_on_regression, control_report;
	/* report: --criteria FILE, --baseline RUN2, --tolerance PCT: a verdict
	 * whose checks a writer with a doc function (junit) shows; and formats
	 * that are not tables */
	int allow_criteria;
	const char *criteria, *baseline;
	double tolerance;
	/* report: --known FILE (known issues), --strict (they fail too) */
	const char *known;
	int strict;
};

/* The usage of c->cmd, to f. */
void results_usage(const struct results_cli *c, FILE *f);
/* Parse argv. Returns -1 to go on, or an exit code (usage printed). */
int results_parse(struct results_cli *c, int argc, char **argv);
/* "fsbench: WHAT" and the command's usage on stderr; returns EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int results_misuse(const struct results_cli *c, const char *fmt, ...);
/* What an input is, from its first bytes (results_sniff). */
enum results_kind {
	RESULTS_TEXT,	/* records (.jsonl) or a serial log: lines, a record a line */
	RESULTS_LOG,	/* a results log file or raw log partition (FSBLOG01) */
	RESULTS_GPT,	/* a whole GPT disk image: its log partition is read */
	RESULTS_OTHER,	/* none of these: what says what it looks like */
};

/* The kind of an input whose first n bytes are head (at least 4104 of
 * them, or the whole input when it is shorter: a GPT header sits at byte
 * 512 or 4096). For RESULTS_OTHER, what gets what it looks like and what
 * to do, e.g. "starts with 0x7f 'ELF': a program?". */
enum results_kind results_sniff(const unsigned char *head, size_t n, char *what, size_t len);
/* The same of the file at path (not a folder): RESULTS_TEXT when it cannot
 * be read (the reader that opens it says why). */
enum results_kind results_sniff_path(const char *path, char *what, size_t len);

/* Load one input: a run folder (its records.jsonl), a file of records
 * (.jsonl) or a serial log, a results log file, a raw log partition or a
 * whole GPT disk image (every run of the log), or - (stdin). Prints the
 * error and returns an exit code (2 for an input that is none of these,
 * saying what it looks like), or -1. */
int results_load(const char *cmd, struct rep_set *set, const char *in);
/* The same, and an input that holds no record is no error: set->nruns
 * is then 0 (verdict, report --format junit: the boot never reached the
 * runner). */
int results_load_empty(const char *cmd, struct rep_set *set, const char *in);
/* The known issues of file (NULL: none, kn empty) as of today (UTC), each
 * expired one said on stderr. Prints the error and returns an exit code (2
 * for a bad entry: FILE:LINE: reason; 4 when it cannot be read), or -1. */
int results_known(const char *cmd, struct vd_known *kn, const char *file);
/* Flush stdout: 0, or an exit code with the error printed. */
int results_flush(const char *cmd);

/* Empty criteria that know the runner's filesystems and phases. */
void results_criteria_init(struct vd_criteria *vc);
/* Add a criteria file (file NULL: none) and a baseline run (NULL: none,
 * tolerance a fraction) to vc. Prints the error and returns an exit code
 * (2 for a bad criteria file or baseline id, 4 when one cannot be read),
 * or -1 to go on. */
int results_criteria(const char *cmd, struct vd_criteria *vc, const char *file,
		     const char *baseline, const char *base_run, double tolerance);

/* verdict.c: a LAVA test case line per check of res (run/engine/lava.h), as
 * `fsbench verdict --lava` prints them before the verdict line. */
void verdict_lava(FILE *out, const struct vd_result *res);

#endif

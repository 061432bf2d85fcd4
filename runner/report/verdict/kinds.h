/* kinds.h: the four results a check (and a verdict) can have, one row
 * each, and what each becomes in every output: the verdict's text, the
 * `verdict` record, JUnit's element, LAVA's result and the exit code of
 * `fsbench verdict`. A writer of another format maps a kind through this
 * table, never by testing its name.
 *
 *	PASS	measured, within the limit
 *	FAIL	measured and beyond the limit, or the evidence is absent from
 *		a run that ran to its end: the disk's (or the board's) failure
 *	ERROR	the check could not judge: the run broke off, never started,
 *		or failed for a reason that is not the disk's (infra.c)
 *	SKIP	the check does not apply to this target (it says why)
 */
#ifndef FSB_REPORT_VERDICT_KINDS_H
#define FSB_REPORT_VERDICT_KINDS_H

enum vd_kind { VD_PASS, VD_FAIL, VD_ERROR, VD_SKIP };
#define VD_NKINDS 4

struct vd_kind_row {
	const char *name;	/* "ERROR": the verdict's text, the report's column */
	const char *word;	/* "error": the `verdict` record's `result` and `status` */
	const char *junit;	/* the testcase's element ("error"), NULL for none (PASS) */
	const char *lava;	/* LAVA's result: pass, fail, unknown or skip */
	int exit;		/* `fsbench verdict`'s exit code for a verdict of this kind */
	const char *meaning;	/* for the docs */
};

extern const struct vd_kind_row vd_kinds[VD_NKINDS];

/* The kind of a record's word ("error"), or -1. */
int vd_kind_of_word(const char *word);

#endif

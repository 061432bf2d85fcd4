/* records.h: records from a string, loaded by the report's loader, for the
 * unit tests of the report, the verdict, the kernel messages and health. */
#ifndef FSB_UNIT_RECORDS_H
#define FSB_UNIT_RECORDS_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/model.h"

/* Load the JSON lines of text as the file NAME; returns rep_load_stream's
 * result (or -errno), err gets its message. */
static inline int unit_load_records(struct rep_set *set, const char *text, const char *name,
				    char *err, size_t errlen)
{
	memset(set, 0, sizeof(*set));
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f)
		return -errno;
	int rc = rep_load_stream(set, f, name, err, errlen);
	fclose(f);
	return rc;
}

/* The same as mem.jsonl, its message on stderr when the load fails. */
static inline int unit_load_text(struct rep_set *set, const char *text)
{
	char err[512];
	int rc = unit_load_records(set, text, "mem.jsonl", err, sizeof(err));

	if (rc)
		fprintf(stderr, "load: %s\n", err);
	return rc;
}

#endif

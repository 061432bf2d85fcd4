/* schemas.h: records against the record schema (log/validate.h), for the
 * unit tests of the runner's emitters: the records of a text, and the
 * start of a run_start record for a test to add its target's object to. */
#ifndef FSB_UNIT_SCHEMAS_H
#define FSB_UNIT_SCHEMAS_H

#include <stdio.h>
#include <string.h>

#include "log/record.h"
#include "log/validate.h"

static inline void schema_said(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "schema: %s\n", msg);
}

/* The violations of the records of text (its lines that start with '{';
 * LAVA's lines and the like are not records), each said on stderr. */
static inline int schema_violations(const char *text)
{
	int bad = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n && *p == '{')
			bad += fsb_check_text(p, n, 0, schema_said, NULL);
		p += n + (nl != NULL);
	}
	return bad;
}

/* A run_start record begun, open in its target object, whose path is
 * path: the test adds what it checks, then closes it and ends it. */
static inline void schema_run_start(struct fsb_rec *r, const char *path)
{
	rec_begin(r, "run_start");
	rec_str(r, K(run_id), "00112233445566aa");
	rec_u64(r, K(seq), 0);
	rec_dbl(r, K(t), 0);
	rec_str(r, K(tool), "fsbench");
	rec_str(r, K(version), "0");
	rec_str(r, K(mode), "device");
	rec_u64(r, K(time_unix), 1);
	rec_obj(r, K(host));
	rec_str(r, K(cpu_model), "c");
	rec_u64(r, K(cpus), 1);
	rec_u64(r, K(mem_bytes), 1);
	rec_obj(r, K(dmi));
	rec_close(r);
	rec_close(r);
	rec_obj(r, K(target));
	rec_str(r, K(path), path);
}

#endif

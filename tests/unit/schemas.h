/* schemas.h: records against the record schema (log/validate.h), for the
 * unit tests of the runner's emitters: the records of a text, the start
 * of a run_start record for a test to add its target's object to, and a
 * record's string fields by path. */
#ifndef FSB_UNIT_SCHEMAS_H
#define FSB_UNIT_SCHEMAS_H

#include <stdio.h>
#include <string.h>

#include "lib/jsonr.h"
#include "log/record.h"
#include "log/validate.h"
#include "unit.h"

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

/* A field of a record by its path (jsonr_path) and the string it holds,
 * NULL when the field must not be there. */
struct json_want {
	const char *path, *is;
};

/* Each field of want in the object j, a check each; JSON_CHECK(j, want). */
static inline void json_check(const struct jsonr *j, const struct json_want *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int failed = unit_fail;

		if (want[i].is)
			CHECK_STR(jsonr_str(jsonr_path(j, want[i].path)), want[i].is);
		else
			CHECK(jsonr_path(j, want[i].path) == NULL);
		if (unit_fail != failed)
			fprintf(stderr, "  the field %s\n", want[i].path);
	}
}
#define JSON_CHECK(j, want) json_check(j, want, sizeof(want) / sizeof(want[0]))

#endif

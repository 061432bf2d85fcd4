/* fuzz_report.c: the report loader (runner/report/load.c) on arbitrary bytes.
 *
 * The input is a records file: rep_load_stream reads it through fmemopen,
 * as `fsbench report` reads a records.jsonl (console prefixes, CRLF, noise
 * lines and all). A load either fails with a message saying where, or
 * gives runs that every writer (rep_writers[]: the report of each run, the
 * comparison of the first and the last run) renders. Output goes to
 * /dev/null; what is checked is that nothing crashes, overflows, leaks or
 * runs into undefined behaviour.
 */
#include "fuzz.h"
#include "report/report.h"

#include <errno.h>
#include <string.h>

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rep_set set;
	char err[512];

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		FUZZ_CHECK(devnull != NULL);
	}
	memset(&set, 0, sizeof(set));
	/* fmemopen wants a buffer and at least one byte; "r" never writes */
	FILE *f = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	FUZZ_CHECK(f != NULL);
	int rc = rep_load_stream(&set, f, "fuzz.jsonl", err, sizeof(err));
	fclose(f);

	if (rc) {
		FUZZ_CHECK(rc == -EBADMSG || rc == -ENOMEM);
		FUZZ_CHECK(strncmp(err, "fuzz.jsonl:", 11) == 0);
		rep_free(&set);
		return 0;
	}
	FUZZ_CHECK(set.records <= set.lines);
	FUZZ_CHECK(set.path && strcmp(set.path, "fuzz.jsonl") == 0);
	for (size_t i = 0; i < set.nruns; i++) {
		const struct rep_run *r = set.runs[i];
		FUZZ_CHECK(r->run_id && r->run_id[0]);
		FUZZ_CHECK(rep_find(&set, r->run_id) == r);
		for (const struct rep_writer *w = rep_writers; w->name; w++)
			FUZZ_CHECK(rep_print(devnull, r, w) == 0);
		for (size_t k = 0; k < r->nph; k++)
			FUZZ_CHECK(r->ph[k].fs && r->ph[k].phase && r->ph[k].round >= 1);
		FUZZ_CHECK(r->nev <= REP_MAX_EVENTS && r->nev <= r->nev_total);
		FUZZ_CHECK(r->ndisk <= REP_MAX_DISKS);
	}
	if (set.nruns) {
		const struct rep_run *a = set.runs[0], *b = rep_find(&set, NULL);
		FUZZ_CHECK(b == set.runs[set.nruns - 1]);
		/* a unique prefix finds its run, an ambiguous one nothing */
		char pre[4] = { 0 };
		strncpy(pre, a->run_id, 3);
		const struct rep_run *p = rep_find(&set, pre);
		FUZZ_CHECK(p == NULL || strncmp(p->run_id, pre, strlen(pre)) == 0);
		for (const struct rep_writer *w = rep_writers; w->name; w++)
			FUZZ_CHECK(rep_print_compare(devnull, a, "A", b, "B", w) == 0);
	}
	rep_free(&set);
	return 0;
}

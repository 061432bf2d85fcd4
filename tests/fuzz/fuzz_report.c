/* fuzz_report.c: the report loader (runner/report/load/load.c) on arbitrary bytes.
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
#include "report/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

/* Every kind of check, and the run as its own baseline, against r; the
 * checks through every writer; criteria written from r. */
static void verdict_of(const struct rep_run *r)
{
	static const char *const kv[][2] = {
		{ "min_files_per_s.*.*", "1" }, { "max_seconds.*.read.aged", "1" },
		{ "max_p99_us.create", "1" }, { "verify", "all" }, { "errors", "0" },
		{ "kmsg_ignore", "a*b, c" }, { "kmsg", "0" }, { "health_new_errors", "0" },
		{ "temperature_max", "70" }, { "pcie_link", "max" }, { "pcie_link", "8GT/s x4" },
		{ "fs_ok", "ext4,xfs" }, { "flash_pre_eol", "normal" }, { "flash_life_used_max", "80%" },
		{ "target_model", "*x*" }, { "target_bus", "usb|mmc" }, { "usb_speed", "5000" },
		{ "mmc_timing", "HS400" }, { "sata_link", "6" },
	};
	struct vd_criteria c;
	struct vd_result v;
	char err[256];

	vd_criteria_init(&c, NULL, NULL, NULL);
	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		FUZZ_CHECK(vd_criteria_add(&c, kv[i][0], kv[i][1], "fuzz:1", err, sizeof(err)) == 0);
	FUZZ_CHECK(vd_criteria_baseline(&c, r, 0.10) == 0);
	FUZZ_CHECK(vd_evaluate(&c, r, &v) == 0);
	FUZZ_CHECK(v.nfail <= v.n);
	for (const struct rep_writer *x = rep_writers; x->name; x++)
		FUZZ_CHECK(rep_print_checks(devnull, r, x, &v) == 0);
	FUZZ_CHECK(vd_write_criteria(devnull, r, "fuzz", 1.0) == 0);
	vd_result_free(&v);
	vd_criteria_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rep_set set;
	char err[512];

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		FUZZ_CHECK(devnull != NULL);
		/* the HTML writer makes its charts' data and script but runs no
		 * gnuplot: a process per input would slow the fuzzer to a crawl */
		FUZZ_CHECK(setenv("FSBENCH_GNUPLOT", "/nonexistent/gnuplot", 1) == 0);
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
		verdict_of(r);
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
		/* the first, the last and the middle run of the file side by side */
		struct rep_cmp_run cr[3] = { { .run = a, .name = "A" }, { .run = b, .name = "B" },
					     { .run = set.runs[set.nruns / 2], .name = "C" } };
		struct rep_cmp_count cc[3];
		for (const struct rep_writer *w = rep_writers; w->name; w++)
			if (!w->doc) {	/* junit is a report of one run */
				FUZZ_CHECK(rep_print_compare(devnull, cr, 3, 0.1, w, cc) == 0);
				FUZZ_CHECK(cc[1].slower + cc[1].faster + cc[1].noise <= cc[1].compared);
			}
	}
	rep_free(&set);
	return 0;
}

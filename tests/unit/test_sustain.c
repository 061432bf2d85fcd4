/* test_sustain.c: the sustained write's parts that need no disk: fio's
 * bandwidth log into per-second samples (run/stores/sustain.h), the
 * records against the schema, the report's loading of them and its
 * sustain table (the cliff's moment, level and temperature), the chart,
 * the verdict key sustain_level, and the settings (the profile, the
 * refusals of a run in a directory and of too short a write). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sections/sustained.h"
#include "report/writers/chart.h"
#include "run/settings.h"
#include "run/stores/sustain.h"
#include "fixtures.h"
#include "layers.h"
#include "schemas.h"
#include "unit.h"
#include "verdicts.h"

static void test_bwlog(void)
{
	double mib[16], first;
	char why[200] = "";
	/* fio's lines: 1 s apart, a second skipped, a read line, the last
	 * (the job's end) left out */
	const char *log = "1000001000, 40960, 1, 0, 0\n"
			  "1000002001, 20480, 1, 0, 0\n"
			  "1000002500, 99999, 0, 0, 0\n"
			  "1000004000, 10240, 1, 0, 0\n"
			  "1000004999, 1024, 1, 0, 0\n"
			  "1000006000, 999999, 1, 0, 0\n";

	long n = fsb_sustain_bwlog(log, 1000000000ull, mib, 16, &first, why, sizeof(why));
	CHECK(n == 5);
	CHECK(fabs(first - 1.0) < 1e-9);
	CHECK(mib[0] == 40 && mib[1] == 20 && mib[2] == 0 && mib[3] == 10 && mib[4] == 1);
	/* a second logged twice keeps the first */
	n = fsb_sustain_bwlog("5000, 2048, 1, 0, 0\n5100, 4096, 1, 0, 0\n6000, 1024, 1, 0, 0\n"
			      "7000, 1024, 1, 0, 0\n", 3000, mib, 16, &first, why, sizeof(why));
	CHECK(n == 2 && mib[0] == 2 && mib[1] == 1 && first == 2);
	/* at most cap samples */
	n = fsb_sustain_bwlog(log, 1000000000ull, mib, 2, &first, why, sizeof(why));
	CHECK(n == 1);
	/* an empty log: no samples; a bad line: said */
	CHECK(fsb_sustain_bwlog("", 0, mib, 16, &first, why, sizeof(why)) == 0);
	CHECK(fsb_sustain_bwlog("1000, 40960, 1, 0, 0\nnot a line\n", 0, mib, 16, &first, why,
				sizeof(why)) == -EBADMSG);
	CHECK_CONTAINS(why, "line 2");
}

/* report-sustain.jsonl (fixtures.h): two sustained writes on raw, seq
 * falling from 40 to 10 MiB/s at its 8th sample while the disk warms from
 * 40 to 60 C, rand holding. */
static void test_report(void)
{
	char *text = fixture_text(path_sustain);
	struct rep_set set = { 0 };
	struct rep_table t;
	char err[256], out[2048];

	if (!text || !strchr(text, '\n')) {
		CHECK(!"the fixture report-sustain.jsonl");
		free(text);
		return;
	}
	/* the records as the schema has them (the run_start here is partial:
	 * only the sustain lines are checked) */
	CHECK(schema_violations(strchr(text, '\n') + 1) == 0);
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	CHECK(rep_load_stream(&set, f, "mem", err, sizeof(err)) == 0);
	fclose(f);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nsus == 2);
	free(text);
	if (!r || r->nsus != 2)
		return;
	CHECK(r->sus[0].n == 13 && r->sus[0].mib[7] == 10 && isnan(r->sus[0].celsius[0]));
	CHECK(rep_table_sustain(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 2);
	/* seq: the cliff at sample 7, whose second starts 1.5 + 7 - 1 s in */
	CHECK_STR(rep_table_cell(&t, 0, 1)->text, "seq");
	CHECK(fabs(rep_table_cell(&t, 0, 3)->num - 40) < 1e-9);
	CHECK_STR(rep_table_cell(&t, 0, 4)->text, "fell below 50 % of the base");
	CHECK(fabs(rep_table_cell(&t, 0, 5)->num - 7.5) < 1e-9);
	CHECK(fabs(rep_table_cell(&t, 0, 6)->num - 10) < 1e-9);
	CHECK(fabs(rep_table_cell(&t, 0, 7)->num - 0.25) < 1e-9);
	CHECK_STR(rep_table_cell(&t, 0, 8)->text, "40, up to 60");
	CHECK_CONTAINS(rep_table_cell(&t, 0, 9)->text, "yes: +20 C");
	/* rand held */
	CHECK_CONTAINS(rep_table_cell(&t, 1, 4)->text, "none");
	CHECK(rep_table_cell(&t, 1, 5)->kind == CELL_MISSING);
	rep_table_free(&t);
	chart_check(r, "sustain");

	vd_lines("ext4", r, "sustain_level", "20", out, sizeof(out));
	CHECK_STR(out, "PASS raw seq sustained write: level after a cliff: 25 % (10.0 of 40.0 MiB/s) from 8 s|"
		       "PASS raw rand sustained write: level after a cliff: held (no cliff below 50 % of 40.0 MiB/s)|");
	vd_lines("ext4", r, "sustain_level", "30", out, sizeof(out));
	CHECK_CONTAINS(out, "FAIL raw seq");
	vd_lines("ext4", r, "sustain_level", "0", out, sizeof(out));
	CHECK_CONTAINS(out, "bad: ");
	rep_free(&set);

	/* a series without its sustain record is refused */
	static const char orphan[] =
		"{\"schema\":1,\"type\":\"sustain_series\",\"run_id\":\"00000000000000aa\",\"seq\":0,\"t\":1,"
		"\"fs\":\"raw\",\"workload\":\"seq\",\"from\":0,\"mib_per_s\":[1],\"celsius\":[null]}\n";
	struct rep_set s2 = { 0 };
	f = fmemopen((void *)orphan, sizeof(orphan) - 1, "r");
	CHECK(rep_load_stream(&s2, f, "mem", err, sizeof(err)) == -EBADMSG);
	CHECK_CONTAINS(err, "without a sustain record before it");
	fclose(f);
	rep_free(&s2);
}

/* The settings: the profile, the choices, and the two refusals. */
static void test_settings(void)
{
	struct fsb_config c;
	char err[512];

	CHECK(cli_merge(&c, (const char *const[]){ NULL }, err, sizeof(err)) == 0);
	CHECK_STR(c.sustain, "off");
	CHECK(c.sustain_seconds == 120 && c.sustain_share == 50 && c.sustain_base == 5 &&
	      c.sustain_hold == 5 && c.sustain_rise == 5);
	CHECK(cli_merge(&c, CLI("profile", "sustain"), err, sizeof(err)) == 0);
	CHECK_STR(c.sustain, "both");
	CHECK(c.smallfile == 0 && c.sustain_seconds == 120);
	CHECK(cli_refused(&c, "sustain", "sometimes", err, sizeof(err)));
	CHECK_CONTAINS(err, "allowed: one of off|raw|fs|both");
	CHECK(cli_merge(&c, CLI("sustain", "raw", "dir", "/tmp"), err, sizeof(err)) < 0);
	CHECK_STR(err, "command line --sustain: sustain=raw and dir=/tmp: the sustained write needs a target (its disk's speed and temperature)");
	CHECK(cli_merge(&c, CLI("sustain", "fs", "sustain_seconds", "9"), err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "sustain_base=5 + sustain_hold=5 is more than sustain_seconds=9");
	/* off: no such check */
	CHECK(cli_merge(&c, CLI("sustain_seconds", "9"), err, sizeof(err)) == 0);
}

FIXTURES_MAIN(test_bwlog, test_settings, test_report)

/* test_lava.c: the console lines of a LAVA monitors test (run/engine/lava.h):
 * markers, result lines with and without a measurement, test case ids
 * (phases; checks' text made an id and unique), refusals of bad ids, the
 * lines a run writes with and without the `lava` setting, and the lines of
 * `fsbench verdict --lava` (cmd/results.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/results.h"
#include "run/settings.h"
#include "run/core/context.h"
#include "run/engine/lava.h"
#include "runctx.h"
#include "unit.h"

static void test_format(void)
{
	char b[FSB_LAVA_LINE_MAX], id[FSB_LAVA_ID_MAX];

	CHECK(fsb_lava_marker(b, sizeof(b), "start", "c0ae145ed8f7a190") > 0);
	CHECK_STR(b, "FSBENCH-LAVA: start run=c0ae145ed8f7a190\n");
	CHECK(fsb_lava_marker(b, sizeof(b), "end", "c0ae145ed8f7a190") > 0);
	CHECK_STR(b, "FSBENCH-LAVA: end run=c0ae145ed8f7a190\n");
	CHECK(fsb_lava_marker(b, 10, "end", "c0ae145ed8f7a190") < 0);

	CHECK(fsb_lava_result(b, sizeof(b), "ext4-r1-create", 1, 8.22, "s") > 0);
	CHECK_STR(b, "FSBENCH-RESULT: test_case_id=ext4-r1-create result=pass measurement=8.22 units=s\n");
	/* the record's precision: 9 significant digits */
	CHECK(fsb_lava_result(b, sizeof(b), "xfs-r2-read_inode", 0, 1.23456789012, "s") > 0);
	CHECK_STR(b, "FSBENCH-RESULT: test_case_id=xfs-r2-read_inode result=fail measurement=1.23456789 units=s\n");
	/* no number: no measurement, no units */
	CHECK(fsb_lava_result(b, sizeof(b), "fsbench-run", 1, NAN, "s") > 0);
	CHECK_STR(b, "FSBENCH-RESULT: test_case_id=fsbench-run result=pass\n");
	/* a number without a unit is a count */
	CHECK(fsb_lava_result(b, sizeof(b), "verdict-errors", 1, 0, "") > 0);
	CHECK_STR(b, "FSBENCH-RESULT: test_case_id=verdict-errors result=pass measurement=0 units=count\n");
	/* ids LAVA would not take are refused */
	CHECK(fsb_lava_result(b, sizeof(b), "ext4 r1", 1, 1, "s") < 0);
	CHECK(fsb_lava_result(b, sizeof(b), "", 1, 1, "s") < 0);
	CHECK(fsb_lava_result(b, sizeof(b), "a/b", 1, 1, "s") < 0);
	CHECK(fsb_lava_result(b, 20, "ext4-r1-create", 1, 1, "s") < 0);
	CHECK(fsb_lava_id_ok("ext4-r1-read_inode"));
	CHECK(fsb_lava_id_ok("v.1_A-b"));
	CHECK(!fsb_lava_id_ok("x=y"));
	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = 0;
	CHECK(fsb_lava_id_ok(id));	/* the longest id */
	char big[FSB_LAVA_ID_MAX + 1];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	CHECK(!fsb_lava_id_ok(big));

	CHECK(fsb_lava_phase_id(id, sizeof(id), "btrfs", 2, "read_inode") > 0);
	CHECK_STR(id, "btrfs-r2-read_inode");
}

static void test_text_id(void)
{
	char ids[4][FSB_LAVA_ID_MAX], b[FSB_LAVA_ID_MAX];
	char longtext[400];

	fsb_lava_text_id(ids[0], sizeof(ids[0]), "verdict-", "ext4 create files/s (fresh, round 1)", ids, 0);
	CHECK_STR(ids[0], "verdict-ext4-create-files-s-fresh-round-1");
	fsb_lava_text_id(ids[1], sizeof(ids[1]), "verdict-",
			 "kernel messages (warning or worse)", ids, 1);
	CHECK_STR(ids[1], "verdict-kernel-messages-warning-or-worse");
	/* the same text again: made unique */
	fsb_lava_text_id(ids[2], sizeof(ids[2]), "verdict-", "Ext4 create files/s (fresh, round 1)", ids, 2);
	CHECK_STR(ids[2], "verdict-ext4-create-files-s-fresh-round-1-2");
	fsb_lava_text_id(ids[3], sizeof(ids[3]), "verdict-", "ext4 create: files/s (fresh, round 1)!", ids, 3);
	CHECK_STR(ids[3], "verdict-ext4-create-files-s-fresh-round-1-3");
	fsb_lava_text_id(b, sizeof(b), "verdict-", "  ()  ", ids, 0);
	CHECK_STR(b, "verdict");
	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = 0;
	fsb_lava_text_id(b, sizeof(b), "verdict-", longtext, ids, 0);
	CHECK(fsb_lava_id_ok(b));
	CHECK(strncmp(b, "verdict-xxx", 11) == 0);
	for (size_t i = 0; i < 4; i++)
		CHECK(fsb_lava_id_ok(ids[i]));
}

/* What a run writes to its stdout through the context. */
static void test_run_lines(void)
{
	struct fsb_ctx c;
	FILE *f = ctx_open(&c);

	CHECK(c.cfg.lava == 0);
	if (!f)
		return;
	c.run_id = 0xc0ae145ed8f7a190ull;
	fsb_lava_start(&c);
	fsb_lava_phase(&c, "ext4", 1, "create", 8.22, 0);
	CHECK(ftell(f) == 0 && lseek(c.out_fd, 0, SEEK_CUR) == 0);	/* off: nothing */
	c.cfg.lava = 1;
	fsb_lava_start(&c);
	fsb_lava_phase(&c, "ext4", 1, "create", 8.22, 0);
	fsb_lava_phase(&c, "f2fs", 2, "read", 0.5, 1);
	CHECK_STR(ctx_text(&c), "FSBENCH-LAVA: start run=c0ae145ed8f7a190\n"
		  "FSBENCH-RESULT: test_case_id=ext4-r1-create result=pass measurement=8.22 units=s\n"
		  "FSBENCH-RESULT: test_case_id=f2fs-r2-read result=fail measurement=0.5 units=s\n");
	fclose(f);
}

static void test_verdict_lines(void)
{
	struct vd_check k[7];
	struct vd_result res;
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	memset(k, 0, sizeof(k));
	snprintf(k[0].what, sizeof(k[0].what), "ext4 create files/s (fresh, round 1)");
	k[0].value = 2863, k[0].unit = "files/s", k[0].measured_ok = 1, k[0].pass = 0, k[0].kind = VD_FAIL;
	snprintf(k[1].what, sizeof(k[1].what), "xfs ran to the end");
	k[1].value = NAN, k[1].unit = "", k[1].measured_ok = 1, k[1].pass = 1, k[1].kind = VD_PASS;
	snprintf(k[2].what, sizeof(k[2].what), "kernel messages (warning or worse)");
	k[2].value = 1, k[2].unit = "", k[2].measured_ok = 0, k[2].pass = 0;	/* not measured */
	k[2].kind = VD_FAIL;
	snprintf(k[3].what, sizeof(k[3].what), "errors");
	k[3].value = 0, k[3].unit = "", k[3].measured_ok = 1, k[3].pass = 1, k[3].kind = VD_PASS;
	/* ERROR: LAVA's unknown; SKIP: skip; a known failure: its line first */
	snprintf(k[4].what, sizeof(k[4].what), "f2fs ran to the end");
	k[4].value = NAN, k[4].unit = "", k[4].measured_ok = 1, k[4].kind = VD_ERROR;
	snprintf(k[5].what, sizeof(k[5].what), "a discarded range of the target reads back as zeroes");
	k[5].value = NAN, k[5].unit = "", k[5].kind = VD_SKIP;
	snprintf(k[6].what, sizeof(k[6].what), "xfs read p99 latency (all rounds)");
	k[6].value = 27918, k[6].unit = "us", k[6].measured_ok = 1, k[6].kind = VD_FAIL;
	snprintf(k[6].known, sizeof(k[6].known), "https://bugs.example.org/7");
	snprintf(k[6].known_where, sizeof(k[6].known_where), "known.txt:2");
	snprintf(k[6].known_until, sizeof(k[6].known_until), "2099-12-31");
	memset(&res, 0, sizeof(res));
	res.check = k;
	res.n = 7;
	if (!m)
		return;
	verdict_lava(m, &res);
	fclose(m);
	CHECK_STR(out, "FSBENCH-RESULT: test_case_id=verdict-ext4-create-files-s-fresh-round-1 result=fail measurement=2863 units=files/s\n"
		  "FSBENCH-RESULT: test_case_id=verdict-xfs-ran-to-the-end result=pass\n"
		  "FSBENCH-RESULT: test_case_id=verdict-kernel-messages-warning-or-worse result=fail\n"
		  "FSBENCH-RESULT: test_case_id=verdict-errors result=pass measurement=0 units=count\n"
		  "FSBENCH-RESULT: test_case_id=verdict-f2fs-ran-to-the-end result=unknown\n"
		  "FSBENCH-RESULT: test_case_id=verdict-a-discarded-range-of-the-target-reads-back-as-zeroes result=skip\n"
		  "FSBENCH-KNOWN: test_case_id=verdict-xfs-read-p99-latency-all-rounds link=https://bugs.example.org/7 until=2099-12-31 where=known.txt:2\n"
		  "FSBENCH-RESULT: test_case_id=verdict-xfs-read-p99-latency-all-rounds result=fail measurement=27918 units=us\n");
	free(out);
}

UNIT_MAIN(test_format, test_text_id, test_run_lines, test_verdict_lines)

/* test_report_load.c: loading result records into the run model
 * (fixtures.h): every field of a run, the medians and the summary rows,
 * rounds, latency and errors, console prefixes, malformed records each
 * refused with its line and reason, what is taken leniently, two runs in
 * one file. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsbench.h"
#include "report/output.h"
#include "cmd.h"
#include "fixtures.h"
#include "records.h"
#include "unit.h"

static void test_load(void)
{
	struct rep_set set;
	char err[512];

	CHECK(rep_load(&set, path_run, err, sizeof(err)) == 0);
	CHECK_EQ_U(set.nruns, 1);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_STR(r->run_id, "1a2b3c4d5e6f7a8b");
	CHECK(r->have_start && r->have_end);
	CHECK_STR(r->hostname, "bench1");
	CHECK_STR(r->mem_bytes, "68719476736");
	CHECK_STR(r->status, "failed");
	CHECK_EQ_U(r->exit_code, 1);
	CHECK_EQ_U(r->nph, 30);
	CHECK_EQ_U(r->nfs, 3);
	CHECK_STR(r->nfs > 2 ? r->fs[0].name : NULL, "ext4");
	CHECK_STR(r->nfs > 2 ? r->fs[1].name : NULL, "xfs");
	CHECK_STR(r->nfs > 2 ? r->fs[2].name : NULL, "f2fs");
	CHECK_STR(r->nfs > 2 ? r->fs[2].status : NULL, "skipped");
	CHECK_STR(r->nfs > 2 ? r->fs[2].reason : NULL, "mkfs.f2fs not found");
	CHECK_EQ_U(r->nfs > 2 ? r->fs[2].nphases : 99, 0);
	CHECK_EQ_U(r->nev, 2);
	CHECK_EQ_U(r->nev_total, 2);
	/* the phase on a CRLF line and the unprefixed ones are all there */
	const struct rep_phase *p = r->nph == 30 ? &r->ph[6] : NULL;	/* ext4 r2 stat, unprefixed */
	CHECK(p && strcmp(p->phase, "stat") == 0 && p->round == 2 && p->seconds == 0.45);
	CHECK(p && p->cold == 1 && p->workers == 16 && p->have_lat);
	CHECK(p && p->lat_ns[LAT_P50] == 1700 && p->lat_ns[LAT_MEAN] == 5000);
	CHECK(p && p->sync_seconds < 0);
	p = r->nph == 30 ? &r->ph[20] : NULL;	/* xfs r2 create */
	CHECK(p && strcmp(p->fs, "xfs") == 0 && p->errors == 1 && p->sync_seconds == 1.0);
	CHECK(p && p->files == 320000 && p->bytes == 320000ull * 4096);
	rep_free(&set);
	CHECK(set.runs == NULL && set.nruns == 0);
}

static void test_median(void)
{
	double a[] = { 3, 1, 2 };
	double b[] = { 4, 1, 3, 2 };
	double c[] = { 7 };
	double d[] = { 20, 8, 9 };
	CHECK(rep_median(a, 3) == 2);
	CHECK(rep_median(b, 4) == 2.5);
	CHECK(rep_median(c, 1) == 7);
	CHECK(rep_median(d, 3) == 9);	/* not the mean, 12.33 */
}

static void test_summary(void)
{
	struct rep_set set;
	struct rep_table t;
	double v = 0;
	const struct rep_run *r = fixture_run(&set, path_run);

	if (!r)
		return;
	CHECK(rep_summary(r, "ext4", ROW_CREATE, 0, &v) == 1 && v == 9.0);
	CHECK(rep_summary(r, "ext4", ROW_READ_FRESH, 0, &v) == 1 && v == 5.2);
	CHECK(rep_summary(r, "ext4", ROW_READ_AGED, 0, &v) == 1 && v == 35.0);
	CHECK(rep_summary(r, "xfs", ROW_DELETE, 0, &v) == 1 && v == 28.5);
	CHECK(rep_summary(r, "f2fs", ROW_CREATE, 0, &v) == 0);
	CHECK(rep_summary(r, "ext4", ROW_CREATE, 1, &v) == 1 && v > 35555.5 && v < 35555.6);
	CHECK_STR(rep_row_name(ROW_READ_AGED), "read cold (aged fs)");

	static const char *const md[ROW_N][3] = {
		{ "create (incl. sync)", "9.00", "52.3" },
		{ "stat walk (cold)", "0.450", "1.05" },
		{ "read cold (fresh fs)", "5.20", "11.0" },
		{ "read cold (aged fs)", "35.0", "11.4" },
		{ "read inode order (fresh fs)", "4.00", "10.0" },
		{ "read inode order (aged fs)", "4.60", "10.7" },
		{ "delete (incl. sync)", "32.8", "28.5" },
	};
	CHECK(view(rep_table_summary(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.ncols, 3);	/* f2fs was skipped: no column */
	CHECK_EQ_U(t.nrows, ROW_N);
	CHECK_STR(head(&t, 0), "phase");
	CHECK_STR(head(&t, 1), "ext4");
	CHECK_STR(head(&t, 2), "xfs");
	for (size_t i = 0; i < ROW_N && t.nrows == ROW_N; i++)
		for (size_t c = 0; c < 3; c++)
			CHECK_STR(cell(&t, MD, i, c), md[i][c]);
	rep_table_free(&t);

	CHECK(view(rep_table_summary(r, &t), &t, CSV) == 0);
	CHECK_STR(cell(&t, CSV, ROW_CREATE, 1), "9.000000");
	CHECK_STR(cell(&t, CSV, ROW_CREATE, 2), "52.300000");
	CHECK_STR(cell(&t, CSV, ROW_READ_AGED, 1), "35.000000");
	CHECK_STR(cell(&t, CSV, ROW_INODE_AGED, 2), "10.700000");
	CHECK_STR(cell(&t, CSV, ROW_STAT, 1), "0.450000");
	rep_table_free(&t);

	CHECK(view(rep_table_rate(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 2);
	{
		static const struct cell_want want[] = {
			{ 0, 0, "create files/s" }, { 0, 1, "35556" }, { 0, 2, "6119" },
			{ 1, 0, "delete files/s" }, { 1, 1, "9756" }, { 1, 2, "11228" },
		};
		CELLS_CHECK(&t, MD, want);
	}
	rep_table_free(&t);

	CHECK(view(rep_table_fs_status(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 1);	/* only what needs a note */
	CHECK_STR(cell(&t, MD, 0, 0), "f2fs");
	CHECK_STR(cell(&t, MD, 0, 1), "skipped");
	CHECK_STR(cell(&t, MD, 0, 2), "mkfs.f2fs not found");
	rep_table_free(&t);
	CHECK(view(rep_table_fs_status(r, &t), &t, CSV) == 0);
	CHECK_EQ_U(t.nrows, 3);
	CHECK_STR(cell(&t, CSV, 1, 1), "ok");
	rep_table_free(&t);

	CHECK(view(rep_table_run(r, &t), &t, MD) == 0);
	{
		static const struct cell_want want[] = {
			{ 0, 1, "1a2b3c4d5e6f7a8b" }, { 1, 1, "bench1 (x86_64), 16 CPUs, 64.0 GiB" },
			{ 3, 1, "6.17.0-test (#1 SMP)" },
			{ 4, 1, "/dev/nvme1n1, Test NVMe (serial S123), 10.0 GiB;" " write back cache, FUA" },
			{ 5, 1, "profile seed; fs ext4,xfs,f2fs; 16 dirs x 20000 files" " x 4096 bytes; 16 workers; 3 rounds" },
			{ 6, 1, "failed (exit 1, 1234.5 s)" },
		};
		CELLS_CHECK(&t, MD, want);
	}
	rep_table_free(&t);
	rep_free(&set);
}

static void test_rounds_latency_errors(void)
{
	struct rep_set set;
	struct rep_table t;
	const struct rep_run *r = fixture_run(&set, path_run);

	if (!r)
		return;
	CHECK(view(rep_table_rounds(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 30);
	CHECK_EQ_U(t.ncols, 11);
	static const char *const r12[] = { "ext4", "3", "read", "name", "yes", "40.0", "-",
		"320000", "8000", "0", "1" };
	static const char *const r20[] = { "xfs", "2", "create", "name", "no", "50.0", "1.00",
		"320000", "6400", "1", "0" };
	for (size_t c = 0; c < 11 && t.nrows == 30; c++) {
		CHECK_STR(cell(&t, MD, 12, c), r12[c]);
		CHECK_STR(cell(&t, MD, 20, c), r20[c]);
	}
	CHECK_STR(cell(&t, MD, 1, 3), "readdir");
	CHECK_STR(cell(&t, MD, 1, 5), "0.400");
	rep_table_free(&t);
	CHECK(view(rep_table_rounds(r, &t), &t, CSV) == 0);
	CHECK_STR(head(&t, 8), "files_per_s");
	CHECK_STR(cell(&t, CSV, 12, 5), "40.000000");
	CHECK_STR(cell(&t, CSV, 12, 6), "");
	CHECK_STR(cell(&t, CSV, 12, 8), "8000.0");
	rep_table_free(&t);

	CHECK(view(rep_table_latency(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 30);
	CHECK_STR(head(&t, 6), "p99.9");
	static const char *const l27[] = { "xfs", "3", "read", "1.80", "12.3", "459.8",
		"2346", "13000" };
	for (size_t c = 0; c < 8; c++)
		CHECK_STR(cell(&t, MD, 27, c), l27[c]);
	rep_table_free(&t);
	CHECK(view(rep_table_latency(r, &t), &t, CSV) == 0);
	static const char *const c27[] = { "xfs", "3", "read", "1.800", "12.345", "459.789",
		"2345.678", "13000.000" };
	for (size_t c = 0; c < 8; c++)
		CHECK_STR(cell(&t, CSV, 27, c), c27[c]);
	rep_table_free(&t);

	CHECK(view(rep_table_errors(r, &t), &t, MD) == 0);
	CHECK_EQ_U(t.nrows, 2);
	static const char *const e0[] = { "verify_error", "ext4", "3", "read", "verify",
		"d01/f000007", "3996 bytes wrong, the first at offset 100" };
	static const char *const e1[] = { "error", "xfs", "2", "create", "open",
		"d03/f000123", "No space left on device (errno 28)" };
	for (size_t c = 0; c < 7; c++) {
		CHECK_STR(cell(&t, MD, 0, c), e0[c]);
		CHECK_STR(cell(&t, MD, 1, c), e1[c]);
	}
	rep_table_free(&t);
	rep_free(&set);
}

/* text refused as malformed (-EBADMSG), the error being want. */
static void malformed(const char *text, const char *want)
{
	struct rep_set set;
	char err[512];

	CHECK(load_text(&set, text, err, sizeof(err)) == -EBADMSG);
	CHECK_STR(err, want);
	rep_free(&set);
}

static void test_prefix(void)
{
	struct rep_set set;
	char err[512];
	static const char text[] =
		"U-Boot 2024.01\n"
		"\n"
		"[    2.0] fsbench: starting\n"
		"FSB: {\"type\":\"run_start\",\"run_id\":\"r1\",\"host\":{\"hostname\":\"h\"}}\n"
		"console noise FSB: {\"type\":\"phase\",\"run_id\":\"r1\",\"fs\":\"ext4\","
		"\"round\":1,\"phase\":\"create\",\"seconds\":2.5,\"files\":100}\r\n"
		"{\"type\":\"phase\",\"run_id\":\"r1\",\"fs\":\"ext4\",\"round\":2,"
		"\"phase\":\"create\",\"seconds\":1.5}\n"
		"no brace here\n"
		"FSB: {\"type\":\"run_end\",\"run_id\":\"r1\",\"status\":\"ok\"}";	/* no final newline */

	CHECK(load_text(&set, text, err, sizeof(err)) == 0);
	CHECK_EQ_U(set.lines, 8);
	CHECK_EQ_U(set.records, 4);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->nph == 2 && r->have_end && r->have_start);
	CHECK(r && r->nph == 2 && r->ph[0].seconds == 2.5 && r->ph[0].files_per_s == 40);
	CHECK(r && r->nph == 2 && r->ph[1].round == 2);
	rep_free(&set);

	/* the error column counts the prefix: '{' is column 6 here */
	malformed("FSB: x\nFSB: {\"a\" 1}\n",
		  "mem.jsonl:2: expected ':', found '1' at column 11");
	malformed("noise {\n",
		  "mem.jsonl:1: unexpected end of input (expected a string (member name)) at column 8");

	/* a kernel message the console printed right after a record, before
	 * its newline, is not part of it; without the prefix (a .jsonl line)
	 * or without a printk timestamp it is still an error */
	CHECK(load_text(&set, "FSB: {\"type\":\"run_start\",\"run_id\":\"r1\"}[   12.555790] Buffer I/O error on dev nvme0n1\n"
			"FSB: {\"type\":\"run_end\",\"run_id\":\"r1\",\"status\":\"ok\"}\n", err, sizeof(err)) == 0);
	r = rep_find(&set, NULL);
	CHECK(r && r->have_start && r->have_end);
	CHECK_EQ_U(set.records, 2);
	rep_free(&set);
	malformed("{\"type\":\"run_start\",\"run_id\":\"r1\"}[   12.555790] x\n",
		  "mem.jsonl:1: trailing characters after the value at column 35");
	malformed("FSB: {\"type\":\"run_start\",\"run_id\":\"r1\"} tail\n",
		  "mem.jsonl:1: trailing characters after the value at column 41");
}

static void test_bad_records(void)
{
	struct rep_set set;
	char err[512];
	static const struct { const char *text, *msg; } cases[] = {
		{ "{\"run_id\":\"r\"}", "mem.jsonl:1: record without a \"type\" string" },
		{ "{\"type\":\"note\"}", "mem.jsonl:1: note record without a \"run_id\"" },
		{ "{\"type\":\"note\",\"run_id\":\"\"}", "mem.jsonl:1: note record with an empty \"run_id\"" },
		{ "\n{\"type\":\"phase\",\"run_id\":1,\"round\":1,\"phase\":\"stat\",\"seconds\":1}",
		  "mem.jsonl:2: phase record without a \"fs\" string" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1,\"seconds\":1}",
		  "mem.jsonl:1: phase record without a \"phase\" string" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":0,\"phase\":\"stat\",\"seconds\":1}",
		  "mem.jsonl:1: phase record: \"round\" must be a whole number from 1" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1.5,\"phase\":\"stat\",\"seconds\":1}",
		  "mem.jsonl:1: phase record: \"round\" must be a whole number from 1" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1,\"phase\":\"stat\"}",
		  "mem.jsonl:1: phase record: \"seconds\" must be a number >= 0" },
		{ "{\"type\":\"phase\",\"run_id\":1,\"fs\":\"x\",\"round\":1,\"phase\":\"stat\",\"seconds\":1e999}",
		  "mem.jsonl:1: phase record: \"seconds\" must be a number >= 0" },
		{ "{\"type\":\"fs_end\",\"run_id\":1}", "mem.jsonl:1: fs_end record without a \"fs\" string" },
		{ "{\"type\":\"note\",\"run_id\":1} {}", "mem.jsonl:1: trailing characters after the value at column 28" },
#define LAY_NAME "\"name_order\":{\"forward\":0.5,\"near\":0.5,\"median_jump_blocks\":3}"
#define LAY_INODE "\"inode_order\":{\"forward\":0.5,\"near\":0.5,\"median_jump_blocks\":3}"
		{ "{\"type\":\"layout\",\"run_id\":1,\"round\":1,\"files\":2," LAY_NAME "," LAY_INODE "}",
		  "mem.jsonl:1: layout record without a \"fs\" string" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":0,\"files\":2," LAY_NAME "," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"round\" must be a whole number from 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2," LAY_NAME "," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"files\" must be a whole number >= 0" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_INODE "}",
		  "mem.jsonl:1: layout record without a \"name_order\" object (or an \"error\")" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  "\"inode_order\":[]}",
		  "mem.jsonl:1: layout record without a \"inode_order\" object (or an \"error\")" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  "\"inode_order\":{\"forward\":0.5,\"near\":1.5,\"median_jump_blocks\":3}}",
		  "mem.jsonl:1: layout record: \"inode_order.near\" must be a number from 0 to 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2,"
		  "\"name_order\":{\"forward\":\"0.5\",\"near\":0.5,\"median_jump_blocks\":3}," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"name_order.forward\" must be a number from 0 to 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2,"
		  "\"name_order\":{\"forward\":0.5,\"near\":-0.1,\"median_jump_blocks\":3}," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"name_order.near\" must be a number from 0 to 1" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2,"
		  "\"name_order\":{\"forward\":0.5,\"near\":0.5,\"median_jump_blocks\":-1}," LAY_INODE "}",
		  "mem.jsonl:1: layout record: \"name_order.median_jump_blocks\" must be a whole number >= 0" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  LAY_INODE ",\"first_blocks\":[1,\"2\"]}",
		  "mem.jsonl:1: layout record: \"first_blocks\" must be an array of block numbers" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"files\":2," LAY_NAME ","
		  LAY_INODE ",\"first_blocks\":7}",
		  "mem.jsonl:1: layout record: \"first_blocks\" must be an array of block numbers" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"error\":5}",
		  "mem.jsonl:1: layout record: \"error\" must be a non-empty string" },
		{ "{\"type\":\"layout\",\"run_id\":1,\"fs\":\"x\",\"round\":2,\"error\":\"\"}",
		  "mem.jsonl:1: layout record: \"error\" must be a non-empty string" },
#undef LAY_NAME
#undef LAY_INODE
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(load_text(&set, cases[i].text, err, sizeof(err)) == -EBADMSG);
		CHECK_STR(err, cases[i].msg);
		rep_free(&set);
	}

	/* a line longer than REP_MAX_LINE is refused, not parsed */
	size_t n = REP_MAX_LINE + 10;
	char *big = malloc(n + 1);
	if (big) {
		memset(big, ' ', n);
		big[0] = '{';
		big[n] = '\0';
		CHECK(load_text(&set, big, err, sizeof(err)) == -EBADMSG);
		CHECK_CONTAINS(err, "mem.jsonl:1: line too long");
		rep_free(&set);
		free(big);
	}

	/* a malformed fixture line: file name, line, reason, column */
	CHECK(rep_load(&set, path_bad, err, sizeof(err)) == -EBADMSG);
	char want[1200];
	snprintf(want, sizeof(want), "%s:3: expected ':', found '\"' at column 41", path_bad);
	CHECK_STR(err, want);
	rep_free(&set);

	/* a read error (a folder opened as a stream) is not an end of input */
	FILE *dirf = fopen(".", "r");
	if (dirf) {
		memset(&set, 0, sizeof(set));
		CHECK(rep_load_stream(&set, dirf, "here", err, sizeof(err)) == -EISDIR);
		CHECK_STR(err, "here: Is a directory");
		fclose(dirf);
		rep_free(&set);
	}

	/* a malformed layout record in a file: file name, line, which field */
	CHECK(rep_load(&set, path_layout_bad, err, sizeof(err)) == -EBADMSG);
	snprintf(want, sizeof(want), "%s:4: layout record: \"name_order.near\" must be a number"
		 " from 0 to 1", path_layout_bad);
	CHECK_STR(err, want);
	rep_free(&set);

	CHECK(rep_load(&set, "no/such/file.jsonl", err, sizeof(err)) == -ENOENT);
	CHECK_STR(err, "no/such/file.jsonl: No such file or directory");
	rep_free(&set);
}

static void test_lenient(void)
{
	struct rep_set set;
	char err[512];
	/* numeric run_id, the same round twice (the later wins), no lat_ns, no
	 * files_per_s, a '|' in a name, unknown record types */
	static const char text[] =
		"{\"type\":\"fs_start\",\"run_id\":7,\"fs\":\"a|b\"}\n"
		"{\"type\":\"diagnosis\",\"run_id\":7,\"x\":[1,2,{\"y\":null}]}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":1,\"phase\":\"create\",\"seconds\":4,\"files\":8}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":1,\"phase\":\"create\",\"seconds\":6}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":2,\"phase\":\"create\",\"seconds\":1}\n"
		"{\"type\":\"phase\",\"run_id\":7,\"fs\":\"a|b\",\"round\":1,\"phase\":\"read\",\"seconds\":1,\"cold\":false}\n"
		"{\"type\":\"verify_error\",\"run_id\":7,\"fs\":\"a|b\",\"round\":2,\"phase\":\"stat\","
		"\"file\":\"d00/f1\",\"what\":\"size\",\"offset\":0,\"count\":4096}\n";

	CHECK(load_text(&set, text, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, "7");
	CHECK(r != NULL);
	if (r) {
		double v = 0;
		CHECK(rep_summary(r, "a|b", ROW_CREATE, 0, &v) == 1 && v == 3.5);	/* (6+1)/2 */
		CHECK(r->nph == 4 && r->ph[0].files_per_s == 2 && !r->ph[0].have_lat);
		char *s = render(r, MD);
		CHECK_CONTAINS(s, "| a\\|b |");
		CHECK_CONTAINS(s, "- status: incomplete (no run_end record)\n");
		CHECK_CONTAINS(s, "- host: unknown (no run_start record)\n");
		CHECK_CONTAINS(s, "- a\\|b: incomplete: no fs_end record\n- warm cache: 1 stat/read phase"
			       " ran without a remount (cold: false); those \"cold\" figures are warm\n");
		CHECK_CONTAINS(s, "| a\\|b |     2 | create |   - |   - |   - |     - |   - |\n");
		CHECK_CONTAINS(s, "| verify_error | a\\|b |     2 | stat  | size | d00/f1 | size 0, expected 4096 |\n");	/* no latency */
		free(s);
	}
	rep_free(&set);

	/* many rounds (more than the summary's first buffer holds) */
	char *rounds = malloc(21 * 120 + 1);
	if (rounds) {
		size_t k = 0;
		for (int i = 21; i >= 1; i--)	/* seconds = round, newest first */
			k += (size_t)sprintf(rounds + k, "{\"type\":\"phase\",\"run_id\":\"m\","
					     "\"fs\":\"x\",\"round\":%d,\"phase\":\"read\","
					     "\"seconds\":%d}\n", i, i * (i % 2 ? 1 : 100));
		CHECK(load_text(&set, rounds, err, sizeof(err)) == 0);
		r = rep_find(&set, NULL);
		double v = 0;
		/* rounds 2..21: 10 odd ones (3..21) and 10 even ones (x100) */
		CHECK(r && rep_summary(r, "x", ROW_READ_AGED, 0, &v) == 1 && v == (21 + 200) / 2.0);
		CHECK(r && rep_summary(r, "x", ROW_READ_FRESH, 0, &v) == 1 && v == 1);
		rep_free(&set);
		free(rounds);
	}

	/* more error records than are kept: counted, and said so */
	char *many = malloc(150 * 80 + 200);
	if (many) {
		size_t k = (size_t)sprintf(many, "{\"type\":\"phase\",\"run_id\":\"e\",\"fs\":\"x\","
					   "\"round\":1,\"phase\":\"read\",\"seconds\":1}\n");
		for (int i = 0; i < 150; i++)
			k += (size_t)sprintf(many + k, "{\"type\":\"error\",\"run_id\":\"e\",\"fs\":\"x\","
					     "\"msg\":\"m%d\"}\n", i);
		CHECK(load_text(&set, many, err, sizeof(err)) == 0);
		r = rep_find(&set, NULL);
		CHECK(r && r->nev == REP_MAX_EVENTS && r->nev_total == 150);
		struct rep_table t;
		if (r && view(rep_table_errors(r, &t), &t, MD) == 0) {
			CHECK_EQ_U(t.nrows, REP_MAX_EVENTS + 1);
			CHECK_STR(cell(&t, MD, 0, 6), "m0");
			CHECK_STR(cell(&t, MD, REP_MAX_EVENTS, 6), "50 more not listed");
			rep_table_free(&t);
		}
		rep_free(&set);
		free(many);
	}
}

static void test_two_runs(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[512];

	CHECK(rep_load(&set, path_two, err, sizeof(err)) == 0);
	CHECK_EQ_U(set.nruns, 2);
	const struct rep_run *last = rep_find(&set, NULL);
	const struct rep_run *a = rep_find(&set, "aaaa000000000001");
	CHECK_STR(last ? last->run_id : NULL, "bbbb000000000002");
	CHECK_STR(a ? a->run_id : NULL, "aaaa000000000001");
	CHECK(rep_find(&set, "aaaa") == a);	/* a unique prefix */
	CHECK(rep_find(&set, "zzzz") == NULL);
	CHECK(rep_find(&set, "") == NULL);
	CHECK_STR(a ? a->hostname : NULL, "hostA");
	CHECK_EQ_U(a ? a->nph : 0, 4);
	CHECK_EQ_U(last ? last->nph : 0, 9);

	/* one round: the aged cells say "-", and each run has its own values */
	if (a && view(rep_table_summary(a, &t), &t, MD) == 0) {
		CHECK_EQ_U(t.ncols, 2);
		CHECK_STR(cell(&t, MD, ROW_CREATE, 1), "10.0");
		CHECK_STR(cell(&t, MD, ROW_READ_FRESH, 1), "6.00");
		CHECK_STR(cell(&t, MD, ROW_READ_AGED, 1), "-");
		CHECK_STR(cell(&t, MD, ROW_INODE_FRESH, 1), "-");
		rep_table_free(&t);
	}
	if (last && view(rep_table_summary(last, &t), &t, MD) == 0) {
		CHECK_EQ_U(t.ncols, 3);
		CHECK_STR(head(&t, 2), "btrfs");
		CHECK_STR(cell(&t, MD, ROW_CREATE, 1), "18.0");
		CHECK_STR(cell(&t, MD, ROW_CREATE, 2), "70.5");
		CHECK_STR(cell(&t, MD, ROW_READ_AGED, 2), "-");
		CHECK_STR(cell(&t, MD, ROW_INODE_FRESH, 1), "2.50");
		rep_table_free(&t);
	}
	rep_free(&set);

	/* an ambiguous prefix finds nothing */
	CHECK(load_text(&set, "{\"type\":\"note\",\"run_id\":\"ab1\"}\n"
			"{\"type\":\"note\",\"run_id\":\"ab2\"}\n", err, sizeof(err)) == 0);
	CHECK(rep_find(&set, "ab") == NULL);
	CHECK(rep_find(&set, "ab2") == set.runs[1]);
	rep_free(&set);
}

FIXTURES_MAIN(test_load, test_median, test_summary, test_rounds_latency_errors, test_prefix,
	test_bad_records, test_lenient, test_two_runs)

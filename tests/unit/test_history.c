/* test_history.c: `fsbench history DIR`: one row per run folder or .jsonl
 * file, sorted by date, with the date, board and verdict from where each
 * was found; entries that cannot be read are named and left out. The
 * results folder is written into the scratch folder. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsbench.h"
#include "report/output.h"
#include "cmd.h"
#include "unit.h"

/* A run: run_start (time_unix when t, host extras), ext4 create and read
 * seconds, then extra records. */
static char *run(const char *id, const char *t, const char *host_extra, double create,
		 double read, const char *more)
{
	static char buf[4096];
	char tu[64] = "";
	if (t)
		snprintf(tu, sizeof(tu), "\"time_unix\":%s,", t);
	snprintf(buf, sizeof(buf),
		 "{\"type\":\"run_start\",\"run_id\":\"%s\",\"seq\":0,%s\"host\":{\"hostname\":\"h\","
		 "\"kernel\":\"6.1.0-57-amd64\"%s},\"target\":{\"model\":\"QEMU NVMe Ctrl\"},"
		 "\"config\":{\"profile\":\"smoke\"}}\n"
		 "{\"type\":\"phase\",\"run_id\":\"%s\",\"seq\":1,\"fs\":\"ext4\",\"round\":1,"
		 "\"phase\":\"create\",\"seconds\":%g,\"files\":10}\n"
		 "{\"type\":\"phase\",\"run_id\":\"%s\",\"seq\":2,\"fs\":\"ext4\",\"round\":1,"
		 "\"phase\":\"read\",\"seconds\":%g,\"files\":10}\n%s",
		 id, tu, host_extra, id, create, id, read, more);
	return buf;
}

static void make_results(void)
{
	mkdir("hist", 0755);
	/* 2025-11-30 10:00:00 UTC from the record; board from run.txt; the
	 * verdict from verdict.txt */
	mkdir("hist/01-qemu-x86_64-smoke", 0755);
	unit_write_file("hist/01-qemu-x86_64-smoke/records.jsonl",
		   run("r2", "1764496800", "", 1.5, 2.25, ""));
	unit_write_file("hist/01-qemu-x86_64-smoke/run.txt",
		   "run\n  board:                qemu-x86_64\n  profile:              smoke\n");
	unit_write_file("hist/01-qemu-x86_64-smoke/verdict.txt",
		   "ext4 ran to the end: ok; limit ok: PASS\nverdict: FAIL (2 of 28 checks failed)\n\n");
	/* its row links to report.html, before report.md */
	unit_write_file("hist/01-qemu-x86_64-smoke/report.html", "<html/>\n");
	unit_write_file("hist/01-qemu-x86_64-smoke/report.md", "# report\n");
	/* no clock in the record (1970): the date from the name; the board
	 * from the devicetree; a verdict record (which beats verdict.txt) */
	mkdir("hist/20251129-080000-rpi-smoke", 0755);
	unit_write_file("hist/20251129-080000-rpi-smoke/records.jsonl",
		   run("r1", "12", ",\"dt_model\":\"Raspberry Pi 4 Model B\"", 3, 4,
		       "{\"type\":\"fs_start\",\"run_id\":\"r1\",\"seq\":3,\"fs\":\"xfs\"}\n"
		       "{\"type\":\"phase\",\"run_id\":\"r1\",\"seq\":4,\"fs\":\"xfs\",\"round\":1,"
		       "\"phase\":\"delete\",\"seconds\":7,\"files\":10}\n"
		       "{\"type\":\"verdict\",\"run_id\":\"r1\",\"seq\":5,\"status\":\"pass\","
		       "\"check\":[{\"what\":\"a\",\"pass\":true},{\"what\":\"b\",\"pass\":true}]}\n"));
	unit_write_file("hist/20251129-080000-rpi-smoke/verdict.txt", "verdict: FAIL (1 of 1 checks failed)\n");
	/* an empty report.html is none: the row links to report.md */
	unit_write_file("hist/20251129-080000-rpi-smoke/report.html", "");
	unit_write_file("hist/20251129-080000-rpi-smoke/report.md", "# report\n");
	/* a .jsonl file: no date at all (last), the board from DMI, no verdict */
	unit_write_file("hist/old-run.jsonl",
		   run("r3", NULL, ",\"dmi\":{\"product_name\":\"Standard PC (Q35 + ICH9, 2009)\"}",
		       9, 9, ""));
	/* not runs: other files and hidden entries */
	unit_write_file("hist/README.md", "# results\n");
	mkdir("hist/.git", 0755);
}

static void test_rows(void)
{
	struct rep_history h;
	char err[256] = "";

	make_results();
	CHECK_EQ_U(rep_history_load(&h, "hist", err, sizeof(err)), 0);
	CHECK_EQ_U(h.n, 3);
	CHECK_EQ_U(h.nskip, 0);
	/* each run by its name, where its date, board and verdict come from
	 * (the board NULL: the host's, not looked at; the verdict NULL: none) */
	static const struct {
		const char *name, *board, *verdict;
		int when_from, board_from, verdict_from;
	} want[3] = {
		{ "20251129-080000-rpi-smoke", "Raspberry Pi 4 Model B", "PASS",
		  HIST_NAME, HIST_DEVICETREE, HIST_RECORD },
		{ "01-qemu-x86_64-smoke", "qemu-x86_64", "FAIL (2 of 28 checks failed)",
		  HIST_RECORD, HIST_RUN_TXT, HIST_VERDICT_TXT },
		{ "old-run.jsonl", NULL, NULL, HIST_NONE, HIST_DMI, HIST_NONE },
	};
	for (size_t i = 0; i < h.n && i < 3; i++) {
		CHECK_STR(h.e[i].name, want[i].name);
		CHECK_EQ_U(h.e[i].when_from, want[i].when_from);
		if (want[i].board)
			CHECK_STR(h.e[i].board, want[i].board);
		CHECK_EQ_U(h.e[i].board_from, want[i].board_from);
		if (want[i].verdict)
			CHECK_STR(h.e[i].verdict, want[i].verdict);
		else
			CHECK(h.e[i].verdict == NULL);
		CHECK_EQ_U(h.e[i].verdict_from, want[i].verdict_from);
	}
	if (h.n == 3)
		CHECK_EQ_U(h.e[1].when, 1764496800);
	rep_history_free(&h);

	char *o, *e;
	char *a1[] = { "history", "hist", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a1, &o, &e), 0);
	CHECK_STR(e, "");
	CHECK_CONTAINS(o, "| run                                                              | date (UTC)                        | board  ");
	CHECK_CONTAINS(o, "| ext4 create | ext4 read | ext4 delete | xfs create | xfs read | xfs delete |\n");
	/* each run links to its report.html, else report.md, else its records */
	const char *p0 = o ? strstr(o, "| [20251129-080000-rpi-smoke](20251129-080000-rpi-smoke/report.md) |") : NULL;
	const char *p1 = o ? strstr(o, "| [01-qemu-x86_64-smoke](01-qemu-x86_64-smoke/report.html)         |") : NULL;
	const char *p2 = o ? strstr(o, "| [old-run.jsonl](old-run.jsonl)                                   |") : NULL;
	CHECK(p0 && p1 && p2 && p0 < p1 && p1 < p2);	/* by date, unknown last */
	CHECK_CONTAINS(o, "| 2025-11-30 10:00:00               | qemu-x86_64                          |"
		       " 6.1.0-57-amd64 | QEMU NVMe Ctrl | smoke   | FAIL (2 of 28 checks failed) |"
		       "        1.50 |      2.25 |           - |");
	CHECK_CONTAINS(o, "| 2025-11-29 08:00:00 (folder name) | Raspberry Pi 4 Model B (devicetree) ");
	CHECK_CONTAINS(o, "| PASS                         |        3.00 |      4.00 |           - |"
		       "          - |        - |       7.00 |\n");
	CHECK_CONTAINS(o, "| [old-run.jsonl](old-run.jsonl)                                   | -                                 |"
		       " Standard PC (Q35 + ICH9, 2009) (DMI) |");
	CHECK_CONTAINS(o, "| none                         |");
	CHECK(!strstr(o, "README"));
	free(o), free(e);

	char *a2[] = { "history", "--format=csv", "hist/", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "history,run,run_id,date,date_from,board,board_from,kernel,target_model,"
		       "profile,verdict,verdict_from,ext4_create_s,ext4_read_s,ext4_delete_s,"
		       "xfs_create_s,xfs_read_s,xfs_delete_s\n");
	CHECK_CONTAINS(o, "history,01-qemu-x86_64-smoke,r2,2025-11-30 10:00:00,record,"
		       "qemu-x86_64,run.txt,6.1.0-57-amd64,QEMU NVMe Ctrl,smoke,"
		       "FAIL (2 of 28 checks failed),verdict.txt,1.500000,2.250000,,,,\n");
	CHECK_CONTAINS(o, "history,old-run.jsonl,r3,,,\"Standard PC (Q35 + ICH9, 2009)\",dmi,");
	CHECK_CONTAINS(o, ",none,,9.000000,9.000000,,,,\n");
	free(o), free(e);
}

/* A run folder whose name needs escaping, with records only: its row links
 * to its records, the href percent-encoded, the text escaped for each
 * writer; CSV has the name. */
static void test_links(void)
{
	static const char odd[] = "hist/20251130-120000-odd &\"<b>|[x]_y";
	char path[256], *o, *e;

	mkdir(odd, 0755);
	snprintf(path, sizeof(path), "%s/records.jsonl", odd);
	unit_write_file(path, run("r4", NULL, "", 1, 1, ""));

	char *a1[] = { "history", "hist", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a1, &o, &e), 0);
	CHECK_STR(e, "");
	CHECK_CONTAINS(o, "| [20251130-120000-odd &\"\\<b\\>\\|\\[x\\]\\_y]"
		       "(20251130-120000-odd%20%26%22%3Cb%3E%7C%5Bx%5D_y/records.jsonl) |");
	free(o), free(e);
	char *a2[] = { "history", "hist", "--format", "html", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "<tr><td><a href=\"20251130-120000-odd%20%26%22%3Cb%3E%7C%5Bx%5D_y/records.jsonl\">"
		       "20251130-120000-odd &amp;&quot;&lt;b&gt;|[x]_y</a></td>");
	CHECK_CONTAINS(o, "<tr><td><a href=\"01-qemu-x86_64-smoke/report.html\">01-qemu-x86_64-smoke</a></td>");
	CHECK_CONTAINS(o, "<tr><td><a href=\"old-run.jsonl\">old-run.jsonl</a></td>");
	free(o), free(e);
	char *a3[] = { "history", "hist", "--format", "csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a3, &o, &e), 0);
	CHECK_CONTAINS(o, "\nhistory,\"20251130-120000-odd &\"\"<b>|[x]_y\",r4,");
	CHECK(o && !strstr(o, "report.html"));
	free(o), free(e);

	remove(path);
	rmdir(odd);
}

/* Entries that cannot be read: named on stderr, left out; the exit code
 * is report's for the worst of them. */
static void test_skips(void)
{
	char *o, *e;

	mkdir("hist/20251201-000000-broken", 0755);	/* no records.jsonl */
	mkdir("hist/20251202-000000-empty", 0755);
	unit_write_file("hist/20251202-000000-empty/records.jsonl", "");
	char *a1[] = { "history", "hist", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a1, &o, &e), 4);
	CHECK_STR(e, "fsbench: history 20251201-000000-broken: left out: "
		  "hist/20251201-000000-broken/records.jsonl: No such file or directory\n"
		  "fsbench: history 20251202-000000-empty: left out: "
		  "hist/20251202-000000-empty/records.jsonl: no records\n");
	CHECK_CONTAINS(o, "| [old-run.jsonl](old-run.jsonl) ");	/* the others all the same */
	CHECK_CONTAINS(o, "| [20251129-080000-rpi-smoke](");
	free(o), free(e);

	/* only an entry without records: 5 (an error, never 1) */
	remove("hist/20251201-000000-broken/records.jsonl");
	rmdir("hist/20251201-000000-broken");
	char *a2[] = { "history", "hist", NULL };
	CHECK_EQ_U(run_cmd(cmd_history, a2, &o, &e), 5);
	CHECK_CONTAINS(e, "20251202-000000-empty/records.jsonl: no records\n");
	CHECK_CONTAINS(o, "| [old-run.jsonl](old-run.jsonl) ");
	free(o), free(e);

	/* a malformed line: 4, the line named */
	unit_write_file("hist/bad.jsonl", "{\"type\":\"run_start\",\"run_id\":\"x\" \"seq\":0}\n");
	CHECK_EQ_U(run_cmd(cmd_history, a2, &o, &e), 4);
	CHECK_CONTAINS(e, "fsbench: history bad.jsonl: left out: hist/bad.jsonl:1: ");
	free(o), free(e);

	/* no runs at all, no such folder, misuse */
	mkdir("hist-none", 0755);
	static const struct cmd_case unusable[] = {
		{ { "history", "hist-none" }, 5, .out = "", .err = "fsbench: history hist-none: no runs (run folders with records.jsonl, or"
			  " .jsonl files)\n" },
		{ { "history", "no/such/dir" }, 4, .out = "", .err = "fsbench: history no/such/dir: No such file or directory\n" },
		{ { "history" }, 2, .err_has = "fsbench: history: missing DIR\nusage: fsbench history DIR|FILE [--format md|csv|html]" },
		{ { "history", "hist", "--format", "junit" }, 2, .err_has = "fsbench: history: format 'junit' is for fsbench report\n" },
		{ { "history", "hist", "hist" }, 2, .err_has = "fsbench: history: too many arguments ('hist')\n" },
	};
	CMD_CASES(cmd_history, unusable);
}

UNIT_MAIN(test_rows, test_links, test_skips)

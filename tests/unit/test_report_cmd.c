/* test_report_cmd.c: the report's commands and the tables beyond one run
 * (fixtures.h): compare's tables, a refused run and its disks, the
 * published reference figures, `fsbench report` and `compare` as the
 * command line runs them (run folders, misuse, exit codes). */
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

/* Two runs side by side. The table has the rows A and B both have (B ran
 * ext4 with one round and btrfs, A ext4 and xfs with three): the rows only
 * one of them has are named under it. */
static void test_compare(void)
{
	struct rep_set sa, sb;
	struct rep_table t;
	struct rep_cmp_count cnt[2];
	char err[512];

	CHECK(rep_load(&sa, path_run, err, sizeof(err)) == 0);
	CHECK(rep_load(&sb, path_two, err, sizeof(err)) == 0);
	const struct rep_run *a = rep_find(&sa, NULL), *b = rep_find(&sb, NULL);
	if (!a || !b) {
		CHECK(a && b);
		return;
	}
	struct rep_cmp_run runs[2] = { { .run = a, .name = "A.jsonl" }, { .run = b, .name = "B.jsonl" } };
	CHECK(view(rep_table_cmp(runs, 2, 0.10, &t, cnt), &t, MD) == 0);
	/* ext4: the 5 rows B has of A's 7 */
	CHECK_EQ_U(t.nrows, 5);
	/* one run a side, one sample each (A's the median of its 3 rounds):
	 * never significant, every row undecided */
	static const char *const r0[] = { "ext4", "create (incl. sync)", "9.00", "18.0", "2.00",
					  "-", "1.0000", "-", "cannot decide: at least 5 runs a side" };
	static const char *const r2[] = { "ext4", "read cold (fresh fs)", "5.20", "3.00", "0.58",
					  "-", "1.0000", "-", "cannot decide: at least 5 runs a side" };
	static const char *const r4[] = { "ext4", "delete (incl. sync)", "32.8", "15.0", "0.46",
					  "-", "1.0000", "-", "cannot decide: at least 5 runs a side" };
	for (size_t c = 0; c < 9; c++) {
		CHECK_STR(cell(&t, MD, 0, c), r0[c]);
		CHECK_STR(cell(&t, MD, 2, c), r2[c]);
		CHECK_STR(cell(&t, MD, 4, c), r4[c]);
	}
	CHECK_EQ_U(cnt[1].compared, 5);
	CHECK_EQ_U(cnt[1].faster, 0);
	CHECK_EQ_U(cnt[1].noise, 0);
	CHECK_EQ_U(cnt[1].undecided, 5);
	CHECK_EQ_U(cnt[1].slower, 0);
	CHECK(cnt[1].conditions == -1);
	rep_table_free(&t);
	/* the chart's ratios: the same rows, judged the same */
	struct rep_cmp_ratio *ratio = NULL;
	size_t nratio = 0;
	CHECK_EQ_U(rep_cmp_ratios(runs, 2, 0.10, &ratio, &nratio), 0);
	CHECK_EQ_U(nratio, 5);
	if (nratio == 5) {
		CHECK(ratio[0].side == 'B' && !strcmp(ratio[0].fs, "ext4") && ratio[0].row == ROW_CREATE);
		CHECK(fabs(ratio[0].ratio - 2.0) < 1e-12 && isnan(ratio[0].lo) && !ratio[0].on_ctl);
		for (size_t i = 0; i < 5; i++)
			CHECK_EQ_U(ratio[i].flag, CMP_UNDECIDED);
	}
	free(ratio);
	CHECK(rep_cmp_ratios(runs, 1, 0.10, &ratio, &nratio) == -EINVAL);

	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m) {
		CHECK(rep_print_compare(m, runs, 2, 0.10, MD, cnt) == 0);
		fclose(m);
		CHECK_CONTAINS(buf, "- A: run 1a2b3c4d5e6f7a8b (A.jsonl), host bench1, kernel 6.17.0-test (#1 SMP), 16 CPUs, profile seed\n");
		CHECK_CONTAINS(buf, "| ext4 | create (incl. sync)         |  9.00 |  18.0 | 2.00 |"
			       "          - |   1.0000 |     - | cannot decide: at least 5 runs a side |\n");
		CHECK_CONTAINS(buf, "\n- ext4 read cold (aged fs): not in B (in A)\n"
			       "- ext4 read inode order (aged fs): not in B (in A)\n"
			       "- xfs: not in B (in A)\n"
			       "- btrfs: not in A (in B); not compared: A lacks it\n");
		CHECK_CONTAINS(buf, "- B against A: 0 slower, 0 faster, 0 beyond the tolerance but"
			       " not significant, 5 that cannot be decided (ext4 create (incl. sync) (at"
			       " least 5), ext4 stat walk (cold) (at least 5), ext4 read cold (fresh fs)"
			       " (at least 5), ext4 read inode order (fresh fs) (at least 5), ext4 delete"
			       " (incl. sync) (at least 5)), of 5 rows judged (tolerance 10%, p (BH) <"
			       " 0.05); conditions not measured (a run without a control record, or of"
			       " other work)\n");
		free(buf);
	}
	buf = NULL;
	m = open_memstream(&buf, &len);
	if (m) {
		CHECK(rep_print_compare(m, runs, 2, 0.10, CSV, cnt) == 0);
		fclose(m);
		CHECK_CONTAINS(buf, "runs,A,1a2b3c4d5e6f7a8b,A.jsonl\n");
		CHECK_CONTAINS(buf, "\n\ncompare,fs,phase,a_seconds,a_samples,a_runs,b_seconds,"
			       "b_samples,b_runs,b_over_a,b_ci_lo,b_ci_hi,b_p,b_p_bh,b_mdc_pct,"
			       "b_runs_needed,b_flag,b_flag_raw,b_judged_on\n"
			       "compare,ext4,create (incl. sync),9.000000,1,1,18.000000,1,1,2.0000,,,"
			       "1.0000,1.0000,,5,undecided,undecided,raw\n"
			       "compare,ext4,stat walk (cold),");
		CHECK_CONTAINS(buf, "\ncompare,ext4,read cold (fresh fs),5.200000,1,1,3.000000,1,1,"
			       "0.5769,,,1.0000,1.0000,,5,undecided,undecided,raw\n");
		CHECK_CONTAINS(buf, "\nmissing,xfs,,B,A\n");
		CHECK_CONTAINS(buf, "\nflags,side,compared,slower,faster,not_significant,undecided,"
			       "runs_needed,tolerance_pct,conditions,undecided_rows\n"
			       "flags,B,5,0,0,0,5,5,10.0,not_measured,\"ext4 create (incl. sync) (at least 5),");
		free(buf);
	}
	/* junit is not a format of tables; one run is not a comparison */
	CHECK(rep_print_compare(stdout, runs, 2, 0.10, rep_writer_find("junit"), cnt) == -EINVAL);
	CHECK(rep_print_compare(stdout, runs, 1, 0.10, MD, cnt) == -EINVAL);
	rep_free(&sa);
	rep_free(&sb);
}

/* A refused run: the report lists the disks the runner saw, and it is
 * complete without phases (report exits 0). */
static void test_refused(void)
{
	struct rep_set set;
	char err[256] = "";
	CHECK_EQ_U(rep_load(&set, path_refused, err, sizeof(err)), 0);
	CHECK_EQ_U(set.nruns, 1);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (!r) {
		rep_free(&set);
		return;
	}
	CHECK_EQ_U(r->ndisk, 3);	/* the element that is not an object is left out */
	if (r->ndisk == 3) {
		CHECK_STR(r->disk[1].path, "/dev/nvme0n1");
		CHECK_STR(r->disk[1].model, "Test NVMe 1TB");
		CHECK_STR(r->disk[1].serial, "S6Z1NJ0T");
		CHECK_EQ_U(r->disk[1].size, 1000204886016ULL);
		CHECK_STR(r->disk[2].partlabel, "fsbench-log");
		CHECK(r->disk[0].partlabel == NULL);
	}
	char *md = render(r, MD);
	CHECK_CONTAINS(md, "- status: refused (exit 3, 0.0 s)\n");
	CHECK_CONTAINS(md, "- target: serial:NOPE (not resolved to a disk)\n");
	CHECK_CONTAINS(md, "no disk has serial 'NOPE', fatal |");
	CHECK_CONTAINS(md, "## Disks the runner saw");
	CHECK_CONTAINS(md, "| /dev/nvme0n1 | 931.5 GiB | Test NVMe 1TB | S6Z1NJ0T   | nvme      | -           |\n");
	CHECK_CONTAINS(md, "| /dev/sda     |  14.6 GiB | USB Stick     | 4C53       | usb       | fsbench-log |\n");
	free(md);
	char *csv = render(r, CSV);
	CHECK_CONTAINS(csv, "run,target,\n");
	CHECK_CONTAINS(csv, "run,target_spec,serial:NOPE\n");
	CHECK_CONTAINS(csv, "disks,path,size_bytes,model,serial,transport,partlabel\n"
		       "disks,/dev/mmcblk0,31268536320,-,0x1234abcd,mmc,-\n");
	free(csv);
	rep_free(&set);

	/* a run with phases lists no disks */
	CHECK_EQ_U(rep_load(&set, path_run, err, sizeof(err)), 0);
	if (set.nruns) {
		CHECK_EQ_U(set.runs[0]->ndisk, 0);
		md = render(set.runs[0], MD);
		CHECK(md && !strstr(md, "Disks the runner saw"));
		free(md);
	}
	rep_free(&set);

	char *o, *e;
	char *a[] = { "report", path_refused, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a, &o, &e), 0);
	CHECK_CONTAINS(o, "| /dev/mmcblk0 |  29.1 GiB |");
	CHECK_STR(e, "");
	free(o), free(e);
}

/* A refusal whose "disks" list holds no object gives no disk; the next
 * refusal's list is the one kept. The list of the first used to be
 * allocated and then lost: `make check-asan` (LeakSanitizer) fails on it. */
static void test_refused_empty_disks(void)
{
	struct rep_set set;
	char err[256];
	static const char text[] =
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,\"disks\":[1,\"x\",null]}\n"
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,\"disks\":[[],{}]}\n"
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,"
		"\"disks\":[{\"path\":\"/dev/sdb\",\"size_bytes\":512}]}\n"
		"{\"type\":\"error\",\"run_id\":\"r\",\"refused\":true,"
		"\"disks\":[{\"path\":\"/dev/sdc\"}]}\n";

	CHECK_EQ_U(load_text(&set, text, err, sizeof(err)), 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ_U(r->nev_total, 4);
		CHECK_EQ_U(r->ndisk, 1);	/* [[],{}]: {} is an object, a disk without fields */
		if (r->ndisk == 1)
			CHECK(r->disk[0].path == NULL && r->disk[0].size == 0);
	}
	rep_free(&set);
}

/* The runner/SUITE.md reference as a run, and compare --reference. */
static void test_reference(void)
{
	struct rep_set set;
	char err[256] = "", small[64];
	double v = 0;

	CHECK(rep_reference_text(small, sizeof(small)) == -ENOSPC);
	CHECK_EQ_U(rep_load_reference(&set, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_STR(set.path, REP_REFERENCE_NAME);
	CHECK_EQ_U(set.nruns, 1);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (r) {
		CHECK_EQ_U(r->nfs, 4);
		/* runner/SUITE.md's table, cell by cell */
		static const struct { const char *fs; enum rep_row row; double want; } cells[] = {
			{ "ext4", ROW_CREATE, 8.5 }, { "xfs", ROW_CREATE, 52.3 },
			{ "btrfs", ROW_CREATE, 70.5 }, { "f2fs", ROW_CREATE, 15.5 },
			{ "ext4", ROW_STAT, 0.45 }, { "f2fs", ROW_STAT, 3.17 },
			{ "ext4", ROW_READ_FRESH, 5.2 }, { "ext4", ROW_READ_AGED, 35.3 },
			{ "btrfs", ROW_READ_FRESH, 4.8 }, { "btrfs", ROW_READ_AGED, 5.2 },
			{ "xfs", ROW_READ_AGED, 11.0 }, { "ext4", ROW_INODE_AGED, 4.4 },
			{ "ext4", ROW_DELETE, 32.8 }, { "f2fs", ROW_DELETE, 5.1 },
		};
		for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
			v = -1;
			CHECK(rep_summary(r, cells[i].fs, cells[i].row, 0, &v) == 1);
			CHECK(v > cells[i].want - 1e-9 && v < cells[i].want + 1e-9);
		}
		CHECK(rep_summary(r, "xfs", ROW_INODE_AGED, 0, &v) == 0);	/* not published */
		CHECK(rep_summary(r, "ext4", ROW_INODE_FRESH, 0, &v) == 0);
		CHECK_STR(r->status, "ok");
	}
	rep_free(&set);

	char *o, *e;
	char *a1[] = { "compare", "--reference", path_run, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "(SUITE.md reference), host the published run, kernel 6.17, profile seed");
	/* published figures are no samples: no interval, no p; the tolerance decides */
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)        |  8.50 |  9.00 | 1.06 |          - |"
		       "        - |     - |        |\n");
	CHECK_STR(e, "");
	free(o), free(e);
	char *a2[] = { "compare", path_run, "--reference", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "compare,xfs,delete (incl. sync),28.500000,1,1,28.500000,1,1,1.0000,,,,,,,"
		       "within_tolerance,within_tolerance,raw\n");
	CHECK_CONTAINS(o, "missing,f2fs,,B,A\n");	/* the run skipped f2fs */
	free(o), free(e);

	char *u1[] = { "compare", "--reference", NULL };
	char *u2[] = { "compare", "--reference", path_run, path_two, NULL };
	char *u3[] = { "compare", path_run, path_two, "--reference", NULL };
	char *u4[] = { "report", "--reference", path_run, NULL };
	char **us[] = { u1, u2, u3, u4 };
	static const char *const umsg[] = {
		"fsbench: compare: missing B\n",
		"fsbench: compare: too many arguments",
		"fsbench: compare: --reference and two runs: give B only",
		"fsbench: report: unknown option '--reference'",
	};
	int (*fns[])(int, char **) = { cmd_compare, cmd_compare, cmd_compare, cmd_report };
	for (size_t i = 0; i < 4; i++) {
		CHECK_EQ_U(run_cmd(fns[i], us[i], &o, &e), 2);
		CHECK_STR(o, "");
		CHECK_CONTAINS(e, umsg[i]);
		free(o), free(e);
	}
}

static void test_commands(void)
{
	char *o, *e;
	char dir[] = "rundir";

	/* a run folder: RUN/records.jsonl */
	mkdir(dir, 0755);
	FILE *src = fopen(path_run, "r"), *dst = fopen("rundir/records.jsonl", "w");
	CHECK(src && dst);
	if (src && dst) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), src)) > 0)
			fwrite(buf, 1, n, dst);
	}
	if (src)
		fclose(src);
	if (dst)
		fclose(dst);

	char *a1[] = { "report", "rundir/", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "| create (incl. sync)         |  9.00 | 52.3 |\n");
	CHECK_STR(e, "");
	free(o), free(e);

	char *a2[] = { "report", "--format", "csv", "rundir", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a2, &o, &e), 0);
	CHECK(o && strncmp(o, "run,key,value\n", 14) == 0);
	free(o), free(e);

	char *a3[] = { "report", path_two, "--run=aaaa", "--format=md", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, a3, &o, &e), 0);
	CHECK_CONTAINS(o, "- run: aaaa000000000001\n");
	free(o), free(e);

	/* misuse: 2, with the usage */
	char *u1[] = { "report", NULL };
	char *u2[] = { "report", "--format", NULL };
	char *u3[] = { "report", "--format", "xml", path_run, NULL };
	char *u4[] = { "report", "--bogus", path_run, NULL };
	char *u5[] = { "report", path_run, path_two, NULL };
	char *u6[] = { "report", "--run", "zzzz", path_two, NULL };
	char **us[] = { u1, u2, u3, u4, u5, u6 };
	static const char *const umsg[] = {
		"fsbench: report: missing RUN\nusage: fsbench report RUN",
		"fsbench: report: --format needs an argument\nusage:",
		"fsbench: report: unknown format 'xml' (md, csv, html, junit or ktap)\nusage:",
		"fsbench: report: unknown option '--bogus'\nusage:",
		"fsbench: report: too many arguments",
		"no run 'zzzz' (runs: aaaa000000000001 bbbb000000000002)",
	};
	for (size_t i = 0; i < 6; i++) {
		CHECK_EQ_U(run_cmd(cmd_report, us[i], &o, &e), 2);
		CHECK_STR(o, "");
		CHECK_CONTAINS(e, umsg[i]);
		free(o), free(e);
	}
	char *h[] = { "report", "--help", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, h, &o, &e), 0);
	CHECK_CONTAINS(o, "usage: fsbench report RUN [--format md|csv|html|junit|ktap] [--run RUNID]");
	free(o), free(e);

	/* input that cannot be opened or is malformed: 4, nothing on stdout */
	char *b1[] = { "report", "no/such/dir", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, b1, &o, &e), 4);
	CHECK_STR(o, "");
	CHECK_STR(e, "fsbench: report no/such/dir: No such file or directory\n");
	free(o), free(e);
	char *b2[] = { "report", path_bad, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, b2, &o, &e), 4);
	CHECK_STR(o, "");
	CHECK_CONTAINS(e, "report-bad.jsonl:3: expected ':', found '\"' at column 41\n");
	CHECK(e && strncmp(e, "fsbench: report ", 16) == 0);
	free(o), free(e);

	static const struct cmd_case layout[] = {
		/* no phase records: reported as such, exit 1 */
		{ { "report", path_layout_bad }, 4, .out = "", .err_has = "report-layout-bad.jsonl:4: layout record: \"name_order.near\" must be"
			  " a number from 0 to 1\n" },
		{ { "report", path_layout }, 0, .out_has = "- ext4: aged (round 2): name order is no longer disk order", .err = "" },
	};
	CMD_CASES(cmd_report, layout);

	char *n1[] = { "report", path_nophase, NULL };
	CHECK_EQ_U(run_cmd(cmd_report, n1, &o, &e), 5);
	CHECK_CONTAINS(o, "No phase records in this run.\n\n- xfs: failed: mount: No such device\n");
	CHECK_CONTAINS(o, "| error | xfs |     - | mount | mount | /dev/nvme1n1 | No such device (errno 19), fatal |");
	CHECK_CONTAINS(e, "run cccc000000000003 has no phase records");
	free(o), free(e);
	char *n2[] = { "report", "/dev/null", NULL };
	CHECK_EQ_U(run_cmd(cmd_report, n2, &o, &e), 5);
	CHECK_STR(e, "fsbench: report /dev/null: no records\n");
	free(o), free(e);

	/* compare */
	char *c1[] = { "compare", "rundir", path_two, NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c1, &o, &e), 0);
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)         |  9.00 |  18.0 | 2.00 |");
	CHECK_CONTAINS(o, "(rundir/records.jsonl)");
	free(o), free(e);
	static const struct cmd_case compare[] = {
		{ { "compare", path_run }, 2, .err_has = "fsbench: compare: missing B\nusage: fsbench compare A B" },
		{ { "compare", path_run, path_bad }, 4, .out = "" },
		{ { "compare", path_run, path_nophase }, 5, .out = "" },
		{ { "compare", "--run", "x", path_run, path_two }, .rc = 2 },
	};
	CMD_CASES(cmd_compare, compare);

	remove("rundir/records.jsonl");
	rmdir(dir);
}

FIXTURES_MAIN(test_compare, test_refused, test_refused_empty_disks, test_reference, test_commands)

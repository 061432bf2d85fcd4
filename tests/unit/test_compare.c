/* test_compare.c: `fsbench compare` of two runs or more: the flag rule
 * (beyond both the tolerance and the spread of the rounds), three runs,
 * runs with different filesystems, --fail-on-regression's exit code, and
 * bad input. Runs are written from strings into the scratch folder. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fsbench.h"
#include "report/output.h"
#include "cmd.h"
#include "records.h"
#include "unit.h"

static struct rep_stats st(size_t n, const double *v)
{
	double c[16];
	struct rep_stats s = { .n = n };
	memcpy(c, v, n * sizeof(*v));
	if (n) {
		s.median = rep_median(c, n);
		s.min = c[0];
		s.max = c[n - 1];
		s.spread = (s.max - s.min) / s.median;
	}
	return s;
}

#define ST(...) st(sizeof((double[]){ __VA_ARGS__ }) / sizeof(double), (double[]){ __VA_ARGS__ })

static enum rep_cmp_flag judge(struct rep_stats a, struct rep_stats b, double tolerance)
{
	return rep_cmp_judge(&a, &b, tolerance);
}

/* The rule itself. */
static void test_judge(void)
{
	struct rep_stats a = ST(10, 12, 14);	/* median 12, range 4 */

	/* +25%: beyond the tolerance, within A's range (3 <= 4): not flagged */
	CHECK_EQ_U(judge(a, ST(13, 15, 17), 0.10), CMP_NOISE);
	/* +67%: beyond both */
	CHECK_EQ_U(judge(a, ST(19, 20, 21), 0.10), CMP_SLOWER);
	CHECK_EQ_U(judge(a, ST(5, 6, 7), 0.10), CMP_FASTER);
	/* the tolerance alone is not enough: beyond the spread (0.5 > 0.2),
	 * within 10% */
	struct rep_stats q = ST(10, 10.1, 10.2);
	CHECK_EQ_U(judge(q, ST(10.5, 10.6, 10.7), 0.10), CMP_SAME);
	/* ... and with 2% it is flagged */
	CHECK_EQ_U(judge(q, ST(10.5, 10.6, 10.7), 0.02), CMP_SLOWER);
	/* the later run's own spread counts too */
	struct rep_stats flat = ST(10, 10, 10);
	CHECK_EQ_U(judge(flat, ST(8, 13, 20), 0.10), CMP_NOISE);
	CHECK_EQ_U(judge(flat, ST(13, 13, 13), 0.10), CMP_SLOWER);
	/* exactly the tolerance is not beyond it */
	CHECK_EQ_U(judge(flat, ST(11, 11), 0.10), CMP_SAME);
	/* one round: no spread, the tolerance decides */
	struct rep_stats one = ST(10);
	CHECK_EQ_U(judge(one, ST(11.5), 0.10), CMP_SLOWER);
	CHECK_EQ_U(judge(one, ST(10.5), 0.10), CMP_SAME);
	/* nothing to compare */
	struct rep_stats none = { 0 }, zero = ST(0, 0);
	CHECK_EQ_U(rep_cmp_judge(&none, &one, 0.10), CMP_NONE);
	CHECK_EQ_U(rep_cmp_judge(&one, &none, 0.10), CMP_NONE);
	CHECK_EQ_U(rep_cmp_judge(&zero, &one, 0.10), CMP_NONE);

	CHECK_STR(rep_cmp_flag_name(CMP_SAME, REP_VIEW_READ), "");
	CHECK_STR(rep_cmp_flag_name(CMP_SAME, REP_VIEW_DATA), "within_tolerance");
	CHECK_STR(rep_cmp_flag_name(CMP_NOISE, REP_VIEW_READ), "within spread");
	CHECK_STR(rep_cmp_flag_name(CMP_NOISE, REP_VIEW_DATA), "within_spread");
	CHECK_STR(rep_cmp_flag_name(CMP_SLOWER, REP_VIEW_DATA), "slower");
}

/* A run as JSON lines: run_id, then "fs:phase:s1,s2,..." items (one phase
 * record per round), NULL-terminated. */
static char *run_text(const char *id, ...)
{
	static char buf[16384];
	size_t o = 0;
	unsigned seq = 0;
	va_list ap;
	const char *it;

	o += (size_t)snprintf(buf + o, sizeof(buf) - o,
			      "{\"type\":\"run_start\",\"run_id\":\"%s\",\"seq\":%u,"
			      "\"host\":{\"hostname\":\"h-%s\"},\"config\":{\"profile\":\"smoke\"}}\n",
			      id, seq++, id);
	va_start(ap, id);
	while ((it = va_arg(ap, const char *))) {
		char fs[32], ph[32], secs[256];
		if (sscanf(it, "%31[^:]:%31[^:]:%255s", fs, ph, secs) != 3)
			continue;
		unsigned round = 1;
		for (char *s = strtok(secs, ","); s; s = strtok(NULL, ","), round++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o,
					      "{\"type\":\"phase\",\"run_id\":\"%s\",\"seq\":%u,"
					      "\"fs\":\"%s\",\"round\":%u,\"phase\":\"%s\","
					      "\"seconds\":%s,\"files\":100}\n",
					      id, seq++, fs, round, ph, s);
	}
	va_end(ap);
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Three runs: A; B within the noise (create +25% inside A's spread,
 * delete +5% inside the tolerance); C with create 3x slower and stat
 * faster. */
static void test_three_runs(void)
{
	char *o, *e;

	write_file("cmp-a.jsonl", run_text("aaaa", "ext4:create:10,12,14", "ext4:stat:1,1,1",
					   "ext4:delete:20,20,20", NULL));
	write_file("cmp-b.jsonl", run_text("bbbb", "ext4:create:13,15,17", "ext4:stat:1,1.02,1",
					   "ext4:delete:21,21,21", NULL));
	write_file("cmp-c.jsonl", run_text("cccc", "ext4:create:35,36,37", "ext4:stat:0.5,0.5,0.5",
					   "ext4:delete:20,21,20", NULL));

	char *a1[] = { "compare", "cmp-a.jsonl", "cmp-b.jsonl", "cmp-c.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_STR(e, "");
	CHECK_CONTAINS(o, "- C: run cccc (cmp-c.jsonl), host h-cccc, kernel ?, profile smoke\n");
	CHECK_CONTAINS(o, "| fs   | phase               | A (s) | B (s) |  B/A | B limit % | B vs A        |"
		       " C (s) |  C/A | C limit % | C vs A |\n");
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync) |  12.0 |  15.0 | 1.25 |      33.3 | within spread |"
		       "  36.0 | 3.00 |      33.3 | slower |\n");
	CHECK_CONTAINS(o, "| ext4 | stat walk (cold)    |  1.00 |  1.00 | 1.00 |      10.0 |               |"
		       " 0.500 | 0.50 |      10.0 | faster |\n");
	CHECK_CONTAINS(o, "| ext4 | delete (incl. sync) |  20.0 |  21.0 | 1.05 |      10.0 |               |"
		       "  20.0 | 1.00 |      10.0 |        |\n");
	CHECK_CONTAINS(o, "- B against A: 0 slower, 0 faster, 1 beyond the tolerance but within"
		       " the spread, of 3 rows compared (tolerance 10%)\n"
		       "- C against A: 1 slower, 1 faster, 0 beyond");
	CHECK(!strstr(o, "not in"));	/* the same rows in every run */
	free(o), free(e);

	/* CSV: one flag column per later run */
	char *a2[] = { "compare", "cmp-a.jsonl", "cmp-b.jsonl", "cmp-c.jsonl", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "compare,ext4,create (incl. sync),12.000000,3,33.333,rounds,15.000000,3,"
		       "26.667,rounds,1.2500,33.333,within_spread,36.000000,3,5.556,rounds,3.0000,"
		       "33.333,slower\n");
	CHECK_CONTAINS(o, "flags,C,3,1,1,0,10.0\n");
	free(o), free(e);

	/* --fail-on-regression: C is slower (exit 1, named); B alone is not */
	char *g1[] = { "compare", "--fail-on-regression", "cmp-a.jsonl", "cmp-b.jsonl",
		       "cmp-c.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, g1, &o, &e), 1);
	CHECK_CONTAINS(o, "| slower |");	/* the table is printed all the same */
	CHECK_STR(e, "fsbench: compare: C (cmp-c.jsonl): 1 row slower than A beyond the"
		  " tolerance (10%) and the spread of the rounds\n");
	free(o), free(e);
	char *g2[] = { "compare", "cmp-a.jsonl", "cmp-b.jsonl", "--fail-on-regression", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, g2, &o, &e), 0);
	CHECK_STR(e, "");
	free(o), free(e);
	/* a faster run is not a regression */
	char *g3[] = { "compare", "cmp-c.jsonl", "cmp-a.jsonl", "--fail-on-regression", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, g3, &o, &e), 1);	/* stat 0.5 -> 1: slower */
	CHECK_CONTAINS(e, "B (cmp-a.jsonl): 1 row slower");
	free(o), free(e);
	/* a tolerance above every change: nothing flagged */
	char *g4[] = { "compare", "cmp-a.jsonl", "cmp-c.jsonl", "--fail-on-regression",
		       "--tolerance", "250%", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, g4, &o, &e), 0);
	CHECK_CONTAINS(o, "- B against A: 0 slower, 0 faster, 0 beyond the tolerance but within"
		       " the spread, of 3 rows compared (tolerance 250%)\n");
	free(o), free(e);
	/* the tolerance alone: 5% flags B's delete (+5% is not beyond 5%) and
	 * create stays within the spread */
	char *g5[] = { "compare", "cmp-a.jsonl", "cmp-b.jsonl", "--tolerance=4", "--fail-on-regression",
		       NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, g5, &o, &e), 1);
	CHECK_CONTAINS(o, "| ext4 | delete (incl. sync) |  20.0 |  21.0 | 1.05 |       4.0 | slower        |\n");
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync) |  12.0 |  15.0 | 1.25 |      33.3 | within spread |\n");
	free(o), free(e);
}

/* Runs with different filesystems and rows: the table has what A and a
 * later run have; the rest is named under it. */
static void test_mismatch(void)
{
	char *o, *e;

	write_file("mm-a.jsonl", run_text("aaaa", "ext4:create:10,10", "ext4:read:5,9",
					   "xfs:create:20,20", NULL));
	write_file("mm-b.jsonl", run_text("bbbb", "ext4:create:10", "ext4:read:5", NULL));
	write_file("mm-c.jsonl", run_text("cccc", "ext4:create:10,11", "btrfs:create:30,30", NULL));
	char *a1[] = { "compare", "mm-a.jsonl", "mm-b.jsonl", "mm-c.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)  |");
	CHECK_CONTAINS(o, "| ext4 | read cold (fresh fs) |  5.00 |  5.00 | 1.00 |      57.1 |        |"
		       "     - |    - |         - | -      |\n");
	CHECK(!strstr(o, "| xfs ") && !strstr(o, "| btrfs "));
	CHECK_CONTAINS(o, "\n- ext4 read cold (fresh fs): not in C (in A, B)\n"
		       "- ext4 read cold (aged fs): not in B, C (in A)\n"
		       "- xfs: not in B, C (in A)\n"
		       "- btrfs: not in A, B (in C); not compared: A lacks it\n");
	free(o), free(e);
	char *a2[] = { "compare", "mm-a.jsonl", "mm-b.jsonl", "mm-c.jsonl", "--format", "csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "\n\nmissing,fs,phase,not_in,in\nmissing,ext4,read cold (fresh fs),C,\"A, B\"\n");
	CHECK_CONTAINS(o, "missing,btrfs,,\"A, B\",C\n");
	free(o), free(e);

	/* the same filesystems everywhere: no missing table at all */
	char *a3[] = { "compare", "mm-b.jsonl", "mm-b.jsonl", "--format", "csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a3, &o, &e), 0);
	CHECK(o && !strstr(o, "missing"));
	free(o), free(e);
}

/* A row measured in one round takes the spread of its phase's other row
 * when that ran several rounds, else that of the phase's rounds. */
static void test_one_round(void)
{
	struct rep_set set;
	struct rep_stats s;
	enum rep_cmp_spread from;
	char err[256], *o, *e;

	CHECK_EQ_U(unit_load_records(&set, run_text("aaaa", "ext4:create:10,12,14",
						    "ext4:stat:1,1.1,1", "ext4:read:5,9",
						    "xfs:create:1,1", "xfs:read:3", NULL), "mem", err,
				     sizeof(err)), 0);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	if (r) {
		CHECK_EQ_U(rep_cmp_row(r, "ext4", ROW_CREATE, &s, &from), 1);
		CHECK_EQ_U(from, CMP_SPREAD_ROUNDS);
		CHECK(s.spread > 0.333 && s.spread < 0.334);
		/* two rounds: read fresh (5) and aged (9) are one round each;
		 * both take the phase's 4 / 7, not create's */
		CHECK_EQ_U(rep_cmp_row(r, "ext4", ROW_READ_FRESH, &s, &from), 1);
		CHECK_EQ_U(from, CMP_SPREAD_PHASE_ROUNDS);
		CHECK(s.spread > 0.5714 && s.spread < 0.5715);
		CHECK_EQ_U(s.n, 1);
		CHECK(s.median == 5);
		CHECK_EQ_U(rep_cmp_row(r, "ext4", ROW_READ_AGED, &s, &from), 1);
		CHECK_EQ_U(from, CMP_SPREAD_PHASE_ROUNDS);
		CHECK(s.median == 9);
		/* a phase of one round: no spread, whatever the other phases did */
		CHECK_EQ_U(rep_cmp_row(r, "xfs", ROW_READ_FRESH, &s, &from), 1);
		CHECK_EQ_U(from, CMP_SPREAD_NONE);
		CHECK(s.spread == 0);
		CHECK_EQ_U(rep_cmp_row(r, "xfs", ROW_DELETE, &s, &from), 0);
		CHECK_EQ_U(from, CMP_SPREAD_NONE);
	}
	rep_free(&set);
	/* three rounds: read fresh takes read aged's spread (rounds 2, 3: 9 and
	 * 10 s), not that of rounds 1 to 3 */
	CHECK_EQ_U(unit_load_records(&set, run_text("aaaa", "ext4:create:10,12,14",
						    "ext4:read:5,9,10", NULL), "mem", err,
				     sizeof(err)), 0);
	r = set.nruns ? set.runs[0] : NULL;
	if (r) {
		CHECK_EQ_U(rep_cmp_row(r, "ext4", ROW_READ_FRESH, &s, &from), 1);
		CHECK_EQ_U(from, CMP_SPREAD_PHASE);
		CHECK(s.spread > 0.1052 && s.spread < 0.1053);
		CHECK(s.median == 5);
		CHECK_EQ_U(rep_cmp_row(r, "ext4", ROW_READ_AGED, &s, &from), 1);
		CHECK_EQ_U(from, CMP_SPREAD_ROUNDS);
	}
	rep_free(&set);

	/* A reads 5 s in both rounds; B 6 and 5 (+20% fresh, within its own
	 * phase's 18% x 1.2); C 8 and 8 (+60%, a steady phase: slower), while
	 * create's wide spread does not hide it */
	write_file("one-a.jsonl", run_text("aaaa", "ext4:create:10,12,14", "ext4:read:5,5",
					   "xfs:create:5,5", "xfs:read:3", NULL));
	write_file("one-b.jsonl", run_text("bbbb", "ext4:create:12,12,12", "ext4:read:6,5",
					   "xfs:create:5,5", "xfs:read:3.6", NULL));
	write_file("one-c.jsonl", run_text("cccc", "ext4:create:12,12,20", "ext4:read:8,8",
					   "xfs:create:5,5", "xfs:read:3.2", NULL));
	char *a1[] = { "compare", "one-a.jsonl", "one-b.jsonl", "one-c.jsonl", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "compare,ext4,read cold (fresh fs),5.000000,1,0.000,phase_rounds,6.000000,1,"
		       "18.182,phase_rounds,1.2000,21.818,within_spread,8.000000,1,0.000,phase_rounds,"
		       "1.6000,10.000,slower\n");
	/* xfs read ran one round: the tolerance decides */
	CHECK_CONTAINS(o, "compare,xfs,read cold (fresh fs),3.000000,1,,none,3.600000,1,,none,1.2000,"
		       "10.000,slower,3.200000,1,,none,1.0667,10.000,within_tolerance\n");
	free(o), free(e);
}

/* Bad input: a clear message naming the input and the reason. */
static void test_bad_input(void)
{
	char *o, *e;

	write_file("bad-a.jsonl", run_text("aaaa", "ext4:create:10", NULL));
	write_file("bad-nophase.jsonl", run_text("nnnn", NULL));
	write_file("bad-empty.jsonl", "");

	char *u1[] = { "compare", "bad-a.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, u1, &o, &e), 2);
	CHECK_CONTAINS(e, "fsbench: compare: missing B\nusage: fsbench compare A B [C ...]");
	CHECK_STR(o, "");
	free(o), free(e);
	char *u2[] = { "compare", "--tolerance", "lots", "bad-a.jsonl", "bad-a.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, u2, &o, &e), 2);
	CHECK_CONTAINS(e, "fsbench: compare: --tolerance: expected a percentage (10%), got 'lots'\n");
	free(o), free(e);
	char *u3[] = { "compare", "bad-a.jsonl", "bad-a.jsonl", "--tolerance", "-5", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, u3, &o, &e), 2);
	CHECK_CONTAINS(e, "got '-5'");
	free(o), free(e);
	char *u4[] = { "compare", "bad-a.jsonl", "bad-a.jsonl", "--tolerance", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, u4, &o, &e), 2);
	CHECK_CONTAINS(e, "fsbench: compare: --tolerance needs an argument\n");
	free(o), free(e);
	char *u5[28] = { "compare" };
	for (int i = 1; i < 28; i++)
		u5[i] = "bad-a.jsonl";
	u5[27] = NULL;	/* 26 runs: fine */
	CHECK_EQ_U(run_cmd(cmd_compare, u5, &o, &e), 0);
	CHECK_CONTAINS(o, "| Z vs A |");
	free(o), free(e);
	char *u6[29] = { "compare" };
	for (int i = 1; i < 28; i++)
		u6[i] = "bad-a.jsonl";
	u6[28] = NULL;	/* 27 */
	CHECK_EQ_U(run_cmd(cmd_compare, u6, &o, &e), 2);
	CHECK_CONTAINS(e, "fsbench: compare: too many arguments ('bad-a.jsonl'; at most 26)\n");
	free(o), free(e);

	/* a run without phase records: named, nothing printed, 1 */
	char *n1[] = { "compare", "bad-a.jsonl", "bad-nophase.jsonl", "bad-a.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, n1, &o, &e), 1);
	CHECK_STR(o, "");
	CHECK_STR(e, "fsbench: compare bad-nophase.jsonl: run nnnn has no phase records\n");
	free(o), free(e);
	/* no records at all, a file that is not there */
	char *n2[] = { "compare", "bad-a.jsonl", "bad-empty.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, n2, &o, &e), 1);
	CHECK_STR(e, "fsbench: compare bad-empty.jsonl: no records\n");
	free(o), free(e);
	char *n3[] = { "compare", "bad-a.jsonl", "bad-a.jsonl", "no-such.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, n3, &o, &e), 4);
	CHECK_STR(o, "");
	CHECK_STR(e, "fsbench: compare no-such.jsonl: No such file or directory\n");
	free(o), free(e);

	/* --reference still holds one run against the published figures, and
	 * gates on them too */
	char *r1[] = { "compare", "--reference", "bad-a.jsonl", "--fail-on-regression",
		       "--tolerance", "20%", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, r1, &o, &e), 0);	/* 10 s vs 8.5 s: within 20% */
	CHECK_CONTAINS(o, "- A: run 5417e000000000fe (SUITE.md reference)");
	CHECK_CONTAINS(o, "- xfs: not in B (in A)\n");
	free(o), free(e);
	char *r2[] = { "compare", "--reference", "bad-a.jsonl", "--fail-on-regression",
		       "--tolerance", "5", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, r2, &o, &e), 1);
	CHECK_CONTAINS(e, "B (bad-a.jsonl): 1 row slower");
	free(o), free(e);
}

int main(int argc, char **argv)
{
	(void)argc;
	test_judge();
	test_three_runs();
	test_mismatch();
	test_one_round();
	test_bad_input();
	return unit_done(argv[0]);
}

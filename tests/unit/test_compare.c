/* test_compare.c: `fsbench compare` of two runs or more: the flag rule
 * (beyond the tolerance and significant: Mann-Whitney U, the bootstrap
 * interval of the ratio of medians), three runs, groups of runs and
 * repetitions, the conditions (control records: a slower host against a
 * slower disk), runs with different filesystems, --fail-on-regression's
 * exit code, and bad input. Runs are written from strings into the scratch folder. */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fsbench.h"
#include "lib/stats.h"
#include "report/output.h"
#include "cmd.h"
#include "records.h"
#include "unit.h"

/* The rule itself: flagged only beyond the tolerance and significant. */
static enum rep_cmp_flag judge(const double *a, size_t na, const double *b, size_t nb,
			       double tolerance, struct rep_cmp_test *t)
{
	CHECK_EQ_U(rep_cmp_test(a, na, b, nb, tolerance, 42, t), 0);
	return t->flag;
}

#define N(v) (sizeof(v) / sizeof((v)[0]))

static void test_rule(void)
{
	struct rep_cmp_test t, t2;
	static const double a[] = { 10, 11, 12, 13 }, slow[] = { 20, 21, 22, 23 };
	static const double near[] = { 10.5, 11.5, 12.5, 13.5 };
	static const double mixed[] = { 12, 16, 13, 17 }, wide[] = { 10, 14, 11, 15 };

	/* 4 against 4, all apart: p = 2/70, beyond 10%: slower */
	CHECK_EQ_U(judge(a, N(a), slow, N(slow), 0.10, &t), CMP_SLOWER);
	CHECK(fabs(t.p - 2.0 / 70) < 1e-12);
	CHECK(t.ratio > 1.86 && t.ratio < 1.87);	/* 21.5 / 11.5 */
	CHECK(t.testable && t.have_ci && t.lo > 1 && t.lo <= t.ratio && t.ratio <= t.hi);
	CHECK_EQ_U(t.u, 0);
	CHECK_EQ_U(judge(slow, N(slow), a, N(a), 0.10, &t), CMP_FASTER);
	CHECK_EQ_U(t.u, 16);
	/* the same seed, the same interval; another seed, another draw */
	CHECK_EQ_U(rep_cmp_test(a, N(a), slow, N(slow), 0.10, 42, &t2), 0);
	CHECK_EQ_U(rep_cmp_test(a, N(a), slow, N(slow), 0.10, 42, &t), 0);
	CHECK(t.lo == t2.lo && t.hi == t2.hi);
	CHECK_EQ_U(rep_cmp_test(a, N(a), slow, N(slow), 0.10, 43, &t2), 0);
	CHECK(t2.lo > 1 && (t.lo != t2.lo || t.hi != t2.hi));
	/* within the tolerance: not flagged, however significant */
	CHECK_EQ_U(judge(a, N(a), near, N(near), 0.10, &t), CMP_SAME);
	/* beyond the tolerance, overlapping: not significant */
	CHECK_EQ_U(judge(wide, N(wide), mixed, N(mixed), 0.10, &t), CMP_NOISE);
	CHECK(t.p > 0.05);
	/* significant within 10%, flagged at 2% */
	static const double q[] = { 10, 10.1, 10.2, 10.3 }, q2[] = { 10.5, 10.6, 10.7, 10.8 };
	CHECK_EQ_U(judge(q, N(q), q2, N(q2), 0.10, &t), CMP_SAME);
	CHECK_EQ_U(judge(q, N(q), q2, N(q2), 0.02, &t), CMP_SLOWER);
	/* 3 against 3 can never reach p < 0.05 (2/20): undecided, not flagged */
	CHECK_EQ_U(judge(a, 3, slow, 3, 0.10, &t), CMP_UNDECIDED);
	CHECK(!t.testable && fabs(t.p - 0.1) < 1e-12);
	/* one sample a side: no interval */
	CHECK_EQ_U(judge(a, 1, slow, 1, 0.10, &t), CMP_UNDECIDED);
	CHECK(!t.have_ci);
	/* nothing to compare */
	CHECK_EQ_U(judge(a, 0, slow, 4, 0.10, &t), CMP_NONE);
	static const double zero[] = { 0, 0 };
	CHECK_EQ_U(judge(zero, 2, slow, 4, 0.10, &t), CMP_NONE);

	/* each flag's name for a reader and as data */
	static const struct {
		enum rep_cmp_flag flag;
		const char *read, *data;	/* NULL: not looked at */
	} names[] = {
		{ CMP_SAME, "", "within_tolerance" },
		{ CMP_NOISE, "not significant", "not_significant" },
		{ CMP_UNDECIDED, "cannot decide", "undecided" },
		{ CMP_SLOWER, NULL, "slower" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].read)
			CHECK_STR(rep_cmp_flag_name(names[i].flag, REP_VIEW_READ), names[i].read);
		CHECK_STR(rep_cmp_flag_name(names[i].flag, REP_VIEW_DATA), names[i].data);
	}
}

/* Benjamini-Hochberg over a family (R: p.adjust(c(0.01, 0.04, 0.03,
 * 0.005), "BH") = 0.02 0.04 0.04 0.02); a row without a value is left
 * out of the family; the level of the MDC is 0.05 over the family. */
static void test_judge(void)
{
	static const double a[] = { 10, 11, 12, 13, 14, 15, 16, 17 };
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 }, q[] = { 0.02, 0.04, 0.04, 0.02 };
	struct rep_cmp_test t[5], *fam[5];

	for (size_t i = 0; i < 5; i++) {
		CHECK_EQ_U(rep_cmp_test(a, 8, a, i < 4 ? 8 : 0, 0.10, 1, &t[i]), 0);
		t[i].p = i < 4 ? p[i] : 1;
		fam[i] = &t[i];
	}
	CHECK_EQ_U(t[4].flag, CMP_NONE);
	CHECK_EQ_U(rep_cmp_judge(fam, 5, 0.10), 0);
	for (size_t i = 0; i < 4; i++) {
		CHECK(fabs(t[i].q - q[i]) < 1e-12);
		CHECK(fabs(t[i].level - 0.05 / 4) < 1e-15);
	}
	CHECK_EQ_U(t[4].flag, CMP_NONE);
}

/* A draw of a log-normal sample: seconds around 1, spread sd. */
static double lognormal(uint64_t *s, double sd)
{
	double u[2];
	for (int i = 0; i < 2; i++) {
		*s ^= *s << 13;
		*s ^= *s >> 7;
		*s ^= *s << 17;
		u[i] = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	}
	return exp(sd * sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]));
}

/* The gate's error over many rows, simulated: A/A trials (28 rows of
 * 8 runs against 8, the same distribution on both sides) flag a row in
 * at most 10 % of the trials (Benjamini-Hochberg: 5 % when no row
 * changed), while the rows judged one by one at 0.05 flag one in most
 * trials; and a change of the MDC on one row among 28 is flagged in
 * about 80 % of the trials (the MDC's promise). */
static void test_family_error(void)
{
	enum { ROWS = 28, RUNS = 8, TRIALS = 100 };
	struct rep_cmp_test t[ROWS], *fam[ROWS];
	double a[RUNS], b[RUNS];
	uint64_t s = 0xaa;
	size_t flagged = 0, unadjusted = 0, seen = 0;
	double mdc_sum = 0;

	for (size_t k = 0; k < TRIALS; k++) {
		size_t raw = 0, any = 0;
		for (size_t r = 0; r < ROWS; r++) {
			for (size_t i = 0; i < RUNS; i++) {
				a[i] = lognormal(&s, 0.05);
				b[i] = lognormal(&s, 0.05);
			}
			CHECK_EQ_U(rep_cmp_test(a, RUNS, b, RUNS, 0.0, k, &t[r]), 0);
			t[r].have_ci = 0;	/* (the interval is not looked at) */
			raw += t[r].p < 0.05;
			fam[r] = &t[r];
		}
		CHECK_EQ_U(rep_cmp_judge(fam, ROWS, 0.0), 0);
		for (size_t r = 0; r < ROWS; r++) {
			any += t[r].flag == CMP_SLOWER || t[r].flag == CMP_FASTER;
			mdc_sum += t[r].mdc;
		}
		flagged += any > 0;
		unadjusted += raw > 0;
	}
	CHECK(flagged * 10 <= TRIALS);
	CHECK(unadjusted * 2 > TRIALS);
	/* the mean MDC at this spread: the shift in sds (2.77 at 8 against 8,
	 * 0.05 / 28), the spread estimated from 14 degrees of freedom */
	double mdc = mdc_sum / (TRIALS * ROWS), want = expm1(0.05 * stats_mwu_mdc(8, 8, 0.05 / 28, 0.8));
	CHECK(mdc > want * 0.85 && mdc < want * 1.15);
	/* one row moved by the MDC of the true spread, 27 not: flagged in
	 * about 80 % of trials */
	for (size_t k = 0; k < TRIALS; k++) {
		for (size_t r = 0; r < ROWS; r++) {
			for (size_t i = 0; i < RUNS; i++) {
				a[i] = lognormal(&s, 0.05);
				b[i] = lognormal(&s, 0.05) * (r ? 1 : 1 + want);
			}
			CHECK_EQ_U(rep_cmp_test(a, RUNS, b, RUNS, 0.0, k, &t[r]), 0);
			fam[r] = &t[r];
		}
		CHECK_EQ_U(rep_cmp_judge(fam, ROWS, 0.0), 0);
		seen += t[0].flag == CMP_SLOWER;
	}
	if (!(seen * 100 >= TRIALS * 75 && seen * 100 <= TRIALS * 95))
		fprintf(stderr, "FAIL one row at the MDC: flagged in %zu of %d trials\n", seen, TRIALS);
	CHECK(seen * 100 >= TRIALS * 75 && seen * 100 <= TRIALS * 95);
}

/* What run_text writes beyond the phases: a control record with its
 * samples times ctl (0: none), and "rep" in each phase record (0: none). */
static double ctl, ctl_after;	/* ctl_after: a second control record, 3 samples */
static unsigned rep;

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
	if (ctl > 0)	/* 7 samples a little apart, as a control gives them */
		o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				      "{\"type\":\"control\",\"run_id\":\"%s\",\"seq\":%u,"
				      "\"cpu_s\":[%g,%g,%g,%g,%g,%g,%g],\"copy_s\":[%g,%g,%g,%g,%g,%g,%g]}\n",
				      id, seq++, 0.100 * ctl, 0.101 * ctl, 0.099 * ctl, 0.102 * ctl,
				      0.098 * ctl, 0.1005 * ctl, 0.0995 * ctl, 0.020 * ctl,
				      0.0202 * ctl, 0.0198 * ctl, 0.0201 * ctl, 0.0199 * ctl,
				      0.0203 * ctl, 0.0197 * ctl);
	if (ctl_after > 0)	/* after the first filesystem, 3 samples */
		o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				      "{\"type\":\"control\",\"run_id\":\"%s\",\"seq\":%u,\"after\":\"ext4\","
				      "\"cpu_s\":[%g,%g,%g],\"copy_s\":[%g,%g,%g]}\n",
				      id, seq++, 0.100 * ctl_after, 0.101 * ctl_after, 0.099 * ctl_after,
				      0.020 * ctl_after, 0.0202 * ctl_after, 0.0198 * ctl_after);
	va_start(ap, id);
	while ((it = va_arg(ap, const char *))) {
		char fs[32], ph[32], secs[256], rp[32] = "";
		if (sscanf(it, "%31[^:]:%31[^:]:%255s", fs, ph, secs) != 3)
			continue;
		if (rep)
			snprintf(rp, sizeof(rp), ",\"rep\":%u", rep);
		unsigned round = 1;
		for (char *s = strtok(secs, ","); s; s = strtok(NULL, ","), round++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o,
					      "{\"type\":\"phase\",\"run_id\":\"%s\",\"seq\":%u,"
					      "\"fs\":\"%s\",\"round\":%u,\"phase\":\"%s\","
					      "\"seconds\":%s,\"files\":100%s}\n",
					      id, seq++, fs, round, ph, s, rp);
	}
	va_end(ap);
	return buf;
}

/* One run a side never decides: a run is one sample of a row (the median
 * of its rounds), and 1 against 1 can never be significant; every row
 * says so, and the gate is an ERROR (5) naming them, never a pass. */
static void test_three_runs(void)
{
	char *o, *e;

	unit_write_file("cmp-a.jsonl", run_text("aaaa", "ext4:create:10,12,14", "ext4:stat:1,1,1",
					   "ext4:delete:20,20,20", NULL));
	unit_write_file("cmp-b.jsonl", run_text("bbbb", "ext4:create:13,15,17", "ext4:stat:1,1.02,1",
					   "ext4:delete:21,21,21", NULL));
	unit_write_file("cmp-c.jsonl", run_text("cccc", "ext4:create:35,36,37", "ext4:stat:0.5,0.5,0.5",
					   "ext4:delete:20,21,20", NULL));

	char *a1[] = { "compare", "cmp-a.jsonl", "cmp-b.jsonl", "cmp-c.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_STR(e, "");
	CHECK_CONTAINS(o, "- C: run cccc (cmp-c.jsonl), host h-cccc, kernel ?, profile smoke\n");
	CHECK_CONTAINS(o, "| fs   | phase               | A (s) | B (s) |  B/A | B/A 95% CI | B p (BH) |"
		       " B MDC | B vs A                                | C (s) |");
	/* the median of the rounds: 12 against 15, 36 */
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync) |  12.0 |  15.0 | 1.25 |          - |   1.0000 |"
		       "     - | cannot decide: at least 5 runs a side |  36.0 | 3.00 |");
	CHECK_CONTAINS(o, "- B against A: 0 slower, 0 faster, 0 beyond the tolerance but not"
		       " significant, 3 that cannot be decided (ext4 create (incl. sync) (at least 5),"
		       " ext4 stat walk (cold) (at least 5), ext4 delete (incl. sync) (at least 5)),"
		       " of 3 rows judged (tolerance 10%, p (BH) < 0.05); conditions not measured");
	CHECK(!strstr(o, ": not in "));	/* the same rows in every run */
	CHECK(!strstr(o, "Conditions"));	/* no control records: no table */
	free(o), free(e);

	/* CSV: one sample a run, the runs needed */
	char *a2[] = { "compare", "cmp-a.jsonl", "cmp-c.jsonl", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a2, &o, &e), 0);
	CHECK_CONTAINS(o, "compare,fs,phase,a_seconds,a_samples,a_runs,b_seconds,b_samples,b_runs,"
		       "b_over_a,b_ci_lo,b_ci_hi,b_p,b_p_bh,b_mdc_pct,b_runs_needed,b_flag,b_flag_raw,"
		       "b_judged_on\n");
	CHECK_CONTAINS(o, "compare,ext4,create (incl. sync),12.000000,1,1,36.000000,1,1,3.0000,,,"
		       "1.0000,1.0000,,5,undecided,undecided,raw\n");
	CHECK_CONTAINS(o, "flags,B,3,0,0,0,3,5,10.0,not_measured,\"ext4 create (incl. sync) (at least 5),");
	free(o), free(e);

	/* --fail-on-regression: nothing could be decided: 5, the rows named */
	char *g1[] = { "compare", "--fail-on-regression", "cmp-a.jsonl", "cmp-b.jsonl",
		       "cmp-c.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, g1, &o, &e), 5);
	CHECK_CONTAINS(e, "fsbench: compare: B (cmp-b.jsonl): 3 rows cannot be decided with 1 run"
		       " against 1 (their change could be beyond the tolerance, 10%, unseen); at least"
		       " 5 runs a side would decide them: ext4 create (incl. sync) (at least 5), ext4"
		       " stat walk (cold) (at least 5), ext4 delete (incl. sync) (at least 5)\n");
	CHECK_CONTAINS(e, "fsbench: compare: C (cmp-c.jsonl): 3 rows cannot be decided");
	free(o), free(e);
}

/* n runs of side s into gs-<s><k>.jsonl: create about cre s (rounds
 * 1 and 2 a little apart), delete about 20 s, each run's figures moved
 * by a small fixed jitter. */
static void group_files(char s, int n, double cre)
{
	static const double jit[] = { 1.000, 1.012, 0.991, 1.006, 0.996, 1.009, 0.987, 1.003,
				      0.994, 1.015 };
	for (int k = 0; k < n; k++) {
		char name[32], id[16], c[64], d[64];
		double j = jit[k % 10];
		snprintf(name, sizeof(name), "gs-%c%d.jsonl", s, k + 1);
		snprintf(id, sizeof(id), "%c00%d", s, k + 1);
		snprintf(c, sizeof(c), "ext4:create:%g,%g", cre * j, cre * j * 1.04);
		snprintf(d, sizeof(d), "ext4:delete:%g,%g", 20 * j, 20 * j * 0.98);
		unit_write_file(name, run_text(id, c, d, NULL));
	}
}

/* Groups: a run is one sample (each repetition of a run is one), the
 * side's samples its runs; --fail-on-regression on them; too few runs a
 * side is an ERROR that says how many would do. */
static void test_groups(void)
{
	char *o, *e;
	static char two[32768];

	group_files('a', 6, 12);
	group_files('c', 6, 36);
	char *a1[] = { "compare", "gs-a1.jsonl", "gs-a2.jsonl", "gs-a3.jsonl", "gs-a4.jsonl",
		       "gs-a5.jsonl", "gs-a6.jsonl", "--", "gs-c1.jsonl", "gs-c2.jsonl", "gs-c3.jsonl",
		       "gs-c4.jsonl", "gs-c5.jsonl", "gs-c6.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_STR(e, "");
	CHECK_CONTAINS(o, "- A1: run a001 (gs-a1.jsonl), host h-a001");
	CHECK_CONTAINS(o, "- B6: run c006 (gs-c6.jsonl)");
	/* 6 against 6 all apart: p = 2/924 = 0.0022, over 2 rows (BH) 0.0043 */
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync) |  12.3 |  36.8 | 3.00 |  2.96-3.04 |   0.0043 |"
		       "  1.9% | slower                |\n");
	/* the delete: the same; these 6 runs would have seen 1.9 % */
	CHECK_CONTAINS(o, "| ext4 | delete (incl. sync) |  19.9 |  19.9 | 1.00 |  0.99-1.01 |   1.0000 |"
		       "  1.9% | no change beyond 1.9% |\n");
	CHECK_CONTAINS(o, "- B against A: 1 slower, 0 faster, 0 beyond the tolerance but not"
		       " significant, 0 that cannot be decided, of 2 rows judged");
	free(o), free(e);
	static const struct cmd_case grouped[] = {
		{ { "compare", "gs-a1.jsonl", "gs-a2.jsonl", "gs-a3.jsonl", "gs-a4.jsonl",
		    "gs-a5.jsonl", "gs-a6.jsonl", "--", "gs-c1.jsonl", "gs-c2.jsonl", "gs-c3.jsonl",
		    "gs-c4.jsonl", "gs-c5.jsonl", "gs-c6.jsonl", "--fail-on-regression" }, 1,
		  .err = "fsbench: compare: B (gs-c1.jsonl): 1 row slower than A beyond the tolerance"
			  " (10%) and significant (p (BH) < 0.05): ext4 create (incl. sync) (3.00)\n" },
		/* the other way round: faster is no regression, and both rows decided */
		{ { "compare", "gs-c1.jsonl", "gs-c2.jsonl", "gs-c3.jsonl", "gs-c4.jsonl",
		    "gs-c5.jsonl", "gs-c6.jsonl", "--", "gs-a1.jsonl", "gs-a2.jsonl", "gs-a3.jsonl",
		    "gs-a4.jsonl", "gs-a5.jsonl", "gs-a6.jsonl", "--fail-on-regression" }, 0,
		  .err = "",
		  .out_has = "| faster                |" },
		/* a tolerance above the change: not flagged, however significant */
		{ { "compare", "gs-a1.jsonl", "gs-a2.jsonl", "gs-a3.jsonl", "gs-a4.jsonl",
		    "gs-a5.jsonl", "gs-a6.jsonl", "--", "gs-c1.jsonl", "gs-c2.jsonl", "gs-c3.jsonl",
		    "gs-c4.jsonl", "gs-c5.jsonl", "gs-c6.jsonl", "--fail-on-regression",
		    "--tolerance", "250%" }, .rc = 0 },
	};
	CMD_CASES(cmd_compare, grouped);
	/* the first two runs a side: the change is there, but 2 against 2
	 * cannot show it (p >= 1/3): an ERROR, with the runs a side that
	 * would (5: 2/C(10, 5) = 0.008 is below 0.05 over 2 rows, 4's 0.029
	 * is not) */
	char *f1[] = { "compare", "gs-a1.jsonl", "gs-a2.jsonl", "--", "gs-c1.jsonl", "gs-c2.jsonl",
		       "--fail-on-regression", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, f1, &o, &e), 5);
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync) |  12.3 |  36.9 | 3.00 |  2.96-3.04 |   0.6667 |"
		       "     - | cannot decide: 5 runs a side |\n");
	CHECK_STR(e, "fsbench: compare: B (gs-c1.jsonl): 2 rows cannot be decided with 2 runs against"
		  " 2 (their change could be beyond the tolerance, 10%, unseen); 5 runs a side would"
		  " decide them: ext4 create (incl. sync) (5), ext4 delete (incl. sync) (5)\n");
	free(o), free(e);

	/* repetitions: one run whose records carry "rep" 1 and 2 is 2
	 * samples, each the median of its repetition's rounds */
	rep = 1;
	snprintf(two, sizeof(two), "%s", run_text("r001", "ext4:create:10,12,14", NULL));
	rep = 2;
	const char *more = strchr(run_text("r001", "ext4:create:11,13,12.5", NULL), '\n') + 1;
	rep = 0;
	snprintf(two + strlen(two), sizeof(two) - strlen(two), "%s", more);
	unit_write_file("g-rep.jsonl", two);
	char *r1[] = { "compare", "g-rep.jsonl", "--", "gs-c1.jsonl", "gs-c2.jsonl", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, r1, &o, &e), 0);
	/* 12 and 12.5: their median 12.25; one row alone: 4 a side decide */
	CHECK_CONTAINS(o, "compare,ext4,create (incl. sync),12.250000,2,1,36.940325,2,2,3.0155,"
		       "2.9376,3.0967,0.3333,0.3333,,4,undecided,undecided,raw\n");
	free(o), free(e);
	/* without "rep" the later record of a round wins: one sample, the
	 * median of 11, 13, 12.5 */
	snprintf(two, sizeof(two), "%s", run_text("r002", "ext4:create:10,12,14", NULL));
	more = strchr(run_text("r002", "ext4:create:11,13,12.5", NULL), '\n') + 1;
	snprintf(two + strlen(two), sizeof(two) - strlen(two), "%s", more);
	unit_write_file("g-norep.jsonl", two);
	char *r2[] = { "compare", "g-norep.jsonl", "--", "gs-c1.jsonl", "--format=csv", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, r2, &o, &e), 0);
	CHECK_CONTAINS(o, "compare,ext4,create (incl. sync),12.500000,1,1,36.720000,1,1,");
	free(o), free(e);

	/* a repetition that is not a whole number: the line named */
	unit_write_file("g-badrep.jsonl", "{\"type\":\"run_start\",\"run_id\":\"x1\",\"seq\":0}\n"
		   "{\"type\":\"phase\",\"run_id\":\"x1\",\"seq\":1,\"fs\":\"ext4\",\"round\":1,"
		   "\"phase\":\"create\",\"seconds\":1,\"rep\":1.5}\n");
	char *b1[] = { "compare", "gs-a1.jsonl", "g-badrep.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, b1, &o, &e), 4);
	CHECK_STR(e, "fsbench: compare g-badrep.jsonl:2: phase record: \"rep\" must be a whole number >= 1\n");
	free(o), free(e);

	static const struct cmd_case misuse[] = {
		/* misuse: an empty group, a trailing '--' */
		{ { "compare", "gs-a1.jsonl", "--", "--", "gs-c1.jsonl" }, 2, .err_has = "fsbench: compare: no input between two '--'\n" },
		{ { "compare", "gs-a1.jsonl", "gs-c1.jsonl", "--" }, 2, .err_has = "fsbench: compare: no input after the last '--'\n" },
		/* a '--' before every input still ends the options */
		{ { "compare", "--", "gs-a1.jsonl", "gs-c1.jsonl" }, 0, .out_has = "- B: run c001" },
	};
	CMD_CASES(cmd_compare, misuse);
}

/* The conditions: a host twice as slow (every phase and the control 2x)
 * is said to be the conditions, the rows judged relative to the control
 * and not flagged; a slower disk (reads 3x, the control the same) is
 * flagged on the read rows. Five runs a side: 5 against 5 can be
 * significant (p = 2/252) below 0.05 over the 3 rows. */
static void test_conditions(void)
{
	static const char *const cre[5] = { "10,10.4", "10.2,10.6", "9.9,10.3", "10.1,10.5", "10.05,10.3" };
	static const char *const rd[5] = { "5,5.5", "5.1,5.4", "4.9,5.6", "5.2,5.45", "5.05,5.3" };
	char name[32], it1[64], it2[64];
	char *o, *e;

	for (int side = 0; side < 3; side++)
		for (int k = 0; k < 5; k++) {
			double f = side == 1 ? 2 : 1, fr = side == 2 ? 3 : f;
			double c1, c2, r1, r2;
			sscanf(cre[k], "%lf,%lf", &c1, &c2);
			sscanf(rd[k], "%lf,%lf", &r1, &r2);
			snprintf(it1, sizeof(it1), "ext4:create:%g,%g", c1 * f, c2 * f);
			snprintf(it2, sizeof(it2), "ext4:read:%g,%g", r1 * fr, r2 * fr);
			snprintf(name, sizeof(name), "cd-%c%d.jsonl", "ahc"[side], k + 1);
			char id[16];
			snprintf(id, sizeof(id), "%c00%d", "ahc"[side], k + 1);
			ctl = side == 1 ? 2.0 : 1.0 + 0.001 * k;
			unit_write_file(name, run_text(id, it1, it2, NULL));
		}
	ctl = 0;
	/* the slower host */
	char *h1[] = { "compare", "cd-a1.jsonl", "cd-a2.jsonl", "cd-a3.jsonl", "cd-a4.jsonl", "cd-a5.jsonl", "--",
		       "cd-h1.jsonl", "cd-h2.jsonl", "cd-h3.jsonl", "cd-h4.jsonl", "cd-h5.jsonl", "--fail-on-regression",
		       NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, h1, &o, &e), 0);
	CHECK_STR(e, "");
	CHECK_CONTAINS(o, "| B    | cpu  | 0.100 |    0.200 |   2.00 |");
	CHECK_CONTAINS(o, "|   35/35 | differ (slower) |\n");
	/* raw: twice as slow, significant; relative: the same, and the row
	 * judged on that: its p (BH) and MDC are the relative ones */
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)  |  10.2 |  20.4 | 2.00 |  1.96-2.04 |   0.8413 |"
		       "  3.3% |    1.00 | no change beyond 3.3% (ctl) |\n");
	CHECK_CONTAINS(o, "| ext4 | read cold (fresh fs) |  5.05 |  10.1 | 2.00 |  1.92-2.08 |   0.8413 |"
		       "  6.4% |    1.00 | no change beyond 6.4% (ctl) |\n");
	CHECK(!strstr(o, "| slower"));
	CHECK_CONTAINS(o, "- B against A: 0 slower, 0 faster, 0 beyond the tolerance but not"
		       " significant, 0 that cannot be decided, of 3 rows judged (tolerance 10%,"
		       " p (BH) < 0.05); conditions differ: the rows are judged relative to the control\n");
	free(o), free(e);
	char *h2[] = { "compare", "cd-a1.jsonl", "cd-a2.jsonl", "cd-a3.jsonl", "cd-a4.jsonl", "cd-a5.jsonl", "--",
		       "cd-h1.jsonl", "cd-h2.jsonl", "cd-h3.jsonl", "cd-h4.jsonl", "cd-h5.jsonl", "--format", "csv",
		       NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, h2, &o, &e), 0);
	/* the raw p (2/252) beside the judged one's p (BH) and MDC */
	CHECK_CONTAINS(o, "compare,ext4,read cold (fresh fs),5.050000,5,5,10.100000,5,5,2.0000,1.9231,2.0800,0.0079,"
		       "0.8413,6.4,,1.0040,0.9644,1.0400,0.8413,within_tolerance,within_tolerance,slower,control\n");
	CHECK_CONTAINS(o, "flags,B,3,0,0,0,0,,10.0,differ,\n");
	free(o), free(e);
	/* the slower disk: the reads flagged, the control the same; 2 of 3
	 * rows at p = 2/252 each: p (BH) 0.0119 */
	char *c1[] = { "compare", "cd-a1.jsonl", "cd-a2.jsonl", "cd-a3.jsonl", "cd-a4.jsonl", "cd-a5.jsonl", "--",
		       "cd-c1.jsonl", "cd-c2.jsonl", "cd-c3.jsonl", "cd-c4.jsonl", "cd-c5.jsonl", "--fail-on-regression",
		       NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, c1, &o, &e), 1);
	CHECK_CONTAINS(o, "| B    | cpu  | 0.100 |    0.100 |   1.00 |");
	CHECK(!strstr(o, "differ ("));
	CHECK_CONTAINS(o, "| ext4 | read cold (fresh fs) |  5.05 |  15.2 | 3.00 |  2.88-3.12 |   0.0119 |"
		       "  6.5% |    3.00 | slower                |\n");
	CHECK_CONTAINS(o, "- B against A: 2 slower, 0 faster, 0 beyond the tolerance but not"
		       " significant, 0 that cannot be decided, of 3 rows judged (tolerance 10%,"
		       " p (BH) < 0.05); conditions the same\n");
	CHECK_STR(e, "fsbench: compare: B (cd-c1.jsonl): 2 rows slower than A beyond the tolerance"
		  " (10%) and significant (p (BH) < 0.05): ext4 read cold (fresh fs) (3.00), ext4 read"
		  " cold (aged fs) (3.00)\n");
	free(o), free(e);
	/* --control report: the slower host's conditions reported, its rows
	 * judged on their own seconds: twice as slow, every row flagged (a
	 * kernel that moved the control with everything else) */
	char *r1[] = { "compare", "cd-a1.jsonl", "cd-a2.jsonl", "cd-a3.jsonl", "cd-a4.jsonl", "cd-a5.jsonl", "--",
		       "cd-h1.jsonl", "cd-h2.jsonl", "cd-h3.jsonl", "cd-h4.jsonl", "cd-h5.jsonl", "--fail-on-regression",
		       "--control", "report", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, r1, &o, &e), 1);
	CHECK_CONTAINS(o, "|   35/35 | differ (slower) |\n");
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)  |  10.2 |  20.4 | 2.00 |  1.96-2.04 |   0.0079 |");
	CHECK(!strstr(o, "(ctl) |"));
	CHECK_CONTAINS(o, "of 3 rows judged (tolerance 10%, p (BH) < 0.05); conditions differ, the rows"
		       " judged on their own seconds (--control report)\n");
	CHECK_CONTAINS(e, "fsbench: compare: B (cd-h1.jsonl): 3 rows slower than A");
	free(o), free(e);
	static const struct cmd_case reference[] = {
		{ { "compare", "cd-a1.jsonl", "cd-h1.jsonl", "--control=judge" }, .rc = 0 },
		{ { "compare", "cd-a1.jsonl", "cd-h1.jsonl", "--control", "off" }, 2, .err_has = "fsbench: compare: --control: judge or report, got 'off'\n" },
	};
	CMD_CASES(cmd_compare, reference);
}

/* A run's control records pooled: the start's 7 samples and 3 after a
 * filesystem. A host that slowed after the start is seen in the samples
 * taken later: 2 runs a side, the B side's later controls 3 times slower. */
static void test_control_pooled(void)
{
	char *o, *e;

	for (int side = 0; side < 2; side++)
		for (int k = 0; k < 4; k++) {
			char name[32], id[16];
			snprintf(name, sizeof(name), "cp-%c%d.jsonl", "ab"[side], k + 1);
			snprintf(id, sizeof(id), "%c10%d", "ab"[side], k + 1);
			ctl = 1.0 + 0.001 * k;
			ctl_after = side ? 3.0 + 0.001 * k : ctl;
			unit_write_file(name, run_text(id, "ext4:create:10,10.4", NULL));
		}
	ctl = ctl_after = 0;
	char *a1[] = { "compare", "cp-a1.jsonl", "cp-a2.jsonl", "cp-a3.jsonl", "cp-a4.jsonl", "--",
		       "cp-b1.jsonl", "cp-b2.jsonl", "cp-b3.jsonl", "cp-b4.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_STR(e, "");
	/* 4 runs x (7 + 3) samples a side; B's 12 slow samples of 40 move
	 * its median only a little (a control replaced by the last record
	 * would hold 12 samples of 0.3 s) */
	CHECK_CONTAINS(o, "| B    | cpu  | 0.100 |    0.101 |   1.01 | 1.00-1.02 | 0.0211 |   40/40 | same |\n");
	free(o), free(e);
	/* a later control record whose work is not the first's: named */
	unit_write_file("cp-bad.jsonl",
		   "{\"type\":\"run_start\",\"run_id\":\"c1\",\"seq\":0}\n"
		   "{\"type\":\"control\",\"run_id\":\"c1\",\"seq\":1,\"cpu_iterations\":1000,\"cpu_s\":[0.1]}\n"
		   "{\"type\":\"control\",\"run_id\":\"c1\",\"seq\":2,\"after\":\"ext4\",\"cpu_iterations\":2000,"
		   "\"cpu_s\":[0.2]}\n"
		   "{\"type\":\"phase\",\"run_id\":\"c1\",\"seq\":3,\"fs\":\"ext4\",\"round\":1,"
		   "\"phase\":\"create\",\"seconds\":1,\"files\":100}\n");
	char *b1[] = { "compare", "cp-bad.jsonl", "cp-a1.jsonl", NULL };
	CHECK(run_cmd(cmd_compare, b1, &o, &e) != 0);
	CHECK_CONTAINS(e, "cp-bad.jsonl:3: control record: its sizes differ from the run's first control record");
	free(o), free(e);
}

/* Runs with different filesystems and rows: the table has what A and a
 * later run have; the rest is named under it. */
static void test_mismatch(void)
{
	char *o, *e;

	unit_write_file("mm-a.jsonl", run_text("aaaa", "ext4:create:10,10", "ext4:read:5,9",
					   "xfs:create:20,20", NULL));
	unit_write_file("mm-b.jsonl", run_text("bbbb", "ext4:create:10", "ext4:read:5", NULL));
	unit_write_file("mm-c.jsonl", run_text("cccc", "ext4:create:10,11", "btrfs:create:30,30", NULL));
	char *a1[] = { "compare", "mm-a.jsonl", "mm-b.jsonl", "mm-c.jsonl", NULL };
	CHECK_EQ_U(run_cmd(cmd_compare, a1, &o, &e), 0);
	CHECK_CONTAINS(o, "| ext4 | create (incl. sync)  |");
	CHECK_CONTAINS(o, "| ext4 | read cold (fresh fs) |  5.00 |  5.00 | 1.00 |          - |   1.0000 |     - |"
		       " cannot decide: at least 5 runs a side |     - |    - |          - |        - |     - |"
		       "                                       |\n");
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

/* Bad input: a clear message naming the input and the reason. */
static void test_bad_input(void)
{
	char *o, *e;

	unit_write_file("bad-a.jsonl", run_text("aaaa", "ext4:create:10", NULL));
	unit_write_file("bad-nophase.jsonl", run_text("nnnn", NULL));
	unit_write_file("bad-empty.jsonl", "");

	static const struct cmd_case usage[] = {
		{ { "compare", "bad-a.jsonl" }, 2, .err_has = "fsbench: compare: missing B\nusage: fsbench compare A B [C ...]", .out = "" },
		{ { "compare", "--tolerance", "lots", "bad-a.jsonl", "bad-a.jsonl" }, 2, .err_has = "fsbench: compare: --tolerance: expected a percentage (10%), got 'lots'\n" },
		{ { "compare", "bad-a.jsonl", "bad-a.jsonl", "--tolerance", "-5" }, 2, .err_has = "got '-5'" },
		{ { "compare", "bad-a.jsonl", "bad-a.jsonl", "--tolerance" }, 2, .err_has = "fsbench: compare: --tolerance needs an argument\n" },
	};
	CMD_CASES(cmd_compare, usage);
	char *u5[28] = { "compare" };
	for (int i = 1; i < 28; i++)
		u5[i] = "bad-a.jsonl";
	u5[27] = NULL;	/* 26 runs: fine */
	CHECK_EQ_U(run_cmd(cmd_compare, u5, &o, &e), 0);
	CHECK_CONTAINS(o, "| Z vs A ");
	free(o), free(e);
	char *u6[29] = { "compare" };
	for (int i = 1; i < 28; i++)
		u6[i] = "bad-a.jsonl";
	u6[28] = NULL;	/* 27 */
	CHECK_EQ_U(run_cmd(cmd_compare, u6, &o, &e), 2);
	CHECK_CONTAINS(e, "fsbench: compare: 27 inputs, at most 26 sides at once (groups: '--')\n");
	free(o), free(e);

	static const struct cmd_case unread[] = {
		/* a run without phase records: named, nothing printed, 5 (never 1, a regression) */
		{ { "compare", "bad-a.jsonl", "bad-nophase.jsonl", "bad-a.jsonl" }, 5, .out = "", .err = "fsbench: compare bad-nophase.jsonl: run nnnn has no phase records\n" },
		/* no records at all, a file that is not there */
		{ { "compare", "bad-a.jsonl", "bad-empty.jsonl" }, 5, .err = "fsbench: compare bad-empty.jsonl: no records\n" },
		{ { "compare", "bad-a.jsonl", "bad-a.jsonl", "no-such.jsonl" }, 4, .out = "", .err = "fsbench: compare no-such.jsonl: No such file or directory\n" },
	};
	CMD_CASES(cmd_compare, unread);

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
	CHECK_EQ_U(run_cmd(cmd_compare, r2, &o, &e), 1);	/* the tolerance alone decides */
	CHECK_CONTAINS(e, "B (bad-a.jsonl): 1 row slower");
	free(o), free(e);
}

UNIT_MAIN(test_rule, test_judge, test_family_error, test_three_runs, test_groups, test_conditions,
	test_control_pooled, test_mismatch, test_bad_input)

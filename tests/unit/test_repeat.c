/* test_repeat.c: repetitions (setting repeat): the setting, when a column's
 * repetitions stop (run/engine/repeat.c) and its `repeat` record, `rep` in
 * every record of a repetition and in the LAVA ids, and the report of a run
 * with repetitions (report/load/load_reps.c, report/sections/repetitions.c):
 * phase rows folded into their medians, the Repetitions table, variants
 * against their base with the Mann-Whitney p and the flags. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsbench.h"
#include "report/output.h"
#include "report/sections/repetitions.h"
#include "run/core/context.h"
#include "run/engine/lava.h"
#include "run/engine/phase.h"
#include "run/engine/repeat.h"
#include "run/settings.h"
#include "fixtures.h"
#include "records.h"
#include "runctx.h"
#include "unit.h"

/* Merge one key = value over the defaults; 0 or -1 with err. */
static int set_one(struct fsb_config *cfg, const char *key, const char *val, char *err, size_t len)
{
	static struct fsb_layer l;
	struct fsb_layer *layers[1] = { &l };
	int rc;

	memset(&l, 0, sizeof(l));
	l.src = SRC_CLI;
	l.origin = "command line";
	rc = fsb_layer_add(&l, key, val, "test", err, len);
	if (rc == 0)
		rc = fsb_config_merge(cfg, layers, 1, err, len);
	fsb_layer_free(&l);
	return rc;
}

static void test_setting(void)
{
	struct fsb_config cfg;
	char v[64], err[512];

	fsb_config_defaults(&cfg);
	CHECK_EQ_U(cfg.repeat, 1);
	CHECK_EQ_U(cfg.repeat_width, 5);
	CHECK_EQ_U(cfg.repeat_max, 20);
	CHECK(!fsb_repeat_on(&cfg));
	CHECK(set_one(&cfg, "repeat", "auto", err, sizeof(err)) == 0);
	CHECK_EQ_U(cfg.repeat, 0);
	CHECK(fsb_config_get(&cfg, "repeat", v, sizeof(v)) == 0);
	CHECK_STR(v, "auto");
	CHECK(fsb_repeat_on(&cfg));
	cfg.smallfile = 0;	/* nothing to repeat */
	CHECK(!fsb_repeat_on(&cfg));
	CHECK(set_one(&cfg, "repeat", "7", err, sizeof(err)) == 0);
	CHECK_EQ_U(cfg.repeat, 7);
	/* bad values name the key, the value and what is allowed */
	CHECK(set_one(&cfg, "repeat", "0", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "repeat=0: out of range; allowed: an integer from 1 to 1000, or auto");
	CHECK(set_one(&cfg, "repeat", "often", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "repeat=often: not a number");
	CHECK(set_one(&cfg, "repeat_max", "5", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "repeat_max=5: out of range; allowed: an integer from 6 to 1000");
	/* run_start's config: a number, or the string auto */
	static char json[16384];
	fsb_config_defaults(&cfg);
	CHECK(fsb_config_json(&cfg, json, sizeof(json)) > 0);
	CHECK_CONTAINS(json, "\"repeat\":1,\"repeat_width\":5,\"repeat_max\":20");
	cfg.repeat = 0;
	CHECK(fsb_config_json(&cfg, json, sizeof(json)) > 0);
	CHECK_CONTAINS(json, "\"repeat\":\"auto\"");
}

static size_t phase_index(const char *name)
{
	for (size_t i = 0; i < fsb_phase_count; i++)
		if (!strcmp(fsb_phases[i].name, name))
			return i;
	return 0;
}

static void test_stop(void)
{
	struct fsb_ctx c;
	struct fsb_reps r;
	FILE *f = ctx_open(&c);
	size_t create = phase_index("create"), stat = phase_index("stat");

	c.cfg.rounds = 2;
	/* repeat = 3: three repetitions, then no more; no record */
	c.cfg.repeat = 3;
	CHECK(fsb_reps_init(&r, &c.cfg, fsb_phase_count) == 0);
	for (int k = 0; k < 3; k++) {
		CHECK(!r.stop);
		fsb_reps_add(&r, 1, create, 1.0 + k);
		fsb_reps_end(&c, &r, 0);
	}
	CHECK(r.stop && r.done == 3);
	fsb_reps_record(&c, &r, "ext4");
	CHECK_STR(ctx_text(&c), "");
	fsb_reps_free(&r);
	/* a failed repetition is the last */
	CHECK(fsb_reps_init(&r, &c.cfg, fsb_phase_count) == 0);
	fsb_reps_end(&c, &r, 1);
	CHECK(r.stop && r.done == 1);
	fsb_reps_free(&r);

	/* auto: steady phases converge at 6 (the least n with a 95 % interval) */
	c.cfg.repeat = 0;
	c.cfg.repeat_max = 20;
	c.cfg.repeat_width = 5;
	CHECK(fsb_reps_init(&r, &c.cfg, fsb_phase_count) == 0);
	for (int k = 0; k < 6; k++) {
		CHECK(!r.stop);
		fsb_reps_add(&r, 1, create, 2.0 + 0.001 * k);
		fsb_reps_add(&r, 2, stat, 0.5 + 0.0001 * k);
		fsb_reps_end(&c, &r, 0);
	}
	CHECK(r.stop && r.converged && r.done == 6);
	fsb_reps_record(&c, &r, "ext4");
	CHECK_CONTAINS(ctx_text(&c), "\"type\":\"repeat\"");
	CHECK_CONTAINS(ctx_text(&c), "\"fs\":\"ext4\",\"reps\":6,\"max\":20,\"width_pct\":5,\"converged\":true,"
		       "\"phases\":[{\"round\":1,\"phase\":\"create\",\"n\":6,\"median\":2.0025,\"lo\":2,"
		       "\"hi\":2.005,");
	CHECK_CONTAINS(ctx_text(&c), "\"converged\":true,\"converged_at\":6}");
	fsb_reps_free(&r);
	/* a phase that stays wide: the maximum, and the record names it */
	if (f && ftruncate(c.out_fd, 0) == 0)
		lseek(c.out_fd, 0, SEEK_SET);
	c.cfg.repeat_max = 8;
	CHECK(fsb_reps_init(&r, &c.cfg, fsb_phase_count) == 0);
	for (int k = 0; k < 8; k++) {
		CHECK(!r.stop);
		fsb_reps_add(&r, 1, create, 2.0);
		fsb_reps_add(&r, 1, stat, k % 2 ? 1.0 : 2.0);	/* 1 and 2: the interval is 100 % wide */
		fsb_reps_end(&c, &r, 0);
	}
	CHECK(r.stop && !r.converged && r.done == 8);
	fsb_reps_record(&c, &r, "xfs");
	CHECK_CONTAINS(ctx_text(&c), "\"fs\":\"xfs\",\"reps\":8,\"max\":8,\"width_pct\":5,\"converged\":false");
	CHECK_CONTAINS(ctx_text(&c), "{\"round\":1,\"phase\":\"create\",\"n\":8,\"median\":2,\"lo\":2,\"hi\":2,"
		       "\"ci_pct\":0,\"converged\":true,\"converged_at\":6}");
	CHECK_CONTAINS(ctx_text(&c), "{\"round\":1,\"phase\":\"stat\",\"n\":8,\"median\":1.5,\"lo\":1,\"hi\":2,"
		       "\"ci_pct\":66.6666667,\"converged\":false}");
	fsb_reps_free(&r);
	if (f)
		fclose(f);
}

static void test_rep_field(void)
{
	struct fsb_ctx c;
	struct fsb_rec r;
	FILE *f = ctx_open(&c);

	if (!f)
		return;
	c.cfg.lava = 1;
	/* no repetitions: no rep, the id as always */
	fsb_rec_start(&c, &r, FSB_REC_phase_start);
	fsb_emit(&c, &r);
	fsb_lava_phase(&c, "ext4", 1, "create", 1.5, 0);
	c.rep = 1;
	fsb_rec_start(&c, &r, FSB_REC_phase_start);
	fsb_emit(&c, &r);
	fsb_lava_phase(&c, "ext4", 1, "create", 1.5, 0);
	c.rep = 2;
	fsb_rec_start(&c, &r, FSB_REC_phase_start);
	fsb_emit(&c, &r);
	fsb_lava_phase(&c, "f2fs:s4z4", 1, "create", 1.5, 0);
	const char *s = ctx_text(&c);
	const char *first = strstr(s, "\n");
	CHECK(first && !memmem(s, (size_t)(first - s), "\"rep\"", 5));
	CHECK_CONTAINS(s, "FSBENCH-RESULT: test_case_id=ext4-r1-create result=pass measurement=1.5 units=s\n"
		       "{\"schema\":1,\"type\":\"phase_start\"");
	CHECK_CONTAINS(s, ",\"rep\":1}\nFSBENCH-RESULT: test_case_id=ext4-r1-create result=pass");
	CHECK_CONTAINS(s, ",\"rep\":2}\nFSBENCH-RESULT: test_case_id=f2fs.s4z4-r1-create-rep2 result=pass");
	fclose(f);
}

/* A run of two columns, ext4 and its variant ext4:same, 6 repetitions
 * interleaved: create is the same in both, read is 50 % slower in the
 * variant, stat 5 % slower (significant, within the tolerance). */
static char *records(int reps)
{
	static char text[65536];
	size_t o = 0;
	unsigned seq = 0;

#define PUT(...) (o += (size_t)snprintf(text + o, sizeof(text) - o, __VA_ARGS__))
	PUT("{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"00000000000000aa\",\"seq\":%u,\"t\":0,"
	    "\"tool\":\"fsbench\",\"version\":\"0\",\"mode\":\"device\",\"time_unix\":1,"
	    "\"host\":{\"cpu_model\":\"x\",\"cpus\":1,\"mem_bytes\":1,\"dmi\":{}},\"target\":{\"path\":\"/dev/x\"}}\n", seq++);
	for (int k = 1; k <= reps; k++) {
		for (int v = 0; v < 2; v++) {
			const char *fs = v ? "ext4:same" : "ext4";
			char repf[16] = "";
			if (reps > 1)
				snprintf(repf, sizeof(repf), ",\"rep\":%d", k);
			PUT("{\"schema\":1,\"type\":\"fs_start\",\"run_id\":\"00000000000000aa\",\"seq\":%u,\"t\":1%s,"
			    "\"fs\":\"%s\",\"device\":\"/dev/x\",\"support\":\"present\",\"mount_opts\":\"\",\"mnt\":\"/m\"",
			    seq++, repf, fs);
			if (v)
				PUT(",\"variant\":{\"name\":\"ext4:same\",\"base\":\"ext4\",\"mkfs\":\"\",\"mount\":\"relatime\","
				    "\"source\":\"built in\"}");
			PUT("}\n");
			static const char *const ph[] = { "create", "stat", "read" };
			for (int i = 0; i < 3; i++) {
				/* create: the same values in both columns, shuffled; read x1.5; stat x1.05 */
				double base = i == 0 ? 2.0 + 0.01 * ((k * 7 + v * 3) % 6) : i == 1 ? 1.0 + 0.001 * k : 4.0 + 0.01 * k;
				double s = base * (v && i == 2 ? 1.5 : v && i == 1 ? 1.05 : 1);
				PUT("{\"schema\":1,\"type\":\"phase\",\"run_id\":\"00000000000000aa\",\"seq\":%u,\"t\":2%s,"
				    "\"fs\":\"%s\",\"round\":1,\"phase\":\"%s\",\"order\":\"name\",\"cold\":true,"
				    "\"seconds\":%.6f,\"files\":100,\"bytes\":409600,\"files_per_s\":%.6f,\"mib_per_s\":1,"
				    "\"errors\":%d,\"verify_errors\":0,\"verified\":true,\"workers\":1,\"worker_seconds\":[1]}\n",
				    seq++, repf, fs, ph[i], s, 100 / s, i == 0 && k == 2 && v == 0);
			}
			PUT("{\"schema\":1,\"type\":\"fs_end\",\"run_id\":\"00000000000000aa\",\"seq\":%u,\"t\":3%s,"
			    "\"fs\":\"%s\",\"status\":\"ok\",\"reason\":\"\"}\n", seq++, repf, fs);
		}
	}
	PUT("{\"schema\":1,\"type\":\"repeat\",\"run_id\":\"00000000000000aa\",\"seq\":%u,\"t\":4,\"rep\":%d,"
	    "\"fs\":\"ext4\",\"reps\":%d,\"max\":20,\"width_pct\":1,\"converged\":false,\"phases\":["
	    "{\"round\":1,\"phase\":\"create\",\"n\":%d,\"median\":2.02,\"converged\":false},"
	    "{\"round\":1,\"phase\":\"stat\",\"n\":%d,\"median\":1.003,\"lo\":1.001,\"hi\":1.006,\"ci_pct\":0.5,"
	    "\"converged\":true,\"converged_at\":6}]}\n", seq++, reps, reps, reps, reps);
#undef PUT
	return text;
}

static const char *row_cell(const struct rep_table *t, const char *fs, const char *phase, size_t col)
{
	for (size_t row = 0; row < t->nrows; row++)
		if (!strcmp(cell(t, MD, row, 0), fs) && !strcmp(cell(t, MD, row, t->name[0] == 'v' ? 3 : 2), phase))
			return cell(t, MD, row, col);
	return NULL;
}

static void test_report(void)
{
	struct rep_set set;
	struct rep_table t;
	char err[256];

	CHECK(load_text(&set, records(6), err, sizeof(err)) == 0);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	CHECK(r && r->reps == 6 && r->nraw == 36 && r->nph == 6 && r->raw);
	if (!r || r->nph != 6)
		return;
	/* the rows: the median of the repetitions, errors summed */
	CHECK_STR(r->ph[0].fs, "ext4");
	CHECK_STR(r->ph[0].phase, "create");
	CHECK_EQ_U(r->ph[0].nrep, 6);
	CHECK(fabs(r->ph[0].seconds - 2.025) < 1e-9);	/* 2.00..2.05: the middle two 2.02, 2.03 */
	CHECK_EQ_U(r->ph[0].errors, 1);
	CHECK(fabs(r->ph[5].seconds - 4.035 * 1.5) < 1e-9);
	CHECK(fabs(r->ph[5].files_per_s - 100 / 4.035 / 1.5) < 1e-3);

	CHECK(rep_table_repetitions(r, &t) == 0);
	CHECK_STR(row_cell(&t, "ext4", "create", 3), "6");
	CHECK_STR(row_cell(&t, "ext4", "create", 5), "2.00");	/* 6 samples: x(1), x(6) */
	CHECK_STR(row_cell(&t, "ext4", "create", 6), "2.05");
	CHECK_STR(row_cell(&t, "ext4", "create", 9), "no");	/* the repeat record's word */
	CHECK_STR(row_cell(&t, "ext4", "stat", 9), "yes");
	CHECK_STR(row_cell(&t, "ext4:same", "stat", 9), "-");	/* no repeat record of that column */
	rep_table_free(&t);

	CHECK(rep_table_versus(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 3);
	CHECK_STR(row_cell(&t, "ext4:same", "create", 6), "1.00");
	CHECK_STR(row_cell(&t, "ext4:same", "create", 9), "");		/* the same values: not flagged */
	CHECK_STR(row_cell(&t, "ext4:same", "read", 6), "1.50");
	CHECK_STR(row_cell(&t, "ext4:same", "read", 7), "0.0022");	/* 6 v 6 apart: 2 / C(12, 6) */
	CHECK_STR(row_cell(&t, "ext4:same", "read", 8), "0.0065");	/* Holm: 3 rows, the two smallest x 3 */
	CHECK_STR(row_cell(&t, "ext4:same", "read", 9), "slower");
	CHECK_STR(row_cell(&t, "ext4:same", "stat", 7), "0.0022");	/* significant ... */
	CHECK_STR(row_cell(&t, "ext4:same", "stat", 8), "0.0065");
	CHECK_STR(row_cell(&t, "ext4:same", "stat", 9), "");		/* ... but within 10 % */
	CHECK_STR(row_cell(&t, "ext4:same", "create", 8), "1.0000");
	rep_table_free(&t);
	struct rep_vs vs[3];
	CHECK(rep_vs_judge(r, "ext4:same", "ext4", 1, "read", &vs[0]) == 0 && vs[0].flag == VS_NONE);
	CHECK(rep_vs_judge(r, "ext4:same", "ext4", 1, "stat", &vs[1]) == 0);
	CHECK(rep_vs_judge(r, "ext4:same", "ext4", 2, "stat", &vs[2]) == -ENOENT);
	rep_vs_holm(vs, 2, 0.01);
	CHECK(vs[0].flag == VS_SLOWER && vs[1].flag == VS_SLOWER);
	/* Holm by hand: 0.01, 0.04, 0.03 of 3 -> 0.03, 0.06, 0.06 */
	vs[0].p = 0.01, vs[1].p = 0.04, vs[2].p = 0.03;
	vs[0].ratio = vs[1].ratio = vs[2].ratio = 2;
	vs[0].flag = vs[1].flag = vs[2].flag = VS_NONE;
	rep_vs_holm(vs, 3, 0.10);
	CHECK(fabs(vs[0].p_holm - 0.03) < 1e-12 && fabs(vs[1].p_holm - 0.06) < 1e-12 &&
	      fabs(vs[2].p_holm - 0.06) < 1e-12);
	CHECK(vs[0].flag == VS_SLOWER && vs[1].flag == VS_SAME && vs[2].flag == VS_SAME);

	/* the whole report: the sections there, in order */
	char *s = render(r, MD);
	const char *a = s ? strstr(s, "## Rounds") : NULL, *b = s ? strstr(s, "## Repetitions") : NULL,
		   *c = s ? strstr(s, "## Variants against their base") : NULL;
	CHECK(a && b && c && a < b && b < c);
	CHECK_CONTAINS(s, "Each row is the median of the phase's repetitions");
	free(s);
	rep_free(&set);

	/* one repetition (repeat = 1): nothing folded, no section */
	CHECK(load_text(&set, records(1), err, sizeof(err)) == 0);
	r = set.nruns ? set.runs[0] : NULL;
	CHECK(r && !r->raw && r->nph == 6 && r->ph[0].nrep == 1 && r->ph[0].rep == 1);
	s = r ? render(r, MD) : NULL;
	CHECK(s && !strstr(s, "## Repetitions") && !strstr(s, "## Variants against") &&
	      !strstr(s, "median of the phase's repetitions"));
	free(s);
	rep_free(&set);

	/* rep 0 is not a repetition */
	char *bad = records(1);
	char *p = strstr(bad, "\"type\":\"phase\"");
	if (p) {
		memmove(p + 8, p, strlen(p) + 1);
		memcpy(p, "\"rep\":0,", 8);
	}
	CHECK(load_text(&set, bad, err, sizeof(err)) == -EBADMSG);
	CHECK_CONTAINS(err, "\"rep\" must be a whole number >= 1");
	rep_free(&set);
}

FIXTURES_MAIN(test_setting, test_stop, test_rep_field, test_report)

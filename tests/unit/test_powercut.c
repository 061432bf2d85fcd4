/* test_powercut.c: the power-cut campaign's parts that need no disk: the
 * durability workload's sequence (run/stores/durable.h: a pure function of
 * seed, worker and index; kinds, sizes, generations), its contents, the
 * verifier's classification of made-up files (verified, in flight, lost,
 * torn), the records against the schema, the LAVA line, and the boot
 * after a cut finding its campaign in a log (run/engine/powercut.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/jsonr.h"
#include "report/load/loader.h"
#include "report/sections/cuts.h"
#include "report/sections/tables.h"
#include "report/writers/chart.h"
#include "log/logfile.h"
#include "log/pcrule.h"
#include "log/validate.h"
#include "run/core/context.h"
#include "run/engine/lava.h"
#include "run/engine/powercut.h"
#include "run/settings.h"
#include "run/stores/durable.h"
#include "fixtures.h"
#include "unit.h"
#include "verdicts.h"

/* The filesystems of the campaign's verdict. */
#define PC_FS "ext4,xfs,btrfs,f2fs"

#define SEED 0x1234abcdull

static void test_sequence(void)
{
	struct fsb_dur_seq a, b, c;
	struct fsb_dur_op x, y, z;
	unsigned kinds[4] = { 0 }, mismatch = 0, bad = 0, differ = 0;

	CHECK(fsb_dur_seq_init(&a, SEED, 3, 16) == 0);
	CHECK(fsb_dur_seq_init(&b, SEED, 3, 16) == 0);
	CHECK(fsb_dur_seq_init(&c, SEED, 4, 16) == 0);
	for (unsigned i = 0; i < 5000; i++) {
		const struct fsb_dur_state before = a.slot[0];
		(void)before;
		fsb_dur_next(&a, &x);
		fsb_dur_next(&b, &y);
		fsb_dur_next(&c, &z);
		mismatch += memcmp(&x, &y, sizeof(x)) != 0;	/* the same seed, worker, index */
		differ += x.slot != z.slot || x.kind != z.kind;	/* another worker, another sequence */
		kinds[x.kind]++;
		bad += x.index != i || x.slot >= 16;
		/* a create only where nothing is, the rest only where a file is */
		bad += (x.kind == FSB_DUR_CREATE) == x.before.exists;
		if (x.kind == FSB_DUR_CREATE || x.kind == FSB_DUR_REPLACE)
			bad += x.after.size < FSB_DUR_MIN_SIZE || x.after.size > FSB_DUR_MAX_NEW ||
			       x.after.gen != i + 1;
		if (x.kind == FSB_DUR_APPEND)
			bad += x.after.gen != x.before.gen || x.after.size <= x.before.size ||
			       x.after.size > FSB_DUR_MAX_SIZE;
		if (x.kind == FSB_DUR_DELETE)
			bad += x.after.exists;
		bad += memcmp(&a.slot[x.slot], &x.after, sizeof(x.after)) != 0;
	}
	CHECK_EQ_U(mismatch, 0);
	CHECK_EQ_U(bad, 0);
	CHECK(differ > 1000);
	for (int k = 0; k < 4; k++)
		CHECK(kinds[k] > 300);	/* every kind, often */
	fsb_dur_seq_free(&a);
	fsb_dur_seq_free(&b);
	fsb_dur_seq_free(&c);

	/* the cycles' seeds differ by filesystem and cycle */
	CHECK(fsb_dur_cycle_seed(7, 0, 1) != fsb_dur_cycle_seed(7, 0, 2));
	CHECK(fsb_dur_cycle_seed(7, 0, 1) != fsb_dur_cycle_seed(7, 1, 1));
	CHECK(fsb_dur_cycle_seed(7, 0, 1) == fsb_dur_cycle_seed(7, 0, 1));

	/* contents: a piece at any offset is the same bytes as from the start */
	unsigned char whole[1000], part[300];
	fsb_dur_fill(99, 0, whole, sizeof(whole));
	fsb_dur_fill(99, 333, part, sizeof(part));
	CHECK(memcmp(whole + 333, part, sizeof(part)) == 0);
	fsb_dur_fill(100, 333, part, sizeof(part));
	CHECK(memcmp(whole + 333, part, sizeof(part)) != 0);

	char n[FSB_DUR_NAME_MAX];
	fsb_dur_name(n, 1, 17, 0);
	CHECK_STR(n, "w01/s017");
	fsb_dur_name(n, 12, 3, 1);
	CHECK_STR(n, "w12/s003.new");
}

/* A made-up slot and a file for it in memory. */
static unsigned char file[FSB_DUR_MAX_SIZE], scratch[FSB_DUR_BUF];

static void gen(uint32_t slot, uint64_t g, uint32_t size)
{
	fsb_dur_fill(fsb_dur_key(SEED, 0, slot, g), 0, file, size);
}

static enum fsb_dur_class cls(const struct fsb_dur_expect *e, uint32_t slot, int exists, uint64_t size)
{
	struct fsb_dur_bytes b = { file, size, scratch };

	return fsb_dur_classify(e, SEED, 0, slot, exists, size, fsb_dur_match_bytes, &b);
}

static struct fsb_dur_op op(enum fsb_dur_kind k, uint32_t slot, int bex, uint64_t bgen, uint32_t bsize,
			    int aex, uint64_t agen, uint32_t asize)
{
	struct fsb_dur_op o = { .kind = k, .slot = slot,
				.before = { bex, bgen, bsize }, .after = { aex, agen, asize } };
	return o;
}

/* e: the one operation o in flight, the state it found acknowledged. */
static void in_flight(struct fsb_dur_expect *e, struct fsb_dur_op o)
{
	memset(e, 0, sizeof(*e));
	e->acked = o.before;
	e->nflight = 1;
	e->flight[0] = o;
}

static void test_classify(void)
{
	struct fsb_dur_expect e;

	/* acknowledged: a file of generation 5, 10000 bytes; nothing in flight */
	memset(&e, 0, sizeof(e));
	e.acked = (struct fsb_dur_state){ 1, 5, 10000 };
	gen(2, 5, 10000);
	CHECK_EQ_U(cls(&e, 2, 1, 10000), FSB_DUR_VERIFIED);
	CHECK_EQ_U(cls(&e, 2, 0, 0), FSB_DUR_LOST);	/* missing */
	CHECK_EQ_U(cls(&e, 2, 1, 5000), FSB_DUR_LOST);	/* shorter: truncated */
	file[5000] ^= 1;	/* one byte wrong */
	CHECK_EQ_U(cls(&e, 2, 1, 10000), FSB_DUR_TORN);
	gen(2, 5, 10000);
	memset(file + 4096, 0, 4096);	/* zeros where acknowledged data was */
	CHECK_EQ_U(cls(&e, 2, 1, 10000), FSB_DUR_TORN);
	gen(2, 5, 12000);
	CHECK_EQ_U(cls(&e, 2, 1, 12000), FSB_DUR_TORN);	/* longer, nothing in flight */
	/* acknowledged deleted: a file there undoes the delete */
	memset(&e, 0, sizeof(e));
	CHECK_EQ_U(cls(&e, 2, 0, 0), FSB_DUR_VERIFIED);
	CHECK_EQ_U(cls(&e, 2, 1, 10000), FSB_DUR_LOST);

	/* a replace in flight: old whole or new whole, never a mix */
	in_flight(&e, op(FSB_DUR_REPLACE, 2, 1, 5, 10000, 1, 9, 20000));
	gen(2, 5, 10000);
	CHECK_EQ_U(cls(&e, 2, 1, 10000), FSB_DUR_VERIFIED);
	gen(2, 9, 20000);
	CHECK_EQ_U(cls(&e, 2, 1, 20000), FSB_DUR_IN_FLIGHT);
	gen(2, 9, 20000);
	fsb_dur_fill(fsb_dur_key(SEED, 0, 2, 5), 0, file, 10000);	/* old head, new tail */
	CHECK_EQ_U(cls(&e, 2, 1, 20000), FSB_DUR_TORN);
	CHECK_EQ_U(cls(&e, 2, 1, 10000), FSB_DUR_VERIFIED);	/* the old, whole */
	CHECK_EQ_U(cls(&e, 2, 0, 0), FSB_DUR_LOST);

	/* an append in flight: the old bytes whole, part of the new, zeros
	 * where its data did not land */
	in_flight(&e, op(FSB_DUR_APPEND, 2, 1, 5, 10000, 1, 5, 16000));
	gen(2, 5, 16000);
	CHECK_EQ_U(cls(&e, 2, 1, 13000), FSB_DUR_IN_FLIGHT);
	CHECK_EQ_U(cls(&e, 2, 1, 16000), FSB_DUR_IN_FLIGHT);
	memset(file + 12000, 0, 4000);
	CHECK_EQ_U(cls(&e, 2, 1, 16000), FSB_DUR_IN_FLIGHT);
	memset(file + 9000, 0, 1000);	/* zeros in the acknowledged part */
	CHECK_EQ_U(cls(&e, 2, 1, 16000), FSB_DUR_TORN);
	gen(2, 5, 16000);
	file[14000] ^= 0x80;	/* garbage in the new part */
	CHECK_EQ_U(cls(&e, 2, 1, 16000), FSB_DUR_TORN);
	CHECK_EQ_U(cls(&e, 2, 1, 9000), FSB_DUR_LOST);	/* shorter than acknowledged */

	/* a create in flight where nothing was acknowledged */
	in_flight(&e, op(FSB_DUR_CREATE, 2, 0, 0, 0, 1, 3, 8000));
	CHECK_EQ_U(cls(&e, 2, 0, 0), FSB_DUR_VERIFIED);
	gen(2, 3, 8000);
	CHECK_EQ_U(cls(&e, 2, 1, 0), FSB_DUR_IN_FLIGHT);
	CHECK_EQ_U(cls(&e, 2, 1, 4096), FSB_DUR_IN_FLIGHT);
	memset(file, 0x5a, 100);
	CHECK_EQ_U(cls(&e, 2, 1, 8000), FSB_DUR_TORN);	/* garbage from a create */

	/* a delete in flight: there whole, or gone */
	in_flight(&e, op(FSB_DUR_DELETE, 2, 1, 5, 10000, 0, 0, 0));
	CHECK_EQ_U(cls(&e, 2, 0, 0), FSB_DUR_IN_FLIGHT);

	/* the expectations follow the sequence: ops [0, acked) acknowledged,
	 * the next ones in flight, each on its slot */
	struct fsb_dur_expect ex[8];
	struct fsb_dur_seq s;
	struct fsb_dur_op o;
	CHECK(fsb_dur_expect(SEED, 1, 8, 100, FSB_DUR_LEAD, ex) == 0);
	CHECK(fsb_dur_seq_init(&s, SEED, 1, 8) == 0);
	for (int i = 0; i < 100; i++)
		fsb_dur_next(&s, &o);
	unsigned same = 0, nfl = 0;
	for (int i = 0; i < 8; i++) {
		same += !memcmp(&ex[i].acked, &s.slot[i], sizeof(s.slot[i]));
		nfl += ex[i].nflight;
	}
	CHECK_EQ_U(same, 8);
	CHECK_EQ_U(nfl, FSB_DUR_LEAD);
	fsb_dur_next(&s, &o);
	CHECK(ex[o.slot].nflight >= 1 && ex[o.slot].flight[0].index == 100);
	fsb_dur_seq_free(&s);
	CHECK(fsb_dur_expect(SEED, 1, 8, 100, 0, ex) == 0);
	nfl = 0;
	for (int i = 0; i < 8; i++)
		nfl += ex[i].nflight;
	CHECK_EQ_U(nfl, 0);
}

static void count_bad(void *arg, const char *msg)
{
	fprintf(stderr, "schema: %s\n", msg);
	++*(int *)arg;
}

static void count_only(void *arg, const char *msg)
{
	(void)msg;
	++*(int *)arg;
}

/* Records as the campaign writes them pass the schema; a missing field fails. */
static void test_records(void)
{
	static const char *const good[] = {
		"{\"schema\":1,\"type\":\"powercut_arm\",\"run_id\":\"00000000000000aa\",\"seq\":3,\"t\":1.5,\"fs\":\"ext4\",\"cycle\":1,\"cycles\":2,\"seed\":42,\"cycle_seed\":\"239ecd6f122e6973\",\"window\":10,\"batch_ms\":100,\"workers\":4,\"files\":32,\"lead\":4,\"device\":\"/dev/loop5\",\"before\":{\"unsafe_shutdowns\":3,\"power_cycles\":9}}",
		"{\"schema\":1,\"type\":\"powercut_ack\",\"run_id\":\"00000000000000aa\",\"seq\":4,\"t\":1.6,\"fs\":\"ext4\",\"cycle\":1,\"at\":0.02,\"ops\":[1,0,2,1]}",
		"{\"schema\":1,\"type\":\"powercut_ack\",\"run_id\":\"00000000000000aa\",\"seq\":5,\"t\":11.6,\"fs\":\"ext4\",\"cycle\":1,\"at\":10.0,\"ops\":[100,90,80,70],\"final\":true}",
		"{\"schema\":1,\"type\":\"powercut\",\"run_id\":\"00000000000000aa\",\"seq\":6,\"t\":12,\"fs\":\"ext4\",\"cycle\":1,\"cycles\":2,\"seed\":42,\"cycle_seed\":\"239ecd6f122e6973\",\"cut_s\":10,\"final\":true,\"acknowledged\":340,\"ops_per_s\":34,\"files\":128,\"verified\":126,\"in_flight\":0,\"lost\":1,\"torn\":1,\"fsck\":\"clean\",\"checks\":[{\"when\":\"before_mount\",\"argv\":\"e2fsck -fn /dev/loop5\",\"status\":0,\"result\":\"clean\"}],\"mount\":\"ok\",\"bad\":[{\"file\":\"w00/s001\",\"class\":\"lost\",\"op\":\"create\",\"expected_size\":10256,\"size\":5128},{\"file\":\"w01/s000\",\"class\":\"torn\",\"op\":\"replace\",\"expected_size\":403279,\"size\":403279}],\"seconds\":0.4}",
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int n = 0;
		fsb_check_text(good[i], strlen(good[i]), 0, count_bad, &n);
		CHECK_EQ_U(n, 0);
	}
	const char *no_lost = "{\"schema\":1,\"type\":\"powercut\",\"run_id\":\"00000000000000aa\",\"seq\":6,\"t\":12,\"fs\":\"ext4\",\"cycle\":1,\"cycles\":2,\"seed\":42,\"cycle_seed\":\"1\",\"cut_s\":10,\"final\":true,\"acknowledged\":340,\"ops_per_s\":34,\"files\":128,\"verified\":126,\"in_flight\":0,\"torn\":1,\"fsck\":\"clean\",\"checks\":[],\"mount\":\"ok\",\"seconds\":0.4}";
	int n = 0;
	fsb_check_text(no_lost, strlen(no_lost), 0, count_only, &n);
	CHECK_EQ_U(n, 1);
}

static void test_lava(void)
{
	static struct fsb_ctx c;
	char path[] = "lava.out";
	FILE *f = fopen(path, "w+");

	c.out_fd = fileno(f);
	c.cfg.lava = 1;
	fsb_lava_powercut(&c, "ext4", 2, 1, 0);
	fsb_lava_powercut(&c, "f2fs:s4z4", 1, 0, 2);
	c.cfg.lava = 0;
	fsb_lava_powercut(&c, "xfs", 1, 1, 0);
	fflush(f);
	char buf[512] = "";
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	CHECK_STR(buf, "FSBENCH-RESULT: test_case_id=powercut-ext4-c2 result=pass measurement=0 units=files\n"
		       "FSBENCH-RESULT: test_case_id=powercut-f2fs-s4z4-c1 result=fail measurement=2 units=files\n");
}

static void put(struct fsb_log *l, uint64_t *seq, const char *rec)
{
	CHECK(fsb_log_append(l, (*seq)++, rec, strlen(rec)) == 0);
}

/* A nilfs2 campaign of `cycles` cycles, run id 00000000000000ID, its
 * cycle 1 armed: the log at path opened (the caller closes it), its
 * settings in *cfg. */
static struct fsb_log *nilfs2_campaign(const char *path, const char *id, unsigned cycles,
				       struct fsb_config *cfg, uint64_t *seq)
{
	struct fsb_log *l = NULL;
	char rec[512];

	fsb_config_defaults(cfg);
	snprintf(cfg->fs, sizeof(cfg->fs), "nilfs2");
	cfg->powercut = cycles;
	*seq = 0;
	unlink(path);
	CHECK(fsb_log_open(&l, path, strtoull(id, NULL, 16), 0) == 0);
	snprintf(rec, sizeof(rec), "{\"type\":\"run_start\",\"run_id\":\"00000000000000%s\",\"t\":0,"
		 "\"config\":{\"fs\":\"nilfs2\",\"powercut\":%u}}", id, cycles);
	put(l, seq, rec);
	snprintf(rec, sizeof(rec), "{\"type\":\"powercut_arm\",\"run_id\":\"00000000000000%s\",\"t\":1,"
		 "\"fs\":\"nilfs2\",\"cycle\":1,\"cycles\":%u,\"seed\":42,\"cycle_seed\":"
		 "\"00000000000000ff\",\"window\":10,\"workers\":2,\"files\":8,\"lead\":3}", id, cycles);
	put(l, seq, rec);
	return l;
}

/* A log as a campaign leaves it at a cut, and the scan of the next boot. */
static void test_scan(void)
{
	struct fsb_log *l;
	struct fsb_pc_resume rs;
	struct fsb_config cfg;
	uint64_t seq = 0;
	char rec[512];

	fsb_config_defaults(&cfg);
	snprintf(cfg.fs, sizeof(cfg.fs), "ext4,xfs");
	cfg.powercut = 2;
	/* no log yet: a new campaign */
	CHECK(fsb_pc_scan("none.log", &cfg, &rs) == 0);
	CHECK(!rs.found);

	CHECK(fsb_log_open(&l, "pc.log", 0xaa, 0) == 0);
	/* an earlier, finished run of another kind comes first */
	put(l, &seq, "{\"type\":\"run_start\",\"run_id\":\"00000000000000aa\",\"t\":0,\"config\":{\"fs\":\"ext4,xfs\",\"powercut\":0}}");
	put(l, &seq, "{\"type\":\"run_end\",\"run_id\":\"00000000000000aa\",\"t\":1}");
	fsb_log_close(l);
	seq = 0;
	CHECK(fsb_log_open(&l, "pc.log", 0xbb, 0) == 0);
	put(l, &seq, "{\"type\":\"run_start\",\"run_id\":\"00000000000000bb\",\"t\":0,\"config\":{\"fs\":\"ext4,xfs\",\"powercut\":2}}");
	put(l, &seq, "{\"type\":\"powercut_arm\",\"run_id\":\"00000000000000bb\",\"t\":1,\"fs\":\"ext4\",\"cycle\":1,\"cycles\":2,\"seed\":42,\"cycle_seed\":\"00000000000000ff\",\"window\":10,\"workers\":2,\"files\":8,\"lead\":3,\"before\":{\"unsafe_shutdowns\":3,\"power_cycles\":9}}");
	put(l, &seq, "{\"type\":\"powercut_ack\",\"run_id\":\"00000000000000bb\",\"t\":2,\"fs\":\"ext4\",\"cycle\":1,\"at\":0.5,\"ops\":[3,4]}");
	put(l, &seq, "{\"type\":\"powercut_ack\",\"run_id\":\"00000000000000bb\",\"t\":2.5,\"fs\":\"ext4\",\"cycle\":1,\"at\":1.25,\"ops\":[7,9]}");
	CHECK(fsb_pc_scan("pc.log", &cfg, &rs) == 0);
	CHECK(rs.found);
	CHECK_EQ_U(rs.run_id, 0xbb);
	CHECK_EQ_U(rs.next_seq, 4);
	CHECK(rs.last_t == 2.5);
	CHECK_STR(rs.fs, "ext4");
	CHECK_EQ_U(rs.cycle, 1);
	CHECK_EQ_U(rs.seed, 42);
	CHECK_EQ_U(rs.cycle_seed, 0xff);
	CHECK_EQ_U(rs.workers, 2);
	CHECK_EQ_U(rs.files, 8);
	CHECK_EQ_U(rs.lead, 3);
	CHECK_EQ_U(rs.nops, 2);
	CHECK_EQ_U(rs.ops[0], 7);
	CHECK_EQ_U(rs.ops[1], 9);
	CHECK(rs.at == 1.25 && !rs.final && !rs.verified);
	CHECK(rs.have_before && rs.unsafe_before == 3 && rs.power_before == 9);

	/* other settings: not this campaign, and why */
	cfg.powercut = 3;
	CHECK(fsb_pc_scan("pc.log", &cfg, &rs) == 0);
	CHECK(!rs.found);
	CHECK_CONTAINS(rs.why, "powercut=2 fs=ext4,xfs");
	cfg.powercut = 2;

	/* the cycle checked and failed, then a cut before the next arm */
	snprintf(rec, sizeof(rec), "{\"type\":\"powercut\",\"run_id\":\"00000000000000bb\",\"t\":3,\"fs\":\"ext4\",\"cycle\":1,\"lost\":1,\"torn\":0,\"fsck\":\"clean\"}");
	put(l, &seq, rec);
	CHECK(fsb_pc_scan("pc.log", &cfg, &rs) == 0);
	CHECK(rs.found && rs.verified && rs.failed && rs.fs_failed_now);
	CHECK(!rs.fs_ended);
	/* its filesystem ended (the last cycle), then a cut before the next
	 * filesystem's arm: not ended twice */
	put(l, &seq, "{\"type\":\"fs_end\",\"run_id\":\"00000000000000bb\",\"t\":3.5,\"fs\":\"ext4\",\"status\":\"failed\"}");
	CHECK(fsb_pc_scan("pc.log", &cfg, &rs) == 0);
	CHECK(rs.found && rs.fs_ended && rs.fs_failed == 1 && rs.fs_ok == 0);
	/* the run's end: nothing to resume */
	put(l, &seq, "{\"type\":\"run_end\",\"run_id\":\"00000000000000bb\",\"t\":4}");
	CHECK(fsb_pc_scan("pc.log", &cfg, &rs) == 0);
	CHECK(!rs.found);
	fsb_log_close(l);
}

/* report-powercut.jsonl (fixtures.h): two filesystems' records, ext4's two
 * cycles clean, xfs's one with a file lost and one torn, its checker not
 * clean after the replay. */
static void test_report_verdict(void)
{
	struct rep_set set = { 0 };
	struct rep_table t;
	char err[256], out[2048];
	FILE *f;

	CHECK(rep_load(&set, path_powercut, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->npc == 3);
	if (!r || r->npc != 3)
		return;
	CHECK_STR(r->pc[2].bad, "w00/s003 lost, w02/s011 torn");
	/* the run's config line says what ran: the campaign's settings, not
	 * rounds */
	CHECK(rep_table_run(r, &t) == 0);
	int said = 0;
	for (size_t i = 0; i < t.nrows; i++)
		said |= rep_table_cell(&t, i, 1)->text &&
			!strcmp(rep_table_cell(&t, i, 1)->text, "profile powercut; fs ext4,xfs; powercut=2, "
				"powercut_window=10, powercut_seed=305441741, powercut_workers=4, "
				"powercut_batch=100, powercut_files=32");
	CHECK(said);
	rep_table_free(&t);
	CHECK(rep_table_powercut(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 3);
	CHECK_STR(rep_table_cell(&t, 2, 1)->text, "1/2");
	CHECK_EQ_U(rep_table_cell(&t, 2, 8)->count, 1);
	CHECK_EQ_U(rep_table_cell(&t, 2, 9)->count, 1);
	CHECK_STR(rep_table_cell(&t, 2, 10)->text, "repair_needed");
	CHECK_STR(rep_table_cell(&t, 2, 12)->text, "w00/s003 lost, w02/s011 torn");
	rep_table_free(&t);

	vd_lines(PC_FS, r, "powercut_lost", "0", out, sizeof(out));
	CHECK_STR(out, "PASS ext4 files lost after power cuts: 0|"
		       "FAIL xfs files lost after power cuts: 1 (w00/s003)|");
	/* the torn list names the torn files, not the lost ones */
	vd_lines(PC_FS, r, "powercut_torn", "1", out, sizeof(out));
	CHECK_CONTAINS(out, "PASS xfs files torn after power cuts: 1 (w02/s011)|");
	vd_lines(PC_FS, r, "powercut_fsck", "clean", out, sizeof(out));
	CHECK_STR(out, "PASS ext4 the checker after power cuts: clean|"
		       "FAIL xfs the checker after power cuts: repair_needed|");
	vd_lines(PC_FS, r, "powercut_cycles", "2", out, sizeof(out));
	CHECK_STR(out, "PASS ext4 power-cut cycles checked: 2|FAIL xfs power-cut cycles checked: 1|");
	vd_lines(PC_FS, r, "powercut_fsck", "yes", out, sizeof(out));
	CHECK_CONTAINS(out, "bad: ");

	/* the HTML page's chart, drawn by a stand-in for gnuplot that keeps
	 * the powercut chart's data: one row per cycle, acknowledged and lost
	 * + torn */
	FILE *g = fopen("gnuplot", "w");
	fputs("#!/bin/sh\nsed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\" | while read -r f; do\n"
	      "  echo '<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>' >\"$f\"; done\n"
	      "d=$(sed -n \"s/^plot '\\([^']*\\)' using 2:xtic(1).*acknowledged.*/\\1/p\" \"$1\")\n"
	      "[ -z \"$d\" ] || cp \"$d\" pc.dat\n", g);
	fclose(g);
	chmod("gnuplot", 0755);
	char gp[PATH_MAX + 16];
	snprintf(gp, sizeof(gp), "%s/gnuplot", getcwd(out, sizeof(out)));
	setenv(CHART_GNUPLOT_ENV, gp, 1);
	char *html = chart_text(r);
	CHECK_CONTAINS(html, "<figure class=\"chart\" id=\"chart-powercut\" data-chart=\"powercut\">");
	free(html);
	FILE *dat = fopen("pc.dat", "r");
	char rows[512] = "";
	CHECK(dat != NULL);
	if (dat) {
		rows[fread(rows, 1, sizeof(rows) - 1, dat)] = 0;
		fclose(dat);
	}
	CHECK_STR(rows, "\"ext4 c1\" 300 0\n\"ext4 c2\" 400 0\n\"xfs c1\" 100 2\n");
	rep_free(&set);

	/* a run without the campaign: not measured, so the keys fail */
	static const char plain[] = "{\"type\":\"run_start\",\"run_id\":\"00000000000000dd\",\"config\":{\"fs\":\"ext4\",\"powercut\":0}}\n";
	struct rep_set s2 = { 0 };
	f = fmemopen((void *)plain, sizeof(plain) - 1, "r");
	CHECK(rep_load_stream(&s2, f, "mem", err, sizeof(err)) == 0);
	fclose(f);
	vd_lines(PC_FS, rep_find(&s2, NULL), "powercut_lost", "0", out, sizeof(out));
	CHECK_STR(out, "FAIL ext4 files lost after power cuts: not measured (no powercut record)|");
	/* and no power-cut chart */
	const struct rep_run *r2 = rep_find(&s2, NULL);
	html = chart_text(r2);
	CHECK(!strstr(html, "powercut"));
	free(html);
	rep_free(&s2);
}

/* The settings: the profile, and the combinations the campaign refuses. */
static int merge(const char *const *kv, struct fsb_config *c, char *err, size_t len)
{
	struct fsb_layer l = { .src = SRC_CLI, .origin = "command line" };
	struct fsb_layer *layers[] = { &l };
	int rc = 0;

	for (size_t i = 0; kv[i] && !rc; i += 2)
		rc = fsb_layer_add(&l, kv[i], kv[i + 1], "t", err, len);
	if (!rc)
		rc = fsb_config_merge(c, layers, 1, err, len);
	fsb_layer_free(&l);
	return rc;
}

/* nilfs2 has no checker: its cycles say `none`; the verdict judges the
 * mount alone, the next boot's scan does not count the cycle failed. */
static const char nocheck_text[] =
	"{\"type\":\"run_start\",\"run_id\":\"00000000000000dd\",\"config\":{\"fs\":\"nilfs2,ext4\",\"powercut\":1}}\n"
	"{\"type\":\"powercut\",\"run_id\":\"00000000000000dd\",\"fs\":\"nilfs2\",\"cycle\":1,\"cycles\":1,\"cut_s\":1.5,\"acknowledged\":300,\"ops_per_s\":200,\"files\":128,\"verified\":128,\"in_flight\":0,\"lost\":0,\"torn\":0,\"fsck\":\"none\",\"mount\":\"ok\",\"seconds\":0.5}\n"
	"{\"type\":\"powercut\",\"run_id\":\"00000000000000dd\",\"fs\":\"ext4\",\"cycle\":1,\"cycles\":1,\"cut_s\":1.5,\"acknowledged\":300,\"ops_per_s\":200,\"files\":128,\"verified\":128,\"in_flight\":0,\"lost\":0,\"torn\":0,\"fsck\":\"none\",\"mount\":\"mount /dev/x (ext4) on /mnt: Invalid argument\",\"seconds\":0.5}\n";

static void test_nocheck(void)
{
	struct rep_set set = { 0 };
	char err[256], out[2048];
	FILE *f = fmemopen((void *)nocheck_text, sizeof(nocheck_text) - 1, "r");

	CHECK(rep_load_stream(&set, f, "mem", err, sizeof(err)) == 0);
	fclose(f);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r && r->npc == 2);
	if (!r || r->npc != 2)
		return;
	vd_lines(PC_FS, r, "powercut_fsck", "clean", out, sizeof(out));
	CHECK_STR(out, "PASS nilfs2 the checker after power cuts: no checker, mounted|"
		       "FAIL ext4 the checker after power cuts: mount /dev/x (ext4) on /mnt: Invalid argument|");
	rep_free(&set);

	/* the scan: a nilfs2 cycle with nothing lost is not a failure */
	struct fsb_pc_resume rs;
	struct fsb_config cfg;
	uint64_t seq;
	struct fsb_log *l = nilfs2_campaign("nc.log", "dd", 2, &cfg, &seq);

	put(l, &seq, "{\"type\":\"powercut\",\"run_id\":\"00000000000000dd\",\"t\":3,\"fs\":\"nilfs2\",\"cycle\":1,\"lost\":0,\"torn\":0,\"fsck\":\"none\",\"mount\":\"ok\"}");
	CHECK(fsb_pc_scan("nc.log", &cfg, &rs) == 0);
	CHECK(rs.found && rs.verified && !rs.failed && !rs.fs_failed_now);
	/* an unknown result still fails it */
	put(l, &seq, "{\"type\":\"powercut\",\"run_id\":\"00000000000000dd\",\"t\":4,\"fs\":\"nilfs2\",\"cycle\":1,\"lost\":0,\"torn\":0,\"fsck\":\"failed\",\"mount\":\"ok\"}");
	CHECK(fsb_pc_scan("nc.log", &cfg, &rs) == 0);
	CHECK(rs.failed);
	fsb_log_close(l);
	unlink("nc.log");
}

/* One judgement of a cycle (log/pcrule.h), the same in the three places
 * that read it: per checker result and mount, and a file lost or torn,
 * the rule itself, the next boot's scan (the resume: the runner's exit
 * status and fs_end after the cut) and the verdict's checks agree. */
static void test_rule(void)
{
	static const char *const fsck[] = { "clean", "repair_needed", "failed", "none" };
	static const char *const mount[] = { "ok", "mount /dev/x (nilfs2) on /mnt: Invalid argument" };
	static const unsigned bad[][2] = { { 0, 0 }, { 1, 0 }, { 0, 2 } };	/* lost, torn */
	char rec[1024], text[2048], out[2048];

	for (size_t i = 0; i < 4; i++)
		for (size_t m = 0; m < 2; m++)
			for (size_t b = 0; b < 3; b++) {
				int want = !(i == 0 || i == 3) || m || bad[b][0] || bad[b][1];
				CHECK_EQ_U(fsb_pc_failed(bad[b][0], bad[b][1], fsck[i], mount[m]), want);
				CHECK_EQ_U(fsb_pc_checker_ok(fsck[i], mount[m]), !(!(i == 0 || i == 3) || m));
				snprintf(rec, sizeof(rec), "{\"type\":\"powercut\",\"run_id\":\"00000000000000ee\","
					 "\"t\":3,\"fs\":\"nilfs2\",\"cycle\":1,\"cycles\":1,\"cut_s\":1.5,"
					 "\"acknowledged\":300,\"ops_per_s\":200,\"files\":128,\"verified\":128,"
					 "\"in_flight\":0,\"lost\":%u,\"torn\":%u,\"fsck\":\"%s\",\"mount\":\"%s\","
					 "\"seconds\":0.5}", bad[b][0], bad[b][1], fsck[i], mount[m]);
				/* the scan of the next boot */
				struct fsb_pc_resume rs;
				struct fsb_config cfg;
				uint64_t seq;
				struct fsb_log *l = nilfs2_campaign("rule.log", "ee", 1, &cfg, &seq);
				put(l, &seq, rec);
				CHECK(fsb_pc_scan("rule.log", &cfg, &rs) == 0);
				CHECK_EQ_U(rs.failed, want);
				fsb_log_close(l);
				unlink("rule.log");
				/* the verdict: every cycle check passes only when the cycle did */
				snprintf(text, sizeof(text), "{\"type\":\"run_start\",\"run_id\":\"00000000000000ee\","
					 "\"config\":{\"fs\":\"nilfs2\",\"powercut\":1}}\n%s\n", rec);
				struct rep_set set;
				const struct rep_run *r = unit_run_text(&set, text, "mem");
				if (r) {
					static const char *const key[][2] = {
						{ "powercut_fsck", "clean" }, { "powercut_lost", "0" },
						{ "powercut_torn", "0" },
					};
					int fails = 0;
					for (size_t k = 0; k < 3; k++) {
						vd_lines(PC_FS, r, key[k][0], key[k][1], out, sizeof(out));
						fails += !strncmp(out, "FAIL", 4);
					}
					CHECK_EQ_U(fails > 0, want);
				}
				rep_free(&set);
			}
}

/* A long list of lost files is cut at a whole name, the rest counted. */
static void test_long_list(void)
{
	char text[8192], out[2048];
	size_t o = (size_t)snprintf(text, sizeof(text),
		"{\"type\":\"run_start\",\"run_id\":\"00000000000000ef\",\"config\":{\"fs\":\"ext4\",\"powercut\":1}}\n"
		"{\"type\":\"powercut\",\"run_id\":\"00000000000000ef\",\"fs\":\"ext4\",\"cycle\":1,\"cycles\":1,"
		"\"lost\":40,\"torn\":1,\"fsck\":\"clean\",\"mount\":\"ok\",\"bad\":[");
	for (int i = 0; i < 41; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%s{\"file\":\"w%02d/s%03d\",\"class\":\"%s\"}",
				      i ? "," : "", i % 4, i, i == 40 ? "torn" : "lost");
	snprintf(text + o, sizeof(text) - o, "]}\n");
	struct rep_set set = { 0 };
	char err[256];
	FILE *f = fmemopen(text, strlen(text), "r");
	CHECK(rep_load_stream(&set, f, "mem", err, sizeof(err)) == 0);
	fclose(f);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (r) {
		vd_lines(PC_FS, r, "powercut_lost", "0", out, sizeof(out));
		CHECK_CONTAINS(out, "FAIL ext4 files lost after power cuts: 40 (w00/s000, w01/s001, ");
		/* whole names, then how many more */
		CHECK(strstr(out, " more)|") != NULL);
		const char *more = strstr(out, " and ");
		CHECK(more && more[-1] >= '0' && more[-1] <= '9' && more[-5] == '/');
		CHECK(!strstr(out, "w00/s040"));	/* the torn one */
		vd_lines(PC_FS, r, "powercut_torn", "0", out, sizeof(out));
		CHECK_STR(out, "FAIL ext4 files torn after power cuts: 1 (w00/s040)|");
	}
	rep_free(&set);
}

static void test_settings(void)
{
	struct fsb_config c;
	char err[512];
	static const char *const prof[] = { "profile", "powercut", NULL };
	static const char *const dir[] = { "powercut", "2", "dir", "/tmp", NULL };
	static const char *const nolog[] = { "powercut", "2", "target", "/dev/sdz", NULL };
	static const char *const ok[] = { "powercut", "2", "target", "/dev/sdz", "log", "l", NULL };

	CHECK(merge(prof, &c, err, sizeof(err)) == 0);
	CHECK(c.powercut == 3 && c.powercut_window == 10 && !c.smallfile && c.powercut_seed == 0 &&
	      c.powercut_workers == 4 && c.powercut_files == 32 && c.powercut_batch == 100);
	CHECK_STR(c.fs, "ext4,xfs,btrfs,f2fs");
	CHECK(merge(dir, &c, err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "powercut=2 and dir=/tmp: the power-cut campaign needs a target");
	CHECK(merge(nolog, &c, err, sizeof(err)) != 0);
	CHECK_CONTAINS(err, "powercut=2 without log");
	CHECK(merge(ok, &c, err, sizeof(err)) == 0);
}

FIXTURES_MAIN(test_settings, test_sequence, test_classify, test_records, test_lava, test_scan,
	test_report_verdict, test_nocheck, test_rule, test_long_list)

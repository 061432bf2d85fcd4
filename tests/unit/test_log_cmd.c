/* test_log_cmd.c: the `fsbench log` command: extract and info on logs and
 * disk images, their output and exit codes (logtest.h). Runs in a
 * scratch folder and writes its files there. */
#include "fsbench.h"
#include "log/logfile.h"
#include "logtest.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int run_cmd(char **argv)
{
	int argc = 0, rc, o, e, fo, fe;

	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	o = dup(1);
	e = dup(2);
	fo = open("cmd.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fe = open("cmd.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fo, 1);
	dup2(fe, 2);
	close(fo);
	close(fe);
	rc = cmd_log(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o, 1);
	dup2(e, 2);
	close(o);
	close(e);
	return rc;
}

#define CMD(...) run_cmd((char *[]){ "log", __VA_ARGS__, NULL })

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* The logs and disk images the command reads, made as test_log and
 * test_log_gpt make them: runs.log (5 records of run 1111, 3 of 2222, 2 of
 * 3333), flip.log (a bit flipped in record 3 of 6), disk4k.img (a log
 * partition of 4096-byte sectors, record 2 of 3 damaged), disk-past.img (a
 * log partition past the end of the image). */
static void inputs(void)
{
	struct fsb_log *l;

	make_log("runs.log", 0x1111, 5, 0);
	CHECK(fsb_log_open(&l, "runs.log", 0x2222, 0) == 0);
	CHECK(append_n(l, 0x2222, 0, 3, 500) == 0);
	fsb_log_close(l);
	CHECK(fsb_log_open(&l, "runs.log", 0x3333, 0) == 0);
	CHECK(append_n(l, 0x3333, 0, 2, 5000) == 0);
	fsb_log_close(l);

	make_log("flip.log", 0x5151, 6, 0);
	flip_byte("flip.log", 3 * B + FSB_LOG_HDR + 20, 0x04);
	make_disk4k();
	flip_byte("disk4k.img", 300 * 4096 + 2 * B + 100, 1);

	const struct part past[] = { { FSB_LOG_PARTLABEL, 2048, 9000 } };
	make_disk("disk-past.img", 512, 8192, past, 1);
}

static void test_cmd(void)
{
	struct got g;
	struct fsb_log_stats st;
	char *out, *err, *want;
	size_t wlen = 0;

	/* runs.log: 5 records of run 1111, 3 of 2222, 2 of 3333 */
	CHECK(read_log("runs.log", &g, &st) == 0);
	for (size_t i = 0; i < g.n && i < MAXGOT; i++)
		wlen += g.len[i] + 1;
	want = malloc(wlen + 1);
	wlen = 0;
	for (size_t i = 0; i < g.n && i < MAXGOT; i++) {
		memcpy(want + wlen, g.data[i], g.len[i]);
		wlen += g.len[i];
		want[wlen++] = '\n';
	}
	want[wlen] = 0;

	CHECK_EQ_U(CMD("extract", "runs.log"), 0);
	out = slurp("cmd.out");
	err = slurp("cmd.err");
	CHECK_STR(out, want);
	CHECK_CONTAINS(err, "fsbench: log runs.log: 10 records in 3 runs recovered; "
		       "stopped at offset 49152: clean end\n");
	CHECK_CONTAINS(err, "run 0000000000002222: 3 records, seq 0 to 2");
	free(out);
	free(err);

	CHECK_EQ_U(CMD("extract", "-o", "out1", "runs.log"), 0);
	out = slurp("out1/records.jsonl");
	CHECK_STR(out, want);
	free(out);
	out = slurp("out1/summary.txt");
	err = slurp("cmd.err");
	CHECK_CONTAINS(out, "10 records in 3 runs recovered");
	CHECK_STR(out, err);
	CHECK(access("out1/records.jsonl.tmp", F_OK) != 0);
	CHECK_EQ_U(fsize("cmd.out"), 0);
	free(out);
	free(err);

	/* one run */
	CHECK_EQ_U(CMD("extract", "runs.log", "--run", "0000000000002222", "-o", "out2"), 0);
	out = slurp("out2/records.jsonl");
	CHECK_EQ_U(count_lines(out), 3);
	CHECK(out && strncmp(out, g.data[5], g.len[5]) == 0);
	free(out);
	CHECK_EQ_U(CMD("extract", "--last", "runs.log"), 0);
	out = slurp("cmd.out");
	CHECK_EQ_U(count_lines(out), 2);
	CHECK_CONTAINS(out, "\"run_id\":\"0000000000003333\"");
	free(out);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "extracted: 2 records (last run 0000000000003333)");
	free(err);
	CHECK_EQ_U(CMD("extract", "--run=4444", "runs.log"), 0);
	out = slurp("cmd.out");
	err = slurp("cmd.err");
	CHECK_EQ_U(count_lines(out), 0);
	CHECK_CONTAINS(err, "no records of the run asked for");
	free(out);
	free(err);
	got_free(&g);

	/* info */
	CHECK_EQ_U(CMD("info", "runs.log"), 0);
	out = slurp("cmd.out");
	CHECK_CONTAINS(out, "10 records in 3 runs recovered");
	CHECK_CONTAINS(out, "run 0000000000001111: 5 records");
	CHECK_CONTAINS(out, "space: 49152 of 53248 bytes used");
	free(out);

	/* a damaged log is reported, not a failure */
	CHECK_EQ_U(CMD("extract", "-o", "out3", "flip.log"), 0);
	out = slurp("out3/records.jsonl");
	CHECK_EQ_U(count_lines(out), 3);
	free(out);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "fsbench: log flip.log: 3 records in 1 run recovered; stopped at "
		       "offset 12288: bad CRC (records after this point, if any, are lost)");
	free(err);

	/* a disk image */
	CHECK_EQ_U(CMD("info", "disk4k.img"), 0);
	out = slurp("cmd.out");
	CHECK_CONTAINS(out, "2 records in 1 run recovered");
	CHECK_CONTAINS(out, "GPT partition fsbench-log at byte 1228800");
	free(out);
	CHECK_EQ_U(CMD("info", "disk-past.img"), 4);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "fsbench: log info disk-past.img: GPT partition fsbench-log");
	free(err);

	/* failures and misuse */
	CHECK_EQ_U(CMD("extract", "-o", "out4", "/nonexistent/x"), 4);
	err = slurp("cmd.err");
	CHECK_STR(err, "fsbench: log extract /nonexistent/x: No such file or directory\n");
	free(err);
	CHECK(access("out4/records.jsonl", F_OK) != 0);
	CHECK(access("out4/records.jsonl.tmp", F_OK) != 0);
	CHECK_EQ_U(CMD("extract", "--last", "/nonexistent/x"), 4);
	CHECK_EQ_U(CMD("extract"), 2);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "fsbench: log extract: missing SRC\nusage: fsbench log extract");
	free(err);
	CHECK_EQ_U(CMD("extract", "--bogus", "runs.log"), 2);
	err = slurp("cmd.err");
	CHECK_CONTAINS(err, "unknown option --bogus");
	free(err);
	CHECK_EQ_U(CMD("extract", "runs.log", "--run", "xyz"), 2);
	CHECK_EQ_U(CMD("extract", "runs.log", "--run", "1", "--last"), 2);
	CHECK_EQ_U(CMD("extract", "runs.log", "other.log"), 2);
	CHECK_EQ_U(CMD("info", "runs.log", "-o", "x"), 2);
	CHECK_EQ_U(CMD("frobnicate"), 2);
	CHECK_EQ_U(run_cmd((char *[]){ "log", NULL }), 2);
	CHECK_EQ_U(CMD("--help"), 0);
	out = slurp("cmd.out");
	CHECK_CONTAINS(out, "fsbench log extract SRC [-o DIR] [--run RUNID | --last]");
	free(out);
	CHECK_EQ_U(CMD("extract", "--help"), 0);
	free(want);
}

UNIT_MAIN(inputs, test_cmd)

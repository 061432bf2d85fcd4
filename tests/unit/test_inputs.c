/* test_inputs.c: what `fsbench report`, `verdict`, `compare` and `history`
 * take (cmd/results.c): each input told by its first bytes (results_sniff),
 * a results log read as its records (the same output as the records
 * extracted), and an input that is none of these refused with what it
 * looks like. Fixture: $FSB_TESTDATA/report-two-runs.jsonl. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/results.h"
#include "fsbench.h"
#include "log/logfile.h"
#include "cmd.h"
#include "unit.h"

static enum results_kind sniff(const void *head, size_t n, char *what)
{
	return results_sniff(head, n, what, 256);
}

static void check_sniff(void)
{
	unsigned char b[8192];
	char what[256];

	/* a results log, a raw log partition: the record header's magic */
	memset(b, 0, sizeof(b));
	memcpy(b, "FSBLOG01", 8);
	CHECK_EQ_U(sniff(b, sizeof(b), what), RESULTS_LOG);
	CHECK_EQ_U(sniff(b, 8, what), RESULTS_LOG);
	/* a whole GPT disk image: "EFI PART" at 512 (512-byte sectors) or at 4096 */
	memset(b, 0, sizeof(b));
	b[510] = 0x55;
	b[511] = 0xaa;
	memcpy(b + 512, "EFI PART", 8);
	CHECK_EQ_U(sniff(b, sizeof(b), what), RESULTS_GPT);
	CHECK_EQ_U(sniff(b, 519, what), RESULTS_OTHER);	/* cut before the signature */
	memset(b, 0, sizeof(b));
	memcpy(b + 4096, "EFI PART", 8);
	CHECK_EQ_U(sniff(b, 4104, what), RESULTS_GPT);
	/* records, a serial log (a prefix, CR LF, a console's escapes), nothing */
	const char *rec = "{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"aaaa000000000001\"}\n";
	CHECK_EQ_U(sniff(rec, strlen(rec), what), RESULTS_TEXT);
	CHECK_STR(what, "");
	const char *serial = "\x1b[0m[    0.000000] Linux version 6.17\r\n\tFSB: {\"type\":\"note\"}\r\n";
	CHECK_EQ_U(sniff(serial, strlen(serial), what), RESULTS_TEXT);
	CHECK_EQ_U(sniff("", 0, what), RESULTS_TEXT);
	/* what a user may have in hand instead, named */
	CHECK_EQ_U(sniff("\x7f" "ELF\x02\x01\x01", 7, what), RESULTS_OTHER);
	CHECK_STR(what, "starts with 0x7f 'ELF': a program?");
	CHECK_EQ_U(sniff("\x1f\x8b\x08\x00", 4, what), RESULTS_OTHER);
	CHECK_CONTAINS(what, "gzip-compressed? zcat it");
	CHECK_EQ_U(sniff("\xfd" "7zXZ\0\0", 6, what), RESULTS_OTHER);
	CHECK_CONTAINS(what, "xz-compressed");
	memset(b, 0, sizeof(b));
	b[1080] = 0x53;
	b[1081] = 0xef;
	CHECK_EQ_U(sniff(b, sizeof(b), what), RESULTS_OTHER);
	CHECK_CONTAINS(what, "ext2/3/4 filesystem image");
	memset(b, 0, sizeof(b));
	CHECK_EQ_U(sniff(b, 4104, what), RESULTS_OTHER);
	CHECK_STR(what, "4104 zero bytes at its start: an erased or empty log partition? "
		  "fsbench log info says what a log holds");
	/* binary data: a NUL, or many control characters */
	const unsigned char bin[] = { 0x00, 0x9d, 0xfa, 0x43, 'a', 'b' };
	CHECK_EQ_U(sniff(bin, sizeof(bin), what), RESULTS_OTHER);
	CHECK_CONTAINS(what, "starts with 0x00 0x9d 0xfa 0x43: binary data");
	memset(b, 0x01, 64);
	memset(b + 64, 'x', 64);
	CHECK_EQ_U(sniff(b, 128, what), RESULTS_OTHER);
	memset(b, 'x', 128);
	b[10] = 0x02;	/* one odd byte in 128: text */
	CHECK_EQ_U(sniff(b, 128, what), RESULTS_TEXT);
}

/* The records of jsonl into the log file path, a log_open per run (the
 * run id in each record's header, as the runner writes them). 0 or -1. */
static int write_log(const char *jsonl, const char *path)
{
	char line[65536];
	struct fsb_log *l = NULL;
	uint64_t run = 0, seq = 0;
	FILE *f = fopen(jsonl, "r");
	int rc = 0;

	if (!f)
		return -1;
	unlink(path);
	while (!rc && fgets(line, sizeof(line), f)) {
		const char *id = strstr(line, "\"run_id\":\"");
		uint64_t r = id ? strtoull(id + 10, NULL, 16) : 0;
		size_t n = strcspn(line, "\n");

		if (!l || r != run) {
			if (l)
				fsb_log_close(l);
			l = NULL;
			run = r;
			if (fsb_log_open(&l, path, run, 0) < 0)
				rc = -1;
		}
		if (l && fsb_log_append(l, seq++, line, n) < 0)
			rc = -1;
	}
	if (l)
		fsb_log_close(l);
	fclose(f);
	return rc;
}

/* cmd with argv; *out its stdout, exit code returned (stderr into *err) */
static int run2(int (*fn)(int, char **), const char *a0, const char *a1, const char *a2,
		const char *a3, char **out, char **err)
{
	char *argv[] = { (char *)a0, (char *)a1, (char *)a2, (char *)a3, NULL };

	return run_cmd(fn, argv, out, err);
}

/* s with every from replaced by to (a new string; NULL: s was NULL) */
static char *replace(const char *s, const char *from, const char *to)
{
	size_t n = 0, fl = strlen(from), tl = strlen(to);
	char *out, *o;

	if (!s)
		return NULL;
	for (const char *p = s; (p = strstr(p, from)); p += fl)
		n++;
	if (!(out = o = malloc(strlen(s) + n * tl + 1)))
		return NULL;
	for (const char *p = s, *q; *p; p = q + fl) {
		if (!(q = strstr(p, from))) {
			strcpy(o, p);
			return out;
		}
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, to, tl);
		o += tl;
	}
	*o = 0;
	return out;
}

/* cmd on the log and on the records gives the same exit code and output,
 * the input's name aside */
static void same(int (*fn)(int, char **), const char *cmd, const char *log, const char *jsonl,
		 const char *opt, const char *val)
{
	char *o1, *e1, *o2, *e2, *t;
	int r1 = run2(fn, cmd, log, opt, val, &o1, &e1);
	int r2 = run2(fn, cmd, jsonl, opt, val, &o2, &e2);

	t = replace(o1, log, jsonl);
	free(o1);
	o1 = t;
	t = replace(e1, log, jsonl);
	free(e1);
	e1 = t;
	CHECK_EQ_U(r1, r2);
	CHECK(o1 && o2 && *o1);
	if (o1 && o2 && strcmp(o1, o2)) {
		unit_fail++;
		fprintf(stderr, "FAIL %s %s differs from %s %s:\n%s\n---\n%s\n", cmd, log, cmd, jsonl,
			o1, o2);
	}
	CHECK_STR(e1, e2);
	free(o1);
	free(e1);
	free(o2);
	free(e2);
}

int main(int argc, char **argv)
{
	const char *data = getenv("FSB_TESTDATA");
	char jsonl[4096], *out, *err;
	char top[] = "inputs.XXXXXX";
	struct rep_set set;
	(void)argc;

	check_sniff();
	if (!data) {
		printf("SKIP test_inputs: FSB_TESTDATA not set (tests/unit/run.sh sets it)\n");
		return unit_done(argv[0]);
	}
	snprintf(jsonl, sizeof(jsonl), "%s/report-two-runs.jsonl", data);
	if (!mkdtemp(top) || chdir(top) < 0) {
		CHECK(0);
		return unit_done(argv[0]);
	}

	/* a results log: every run in it, as from its records */
	CHECK(write_log(jsonl, "results.log") == 0);
	CHECK(results_load("report", &set, "results.log") == -1);
	CHECK_EQ_U(set.nruns, 2);
	if (set.nruns == 2) {
		CHECK_STR(set.runs[0]->run_id, "aaaa000000000001");
		CHECK_STR(set.runs[1]->run_id, "bbbb000000000002");
		CHECK_STR(set.path, "results.log");
	}
	rep_free(&set);
	same(cmd_report, "report", "results.log", jsonl, NULL, NULL);
	same(cmd_report, "report", "results.log", jsonl, "--run", "aaaa");
	same(cmd_report, "report", "results.log", jsonl, "--format", "csv");
	same(cmd_verdict, "verdict", "results.log", jsonl, "--write-criteria", NULL);
	same(cmd_verdict, "verdict", "results.log", jsonl, "--baseline", jsonl);

	/* history of a file: a row per run, named after the file */
	CHECK_EQ_U(run2(cmd_history, "history", "results.log", NULL, NULL, &out, &err), 0);
	CHECK_CONTAINS(out, "[results.log](results.log)");
	const char *row = out ? strstr(out, "[results.log]") : NULL;
	CHECK(row && strstr(row + 1, "[results.log]"));	/* two rows */
	free(out);
	free(err);

	/* compare: a log against its own records */
	CHECK_EQ_U(run2(cmd_compare, "compare", "results.log", jsonl, NULL, &out, &err), 0);
	CHECK_CONTAINS(out, "run bbbb000000000002 (results.log)");
	free(out);
	free(err);

	/* compare of one file: every run in it, the first as A; of one run: B missing */
	CHECK_EQ_U(run2(cmd_compare, "compare", "results.log", NULL, NULL, &out, &err), 0);
	CHECK_CONTAINS(out, "- A: run aaaa000000000001 (results.log)");
	CHECK_CONTAINS(out, "- B: run bbbb000000000002 (results.log)");
	free(out);
	free(err);
	same(cmd_compare, "compare", "results.log", jsonl, NULL, NULL);
	FILE *one = fopen("one.jsonl", "w"), *two = fopen(jsonl, "r");
	char line[65536];
	while (one && two && fgets(line, sizeof(line), two))
		if (strstr(line, "aaaa000000000001"))
			fputs(line, one);
	CHECK(one && two && fclose(one) == 0 && fclose(two) == 0);
	CHECK_EQ_U(run2(cmd_compare, "compare", "one.jsonl", NULL, NULL, &out, &err), EXIT_USAGE);
	CHECK_CONTAINS(err, "fsbench: compare: missing B\nusage: fsbench compare A B");
	free(out);
	free(err);
	unlink("one.jsonl");

	/* an empty log: no records (exit 5, never 1), as an empty .jsonl */
	CHECK(fclose(fopen("empty.log", "w")) == 0);
	CHECK_EQ_U(run2(cmd_report, "report", "empty.log", NULL, NULL, &out, &err), EXIT_ERROR);
	CHECK_CONTAINS(err, "report empty.log: no records");
	free(out);
	free(err);

	/* none of these: refused, saying what it looks like */
	FILE *f = fopen("prog.bin", "w");
	CHECK(f && fwrite("\x7f" "ELF\x02\x01\x01\0\0\0", 1, 10, f) == 10 && fclose(f) == 0);
	CHECK_EQ_U(run2(cmd_report, "report", "prog.bin", NULL, NULL, &out, &err), EXIT_USAGE);
	CHECK_STR(err, "fsbench: report prog.bin: not records, a results log, a serial log or a run "
		  "folder (starts with 0x7f 'ELF': a program?)\n");
	CHECK_STR(out, "");
	free(out);
	free(err);
	CHECK_EQ_U(run2(cmd_compare, "compare", jsonl, "prog.bin", NULL, &out, &err), EXIT_USAGE);
	CHECK_CONTAINS(err, "fsbench: compare prog.bin: not records");
	free(out);
	free(err);
	CHECK_EQ_U(run2(cmd_history, "history", "prog.bin", NULL, NULL, &out, &err), EXIT_USAGE);
	CHECK_CONTAINS(err, "fsbench: history prog.bin: not records");
	free(out);
	free(err);
	CHECK_EQ_U(run2(cmd_verdict, "verdict", "prog.bin", "--write-criteria", NULL, &out, &err),
		   EXIT_USAGE);
	CHECK_CONTAINS(err, "fsbench: verdict prog.bin: not records");
	free(out);
	free(err);

	unlink("results.log");
	unlink("empty.log");
	unlink("prog.bin");
	CHECK(chdir("..") == 0 && rmdir(top) == 0);
	return unit_done(argv[0]);
}

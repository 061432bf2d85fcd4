/* lava.c: the console lines of a LAVA `monitors` test (lava.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/io.h"
#include "run/core/context.h"
#include "run/engine/lava.h"

static int fits(int n, size_t len)
{
	return n >= 0 && (size_t)n < len ? n : -1;
}

int fsb_lava_marker(char *buf, size_t len, const char *which, const char *run_id)
{
	return fits(snprintf(buf, len, FSB_LAVA_MARK " %s run=%s\n", which, run_id), len);
}

int fsb_lava_id_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");

	return n > 0 && !s[n] && n < FSB_LAVA_ID_MAX;
}

int fsb_lava_result_as(char *buf, size_t len, const char *id, const char *result,
		       double measurement, const char *units)
{
	if (!fsb_lava_id_ok(id))
		return -1;
	if (!isfinite(measurement))
		return fits(snprintf(buf, len, FSB_LAVA_RESULT " test_case_id=%s result=%s\n",
				     id, result), len);
	return fits(snprintf(buf, len, FSB_LAVA_RESULT " test_case_id=%s result=%s measurement=%.9g units=%s\n",
			     id, result, measurement, units && *units ? units : "count"), len);
}

int fsb_lava_result(char *buf, size_t len, const char *id, int pass,
		    double measurement, const char *units)
{
	return fsb_lava_result_as(buf, len, id, pass ? "pass" : "fail", measurement, units);
}

int fsb_lava_phase_id(char *buf, size_t len, const char *fs, unsigned round, const char *phase)
{
	int n = fits(snprintf(buf, len, "%s-r%u-%s", fs, round, phase), len);

	/* a variant's ':' is not a test case id's character: "f2fs.s4z4-r1-create" */
	for (int i = 0; i < n; i++)
		if (buf[i] == ':')
			buf[i] = '.';
	return n;
}

static void put(struct fsb_ctx *c, const char *line, int n)
{
	if (n > 0)
		fsb_write_all(c->out_fd, line, (size_t)n);
}

void fsb_lava_start(struct fsb_ctx *c)
{
	char id[24], line[FSB_LAVA_LINE_MAX];

	if (!c->cfg.lava)
		return;
	snprintf(id, sizeof(id), "%016" PRIx64, c->run_id);
	put(c, line, fsb_lava_marker(line, sizeof(line), "start", id));
}

void fsb_lava_phase(struct fsb_ctx *c, const char *fs, unsigned round, const char *phase,
		    double seconds, int failed)
{
	char id[FSB_LAVA_ID_MAX], line[FSB_LAVA_LINE_MAX];
	int n;

	if (!c->cfg.lava || (n = fsb_lava_phase_id(id, sizeof(id), fs, round, phase)) < 0)
		return;
	/* a repetition after the first: "ext4-r1-create-rep2" */
	if (c->rep > 1 && fits(snprintf(id + n, sizeof(id) - (size_t)n, "-rep%u", (unsigned)c->rep),
			       sizeof(id) - (size_t)n) < 0)
		return;
	put(c, line, fsb_lava_result(line, sizeof(line), id, !failed, seconds, "s"));
}

void fsb_lava_powercut(struct fsb_ctx *c, const char *fs, unsigned cycle, int pass, double bad)
{
	char id[FSB_LAVA_ID_MAX], text[64], line[FSB_LAVA_LINE_MAX];

	if (!c->cfg.lava)
		return;
	snprintf(text, sizeof(text), "%s c%u", fs, cycle);
	fsb_lava_text_id(id, sizeof(id), "powercut-", text, NULL, 0);
	put(c, line, fsb_lava_result(line, sizeof(line), id, pass, bad, "files"));
}

void fsb_lava_fileserver(struct fsb_ctx *c, const char *fs, const char *state, int pass,
			 double ops_per_s, double append_p99_ms)
{
	char id[FSB_LAVA_ID_MAX], text[96], line[FSB_LAVA_LINE_MAX];

	if (!c->cfg.lava)
		return;
	snprintf(text, sizeof(text), "%s %s", fs, state);
	fsb_lava_text_id(id, sizeof(id), "fileserver-", text, NULL, 0);
	put(c, line, fsb_lava_result(line, sizeof(line), id, pass, ops_per_s, "ops/s"));
	snprintf(text, sizeof(text), "%s %s append p99", fs, state);
	fsb_lava_text_id(id, sizeof(id), "fileserver-", text, NULL, 0);
	put(c, line, fsb_lava_result(line, sizeof(line), id, pass, append_p99_ms, "ms"));
}

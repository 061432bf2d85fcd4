/* resume.c: the boot after a cut: the campaign it interrupted, read back
 * from the results log (run/engine/powercut.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "log/fields.h"
#include "log/logfile.h"
#include "log/schema.h"
#include "log/pcrule.h"
#include "run/engine/powercut.h"
#include "run/stores/durable.h"

struct scan {
	const struct fsb_config *cfg;
	struct fsb_pc_resume *rs;
	int started, ended;	/* the last run's run_start with powercut, its run_end */
	char why[256];
};

static unsigned num(const struct jsonr *o, const char *k)
{
	return (unsigned)jsonr_u64(jsonr_get(o, k), 0);
}

/* A new run: forget the one before. */
static void new_run(struct scan *s, uint64_t id)
{
	memset(s->rs, 0, sizeof(*s->rs));
	s->rs->run_id = id;
	s->started = s->ended = 0;
	s->why[0] = 0;
}

static void run_start(struct scan *s, const struct jsonr *r)
{
	const struct jsonr *cf = jsonr_get(r, K(config));
	unsigned n = num(cf, "powercut");
	const char *fs = jsonr_str(jsonr_get(cf, "fs"));

	if (!n)
		return;
	s->started = 1;
	if (n != s->cfg->powercut || !fs || strcmp(fs, s->cfg->fs))
		snprintf(s->why, sizeof(s->why), "the log's last run %016" PRIx64 " is a campaign of "
			 "powercut=%u fs=%.60s, not of these settings (powercut=%u fs=%.60s)",
			 s->rs->run_id, n, fs ? fs : "?", s->cfg->powercut, s->cfg->fs);
}

static void arm(struct fsb_pc_resume *rs, const struct jsonr *r)
{
	const struct jsonr *b = jsonr_get(r, K(before));
	const char *fs = jsonr_str(jsonr_get(r, K(fs))), *cs = jsonr_str(jsonr_get(r, K(cycle_seed)));

	if (rs->armed && strcmp(rs->fs, fs ? fs : ""))
		rs->fs_failed_now = 0;
	rs->armed = 1;
	rs->verified = 0;
	rs->fs_ended = 0;
	snprintf(rs->fs, sizeof(rs->fs), "%s", fs ? fs : "");
	rs->cycle = num(r, K(cycle));
	rs->cycles = num(r, K(cycles));
	rs->seed = (uint32_t)jsonr_u64(jsonr_get(r, K(seed)), 0);
	rs->cycle_seed = cs ? strtoull(cs, NULL, 16) : 0;
	rs->window = num(r, K(window));
	rs->workers = num(r, K(workers));
	rs->files = num(r, K(files));
	rs->lead = num(r, K(lead));
	if (!rs->lead || rs->lead > FSB_DUR_LEAD)
		rs->lead = FSB_DUR_LEAD;
	rs->have_before = jsonr_get(b, K(unsafe_shutdowns)) != NULL;
	rs->unsafe_before = jsonr_u64(jsonr_get(b, K(unsafe_shutdowns)), 0);
	rs->power_before = jsonr_u64(jsonr_get(b, K(power_cycles)), 0);
	rs->nops = 0;
	rs->at = 0;
	rs->final = 0;
}

static void ack(struct fsb_pc_resume *rs, const struct jsonr *r)
{
	const struct jsonr *ops = jsonr_get(r, K(ops));
	size_t n = jsonr_len(ops);

	if (!rs->armed || num(r, K(cycle)) != rs->cycle)
		return;
	rs->nops = (unsigned)(n < FSB_PC_MAX_WORKERS ? n : FSB_PC_MAX_WORKERS);
	for (unsigned i = 0; i < rs->nops; i++)
		rs->ops[i] = jsonr_u64(jsonr_at(ops, i), 0);
	rs->at = jsonr_num(jsonr_get(r, K(at)), 0);
	rs->final = jsonr_bool(jsonr_get(r, K(final)), 0);
}

static int on_record(void *arg, const struct fsb_log_rec *lr)
{
	struct scan *s = arg;
	struct fsb_pc_resume *rs = s->rs;
	struct jsonr_doc *doc;
	struct jsonr_err je;

	if (lr->run_id != rs->run_id)
		new_run(s, lr->run_id);
	if (jsonr_parse(lr->data, lr->len, &doc, &je) != 0)
		return 0;
	const struct jsonr *r = jsonr_root(doc);
	const char *type = jsonr_str(jsonr_get(r, K(type)));
	rs->next_seq = lr->seq + 1;
	rs->last_t = jsonr_num(jsonr_get(r, K(t)), rs->last_t);
	switch (type ? fsb_rec_lookup(type) : -1) {
	case FSB_REC_run_start:
		run_start(s, r);
		break;
	case FSB_REC_run_end:
		s->ended = 1;
		break;
	case FSB_REC_powercut_arm:
		arm(rs, r);
		break;
	case FSB_REC_powercut_ack:
		ack(rs, r);
		break;
	case FSB_REC_powercut:
		if (rs->armed && num(r, K(cycle)) == rs->cycle)
			rs->verified = 1;
		if (fsb_pc_failed(num(r, K(lost)), num(r, K(torn)), jsonr_str(jsonr_get(r, K(fsck))),
				  jsonr_str(jsonr_get(r, K(mount))))) {
			rs->failed = 1;
			rs->fs_failed_now = 1;
		}
		break;
	case FSB_REC_fs_end: {
		const char *st = jsonr_str(jsonr_get(r, K(status))), *fs = jsonr_str(jsonr_get(r, K(fs)));
		if (rs->armed && fs && !strcmp(fs, rs->fs))
			rs->fs_ended = 1;
		if (st && !strcmp(st, "ok"))
			rs->fs_ok++;
		else
			rs->fs_failed++, rs->failed = 1;
		break;
	}
	case FSB_REC_error:
		if (jsonr_bool(jsonr_get(r, K(fatal)), 0))
			rs->failed = 1;
		break;
	default:
		break;
	}
	jsonr_free(doc);
	return 0;
}

int fsb_pc_scan(const char *path, const struct fsb_config *cfg, struct fsb_pc_resume *rs)
{
	struct scan s = { .cfg = cfg, .rs = rs };
	struct fsb_log_stats st;
	int e;

	memset(rs, 0, sizeof(*rs));
	e = fsb_log_read(path, on_record, &s, &st);
	if (e == -ENOENT)
		e = 0;	/* no log yet: a new campaign */
	if (e < 0) {
		memset(rs, 0, sizeof(*rs));
		return e;
	}
	if (!s.started || s.ended || !rs->armed) {
		memset(rs, 0, sizeof(*rs));
		return 0;
	}
	if (s.why[0]) {
		char why[sizeof(s.why)];
		memcpy(why, s.why, sizeof(why));
		memset(rs, 0, sizeof(*rs));
		memcpy(rs->why, why, sizeof(why));
		return 0;
	}
	rs->found = 1;
	return 0;
}

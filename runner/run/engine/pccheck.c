/* pccheck.c: a power-cut cycle's check (run/engine/pccheck.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/exec.h"
#include "lib/time.h"
#include "log/pcrule.h"
#include "run/engine/lava.h"
#include "run/engine/pccheck.h"
#include "run/evidence/health.h"
#include "run/fs/fs.h"
#include "run/fs/mount.h"
#include "run/settings.h"
#include "run/stores/durable.h"
#include "run/target/target.h"

enum fsck_result { FSCK_CLEAN, FSCK_REPAIR, FSCK_FAILED, FSCK_NONE };
static const char *const fsck_names[] = { "clean", "repair_needed", "failed", "none" };

struct check {
	const char *when;
	char argv[256];
	int status;
	enum fsck_result result;
	char text[512];
};

struct bad {
	char file[FSB_DUR_NAME_MAX];
	enum fsb_dur_class cls;
	int op;
	uint32_t expected;
	int exists;
	uint64_t size;
};

struct tally {
	uint64_t files, verified, in_flight, lost, torn;
	struct bad bad[FSB_PC_MAX_BAD];
	unsigned nbad;
};

/* The last lines of a tool's output that fit in len. */
static void tail(char *dst, size_t len, const char *out)
{
	size_t n = strlen(out);

	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		n--;
	size_t from = n > len - 1 ? n - (len - 1) : 0;
	snprintf(dst, len, "%.*s", (int)(n - from), out + from);
}

/* The filesystem's checker, read-only, on the device. */
static void run_check(const struct fsb_fs *fs, const char *dev, const char *when, struct check *ck)
{
	static char out[16384];
	char path[FSB_PATH_MAX];
	char *argv[16];
	int n = 0;

	memset(ck, 0, sizeof(*ck));
	ck->when = when;
	if (!fs->check) {	/* nilfs2: nilfs-tools has no fsck */
		snprintf(ck->argv, sizeof(ck->argv), "-");
		ck->result = FSCK_NONE;
		snprintf(ck->text, sizeof(ck->text), "no checker: %s has none", fs->package);
		return;
	}
	if (fsb_which(fs->check[0], path, sizeof(path)) < 0) {
		snprintf(ck->argv, sizeof(ck->argv), "%s", fs->check[0]);
		ck->status = -ENOENT;
		ck->result = FSCK_FAILED;
		snprintf(ck->text, sizeof(ck->text), "%s not found in %s", fs->check[0], FSB_TOOL_PATH);
		return;
	}
	argv[n++] = path;
	for (const char *const *a = fs->check + 1; *a && n < 14; a++)
		argv[n++] = (char *)*a;
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	for (int i = 0; i < n; i++) {
		size_t o = strlen(ck->argv);
		snprintf(ck->argv + o, sizeof(ck->argv) - o, "%s%s", i ? " " : "", argv[i]);
	}
	out[0] = 0;
	ck->status = fsb_exec(argv, out, sizeof(out), 3600);
	ck->result = FSCK_FAILED;
	if (ck->status == 0)
		ck->result = FSCK_CLEAN;
	for (const int *d = fs->check_damage; *d && ck->status > 0; d++)
		if (*d == ck->status)
			ck->result = FSCK_REPAIR;
	if (ck->result != FSCK_CLEAN)
		tail(ck->text, sizeof(ck->text), out);
}

/* Read a file whole (at most FSB_DUR_MAX_SIZE bytes): 1 there, 0 missing,
 * -errno. */
static int slurp(int dfd, const char *name, unsigned char *buf, uint64_t *size)
{
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	*size = (uint64_t)st.st_size;
	uint64_t want = *size < FSB_DUR_MAX_SIZE ? *size : FSB_DUR_MAX_SIZE, got = 0;
	while (got < want) {
		ssize_t r = pread(fd, buf + got, want - got, (off_t)got);
		if (r <= 0) {
			int e = r < 0 ? -errno : -EIO;
			close(fd);
			return e;
		}
		got += (uint64_t)r;
	}
	close(fd);
	return 1;
}

static void note_bad(struct tally *tl, uint32_t w, uint32_t slot, enum fsb_dur_class cls,
		     const struct fsb_dur_expect *e, int exists, uint64_t size)
{
	if (cls == FSB_DUR_LOST)
		tl->lost++;
	else
		tl->torn++;
	if (tl->nbad >= FSB_PC_MAX_BAD)
		return;
	struct bad *b = &tl->bad[tl->nbad++];
	fsb_dur_name(b->file, w, slot, 0);
	b->cls = cls;
	b->op = e->last;
	b->expected = e->acked.exists ? e->acked.size : 0;
	b->exists = exists;
	b->size = size;
}

/* Every slot of worker w; the filesystem mounted (mounted 0: every file
 * acknowledged there counts as lost). */
static int check_worker(const struct fsb_config *cfg, const struct fsb_pc_resume *rs, uint32_t w,
			int mounted, struct fsb_dur_expect *exp, unsigned char *data,
			unsigned char *scratch, struct tally *tl)
{
	char d[FSB_PATH_MAX + 64];
	uint64_t acked = w < rs->nops ? rs->ops[w] : 0;
	int e = fsb_dur_expect(rs->cycle_seed, w, rs->files, acked, rs->final ? 0 : rs->lead, exp);
	int dfd = -1;

	if (e < 0)
		return e;
	snprintf(d, sizeof(d), "%s/" FSB_DUR_DIR "/w%02u", cfg->mnt, w);
	if (mounted)
		dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (uint32_t s = 0; s < rs->files; s++) {
		char name[FSB_DUR_NAME_MAX];
		uint64_t size = 0;
		int there = 0;

		fsb_dur_name(name, w, s, 0);
		if (dfd >= 0)
			there = slurp(dfd, strchr(name, '/') + 1, data, &size);
		if (there < 0) {	/* unreadable: what it held is gone */
			there = 1;
			size = 0;
		}
		struct fsb_dur_bytes b = { data, size < FSB_DUR_MAX_SIZE ? size : FSB_DUR_MAX_SIZE, scratch };
		enum fsb_dur_class cls = size > FSB_DUR_MAX_SIZE ? FSB_DUR_TORN :
			fsb_dur_classify(&exp[s], rs->cycle_seed, w, s, there, size, fsb_dur_match_bytes, &b);
		tl->files++;
		if (cls == FSB_DUR_VERIFIED)
			tl->verified++;
		else if (cls == FSB_DUR_IN_FLIGHT)
			tl->in_flight++;
		else
			note_bad(tl, w, s, cls, &exp[s], there, size);
	}
	if (dfd >= 0)
		close(dfd);
	return 0;
}

static void counters(struct fsb_rec *r, const struct fsb_disk *t, const struct fsb_pc_resume *rs)
{
	static struct fsb_health h;

	if (rs->have_before) {
		rec_obj(r, K(before));
		rec_u64(r, K(unsafe_shutdowns), rs->unsafe_before);
		rec_u64(r, K(power_cycles), rs->power_before);
		rec_close(r);
	}
	fsb_health_read(t, &h);
	if (h.have_smart) {
		rec_obj(r, K(after));
		rec_u64(r, K(unsafe_shutdowns), h.smart.counter[FSB_SMART_UNSAFE_SHUTDOWNS].lo);
		rec_u64(r, K(power_cycles), h.smart.counter[FSB_SMART_POWER_CYCLES].lo);
		rec_close(r);
	}
}

int fsb_pc_check(struct fsb_ctx *c, const struct fsb_disk *t, const struct fsb_column *col,
		 unsigned long mflags, const char *mdata, const struct fsb_pc_resume *rs)
{
	const struct fsb_config *cfg = &c->cfg;
	const struct fsb_fs *fs = &fsb_fs_table[col->fsi];
	static struct tally tl;
	struct check ck[2];
	unsigned nck = 0;
	char mount_text[400] = "ok", hex[24];
	double t0 = fsb_now();
	int e;

	memset(&tl, 0, sizeof(tl));
	if (fsb_mnt_in_use(cfg->mnt)) {
		snprintf(mount_text, sizeof(mount_text), "something is mounted on %.100s: unmount it first", cfg->mnt);
		fsb_error_rec(c, col->name, 0, NULL, "powercut", cfg->mnt, EBUSY, 1, mount_text);
		c->failed = 1;
		return 1;
	}
	run_check(fs, t->path, "before_mount", &ck[nck++]);
	if (ck[0].result != FSCK_CLEAN && ck[0].result != FSCK_NONE) {
		/* a journal the checker did not replay is not damage: replay it
		 * with a mount, then look again */
		if (fsb_mount(t->path, cfg->mnt, fs->mount_type, mflags, mdata) == 0 &&
		    fsb_umount(cfg->mnt) == 0)
			run_check(fs, t->path, "after_replay", &ck[nck++]);
	}
	e = fsb_mount(t->path, cfg->mnt, fs->mount_type, mflags, mdata);
	if (e < 0)
		snprintf(mount_text, sizeof(mount_text), "mount %.100s (%s) on %.100s: %s", t->path, col->name,
			 cfg->mnt, strerror(-e));
	struct fsb_dur_expect *exp = calloc(rs->files ? rs->files : 1, sizeof(*exp));
	unsigned char *data = malloc(FSB_DUR_MAX_SIZE), *scratch = malloc(FSB_DUR_BUF);
	int ce = exp && data && scratch ? 0 : -ENOMEM;
	for (uint32_t w = 0; w < rs->workers && !ce; w++)
		ce = check_worker(cfg, rs, w, e == 0, exp, data, scratch, &tl);
	free(exp);
	free(data);
	free(scratch);
	if (e == 0)
		fsb_umount(cfg->mnt);
	if (ce < 0)
		snprintf(mount_text, sizeof(mount_text), "the check could not run: %s", strerror(-ce));

	enum fsck_result fin = ck[nck - 1].result;
	uint64_t acked = 0;
	for (unsigned w = 0; w < rs->nops; w++)
		acked += rs->ops[w];
	snprintf(hex, sizeof(hex), "%016" PRIx64, rs->cycle_seed);
	struct fsb_rec r;
	fsb_rec_start(c, &r, FSB_REC_powercut);
	rec_str(&r, K(fs), col->name);
	rec_u64(&r, K(cycle), rs->cycle);
	rec_u64(&r, K(cycles), rs->cycles);
	rec_u64(&r, K(seed), rs->seed);
	rec_str(&r, K(cycle_seed), hex);
	rec_dbl(&r, K(cut_s), rs->at);
	rec_bool(&r, K(final), rs->final);
	rec_u64(&r, K(acknowledged), acked);
	rec_dbl(&r, K(ops_per_s), rs->at > 0 ? (double)acked / rs->at : 0);
	rec_u64(&r, K(files), tl.files);
	rec_u64(&r, K(verified), tl.verified);
	rec_u64(&r, K(in_flight), tl.in_flight);
	rec_u64(&r, K(lost), tl.lost);
	rec_u64(&r, K(torn), tl.torn);
	rec_str(&r, K(fsck), fsck_names[fin]);
	rec_arr(&r, K(checks));
	for (unsigned i = 0; i < nck; i++) {
		rec_obj(&r, NULL);
		rec_str(&r, K(when), ck[i].when);
		rec_str(&r, K(argv), ck[i].argv);
		rec_i64(&r, K(status), ck[i].status);
		rec_str(&r, K(result), fsck_names[ck[i].result]);
		if (ck[i].text[0])
			rec_str(&r, K(text), ck[i].text);
		rec_close(&r);
	}
	rec_close(&r);
	rec_str(&r, K(mount), mount_text);
	if (tl.nbad) {
		rec_arr(&r, K(bad));
		for (unsigned i = 0; i < tl.nbad; i++) {
			const struct bad *b = &tl.bad[i];
			rec_obj(&r, NULL);
			rec_str(&r, K(file), b->file);
			rec_str(&r, K(class), fsb_dur_class_name(b->cls));
			rec_str(&r, K(op), b->op < 0 ? "none" : fsb_dur_kind_name((enum fsb_dur_kind)b->op));
			rec_u64(&r, K(expected_size), b->expected);
			if (b->exists)
				rec_u64(&r, K(size), b->size);
			rec_close(&r);
		}
		rec_close(&r);
	}
	rec_dbl(&r, K(seconds), fsb_now() - t0);
	counters(&r, t, rs);
	fsb_emit(c, &r);

	/* e < 0 and ce < 0 are in mount_text: the record's rule */
	int failed = fsb_pc_failed(tl.lost, tl.torn, fsck_names[fin], mount_text);
	fsb_lava_powercut(c, col->name, rs->cycle, !failed, (double)(tl.lost + tl.torn));
	if (cfg->progress)
		fsb_say(c->say, "%s powercut cycle %u/%u: %" PRIu64 " acknowledged, %" PRIu64 " lost, %"
			PRIu64 " torn, checker %s", col->name, rs->cycle, rs->cycles, acked, tl.lost,
			tl.torn, fsck_names[fin]);
	if (failed)
		c->failed = 1;
	return failed;
}

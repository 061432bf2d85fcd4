/* cmd/run.c: `fsbench run`: the target, safety, the log, the suite, and the
 * run's first and last records. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cmd/options.h"
#include "fsbench.h"
#include "lib/bytes.h"
#include "lib/time.h"
#include "log/logfile.h"
#include "run/fs/fs.h"
#include "run/evidence/kmsg.h"
#include "run/engine/lava.h"
#include "run/engine/powercut.h"
#include "run/evidence/health.h"
#include "run/engine/suite.h"
#include "run/evidence/sysinfo.h"
#include "run/target/capacity.h"
#include "run/target/target.h"

static uint64_t new_run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id) || !id) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		id = ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 16);
		id ^= (uint64_t)(uintptr_t)&ts;
	}
	return id;
}

static uint64_t need_bytes(const struct fsb_config *cfg)
{
	/* the power-cut campaign is the run's only work (run/engine/powercut.h) */
	uint64_t files = cfg->smallfile && !cfg->powercut ? (uint64_t)cfg->dirs * cfg->files : 0;
	uint64_t data = files * ((cfg->file_size + 4095) / 4096 * 4096);
	uint64_t need = files * 16384 + 2 * data;

	return need < (1ull << 30) ? (1ull << 30) : need;
}

static void run_start(struct fsb_ctx *c, const struct fsb_disk *t, const struct fsb_disk *conv)
{
	static char cfgjson[8192];
	struct fsb_rec r;

	fsb_rec_start(c, &r, FSB_REC_run_start);
	rec_str(&r, K(tool), "fsbench");
	rec_str(&r, K(version), FSB_VERSION);
	/* a refusal before the target was resolved is still a device run */
	rec_str(&r, K(mode), t || c->cfg.target[0] ? "device" : "dir");
	rec_u64(&r, K(time_unix), (uint64_t)time(NULL));
	fsb_sysinfo_json(&r, K(host));
	if (t)
		fsb_disk_json(&r, K(target), t);
	else {
		rec_obj(&r, K(target));
		rec_str(&r, K(path), c->cfg.target[0] ? "" : c->cfg.dir);
		rec_close(&r);
	}
	if (conv && conv->path[0])
		fsb_disk_json(&r, K(zoned_conv), conv);
	if (fsb_config_json(&c->cfg, cfgjson, sizeof(cfgjson)) > 0)
		rec_raw(&r, K(config), cfgjson);
	if (c->cfg.log[0])
		rec_str(&r, K(log), c->log_dev);
	if (c->kmsg_source[0])
		rec_str(&r, K(kmsg), c->kmsg_source);
	if (c->kmsg) {
		int64_t off;
		const char *why;
		if (fsb_kmsg_clock(c->kmsg, &off, &why))
			rec_i64(&r, K(kmsg_clock_offset_us), off);
		else
			rec_str(&r, K(kmsg_clock), why);
	}
	fsb_emit(c, &r);
	fsb_lava_start(c);
}

/* The kernel log from here on (run/evidence/kmsg.h); a run without it goes on and
 * its run_start says why. */
static void open_kmsg(struct fsb_ctx *c)
{
	int e = fsb_kmsg_open(&c->kmsg, FSB_KMSG_PATH);

	if (e < 0) {
		snprintf(c->kmsg_source, sizeof(c->kmsg_source), "not available: %s: %s",
			 FSB_KMSG_PATH, e == -ENOTTY ? "not a character device" : strerror(-e));
		fsb_msg("kernel log %s: %s: kernel messages are not recorded", FSB_KMSG_PATH,
			e == -ENOTTY ? "not a character device" : strerror(-e));
		return;
	}
	snprintf(c->kmsg_source, sizeof(c->kmsg_source), "%s", FSB_KMSG_PATH);
	fsb_kmsg_mark(c, NULL, 0, NULL);
}

static int run_end(struct fsb_ctx *c, const char *status, int code)
{
	struct fsb_rec r;
	struct fsb_kmsg_totals kt;

	fsb_kmsg_drain(c);
	fsb_rec_start(c, &r, FSB_REC_run_end);
	rec_str(&r, K(status), status);
	rec_u64(&r, K(exit_code), (uint64_t)code);
	rec_dbl(&r, K(seconds), fsb_now() - c->t0);
	rec_u64(&r, K(fs_ok), (uint64_t)c->fs_ok);
	rec_u64(&r, K(fs_failed), (uint64_t)c->fs_failed);
	if (c->fs_refused)
		rec_u64(&r, K(fs_refused), (uint64_t)c->fs_refused);
	if (c->kmsg) {
		fsb_kmsg_totals(c->kmsg, &kt);
		rec_u64(&r, K(kmsg_recorded), kt.recorded);
		rec_u64(&r, K(kmsg_dropped), kt.dropped);
		rec_u64(&r, K(kmsg_lost), kt.lost);
	}
	fsb_emit(c, &r);
	return code;
}

/* A health record: the disk's health now, and with before the difference
 * (before the first filesystem and after the last). */
static void health(struct fsb_ctx *c, const struct fsb_disk *t, const char *when,
		   struct fsb_health *h, const struct fsb_health *before)
{
	struct fsb_rec r;

	if (t)
		fsb_health_read(t, h);
	else
		fsb_health_none(h, "dir mode: the directory is not a disk of its own");
	fsb_rec_start(c, &r, FSB_REC_health);
	fsb_health_json(&r, when, h, before);
	fsb_emit(c, &r);
}

/* The capacity check (run/target/capacity.h) before the filesystems: its
 * record, and a line for the user. 0 when the target is honest; -1 when
 * it is not or the check failed (the run fails, no filesystem is made on
 * a disk that cannot hold it). */
static int capacity(struct fsb_ctx *c, const struct fsb_disk *t)
{
	struct fsb_cap_io io;
	struct fsb_cap_result res;
	struct fsb_rec r;
	char a[32], b[32], d[32];
	uint64_t stride, ios;
	int e;

	if (fsb_zoned_strict(&t->zoned)) {	/* its signatures are random writes */
		fsb_msg("capacity: %s: not checked: a host-managed zoned device takes sequential writes only",
			t->path);
		fsb_note(c, "capacity: %s not checked: a host-managed zoned device takes sequential writes only",
			 t->path);
		return 0;
	}
	fsb_cap_plan(t->size, &stride, &ios);
	fsb_msg("capacity: %s: writing signatures across its %s (%" PRIu64 " I/Os, a grid every %s), "
		"then reading them back", t->path, fsb_human(t->size, a, sizeof(a)), ios,
		fsb_human(stride, b, sizeof(b)));
	if ((e = fsb_cap_open(t->path, &io)) == 0) {
		e = fsb_cap_check(&io, c->run_id, &res);
		fsb_cap_close(&io);
	}
	if (e < 0) {
		fsb_msg("capacity: %s: %s", t->path, strerror(-e));
		fsb_error_rec(c, NULL, 0, NULL, "capacity", t->path, -e, 1, strerror(-e));
		c->failed = 1;
		return -1;
	}
	fsb_rec_start(c, &r, FSB_REC_capacity);
	fsb_cap_json(&r, t->path, &res);
	fsb_emit(c, &r);
	if (res.honest) {
		fsb_msg("capacity: %s: honest, %s verified (%" PRIu64 " signatures, %" PRIu64 " I/Os, %.1f s)",
			t->path, fsb_human(res.verified, a, sizeof(a)), res.written, res.ios, res.seconds);
		return 0;
	}
	if (res.have_alias)
		fsb_msg("capacity: %s: NOT honest: claims %s, holds %s: offset %" PRIu64 " aliases offset %" PRIu64
			"; no filesystem is made on it", t->path, fsb_human(res.claimed, a, sizeof(a)),
			fsb_human(res.verified, b, sizeof(b)), res.alias_offset, res.alias_of);
	else
		fsb_msg("capacity: %s: NOT honest: claims %s, holds %s: offset %" PRIu64 " (%s) reads back %s"
			"; no filesystem is made on it", t->path, fsb_human(res.claimed, a, sizeof(a)),
			fsb_human(res.verified, b, sizeof(b)), res.first_bad, fsb_human(res.first_bad, d, sizeof(d)),
			res.found == FSB_CAP_EIO ? strerror(res.err) : fsb_cap_found_name(res.found));
	c->failed = 1;
	return -1;
}

/* The setting zoned_conv: a conventional disk beside a host-managed zoned
 * target, resolved like the target and held to its safety rules; not the
 * target, not zoned itself. Its path goes into c->zoned_conv_dev (left
 * "" with a note when the target is not zoned: nothing is made on it). */
static enum fsb_refusal zoned_conv(struct fsb_ctx *c, const struct fsb_disk *t, struct fsb_disk *conv,
				   char *why, size_t len)
{
	char spec[FSB_PATH_MAX + 16];
	enum fsb_refusal no;

	snprintf(spec, sizeof(spec), "%s", c->cfg.zoned_conv);
	no = fsb_disk_resolve(spec, conv, why, len);
	if (no != FSB_USABLE) {
		size_t o = strlen(why);
		snprintf(why + o, len - o, " (zoned_conv)");
		return no;
	}
	if (conv->maj == t->maj && conv->min == t->min) {
		snprintf(why, len, "zoned_conv %s: it is the target itself; name a conventional disk beside it",
			 conv->path);
		return FSB_REFUSE_ZONED_CONV;
	}
	if (!strcmp(conv->disk, t->disk) && (conv->is_partition || t->is_partition)) {
		snprintf(why, len, "zoned_conv %.400s: on the same disk as the target %.400s", conv->path, t->path);
		return FSB_REFUSE_ZONED_CONV;
	}
	if (fsb_zoned_strict(&conv->zoned)) {
		snprintf(why, len, "zoned_conv %s: a host-managed zoned device itself, not a conventional one",
			 conv->path);
		return FSB_REFUSE_ZONED_CONV;
	}
	no = fsb_target_check(conv, c->log_dev, 0, why, len);
	if (no != FSB_USABLE) {
		size_t o = strlen(why);
		snprintf(why + o, len - o, " (zoned_conv)");
		return no;
	}
	if (fsb_zoned_strict(&t->zoned))
		snprintf(c->zoned_conv_dev, sizeof(c->zoned_conv_dev), "%s", conv->path);
	else
		fsb_msg("zoned_conv %s: not used: the target %s is not a host-managed zoned device",
			conv->path, t->path);
	return FSB_USABLE;
}

static int open_log(struct fsb_ctx *c)
{
	if (!c->cfg.log[0])
		return 0;
	int e = fsb_log_open(&c->log, c->log_dev, c->run_id, c->cfg.log_size);
	if (e < 0) {
		fsb_msg("log %s: %s", c->log_dev, strerror(-e));
		c->log = NULL;
		return -1;
	}
	return 0;
}

/* A refusal: message on stderr, and records (with every disk seen) on
 * stdout and in the log unless the log is what is wrong. */
static int refuse(struct fsb_ctx *c, const struct fsb_disk *t, enum fsb_refusal code,
		  const char *why)
{
	struct fsb_rec r;
	int use_log = code != FSB_REFUSE_LOG;

	fsb_msg("refusing: %s", why);
	if (use_log && open_log(c) < 0)
		use_log = 0;
	run_start(c, t, NULL);
	fsb_rec_start(c, &r, FSB_REC_error);
	rec_str(&r, K(op), "target");
	rec_str(&r, K(file), c->cfg.target[0] ? c->cfg.target : c->cfg.dir);
	rec_i64(&r, K(errno), 0);
	rec_str(&r, K(msg), why);
	rec_bool(&r, K(fatal), 1);
	rec_bool(&r, K(refused), 1);
	fsb_disks_json(&r, K(disks));
	fsb_emit(c, &r);
	run_end(c, "refused", EXIT_REFUSED);
	if (c->log)
		fsb_log_close(c->log);
	return EXIT_REFUSED;
}

int cmd_run(int argc, char **argv)
{
	static struct fsb_ctx ctx;
	struct fsb_ctx *c = &ctx;
	static struct fsb_disk target, conv;
	static struct fsb_health before, after;
	static struct fsb_pc_resume rs;	/* a power-cut campaign to go on with */
	char why[1024], sz[32], sig[128];
	int rc = fsb_parse_settings(argc, argv, &c->cfg, NULL, NULL);

	if (rc < 0)
		return EXIT_OK;
	if (rc)
		return rc;
	c->run_id = new_run_id();
	c->t0 = fsb_now();
	c->out_fd = 1;
	c->say = fsb_vmsg;
	if (!c->cfg.target[0] && !c->cfg.dir[0])
		return fsb_run_misuse("run: no target: name the disk to format with --target DEV, "
				       "or a directory with --dir DIR");

	/* the log: resolved first, so the target can be checked against it */
	if (c->cfg.log[0]) {
		if (!strncmp(c->cfg.log, "partlabel:", 10)) {
			struct fsb_disk ld;
			if (fsb_disk_resolve(c->cfg.log, &ld, why, sizeof(why)) != FSB_USABLE)
				return fsb_fail(EXIT_SYSTEM, "log %s", why);
			snprintf(c->log_dev, sizeof(c->log_dev), "%.500s", ld.path);
		} else {
			snprintf(c->log_dev, sizeof(c->log_dev), "%.500s", c->cfg.log);
		}
		/* never create a regular file where a device node was meant */
		struct stat lst;
		if (!strncmp(c->log_dev, "/dev/", 5) && stat(c->log_dev, &lst) < 0)
			return fsb_fail(EXIT_SYSTEM, "log %s: %s (a log under /dev must be an existing device)",
					c->log_dev, strerror(errno));
	}

	/* the boot after a power cut: the campaign goes on in the same run */
	if (c->cfg.powercut && c->cfg.target[0]) {
		int e = fsb_pc_scan(c->log_dev, &c->cfg, &rs);
		if (e < 0)
			return fsb_fail(EXIT_SYSTEM, "log %s: %s", c->log_dev, strerror(-e));
		if (rs.why[0])
			fsb_msg("powercut: a new campaign: %s", rs.why);
		if (rs.found) {
			c->run_id = rs.run_id;
			c->seq = rs.next_seq;
			c->t0 = fsb_now() - rs.last_t;
		}
	}

	if (c->cfg.dir[0]) {
		struct stat st;
		struct statvfs vf;
		uint64_t need = !c->cfg.smallfile ? 0 : (uint64_t)c->cfg.dirs * c->cfg.files *
				((c->cfg.file_size + 4095) / 4096 * 4096);
		/* a directory that is not there is misuse, not a refusal:
		 * nothing was at risk */
		int gone = stat(c->cfg.dir, &st) < 0;
		if (gone || !S_ISDIR(st.st_mode))
			return fsb_run_misuse("run --dir %.500s: %s", c->cfg.dir,
					      gone ? strerror(errno) : "not a directory");
		if (statvfs(c->cfg.dir, &vf) == 0 && (uint64_t)vf.f_bavail * vf.f_frsize < need) {
			snprintf(why, sizeof(why), "dir %.500s: too small for the profile: %s free, needs %s",
				 c->cfg.dir, fsb_human((uint64_t)vf.f_bavail * vf.f_frsize, sz, sizeof(sz)),
				 fsb_human(need, sig, sizeof(sig)));
			return refuse(c, NULL, FSB_REFUSE_DIR_SMALL, why);
		}
		fsb_msg("--dir %s: no mkfs and no remount: stat and read phases run with a warm cache",
			c->cfg.dir);
		if (open_log(c) < 0)
			return EXIT_SYSTEM;
		open_kmsg(c);
		run_start(c, NULL, NULL);
		fsb_note(c, "dir mode: no mkfs, no remount; the stat and read phases run with a warm cache");
		health(c, NULL, "before", &before, NULL);
		fsb_suite_run(c, NULL);
		health(c, NULL, "after", &after, &before);
	} else {
		enum fsb_refusal no = fsb_disk_resolve(c->cfg.target, &target, why, sizeof(why));
		/* a disk that is still coming up (USB, SCSI, SD): target_wait */
		for (uint64_t t0 = fsb_now_ns(); (no == FSB_REFUSE_NO_MATCH || no == FSB_REFUSE_NO_DEVICE) &&
		     fsb_now_ns() - t0 < (uint64_t)c->cfg.target_wait * 1000000000ull;) {
			usleep(200000);
			no = fsb_disk_resolve(c->cfg.target, &target, why, sizeof(why));
		}
		if (no != FSB_USABLE)
			return refuse(c, NULL, no, why);
		no = fsb_target_check(&target, c->log_dev, need_bytes(&c->cfg), why, sizeof(why));
		if (no != FSB_USABLE)
			return refuse(c, &target, no, why);
		if (c->cfg.powercut && fsb_zoned_strict(&target.zoned)) {
			snprintf(why, sizeof(why), "target %s: a host-managed zoned device: the power-cut "
				 "campaign makes its filesystems as on any disk and does not run on one", target.path);
			return refuse(c, &target, FSB_REFUSE_ZONED, why);
		}
		if (c->cfg.zoned_conv[0]) {	/* beside a zoned target: held to the same rules */
			no = zoned_conv(c, &target, &conv, why, sizeof(why));
			if (no != FSB_USABLE)
				return refuse(c, &target, no, why);
		}
		if (!c->cfg.yes) {
			fsb_msg("would destroy %s (%s%s%s%s%s, now holds %s) with %smkfs %s",
				target.path, fsb_human(target.size, sz, sizeof(sz)),
				target.model[0] ? ", " : "", target.model,
				target.loop_backing[0] ? ", backing file " : "", target.loop_backing,
				fsb_disk_signature(target.path, sig, sizeof(sig)),
				c->cfg.capacity ? "the capacity check's signatures across the whole device, then " : "",
				c->cfg.fs);
			if (c->zoned_conv_dev[0])
				fsb_msg("would destroy %s too (zoned_conv, %s, now holds %s): f2fs's metadata",
					conv.path, fsb_human(conv.size, sz, sizeof(sz)),
					fsb_disk_signature(conv.path, sig, sizeof(sig)));
			fsb_msg("nothing done; add --yes (or yes=1) to go ahead");
			return EXIT_REFUSED;
		}
		if (open_log(c) < 0)
			return EXIT_SYSTEM;
		open_kmsg(c);
		if (rs.found) {
			fsb_note(c, "power-cut campaign %016" PRIx64 " resumed after the cut of %s cycle %u/%u",
				 c->run_id, rs.fs, rs.cycle, rs.cycles);
		} else {
			run_start(c, &target, &conv);
			health(c, &target, "before", &before, NULL);
		}
		/* The capacity check writes across the whole target: before the
		 * first mkfs only, never on a campaign's later boot (the target
		 * then holds what the cut left, to be checked). */
		int honest = rs.found || !c->cfg.capacity || capacity(c, &target) == 0;
		if (honest && c->cfg.powercut)
			fsb_powercut_run(c, &target, &rs);
		else if (honest)
			fsb_suite_run(c, &target);	/* not honest: no filesystem is made */
		health(c, &target, "after", &after, rs.found ? NULL : &before);
	}
	rc = run_end(c, c->failed ? "failed" : "ok", c->failed ? EXIT_FAIL : EXIT_OK);
	if (c->log)
		fsb_log_close(c->log);
	fsb_kmsg_close(c->kmsg);
	c->kmsg = NULL;
	return rc;
}

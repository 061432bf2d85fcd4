/* suite.c: per filesystem: make it, then rounds x phases, remounting before
 * every cold phase (never a global drop_caches). */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/exec.h"
#include "lib/msg.h"
#include "lib/time.h"
#include "run/stores/fill.h"
#include "run/stores/sustain.h"
#include "run/stores/fio.h"
#include "run/evidence/freespace.h"
#include "run/evidence/layout.h"
#include "run/fs/fs.h"
#include "run/fs/mkfsargv.h"
#include "run/evidence/kmsg.h"
#include "run/engine/fstrim.h"
#include "run/engine/lava.h"
#include "run/fs/cleaner.h"
#include "run/fs/mount.h"
#include "run/fs/knobs.h"
#include "run/stores/pack.h"
#include "run/settings.h"
#include "run/engine/phase.h"
#include "run/engine/repeat.h"
#include "run/core/names.h"
#include "run/engine/suite.h"
#include "run/engine/zerocheck.h"
#include "run/engine/control.h"
#include "run/engine/fileserver.h"

struct fsrun {
	struct fsb_ctx *c;
	const struct fsb_fs *fs;
	int fsi;			/* index in fsb_fs_table, -1 in dir mode */
	const struct fsb_column *col;	/* the column: fs or a variant; NULL in dir mode */
	const char *name;		/* the column's name, every record's "fs" */
	const char *dev;		/* NULL in dir mode; made and mounted */
	enum fsb_zplan zplan;		/* on a zoned target (run/fs/fs.h) */
	const char *zoned;		/* FSB_ZPLAN_CONV: the zoned target beside dev */
	char mnt[FSB_PATH_MAX + 64];	/* where the files live */
	unsigned long mflags;
	char mdata[256];
	int mounted;
	struct fsb_cleaner cl;		/* the filesystem's cleaner beside the mount (nilfs2) */
	int have_mnt_id;		/* mnt_id: the mount the phase ran on */
	int mnt_id_unique;
	uint64_t mnt_id;
	int failed;
	char reason[512];
	const struct fsb_disk *disk;	/* the target (sustain: its temperature); NULL in dir mode */
	struct fsb_reps *reps;		/* the column's repetitions (setting repeat); NULL: none */
	uint32_t round0;		/* the rounds run are round0 + 1 .. round0 + rounds */
	int after_aging;		/* they run after the fill's aging (fileserver_aged) */
};

static void fail(struct fsrun *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct fsrun *f, const char *fmt, ...)
{
	va_list ap;

	if (f->failed)
		return;
	f->failed = 1;
	va_start(ap, fmt);
	vsnprintf(f->reason, sizeof(f->reason), fmt, ap);
	va_end(ap);
}

/* Make sure the kernel can mount fs; load its modules when needed. */
static int ensure_support(struct fsrun *f, char *support, size_t len)
{
	char modprobe[FSB_PATH_MAX], out[512] = "";
	int loaded = 0;

	if (fsb_fs_kernel_has(f->fs->mount_type)) {
		snprintf(support, len, "present");
		return 0;
	}
	if (fsb_which("modprobe", modprobe, sizeof(modprobe)) < 0) {
		fail(f, "kernel has no %s support and modprobe was not found", f->fs->name);
		return -1;
	}
	const char *failed_mod = NULL;
	char failed_out[512] = "";
	for (const char *const *m = f->fs->modules; *m; m++) {
		char *argv[] = { modprobe, (char *)*m, NULL };
		int r = fsb_exec(argv, out, sizeof(out), 60);
		if (r == 0) {
			loaded++;
		} else {
			failed_mod = *m;
			out[strcspn(out, "\n")] = 0;
			snprintf(failed_out, sizeof(failed_out), "%s", out[0] ? out : "failed");
		}
	}
	if (!fsb_fs_kernel_has(f->fs->mount_type)) {
		fail(f, "kernel has no %s support (modprobe %s: %s)", f->fs->name,
		     failed_mod ? failed_mod : f->fs->mount_type, failed_mod ? failed_out : "loaded, still missing");
		return -1;
	}
	snprintf(support, len, "module loaded by fsbench");
	return 0;
}

/* mount(2), then the filesystem's cleaner on a read-write mount (a
 * cleaner that cannot start is an error record, the run goes on); -errno
 * of the mount, nothing recorded */
static int mount_try(struct fsrun *f)
{
	int e = fsb_mount(f->dev, f->mnt, f->fs->mount_type, f->mflags, f->mdata);
	char why[512];
	int ce = 0;

	if (e == 0)
		f->mounted = 1;
	/* a variant's knobs, after every mount: the kernel sets them anew */
	if (e == 0 && f->col && f->col->sysfs[0] &&
	    (e = fsb_fs_sysfs_set("/sys/fs", f->fs->mount_type, f->dev, f->col->sysfs, why, sizeof(why))) < 0)
		fsb_error_rec(f->c, f->name, 0, NULL, "sysfs", f->dev, -e, 1, why);
	if (e == 0 && !(f->mflags & MS_RDONLY))
		ce = fsb_cleaner_start(f->fs, f->dev, f->mnt, &f->cl, why, sizeof(why));
	if (ce < 0)
		fsb_error_rec(f->c, f->name, 0, NULL, "cleaner", f->dev, -ce, 0, why);
	return e;
}

static int mount_failed(struct fsrun *f, int e)
{
	fail(f, "mount %s (%s) on %s: %s", f->dev, f->name, f->mnt, strerror(e));
	fsb_error_rec(f->c, f->name, 0, NULL, "mount", f->dev, e, 1, f->reason);
	return -1;
}

static int do_mount(struct fsrun *f)
{
	int e = mount_try(f);

	return e < 0 ? mount_failed(f, -e) : 0;
}

static int do_umount(struct fsrun *f)
{
	char why[512];
	int e = fsb_cleaner_stop(&f->cl, why, sizeof(why));

	if (e < 0)	/* it should have run to the unmount */
		fsb_error_rec(f->c, f->name, 0, NULL, "cleaner", f->dev, -e, 0, why);
	e = fsb_umount(f->mnt);

	if (e == 0) {
		f->mounted = 0;
		return 0;
	}
	e = -e;
	fail(f, "umount %s (%s): %s", f->mnt, f->name, strerror(e));
	fsb_error_rec(f->c, f->name, 0, NULL, "umount", f->mnt, e, 1, f->reason);
	return -1;
}

/* mkfs with the real tool; records the argv and version in rec. */
static int make_fs(struct fsrun *f, struct fsb_rec *rec)
{
	const struct fsb_config *cfg = &f->c->cfg;
	char path[FSB_PATH_MAX], ver[1024] = "", out[4096] = "";
	struct fsb_mkfs_argv a;
	char *argv[16];
	int n = 0;
	double t0;

	if (fsb_which(f->fs->mkfs, path, sizeof(path)) < 0) {
		fail(f, "%s not found in %s", f->fs->mkfs, FSB_TOOL_PATH);
		return -1;
	}
	argv[n++] = path;
	for (const char *const *v = f->fs->version_argv; *v && n < 8; v++)
		argv[n++] = (char *)*v;
	argv[n] = NULL;
	fsb_exec(argv, ver, sizeof(ver), 30);
	ver[strcspn(ver, "\n")] = 0;

	/* a variant's arguments after the user's (run/fs/variant.h) */
	if (fsb_mkfs_argv(&a, path, f->fs, f->zplan, f->zoned, cfg->mkfs_opts[f->fsi],
			  f->col ? f->col->mkfs : "", f->dev) < 0) {
		fail(f, "%s: too many mkfs arguments (mkfs_opts.%s and the variant's)", f->name, f->fs->name);
		return -1;
	}
	const char *argtext = a.text;
	fsb_say(f->c->say, "%s: %s", f->name, argtext);
	t0 = fsb_now();
	int r = fsb_exec(a.argv, out, sizeof(out), 1800);
	double secs = fsb_now() - t0;
	rec_obj(rec, K(mkfs));
	rec_str(rec, K(path), path);
	rec_str(rec, K(argv), argtext);
	rec_str(rec, K(version), ver);
	rec_dbl(rec, K(seconds), secs);
	rec_close(rec);
	if (r != 0) {
		char *last = out + strlen(out);
		while (last > out && (last[-1] == '\n' || last[-1] == ' '))
			*--last = 0;
		char *nl = strrchr(out, '\n');
		fail(f, "%s failed (%s%d): %s", argtext, r < 0 ? "errno " : "status ",
		     r < 0 ? -r : r, nl ? nl + 1 : out);
		fsb_error_rec(f->c, f->name, 0, NULL, "mkfs", f->dev, r < 0 ? -r : 0, 1, f->reason);
		return -1;
	}
	return 0;
}

static void emit_phase(struct fsrun *f, const struct fsb_phase_def *ph, uint32_t round,
		       struct fsb_workers *w, const struct fsb_phase_result *res, int cold)
{
	struct fsb_ctx *c = f->c;
	const struct fsb_config *cfg = &c->cfg;
	struct fsb_rec r;
	char file[32];
	uint64_t shown = 0, total_err = 0;

	/* error details first, so the phase record closes the phase */
	for (uint32_t i = 0; i < cfg->workers; i++) {
		struct fsb_wstate *s = fsb_worker_state(w, i);
		total_err += s->errors + s->verify_errors;
		for (uint32_t k = 0; k < s->nerr; k++) {
			const struct fsb_werr *e = &s->err[k];
			char dn[12], fn[12];
			fsb_dir_name(e->dir, dn);
			if (e->idx == UINT32_MAX)
				snprintf(file, sizeof(file), "%s", dn);
			else {
				fsb_file_name(e->idx, fn);
				snprintf(file, sizeof(file), "%s/%s", dn, fn);
			}
			if (e->verify) {
				fsb_rec_phase(c, &r, FSB_REC_verify_error, f->name, round, ph->name);
				rec_str(&r, K(file), file);
				rec_str(&r, K(what), e->op);
				rec_u64(&r, K(offset), e->off);
				rec_u64(&r, K(count), e->count);
				fsb_emit(c, &r);
			} else {
				char msg[256];
				if (!strcmp(e->op, "missing"))
					snprintf(msg, sizeof(msg), "%" PRIu64 " files missing", e->count);
				else if (!strcmp(e->op, "unexpected"))
					snprintf(msg, sizeof(msg), "unexpected entry in directory");
				else
					snprintf(msg, sizeof(msg), "%s", strerror(e->err));
				fsb_error_rec(c, f->name, (int)round, ph->name, e->op, file,
					      e->err, e->fatal, msg);
			}
			shown++;
		}
	}
	if (total_err > shown)
		fsb_note(c, "%s round %u %s: %" PRIu64 " more errors not listed", f->name, round,
			 ph->name, total_err - shown);

	fsb_rec_phase(c, &r, FSB_REC_phase, f->name, round, ph->name);
	/* create's order is the setting itself: name or shuffled */
	rec_str(&r, K(order), fsb_phase_order(ph, cfg->create_order));
	if (ph->walk == WALK_CREATE && cfg->create_lockstep)
		rec_bool(&r, K(lockstep), 1);
	if (ph->walk == WALK_CREATE && strcmp(cfg->create_cpu, "free")) {
		rec_str(&r, K(cpu_policy), cfg->create_cpu);
		rec_u64(&r, K(cpus_used), res->cpus_used);
	}
	rec_bool(&r, K(cold), cold);
	if (f->after_aging)
		rec_bool(&r, K(after_aging), 1);
	rec_dbl(&r, K(seconds), res->seconds);
	rec_u64(&r, K(files), res->files);
	rec_u64(&r, K(bytes), res->bytes);
	rec_dbl(&r, K(files_per_s), res->seconds > 0 ? (double)res->files / res->seconds : 0);
	rec_dbl(&r, K(mib_per_s), res->seconds > 0 ? (double)res->bytes / res->seconds / 1048576.0 : 0);
	rec_obj(&r, K(lat_ns));
	rec_u64(&r, K(p50), fsb_hist_pct(&res->hist, 50));
	rec_u64(&r, K(p90), fsb_hist_pct(&res->hist, 90));
	rec_u64(&r, K(p99), fsb_hist_pct(&res->hist, 99));
	rec_u64(&r, K(p999), fsb_hist_pct(&res->hist, 99.9));
	rec_u64(&r, K(max), res->hist.count ? res->hist.max : 0);
	rec_u64(&r, K(mean), res->hist.count ? res->hist.sum / res->hist.count : 0);
	rec_u64(&r, K(ops), res->hist.count);
	rec_close(&r);
	rec_u64(&r, K(errors), res->errors);
	rec_u64(&r, K(verify_errors), res->verify_errors);
	rec_bool(&r, K(verified), cfg->verify && (ph->flags & FSB_PH_VERIFY));
	rec_u64(&r, K(workers), cfg->workers);
	rec_arr(&r, K(worker_seconds));
	for (uint32_t i = 0; i < cfg->workers; i++) {
		struct fsb_wstate *s = fsb_worker_state(w, i);
		rec_arr_dbl(&r, s->end_ns > s->start_ns ? (double)(s->end_ns - s->start_ns) / 1e9 : 0);
	}
	rec_close(&r);
	if (ph->flags & FSB_PH_SYNC)
		rec_dbl(&r, K(sync_seconds), res->sync_seconds);
	rec_dbl(&r, K(span_seconds), res->span_seconds);
	/* the order the phase really went: worker 0's first files of d0000 */
	const struct fsb_wstate *s0 = fsb_worker_state(w, 0);
	if (s0->ntrace) {
		char dn[12];
		fsb_dir_name(0, dn);
		rec_obj(&r, K(walk));
		rec_str(&r, K(dir), dn);
		rec_arr(&r, K(index));
		for (uint32_t k = 0; k < s0->ntrace; k++)
			rec_arr_u64(&r, s0->trace_idx[k]);
		rec_close(&r);
		if (ph->walk != WALK_CREATE) {
			rec_arr(&r, K(inode));
			for (uint32_t k = 0; k < s0->ntrace; k++)
				rec_arr_u64(&r, s0->trace_ino[k]);
			rec_close(&r);
		}
		rec_close(&r);
	}
	if (f->have_mnt_id) {
		rec_u64(&r, K(mnt_id), f->mnt_id);
		rec_bool(&r, K(mnt_id_unique), f->mnt_id_unique);
	}
	if (res->timed_out)
		rec_bool(&r, K(timed_out), 1);
	fsb_emit(c, &r);
	fsb_lava_phase(c, f->name, round, ph->name, res->seconds,
		       res->errors || res->verify_errors || res->timed_out);
	if (res->verify_errors)
		c->failed = 1;
}

/* Self-test of verification: flip one byte of a file through the filesystem
 * (or of its copy in the phase's store). */
static void inject_fault(struct fsrun *f, const struct fsb_phase_def *ph, uint32_t round)
{
	char path[FSB_PATH_MAX + 128], rel[64];
	unsigned long long off = 0;
	unsigned char b;
	int fd;

	if (sscanf(f->c->cfg.fault, "%63[^:]:%llu", rel, &off) != 2) {
		fail(f, "fault=%s: expected DIR/FILE:OFFSET", f->c->cfg.fault);
		return;
	}
	const struct fsb_store *st = fsb_store_of(ph);
	if (st) {
		char why[FSB_PATH_MAX + 160];
		if (st->fault(f->mnt, rel, off, why, sizeof(why)) < 0)
			fail(f, "fault in %s: %s", st->name, why);
		else
			fsb_note(f->c, "%s round %u: fault injected: one bit flipped in %s at offset %llu"
				 " in %s", f->name, round, rel, off, st->file);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", f->mnt, rel);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || pread(fd, &b, 1, (off_t)off) != 1) {
		fail(f, "fault %s: %s", path, fd < 0 ? strerror(errno) : "offset past the end");
		if (fd >= 0)
			close(fd);
		return;
	}
	b ^= 0x01;
	if (pwrite(fd, &b, 1, (off_t)off) != 1 || fsync(fd) < 0)
		fail(f, "fault %s: %s", path, strerror(errno));
	close(fd);
	fsb_note(f->c, "%s round %u: fault injected: one bit flipped in %s at offset %llu", f->name,
		 round, rel, off);
}

/* The evidence on fragmentation after a round's reads (untimed): the
 * filesystem's size and free space (statfs), then its own parts (the
 * table's hook, run/evidence/freespace.c). Only on a device: a directory (--dir)
 * has no filesystem row of its own. */
static void freespace_record(struct fsrun *f, uint32_t round)
{
	struct statfs sf;
	struct fsb_rec r;
	double t0 = fsb_now();

	if (!f->fs || !f->fs->freespace)
		return;
	fsb_rec_start(f->c, &r, FSB_REC_freespace);
	rec_str(&r, K(fs), f->name);
	rec_u64(&r, K(round), round);
	if (statfs(f->mnt, &sf) == 0) {
		rec_obj(&r, K(statfs));
		rec_u64(&r, K(block_size), (uint64_t)sf.f_bsize);
		rec_u64(&r, K(size_bytes), (uint64_t)sf.f_blocks * (uint64_t)sf.f_bsize);
		rec_u64(&r, K(free_bytes), (uint64_t)sf.f_bfree * (uint64_t)sf.f_bsize);
		rec_u64(&r, K(avail_bytes), (uint64_t)sf.f_bavail * (uint64_t)sf.f_bsize);
		rec_close(&r);
	}
	f->fs->freespace(&r, f->mnt, f->dev);
	rec_dbl(&r, K(seconds), fsb_now() - t0);
	fsb_emit(f->c, &r);
}

/* Workers that died before finishing, each with what ended it (a worker
 * that stopped on an error has its own error record with the errno). */
static void worker_deaths(struct fsrun *f, const struct fsb_phase_def *ph, uint32_t round,
			  struct fsb_workers *w)
{
	for (uint32_t i = 0; i < f->c->cfg.workers; i++) {
		const struct fsb_wstate *s = fsb_worker_state(w, i);
		struct fsb_rec r;
		char dn[12], msg[160];

		if (s->ended || s->fatal)
			continue;
		fsb_dir_name(i, dn);
		if (s->signal)
			snprintf(msg, sizeof(msg), "worker %u (%s) killed by signal %d (%s)", i, dn,
				 s->signal, strsignal(s->signal));
		else
			snprintf(msg, sizeof(msg), "worker %u (%s) exited with status %d before it finished",
				 i, dn, s->exit_status);
		fail(f, "round %u %s: %s", round, ph->name, msg);
		fsb_rec_phase(f->c, &r, FSB_REC_error, f->name, round, ph->name);
		rec_str(&r, K(op), "worker");
		rec_str(&r, K(file), dn);
		rec_i64(&r, K(errno), 0);
		rec_str(&r, K(msg), msg);
		rec_bool(&r, K(fatal), 1);
		rec_u64(&r, K(worker), i);
		if (s->signal)
			rec_u64(&r, K(signal), (uint64_t)s->signal);
		else
			rec_u64(&r, K(exit_status), (uint64_t)s->exit_status);
		fsb_emit(f->c, &r);
	}
}

/* Rounds x phases on a mounted filesystem (or a directory). */
static void run_rounds(struct fsrun *f, struct fsb_workers *w, const struct fsb_pattern *pat)
{
	struct fsb_ctx *c = f->c;
	const struct fsb_config *cfg = &c->cfg;
	int remount = f->dev != NULL;	/* a directory (--dir) is never remounted */
	struct fsb_space sp = { 0 };	/* a phase's space record, pending (run/stores/pack.h) */

	for (uint32_t round = f->round0 + 1; round <= f->round0 + cfg->rounds && !f->failed; round++) {
		for (size_t i = 0; i < fsb_phase_count && !f->failed; i++) {
			const struct fsb_phase_def *ph = &fsb_phases[i];
			struct fsb_phase_args a;
			struct fsb_phase_result res;
			struct fsb_rec r;
			char label[128];
			int fd, cold = remount && (ph->flags & FSB_PH_COLD);

			if (ph->wanted && !ph->wanted(cfg, round))
				continue;
			if (ph->flags & FSB_PH_SELF) {	/* fstrim: on a device only */
				int e = remount ? fsb_fstrim_phase(c, f->name, f->mnt, round, f->after_aging) : 0;
				if (e < 0)
					fail(f, "round %u %s: %s", round, ph->name, strerror(-e));
				continue;
			}

			/* cold cache: unmount and mount the filesystem under test
			 * (the first phase follows the mount after mkfs) */
			if (cold && !(round == 1 && i == 0)) {
				if (do_umount(f) < 0 || do_mount(f) < 0)
					break;
			}
			fd = open(f->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0) {
				int e = errno;
				fail(f, "open %s: %s", f->mnt, strerror(e));
				fsb_error_rec(c, f->name, (int)round, ph->name, "open", f->mnt, e, 1, NULL);
				break;
			}
			/* what the previous phase left on disk, after this one's mount */
			fsb_space_flush(c, &sp, f->name, fd);
			f->have_mnt_id = fsb_mnt_id(fd, &f->mnt_id, &f->mnt_id_unique) == 0;
			/* kernel messages so far are between phases; the phase's
			 * own are read once it has ended */
			fsb_kmsg_drain(c);
			fsb_kmsg_mark(c, f->name, round, ph->name);
			fsb_rec_phase(c, &r, FSB_REC_phase_start, f->name, round, ph->name);
			fsb_emit(c, &r);

			if (c->rep)
				snprintf(label, sizeof(label), "%s rep %u round %u/%u", f->name, c->rep, round,
					 cfg->rounds);
			else
				snprintf(label, sizeof(label), "%s round %u/%u", f->name, round, cfg->rounds);
			memset(&a, 0, sizeof(a));
			a.phase = ph;
			a.base_fd = fd;
			a.dirs = cfg->dirs;
			a.files = cfg->files;
			a.workers = cfg->workers;
			a.round = round;
			a.file_size = cfg->file_size;
			a.verify = cfg->verify;
			a.timeout = cfg->phase_timeout;
			a.progress = cfg->progress;
			a.say = c->say;
			a.shuffled = strcmp(cfg->create_order, "shuffled") == 0;
			a.lockstep = cfg->create_lockstep;
			a.cpu = (enum fsb_cpu_policy)fsb_cpu_policy(cfg->create_cpu);
			a.label = label;
			a.pat = pat;
			fsb_space_start(&sp, cfg, ph, round, fd);
			int e = fsb_phase_run(w, &a, &res);
			fsb_space_done(&sp, &res, cfg->file_size);
			fsb_kmsg_mark(c, f->name, round, NULL);
			fsb_kmsg_drain(c);	/* before the phase record, which closes the phase */
			close(fd);
			if (e < 0) {
				fail(f, "%s: cannot start workers: %s", ph->name, strerror(-e));
				fsb_error_rec(c, f->name, (int)round, ph->name, "fork", NULL, -e, 1, NULL);
				break;
			}
			emit_phase(f, ph, round, w, &res, cold);
			if (f->reps && round <= cfg->rounds)
				fsb_reps_add(f->reps, round, i, res.seconds);
			if ((ph->flags & FSB_PH_FAULT) && cfg->fault[0] && !res.fatal && !res.timed_out)
				inject_fault(f, ph, round);
			if ((ph->flags & FSB_PH_LAYOUT) && cfg->layout && !res.fatal && !res.timed_out)
				fsb_layout_record(c, f->name, f->mnt, cfg->files, round);
			if ((ph->flags & FSB_PH_LAYOUT) && cfg->freespace && !res.fatal && !res.timed_out)
				freespace_record(f, round);
			if (cfg->progress)
				fsb_say(c->say, "%s %s: %.3f s, %.0f files/s%s", label, ph->name,
					res.seconds, res.seconds > 0 ? (double)res.files / res.seconds : 0.0,
					res.errors + res.verify_errors ? " (errors)" : "");
			if (res.timed_out) {
				fail(f, "round %u %s: timed out after %u s (phase_timeout)", round,
				     ph->name, cfg->phase_timeout);
				fsb_error_rec(c, f->name, (int)round, ph->name, "timeout", NULL,
					      ETIMEDOUT, 1, f->reason);
			} else if (res.fatal) {
				fail(f, "round %u %s: %s", round, ph->name, strerror(res.fatal));
			} else if (res.crashed) {
				worker_deaths(f, ph, round, w);
				if (!f->failed) {	/* not one of them: say so all the same */
					fail(f, "round %u %s: a worker process died", round, ph->name);
					fsb_error_rec(c, f->name, (int)round, ph->name, "worker", NULL, 0, 1,
						      f->reason);
				}
			} else if (res.errors) {
				fail(f, "round %u %s: %" PRIu64 " errors", round, ph->name, res.errors);
			}
		}
	}
	if (sp.on && !f->failed) {	/* the last phase's */
		int fd = open(f->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		fsb_space_flush(c, &sp, f->name, fd);
		if (fd >= 0)
			close(fd);
	}
}

static void fs_end(struct fsrun *f, const char *status)
{
	struct fsb_rec r;

	fsb_kmsg_drain(f->c);
	fsb_rec_start(f->c, &r, FSB_REC_fs_end);
	rec_str(&r, K(fs), f->name);
	rec_str(&r, K(status), status);
	rec_str(&r, K(reason), f->reason);
	fsb_emit(f->c, &r);
	fsb_kmsg_mark(f->c, NULL, 0, NULL);
	/* a repetition that failed before its rounds ended is the column's last */
	if (f->reps && !f->reps->stop && strcmp(status, "ok"))
		fsb_reps_end(f->c, f->reps, 1);
	if (!strcmp(status, "ok")) {
		if (!f->reps || f->reps->stop)	/* a column counts once */
			f->c->fs_ok++;
	} else if (!strcmp(status, "refused")) {	/* the target cannot hold it: no failure */
		f->c->fs_refused++;
		fsb_say(f->c->say, "%s: refused: %s", f->name, f->reason);
	} else {
		f->c->fs_failed++;
		f->c->failed = 1;
		fsb_say(f->c->say, "%s: %s", f->name, f->reason);
	}
}

/* The end of a repetition's rounds: another one, or the fio workloads,
 * fill and sustained write after the column's last. */
static int rounds_end(struct fsrun *f)
{
	if (!f->reps)
		return 1;
	fsb_reps_end(f->c, f->reps, f->failed);
	return f->reps->stop;
}

/* A fresh filesystem for the fio workloads or fill: umount, mkfs, mount;
 * made as the column's zoned plan says (f->zplan), so that every workload
 * on a fresh filesystem (struct fsb_fresh: fio, fill, the sustained write,
 * the file-server workload) runs on a zoned target as the rounds do. */
static int remake(void *arg, const char *for_what, char *why, size_t len)
{
	struct fsrun *f = arg;
	struct fsb_rec r;

	fsb_rec_start(f->c, &r, FSB_REC_mkfs);
	rec_str(&r, K(fs), f->name);
	rec_str(&r, K(for), for_what);
	if ((f->mounted && do_umount(f) < 0) || make_fs(f, &r) < 0 || do_mount(f) < 0) {
		snprintf(why, len, "%s", f->reason);
		return -1;
	}
	fsb_emit(f->c, &r);
	return 0;
}

/* The fio workloads, the fill test, the sustained write and the file
 * server (run/stores/fio.h, fill.h, sustain.h, run/engine/fileserver.h)
 * after the rounds, each on a fresh filesystem. */
static void fio_fill(struct fsrun *f)
{
	struct fsb_fresh fr = { .fs = f->name, .mnt = f->mnt, .fresh = !f->c->cfg.smallfile,
				.remake = f->dev ? remake : NULL, .arg = f };
	char why[512];

	if (fsb_fio_fs(f->c, &fr, why, sizeof(why)) < 0)
		fail(f, "%s", why);
	if ((f->mounted || !f->dev) && fsb_fill_fs(f->c, &fr, why, sizeof(why)) < 0)
		fail(f, "%s", why);
	if ((f->mounted || !f->dev) && fsb_sustain_fs(f->c, &fr, f->disk, why, sizeof(why)) < 0)
		fail(f, "%s", why);
	if ((f->mounted || !f->dev) && fsb_fileserver_fs(f->c, &fr, why, sizeof(why)) < 0)
		fail(f, "%s", why);
}

/* The mount of fs_start as the kernel reports it. */
static void mountinfo_json(struct fsrun *f, struct fsb_rec *r)
{
	struct fsb_mountinfo mi;
	int e = fsb_mountinfo(f->mnt, &mi);

	rec_obj(r, K(mountinfo));
	if (e < 0) {
		rec_str(r, K(error), strerror(-e));
	} else {
		rec_str(r, K(type), mi.type);
		rec_str(r, K(source), mi.source);
		rec_str(r, K(opts), mi.opts);
		rec_str(r, K(super_opts), mi.super_opts);
	}
	rec_close(r);
}

static void run_device_fs(struct fsb_ctx *c, const struct fsb_disk *t, const struct fsb_column *col,
			  struct fsb_workers *w, const struct fsb_pattern *pat, struct fsb_reps *reps)
{
	int fsi = col->fsi;
	struct fsrun f = { .c = c, .fs = &fsb_fs_table[fsi], .fsi = fsi, .col = col, .name = col->name,
			   .dev = t->path, .disk = t, .reps = reps };
	struct fsb_rec r;
	char support[64], mopts[512];

	snprintf(f.mnt, sizeof(f.mnt), "%s", c->cfg.mnt);
	fsb_kmsg_mark(c, f.name, 0, NULL);
	/* mount_opts.FS, then a variant's options: the later wins */
	snprintf(mopts, sizeof(mopts), "%s%s%s", c->cfg.mount_opts[fsi],
		 c->cfg.mount_opts[fsi][0] && col->mount[0] ? "," : "", col->mount);
	if (fsb_mount_opts(mopts, &f.mflags, f.mdata, sizeof(f.mdata)) < 0) {
		fail(&f, "mount_opts.%s%s%s: too long", f.fs->name, col->is_variant ? " with variant " : "",
		     col->is_variant ? col->name : "");
		fs_end(&f, "failed");
		return;
	}
	/* a zoned target: made in the filesystem's zoned mode, or refused */
	f.zplan = fsb_fs_zoned_plan(f.fs, &t->zoned, t->path, c->zoned_conv_dev, f.reason, sizeof(f.reason));
	if (f.zplan == FSB_ZPLAN_REFUSED) {
		fs_end(&f, "refused");
		return;
	}
	if (f.zplan == FSB_ZPLAN_CONV) {
		f.dev = c->zoned_conv_dev;
		f.zoned = t->path;
	}
	if (ensure_support(&f, support, sizeof(support)) < 0) {
		fs_end(&f, "skipped");
		return;
	}
	fsb_rec_start(c, &r, FSB_REC_fs_start);
	rec_str(&r, K(fs), f.name);
	rec_str(&r, K(device), f.dev);
	if (fsb_zplan_text(f.zplan))
		rec_str(&r, K(zoned_mode), fsb_zplan_text(f.zplan));
	if (f.zoned)
		rec_str(&r, K(zoned_device), f.zoned);
	rec_str(&r, K(support), support);
	rec_str(&r, K(mount_opts), mopts);
	rec_str(&r, K(mnt), f.mnt);
	if (col->is_variant) {
		rec_obj(&r, K(variant));
		rec_str(&r, K(name), col->name);
		rec_str(&r, K(base), f.fs->name);
		rec_str(&r, K(mkfs), col->mkfs);
		rec_str(&r, K(mount), col->mount);
		if (col->sysfs[0])
			rec_str(&r, K(sysfs), col->sysfs);
		rec_str(&r, K(source), col->source);
		if (col->unsafe)
			rec_str(&r, K(unsafe), col->unsafe);
		rec_close(&r);
	}
	if (make_fs(&f, &r) < 0) {
		char p[FSB_PATH_MAX];
		fs_end(&f, fsb_which(f.fs->mkfs, p, sizeof(p)) < 0 ? "skipped" : "failed");
		return;
	}
	/* the first mount before fs_start is written, so that it holds the
	 * options the kernel applied */
	int me = mount_try(&f);
	if (me == 0)
		mountinfo_json(&f, &r);
	if (f.cl.argv[0])
		rec_str(&r, K(cleaner), f.cl.pid ? f.cl.argv : "not running");
	fsb_emit(c, &r);
	if (me < 0)
		mount_failed(&f, -me);
	else if (c->cfg.smallfile)
		run_rounds(&f, w, pat);
	if (f.mounted && !f.failed && rounds_end(&f)) {
		fio_fill(&f);
		/* fresh against fragmented: the rounds again on the filesystem
		 * the file server's aging left (run/engine/fileserver.h) */
		if (f.mounted && !f.failed && c->cfg.smallfile && c->cfg.fileserver_aged) {
			f.round0 = c->cfg.rounds;
			f.after_aging = 1;
			run_rounds(&f, w, pat);
		}
	}
	if (f.mounted && do_umount(&f) < 0)
		umount2(f.mnt, MNT_DETACH);
	fs_end(&f, f.failed ? "failed" : "ok");
	if (reps && reps->stop)
		fsb_reps_record(c, reps, f.name);
}

static void run_dir(struct fsb_ctx *c, struct fsb_workers *w, const struct fsb_pattern *pat,
		    struct fsb_reps *reps)
{
	struct fsrun f = { .c = c, .fsi = -1, .reps = reps };
	struct statfs sf;
	struct fsb_rec r;
	char id[24];

	snprintf(id, sizeof(id), "%016" PRIx64, c->run_id);
	snprintf(f.mnt, sizeof(f.mnt), "%s/fsbench-%s", c->cfg.dir, id);
	f.name = (statfs(c->cfg.dir, &sf) == 0 && fsb_fs_name_of_magic((unsigned long)sf.f_type))
		 ? fsb_fs_name_of_magic((unsigned long)sf.f_type) : "dir";
	fsb_kmsg_mark(c, f.name, 0, NULL);
	if (mkdir(f.mnt, 0755) < 0) {
		int e = errno;
		fail(&f, "mkdir %s: %s", f.mnt, strerror(e));
		fsb_error_rec(c, f.name, 0, NULL, "mkdir", f.mnt, e, 1, NULL);
		fs_end(&f, "failed");
		return;
	}
	fsb_rec_start(c, &r, FSB_REC_fs_start);
	rec_str(&r, K(fs), f.name);
	rec_str(&r, K(dir), f.mnt);
	rec_str(&r, K(support), "existing directory: no mkfs, no remount, warm cache");
	fsb_emit(c, &r);
	if (c->cfg.smallfile)
		run_rounds(&f, w, pat);
	if (!f.failed && rounds_end(&f))
		fio_fill(&f);
	int fd = open(f.mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsb_rm_tree(fd, 0);
		close(fd);
	}
	rmdir(f.mnt);
	fs_end(&f, f.failed ? "failed" : "ok");
	if (reps && reps->stop)
		fsb_reps_record(c, reps, f.name);
}

/* The columns of `fs` in order, each once; with repetitions (setting
 * repeat) each repetition of every column in turn, A B A B, not A A B B,
 * so that a drift of the machine or the disk is shared; a column whose
 * repetitions are over (enough, converged, failed) drops out. */
static void run_columns(struct fsb_ctx *c, const struct fsb_disk *target, struct fsb_workers *w,
			const struct fsb_pattern *pat)
{
	struct fsb_column col[FSB_MAX_COLUMNS];	/* about 20 KiB */
	struct fsb_reps reps[FSB_MAX_COLUMNS];
	char list[sizeof(c->cfg.fs)], *save = NULL;
	size_t n = 0;
	int on = fsb_repeat_on(&c->cfg);

	if (target) {
		snprintf(list, sizeof(list), "%s", c->cfg.fs);
		for (char *tok = strtok_r(list, ",", &save); tok && n < FSB_MAX_COLUMNS; tok = strtok_r(NULL, ",", &save))
			if (fsb_config_column(&c->cfg, tok, &col[n]) == 0)	/* checked by the config */
				n++;
	} else {
		n = 1;	/* the directory */
	}
	for (size_t i = 0; on && i < n; i++) {
		if (fsb_reps_init(&reps[i], &c->cfg, fsb_phase_count) < 0) {
			fsb_error_rec(c, NULL, 0, NULL, "alloc", NULL, ENOMEM, 1, "cannot allocate the repetitions' samples");
			c->failed = 1;
			while (i-- > 0)
				fsb_reps_free(&reps[i]);
			return;
		}
	}
	for (uint32_t rep = 1, more = 1; more; rep++) {
		more = 0;
		for (size_t i = 0; i < n; i++) {
			if (on && reps[i].stop)
				continue;
			c->rep = on ? rep : 0;
			if (target)
				run_device_fs(c, target, &col[i], w, pat, on ? &reps[i] : NULL);
			else
				run_dir(c, w, pat, on ? &reps[i] : NULL);
			fsb_control_run(c, target ? col[i].name : "dir", FSB_CONTROL_BETWEEN, target ? target->disk : NULL);
			more |= on && !reps[i].stop;
		}
	}
	c->rep = 0;
	for (size_t i = 0; on && i < n; i++)
		fsb_reps_free(&reps[i]);
}

void fsb_suite_run(struct fsb_ctx *c, const struct fsb_disk *target)
{
	struct fsb_workers *w = fsb_workers_new(c->cfg.workers);
	struct fsb_pattern *pat = malloc(sizeof(*pat));

	if (!w || !pat) {
		fsb_error_rec(c, NULL, 0, NULL, "alloc", NULL, ENOMEM, 1, "cannot allocate worker state");
		c->failed = 1;
		fsb_workers_free(w);
		free(pat);
		return;
	}
	fsb_pattern_init(pat);
	fsb_control_run(c, NULL, FSB_CONTROL_SAMPLES, target ? target->disk : NULL);
	if (!target) {
		run_columns(c, NULL, w, pat);
	} else {
		int e = fsb_mkdir_p(c->cfg.mnt);
		if (e < 0 || fsb_mnt_in_use(c->cfg.mnt)) {
			char msg[FSB_PATH_MAX + 64];
			snprintf(msg, sizeof(msg), "mount point %s: %s", c->cfg.mnt,
				 e < 0 ? strerror(-e) : "something is already mounted there");
			fsb_say(c->say, "%s", msg);
			fsb_error_rec(c, NULL, 0, NULL, "mnt", c->cfg.mnt, e < 0 ? -e : EBUSY, 1, msg);
			c->failed = 1;
		} else {
			run_columns(c, target, w, pat);
			if (c->cfg.fstrim)
				fsb_zero_check(c, target);
			if (fsb_fio_raw(c, target) < 0)
				c->failed = 1;
			if (fsb_sustain_raw(c, target) < 0)
				c->failed = 1;
		}
	}
	fsb_workers_free(w);
	free(pat);
}

/* powercut.c: the power-cut campaign (run/engine/powercut.h): a cycle's
 * arm (mkfs, mount, the workload, its acknowledgements in the log, the
 * wait for the cut) and, on the boot after the cut, its check (the
 * filesystem's checker, the mount, every slot against the log). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/exec.h"
#include "lib/io.h"
#include "lib/time.h"
#include "log/logfile.h"
#include "run/engine/lava.h"
#include "run/engine/pccheck.h"
#include "run/engine/powercut.h"
#include "run/evidence/health.h"
#include "run/fs/cleaner.h"
#include "run/fs/fs.h"
#include "run/fs/mount.h"
#include "run/settings.h"
#include "run/stores/durable.h"
#include "run/target/target.h"

#define ARM_BLOCKS 16	/* log blocks a cycle takes besides its batches */

/* One filesystem column of the campaign. */
struct pcfs {
	struct fsb_ctx *c;
	const struct fsb_disk *t;
	struct fsb_column col;
	const struct fsb_fs *fs;
	unsigned pos;		/* its place in `fs`, from 0 */
	unsigned long mflags;
	char mdata[256];
	char why[512];
	struct fsb_cleaner cl;	/* the filesystem's cleaner in the window (nilfs2) */
};

/* The workers' shared page: what each has done and what the log holds. */
struct shared {
	volatile uint64_t done[FSB_PC_MAX_WORKERS];	/* ops whose fsyncs returned */
	volatile uint64_t logged[FSB_PC_MAX_WORKERS];	/* ops a batch in the log names */
	volatile int err[FSB_PC_MAX_WORKERS];		/* errno that stopped a worker */
	volatile int stop;
};

static void say_line(struct fsb_ctx *c, const char *line)
{
	fsb_write_all(c->out_fd, line, strlen(line));
}

static void disk_counters(struct fsb_rec *r, const char *key, const struct fsb_disk *t)
{
	static struct fsb_health h;

	fsb_health_read(t, &h);
	if (!h.have_smart)
		return;
	rec_obj(r, key);
	rec_u64(r, K(unsafe_shutdowns), h.smart.counter[FSB_SMART_UNSAFE_SHUTDOWNS].lo);
	rec_u64(r, K(power_cycles), h.smart.counter[FSB_SMART_POWER_CYCLES].lo);
	rec_close(r);
}

/* mount(2), loading the filesystem's modules once when the kernel lacks it. */
static int pc_mount(struct pcfs *p)
{
	int e = fsb_mount(p->t->path, p->c->cfg.mnt, p->fs->mount_type, p->mflags, p->mdata);

	if (e == -ENODEV) {
		char modprobe[FSB_PATH_MAX];
		if (fsb_which("modprobe", modprobe, sizeof(modprobe)) == 0)
			for (const char *const *m = p->fs->modules; *m; m++) {
				char *argv[] = { modprobe, (char *)*m, NULL };
				fsb_exec(argv, NULL, 0, 60);
			}
		e = fsb_mount(p->t->path, p->c->cfg.mnt, p->fs->mount_type, p->mflags, p->mdata);
	}
	return e;
}

/* The filesystem made fresh: the mkfs record. */
static int pc_mkfs(struct pcfs *p, unsigned cycle)
{
	const struct fsb_config *cfg = &p->c->cfg;
	char path[FSB_PATH_MAX], opts[256], vopts[256], argtext[1024] = "", out[4096] = "", forw[48];
	char *argv[64], *save = NULL;
	struct fsb_rec r;
	int n = 0;

	if (fsb_which(p->fs->mkfs, path, sizeof(path)) < 0) {
		snprintf(p->why, sizeof(p->why), "%s not found in %s", p->fs->mkfs, FSB_TOOL_PATH);
		return -1;
	}
	argv[n++] = path;
	for (const char *const *a = p->fs->mkfs_args; *a; a++)
		argv[n++] = (char *)*a;
	snprintf(opts, sizeof(opts), "%s", cfg->mkfs_opts[p->col.fsi]);
	for (char *tok = strtok_r(opts, " \t", &save); tok && n < 60; tok = strtok_r(NULL, " \t", &save))
		argv[n++] = tok;
	snprintf(vopts, sizeof(vopts), "%s", p->col.mkfs);
	for (char *tok = strtok_r(vopts, " \t", &save); tok && n < 60; tok = strtok_r(NULL, " \t", &save))
		argv[n++] = tok;
	argv[n++] = (char *)p->t->path;
	argv[n] = NULL;
	for (int i = 0; i < n; i++) {
		size_t o = strlen(argtext);
		snprintf(argtext + o, sizeof(argtext) - o, "%s%s", i ? " " : "", argv[i]);
	}
	double t0 = fsb_now();
	int st = fsb_exec(argv, out, sizeof(out), 1800);
	snprintf(forw, sizeof(forw), "powercut cycle %u", cycle);
	fsb_rec_start(p->c, &r, FSB_REC_mkfs);
	rec_str(&r, K(fs), p->col.name);
	rec_str(&r, K(for), forw);
	rec_obj(&r, K(mkfs));
	rec_str(&r, K(path), path);
	rec_str(&r, K(argv), argtext);
	rec_str(&r, K(version), "");
	rec_dbl(&r, K(seconds), fsb_now() - t0);
	rec_close(&r);
	fsb_emit(p->c, &r);
	if (st != 0) {
		out[strcspn(out, "\n")] = 0;
		snprintf(p->why, sizeof(p->why), "%.150s failed (status %d): %.300s", argtext, st, out);
		return -1;
	}
	return 0;
}

/* The workload's folders, made durable before the first operation. */
static int pc_dirs(struct pcfs *p, unsigned workers)
{
	char path[FSB_PATH_MAX + 64];
	int e = 0;

	snprintf(path, sizeof(path), "%s/" FSB_DUR_DIR, p->c->cfg.mnt);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	for (unsigned w = 0; w < workers && !e; w++) {
		char d[FSB_PATH_MAX + 80];
		snprintf(d, sizeof(d), "%s/w%02u", path, w);
		if (mkdir(d, 0755) < 0 && errno != EEXIST)
			e = -errno;
	}
	/* the workload's folder, then the mount point that holds its name */
	const char *dirs[] = { path, p->c->cfg.mnt };
	for (int i = 0; i < 2; i++) {
		int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) < 0)
			e = e ? e : -errno;
		if (fd >= 0)
			close(fd);
	}
	return e;
}

/* A worker process: its ops one after the other, never more than
 * FSB_DUR_LEAD past what the log holds. */
static void worker(struct shared *sh, const char *mnt, uint64_t seed, unsigned w, unsigned files)
{
	char d[FSB_PATH_MAX + 64];
	struct fsb_dur_seq s;
	struct fsb_dur_op op;
	unsigned char *buf = malloc(FSB_DUR_BUF);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(d, sizeof(d), "%s/" FSB_DUR_DIR "/w%02u", mnt, w);
	int dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!buf || dfd < 0 || fsb_dur_seq_init(&s, seed, w, files) < 0) {
		sh->err[w] = dfd < 0 ? errno : ENOMEM;
		_exit(1);
	}
	while (!sh->stop) {
		if (s.next >= __atomic_load_n(&sh->logged[w], __ATOMIC_ACQUIRE) + FSB_DUR_LEAD) {
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);
			continue;
		}
		fsb_dur_next(&s, &op);
		int e = fsb_dur_do(dfd, &s, &op, buf);
		if (e < 0) {
			sh->err[w] = -e;
			_exit(1);
		}
		__atomic_store_n(&sh->done[w], s.next, __ATOMIC_RELEASE);
	}
	_exit(0);
}

/* A batch: the ops done so far, in the log before they count. */
static void batch(struct pcfs *p, unsigned cycle, struct shared *sh, unsigned workers, double t0,
		  int final)
{
	uint64_t snap[FSB_PC_MAX_WORKERS];
	int changed = final;
	struct fsb_rec r;

	for (unsigned w = 0; w < workers; w++) {
		snap[w] = __atomic_load_n(&sh->done[w], __ATOMIC_ACQUIRE);
		changed |= snap[w] != sh->logged[w];
	}
	if (!changed)
		return;
	fsb_rec_start(p->c, &r, FSB_REC_powercut_ack);
	rec_str(&r, K(fs), p->col.name);
	rec_u64(&r, K(cycle), cycle);
	rec_dbl(&r, K(at), fsb_now() - t0);
	rec_arr(&r, K(ops));
	for (unsigned w = 0; w < workers; w++)
		rec_arr_u64(&r, snap[w]);
	rec_close(&r);
	if (final)
		rec_bool(&r, K(final), 1);
	fsb_emit(p->c, &r);
	if (p->c->log_failed)
		return;	/* not in the log: nothing more counts */
	for (unsigned w = 0; w < workers; w++)
		__atomic_store_n(&sh->logged[w], snap[w], __ATOMIC_RELEASE);
}

/* Room in the log for a cycle: its batches (one block each) and the
 * records around them; a cycle the log cannot hold is not armed. */
static int log_room(struct pcfs *p)
{
	const struct fsb_config *cfg = &p->c->cfg;
	struct fsb_log_stats st;
	uint64_t need = ((uint64_t)cfg->powercut_window * 1000 / cfg->powercut_batch + 2 + ARM_BLOCKS) *
			FSB_LOG_BLOCK;

	if (!p->c->log)
		return 0;
	fsb_log_stat(p->c->log, &st);
	if (!st.capacity || (st.end_offset <= st.capacity && st.capacity - st.end_offset >= need))
		return 0;
	snprintf(p->why, sizeof(p->why), "the log has %" PRIu64 " KiB left, a cycle of powercut_window=%u "
		 "and powercut_batch=%u needs %" PRIu64 " KiB: a larger log, a shorter window or a longer batch",
		 st.end_offset < st.capacity ? (st.capacity - st.end_offset) / 1024 : 0,
		 cfg->powercut_window, cfg->powercut_batch, need / 1024);
	return -1;
}

/* A cycle: mkfs, mount, the arm record and line, the workload for the
 * window, then the wait for the cut. Returns only when it could not start. */
static void arm(struct pcfs *p, unsigned cycle, uint32_t seed)
{
	struct fsb_ctx *c = p->c;
	const struct fsb_config *cfg = &c->cfg;
	unsigned workers = cfg->powercut_workers, files = cfg->powercut_files;
	uint64_t cseed = fsb_dur_cycle_seed(seed, p->pos, cycle);
	pid_t pid[FSB_PC_MAX_WORKERS];
	char line[256], hex[24];
	struct fsb_rec r;
	int e;

	if (log_room(p) < 0 || pc_mkfs(p, cycle) < 0)
		return;
	if ((e = pc_mount(p)) < 0) {
		snprintf(p->why, sizeof(p->why), "mount %.100s (%s) on %.100s: %s", p->t->path,
			 p->col.name, cfg->mnt, strerror(-e));
		return;
	}
	if ((e = pc_dirs(p, workers)) < 0) {
		snprintf(p->why, sizeof(p->why), "mkdir %.100s/" FSB_DUR_DIR "/wNN: %s", cfg->mnt, strerror(-e));
		fsb_umount(cfg->mnt);
		return;
	}
	/* the cleaner as mount.nilfs2 would start it: the cut ends it too */
	if (!(p->mflags & MS_RDONLY) && (e = fsb_cleaner_start(p->fs, p->t->path, cfg->mnt, &p->cl, line, sizeof(line))) < 0)
		fsb_error_rec(c, p->col.name, 0, NULL, "cleaner", p->t->path, -e, 0, line);
	snprintf(hex, sizeof(hex), "%016" PRIx64, cseed);
	fsb_rec_start(c, &r, FSB_REC_powercut_arm);
	rec_str(&r, K(fs), p->col.name);
	rec_u64(&r, K(cycle), cycle);
	rec_u64(&r, K(cycles), cfg->powercut);
	rec_u64(&r, K(seed), seed);
	rec_str(&r, K(cycle_seed), hex);
	rec_u64(&r, K(window), cfg->powercut_window);
	rec_u64(&r, K(batch_ms), cfg->powercut_batch);
	rec_u64(&r, K(workers), workers);
	rec_u64(&r, K(files), files);
	rec_u64(&r, K(lead), FSB_DUR_LEAD);
	rec_str(&r, K(device), p->t->path);
	disk_counters(&r, K(before), p->t);
	fsb_emit(c, &r);

	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(p->why, sizeof(p->why), "mmap: %s", strerror(errno));
		return;
	}
	memset((void *)sh, 0, sizeof(*sh));
	snprintf(line, sizeof(line), FSB_PC_MARK " armed cycle=%u/%u fs=%s seed=%u window=%u\n", cycle,
		 cfg->powercut, p->col.name, seed, cfg->powercut_window);
	say_line(c, line);
	double t0 = fsb_now();
	for (unsigned w = 0; w < workers; w++) {
		pid[w] = fork();
		if (pid[w] == 0)
			worker(sh, cfg->mnt, cseed, w, files);
		if (pid[w] < 0) {
			sh->err[w] = errno;
			workers = w;
			break;
		}
	}
	uint64_t batch_ns = (uint64_t)cfg->powercut_batch * 1000000ull;
	uint64_t next = fsb_now_ns() + batch_ns, end = fsb_now_ns() + (uint64_t)cfg->powercut_window * 1000000000ull;
	unsigned running = workers;
	unsigned char gone[FSB_PC_MAX_WORKERS] = { 0 };
	int died = 0;	/* a worker stopped by an error, in the middle of an op */
	while (fsb_now_ns() < end && running) {
		uint64_t now = fsb_now_ns();
		if (now < next) {
			struct timespec ts = { 0, (long)(next - now) };
			nanosleep(&ts, NULL);
		}
		next += batch_ns;
		batch(p, cycle, sh, workers, t0, 0);
		/* the workers by pid: the cleaner is a child too */
		for (unsigned w = 0; w < workers; w++) {
			int st;
			if (!gone[w] && waitpid(pid[w], &st, WNOHANG) == pid[w]) {
				gone[w] = 1;
				running--;
				died |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
			}
		}
	}
	sh->stop = 1;
	for (unsigned w = 0; w < workers; w++) {
		int st;
		if (waitpid(pid[w], &st, 0) == pid[w])
			died |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	/* final: every worker stopped between two ops, none in flight; a
	 * worker that died of an error may have left its op half done */
	batch(p, cycle, sh, workers, t0, !died);
	for (unsigned w = 0; w < workers; w++)
		if (sh->err[w]) {
			char file[32];
			snprintf(file, sizeof(file), FSB_DUR_DIR "/w%02u", w);
			fsb_error_rec(c, p->col.name, 0, NULL, "powercut", file, sh->err[w], 0,
				      "a worker of the durability workload stopped");
		}
	if (cfg->progress)
		fsb_say(c->say, "%s powercut cycle %u/%u: window over", p->col.name, cycle, cfg->powercut);
	say_line(c, FSB_PC_WINDOW_OVER "\n");
	for (;;)
		pause();
}

static void fs_start(struct pcfs *p)
{
	struct fsb_rec r;

	fsb_rec_start(p->c, &r, FSB_REC_fs_start);
	rec_str(&r, K(fs), p->col.name);
	rec_str(&r, K(device), p->t->path);
	rec_str(&r, K(support), "power-cut campaign");
	rec_str(&r, K(mnt), p->c->cfg.mnt);
	if (p->col.is_variant) {	/* as the suite's: the report's variants table, unsafe ones marked */
		rec_obj(&r, K(variant));
		rec_str(&r, K(name), p->col.name);
		rec_str(&r, K(base), p->fs->name);
		rec_str(&r, K(mkfs), p->col.mkfs);
		rec_str(&r, K(mount), p->col.mount);
		rec_str(&r, K(source), p->col.source);
		if (p->col.unsafe)
			rec_str(&r, K(unsafe), p->col.unsafe);
		rec_close(&r);
	}
	fsb_emit(p->c, &r);
}

static void fs_end(struct pcfs *p, int failed)
{
	struct fsb_rec r;

	fsb_rec_start(p->c, &r, FSB_REC_fs_end);
	rec_str(&r, K(fs), p->col.name);
	rec_str(&r, K(status), failed ? "failed" : "ok");
	rec_str(&r, K(reason), p->why);
	fsb_emit(p->c, &r);
	if (failed) {
		p->c->fs_failed++;
		p->c->failed = 1;
	} else {
		p->c->fs_ok++;
	}
}

static int column(struct pcfs *p, struct fsb_ctx *c, const struct fsb_disk *t, unsigned pos)
{
	char list[sizeof(c->cfg.fs)], *save = NULL, mopts[512];
	unsigned k = 0;

	memset(p, 0, sizeof(*p));
	p->c = c;
	p->t = t;
	p->pos = pos;
	snprintf(list, sizeof(list), "%s", c->cfg.fs);
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save), k++) {
		if (k != pos)
			continue;
		if (fsb_config_column(&c->cfg, tok, &p->col) < 0)
			return -1;
		p->fs = &fsb_fs_table[p->col.fsi];
		snprintf(mopts, sizeof(mopts), "%s%s%s", c->cfg.mount_opts[p->col.fsi],
			 c->cfg.mount_opts[p->col.fsi][0] && p->col.mount[0] ? "," : "", p->col.mount);
		fsb_mount_opts(mopts, &p->mflags, p->mdata, sizeof(p->mdata));
		return 0;
	}
	return -1;
}

void fsb_powercut_run(struct fsb_ctx *c, const struct fsb_disk *t, const struct fsb_pc_resume *rs)
{
	static struct pcfs p;
	unsigned pos = 0, cycle = 1;
	uint32_t seed = c->cfg.powercut_seed;
	int fs_failed = 0, e = fsb_mkdir_p(c->cfg.mnt);

	if (e < 0 || fsb_mnt_in_use(c->cfg.mnt)) {
		char msg[FSB_PATH_MAX + 96];
		snprintf(msg, sizeof(msg), "mount point %s: %s", c->cfg.mnt, e < 0 ? strerror(-e) :
			 "something is already mounted there (a killed run's filesystem: unmount it)");
		fsb_say(c->say, "%s", msg);
		fsb_error_rec(c, NULL, 0, NULL, "mnt", c->cfg.mnt, e < 0 ? -e : EBUSY, 1, msg);
		c->failed = 1;
		return;
	}
	if (rs->found) {
		seed = rs->seed;
		c->fs_ok = rs->fs_ok;
		c->fs_failed = rs->fs_failed;
		c->failed |= rs->failed;
		fs_failed = rs->fs_failed_now;
		while (column(&p, c, t, pos) == 0 && strcmp(p.col.name, rs->fs))
			pos++;
		if (column(&p, c, t, pos) < 0) {
			fsb_error_rec(c, rs->fs, 0, NULL, "powercut", NULL, 0, 1,
				      "the interrupted cycle's filesystem is not in fs");
			c->failed = 1;
			return;
		}
		if (!rs->verified && fsb_pc_check(c, t, &p.col, p.mflags, p.mdata, rs) != 0)
			fs_failed = 1;
		cycle = rs->cycle + 1;
		if (cycle > c->cfg.powercut) {
			if (!rs->fs_ended)	/* not when a cut came after it */
				fs_end(&p, fs_failed);
			pos++;
			cycle = 1;
			fs_failed = 0;
		}
	}
	while (!seed && getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint32_t)time(NULL);
	for (; column(&p, c, t, pos) == 0; pos++, cycle = 1) {
		if (cycle == 1)
			fs_start(&p);
		arm(&p, cycle, seed);	/* returns only when the cycle could not start */
		char why[256];
		fsb_cleaner_stop(&p.cl, why, sizeof(why));
		fsb_error_rec(c, p.col.name, 0, NULL, "powercut", t->path, 0, 1, p.why);
		fs_end(&p, 1);
	}
}

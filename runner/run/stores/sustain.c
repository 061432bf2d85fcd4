/* sustain.c: the sustained write (sustain.h). fio runs as a child; the
 * runner wakes every second on the monotonic clock, reads the disk's
 * temperature (run/evidence/health.h) and sees whether fio is done. fio's
 * own bandwidth log gives the throughput: its per-second averages count
 * the bytes it completed, and its wall-clock stamps (log_unix_epoch) put
 * them on the same seconds as the temperatures. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/io.h"
#include "lib/msg.h"
#include "lib/time.h"
#include "run/evidence/health.h"
#include "run/evidence/kmsg.h"
#include "run/stores/sustain.h"

const struct fsb_sustain_mode fsb_sustain_modes[] = {
	{ "seq", "write", "1M", 8 },
	{ "rand", "randwrite", "4k", 32 },
};
const size_t fsb_sustain_nmodes = sizeof(fsb_sustain_modes) / sizeof(fsb_sustain_modes[0]);

/* Seconds fio may run past its runtime (laying out a file, its exit)
 * before it is killed. */
#define GRACE_S 300

/* x rounded to the nearest whole number (no libm in the runner). */
static long nearest(double x)
{
	return x < 0 ? -(long)(-x + 0.5) : (long)(x + 0.5);
}

long fsb_sustain_bwlog(const char *text, uint64_t t0_ms, double *mib, size_t cap,
		       double *first_s, char *why, size_t whylen)
{
	const char *p = text;
	long n = 0, line = 0;
	int64_t first = -1;

	*first_s = 0;
	for (size_t i = 0; i < cap; i++)
		mib[i] = NAN;
	while (*p) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
		unsigned long long t, kib, dir;
		int used = 0;

		line++;
		if (end > p && !(sscanf(p, " %llu , %llu , %llu ,%n", &t, &kib, &dir, &used) == 3 && used &&
				 p + used <= end)) {
			snprintf(why, whylen, "fio's bandwidth log, line %ld: not TIME, BW, DIR, ...: %.40s",
				 line, p);
			return -EBADMSG;
		}
		if (end > p && dir == 1) {
			if (first < 0) {
				first = (int64_t)t;
				*first_s = ((double)t - (double)t0_ms) / 1000.0;
			}
			double k = ((double)t - (double)first) / 1000.0;
			long i = k < 0 ? -1 : nearest(k);
			if (i >= 0 && (size_t)i < cap && isnan(mib[i]))
				mib[i] = (double)kib / 1024.0;
			if (i >= 0 && (size_t)i < cap && i + 1 > n)
				n = i + 1;
		}
		p = nl ? nl + 1 : end;
	}
	for (long i = 0; i < n; i++)
		if (isnan(mib[i]))
			mib[i] = 0;
	/* the sample fio writes as the job ends is no second's average (2.4
	 * times the others on a steady loop device): left out */
	return n > 1 ? n - 1 : n;
}

/* ---- one write ---- */

struct run {
	struct fsb_ctx *c;
	const char *fio, *fs, *filename;
	const struct fsb_disk *disk;
	const struct fsb_sustain_mode *m;
	uint64_t size;
	unsigned seconds;
	char dir[FSB_PATH_MAX];		/* fio's output and log */
	double *temp;			/* per second, NaN: not read */
	size_t ntemp, captemp;
	char temp_source[160];
	double secs;			/* fio's whole run */
};

static uint64_t realtime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A whole file into a new buffer (NUL-terminated); NULL with errno. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			size_t nc = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, nc);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = nc;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

/* The temperature now, in degrees Celsius; NaN when it cannot be read. */
static double temp_now(const struct fsb_disk *d, char *source, size_t len)
{
	static struct fsb_health h;

	fsb_health_read(d, &h);
	if (!h.have_temp) {
		if (source)
			snprintf(source, len, "%s", h.temp_why);
		return NAN;
	}
	if (source)
		snprintf(source, len, "%s", h.temp_source);
	return h.temp_mc / 1000.0;
}

/* fio, started; the temperature every second while it runs. The exit
 * status as fsb_exec's (lib/exec.h), the samples in R->temp. */
static int run_fio(struct run *R, char *const argv[], const char *errpath)
{
	struct timespec next;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		int st;
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (w < 0 && errno != EINTR)
			return -errno;
		if (R->ntemp >= R->captemp) {	/* past runtime + GRACE_S */
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return 128 + SIGKILL;
		}
		next.tv_sec++;
		/* a second in parts, so that fio's end is seen within 0.1 s */
		for (int part = 0; part < 10; part++) {
			struct timespec at = next;
			long ns = (long)(part + 1) * 100000000L - 1000000000L;
			at.tv_nsec += ns;
			if (at.tv_nsec < 0) {
				at.tv_nsec += 1000000000L;
				at.tv_sec--;
			}
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
				;
			if (part < 9 && waitpid(pid, &st, WNOHANG) == pid)
				return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		}
		R->temp[R->ntemp++] = temp_now(R->disk, NULL, 0);
	}
}

static void series(struct run *R, const double *mib, long n, double first_s)
{
	for (long from = 0; from < n; from += FSB_SUSTAIN_CHUNK) {
		struct fsb_rec r;
		long to = from + FSB_SUSTAIN_CHUNK < n ? from + FSB_SUSTAIN_CHUNK : n;

		fsb_rec_start(R->c, &r, FSB_REC_sustain_series);
		rec_str(&r, K(fs), R->fs);
		rec_str(&r, K(workload), R->m->name);
		rec_u64(&r, K(from), (uint64_t)from);
		rec_arr(&r, K(mib_per_s));
		for (long i = from; i < to; i++)
			rec_arr_dbl(&r, mib[i]);
		rec_close(&r);
		rec_arr(&r, K(celsius));
		for (long i = from; i < to; i++) {
			/* the temperature read at the end of the sample's second */
			long k = nearest(first_s + (double)i) - 1;
			rec_arr_dbl(&r, k >= 0 && (size_t)k < R->ntemp ? R->temp[k] : NAN);
		}
		rec_close(&r);
		fsb_emit(R->c, &r);
	}
}

/* One write: fio's argv, the mark, the run, the records. 0 or -1 (why). */
static int one(struct run *R, char *why, size_t len)
{
	const struct fsb_sustain_mode *m = R->m;
	struct fsb_ctx *c = R->c;
	char a[16][2 * FSB_PATH_MAX + 32], fname[2 * FSB_PATH_MAX], errpath[FSB_PATH_MAX + 16];
	char outpath[FSB_PATH_MAX + 16], bwpath[FSB_PATH_MAX + 32], line[256], phase[32];
	char *argv[32];
	int n = 0, rc = -1;
	struct fsb_fio_result res;
	double *mib = NULL, first_s = 0;
	long ns = 0;
	char *text = NULL;

	snprintf(phase, sizeof(phase), "sustain_%s", m->name);
	/* fio's filename: ':' escaped */
	size_t o = 0;
	for (const char *s = R->filename; *s && o + 3 < sizeof(fname); s++) {
		if (*s == ':')
			fname[o++] = '\\';
		fname[o++] = *s;
	}
	fname[o] = 0;
	snprintf(outpath, sizeof(outpath), "%s/out.json", R->dir);
	snprintf(errpath, sizeof(errpath), "%s/fio.txt", R->dir);
	snprintf(bwpath, sizeof(bwpath), "%s/bw_bw.1.log", R->dir);
	argv[n++] = (char *)R->fio;
#define ARG(...) do { snprintf(a[n], sizeof(a[n]), __VA_ARGS__); argv[n] = a[n]; n++; } while (0)
	ARG("--name=sustain-%s", m->name);
	ARG("--filename=%s", fname);
	ARG("--rw=%s", m->rw);
	ARG("--bs=%s", m->bs);
	ARG("--iodepth=%u", m->iodepth);
	ARG("--size=%" PRIu64, R->size);
	ARG("--runtime=%u", R->seconds);
	ARG("--output=%s", outpath);
	ARG("--write_bw_log=%s/bw", R->dir);
#undef ARG
	argv[n++] = "--numjobs=1";
	argv[n++] = "--ioengine=libaio";
	argv[n++] = "--direct=1";
	argv[n++] = "--time_based";
	argv[n++] = "--log_avg_msec=1000";
	argv[n++] = "--log_unix_epoch=1";
	argv[n++] = "--output-format=json";
	argv[n] = NULL;

	R->ntemp = 0;
	R->captemp = R->seconds + GRACE_S;
	if (!(R->temp = malloc(R->captemp * sizeof(*R->temp))) ||
	    !(mib = malloc(R->captemp * sizeof(*mib)))) {
		snprintf(why, len, "out of memory for %u seconds of samples", R->seconds);
		goto out;
	}
	temp_now(R->disk, R->temp_source, sizeof(R->temp_source));
	fsb_kmsg_drain(c);
	fsb_kmsg_mark(c, R->fs, 0, phase);
	if (c->cfg.progress)
		fsb_say(c->say, "%s sustain %s: %s, %u s over %" PRIu64 " MiB", R->fs, m->name, R->filename,
			R->seconds, R->size >> 20);
	/* on a console of records with a prefix (the boot image's); a plain
	 * stdout stays records only */
	snprintf(line, sizeof(line), FSB_SUSTAIN_MARK " start fs=%s workload=%s seconds=%u\n", R->fs,
		 m->name, R->seconds);
	if (c->cfg.prefix[0])
		fsb_write_all(c->out_fd, line, strlen(line));
	uint64_t t0_ms = realtime_ms();
	double t0 = fsb_now();
	int r = run_fio(R, argv, errpath);
	R->secs = fsb_now() - t0;
	fsb_kmsg_mark(c, R->fs, 0, NULL);
	fsb_kmsg_drain(c);
	if (r != 0) {
		char *msg = slurp(errpath), *last = msg;
		for (char *s = msg; s && *s; s++)
			if (*s == '\n' && s[1])
				last = s + 1;
		if (last)
			last[strcspn(last, "\n")] = 0;
		if (r < 0)
			snprintf(why, len, "fio %s: %s", R->fio, strerror(-r));
		else if (r > 128)
			snprintf(why, len, "fio killed by signal %d (ran %u s past its runtime, or was killed)",
				 r - 128, GRACE_S);
		else
			snprintf(why, len, "fio exited with status %d: %s", r, last && *last ? last : "(no message)");
		free(msg);
		goto out;
	}
	if (!(text = slurp(outpath))) {
		snprintf(why, len, "fio output %.200s: %s", outpath, strerror(errno));
		goto out;
	}
	if (fsb_fio_parse(text, strlen(text), &res, why, len) < 0)
		goto out;
	if (res.error) {
		snprintf(why, len, "fio: the job ended with error %d (%s)", res.error, strerror(res.error));
		goto out;
	}
	free(text);
	if (!(text = slurp(bwpath))) {
		snprintf(why, len, "fio's bandwidth log %.200s: %s", bwpath, strerror(errno));
		goto out;
	}
	ns = fsb_sustain_bwlog(text, t0_ms, mib, R->captemp, &first_s, why, len);
	if (ns < 0)
		goto out;
	rc = 0;
out:;
	struct fsb_rec rec;
	fsb_rec_start(c, &rec, FSB_REC_sustain);
	rec_str(&rec, K(fs), R->fs);
	rec_str(&rec, K(workload), m->name);
	rec_str(&rec, K(filename), R->filename);
	rec_str(&rec, K(rw), m->rw);
	rec_str(&rec, K(bs), m->bs);
	rec_u64(&rec, K(iodepth), m->iodepth);
	rec_u64(&rec, K(size), R->size);
	rec_u64(&rec, K(runtime), R->seconds);
	rec_dbl(&rec, K(seconds), R->secs);
	rec_str(&rec, K(status), rc == 0 ? "ok" : "failed");
	if (rc == 0) {
		rec_str(&rec, K(fio_version), res.version);
		rec_dbl(&rec, K(mib_per_s), (double)res.wr.bw_bytes / 1048576.0);
		rec_dbl(&rec, K(iops), res.wr.iops);
	} else {
		rec_str(&rec, K(msg), why);
	}
	rec_u64(&rec, K(samples), rc == 0 ? (uint64_t)ns : 0);
	rec_dbl(&rec, K(first_s), first_s);
	rec_str(&rec, K(temp_source), R->temp_source);
	rec_u64(&rec, K(share_pct), c->cfg.sustain_share);
	rec_u64(&rec, K(base_s), c->cfg.sustain_base);
	rec_u64(&rec, K(hold_s), c->cfg.sustain_hold);
	rec_u64(&rec, K(rise_c), c->cfg.sustain_rise);
	fsb_emit(c, &rec);
	if (rc == 0)
		series(R, mib, ns, first_s);
	else
		fsb_error_rec(c, R->fs, 0, phase, "fio", R->filename, 0, 1, why);
	if (rc == 0 && c->cfg.progress)
		fsb_say(c->say, "%s sustain %s: %.1f MiB/s over %ld s", R->fs, m->name,
			(double)res.wr.bw_bytes / 1048576.0, ns);
	free(text);
	free(mib);
	free(R->temp);
	R->temp = NULL;
	unlink(outpath);
	unlink(errpath);
	unlink(bwpath);
	return rc;
}

/* Both writes on filename (a file is deleted after each). */
static int both(struct run *R, char *why, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int rc = 0;

	snprintf(R->dir, sizeof(R->dir), "%s/fsbench-sustain-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(R->dir)) {
		snprintf(why, len, "sustain: a folder for fio's logs in %s: %s", tmp && *tmp ? tmp : "/tmp",
			 strerror(errno));
		fsb_error_rec(R->c, R->fs, 0, "sustain", "mkdtemp", R->dir, errno, 1, why);
		return -1;
	}
	for (size_t i = 0; i < fsb_sustain_nmodes; i++) {
		char w1[512];
		R->m = &fsb_sustain_modes[i];
		if (one(R, w1, sizeof(w1)) < 0 && rc == 0) {
			snprintf(why, len, "sustain %s: %s", R->m->name, w1);
			rc = -1;
		}
		if (strcmp(R->fs, "raw"))
			unlink(R->filename);
	}
	rmdir(R->dir);
	return rc;
}

static int wanted(const struct fsb_ctx *c, const char *where)
{
	return !strcmp(c->cfg.sustain, where) || !strcmp(c->cfg.sustain, "both");
}

int fsb_sustain_fs(struct fsb_ctx *c, struct fsb_fresh *fr, const struct fsb_disk *disk,
		   char *why, size_t len)
{
	char fio[FSB_PATH_MAX], fname[FSB_PATH_MAX + 32];
	struct statvfs vf;

	if (!wanted(c, "fs") || !disk)
		return 0;
	if (fsb_fio_find(c, fr->fs, fio, sizeof(fio), why, len) < 0)
		return -1;
	if (fsb_fresh_get(fr, "sustain", why, len) < 0)
		return -1;
	uint64_t size = 0;
	if (statvfs(fr->mnt, &vf) == 0)
		size = ((uint64_t)vf.f_bavail * vf.f_frsize / 10 * 8) & ~((1ull << 20) - 1);
	if (size < (1u << 20)) {
		snprintf(why, len, "sustain: less than 1 MiB free on %s", fr->mnt);
		fsb_error_rec(c, fr->fs, 0, "sustain", "fio", fr->mnt, ENOSPC, 1, why);
		return -1;
	}
	fr->fresh = 0;
	snprintf(fname, sizeof(fname), "%s/fsbench-sustain", fr->mnt);
	struct run R = { .c = c, .fio = fio, .fs = fr->fs, .filename = fname, .disk = disk,
			 .size = size, .seconds = c->cfg.sustain_seconds };
	return both(&R, why, len);
}

int fsb_sustain_raw(struct fsb_ctx *c, const struct fsb_disk *target)
{
	char fio[FSB_PATH_MAX], why[512];

	if (!wanted(c, "raw") || !target)
		return 0;
	if (fsb_zoned_strict(&target->zoned)) {	/* its random write would fail */
		fsb_note(c, "sustain raw: not run on %s: a host-managed zoned device takes sequential writes only",
			 target->path);
		return 0;
	}
	fsb_kmsg_mark(c, "raw", 0, NULL);
	if (fsb_fio_find(c, "raw", fio, sizeof(fio), why, sizeof(why)) < 0)
		return -1;
	struct run R = { .c = c, .fio = fio, .fs = "raw", .filename = target->path, .disk = target,
			 .size = target->size, .seconds = c->cfg.sustain_seconds };
	int rc = both(&R, why, sizeof(why));
	fsb_kmsg_mark(c, NULL, 0, NULL);
	if (rc < 0)
		fsb_say(c->say, "raw %s: %s", target->path, why);
	return rc;
}

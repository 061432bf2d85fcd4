/* control.c: the run's conditions, measured (control.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "lib/sysfs.h"
#include "lib/time.h"
#include "run/core/context.h"
#include "run/engine/control.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

enum { CTL_CPU, CTL_COPY, CTL_TMPFS, CTL_N };

struct control {
	char dir[64];		/* the tmpfs directory; "" when none */
	int mounted;		/* dir is a tmpfs mounted by us */
	char why[200];		/* no tmpfs: the reason */
	unsigned char *src, *dst;
	char page[4096];
	volatile uint64_t sink;	/* what the loop and the copy computed, kept */
};

/* The CPU loop: xorshift64*, a fixed number of steps. */
static void cpu_loop(struct control *k)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (unsigned i = 0; i < FSB_CONTROL_CPU_ITERS; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		x *= 0x2545f4914f6cdd1dull;
	}
	k->sink = x;
}

static void copy(struct control *k)
{
	memcpy(k->dst, k->src, FSB_CONTROL_COPY_BYTES);
	k->sink = k->dst[FSB_CONTROL_COPY_BYTES / 2];
}

/* Files made (written, closed), read back and removed: 0 or -errno. */
static int tmpfs_files(struct control *k)
{
	char path[96];
	int e = 0;

	for (unsigned i = 0; i < FSB_CONTROL_FILES && !e; i++) {
		snprintf(path, sizeof(path), "%s/c%03u", k->dir, i);
		errno = 0;
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || write(fd, k->page, sizeof(k->page)) != (ssize_t)sizeof(k->page))
			e = errno ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
	}
	for (unsigned i = 0; i < FSB_CONTROL_FILES && !e; i++) {
		snprintf(path, sizeof(path), "%s/c%03u", k->dir, i);
		errno = 0;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || read(fd, k->page, sizeof(k->page)) != (ssize_t)sizeof(k->page))
			e = errno ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
	}
	for (unsigned i = 0; i < FSB_CONTROL_FILES; i++) {
		snprintf(path, sizeof(path), "%s/c%03u", k->dir, i);
		unlink(path);
	}
	return e;
}

/* The whole disk's requests in flight and completed so far (reads,
 * writes, discards, flushes: fields 1, 5, 12 and 16 of block/stat.rst;
 * the last two absent before Linux 4.19 and 5.5): 0, or -errno. */
static int disk_io(const char *disk, uint64_t *done, uint64_t *in_flight)
{
	char dir[96], buf[256];
	unsigned long long v[17] = { 0 };

	snprintf(dir, sizeof(dir), "/sys/block/%s", disk);
	int e = fsb_read_attr(dir, "stat", buf, sizeof(buf));
	if (e < 0)
		return e;
	int n = sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9],
		       &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16]);
	if (n < 11)
		return -EINVAL;
	*done = v[0] + v[4] + v[11] + v[15];
	*in_flight = v[8];
	return 0;
}

/* Wait until the disk has had nothing in flight and completed nothing for
 * FSB_CONTROL_QUIET_S, at most FSB_CONTROL_QUIET_MAX_S; what was seen in
 * `quiet` (the record's text). Returns the seconds waited. */
static double wait_quiet(const char *disk, char *quiet, size_t len)
{
	double t0 = fsb_now(), since = t0;
	uint64_t done, prev = 0, fl = 0;
	int e = disk_io(disk, &prev, &fl);

	if (e < 0) {
		snprintf(quiet, len, "not available: /sys/block/%s/stat: %s", disk, strerror(-e));
		return 0;
	}
	for (;;) {
		double now = fsb_now();
		if (fl == 0 && now - since >= FSB_CONTROL_QUIET_S) {
			snprintf(quiet, len, "yes");
			return now - t0;
		}
		if (now - t0 >= FSB_CONTROL_QUIET_MAX_S) {
			snprintf(quiet, len, "no: still serving requests after %.0f s (%llu in flight)",
				 FSB_CONTROL_QUIET_MAX_S, (unsigned long long)fl);
			return now - t0;
		}
		usleep(20000);
		if (disk_io(disk, &done, &fl) < 0) {
			snprintf(quiet, len, "not available: /sys/block/%s/stat went away", disk);
			return fsb_now() - t0;
		}
		if (done != prev || fl)
			since = fsb_now();
		prev = done;
	}
}

/* A tmpfs of our own on a new directory under /tmp; else a directory on
 * /dev/shm when that is a tmpfs (no mount without privilege); else the
 * reason in k->why. */
static void tmpfs_open(struct control *k)
{
	struct statfs sf;

	snprintf(k->dir, sizeof(k->dir), "/tmp/fsbench-control.XXXXXX");
	if (mkdtemp(k->dir)) {
		if (mount("tmpfs", k->dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  "size=2m,mode=0700") == 0) {
			k->mounted = 1;
			return;
		}
		snprintf(k->why, sizeof(k->why), "mount tmpfs on %s: %s", k->dir, strerror(errno));
		rmdir(k->dir);
	} else {
		snprintf(k->why, sizeof(k->why), "mkdtemp /tmp: %s", strerror(errno));
	}
	if (statfs("/dev/shm", &sf) == 0 && sf.f_type == TMPFS_MAGIC) {
		snprintf(k->dir, sizeof(k->dir), "/dev/shm/fsbench-control.XXXXXX");
		if (mkdtemp(k->dir))
			return;
	}
	size_t o = strlen(k->why);
	snprintf(k->why + o, sizeof(k->why) - o, "; /dev/shm: %s",
		 statfs("/dev/shm", &sf) ? strerror(errno) : sf.f_type != TMPFS_MAGIC ?
		 "not a tmpfs" : strerror(errno));
	k->dir[0] = '\0';
}

static void tmpfs_close(struct control *k)
{
	if (!k->dir[0])
		return;
	if (k->mounted)
		umount2(k->dir, MNT_DETACH);
	rmdir(k->dir);
}

void fsb_control_run(struct fsb_ctx *c, const char *after, unsigned samples, const char *disk)
{
	char quiet[128] = "";
	double waited = 0;
	uint64_t io0 = 0, io1 = 0, fl;
	int have_io = 0;
	struct control *k;
	double s[CTL_N][FSB_CONTROL_SAMPLES];
	struct fsb_rec r;
	int have_tmpfs, e = 0;
	double t0 = fsb_now();

	if (!c->cfg.control)
		return;
	k = calloc(1, sizeof(*k));
	if (samples < 1 || samples > FSB_CONTROL_SAMPLES)
		samples = FSB_CONTROL_SAMPLES;
	if (k) {
		k->src = malloc(FSB_CONTROL_COPY_BYTES);
		k->dst = malloc(FSB_CONTROL_COPY_BYTES);
	}
	if (!k || !k->src || !k->dst) {
		fsb_error_rec(c, NULL, 0, NULL, "control", NULL, ENOMEM, 0,
			      "control: cannot allocate the memory copy's buffers");
		if (k) {
			free(k->src);
			free(k->dst);
		}
		free(k);
		return;
	}
	memset(k->src, 0x5a, FSB_CONTROL_COPY_BYTES);
	memset(k->dst, 0, FSB_CONTROL_COPY_BYTES);	/* every page touched before the clock */
	memset(k->page, 0xa5, sizeof(k->page));
	tmpfs_open(k);
	have_tmpfs = k->dir[0] != '\0';
	/* one untimed pass (caches, page faults), then the samples, the items
	 * interleaved so that a drift falls on each alike */
	cpu_loop(k);
	copy(k);
	if (have_tmpfs && (e = tmpfs_files(k)) < 0) {
		snprintf(k->why, sizeof(k->why), "files on %s: %s", k->dir, strerror(-e));
		have_tmpfs = 0;
	}
	if (disk && disk[0]) {
		waited = wait_quiet(disk, quiet, sizeof(quiet));
		have_io = disk_io(disk, &io0, &fl) == 0;
	}
	for (unsigned i = 0; i < samples; i++) {
		double a = fsb_now();
		cpu_loop(k);
		double b = fsb_now();
		copy(k);
		double d = fsb_now();
		s[CTL_CPU][i] = b - a;
		s[CTL_COPY][i] = d - b;
		if (have_tmpfs) {
			e = tmpfs_files(k);
			s[CTL_TMPFS][i] = fsb_now() - d;
			if (e < 0) {
				snprintf(k->why, sizeof(k->why), "files on %s: %s", k->dir, strerror(-e));
				have_tmpfs = 0;
			}
		}
	}
	if (have_io)
		have_io = disk_io(disk, &io1, &fl) == 0;
	tmpfs_close(k);

	fsb_rec_start(c, &r, FSB_REC_control);
	if (after)
		rec_str(&r, K(after), after);
	rec_u64(&r, K(samples), samples);
	rec_u64(&r, K(cpu_iterations), FSB_CONTROL_CPU_ITERS);
	rec_u64(&r, K(copy_bytes), FSB_CONTROL_COPY_BYTES);
	rec_u64(&r, K(tmpfs_files), FSB_CONTROL_FILES);
	static const char *const key[CTL_N] = { K(cpu_s), K(copy_s), K(tmpfs_s) };
	for (int it = 0; it < CTL_N; it++) {
		if (it == CTL_TMPFS && !have_tmpfs)
			continue;
		rec_arr(&r, key[it]);
		for (unsigned i = 0; i < samples; i++)
			rec_arr_dbl(&r, s[it][i]);
		rec_close(&r);
	}
	char where[sizeof(k->why) + 32];
	if (have_tmpfs)
		snprintf(where, sizeof(where), "%s", k->mounted ? "mounted" : "/dev/shm");
	else
		snprintf(where, sizeof(where), "not available: %s", k->why);
	rec_str(&r, K(tmpfs), where);
	if (quiet[0]) {
		rec_str(&r, K(quiet), quiet);
		rec_dbl(&r, K(quiet_wait_s), waited);
	}
	if (have_io)
		rec_u64(&r, K(target_ios), io1 >= io0 ? io1 - io0 : 0);
	rec_dbl(&r, K(seconds), fsb_now() - t0);
	fsb_emit(c, &r);
	free(k->src);
	free(k->dst);
	free(k);
}

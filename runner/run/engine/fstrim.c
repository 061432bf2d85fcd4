/* fstrim.c: the fstrim phase (fstrim.h): FITRIM on the whole filesystem,
 * one call, timed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/time.h"
#include "run/core/cfg.h"
#include "run/core/context.h"
#include "run/engine/fstrim.h"
#include "run/engine/lava.h"
#include "run/evidence/kmsg.h"
#include "run/fs/mount.h"

/* linux/fs.h: FITRIM _IOWR('X', 121, struct fstrim_range); the kernel
 * writes the bytes it trimmed back into len. */
struct fsb_fstrim_range {
	uint64_t start, len, minlen;
};
#define FITRIM_ _IOWR('X', 121, struct fsb_fstrim_range)

int fsb_fstrim_wanted(const struct fsb_config *cfg, uint32_t round)
{
	(void)round;
	return cfg->fstrim;
}

int fsb_fstrim_status(int err, char *why, size_t len)
{
	why[0] = 0;
	if (err == 0)
		return 0;
	if (err == EOPNOTSUPP || err == ENOTSUP) {
		snprintf(why, len, "not supported: the filesystem or its device does not discard (FITRIM: %s)",
			 strerror(err));
		return 1;
	}
	if (err == ENOTTY || err == EINVAL) {
		snprintf(why, len, "not supported: the filesystem has no FITRIM (%s)", strerror(err));
		return 1;
	}
	snprintf(why, len, "FITRIM: %s", strerror(err));
	return -1;
}

int fsb_fstrim_phase(struct fsb_ctx *c, const char *fs, const char *mnt, uint32_t round,
		     int after_aging)
{
	struct fsb_fstrim_range range = { 0, UINT64_MAX, 0 };
	struct fsb_rec r;
	char why[160];
	uint64_t t0, ns = 0, mnt_id = 0;
	int fd, err = 0, st, have_mnt_id = 0, mnt_id_unique = 0;

	fsb_kmsg_drain(c);
	fsb_kmsg_mark(c, fs, round, "fstrim");
	fsb_rec_phase(c, &r, FSB_REC_phase_start, fs, round, "fstrim");
	fsb_emit(c, &r);

	fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
	} else {
		have_mnt_id = fsb_mnt_id(fd, &mnt_id, &mnt_id_unique) == 0;
		t0 = fsb_now_ns();
		if (ioctl(fd, FITRIM_, &range) < 0)
			err = errno;
		ns = fsb_now_ns() - t0;
		close(fd);
	}
	if (err)
		range.len = 0;
	st = fd < 0 ? -1 : fsb_fstrim_status(err, why, sizeof(why));
	if (fd < 0)
		snprintf(why, sizeof(why), "open %s: %s", mnt, strerror(err));
	fsb_kmsg_mark(c, fs, round, NULL);
	fsb_kmsg_drain(c);
	if (st < 0)
		fsb_error_rec(c, fs, (int)round, "fstrim", fd < 0 ? "open" : "fitrim", mnt, err, 0, why);

	double s = (double)ns / 1e9;
	fsb_rec_phase(c, &r, FSB_REC_phase, fs, round, "fstrim");
	rec_str(&r, K(order), "none");
	rec_bool(&r, K(cold), 0);
	if (after_aging)
		rec_bool(&r, K(after_aging), 1);
	rec_dbl(&r, K(seconds), s);
	rec_u64(&r, K(files), 0);
	rec_u64(&r, K(bytes), range.len);
	rec_dbl(&r, K(files_per_s), 0);
	rec_dbl(&r, K(mib_per_s), s > 0 ? (double)range.len / s / 1048576.0 : 0);
	rec_obj(&r, K(lat_ns));	/* one operation: the FITRIM call */
	for (int i = 0; i < 6; i++)
		rec_u64(&r, i == 0 ? K(p50) : i == 1 ? K(p90) : i == 2 ? K(p99) : i == 3 ? K(p999) :
			    i == 4 ? K(max) : K(mean), st == 0 ? ns : 0);
	rec_u64(&r, K(ops), st == 0);
	rec_close(&r);
	rec_u64(&r, K(errors), st < 0);
	rec_u64(&r, K(verify_errors), 0);
	rec_bool(&r, K(verified), 0);
	rec_u64(&r, K(workers), 0);
	rec_arr(&r, K(worker_seconds));
	rec_close(&r);
	rec_dbl(&r, K(span_seconds), s);
	if (have_mnt_id) {	/* delete's: no remount before fstrim */
		rec_u64(&r, K(mnt_id), mnt_id);
		rec_bool(&r, K(mnt_id_unique), mnt_id_unique);
	}
	rec_str(&r, K(trim), st == 0 ? "ok" : why);
	fsb_emit(c, &r);
	fsb_lava_phase(c, fs, round, "fstrim", s, st < 0);
	if (c->cfg.progress)
		fsb_say(c->say, "%s round %u/%u fstrim: %.3f s, %llu bytes trimmed%s%s", fs, round,
			c->cfg.rounds, s, (unsigned long long)range.len, st ? ": " : "", st ? why : "");
	return st < 0 ? -err : 0;
}

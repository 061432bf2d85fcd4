/* fio.c: the fio workloads of runner/SUITE.md: the table, fio's argv, its
 * JSON folded into `fio` records, on each filesystem and on the raw target. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/exec.h"
#include "lib/jsonr.h"
#include "lib/msg.h"
#include "lib/time.h"
#include "run/stores/fio.h"
#include "run/evidence/kmsg.h"

/* runner/SUITE.md, "Other workloads": an ext4 vs XFS write-up's three
 * profiles and the f2fs vs ext4 4 KiB random write. */
const struct fsb_fio_workload fsb_fio_workloads[] = {
	{ "oltp", "randrw", 70, "4k", 32, 16 },
	{ "web", "read", 0, "1M", 8, 8 },
	{ "vm", "randrw", 50, "64k", 16, 32 },
	{ "randwrite", "randwrite", 0, "4k", 32, 1 },
};
const size_t fsb_fio_nworkloads = sizeof(fsb_fio_workloads) / sizeof(fsb_fio_workloads[0]);

const char *const fsb_fio_pct_key[FSB_FIO_NPCT] = { "50.000000", "90.000000", "99.000000",
						    "99.900000" };
const char *const fsb_fio_pct_name[FSB_FIO_NPCT] = { K(p50), K(p90), K(p99), K(p999) };

const struct fsb_fio_workload *fsb_fio_workload(const char *name)
{
	for (size_t i = 0; i < fsb_fio_nworkloads; i++)
		if (!strcmp(fsb_fio_workloads[i].name, name))
			return &fsb_fio_workloads[i];
	return NULL;
}

static void allowed(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < fsb_fio_nworkloads && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", fsb_fio_workloads[i].name);
}

int fsb_fio_list_check(const char *list, char *why, size_t len)
{
	char names[160];
	int seen[16] = { 0 };
	const char *p = list;

	if (!*list)
		return 0;
	allowed(names, sizeof(names));
	for (size_t n = 1;; n++) {
		size_t k = strcspn(p, ",");
		char tok[32];
		const struct fsb_fio_workload *w;

		if (k == 0) {
			snprintf(why, len, "item %zu is empty; allowed: a comma-separated list of %s", n, names);
			return -1;
		}
		snprintf(tok, sizeof(tok), "%.*s", (int)(k < 31 ? k : 31), p);
		w = k < 31 ? fsb_fio_workload(tok) : NULL;
		if (!w) {
			snprintf(why, len, "unknown workload '%s'; allowed: a comma-separated list of %s", tok, names);
			return -1;
		}
		if (seen[w - fsb_fio_workloads]++) {
			snprintf(why, len, "workload '%s' is listed twice; allowed: a comma-separated list of %s",
				 tok, names);
			return -1;
		}
		if (!p[k])
			return 0;
		p += k + 1;
	}
}

/* ---- fio's JSON ---- */

static void fold_dir(const struct jsonr *d, struct fsb_fio_dir *out)
{
	const struct jsonr *clat = jsonr_get(d, "clat_ns"), *lat = jsonr_get(d, "lat_ns");
	const struct jsonr *pct = jsonr_get(clat, "percentile");

	memset(out, 0, sizeof(*out));
	out->iops = jsonr_num(jsonr_get(d, "iops"), 0);
	out->bw_bytes = jsonr_u64(jsonr_get(d, "bw_bytes"), 0);
	if (!jsonr_get(d, "bw_bytes"))	/* older fio: KiB/s only */
		out->bw_bytes = jsonr_u64(jsonr_get(d, "bw"), 0) * 1024;
	out->io_bytes = jsonr_u64(jsonr_get(d, "io_bytes"), 0);
	out->total_ios = jsonr_u64(jsonr_get(d, "total_ios"), 0);
	out->runtime_s = jsonr_num(jsonr_get(d, "runtime"), 0) / 1000.0;
	out->clat_mean = jsonr_num(jsonr_get(clat, "mean"), 0);
	out->lat_mean = jsonr_num(jsonr_get(lat, "mean"), 0);
	out->lat_max = jsonr_u64(jsonr_get(lat, "max"), 0);
	/* the percentiles' keys hold dots: looked up one level at a time */
	out->have_pct = jsonr_is(pct, JSONR_OBJ);
	for (int i = 0; i < FSB_FIO_NPCT; i++)
		out->clat_pct[i] = jsonr_u64(jsonr_get(pct, fsb_fio_pct_key[i]), 0);
}

int fsb_fio_parse(const char *text, size_t len, struct fsb_fio_result *res, char *why,
		  size_t whylen)
{
	struct jsonr_doc *doc = NULL;
	struct jsonr_err err;
	size_t start = 0;

	memset(res, 0, sizeof(*res));
	/* fio's own JSON starts with '{' at the start of a line */
	while (start < len && !(text[start] == '{' && (start == 0 || text[start - 1] == '\n')))
		start++;
	if (start == len) {
		snprintf(why, whylen, "no JSON object in fio's output (%zu bytes)", len);
		return -1;
	}
	int e = jsonr_parse(text + start, len - start, &doc, &err);
	if (e == -ENOMEM) {
		snprintf(why, whylen, "fio output: out of memory");
		return -1;
	}
	if (e < 0) {
		snprintf(why, whylen, "fio output: not JSON: %s at column %zu", err.msg, err.column);
		return -1;
	}
	const struct jsonr *root = jsonr_root(doc);
	const struct jsonr *jobs = jsonr_get(root, "jobs");
	const char *ver = jsonr_str(jsonr_get(root, "fio version"));
	int rc = 0;

	if (!jsonr_is(root, JSONR_OBJ)) {
		snprintf(why, whylen, "fio output: not a JSON object");
		rc = -1;
	} else if (!jsonr_is(jobs, JSONR_ARR) || jsonr_len(jobs) == 0) {
		snprintf(why, whylen, "fio output: no \"jobs\" array");
		rc = -1;
	} else {
		/* group_reporting: one entry for all the workload's jobs */
		const struct jsonr *job = jsonr_at(jobs, 0);
		if (!jsonr_is(jsonr_get(job, "read"), JSONR_OBJ) ||
		    !jsonr_is(jsonr_get(job, "write"), JSONR_OBJ)) {
			snprintf(why, whylen, "fio output: job 0 has no \"read\" and \"write\" objects");
			rc = -1;
		} else {
			snprintf(res->version, sizeof(res->version), "%s", ver ? ver : "");
			res->error = (int)jsonr_num(jsonr_get(job, "error"), 0);
			fold_dir(jsonr_get(job, "read"), &res->rd);
			fold_dir(jsonr_get(job, "write"), &res->wr);
			/* (the job's job_runtime adds up its numjobs processes) */
			res->runtime_s = res->rd.runtime_s > res->wr.runtime_s ? res->rd.runtime_s
									      : res->wr.runtime_s;
		}
	}
	jsonr_free(doc);
	return rc;
}

/* ---- running fio ---- */

/* A filename for fio: ':' separates names there, so it is escaped. */
static void fio_filename(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	for (; *src && o + 3 < len; src++) {
		if (*src == ':')
			dst[o++] = '\\';
		dst[o++] = *src;
	}
	dst[o] = 0;
}

/* The last non-empty line of out (fio's message on stderr). */
static const char *last_line(char *out)
{
	char *end = out + strlen(out);

	while (end > out && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
		*--end = 0;
	char *nl = strrchr(out, '\n');
	return nl ? nl + 1 : out;
}

int fsb_fio_exec(const char *fio_path, const struct fsb_fio_job *job,
		 struct fsb_fio_result *res, double *seconds, char *why, size_t whylen)
{
	const struct fsb_fio_workload *w = job->w;
	const char *tmpdir = getenv("TMPDIR");
	char a[16][2 * FSB_PATH_MAX + 32], outpath[FSB_PATH_MAX], fname[2 * FSB_PATH_MAX];
	char out[4096] = "";
	char *argv[32];
	int n = 0, fd;
	double t0;

	snprintf(outpath, sizeof(outpath), "%s/fsbench-fio-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(outpath);
	if (fd < 0) {
		snprintf(why, whylen, "fio output file %s: %s", outpath, strerror(errno));
		return -1;
	}
	close(fd);
	fio_filename(fname, sizeof(fname), job->filename);
	argv[n++] = (char *)fio_path;
#define ARG(...) do { snprintf(a[n], sizeof(a[n]), __VA_ARGS__); argv[n] = a[n]; n++; } while (0)
	ARG("--name=%s", w->name);
	ARG("--filename=%s", fname);
	ARG("--rw=%s", w->rw);
	if (w->rwmixread)
		ARG("--rwmixread=%u", w->rwmixread);
	ARG("--bs=%s", w->bs);
	ARG("--iodepth=%u", w->iodepth);
	ARG("--numjobs=%u", w->numjobs);
	ARG("--size=%" PRIu64, job->size);
	ARG("--runtime=%u", job->runtime);
	ARG("--output=%s", outpath);
#undef ARG
	argv[n++] = "--ioengine=libaio";
	argv[n++] = "--direct=1";
	argv[n++] = "--group_reporting";
	argv[n++] = "--time_based";
	argv[n++] = "--percentile_list=50:90:99:99.9";
	argv[n++] = "--output-format=json";
	argv[n] = NULL;

	t0 = fsb_now();
	int r = fsb_exec(argv, out, sizeof(out), job->timeout);
	*seconds = fsb_now() - t0;
	if (r != 0) {
		const char *msg = last_line(out);
		if (r < 0)
			snprintf(why, whylen, "fio %s: %s", fio_path, strerror(-r));
		else if (r > 128)
			snprintf(why, whylen, "fio killed by signal %d%s", r - 128,
				 job->timeout ? " (it ran past phase_timeout, or was killed)" : "");
		else
			snprintf(why, whylen, "fio exited with status %d: %s", r, *msg ? msg : "(no message)");
		unlink(outpath);
		return -1;
	}
	/* the JSON, whole */
	FILE *f = fopen(outpath, "re");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = -1;
	if (!f) {
		snprintf(why, whylen, "fio output %s: %s", outpath, strerror(errno));
	} else {
		for (;;) {
			if (len + 4096 > cap) {
				size_t nc = cap ? cap * 2 : 65536;
				char *nt = realloc(text, nc);
				if (!nt)
					break;
				text = nt;
				cap = nc;
			}
			size_t got = fread(text + len, 1, cap - len, f);
			len += got;
			if (got == 0)
				break;
		}
		if (ferror(f) || !text)
			snprintf(why, whylen, "fio output %s: %s", outpath, text ? "read error" : "out of memory");
		else
			rc = fsb_fio_parse(text, len, res, why, whylen);
		fclose(f);
	}
	free(text);
	unlink(outpath);
	if (rc == 0 && res->error) {
		snprintf(why, whylen, "fio: the job ended with error %d (%s)", res->error, strerror(res->error));
		rc = -1;
	}
	return rc;
}

void fsb_fio_dir_json(struct fsb_rec *r, const char *key, const struct fsb_fio_dir *d)
{
	rec_obj(r, key);
	rec_dbl(r, K(iops), d->iops);
	rec_u64(r, K(bw_bytes), d->bw_bytes);
	rec_dbl(r, K(mib_per_s), (double)d->bw_bytes / 1048576.0);
	rec_u64(r, K(io_bytes), d->io_bytes);
	rec_u64(r, K(ios), d->total_ios);
	rec_dbl(r, K(runtime_s), d->runtime_s);
	rec_obj(r, K(clat_ns));
	if (d->have_pct)
		for (int i = 0; i < FSB_FIO_NPCT; i++)
			rec_u64(r, fsb_fio_pct_name[i], d->clat_pct[i]);
	rec_dbl(r, K(mean), d->clat_mean);
	rec_close(r);
	rec_obj(r, K(lat_ns));
	rec_dbl(r, K(mean), d->lat_mean);
	rec_u64(r, K(max), d->lat_max);
	rec_close(r);
	rec_close(r);
}

void fsb_fio_record(struct fsb_ctx *c, const struct fsb_fio_job *job,
		    const struct fsb_fio_result *res, double seconds, const char *why)
{
	const struct fsb_fio_workload *w = job->w;
	struct fsb_rec r;

	fsb_rec_start(c, &r, FSB_REC_fio);
	rec_str(&r, K(fs), job->fs);
	rec_str(&r, K(workload), w->name);
	rec_str(&r, K(filename), job->filename);
	rec_str(&r, K(rw), w->rw);
	if (w->rwmixread)
		rec_u64(&r, K(rwmixread), w->rwmixread);
	rec_str(&r, K(bs), w->bs);
	rec_u64(&r, K(iodepth), w->iodepth);
	rec_u64(&r, K(numjobs), w->numjobs);
	rec_u64(&r, K(size), job->size);
	rec_u64(&r, K(runtime), job->runtime);
	rec_dbl(&r, K(seconds), seconds);
	rec_str(&r, K(status), res ? "ok" : "failed");
	if (res) {
		rec_str(&r, K(fio_version), res->version);
		rec_dbl(&r, K(iops), res->rd.iops + res->wr.iops);
		rec_dbl(&r, K(mib_per_s), (double)(res->rd.bw_bytes + res->wr.bw_bytes) / 1048576.0);
		rec_dbl(&r, K(runtime_s), res->runtime_s);
		fsb_fio_dir_json(&r, K(read), &res->rd);
		fsb_fio_dir_json(&r, K(write), &res->wr);
		rec_u64(&r, K(errors), (uint64_t)res->error);
	} else {
		rec_str(&r, K(msg), why);
		rec_u64(&r, K(errors), 1);
	}
	fsb_emit(c, &r);
}

int fsb_fio_find(struct fsb_ctx *c, const char *fs, char *path, size_t plen, char *why,
		 size_t len)
{
	if (fsb_which("fio", path, plen) == 0)
		return 0;
	snprintf(why, len, "fio not found in %s", FSB_TOOL_PATH);
	fsb_error_rec(c, fs, 0, "fio", "fio", NULL, ENOENT, 1, why);
	return -1;
}

int fsb_fresh_get(struct fsb_fresh *fr, const char *for_what, char *why, size_t len)
{
	if (fr->fresh || !fr->remake)
		return 0;
	if (fr->remake(fr->arg, for_what, why, len) < 0)
		return -1;
	fr->fresh = 1;
	return 0;
}

int fsb_fio_one(struct fsb_ctx *c, const char *fio, const struct fsb_fio_job *job, char *why,
	       size_t len)
{
	struct fsb_fio_result res;
	double secs = 0;
	char phase[32];

	snprintf(phase, sizeof(phase), "fio_%s", job->w->name);
	fsb_kmsg_drain(c);
	fsb_kmsg_mark(c, job->fs, 0, phase);
	if (c->cfg.progress)
		fsb_say(c->say, "%s fio %s: %s, %u s over %" PRIu64 " MiB", job->fs, job->w->name,
			job->filename, job->runtime, job->size >> 20);
	int rc = fsb_fio_exec(fio, job, &res, &secs, why, len);
	fsb_kmsg_mark(c, job->fs, 0, NULL);
	fsb_kmsg_drain(c);
	if (rc < 0) {
		fsb_error_rec(c, job->fs, 0, phase, "fio", job->filename, 0, 1, why);
		fsb_fio_record(c, job, NULL, secs, why);
		return -1;
	}
	fsb_fio_record(c, job, &res, secs, NULL);
	if (c->cfg.progress)
		fsb_say(c->say, "%s fio %s: %.0f IOPS read, %.0f IOPS write, %.1f MiB/s", job->fs, job->w->name,
			res.rd.iops, res.wr.iops, (double)(res.rd.bw_bytes + res.wr.bw_bytes) / 1048576.0);
	return 0;
}

/* Each workload of the list on filename (a file: deleted after it). */
static int each(struct fsb_ctx *c, const char *fio, const char *fs, const char *dir,
		const char *dev, uint64_t size, char *why, size_t len)
{
	char list[sizeof(c->cfg.fio)], *save = NULL, fname[FSB_PATH_MAX + 64];
	int rc = 0;

	snprintf(list, sizeof(list), "%s", c->cfg.fio);
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct fsb_fio_job job = {
			.w = fsb_fio_workload(tok), .fs = fs, .size = size,
			.runtime = c->cfg.fio_runtime, .timeout = c->cfg.phase_timeout,
		};
		char w1[512];
		if (!job.w)
			continue;	/* the setting was checked: cannot happen */
		if (dev) {
			job.filename = dev;
		} else {
			snprintf(fname, sizeof(fname), "%s/fsbench-fio.%s", dir, tok);
			job.filename = fname;
		}
		if (fsb_fio_one(c, fio, &job, w1, sizeof(w1)) < 0 && rc == 0) {
			snprintf(why, len, "fio %s: %s", tok, w1);
			rc = -1;
		}
		if (!dev)
			unlink(fname);
	}
	return rc;
}

int fsb_fio_fs(struct fsb_ctx *c, struct fsb_fresh *fr, char *why, size_t len)
{
	char fio[FSB_PATH_MAX];
	struct statvfs vf;

	if (!c->cfg.fio[0])
		return 0;
	if (fsb_fio_find(c, fr->fs, fio, sizeof(fio), why, len) < 0)
		return -1;
	if (fsb_fresh_get(fr, "fio", why, len) < 0)
		return -1;
	/* fio_size, or what fits: 80 % of the free space, whole MiB */
	uint64_t size = c->cfg.fio_size;
	if (statvfs(fr->mnt, &vf) == 0) {
		uint64_t room = (uint64_t)vf.f_bavail * vf.f_frsize / 10 * 8;
		if (size > room) {
			size = room & ~((1ull << 20) - 1);
			fsb_note(c, "%s: fio_size %" PRIu64 " is more than fits; each fio workload uses %" PRIu64
				 " bytes (80 %% of the free space)", fr->fs, c->cfg.fio_size, size);
		}
	}
	if (size < (1u << 20)) {
		snprintf(why, len, "fio: less than 1 MiB free on %s", fr->mnt);
		fsb_error_rec(c, fr->fs, 0, "fio", "fio", fr->mnt, ENOSPC, 1, why);
		return -1;
	}
	fr->fresh = 0;
	return each(c, fio, fr->fs, fr->mnt, NULL, size, why, len);
}

int fsb_fio_raw(struct fsb_ctx *c, const struct fsb_disk *target)
{
	char fio[FSB_PATH_MAX], why[512];

	if (!c->cfg.fio[0] || !c->cfg.fio_raw || !target)
		return 0;
	if (fsb_zoned_strict(&target->zoned)) {	/* fio's zonemode=zbd is not used */
		fsb_note(c, "fio_raw: not run on %s: a host-managed zoned device takes sequential writes only",
			 target->path);
		return 0;
	}
	fsb_kmsg_mark(c, "raw", 0, NULL);
	if (fsb_fio_find(c, "raw", fio, sizeof(fio), why, sizeof(why)) < 0)
		return -1;
	uint64_t size = c->cfg.fio_size;
	if (target->size && size > target->size)
		size = target->size;
	int rc = each(c, fio, "raw", NULL, target->path, size, why, sizeof(why));
	fsb_kmsg_mark(c, NULL, 0, NULL);
	if (rc < 0)
		fsb_say(c->say, "raw %s: %s", target->path, why);
	return rc;
}

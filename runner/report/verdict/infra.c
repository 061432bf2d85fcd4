/* infra.c: ERROR apart from FAIL. A check that fails says something about
 * the disk only when the run could judge it; the records tell when it
 * could not:
 *
 *	the run	no record at all (the boot never reached the runner), no
 *		run_start, run_end `refused` (the target missing, mounted,
 *		too small), no run_end (the run broke off: a crash, a hang, a
 *		launcher's timeout), a fatal `error` record outside any
 *		filesystem that is not the disk's (not_disk[] below)
 *	a column	no fs_end, fs_end `skipped` (the kernel lacks the
 *		filesystem, its mkfs is not in the image), fs_end `failed`
 *		after a fatal `error` record of the column that is not the
 *		disk's (mount: no such filesystem type; mkfs that could not be
 *		started)
 *
 * A failing check is ERROR when its column could not be judged and the
 * check lacks its evidence (or is the column's `fs_ok`), when the evidence
 * it needs is absent and the run as a whole could not be judged,
 * or (`errors`) when every error record it counts is not the disk's. A
 * check measured and beyond its limit stays FAIL whatever happened later:
 * what was measured holds. */
#include "report/verdict/rules.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* What the runner records with an errno that tells a failure outside the
 * disk: (op, errno), errno 0 for any errno but ETIMEDOUT (a mkfs that ran
 * into its timeout may have hung on the disk). Not mount's ENOENT: the
 * runner makes its mount point, and a target that went away (unplugged)
 * leaves its device node gone, the disk's failure. */
static const struct {
	const char *op;
	int err;
	const char *what;
} not_disk[] = {
	{ "mount", ENODEV, "the kernel does not know the filesystem type" },
	{ "mount", EPERM, "no permission" },
	{ "mount", EACCES, "no permission" },
	{ "mount", EBUSY, "the target or the mount point is busy" },
	{ "mount", ENOMEM, "out of memory" },
	{ "mkfs", 0, "the mkfs tool could not be started" },
	{ "mkdir", ENOENT, "no such directory" },
	{ "mkdir", EACCES, "no permission" },
	{ "mkdir", EPERM, "no permission" },
	{ "capacity", EACCES, "no permission" },
	{ "capacity", EPERM, "no permission" },
	{ "capacity", EBUSY, "the target is busy" },
	{ "capacity", ENOMEM, "out of memory" },
	{ "alloc", 0, "out of memory" },
	{ "target", 0, "the target was refused" },
};

/* Why an error record is not the disk's, or NULL. */
static const char *event_not_disk(const struct rep_event *e)
{
	if (e->verify || !e->op)
		return NULL;
	for (size_t i = 0; i < sizeof(not_disk) / sizeof(not_disk[0]); i++) {
		if (strcmp(not_disk[i].op, e->op))
			continue;
		if (not_disk[i].err ? e->err_no == not_disk[i].err
				    : !strcmp(e->op, "target") || (e->err_no && e->err_no != ETIMEDOUT))
			return not_disk[i].what;
	}
	return NULL;
}

/* "OP FILE: MSG" of an error record, without FILE when MSG names it. */
static const char *event_text(const struct rep_event *e, char *buf, size_t len)
{
	const char *file = e->file && *e->file && !(e->msg && strstr(e->msg, e->file)) ? e->file : NULL;

	snprintf(buf, len, "%.40s%s%.80s: %.150s", e->op, file ? " " : "", file ? file : "",
		 e->msg && *e->msg ? e->msg : "failed");
	return buf;
}

static const char *or_none(const char *s)
{
	return s && *s ? s : NULL;
}

int vd_run_broken(const struct rep_run *r, char *why, size_t len)
{
	if (!r->have_start && !r->have_end && !r->nfs && !r->nph) {
		snprintf(why, len, "no record of the run: the boot never reached the runner");
		return 1;
	}
	if (!r->have_start) {
		snprintf(why, len, "no run_start record: the run's start is not in the records");
		return 1;
	}
	if (r->status && !strcmp(r->status, "refused")) {
		const char *msg = NULL;
		for (size_t i = 0; i < r->nev && !msg; i++)
			if (r->ev[i].op && !strcmp(r->ev[i].op, "target"))
				msg = or_none(r->ev[i].msg);
		snprintf(why, len, "the runner refused the target: %.200s", msg ? msg : "no reason recorded");
		return 1;
	}
	if (!r->have_end) {
		if (r->nph) {
			const struct rep_phase *p = &r->ph[r->nph - 1];
			snprintf(why, len, "no run_end record: the run broke off after %.40s round %u %.40s",
				 p->fs, p->round, p->phase);
		} else {
			snprintf(why, len, "no run_end record: the run broke off");
		}
		return 1;
	}
	for (size_t i = 0; i < r->nev; i++) {
		const struct rep_event *e = &r->ev[i];
		const char *w = e->fatal && !e->fs ? event_not_disk(e) : NULL;
		if (w) {
			char t[300];
			snprintf(why, len, "%.120s (%s: not the disk's)", event_text(e, t, sizeof(t)), w);
			return 1;
		}
	}
	return 0;
}

int vd_fs_broken(const struct rep_run *r, const char *fs, char *why, size_t len)
{
	const struct rep_fs *f = NULL;

	for (size_t i = 0; i < r->nfs && !f; i++)
		if (!strcmp(r->fs[i].name, fs))
			f = &r->fs[i];
	if (!f)
		return 0;
	if (!f->status) {
		snprintf(why, len, "%.40s: no fs_end record: the run broke off in it", fs);
		return 1;
	}
	if (!strcmp(f->status, "skipped")) {
		snprintf(why, len, "%.40s was skipped: %.200s", fs,
			 or_none(f->reason) ? f->reason : "no reason recorded");
		return 1;
	}
	if (strcmp(f->status, "failed"))
		return 0;
	for (size_t i = 0; i < r->nev; i++) {
		const struct rep_event *e = &r->ev[i];
		const char *w = e->fatal && e->fs && !strcmp(e->fs, fs) ? event_not_disk(e) : NULL;
		if (w) {
			snprintf(why, len, "%.40s: %.180s (%s: not the disk's)", fs,
				 or_none(f->reason) ? f->reason : e->msg ? e->msg : e->op, w);
			return 1;
		}
	}
	return 0;
}

/* An `errors` check whose every counted record is not the disk's. */
static int errors_not_disk(const struct vd_check *k, const struct rep_run *r, char *why, size_t len)
{
	double phase = 0, disk = 0;
	const struct rep_event *first = NULL;

	if (!k->key || strcmp(k->key, "errors") || isnan(k->bound) || r->nev_total > r->nev)
		return 0;
	for (size_t j = 0; j < r->nph; j++)
		phase += (double)r->ph[j].errors;
	for (size_t i = 0; i < r->nev; i++) {
		if (r->ev[i].verify)
			continue;
		if (!event_not_disk(&r->ev[i]))
			disk++;
		else if (!first)
			first = &r->ev[i];
	}
	if (!first || phase > k->bound || disk > k->bound)
		return 0;
	char t[300];
	snprintf(why, len, "the error records beyond the limit are not the disk's: %.150s",
		 event_text(first, t, sizeof(t)));
	return 1;
}

void vd_classify(struct vd_result *res, const struct rep_run *r)
{
	char run_why[256];
	int broken = vd_run_broken(r, run_why, sizeof(run_why));

	for (size_t i = 0; i < res->n; i++) {
		struct vd_check *k = &res->check[i];
		if (k->pass) {
			k->kind = VD_PASS;
		} else if (k->skip) {
			k->kind = VD_SKIP;
		} else if (k->fs && (k->absent || !k->measured_ok || (k->key && !strcmp(k->key, "fs_ok"))) &&
			   vd_fs_broken(r, k->fs, k->why, sizeof(k->why))) {
			k->kind = VD_ERROR;
		} else if ((k->absent || !k->measured_ok) && broken) {
			k->kind = VD_ERROR;
			snprintf(k->why, sizeof(k->why), "%s", run_why);
		} else if (errors_not_disk(k, r, k->why, sizeof(k->why))) {
			k->kind = VD_ERROR;
		} else {
			k->kind = VD_FAIL;
		}
	}
}

/* The run as a check of its own, only when it could not be judged: the
 * verdict then says why even where no rule needs the missing records. */
int vd_check_run(struct vd_result *res, const struct rep_run *r)
{
	char why[256];

	if (!vd_run_broken(r, why, sizeof(why)))
		return 0;
	if (vd_grow((void **)&res->check, &res->cap, res->n, sizeof(*res->check))) {
		vd_result_free(res);
		return -ENOMEM;
	}
	struct vd_check *k = &res->check[res->n++];
	memset(k, 0, sizeof(*k));
	k->value = k->bound = NAN;
	k->unit = "";
	k->absent = 1;
	snprintf(k->what, sizeof(k->what), "fsbench run ran to its end");
	/* the fact, up to the reason's first ':' ("no run_end record") */
	snprintf(k->measured, sizeof(k->measured), "%.*s", (int)strcspn(why, ":"), why);
	snprintf(k->limit, sizeof(k->limit), "run_start, run_end not refused");
	snprintf(k->where, sizeof(k->where), "the run's records");
	vd_classify(res, r);
	vd_result_done(res);
	return 0;
}

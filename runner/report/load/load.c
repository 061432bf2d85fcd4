/* load.c: result records (JSON lines) -> the in-memory run model (model.h). */
#include "report/load/loader.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

#define O(T, m) offsetof(struct T, m)
/* What each item of a run owns. */
static const size_t fs_owned[] = {
	O(rep_fs, name), O(rep_fs, status), O(rep_fs, reason), O(rep_fs, base), O(rep_fs, v_mkfs),
	O(rep_fs, v_mount), O(rep_fs, v_source), O(rep_fs, v_unsafe), O(rep_fs, mkfs_argv),
	O(rep_fs, mount_opts), O(rep_fs, mi_opts), O(rep_fs, mi_super), O(rep_fs, device),
	O(rep_fs, zoned_mode), O(rep_fs, zoned_device),
};
const size_t ld_phase_owned[3] = { O(rep_phase, phase), O(rep_phase, order), O(rep_phase, trim) };
static const size_t event_owned[] = {
	O(rep_event, fs), O(rep_event, phase), O(rep_event, op), O(rep_event, file), O(rep_event, msg),
};
static const size_t disk_owned[] = {
	O(rep_disk, path), O(rep_disk, model), O(rep_disk, serial), O(rep_disk, transport),
	O(rep_disk, partlabel),
};
static const size_t layout_owned[] = {
	O(rep_layout, error), O(rep_layout, pic[0]), O(rep_layout, pic[1]),
};
static const size_t kmsg_owned[] = { O(rep_kmsg, fs), O(rep_kmsg, phase), O(rep_kmsg, text) };
static const size_t check_owned[] = {
	O(rep_check, what), O(rep_check, measured), O(rep_check, limit), O(rep_check, where),
	O(rep_check, result), O(rep_check, why), O(rep_check, known), O(rep_check, known_where),
	O(rep_check, known_until),
};
#undef O

static void checks_free(struct rep_run *r)
{
	ld_free_array(r->chk, r->nchk, sizeof(*r->chk), LD_OWNED(check_owned));
	r->chk = NULL;
	r->nchk = 0;
}

static void run_free(struct rep_run *r)
{
	char **strs[] = {
		&r->run_id, &r->hostname, &r->kernel, &r->kernel_build, &r->machine, &r->cpu_model,
		&r->cpus, &r->mem_bytes, &r->target_path, &r->target_model,
		&r->target_serial, &r->target_size, &r->target_spec, &r->profile, &r->cfg_fs,
		&r->dirs, &r->files, &r->file_size, &r->workers, &r->rounds,
		&r->mode, &r->version, &r->status, &r->kmsg_source, &r->target_pcie_speed,
		&r->target_pcie_width, &r->time_unix, &r->dt_model, &r->dmi_product,
		&r->zone_model, &r->zone_bytes, &r->zone_count, &r->zone_max_open, &r->zone_max_active,
		&r->zone_cap_min, &r->zone_conventional, &r->zoned_conv_path,
		&r->target_write_cache, &r->target_fua,
	};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(*strs[i]);
	ld_settings_free(r);
	ld_free_array(r->fs, r->nfs, sizeof(*r->fs), LD_OWNED(fs_owned));
	ld_fio_free(r);
	ld_free_array(r->ph, r->nph, sizeof(*r->ph), LD_OWNED(ld_phase_owned));
	ld_free_array(r->ev, r->nev, sizeof(*r->ev), LD_OWNED(event_owned));
	ld_free_array(r->disk, r->ndisk, sizeof(*r->disk), LD_OWNED(disk_owned));
	ld_free_array(r->lay, r->nlay, sizeof(*r->lay), LD_OWNED(layout_owned));
	ld_freespace_free(r);
	ld_free_array(r->km, r->nkm, sizeof(*r->km), LD_OWNED(kmsg_owned));
	for (int i = 0; i < REP_HEALTH_N; i++)
		ld_health_free(&r->health[i]);
	ld_space_free(r);
	ld_powercut_free(r);
	ld_capacity_free(r);
	ld_sustain_free(r);
	ld_fileserver_free(r);
	ld_discard_free(r);
	ld_reps_free(r);
	ld_control_free(r);
	checks_free(r);
	free(r);
}

void rep_free(struct rep_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nruns; i++)
		run_free(set->runs[i]);
	free(set->runs);
	free(set->path);
	memset(set, 0, sizeof(*set));
}

static struct rep_run *run_get(struct loader *L, const char *id)
{
	struct rep_set *s = L->set;

	if (L->last && strcmp(L->last->run_id, id) == 0)
		return L->last;
	for (size_t i = 0; i < s->nruns; i++)
		if (strcmp(s->runs[i]->run_id, id) == 0)
			return L->last = s->runs[i];
	if (ld_grow((void **)&s->runs, &s->capruns, s->nruns, sizeof(*s->runs)))
		return NULL;
	struct rep_run *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->run_id = strdup(id);
	if (!r->run_id) {
		free(r);
		return NULL;
	}
	r->exit_code = -1;
	r->seconds = -1;
	r->kmsg_lost = -1;
	s->runs[s->nruns++] = r;
	return L->last = r;
}

static struct rep_fs *fs_get(struct rep_run *r, const char *name)
{
	for (size_t i = 0; i < r->nfs; i++)
		if (strcmp(r->fs[i].name, name) == 0)
			return &r->fs[i];
	if (ld_grow((void **)&r->fs, &r->capfs, r->nfs, sizeof(*r->fs)))
		return NULL;
	struct rep_fs *f = &r->fs[r->nfs];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	f->base = strndup(name, strcspn(name, ":"));	/* until fs_start says */
	if (!f->name || !f->base) {
		free(f->name);
		free(f->base);
		return NULL;
	}
	r->nfs++;
	return f;
}

/* fs_start: a variant's row, the commands as run, the mount as the kernel
 * reports it. */
static int load_fs_start(struct loader *L, struct rep_fs *fs, const struct jsonr *rec)
{
	const struct jsonr *v = jsonr_get(rec, "variant");
	const struct jsonr *mi = jsonr_get(rec, "mountinfo");

	if (jsonr_is(v, JSONR_OBJ)) {
		fs->variant = 1;
		const char *base = jsonr_str(jsonr_get(v, "base"));
		if (base && *base) {
			char *b = strdup(base);
			if (!b)
				return ld_oom(L);
			free(fs->base);
			fs->base = b;
		}
		if (ld_set_texts(v, "mkfs", &fs->v_mkfs, "mount", &fs->v_mount, "source", &fs->v_source,
				 "unsafe", &fs->v_unsafe, (char *)NULL))
			return ld_oom(L);
	}
	if (ld_set_text(&fs->mkfs_argv, jsonr_get(jsonr_get(rec, "mkfs"), "argv")) ||
	    ld_set_texts(rec, "mount_opts", &fs->mount_opts, "device", &fs->device, "zoned_mode",
			 &fs->zoned_mode, "zoned_device", &fs->zoned_device, (char *)NULL) ||
	    ld_set_texts(mi, "opts", &fs->mi_opts, "super_opts", &fs->mi_super, (char *)NULL))
		return ld_oom(L);
	return 0;
}

static int load_run_start(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	const struct jsonr *host = jsonr_get(rec, "host");
	const struct jsonr *tgt = jsonr_get(rec, "target");
	const struct jsonr *cfg = jsonr_get(rec, "config");
	const struct jsonr *zn = jsonr_get(tgt, "zoned"), *zr = jsonr_get(zn, "report");
	if (ld_set_texts(zn, "model", &r->zone_model, "zone_bytes", &r->zone_bytes, "zones",
			 &r->zone_count, "max_open_zones", &r->zone_max_open, "max_active_zones",
			 &r->zone_max_active, (char *)NULL) ||
	    ld_set_texts(zr, "capacity_min_bytes", &r->zone_cap_min, "conventional",
			 &r->zone_conventional, (char *)NULL) ||
	    ld_set_text(&r->zoned_conv_path, jsonr_get(jsonr_get(rec, "zoned_conv"), "path")) ||
	    ld_set_texts(host, "hostname", &r->hostname, "kernel", &r->kernel, "kernel_build",
			 &r->kernel_build, "machine", &r->machine, "cpu_model", &r->cpu_model, "cpus",
			 &r->cpus, "mem_bytes", &r->mem_bytes, "dt_model", &r->dt_model, (char *)NULL) ||
	    ld_set_text(&r->dmi_product, jsonr_get(jsonr_get(host, "dmi"), "product_name")) ||
	    ld_set_texts(tgt, "path", &r->target_path, "model", &r->target_model, "serial",
			 &r->target_serial, "size_bytes", &r->target_size, "pcie_link_speed",
			 &r->target_pcie_speed, "pcie_link_width", &r->target_pcie_width, "write_cache",
			 &r->target_write_cache, "fua", &r->target_fua, (char *)NULL) ||
	    ld_set_texts(cfg, "target", &r->target_spec, "profile", &r->profile, "fs", &r->cfg_fs,
			 "dirs", &r->dirs, "files", &r->files, "file_size", &r->file_size, "workers",
			 &r->workers, "rounds", &r->rounds, (char *)NULL) ||
	    ld_set_texts(rec, "mode", &r->mode, "version", &r->version, "kmsg", &r->kmsg_source,
			 "time_unix", &r->time_unix, (char *)NULL))
		return ld_oom(L);
	if (ld_load_settings(r, cfg))
		return ld_oom(L);
	r->have_start = 1;
	return 0;
}

static double opt_num(const struct jsonr *rec, const char *key, double dflt)
{
	double v = jsonr_num(jsonr_get(rec, key), dflt);
	return isfinite(v) ? v : dflt;
}

/* A required whole number >= 0 (a count, a block number). */
static int need_layout_u64(struct loader *L, const struct jsonr *v, const char *what,
			   uint64_t *out)
{
	*out = jsonr_u64(v, UINT64_MAX);
	if (*out == UINT64_MAX)
		return ld_bad(L, "layout record: \"%s\" must be a whole number >= 0", what);
	return 0;
}

static int load_layout_order(struct loader *L, const struct jsonr *rec, const char *key,
			     struct rep_layout_order *o)
{
	const struct jsonr *obj = jsonr_get(rec, key);
	char what[64];

	if (!jsonr_is(obj, JSONR_OBJ))
		return ld_bad(L, "layout record without a \"%s\" object (or an \"error\")", key);
	static const char *const fk[2] = { "forward", "near" };
	double *fv[2] = { &o->forward, &o->near };
	for (int i = 0; i < 2; i++) {
		const struct jsonr *v = jsonr_get(obj, fk[i]);
		*fv[i] = jsonr_num(v, -1);	/* -1 when absent or not a number */
		if (!(*fv[i] >= 0 && *fv[i] <= 1))
			return ld_bad(L, "layout record: \"%s.%s\" must be a number from 0 to 1",
				   key, fk[i]);
	}
	snprintf(what, sizeof(what), "%s.median_jump_blocks", key);
	return need_layout_u64(L, jsonr_get(obj, "median_jump_blocks"), what, &o->median_jump);
}

/* name_blocks or inode_blocks (optional): into y->pic[k]. */
static int load_layout_pic(struct loader *L, const struct jsonr *rec, const char *key,
			   struct rep_layout *y, int k)
{
	const struct jsonr *a = jsonr_get(rec, key);
	size_t n = jsonr_len(a);

	if (!a)
		return 0;
	if (!jsonr_is(a, JSONR_ARR))
		return ld_bad(L, "layout record: \"%s\" must be an array of block numbers", key);
	if (n > REP_LAYOUT_PICTURE)
		n = REP_LAYOUT_PICTURE;
	if (!(y->pic[k] = malloc((n ? n : 1) * sizeof(*y->pic[k]))))
		return ld_oom(L);
	for (size_t i = 0; i < n; i++) {
		uint64_t b = jsonr_u64(jsonr_at(a, i), UINT64_MAX);
		if (b == UINT64_MAX)
			return ld_bad(L, "layout record: \"%s\" must be an array of block numbers",
				      key);
		y->pic[k][i] = b;
	}
	y->npic[k] = n;
	return 0;
}

static int load_layout(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_layout y;
	const char *fsname;
	int rc;

	memset(&y, 0, sizeof(y));
	if ((rc = ld_need_strs(L, rec, "layout", "fs", &fsname, (char *)NULL)) ||
	    (rc = ld_need_round(L, rec, "layout", &y.round)))
		return rc;
	y.line = L->line;
	const struct jsonr *ev = jsonr_get(rec, "error");
	if (ev && !(jsonr_is(ev, JSONR_STR) && *ev->str))
		return ld_bad(L, "layout record: \"error\" must be a non-empty string");
	if (!ev) {	/* the numbers are there only without an error */
		if ((rc = need_layout_u64(L, jsonr_get(rec, "files"), "files", &y.files)) ||
		    (rc = load_layout_order(L, rec, "name_order", &y.name)) ||
		    (rc = load_layout_order(L, rec, "inode_order", &y.inode)))
			return rc;
		const struct jsonr *fb = jsonr_get(rec, "first_blocks");	/* optional */
		if (fb && !jsonr_is(fb, JSONR_ARR))
			return ld_bad(L, "layout record: \"first_blocks\" must be an array of"
				   " block numbers");
		for (size_t i = 0; i < jsonr_len(fb); i++) {
			uint64_t b = jsonr_u64(jsonr_at(fb, i), UINT64_MAX);
			if (b == UINT64_MAX)
				return ld_bad(L, "layout record: \"first_blocks\" must be an array of"
					   " block numbers");
			if (y.nfirst < REP_LAYOUT_FIRST)
				y.first[y.nfirst++] = b;
		}
	}

	struct rep_fs *fs = fs_get(r, fsname);
	if (!fs)
		return ld_oom(L);
	y.fs = fs->name;
	struct rep_layout *slot = NULL;
	for (size_t i = 0; i < r->nlay && !slot; i++)
		if (r->lay[i].fs == y.fs && r->lay[i].round == y.round)
			slot = &r->lay[i];	/* the same fs and round again: the later wins */
	if (!slot) {
		if (ld_grow((void **)&r->lay, &r->caplay, r->nlay, sizeof(*r->lay)))
			return ld_oom(L);
		slot = &r->lay[r->nlay];
		memset(slot, 0, sizeof(*slot));
		r->nlay++;
	}
	if (ev && !(y.error = strdup(ev->str)))
		return ld_oom(L);
	if (!ev && ((rc = load_layout_pic(L, rec, "name_blocks", &y, 0)) ||
		    (rc = load_layout_pic(L, rec, "inode_blocks", &y, 1)))) {
		ld_free_members(&y, 1, sizeof(y), LD_OWNED(layout_owned));
		return rc;
	}
	ld_free_members(slot, 1, sizeof(*slot), LD_OWNED(layout_owned));
	*slot = y;
	return 0;
}

static int load_phase(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	const char *fsname, *phase;
	unsigned round;
	int rc;
	if ((rc = ld_need_strs(L, rec, "phase", "fs", &fsname, "phase", &phase, (char *)NULL)) ||
	    (rc = ld_need_round(L, rec, "phase", &round)))
		return rc;
	double secs = jsonr_num(jsonr_get(rec, "seconds"), -1);
	if (!(secs >= 0 && isfinite(secs)))
		return ld_bad(L, "phase record: \"seconds\" must be a number >= 0");

	struct rep_fs *fs = fs_get(r, fsname);
	if (!fs || ld_grow((void **)&r->ph, &r->capph, r->nph, sizeof(*r->ph)))
		return ld_oom(L);
	struct rep_phase *p = &r->ph[r->nph];
	memset(p, 0, sizeof(*p));
	p->fs = fs->name;
	p->round = round;
	double rep = jsonr_num(jsonr_get(rec, "rep"), 1);
	if (!(rep >= 1 && rep <= 1e6 && rep == (unsigned)rep))
		return ld_bad(L, "phase record: \"rep\" must be a whole number >= 1");
	p->rep = (unsigned)rep;
	p->after_aging = jsonr_bool(jsonr_get(rec, "after_aging"), 0) == 1;
	p->seconds = secs;
	p->line = L->line;
	p->phase = strdup(phase);
	p->order = dup_or_null(jsonr_str(jsonr_get(rec, "order")));
	if (!p->phase || (jsonr_str(jsonr_get(rec, "order")) && !p->order)) {
		ld_free_members(p, 1, sizeof(*p), LD_OWNED(ld_phase_owned));
		return ld_oom(L);
	}
	p->cold = jsonr_bool(jsonr_get(rec, "cold"), -1);
	p->nrep = 1;
	if (p->rep > r->reps)
		r->reps = p->rep;
	p->files = jsonr_u64(jsonr_get(rec, "files"), 0);
	p->bytes = jsonr_u64(jsonr_get(rec, "bytes"), 0);
	p->files_per_s = opt_num(rec, "files_per_s", -1);
	if (p->files_per_s < 0)
		p->files_per_s = secs > 0 ? (double)p->files / secs : 0;
	p->errors = jsonr_u64(jsonr_get(rec, "errors"), 0);
	p->verify_errors = jsonr_u64(jsonr_get(rec, "verify_errors"), 0);
	p->verified = jsonr_bool(jsonr_get(rec, "verified"), -1);
	p->workers = (unsigned)jsonr_u64(jsonr_get(rec, "workers"), 0);
	p->sync_seconds = opt_num(rec, "sync_seconds", -1);
	if (ld_set_text(&p->trim, jsonr_get(rec, "trim"))) {
		ld_free_members(p, 1, sizeof(*p), LD_OWNED(ld_phase_owned));
		return ld_oom(L);
	}
	const struct jsonr *lat = jsonr_get(rec, "lat_ns");
	static const char *const lk[LAT_N] = { "p50", "p90", "p99", "p999", "max", "mean" };
	p->have_lat = jsonr_is(lat, JSONR_OBJ);
	for (int i = 0; i < LAT_N; i++)
		p->lat_ns[i] = opt_num(lat, lk[i], -1);
	fs->nphases++;
	r->nph++;
	return 0;
}

static int load_fs_end(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	int rc = 0;
	const char *name = ld_need_str(L, rec, "fs_end", "fs", &rc);
	if (rc)
		return rc;
	struct rep_fs *fs = fs_get(r, name);
	if (!fs)
		return ld_oom(L);
	const struct jsonr *st = jsonr_get(rec, "status");
	if (ld_set_text(&fs->status, st) || ld_set_text(&fs->reason, jsonr_get(rec, "reason")))
		return ld_oom(L);
	if (!fs->status && !(fs->status = strdup("unknown")))
		return ld_oom(L);
	return 0;
}

/* The "disks" list of a refusal; the first one a run has is kept. */
static int load_disks(struct loader *L, struct rep_run *r, const struct jsonr *list)
{
	size_t n = jsonr_len(list);
	if (r->ndisk || !jsonr_is(list, JSONR_ARR) || !n)
		return 0;
	if (n > REP_MAX_DISKS)
		n = REP_MAX_DISKS;
	free(r->disk);	/* an earlier list without a single disk object */
	r->disk = calloc(n, sizeof(*r->disk));
	if (!r->disk)
		return ld_oom(L);
	for (size_t i = 0; i < n; i++) {
		const struct jsonr *d = jsonr_at(list, i);
		struct rep_disk *k = &r->disk[r->ndisk];
		if (!jsonr_is(d, JSONR_OBJ))
			continue;
		r->ndisk++;	/* counted now so run_free releases what is set below */
		if (ld_set_texts(d, "path", &k->path, "model", &k->model, "serial", &k->serial,
				 "transport", &k->transport, "partlabel", &k->partlabel, (char *)NULL))
			return ld_oom(L);
		k->size = jsonr_u64(jsonr_get(d, "size_bytes"), 0);
	}
	return 0;
}

static int load_event(struct loader *L, struct rep_run *r, const struct jsonr *rec,
		      int verify)
{
	if (!verify && jsonr_bool(jsonr_get(rec, "refused"), 0)) {
		int e = load_disks(L, r, jsonr_get(rec, "disks"));
		if (e)
			return e;
	}
	r->nev_total++;
	if (verify)
		r->nverify_errors++;
	else
		r->nerrors++;
	if (r->nev >= REP_MAX_EVENTS)
		return 0;
	if (ld_grow((void **)&r->ev, &r->capev, r->nev, sizeof(*r->ev)))
		return ld_oom(L);
	struct rep_event *e = &r->ev[r->nev];
	memset(e, 0, sizeof(*e));
	e->verify = verify;
	r->nev++;	/* counted now so run_free releases what is set below */
	if (ld_set_texts(rec, "fs", &e->fs, "phase", &e->phase, verify ? "what" : "op", &e->op,
			 "file", &e->file, "msg", &e->msg, (char *)NULL))
		return ld_oom(L);
	double round = opt_num(rec, "round", 0);
	e->round = round >= 0 && round <= 1e9 ? (long)round : 0;
	double en = opt_num(rec, "errno", 0);
	e->err_no = en >= -1e9 && en <= 1e9 ? (long)en : 0;
	e->fatal = jsonr_bool(jsonr_get(rec, "fatal"), 0);
	e->offset = jsonr_u64(jsonr_get(rec, "offset"), 0);
	e->count = jsonr_u64(jsonr_get(rec, "count"), 0);
	return 0;
}

/* A `verdict` record: the later one replaces an earlier one. */
static int load_verdict(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	const struct jsonr *list = jsonr_get(rec, "check");
	size_t n = jsonr_len(list);

	if (!jsonr_is(list, JSONR_ARR))
		return ld_bad(L, "verdict record without a \"check\" array");
	checks_free(r);
	r->have_verdict = 1;
	r->verdict_strict = jsonr_bool(jsonr_get(rec, "strict"), 0);
	if (!n)
		return 0;
	if (!(r->chk = calloc(n, sizeof(*r->chk))))
		return ld_oom(L);
	for (size_t i = 0; i < n; i++) {
		const struct jsonr *c = jsonr_at(list, i);
		struct rep_check *k = &r->chk[r->nchk];
		if (!jsonr_is(c, JSONR_OBJ) || !jsonr_is(jsonr_get(c, "pass"), JSONR_BOOL))
			return ld_bad(L, "verdict record: check %zu is not an object with a \"pass\""
				   " boolean", i);
		r->nchk++;	/* counted now so run_free releases what is set below */
		k->pass = jsonr_bool(jsonr_get(c, "pass"), 0);
		if (ld_set_texts(c, "what", &k->what, "measured", &k->measured, "limit", &k->limit,
				 "where", &k->where, "result", &k->result, "why", &k->why, "known",
				 &k->known, "known_where", &k->known_where, "known_until",
				 &k->known_until, (char *)NULL))
			return ld_oom(L);
		k->known_expired = jsonr_bool(jsonr_get(c, "known_expired"), 0);
	}
	return 0;
}

static int load_run_end(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	if (ld_set_text(&r->status, jsonr_get(rec, "status")))
		return ld_oom(L);
	double ec = opt_num(rec, "exit_code", -1);
	r->exit_code = ec >= 0 && ec <= 255 ? (long)ec : -1;
	r->seconds = opt_num(rec, "seconds", -1);
	uint64_t lost = jsonr_u64(jsonr_get(rec, "kmsg_lost"), UINT64_MAX);
	r->kmsg_lost = lost <= INT64_MAX ? (long long)lost : -1;
	r->have_end = 1;
	return 0;
}

static int load_error(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	return load_event(L, r, rec, 0);
}

static int load_verify_error(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	return load_event(L, r, rec, 1);
}

static int load_kmsg(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	return ld_load_kmsg(L, r, rec, 0);
}

static int load_kmsg_dropped(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	return ld_load_kmsg(L, r, rec, 1);
}

/* fs_start and phase_start: the filesystem order of the run is the order
 * they start. *f is the column (NULL for a record without an fs). */
static int start_fs(struct loader *L, struct rep_run *r, const struct jsonr *rec,
		    struct rep_fs **f)
{
	const char *fs = jsonr_str(jsonr_get(rec, "fs"));

	*f = fs && *fs ? fs_get(r, fs) : NULL;
	return fs && *fs && !*f ? ld_oom(L) : 0;
}

static int load_phase_start(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_fs *f;

	return start_fs(L, r, rec, &f);
}

/* fs_start also says what the column is. */
static int load_fs_start_rec(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_fs *f;
	int e = start_fs(L, r, rec, &f);

	return e || !f ? e : load_fs_start(L, f, rec);
}

/* The loader of each record type the report reads (log/schema.h's rows,
 * by type id); a type without one (note, mkfs) is not part of the tables. */
static const ld_hook hooks[FSB_REC_N] = {
	[FSB_REC_run_start] = load_run_start,
	[FSB_REC_fs_start] = load_fs_start_rec,
	[FSB_REC_phase_start] = load_phase_start,
	[FSB_REC_phase] = load_phase,
	[FSB_REC_verify_error] = load_verify_error,
	[FSB_REC_error] = load_error,
	[FSB_REC_layout] = load_layout,
	[FSB_REC_freespace] = ld_load_freespace,
	[FSB_REC_kmsg] = load_kmsg,
	[FSB_REC_kmsg_dropped] = load_kmsg_dropped,
	[FSB_REC_health] = ld_load_health,
	[FSB_REC_space] = ld_load_space,
	[FSB_REC_fio] = ld_load_fio,
	[FSB_REC_fill] = ld_load_fill,
	[FSB_REC_powercut] = ld_load_powercut,
	[FSB_REC_capacity] = ld_load_capacity,
	[FSB_REC_discard_check] = ld_load_discard,
	[FSB_REC_fs_end] = load_fs_end,
	[FSB_REC_run_end] = load_run_end,
	[FSB_REC_verdict] = load_verdict,
	[FSB_REC_sustain] = ld_load_sustain,
	[FSB_REC_sustain_series] = ld_load_sustain_series,
	[FSB_REC_repeat] = ld_load_repeat,
	[FSB_REC_control] = ld_load_control,
	[FSB_REC_fileserver] = ld_load_fileserver,
};

static int load_record(struct loader *L, const struct jsonr *rec)
{
	const char *type = jsonr_str(jsonr_get(rec, "type"));
	if (!type)
		return ld_bad(L, "record without a \"type\" string");
	const struct jsonr *idv = jsonr_get(rec, "run_id");
	if (!jsonr_is(idv, JSONR_STR) && !jsonr_is(idv, JSONR_NUM))
		return ld_bad(L, "%s record without a \"run_id\"", type);
	if (!*idv->str)
		return ld_bad(L, "%s record with an empty \"run_id\"", type);
	struct rep_run *r = run_get(L, idv->str);
	if (!r)
		return ld_oom(L);
	L->set->records++;

	int t = fsb_rec_lookup(type);	/* a type of a later runner: not read */
	return t >= 0 && hooks[t] ? hooks[t](L, r, rec) : 0;
}

/* One line without its '\n' into *buf (grown as needed, never past max
 * bytes: a longer line is read to its end and flagged). Returns 1 for a
 * line, 0 at the end of the input, -errno on a read error or no memory. */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len, size_t max,
		     int *toolong)
{
	size_t n = 0;
	int c, any = 0;

	*toolong = 0;
	errno = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (n >= max) {
			*toolong = 1;
			continue;
		}
		if (n + 1 >= *cap) {
			size_t nc = *cap ? *cap * 2 : 4096;
			if (nc > max + 1)
				nc = max + 1;
			char *nb = realloc(*buf, nc);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
			*cap = nc;
		}
		(*buf)[n++] = (char)c;
	}
	if (c == EOF && ferror(f))
		return errno ? -errno : -EIO;
	if (!any)
		return 0;
	if (!*buf) {
		*buf = malloc(1);
		if (!*buf)
			return -ENOMEM;
		*cap = 1;
	}
	(*buf)[n] = '\0';
	*len = n;
	return 1;
}

/* A kernel message the serial console printed right after a record, before
 * its newline ("}[   12.555790] Buffer I/O error ..."): printk writes to
 * the port beside the tty's output. True when s (len bytes) starts with
 * such a timestamp: "[", spaces, digits, ".", digits, "] ". */
static int printk_after(const char *s, size_t len)
{
	size_t i = 0, d;

	if (i >= len || s[i++] != '[')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || i >= len || s[i++] != '.')
		return 0;
	for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	return i > d && i + 1 < len && s[i] == ']' && s[i + 1] == ' ';
}

int rep_load_stream(struct rep_set *set, FILE *f, const char *name,
		    char *err, size_t errlen)
{
	struct loader L = { .set = set, .name = name, .err = err, .errlen = errlen };
	char *line = NULL;
	size_t cap = 0, n = 0;
	int rc = 0, got, toolong;

	if (!set->path && !(set->path = strdup(name)))
		return ld_oom(&L);
	if (err && errlen)
		err[0] = '\0';
	while ((got = read_line(f, &line, &cap, &n, REP_MAX_LINE, &toolong)) > 0) {
		L.line++;
		set->lines++;
		if (toolong) {
			rc = ld_bad(&L, "line too long (more than %u bytes)", REP_MAX_LINE);
			break;
		}
		const char *brace = memchr(line, '{', n);
		if (!brace)
			continue;	/* console noise */
		size_t prefix = (size_t)(brace - line);
		size_t end = n;	/* a CR of a CRLF ending is not part of the record */
		while (end > prefix && line[end - 1] == '\r')
			end--;
		struct jsonr_doc *doc;
		struct jsonr_err je;
		rc = jsonr_parse(brace, end - prefix, &doc, &je);
		/* on a console line (a prefix before the record), a kernel
		 * message right after the record is not part of it */
		if (rc == -EINVAL && prefix > 0 && je.column > 1 && je.column - 1 < end - prefix &&
		    printk_after(brace + je.column - 1, end - prefix - (je.column - 1)))
			rc = jsonr_parse(brace, je.column - 1, &doc, &je);
		if (rc == -ENOMEM) {
			rc = ld_oom(&L);
			break;
		}
		if (rc) {
			rc = ld_bad(&L, "%s at column %zu", je.msg, prefix + je.column);
			break;
		}
		rc = load_record(&L, jsonr_root(doc));
		jsonr_free(doc);
		if (rc)
			break;
	}
	for (size_t i = 0; !rc && got >= 0 && i < set->nruns; i++)
		if ((rc = ld_fold_reps(set->runs[i])))
			rc = ld_oom(&L);
	if (!rc && got == -ENOMEM) {
		rc = ld_oom(&L);
	} else if (!rc && got < 0) {
		rc = got;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", name, strerror(-rc));
	}
	free(line);
	return rc;
}

int rep_load(struct rep_set *set, const char *run, char *err, size_t errlen)
{
	struct stat st;
	char *path;
	int rc;

	memset(set, 0, sizeof(*set));
	if (strcmp(run, "-") == 0)
		return rep_load_stream(set, stdin, "(stdin)", err, errlen);
	if (stat(run, &st) == 0 && S_ISDIR(st.st_mode)) {
		size_t n = strlen(run);
		const char *sep = n && run[n - 1] == '/' ? "" : "/";
		path = malloc(n + strlen(sep) + sizeof("records.jsonl"));
		if (!path)
			return -ENOMEM;
		sprintf(path, "%s%srecords.jsonl", run, sep);
	} else {
		path = strdup(run);
		if (!path)
			return -ENOMEM;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		rc = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return rc;
	}
	set->path = path;
	rc = rep_load_stream(set, f, path, err, errlen);
	fclose(f);
	return rc;
}

const struct rep_run *rep_find(const struct rep_set *set, const char *id)
{
	const struct rep_run *hit = NULL;

	if (!set->nruns)
		return NULL;
	if (!id)
		return set->runs[set->nruns - 1];
	for (size_t i = 0; i < set->nruns; i++)
		if (strcmp(set->runs[i]->run_id, id) == 0)
			return set->runs[i];
	size_t n = strlen(id);
	if (!n)
		return NULL;
	for (size_t i = 0; i < set->nruns; i++) {
		if (strncmp(set->runs[i]->run_id, id, n) == 0) {
			if (hit)
				return NULL;	/* ambiguous */
			hit = set->runs[i];
		}
	}
	return hit;
}

/* report.c: read result records back and print the tables (see report.h). */
#include "report/report.h"
#include "lib/jsonr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* loading                                                             */

struct loader {
	struct rep_set *set;
	const char *name;
	size_t line;
	char *err;
	size_t errlen;
	struct rep_run *last;	/* run of the previous record (fast path) */
};

static int bad(struct loader *L, const char *fmt, ...)
{
	if (L->err && L->errlen) {
		va_list ap;
		int n = snprintf(L->err, L->errlen, "%s:%zu: ", L->name, L->line);
		if (n < 0)
			n = 0;
		if ((size_t)n < L->errlen) {
			va_start(ap, fmt);
			vsnprintf(L->err + n, L->errlen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return -EBADMSG;
}

static int oom(struct loader *L)
{
	if (L->err && L->errlen)
		snprintf(L->err, L->errlen, "%s:%zu: out of memory", L->name, L->line);
	return -ENOMEM;
}

/* Grow *arr (of elem-sized items) so that one more fits. */
static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	if (nc > SIZE_MAX / elem)
		return -ENOMEM;
	void *p = realloc(*arr, nc * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Text of a scalar: a string as is, a number as written, a boolean. */
static char *scalar_text(const struct jsonr *v)
{
	if (!v)
		return NULL;
	switch (v->type) {
	case JSONR_STR:
	case JSONR_NUM:
		return strdup(v->str);
	case JSONR_BOOL:
		return strdup(v->boolean ? "true" : "false");
	default:
		return NULL;
	}
}

/* Replace *slot with the text of v (when v is a scalar). -ENOMEM or 0. */
static int set_text(char **slot, const struct jsonr *v)
{
	if (!v || v->type == JSONR_NULL || v->type == JSONR_ARR || v->type == JSONR_OBJ)
		return 0;
	char *t = scalar_text(v);
	if (!t)
		return -ENOMEM;
	free(*slot);
	*slot = t;
	return 0;
}

static void run_free(struct rep_run *r)
{
	char **strs[] = {
		&r->run_id, &r->hostname, &r->kernel, &r->machine, &r->cpu_model,
		&r->cpus, &r->mem_bytes, &r->target_path, &r->target_model,
		&r->target_serial, &r->target_size, &r->target_spec, &r->profile, &r->cfg_fs,
		&r->dirs, &r->files, &r->file_size, &r->workers, &r->rounds,
		&r->mode, &r->version, &r->status,
	};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(*strs[i]);
	for (size_t i = 0; i < r->nfs; i++) {
		free(r->fs[i].name);
		free(r->fs[i].status);
		free(r->fs[i].reason);
	}
	free(r->fs);
	for (size_t i = 0; i < r->nph; i++) {
		free(r->ph[i].phase);
		free(r->ph[i].order);
	}
	free(r->ph);
	for (size_t i = 0; i < r->nev; i++) {
		free(r->ev[i].fs);
		free(r->ev[i].phase);
		free(r->ev[i].op);
		free(r->ev[i].file);
		free(r->ev[i].msg);
	}
	free(r->ev);
	for (size_t i = 0; i < r->ndisk; i++) {
		free(r->disk[i].path);
		free(r->disk[i].model);
		free(r->disk[i].serial);
		free(r->disk[i].transport);
		free(r->disk[i].partlabel);
	}
	free(r->disk);
	for (size_t i = 0; i < r->nlay; i++)
		free(r->lay[i].error);
	free(r->lay);
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
	if (grow((void **)&s->runs, &s->capruns, s->nruns, sizeof(*s->runs)))
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
	s->runs[s->nruns++] = r;
	return L->last = r;
}

static struct rep_fs *fs_get(struct rep_run *r, const char *name)
{
	for (size_t i = 0; i < r->nfs; i++)
		if (strcmp(r->fs[i].name, name) == 0)
			return &r->fs[i];
	if (grow((void **)&r->fs, &r->capfs, r->nfs, sizeof(*r->fs)))
		return NULL;
	struct rep_fs *f = &r->fs[r->nfs];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	if (!f->name)
		return NULL;
	r->nfs++;
	return f;
}

static int load_run_start(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	const struct jsonr *host = jsonr_get(rec, "host");
	const struct jsonr *tgt = jsonr_get(rec, "target");
	const struct jsonr *cfg = jsonr_get(rec, "config");
	struct { char **slot; const struct jsonr *v; } f[] = {
		{ &r->hostname, jsonr_get(host, "hostname") },
		{ &r->kernel, jsonr_get(host, "kernel") },
		{ &r->machine, jsonr_get(host, "machine") },
		{ &r->cpu_model, jsonr_get(host, "cpu_model") },
		{ &r->cpus, jsonr_get(host, "cpus") },
		{ &r->mem_bytes, jsonr_get(host, "mem_bytes") },
		{ &r->target_path, jsonr_get(tgt, "path") },
		{ &r->target_model, jsonr_get(tgt, "model") },
		{ &r->target_serial, jsonr_get(tgt, "serial") },
		{ &r->target_size, jsonr_get(tgt, "size_bytes") },
		{ &r->target_spec, jsonr_get(cfg, "target") },
		{ &r->profile, jsonr_get(cfg, "profile") },
		{ &r->cfg_fs, jsonr_get(cfg, "fs") },
		{ &r->dirs, jsonr_get(cfg, "dirs") },
		{ &r->files, jsonr_get(cfg, "files") },
		{ &r->file_size, jsonr_get(cfg, "file_size") },
		{ &r->workers, jsonr_get(cfg, "workers") },
		{ &r->rounds, jsonr_get(cfg, "rounds") },
		{ &r->mode, jsonr_get(rec, "mode") },
		{ &r->version, jsonr_get(rec, "version") },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (set_text(f[i].slot, f[i].v))
			return oom(L);
	r->have_start = 1;
	return 0;
}

/* A required string member of a record. */
static const char *need_str(struct loader *L, const struct jsonr *rec,
			    const char *type, const char *key, int *rc)
{
	const char *s = jsonr_str(jsonr_get(rec, key));
	if (!s || !*s)
		*rc = bad(L, "%s record without a \"%s\" string", type, key);
	return s;
}

static double opt_num(const struct jsonr *rec, const char *key, double dflt)
{
	double v = jsonr_num(jsonr_get(rec, key), dflt);
	return isfinite(v) ? v : dflt;
}

/* The "round" of a phase or layout record: a whole number from 1. */
static int need_round(struct loader *L, const struct jsonr *rec, const char *type,
		      double *round)
{
	*round = jsonr_num(jsonr_get(rec, "round"), -1);
	if (!(*round >= 1 && *round <= 1000000 && *round == floor(*round)))
		return bad(L, "%s record: \"round\" must be a whole number from 1", type);
	return 0;
}

/* A required whole number >= 0 (a count, a block number). */
static int need_layout_u64(struct loader *L, const struct jsonr *v, const char *what,
			   uint64_t *out)
{
	*out = jsonr_u64(v, UINT64_MAX);
	if (*out == UINT64_MAX)
		return bad(L, "layout record: \"%s\" must be a whole number >= 0", what);
	return 0;
}

static int load_layout_order(struct loader *L, const struct jsonr *rec, const char *key,
			     struct rep_layout_order *o)
{
	const struct jsonr *obj = jsonr_get(rec, key);
	char what[64];

	if (!jsonr_is(obj, JSONR_OBJ))
		return bad(L, "layout record without a \"%s\" object (or an \"error\")", key);
	static const char *const fk[2] = { "forward", "near" };
	double *fv[2] = { &o->forward, &o->near };
	for (int i = 0; i < 2; i++) {
		const struct jsonr *v = jsonr_get(obj, fk[i]);
		*fv[i] = jsonr_num(v, -1);	/* -1 when absent or not a number */
		if (!(*fv[i] >= 0 && *fv[i] <= 1))
			return bad(L, "layout record: \"%s.%s\" must be a number from 0 to 1",
				   key, fk[i]);
	}
	snprintf(what, sizeof(what), "%s.median_jump_blocks", key);
	return need_layout_u64(L, jsonr_get(obj, "median_jump_blocks"), what, &o->median_jump);
}

static int load_layout(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	struct rep_layout y;
	double round;
	int rc = 0;

	memset(&y, 0, sizeof(y));
	const char *fsname = need_str(L, rec, "layout", "fs", &rc);
	if (rc)
		return rc;
	if ((rc = need_round(L, rec, "layout", &round)))
		return rc;
	y.round = (unsigned)round;
	y.line = L->line;
	const struct jsonr *ev = jsonr_get(rec, "error");
	if (ev && !(jsonr_is(ev, JSONR_STR) && *ev->str))
		return bad(L, "layout record: \"error\" must be a non-empty string");
	if (!ev) {	/* the numbers are there only without an error */
		if ((rc = need_layout_u64(L, jsonr_get(rec, "files"), "files", &y.files)) ||
		    (rc = load_layout_order(L, rec, "name_order", &y.name)) ||
		    (rc = load_layout_order(L, rec, "inode_order", &y.inode)))
			return rc;
		const struct jsonr *fb = jsonr_get(rec, "first_blocks");	/* optional */
		if (fb && !jsonr_is(fb, JSONR_ARR))
			return bad(L, "layout record: \"first_blocks\" must be an array of"
				   " block numbers");
		for (size_t i = 0; i < jsonr_len(fb); i++) {
			uint64_t b = jsonr_u64(jsonr_at(fb, i), UINT64_MAX);
			if (b == UINT64_MAX)
				return bad(L, "layout record: \"first_blocks\" must be an array of"
					   " block numbers");
			if (y.nfirst < REP_LAYOUT_FIRST)
				y.first[y.nfirst++] = b;
		}
	}

	struct rep_fs *fs = fs_get(r, fsname);
	if (!fs)
		return oom(L);
	y.fs = fs->name;
	struct rep_layout *slot = NULL;
	for (size_t i = 0; i < r->nlay && !slot; i++)
		if (r->lay[i].fs == y.fs && r->lay[i].round == y.round)
			slot = &r->lay[i];	/* the same fs and round again: the later wins */
	if (!slot) {
		if (grow((void **)&r->lay, &r->caplay, r->nlay, sizeof(*r->lay)))
			return oom(L);
		slot = &r->lay[r->nlay];
		memset(slot, 0, sizeof(*slot));
		r->nlay++;
	}
	if (ev && !(y.error = strdup(ev->str)))
		return oom(L);
	free(slot->error);
	*slot = y;
	return 0;
}

static int load_phase(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	int rc = 0;
	const char *fsname = need_str(L, rec, "phase", "fs", &rc);
	if (rc)
		return rc;
	const char *phase = need_str(L, rec, "phase", "phase", &rc);
	if (rc)
		return rc;
	double round;
	if ((rc = need_round(L, rec, "phase", &round)))
		return rc;
	double secs = jsonr_num(jsonr_get(rec, "seconds"), -1);
	if (!(secs >= 0 && isfinite(secs)))
		return bad(L, "phase record: \"seconds\" must be a number >= 0");

	struct rep_fs *fs = fs_get(r, fsname);
	if (!fs || grow((void **)&r->ph, &r->capph, r->nph, sizeof(*r->ph)))
		return oom(L);
	struct rep_phase *p = &r->ph[r->nph];
	memset(p, 0, sizeof(*p));
	p->fs = fs->name;
	p->round = (unsigned)round;
	p->seconds = secs;
	p->line = L->line;
	p->phase = strdup(phase);
	p->order = dup_or_null(jsonr_str(jsonr_get(rec, "order")));
	if (!p->phase || (jsonr_str(jsonr_get(rec, "order")) && !p->order)) {
		free(p->phase);
		free(p->order);
		return oom(L);
	}
	p->cold = jsonr_bool(jsonr_get(rec, "cold"), -1);
	p->files = jsonr_u64(jsonr_get(rec, "files"), 0);
	p->bytes = jsonr_u64(jsonr_get(rec, "bytes"), 0);
	p->files_per_s = opt_num(rec, "files_per_s", -1);
	if (p->files_per_s < 0)
		p->files_per_s = secs > 0 ? (double)p->files / secs : 0;
	p->errors = jsonr_u64(jsonr_get(rec, "errors"), 0);
	p->verify_errors = jsonr_u64(jsonr_get(rec, "verify_errors"), 0);
	p->workers = (unsigned)jsonr_u64(jsonr_get(rec, "workers"), 0);
	p->sync_seconds = opt_num(rec, "sync_seconds", -1);
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
	const char *name = need_str(L, rec, "fs_end", "fs", &rc);
	if (rc)
		return rc;
	struct rep_fs *fs = fs_get(r, name);
	if (!fs)
		return oom(L);
	const struct jsonr *st = jsonr_get(rec, "status");
	if (set_text(&fs->status, st) || set_text(&fs->reason, jsonr_get(rec, "reason")))
		return oom(L);
	if (!fs->status && !(fs->status = strdup("unknown")))
		return oom(L);
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
		return oom(L);
	for (size_t i = 0; i < n; i++) {
		const struct jsonr *d = jsonr_at(list, i);
		struct rep_disk *k = &r->disk[r->ndisk];
		if (!jsonr_is(d, JSONR_OBJ))
			continue;
		r->ndisk++;	/* counted now so run_free releases what is set below */
		if (set_text(&k->path, jsonr_get(d, "path")) ||
		    set_text(&k->model, jsonr_get(d, "model")) ||
		    set_text(&k->serial, jsonr_get(d, "serial")) ||
		    set_text(&k->transport, jsonr_get(d, "transport")) ||
		    set_text(&k->partlabel, jsonr_get(d, "partlabel")))
			return oom(L);
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
	if (r->nev >= REP_MAX_EVENTS)
		return 0;
	if (grow((void **)&r->ev, &r->capev, r->nev, sizeof(*r->ev)))
		return oom(L);
	struct rep_event *e = &r->ev[r->nev];
	memset(e, 0, sizeof(*e));
	e->verify = verify;
	r->nev++;	/* counted now so run_free releases what is set below */
	if (set_text(&e->fs, jsonr_get(rec, "fs")) ||
	    set_text(&e->phase, jsonr_get(rec, "phase")) ||
	    set_text(&e->op, jsonr_get(rec, verify ? "what" : "op")) ||
	    set_text(&e->file, jsonr_get(rec, "file")) ||
	    set_text(&e->msg, jsonr_get(rec, "msg")))
		return oom(L);
	double round = opt_num(rec, "round", 0);
	e->round = round >= 0 && round <= 1e9 ? (long)round : 0;
	double en = opt_num(rec, "errno", 0);
	e->err_no = en >= -1e9 && en <= 1e9 ? (long)en : 0;
	e->fatal = jsonr_bool(jsonr_get(rec, "fatal"), 0);
	e->offset = jsonr_u64(jsonr_get(rec, "offset"), 0);
	e->count = jsonr_u64(jsonr_get(rec, "count"), 0);
	return 0;
}

static int load_run_end(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	if (set_text(&r->status, jsonr_get(rec, "status")))
		return oom(L);
	double ec = opt_num(rec, "exit_code", -1);
	r->exit_code = ec >= 0 && ec <= 255 ? (long)ec : -1;
	r->seconds = opt_num(rec, "seconds", -1);
	r->have_end = 1;
	return 0;
}

static int load_record(struct loader *L, const struct jsonr *rec)
{
	const char *type = jsonr_str(jsonr_get(rec, "type"));
	if (!type)
		return bad(L, "record without a \"type\" string");
	const struct jsonr *idv = jsonr_get(rec, "run_id");
	if (!jsonr_is(idv, JSONR_STR) && !jsonr_is(idv, JSONR_NUM))
		return bad(L, "%s record without a \"run_id\"", type);
	if (!*idv->str)
		return bad(L, "%s record with an empty \"run_id\"", type);
	struct rep_run *r = run_get(L, idv->str);
	if (!r)
		return oom(L);
	L->set->records++;

	if (strcmp(type, "run_start") == 0)
		return load_run_start(L, r, rec);
	if (strcmp(type, "phase") == 0)
		return load_phase(L, r, rec);
	if (strcmp(type, "fs_end") == 0)
		return load_fs_end(L, r, rec);
	if (strcmp(type, "error") == 0)
		return load_event(L, r, rec, 0);
	if (strcmp(type, "verify_error") == 0)
		return load_event(L, r, rec, 1);
	if (strcmp(type, "run_end") == 0)
		return load_run_end(L, r, rec);
	if (strcmp(type, "layout") == 0)
		return load_layout(L, r, rec);
	if (strcmp(type, "fs_start") == 0 || strcmp(type, "phase_start") == 0) {
		/* the filesystem order of the run is the order they start */
		const char *fs = jsonr_str(jsonr_get(rec, "fs"));
		if (fs && *fs && !fs_get(r, fs))
			return oom(L);
	}
	return 0;	/* note, diagnoses, ...: not part of the tables */
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

int rep_load_stream(struct rep_set *set, FILE *f, const char *name,
		    char *err, size_t errlen)
{
	struct loader L = { .set = set, .name = name, .err = err, .errlen = errlen };
	char *line = NULL;
	size_t cap = 0, n = 0;
	int rc = 0, got, toolong;

	if (!set->path && !(set->path = strdup(name)))
		return oom(&L);
	if (err && errlen)
		err[0] = '\0';
	while ((got = read_line(f, &line, &cap, &n, REP_MAX_LINE, &toolong)) > 0) {
		L.line++;
		set->lines++;
		if (toolong) {
			rc = bad(&L, "line too long (more than %u bytes)", REP_MAX_LINE);
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
		if (rc == -ENOMEM) {
			rc = oom(&L);
			break;
		}
		if (rc) {
			rc = bad(&L, "%s at column %zu", je.msg, prefix + je.column);
			break;
		}
		rc = load_record(&L, jsonr_root(doc));
		jsonr_free(doc);
		if (rc)
			break;
	}
	if (!rc && got == -ENOMEM) {
		rc = oom(&L);
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

/* ------------------------------------------------------------------ */
/* summary                                                             */

static const struct {
	const char *name, *phase;
	int rounds;	/* 0: all rounds, 1: round 1 only, 2: rounds >= 2 */
} rows[ROW_N] = {
	[ROW_CREATE] = { "create (incl. sync)", "create", 0 },
	[ROW_STAT] = { "stat walk (cold)", "stat", 0 },
	[ROW_READ_FRESH] = { "read cold (fresh fs)", "read", 1 },
	[ROW_READ_AGED] = { "read cold (aged fs)", "read", 2 },
	[ROW_INODE_FRESH] = { "read inode order (fresh fs)", "read_inode", 1 },
	[ROW_INODE_AGED] = { "read inode order (aged fs)", "read_inode", 2 },
	[ROW_DELETE] = { "delete (incl. sync)", "delete", 0 },
};

const char *rep_row_name(enum rep_row row)
{
	return row < ROW_N ? rows[row].name : "?";
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double rep_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

int rep_summary(const struct rep_run *r, const char *fs, enum rep_row row,
		int rate, double *out)
{
	double stackv[16], *v = stackv;
	unsigned stackr[16], *rd = stackr;
	size_t n = 0, cap = 16;
	int found = 0;

	if (row >= ROW_N)
		return 0;
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, rows[row].phase))
			continue;
		if ((rows[row].rounds == 1 && p->round != 1) ||
		    (rows[row].rounds == 2 && p->round < 2))
			continue;
		double x = rate ? p->files_per_s : p->seconds;
		size_t j;
		for (j = 0; j < n && rd[j] != p->round; j++)
			;
		if (j < n) {	/* the same round twice: the later record wins */
			v[j] = x;
			continue;
		}
		if (n == cap) {
			size_t nc = cap * 2;
			double *nv = malloc(nc * sizeof(*nv));
			unsigned *nr = malloc(nc * sizeof(*nr));
			if (!nv || !nr) {
				free(nv);
				free(nr);
				break;	/* median of what fits */
			}
			memcpy(nv, v, n * sizeof(*v));
			memcpy(nr, rd, n * sizeof(*rd));
			if (v != stackv) {
				free(v);
				free(rd);
			}
			v = nv;
			rd = nr;
			cap = nc;
		}
		v[n] = x;
		rd[n] = p->round;
		n++;
	}
	if (n) {
		*out = rep_median(v, n);
		found = 1;
	}
	if (v != stackv) {
		free(v);
		free(rd);
	}
	return found;
}

/* ------------------------------------------------------------------ */
/* tables                                                              */

static int table_init(struct rep_table *t, const char *name, const char *title,
		      enum rep_style style, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->title = title;
	t->style = style;
	t->ncols = ncols;
	t->head = calloc(ncols, sizeof(*t->head));
	t->right = calloc(ncols, 1);
	if (!t->head || !t->right) {
		t->oom = 1;
		return -ENOMEM;
	}
	return 0;
}

static char *vfmt(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static void head_set(struct rep_table *t, size_t col, int right, const char *fmt, ...)
{
	va_list ap;
	if (t->oom || col >= t->ncols)
		return;
	va_start(ap, fmt);
	t->head[col] = vfmt(fmt, ap);
	va_end(ap);
	t->right[col] = (unsigned char)right;
	if (!t->head[col])
		t->oom = 1;
}

/* Start a new row; its cells are set with cell_set. Returns the row index. */
static size_t row_add(struct rep_table *t)
{
	if (t->oom)
		return 0;
	if (t->nrows == t->caprows) {
		size_t nc = t->caprows ? t->caprows * 2 : 16;
		if (nc > SIZE_MAX / sizeof(char *) / t->ncols) {
			t->oom = 1;
			return 0;
		}
		char **c = realloc(t->cells, nc * t->ncols * sizeof(*c));
		if (!c) {
			t->oom = 1;
			return 0;
		}
		t->cells = c;
		t->caprows = nc;
	}
	memset(t->cells + t->nrows * t->ncols, 0, t->ncols * sizeof(char *));
	return t->nrows++;
}

static void cell_set(struct rep_table *t, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;
	if (t->oom || row >= t->nrows || col >= t->ncols)
		return;
	char **c = &t->cells[row * t->ncols + col];
	free(*c);
	va_start(ap, fmt);
	*c = vfmt(fmt, ap);
	va_end(ap);
	if (!*c)
		t->oom = 1;
}

const char *rep_cell(const struct rep_table *t, size_t row, size_t col)
{
	if (row >= t->nrows || col >= t->ncols)
		return NULL;
	const char *c = t->cells[row * t->ncols + col];
	return c ? c : "";
}

void rep_table_free(struct rep_table *t)
{
	if (t->head)
		for (size_t i = 0; i < t->ncols; i++)
			free(t->head[i]);
	if (t->cells)
		for (size_t i = 0; i < t->nrows * t->ncols; i++)
			free(t->cells[i]);
	free(t->head);
	free(t->cells);
	free(t->right);
	memset(t, 0, sizeof(*t));
}

static int table_done(struct rep_table *t)
{
	if (t->oom) {
		rep_table_free(t);
		return -ENOMEM;
	}
	return 0;
}

/* A missing value: "-" in Markdown, an empty cell in CSV. */
static void cell_none(struct rep_table *t, size_t row, size_t col, enum rep_fmt f)
{
	cell_set(t, row, col, "%s", f == REP_CSV ? "" : "-");
}

/* Number formats: Markdown is for reading, CSV keeps more digits. */
static void cell_sec(struct rep_table *t, size_t row, size_t col, enum rep_fmt f, double s)
{
	if (f == REP_CSV)
		cell_set(t, row, col, "%.6f", s);
	else if (s >= 10)
		cell_set(t, row, col, "%.1f", s);
	else if (s >= 1)
		cell_set(t, row, col, "%.2f", s);
	else
		cell_set(t, row, col, "%.3f", s);
}

static void cell_rate(struct rep_table *t, size_t row, size_t col, enum rep_fmt f, double v)
{
	cell_set(t, row, col, f == REP_CSV ? "%.1f" : "%.0f", v);
}

static void cell_us(struct rep_table *t, size_t row, size_t col, enum rep_fmt f, double ns)
{
	double us = ns / 1000;
	if (ns < 0)
		cell_none(t, row, col, f);
	else if (f == REP_CSV)
		cell_set(t, row, col, "%.3f", us);
	else if (us < 10)
		cell_set(t, row, col, "%.2f", us);
	else if (us < 1000)
		cell_set(t, row, col, "%.1f", us);
	else
		cell_set(t, row, col, "%.0f", us);
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* Filesystems that have results, in run order. */
static size_t fs_cols(const struct rep_run *r, const struct rep_fs **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfs && n < max; i++)
		if (r->fs[i].nphases)
			out[n++] = &r->fs[i];
	return n;
}

static int all_digits(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* "64.0 GiB" for a byte count, the text itself otherwise. */
static void fmt_bytes(char *buf, size_t len, const char *text)
{
	if (!all_digits(text)) {
		snprintf(buf, len, "%s", nz(text));
		return;
	}
	double b = strtod(text, NULL);
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%s bytes", text);
}

static void kv(struct rep_table *t, const char *k, const char *v)
{
	size_t row = row_add(t);
	cell_set(t, row, 0, "%s", k);
	cell_set(t, row, 1, "%s", nz(v));
}

int rep_table_run(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	char a[128], b[128];

	table_init(t, "run", NULL, STYLE_KV, 2);
	head_set(t, 0, 0, "key");
	head_set(t, 1, 0, "value");
	if (f == REP_CSV) {
		struct { const char *k, *v; } f2[] = {
			{ "run_id", r->run_id }, { "version", r->version }, { "mode", r->mode },
			{ "hostname", r->hostname }, { "kernel", r->kernel },
			{ "machine", r->machine }, { "cpu_model", r->cpu_model },
			{ "cpus", r->cpus }, { "mem_bytes", r->mem_bytes },
			{ "target", r->target_path }, { "target_model", r->target_model },
			{ "target_serial", r->target_serial },
			{ "target_size_bytes", r->target_size },
			{ "target_spec", r->target_spec },
			{ "profile", r->profile }, { "fs", r->cfg_fs }, { "dirs", r->dirs },
			{ "files", r->files }, { "file_size", r->file_size },
			{ "workers", r->workers }, { "rounds", r->rounds },
			{ "status", r->have_end ? r->status : "incomplete" },
		};
		for (size_t i = 0; i < sizeof(f2) / sizeof(f2[0]); i++)
			kv(t, f2[i].k, f2[i].v);
		size_t row = row_add(t);
		cell_set(t, row, 0, "exit_code");
		if (r->exit_code >= 0)
			cell_set(t, row, 1, "%ld", r->exit_code);
		row = row_add(t);
		cell_set(t, row, 0, "seconds");
		if (r->seconds >= 0)
			cell_set(t, row, 1, "%.3f", r->seconds);
		return table_done(t);
	}

	kv(t, "run", r->run_id);
	if (!r->have_start) {
		kv(t, "host", "unknown (no run_start record)");
	} else {
		size_t row = row_add(t);
		fmt_bytes(a, sizeof(a), r->mem_bytes);
		cell_set(t, row, 0, "host");
		cell_set(t, row, 1, "%s%s%s%s%s%s%s%s%s",
			 r->hostname ? r->hostname : "?",
			 r->machine ? " (" : "", nz(r->machine), r->machine ? ")" : "",
			 r->cpus ? ", " : "", nz(r->cpus), r->cpus ? " CPUs" : "",
			 r->mem_bytes ? ", " : "", r->mem_bytes ? a : "");
		if (r->cpu_model)
			kv(t, "cpu", r->cpu_model);
		kv(t, "kernel", r->kernel ? r->kernel : "?");
		row = row_add(t);
		fmt_bytes(b, sizeof(b), r->target_size);
		cell_set(t, row, 0, "target");
		if ((!r->target_path || !*r->target_path) && r->target_spec && *r->target_spec)
			cell_set(t, row, 1, "%s (not resolved to a disk)", r->target_spec);
		else
			cell_set(t, row, 1, "%s%s%s%s%s%s%s%s",
				 r->target_path ? r->target_path : "?",
				 r->target_model ? ", " : "", nz(r->target_model),
				 r->target_serial ? " (serial " : "", nz(r->target_serial),
				 r->target_serial ? ")" : "",
				 r->target_size ? ", " : "", r->target_size ? b : "");
		row = row_add(t);
		cell_set(t, row, 0, "config");
		cell_set(t, row, 1, "profile %s; fs %s; %s dirs x %s files x %s bytes; %s workers; %s round%s",
			 r->profile ? r->profile : "?", r->cfg_fs ? r->cfg_fs : "?",
			 r->dirs ? r->dirs : "?", r->files ? r->files : "?",
			 r->file_size ? r->file_size : "?", r->workers ? r->workers : "?",
			 r->rounds ? r->rounds : "?",
			 r->rounds && strcmp(r->rounds, "1") == 0 ? "" : "s");
	}
	size_t row = row_add(t);
	cell_set(t, row, 0, "status");
	if (!r->have_end)
		cell_set(t, row, 1, "incomplete (no run_end record)");
	else if (r->exit_code >= 0 && r->seconds >= 0)
		cell_set(t, row, 1, "%s (exit %ld, %.1f s)", r->status ? r->status : "?",
			 r->exit_code, r->seconds);
	else
		cell_set(t, row, 1, "%s", r->status ? r->status : "?");
	return table_done(t);
}

static int summary_like(const struct rep_run *r, enum rep_fmt f, struct rep_table *t,
			int rate)
{
	const struct rep_fs **cols = calloc(r->nfs ? r->nfs : 1, sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	size_t nc = fs_cols(r, cols, r->nfs);
	static const enum rep_row rate_rows[] = { ROW_CREATE, ROW_DELETE };
	size_t nrows = rate ? 2 : ROW_N;

	table_init(t, rate ? "rate" : "summary",
		   rate ? "Files per second (median of rounds, higher is better)"
			: "Summary (seconds, median of rounds, lower is better)",
		   STYLE_GRID, nc + 1);
	head_set(t, 0, 0, "phase");
	for (size_t c = 0; c < nc; c++)
		head_set(t, c + 1, 1, "%s", cols[c]->name);
	for (size_t i = 0; i < nrows; i++) {
		enum rep_row row = rate ? rate_rows[i] : (enum rep_row)i;
		size_t ri = row_add(t);
		if (rate)
			cell_set(t, ri, 0, "%s files/s", rows[row].phase);
		else
			cell_set(t, ri, 0, "%s", rows[row].name);
		for (size_t c = 0; c < nc; c++) {
			double v;
			if (!rep_summary(r, cols[c]->name, row, rate, &v))
				cell_none(t, ri, c + 1, f);
			else if (rate)
				cell_rate(t, ri, c + 1, f, v);
			else
				cell_sec(t, ri, c + 1, f, v);
		}
	}
	free(cols);
	return table_done(t);
}

int rep_table_summary(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	return summary_like(r, f, t, 0);
}

int rep_table_rate(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	return summary_like(r, f, t, 1);
}

int rep_table_fs_status(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	table_init(t, "fs_status", NULL, STYLE_NOTES, 3);
	head_set(t, 0, 0, "fs");
	head_set(t, 1, 0, "status");
	head_set(t, 2, 0, "reason");
	for (size_t i = 0; i < r->nfs; i++) {
		const struct rep_fs *fs = &r->fs[i];
		const char *st = fs->status ? fs->status : "incomplete";
		const char *why = fs->status ? nz(fs->reason) : "no fs_end record";
		/* Markdown lists what needs a note; CSV lists every filesystem */
		if (f == REP_MD && fs->status && strcmp(fs->status, "ok") == 0)
			continue;
		size_t row = row_add(t);
		cell_set(t, row, 0, "%s", fs->name);
		cell_set(t, row, 1, "%s", st);
		cell_set(t, row, 2, "%s", why);
	}
	return table_done(t);
}

int rep_table_rounds(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	static const char *const h[] = { "fs", "round", "phase", "order", "cold", "seconds",
		"sync s", "files", "files/s", "errors", "verify errors" };
	static const char *const hc[] = { "fs", "round", "phase", "order", "cold", "seconds",
		"sync_seconds", "files", "files_per_s", "errors", "verify_errors" };
	size_t nh = sizeof(h) / sizeof(h[0]);

	table_init(t, "rounds", "Rounds", STYLE_GRID, nh);
	for (size_t c = 0; c < nh; c++)
		head_set(t, c, c == 1 || c >= 5, "%s", f == REP_CSV ? hc[c] : h[c]);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		size_t row = row_add(t);
		cell_set(t, row, 0, "%s", p->fs);
		cell_set(t, row, 1, "%u", p->round);
		cell_set(t, row, 2, "%s", p->phase);
		if (p->order)
			cell_set(t, row, 3, "%s", p->order);
		else
			cell_none(t, row, 3, f);
		if (p->cold >= 0)
			cell_set(t, row, 4, "%s", p->cold ? "yes" : "no");
		else
			cell_none(t, row, 4, f);
		cell_sec(t, row, 5, f, p->seconds);
		if (p->sync_seconds >= 0)
			cell_sec(t, row, 6, f, p->sync_seconds);
		else
			cell_none(t, row, 6, f);
		cell_set(t, row, 7, "%llu", (unsigned long long)p->files);
		cell_rate(t, row, 8, f, p->files_per_s);
		cell_set(t, row, 9, "%llu", (unsigned long long)p->errors);
		cell_set(t, row, 10, "%llu", (unsigned long long)p->verify_errors);
	}
	return table_done(t);
}

int rep_table_latency(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	static const char *const h[] = { "fs", "round", "phase", "p50", "p90", "p99",
		"p99.9", "max" };
	static const char *const hc[] = { "fs", "round", "phase", "p50_us", "p90_us",
		"p99_us", "p999_us", "max_us" };

	table_init(t, "latency", "Latency per file (microseconds)", STYLE_GRID, 8);
	for (size_t c = 0; c < 8; c++)
		head_set(t, c, c == 1 || c >= 3, "%s", f == REP_CSV ? hc[c] : h[c]);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		size_t row = row_add(t);
		cell_set(t, row, 0, "%s", p->fs);
		cell_set(t, row, 1, "%u", p->round);
		cell_set(t, row, 2, "%s", p->phase);
		for (int k = 0; k < 5; k++)
			cell_us(t, row, 3 + (size_t)k, f, p->have_lat ? p->lat_ns[k] : -1);
	}
	return table_done(t);
}

/* A fraction 0..1 as a percentage: one decimal in Markdown, three in CSV. */
static void cell_pct(struct rep_table *t, size_t row, size_t col, enum rep_fmt f, double v)
{
	cell_set(t, row, col, f == REP_CSV ? "%.3f" : "%.1f", v * 100);
}

int rep_table_layout(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	static const char *const h[] = { "fs", "round", "files", "name forward %",
		"name near %", "name median jump", "inode forward %", "inode near %",
		"inode median jump", "first blocks (name order)" };
	static const char *const hc[] = { "fs", "round", "files", "name_forward_pct",
		"name_near_pct", "name_median_jump_blocks", "inode_forward_pct",
		"inode_near_pct", "inode_median_jump_blocks", "first_blocks", "error" };
	/* Markdown puts the reason of an error row in its last cell; CSV has a
	 * column of its own for it */
	size_t nh = f == REP_CSV ? 11 : 10;

	table_init(t, "layout", "Layout (directory d0000, FIEMAP)", STYLE_GRID, nh);
	for (size_t c = 0; c < nh; c++)
		head_set(t, c, c >= 1 && c <= 8, "%s", f == REP_CSV ? hc[c] : h[c]);
	for (size_t i = 0; i < r->nlay; i++) {
		const struct rep_layout *y = &r->lay[i];
		size_t row = row_add(t);
		cell_set(t, row, 0, "%s", y->fs);
		cell_set(t, row, 1, "%u", y->round);
		if (y->error) {
			for (size_t c = 2; c < 10; c++)
				cell_none(t, row, c, f);
			cell_set(t, row, nh - 1, "%s", y->error);
			continue;
		}
		cell_set(t, row, 2, "%llu", (unsigned long long)y->files);
		const struct rep_layout_order *o[2] = { &y->name, &y->inode };
		for (size_t k = 0; k < 2; k++) {
			cell_pct(t, row, 3 + 3 * k, f, o[k]->forward);
			cell_pct(t, row, 4 + 3 * k, f, o[k]->near);
			cell_set(t, row, 5 + 3 * k, "%llu", (unsigned long long)o[k]->median_jump);
		}
		char fb[REP_LAYOUT_SHOW * 21 + 8];
		size_t n = 0;
		fb[0] = '\0';
		for (size_t k = 0; k < y->nfirst && k < REP_LAYOUT_SHOW; k++)
			n += (size_t)snprintf(fb + n, sizeof(fb) - n, "%s%llu", k ? " " : "",
					      (unsigned long long)y->first[k]);
		if (f == REP_MD && y->nfirst > REP_LAYOUT_SHOW)
			snprintf(fb + n, sizeof(fb) - n, " ...");
		if (y->nfirst)
			cell_set(t, row, 9, "%s", fb);
		else
			cell_none(t, row, 9, f);
	}
	return table_done(t);
}

/* Seconds of a phase of one round (the later record, if there are two). */
static int phase_seconds(const struct rep_run *r, const char *fs, unsigned round,
			 const char *phase, double *out)
{
	int found = 0;
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->round == round && strcmp(p->fs, fs) == 0 && strcmp(p->phase, phase) == 0) {
			*out = p->seconds;
			found = 1;
		}
	}
	return found;
}

/* "4.4 s", "37.1 s"; short runs keep their digits: "0.052 s". */
static void fmt_secs(char *buf, size_t len, double s)
{
	snprintf(buf, len, s >= 1 ? "%.1f s" : "%.3f s", s);
}

/* Does this record show the aging finding? */
/* The round's create phase ran in shuffled order (create_order). */
static int created_shuffled(const struct rep_run *r, const char *fs, unsigned round)
{
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (p->round == round && strcmp(p->fs, fs) == 0 && strcmp(p->phase, "create") == 0 &&
		    p->order && strcmp(p->order, "shuffled") == 0)
			return 1;
	}
	return 0;
}

/* Name order has left the disk while inode order follows it: in an aged
 * round, or in any round whose files were created in shuffled order. */
static int layout_decoupled(const struct rep_layout *y, int shuffled)
{
	return !y->error && (shuffled || y->round >= REP_AGED_ROUND) &&
	       y->name.near < REP_NAME_NEAR_MAX &&
	       y->inode.near - y->name.near >= REP_INODE_NEAR_GAP - 1e-9;
}

int rep_table_layout_findings(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	(void)f;
	table_init(t, "layout_findings", NULL, STYLE_NOTES, 2);
	head_set(t, 0, 0, "fs");
	head_set(t, 1, 0, "finding");
	for (size_t i = 0; i < r->nfs; i++) {
		const char *fs = r->fs[i].name;
		const struct rep_layout *hit = NULL;
		int shuffled = 0;
		for (size_t j = 0; j < r->nlay; j++) {	/* the earliest round that shows it */
			const struct rep_layout *y = &r->lay[j];
			if (y->fs != fs || (hit && y->round >= hit->round))
				continue;
			int sh = created_shuffled(r, fs, y->round);
			if (layout_decoupled(y, sh)) {
				hit = y;
				shuffled = sh;
			}
		}
		if (!hit)
			continue;
		char rd[32], ri[32], why[192];
		double sr = 0, si = 0;
		int hr = phase_seconds(r, fs, hit->round, "read", &sr);
		int hi = phase_seconds(r, fs, hit->round, "read_inode", &si);
		fmt_secs(rd, sizeof(rd), sr);
		fmt_secs(ri, sizeof(ri), si);
		if (hr && hi && si < sr)
			snprintf(why, sizeof(why), "reading in inode order is the remedy"
				 " (read_inode: %s vs read: %s)", ri, rd);
		else if (hr && hi)
			snprintf(why, sizeof(why), "reading in inode order was not faster here"
				 " (read_inode: %s vs read: %s)", ri, rd);
		else
			snprintf(why, sizeof(why), "reading in inode order is the remedy"
				 " (no read and read_inode times for this round)");
		size_t row = row_add(t);
		cell_set(t, row, 0, "%s", fs);
		if (shuffled)
			cell_set(t, row, 1, "created in shuffled order (round %u): name order is not"
				 " disk order (near %.0f%% vs %.0f%% by inode); %s", hit->round,
				 hit->name.near * 100, hit->inode.near * 100, why);
		else
			cell_set(t, row, 1, "aged (round %u): name order is no longer disk order"
				 " (near %.0f%% vs %.0f%% by inode); %s", hit->round,
				 hit->name.near * 100, hit->inode.near * 100, why);
	}
	return table_done(t);
}

int rep_table_errors(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	static const char *const h[] = { "kind", "fs", "round", "phase", "op", "file",
		"detail" };
	(void)f;
	table_init(t, "errors", "Errors and verification failures", STYLE_GRID, 7);
	for (size_t c = 0; c < 7; c++)
		head_set(t, c, c == 2, "%s", h[c]);
	for (size_t i = 0; i < r->nev; i++) {
		const struct rep_event *e = &r->ev[i];
		size_t row = row_add(t);
		cell_set(t, row, 0, "%s", e->verify ? "verify_error" : "error");
		cell_set(t, row, 1, "%s", e->fs ? e->fs : "-");
		if (e->round > 0)
			cell_set(t, row, 2, "%ld", e->round);
		else
			cell_set(t, row, 2, "-");
		cell_set(t, row, 3, "%s", e->phase ? e->phase : "-");
		cell_set(t, row, 4, "%s", e->op ? e->op : e->verify ? "verify" : "-");
		cell_set(t, row, 5, "%s", e->file ? e->file : "-");
		if (e->verify && e->op && strcmp(e->op, "size") == 0)
			cell_set(t, row, 6, "size %llu, expected %llu",
				 (unsigned long long)e->offset, (unsigned long long)e->count);
		else if (e->verify)
			cell_set(t, row, 6, "%llu bytes wrong, the first at offset %llu",
				 (unsigned long long)e->count, (unsigned long long)e->offset);
		else if (e->err_no)
			cell_set(t, row, 6, "%s%s(errno %ld)%s", nz(e->msg), e->msg ? " " : "",
				 e->err_no, e->fatal ? ", fatal" : "");
		else
			cell_set(t, row, 6, "%s%s", e->msg ? e->msg : "error",
				 e->fatal ? ", fatal" : "");
	}
	if (r->nev_total > r->nev) {
		size_t row = row_add(t);
		cell_set(t, row, 0, "more");
		cell_set(t, row, 6, "%zu more not listed", r->nev_total - r->nev);
	}
	return table_done(t);
}

int rep_table_disks(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	static const char *const hm[] = { "disk", "size", "model", "serial", "transport",
		"partlabel" };
	static const char *const hc[] = { "path", "size_bytes", "model", "serial", "transport",
		"partlabel" };
	table_init(t, "disks", "Disks the runner saw (name one as the target: path:, "
		   "serial:, model:, wwn: or partlabel:)", STYLE_GRID, 6);
	for (size_t c = 0; c < 6; c++)
		head_set(t, c, c == 1, "%s", f == REP_CSV ? hc[c] : hm[c]);
	for (size_t i = 0; i < r->ndisk; i++) {
		const struct rep_disk *d = &r->disk[i];
		size_t row = row_add(t);
		char sz[32], num[24];
		cell_set(t, row, 0, "%s", nz(d->path));
		snprintf(num, sizeof(num), "%llu", (unsigned long long)d->size);
		if (f == REP_CSV)
			cell_set(t, row, 1, "%s", num);
		else {
			fmt_bytes(sz, sizeof(sz), num);
			cell_set(t, row, 1, "%s", sz);
		}
		cell_set(t, row, 2, "%s", d->model && *d->model ? d->model : "-");
		cell_set(t, row, 3, "%s", d->serial && *d->serial ? d->serial : "-");
		cell_set(t, row, 4, "%s", d->transport && *d->transport ? d->transport : "-");
		cell_set(t, row, 5, "%s", d->partlabel && *d->partlabel ? d->partlabel : "-");
	}
	return table_done(t);
}

/* only_b: just the filesystems B ran (a report next to the reference). */
static int compare_table(const struct rep_run *a, const struct rep_run *b,
			 enum rep_fmt f, struct rep_table *t, int only_b)
{
	const struct rep_fs **cols = calloc(a->nfs + b->nfs + 1, sizeof(*cols));
	if (!cols)
		return -ENOMEM;
	size_t n = only_b ? 0 : fs_cols(a, cols, a->nfs);
	for (size_t i = 0; i < b->nfs; i++) {	/* then those only B has */
		size_t j;
		if (!b->fs[i].nphases)
			continue;
		for (j = 0; j < n && strcmp(cols[j]->name, b->fs[i].name); j++)
			;
		if (j == n)
			cols[n++] = &b->fs[i];
	}
	table_init(t, "compare", "Comparison (seconds, median of rounds; B/A < 1: B is faster)",
		   STYLE_GRID, 5);
	head_set(t, 0, 0, "fs");
	head_set(t, 1, 0, "phase");
	head_set(t, 2, 1, f == REP_CSV ? "a_seconds" : "A (s)");
	head_set(t, 3, 1, f == REP_CSV ? "b_seconds" : "B (s)");
	head_set(t, 4, 1, f == REP_CSV ? "b_over_a" : "B/A");
	for (size_t c = 0; c < n; c++) {
		for (int ri = 0; ri < ROW_N; ri++) {
			double va = 0, vb = 0;
			int ha = rep_summary(a, cols[c]->name, (enum rep_row)ri, 0, &va);
			int hb = rep_summary(b, cols[c]->name, (enum rep_row)ri, 0, &vb);
			if (!ha && !hb)
				continue;
			size_t row = row_add(t);
			cell_set(t, row, 0, "%s", cols[c]->name);
			cell_set(t, row, 1, "%s", rows[ri].name);
			if (ha)
				cell_sec(t, row, 2, f, va);
			else
				cell_none(t, row, 2, f);
			if (hb)
				cell_sec(t, row, 3, f, vb);
			else
				cell_none(t, row, 3, f);
			if (ha && hb && va > 0)
				cell_set(t, row, 4, f == REP_CSV ? "%.4f" : "%.2f", vb / va);
			else
				cell_none(t, row, 4, f);
		}
	}
	free(cols);
	return table_done(t);
}

int rep_table_compare(const struct rep_run *a, const struct rep_run *b,
		      enum rep_fmt f, struct rep_table *t)
{
	return compare_table(a, b, f, t, 0);
}

/* ------------------------------------------------------------------ */
/* printing                                                            */

/* Markdown text of a cell: '|' escaped, control characters as spaces. */
static size_t md_width(const char *s)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xc0) == 0x80)
			continue;	/* UTF-8 continuation byte */
		w += *p == '|' ? 2 : 1;
	}
	return w;
}

static void md_put(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '|')
			fputs("\\|", out);
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', out);
		else
			fputc(*p, out);
	}
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void csv_put(FILE *out, const char *s)
{
	int quote = strpbrk(s, ",\"") != NULL;
	if (quote)
		fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"')
			fputs("\"\"", out);
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', out);
		else
			fputc(*p, out);
	}
	if (quote)
		fputc('"', out);
}

static void print_csv(FILE *out, const struct rep_table *t)
{
	fputs(t->name, out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(',', out);
		csv_put(out, nz(t->head[c]));
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(t->name, out);
		for (size_t c = 0; c < t->ncols; c++) {
			fputc(',', out);
			csv_put(out, rep_cell(t, r, c));
		}
		fputc('\n', out);
	}
}

static void print_md_grid(FILE *out, const struct rep_table *t)
{
	size_t *w = calloc(t->ncols, sizeof(*w));

	for (size_t c = 0; c < t->ncols; c++) {
		size_t m = w ? 3 : 0;
		if (!w)
			break;
		if (md_width(nz(t->head[c])) > m)
			m = md_width(nz(t->head[c]));
		for (size_t r = 0; r < t->nrows; r++)
			if (md_width(rep_cell(t, r, c)) > m)
				m = md_width(rep_cell(t, r, c));
		w[c] = m;
	}
	/* without memory for the widths the table is printed unaligned */
	for (size_t r = 0; r < t->nrows + 2; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			size_t cw = w ? w[c] : 3;
			if (c == 0)
				fputc('|', out);
			if (r == 1) {
				for (size_t i = 0; i < cw + (t->right[c] ? 1 : 2); i++)
					fputc('-', out);
				if (t->right[c])
					fputc(':', out);
				fputc('|', out);
				continue;
			}
			const char *s = r == 0 ? nz(t->head[c]) : rep_cell(t, r - 2, c);
			size_t sw = md_width(s);
			fputc(' ', out);
			if (t->right[c] && w)
				pad(out, cw - sw);
			md_put(out, s);
			if (!t->right[c] && w)
				pad(out, cw - sw);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	free(w);
}

static void print_md(FILE *out, const struct rep_table *t)
{
	if (t->style == STYLE_GRID) {
		if (t->title)
			fprintf(out, "## %s\n\n", t->title);
		print_md_grid(out, t);
		return;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("-", out);
		int first = 1;
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = rep_cell(t, r, c);
			if (!*s && t->style == STYLE_NOTES)
				continue;
			fputs(first ? " " : ": ", out);
			md_put(out, s);
			first = 0;
		}
		fputc('\n', out);
	}
}

void rep_table_print(FILE *out, const struct rep_table *t, enum rep_fmt f)
{
	if (f == REP_CSV)
		print_csv(out, t);
	else
		print_md(out, t);
}

typedef int (*table_fn)(const struct rep_run *, enum rep_fmt, struct rep_table *);

/* The run is runner/SUITE.md's workload (the seed profile, its shape unchanged),
 * so its figures can stand next to the published ones. */
static int seed_shaped(const struct rep_run *r)
{
	return r->profile && strcmp(r->profile, "seed") == 0 && r->dirs &&
	       strcmp(r->dirs, "16") == 0 && r->files && strcmp(r->files, "20000") == 0 &&
	       r->file_size && strcmp(r->file_size, "4096") == 0 && r->nph;
}

/* The reference comparison of a seed-shaped run (Markdown report only):
 * 1 and *t, 0 when there is none, or -ENOMEM. */
static int reference_table(const struct rep_run *r, enum rep_fmt f, struct rep_table *t)
{
	struct rep_set ref;
	char err[256];

	if (f != REP_MD || !seed_shaped(r))
		return 0;
	int rc = rep_load_reference(&ref, err, sizeof(err));
	if (!rc && ref.nruns == 1)
		rc = compare_table(ref.runs[0], r, f, t, 1);
	else if (!rc)
		rc = -EINVAL;
	rep_free(&ref);
	if (rc)
		return rc;
	t->title = "Against the SUITE.md reference (A: published, B: this run; seconds,"
		   " median of rounds; B/A < 1: this run is faster)";
	return 1;
}

int rep_print(FILE *out, const struct rep_run *r, enum rep_fmt f)
{
	enum { NT = 10 };
	struct rep_table t[NT];
	table_fn fns[NT] = { rep_table_run, rep_table_summary, rep_table_fs_status,
		rep_table_rate, rep_table_rounds, rep_table_latency, rep_table_layout,
		rep_table_layout_findings, rep_table_errors, rep_table_disks };
	size_t n = 0;
	int rc = 0;

	/* build everything first: a failure prints nothing */
	for (; n < NT; n++) {
		rc = fns[n](r, f, &t[n]);
		if (rc)
			break;
	}
	struct rep_table ref;
	int have_ref = rc ? 0 : reference_table(r, f, &ref);
	if (have_ref < 0)
		rc = have_ref;
	if (rc) {
		for (size_t i = 0; i < n; i++)
			rep_table_free(&t[i]);
		return rc;
	}
	const struct rep_table *run = &t[0], *sum = &t[1], *st = &t[2], *rate = &t[3],
		*rnd = &t[4], *lat = &t[5], *lay = &t[6], *find = &t[7], *err = &t[8],
		*dsk = &t[9];

	if (f == REP_CSV) {
		const struct rep_table *order[] = { run, sum, rate, st, rnd, lat, lay, err, dsk };
		int first = 1;
		for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
			if ((order[i] == err || order[i] == lay || order[i] == dsk) &&
			    !order[i]->nrows)
				continue;
			if (!first)
				fputc('\n', out);
			print_csv(out, order[i]);
			first = 0;
		}
	} else {
		fputs("# fsbench report\n\n", out);
		print_md(out, run);
		fputc('\n', out);
		if (!r->nph) {
			fputs("No phase records in this run.\n", out);
			if (st->nrows) {
				fputc('\n', out);
				print_md(out, st);
			}
		} else {
			size_t warm = 0;
			for (size_t i = 0; i < r->nph; i++)
				if (r->ph[i].cold == 0 && (strcmp(r->ph[i].phase, "stat") == 0 ||
							   strncmp(r->ph[i].phase, "read", 4) == 0))
					warm++;
			print_md(out, sum);
			if (st->nrows || warm)
				fputc('\n', out);
			if (st->nrows)
				print_md(out, st);
			if (warm)
				fprintf(out, "- warm cache: %zu stat/read phase%s ran without a remount"
					" (cold: false); those \"cold\" figures are warm\n",
					warm, warm == 1 ? "" : "s");
			if (have_ref) {
				fputc('\n', out);
				print_md(out, &ref);
				fputs("\nA: SUITE.md's published run (kernel 6.17, loop --direct-io=on over"
				      " a 10 GB file on NVMe); `fsbench compare --reference` lists all"
				      " four filesystems.\n", out);
			}
			fputc('\n', out);
			print_md(out, rate);
			fputc('\n', out);
			print_md(out, rnd);
			fputc('\n', out);
			print_md(out, lat);
			if (lay->nrows) {
				fputc('\n', out);
				print_md(out, lay);
				if (find->nrows) {
					fputc('\n', out);
					print_md(out, find);
				}
			}
		}
		if (err->nrows) {
			fputc('\n', out);
			print_md(out, err);
		}
		if (dsk->nrows) {
			fputc('\n', out);
			print_md(out, dsk);
		}
	}
	for (size_t i = 0; i < NT; i++)
		rep_table_free(&t[i]);
	if (have_ref)
		rep_table_free(&ref);
	return 0;
}

int rep_print_compare(FILE *out, const struct rep_run *a, const char *aname,
		      const struct rep_run *b, const char *bname, enum rep_fmt f)
{
	struct rep_table runs, cmp;
	int rc;

	table_init(&runs, "runs", NULL, STYLE_KV, f == REP_CSV ? 3 : 2);
	head_set(&runs, 0, 0, "side");
	head_set(&runs, 1, 0, f == REP_CSV ? "run_id" : "run");
	head_set(&runs, 2, 0, "input");
	const struct rep_run *rr[2] = { a, b };
	const char *nn[2] = { aname, bname };
	for (size_t i = 0; i < 2; i++) {
		size_t row = row_add(&runs);
		cell_set(&runs, row, 0, "%s", i ? "B" : "A");
		if (f == REP_CSV) {
			cell_set(&runs, row, 1, "%s", rr[i]->run_id);
			cell_set(&runs, row, 2, "%s", nz(nn[i]));
		} else {
			cell_set(&runs, row, 1, "run %s (%s), host %s, profile %s", rr[i]->run_id,
				 nz(nn[i]), rr[i]->hostname ? rr[i]->hostname : "?",
				 rr[i]->profile ? rr[i]->profile : "?");
		}
	}
	rc = table_done(&runs);
	if (rc)
		return rc;
	rc = rep_table_compare(a, b, f, &cmp);
	if (rc) {
		rep_table_free(&runs);
		return rc;
	}
	if (f == REP_CSV) {
		print_csv(out, &runs);
		fputc('\n', out);
		print_csv(out, &cmp);
	} else {
		fputs("# fsbench compare\n\n", out);
		print_md(out, &runs);
		fputc('\n', out);
		print_md(out, &cmp);
	}
	rep_table_free(&runs);
	rep_table_free(&cmp);
	return 0;
}

/* ------------------------------------------------------------------ */
/* commands                                                            */

static const char report_usage[] =
	"usage: fsbench report RUN [--format md|csv] [--run RUNID]\n"
	"  RUN         a run folder (RUN/records.jsonl) or a .jsonl file; - reads stdin\n"
	"  --format F  md (Markdown, the default) or csv\n"
	"  --run ID    which run of the file (default: the last one; a unique prefix is enough)\n";
static const char compare_usage[] =
	"usage: fsbench compare A B [--format md|csv]\n"
	"       fsbench compare --reference B [--format md|csv]\n"
	"  A, B         run folders or .jsonl files (the last run of each)\n"
	"  --reference  A is the published figures of runner/SUITE.md (seed profile,\n"
	"               kernel 6.17, loop --direct-io=on over a file on NVMe)\n"
	"  --format F   md (Markdown, the default) or csv\n";

struct cli {
	const char *cmd;
	const char *pos[2];
	size_t npos, maxpos;
	enum rep_fmt fmt;
	const char *run;
	int allow_run;
	int allow_ref, reference;	/* compare --reference: A is built in */
};

/* Returns -1 to go on, or an exit code. */
static int parse_cli(struct cli *c, int argc, char **argv, const char *usage)
{
	int opts = 1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		size_t klen;

		if (opts && strcmp(a, "--") == 0) {
			opts = 0;
			continue;
		}
		if (!opts || a[0] != '-' || strcmp(a, "-") == 0) {
			if (c->npos == c->maxpos) {
				fprintf(stderr, "fsbench: %s: too many arguments ('%s')\n%s",
					c->cmd, a, usage);
				return 2;
			}
			c->pos[c->npos++] = a;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		}
		if (c->allow_ref && strcmp(a, "--reference") == 0) {
			if (!c->reference)
				c->maxpos--;	/* A is given */
			c->reference = 1;
			if (c->npos > c->maxpos) {
				fprintf(stderr, "fsbench: %s: --reference and two runs: give B only\n%s",
					c->cmd, usage);
				return 2;
			}
			continue;
		}
		const char *eq = strchr(a, '=');
		klen = eq ? (size_t)(eq - a) : strlen(a);
		int is_fmt = klen == 8 && strncmp(a, "--format", 8) == 0;
		int is_run = c->allow_run && klen == 5 && strncmp(a, "--run", 5) == 0;
		if (!is_fmt && !is_run) {
			fprintf(stderr, "fsbench: %s: unknown option '%s'\n%s", c->cmd, a, usage);
			return 2;
		}
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			fprintf(stderr, "fsbench: %s: %.*s needs an argument\n%s",
				c->cmd, (int)klen, a, usage);
			return 2;
		}
		if (is_run) {
			c->run = val;
		} else if (strcmp(val, "md") == 0 || strcmp(val, "markdown") == 0) {
			c->fmt = REP_MD;
		} else if (strcmp(val, "csv") == 0) {
			c->fmt = REP_CSV;
		} else {
			fprintf(stderr, "fsbench: %s: unknown format '%s' (md or csv)\n%s",
				c->cmd, val, usage);
			return 2;
		}
	}
	if (c->npos < c->maxpos) {
		fprintf(stderr, "fsbench: %s: missing %s\n%s", c->cmd,
			c->reference ? "B" : c->maxpos == 1 ? "RUN" : c->npos ? "B" : "A and B",
			usage);
		return 2;
	}
	return -1;
}

/* Load one input; prints the error and returns an exit code, or -1. */
static int load_one(const char *cmd, struct rep_set *set, const char *in)
{
	char err[1024];
	int rc = rep_load(set, in, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "fsbench: %s %s\n", cmd, err);
		rep_free(set);
		return 4;
	}
	if (!set->nruns) {
		fprintf(stderr, "fsbench: %s %s: no records\n", cmd, set->path);
		rep_free(set);
		return 1;
	}
	return -1;
}

static void list_runs(const struct rep_set *set)
{
	fputs(" (runs:", stderr);
	for (size_t i = 0; i < set->nruns && i < 20; i++)
		fprintf(stderr, " %s", set->runs[i]->run_id);
	if (set->nruns > 20)
		fputs(" ...", stderr);
	fputs(")", stderr);
}

static int flush_out(const char *cmd)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "fsbench: %s: writing the output: %s\n", cmd, strerror(errno));
		return 4;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct cli c = { .cmd = "report", .maxpos = 1, .allow_run = 1 };
	struct rep_set set;
	int ec = parse_cli(&c, argc, argv, report_usage);

	if (ec >= 0)
		return ec;
	ec = load_one("report", &set, c.pos[0]);
	if (ec >= 0)
		return ec;
	const struct rep_run *r = rep_find(&set, c.run);
	if (!r) {
		fprintf(stderr, "fsbench: report %s: no run '%s'", set.path, c.run);
		list_runs(&set);
		fputc('\n', stderr);
		rep_free(&set);
		return 2;
	}
	if (rep_print(stdout, r, c.fmt)) {
		fprintf(stderr, "fsbench: report %s: %s\n", set.path, strerror(ENOMEM));
		rep_free(&set);
		return 4;
	}
	ec = flush_out("report");
	if (!ec && !r->nph && !(r->status && strcmp(r->status, "refused") == 0)) {
		fprintf(stderr, "fsbench: report %s: run %s has no phase records\n",
			set.path, r->run_id);
		ec = 1;
	}
	rep_free(&set);
	return ec;
}

int cmd_compare(int argc, char **argv)
{
	struct cli c = { .cmd = "compare", .maxpos = 2, .allow_ref = 1 };
	struct rep_set sa, sb;
	int ec = parse_cli(&c, argc, argv, compare_usage);

	if (ec >= 0)
		return ec;
	if (c.reference) {
		char err[256];
		if (rep_load_reference(&sa, err, sizeof(err))) {
			fprintf(stderr, "fsbench: compare: %s\n", err);
			rep_free(&sa);
			return 4;
		}
	} else {
		ec = load_one("compare", &sa, c.pos[0]);
		if (ec >= 0)
			return ec;
	}
	ec = load_one("compare", &sb, c.pos[c.reference ? 0 : 1]);
	if (ec >= 0) {
		rep_free(&sa);
		return ec;
	}
	const struct rep_run *a = rep_find(&sa, NULL), *b = rep_find(&sb, NULL);
	const struct rep_set *empty = !a->nph ? &sa : !b->nph ? &sb : NULL;
	if (empty) {
		const struct rep_run *e = empty == &sa ? a : b;
		fprintf(stderr, "fsbench: compare %s: run %s has no phase records\n",
			empty->path, e->run_id);
		ec = 1;
	} else if (rep_print_compare(stdout, a, sa.path, b, sb.path, c.fmt)) {
		fprintf(stderr, "fsbench: compare: %s\n", strerror(ENOMEM));
		ec = 4;
	} else {
		ec = flush_out("compare");
	}
	rep_free(&sa);
	rep_free(&sb);
	return ec;
}

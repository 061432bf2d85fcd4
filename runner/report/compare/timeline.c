/* timeline.c: the runs of a results folder, one row each (see timeline.h). */
#include "report/compare/timeline.h"
#include "report/sections/summary.h"
#include "report/verdict/criteria.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *rep_hist_from_name(enum rep_hist_from f)
{
	switch (f) {
	case HIST_RECORD:
		return "record";
	case HIST_DEVICETREE:
		return "devicetree";
	case HIST_DMI:
		return "dmi";
	case HIST_RUN_TXT:
		return "run.txt";
	case HIST_VERDICT_TXT:
		return "verdict.txt";
	case HIST_NAME:
		return "name";
	case HIST_NONE:
		break;
	}
	return "";
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	const char *sep = n && dir[n - 1] == '/' ? "" : "/";
	char *p = malloc(n + strlen(sep) + strlen(name) + 1);
	if (p)
		sprintf(p, "%s%s%s", dir, sep, name);
	return p;
}

static char *trim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* From the text file dir/file: the value of the first "key: value" line
 * (key NULL: the last line that is not blank), malloc'd; NULL when there is
 * none or the file cannot be read (it is optional). -ENOMEM in *rc. */
static char *text_value(const char *dir, const char *file, const char *key, int *rc)
{
	char *path = join(dir, file), line[1024], *found = NULL;
	FILE *f;

	if (!path) {
		*rc = -ENOMEM;
		return NULL;
	}
	f = fopen(path, "r");
	free(path);
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *v = NULL;
		size_t kl = key ? strlen(key) : 0;
		if (!*s)
			continue;
		if (!key)
			v = s;
		else if (strncmp(s, key, kl) == 0 && s[kl] == ':')
			v = trim(s + kl + 1);
		if (!v)
			continue;
		free(found);
		if (!(found = strdup(v))) {
			*rc = -ENOMEM;
			break;
		}
		if (key)
			break;
	}
	fclose(f);
	return found;
}

/* YYYYMMDD-HHMMSS at the start of name (qemu/run.sh's folder names). */
static int name_time(const char *name, time_t *out)
{
	struct tm tm;
	int v[6];

	for (int i = 0; i < 15; i++)
		if (i == 8 ? name[i] != '-' : !isdigit((unsigned char)name[i]))
			return 0;
	if (sscanf(name, "%4d%2d%2d-%2d%2d%2d", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
		return 0;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60)
		return 0;
	*out = timegm(&tm);
	return 1;
}

/* The checks of a verdict record as the verdict line says them. */
static char *record_verdict(const struct rep_run *r)
{
	struct vd_result res;
	char *s;

	if (vd_result_of_run(r, &res) != 1)
		return strdup("PASS");
	s = strdup(res.verdict);
	vd_result_free(&res);
	return s;
}

/* What the entry's row links to, relative to DIR (see timeline.h). */
static char *report_of(const char *name, const char *path, int dir)
{
	static const char *const pages[] = { "report.html", "report.md", "records.jsonl" };
	struct stat st;

	if (!dir)
		return strdup(name);
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		char *p = join(path, pages[i]);
		int ok = p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
		free(p);
		if (ok || i == sizeof(pages) / sizeof(pages[0]) - 1)
			return join(name, pages[i]);
	}
	return NULL;
}

/* The row of entry name (path: DIR/name; dir: a run folder). 0, or
 * -ENOMEM. */
static int fill(struct rep_hist_entry *e, const char *path, int dir)
{
	const struct rep_run *r = e->run;
	int rc = 0;
	char *v = NULL;

	if (!(e->report = report_of(e->name, path, dir)))
		return -ENOMEM;

	if (r->time_unix) {
		char *end;
		long long t = strtoll(r->time_unix, &end, 10);
		if (!*end && end != r->time_unix && t >= REP_HIST_MIN_TIME) {
			e->when = (time_t)t;
			e->when_from = HIST_RECORD;
		}
	}
	if (!e->when_from && name_time(e->name, &e->when))
		e->when_from = HIST_NAME;

	if (dir && (v = text_value(path, "run.txt", "board", &rc)) && *v) {
		e->board = v;
		e->board_from = HIST_RUN_TXT;
	} else {
		free(v);
		const char *b = r->dt_model && *r->dt_model ? r->dt_model : r->dmi_product;
		if (b && *b) {
			if (!(e->board = strdup(b)))
				return -ENOMEM;
			e->board_from = b == r->dt_model ? HIST_DEVICETREE : HIST_DMI;
		}
	}
	if (rc)
		return rc;

	if (r->have_verdict) {
		if (!(e->verdict = record_verdict(r)))
			return -ENOMEM;
		e->verdict_from = HIST_RECORD;
	} else if (dir && (v = text_value(path, "verdict.txt", NULL, &rc))) {
		const char *s = strncmp(v, "verdict: ", 9) == 0 ? v + 9 : NULL;
		if (s && (!strncmp(s, "PASS", 4) || !strncmp(s, "FAIL", 4))) {
			memmove(v, s, strlen(s) + 1);
			e->verdict = v;
			e->verdict_from = HIST_VERDICT_TXT;
		} else {
			free(v);	/* not a verdict line: none */
		}
	}
	return rc;
}

static int add_skip(struct rep_history *h, const char *name, const char *why, int fail)
{
	struct rep_hist_skip *s = realloc(h->skip, (h->nskip + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	h->skip = s;
	s = &h->skip[h->nskip];
	s->name = strdup(name);
	s->why = strdup(why);
	s->fail = fail;
	if (!s->name || !s->why) {
		free(s->name);
		free(s->why);
		return -ENOMEM;
	}
	h->nskip++;
	return 0;
}

static int by_date(const void *x, const void *y)
{
	const struct rep_hist_entry *a = x, *b = y;
	if (!a->when_from != !b->when_from)
		return a->when_from ? -1 : 1;	/* unknown dates last */
	if (a->when_from && a->when != b->when)
		return a->when < b->when ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int is_jsonl(const char *name)
{
	size_t n = strlen(name);
	return n > 6 && strcmp(name + n - 6, ".jsonl") == 0;
}

/* One entry: a row, or a skip. 0, or -ENOMEM. */
static int load_entry(struct rep_history *h, const char *name, int dir)
{
	char err[1024];
	char *path = join(h->dir, name);
	struct rep_hist_entry *e;
	int rc;

	if (!path)
		return -ENOMEM;
	e = realloc(h->e, (h->n + 1) * sizeof(*e));
	if (!e) {
		free(path);
		return -ENOMEM;
	}
	h->e = e;
	e = &h->e[h->n];
	memset(e, 0, sizeof(*e));
	rc = rep_load(&e->set, path, err, sizeof(err));
	if (rc == -ENOMEM) {
		rep_free(&e->set);
		free(path);
		return rc;
	}
	if (rc || !e->set.nruns) {
		if (!rc)
			snprintf(err, sizeof(err), "%s: no records", e->set.path ? e->set.path : path);
		rep_free(&e->set);
		rc = add_skip(h, name, err, !rc);
		free(path);
		return rc;
	}
	e->run = rep_find(&e->set, NULL);
	if (!(e->name = strdup(name)) || (rc = fill(e, path, dir))) {
		free(e->name);
		free(e->board);
		free(e->verdict);
		free(e->report);
		rep_free(&e->set);
		free(path);
		return -ENOMEM;
	}
	h->n++;
	free(path);
	return 0;
}

int rep_history_load(struct rep_history *h, const char *dir, char *err, size_t errlen)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t nn = 0, cap = 0;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	if (!(h->dir = strdup(dir)))
		return -ENOMEM;
	if (!(d = opendir(dir))) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return rc;
	}
	/* the names first, sorted: the skips come in name order */
	while ((errno = 0, de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (nn == cap) {
			size_t nc = cap ? cap * 2 : 64;
			char **nv = realloc(names, nc * sizeof(*nv));
			if (!nv) {
				rc = -ENOMEM;
				break;
			}
			names = nv;
			cap = nc;
		}
		if (!(names[nn] = strdup(de->d_name))) {
			rc = -ENOMEM;
			break;
		}
		nn++;
	}
	if (!rc && errno) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
	}
	closedir(d);
	if (!rc && nn)
		qsort(names, nn, sizeof(*names), by_name);
	for (size_t i = 0; i < nn && !rc; i++) {
		char *path = join(dir, names[i]);
		struct stat st;
		if (!path) {
			rc = -ENOMEM;
			break;
		}
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			rc = load_entry(h, names[i], 1);
		else if (is_jsonl(names[i]))
			rc = load_entry(h, names[i], 0);	/* a file, or one stat could not see */
		free(path);
	}
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: %s", dir, strerror(ENOMEM));
	if (!rc && h->n)
		qsort(h->e, h->n, sizeof(*h->e), by_date);
	return rc;
}

int rep_history_of_file(struct rep_history *h, const char *path, struct rep_set *set)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	size_t moved = 0;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	h->dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	if (!h->dir || !(h->e = calloc(set->nruns ? set->nruns : 1, sizeof(*h->e))))
		rc = -ENOMEM;
	for (; moved < set->nruns && !rc; moved++) {
		struct rep_hist_entry *e = &h->e[h->n];

		if (!(e->set.runs = malloc(sizeof(*e->set.runs))) ||
		    !(e->set.path = strdup(set->path ? set->path : path))) {
			free(e->set.runs);
			e->set.runs = NULL;
			rc = -ENOMEM;
			break;
		}
		e->set.runs[0] = set->runs[moved];
		e->set.nruns = e->set.capruns = 1;
		e->run = e->set.runs[0];
		h->n++;
		if (!(e->name = strdup(name)) || fill(e, path, 0) < 0)
			rc = -ENOMEM;
	}
	/* what did not move stays in set, and goes with it */
	memmove(set->runs, set->runs + moved, (set->nruns - moved) * sizeof(*set->runs));
	set->nruns -= moved;
	rep_free(set);
	/* date order; an insertion sort keeps the file's order for equal dates */
	for (size_t i = 1; i < h->n; i++)
		for (size_t j = i; j > 0 && by_date(&h->e[j - 1], &h->e[j]) > 0; j--) {
			struct rep_hist_entry t = h->e[j];
			h->e[j] = h->e[j - 1];
			h->e[j - 1] = t;
		}
	return rc;
}

void rep_history_free(struct rep_history *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->e[i].name);
		free(h->e[i].board);
		free(h->e[i].verdict);
		free(h->e[i].report);
		rep_free(&h->e[i].set);
	}
	free(h->e);
	for (size_t i = 0; i < h->nskip; i++) {
		free(h->skip[i].name);
		free(h->skip[i].why);
	}
	free(h->skip);
	free(h->dir);
	memset(h, 0, sizeof(*h));
}

/* The columns per filesystem, in this order. */
static const struct {
	enum rep_row row;
	const char *head, *key;
} per_fs_cols[] = {
	{ ROW_CREATE, "create", "create_s" },
	{ ROW_READ_FRESH, "read", "read_s" },
	{ ROW_DELETE, "delete", "delete_s" },
};
#define NFSCOLS (sizeof(per_fs_cols) / sizeof(per_fs_cols[0]))

enum { H_RUN, H_RUN_ID, H_DATE, H_DATE_DATA, H_DATE_FROM, H_BOARD, H_BOARD_DATA, H_BOARD_FROM,
       H_KERNEL, H_TARGET, H_PROFILE, H_VERDICT, H_VERDICT_FROM, H_N };

/* The filesystems with phase records in any run of h, in order of first
 * appearance: *fsp (malloc'd; NULL for none) and the count, or -ENOMEM. */
long rep_history_fs(const struct rep_history *h, const char ***fsp)
{
	const char **fs = NULL;
	size_t nfs = 0, cap = 0;

	for (size_t i = 0; i < h->n; i++) {
		const struct rep_run *r = h->e[i].run;
		for (size_t f = 0; f < r->nfs; f++) {
			size_t j;
			if (!r->fs[f].nphases)
				continue;
			for (j = 0; j < nfs && strcmp(fs[j], r->fs[f].name); j++)
				;
			if (j < nfs)
				continue;
			if (nfs == cap) {
				size_t nc = cap ? cap * 2 : 8;
				const char **nv = realloc(fs, nc * sizeof(*nv));
				if (!nv) {
					free(fs);
					return -ENOMEM;
				}
				fs = nv;
				cap = nc;
			}
			fs[nfs++] = r->fs[f].name;
		}
	}
	*fsp = fs;
	return (long)nfs;
}

int rep_table_history(const struct rep_history *h, struct rep_table *t)
{
	const char **fs = NULL;
	size_t nfs;
	char head[96], key[96];

	long n = rep_history_fs(h, &fs);
	if (n < 0)
		return (int)n;
	nfs = (size_t)n;
	tab_init(t, "history", "Runs (seconds: create and delete the median of rounds, read"
		 " round 1, cold on the fresh filesystem)", SHAPE_GRID, H_N + NFSCOLS * nfs);
	tab_col(t, H_RUN, 0, "run", NULL);
	tab_col(t, H_RUN_ID, 0, "run_id", NULL);
	tab_col(t, H_DATE, 0, "date (UTC)", NULL);
	tab_col(t, H_DATE_DATA, 0, "date", NULL);
	tab_col(t, H_DATE_FROM, 0, "date_from", NULL);
	tab_col(t, H_BOARD, 0, "board", NULL);
	tab_col(t, H_BOARD_DATA, 0, "board", NULL);
	tab_col(t, H_BOARD_FROM, 0, "board_from", NULL);
	/* a reader sees where a date or a board came from when it is not the
	 * usual place (the record, run.txt); a program gets a column for it */
	tab_col_only(t, H_DATE, REP_VIEW_READ);
	tab_col_only(t, H_BOARD, REP_VIEW_READ);
	tab_col_only(t, H_DATE_DATA, REP_VIEW_DATA);
	tab_col_only(t, H_BOARD_DATA, REP_VIEW_DATA);
	tab_col(t, H_KERNEL, 0, "kernel", NULL);
	tab_col(t, H_TARGET, 0, "target", "target_model");
	tab_col(t, H_PROFILE, 0, "profile", NULL);
	tab_col(t, H_VERDICT, 0, "verdict", NULL);
	tab_col(t, H_VERDICT_FROM, 0, "verdict_from", NULL);
	tab_col_only(t, H_RUN_ID, REP_VIEW_DATA);
	tab_col_only(t, H_DATE_FROM, REP_VIEW_DATA);
	tab_col_only(t, H_BOARD_FROM, REP_VIEW_DATA);
	tab_col_only(t, H_VERDICT_FROM, REP_VIEW_DATA);
	for (size_t f = 0; f < nfs; f++)
		for (size_t k = 0; k < NFSCOLS; k++) {
			snprintf(head, sizeof(head), "%s %s", fs[f], per_fs_cols[k].head);
			snprintf(key, sizeof(key), "%s_%s", fs[f], per_fs_cols[k].key);
			tab_col(t, H_N + f * NFSCOLS + k, 1, head, key);
		}
	for (size_t i = 0; i < h->n; i++) {
		const struct rep_hist_entry *e = &h->e[i];
		const struct rep_run *r = e->run;
		size_t row = tab_row(t);
		tab_link(t, row, H_RUN, e->name, e->report);
		tab_text(t, row, H_RUN_ID, "%s", r->run_id);
		if (e->when_from) {
			struct tm tm;
			char d[32];
			gmtime_r(&e->when, &tm);
			strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
			tab_text(t, row, H_DATE, "%s%s", d,
				 e->when_from == HIST_NAME ? " (folder name)" : "");
			tab_text(t, row, H_DATE_DATA, "%s", d);
		} else {
			tab_missing(t, row, H_DATE);
			tab_missing(t, row, H_DATE_DATA);
		}
		tab_text(t, row, H_DATE_FROM, "%s", rep_hist_from_name(e->when_from));
		if (e->board) {
			tab_text(t, row, H_BOARD, "%s%s", e->board,
				 e->board_from == HIST_DEVICETREE ? " (devicetree)" :
				 e->board_from == HIST_DMI ? " (DMI)" : "");
			tab_text(t, row, H_BOARD_DATA, "%s", e->board);
		} else {
			tab_missing(t, row, H_BOARD);
			tab_missing(t, row, H_BOARD_DATA);
		}
		tab_text(t, row, H_BOARD_FROM, "%s", rep_hist_from_name(e->board_from));
		const char *txt[] = { r->kernel, r->target_model, r->profile };
		for (size_t k = 0; k < 3; k++)
			tab_str(t, row, H_KERNEL + k, txt[k]);
		tab_text(t, row, H_VERDICT, "%s", e->verdict ? e->verdict : "none");
		tab_text(t, row, H_VERDICT_FROM, "%s", rep_hist_from_name(e->verdict_from));
		for (size_t f = 0; f < nfs; f++)
			for (size_t k = 0; k < NFSCOLS; k++) {
				double v;
				size_t c = H_N + f * NFSCOLS + k;
				if (rep_summary(r, fs[f], per_fs_cols[k].row, 0, &v))
					tab_num(t, row, c, CELL_SECONDS, v);
				else
					tab_missing(t, row, c);
			}
	}
	free(fs);
	return tab_done(t);
}

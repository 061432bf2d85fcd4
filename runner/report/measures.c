/* measures.c: what a run measures, one row per measure, and the settings
 * it measured them with (see measures.h). */
#include "report/measures.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define COUNT(field) offsetof(struct rep_run, field)

const struct rep_measure_row rep_measure_rows[REP_M_N] = {
	[REP_M_SMALLFILE] = { "small-file phases", "smallfile", "powercut", REP_M_ANY,
			      REP_DFLT_ALONE, COUNT(nph), NULL },
	[REP_M_LAYOUT] = { "layout", "layout", NULL, REP_M_SMALLFILE, REP_DFLT_ON,
			   COUNT(nlay), NULL },
	[REP_M_FIO] = { "fio workloads", "fio", NULL, REP_M_ANY, REP_DFLT_OFF, COUNT(nfio), "fio" },
	[REP_M_FILL] = { "fill test", "fill", NULL, REP_M_ANY, REP_DFLT_OFF, COUNT(nfill),
			 "fill fio_runtime fio_size" },
	[REP_M_POWERCUT] = { "power cuts", "powercut", NULL, REP_M_ANY, REP_DFLT_OFF,
			     COUNT(npc), "powercut" },
	[REP_M_SUSTAIN] = { "sustained writes", "sustain", NULL, REP_M_ANY, REP_DFLT_OFF,
			    COUNT(nsus), "sustain" },
	[REP_M_FILESERVER] = { "file server", "fileserver", NULL, REP_M_ANY, REP_DFLT_OFF,
			       COUNT(nfsv), "fileserver" },
};

const char *rep_setting(const struct rep_run *r, const char *key)
{
	for (size_t i = 0; i < r->ncfg; i++)
		if (strcmp(r->cfg[i].key, key) == 0)
			return r->cfg[i].value;
	return NULL;
}

/* A setting that turns something on: not empty, 0, off or false. */
static int on(const char *v)
{
	return v && *v && strcmp(v, "0") && strcmp(v, "off") && strcmp(v, "false");
}

static size_t held(const struct rep_run *r, const struct rep_measure_row *w)
{
	return *(const size_t *)(const void *)((const char *)r + w->count);
}

int rep_measures(const struct rep_run *r, enum rep_measure m)
{
	const struct rep_measure_row *w;
	const char *v;

	if (m == REP_M_ANY)
		return 1;
	if (m >= REP_M_N)
		return 0;
	w = &rep_measure_rows[m];
	if (w->under && !rep_measures(r, w->under))
		return 0;
	if (held(r, w))
		return 1;
	if (w->unless && on(rep_setting(r, w->unless)))
		return 0;
	if ((v = rep_setting(r, w->key)))
		return on(v);
	if (w->dflt != REP_DFLT_ALONE)
		return w->dflt == REP_DFLT_ON;
	for (int o = REP_M_ANY + 1; o < REP_M_N; o++)
		if (o != (int)m && rep_measure_rows[o].dflt != REP_DFLT_ALONE &&
		    !rep_measure_rows[o].under && rep_measures(r, (enum rep_measure)o))
			return 0;
	return 1;
}

int rep_measure_phases(enum rep_measure m)
{
	return m == REP_M_SMALLFILE || (m > REP_M_ANY && m < REP_M_N &&
					rep_measure_rows[m].under == REP_M_SMALLFILE);
}

/* Does key belong to words ("fill fio_runtime"): one of them, or one of
 * them and '_' on? */
static int of_words(const char *key, const char *words)
{
	for (const char *p = words; p && *p; ) {
		size_t n = strcspn(p, " ");
		if (strncmp(key, p, n) == 0 && (key[n] == '\0' || key[n] == '_'))
			return 1;
		p += n + (p[n] == ' ');
	}
	return 0;
}

static void put(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	*o = n < 0 ? len : *o + (size_t)n;
}

void rep_config_text(const struct rep_run *r, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	buf[0] = '\0';
	put(buf, len, &o, "profile %s; fs %s", r->profile ? r->profile : "?",
	    r->cfg_fs ? r->cfg_fs : "?");
	for (int m = REP_M_ANY + 1; m < REP_M_N; m++) {
		const struct rep_measure_row *w = &rep_measure_rows[m];
		if (!rep_measures(r, (enum rep_measure)m))
			continue;
		if (m == REP_M_SMALLFILE) {
			put(buf, len, &o, "; %s dirs x %s files x %s bytes; %s workers; %s round%s",
			    r->dirs ? r->dirs : "?", r->files ? r->files : "?",
			    r->file_size ? r->file_size : "?", r->workers ? r->workers : "?",
			    r->rounds ? r->rounds : "?",
			    r->rounds && strcmp(r->rounds, "1") == 0 ? "" : "s");
			continue;
		}
		int first = 1;
		for (size_t i = 0; w->keys && i < r->ncfg; i++) {
			const struct rep_setting *s = &r->cfg[i];
			int said = 0;
			if (!of_words(s->key, w->keys))
				continue;
			for (int e = REP_M_ANY + 1; e < m && !said; e++)	/* once */
				said = of_words(s->key, rep_measure_rows[e].keys) &&
				       rep_measures(r, (enum rep_measure)e);
			if (said)
				continue;
			put(buf, len, &o, "%s%s=%s", first ? "; " : ", ", s->key, s->value);
			first = 0;
		}
	}
}

int rep_table_unmeasured(const struct rep_run *r, struct rep_table *t)
{
	char line[512];
	size_t o = 0;

	for (int m = REP_M_ANY + 1; m < REP_M_N; m++) {
		const struct rep_measure_row *w = &rep_measure_rows[m];
		/* what is measured under another goes without it unsaid */
		if (rep_measures(r, (enum rep_measure)m) || !rep_measures(r, w->under))
			continue;
		put(line, sizeof(line), &o, "%s%s", o ? ", " : "Not in this run: ", w->name);
	}
	tab_init_text(t, "unmeasured", NULL, SHAPE_TEXT, "unmeasured", (char *)NULL);
	if (o)
		tab_text(t, tab_row(t), 0, "%s.", line);
	return tab_done(t);
}

/* known.c: known issues (known.h): the file, and marking failures. */
#include "report/verdict/known.h"
#include "report/verdict/rules.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[] = { [VD_KNOWN_CHECK] = "check", [VD_KNOWN_KMSG] = "kmsg" };

int vd_known_date_ok(const char *s)
{
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;

	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !isdigit((unsigned char)s[i]))
			return 0;
	if (s[10])
		return 0;
	y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
	if (m < 1 || m > 12 || d < 1 || d > days[m - 1])
		return 0;
	return m != 2 || d < 29 || (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

/* The next word of *p (NUL-terminated in place), or NULL. */
static char *word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return *p = s, NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = 0;
	*p = s;
	return w;
}

__attribute__((format(printf, 4, 5)))
static int bad(char *err, size_t errlen, const char *where, const char *fmt, ...)
{
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", where, why);
	return -EINVAL;
}

int vd_known_line(struct vd_known *kn, const char *text, const char *where, const char *today,
		  char *err, size_t errlen)
{
	static const char form[] = "expected KIND EXPIRES LINK PATTERN "
				   "(check 2027-03-31 https://bugs.example.org/12 xfs create*)";
	char line[1024], *p = line, *kind, *until, *link;
	struct vd_known_entry *e;
	size_t n = strlen(text);
	int k = -1;

	if (n >= sizeof(line))
		return bad(err, errlen, where, "line longer than %zu bytes", sizeof(line) - 1);
	memcpy(line, text, n + 1);
	line[strcspn(line, "\r\n")] = 0;
	if (!(kind = word(&p)) || kind[0] == '#')
		return 0;
	for (int i = 0; i < 2; i++)
		if (!strcmp(kind, kind_name[i]))
			k = i;
	if (k < 0)
		return bad(err, errlen, where, "unknown kind '%.40s'; allowed: check, kmsg; %s", kind, form);
	if (!(until = word(&p)))
		return bad(err, errlen, where, "no expiry date; %s", form);
	if (!vd_known_date_ok(until))
		return bad(err, errlen, where, "bad expiry date '%.40s': expected YYYY-MM-DD, a day of the calendar",
			   until);
	if (!(link = word(&p)))
		return bad(err, errlen, where, "no link; %s", form);
	if (strlen(link) >= sizeof(e->link))
		return bad(err, errlen, where, "link longer than %zu bytes", sizeof(e->link) - 1);
	for (const char *c = link; *c; c++)
		if (!isprint((unsigned char)*c))
			return bad(err, errlen, where, "link with a control character");
	while (*p == ' ' || *p == '\t')
		p++;
	for (size_t l = strlen(p); l && (p[l - 1] == ' ' || p[l - 1] == '\t'); l--)
		p[l - 1] = 0;
	if (!*p)
		return bad(err, errlen, where, "no pattern after the link; %s", form);
	if (vd_grow((void **)&kn->e, &kn->cap, kn->n, sizeof(*kn->e))) {
		snprintf(err, errlen, "%s: %s", where, strerror(ENOMEM));
		return -ENOMEM;
	}
	e = &kn->e[kn->n++];
	memset(e, 0, sizeof(*e));
	e->kind = (enum vd_known_kind)k;
	snprintf(e->until, sizeof(e->until), "%s", until);
	e->expired = strcmp(until, today) < 0;
	snprintf(e->link, sizeof(e->link), "%s", link);
	snprintf(e->pattern, sizeof(e->pattern), "%s", p);
	snprintf(e->where, sizeof(e->where), "%s", where);
	return 0;
}

int vd_known_file(struct vd_known *kn, const char *path, const char *today, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char line[1100], where[600];
	const char *base = strrchr(path, '/');
	unsigned no = 0;
	int rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	base = base ? base + 1 : path;
	while (!rc && fgets(line, sizeof(line), f)) {
		no++;
		/* a message names the file as given, an entry as FILE:LINE */
		snprintf(where, sizeof(where), "%.500s:%u", path, no);
		if (!strchr(line, '\n') && !feof(f)) {
			rc = bad(err, errlen, where, "line longer than 1023 bytes");
			break;
		}
		size_t had = kn->n;
		rc = vd_known_line(kn, line, where, today, err, errlen);
		if (!rc && kn->n > had)
			snprintf(kn->e[had].where, sizeof(kn->e[had].where), "%.80s:%u", base, no);
	}
	if (!rc && ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "%s: %s", path, strerror(EIO));
	}
	fclose(f);
	return rc;
}

void vd_known_free(struct vd_known *kn)
{
	free(kn->e);
	memset(kn, 0, sizeof(*kn));
}

static void mark(struct vd_check *k, struct vd_known_entry *e)
{
	e->matched++;
	snprintf(k->known, sizeof(k->known), "%s", e->link);
	snprintf(k->known_where, sizeof(k->known_where), "%s", e->where);
	snprintf(k->known_until, sizeof(k->known_until), "%s", e->until);
	k->known_expired = e->expired;
}

/* A kernel message holds the pattern ('*' any text), as kmsg_ignore. */
static int holds(const char *pattern, const char *text)
{
	char pat[600];

	snprintf(pat, sizeof(pat), "*%s*", pattern);
	return fnmatch(pat, text, 0) == 0;
}

/* The first entry of kind kmsg that matches text: an applying one when
 * live, else any; NULL when none. */
static struct vd_known_entry *kmsg_entry(struct vd_known *kn, const char *text, int live)
{
	for (size_t i = 0; i < kn->n; i++) {
		struct vd_known_entry *e = &kn->e[i];
		if (e->kind == VD_KNOWN_KMSG && (!live || !e->expired) && holds(e->pattern, text))
			return e;
	}
	return NULL;
}

/* The first expired kmsg entry that matches text, or NULL. */
static struct vd_known_entry *kmsg_expired(struct vd_known *kn, const char *text)
{
	for (size_t i = 0; i < kn->n; i++) {
		struct vd_known_entry *e = &kn->e[i];
		if (e->kind == VD_KNOWN_KMSG && e->expired && holds(e->pattern, text))
			return e;
	}
	return NULL;
}

/* The counted kernel messages of run r (as vd_eval_kmsg counts them) that
 * no entry matches (live: only those that apply); *first: the entry of
 * the first matched one, or with live 0 the first expired entry that
 * matched one. */
static double kmsg_left(struct vd_known *kn, const struct vd_criteria *c, const struct rep_run *r,
			int live, struct vd_known_entry **first)
{
	char pat[1100];
	double left = 0;

	*first = NULL;
	for (size_t i = 0; i < r->nkm; i++) {
		const struct rep_kmsg *q = &r->km[i];
		int ignored = 0;
		if (!q->text) {
			left += (double)q->dropped;	/* no text: never known */
			continue;
		}
		if (q->level > 4)
			continue;
		for (size_t j = 0; c && j < c->nignore && !ignored; j++) {
			snprintf(pat, sizeof(pat), "*%s*", c->ignore[j]);
			ignored = fnmatch(pat, q->text, 0) == 0;
		}
		if (ignored)
			continue;
		struct vd_known_entry *e = kmsg_entry(kn, q->text, live);
		if (!e)
			left++;
		else if (!live && !e->expired && !*first)
			*first = kmsg_expired(kn, q->text);	/* NULL: none here */
		else if (!*first)
			*first = e;
	}
	return left;
}

void vd_known_apply(struct vd_known *kn, const struct vd_criteria *c,
		    const struct rep_run *r, struct vd_result *res, int strict)
{
	for (size_t i = 0; kn && i < res->n; i++) {
		struct vd_check *k = &res->check[i];
		struct vd_known_entry *hit = NULL, *old = NULL;
		k->known[0] = k->known_where[0] = k->known_until[0] = 0;
		k->known_expired = 0;
		if (k->kind != VD_FAIL)
			continue;
		for (size_t j = 0; j < kn->n && !hit; j++) {
			struct vd_known_entry *e = &kn->e[j];
			if (e->kind != VD_KNOWN_CHECK || fnmatch(e->pattern, k->what, 0))
				continue;
			if (!e->expired)
				hit = e;
			else if (!old)
				old = e;
		}
		if (!hit && k->key && !strcmp(k->key, "kmsg") && !isnan(k->bound) && r) {
			struct vd_known_entry *e;
			if (kmsg_left(kn, c, r, 1, &e) <= k->bound && e)
				hit = e;
			else if (!old && kmsg_left(kn, c, r, 0, &e) <= k->bound && e)
				old = e;
		}
		if (hit || old)
			mark(k, hit ? hit : old);
	}
	res->strict = strict;
	vd_result_done(res);
}

/* verdict.c: criteria, their evaluation against a run, and criteria
 * written from a run (see verdict.h). */
#include "report/verdict/verdict.h"
#include "report/sections/summary.h"
#include "report/table.h"
#include "lib/kv.h"
#include "log/record.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The keys of a criteria file. A phase key is NAME.[FS.]PHASE[.ROUNDS]. */
static const struct vkey {
	const char *name;
	enum vd_kind kind;
	int phase;		/* takes .[FS.]PHASE[.ROUNDS] */
	const char *value;	/* what the value is, for messages and the docs */
	const char *help;
} vkeys[] = {
	{ "min_files_per_s", VD_MIN_RATE, 1, "a number > 0",
	  "floor of files per second: every round taken (the worst) must reach it" },
	{ "max_seconds", VD_MAX_SECONDS, 1, "a number > 0",
	  "ceiling of a phase's seconds: every round taken (the worst) must stay under it" },
	{ "max_p99_us", VD_MAX_P99, 1, "a number > 0",
	  "ceiling of the 99th percentile of the per-file latency, microseconds, in every round taken" },
	{ "verify", VD_VERIFY, 0, "all",
	  "every phase that reads checked every byte (`verified`) and found no mismatch" },
	{ "errors", VD_ERRORS, 0, "an integer >= 0",
	  "most `error` records (failed syscalls, dead workers) the run may hold" },
	{ "kmsg", VD_KMSG, 0, "an integer >= 0",
	  "most kernel messages at warning level or worse (`kmsg` records, and the count of `kmsg_dropped` ones) the run may hold, not counting the ignored ones" },
	{ "kmsg_ignore", VD_KMSG_IGNORE, 0, "patterns, comma-separated",
	  "a kernel message whose text holds PATTERN is not counted (`*` matches any text); the key may repeat" },
	{ "health_new_errors", VD_HEALTH_ERRORS, 0, "an integer >= 0",
	  "most new disk errors between the `health` records before and after the run: media and data integrity errors, error log entries and newly set critical warning bits (NVMe); the increase of reallocated, reported uncorrectable, current pending and offline uncorrectable sectors, UDMA CRC errors and the error log count (ATA)" },
	{ "temperature_max", VD_TEMPERATURE, 0, "a number (degrees Celsius)",
	  "highest disk temperature any `health` record may show" },
	{ "pcie_link", VD_PCIE, 0, "max, or SPEED xWIDTH (16GT/s x4)",
	  "the disk's PCIe link: `max` is the device's maximum speed and width, or at least the speed and width given" },
	{ "fs_ok", VD_FS_OK, 0, "filesystems, comma-separated",
	  "each of these filesystems (or variants, FS:NAME) ran to the end (`fs_end` `ok`)" },
};
#define NVKEYS (sizeof(vkeys) / sizeof(vkeys[0]))

static const char *const rounds_name[] = { "all", "fresh", "aged" };
static const char *const rounds_text[] = { "all rounds", "fresh, round 1", "aged, rounds 2+" };

/* No libm: the runner links without it. */
static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

__attribute__((format(printf, 3, 4)))
static int seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Is word (n bytes) one of the comma-separated names? NULL list: any. */
static int in_list(const char *list, const char *word, size_t n)
{
	if (!list)
		return 1;
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && strncmp(p, word, n) == 0)
			return 1;
		p += l;
		if (*p)
			p++;
	}
	return 0;
}

static int is_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* A filesystem a rule may name: one of c->fs_names, or a variant of one,
 * FS:NAME (NAME a word: a column of its own, run/fs/variant.h). */
static int is_fs_name(const struct vd_criteria *c, const char *s)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	char base[32];

	if (!n || n >= sizeof(base) || (colon && !is_word(colon + 1)))
		return 0;
	memcpy(base, s, n);
	base[n] = 0;
	return is_word(base) && in_list(c->fs_names, base, n);
}

void vd_criteria_init(struct vd_criteria *c, const char *fs_names,
		      const char *phase_names, const char *verify_phases)
{
	memset(c, 0, sizeof(*c));
	c->fs_names = fs_names;
	c->phase_names = phase_names;
	c->verify_phases = verify_phases;
}

void vd_criteria_free(struct vd_criteria *c)
{
	free(c->rule);
	for (size_t i = 0; i < c->nignore; i++)
		free(c->ignore[i]);
	free(c->ignore);
	c->rule = NULL;
	c->ignore = NULL;
	c->n = c->cap = c->nignore = c->capignore = 0;
}

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	void *p = realloc(*arr, nc * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

static struct vd_rule *new_rule(struct vd_criteria *c, enum vd_kind kind, const char *where)
{
	if (grow((void **)&c->rule, &c->cap, c->n, sizeof(*c->rule)))
		return NULL;
	struct vd_rule *u = &c->rule[c->n++];
	memset(u, 0, sizeof(*u));
	u->kind = kind;
	strcpy(u->fs, "*");
	strcpy(u->phase, "*");
	snprintf(u->where, sizeof(u->where), "%s", where);
	return u;
}

double vd_percent(const char *s)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || !(d >= 0) || !isfinite(d))
		return -1;
	if (*end == '%')
		end++;
	return *end ? -1 : d / 100;
}

/* A number, whole when whole is set. */
static int parse_number(const char *s, int whole, int positive, double *out)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || *end || !isfinite(d) || d < 0 || (positive && d <= 0))
		return -1;
	if (whole && d != floor(d))
		return -1;
	*out = d;
	return 0;
}

/* "16GT/s x4", "16 GT/s x4", "8.0GT/s": speed in GT/s and width (0: any). */
static int parse_link(const char *s, double *speed, double *width)
{
	char *end;

	*speed = strtod(s, &end);
	if (end == s || !(*speed > 0))
		return -1;
	while (*end == ' ')
		end++;
	if (strncmp(end, "GT/s", 4) != 0)
		return -1;
	end += 4;
	while (*end == ' ')
		end++;
	*width = 0;
	if (!*end)
		return 0;
	if (*end != 'x')
		return -1;
	s = end + 1;
	*width = strtod(s, &end);
	return end == s || *end || !(*width >= 1) || *width != floor(*width) ? -1 : 0;
}

/* The .[FS.]PHASE[.ROUNDS] of a phase key into u. */
static int parse_phase_key(const struct vd_criteria *c, struct vd_rule *u, const char *key,
			   const char *rest, const char *where, char *err, size_t errlen)
{
	char part[3][32];
	size_t n = 0;

	for (const char *p = rest; n < 3;) {
		size_t l = strcspn(p, ".");
		if (l == 0 || l >= sizeof(part[0]))
			return seterr(err, errlen, "%s: %s: expected %.*s.[FS.]PHASE[.ROUNDS]",
				      where, key, (int)(rest - key - 1), key);
		memcpy(part[n], p, l);
		part[n++][l] = 0;
		p += l;
		if (!*p)
			break;
		p++;
		if (n == 3)
			return seterr(err, errlen, "%s: %s: expected %.*s.[FS.]PHASE[.ROUNDS]",
				      where, key, (int)(rest - key - 1), key);
	}
	size_t i = 0;
	/* FS. when there are 3 parts, or 2 whose second is not a round set */
	int has_rounds = n >= 2 && (strcmp(part[n - 1], "all") == 0 || strcmp(part[n - 1], "fresh") == 0 ||
				     strcmp(part[n - 1], "aged") == 0);
	if (n == 3 || (n == 2 && !has_rounds)) {
		if (strcmp(part[0], "*") && !is_fs_name(c, part[0]))
			return seterr(err, errlen, "%s: %s: unknown filesystem '%s'; allowed: * or %s, or a variant FS:NAME",
				      where, key, part[0], c->fs_names ? c->fs_names : "a name");
		strcpy(u->fs, part[0]);
		i = 1;
	}
	if (strcmp(part[i], "*") && !(is_word(part[i]) && in_list(c->phase_names, part[i], strlen(part[i]))))
		return seterr(err, errlen, "%s: %s: unknown phase '%s'; allowed: * or %s",
			      where, key, part[i], c->phase_names ? c->phase_names : "a name");
	strcpy(u->phase, part[i]);
	if (i + 1 < n) {
		if (n == 3 && !has_rounds)
			return seterr(err, errlen, "%s: %s: unknown rounds '%s'; allowed: all, fresh, aged",
				      where, key, part[2]);
		u->rounds = !strcmp(part[n - 1], "fresh") ? VD_FRESH :
			    !strcmp(part[n - 1], "aged") ? VD_AGED : VD_ALL;
	}
	return 0;
}

int vd_criteria_add(struct vd_criteria *c, const char *key, const char *val,
		    const char *where, char *err, size_t errlen)
{
	const struct vkey *k = NULL;
	const char *rest = NULL;

	for (size_t i = 0; i < NVKEYS && !k; i++) {
		size_t l = strlen(vkeys[i].name);
		if (strncmp(key, vkeys[i].name, l) != 0)
			continue;
		if (vkeys[i].phase && key[l] == '.') {
			k = &vkeys[i];
			rest = key + l + 1;
		} else if (!vkeys[i].phase && !key[l]) {
			k = &vkeys[i];
		}
	}
	if (!k)
		return seterr(err, errlen, "%s: %s: unknown key (see 'fsbench help criteria')", where, key);
	if (k->kind == VD_KMSG_IGNORE) {
		size_t before = c->nignore;

		for (const char *p = val; *p;) {
			size_t l = strcspn(p, ",");
			const char *s = p, *e = p + l;
			while (s < e && *s == ' ')
				s++;
			while (e > s && e[-1] == ' ')
				e--;
			if (e > s) {
				if (grow((void **)&c->ignore, &c->capignore, c->nignore, sizeof(*c->ignore)))
					return seterr(err, errlen, "%s: %s: out of memory", where, key);
				if (!(c->ignore[c->nignore] = strndup(s, (size_t)(e - s))))
					return seterr(err, errlen, "%s: %s: out of memory", where, key);
				c->nignore++;
			}
			p += l;
			if (*p)
				p++;
		}
		if (c->nignore == before)
			return seterr(err, errlen, "%s: %s: an empty pattern; allowed: %s", where, key, k->value);
		return 0;
	}
	struct vd_rule *u = new_rule(c, k->kind, where);
	if (!u)
		return seterr(err, errlen, "%s: %s: out of memory", where, key);
	int bad = 0;
	switch (k->kind) {
	case VD_MIN_RATE:
	case VD_MAX_SECONDS:
	case VD_MAX_P99:
		if (parse_phase_key(c, u, key, rest, where, err, errlen)) {
			c->n--;
			return -1;
		}
		bad = parse_number(val, 0, 1, &u->limit);
		break;
	case VD_VERIFY:
		bad = strcmp(val, "all") != 0;
		break;
	case VD_ERRORS:
	case VD_KMSG:
	case VD_HEALTH_ERRORS:
		bad = parse_number(val, 1, 0, &u->limit);
		break;
	case VD_TEMPERATURE:
		bad = parse_number(val, 0, 1, &u->limit);
		break;
	case VD_PCIE:
		if (strcmp(val, "max") != 0)
			bad = parse_link(val, &u->limit, &u->width);
		break;
	case VD_FS_OK:
		bad = !*val || strlen(val) >= sizeof(u->text);
		for (const char *p = val; !bad && *p;) {
			size_t l = strcspn(p, ",");
			char w[32];
			if (!l || l >= sizeof(w)) {
				bad = 1;
				break;
			}
			memcpy(w, p, l);
			w[l] = 0;
			if (!is_fs_name(c, w)) {
				c->n--;
				return seterr(err, errlen, "%s: %s: unknown filesystem '%s'; allowed: %s, or a variant FS:NAME",
					      where, key, w, c->fs_names ? c->fs_names : "names");
			}
			p += l;
			if (*p)
				p++;
		}
		if (!bad)
			snprintf(u->text, sizeof(u->text), "%s", val);
		break;
	default:
		bad = 1;
	}
	if (bad) {
		c->n--;
		return seterr(err, errlen, "%s: %s: bad value '%s'; allowed: %s", where, key, val, k->value);
	}
	return 0;
}

static int kv_add(void *ctx, const char *key, const char *val, const char *where,
		  char *err, size_t errlen)
{
	return vd_criteria_add(ctx, key, val, where, err, errlen);
}

int vd_criteria_file(struct vd_criteria *c, const char *path, char *err, size_t errlen)
{
	return fsb_kv_file(path, "criteria", kv_add, c, err, errlen);
}

/* ---- evaluation ---- */

static struct vd_check *new_check(struct vd_result *res, const struct vd_rule *u)
{
	if (grow((void **)&res->check, &res->cap, res->n, sizeof(*res->check)))
		return NULL;
	struct vd_check *k = &res->check[res->n++];
	memset(k, 0, sizeof(*k));
	k->value = k->bound = NAN;
	k->unit = "";
	k->measured_ok = 1;
	snprintf(k->where, sizeof(k->where), "%s", u->where);
	return k;
}

/* A number with up to 4 significant digits, no trailing zeros. */
static void num(char *buf, size_t len, double v)
{
	if (fabs(v) >= 10000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void not_measured(struct vd_check *k, const char *why)
{
	k->measured_ok = 0;
	k->pass = 0;
	snprintf(k->measured, sizeof(k->measured), "not measured (%s)", why);
}

static int round_taken(enum vd_rounds rounds, unsigned round)
{
	return rounds == VD_ALL || (rounds == VD_FRESH && round == 1) ||
	       (rounds == VD_AGED && round >= 2);
}

/* A phase value: files/s, seconds or p99 in microseconds; NaN if absent. */
static double phase_value(enum vd_kind kind, const struct rep_phase *p)
{
	switch (kind) {
	case VD_MIN_RATE:
		return p->files_per_s;
	case VD_MAX_SECONDS:
		return p->seconds;
	case VD_MAX_P99:
		return p->have_lat && p->lat_ns[LAT_P99] >= 0 ? p->lat_ns[LAT_P99] / 1000 : NAN;
	default:
		return NAN;
	}
}

/* One fs x phase of a phase rule: the worst of the rounds taken. */
static int check_phase(struct vd_result *res, const struct vd_rule *u,
		       const struct rep_run *r, const char *fs, const char *phase)
{
	static const char *const what[] = { [VD_MIN_RATE] = "files/s", [VD_MAX_SECONDS] = "seconds",
					    [VD_MAX_P99] = "p99 latency" };
	static const char *const unit[] = { [VD_MIN_RATE] = "files/s", [VD_MAX_SECONDS] = "s",
					    [VD_MAX_P99] = "us" };
	struct vd_check *k = new_check(res, u);
	double worst = NAN;
	unsigned n = 0, wround = 0;
	char a[32], b[32];

	if (!k)
		return -ENOMEM;
	k->fs = fs;
	k->unit = unit[u->kind];
	snprintf(k->what, sizeof(k->what), "%s %s %s (%s)", fs, phase, what[u->kind],
		 rounds_text[u->rounds]);
	k->bound = u->limit;
	num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "%s %s %s", u->kind == VD_MIN_RATE ? ">=" : "<=",
		 b, k->unit);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase) || !round_taken(u->rounds, p->round))
			continue;
		double v = phase_value(u->kind, p);
		if (isnan(v))
			continue;
		n++;
		if (isnan(worst) || (u->kind == VD_MIN_RATE ? v < worst : v > worst)) {
			worst = v;
			wround = p->round;
		}
	}
	if (!n) {
		not_measured(k, "no such phase record");
		return 0;
	}
	k->value = worst;
	k->pass = u->kind == VD_MIN_RATE ? worst >= u->limit : worst <= u->limit;
	num(a, sizeof(a), worst);
	if (n == 1)
		snprintf(k->measured, sizeof(k->measured), "%s %s, round %u", a, k->unit, wround);
	else
		snprintf(k->measured, sizeof(k->measured), "%s %s, worst of %u rounds (round %u)",
			 a, k->unit, n, wround);
	return 0;
}

static int eval_phase_rule(struct vd_result *res, const struct vd_rule *u, const struct rep_run *r)
{
	size_t before = res->n;
	int rc = 0;

	for (size_t f = 0; f < r->nfs && !rc; f++) {
		const char *fs = r->fs[f].name;
		if (strcmp(u->fs, "*") && strcmp(u->fs, fs))
			continue;
		if (strcmp(u->phase, "*")) {
			rc = check_phase(res, u, r, fs, u->phase);
			continue;
		}
		/* every phase of this fs, in order of first appearance */
		for (size_t i = 0; i < r->nph && !rc; i++) {
			const struct rep_phase *p = &r->ph[i];
			size_t j;
			if (strcmp(p->fs, fs) || !round_taken(u->rounds, p->round))
				continue;
			for (j = 0; j < i; j++)
				if (!strcmp(r->ph[j].fs, fs) && !strcmp(r->ph[j].phase, p->phase) &&
				    round_taken(u->rounds, r->ph[j].round))
					break;
			if (j == i)
				rc = check_phase(res, u, r, fs, p->phase);
		}
	}
	if (!rc && res->n == before) {	/* a rule that matched nothing */
		if (strcmp(u->fs, "*"))
			return check_phase(res, u, r, u->fs, u->phase);
		struct vd_check *k = new_check(res, u);
		if (!k)
			return -ENOMEM;
		snprintf(k->what, sizeof(k->what), "%s %s (%s)", u->fs, u->phase, rounds_text[u->rounds]);
		num(k->limit, sizeof(k->limit), u->limit);
		k->bound = u->limit;
		not_measured(k, "no such phase record");
	}
	return rc;
}

static void eval_verify(struct vd_check *k, const struct vd_criteria *c, const struct rep_run *r)
{
	unsigned checked = 0, unchecked = 0;
	uint64_t bad = 0;

	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		bad += p->verify_errors;
		if (!in_list(c->verify_phases, p->phase, strlen(p->phase)))
			continue;
		if (p->verified == 1)
			checked++;
		else
			unchecked++;
	}
	if (r->nverify_errors > bad)
		bad = r->nverify_errors;	/* records outside a phase's count */
	snprintf(k->what, sizeof(k->what), "verification (every byte read checked)");
	snprintf(k->limit, sizeof(k->limit), "all verified, 0 verify errors");
	k->value = (double)bad;
	k->bound = 0;
	if (!checked && !unchecked) {
		not_measured(k, "no phase that reads");
		return;
	}
	k->pass = !unchecked && !bad;
	snprintf(k->measured, sizeof(k->measured), "%u of %u reading phases verified, %llu verify errors",
		 checked, checked + unchecked, (unsigned long long)bad);
}

static void eval_count(struct vd_check *k, const struct vd_rule *u, double n, const char *what,
		       const char *measured)
{
	char b[32];

	snprintf(k->what, sizeof(k->what), "%s", what);
	num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "<= %s", b);
	k->bound = u->limit;
	k->value = n;
	k->pass = n <= u->limit;
	snprintf(k->measured, sizeof(k->measured), "%s", measured);
}

static int ignored(const struct vd_criteria *c, const char *text)
{
	char pat[FSB_KV_LINE + 2];

	for (size_t i = 0; i < c->nignore; i++) {
		snprintf(pat, sizeof(pat), "*%s*", c->ignore[i]);
		if (fnmatch(pat, text, 0) == 0)
			return 1;
	}
	return 0;
}

/* Did the run read the kernel's log? run_start's "kmsg" names it (or says
 * "not available: ..."); a kmsg record says so too. */
static int kmsg_watched(const struct rep_run *r)
{
	return r->nkm || (r->kmsg_source && strncmp(r->kmsg_source, "not available", 13) != 0);
}

static void eval_kmsg(struct vd_check *k, const struct vd_rule *u, const struct vd_criteria *c,
		      const struct rep_run *r)
{
	static const char what[] = "kernel messages (warning or worse)";
	uint64_t n = 0, ign = 0, dropped = 0;
	const struct rep_kmsg *first = NULL;
	char m[256];

	if (!kmsg_watched(r)) {
		eval_count(k, u, NAN, what, "");
		not_measured(k, r->kmsg_source ? r->kmsg_source : "the run did not read the kernel log");
		return;
	}
	for (size_t i = 0; i < r->nkm; i++) {
		const struct rep_kmsg *q = &r->km[i];
		if (!q->text) {		/* kmsg_dropped: more than were recorded */
			dropped += q->dropped;
			continue;
		}
		if (q->level > 4)
			continue;	/* below warning (notice, info, debug) */
		if (ignored(c, q->text)) {
			ign++;
			continue;
		}
		if (!n++)
			first = q;
	}
	n += dropped;	/* their text is unknown: none can be ignored */
	int o = snprintf(m, sizeof(m), "%llu", (unsigned long long)n);
	if (dropped && o > 0 && (size_t)o < sizeof(m))
		o += snprintf(m + o, sizeof(m) - (size_t)o, " (%llu not recorded)",
			      (unsigned long long)dropped);
	if (ign && o > 0 && (size_t)o < sizeof(m))
		o += snprintf(m + o, sizeof(m) - (size_t)o, " (%llu ignored)", (unsigned long long)ign);
	if (first && o > 0 && (size_t)o < sizeof(m)) {
		char tag[96] = "between phases";
		if (first->fs && first->phase && strcmp(first->phase, "between"))
			snprintf(tag, sizeof(tag), "%s round %u %s", first->fs, first->round, first->phase);
		else if (first->fs)
			snprintf(tag, sizeof(tag), "%s, between phases", first->fs);
		snprintf(m + o, sizeof(m) - (size_t)o, ", first in %s: %.120s", tag, first->text);
	}
	eval_count(k, u, (double)n, what, m);
}

/* New ATA disk errors: the after record's delta.ata_smart (the increase of
 * each error counter it has). 0 when there is none. */
static int health_new_ata(const struct rep_run *r, uint64_t ata[REP_ATA_DN])
{
	const struct rep_hsum *after = NULL;

	for (size_t i = 0; i < r->nhsum; i++)
		if (r->hsum[i].when && !strcmp(r->hsum[i].when, "after"))
			after = &r->hsum[i];
	if (!after || !after->have_ata_delta)
		return 0;
	memcpy(ata, after->d_ata, sizeof(after->d_ata));
	return 1;
}

/* New disk errors: the after record's delta, else the counters of the
 * before and after records. */
static int health_new(const struct rep_run *r, uint64_t *media, uint64_t *log, uint64_t *crit)
{
	const struct rep_hsum *before = NULL, *after = NULL;

	for (size_t i = 0; i < r->nhsum; i++) {
		const struct rep_hsum *h = &r->hsum[i];
		if (h->when && !strcmp(h->when, "before") && !before)
			before = h;
		else if (h->when && !strcmp(h->when, "after"))
			after = h;
	}
	if (!after)
		return 0;
	if (after->d_media_errors != UINT64_MAX && after->d_error_log_entries != UINT64_MAX) {
		*media = after->d_media_errors;
		*log = after->d_error_log_entries;
		*crit = after->d_new_critical != UINT64_MAX ? after->d_new_critical : 0;
		return 1;
	}
	if (!before || before->media_errors == UINT64_MAX || after->media_errors == UINT64_MAX ||
	    before->error_log_entries == UINT64_MAX || after->error_log_entries == UINT64_MAX)
		return 0;
	*media = after->media_errors > before->media_errors ? after->media_errors - before->media_errors : 0;
	*log = after->error_log_entries > before->error_log_entries ?
	       after->error_log_entries - before->error_log_entries : 0;
	*crit = 0;
	return 1;
}

static void eval_health_errors(struct vd_check *k, const struct vd_rule *u, const struct rep_run *r)
{
	static const char what[] = "new disk errors (media, error log entries, critical warnings)";
	uint64_t media, log, crit;
	unsigned bits = 0;
	char m[512];

	uint64_t ata[REP_ATA_DN];
	eval_count(k, u, NAN, what, "");
	if (!health_new(r, &media, &log, &crit) && health_new_ata(r, ata)) {
		static const char *const label[REP_ATA_DN] = {
			"reallocated sectors", "reported uncorrectable", "current pending sectors",
			"offline uncorrectable", "UDMA CRC errors", "error log count",
		};
		char parts[400] = "";
		uint64_t sum = 0;
		size_t o = 0;
		for (int i = 0; i < REP_ATA_DN && o < sizeof(parts); i++) {
			if (ata[i] == UINT64_MAX) {
				o += (size_t)snprintf(parts + o, sizeof(parts) - o, "%s%s absent",
						      o ? ", " : "", label[i]);
				continue;
			}
			sum += ata[i];
			o += (size_t)snprintf(parts + o, sizeof(parts) - o, "%s%s +%llu",
					      o ? ", " : "", label[i], (unsigned long long)ata[i]);
		}
		snprintf(m, sizeof(m), "%llu (ATA SMART: %s)", (unsigned long long)sum, parts);
		eval_count(k, u, (double)sum, what, m);
		return;
	}
	if (!health_new(r, &media, &log, &crit)) {
		not_measured(k, "no health records with the disk's error counters before and after the run");
		return;
	}
	for (uint64_t c = crit; c; c &= c - 1)
		bits++;
	snprintf(m, sizeof(m), "%llu (media errors +%llu, error log entries +%llu, new critical "
		 "warning bits %u)", (unsigned long long)(media + log + bits),
		 (unsigned long long)media, (unsigned long long)log, bits);
	eval_count(k, u, (double)(media + log + bits), what, m);
}

static void eval_temperature(struct vd_check *k, const struct vd_rule *u, const struct rep_run *r)
{
	double max = NAN;
	char a[32], b[32];

	for (size_t i = 0; i < r->nhsum; i++)
		if (!isnan(r->hsum[i].temp_c) && (isnan(max) || r->hsum[i].temp_c > max))
			max = r->hsum[i].temp_c;
	snprintf(k->what, sizeof(k->what), "disk temperature");
	k->unit = "C";
	k->bound = u->limit;
	num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "<= %s C", b);
	if (isnan(max)) {
		not_measured(k, "no health record with a temperature");
		return;
	}
	k->value = max;
	k->pass = max <= u->limit;
	num(a, sizeof(a), max);
	snprintf(k->measured, sizeof(k->measured), "%s C (highest of the health records)", a);
}

static double lanes(const char *s)
{
	char *end;
	if (!s)
		return NAN;
	if (*s == 'x')
		s++;
	double d = strtod(s, &end);
	return end == s ? NAN : d;
}

static void eval_pcie(struct vd_check *k, const struct vd_rule *u, const struct rep_run *r)
{
	double speed = NAN, width = NAN, mspeed = NAN, mwidth = NAN;
	char a[32], b[32];

	for (size_t i = 0; i < r->nhsum; i++) {
		const struct rep_hsum *h = &r->hsum[i];
		if (isnan(h->speed))
			continue;
		speed = h->speed, width = h->width;
		mspeed = h->max_speed, mwidth = h->max_width;
	}
	if (isnan(speed) && r->target_pcie_speed) {
		speed = strtod(r->target_pcie_speed, NULL);
		width = lanes(r->target_pcie_width);
		if (!(speed > 0))
			speed = NAN;
	}
	snprintf(k->what, sizeof(k->what), "PCIe link of the disk");
	k->unit = "GT/s";
	double want_s = u->limit, want_w = u->width;
	int max = want_s == 0;
	if (max) {
		want_s = mspeed;
		want_w = mwidth;
	}
	if (isnan(want_s) || (max && isnan(want_w))) {
		snprintf(k->limit, sizeof(k->limit), "the device's maximum");
	} else {
		num(a, sizeof(a), want_s);
		num(b, sizeof(b), want_w);
		snprintf(k->limit, sizeof(k->limit), ">= %s GT/s%s%s%s", a, want_w > 0 ? " x" : "",
			 want_w > 0 ? b : "", max ? " (the device's maximum)" : "");
	}
	k->bound = want_s;
	if (isnan(speed)) {
		not_measured(k, "no PCIe link speed in the records");
		return;
	}
	if (max && (isnan(mspeed) || isnan(mwidth))) {
		not_measured(k, "no maximum link speed and width in the health records");
		return;
	}
	if (want_w > 0 && isnan(width)) {
		not_measured(k, "no PCIe link width in the records");
		return;
	}
	k->value = speed;
	k->pass = speed >= want_s && (!(want_w > 0) || width >= want_w);
	num(a, sizeof(a), speed);
	num(b, sizeof(b), width);
	snprintf(k->measured, sizeof(k->measured), "%s GT/s x%s", a, isnan(width) ? "?" : b);
}

static int eval_fs_ok(struct vd_result *res, const struct vd_rule *u, const struct rep_run *r)
{
	for (const char *p = u->text; *p;) {
		size_t l = strcspn(p, ",");
		struct vd_check *k = new_check(res, u);
		const struct rep_fs *f = NULL;
		if (!k)
			return -ENOMEM;
		for (size_t i = 0; i < r->nfs && !f; i++)
			if (strlen(r->fs[i].name) == l && !strncmp(r->fs[i].name, p, l))
				f = &r->fs[i];
		k->fs = f ? f->name : NULL;
		snprintf(k->what, sizeof(k->what), "%.*s ran to the end", (int)l, p);
		snprintf(k->limit, sizeof(k->limit), "ok");
		if (!f)
			snprintf(k->measured, sizeof(k->measured), "not in the run");
		else if (!f->status)
			snprintf(k->measured, sizeof(k->measured), "no fs_end record");
		else
			snprintf(k->measured, sizeof(k->measured), "%s%s%s", f->status,
				 f->reason && *f->reason ? ": " : "", f->reason ? f->reason : "");
		k->pass = f && f->status && !strcmp(f->status, "ok");
		p += l;
		if (*p)
			p++;
	}
	return 0;
}

/* Which rounds a summary row takes (summary.c's rows). */
static enum vd_rounds row_rounds(enum rep_row row)
{
	return row == ROW_READ_FRESH || row == ROW_INODE_FRESH ? VD_FRESH :
	       row == ROW_READ_AGED || row == ROW_INODE_AGED ? VD_AGED : VD_ALL;
}

/* The seconds of fs x phase in the rounds taken (the later record of a
 * round wins); returns how many. */
static size_t round_seconds(const struct rep_run *r, const char *fs, const char *phase,
			    enum vd_rounds rounds, double *v, size_t max)
{
	unsigned rd[64];
	size_t n = 0;

	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		size_t j;
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase) || !round_taken(rounds, p->round))
			continue;
		for (j = 0; j < n && rd[j] != p->round; j++)
			;
		if (j == n && n < max && n < 64)
			rd[n++] = p->round;
		if (j < n)
			v[j] = p->seconds;
	}
	return n;
}

static int eval_baseline(struct vd_result *res, const struct vd_rule *u, const struct rep_run *r)
{
	struct vd_check *k = new_check(res, u);
	enum rep_row row = (enum rep_row)u->row;
	double v[64], med;
	char a[32], b[32], c[32];

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < r->nfs; i++)
		if (!strcmp(r->fs[i].name, u->fs))
			k->fs = r->fs[i].name;
	k->unit = "s";
	snprintf(k->what, sizeof(k->what), "%s %s seconds (median)", u->fs, rep_row_name(row));
	k->bound = u->limit;
	num(a, sizeof(a), u->limit);
	num(b, sizeof(b), u->base);
	if (u->nbase > 1)
		snprintf(k->limit, sizeof(k->limit), "<= %s s: baseline %s s + %.0f%% (tolerance %.0f%%, "
			 "spread between its %u rounds %.0f%%)", a, b, 100 * dmax(u->tolerance, u->spread),
			 100 * u->tolerance, u->nbase, 100 * u->spread);
	else
		snprintf(k->limit, sizeof(k->limit), "<= %s s: baseline %s s + %.0f%% (tolerance; "
			 "one round, no spread)", a, b, 100 * u->tolerance);
	size_t n = round_seconds(r, u->fs, rep_row_phase(row), row_rounds(row), v, 64);
	if (!n) {
		not_measured(k, "no such phase record");
		return 0;
	}
	med = rep_median(v, n);
	k->value = med;
	k->pass = med <= u->limit;
	num(c, sizeof(c), med);
	snprintf(k->measured, sizeof(k->measured), "%s s (%+.0f%% vs baseline, %zu round%s)", c,
		 u->base > 0 ? 100 * (med / u->base - 1) : 0, n, n == 1 ? "" : "s");
	return 0;
}

/* The verdict of res, as a line and as a title. */
static void verdict_text(struct vd_result *res)
{
	if (res->nfail)
		snprintf(res->verdict, sizeof(res->verdict), "FAIL (%zu of %zu checks failed)",
			 res->nfail, res->n);
	else
		snprintf(res->verdict, sizeof(res->verdict), "PASS");
	if (res->nfail)
		snprintf(res->title, sizeof(res->title), "Verdict: %s", res->verdict);
	else
		snprintf(res->title, sizeof(res->title), "Verdict: PASS (%zu checks)", res->n);
}

int vd_evaluate(const struct vd_criteria *c, const struct rep_run *r, struct vd_result *res)
{
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < c->n; i++) {
		const struct vd_rule *u = &c->rule[i];
		struct vd_check *k = NULL;
		int rc = 0;

		switch (u->kind) {
		case VD_MIN_RATE:
		case VD_MAX_SECONDS:
		case VD_MAX_P99:
			rc = eval_phase_rule(res, u, r);
			break;
		case VD_FS_OK:
			rc = eval_fs_ok(res, u, r);
			break;
		case VD_BASELINE:
			rc = eval_baseline(res, u, r);
			break;
		default:
			if (!(k = new_check(res, u)))
				rc = -ENOMEM;
			break;
		}
		if (rc) {
			vd_result_free(res);
			return rc;
		}
		if (k) {
			char m[64];
			double n = 0;
			switch (u->kind) {
			case VD_VERIFY:
				eval_verify(k, c, r);
				break;
			case VD_ERRORS:
				/* the phases' counts, or the records when more
				 * (an error outside a phase: mkfs, mount) */
				for (size_t j = 0; j < r->nph; j++)
					n += (double)r->ph[j].errors;
				if ((double)r->nerrors > n)
					n = (double)r->nerrors;
				snprintf(m, sizeof(m), "%.0f", n);
				eval_count(k, u, n, "error records (failed syscalls, workers)", m);
				break;
			case VD_KMSG:
				eval_kmsg(k, u, c, r);
				break;
			case VD_HEALTH_ERRORS:
				eval_health_errors(k, u, r);
				break;
			case VD_TEMPERATURE:
				eval_temperature(k, u, r);
				break;
			case VD_PCIE:
				eval_pcie(k, u, r);
				break;
			default:
				break;
			}
		}
	}
	for (size_t i = 0; i < res->n; i++)
		res->nfail += !res->check[i].pass;
	verdict_text(res);
	return 0;
}

void vd_result_free(struct vd_result *res)
{
	free(res->check);
	memset(res, 0, sizeof(*res));
}

int vd_result_of_run(const struct rep_run *r, struct vd_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!r->have_verdict)
		return 0;
	if (r->nchk && !(res->check = calloc(r->nchk, sizeof(*res->check))))
		return -ENOMEM;
	res->n = res->cap = r->nchk;
	for (size_t i = 0; i < r->nchk; i++) {
		const struct rep_check *c = &r->chk[i];
		struct vd_check *k = &res->check[i];
		snprintf(k->what, sizeof(k->what), "%s", c->what ? c->what : "?");
		snprintf(k->measured, sizeof(k->measured), "%s", c->measured ? c->measured : "");
		snprintf(k->limit, sizeof(k->limit), "%s", c->limit ? c->limit : "");
		snprintf(k->where, sizeof(k->where), "%s", c->where ? c->where : "");
		k->value = k->bound = NAN;
		k->unit = "";
		k->pass = c->pass;
		k->measured_ok = strncmp(k->measured, "not measured", 12) != 0;
		res->nfail += !k->pass;
	}
	verdict_text(res);
	return 1;
}

/* s as a JSON string literal (log/record.h's escaping). */
static void json_str(FILE *out, const char *s)
{
	char q[2 * sizeof(((struct vd_check *)0)->measured) + 8];

	json_quote(q, sizeof(q), s);
	fputs(q, out);
}

int vd_record_body(FILE *out, const struct vd_result *res)
{
	fprintf(out, "\"status\":\"%s\",\"checks\":%zu,\"failed\":%zu,\"check\":[",
		res->nfail ? "fail" : "pass", res->n, res->nfail);
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		fputs(i ? ",{\"what\":" : "{\"what\":", out);
		json_str(out, k->what);
		fputs(",\"measured\":", out);
		json_str(out, k->measured);
		fputs(",\"limit\":", out);
		json_str(out, k->limit);
		fprintf(out, ",\"pass\":%s,\"where\":", k->pass ? "true" : "false");
		json_str(out, k->where);
		fputc('}', out);
	}
	fputc(']', out);
	return ferror(out) ? -1 : 0;
}

/* ---- criteria from runs ---- */

/* The filesystems of run r whose fs_end says ok, comma-separated. */
static void ok_list(const struct rep_run *r, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->nfs && o < len; i++)
		if (r->fs[i].status && !strcmp(r->fs[i].status, "ok"))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", r->fs[i].name);
}

static int has_verified(const struct rep_run *r)
{
	for (size_t i = 0; i < r->nph; i++)
		if (r->ph[i].verified == 1)
			return 1;
	return 0;
}

static int health_counters(const struct rep_run *r)
{
	uint64_t m, l, c, ata[REP_ATA_DN];
	return health_new(r, &m, &l, &c) || health_new_ata(r, ata);
}

int vd_criteria_baseline(struct vd_criteria *c, const struct rep_run *base, double tolerance)
{
	char list[256];
	struct vd_rule *u;

	ok_list(base, list, sizeof(list));
	if (*list) {
		if (!(u = new_rule(c, VD_FS_OK, "baseline")))
			return -ENOMEM;
		snprintf(u->text, sizeof(u->text), "%s", list);
	}
	if (!(u = new_rule(c, VD_ERRORS, "baseline")))
		return -ENOMEM;
	if (has_verified(base) && !new_rule(c, VD_VERIFY, "baseline"))
		return -ENOMEM;
	if (kmsg_watched(base) && !new_rule(c, VD_KMSG, "baseline"))
		return -ENOMEM;
	if (health_counters(base) && !new_rule(c, VD_HEALTH_ERRORS, "baseline"))
		return -ENOMEM;
	for (size_t f = 0; f < base->nfs; f++)
		for (int row = 0; row < ROW_N; row++) {
			double v[64], min, max, med;
			size_t n = round_seconds(base, base->fs[f].name, rep_row_phase((enum rep_row)row),
						 row_rounds((enum rep_row)row), v, 64);
			if (!n)
				continue;
			min = max = v[0];
			for (size_t i = 1; i < n; i++)
				min = dmin(min, v[i]), max = dmax(max, v[i]);
			med = rep_median(v, n);
			if (!(u = new_rule(c, VD_BASELINE, "baseline")))
				return -ENOMEM;
			snprintf(u->fs, sizeof(u->fs), "%s", base->fs[f].name);
			u->row = row;
			u->base = med;
			u->nbase = (unsigned)n;
			u->spread = med > 0 ? (max - min) / med : 0;
			u->tolerance = tolerance;
			u->limit = med * (1 + dmax(tolerance, u->spread));
		}
	return 0;
}

/* v > 0 rounded down to 2 significant digits (1234 -> 1200, 0.0567 -> 0.056). */
static double down2(double v)
{
	double m = 1;

	if (!(v > 0) || v > 1e15)
		return v;
	while (v / m >= 100)
		m *= 10;
	while (v / m < 10)
		m /= 10;
	return (double)(long long)(v / m + 1e-9) * m;
}

int vd_write_criteria(FILE *out, const struct rep_run *r, const char *source, double margin)
{
	char list[256], b[32];

	fprintf(out, "# fsbench criteria from run %s (%s)\n", r->run_id, source);
	if (r->hostname || r->target_model)
		fprintf(out, "# host %s, target %s, profile %s\n", r->hostname ? r->hostname : "?",
			r->target_model ? r->target_model : "?", r->profile ? r->profile : "?");
	fprintf(out, "# floors: the slowest round's files/s / %.2g (a margin of %.0f%%), "
		"rounded down\n", 1 + margin, 100 * margin);
	ok_list(r, list, sizeof(list));
	if (*list)
		fprintf(out, "fs_ok = %s\n", list);
	if (has_verified(r))
		fprintf(out, "verify = all\n");
	fprintf(out, "errors = 0\n");
	if (kmsg_watched(r))
		fprintf(out, "kmsg = 0\n");
	else
		fprintf(out, "# kmsg: this run did not read the kernel log\n");
	if (health_counters(r))
		fprintf(out, "health_new_errors = 0\n");
	else
		fprintf(out, "# health_new_errors: this run has no health records with error counters\n");
	for (size_t f = 0; f < r->nfs; f++)
		for (size_t i = 0; i < r->nph; i++) {
			const struct rep_phase *p = &r->ph[i];
			double worst = -1;
			size_t j;
			if (p->fs != r->fs[f].name)
				continue;
			for (j = 0; j < i; j++)
				if (r->ph[j].fs == p->fs && !strcmp(r->ph[j].phase, p->phase))
					break;
			if (j < i)
				continue;	/* written with its first round */
			for (j = i; j < r->nph; j++)
				if (r->ph[j].fs == p->fs && !strcmp(r->ph[j].phase, p->phase) &&
				    (worst < 0 || r->ph[j].files_per_s < worst))
					worst = r->ph[j].files_per_s;
			if (!(worst > 0))
				continue;
			num(b, sizeof(b), down2(worst / (1 + margin)));
			fprintf(out, "min_files_per_s.%s.%s = %s\n", p->fs, p->phase, b);
		}
	return fflush(out) || ferror(out) ? -1 : 0;
}

/* ---- as a report table ---- */

int vd_table(const struct vd_result *res, struct rep_table *t)
{
	static const char *const h[] = { "check", "measured", "limit", "result", "criterion",
					 "value", "limit_value", "unit" };
	tab_init(t, "verdict", res->title, SHAPE_GRID, 8);
	for (size_t c = 0; c < 8; c++) {
		tab_col(t, c, c >= 5 && c < 7, h[c], NULL);
		if (c >= 5)
			tab_col_only(t, c, REP_VIEW_DATA);
	}
	for (size_t i = 0; i < res->n; i++) {
		const struct vd_check *k = &res->check[i];
		size_t row = tab_row(t);
		tab_text(t, row, 0, "%s", k->what);
		tab_text(t, row, 1, "%s", k->measured);
		tab_text(t, row, 2, "%s", k->limit);
		tab_text(t, row, 3, "%s", k->pass ? "PASS" : "FAIL");
		tab_text(t, row, 4, "%s", k->where);
		if (isnan(k->value))
			tab_missing(t, row, 5);
		else
			tab_fixed(t, row, 5, k->value, 6);
		if (isnan(k->bound))
			tab_missing(t, row, 6);
		else
			tab_fixed(t, row, 6, k->bound, 6);
		tab_text(t, row, 7, "%s", k->unit);
	}
	return tab_done(t);
}

/* ---- the docs ---- */

void vd_keys_doc(FILE *f, enum fsb_doc_fmt fmt)
{
	char key[64];

	if (fmt == DOC_MARKDOWN)
		fputs("| key | value | check |\n|---|---|---|\n", f);
	for (size_t i = 0; i < NVKEYS; i++) {
		const struct vkey *k = &vkeys[i];
		snprintf(key, sizeof(key), "%s%s", k->name, k->phase ? ".[FS.]PHASE[.ROUNDS]" : "");
		switch (fmt) {
		case DOC_TEXT:
			fprintf(f, "  %s = %s\n      ", key, k->value);
			fsb_doc_put(f, fmt, k->help);
			fputc('\n', f);
			break;
		case DOC_MARKDOWN:
			fprintf(f, "| `%s` | ", key);
			fsb_doc_put(f, fmt, k->value);
			fputs(" | ", f);
			fsb_doc_put(f, fmt, k->help);
			fputs(" |\n", f);
			break;
		case DOC_SCDOC:
			fputc('*', f);
			fsb_doc_put(f, fmt, key);
			fputs("* = ", f);
			fsb_doc_put(f, fmt, k->value);
			fputs("\n\t", f);
			fsb_doc_put(f, fmt, k->help);
			fputs("\n\n", f);
			break;
		}
	}
	if (fmt == DOC_TEXT)
		fprintf(f, "  FS is a filesystem, a variant FS:NAME (a column of its own) or *\n"
			   "  (every one of the run), PHASE a phase or *,\n"
			   "  ROUNDS one of %s (round 1), %s (rounds 2 and later) or %s (the default).\n",
			rounds_name[VD_FRESH], rounds_name[VD_AGED], rounds_name[VD_ALL]);
}

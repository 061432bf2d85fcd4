/* judge.c: evaluation: each rule against a run by its key's eval hook
 * (rules.h), as checks with the measured value and the limit. The disk's
 * evidence is the run's health records before and after (model.h). */
#include "report/verdict/rules.h"
#include "report/sections/summary.h"
#include "lib/bytes.h"
#include "lib/kv.h"
#include "log/pcrule.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* No libm: the runner links without it. */
static double dmax(double a, double b) { return a > b ? a : b; }

struct vd_check *vd_new_check(struct vd_result *res, const struct vd_rule *u)
{
	if (vd_grow((void **)&res->check, &res->cap, res->n, sizeof(*res->check)))
		return NULL;
	struct vd_check *k = &res->check[res->n++];
	memset(k, 0, sizeof(*k));
	k->value = k->bound = NAN;
	k->unit = "";
	k->measured_ok = 1;
	snprintf(k->where, sizeof(k->where), "%s", u->where);
	return k;
}

void vd_num(char *buf, size_t len, double v)
{
	if (fabs(v) >= 10000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void vd_not_measured(struct vd_check *k, const char *why)
{
	k->measured_ok = 0;
	k->absent = 1;
	k->pass = 0;
	snprintf(k->measured, sizeof(k->measured), "not measured (%s)", why);
}

int vd_round_taken(enum vd_rounds rounds, unsigned round)
{
	return rounds == VD_ALL || (rounds == VD_FRESH && round == 1) ||
	       (rounds == VD_AGED && round >= 2);
}

/* ---- phase rules ---- */

double vd_files_per_s(const struct rep_phase *p)
{
	return p->trim ? NAN : p->files_per_s;	/* fstrim handles no files */
}

double vd_seconds(const struct rep_phase *p)
{
	return p->seconds;
}

double vd_p99_us(const struct rep_phase *p)
{
	return p->have_lat && !p->trim && p->lat_ns[LAT_P99] >= 0 ? p->lat_ns[LAT_P99] / 1000 : NAN;
}

/* One fs x phase of a phase rule: the worst of the rounds taken. */
static int check_phase(struct vd_result *res, const struct vd_rule *u,
		       const struct rep_run *r, const char *fs, const char *phase)
{
	const struct vd_key *key = u->key;
	struct vd_check *k = vd_new_check(res, u);
	double worst = NAN;
	unsigned n = 0, wround = 0;
	char a[32], b[32];

	if (!k)
		return -ENOMEM;
	k->fs = fs;
	k->unit = key->unit;
	snprintf(k->what, sizeof(k->what), "%s %s %s (%s)", fs, phase, key->what,
		 vd_rounds_text[u->rounds]);
	k->bound = u->limit;
	vd_num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "%s %s %s", key->floor ? ">=" : "<=",
		 b, k->unit);
	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase) || !vd_round_taken(u->rounds, p->round))
			continue;
		double v = key->measure(p);
		if (isnan(v))
			continue;
		n++;
		if (isnan(worst) || (key->floor ? v < worst : v > worst)) {
			worst = v;
			wround = p->round;
		}
	}
	if (!n) {
		vd_not_measured(k, "no such phase record");
		return 0;
	}
	k->value = worst;
	k->pass = key->floor ? worst >= u->limit : worst <= u->limit;
	vd_num(a, sizeof(a), worst);
	if (n == 1)
		snprintf(k->measured, sizeof(k->measured), "%s %s, round %u", a, k->unit, wround);
	else
		snprintf(k->measured, sizeof(k->measured), "%s %s, worst of %u rounds (round %u)",
			 a, k->unit, n, wround);
	return 0;
}

/* Each filesystem x phase the rule names: the worst of the rounds taken. */
int vd_eval_phase(struct vd_result *res, const struct vd_criteria *c,
		  const struct vd_rule *u, const struct rep_run *r)
{
	size_t before = res->n;
	int rc = 0;

	(void)c;
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
			if (strcmp(p->fs, fs) || !vd_round_taken(u->rounds, p->round))
				continue;
			if (p->trim && isnan(u->key->measure(p)))
				continue;	/* fstrim: no files, no per-file latency */
			for (j = 0; j < i; j++)
				if (!strcmp(r->ph[j].fs, fs) && !strcmp(r->ph[j].phase, p->phase) &&
				    vd_round_taken(u->rounds, r->ph[j].round))
					break;
			if (j == i)
				rc = check_phase(res, u, r, fs, p->phase);
		}
	}
	if (!rc && res->n == before) {	/* a rule that matched nothing */
		if (strcmp(u->fs, "*"))
			return check_phase(res, u, r, u->fs, u->phase);
		struct vd_check *k = vd_new_check(res, u);
		if (!k)
			return -ENOMEM;
		snprintf(k->what, sizeof(k->what), "%s %s (%s)", u->fs, u->phase, vd_rounds_text[u->rounds]);
		vd_num(k->limit, sizeof(k->limit), u->limit);
		k->bound = u->limit;
		vd_not_measured(k, "no such phase record");
	}
	return rc;
}

/* ---- one check per rule ---- */

int vd_eval_verify(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r)
{
	unsigned checked = 0, unchecked = 0;
	uint64_t bad = 0;
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;

	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		bad += p->verify_errors;
		if (!vd_in_list(c->verify_phases, p->phase, strlen(p->phase)))
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
		vd_not_measured(k, "no phase that reads");
		return 0;
	}
	k->pass = !unchecked && !bad;
	snprintf(k->measured, sizeof(k->measured), "%u of %u reading phases verified, %llu verify errors",
		 checked, checked + unchecked, (unsigned long long)bad);
	return 0;
}

static void eval_count(struct vd_check *k, const struct vd_rule *u, double n, const char *what,
		       const char *measured)
{
	char b[32];

	snprintf(k->what, sizeof(k->what), "%s", what);
	vd_num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "<= %s", b);
	k->bound = u->limit;
	k->value = n;
	k->pass = n <= u->limit;
	snprintf(k->measured, sizeof(k->measured), "%s", measured);
}

/* The phases' counts, or the records when more (an error outside a
 * phase: mkfs, mount). */
int vd_eval_errors(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r)
{
	char m[64];
	double n = 0;

	(void)c;
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;
	for (size_t j = 0; j < r->nph; j++)
		n += (double)r->ph[j].errors;
	if ((double)r->nerrors > n)
		n = (double)r->nerrors;
	snprintf(m, sizeof(m), "%.0f", n);
	eval_count(k, u, n, "error records (failed syscalls, workers)", m);
	return 0;
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
int vd_kmsg_watched(const struct rep_run *r)
{
	return r->nkm || (r->kmsg_source && strncmp(r->kmsg_source, "not available", 13) != 0);
}

int vd_eval_kmsg(struct vd_result *res, const struct vd_criteria *c,
		 const struct vd_rule *u, const struct rep_run *r)
{
	static const char what[] = "kernel messages (warning or worse)";
	uint64_t n = 0, ign = 0, dropped = 0;
	const struct rep_kmsg *first = NULL;
	char m[256];
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;
	if (!vd_kmsg_watched(r)) {
		eval_count(k, u, NAN, what, "");
		vd_not_measured(k, r->kmsg_source ? r->kmsg_source : "the run did not read the kernel log");
		return 0;
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
	return 0;
}

/* ---- the disk's health: its records before and after the run ---- */

/* The health record of when (REP_HEALTH_BEFORE, _AFTER), or NULL. */
static const struct rep_health *health(const struct rep_run *r, int when)
{
	return r->health[when].have ? &r->health[when] : NULL;
}

/* A counter: UINT64_MAX when absent, below zero or beyond 64 bits. */
static uint64_t counter(const struct rep_hnum *n)
{
	return n->have && !n->neg && !n->digits ? n->n : UINT64_MAX;
}

/* A counter's increase in a difference: 0 for a decrease (no new error),
 * UINT64_MAX when absent or beyond 64 bits. */
static uint64_t increase(const struct rep_hnum *n)
{
	return !n->have || n->digits ? UINT64_MAX : n->neg ? 0 : n->n;
}

/* New ATA disk errors: the after record's delta.ata_smart (the increase of
 * each error counter it has). 0 when there is none. */
static int health_new_ata(const struct rep_run *r, uint64_t ata[REP_ATA_DN])
{
	const struct rep_health *after = health(r, REP_HEALTH_AFTER);

	if (!after || !after->have_ata_delta)
		return 0;
	for (int i = 0; i < REP_ATA_DN; i++)
		ata[i] = increase(&after->delta_ata[i]);
	return 1;
}

/* New disk errors: the after record's delta, else the counters of the
 * before and after records. */
static int health_new(const struct rep_run *r, uint64_t *media, uint64_t *log, uint64_t *crit)
{
	const struct rep_health *before = health(r, REP_HEALTH_BEFORE);
	const struct rep_health *after = health(r, REP_HEALTH_AFTER);

	if (!after)
		return 0;
	uint64_t dm = counter(&after->delta[REP_SM_MEDIA_ERRORS]);
	uint64_t dl = counter(&after->delta[REP_SM_ERROR_LOG_ENTRIES]);
	uint64_t dc = counter(&after->delta[REP_SM_CRITICAL_WARNING]);	/* new_critical_warning */
	if (dm != UINT64_MAX && dl != UINT64_MAX) {
		*media = dm;
		*log = dl;
		*crit = dc != UINT64_MAX ? dc : 0;
		return 1;
	}
	if (!before)
		return 0;
	uint64_t bm = counter(&before->smart[REP_SM_MEDIA_ERRORS]);
	uint64_t am = counter(&after->smart[REP_SM_MEDIA_ERRORS]);
	uint64_t bl = counter(&before->smart[REP_SM_ERROR_LOG_ENTRIES]);
	uint64_t al = counter(&after->smart[REP_SM_ERROR_LOG_ENTRIES]);
	if (bm == UINT64_MAX || am == UINT64_MAX || bl == UINT64_MAX || al == UINT64_MAX)
		return 0;
	*media = am > bm ? am - bm : 0;
	*log = al > bl ? al - bl : 0;
	*crit = 0;
	return 1;
}

int vd_health_counters(const struct rep_run *r)
{
	uint64_t m, l, c, ata[REP_ATA_DN];
	return health_new(r, &m, &l, &c) || health_new_ata(r, ata);
}

int vd_eval_health(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r)
{
	static const char what[] = "new disk errors (media, error log entries, critical warnings)";
	uint64_t media, log, crit;
	unsigned bits = 0;
	char m[512];

	(void)c;
	uint64_t ata[REP_ATA_DN];
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;
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
		return 0;
	}
	if (!health_new(r, &media, &log, &crit)) {
		vd_not_measured(k, "no health records with the disk's error counters before and after the run");
		return 0;
	}
	for (uint64_t w = crit; w; w &= w - 1)
		bits++;
	snprintf(m, sizeof(m), "%llu (media errors +%llu, error log entries +%llu, new critical "
		 "warning bits %u)", (unsigned long long)(media + log + bits),
		 (unsigned long long)media, (unsigned long long)log, bits);
	eval_count(k, u, (double)(media + log + bits), what, m);
	return 0;
}

int vd_eval_temperature(struct vd_result *res, const struct vd_criteria *c,
			const struct vd_rule *u, const struct rep_run *r)
{
	double max = NAN;
	char a[32], b[32];

	(void)c;
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;
	for (int w = 0; w < REP_HEALTH_N; w++) {
		const struct rep_health *h = health(r, w);
		if (h && h->have_temp && isfinite(h->temp_c) && (isnan(max) || h->temp_c > max))
			max = h->temp_c;
	}
	snprintf(k->what, sizeof(k->what), "disk temperature");
	k->unit = "C";
	k->bound = u->limit;
	vd_num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "<= %s C", b);
	if (isnan(max)) {
		vd_not_measured(k, "no health record with a temperature");
		return 0;
	}
	k->value = max;
	k->pass = max <= u->limit;
	vd_num(a, sizeof(a), max);
	snprintf(k->measured, sizeof(k->measured), "%s C (highest of the health records)", a);
	return 0;
}

/* "16.0 GT/s PCIe", "8", "x4": the number >= 0 (of any sign when any);
 * NaN when there is none. */
static double link_num(const char *s, int any)
{
	char *end;
	if (!s)
		return NAN;
	if (*s == 'x')
		s++;
	double d = strtod(s, &end);
	return end != s && (any || d >= 0) ? d : NAN;
}

int vd_eval_pcie(struct vd_result *res, const struct vd_criteria *c,
		 const struct vd_rule *u, const struct rep_run *r)
{
	double speed = NAN, width = NAN, mspeed = NAN, mwidth = NAN;
	size_t line = 0;
	char a[32], b[32];

	(void)c;
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;
	/* the later health record with a link speed */
	for (int w = 0; w < REP_HEALTH_N; w++) {
		const struct rep_health *h = health(r, w);
		double s = h ? link_num(h->pcie_speed, 0) : NAN;
		if (isnan(s) || (!isnan(speed) && h->line < line))
			continue;
		speed = s, width = link_num(h->pcie_width, 0);
		mspeed = link_num(h->pcie_max_speed, 0), mwidth = link_num(h->pcie_max_width, 0);
		line = h->line;
	}
	if (isnan(speed) && r->target_pcie_speed) {
		speed = strtod(r->target_pcie_speed, NULL);
		width = link_num(r->target_pcie_width, 1);
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
		vd_num(a, sizeof(a), want_s);
		vd_num(b, sizeof(b), want_w);
		snprintf(k->limit, sizeof(k->limit), ">= %s GT/s%s%s%s", a, want_w > 0 ? " x" : "",
			 want_w > 0 ? b : "", max ? " (the device's maximum)" : "");
	}
	k->bound = want_s;
	if (isnan(speed)) {
		vd_not_measured(k, "no PCIe link speed in the records");
		return 0;
	}
	if (max && (isnan(mspeed) || isnan(mwidth))) {
		vd_not_measured(k, "no maximum link speed and width in the health records");
		return 0;
	}
	if (want_w > 0 && isnan(width)) {
		vd_not_measured(k, "no PCIe link width in the records");
		return 0;
	}
	k->value = speed;
	k->pass = speed >= want_s && (!(want_w > 0) || width >= want_w);
	vd_num(a, sizeof(a), speed);
	vd_num(b, sizeof(b), width);
	snprintf(k->measured, sizeof(k->measured), "%s GT/s x%s", a, isnan(width) ? "?" : b);
	return 0;
}

/* ---- rules of several checks ---- */

/* One check per filesystem of the list. */
int vd_eval_fs_ok(struct vd_result *res, const struct vd_criteria *c,
		  const struct vd_rule *u, const struct rep_run *r)
{
	(void)c;
	for (const char *p = u->text; *p;) {
		size_t l = strcspn(p, ",");
		struct vd_check *k = vd_new_check(res, u);
		const struct rep_fs *f = NULL;
		if (!k)
			return -ENOMEM;
		for (size_t i = 0; i < r->nfs && !f; i++)
			if (strlen(r->fs[i].name) == l && !strncmp(r->fs[i].name, p, l))
				f = &r->fs[i];
		k->fs = f ? f->name : NULL;
		snprintf(k->what, sizeof(k->what), "%.*s ran to the end", (int)l, p);
		snprintf(k->limit, sizeof(k->limit), "ok");
		k->absent = !f || !f->status;
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

/* The capacity record: honest, or the real size and why. */
int vd_eval_capacity(struct vd_result *res, const struct vd_criteria *c,
		     const struct vd_rule *u, const struct rep_run *r)
{
	const struct rep_capacity *cp = &r->cap;
	char a[32], b[32], why[96] = "";

	(void)c;
	struct vd_check *k = vd_new_check(res, u);
	if (!k)
		return -ENOMEM;
	snprintf(k->what, sizeof(k->what), "the target holds the size it claims (capacity check)");
	snprintf(k->limit, sizeof(k->limit), "honest");
	if (!cp->have) {
		vd_not_measured(k, "no capacity record: the setting capacity was off, or a --dir run");
		return 0;
	}
	k->unit = "bytes";
	k->value = (double)cp->verified;
	k->bound = (double)cp->claimed;
	k->pass = cp->honest;
	fsb_human(cp->verified, a, sizeof(a));
	fsb_human(cp->claimed, b, sizeof(b));
	if (cp->honest) {
		snprintf(k->measured, sizeof(k->measured), "honest: %s of %s verified", a, b);
		return 0;
	}
	if (cp->have_alias)
		snprintf(why, sizeof(why), ": offset %llu aliases offset %llu",
			 (unsigned long long)cp->alias_offset, (unsigned long long)cp->alias_of);
	else if (cp->found)
		snprintf(why, sizeof(why), ": offset %llu reads back %.40s",
			 (unsigned long long)cp->verified, cp->found);
	snprintf(k->measured, sizeof(k->measured), "NOT honest: real size %s (%llu bytes) of %s claimed%s",
		 a, (unsigned long long)cp->verified, b, why);
	return 0;
}

enum vd_rounds vd_row_rounds(int row)
{
	return row == ROW_READ_FRESH || row == ROW_INODE_FRESH ? VD_FRESH :
	       row == ROW_READ_AGED || row == ROW_INODE_AGED ? VD_AGED : VD_ALL;
}

size_t vd_round_seconds(const struct rep_run *r, const char *fs, const char *phase,
			enum vd_rounds rounds, double *v, size_t max)
{
	unsigned rd[64];
	size_t n = 0;

	for (size_t i = 0; i < r->nph; i++) {
		const struct rep_phase *p = &r->ph[i];
		size_t j;
		if (strcmp(p->fs, fs) || strcmp(p->phase, phase) || !vd_round_taken(rounds, p->round))
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

/* A summary row of one filesystem against the baseline's median. */
int vd_eval_baseline(struct vd_result *res, const struct vd_criteria *c,
		     const struct vd_rule *u, const struct rep_run *r)
{
	struct vd_check *k = vd_new_check(res, u);
	enum rep_row row = (enum rep_row)u->row;
	double v[64], med;
	char a[32], b[32], m[32];

	(void)c;
	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < r->nfs; i++)
		if (!strcmp(r->fs[i].name, u->fs))
			k->fs = r->fs[i].name;
	k->unit = "s";
	snprintf(k->what, sizeof(k->what), "%s %s seconds (median)", u->fs, rep_row_name(row));
	k->bound = u->limit;
	vd_num(a, sizeof(a), u->limit);
	vd_num(b, sizeof(b), u->base);
	if (u->nbase > 1)
		snprintf(k->limit, sizeof(k->limit), "<= %s s: baseline %s s + %.0f%% (tolerance %.0f%%, "
			 "spread between its %u rounds %.0f%%)", a, b, 100 * dmax(u->tolerance, u->spread),
			 100 * u->tolerance, u->nbase, 100 * u->spread);
	else
		snprintf(k->limit, sizeof(k->limit), "<= %s s: baseline %s s + %.0f%% (tolerance; "
			 "one round, no spread)", a, b, 100 * u->tolerance);
	size_t n = vd_round_seconds(r, u->fs, rep_row_phase(row), vd_row_rounds(row), v, 64);
	if (!n) {
		vd_not_measured(k, "no such phase record");
		return 0;
	}
	med = rep_median(v, n);
	k->value = med;
	k->pass = med <= u->limit;
	vd_num(m, sizeof(m), med);
	snprintf(k->measured, sizeof(k->measured), "%s s (%+.0f%% vs baseline, %zu round%s)", m,
		 u->base > 0 ? 100 * (med / u->base - 1) : 0, n, n == 1 ? "" : "s");
	return 0;
}

/* ---- every rule ---- */

int vd_evaluate(const struct vd_criteria *c, const struct rep_run *r, struct vd_result *res)
{
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < c->n; i++) {
		const struct vd_rule *u = &c->rule[i];
		size_t before = res->n;
		int rc = u->key->eval(res, c, u, r);
		if (rc) {
			vd_result_free(res);
			return rc;
		}
		for (size_t j = before; j < res->n; j++)
			res->check[j].key = u->key->name;
	}
	vd_classify(res, r);
	vd_result_done(res);
	return 0;
}

/* ---- the power-cut campaign: per filesystem of its `powercut` records ---- */

/* The filesystems of the campaign: the run's `fs` setting when it has
 * one, else those with a record, comma-separated, into buf. */
static const char *pc_fs_list(const struct rep_run *r, char *buf, size_t len)
{
	size_t o = 0;

	if (r->cfg_fs && *r->cfg_fs)
		return r->cfg_fs;
	buf[0] = 0;
	for (size_t i = 0; i < r->npc; i++) {
		size_t l = strlen(r->pc[i].fs);
		if (vd_in_list(buf, r->pc[i].fs, l))
			continue;
		int n = snprintf(buf + o, len - o, "%s%s", o ? "," : "", r->pc[i].fs);
		o = n < 0 || (size_t)n >= len - o ? len - 1 : o + (size_t)n;
	}
	return buf;
}

enum pc_what { PC_LOST, PC_TORN, PC_FSCK, PC_CYCLES };

/* "N (a, b, c and M more)" into buf: the names of the lists (each
 * "a, b"; NULL ones skipped) cut at a whole name, M the count n less the
 * names shown. */
static void name_list(char *buf, size_t len, uint64_t n, const char *const *lists, size_t nl)
{
	size_t o = (size_t)snprintf(buf, len, "%" PRIu64, n), shown = 0;
	const size_t room = 32;	/* kept for " and N more)" */

	for (size_t i = 0; i < nl; i++)
		for (const char *p = lists[i]; p && *p;) {
			size_t l = strcspn(p, ",");
			if (o + l + 3 + room >= len) {
				i = nl;
				break;
			}
			o += (size_t)snprintf(buf + o, len - o, "%s%.*s", shown ? ", " : " (", (int)l, p);
			shown++;
			p += l;
			p += strspn(p, ", ");
		}
	if (shown < n && shown)
		o += (size_t)snprintf(buf + o, len - o, " and %" PRIu64 " more", n - shown);
	if (shown)
		snprintf(buf + o, len - o, ")");
}

static int pc_eval(struct vd_result *res, const struct vd_rule *u, const struct rep_run *r,
		   enum pc_what what)
{
	static const char *const what_text[] = { "files lost after power cuts", "files torn after power cuts",
		"the checker after power cuts", "power-cut cycles checked" };
	char list[256], b[32];
	const char *fsl = pc_fs_list(r, list, sizeof(list));

	for (const char *p = fsl; *p;) {
		size_t l = strcspn(p, ",");
		struct vd_check *k = vd_new_check(res, u);
		uint64_t n = 0, cycles = 0;
		const char *files[64], *bad_fsck = NULL;
		size_t nfiles = 0;
		int nocheck = 0;

		if (!k)
			return -ENOMEM;
		for (size_t i = 0; i < r->nfs && !k->fs; i++)
			if (strlen(r->fs[i].name) == l && !strncmp(r->fs[i].name, p, l))
				k->fs = r->fs[i].name;
		for (size_t i = 0; i < r->npc; i++) {
			const struct rep_powercut *c = &r->pc[i];
			if (strlen(c->fs) != l || strncmp(c->fs, p, l))
				continue;
			cycles++;
			n += what == PC_LOST ? c->lost : what == PC_TORN ? c->torn : 0;
			const char *names = what == PC_LOST ? c->lost_files : what == PC_TORN ?
					    c->torn_files : NULL;
			if (names && nfiles < sizeof(files) / sizeof(files[0]))
				files[nfiles++] = names;
			/* the rule of log/pcrule.h; "none": no checker (nilfs2) */
			nocheck |= !strcmp(c->fsck, "none");
			if (what == PC_FSCK && !bad_fsck && !fsb_pc_checker_ok(c->fsck, c->mount))
				bad_fsck = fsb_pc_checker_ok(c->fsck, "ok") ? c->mount : c->fsck;
		}
		snprintf(k->what, sizeof(k->what), "%.*s %s", (int)l, p, what_text[what]);
		vd_num(b, sizeof(b), u->limit);
		if (what == PC_FSCK) {
			snprintf(k->limit, sizeof(k->limit), "clean");
			if (cycles)
				snprintf(k->measured, sizeof(k->measured), "%s", bad_fsck ? bad_fsck :
					 nocheck ? "no checker, mounted" : "clean");
			k->pass = cycles && !bad_fsck;
		} else if (what == PC_CYCLES) {
			snprintf(k->limit, sizeof(k->limit), ">= %s", b);
			snprintf(k->measured, sizeof(k->measured), "%" PRIu64, cycles);
			k->bound = u->limit;
			k->value = (double)cycles;
			k->pass = (double)cycles >= u->limit;
			cycles = 1;	/* measured, even at 0 */
		} else {
			snprintf(k->limit, sizeof(k->limit), "<= %s", b);
			name_list(k->measured, sizeof(k->measured), n, files, nfiles);
			k->bound = u->limit;
			k->value = (double)n;
			k->pass = (double)n <= u->limit;
		}
		if (!cycles)
			vd_not_measured(k, "no powercut record");
		p += l;
		if (*p)
			p++;
	}
	if (!*fsl) {
		struct vd_check *k = vd_new_check(res, u);
		if (!k)
			return -ENOMEM;
		snprintf(k->what, sizeof(k->what), "%s", what_text[what]);
		vd_not_measured(k, "not a power-cut campaign");
	}
	return 0;
}

/* The power-cut keys' hooks: one check per filesystem of the run. */
#define PC_EVAL(name, what)								\
	int name(struct vd_result *res, const struct vd_criteria *c, const struct vd_rule *u,	\
		 const struct rep_run *r)							\
	{										\
		(void)c;								\
		return pc_eval(res, u, r, what);					\
	}
PC_EVAL(vd_eval_pc_lost, PC_LOST)
PC_EVAL(vd_eval_pc_torn, PC_TORN)
PC_EVAL(vd_eval_pc_fsck, PC_FSCK)
PC_EVAL(vd_eval_pc_cycles, PC_CYCLES)

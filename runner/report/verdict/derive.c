/* derive.c: criteria from runs: a criteria file written from a known-good
 * run (`fsbench verdict --write-criteria`) and the rules of a baseline run
 * (`--baseline`). Each key's part comes from its row's derive hook
 * (rules.h), in the order of the row's rank. */
#include "report/verdict/rules.h"
#include "report/sections/summary.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* No libm: the runner links without it. */
static double dmax(double a, double b) { return a > b ? a : b; }
static double dmin(double a, double b) { return a < b ? a : b; }

/* KEY = val, KEY from fmt: a line of the file, or a rule of the baseline
 * (a value derived from a run: its names are taken as they are). Returns
 * 0, or -ENOMEM. */
__attribute__((format(printf, 3, 4)))
static int put(struct vd_from *d, const char *val, const char *fmt, ...)
{
	char key[256], err[256];
	va_list ap;

	va_start(ap, fmt);
	if (d->out) {
		vfprintf(d->out, fmt, ap);
		fprintf(d->out, " = %s\n", val);
	} else {
		vsnprintf(key, sizeof(key), fmt, ap);
	}
	va_end(ap);
	if (!d->out && vd_add(d->c, key, val, "baseline", 1, err, sizeof(err)))
		return -ENOMEM;		/* the one way a derived value fails */
	return 0;
}

/* Why the run gives key k nothing: a comment of the file. */
static void lack(struct vd_from *d, const struct vd_key *k, const char *why)
{
	if (d->out)
		fprintf(d->out, "# %s: %s\n", k->name, why);
}

/* Every key's derive hook in the order of its rank[to]. */
static int derive(struct vd_from *d, int to)
{
	unsigned last = 0;

	for (size_t i = 0; i < vd_nkeys; i++)
		if (vd_keys[i].rank[to] > last)
			last = vd_keys[i].rank[to];
	for (unsigned rank = 1; rank <= last; rank++)
		for (size_t i = 0; i < vd_nkeys; i++) {
			int rc = 0;
			if (vd_keys[i].rank[to] == rank)
				rc = vd_keys[i].derive(d, &vd_keys[i]);
			if (rc)
				return rc;
		}
	return 0;
}

/* ---- the keys ---- */

/* The filesystems of the run whose fs_end says ok. */
int vd_derive_fs_ok(struct vd_from *d, const struct vd_key *k)
{
	const struct rep_run *r = d->r;
	char list[256];
	size_t o = 0;

	list[0] = 0;
	for (size_t i = 0; i < r->nfs && o < sizeof(list); i++)
		if (r->fs[i].status && !strcmp(r->fs[i].status, "ok"))
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", o ? "," : "", r->fs[i].name);
	return *list ? put(d, list, "%s", k->name) : 0;
}

/* all, when a phase of the run verified what it read. */
int vd_derive_verify(struct vd_from *d, const struct vd_key *k)
{
	for (size_t i = 0; i < d->r->nph; i++)
		if (d->r->ph[i].verified == 1)
			return put(d, "all", "%s", k->name);
	return 0;
}

int vd_derive_zero(struct vd_from *d, const struct vd_key *k)
{
	return put(d, "0", "%s", k->name);
}

/* A power-cut campaign's keys: nothing lost or torn (vd_derive_pc_none),
 * the checker clean, and as many cycles as each filesystem had (the
 * fewest); nothing said for a run without the campaign. */
int vd_derive_pc_none(struct vd_from *d, const struct vd_key *k)
{
	return d->r->npc ? put(d, "0", "%s", k->name) : 0;
}

int vd_derive_pc_fsck(struct vd_from *d, const struct vd_key *k)
{
	return d->r->npc ? put(d, "clean", "%s", k->name) : 0;
}

int vd_derive_pc_cycles(struct vd_from *d, const struct vd_key *k)
{
	char n[24];
	uint64_t fewest = 0;

	if (!d->r->npc)
		return 0;
	for (size_t i = 0; i < d->r->npc; i++) {
		uint64_t c = 0;
		for (size_t j = 0; j < d->r->npc; j++)
			c += !strcmp(d->r->pc[j].fs, d->r->pc[i].fs);
		if (!fewest || c < fewest)
			fewest = c;
	}
	snprintf(n, sizeof(n), "%" PRIu64, fewest);
	return put(d, n, "%s", k->name);
}

int vd_derive_kmsg(struct vd_from *d, const struct vd_key *k)
{
	if (vd_kmsg_watched(d->r))
		return put(d, "0", "%s", k->name);
	lack(d, k, "this run did not read the kernel log");
	return 0;
}

int vd_derive_health(struct vd_from *d, const struct vd_key *k)
{
	if (vd_health_counters(d->r))
		return put(d, "0", "%s", k->name);
	lack(d, k, "this run has no health records with error counters");
	return 0;
}

/* honest, when the run's capacity check found the target so; a run
 * without the check gives no line (as before the check existed). */
int vd_derive_capacity(struct vd_from *d, const struct vd_key *k)
{
	if (d->r->cap.have && d->r->cap.honest)
		return put(d, "honest", "%s", k->name);
	if (d->r->cap.have)
		lack(d, k, "this run's target is not honest");
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

/* Per filesystem and phase, the slowest round's rate / (1 + margin). */
int vd_derive_floors(struct vd_from *d, const struct vd_key *k)
{
	const struct rep_run *r = d->r;
	char b[32];

	for (size_t f = 0; f < r->nfs; f++)
		for (size_t i = 0; i < r->nph; i++) {
			const struct rep_phase *p = &r->ph[i];
			double worst = -1;
			size_t j;
			int rc;
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
			vd_num(b, sizeof(b), down2(worst / (1 + d->margin)));
			if ((rc = put(d, b, "%s.%s.%s", k->name, p->fs, p->phase)))
				return rc;
		}
	return 0;
}

/* Per filesystem and summary row (summary.h), the median of the
 * baseline's rounds plus the larger of the tolerance and their spread. */
int vd_derive_baseline(struct vd_from *d, const struct vd_key *k)
{
	const struct rep_run *base = d->r;

	for (size_t f = 0; f < base->nfs; f++)
		for (int row = 0; row < ROW_N; row++) {
			double v[64], min, max, med;
			size_t n = vd_round_seconds(base, base->fs[f].name, rep_row_phase((enum rep_row)row),
						    vd_row_rounds(row), v, 64);
			struct vd_rule *u;
			if (!n)
				continue;
			min = max = v[0];
			for (size_t i = 1; i < n; i++)
				min = dmin(min, v[i]), max = dmax(max, v[i]);
			med = rep_median(v, n);
			if (!(u = vd_new_rule(d->c, k, "baseline")))
				return -ENOMEM;
			snprintf(u->fs, sizeof(u->fs), "%s", base->fs[f].name);
			u->row = row;
			u->base = med;
			u->nbase = (unsigned)n;
			u->spread = med > 0 ? (max - min) / med : 0;
			u->tolerance = d->tolerance;
			u->limit = med * (1 + dmax(d->tolerance, u->spread));
		}
	return 0;
}

/* ---- the two uses ---- */

int vd_criteria_baseline(struct vd_criteria *c, const struct rep_run *base, double tolerance)
{
	struct vd_from d = { .r = base, .c = c, .tolerance = tolerance };

	return derive(&d, VD_TO_BASELINE);
}

int vd_write_criteria(FILE *out, const struct rep_run *r, const char *source, double margin)
{
	struct vd_from d = { .r = r, .out = out, .margin = margin };

	fprintf(out, "# fsbench criteria from run %s (%s)\n", r->run_id, source);
	if (r->hostname || r->target_model)
		fprintf(out, "# host %s, target %s, profile %s\n", r->hostname ? r->hostname : "?",
			r->target_model ? r->target_model : "?", r->profile ? r->profile : "?");
	fprintf(out, "# floors: the slowest round's files/s / %.2g (a margin of %.0f%%), "
		"rounded down\n", 1 + margin, 100 * margin);
	if (derive(&d, VD_TO_FILE))
		return -1;
	return fflush(out) || ferror(out) ? -1 : 0;
}

/* ---- for the derive hooks of other files ---- */

int vd_put_line(struct vd_from *d, const struct vd_key *k, const char *val)
{
	return put(d, val, "%s", k->name);
}

void vd_lack_line(struct vd_from *d, const struct vd_key *k, const char *why)
{
	lack(d, k, why);
}

/* inventory.c: the keys that check what the target is and how it came up
 * (target_model, target_bus, usb_speed, mmc_timing, sata_link) and how
 * worn its flash is (flash_pre_eol, flash_life_used_max): their parse,
 * eval and derive hooks (rules.h). The facts are the `health` records'
 * (report/load/load_inventory.c) and run_start's target model. */
#include "report/verdict/rules.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the names ---- */

static const char *const pre_eol_name[] = { "undefined", "normal", "warning", "urgent" };
static const char *const bus_names = "nvme,sata,usb,mmc,scsi,virtio";

/* The bus timings in the order of their nominal rate: a floor is met by
 * the timing named and every later one. */
static const char *const timing_name[] = {
	"legacy", "SDR12", "SDR25", "DDR50", "SDR50", "HS", "DDR52", "SDR104", "HS200", "HS400",
	"HS400ES",
};
enum { T_LEGACY, T_SDR12, T_SDR25, T_DDR50, T_SDR50, T_HS, T_DDR52, T_SDR104, T_HS200, T_HS400,
       T_HS400ES, T_N };

/* Does the upper-case text hold word w (not inside a longer name)? */
static int has_word(const char *text, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = strstr(text, w); p; p = strstr(p + 1, w))
		if ((p == text || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
			return 1;
	return 0;
}

/* A timing as a record or the kernel writes it ("HS400", "mmc HS400
 * enhanced strobe", "sd uhs SDR104", "sd high-speed", "mmc DDR52",
 * "legacy"): its place in timing_name[], or -1. */
static int timing_rank(const char *text)
{
	static const struct { const char *word; int rank; } words[] = {
		{ "HS400ES", T_HS400ES }, { "HS400", T_HS400 }, { "HS200", T_HS200 },
		{ "SDR104", T_SDR104 }, { "DDR52", T_DDR52 }, { "SDR50", T_SDR50 },
		{ "DDR50", T_DDR50 }, { "SDR25", T_SDR25 }, { "SDR12", T_SDR12 },
		{ "HS52", T_HS }, { "HS26", T_HS }, { "HS", T_HS }, { "LEGACY", T_LEGACY },
	};
	char up[128];
	size_t i;

	for (i = 0; text[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)toupper((unsigned char)text[i]);
	up[i] = 0;
	if (strstr(up, "HS400") && (strstr(up, "ENHANCED") || strstr(up, "STROBE")))
		return T_HS400ES;
	if (has_word(up, "SD") && (strstr(up, "HIGH-SPEED") || strstr(up, "HIGH SPEED") ||
				   has_word(up, "HS")))
		return T_SDR25;		/* SD high speed: 50 MHz, 4 bits, as SDR25 */
	if (strstr(up, "HIGH-SPEED") || strstr(up, "HIGH SPEED"))
		return T_HS;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has_word(up, words[i].word))
			return words[i].rank;
	return -1;
}

/* ---- parsing ---- */

int vd_parse_pre_eol(const struct vd_arg *a, struct vd_rule *u)
{
	for (int i = 1; i < 4; i++)
		if (!strcmp(a->val, pre_eol_name[i])) {
			u->limit = i;
			return 0;
		}
	return 1;
}

/* "80%" or "80": a percentage from 0 to 100. */
int vd_parse_life(const struct vd_arg *a, struct vd_rule *u)
{
	double f = vd_percent(a->val);

	if (f < 0 || f > 1)
		return 1;
	u->limit = 100 * f;
	return 0;
}

int vd_parse_pattern(const struct vd_arg *a, struct vd_rule *u)
{
	if (!*a->val || strlen(a->val) >= sizeof(u->text))
		return 1;
	snprintf(u->text, sizeof(u->text), "%s", a->val);
	return 0;
}

/* One bus or several (any of them), separated by `|` or `,`: kept as a
 * comma-separated list. */
int vd_parse_bus(const struct vd_arg *a, struct vd_rule *u)
{
	size_t o = 0;

	for (const char *p = a->val;;) {
		size_t l = strcspn(p, "|,");
		while (l && *p == ' ')
			p++, l--;
		size_t w = l;
		while (w && p[w - 1] == ' ')
			w--;
		if (!w || !vd_in_list(bus_names, p, w) || o + w + 2 >= sizeof(u->text))
			return 1;
		o += (size_t)snprintf(u->text + o, sizeof(u->text) - o, "%s%.*s", o ? "," : "",
				      (int)w, p);
		if (!p[l])
			return 0;
		p += l + 1;
	}
}

/* A number > 0, then nothing or one of the units (spaces allowed). */
static int number_unit(const char *s, const char *const *units, double *out)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || !(d > 0) || !isfinite(d))
		return -1;
	while (*end == ' ')
		end++;
	if (!*end) {
		*out = d;
		return 0;
	}
	for (; *units; units++)
		if (!strcmp(end, *units)) {
			*out = d;
			return 0;
		}
	return -1;
}

int vd_parse_usb_speed(const struct vd_arg *a, struct vd_rule *u)
{
	static const char *const units[] = { "Mb/s", "Mbps", "Mbit/s", NULL };
	return number_unit(a->val, units, &u->limit) ? 1 : 0;
}

int vd_parse_sata_link(const struct vd_arg *a, struct vd_rule *u)
{
	static const char *const units[] = { "Gb/s", "Gbps", "Gbit/s", NULL };
	return number_unit(a->val, units, &u->limit) ? 1 : 0;
}

int vd_parse_timing(const struct vd_arg *a, struct vd_rule *u)
{
	for (int i = 0; i < T_N; i++)
		if (!strcasecmp(a->val, timing_name[i])) {
			u->limit = i;
			snprintf(u->text, sizeof(u->text), "%s", timing_name[i]);
			return 0;
		}
	return 1;
}

/* ---- the facts ---- */

static struct vd_check *add_check(struct vd_result *res, const struct vd_rule *u, const char *what)
{
	struct vd_check *k = vd_new_check(res, u);
	if (k)
		snprintf(k->what, sizeof(k->what), "%s", what);
	return k;
}

static void not_measured(struct vd_check *k, const char *why)
{
	k->measured_ok = 0;
	k->absent = 1;
	k->pass = 0;
	snprintf(k->measured, sizeof(k->measured), "not measured (%.200s)", why);
}

/* Which part of a health record a key reads. */
enum fact { F_BUS, F_SATA, F_USB, F_MMC, F_FLASH };

/* The fact in h: 1 when there (an object, a bus name), 0 when not; *na
 * gets the record's reason when it says why not. */
static int fact(const struct rep_health *h, enum fact f, const char **na)
{
	const struct rep_inventory *v = &h->inv;

	switch (f) {
	case F_BUS:
		return (v->bus && *v->bus) || (h->transport && *h->transport);
	case F_SATA:
		*na = v->sata_na ? v->sata_na : *na;
		return v->have_sata;
	case F_USB:
		*na = v->usb_na ? v->usb_na : *na;
		return v->have_usb;
	case F_MMC:
		*na = v->mmc_na ? v->mmc_na : *na;
		return v->have_mmc;
	case F_FLASH:
		*na = v->flash_na ? v->flash_na : *na;
		return v->have_flash;
	}
	return 0;
}

/* Of the health records before and after, the later one in the input
 * that has the fact; NULL with *na the reason a record gave (or NULL). */
static const struct rep_health *with(const struct rep_run *r, enum fact f, const char **na)
{
	const struct rep_health *best = NULL;

	*na = NULL;
	for (int w = 0; w < REP_HEALTH_N; w++) {
		const struct rep_health *h = &r->health[w];
		const char *why = NULL;
		if (!h->have)
			continue;
		if (fact(h, f, &why) && (!best || h->line > best->line))
			best = h;
		else if (why && !best)
			*na = why;
	}
	return best;
}

static const char *bus_of(const struct rep_health *h)
{
	return h->inv.bus && *h->inv.bus ? h->inv.bus : h->transport;
}

/* No fact: the record's reason, or that no record has it. */
static void lacking(struct vd_check *k, const struct rep_run *r, const char *na,
		    const char *what)
{
	char why[240];
	int any = r->health[REP_HEALTH_BEFORE].have || r->health[REP_HEALTH_AFTER].have;

	if (na)
		snprintf(why, sizeof(why), "%s", na);
	else if (any)
		snprintf(why, sizeof(why), "no health record with %s", what);
	else
		snprintf(why, sizeof(why), "no health record in the run");
	not_measured(k, why);
}

/* ---- the flash ---- */

int vd_eval_pre_eol(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r)
{
	const char *na;
	int worst = -1;
	char why[240];

	(void)c;
	struct vd_check *k = add_check(res, u, "flash pre-EOL information (reserved blocks used)");
	if (!k)
		return -ENOMEM;
	snprintf(k->limit, sizeof(k->limit), "<= %s", pre_eol_name[(int)u->limit]);
	k->bound = u->limit;
	const struct rep_health *h = with(r, F_FLASH, &na);
	if (!h) {
		lacking(k, r, na, "a flash object");
		return 0;
	}
	/* the worst of the records */
	for (int w = 0; w < REP_HEALTH_N; w++) {
		const struct rep_inventory *v = &r->health[w].inv;
		if (r->health[w].have && v->have_flash && v->pre_eol_raw >= 1 && v->pre_eol_raw <= 3 &&
		    v->pre_eol_raw > worst)
			worst = v->pre_eol_raw;
	}
	if (worst < 0) {
		const struct rep_inventory *v = &h->inv;
		if (v->pre_eol_raw == 0)
			snprintf(why, sizeof(why), "the device does not define its pre-EOL information (0x00)");
		else
			snprintf(why, sizeof(why), "pre-EOL information %s", v->pre_eol ? v->pre_eol : "absent");
		not_measured(k, why);
		if (v->pre_eol_raw == 0) {	/* does not apply to this device */
			k->skip = 1;
			snprintf(k->why, sizeof(k->why), "%s", why);
		}
		return 0;
	}
	k->value = worst;
	k->pass = worst <= u->limit;
	snprintf(k->measured, sizeof(k->measured), "%s (%s)", pre_eol_name[worst],
		 h->inv.flash_kind ? h->inv.flash_kind : "flash");
	return 0;
}

int vd_eval_life(struct vd_result *res, const struct vd_criteria *c,
		 const struct vd_rule *u, const struct rep_run *r)
{
	const char *na;
	char b[32];
	double worst = -1;
	int exceeded = 0;

	(void)c;
	struct vd_check *k = add_check(res, u, "flash life time used (estimations A and B)");
	if (!k)
		return -ENOMEM;
	vd_num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), "<= %s%%", b);
	k->unit = "%";
	k->bound = u->limit;
	const struct rep_health *h = with(r, F_FLASH, &na);
	if (!h) {
		lacking(k, r, na, "a flash object");
		return 0;
	}
	/* the upper bound of the worst band of the records; beyond the
	 * estimated life (0x0B) is more than any ceiling */
	for (int w = 0; w < REP_HEALTH_N; w++) {
		const struct rep_inventory *v = &r->health[w].inv;
		for (int i = 0; r->health[w].have && v->have_flash && i < 2; i++) {
			if (v->life_raw[i] == 0x0b)
				exceeded = 1;
			else if (v->life_pct[i] > worst)
				worst = v->life_pct[i];
		}
	}
	const struct rep_inventory *v = &h->inv;
	char bands[160];
	snprintf(bands, sizeof(bands), "life A %.60s, life B %.60s", v->life[0] ? v->life[0] : "absent",
		 v->life[1] ? v->life[1] : "absent");
	if (exceeded) {
		k->value = 110;
		k->pass = 0;
		snprintf(k->measured, sizeof(k->measured), "beyond the estimated life (%s)", bands);
		return 0;
	}
	if (worst < 0) {
		not_measured(k, bands);
		return 0;
	}
	k->value = worst;
	k->pass = worst <= u->limit;
	vd_num(b, sizeof(b), worst);
	snprintf(k->measured, sizeof(k->measured), "at most %s%% (%s)", b, bands);
	return 0;
}

/* ---- the inventory ---- */

int vd_eval_model(struct vd_result *res, const struct vd_criteria *c,
		  const struct vd_rule *u, const struct rep_run *r)
{
	const char *na, *model = r->target_model;

	(void)c;
	struct vd_check *k = add_check(res, u, "target model");
	if (!k)
		return -ENOMEM;
	snprintf(k->limit, sizeof(k->limit), "matches %.180s", u->text);
	if (!model || !*model) {	/* an eMMC or SD card: its name */
		const struct rep_health *h = with(r, F_MMC, &na);
		const struct rep_health *f = with(r, F_FLASH, &na);
		model = h && h->inv.mmc_name ? h->inv.mmc_name :
			f && f->inv.flash_product ? f->inv.flash_product : NULL;
	}
	if (!model || !*model) {
		not_measured(k, "the run_start record names no target model");
		return 0;
	}
	k->pass = fnmatch(u->text, model, 0) == 0;
	snprintf(k->measured, sizeof(k->measured), "%.200s", model);
	return 0;
}

int vd_eval_bus(struct vd_result *res, const struct vd_criteria *c,
		const struct vd_rule *u, const struct rep_run *r)
{
	const char *na;
	(void)c;
	struct vd_check *k = add_check(res, u, "target bus");
	if (!k)
		return -ENOMEM;
	snprintf(k->limit, sizeof(k->limit), "%s%.120s", strchr(u->text, ',') ? "one of " : "", u->text);
	const struct rep_health *h = with(r, F_BUS, &na);
	if (!h) {
		lacking(k, r, na, "the target's bus");
		return 0;
	}
	const char *bus = bus_of(h);
	k->pass = vd_in_list(u->text, bus, strlen(bus));
	snprintf(k->measured, sizeof(k->measured), "%.60s", bus);
	return 0;
}

/* A floor (usb_speed, sata_link): the speed the target came up at, in
 * Mb/s on USB, Gb/s on SATA ("6.0 Gbps" when the record has no number). */
static int eval_speed(struct vd_result *res, const struct vd_rule *u, const struct rep_run *r,
		      enum fact f)
{
	const int usb = f == F_USB;
	const char *na, *unit = usb ? "Mb/s" : "Gb/s";
	char a[32], b[32], more[96] = "";
	struct vd_check *k = add_check(res, u, usb ? "USB speed of the target" :
				       "SATA link speed of the target");

	if (!k)
		return -ENOMEM;
	vd_num(b, sizeof(b), u->limit);
	snprintf(k->limit, sizeof(k->limit), ">= %s %s", b, unit);
	k->unit = unit;
	k->bound = u->limit;
	const struct rep_health *h = with(r, f, &na);
	const struct rep_inventory *v = h ? &h->inv : NULL;
	double g = !v ? NAN : usb ? v->usb_mbps : v->sata_gbps;
	if (v && !usb && isnan(g) && v->sata_speed) {
		char *end;
		g = strtod(v->sata_speed, &end);
		if (end == v->sata_speed || !(g > 0))
			g = NAN;
	}
	if (isnan(g)) {
		lacking(k, r, !h ? na : usb ? "the usb object has no speed_mbps" :
			"the sata_link object has no speed", usb ? "the target's USB facts" :
			"the target's SATA link");
		return 0;
	}
	k->value = g;
	k->pass = g >= u->limit;
	vd_num(a, sizeof(a), g);
	if (usb)
		snprintf(more, sizeof(more), " (USB %.20s, %.8s)", v->usb_version ? v->usb_version : "?",
			 v->usb_transport ? v->usb_transport : "?");
	else if (v->sata_limit)
		snprintf(more, sizeof(more), " (limit %.40s)", v->sata_limit);
	snprintf(k->measured, sizeof(k->measured), "%s %s%s", a, unit, more);
	return 0;
}

int vd_eval_usb_speed(struct vd_result *res, const struct vd_criteria *c,
		      const struct vd_rule *u, const struct rep_run *r)
{
	(void)c;
	return eval_speed(res, u, r, F_USB);
}

int vd_eval_sata_link(struct vd_result *res, const struct vd_criteria *c,
		      const struct vd_rule *u, const struct rep_run *r)
{
	(void)c;
	return eval_speed(res, u, r, F_SATA);
}

int vd_eval_timing(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r)
{
	const char *na, *na2, *text = NULL, *from = "mmc";
	char why[240];

	(void)c;
	struct vd_check *k = add_check(res, u, "MMC bus timing of the target");
	if (!k)
		return -ENOMEM;
	snprintf(k->limit, sizeof(k->limit), ">= %.16s", u->text);
	k->bound = u->limit;
	const struct rep_health *h = with(r, F_MMC, &na);
	if (h && h->inv.mmc_timing) {
		text = h->inv.mmc_timing;
	} else if ((h = with(r, F_FLASH, &na2)) && h->inv.flash_timing) {
		text = h->inv.flash_timing;	/* an eMMC's HS_TIMING */
		from = "EXT_CSD HS_TIMING";
	}
	if (!text) {
		lacking(k, r, na, "the target's MMC timing");
		return 0;
	}
	int rank = timing_rank(text);
	if (rank < 0) {
		snprintf(why, sizeof(why), "an unknown timing '%.80s'", text);
		not_measured(k, why);
		return 0;
	}
	k->value = rank;
	k->pass = rank >= u->limit;
	snprintf(k->measured, sizeof(k->measured), "%s (%s: %.80s)", timing_name[rank], from, text);
	return 0;
}

/* ---- criteria from a run: what the target came up with ---- */

/* Each key of the inventory its own derivation: the value the run's
 * target came up with, or nothing when its health records lack it. */
int vd_derive_bus(struct vd_from *d, const struct vd_key *k)
{
	const struct rep_health *h;
	const char *na;

	if (!(h = with(d->r, F_BUS, &na)))
		return 0;
	const char *bus = bus_of(h);
	if (!vd_in_list(bus_names, bus, strlen(bus)))
		return 0;
	return vd_put_line(d, k, bus);
}

/* A floor (usb_speed, sata_link): the speed part f says the target came
 * up at, when it says one. */
static int derive_speed(struct vd_from *d, const struct vd_key *k, enum fact f)
{
	const char *na;
	const struct rep_health *h = with(d->r, f, &na);
	double speed = !h ? NAN : f == F_USB ? h->inv.usb_mbps : h->inv.sata_gbps;
	char v[64];

	if (!(speed > 0))
		return 0;
	vd_num(v, sizeof(v), speed);
	return vd_put_line(d, k, v);
}

int vd_derive_usb_speed(struct vd_from *d, const struct vd_key *k)
{
	return derive_speed(d, k, F_USB);
}

int vd_derive_sata_link(struct vd_from *d, const struct vd_key *k)
{
	return derive_speed(d, k, F_SATA);
}

int vd_derive_timing(struct vd_from *d, const struct vd_key *k)
{
	const char *na;
	const struct rep_health *h = with(d->r, F_MMC, &na);
	int rank = h && h->inv.mmc_timing ? timing_rank(h->inv.mmc_timing) : -1;

	if (rank < 0)
		return 0;
	return vd_put_line(d, k, timing_name[rank]);
}

int vd_derive_pre_eol(struct vd_from *d, const struct vd_key *k)
{
	const struct rep_health *h;
	const char *na;

	if (!(h = with(d->r, F_FLASH, &na)))
		return 0;
	if (h->inv.pre_eol_raw >= 1 && h->inv.pre_eol_raw <= 3)
		return vd_put_line(d, k, pre_eol_name[h->inv.pre_eol_raw]);
	vd_lack_line(d, k, "the device does not give its pre-EOL information");
	return 0;
}

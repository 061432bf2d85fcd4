/* sustained.c: the sustained write's table (sustained.h) of the `sustain`
 * records and their series. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/sections/sustained.h"

int rep_sustain_cliff(const struct rep_sustain *s, struct rep_cliff *c, double *at_s)
{
	struct rep_cliff_opts o = { .share_pct = s->share_pct, .base_s = s->base_s,
				    .hold_s = s->hold_s, .rise_c = s->rise_c };
	int rc = rep_cliff_find(s->mib, s->n, s->celsius, s->n, 0, &o, c);

	*at_s = rc == 0 && c->state == REP_CLIFF_FOUND ? s->first_s + (double)c->at - 1 : NAN;
	return rc;
}

/* MiB/s with the decimals a slow write needs (0.039 for 10 x 4 KiB/s). */
static void mib(struct rep_table *t, size_t row, size_t col, double v)
{
	tab_fixed_if(t, row, col, isfinite(v), v, v < 1 ? 3 : v < 10 ? 2 : 1);
}

int rep_table_sustain(const struct rep_run *r, struct rep_table *t)
{
	static const struct { const char *head, *key; } h[] = {
		{ "fs", NULL }, { "write", "workload" }, { "MiB/s", "mib_per_s" },
		{ "base MiB/s", "base_mib_per_s" }, { "cliff", "cliff" },
		{ "cliff at s", "cliff_s" }, { "level MiB/s", "level_mib_per_s" },
		{ "level", "level_share" }, { "temperature C", "celsius" },
		{ "with a temperature rise", "thermal" }, { "seconds", "samples" },
	};
	enum { NH = sizeof(h) / sizeof(h[0]) };
	int rc = 0;

	tab_init(t, "sustain", "Speed that holds: the sustained write's cliff", SHAPE_GRID, NH);
	for (size_t c = 0; c < NH; c++)
		tab_col(t, c, c >= 2 && c != 4 && c != 8 && c != 9, h[c].head, h[c].key);
	t->note = "Each write ran for `sustain_seconds` with fio, its throughput logged every second "
		  "and the disk's temperature read every second. Base: the median of the first "
		  "`sustain_base` seconds. Cliff: the first second after them below `sustain_share` % "
		  "of the base where the median of the next `sustain_hold` seconds and of every second "
		  "to the end are below it too (a dip that recovers is none); its moment is the start "
		  "of that second after the write began. Level: the median from the cliff to the end, "
		  "and its share of the base. Temperature: the base's median and the highest of the "
		  "write; a rise of `sustain_rise` degrees from `sustain_hold` seconds before the "
		  "cliff to one after it coincides with it (throttling). runner/SUSTAIN.md.";
	for (size_t i = 0; i < r->nsus && !rc; i++) {
		const struct rep_sustain *s = &r->sus[i];
		struct rep_cliff c;
		double at_s;
		size_t row = tab_row(t);

		tab_text(t, row, 0, "%s", s->fs);
		tab_text(t, row, 1, "%s", s->workload);
		mib(t, row, 2, s->mib_per_s);
		if (strcmp(s->status, "ok")) {
			tab_missing(t, row, 3);
			tab_text(t, row, 4, "%s: %s", s->status, s->msg ? s->msg : "no reason given");
			for (size_t k = 5; k < NH; k++)
				tab_missing(t, row, k);
			continue;
		}
		rc = rep_sustain_cliff(s, &c, &at_s);
		if (rc == -EINVAL) {	/* a record with options out of range */
			rc = 0;
			tab_missing(t, row, 3);
			tab_text(t, row, 4, "not judged: the record's share_pct, base_s, hold_s or rise_c is out of range");
			for (size_t k = 5; k < NH; k++)
				tab_missing(t, row, k);
			continue;
		}
		if (rc)
			break;
		mib(t, row, 3, c.base);
		if (c.state == REP_CLIFF_FOUND) {
			tab_text(t, row, 4, "fell below %u %% of the base", s->share_pct);
			tab_fixed(t, row, 5, at_s, 1);
			mib(t, row, 6, c.level);
			tab_num(t, row, 7, CELL_PERCENT, c.level_pct / 100.0);
		} else {
			if (c.state == REP_CLIFF_SHORT)
				tab_text(t, row, 4, "not judged: %zu s of samples, fewer than base + hold (%u s)",
					 s->n, s->base_s + s->hold_s);
			else
				tab_text(t, row, 4, "none: held above %u %% of the base", s->share_pct);
			for (size_t k = 5; k < 8; k++)
				tab_missing(t, row, k);
		}
		if (isfinite(c.temp_base) && isfinite(c.temp_peak))
			tab_text(t, row, 8, "%.0f, up to %.0f", c.temp_base, c.temp_peak);
		else
			tab_text(t, row, 8, "%s", s->temp_source[0] ? s->temp_source : "not available");
		if (c.state != REP_CLIFF_FOUND)
			tab_missing(t, row, 9);
		else if (c.thermal == REP_TEMP_RISE)
			tab_text(t, row, 9, "yes: +%.0f C (throttling?)", c.temp_at - c.temp_base);
		else if (c.thermal == REP_TEMP_FLAT)
			tab_text(t, row, 9, "no: +%.0f C", c.temp_at - c.temp_base);
		else
			tab_text(t, row, 9, "unknown: no temperature");
		tab_count(t, row, 10, s->n);
	}
	if (rc) {
		rep_table_free(t);
		return rc;
	}
	return tab_done(t);
}

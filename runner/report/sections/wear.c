/* wear.c: the flash rows of the health table (tables.c): an eMMC's or UFS
 * device's life time estimations and pre-EOL information before and after
 * the run, what changed, or the records' reason there is none. A run whose
 * records have no `flash` member (written before it existed) gets no row. */
#include <stddef.h>

#include "report/sections/tables.h"

/* A record's text, its reason, or "-" for a record that is not there. */
static void cell(struct rep_table *t, size_t row, size_t col, const struct rep_health *h,
		 const char *text)
{
	tab_str(t, row, col, !h->have ? NULL : text ? text : h->inv.flash_na);
}

void rep_health_wear_rows(struct rep_table *t, const struct rep_health *const *hs)
{
	static const char *const label[3] = {
		"flash life used, estimation A", "flash life used, estimation B",
		"flash pre-EOL (reserved blocks)",
	};
	static const char *const key[3] = { "flash.life_a", "flash.life_b", "flash.pre_eol" };
	const struct rep_health *a = hs[1];
	int any = 0, obj = 0;
	size_t row;

	for (int i = 0; i < 2; i++) {
		any |= hs[i]->have && (hs[i]->inv.have_flash || hs[i]->inv.flash_na);
		obj |= hs[i]->have && hs[i]->inv.have_flash;
	}
	if (!any)
		return;
	if (!obj) {
		row = tab_row(t);
		tab_text(t, row, 0, "flash wear (eMMC, UFS)");
		tab_text(t, row, 1, "flash");
		cell(t, row, 2, hs[0], NULL);
		cell(t, row, 3, hs[1], NULL);
		return;
	}
	for (int k = 0; k < 3; k++) {
		row = tab_row(t);
		tab_text(t, row, 0, "%s", label[k]);
		tab_text(t, row, 1, "%s", key[k]);
		for (int i = 0; i < 2; i++) {
			const struct rep_inventory *v = &hs[i]->inv;
			cell(t, row, 2 + i, hs[i], k == 2 ? v->pre_eol : v->life[k]);
		}
		if (a->have && a->inv.have_flash_delta)
			tab_text(t, row, 4, "%s", a->inv.flash_delta[k] ? a->inv.flash_delta[k] : "unchanged");
		else if (a->have && a->inv.flash_delta_na)
			tab_text(t, row, 4, "%s", a->inv.flash_delta_na);
	}
}

/* load_inventory.c: what a `health` record says of the target's bus (bus,
 * sata_link, usb, mmc) and of its flash (flash), into the run model for
 * the verdict's inventory and flash keys (report/verdict/inventory.c). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

void ld_inventory_free(struct rep_inventory *inv)
{
	char *strs[] = {
		inv->bus, inv->sata_na, inv->sata_speed, inv->sata_limit, inv->usb_na,
		inv->usb_version, inv->usb_transport, inv->mmc_na, inv->mmc_type, inv->mmc_name,
		inv->mmc_timing, inv->flash_na, inv->flash_kind, inv->flash_product,
		inv->flash_timing, inv->life[0], inv->life[1], inv->pre_eol,
		inv->flash_delta[0], inv->flash_delta[1], inv->flash_delta[2], inv->flash_delta_na,
	};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(strs[i]);
	memset(inv, 0, sizeof(*inv));
}

/* A part: an object (returned), or its reason into *na. */
static const struct jsonr *part(const struct jsonr *rec, const char *key, char **na, int *rc)
{
	const struct jsonr *v = jsonr_get(rec, key);

	if (jsonr_is(v, JSONR_STR) && ld_set_text(na, v))
		*rc = -ENOMEM;
	return jsonr_is(v, JSONR_OBJ) ? v : NULL;
}

/* A whole number 0 .. 255, or -1. */
static int byte(const struct jsonr *v)
{
	uint64_t n = jsonr_u64(v, UINT64_MAX);
	return n <= 255 ? (int)n : -1;
}

static double number(const struct jsonr *v)
{
	return jsonr_is(v, JSONR_NUM) ? jsonr_num(v, NAN) : NAN;
}

int ld_load_inventory(struct loader *L, struct rep_inventory *inv, const struct jsonr *rec)
{
	static const char *const life_key[2][3] = {
		{ "life_a", "life_a_raw", "life_a_pct_max" },
		{ "life_b", "life_b_raw", "life_b_pct_max" },
	};
	static const char *const delta_key[3] = { "life_a", "life_b", "pre_eol" };
	const struct jsonr *sata, *usb, *mmc, *fl, *dfl;
	int rc = 0;

	ld_inventory_free(inv);
	inv->sata_gbps = inv->usb_mbps = NAN;
	inv->life_raw[0] = inv->life_raw[1] = inv->life_pct[0] = inv->life_pct[1] = -1;
	inv->pre_eol_raw = -1;
	if (ld_set_text(&inv->bus, jsonr_get(rec, "bus")))
		return ld_oom(L);
	sata = part(rec, "sata_link", &inv->sata_na, &rc);
	usb = part(rec, "usb", &inv->usb_na, &rc);
	mmc = part(rec, "mmc", &inv->mmc_na, &rc);
	fl = part(rec, "flash", &inv->flash_na, &rc);
	dfl = part(jsonr_get(rec, "delta"), "flash", &inv->flash_delta_na, &rc);
	if (rc)
		return ld_oom(L);
	inv->have_flash_delta = dfl != NULL;
	for (int i = 0; dfl && i < 3; i++)
		if (ld_set_text(&inv->flash_delta[i], jsonr_get(dfl, delta_key[i])))
			return ld_oom(L);
	if ((inv->have_sata = sata != NULL)) {
		inv->sata_gbps = number(jsonr_get(sata, "speed_gbps"));
		if (ld_set_texts(sata, "speed", &inv->sata_speed, "limit", &inv->sata_limit, (char *)NULL))
			return ld_oom(L);
	}
	if ((inv->have_usb = usb != NULL)) {
		inv->usb_mbps = number(jsonr_get(usb, "speed_mbps"));
		if (ld_set_texts(usb, "version", &inv->usb_version, "transport", &inv->usb_transport,
				 (char *)NULL))
			return ld_oom(L);
	}
	if ((inv->have_mmc = mmc != NULL) &&
	    ld_set_texts(mmc, "type", &inv->mmc_type, "name", &inv->mmc_name, "timing", &inv->mmc_timing,
			 (char *)NULL))
		return ld_oom(L);
	if (!(inv->have_flash = fl != NULL))
		return 0;
	if (ld_set_text(&inv->flash_kind, jsonr_get(fl, "kind")) ||
	    ld_set_text(&inv->flash_product, jsonr_get(fl, "product")) ||
	    ld_set_text(&inv->flash_timing, jsonr_get(fl, "hs_timing")) ||
	    ld_set_text(&inv->pre_eol, jsonr_get(fl, "pre_eol")))
		return ld_oom(L);
	inv->pre_eol_raw = byte(jsonr_get(fl, "pre_eol_raw"));
	for (int i = 0; i < 2; i++) {
		if (ld_set_text(&inv->life[i], jsonr_get(fl, life_key[i][0])))
			return ld_oom(L);
		inv->life_raw[i] = byte(jsonr_get(fl, life_key[i][1]));
		inv->life_pct[i] = byte(jsonr_get(fl, life_key[i][2]));
	}
	return 0;
}

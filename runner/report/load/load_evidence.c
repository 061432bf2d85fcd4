/* load_evidence.c: the records that are evidence rather than timings, into
 * the run model: the kernel's messages (kmsg, kmsg_dropped) and the disk's
 * health before and after (health). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

void ld_health_free(struct rep_health *h)
{
	char *strs[] = {
		h->device, h->transport, h->smart_na, h->ata_na, h->pcie_na, h->temp_na,
		h->pcie_speed, h->pcie_width, h->pcie_max_speed, h->pcie_max_width,
		h->temp_source, h->delta_smart_na, h->went_backwards,
		h->ata_overall, h->ata_error_na, h->delta_ata_na, h->bus_summary,
	};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(strs[i]);
	for (int i = 0; i < REP_SM_N; i++) {
		free(h->smart[i].digits);
		free(h->delta[i].digits);
	}
	for (int i = 0; i < REP_ATA_N; i++)
		free(h->ata[i].digits);
	for (int i = 0; i < REP_ATA_DN; i++)
		free(h->delta_ata[i].digits);
	ld_inventory_free(&h->inv);
	memset(h, 0, sizeof(*h));
}
/* A kmsg record (dropped 0) or a kmsg_dropped record (dropped 1). */
int ld_load_kmsg(struct loader *L, struct rep_run *r, const struct jsonr *rec, int dropped)
{
	const char *type = dropped ? "kmsg_dropped" : "kmsg";
	struct rep_kmsg k;
	int rc = 0;

	memset(&k, 0, sizeof(k));
	k.line = L->line;
	k.facility = -1;
	const char *phase = ld_need_str(L, rec, type, "phase", &rc);
	if (rc)
		return rc;
	if (jsonr_get(rec, "round") && (rc = ld_need_round(L, rec, type, &k.round)))
		return rc;
	const struct jsonr *fs = jsonr_get(rec, "fs");
	if (fs && !(jsonr_is(fs, JSONR_STR) && *fs->str))
		return ld_bad(L, "%s record: \"fs\" must be a non-empty string", type);
	const char *text = NULL;
	if (dropped) {
		k.dropped = jsonr_u64(jsonr_get(rec, "count"), UINT64_MAX);
		if (k.dropped == UINT64_MAX)
			return ld_bad(L, "kmsg_dropped record: \"count\" must be a whole number >= 0");
		uint64_t max = jsonr_u64(jsonr_get(rec, "max"), 0);
		if (max && max != UINT64_MAX)
			r->kmsg_max = max;
	} else {
		k.ts_usec = jsonr_u64(jsonr_get(rec, "ts_usec"), UINT64_MAX);
		if (k.ts_usec == UINT64_MAX)
			return ld_bad(L, "kmsg record: \"ts_usec\" must be a whole number >= 0");
		uint64_t lv = jsonr_u64(jsonr_get(rec, "level"), UINT64_MAX);
		if (lv > 7)
			return ld_bad(L, "kmsg record: \"level\" must be a whole number from 0 to 7");
		k.level = (int)lv;
		uint64_t fac = jsonr_u64(jsonr_get(rec, "facility"), UINT64_MAX);
		k.facility = fac <= 4096 ? (int)fac : -1;
		const struct jsonr *tv = jsonr_get(rec, "text");
		if (!jsonr_is(tv, JSONR_STR))
			return ld_bad(L, "kmsg record without a \"text\" string");
		text = tv->str;
		k.cut = jsonr_bool(jsonr_get(rec, "cut"), 0);
	}
	if (ld_grow((void **)&r->km, &r->capkm, r->nkm, sizeof(*r->km)))
		return ld_oom(L);
	if (!(k.phase = strdup(phase)) || (fs && !(k.fs = strdup(fs->str))) ||
	    (text && !(k.text = strdup(text)))) {
		free(k.phase);
		free(k.fs);
		free(k.text);
		return ld_oom(L);
	}
	r->km[r->nkm++] = k;
	if (dropped)
		r->kmsg_dropped += k.dropped;
	else
		r->kmsg_recorded++;
	return 0;
}
const char *const rep_smart_key[REP_SM_N] = {
	"critical_warning", "temperature_k", "available_spare", "percentage_used",
	"data_units_read", "bytes_read", "data_units_written", "bytes_written",
	"host_read_commands", "host_write_commands", "media_errors", "error_log_entries",
	"unsafe_shutdowns", "power_cycles", "power_on_hours",
};
const char *const rep_smart_delta_key[REP_SM_N] = {
	"new_critical_warning", NULL, "available_spare", "percentage_used",
	"data_units_read", "bytes_read", "data_units_written", "bytes_written",
	"host_read_commands", "host_write_commands", "media_errors", "error_log_entries",
	"unsafe_shutdowns", "power_cycles", "power_on_hours",
};
const char *const rep_ata_key[REP_ATA_N] = {
	"reallocated_sectors", "reported_uncorrectable", "current_pending_sectors",
	"offline_uncorrectable", "udma_crc_errors", "error_count",
	"power_on_hours", "power_cycles", "temperature_celsius",
};
const char *const rep_ata_delta_key[REP_ATA_DN] = {
	"reallocated_sectors", "reported_uncorrectable", "current_pending_sectors",
	"offline_uncorrectable", "udma_crc_errors", "error_count",
};
/* A health number: an integer (negative ones in a difference), or a
 * string of digits for one beyond 64 bits; anything else is absent. */
static int health_num(struct loader *L, const struct jsonr *v, struct rep_hnum *n)
{
	if (jsonr_is(v, JSONR_STR) && *v->str && strspn(v->str, "0123456789") == v->len) {
		n->have = 1;
		if (!(n->digits = strdup(v->str)))
			return ld_oom(L);
		return 0;
	}
	if (!jsonr_is(v, JSONR_NUM))
		return 0;
	uint64_t u = jsonr_u64(v, UINT64_MAX);
	if (u != UINT64_MAX || !strcmp(v->str, "18446744073709551615")) {
		n->have = 1;
		n->n = u;
	} else if (v->str[0] == '-' && v->num > -1e18 && v->num == (double)(int64_t)v->num) {
		n->have = 1;
		n->neg = v->num < 0;
		n->n = (uint64_t)(-(int64_t)v->num);
	}
	return 0;
}
/* A part of a health record: an object, or its "not available" reason. */
static int health_part(struct loader *L, const struct jsonr *rec, const char *key,
		       const struct jsonr **obj, char **na)
{
	const struct jsonr *v = jsonr_get(rec, key);

	*obj = jsonr_is(v, JSONR_OBJ) ? v : NULL;
	if (jsonr_is(v, JSONR_STR) && !(*na = strdup(v->str)))
		return ld_oom(L);
	return 0;
}
int ld_load_health(struct loader *L, struct rep_run *r, const struct jsonr *rec)
{
	const char *when = jsonr_str(jsonr_get(rec, "when"));
	int i = when && !strcmp(when, "before") ? REP_HEALTH_BEFORE :
		when && !strcmp(when, "after") ? REP_HEALTH_AFTER : -1;
	const struct jsonr *sm, *ata, *pcie, *temp, *delta;

	if (i < 0)
		return ld_bad(L, "health record: \"when\" must be \"before\" or \"after\"");
	struct rep_health *h = &r->health[i];
	ld_health_free(h);
	h->have = 1;
	h->line = L->line;
	h->pcie_at_max = h->pcie_changed = -1;
	if (ld_set_texts(rec, "device", &h->device, "transport", &h->transport, (char *)NULL) ||
	    health_part(L, rec, "nvme_smart", &sm, &h->smart_na) ||
	    health_part(L, rec, "ata_smart", &ata, &h->ata_na) ||
	    health_part(L, rec, "pcie_link", &pcie, &h->pcie_na) ||
	    health_part(L, rec, "temperature", &temp, &h->temp_na))
		return ld_oom(L);
	if (jsonr_get(rec, "bus") && !(h->bus_summary = ld_bus_summary(rec)))
		return ld_oom(L);
	for (int k = 0; sm && k < REP_SM_N; k++)
		if (health_num(L, jsonr_get(sm, rep_smart_key[k]), &h->smart[k]))
			return -ENOMEM;
	if (ld_load_inventory(L, &h->inv, rec))
		return -ENOMEM;
	if (pcie) {
		if (ld_set_texts(pcie, "speed", &h->pcie_speed, "width", &h->pcie_width, "max_speed",
				 &h->pcie_max_speed, "max_width", &h->pcie_max_width, (char *)NULL))
			return ld_oom(L);
		h->pcie_at_max = jsonr_bool(jsonr_get(pcie, "at_max"), -1);
	}
	if (temp && jsonr_is(jsonr_get(temp, "celsius"), JSONR_NUM)) {
		h->have_temp = 1;
		h->temp_c = jsonr_num(jsonr_get(temp, "celsius"), 0);
		if (ld_set_text(&h->temp_source, jsonr_get(temp, "source")))
			return ld_oom(L);
	}
	if (ata) {
		h->have_ata = 1;
		for (int k = 0; k < REP_ATA_N; k++)
			if (health_num(L, jsonr_get(ata, rep_ata_key[k]), &h->ata[k]))
				return -ENOMEM;
		const struct jsonr *ec = jsonr_get(ata, "error_count");
		if (ld_set_text(&h->ata_overall, jsonr_get(ata, "overall")) ||
		    (jsonr_is(ec, JSONR_STR) && ld_set_text(&h->ata_error_na, ec)))
			return ld_oom(L);
	}
	delta = jsonr_get(rec, "delta");
	if (!jsonr_is(delta, JSONR_OBJ))
		return 0;
	h->have_delta = 1;
	if (health_part(L, delta, "nvme_smart", &sm, &h->delta_smart_na))
		return -ENOMEM;
	for (int k = 0; sm && k < REP_SM_N; k++)
		if (rep_smart_delta_key[k] &&
		    health_num(L, jsonr_get(sm, rep_smart_delta_key[k]), &h->delta[k]))
			return -ENOMEM;
	if (sm && ld_set_text(&h->went_backwards, jsonr_get(sm, "went_backwards")))
		return ld_oom(L);
	if (health_part(L, delta, "ata_smart", &ata, &h->delta_ata_na))
		return -ENOMEM;
	h->have_ata_delta = ata != NULL;
	for (int k = 0; ata && k < REP_ATA_DN; k++)
		if (health_num(L, jsonr_get(ata, rep_ata_delta_key[k]), &h->delta_ata[k]))
			return -ENOMEM;
	if (jsonr_is(jsonr_get(delta, "temperature_celsius"), JSONR_NUM)) {
		h->have_temp_delta = 1;
		h->temp_delta = jsonr_num(jsonr_get(delta, "temperature_celsius"), 0);
	}
	h->pcie_changed = jsonr_bool(jsonr_get(delta, "pcie_link_changed"), -1);
	return 0;
}

/* load_settings.c: the settings of a run_start's config into the run model
 * (rep_run.cfg), as the record has them: report/measures.c reads them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/load/loader.h"

void ld_settings_free(struct rep_run *r)
{
	static const size_t owned[] = { offsetof(struct rep_setting, key), offsetof(struct rep_setting, value) };
	ld_free_array(r->cfg, r->ncfg, sizeof(*r->cfg), LD_OWNED(owned));
	r->cfg = NULL;
	r->ncfg = 0;
}

int ld_load_settings(struct rep_run *r, const struct jsonr *cfg)
{
	ld_settings_free(r);
	if (!jsonr_is(cfg, JSONR_OBJ))
		return 0;
	if (!(r->cfg = calloc(jsonr_len(cfg) + 1, sizeof(*r->cfg))))
		return -ENOMEM;
	for (const struct jsonr *m = cfg->child; m; m = m->next) {
		struct rep_setting *s = &r->cfg[r->ncfg];
		if (ld_set_text(&s->value, m))
			return -ENOMEM;
		if (!s->value)	/* an object, an array, null */
			continue;
		r->ncfg++;	/* freed with the run, whole or not */
		if (!(s->key = strdup(m->key ? m->key : "")))
			return -ENOMEM;
	}
	return 0;
}

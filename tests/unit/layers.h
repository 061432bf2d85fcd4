/* layers.h: the settings' layers for the settings tests (test_config.c,
 * test_variant.c): a config file (lf), the kernel command line (lc) and the
 * command line's options (lo), merged in that order over the defaults and
 * the profile; and settings from the command line alone (cli_merge). */
#ifndef FSB_UNIT_LAYERS_H
#define FSB_UNIT_LAYERS_H

#include <stdio.h>

#include "run/settings.h"
#include "unit.h"

/* (a test of the command line alone uses none of them) */
__attribute__((unused)) static struct fsb_layer lf, lc, lo;
__attribute__((unused)) static struct fsb_layer *layers[3] = { &lf, &lc, &lo };

/* Every layer emptied, each with its source. */
static inline void layers_reset(void)
{
	fsb_layer_free(&lf);
	fsb_layer_free(&lc);
	fsb_layer_free(&lo);
	lf.src = SRC_FILE;
	lc.src = SRC_CMDLINE;
	lo.src = SRC_CLI;
}

/* The settings given as KEY, VALUE pairs (NULL-ended) on the command
 * line, each from "command line --KEY" and checked to be taken, merged
 * over the defaults into c: fsb_config_merge's result, err its reason. */
static inline int cli_merge(struct fsb_config *c, const char *const *kv, char *err, size_t len)
{
	struct fsb_layer l = { .src = SRC_CLI };
	struct fsb_layer *ls[1] = { &l };
	char src[96];
	int rc;

	for (size_t i = 0; kv[i]; i += 2) {
		snprintf(src, sizeof(src), "command line --%s", kv[i]);
		CHECK(fsb_layer_add(&l, kv[i], kv[i + 1], src, err, len) == 0);
	}
	rc = fsb_config_merge(c, ls, 1, err, len);
	fsb_layer_free(&l);
	return rc;
}
#define CLI(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Whether KEY = VALUE from the command line is refused, when added or
 * when merged over the defaults into c; err its reason. */
static inline int cli_refused(struct fsb_config *c, const char *key, const char *val, char *err,
			      size_t len)
{
	struct fsb_layer l = { .src = SRC_CLI };
	struct fsb_layer *ls[1] = { &l };
	char src[96];
	int refused;

	snprintf(src, sizeof(src), "command line --%s", key);
	refused = fsb_layer_add(&l, key, val, src, err, len) < 0 ||
		  fsb_config_merge(c, ls, 1, err, len) < 0;
	fsb_layer_free(&l);
	return refused;
}

#endif

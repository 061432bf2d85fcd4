/* layers.h: the settings' layers for the settings tests (test_config.c,
 * test_variant.c): a config file (lf), the kernel command line (lc) and the
 * command line's options (lo), merged in that order over the defaults and
 * the profile. */
#ifndef FSB_UNIT_LAYERS_H
#define FSB_UNIT_LAYERS_H

#include "run/settings.h"

static struct fsb_layer lf, lc, lo;
static struct fsb_layer *layers[3] = { &lf, &lc, &lo };

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

#endif

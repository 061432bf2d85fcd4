/* cmd/options.h: the settings options shared by `fsbench run` and
 * `fsbench config`. */
#ifndef FSB_CMD_SETTINGS_H
#define FSB_CMD_SETTINGS_H

#include "run/settings.h"

/* The usage text of run/config: the synopsis, then the options, followed
 * by the settings (fsb_config_help). */
extern const char fsb_run_synopsis[], fsb_run_options[];

/* A misuse of run or config: fsb_misuse with the synopsis and where the
 * options are (--help); returns EXIT_USAGE. */
int fsb_run_misuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse the command line into layers and merge them. Returns -1 after
 * printing help (exit 0), an exit code > 0 on error, 0 when cfg is ready.
 * show and get may be NULL (options not accepted). */
int fsb_parse_settings(int argc, char **argv, struct fsb_config *cfg, int *show, const char **get);

#endif

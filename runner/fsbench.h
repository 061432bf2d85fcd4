/* fsbench.h: what the command layer shares: the version, the message
 * helper and exit codes, and the commands main() dispatches. */
#ifndef FSB_FSBENCH_H
#define FSB_FSBENCH_H

#include "lib/msg.h"	/* exit codes, fsb_msg/fsb_fail/fsb_misuse */

#define FSB_VERSION "0.1.0"

/* commands */
int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_log(int argc, char **argv);
/* `log check` and `log schema` (cmd/logcheck.c), from cmd_log */
int cmd_log_check(int argc, char **argv);
int cmd_log_schema(int argc, char **argv);
/* `fsbench log`'s usage (cmd/log.c), for its misuse messages */
extern const char fsb_log_usage[];
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_verdict(int argc, char **argv);

#endif

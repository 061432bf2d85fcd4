/* sysinfo.h: what the run ran on (host, kernel, CPU, memory, firmware). */
#ifndef FSB_SYSINFO_H
#define FSB_SYSINFO_H

#include "log/record.h"

/* Add a "host" object to r. */
void fsb_sysinfo_json(struct fsb_rec *r, const char *key);

#endif

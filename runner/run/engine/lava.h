/* lava.h: the console lines a LAVA `monitors` test matches (the `lava`
 * setting): a start marker, one result line per test case, an end marker.
 * The line format is in FORMATS.md ("LAVA lines"), the monitors block a job
 * pastes in README.md ("LAVA"). Formatting only: nothing here prints but
 * fsb_lava_start and fsb_lava_phase, which write to the run's stdout. */
#ifndef FSB_LAVA_H
#define FSB_LAVA_H

#include <stddef.h>

#include "lib/ident.h"

#define FSB_LAVA_MARK	"FSBENCH-LAVA:"		/* "FSBENCH-LAVA: start run=ID" */
#define FSB_LAVA_RESULT	"FSBENCH-RESULT:"	/* one per test case */
#define FSB_LAVA_LINE_MAX 256

/* "FSBENCH-LAVA: start run=ID\n" (which "start" or "end"). Returns the
 * length, or -1 when it does not fit. */
int fsb_lava_marker(char *buf, size_t len, const char *which, const char *run_id);
/* "FSBENCH-RESULT: test_case_id=ID result=pass|fail[ measurement=M units=U]\n":
 * the measurement (%.9g, as in the records) only when it is finite, units
 * then UNITS or "count" when empty. ID must be a test case id (letters,
 * digits, '-', '_', '.'). Returns the length, or -1 (a bad id, no room). */
int fsb_lava_result(char *buf, size_t len, const char *id, int pass,
		    double measurement, const char *units);
/* The same with LAVA's result as a word: pass, fail, skip or unknown (a
 * verdict's check of each kind: report/verdict/kinds.h). */
int fsb_lava_result_as(char *buf, size_t len, const char *id, const char *result,
		       double measurement, const char *units);
#define FSB_LAVA_KNOWN	"FSBENCH-KNOWN:"	/* a known issue of the result line after it */
/* A phase's test case id: "FS-rROUND-PHASE" (ext4-r1-read_inode); a
 * variant's ':' becomes '.' (f2fs.s4z4-r1-create). */
int fsb_lava_phase_id(char *buf, size_t len, const char *fs, unsigned round, const char *phase);
/* Is s a test case id: 1 to FSB_LAVA_ID_MAX - 1 of [A-Za-z0-9_.-]? */
int fsb_lava_id_ok(const char *s);

struct fsb_ctx;
/* With the `lava` setting: the start marker (after run_start), a phase's
 * line (after its phase record; fail with errors, verify errors or a
 * timeout), to the run's stdout. */
void fsb_lava_start(struct fsb_ctx *c);
void fsb_lava_phase(struct fsb_ctx *c, const char *fs, unsigned round, const char *phase,
		    double seconds, int failed);
/* A power-cut cycle's line: "powercut-FS-cCYCLE", the lost and torn files
 * as its measurement (units files). */
void fsb_lava_powercut(struct fsb_ctx *c, const char *fs, unsigned cycle, int pass, double bad);

/* A file-server run's lines (run/engine/fileserver.h): "fileserver-FS-STATE"
 * with its operations per second (units ops/s), and
 * "fileserver-FS-STATE-append-p99" with the random append's 99th
 * percentile (units ms); fail when the run failed. */
void fsb_lava_fileserver(struct fsb_ctx *c, const char *fs, const char *state, int pass,
			 double ops_per_s, double append_p99_ms);

#endif

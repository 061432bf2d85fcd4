/* measures.h: what a run measures (measures.c), decided in one place, one
 * row per measure, from the records it holds and the settings of its
 * run_start config: the small-file rounds, their layout, the fio
 * workloads, the fill test, the power-cut campaign, the sustained write
 * and the file server.
 *
 * A measure's records decide first: a run that holds them measured it.
 * Without them its setting decides (`sustain = off` is not measured,
 * `smallfile = 1` is: a run that should have phase records and has none
 * says so); without the setting either (records of an older runner), the
 * row's default. The small-file rounds are the default of a run that
 * measures nothing else; a power-cut campaign runs alone.
 *
 * The report's sections (output.c) and the HTML page's charts
 * (writers/chart.c) each name the measure they belong to: for a reader,
 * those of a measure the run does not measure are left out without a word,
 * and one line at the end of the report lists what the run does not
 * measure. The config line of the report shows the settings of the
 * measures the run measures (rep_config_text).
 */
#ifndef FSB_REPORT_MEASURES_H
#define FSB_REPORT_MEASURES_H

#include <stddef.h>

#include "report/model.h"
#include "report/table.h"

enum rep_measure {
	REP_M_ANY = 0,		/* every run: a section or chart of its own */
	REP_M_SMALLFILE,	/* the small-file rounds: phase records */
	REP_M_LAYOUT,		/* their layout (FIEMAP): layout records */
	REP_M_FIO,
	REP_M_FILL,
	REP_M_POWERCUT,
	REP_M_SUSTAIN,
	REP_M_FILESERVER,
	REP_M_N
};

/* A measure's default where neither records nor its setting say. */
enum rep_measure_dflt {
	REP_DFLT_OFF = 0,
	REP_DFLT_ON,
	REP_DFLT_ALONE,		/* on when the run measures nothing else */
};

struct rep_measure_row {
	const char *name;	/* for "Not in this run: ...": "small-file phases" */
	const char *key;	/* the setting that turns it on ("smallfile") */
	const char *unless;	/* off when this setting is on, or NULL */
	enum rep_measure under;	/* measured only with this one (REP_M_ANY: none) */
	enum rep_measure_dflt dflt;
	size_t count;		/* offsetof(struct rep_run, ...): its records */
	const char *keys;	/* the config line's settings: words, each a key
				 * and the keys it starts with a '_' after
				 * ("sustain": sustain, sustain_seconds, ...);
				 * NULL: none (the small-file shape is written as
				 * such) */
};

/* Indexed by enum rep_measure; row 0 (REP_M_ANY) is empty. */
extern const struct rep_measure_row rep_measure_rows[REP_M_N];

/* 1 when run r measures m (REP_M_ANY: always), else 0. */
int rep_measures(const struct rep_run *r, enum rep_measure m);
/* 1 for the small-file rounds and what is measured under them: their
 * sections need phase records. */
int rep_measure_phases(enum rep_measure m);
/* The value of setting key in r's run_start config, or NULL. */
const char *rep_setting(const struct rep_run *r, const char *key);
/* The report's config line: "profile P; fs F", then for each measure the
 * run measures its settings ("4 dirs x 500 files x 4096 bytes; 4 workers;
 * 2 rounds", "sustain=both, sustain_seconds=120, ..."). */
void rep_config_text(const struct rep_run *r, char *buf, size_t len);
/* For a reader, one line: "Not in this run: fio workloads, ..." (no rows
 * when the run measures everything). Returns 0, or -ENOMEM. */
int rep_table_unmeasured(const struct rep_run *r, struct rep_table *t);

#endif

/* timeline.h: the runs of a results folder, one row each (timeline.c), for
 * `fsbench history DIR`.
 *
 * An entry of DIR is a run folder (a folder: its records.jsonl, and next to
 * it run.txt and verdict.txt when there) or a .jsonl file; other files and
 * names starting with '.' are not looked at. Each entry's last run is its
 * row. What an entry could not give is kept as a skip (its name, the reason
 * and what `fsbench report` would have returned), never printed here: the
 * command says it.
 */
#ifndef FSB_REPORT_HISTORY_H
#define FSB_REPORT_HISTORY_H

#include <stddef.h>
#include <time.h>

#include "report/model.h"
#include "report/table.h"

#define REP_HIST_MIN_TIME 946684800	/* 2000-01-01: a clock before it was not set */

/* Where a row's date, board or verdict was found. */
enum rep_hist_from {
	HIST_NONE = 0,
	HIST_RECORD,	/* the run's records: run_start time_unix, a verdict record */
	HIST_DEVICETREE,	/* board: run_start host dt_model */
	HIST_DMI,	/* board: run_start host dmi product_name */
	HIST_RUN_TXT,	/* board: the folder's run.txt ("board: NAME") */
	HIST_VERDICT_TXT,	/* verdict: the last line of the folder's verdict.txt */
	HIST_NAME,	/* date: the entry's name, YYYYMMDD-HHMMSS at its start */
};

struct rep_hist_entry {
	char *name;		/* the entry in DIR */
	struct rep_set set;
	const struct rep_run *run;	/* the set's last run */
	time_t when;
	enum rep_hist_from when_from;
	char *board;
	enum rep_hist_from board_from;
	char *verdict;		/* "PASS", "FAIL (2 of 28 checks failed)" or NULL */
	enum rep_hist_from verdict_from;
	char *report;		/* relative to DIR: NAME/report.html, else
				 * NAME/report.md (the first that is a file
				 * that is not empty), else NAME/records.jsonl;
				 * a .jsonl entry: NAME */
};

struct rep_hist_skip {
	char *name;
	char *why;		/* "PATH: reason", as report says it */
	int fail;		/* 1: no records (report exits 1); 0: cannot be
				 * read or malformed (report exits 4) */
};

struct rep_history {
	char *dir;
	struct rep_hist_entry *e;	/* sorted by date, unknown dates last, then name */
	size_t n;
	struct rep_hist_skip *skip;	/* in name order */
	size_t nskip;
};

/* Read every entry of dir into h. Returns 0 (skips are in h), -errno when
 * dir cannot be read (err says why) or -ENOMEM. */
int rep_history_load(struct rep_history *h, const char *dir, char *err, size_t errlen);
/* The runs of one file instead of a folder (path: a .jsonl, a serial log, a
 * results log, as `fsbench history FILE` gets it; set: its runs, loaded):
 * every run a row, named after the file, in date order (the file's order
 * for equal dates). The runs move from set to h; set is freed. 0 or
 * -ENOMEM. */
int rep_history_of_file(struct rep_history *h, const char *path, struct rep_set *set);
void rep_history_free(struct rep_history *h);
/* "record", "run.txt", ... */
const char *rep_hist_from_name(enum rep_hist_from f);
/* One row per entry: run (for a reader a link to the entry's report), date, board, kernel, target model, profile,
 * verdict, then create, read (cold, fresh fs) and delete seconds per
 * filesystem (those with phase records in any run, in order of first
 * appearance). */
/* The filesystems with phase records in any run of h, in order of first
 * appearance: *fsp (malloc'd) and the count, or -ENOMEM. */
long rep_history_fs(const struct rep_history *h, const char ***fsp);
int rep_table_history(const struct rep_history *h, struct rep_table *t);

#endif

/* report.h: reading result records back (JSON lines) and printing tables:
 * `fsbench report RUN` and `fsbench compare A B`.
 *
 * Input is a run folder (DIR/records.jsonl) or a .jsonl file, "-" for stdin.
 * A line may carry a console prefix ("FSB: {...}"): everything before the
 * first '{' is ignored, and a line without '{' is skipped. Records are
 * grouped by run_id; one file may hold several runs.
 *
 * Loading parses everything first and fails on the first malformed line, so
 * a caller prints either a whole report or nothing. The table builders and
 * printers write to a FILE *, so tests can render into memory.
 */
#ifndef FSB_REPORT_H
#define FSB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REP_MAX_LINE (1024u * 1024u)	/* longer lines are malformed */
#define REP_MAX_EVENTS 100		/* error records kept per run for listing */
#define REP_MAX_DISKS 64		/* disks of a refusal kept for listing */
#define REP_LAYOUT_FIRST 8		/* first_blocks kept per layout record */
#define REP_LAYOUT_SHOW 4		/* of which the layout table shows */

/* The aging finding under the layout table (runner/SUITE.md, "The ext4 aging
 * finding"): in an aged round (>= REP_AGED_ROUND), name order no longer
 * follows the disk (name-order near < REP_NAME_NEAR_MAX) while inode order
 * still does (inode-order near >= name-order near + REP_INODE_NEAR_GAP).
 * near = fraction of consecutive files within 64 KiB after the previous
 * file's end, i.e. a sequential read. */
#define REP_AGED_ROUND 2
#define REP_NAME_NEAR_MAX 0.5
#define REP_INODE_NEAR_GAP 0.3

enum rep_fmt { REP_MD = 0, REP_CSV };

/* Latency percentiles of a phase, nanoseconds, in this order. */
enum { LAT_P50, LAT_P90, LAT_P99, LAT_P999, LAT_MAX, LAT_MEAN, LAT_N };

struct rep_phase {
	const char *fs;		/* points at the run's rep_fs name */
	unsigned round;
	char *phase;		/* create, stat, read, read_inode, delete, ... */
	char *order;		/* may be NULL */
	int cold;		/* 1, 0, or -1 when absent */
	double seconds;
	uint64_t files, bytes;
	double files_per_s;	/* from the record, or files / seconds */
	int have_lat;
	double lat_ns[LAT_N];	/* negative when a percentile is absent */
	uint64_t errors, verify_errors;
	unsigned workers;
	double sync_seconds;	/* negative when absent */
	size_t line;		/* line number in the input, for messages */
};

struct rep_fs {
	char *name;
	char *status;		/* from fs_end; NULL when there was none */
	char *reason;
	size_t nphases;
};

/* An `error` or `verify_error` record, kept for listing. */
struct rep_event {
	int verify;		/* 1 for verify_error */
	char *fs, *phase, *file, *msg;	/* each may be NULL */
	char *op;		/* error: "op"; verify_error: "what" (verify, size) */
	long round;		/* 0 when absent */
	long err_no;		/* 0 when absent */
	int fatal;
	uint64_t offset, count;	/* verify_error: the first wrong byte and how many
				 * are wrong; for "size", the size found and expected */
};

/* A disk the runner saw, from the "disks" list of a refusal (an error
 * record with "refused": true): what the user can name as the target. */
struct rep_disk {
	char *path, *model, *serial, *transport, *partlabel;	/* each may be NULL */
	uint64_t size;
};

/* A `layout` record: where one directory's files sit on the disk (FIEMAP),
 * in file-name order and in inode order. */
struct rep_layout_order {
	double forward;		/* fraction of steps to a higher disk offset, 0..1 */
	double near;		/* fraction of steps within 64 KiB after the previous end */
	uint64_t median_jump;	/* median distance between consecutive files, 4 KiB blocks */
};

struct rep_layout {
	const char *fs;		/* points at the run's rep_fs name */
	unsigned round;
	char *error;		/* the error variant ("no FIEMAP on this filesystem"):
				 * the numbers below are absent; NULL otherwise */
	uint64_t files;
	struct rep_layout_order name, inode;
	uint64_t first[REP_LAYOUT_FIRST];	/* name order, 4 KiB block numbers */
	size_t nfirst;
	size_t line;
};

struct rep_run {
	char *run_id;
	int have_start, have_end;
	/* run_start: host, target and config summary (each may be NULL) */
	char *hostname, *kernel, *machine, *cpu_model, *cpus, *mem_bytes;
	char *target_path, *target_model, *target_serial, *target_size;
	char *target_spec;	/* config "target": how the user named it */
	char *profile, *cfg_fs, *dirs, *files, *file_size, *workers, *rounds;
	char *mode, *version;
	/* run_end */
	char *status;
	long exit_code;
	double seconds;

	struct rep_fs *fs;	/* in order of first appearance */
	size_t nfs, capfs;
	struct rep_phase *ph;	/* in input order */
	size_t nph, capph;
	struct rep_event *ev;	/* the first REP_MAX_EVENTS */
	size_t nev, capev, nev_total;
	struct rep_disk *disk;	/* the first refusal's disk list */
	size_t ndisk;
	struct rep_layout *lay;	/* in input order; the same fs and round twice:
				 * the later record replaces the earlier */
	size_t nlay, caplay;
};

struct rep_set {
	char *path;		/* the file actually read */
	struct rep_run **runs;	/* in order of first appearance */
	size_t nruns, capruns;
	size_t lines, records;
};

/* Resolve RUN (folder -> folder/records.jsonl) and load it. Returns 0,
 * -errno when the input cannot be opened or read, -EBADMSG for a malformed
 * line, -ENOMEM. On error, err holds "PATH: reason" or "PATH:LINE: reason". */
int rep_load(struct rep_set *set, const char *run, char *err, size_t errlen);
/* Load from an open stream; name is used in messages. */
/* The published figures of runner/SUITE.md as one run (reference.c), named
 * REP_REFERENCE_NAME: the records as text (0, or -ENOSPC when len is too
 * small), or loaded into set (0, or -errno with err set). */
#define REP_REFERENCE_NAME "SUITE.md reference"
int rep_reference_text(char *buf, size_t len);
int rep_load_reference(struct rep_set *set, char *err, size_t errlen);
int rep_load_stream(struct rep_set *set, FILE *f, const char *name,
		    char *err, size_t errlen);
void rep_free(struct rep_set *set);
/* A run by id (exact, or a unique prefix); id NULL = the last run. NULL when
 * there is no such run, or the prefix is ambiguous. */
const struct rep_run *rep_find(const struct rep_set *set, const char *id);

/* The summary rows of the reference table. */
enum rep_row {
	ROW_CREATE = 0,
	ROW_STAT,
	ROW_READ_FRESH,
	ROW_READ_AGED,
	ROW_INODE_FRESH,
	ROW_INODE_AGED,
	ROW_DELETE,
	ROW_N
};
const char *rep_row_name(enum rep_row row);
/* One summary cell: seconds (rate = 0) or files per second (rate = 1).
 * Returns 1 and *out, or 0 when there is no value (e.g. aged with 1 round). */
int rep_summary(const struct rep_run *r, const char *fs, enum rep_row row,
		int rate, double *out);
/* Median of v[0..n) (sorts v); n must be > 0. Even n: mean of the middle two. */
double rep_median(double *v, size_t n);

/* How a table looks in Markdown (CSV is always rows of cells). */
enum rep_style {
	STYLE_GRID = 0,		/* a pipe table */
	STYLE_KV,		/* "- key: value" lines */
	STYLE_NOTES,		/* "- cell: cell: cell" lines, empty cells left out */
};

/* A rendered table: cells are text, formatted for fmt. */
struct rep_table {
	const char *name;	/* CSV first column: summary, rate, rounds, ... */
	const char *title;	/* Markdown heading, or NULL */
	enum rep_style style;
	int oom;		/* a cell could not be allocated */
	size_t ncols, nrows, caprows;
	char **head;		/* ncols */
	char **cells;		/* nrows * ncols, row-major */
	unsigned char *right;	/* ncols: right-align in Markdown */
};
const char *rep_cell(const struct rep_table *t, size_t row, size_t col);
void rep_table_free(struct rep_table *t);

/* Columns of the summary: filesystems with at least one phase record. */
int rep_table_run(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_summary(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_rate(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_fs_status(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_rounds(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_latency(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
/* Layout records, one row each (no rows when the run has none). */
int rep_table_layout(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
/* The aging finding, one row per filesystem that shows it (fs, sentence). */
int rep_table_layout_findings(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_errors(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
/* The disks a refused run saw, one row each (no rows without a refusal). */
int rep_table_disks(const struct rep_run *r, enum rep_fmt f, struct rep_table *t);
int rep_table_compare(const struct rep_run *a, const struct rep_run *b,
		      enum rep_fmt f, struct rep_table *t);
void rep_table_print(FILE *out, const struct rep_table *t, enum rep_fmt f);

/* The whole report of one run. Returns 0, or -ENOMEM. */
int rep_print(FILE *out, const struct rep_run *r, enum rep_fmt f);
int rep_print_compare(FILE *out, const struct rep_run *a, const char *aname,
		      const struct rep_run *b, const char *bname, enum rep_fmt f);

int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif

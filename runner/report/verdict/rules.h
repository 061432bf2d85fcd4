/* rules.h: inside the verdict (report/verdict/; users include
 * criteria.h). The keys of a criteria file are one table, vd_keys[] in
 * keys.c: a row names its key and carries what parses its value
 * (criteria.c), what evaluates its rules against a run (judge.c) and what
 * derives it from a known-good run (derive.c). Adding a key is adding a
 * row and its hooks; no code outside the table tests which key a rule is.
 */
#ifndef FSB_REPORT_VERDICT_RULES_H
#define FSB_REPORT_VERDICT_RULES_H

#include <stddef.h>
#include <stdio.h>

#include "report/verdict/criteria.h"

/* Which rounds a phase rule takes: all, fresh (round 1), aged (2+). */
enum vd_rounds { VD_ALL = 0, VD_FRESH, VD_AGED };
extern const char *const vd_rounds_name[3];	/* "all", "fresh", "aged" */
extern const char *const vd_rounds_text[3];	/* "all rounds", ... */

struct vd_key;

struct vd_rule {
	const struct vd_key *key;	/* what it checks: its row */
	char fs[32];		/* "*" for every filesystem of the run */
	char phase[32];		/* "*" for every phase */
	enum vd_rounds rounds;
	double limit;		/* the number of the value, or the link speed */
	double width;		/* pcie_link: lanes; 0 with limit 0: "max" */
	char text[256];		/* fs_ok: the list */
	char where[64];		/* FILE:LINE, or "baseline" */
	/* the baseline's rules: its median and spread between its rounds */
	int row;		/* enum rep_row */
	double base, spread, tolerance;
	unsigned nbase;
};

/* What a key's parse hook gets: the key as written and its value. */
struct vd_arg {
	struct vd_criteria *c;
	const struct vd_key *k;
	const char *key;	/* as written: "max_seconds.ext4.create" */
	const char *rest;	/* a phase key: after "NAME."; else NULL */
	const char *val, *where;
	int trusted;		/* a value derived from a run: names unchecked */
	char *err;
	size_t errlen;
};

/* Where derived criteria go: the lines of a criteria file (out), or the
 * rules of a baseline (c). */
struct vd_from {
	const struct rep_run *r;
	FILE *out;		/* or NULL */
	struct vd_criteria *c;	/* or NULL */
	double margin;		/* a file: floors are the rate / (1 + margin) */
	double tolerance;	/* a baseline: allowed slowdown */
};

enum { VD_TO_FILE, VD_TO_BASELINE };

/* A key's hooks. parse: the value into rule u (u NULL for a key that
 * makes no rule); 0, 1 for a bad value, or -1 with a->err set. eval: rule
 * u against run r, its checks appended to res; 0 or -ENOMEM. derive: from
 * a known-good run d->r, each value the key takes through vd_put_line,
 * or vd_lack_line and why the run has none; 0 or -ENOMEM. */
typedef int vd_parse_fn(const struct vd_arg *a, struct vd_rule *u);
typedef int vd_eval_fn(struct vd_result *res, const struct vd_criteria *c,
		       const struct vd_rule *u, const struct rep_run *r);
typedef int vd_derive_fn(struct vd_from *d, const struct vd_key *k);

struct vd_key {
	const char *name;
	int phase;		/* takes .[FS.]PHASE[.ROUNDS] */
	const char *value;	/* what the value is, for messages and the docs;
				 * NULL: not a key of a criteria file */
	const char *help;
	vd_parse_fn *parse;
	vd_eval_fn *eval;	/* NULL: the key makes no rule */
	/* derive is called in the order of rank[VD_TO_FILE] for a criteria
	 * file, of rank[VD_TO_BASELINE] for a baseline's rules; rank 0: not
	 * derived there */
	vd_derive_fn *derive;
	unsigned char rank[2];
	/* a phase key: a phase record's value (NaN when absent), what it is,
	 * its unit, and floor 1 when it must reach the limit (>=), 0 when it
	 * must stay under it (<=) */
	double (*measure)(const struct rep_phase *p);
	const char *what, *unit;
	int floor;
};

extern const struct vd_key vd_keys[];
extern const size_t vd_nkeys;

/* criteria.c: parsing */
vd_parse_fn vd_parse_phase;	/* a number > 0 */
vd_parse_fn vd_parse_all;	/* "all" */
vd_parse_fn vd_parse_clean;	/* "clean" */
vd_parse_fn vd_parse_count;	/* an integer >= 0 */
vd_parse_fn vd_parse_positive;	/* a number > 0 */
vd_parse_fn vd_parse_link;	/* max | SPEED xWIDTH */
vd_parse_fn vd_parse_fs_list;	/* FS,FS,... */
vd_parse_fn vd_parse_ignore;	/* patterns */
vd_parse_fn vd_parse_honest;	/* "honest" */
/* A rule of key k in c. Returns it, or NULL when out of memory. */
struct vd_rule *vd_new_rule(struct vd_criteria *c, const struct vd_key *k, const char *where);
/* key = val as vd_criteria_add, trusted: a value derived from a run. */
int vd_add(struct vd_criteria *c, const char *key, const char *val, const char *where,
	   int trusted, char *err, size_t errlen);
/* Room for one more of elem bytes after n in *arr. 0, or -ENOMEM. */
int vd_grow(void **arr, size_t *cap, size_t n, size_t elem);
/* Is word (n bytes) one of the comma-separated names? NULL list: any. */
int vd_in_list(const char *list, const char *word, size_t n);

/* judge.c: evaluation */
vd_eval_fn vd_eval_phase, vd_eval_verify, vd_eval_errors, vd_eval_kmsg, vd_eval_health,
	vd_eval_temperature, vd_eval_pcie, vd_eval_fs_ok, vd_eval_capacity, vd_eval_baseline;
/* the power-cut campaign's keys: one check per filesystem of the run */
vd_eval_fn vd_eval_pc_lost, vd_eval_pc_torn, vd_eval_pc_fsck, vd_eval_pc_cycles;
/* zeroes.c: discard_zeroes = ok */
vd_parse_fn vd_parse_ok;	/* "ok" */
vd_eval_fn vd_eval_discard;
/* A phase record's files/s, seconds, p99 latency in microseconds. */
double vd_files_per_s(const struct rep_phase *p);
double vd_seconds(const struct rep_phase *p);
double vd_p99_us(const struct rep_phase *p);
/* Did run r read the kernel's log? */
int vd_kmsg_watched(const struct rep_run *r);
/* Has run r the disk's error counters before and after (NVMe or ATA)? */
int vd_health_counters(const struct rep_run *r);
/* Is round taken by rounds? */
int vd_round_taken(enum vd_rounds rounds, unsigned round);
/* The seconds of fs x phase in the rounds taken (the later record of a
 * round wins) into v; returns how many. */
size_t vd_round_seconds(const struct rep_run *r, const char *fs, const char *phase,
			enum vd_rounds rounds, double *v, size_t max);
/* Which rounds a summary row (summary.h) takes. */
enum vd_rounds vd_row_rounds(int row);
/* A number with up to 4 significant digits, no trailing zeros. */
void vd_num(char *buf, size_t len, double v);
/* A new check of rule u in res (NULL: out of memory); a check the run
 * holds no data for (judge.c). */
struct vd_check *vd_new_check(struct vd_result *res, const struct vd_rule *u);
void vd_not_measured(struct vd_check *k, const char *why);
/* judge_sustain.c: sustain_level, per sustained write. */
vd_eval_fn vd_eval_sustain;
vd_parse_fn vd_parse_pct;	/* 1 to 100 */
/* judge_fileserver.c: per fileserver record, ops/s and the append's p99 */
vd_eval_fn vd_eval_fsv_ops, vd_eval_fsv_append;

/* derive.c: criteria from runs */
vd_derive_fn vd_derive_fs_ok, vd_derive_verify, vd_derive_kmsg, vd_derive_health,
	vd_derive_baseline, vd_derive_pc_none, vd_derive_pc_fsck, vd_derive_pc_cycles;
vd_derive_fn vd_derive_zero;	/* errors = 0 */
vd_derive_fn vd_derive_floors;	/* min_files_per_s */
vd_derive_fn vd_derive_capacity;	/* honest */

/* derive.c: a derive hook's KEY = val line (or baseline rule), 0 or
 * -ENOMEM; why the run gives key k nothing, as a comment of the file. */
int vd_put_line(struct vd_from *d, const struct vd_key *k, const char *val);
void vd_lack_line(struct vd_from *d, const struct vd_key *k, const char *why);

/* inventory.c: what the target is and how it came up (the health
 * records' bus facts, run_start's model), and its flash's wear */
vd_parse_fn vd_parse_pre_eol;	/* normal|warning|urgent */
vd_parse_fn vd_parse_life;	/* a percentage */
vd_parse_fn vd_parse_pattern;	/* a glob */
vd_parse_fn vd_parse_bus;	/* BUS[|BUS...] */
vd_parse_fn vd_parse_usb_speed;	/* Mb/s */
vd_parse_fn vd_parse_sata_link;	/* Gb/s */
vd_parse_fn vd_parse_timing;	/* a timing's name */
vd_eval_fn vd_eval_pre_eol, vd_eval_life, vd_eval_model, vd_eval_bus, vd_eval_usb_speed,
	vd_eval_timing, vd_eval_sata_link;
/* target_bus, usb_speed, mmc_timing, sata_link and flash_pre_eol as the
 * run measured them; nothing for what it did not measure */
vd_derive_fn vd_derive_bus, vd_derive_usb_speed, vd_derive_sata_link, vd_derive_timing,
	vd_derive_pre_eol;

/* outcome.c: vd_result_done (criteria.h) */

#endif

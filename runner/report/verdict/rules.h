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

struct vd_key {
	const char *name;
	int phase;		/* takes .[FS.]PHASE[.ROUNDS] */
	const char *value;	/* what the value is, for messages and the docs;
				 * NULL: not a key of a criteria file */
	const char *help;
	/* The value into rule u (u NULL for a key that makes no rule).
	 * Returns 0, 1 for a bad value, or -1 with a->err set. */
	int (*parse)(const struct vd_arg *a, struct vd_rule *u);
	/* Rule u against run r: its checks appended to res. Returns 0 or
	 * -ENOMEM. NULL: the key makes no rule. */
	int (*eval)(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
	/* From a known-good run d->r: each value the key takes, through
	 * vd_put, or vd_lack and why the run has none. Called in the order
	 * of rank[VD_TO_FILE] for a criteria file, of rank[VD_TO_BASELINE]
	 * for a baseline's rules; rank 0: not derived there. Returns 0, or
	 * -ENOMEM. */
	int (*derive)(struct vd_from *d, const struct vd_key *k);
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
int vd_parse_phase(const struct vd_arg *a, struct vd_rule *u);	/* a number > 0 */
int vd_parse_all(const struct vd_arg *a, struct vd_rule *u);	/* "all" */
int vd_parse_clean(const struct vd_arg *a, struct vd_rule *u);	/* "clean" */
int vd_parse_count(const struct vd_arg *a, struct vd_rule *u);	/* an integer >= 0 */
int vd_parse_positive(const struct vd_arg *a, struct vd_rule *u);	/* a number > 0 */
int vd_parse_link(const struct vd_arg *a, struct vd_rule *u);	/* max | SPEED xWIDTH */
int vd_parse_fs_list(const struct vd_arg *a, struct vd_rule *u);	/* FS,FS,... */
int vd_parse_ignore(const struct vd_arg *a, struct vd_rule *u);	/* patterns */
int vd_parse_honest(const struct vd_arg *a, struct vd_rule *u);	/* "honest" */
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
int vd_eval_phase(struct vd_result *res, const struct vd_criteria *c,
		  const struct vd_rule *u, const struct rep_run *r);
int vd_eval_verify(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r);
int vd_eval_errors(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r);
int vd_eval_kmsg(struct vd_result *res, const struct vd_criteria *c,
		 const struct vd_rule *u, const struct rep_run *r);
int vd_eval_health(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r);
int vd_eval_temperature(struct vd_result *res, const struct vd_criteria *c,
			const struct vd_rule *u, const struct rep_run *r);
int vd_eval_pcie(struct vd_result *res, const struct vd_criteria *c,
		 const struct vd_rule *u, const struct rep_run *r);
int vd_eval_fs_ok(struct vd_result *res, const struct vd_criteria *c,
		  const struct vd_rule *u, const struct rep_run *r);
int vd_eval_capacity(struct vd_result *res, const struct vd_criteria *c,
		     const struct vd_rule *u, const struct rep_run *r);
int vd_eval_baseline(struct vd_result *res, const struct vd_criteria *c,
		     const struct vd_rule *u, const struct rep_run *r);
/* the power-cut campaign's keys: one check per filesystem of the run */
int vd_eval_pc_lost(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
int vd_eval_pc_torn(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
int vd_eval_pc_fsck(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
int vd_eval_pc_cycles(struct vd_result *res, const struct vd_criteria *c,
		      const struct vd_rule *u, const struct rep_run *r);
/* zeroes.c: discard_zeroes = ok */
int vd_parse_ok(const struct vd_arg *a, struct vd_rule *u);	/* "ok" */
int vd_eval_discard(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
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
int vd_eval_sustain(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
int vd_parse_pct(const struct vd_arg *a, struct vd_rule *u);	/* 1 to 100 */
/* judge_fileserver.c: per fileserver record, ops/s and the append's p99 */
int vd_eval_fsv_ops(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
int vd_eval_fsv_append(struct vd_result *res, const struct vd_criteria *c,
		       const struct vd_rule *u, const struct rep_run *r);

/* derive.c: criteria from runs */
int vd_derive_fs_ok(struct vd_from *d, const struct vd_key *k);
int vd_derive_verify(struct vd_from *d, const struct vd_key *k);
int vd_derive_zero(struct vd_from *d, const struct vd_key *k);	/* errors = 0 */
int vd_derive_kmsg(struct vd_from *d, const struct vd_key *k);
int vd_derive_pc_none(struct vd_from *d, const struct vd_key *k);
int vd_derive_pc_fsck(struct vd_from *d, const struct vd_key *k);
int vd_derive_pc_cycles(struct vd_from *d, const struct vd_key *k);
int vd_derive_health(struct vd_from *d, const struct vd_key *k);
int vd_derive_floors(struct vd_from *d, const struct vd_key *k);	/* min_files_per_s */
int vd_derive_baseline(struct vd_from *d, const struct vd_key *k);
int vd_derive_capacity(struct vd_from *d, const struct vd_key *k);	/* honest */

/* derive.c: a derive hook's KEY = val line (or baseline rule), 0 or
 * -ENOMEM; why the run gives key k nothing, as a comment of the file. */
int vd_put_line(struct vd_from *d, const struct vd_key *k, const char *val);
void vd_lack_line(struct vd_from *d, const struct vd_key *k, const char *why);

/* inventory.c: what the target is and how it came up (the health
 * records' bus facts, run_start's model), and its flash's wear */
int vd_parse_pre_eol(const struct vd_arg *a, struct vd_rule *u);	/* normal|warning|urgent */
int vd_parse_life(const struct vd_arg *a, struct vd_rule *u);	/* a percentage */
int vd_parse_pattern(const struct vd_arg *a, struct vd_rule *u);	/* a glob */
int vd_parse_bus(const struct vd_arg *a, struct vd_rule *u);	/* BUS[|BUS...] */
int vd_parse_usb_speed(const struct vd_arg *a, struct vd_rule *u);	/* Mb/s */
int vd_parse_sata_link(const struct vd_arg *a, struct vd_rule *u);	/* Gb/s */
int vd_parse_timing(const struct vd_arg *a, struct vd_rule *u);	/* a timing's name */
int vd_eval_pre_eol(struct vd_result *res, const struct vd_criteria *c,
		    const struct vd_rule *u, const struct rep_run *r);
int vd_eval_life(struct vd_result *res, const struct vd_criteria *c,
		 const struct vd_rule *u, const struct rep_run *r);
int vd_eval_model(struct vd_result *res, const struct vd_criteria *c,
		  const struct vd_rule *u, const struct rep_run *r);
int vd_eval_bus(struct vd_result *res, const struct vd_criteria *c,
		const struct vd_rule *u, const struct rep_run *r);
int vd_eval_usb_speed(struct vd_result *res, const struct vd_criteria *c,
		      const struct vd_rule *u, const struct rep_run *r);
int vd_eval_timing(struct vd_result *res, const struct vd_criteria *c,
		   const struct vd_rule *u, const struct rep_run *r);
int vd_eval_sata_link(struct vd_result *res, const struct vd_criteria *c,
		      const struct vd_rule *u, const struct rep_run *r);
/* target_bus, usb_speed, mmc_timing, sata_link and flash_pre_eol as the
 * run measured them; nothing for what it did not measure */
int vd_derive_bus(struct vd_from *d, const struct vd_key *k);
int vd_derive_usb_speed(struct vd_from *d, const struct vd_key *k);
int vd_derive_sata_link(struct vd_from *d, const struct vd_key *k);
int vd_derive_timing(struct vd_from *d, const struct vd_key *k);
int vd_derive_pre_eol(struct vd_from *d, const struct vd_key *k);

/* outcome.c: vd_result_done (criteria.h) */

#endif

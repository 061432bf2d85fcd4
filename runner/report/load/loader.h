/* loader.h: inside the report library: the state of one load of records
 * into the run model, the helpers the loaders share (loader.c), and the
 * loader of each kind of record, one file each beside load.c (the lines,
 * the runs and the timings), whose hooks[] calls them. Not for use outside
 * runner/report/. */
#ifndef FSB_REPORT_LOADER_H
#define FSB_REPORT_LOADER_H

#include <stddef.h>

#include "lib/jsonr.h"
#include "log/schema.h"
#include "report/model.h"

struct loader {
	struct rep_set *set;
	const char *name;
	size_t line;
	char *err;
	size_t errlen;
	struct rep_run *last;	/* run of the previous record (fast path) */
};

/* A record type's loader (load.c's hooks[], by log/schema.h's type id). */
typedef int (*ld_hook)(struct loader *L, struct rep_run *r, const struct jsonr *rec);

/* "NAME:LINE: message" into the loader's error; returns -EBADMSG. */
int ld_bad(struct loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "NAME:LINE: out of memory"; returns -ENOMEM. */
int ld_oom(struct loader *L);
/* Grow *arr (of elem-sized items) so that one more fits. 0 or -ENOMEM. */
int ld_grow(void **arr, size_t *cap, size_t n, size_t elem);
/* The members an item of the model owns (malloc'ed pointers), by their
 * offsets: LD_OWNED(table) gives the table and its length. */
#define LD_OWNED(offs) (offs), sizeof(offs) / sizeof((offs)[0])
/* Free the owned members of each of the n items (of size bytes) at items. */
void ld_free_members(void *items, size_t n, size_t size, const size_t *offs, size_t noffs);
/* The same, then the array itself. */
void ld_free_array(void *items, size_t n, size_t size, const size_t *offs, size_t noffs);
/* A copy of each of the n vals (NULL: none) into the owned member offs[i]
 * of item; 0, or -ENOMEM with the copies made freed. */
int ld_copy_strs(void *item, const size_t *offs, const char *const *vals, size_t n);
/* What a phase row owns (load.c): its phase, order and trim. */
extern const size_t ld_phase_owned[3];
/* Replace *slot with the text of v (when v is a scalar). -ENOMEM or 0. */
int ld_set_text(char **slot, const struct jsonr *v);
/* ld_set_text of obj's members: pairs of a key and its slot (char **),
 * ended by NULL. -ENOMEM or 0. */
int ld_set_texts(const struct jsonr *obj, ...);
/* The string key of a record of this type; NULL and *rc set (the error
 * said) when it is missing. */
const char *ld_need_str(struct loader *L, const struct jsonr *rec,
			const char *type, const char *key, int *rc);
/* The string keys of a record of this type, pairs of a key and where its
 * value goes (const char **), ended by NULL: 0, or the first missing one's
 * error said (as ld_need_str's). */
int ld_need_strs(struct loader *L, const struct jsonr *rec, const char *type, ...);
/* The record's round: a whole number >= 1; 0 or the error. */
int ld_need_round(struct loader *L, const struct jsonr *rec, const char *type,
		  unsigned *round);

/* load_evidence.c */
void ld_health_free(struct rep_health *h);
/* A kmsg record (dropped 0) or a kmsg_dropped record (dropped 1). */
int ld_load_kmsg(struct loader *L, struct rep_run *r, const struct jsonr *rec, int dropped);
int ld_load_health(struct loader *L, struct rep_run *r, const struct jsonr *rec);
/* The bus parts of a health record in one line (load_bus.c), malloc'ed;
 * NULL without a `bus` member. */
char *ld_bus_summary(const struct jsonr *rec);

/* load_settings.c: run_start's config, every setting with a scalar value
 * in its order (rep_run.cfg), in place of an earlier run_start's. 0 or
 * -ENOMEM. */
int ld_load_settings(struct rep_run *r, const struct jsonr *cfg);
void ld_settings_free(struct rep_run *r);

/* load_fio.c: the fio and fill records (run/stores/fio.h, run/stores/fill.h). */
int ld_load_fio(struct loader *L, struct rep_run *r, const struct jsonr *rec);
int ld_load_fill(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_fio_free(struct rep_run *r);
/* load_freespace.c: a `freespace` record (a later one of the same fs and
 * round in its place); freeing them. */
int ld_load_freespace(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_freespace_free(struct rep_run *r);
/* load_space.c: a `space` record; freeing them. */
int ld_load_space(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_space_free(struct rep_run *r);
/* load_powercut.c: a `powercut` record; freeing them. */
int ld_load_powercut(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_powercut_free(struct rep_run *r);
/* load_capacity.c: the `capacity` record; freeing it. */
int ld_load_capacity(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_capacity_free(struct rep_run *r);
/* load_sustain.c: a `sustain` record, a `sustain_series` record (to the
 * last `sustain` record of its fs and workload); freeing them. */
int ld_load_sustain(struct loader *L, struct rep_run *r, const struct jsonr *rec);
int ld_load_sustain_series(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_sustain_free(struct rep_run *r);
/* load_fileserver.c: a `fileserver` record; freeing them. */
int ld_load_fileserver(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_fileserver_free(struct rep_run *r);
/* load_inventory.c: a health record's bus and flash facts into inv;
 * freeing them. */
int ld_load_inventory(struct loader *L, struct rep_inventory *inv, const struct jsonr *rec);
void ld_inventory_free(struct rep_inventory *inv);

/* load_reps.c: a `repeat` record; the phase rows of a run with repetitions
 * folded into their medians (once the input is read); freeing both. */
int ld_load_repeat(struct loader *L, struct rep_run *r, const struct jsonr *rec);
int ld_fold_reps(struct rep_run *r);
void ld_reps_free(struct rep_run *r);

/* load_discard.c: the `discard_check` record; freeing it. */
int ld_load_discard(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_discard_free(struct rep_run *r);

/* load_control.c: a `control` record, its samples pooled with the run's
 * earlier ones; freeing them. */
int ld_load_control(struct loader *L, struct rep_run *r, const struct jsonr *rec);
void ld_control_free(struct rep_run *r);

#endif

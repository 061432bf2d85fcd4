/* files.h: the work of the phases on files, one file per file (files.c),
 * on one directory of a worker: the op of their rows in fsb_phases[]
 * (phase.c). Each returns 1 when the worker must stop. */
#ifndef FSB_FILES_H
#define FSB_FILES_H

struct fsb_wctx;
struct fsb_wdir;

/* create: makes the directory and its files (in the create_order setting),
 * each written with its content (run/core/pattern.h) */
int fsb_files_create(struct fsb_wctx *w, const struct fsb_wdir *d);
/* stat: every file of the listing, its size checked when verify is on */
int fsb_files_stat(struct fsb_wctx *w, const struct fsb_wdir *d);
/* read, read_inode, read_after_rewrite: every file of the listing read
 * whole, its bytes checked when verify is on */
int fsb_files_read(struct fsb_wctx *w, const struct fsb_wdir *d);
/* delete: every file of the listing, then the directory */
int fsb_files_delete(struct fsb_wctx *w, const struct fsb_wdir *d);
/* rewrite: the files copied into a new directory that takes the old one's
 * place; the old one removed */
int fsb_files_rewrite(struct fsb_wctx *w, const struct fsb_wdir *d);

#endif

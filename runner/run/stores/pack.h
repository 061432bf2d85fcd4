/* pack.h: packing (the `pack` setting): the files of the create phase,
 * with the same content and their names as keys ("d0003/f0000042"), stored
 * in one SQLite database and in one pack file (run/stores/packfile.h) on the
 * filesystem under test; each store written, read back cold by name and
 * deleted by its own phases (fsb_phases[]), and the bytes each store takes
 * on disk in a `space` record (runner/FORMATS.md). */
#ifndef FSB_PACK_H
#define FSB_PACK_H

#include <stddef.h>
#include <stdint.h>

struct fsb_wctx;
struct fsb_wdir;
struct fsb_config;
struct fsb_ctx;
struct fsb_phase_def;
struct fsb_phase_result;

#define FSB_SQLITE_FILE "fsbench.sqlite"
#define FSB_PACK_FILE "fsbench.pack"

/* The packing phases run when pack = 1, every round. */
int fsb_pack_wanted(const struct fsb_config *cfg, uint32_t round);

/* The work of the phases on one directory (a worker's batch). SQLite
 * (packdb.c): one transaction per directory, table files(path TEXT PRIMARY
 * KEY, data BLOB); the pack file (pack.c): the directory's region. */
int fsb_sqlite_write(struct fsb_wctx *w, const struct fsb_wdir *d);
int fsb_sqlite_read(struct fsb_wctx *w, const struct fsb_wdir *d);
int fsb_sqlite_delete(struct fsb_wctx *w, const struct fsb_wdir *d);
int fsb_pack_write(struct fsb_wctx *w, const struct fsb_wdir *d);
int fsb_pack_read(struct fsb_wctx *w, const struct fsb_wdir *d);
int fsb_pack_delete(struct fsb_wctx *w, const struct fsb_wdir *d);

/* Where a phase's files are: one file per file ("files"), or a store. */
struct fsb_store {
	const char *name;	/* "files", "sqlite", "pack": the records' "store" */
	const char *file;	/* the store's file in the filesystem's root; NULL: files */
	/* The fault self-test: flip one bit of byte off of the file stored
	 * under key, in the store under root. 0, or -errno with why. */
	int (*fault)(const char *root, const char *key, uint64_t off, char *why, size_t len);
};

/* The store of a phase (sqlite_*, pack_*); NULL for the per-file phases. */
const struct fsb_store *fsb_store_of(const struct fsb_phase_def *ph);

/* packdb.c: the fault self-test on the SQLite database. */
int fsb_sqlite_fault(const char *root, const char *key, uint64_t off, char *why, size_t len);

/* What a phase with FSB_PH_SPACE leaves on disk: the filesystem's used
 * space (statvfs) before the phase and, once it has settled, after it, and
 * the store file's blocks. "Settled": measured when the next phase starts,
 * after its fresh mount (XFS trims a file's speculative preallocation by
 * then), or after the round's last phase. */
struct fsb_space {
	int on;
	const struct fsb_store *store;
	const struct fsb_phase_def *ph;
	uint32_t round;
	uint64_t files, bytes;		/* what the phase stored */
	int have_before;
	uint64_t used_before;
};

/* Before the phase (nothing unless the phase has FSB_PH_SPACE and the
 * run packs: the space records come with the `pack` setting). */
void fsb_space_start(struct fsb_space *sp, const struct fsb_config *cfg,
		     const struct fsb_phase_def *ph, uint32_t round, int root_fd);
/* After the phase and its sync: what it stored. */
void fsb_space_done(struct fsb_space *sp, const struct fsb_phase_result *res, uint64_t file_size);
/* Measure now and emit the `space` record (nothing unless a phase with
 * FSB_PH_SPACE is pending); root_fd -1: the measure is lost, no record. */
void fsb_space_flush(struct fsb_ctx *c, struct fsb_space *sp, const char *fs, int root_fd);

#endif

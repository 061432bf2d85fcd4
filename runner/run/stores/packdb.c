/* packdb.c: the SQLite phases (pack.h): one database file in the
 * filesystem's root, table files(path TEXT PRIMARY KEY, data BLOB), one
 * transaction per worker's batch (a directory).
 *
 * Every worker process opens the database itself; SQLite's file locks let
 * one writer at a time, and a worker that finds the database locked waits
 * in SQLite's busy handler (sqlite3_busy_timeout: it sleeps and retries,
 * 1 ms growing to 100 ms between tries), so the write and delete phases'
 * batches run one after the other, and their seconds hold these waits.
 * Readers share the database. Rollback journal (the default); synchronous
 * = OFF, as the per-file phases: the phase's timed syncfs makes it durable.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lib/time.h"
#include "run/core/cfg.h"
#include "run/stores/pack.h"
#include "run/stores/packfile.h"
#include "run/core/worker.h"

/* An errno for a SQLite result: the system's when an I/O call failed. */
static int db_errno(sqlite3 *db, int rc)
{
	int e = db ? sqlite3_system_errno(db) : 0;

	if (e && (rc & 0xff) != SQLITE_CONSTRAINT)
		return e;
	switch (rc & 0xff) {
	case SQLITE_FULL: return ENOSPC;
	case SQLITE_NOMEM: return ENOMEM;
	case SQLITE_READONLY: return EROFS;
	case SQLITE_BUSY: case SQLITE_LOCKED: return EBUSY;
	case SQLITE_CANTOPEN: return ENOENT;
	case SQLITE_CONSTRAINT: return EEXIST;
	case SQLITE_CORRUPT: case SQLITE_NOTADB: return EBADMSG;
	case SQLITE_PERM: case SQLITE_AUTH: return EACCES;
	default: return EIO;
	}
}

/* Open the database in the filesystem's root (the worker changes into it:
 * SQLite opens by path) and set the connection up. */
static int db_open(struct fsb_wctx *w, const struct fsb_wdir *d, int flags, sqlite3 **db)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	int rc;

	*db = NULL;
	if (fchdir(d->base_fd) < 0)
		return fsb_w_error(w, "chdir", d->dir, UINT32_MAX, errno, 0, 0, 0);
	rc = sqlite3_open_v2(FSB_SQLITE_FILE, db, flags, NULL);
	if (rc == SQLITE_OK) {
		/* wait for the lock as long as the phase may take */
		sqlite3_busy_timeout(*db, a->timeout && a->timeout < INT_MAX / 1000 ?
				     (int)a->timeout * 1000 : INT_MAX);
		rc = sqlite3_exec(*db, "PRAGMA synchronous = OFF", NULL, NULL, NULL);
	}
	if (rc != SQLITE_OK) {
		int e = db_errno(*db, rc);
		sqlite3_close(*db);
		*db = NULL;
		return fsb_w_error(w, "db_open", d->dir, UINT32_MAX, e, 0, 0, 0);
	}
	return 0;
}

/* Run sql; on failure record op's error and return 1 when the worker must
 * stop, -1 otherwise; 0 when it worked. */
static int db_exec(struct fsb_wctx *w, const struct fsb_wdir *d, sqlite3 *db, const char *sql,
		   const char *op)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	return fsb_w_error(w, op, d->dir, UINT32_MAX, db_errno(db, rc), 0, 0, 0) ? 1 : -1;
}

static int db_prepare(struct fsb_wctx *w, const struct fsb_wdir *d, sqlite3 *db,
		      const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);

	if (rc == SQLITE_OK)
		return 0;
	return fsb_w_error(w, "db_prepare", d->dir, UINT32_MAX, db_errno(db, rc), 0, 0, 0) ? 1 : -1;
}

static int db_close(struct fsb_wctx *w, const struct fsb_wdir *d, sqlite3 *db, int stop)
{
	int rc = sqlite3_close(db);

	if (rc != SQLITE_OK)
		stop |= fsb_w_error(w, "db_close", d->dir, UINT32_MAX, db_errno(db, rc), 0, 0, 0);
	return stop;
}

int fsb_sqlite_write(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	sqlite3_stmt *ins = NULL;
	sqlite3 *db;
	char key[FSB_PACK_KEY];
	unsigned char *data;
	int stop = 0, rc;

	/* a bound blob is one piece: the whole file's content */
	if (a->file_size > INT_MAX || !(data = malloc((size_t)a->file_size)))
		return fsb_w_error(w, "alloc", d->dir, UINT32_MAX, ENOMEM, 0, 0, 0);
	if ((stop = db_open(w, d, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &db))) {
		free(data);
		return stop;
	}
	if ((rc = db_exec(w, d, db, "BEGIN IMMEDIATE", "db_begin")) ||
	    (rc = db_exec(w, d, db, "CREATE TABLE IF NOT EXISTS files"
			  "(path TEXT PRIMARY KEY, data BLOB)", "db_create")) ||
	    (rc = db_prepare(w, d, db, "INSERT INTO files(path, data) VALUES(?1, ?2)", &ins))) {
		free(data);
		return db_close(w, d, db, rc > 0);
	}
	uint64_t t0 = fsb_now_ns();
	for (uint32_t i = 0; i < a->files; i++) {
		uint64_t t1;

		fsb_pack_key(d->dir, i, key);
		fsb_pattern_fill(a->pat, data, (size_t)a->file_size, fsb_pattern_seed(d->dir, i, a->round), 0);
		sqlite3_bind_text(ins, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_blob(ins, 2, data, (int)a->file_size, SQLITE_STATIC);
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
		t1 = fsb_now_ns();
		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		if (rc != SQLITE_DONE) {
			if (fsb_w_error(w, "db_insert", d->dir, i, db_errno(db, rc), 0, 0, 0)) {
				stop = 1;
				break;
			}
			continue;
		}
		ws->bytes += a->file_size;
		ws->done++;
	}
	sqlite3_finalize(ins);
	if (!stop)
		stop = db_exec(w, d, db, "COMMIT", "db_commit") > 0;
	free(data);
	return db_close(w, d, db, stop);
}

int fsb_sqlite_read(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	sqlite3_stmt *sel = NULL;
	sqlite3 *db;
	char key[FSB_PACK_KEY];
	int stop, rc;

	if ((stop = db_open(w, d, SQLITE_OPEN_READONLY, &db)))
		return stop;
	if ((rc = db_exec(w, d, db, "BEGIN", "db_begin")) ||
	    (rc = db_prepare(w, d, db, "SELECT data FROM files WHERE path = ?1", &sel)))
		return db_close(w, d, db, rc > 0);
	for (uint32_t i = 0; i < a->files && !stop; i++) {
		uint64_t seed = fsb_pattern_seed(d->dir, i, a->round), t0 = fsb_now_ns(), bad = 0, first = 0;

		fsb_pack_key(d->dir, i, key);
		sqlite3_bind_text(sel, 1, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(sel);
		if (rc != SQLITE_ROW) {
			int e = rc == SQLITE_DONE ? ENOENT : db_errno(db, rc);
			sqlite3_reset(sel);
			fsb_hist_add(&ws->hist, fsb_now_ns() - t0);
			stop = fsb_w_error(w, "db_select", d->dir, i, e, 0, 0, 0);
			continue;
		}
		const unsigned char *blob = sqlite3_column_blob(sel, 0);
		uint64_t n = (uint64_t)sqlite3_column_bytes(sel, 0);
		/* verification is outside the operation's latency */
		fsb_hist_add(&ws->hist, fsb_now_ns() - t0);
		if (a->verify) {
			uint64_t chk = n < a->file_size ? n : a->file_size;
			if (chk)
				bad = fsb_pattern_check(a->pat, blob, (size_t)chk, seed, 0, &first);
			if (n != a->file_size) {
				if (!bad)
					first = chk;
				bad += n > a->file_size ? n - a->file_size : a->file_size - n;
			}
		}
		sqlite3_reset(sel);
		ws->bytes += n;
		if (bad)
			stop = fsb_w_error(w, "verify", d->dir, i, 0, 1, first, bad);
		ws->done++;
	}
	sqlite3_finalize(sel);
	if (db_exec(w, d, db, "COMMIT", "db_commit") > 0)
		stop = 1;
	return db_close(w, d, db, stop);
}

/* Each row by its key, one transaction per batch; the batch that leaves
 * the table empty removes the database file. */
int fsb_sqlite_delete(struct fsb_wctx *w, const struct fsb_wdir *d)
{
	const struct fsb_phase_args *a = fsb_w_args(w);
	struct fsb_wstate *ws = fsb_w_state(w);
	sqlite3_stmt *del = NULL, *left = NULL;
	sqlite3 *db;
	char key[FSB_PACK_KEY];
	int stop, rc, empty = 0;

	if ((stop = db_open(w, d, SQLITE_OPEN_READWRITE, &db)))
		return stop;
	if ((rc = db_exec(w, d, db, "BEGIN IMMEDIATE", "db_begin")) ||
	    (rc = db_prepare(w, d, db, "DELETE FROM files WHERE path = ?1", &del)))
		return db_close(w, d, db, rc > 0);
	uint64_t t0 = fsb_now_ns();
	for (uint32_t i = 0; i < a->files && !stop; i++) {
		uint64_t t1;

		fsb_pack_key(d->dir, i, key);
		sqlite3_bind_text(del, 1, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(del);
		sqlite3_reset(del);
		t1 = fsb_now_ns();
		fsb_hist_add(&ws->hist, t1 - t0);
		t0 = t1;
		if (rc != SQLITE_DONE || sqlite3_changes(db) != 1) {
			stop = fsb_w_error(w, "db_delete", d->dir, i,
					   rc != SQLITE_DONE ? db_errno(db, rc) : ENOENT, 0, 0, 0);
			continue;
		}
		ws->done++;
	}
	sqlite3_finalize(del);
	if (!stop && (rc = db_prepare(w, d, db, "SELECT EXISTS (SELECT 1 FROM files)", &left)) == 0) {
		rc = sqlite3_step(left);
		if (rc == SQLITE_ROW)
			empty = sqlite3_column_int(left, 0) == 0;
		else
			stop = fsb_w_error(w, "db_select", d->dir, UINT32_MAX, db_errno(db, rc), 0, 0, 0);
		sqlite3_finalize(left);
	} else if (rc > 0) {
		stop = 1;
	}
	if (!stop)
		stop = db_exec(w, d, db, "COMMIT", "db_commit") > 0;
	stop = db_close(w, d, db, stop);
	if (!stop && empty && unlinkat(d->base_fd, FSB_SQLITE_FILE, 0) < 0)
		stop = fsb_w_error(w, "unlink", d->dir, UINT32_MAX, errno, 0, 0, 0);
	return stop;
}

int fsb_sqlite_fault(const char *root, const char *key, uint64_t off, char *why, size_t len)
{
	char path[FSB_PATH_MAX + 32];
	sqlite3_stmt *st = NULL;
	sqlite3_blob *blob = NULL;
	sqlite3 *db = NULL;
	unsigned char b;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", root, FSB_SQLITE_FILE);
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "SELECT rowid FROM files WHERE path = ?1", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			rc = sqlite3_blob_open(db, "main", "files", "data", sqlite3_column_int64(st, 0),
					       1, &blob);
		else if (rc == SQLITE_DONE)
			rc = SQLITE_NOTFOUND;
	}
	if (rc == SQLITE_OK && off >= (uint64_t)sqlite3_blob_bytes(blob))
		rc = SQLITE_RANGE;
	if (rc == SQLITE_OK && (rc = sqlite3_blob_read(blob, &b, 1, (int)off)) == SQLITE_OK) {
		b ^= 0x01;
		rc = sqlite3_blob_write(blob, &b, 1, (int)off);
	}
	if (rc != SQLITE_OK)
		snprintf(why, len, "%s: %s", path, rc == SQLITE_NOTFOUND ? "no such key" :
			 rc == SQLITE_RANGE ? "offset past the end" :
			 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	sqlite3_blob_close(blob);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : rc == SQLITE_NOTFOUND ? -ENOENT : rc == SQLITE_RANGE ? -EINVAL : -EIO;
}

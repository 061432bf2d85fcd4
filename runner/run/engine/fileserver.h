/* fileserver.h: the file-server workload (setting `fileserver`,
 * runner/FILESERVER.md): filebench's `fileserver` personality,
 * written here. A fileset of `fileserver_files` files in a tree of
 * directories `fileserver_dirwidth` wide, each file's size drawn from a
 * gamma distribution (shape 1.5, filebench's) of mean `fileserver_size`;
 * 80 % of them made before the clock starts (filebench's prealloc). Then
 * `fileserver_workers` worker processes, each owning every W-th file of
 * the set, loop for `fileserver_seconds`: create and write a whole file,
 * open and append a random amount, open and read a whole file (every byte
 * checked against run/core/pattern.h), delete a file, stat a file. One
 * `fileserver` record per run: counts, throughput and latency percentiles
 * per operation.
 *
 * With `fileserver_aged`, the same filesystem runs it twice: fresh, then
 * after the fill's aging (run/stores/fill.h, fsb_fill_age): the control
 * experiment of fresh against fragmented. */
#ifndef FSB_FILESERVER_H
#define FSB_FILESERVER_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/context.h"
#include "run/engine/fileset.h"
#include "run/stores/fio.h"

#define FSB_FSV_DIR "fileserver"	/* the fileset's folder on the mount */

/* The operations, in the order of one loop. */
enum fsb_fsv_op { FSB_FSV_CREATE, FSB_FSV_APPEND, FSB_FSV_READ, FSB_FSV_DELETE, FSB_FSV_STAT,
		  FSB_FSV_NOPS };
extern const char *const fsb_fsv_op_name[FSB_FSV_NOPS];

/* The workload on one filesystem (setting `fileserver`): on a fresh one,
 * and with `fileserver_aged` again after the aging; a `fileserver` record
 * each, and a LAVA line each. 0, or -1 with the first failure in why
 * (recorded). */
int fsb_fileserver_fs(struct fsb_ctx *c, struct fsb_fresh *fr, char *why, size_t len);

#endif

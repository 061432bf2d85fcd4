/* zerocheck.c: the discard_check record (zerocheck.h). */
#include <stdio.h>
#include <string.h>

#include "run/core/context.h"
#include "run/engine/zerocheck.h"
#include "run/target/discard.h"
#include "run/target/target.h"

void fsb_zero_check(struct fsb_ctx *c, const struct fsb_disk *t)
{
	struct fsb_zero_check k = { 0 };
	struct fsb_discard x;
	struct fsb_rec r;
	char status[FSB_PATH_MAX + 240];
	const char *op = NULL;
	int e = 0, ran = 0;

	fsb_discard_probe(t, &x);
	if (fsb_zoned_strict(&t->zoned))
		snprintf(status, sizeof(status), "not run: %s is a host-managed zoned device: "
			 "a write in the middle of a sequential zone fails", t->path);
	else if (!x.have_dlfeat)
		snprintf(status, sizeof(status), "not run: DLFEAT %s", x.dlfeat_why);
	else if (x.dlfeat.read != FSB_DLFEAT_ZEROES)
		snprintf(status, sizeof(status),
			 "not run: the disk does not promise zeroes after a deallocate (DLFEAT read: %s)",
			 fsb_dlfeat_read_text(x.dlfeat.read));
	else if (x.have_limits && x.granularity == 0)
		snprintf(status, sizeof(status), "not run: the kernel does not discard on %s "
			 "(queue/discard_granularity 0)", t->path);
	else if (fsb_zero_range(t->size, x.have_limits ? x.granularity : 0, &k.offset, &k.length) < 0)
		snprintf(status, sizeof(status), "not run: %s is too small", t->path);
	else {
		ran = 1;
		e = fsb_zero_check_run(t->path, &k, &op);
		if (e < 0)
			snprintf(status, sizeof(status), "failed: %s: %s", op, strerror(-e));
		else
			snprintf(status, sizeof(status), "%s", k.nonzero_bytes ? "not zero" : "ok");
	}
	fsb_rec_start(c, &r, FSB_REC_discard_check);
	rec_str(&r, K(device), t->path);
	rec_str(&r, K(status), status);
	if (ran) {
		rec_u64(&r, K(offset), k.offset);
		rec_u64(&r, K(length), k.length);
		rec_bool(&r, K(written), k.written);
		if (e == 0) {
			rec_u64(&r, K(nonzero_bytes), k.nonzero_bytes);
			if (k.nonzero_bytes)
				rec_u64(&r, K(first_nonzero), k.first_nonzero);
		}
		rec_dbl(&r, K(seconds), k.seconds);
	}
	fsb_emit(c, &r);
	if (ran && (e < 0 || k.nonzero_bytes))
		fsb_say(c->say, "discard check: %s: %s", t->path, status);
}

/* lockstep.c: the workers' turn, file by file (run/core/lockstep.h). */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run/core/lockstep.h"

#define FUTEX_WAIT_ 0	/* shared (not FUTEX_PRIVATE): the workers are processes */
#define FUTEX_WAKE_ 1

struct fsb_lockstep {
	size_t size;		/* of the mapping */
	uint32_t n;
	_Atomic uint32_t owner;	/* the worker whose turn it is */
	_Atomic uint64_t turns;
	struct {
		_Atomic uint32_t seq;	/* bumped when the turn comes to it: its futex */
		_Atomic uint32_t gone;
	} w[];
};

struct fsb_lockstep *fsb_lockstep_new(uint32_t n)
{
	size_t size = sizeof(struct fsb_lockstep) + (size_t)n * sizeof(((struct fsb_lockstep *)0)->w[0]);
	struct fsb_lockstep *ls;

	if (n < 1 || n > 4096) {
		errno = EINVAL;
		return NULL;
	}
	ls = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ls == MAP_FAILED)
		return NULL;
	ls->size = size;	/* the mapping is zeroed: worker 0's turn, nobody gone */
	ls->n = n;
	return ls;
}

void fsb_lockstep_free(struct fsb_lockstep *ls)
{
	if (ls)
		munmap(ls, ls->size);
}

/* The next worker after i that has not left (i itself when all others
 * have). */
static uint32_t next_of(struct fsb_lockstep *ls, uint32_t i)
{
	for (uint32_t k = 1; k <= ls->n; k++) {
		uint32_t j = (i + k) % ls->n;
		if (!atomic_load(&ls->w[j].gone))
			return j;
	}
	return i;
}

/* The turn from `from` (if it still holds it) to the next worker. */
static void pass(struct fsb_lockstep *ls, uint32_t from)
{
	uint32_t expect = from, to = next_of(ls, from);

	if (to != from && atomic_compare_exchange_strong(&ls->owner, &expect, to)) {
		atomic_fetch_add(&ls->w[to].seq, 1);
		syscall(SYS_futex, &ls->w[to].seq, FUTEX_WAKE_, 1, NULL, NULL, 0);
	}
}

void fsb_lockstep_next(struct fsb_lockstep *ls, uint32_t me, int *held)
{
	if (*held)
		pass(ls, me);
	*held = 0;
	for (;;) {
		uint32_t seq = atomic_load(&ls->w[me].seq), o = atomic_load(&ls->owner);
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (o == me)
			break;
		if (atomic_load(&ls->w[o].gone)) {	/* it left holding the turn */
			pass(ls, o);
			continue;
		}
		syscall(SYS_futex, &ls->w[me].seq, FUTEX_WAIT_, seq, &ts, NULL, 0);
	}
	atomic_fetch_add(&ls->turns, 1);
	*held = 1;
}

void fsb_lockstep_leave(struct fsb_lockstep *ls, uint32_t me)
{
	if (me >= ls->n)
		return;
	atomic_store(&ls->w[me].gone, 1);
	pass(ls, me);
}

uint64_t fsb_lockstep_turns(const struct fsb_lockstep *ls)
{
	return atomic_load(&((struct fsb_lockstep *)ls)->turns);
}

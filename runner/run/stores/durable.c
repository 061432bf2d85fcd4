/* durable.c: the durability workload of the power-cut campaign
 * (run/stores/durable.h): its sequence, contents, system calls and the
 * classification of a slot after a cut. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/core/pattern.h"
#include "run/stores/durable.h"

static uint64_t mix64(uint64_t z)
{
	return fsb_splitmix64(&z);
}

/* The op's random words: a pure function of (seed, worker, index, which). */
static uint64_t word(uint64_t seed, uint32_t worker, uint64_t index, unsigned which)
{
	return mix64(mix64(mix64(seed ^ 0x706f776572637574ull) ^ worker) ^ (index * 4 + which));
}

uint64_t fsb_dur_cycle_seed(uint32_t seed, unsigned fs_pos, unsigned cycle)
{
	return mix64(mix64((uint64_t)seed) ^ ((uint64_t)fs_pos << 32 | cycle));
}

int fsb_dur_seq_init(struct fsb_dur_seq *s, uint64_t seed, uint32_t worker, uint32_t nslots)
{
	memset(s, 0, sizeof(*s));
	s->slot = calloc(nslots ? nslots : 1, sizeof(*s->slot));
	if (!s->slot)
		return -ENOMEM;
	s->seed = seed;
	s->worker = worker;
	s->nslots = nslots;
	return 0;
}

void fsb_dur_seq_free(struct fsb_dur_seq *s)
{
	free(s->slot);
	s->slot = NULL;
}

/* 4 KiB to 1 MiB, spread over the powers of two, rarely page aligned. */
static uint32_t new_size(uint64_t r)
{
	uint32_t base = FSB_DUR_MIN_SIZE << (r % 8);	/* 4 KiB .. 512 KiB */
	uint32_t size = base + (uint32_t)((r >> 8) % base);

	return size > FSB_DUR_MAX_NEW ? FSB_DUR_MAX_NEW : size;
}

void fsb_dur_next(struct fsb_dur_seq *s, struct fsb_dur_op *op)
{
	uint64_t i = s->next++;
	uint64_t r0 = word(s->seed, s->worker, i, 0), r1 = word(s->seed, s->worker, i, 1);
	uint64_t r2 = word(s->seed, s->worker, i, 2);
	struct fsb_dur_state *st;

	memset(op, 0, sizeof(*op));
	op->index = i;
	op->slot = (uint32_t)(r0 % s->nslots);
	st = &s->slot[op->slot];
	op->before = *st;
	if (!st->exists) {
		op->kind = FSB_DUR_CREATE;
	} else {
		unsigned k = (unsigned)(r1 % 100);
		op->kind = k < 35 ? FSB_DUR_APPEND : k < 75 ? FSB_DUR_REPLACE : FSB_DUR_DELETE;
	}
	uint32_t grow = 512 + (uint32_t)(r2 % 65536);
	if (op->kind == FSB_DUR_APPEND && st->size + grow > FSB_DUR_MAX_SIZE)
		op->kind = FSB_DUR_REPLACE;
	switch (op->kind) {
	case FSB_DUR_CREATE:
	case FSB_DUR_REPLACE:
		op->after.exists = 1;
		op->after.gen = i + 1;
		op->after.size = new_size(r2);
		break;
	case FSB_DUR_APPEND:
		op->after = *st;
		op->after.size = st->size + grow;
		break;
	case FSB_DUR_DELETE:
		break;
	}
	*st = op->after;
}

const char *fsb_dur_kind_name(enum fsb_dur_kind k)
{
	static const char *const n[] = { "create", "append", "replace", "delete" };

	return (unsigned)k < 4 ? n[k] : "?";
}

const char *fsb_dur_class_name(enum fsb_dur_class c)
{
	static const char *const n[] = { "verified", "in_flight", "lost", "torn" };

	return (unsigned)c < 4 ? n[c] : "?";
}

uint64_t fsb_dur_key(uint64_t seed, uint32_t worker, uint32_t slot, uint64_t gen)
{
	return mix64(mix64(seed ^ ((uint64_t)worker << 40) ^ ((uint64_t)slot << 20)) ^ gen);
}

void fsb_dur_fill(uint64_t key, uint64_t off, unsigned char *buf, size_t len)
{
	size_t o = 0;

	while (o < len) {
		uint64_t at = off + o, w = mix64(key + at / 8);
		unsigned b = (unsigned)(at % 8);
		if (b == 0 && len - o >= 8) {
			for (unsigned k = 0; k < 8; k++)
				buf[o + k] = (unsigned char)(w >> (8 * k));
			o += 8;
			continue;
		}
		buf[o++] = (unsigned char)(w >> (8 * b));
	}
}

void fsb_dur_name(char *buf, uint32_t worker, uint32_t slot, int tmp)
{
	snprintf(buf, FSB_DUR_NAME_MAX, "w%02u/s%03u%s", worker % 100u, slot % 10000u, tmp ? ".new" : "");
}

/* Write bytes [from, to) of generation key at the current offset of fd. */
static int write_gen(int fd, uint64_t key, uint32_t from, uint32_t to, unsigned char *buf)
{
	for (uint32_t o = from; o < to;) {
		size_t n = to - o < FSB_DUR_BUF ? to - o : FSB_DUR_BUF;
		fsb_dur_fill(key, o, buf, n);
		ssize_t w = write(fd, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		o += (uint32_t)w;
	}
	return 0;
}

static int sync_close(int fd, int e)
{
	if (!e && fsync(fd) < 0)
		e = -errno;
	if (close(fd) < 0 && !e)
		e = -errno;
	return e;
}

int fsb_dur_do(int dfd, const struct fsb_dur_seq *s, const struct fsb_dur_op *op,
	       unsigned char *buf)
{
	char name[FSB_DUR_NAME_MAX], tmp[FSB_DUR_NAME_MAX];
	uint64_t key = fsb_dur_key(s->seed, s->worker, op->slot, op->after.gen);
	int fd, e;

	/* the names inside the worker's own directory: past "wNN/" */
	fsb_dur_name(name, s->worker, op->slot, 0);
	fsb_dur_name(tmp, s->worker, op->slot, 1);
	const char *n = strchr(name, '/') + 1, *t = strchr(tmp, '/') + 1;
	switch (op->kind) {
	case FSB_DUR_APPEND:
		fd = openat(dfd, n, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		/* appends keep the generation: the new bytes are its next ones */
		return sync_close(fd, write_gen(fd, key, op->before.size, op->after.size, buf));
	case FSB_DUR_CREATE:
	case FSB_DUR_REPLACE:	/* a replacement is written beside, then renamed over */
		fd = openat(dfd, op->kind == FSB_DUR_REPLACE ? t : n,
			    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return -errno;
		if ((e = sync_close(fd, write_gen(fd, key, 0, op->after.size, buf))) < 0)
			return e;
		if (op->kind == FSB_DUR_REPLACE && renameat(dfd, t, dfd, n) < 0)
			return -errno;
		break;
	case FSB_DUR_DELETE:
		if (unlinkat(dfd, n, 0) < 0)
			return -errno;
		break;
	}
	return fsync(dfd) < 0 ? -errno : 0;
}

int fsb_dur_expect(uint64_t seed, uint32_t worker, uint32_t nslots, uint64_t acked,
		   unsigned flight, struct fsb_dur_expect *exp)
{
	struct fsb_dur_seq s;
	struct fsb_dur_op op;

	if (fsb_dur_seq_init(&s, seed, worker, nslots) < 0)
		return -ENOMEM;
	memset(exp, 0, nslots * sizeof(*exp));
	for (uint32_t i = 0; i < nslots; i++)
		exp[i].last = -1;
	while (s.next < acked) {
		fsb_dur_next(&s, &op);
		exp[op.slot].last = (int)op.kind;
	}
	for (uint32_t i = 0; i < nslots; i++)
		exp[i].acked = s.slot[i];
	for (unsigned k = 0; k < flight && k < FSB_DUR_LEAD; k++) {
		fsb_dur_next(&s, &op);
		struct fsb_dur_expect *e = &exp[op.slot];
		e->flight[e->nflight++] = op;
	}
	fsb_dur_seq_free(&s);
	return 0;
}

/* The file is state st whole. */
static int whole(const struct fsb_dur_state *st, uint64_t seed, uint32_t worker, uint32_t slot,
		 int exists, uint64_t size, fsb_dur_match_fn *match, void *arg)
{
	if (!st->exists)
		return !exists;
	return exists && size == st->size &&
	       match(arg, fsb_dur_key(seed, worker, slot, st->gen), st->size, st->size);
}

/* The file is a state op may leave, had it run in part or whole. */
static int flight_state(const struct fsb_dur_op *op, uint64_t seed, uint32_t worker, int exists,
			uint64_t size, fsb_dur_match_fn *match, void *arg)
{
	uint64_t key = fsb_dur_key(seed, worker, op->slot, op->after.gen);

	switch (op->kind) {
	case FSB_DUR_CREATE:	/* nothing, or a prefix of what it writes */
		return !exists || (size <= op->after.size && match(arg, key, 0, (uint32_t)size));
	case FSB_DUR_APPEND:	/* the old bytes whole, then part of the new */
		return exists && size >= op->before.size && size <= op->after.size &&
		       match(arg, key, op->before.size, (uint32_t)size);
	case FSB_DUR_REPLACE:	/* the old or the new, whole: never a mix */
	case FSB_DUR_DELETE:	/* there whole, or gone */
		return whole(&op->before, seed, worker, op->slot, exists, size, match, arg) ||
		       whole(&op->after, seed, worker, op->slot, exists, size, match, arg);
	}
	return 0;
}

enum fsb_dur_class fsb_dur_classify(const struct fsb_dur_expect *e, uint64_t seed,
				    uint32_t worker, uint32_t slot, int exists, uint64_t size,
				    fsb_dur_match_fn *match, void *arg)
{
	int creates = 0;

	if (whole(&e->acked, seed, worker, slot, exists, size, match, arg))
		return FSB_DUR_VERIFIED;
	for (unsigned k = 0; k < e->nflight; k++) {
		if (flight_state(&e->flight[k], seed, worker, exists, size, match, arg))
			return FSB_DUR_IN_FLIGHT;
		creates += e->flight[k].kind == FSB_DUR_CREATE;
	}
	if (e->acked.exists && (!exists || size < e->acked.size))
		return FSB_DUR_LOST;
	if (!e->acked.exists && exists && !creates)
		return FSB_DUR_LOST;	/* an acknowledged delete undone */
	return FSB_DUR_TORN;
}

int fsb_dur_match_bytes(void *arg, uint64_t key, uint32_t exact, uint32_t size)
{
	struct fsb_dur_bytes *b = arg;

	if (size > b->len)
		return 0;
	for (uint32_t o = 0; o < size;) {
		size_t n = size - o < FSB_DUR_BUF ? size - o : FSB_DUR_BUF;
		fsb_dur_fill(key, o, b->scratch, n);
		if (memcmp(b->data + o, b->scratch, n)) {
			for (size_t k = 0; k < n; k++)
				if (b->data[o + k] != b->scratch[k] && (o + k < exact || b->data[o + k]))
					return 0;
		}
		o += (uint32_t)n;
	}
	return 1;
}

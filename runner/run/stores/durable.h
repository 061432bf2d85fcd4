/* durable.h: the power-cut campaign's durability workload: the operation
 * sequence (a pure function of the seed, the worker and the operation
 * index, applied to the slots' state), the file contents, the operations
 * as system calls, and the classification of what a slot holds after a
 * cut. runner/FORMATS.md ("Power-cut workload") says it in prose. */
#ifndef FSB_DURABLE_H
#define FSB_DURABLE_H

#include <stddef.h>
#include <stdint.h>

#define FSB_DUR_MIN_SIZE 4096u		/* a created or replaced file: 4 KiB ... */
#define FSB_DUR_MAX_NEW (1u << 20)	/* ... to 1 MiB */
#define FSB_DUR_MAX_SIZE (2u << 20)	/* appends grow a file up to 2 MiB */
#define FSB_DUR_LEAD 16			/* ops a worker may run past its last logged one */
#define FSB_DUR_DIR "powercut"		/* the workload's folder on the filesystem */
#define FSB_DUR_NAME_MAX 24		/* "w63/s4095.new" and its NUL */

enum fsb_dur_kind { FSB_DUR_CREATE, FSB_DUR_APPEND, FSB_DUR_REPLACE, FSB_DUR_DELETE };

/* A slot's file: absent, or present with the contents of generation gen
 * (the index + 1 of the create or replace that wrote it) and size bytes. */
struct fsb_dur_state {
	int exists;
	uint64_t gen;
	uint32_t size;
};

struct fsb_dur_op {
	enum fsb_dur_kind kind;
	uint64_t index;		/* the worker's operation number, from 0 */
	uint32_t slot;
	struct fsb_dur_state before, after;
};

/* One worker's sequence and the state of its slots after the ops so far. */
struct fsb_dur_seq {
	uint64_t seed;		/* the cycle's seed */
	uint32_t worker, nslots;
	uint64_t next;		/* the index of the next op */
	struct fsb_dur_state *slot;
};

/* 0 or -ENOMEM; the slots all absent, next 0. */
int fsb_dur_seq_init(struct fsb_dur_seq *s, uint64_t seed, uint32_t worker, uint32_t nslots);
void fsb_dur_seq_free(struct fsb_dur_seq *s);
/* The op at s->next, applied to the slots' state; s->next moves on. */
void fsb_dur_next(struct fsb_dur_seq *s, struct fsb_dur_op *op);
/* The cycle's seed from the campaign's, the filesystem's place in `fs` and
 * the cycle (1-based). */
uint64_t fsb_dur_cycle_seed(uint32_t seed, unsigned fs_pos, unsigned cycle);
const char *fsb_dur_kind_name(enum fsb_dur_kind k);

/* The contents of a generation: bytes [off, off + len) into buf. */
uint64_t fsb_dur_key(uint64_t seed, uint32_t worker, uint32_t slot, uint64_t gen);
void fsb_dur_fill(uint64_t key, uint64_t off, unsigned char *buf, size_t len);
/* "w01/s017" (tmp: "w01/s017.new"), relative to the workload's folder. */
void fsb_dur_name(char *buf, uint32_t worker, uint32_t slot, int tmp);

/* Run op in the worker's directory dfd (its files named "s017"): create
 * (write, fsync, fsync of the directory), append (write, fsync), replace
 * (write "s017.new", fsync, rename, fsync of the directory), delete
 * (unlink, fsync of the directory). buf: FSB_DUR_BUF bytes. 0 or -errno. */
#define FSB_DUR_BUF (256u << 10)
int fsb_dur_do(int dfd, const struct fsb_dur_seq *s, const struct fsb_dur_op *op,
	       unsigned char *buf);

/* What a slot should hold after a cut: its state after the last logged op
 * (acked), and the ops after it that may have been in flight. */
struct fsb_dur_expect {
	struct fsb_dur_state acked;
	int last;		/* the kind of the last acknowledged op on it, -1 for none */
	unsigned nflight;
	struct fsb_dur_op flight[FSB_DUR_LEAD];
};

/* The expectations of every slot of a worker whose ops [0, acked) were
 * logged, with flight ops [acked, acked + flight) possibly run (flight
 * at most FSB_DUR_LEAD). exp: nslots entries. 0 or -ENOMEM. */
int fsb_dur_expect(uint64_t seed, uint32_t worker, uint32_t nslots, uint64_t acked,
		   unsigned flight, struct fsb_dur_expect *exp);

enum fsb_dur_class {
	FSB_DUR_VERIFIED,	/* what the log acknowledged, exactly */
	FSB_DUR_IN_FLIGHT,	/* a state an unacknowledged op may leave, whole or (create,
				 * append) a prefix with zeros where its data had not landed */
	FSB_DUR_LOST,		/* an acknowledged file missing or shorter, or an acknowledged
				 * delete undone */
	FSB_DUR_TORN,		/* there, but neither what was acknowledged nor a state an op
				 * in flight may leave: a mix, garbage */
};
const char *fsb_dur_class_name(enum fsb_dur_class c);

/* The file as found: match(arg, key, exact, size) says whether its bytes
 * [0, size) are generation key's, bytes from exact on allowed to be zero
 * instead (1 yes, 0 no). */
typedef int fsb_dur_match_fn(void *arg, uint64_t key, uint32_t exact, uint32_t size);
enum fsb_dur_class fsb_dur_classify(const struct fsb_dur_expect *e, uint64_t seed,
				    uint32_t worker, uint32_t slot, int exists, uint64_t size,
				    fsb_dur_match_fn *match, void *arg);

/* A match over a file's bytes in memory (the verifier reads each file
 * whole, at most FSB_DUR_MAX_SIZE bytes). */
struct fsb_dur_bytes {
	const unsigned char *data;
	uint64_t len;
	unsigned char *scratch;	/* FSB_DUR_BUF bytes */
};
int fsb_dur_match_bytes(void *arg, uint64_t key, uint32_t exact, uint32_t size);

#endif

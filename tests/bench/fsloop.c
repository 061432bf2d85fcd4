/* fsloop.c: the floor of the runner's file-server workload
 * (runner/run/engine/fileserver.c) for `make bench`: the same fileset
 * (runner/run/engine/fileset.c: sizes, tree, preallocation, append sizes),
 * the same worker processes each owning every W-th file, the same loop of
 * system calls (create + write a whole file, open + append, open + read a
 * whole file with every byte checked by the runner's own check, unlink,
 * stat), and nothing else: no latency histogram, no per-operation clock
 * read (the clock is read once a loop, for the deadline), no records;
 * the fileset removed at the end, as the runner does.
 *
 * usage: fsloop DIR FILES WIDTH MEAN WORKERS IOSIZE APPEND SECONDS SEED
 * prints: "ops N seconds S ops_per_s R" (the first worker's start to the
 * last one's end, as the runner's record). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/core/pattern.h"
#include "run/engine/fileset.h"

struct res { uint64_t ops, start, end, bad; };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct fsb_pattern pat;
static uint32_t N, WIDTH, W, SECS;
static uint64_t IOSIZE, APPEND, SEED, *SIZE;
static int dfd;

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(path);
}

static void die(const char *what)
{
	fprintf(stderr, "fsloop: %s: %s\n", what, strerror(errno));
	_exit(1);
}

static void put(int fd, unsigned char *buf, uint64_t seed, uint64_t off, uint64_t len)
{
	while (len) {
		size_t n = len < IOSIZE ? (size_t)len : (size_t)IOSIZE;
		fsb_pattern_fill(&pat, buf, n, seed, off);
		for (size_t d = 0; d < n;) {
			ssize_t w = write(fd, buf + d, n - d);
			if (w <= 0)
				die("write");
			d += (size_t)w;
		}
		off += n;
		len -= n;
	}
}

static int64_t pick(uint64_t *rng, const unsigned char *ex, uint32_t n, uint32_t nex, int want)
{
	if (want ? nex == 0 : nex == n)
		return -1;
	uint32_t k = (uint32_t)(fsb_fsv_next(rng) % n);
	while (ex[k] != want)
		k = k + 1 == n ? 0 : k + 1;
	return k;
}

static void worker(uint32_t w, struct res *R, int ready, int go)
{
	uint32_t n = N / W + (w < N % W), nex = 0;
	size_t stride = fsb_fsv_path_max(N, WIDTH);
	uint32_t *idx = calloc(n, 4), *gen = calloc(n, 4);
	uint64_t *cur = calloc(n, 8), rng = SEED * 0x9e3779b97f4a7c15ull + w + 1, first;
	unsigned char *ex = calloc(n, 1), *buf = malloc(IOSIZE);
	char *paths = calloc(n, stride), ch;
	struct stat sb;

	if (!idx || !gen || !cur || !ex || !buf || !paths)
		die("malloc");
	for (uint32_t k = 0; k < n; k++) {
		idx[k] = w + k * W;
		fsb_fsv_path(paths + k * stride, stride, idx[k], N, WIDTH);
	}
#define SEEDOF(k) fsb_pattern_seed((uint32_t)SEED, idx[k], gen[k])
#define MAKE(k) do { \
		int fd = openat(dfd, paths + (k) * stride, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644); \
		if (fd < 0) die("create"); \
		gen[k]++; put(fd, buf, SEEDOF(k), 0, SIZE[idx[k]]); \
		if (close(fd) < 0) die("close"); \
		ex[k] = 1; nex++; cur[k] = SIZE[idx[k]]; \
	} while (0)
	for (uint32_t k = 0; k < n; k++)
		if (fsb_fsv_prealloc(SEED, idx[k]))
			MAKE(k);
	if (write(ready, "r", 1) != 1 || read(go, &ch, 1) != 0)
		_exit(1);
	uint64_t t = now_ns(), end = t + (uint64_t)SECS * 1000000000u;
	int64_t k;
	R->start = t;
	while (t < end) {
		if ((k = pick(&rng, ex, n, nex, 0)) >= 0) {
			MAKE(k);
			R->ops++;
		}
		if ((k = pick(&rng, ex, n, nex, 1)) >= 0) {
			uint64_t len = fsb_fsv_append_size(&rng, APPEND);
			int fd = openat(dfd, paths + k * stride, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (fd < 0)
				die("open");
			put(fd, buf, SEEDOF(k), cur[k], len);
			if (close(fd) < 0)
				die("close");
			cur[k] += len;
			R->ops++;
		}
		if ((k = pick(&rng, ex, n, nex, 1)) >= 0) {
			int fd = openat(dfd, paths + k * stride, O_RDONLY | O_CLOEXEC);
			uint64_t off = 0, seed = SEEDOF(k);
			ssize_t r;
			if (fd < 0)
				die("open");
			while ((r = read(fd, buf, IOSIZE)) > 0) {
				if (fsb_pattern_check(&pat, buf, (size_t)r, seed, off, &first))
					R->bad++;
				off += (uint64_t)r;
			}
			if (r < 0 || close(fd) < 0)
				die("read");
			R->bad += off != cur[k];
			R->ops++;
		}
		if ((k = pick(&rng, ex, n, nex, 1)) >= 0) {
			if (unlinkat(dfd, paths + k * stride, 0) < 0)
				die("unlink");
			ex[k] = 0;
			nex--;
			R->ops++;
		}
		if ((k = pick(&rng, ex, n, nex, 1)) >= 0) {
			if (fstatat(dfd, paths + k * stride, &sb, 0) < 0)
				die("stat");
			R->bad += (uint64_t)sb.st_size != cur[k];
			R->ops++;
		}
		t = now_ns();
	}
	R->end = now_ns();
	_exit(0);
}

int main(int argc, char **argv)
{
	char path[512];
	int ready[2], go[2];

	if (argc != 10) {
		fprintf(stderr, "usage: fsloop DIR FILES WIDTH MEAN WORKERS IOSIZE APPEND SECONDS SEED\n");
		return 2;
	}
	N = (uint32_t)strtoul(argv[2], NULL, 0);
	WIDTH = (uint32_t)strtoul(argv[3], NULL, 0);
	uint64_t mean = strtoull(argv[4], NULL, 0);
	W = (uint32_t)strtoul(argv[5], NULL, 0);
	IOSIZE = strtoull(argv[6], NULL, 0);
	APPEND = strtoull(argv[7], NULL, 0);
	SECS = (uint32_t)strtoul(argv[8], NULL, 0);
	SEED = strtoull(argv[9], NULL, 0);
	if (!N || WIDTH < 2 || !mean || !W || W > N || IOSIZE < 4096 || !APPEND || !SECS) {
		fprintf(stderr, "fsloop: a number out of range\n");
		return 2;
	}
	fsb_pattern_init(&pat);
	if (!(SIZE = malloc((size_t)N * 8)))
		die("malloc");
	fsb_fsv_sizes(SEED, N, mean, SIZE);
	snprintf(path, sizeof(path), "%s/fileserver", argv[1]);
	if (mkdir(path, 0755) < 0 || (dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		die(path);
	for (uint64_t i = 0; i < N; i += WIDTH) {
		fsb_fsv_path(path, sizeof(path), (uint32_t)i, N, WIDTH);
		for (char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
			*p = 0;
			if (mkdirat(dfd, path, 0755) < 0 && errno != EEXIST)
				die(path);
			*p = '/';
		}
	}
	struct res *res = mmap(NULL, W * sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED || pipe(ready) < 0 || pipe(go) < 0)
		die("setup");
	memset(res, 0, W * sizeof(*res));
	for (uint32_t w = 0; w < W; w++) {
		pid_t p = fork();
		if (p < 0)
			die("fork");
		if (p == 0) {
			close(ready[0]);
			close(go[1]);
			worker(w, &res[w], ready[1], go[0]);
		}
	}
	close(ready[1]);
	close(go[0]);
	char ch;
	for (uint32_t got = 0; got < W; got++)
		if (read(ready[0], &ch, 1) != 1)
			die("a worker");
	if (syncfs(dfd) < 0)
		die("syncfs");
	close(go[1]);
	int st, bad = 0;
	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	uint64_t ops = 0, first = UINT64_MAX, last = 0, mism = 0;
	for (uint32_t w = 0; w < W; w++) {
		ops += res[w].ops;
		mism += res[w].bad;
		first = res[w].start < first ? res[w].start : first;
		last = res[w].end > last ? res[w].end : last;
	}
	/* the fileset removed, as the runner removes its own */
	snprintf(path, sizeof(path), "%s/fileserver", argv[1]);
	if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		die("removing the fileset");
	double s = (double)(last - first) / 1e9;
	printf("ops %" PRIu64 " seconds %.6f ops_per_s %.1f mismatches %" PRIu64 "\n", ops, s, ops / s, mism);
	return bad || mism ? 1 : 0;
}

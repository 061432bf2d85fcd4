/* bare.c: the floor the runner's create phase is held against, and a timer
 * for other tools.
 *
 *   bare DIR DIRS FILES SIZE
 *	Makes DIR/d0000 .. (before the clock starts), forks one process per
 *	directory, releases them together from a barrier pipe, and each creates
 *	FILES files of SIZE bytes (at most 1 MiB: one write each) with nothing
 *	but openat/write/close in its loop. Timed like the runner: last worker end - first worker start, plus
 *	one syncfs() of DIR.
 *
 *   bare -x SYNCDIR CMD [ARG...]
 *	Runs CMD (fork/execvp, output inherited), waits for it, then syncfs()
 *	of SYNCDIR. Times both.
 *
 * Output: one line of key=value words on stdout, e.g.
 *   files=80000 seconds=0.912 sync_seconds=0.101 files_per_s=87719.3 files_per_s_nosync=98654.4
 *	   files_per_s_procsum=101233.0 cpu_seconds=1.52
 *   exec_seconds=1.204 sync_seconds=0.099 status=0 cpu_seconds=1.83
 * files_per_s_procsum is fs_mark's way of counting: the sum over the workers
 * of each one's files / its own seconds, no sync. cpu_seconds is the user +
 * system time of the workers (of CMD and its children): what the files cost,
 * whatever else the machine was running.
 * Exit status: 0, 1 when a file operation or CMD failed, 2 on misuse.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct slot {
	uint64_t start_ns, end_ns, done;
	int err;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* user + system seconds of the children waited for so far */
static double children_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int usage(void)
{
	fprintf(stderr, "usage: bare DIR DIRS FILES SIZE\n"
			"       bare -x SYNCDIR CMD [ARG...]\n");
	return 2;
}

static long number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max)
		return -1;
	return v;
}

/* "f0000041" -> "f0000042" */
static void next_name(char *name)
{
	for (int i = 7; i >= 1; i--) {
		if (name[i] != '9') {
			name[i]++;
			return;
		}
		name[i] = '0';
	}
}

static void worker(int basefd, unsigned dir, long files, size_t size, struct slot *s,
		   int ready_fd, int barrier_fd)
{
	char dname[16], name[9] = "f0000000", c = 0;
	void *buf = NULL;
	int dfd;

	snprintf(dname, sizeof(dname), "d%04u", dir);
	dfd = openat(basefd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || posix_memalign(&buf, 4096, size)) {
		s->err = dfd < 0 ? errno : ENOMEM;
		_exit(1);
	}
	memset(buf, 0xa5, size);
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	close(ready_fd);
	while (read(barrier_fd, &c, 1) < 0 && errno == EINTR)
		;

	errno = 0;
	s->start_ns = now_ns();
	for (long i = 0; i < files; i++) {
		int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || write(fd, buf, size) != (ssize_t)size || close(fd) < 0) {
			s->err = errno ? errno : EIO;
			break;
		}
		next_name(name);
	}
	s->end_ns = now_ns();
	s->done = s->err ? 0 : (uint64_t)files;
	_exit(s->err ? 1 : 0);
}

static int run_loop(const char *dir, long dirs, long files, long size)
{
	struct slot *st;
	int basefd, ready[2], barrier[2], bad = 0;
	uint64_t first = UINT64_MAX, last = 0, total = 0, s0, s1;
	double procsum = 0;
	char c;

	basefd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0) {
		fprintf(stderr, "bare: open %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (long d = 0; d < dirs; d++) {
		char dname[16];
		snprintf(dname, sizeof(dname), "d%04u", (unsigned)d);
		if (mkdirat(basefd, dname, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "bare: mkdir %s/%s: %s\n", dir, dname, strerror(errno));
			return 1;
		}
	}
	st = mmap(NULL, sizeof(*st) * (size_t)dirs, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED || pipe2(ready, O_CLOEXEC) < 0 || pipe2(barrier, O_CLOEXEC) < 0) {
		fprintf(stderr, "bare: set-up: %s\n", strerror(errno));
		return 1;
	}
	for (long d = 0; d < dirs; d++) {
		pid_t p = fork();
		if (p < 0) {
			fprintf(stderr, "bare: fork: %s\n", strerror(errno));
			return 1;
		}
		if (p == 0) {
			close(ready[0]);
			close(barrier[1]);
			worker(basefd, (unsigned)d, files, (size_t)size, &st[d], ready[1], barrier[0]);
		}
	}
	close(ready[1]);
	close(barrier[0]);
	for (long got = 0; got < dirs;) {
		ssize_t r = read(ready[0], &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got++;
	}
	close(barrier[1]);	/* go */
	for (;;) {
		int status;
		pid_t p = wait(&status);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad = 1;
	}
	for (long d = 0; d < dirs; d++) {
		if (st[d].err) {
			fprintf(stderr, "bare: %s/d%04ld: %s\n", dir, d, strerror(st[d].err));
			bad = 1;
		}
		if (st[d].start_ns && st[d].start_ns < first)
			first = st[d].start_ns;
		if (st[d].end_ns > last)
			last = st[d].end_ns;
		total += st[d].done;
		if (st[d].end_ns > st[d].start_ns)
			procsum += (double)st[d].done * 1e9 / (double)(st[d].end_ns - st[d].start_ns);
	}
	s0 = now_ns();
	if (syncfs(basefd) < 0) {
		fprintf(stderr, "bare: syncfs %s: %s\n", dir, strerror(errno));
		bad = 1;
	}
	s1 = now_ns();
	if (bad || last <= first)
		return 1;
	double sec = (double)(last - first) / 1e9, sync = (double)(s1 - s0) / 1e9;
	printf("files=%llu seconds=%.6f sync_seconds=%.6f files_per_s=%.1f files_per_s_nosync=%.1f"
	       " files_per_s_procsum=%.1f cpu_seconds=%.6f\n", (unsigned long long)total, sec + sync,
	       sync, (double)total / (sec + sync), (double)total / sec, procsum, children_cpu());
	return 0;
}

static int run_exec(const char *syncdir, char **argv)
{
	uint64_t t0, t1, t2;
	int fd, status = 0, rc;
	pid_t p;

	fd = open(syncdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "bare: open %s: %s\n", syncdir, strerror(errno));
		return 1;
	}
	fflush(stdout);
	t0 = now_ns();
	p = fork();
	if (p < 0) {
		fprintf(stderr, "bare: fork: %s\n", strerror(errno));
		return 1;
	}
	if (p == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "bare: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(p, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "bare: wait %s: %s\n", argv[0], strerror(errno));
			return 1;
		}
	t1 = now_ns();
	rc = syncfs(fd);
	t2 = now_ns();
	if (rc < 0) {
		fprintf(stderr, "bare: syncfs %s: %s\n", syncdir, strerror(errno));
		return 1;
	}
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("exec_seconds=%.6f sync_seconds=%.6f status=%d cpu_seconds=%.6f\n",
	       (double)(t1 - t0) / 1e9, (double)(t2 - t1) / 1e9, rc, children_cpu());
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	long dirs, files, size;

	if (argc >= 4 && !strcmp(argv[1], "-x"))
		return run_exec(argv[2], argv + 3);
	if (argc != 5)
		return usage();
	dirs = number(argv[2], 4096);
	files = number(argv[3], 9999999);
	size = number(argv[4], 1L << 20);
	if (dirs < 0 || files < 0 || size < 0)
		return usage();
	return run_loop(argv[1], dirs, files, size);
}

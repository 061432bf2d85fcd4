/* bare.c: the floor the runner's phases are held against, and a timer for
 * other tools.
 *
 *   bare [-p PHASE] [-v|-m] [-3] DIR DIRS FILES SIZE
 *	One worker process per directory DIR/d0000 .., released together from
 *	a barrier pipe; timed like the runner: last worker end - first worker
 *	start, plus one syncfs() of DIR for create and delete (the phases the
 *	runner syncs). PHASE (default create), each loop nothing but the
 *	system calls the runner's phase makes:
 *	create	makes the directories (before the clock starts); each worker
 *		creates FILES files of SIZE bytes (at most 1 MiB: one write
 *		each): openat/write/close.
 *	stat	fstatat(AT_SYMLINK_NOFOLLOW) of every file in readdir order,
 *		its size checked.
 *	read	openat/read until end of file/close of every file in name
 *		order: four calls a file (open, read, the read of 0 bytes that
 *		says the end, close); with -3 three: open, one read of SIZE + 1
 *		bytes (a short read of a regular file is its end: SIZE bytes
 *		back is the whole file, SIZE + 1 a longer one), close - the
 *		runner's read phases' calls. With -v every byte read is checked
 *		by the runner's own check (fsb_pattern_check of
 *		run/core/pattern.c), with -m by memcmp against the bytes in
 *		memory; a short or long file is an error.
 *	delete	unlinkat of every file in readdir order, then the directory.
 *	The phases after create list the directory INSIDE the timed region,
 *	as the runner does: openat of the directory, getdents64 with a 64 KiB
 *	buffer; read puts the listing in name order by each name's number
 *	(f0000042: slot 42, linear time). list_seconds is the longest any
 *	worker spent on that (listing and ordering) - the share of the floor
 *	that is not the files' own system calls.
 *	No clock read per file, no latency histogram, no shared progress
 *	counter: the runner does those, and what they cost is its overhead.
 *	Content: every file holds the same bytes, made once before the clock
 *	starts: run/core/pattern.c's words with a base table of 0xa5 bytes and seed
 *	0 (0xa5 for the first 64 KiB of a file). So -v runs the runner's very
 *	check over the same number of bytes and table words (what checking a
 *	file's bytes against their expected content costs, the floor with the
 *	check), while the runner must also make each file's seed (its content
 *	differs from file to file); -m is the least any check of every byte
 *	costs: the C library's memcmp.
 *
 *   bare -x SYNCDIR CMD [ARG...]
 *	Runs CMD (fork/execvp, output inherited), waits for it, then syncfs()
 *	of SYNCDIR. Times both.
 *
 * Output: one line of key=value words on stdout, e.g.
 *   files=80000 seconds=0.912 sync_seconds=0.101 files_per_s=87719.3 files_per_s_nosync=98654.4
 *	   files_per_s_procsum=101233.0 cpu_seconds=1.52 list_seconds=0.004
 *   exec_seconds=1.204 sync_seconds=0.099 status=0 cpu_seconds=1.83
 * files_per_s_procsum is fs_mark's way of counting: the sum over the workers
 * of each one's files / its own seconds, no sync. cpu_seconds is the user +
 * system time of the workers (of CMD and its children): what the files cost,
 * whatever else the machine was running.
 * Exit status: 0, 1 when a file operation, a check or CMD failed, 2 on misuse.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/core/pattern.h"

enum phase { P_CREATE, P_STAT, P_READ, P_DELETE };

struct slot {
	uint64_t start_ns, end_ns, list_ns, done;
	int err;
	char what[16];		/* the operation that failed */
};

struct ent {
	uint32_t idx;
	char name[12];
};

#define LISTBUF (64u << 10)

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
	fprintf(stderr, "usage: bare [-p create|stat|read|delete] [-v|-m] [-3] DIR DIRS FILES SIZE\n"
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

/* "f0001234" -> 1234; -1 for any other name */
static long parse_name(const char *n)
{
	long v = 0;

	if (n[0] != 'f')
		return -1;
	for (int i = 1; i <= 7; i++) {
		if (n[i] < '0' || n[i] > '9')
			return -1;
		v = v * 10 + (n[i] - '0');
	}
	return n[8] ? -1 : v;
}

static int fail(struct slot *s, const char *what, int err)
{
	s->err = err ? err : EIO;
	snprintf(s->what, sizeof(s->what), "%s", what);
	return -1;
}

/* The listing, timed: ent[0..n) in readdir order, or in name order (by the
 * names' numbers) when byname. Returns n, -1 on an error. */
static long list(int dfd, struct ent *ent, long files, char *lbuf, int byname, struct slot *s)
{
	long n = 0;

	for (;;) {
		long got = syscall(SYS_getdents64, dfd, lbuf, LISTBUF);

		if (got < 0)
			return fail(s, "getdents64", errno);
		if (got == 0)
			break;
		for (long pos = 0; pos < got;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			const char *name = lbuf + pos + 19;
			long idx;

			memcpy(&reclen, lbuf + pos + 16, 2);
			pos += reclen;
			if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			idx = parse_name(name);
			if (idx < 0 || idx >= files || n >= files)
				return fail(s, "unexpected", EEXIST);
			ent[n].idx = (uint32_t)idx;
			memcpy(ent[n].name, name, 9);
			n++;
		}
	}
	if (n != files)
		return fail(s, "missing", ENOENT);
	if (byname) {	/* every number 0..files-1 once: each entry to its slot */
		for (long i = 0; i < n; i++)
			while (ent[i].idx != (uint32_t)i) {
				uint32_t j = ent[i].idx;
				struct ent t = ent[j];

				if (t.idx == j)
					return fail(s, "duplicate", EEXIST);
				ent[j] = ent[i];
				ent[i] = t;
			}
	}
	return n;
}

static struct fsb_pattern pat;	/* base words all 0xa5 bytes */

static void worker(int basefd, unsigned dir, enum phase ph, int verify, int three, long files,
		   size_t size, struct slot *s, int ready_fd, int barrier_fd)
{
	char dname[16], name[9] = "f0000000", c = 0, *lbuf = NULL;
	size_t buflen = size < 4096 ? 4096 : size;
	unsigned char *buf = NULL, *expect = NULL;
	struct ent *ent = NULL;
	long n = 0;
	int dfd = -1;

	snprintf(dname, sizeof(dname), "d%04u", dir);
	/* set-up before the barrier: nothing but the measured work after it */
	if (posix_memalign((void **)&buf, 4096, buflen + 4096) || !(expect = malloc(buflen))) {
		fail(s, "alloc", ENOMEM);
		_exit(1);
	}
	fsb_pattern_fill(&pat, buf, buflen, 0, 0);
	memcpy(expect, buf, buflen);
	if (ph == P_CREATE) {
		dfd = openat(basefd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0) {
			fail(s, "open", errno);
			_exit(1);
		}
	} else {
		ent = calloc((size_t)files, sizeof(*ent));
		lbuf = malloc(LISTBUF);
		if (!ent || !lbuf) {
			fail(s, "alloc", ENOMEM);
			_exit(1);
		}
		memset(lbuf, 0, LISTBUF);	/* touch the pages now */
	}
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	close(ready_fd);
	while (read(barrier_fd, &c, 1) < 0 && errno == EINTR)
		;

	errno = 0;
	s->start_ns = now_ns();
	if (ph != P_CREATE) {
		dfd = openat(basefd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			fail(s, "open", errno);
		else
			n = list(dfd, ent, files, lbuf, ph == P_READ, s);
		s->list_ns = now_ns() - s->start_ns;
		if (n < 0)
			_exit(1);
	}
	switch (ph) {
	case P_CREATE:
		for (long i = 0; i < files; i++) {
			int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

			if (fd < 0 || write(fd, buf, size) != (ssize_t)size || close(fd) < 0) {
				fail(s, "create", errno);
				break;
			}
			next_name(name);
		}
		break;
	case P_STAT:
		for (long i = 0; i < n; i++) {
			struct stat st;

			if (fstatat(dfd, ent[i].name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				fail(s, "stat", errno);
				break;
			}
			if ((size_t)st.st_size != size) {
				fail(s, "size", EIO);
				break;
			}
		}
		break;
	case P_READ:
		for (long i = 0; i < n && !s->err; i++) {
			int fd = openat(dfd, ent[i].name, O_RDONLY | O_CLOEXEC);
			size_t off = 0;
			ssize_t r;

			if (fd < 0) {
				fail(s, "open", errno);
				break;
			}
			if (three) {	/* the file's size and a byte more, once */
				while ((r = read(fd, buf, size + 1)) < 0 && errno == EINTR)
					;
				if (r < 0)
					fail(s, "read", errno);
				else if ((size_t)r != size)
					fail(s, r > (ssize_t)size ? "long" : "short", EIO);
				else if (verify && (verify == 'v' ? fsb_pattern_check(&pat, buf, size, 0, 0, NULL) != 0 :
						    memcmp(buf, expect, size) != 0))
					fail(s, "verify", EIO);
				close(fd);
				continue;
			}
			while ((r = read(fd, buf, buflen)) != 0) {
				if (r < 0) {
					if (errno == EINTR)
						continue;
					fail(s, "read", errno);
					break;
				}
				if (verify && (off + (size_t)r > size ||
					       (verify == 'v' ? fsb_pattern_check(&pat, buf, (size_t)r, 0, off, NULL) != 0 :
						memcmp(buf, expect + off, (size_t)r) != 0))) {
					fail(s, "verify", EIO);
					break;
				}
				off += (size_t)r;
			}
			close(fd);
			if (verify && !s->err && off != size)
				fail(s, "verify", EIO);
		}
		break;
	case P_DELETE:
		for (long i = 0; i < n; i++)
			if (unlinkat(dfd, ent[i].name, 0) < 0) {
				fail(s, "unlink", errno);
				break;
			}
		if (!s->err && unlinkat(basefd, dname, AT_REMOVEDIR) < 0)
			fail(s, "rmdir", errno);
		break;
	}
	s->end_ns = now_ns();
	s->done = s->err ? 0 : (uint64_t)files;
	_exit(s->err ? 1 : 0);
}

static int run_loop(const char *dir, enum phase ph, int verify, int three, long dirs, long files,
		    long size)
{
	struct slot *st;
	int basefd, ready[2], barrier[2], bad = 0;
	uint64_t first = UINT64_MAX, last = 0, total = 0, list = 0, s0 = 0, s1 = 0;
	double procsum = 0;
	char c;

	basefd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0) {
		fprintf(stderr, "bare: open %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (long d = 0; ph == P_CREATE && d < dirs; d++) {
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
			worker(basefd, (unsigned)d, ph, verify, three, files, (size_t)size, &st[d], ready[1],
			       barrier[0]);
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
			fprintf(stderr, "bare: %s/d%04ld: %s: %s\n", dir, d, st[d].what, strerror(st[d].err));
			bad = 1;
		}
		if (st[d].start_ns && st[d].start_ns < first)
			first = st[d].start_ns;
		if (st[d].end_ns > last)
			last = st[d].end_ns;
		if (st[d].list_ns > list)
			list = st[d].list_ns;
		total += st[d].done;
		if (st[d].end_ns > st[d].start_ns)
			procsum += (double)st[d].done * 1e9 / (double)(st[d].end_ns - st[d].start_ns);
	}
	if (ph == P_CREATE || ph == P_DELETE) {
		s0 = now_ns();
		if (syncfs(basefd) < 0) {
			fprintf(stderr, "bare: syncfs %s: %s\n", dir, strerror(errno));
			bad = 1;
		}
		s1 = now_ns();
	}
	if (bad || last <= first)
		return 1;
	double sec = (double)(last - first) / 1e9, sync = (double)(s1 - s0) / 1e9;
	printf("files=%llu seconds=%.6f sync_seconds=%.6f files_per_s=%.1f files_per_s_nosync=%.1f"
	       " files_per_s_procsum=%.1f cpu_seconds=%.6f list_seconds=%.6f\n",
	       (unsigned long long)total, sec + sync, sync, (double)total / (sec + sync),
	       (double)total / sec, procsum, children_cpu(), (double)list / 1e9);
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
	static const char *const names[] = { "create", "stat", "read", "delete" };
	enum phase ph = P_CREATE;
	long dirs, files, size;
	int verify = 0, three = 0, i = 1;

	if (argc >= 4 && !strcmp(argv[1], "-x"))
		return run_exec(argv[2], argv + 3);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "-m")) {
			verify = argv[i][1];
		} else if (!strcmp(argv[i], "-3")) {
			three = 1;
		} else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			unsigned k = 0;
			i++;
			while (k < 4 && strcmp(argv[i], names[k]))
				k++;
			if (k == 4) {
				fprintf(stderr, "bare: -p %s: not a phase (create, stat, read, delete)\n", argv[i]);
				return 2;
			}
			ph = (enum phase)k;
		} else {
			return usage();
		}
	}
	if (argc - i != 4 || ((verify || three) && ph != P_READ))
		return usage();
	memset(pat.base, 0xa5, sizeof(pat.base));
	dirs = number(argv[i + 1], 4096);
	files = number(argv[i + 2], 9999999);
	size = number(argv[i + 3], 1L << 20);
	if (dirs < 0 || files < 0 || size < 0)
		return usage();
	return run_loop(argv[i], ph, verify, three, dirs, files, size);
}

/* test_files.c: the work of the phases on files (run/engine/files.c). A
 * read phase makes three system calls a file, open, read and close: the
 * read calls are counted by the kernel (/proc/self/io, the workers' counts
 * added to their parent's when it reaps them), and every call, when strace
 * is installed, by `strace -f -c` of this program run as a read phase
 * alone. Its verification reports a wrong byte, a short, an empty and a
 * longer file, and a file of more than one read, with the first wrong
 * offset and the count of wrong bytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/core/pattern.h"
#include "run/engine/phase.h"
#include "unit.h"

#define DIRS 2
#define FILES 200	/* and twice as many: the difference is the files' own calls */

static struct fsb_pattern pat;

static const struct fsb_phase_def *phase(const char *name)
{
	for (size_t i = 0; i < fsb_phase_count; i++)
		if (!strcmp(fsb_phases[i].name, name))
			return &fsb_phases[i];
	return NULL;
}

/* Run phase name on base: files a directory of size bytes; 0 or -errno. */
static int run(struct fsb_workers *w, const char *name, int base, uint32_t files, uint64_t size,
	       int verify, struct fsb_phase_result *res)
{
	struct fsb_phase_args a = {
		.phase = phase(name), .base_fd = base, .dirs = DIRS, .files = files,
		.workers = DIRS, .round = 1, .file_size = size, .verify = verify,
		.timeout = 60, .label = "test", .pat = &pat,
	};

	return fsb_phase_run(w, &a, res);
}

/* The read calls of this process and of the children it reaped; -1 when
 * the kernel does not count them (no task I/O accounting). */
static long long read_calls(void)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen("/proc/self/io", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "syscr: %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* `test_files --read DIR FILES`: the read phase alone on DIR (strace's view) */
static int read_only(const char *dir, const char *files)
{
	struct fsb_workers *w = fsb_workers_new(DIRS);
	struct fsb_phase_result res;
	int base = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	int rc = base < 0 || !w || run(w, "read", base, (uint32_t)atoi(files), 4096, 1, &res) < 0 ||
		 res.errors || res.verify_errors || res.files != (uint64_t)DIRS * atoi(files);

	if (w)
		fsb_workers_free(w);
	if (base >= 0)
		close(base);
	return rc;
}

/* Run argv with stdout and stderr to /dev/null; its exit status, or -1. */
static int spawn(char *const argv[])
{
	int status;
	pid_t p = fork();

	if (p < 0)
		return -1;
	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(p, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct calls {
	long long total, openat, read, close;
};

/* The calls on files and file descriptors (strace's %file and %desc: every
 * call a file could cost, none of the parent's waiting) of a read phase
 * alone on dir, by `strace -f -c`; 0 or -1. */
static int strace_calls(const char *self, const char *dir, uint32_t files, struct calls *c)
{
	char n[16], out[64], line[256], abs[4096];
	char *argv[] = { "strace", "-f", "-c", "-e", "trace=%file,%desc", "-o", out,
			 (char *)self, "--read", abs, n, NULL };
	int rows = 0;
	FILE *f;

	if (!realpath(dir, abs))	/* the helper starts in a scratch folder of its own */
		return -1;
	/* Under ASan (make check-asan) the helper runs traced, where
	 * LeakSanitizer cannot work and ends the process with an error:
	 * its leak check is off in the traced helper only. */
	const char *ao = getenv("ASAN_OPTIONS");
	char opts[1024];
	snprintf(opts, sizeof(opts), "%s%sdetect_leaks=0", ao ? ao : "", ao && *ao ? ":" : "");
	setenv("ASAN_OPTIONS", opts, 1);
	snprintf(n, sizeof(n), "%u", files);
	snprintf(out, sizeof(out), "%s.strace", dir);
	if (spawn(argv) != 0 || !(f = fopen(out, "r")))
		return -1;
	memset(c, 0, sizeof(*c));
	/* "% time seconds usecs/call calls [errors] syscall": calls is the
	 * fourth word, the name the last; the rows between the two rules */
	while (fgets(line, sizeof(line), f)) {
		char *word[8];
		int k = 0;

		if (!strncmp(line, "------", 6)) {
			if (++rows == 2)
				break;
			continue;
		}
		if (rows != 1)
			continue;
		for (char *t = strtok(line, " \t\n"); t && k < 8; t = strtok(NULL, " \t\n"))
			word[k++] = t;
		if (k < 5)
			continue;
		long long v = atoll(word[3]);
		c->total += v;
		if (!strcmp(word[k - 1], "openat"))
			c->openat += v;
		else if (!strcmp(word[k - 1], "read"))
			c->read += v;
		else if (!strcmp(word[k - 1], "close"))
			c->close += v;
	}
	fclose(f);
	return rows == 2 ? 0 : -1;
}

/* Make a base directory of DIRS x files files of size bytes; its fd. */
static int make_base(struct fsb_workers *w, const char *name, uint32_t files, uint64_t size)
{
	struct fsb_phase_result res;
	int base;

	CHECK(mkdir(name, 0755) == 0);
	base = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(base >= 0);
	CHECK(run(w, "create", base, files, size, 1, &res) == 0);
	CHECK_EQ_U(res.files, (uint64_t)DIRS * files);
	CHECK_EQ_U(res.errors, 0);
	return base;
}

static void drop_base(struct fsb_workers *w, int base, const char *name, uint32_t files)
{
	struct fsb_phase_result res;

	CHECK(run(w, "delete", base, files, 0, 0, &res) == 0);
	close(base);
	CHECK(rmdir(name) == 0);
}

/* flip the byte at off of file path under base */
static void flip(int base, const char *path, off_t off)
{
	unsigned char b = 0;
	int fd = openat(base, path, O_RDWR);

	CHECK(fd >= 0 && pread(fd, &b, 1, off) == 1);
	b ^= 0xff;
	CHECK(pwrite(fd, &b, 1, off) == 1);
	close(fd);
}

/* append n bytes to file path under base */
static void grow(int base, const char *path, size_t n)
{
	char *junk = calloc(1, n);
	int fd = openat(base, path, O_WRONLY | O_APPEND);

	CHECK(fd >= 0 && junk && write(fd, junk, n) == (ssize_t)n);
	close(fd);
	free(junk);
}

static void cut(int base, const char *path, off_t len)
{
	int fd = openat(base, path, O_WRONLY);

	CHECK(fd >= 0 && ftruncate(fd, len) == 0);
	close(fd);
}

static void check_err(const struct fsb_werr *e, uint32_t dir, uint32_t idx, uint64_t off, uint64_t count)
{
	CHECK_STR(e->op, "verify");
	CHECK(e->verify && !e->fatal && e->err == 0);
	CHECK_EQ_U(e->dir, dir);
	CHECK_EQ_U(e->idx, idx);
	CHECK_EQ_U(e->off, off);
	CHECK_EQ_U(e->count, count);
}

int main(int argc, char **argv)
{
	struct fsb_phase_result res;
	struct fsb_workers *w;
	char top[] = "files.XXXXXX", self[4096];
	int small, big;

	fsb_pattern_init(&pat);
	if (argc == 4 && !strcmp(argv[1], "--read")) {
		unit_drop_scratch();
		return read_only(argv[2], argv[3]);
	}
	w = fsb_workers_new(DIRS);
	CHECK(w != NULL);
	if (!w || !mkdtemp(top) || chdir(top) < 0) {
		CHECK(0);
		return unit_done(argv[0]);
	}

	/* the read calls: one a file (the difference between FILES and
	 * 2 x FILES files a directory, so that what a phase costs once, the
	 * barrier, the listing, cancels out) */
	small = make_base(w, "small", FILES, 4096);
	big = make_base(w, "big", 2 * FILES, 4096);
	long long r0 = read_calls();
	CHECK(run(w, "read", small, FILES, 4096, 1, &res) == 0);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	long long r1 = read_calls();
	CHECK(run(w, "read", big, 2 * FILES, 4096, 1, &res) == 0);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	long long r2 = read_calls();
	CHECK(run(w, "read", big, 2 * FILES, 4096, 0, &res) == 0);
	long long r3 = read_calls();
	const char *emu = getenv("UNIT_EXEC");	/* tests/unit/run.sh: qemu-user, say */
	if (emu && *emu) {
		printf("SKIP test_files: calls a file: run through %s, whose own calls would count\n", emu);
	} else if (r0 < 0) {
		printf("SKIP test_files: read calls a file: /proc/self/io not there (no task I/O accounting)\n");
	} else {
		CHECK_EQ_U((r2 - r1) - (r1 - r0), DIRS * FILES);	/* verification on */
		CHECK_EQ_U(r3 - r2, r2 - r1);				/* and off */
	}

	/* every call, by strace: open, read, close; nothing else a file */
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *probe[] = { "strace", "-o", "/dev/null", "true", NULL };
	struct calls cs, cb;
	if (emu && *emu) {
		;	/* said above */
	} else if (len <= 0) {
		printf("SKIP test_files: calls a file: /proc/self/exe: %s\n", strerror(errno));
	} else if (spawn(probe) != 0) {
		printf("SKIP test_files: calls a file: strace not installed or not allowed to trace here\n");
	} else {
		self[len] = 0;
		CHECK(strace_calls(self, "small", FILES, &cs) == 0);
		CHECK(strace_calls(self, "big", 2 * FILES, &cb) == 0);
		CHECK_EQ_U(cb.total - cs.total, 3 * DIRS * FILES);
		CHECK_EQ_U(cb.openat - cs.openat, DIRS * FILES);
		CHECK_EQ_U(cb.read - cs.read, DIRS * FILES);
		CHECK_EQ_U(cb.close - cs.close, DIRS * FILES);
		unlink("small.strace");
		unlink("big.strace");
	}
	drop_base(w, small, "small", FILES);
	drop_base(w, big, "big", 2 * FILES);

	/* verification: each wrong file once, with its first wrong offset and
	 * its count of wrong bytes (missing and extra bytes count as wrong) */
	int v = make_base(w, "verify", 8, 100);
	flip(v, "d0000/f0000001", 10);
	cut(v, "d0000/f0000002", 60);
	grow(v, "d0000/f0000003", 30);		/* the byte more of the last read */
	grow(v, "d0000/f0000004", 5000);	/* more than a read */
	flip(v, "d0000/f0000005", 10);
	grow(v, "d0000/f0000005", 30);
	cut(v, "d0001/f0000000", 0);
	CHECK(run(w, "read", v, 8, 100, 1, &res) == 0);
	CHECK_EQ_U(res.files, DIRS * 8);
	CHECK_EQ_U(res.errors, 0);
	CHECK_EQ_U(res.verify_errors, 6);
	CHECK_EQ_U(res.bytes, DIRS * 8 * 100 - 40 + 30 + 5000 + 30 - 100);
	const struct fsb_wstate *s0 = fsb_worker_state(w, 0), *s1 = fsb_worker_state(w, 1);
	CHECK_EQ_U(s0->nerr, 5);
	if (s0->nerr == 5) {
		check_err(&s0->err[0], 0, 1, 10, 1);
		check_err(&s0->err[1], 0, 2, 60, 40);
		check_err(&s0->err[2], 0, 3, 100, 30);
		check_err(&s0->err[3], 0, 4, 100, 5000);
		check_err(&s0->err[4], 0, 5, 10, 31);
	}
	CHECK_EQ_U(s1->nerr, 1);
	if (s1->nerr == 1)
		check_err(&s1->err[0], 1, 0, 0, 100);
	/* verification off: the same bytes read, nothing checked */
	CHECK(run(w, "read", v, 8, 100, 0, &res) == 0);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	CHECK_EQ_U(res.bytes, DIRS * 8 * 100 - 40 + 30 + 5000 + 30 - 100);
	drop_base(w, v, "verify", 8);

	/* a file of more than one read (1 MiB a read): whole, one byte
	 * wrong in its last read, and one byte longer */
	uint64_t size = (1u << 20) + 100;
	int m = make_base(w, "multi", 2, size);
	CHECK(run(w, "read", m, 2, size, 1, &res) == 0);
	CHECK_EQ_U(res.errors + res.verify_errors, 0);
	CHECK_EQ_U(res.bytes, DIRS * 2 * size);
	flip(m, "d0000/f0000001", (off_t)(1u << 20) + 50);
	grow(m, "d0001/f0000001", 1);
	CHECK(run(w, "read", m, 2, size, 1, &res) == 0);
	CHECK_EQ_U(res.verify_errors, 2);
	CHECK_EQ_U(fsb_worker_state(w, 0)->nerr, 1);
	CHECK_EQ_U(fsb_worker_state(w, 1)->nerr, 1);
	check_err(&fsb_worker_state(w, 0)->err[0], 0, 1, (1u << 20) + 50, 1);
	check_err(&fsb_worker_state(w, 1)->err[0], 1, 1, size, 1);
	drop_base(w, m, "multi", 2);

	fsb_workers_free(w);
	CHECK(chdir("..") == 0 && rmdir(top) == 0);
	return unit_done(argv[0]);
}

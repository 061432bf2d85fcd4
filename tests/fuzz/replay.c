/* replay.c: run a fuzz target over files, without libFuzzer: the driver of
 * `make check-asan`, which links each target with it (gcc and
 * -fsanitize=address,undefined) and replays the seed corpus and the
 * regression inputs of tests/fuzz/corpus/ on every check.
 *
 * usage: replay_TARGET FILE|DIR...   (a DIR: its files, in name order)
 *
 * Each input is read into a buffer of exactly its size, as libFuzzer does,
 * so a read past the end is caught. When a sanitizer or a check of the
 * target stops the program, or memory leaked while it ran (LeakSanitizer
 * checks after every input), the input is named on stderr.
 * One line at the end: how many inputs ran.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* From the sanitizer runtime (both gcc's and clang's have them). */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static const char *prog;
static char current[4096];

static void say_input(void)
{
	static const char a[] = ": while running the input ";
	if (!current[0])
		return;
	(void)!write(2, prog, strlen(prog));
	(void)!write(2, a, sizeof(a) - 1);
	(void)!write(2, current, strlen(current));
	(void)!write(2, "\n", 1);
}

static void on_abort(int sig)
{
	say_input();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int run_file(const char *path)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &sb) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	size_t size = (size_t)sb.st_size;
	uint8_t *buf = malloc(size ? size : 1);
	size_t done = 0;
	while (buf && done < size) {
		ssize_t n = read(fd, buf + done, size - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	if (!buf || done != size) {
		fprintf(stderr, "%s: %s: cannot read it whole\n", prog, path);
		free(buf);
		return -1;
	}
	snprintf(current, sizeof(current), "%s", path);
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	current[0] = '\0';
	/* a leak is found here, with the input that made it (when LeakSanitizer
	 * runs: ASAN_OPTIONS detect_leaks) */
	if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check()) {
		fprintf(stderr, "%s: memory leaked while running the input %s\n", prog, path);
		return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order. */
static int run_dir(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		return -1;
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			char **nn = realloc(names, cap * sizeof(*nn));
			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len))) {
			rc = -1;
			break;
		}
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat sb;
		if (rc == 0 && stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (run_file(names[i]) < 0)
				rc = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int rc = 0;

	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", prog);
		return 2;
	}
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_input);
	signal(SIGABRT, on_abort);
	for (int i = 1; i < argc && rc == 0; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[i], strerror(errno));
			rc = -1;
		} else if (S_ISDIR(sb.st_mode)) {
			rc = run_dir(argv[i], &count);
		} else if ((rc = run_file(argv[i])) == 0) {
			count++;
		}
	}
	printf("%-24s %s: %zu inputs replayed\n", prog, rc ? "FAIL" : "ok", count);
	return rc ? 1 : 0;
}

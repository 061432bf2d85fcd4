/* minread.c: the least a program does to read every file of a folder by
 * name, written without any of the runner's code, for `make bench` to hold
 * the runner's read phase against.
 *
 *   minread DIR DIRS FILES SIZE
 *	Makes DIR/m0000 .. (DIRS folders) of FILES files of SIZE bytes each
 *	(untimed), then one process per folder, released together from a
 *	pipe, each: opendir/readdir of its folder, qsort of the names with
 *	strcmp, then for each name open, one read of a buffer larger than the
 *	file, close. Timed from the release to the last process's end (as the
 *	runner times a phase: last worker end - first worker start). The files
 *	are left in place.
 *
 * Output: one line, files=N seconds=S files_per_s=R.
 * Exit status: 0, or 1 with a message on stderr. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read every file of folder path by name; 0 or 1. */
static int read_folder(const char *path, size_t size)
{
	DIR *d = opendir(path);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	char *buf = malloc(size + 4096);

	if (!d || !buf)
		return 1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				return 1;
		}
		if (!(names[n++] = strdup(e->d_name)))
			return 1;
	}
	qsort(names, n, sizeof(*names), by_name);
	int dfd = dirfd(d);
	for (size_t i = 0; i < n; i++) {
		int fd = openat(dfd, names[i], O_RDONLY);
		if (fd < 0 || read(fd, buf, size + 4096) != (ssize_t)size) {
			fprintf(stderr, "minread: %s/%s: %s\n", path, names[i],
				fd < 0 ? strerror(errno) : "not SIZE bytes");
			return 1;
		}
		close(fd);
	}
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: minread DIR DIRS FILES SIZE\n");
		return 1;
	}
	const char *top = argv[1];
	int dirs = atoi(argv[2]), files = atoi(argv[3]);
	size_t size = (size_t)atol(argv[4]);
	char path[4096], *data = malloc(size ? size : 1);
	int gate[2];

	if (dirs < 1 || files < 1 || !data) {
		fprintf(stderr, "minread: DIRS and FILES must be positive numbers\n");
		return 1;
	}
	memset(data, 0x5a, size);
	for (int k = 0; k < dirs; k++) {
		snprintf(path, sizeof(path), "%s/m%04d", top, k);
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "minread: %s: %s\n", path, strerror(errno));
			return 1;
		}
		for (int i = 0; i < files; i++) {
			char f[4200];
			snprintf(f, sizeof(f), "%s/f%07d", path, i);
			int fd = open(f, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd) < 0) {
				fprintf(stderr, "minread: %s: %s\n", f, strerror(errno));
				return 1;
			}
		}
	}
	if (pipe(gate) < 0)
		return 1;
	for (int k = 0; k < dirs; k++) {
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p == 0) {
			char c;
			close(gate[1]);
			if (read(gate[0], &c, 1) < 0)	/* 0 at the release */
				_exit(1);
			snprintf(path, sizeof(path), "%s/m%04d", top, k);
			_exit(read_folder(path, size));
		}
	}
	close(gate[0]);
	double t0 = now();
	close(gate[1]);
	int bad = 0, st;
	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	double s = now() - t0;
	if (bad)
		return 1;
	printf("files=%d seconds=%.4f files_per_s=%.1f\n", dirs * files, s, dirs * files / s);
	return 0;
}

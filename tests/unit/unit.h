/* unit.h: a tiny test harness. Each test program is a plain main() that
 * calls CHECK* and ends with `return unit_done(argv[0]);`.
 *
 * Every test program runs in its own scratch folder, wherever it is started
 * from: before main(), the folder of the fixtures is made absolute in
 * $FSB_TESTDATA (when it is unset: tests/unit/data found from the current
 * folder or a parent, else that of the tree the test was built from), then a new folder is made with mkdtemp under $TMPDIR
 * (else /tmp) and the program changes into it. unit_done() removes it when
 * every check passed and names it on stderr when one failed. */
#ifndef FSB_UNIT_H
#define FSB_UNIT_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int unit_pass, unit_fail;

#define CHECK(cond) do { \
	if (cond) unit_pass++; \
	else { unit_fail++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_EQ_U(a, b) do { \
	unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
	if (_a == _b) unit_pass++; \
	else { unit_fail++; fprintf(stderr, "FAIL %s:%d: %s == %s (%llu != %llu)\n", \
		__FILE__, __LINE__, #a, #b, _a, _b); } \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *_a = (a), *_b = (b); \
	if (_a && _b && strcmp(_a, _b) == 0) unit_pass++; \
	else { unit_fail++; fprintf(stderr, "FAIL %s:%d: %s == %s (\"%s\" != \"%s\")\n", \
		__FILE__, __LINE__, #a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); } \
} while (0)

#define CHECK_CONTAINS(hay, needle) do { \
	const char *_h = (hay), *_n = (needle); \
	if (_h && strstr(_h, _n)) unit_pass++; \
	else { unit_fail++; fprintf(stderr, "FAIL %s:%d: \"%s\" does not contain \"%s\"\n", \
		__FILE__, __LINE__, _h ? _h : "(null)", _n); } \
} while (0)

static char unit_scratch[PATH_MAX];

__attribute__((constructor)) static void unit_enter_scratch(void)
{
	char found[PATH_MAX];

	if (!getenv("FSB_TESTDATA")) {
		/* tests/unit/data here or in a parent folder, made absolute */
		char rel[PATH_MAX] = "tests/unit/data";
		for (int up = 0; up < 6; up++) {
			if (realpath(rel, found)) {
				setenv("FSB_TESTDATA", found, 1);
				break;
			}
			memmove(rel + 3, rel, strlen(rel) + 1);
			memcpy(rel, "../", 3);
		}
#ifdef UNIT_DATA
		if (!getenv("FSB_TESTDATA"))	/* the source tree it was built from */
			setenv("FSB_TESTDATA", UNIT_DATA, 1);
#endif
	} else if (realpath(getenv("FSB_TESTDATA"), found)) {
		setenv("FSB_TESTDATA", found, 1);
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(unit_scratch, sizeof(unit_scratch), "%s/fsbench-unit-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(unit_scratch) || chdir(unit_scratch) != 0) {
		fprintf(stderr, "unit: scratch folder %s: %s\n", unit_scratch, strerror(errno));
		exit(1);
	}
}

static int unit_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path) == 0 ? 0 : -1;
}

/* A test program that starts itself again as a helper (test_files' --read)
 * leaves the helper's scratch folder at once: nothing is checked there. */
static inline void unit_drop_scratch(void)
{
	if (chdir("/") == 0)
		nftw(unit_scratch, unit_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static inline int unit_done(const char *name)
{
	const char *b = strrchr(name, '/');
	printf("%-24s %s: %d passed, %d failed\n", b ? b + 1 : name,
	       unit_fail ? "FAIL" : "ok", unit_pass, unit_fail);
	if (unit_fail)
		fprintf(stderr, "%s: scratch folder kept: %s\n", b ? b + 1 : name, unit_scratch);
	else if (chdir("/") == 0 && nftw(unit_scratch, unit_rm, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "%s: scratch folder %s: not removed: %s\n", b ? b + 1 : name,
			unit_scratch, strerror(errno));
	return unit_fail ? 1 : 0;
}

/* A file of the scratch folder written with text (checked). */
static inline void unit_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Each test in turn, then the summary: a test program's main. */
typedef void unit_test(void);

static inline int unit_run(const char *prog, unit_test *const *test, size_t n)
{
	for (size_t i = 0; i < n; i++)
		test[i]();
	return unit_done(prog);
}

/* UNIT_MAIN(test_a, test_b) at a test program's end is its main(): the
 * tests in that order, then the summary. */
#define UNIT_MAIN(...) UNIT_MAIN_WITH(unit_run, __VA_ARGS__)
#define UNIT_MAIN_WITH(run, ...) \
	int main(int argc, char **argv) \
	{ \
		static unit_test *const unit_tests[] = { __VA_ARGS__ }; \
		(void)argc; \
		return run(argv[0], unit_tests, sizeof(unit_tests) / sizeof(unit_tests[0])); \
	}

#endif

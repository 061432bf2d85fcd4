/* unit.h: a tiny test harness. Each test program is a plain main() that
 * calls CHECK* and ends with `return unit_done(argv[0]);`. */
#ifndef FSB_UNIT_H
#define FSB_UNIT_H

#include <stdio.h>
#include <string.h>

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

static inline int unit_done(const char *name)
{
	const char *b = strrchr(name, '/');
	printf("%-24s %s: %d passed, %d failed\n", b ? b + 1 : name,
	       unit_fail ? "FAIL" : "ok", unit_pass, unit_fail);
	return unit_fail ? 1 : 0;
}

#endif

/* test_jsonr.c: the JSON reader on good input and on every error path. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "unit.h"

static struct jsonr_doc *parse_ok(const char *text)
{
	struct jsonr_doc *d = NULL;
	struct jsonr_err e;
	int rc = jsonr_parse(text, strlen(text), &d, &e);
	if (rc) {
		fprintf(stderr, "parse of %s failed: %s at column %zu\n", text, e.msg, e.column);
		CHECK(rc == 0);
	}
	return d;
}

/* A text that must fail with msg (a substring) at column col. */
static void bad_at(const char *text, size_t len, const char *msg, size_t col, int line)
{
	struct jsonr_doc *d = (struct jsonr_doc *)1;
	struct jsonr_err e;
	int rc = jsonr_parse(text, len, &d, &e);
	if (rc != -EINVAL || d != NULL || !strstr(e.msg, msg) || e.column != col) {
		fprintf(stderr, "FAIL line %d: input \"%.*s\": rc %d, \"%s\" at column %zu;"
			" wanted \"%s\" at column %zu\n", line, (int)(len > 60 ? 60 : len),
			text, rc, e.msg, e.column, msg, col);
		unit_fail++;
		if (rc == 0)
			jsonr_free(d);
	} else {
		unit_pass++;
	}
}
#define BAD(text, msg, col) bad_at(text, strlen(text), msg, col, __LINE__)

static void test_values(void)
{
	struct jsonr_doc *d = parse_ok(
		" {\"s\":\"plain\",\"n\":-12.25E-2,\"i\":18446744073709551615,\"z\":0,"
		"\"t\":true,\"f\":false,\"nul\":null,\"a\":[1,[2,3],{}],\"o\":{\"k\":{\"v\":7}},"
		"\"e\":[],\"dup\":1,\"dup\":2} \r\n");
	const struct jsonr *r = jsonr_root(d);

	CHECK(jsonr_is(r, JSONR_OBJ));
	CHECK_EQ_U(jsonr_len(r), 12);
	CHECK_STR(jsonr_str(jsonr_get(r, "s")), "plain");
	CHECK(jsonr_num(jsonr_get(r, "n"), 0) == -0.1225);
	CHECK_STR(jsonr_get(r, "n")->str, "-12.25E-2");
	CHECK(jsonr_u64(jsonr_get(r, "i"), 0) == UINT64_MAX);
	CHECK_EQ_U(jsonr_u64(jsonr_get(r, "z"), 9), 0);
	CHECK_EQ_U(jsonr_u64(jsonr_get(r, "n"), 9), 9);	/* not a whole number */
	CHECK_EQ_U(jsonr_u64(jsonr_get(r, "s"), 9), 9);	/* not a number */
	CHECK(jsonr_bool(jsonr_get(r, "t"), 0) == 1);
	CHECK(jsonr_bool(jsonr_get(r, "f"), 1) == 0);
	CHECK(jsonr_bool(jsonr_get(r, "nul"), 5) == 5);
	CHECK(jsonr_is(jsonr_get(r, "nul"), JSONR_NULL));
	CHECK(jsonr_get(r, "missing") == NULL);
	CHECK(jsonr_num(jsonr_get(r, "missing"), 4.5) == 4.5);
	CHECK(jsonr_num(jsonr_get(r, "s"), 4.5) == 4.5);
	CHECK(jsonr_str(jsonr_get(r, "n")) == NULL);

	const struct jsonr *a = jsonr_get(r, "a");
	CHECK_EQ_U(jsonr_len(a), 3);
	CHECK(jsonr_num(jsonr_at(a, 0), 0) == 1);
	CHECK(jsonr_num(jsonr_at(jsonr_at(a, 1), 1), 0) == 3);
	CHECK(jsonr_is(jsonr_at(a, 2), JSONR_OBJ));
	CHECK_EQ_U(jsonr_len(jsonr_at(a, 2)), 0);
	CHECK(jsonr_at(a, 3) == NULL);
	CHECK_EQ_U(jsonr_len(jsonr_get(r, "e")), 0);
	CHECK(jsonr_get(a, "x") == NULL);	/* not an object */

	CHECK(jsonr_num(jsonr_path(r, "o.k.v"), 0) == 7);
	CHECK(jsonr_path(r, "o.x.v") == NULL);
	CHECK(jsonr_path(r, "o.k.v.w") == NULL);
	CHECK(jsonr_num(jsonr_get(r, "dup"), 0) == 1);	/* the first one */

	/* NULL everywhere is "absent", never a crash */
	CHECK(jsonr_get(NULL, "a") == NULL);
	CHECK(jsonr_at(NULL, 0) == NULL);
	CHECK_EQ_U(jsonr_len(NULL), 0);
	CHECK(jsonr_str(NULL) == NULL);
	CHECK(jsonr_num(NULL, 2) == 2);
	CHECK(!jsonr_is(NULL, JSONR_NULL));
	jsonr_free(d);

	/* any value may be the root */
	d = parse_ok("42");
	CHECK(jsonr_num(jsonr_root(d), 0) == 42);
	jsonr_free(d);
	d = parse_ok("\t\"x\" ");
	CHECK_STR(jsonr_str(jsonr_root(d)), "x");
	jsonr_free(d);
	d = parse_ok("[-0, 1e3, 2E+2, 0.5]");
	CHECK(jsonr_num(jsonr_at(jsonr_root(d), 1), 0) == 1000);
	CHECK(jsonr_num(jsonr_at(jsonr_root(d), 2), 0) == 200);
	CHECK(jsonr_num(jsonr_at(jsonr_root(d), 3), 0) == 0.5);
	CHECK_EQ_U(jsonr_u64(jsonr_at(jsonr_root(d), 1), 0), 1000);
	jsonr_free(d);
	jsonr_free(NULL);
}

static void test_strings(void)
{
	struct jsonr_doc *d = parse_ok(
		"{\"esc\":\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\","
		"\"u\":\"\\u00e9\\u20AC\\ud83d\\ude00\\u0041\","
		"\"nul\":\"a\\u0000b\",\"raw\":\"caf\xc3\xa9\",\"k\\u0065y\":1}");
	const struct jsonr *r = jsonr_root(d);

	CHECK_STR(jsonr_str(jsonr_get(r, "esc")), "q\" b\\ s/ \b\f\n\r\t");
	CHECK_STR(jsonr_str(jsonr_get(r, "u")), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" "A");
	const struct jsonr *n = jsonr_get(r, "nul");
	CHECK_EQ_U(n ? n->len : 0, 3);
	CHECK(n && memcmp(n->str, "a\0b", 4) == 0);
	CHECK_STR(jsonr_str(jsonr_get(r, "raw")), "caf\xc3\xa9");
	CHECK(jsonr_num(jsonr_get(r, "key"), 0) == 1);	/* escaped member name */
	jsonr_free(d);
}

static void test_errors(void)
{
	/* truncated input, at every level */
	BAD("", "unexpected end of input (expected a value)", 1);
	BAD("   ", "unexpected end of input (expected a value)", 4);
	BAD("{", "unexpected end of input (expected a string (member name))", 2);
	BAD("{\"a\"", "unexpected end of input (expected ':')", 5);
	BAD("{\"a\":", "unexpected end of input (expected a value)", 6);
	BAD("{\"a\":1", "unexpected end of input (expected ',' or '}')", 7);
	BAD("[1", "unexpected end of input (expected ',' or ']')", 3);
	BAD("[", "unexpected end of input (expected a value)", 2);
	BAD("\"abc", "unterminated string", 5);
	BAD("\"a\\", "unterminated string", 4);
	BAD("{\"ab", "unterminated string", 5);
	BAD("tru", "unexpected end of input (in literal 'true')", 4);
	BAD("nul", "unexpected end of input (in literal 'null')", 4);
	BAD("-", "unexpected end of input (invalid number)", 2);

	/* wrong punctuation */
	BAD("{\"a\" 1}", "expected ':', found '1'", 6);
	BAD("{\"a\":}", "expected a value, found '}'", 6);
	BAD("{\"a\":1 \"b\":2}", "expected ',' or '}', found '\"'", 8);
	BAD("{\"a\":1,}", "expected a string (member name), found '}'", 8);
	BAD("{1:2}", "expected a string (member name), found '1'", 2);
	BAD("[1 2]", "expected ',' or ']', found '2'", 4);
	BAD("[1,]", "expected a value, found ']'", 4);
	BAD("{\"a\":\x01}", "expected a value, found byte 0x01", 6);
	BAD("'a'", "expected a value, found '''", 1);

	/* bad escapes and string content */
	BAD("\"\\x\"", "invalid escape '\\x'", 2);
	BAD("\"ab\\u12G4\"", "'G' is not a hex digit", 8);
	BAD("\"\\u12\"", "'\"' is not a hex digit", 6);
	BAD("\"\\ud800\"", "high surrogate without a low one", 2);
	BAD("\"\\ud800\\u0041\"", "high surrogate without a low one", 8);
	BAD("\"\\ud800\\n\"", "high surrogate without a low one", 2);
	BAD("\"\\udc00\"", "lone low surrogate", 2);
	BAD("\"a\tb\"", "control character 0x09 in string", 3);
	BAD("\"a\nb\"", "control character 0x0a in string", 3);

	/* numbers and literals */
	BAD("01", "invalid number", 2);
	BAD("-a", "invalid number: expected a digit", 2);
	BAD("1.", "expected a digit after '.'", 3);
	BAD("1.x", "expected a digit after '.'", 3);
	BAD("1e", "expected a digit in the exponent", 3);
	BAD("1e+", "expected a digit in the exponent", 4);
	BAD("1.5.3", "invalid number", 4);
	BAD("+1", "expected a value, found '+'", 1);
	BAD("trux", "invalid literal (expected 'true')", 1);
	BAD("fals", "unexpected end of input (in literal 'false')", 5);
	BAD("nulL", "invalid literal (expected 'null')", 1);

	/* trailing garbage */
	BAD("{} x", "trailing characters after the value", 4);
	BAD("{}}", "trailing characters after the value", 3);
	BAD("1 2", "trailing characters after the value", 3);
	bad_at("{\"a\":1}\0", 8, "trailing characters after the value", 8, __LINE__);
}

static void test_depth(void)
{
	char buf[8 * JSONR_MAX_DEPTH + 16];
	size_t n = 0;

	/* exactly the limit parses */
	for (int i = 0; i < JSONR_MAX_DEPTH; i++)
		buf[n++] = '[';
	for (int i = 0; i < JSONR_MAX_DEPTH; i++)
		buf[n++] = ']';
	buf[n] = '\0';
	struct jsonr_doc *d = parse_ok(buf);
	CHECK(d != NULL);
	jsonr_free(d);

	/* one more is an error at the bracket that goes too deep */
	n = 0;
	for (int i = 0; i < JSONR_MAX_DEPTH + 1; i++)
		buf[n++] = '[';
	for (int i = 0; i < JSONR_MAX_DEPTH + 1; i++)
		buf[n++] = ']';
	buf[n] = '\0';
	BAD(buf, "nesting deeper than 64 levels", JSONR_MAX_DEPTH + 1);

	/* objects and arrays count alike: {"k":[{"k":[ ... */
	n = 0;
	size_t col = 0;
	for (int i = 0; i < JSONR_MAX_DEPTH + 1; i++) {
		col = n + 1;
		if (i % 2) {
			buf[n++] = '[';
		} else {
			memcpy(buf + n, "{\"k\":", 5);
			n += 5;
		}
	}
	buf[n] = '\0';
	BAD(buf, "nesting deeper than 64 levels", col);

	/* a million brackets: an error, not a stack overflow */
	size_t big = 1000000;
	char *deep = malloc(big + 1);
	CHECK(deep != NULL);
	if (deep) {
		memset(deep, '[', big);
		deep[big] = '\0';
		BAD(deep, "nesting deeper than 64 levels", JSONR_MAX_DEPTH + 1);
		free(deep);
	}
}

/* A long string value and many members live in the arena's big chunks. */
static void test_large(void)
{
	size_t n = 100000;
	char *t = malloc(n + 64);
	if (!t)
		return;
	size_t k = 0;
	k += (size_t)sprintf(t, "{\"big\":\"");
	for (size_t i = 0; i < n; i++)
		t[k++] = (char)('a' + i % 26);
	k += (size_t)sprintf(t + k, "\",\"end\":1}");
	struct jsonr_doc *d = NULL;
	struct jsonr_err e;
	CHECK(jsonr_parse(t, k, &d, &e) == 0);
	const struct jsonr *big = jsonr_get(jsonr_root(d), "big");
	CHECK_EQ_U(big ? big->len : 0, n);
	CHECK(jsonr_num(jsonr_get(jsonr_root(d), "end"), 0) == 1);
	jsonr_free(d);
	free(t);
}

UNIT_MAIN(test_values, test_strings, test_errors, test_depth, test_large)

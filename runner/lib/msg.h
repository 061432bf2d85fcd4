/* msg.h: the exit codes of every command, and the one way to say something
 * on stderr.
 *
 * Messages have the house format, one line each:
 *
 *	fsbench: WHAT OBJECT: REASON
 *	fsbench: mount /dev/nvme0n1 (xfs): No such device
 *
 * The "fsbench: " prefix and the newline are added here: callers pass only
 * "WHAT OBJECT: REASON". Each message is written with one write(2), so lines
 * from forked workers do not interleave.
 *
 * Library code (run/, log/, report/ loaders) returns -errno or -1 and never
 * prints or exits (fsb_say below is its one way to speak, through a hook);
 * the command layer (main.c, cmd/) says what went wrong and picks the exit
 * code; tests/docs/vocab.sh fails when code outside them prints. As in
 * git's usage.c:
 *
 *	if (fd < 0)
 *		return fsb_fail(EXIT_SYSTEM, "log %s: %s", path, strerror(errno));
 *	return fsb_misuse(usage, "report: missing RUN");	(and the usage: 2)
 *	fsb_msg("%s %s: %.3f s", fs, phase, secs);		(a plain line)
 *
 * The exit codes are fixed and documented (`fsbench help exit-codes`, the
 * README and the man page are generated from fsb_exit_codes[]): misuse
 * differs from a refusal, from a system failure, from a failed benchmark,
 * and a failed benchmark from one that could not be judged.
 */
#ifndef FSB_MSG_H
#define FSB_MSG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum fsb_exit {
	EXIT_OK = 0,		/* everything asked for ran and verified */
	EXIT_FAIL = 1,		/* benchmark or verification failure */
	EXIT_USAGE = 2,		/* misuse */
	EXIT_REFUSED = 3,	/* refused by the safety rules */
	EXIT_SYSTEM = 4,	/* system failure */
	EXIT_ERROR = 5,		/* the test could not judge (`verdict`: ERROR) */
};

struct fsb_exit_code {
	int code;
	const char *brief;	/* "misuse": for the one-line list in --help */
	const char *meaning;	/* the documented meaning, with examples */
};

/* Every exit code, in order. */
extern const struct fsb_exit_code fsb_exit_codes[];
extern const size_t fsb_exit_count;

/* "fsbench: TEXT\n" on stderr. */
void fsb_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fsb_vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* fsb_msg, then return code (`return fsb_fail(EXIT_SYSTEM, ...)`). */
int fsb_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Misuse (a bad option or argument), the one shape for every command:
 * "fsbench: WHAT" with WHAT naming the command first ("report: missing RUN",
 * "run: unknown option '--x'"), then the command's usage text as it is
 * (NULL: none); returns EXIT_USAGE. */
int fsb_misuse(const char *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int fsb_vmisuse(const char *usage, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* The same where a function prints the usage: usage(f, arg) into memory. */
typedef void fsb_usage_fn(FILE *f, const void *arg);
int fsb_vmisuse_by(fsb_usage_fn *usage, const void *arg, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Library code never prints (run/, report/, log/): what a user must see
 * while it works (progress, a line per phase) goes through a say hook the
 * command layer hands down (cmd/run.c gives fsb_vmsg). fsb_say formats
 * and calls it; a NULL hook says nothing (unit tests, quiet callers). */
typedef void fsb_say_fn(const char *fmt, va_list ap);
void fsb_say(fsb_say_fn *say, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Output formats of the generated documentation (the manual's tables, man page). */
enum fsb_doc_fmt { DOC_TEXT, DOC_MARKDOWN, DOC_SCDOC };

/* "--markdown" -> DOC_MARKDOWN, "--scdoc" -> DOC_SCDOC; -1 for anything else. */
int fsb_doc_fmt_option(const char *arg);
/* Text escaped for a markdown table cell ('|' -> "\|") or for scdoc ('*', '_'
 * and '\' escaped); DOC_TEXT writes it as is. */
void fsb_doc_put(FILE *f, enum fsb_doc_fmt fmt, const char *text);
/* The exit codes as a list ("exit codes: 0 ok, 1 ...", wrapped as in --help),
 * a markdown table (code | meaning) or an scdoc list. */
void fsb_exit_codes_print(FILE *f, enum fsb_doc_fmt fmt);

#endif

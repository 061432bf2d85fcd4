/* msg.c: messages on stderr in the house format, and the exit codes. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/io.h"
#include "lib/msg.h"

const struct fsb_exit_code fsb_exit_codes[] = {
	{ EXIT_OK, "ok", "everything asked for ran and verified" },
	{ EXIT_FAIL, "benchmark or verification failure",
	  "benchmark or verification failure (a filesystem failed or was unavailable, a read did "
		"not match, `compare --fail-on-regression` flagged a row slower)" },
	{ EXIT_USAGE, "misuse", "misuse: bad option, unknown config key, value out of range" },
	{ EXIT_REFUSED, "refused by the safety rules",
	  "refused by the safety rules (target mounted, holds the system or the log, too small, no `--yes`)" },
	{ EXIT_SYSTEM, "system failure", "system failure (cannot open the log, fork, memory)" },
	{ EXIT_ERROR, "could not judge",
	  "the test could not judge (`verdict`: a check is ERROR and none failed: the run never "
		"reached the runner or broke off, the target was missing or refused, mkfs or mount "
		"failed for a reason that is not the disk's; `report`, `compare`, `history`: an "
		"input without records; `compare --fail-on-regression`: a row it could not decide)" },
};
const size_t fsb_exit_count = sizeof(fsb_exit_codes) / sizeof(fsb_exit_codes[0]);

void fsb_vmsg(const char *fmt, va_list ap)
{
	static const char prefix[] = "fsbench: ";
	char small[1024], *buf = small;
	size_t o = sizeof(prefix) - 1, cap = sizeof(small);
	int saved = errno, n;
	va_list ap2;

	/* Most messages fit the stack buffer; a longer one (a path, a loader's
	 * error) is written whole from the heap, still in one write. */
	va_copy(ap2, ap);
	n = vsnprintf(small + o, cap - o - 1, fmt, ap);
	if (n >= 0 && (size_t)n > cap - o - 2) {
		char *big = malloc(o + (size_t)n + 2);

		if (big) {
			buf = big;
			cap = o + (size_t)n + 2;
			n = vsnprintf(buf + o, cap - o - 1, fmt, ap2);
		}
	}
	va_end(ap2);
	if (n < 0) {
		errno = saved;
		return;
	}
	memcpy(buf, prefix, o);
	o += (size_t)n > cap - o - 2 ? cap - o - 2 : (size_t)n;
	buf[o++] = '\n';
	fsb_write_all(2, buf, o);
	if (buf != small)
		free(buf);
	errno = saved;
}

void fsb_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsb_vmsg(fmt, ap);
	va_end(ap);
}

int fsb_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsb_vmsg(fmt, ap);
	va_end(ap);
	return code;
}

int fsb_vmisuse(const char *usage, const char *fmt, va_list ap)
{
	fsb_vmsg(fmt, ap);
	if (usage)
		fsb_write_all(2, usage, strlen(usage));
	return EXIT_USAGE;
}

int fsb_misuse(const char *usage, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fsb_vmisuse(usage, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int fsb_vmisuse_by(fsb_usage_fn *usage, const void *arg, const char *fmt, va_list ap)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (f) {
		usage(f, arg);
		if (fclose(f) != 0) {
			free(text);
			text = NULL;
		}
	}
	fsb_vmisuse(text, fmt, ap);
	free(text);
	return EXIT_USAGE;
}

void fsb_say(fsb_say_fn *say, const char *fmt, ...)
{
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

int fsb_doc_fmt_option(const char *arg)
{
	if (!strcmp(arg, "--markdown"))
		return DOC_MARKDOWN;
	if (!strcmp(arg, "--scdoc"))
		return DOC_SCDOC;
	return -1;
}

/* Texts for the docs may hold `code` spans: kept for markdown, dropped for
 * plain text and scdoc (which has no code font). */
void fsb_doc_put(FILE *f, enum fsb_doc_fmt fmt, const char *s)
{
	for (; *s; s++) {
		if (*s == '`' && fmt != DOC_MARKDOWN)
			continue;
		if (fmt == DOC_MARKDOWN && *s == '|')
			fputc('\\', f);
		if (fmt == DOC_SCDOC && (*s == '*' || *s == '_' || *s == '\\'))
			fputc('\\', f);
		fputc(*s, f);
	}
}

void fsb_exit_codes_print(FILE *f, enum fsb_doc_fmt fmt)
{
	static const char lead[] = "exit codes: ";
	size_t col = 0;

	switch (fmt) {
	case DOC_TEXT:
		/* "exit codes: 0 ok, 1 ..., 2 misuse,\n            3 ..." */
		fputs(lead, f);
		col = sizeof(lead) - 1;
		for (size_t i = 0; i < fsb_exit_count; i++) {
			const char *sep = i + 1 < fsb_exit_count ? "," : "";
			size_t w = 2 + strlen(fsb_exit_codes[i].brief) + strlen(sep);
			if (i && col + 1 + w > 72) {
				fprintf(f, "\n%*s", (int)sizeof(lead) - 1, "");
				col = sizeof(lead) - 1;
			} else if (i) {
				fputc(' ', f);
				col++;
			}
			fprintf(f, "%d %s%s", fsb_exit_codes[i].code, fsb_exit_codes[i].brief, sep);
			col += w;
		}
		fputc('\n', f);
		break;
	case DOC_MARKDOWN:
		fputs("| code | meaning |\n|---|---|\n", f);
		for (size_t i = 0; i < fsb_exit_count; i++) {
			fprintf(f, "| %d | ", fsb_exit_codes[i].code);
			fsb_doc_put(f, fmt, fsb_exit_codes[i].meaning);
			fputs(" |\n", f);
		}
		break;
	case DOC_SCDOC:
		for (size_t i = 0; i < fsb_exit_count; i++) {
			fprintf(f, "%s*%d*\n\t", i ? "\n" : "", fsb_exit_codes[i].code);
			fsb_doc_put(f, fmt, fsb_exit_codes[i].meaning);
			fputc('\n', f);
		}
		break;
	}
}

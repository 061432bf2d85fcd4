/* test_msg.c: the message helper, the exit codes, the refusal codes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/msg.h"
#include "run/target/target.h"
#include "unit.h"

/* Run fn with stderr going to a file; what it wrote into buf. */
static int saved_fd = -1;

static void capture_begin(void)
{
	int fd = open("stderr.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);

	saved_fd = dup(2);
	dup2(fd, 2);
	close(fd);
}

static void capture_end(char *buf, size_t len)
{
	int fd;
	ssize_t n;

	dup2(saved_fd, 2);
	close(saved_fd);
	fd = open("stderr.txt", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, len - 1);
	buf[n < 0 ? 0 : n] = 0;
	if (fd >= 0)
		close(fd);
}

static char *doc(void (*fn)(FILE *, enum fsb_doc_fmt), enum fsb_doc_fmt fmt)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fn(f, fmt);
	fclose(f);
	return buf;
}

static void put_sample(FILE *f, enum fsb_doc_fmt fmt)
{
	fsb_doc_put(f, fmt, "a `b_c` | *d* \\e");
}

int main(int argc, char **argv)
{
	char buf[4096], big[3000];
	int rc;
	(void)argc;

	/* the house format: prefix and newline added, one line each */
	capture_begin();
	fsb_msg("mount %s (%s): %s", "/dev/nvme0n1", "xfs", strerror(ENODEV));
	fsb_msg("log %s: %s", "x.log", "full");
	errno = EROFS;
	rc = fsb_fail(EXIT_SYSTEM, "fork: %s", strerror(EAGAIN));
	CHECK(errno == EROFS);		/* a message does not clobber errno */
	CHECK(rc == EXIT_SYSTEM);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	fsb_msg("long %s", big);
	capture_end(buf, sizeof(buf));
	CHECK_STR(strtok(buf, "\n"), "fsbench: mount /dev/nvme0n1 (xfs): No such device");
	CHECK_STR(strtok(NULL, "\n"), "fsbench: log x.log: full");
	CHECK_STR(strtok(NULL, "\n"), "fsbench: fork: Resource temporarily unavailable");
	char *l = strtok(NULL, "\n");
	/* a message longer than the stack buffer is written whole, one line */
	CHECK(l && !strncmp(l, "fsbench: long xxx", 17) && strlen(l) == 14 + sizeof(big) - 1);
	CHECK(strtok(NULL, "\n") == NULL);

	/* the exit codes: fixed numbers, in order, each documented */
	CHECK_EQ_U(fsb_exit_count, 6);
	for (size_t i = 0; i < fsb_exit_count; i++) {
		CHECK_EQ_U(fsb_exit_codes[i].code, i);
		CHECK(fsb_exit_codes[i].brief[0] && fsb_exit_codes[i].meaning[0]);
	}
	CHECK(EXIT_OK == 0 && EXIT_FAIL == 1 && EXIT_USAGE == 2 && EXIT_REFUSED == 3 && EXIT_SYSTEM == 4 &&
	      EXIT_ERROR == 5);
	CHECK_STR(doc(fsb_exit_codes_print, DOC_TEXT),
		  "exit codes: 0 ok, 1 benchmark or verification failure, 2 misuse,\n"
		  "            3 refused by the safety rules, 4 system failure,\n"
		  "            5 could not judge\n");
	CHECK_CONTAINS(doc(fsb_exit_codes_print, DOC_MARKDOWN),
		       "| code | meaning |\n|---|---|\n| 0 | everything asked for ran and verified |\n");
	CHECK_CONTAINS(doc(fsb_exit_codes_print, DOC_MARKDOWN), "too small, no `--yes`) |\n");
	CHECK_CONTAINS(doc(fsb_exit_codes_print, DOC_SCDOC), "*3*\n\trefused by the safety rules (");
	CHECK_CONTAINS(doc(fsb_exit_codes_print, DOC_SCDOC), "too small, no --yes)\n");

	/* doc text: code spans kept only in markdown; each format's escapes */
	CHECK_STR(doc(put_sample, DOC_TEXT), "a b_c | *d* \\e");
	CHECK_STR(doc(put_sample, DOC_MARKDOWN), "a `b_c` \\| *d* \\e");
	CHECK_STR(doc(put_sample, DOC_SCDOC), "a b\\_c | \\*d\\* \\\\e");
	CHECK(fsb_doc_fmt_option("--markdown") == DOC_MARKDOWN);
	CHECK(fsb_doc_fmt_option("--scdoc") == DOC_SCDOC);
	CHECK(fsb_doc_fmt_option("--html") == -1);

	/* refusal codes: each has its own text */
	for (int i = 0; i < FSB_REFUSE_COUNT; i++) {
		CHECK(strcmp(fsb_refusal_text((enum fsb_refusal)i), "?") != 0);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(fsb_refusal_text((enum fsb_refusal)i),
				     fsb_refusal_text((enum fsb_refusal)j)) != 0);
	}
	CHECK_STR(fsb_refusal_text(FSB_REFUSE_LOG), "holds the log");
	CHECK_STR(fsb_refusal_text(FSB_REFUSE_COUNT), "?");

	/* resolution gives the code, and the message in why */
	static struct fsb_disk d;
	char why[512];
	CHECK(fsb_disk_resolve("sda", &d, why, sizeof(why)) == FSB_REFUSE_SPEC);
	CHECK_CONTAINS(why, "target sda: not a path");
	CHECK(fsb_disk_resolve("partlabel:", &d, why, sizeof(why)) == FSB_REFUSE_SPEC);
	CHECK_STR(why, "target partlabel:: empty value");
	CHECK(fsb_disk_resolve("/dev/fsbench-no-such-disk", &d, why, sizeof(why)) == FSB_REFUSE_NO_DEVICE);
	CHECK_STR(why, "target /dev/fsbench-no-such-disk: No such file or directory");
	CHECK(fsb_disk_resolve(argv[0], &d, why, sizeof(why)) == FSB_REFUSE_NOT_BLOCK);
	CHECK_CONTAINS(why, ": not a block device");
	CHECK(fsb_disk_resolve("serial:fsbench-no-such-serial", &d, why, sizeof(why)) == FSB_REFUSE_NO_MATCH);
	CHECK_CONTAINS(why, "no disk matches");

	/* the safety check: a path that is not a block device */
	memset(&d, 0, sizeof(d));
	snprintf(d.path, sizeof(d.path), "%s", argv[0]);
	CHECK(fsb_target_check(&d, "", 0, why, sizeof(why)) == FSB_REFUSE_NOT_BLOCK);
	snprintf(d.path, sizeof(d.path), "/dev/fsbench-no-such-disk");
	CHECK(fsb_target_check(&d, "", 0, why, sizeof(why)) == FSB_REFUSE_NO_DEVICE);

	return unit_done(argv[0]);
}

/* test_kmsg.c: kernel messages: parsing a /dev/kmsg record, tagging a
 * timestamp with the phase it falls in, draining a kernel log (a
 * SOCK_SEQPACKET socket reads one record per read(2), as /dev/kmsg does)
 * into kmsg and kmsg_dropped records, and the report's section. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "report/output.h"
#include "report/sections/tables.h"
#include "run/evidence/kmsg.h"
#include "records.h"
#include "unit.h"

static int parse(const char *s, struct fsb_kmsg_line *m)
{
	return fsb_kmsg_parse(s, strlen(s), m);
}

static void test_parse(void)
{
	struct fsb_kmsg_line m;

	CHECK(parse("6,3228,1003878408,-;BTRFS: device fsid f98d devid 1\n", &m) == 0);
	CHECK_EQ_U(m.level, 6);
	CHECK_EQ_U(m.facility, 0);
	CHECK_EQ_U(m.seq, 3228);
	CHECK_EQ_U(m.ts_usec, 1003878408);
	CHECK(m.flag == '-');
	CHECK(!m.cut);
	CHECK_STR(m.text, "BTRFS: device fsid f98d devid 1");

	/* continuation lines (the device the message is about) are not text */
	CHECK(parse("3,1234,5678,-;nvme nvme0: I/O 12 QID 3 timeout, aborting\n"
		    " SUBSYSTEM=nvme\n DEVICE=c241:0\n", &m) == 0);
	CHECK_EQ_U(m.level, 3);
	CHECK_STR(m.text, "nvme nvme0: I/O 12 QID 3 timeout, aborting");

	/* PRI = facility * 8 + level: "<4>" written by a program is user.warning */
	CHECK(parse("12,7,99,-;fsbench-test: hello", &m) == 0);
	CHECK_EQ_U(m.level, 4);
	CHECK_EQ_U(m.facility, 1);
	CHECK_STR(m.text, "fsbench-test: hello");

	/* escapes: a newline, a backslash, a tab; UTF-8 kept, other bytes '?' */
	CHECK(parse("4,1,2,-;line one\\x0aline two \\x5c end\\x09x\n", &m) == 0);
	CHECK_STR(m.text, "line one\nline two \\ end\tx");
	CHECK(parse("4,1,2,-;caf\\xc3\\xa9 \\xff\\xfe \\x00 \\xe2\\x82\\xac", &m) == 0);
	CHECK_STR(m.text, "caf\xc3\xa9 ?? ? \xe2\x82\xac");
	CHECK(parse("4,1,2,-;cut \\xe2\\x82", &m) == 0);	/* a sequence cut short */
	CHECK_STR(m.text, "cut ??");
	CHECK(parse("4,1,2,-;\\xed\\xa0\\x80 \\xc0\\xaf", &m) == 0);	/* surrogate, overlong */
	CHECK_STR(m.text, "??? ??");
	CHECK(parse("4,1,2,-;not an escape: \\xZZ \\x4", &m) == 0);
	CHECK_STR(m.text, "not an escape: \\xZZ \\x4");

	/* fields a later kernel adds after the flags; fragment flags */
	CHECK(parse("4,10,20,-,caller=T123;with caller\n", &m) == 0);
	CHECK_STR(m.text, "with caller");
	CHECK_EQ_U(m.seq, 10);
	CHECK(parse("4,10,20,c;first fragment", &m) == 0);
	CHECK(m.flag == 'c');
	CHECK(parse("4,11,20,+;second fragment", &m) == 0);
	CHECK(m.flag == '+');
	CHECK(parse("4,11,20;no flags", &m) == 0);
	CHECK(m.flag == '-');
	CHECK_STR(m.text, "no flags");
	CHECK(parse("4,11,20,-;", &m) == 0);
	CHECK_STR(m.text, "");

	/* not a kernel log record */
	CHECK(parse("garbage", &m) == -EINVAL);
	CHECK(parse("", &m) == -EINVAL);
	CHECK(parse("4,1;x", &m) == -EINVAL);
	CHECK(parse("4,1,2,-", &m) == -EINVAL);
	CHECK(parse("4,1,2 x;y", &m) == -EINVAL);
	CHECK(parse("a,1,2,-;x", &m) == -EINVAL);
	CHECK(parse("4,,2,-;x", &m) == -EINVAL);
	CHECK(parse("70000,1,2,-;x", &m) == -EINVAL);
	CHECK(parse("4,1,99999999999999999999999,-;x", &m) == -EINVAL);
	/* the length is honoured: the record is not NUL-terminated */
	CHECK(fsb_kmsg_parse("4,1,2,-;abcdef", 11, &m) == 0);
	CHECK_STR(m.text, "abc");

	/* a text longer than kept is cut, and says so */
	static char big[FSB_KMSG_TEXT * 4 + 64];
	size_t o = (size_t)snprintf(big, sizeof(big), "4,1,2,-;");
	memset(big + o, 'x', FSB_KMSG_TEXT * 2);
	big[o + FSB_KMSG_TEXT * 2] = 0;
	CHECK(parse(big, &m) == 0);
	CHECK(m.cut);
	CHECK_EQ_U(strlen(m.text), FSB_KMSG_TEXT - 1);
}

static void test_attribute(void)
{
	struct fsb_kmsg_mark mk[5];

	memset(mk, 0, sizeof(mk));
	mk[0].usec = 100;	/* run start */
	mk[1].usec = 200;	/* create */
	mk[2].usec = 300;	/* between */
	mk[3].usec = 300;	/* stat, at the same microsecond: the later mark */
	mk[4].usec = 400;	/* between */
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 0), 0);	/* before the run: the first */
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 100), 0);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 199), 0);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 200), 1);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 299), 1);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 300), 3);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 399), 3);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, 400), 4);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 5, UINT64_MAX), 4);
	CHECK_EQ_U(fsb_kmsg_attribute(mk, 1, 5000), 0);
	/* every prefix of a longer timeline agrees with a linear search */
	struct fsb_kmsg_mark many[37];
	memset(many, 0, sizeof(many));
	for (size_t i = 0; i < 37; i++)
		many[i].usec = 1000 + 10 * i - (i % 3 == 2 ? 10 : 0);	/* some repeats */
	int wrong = 0;
	for (size_t n = 1; n <= 37; n++)
		for (uint64_t ts = 990; ts < 1400; ts++) {
			size_t want = 0;
			for (size_t i = 0; i < n; i++)
				if (many[i].usec <= ts)
					want = i;
			wrong += fsb_kmsg_attribute(many, n, ts) != want;
		}
	CHECK(wrong == 0);
}

/* ---- draining: records out of a fake kernel log ---- */

static int kfd;		/* the writing end of the fake kernel log */

static void klog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void klog(const char *fmt, ...)
{
	char b[2048];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	CHECK(write(kfd, b, (size_t)n) == n);
}

/* Lines of out holding every one of the words (NULL-terminated). */
static int lines_with(const char *out, ...)
{
	int count = 0;
	const char *p = out;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[4096];
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		va_list ap;
		va_start(ap, out);
		int all = 1;
		for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
			if (!strstr(line, w))
				all = 0;
		va_end(ap);
		count += all;
		p = nl ? nl + 1 : NULL;
	}
	return count;
}

static char *slurp(int fd)
{
	static char buf[1 << 20];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

static void test_drain(void)
{
	static struct fsb_ctx c;
	struct fsb_kmsg_totals tot;
	int sv[2];
	FILE *tmp = tmpfile();

	CHECK(tmp != NULL);
	if (!tmp || socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0) {
		CHECK(!"socketpair");
		return;
	}
	memset(&c, 0, sizeof(c));
	c.out_fd = fileno(tmp);
	c.run_id = 0x1234;
	kfd = sv[1];
	CHECK(fsb_kmsg_open_fd(&c.kmsg, sv[0]) == 0);

	/* nothing marked, nothing there: a drain reads nothing */
	fsb_kmsg_drain(&c);
	CHECK_STR(slurp(c.out_fd), "");
	struct fsb_kmsg *k = c.kmsg;
	c.kmsg = NULL;
	fsb_kmsg_mark(&c, "ext4", 1, "create");	/* without a kernel log: nothing */
	fsb_kmsg_drain(&c);
	c.kmsg = k;

	fsb_kmsg_mark_at(&c, 1000, NULL, 0, NULL);		/* run start */
	fsb_kmsg_mark_at(&c, 2000, "ext4", 0, NULL);		/* fs start: mkfs, mount */
	fsb_kmsg_mark_at(&c, 3000, "ext4", 1, "create");
	fsb_kmsg_mark_at(&c, 4000, "ext4", 1, NULL);		/* remount */
	fsb_kmsg_mark_at(&c, 3500, "ext4", 1, "stat");		/* back in time: kept at 4000 */
	fsb_kmsg_mark_at(&c, 5000, "ext4", 1, NULL);

	klog("4,100,1500,-;before any filesystem");
	klog("12,101,2500,-;during mkfs\n SUBSYSTEM=block\n DEVICE=b7:0\n");
	klog("3,102,3100,-;I/O error in create");
	klog("6,103,3200,-;an info line, not recorded");
	klog("7,104,3300,-;debug, not recorded");
	klog("4,105,3400,c;a fragmented line");
	klog("4,106,3401,+; and its rest, not a message of its own");
	klog("not a kernel log record");
	for (int i = 0; i < 40; i++)	/* a burst in create: 30 fit with the two above */
		klog("4,%d,%d,-;burst %d", 107 + i, 3500 + i, i);
	klog("0,147,4000,-;emergency at the stat mark");
	klog("4,150,5500,-;after the gap of 2");	/* seq 148, 149 overwritten */
	fsb_kmsg_drain(&c);

	const char *out = slurp(c.out_fd);
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg\"", NULL), 36);
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg\"", "\"phase\":\"between\",\"ts_usec\":1500,"
			      "\"level\":4,\"facility\":0,\"kernel_seq\":100,"
			      "\"text\":\"before any filesystem\"", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg\"", "\"fs\":\"ext4\",\"phase\":\"between\","
			      "\"ts_usec\":2500,\"level\":4,\"facility\":1", "\"text\":\"during mkfs\"}",
			      NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg\"", "\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\"",
			      NULL), FSB_KMSG_MAX);
	CHECK_EQ_U(lines_with(out, "\"phase\":\"create\"", "\"level\":3", "I/O error in create", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"phase\":\"create\"", "a fragmented line", NULL), 1);
	CHECK_EQ_U(lines_with(out, "its rest", NULL), 0);
	CHECK_EQ_U(lines_with(out, "info line", NULL), 0);
	CHECK_EQ_U(lines_with(out, "debug", NULL), 0);
	CHECK_EQ_U(lines_with(out, "burst 29\"", NULL), 1);
	CHECK_EQ_U(lines_with(out, "burst 30\"", NULL), 0);	/* 2 + 30 = 32 */
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg_dropped\"", "\"fs\":\"ext4\",\"round\":1,"
			      "\"phase\":\"create\",\"count\":10,\"max\":32", NULL), 1);
	/* the mark that went back in time stays at 4000: the emergency is its */
	CHECK_EQ_U(lines_with(out, "\"round\":1,\"phase\":\"stat\",\"ts_usec\":4000,\"level\":0",
			      NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"round\":1,\"phase\":\"between\",\"ts_usec\":5500", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"type\":\"note\"", "2 messages (of any level) were overwritten",
			      NULL), 1);
	fsb_kmsg_totals(c.kmsg, &tot);
	CHECK_EQ_U(tot.recorded, 36);
	CHECK_EQ_U(tot.dropped, 10);
	CHECK_EQ_U(tot.lost, 2);

	/* a later drain: only what is new; the cap still holds for create */
	if (ftruncate(c.out_fd, 0) < 0 || lseek(c.out_fd, 0, SEEK_SET) != 0)
		CHECK(!"ftruncate");
	klog("4,151,3900,-;late for create");
	klog("4,152,5600,-;new");
	fsb_kmsg_drain(&c);
	out = slurp(c.out_fd);
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg\"", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"text\":\"new\"", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"type\":\"kmsg_dropped\"", "\"count\":1,", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"type\":\"note\"", NULL), 0);

	/* the log going away ends the reading, once, with a note */
	if (ftruncate(c.out_fd, 0) < 0 || lseek(c.out_fd, 0, SEEK_SET) != 0)
		CHECK(!"ftruncate");
	close(kfd);
	fsb_kmsg_drain(&c);
	fsb_kmsg_drain(&c);
	out = slurp(c.out_fd);
	CHECK_EQ_U(lines_with(out, "\"type\":\"note\"", "kernel log /dev/kmsg: end of file", NULL), 1);
	CHECK_EQ_U(lines_with(out, "\"type\":", NULL), 1);
	fsb_kmsg_totals(c.kmsg, &tot);
	CHECK_EQ_U(tot.recorded, 37);
	CHECK_EQ_U(tot.dropped, 11);
	fsb_kmsg_close(c.kmsg);
	fsb_kmsg_totals(NULL, &tot);
	CHECK_EQ_U(tot.recorded, 0);
	fclose(tmp);

	/* a path that is not a character device is not a kernel log */
	struct fsb_kmsg *none = NULL;
	CHECK(fsb_kmsg_open(&none, "/") == -ENOTTY);
	CHECK(fsb_kmsg_open(&none, "/nonexistent/kmsg") == -ENOENT);
	CHECK(none == NULL);
}

/* ---- the report ---- */

static const char *const RUN =
	"{\"schema\":1,\"type\":\"run_start\",\"run_id\":\"k1\",\"seq\":0,\"t\":0,\"mode\":\"device\","
	"\"kmsg\":\"/dev/kmsg\"}\n"
	"{\"schema\":1,\"type\":\"kmsg\",\"run_id\":\"k1\",\"seq\":1,\"t\":0.1,\"fs\":\"ext4\","
	"\"phase\":\"between\",\"ts_usec\":1500000,\"level\":4,\"facility\":0,\"text\":\"EXT4-fs warning | mkfs\"}\n"
	"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"k1\",\"seq\":2,\"t\":1,\"fs\":\"ext4\",\"round\":1,"
	"\"phase\":\"create\",\"seconds\":1.5,\"files\":10}\n"
	"{\"schema\":1,\"type\":\"kmsg\",\"run_id\":\"k1\",\"seq\":3,\"t\":1.1,\"fs\":\"ext4\",\"round\":1,"
	"\"phase\":\"create\",\"ts_usec\":3123456789,\"level\":3,\"facility\":0,\"kernel_seq\":9,"
	"\"text\":\"blk_update_request: I/O error\\nsecond line\"}\n"
	"{\"schema\":1,\"type\":\"kmsg_dropped\",\"run_id\":\"k1\",\"seq\":4,\"t\":1.1,\"fs\":\"ext4\","
	"\"round\":1,\"phase\":\"create\",\"count\":7,\"max\":32}\n"
	"{\"schema\":1,\"type\":\"kmsg\",\"run_id\":\"k1\",\"seq\":5,\"t\":1.2,\"phase\":\"between\","
	"\"ts_usec\":4000000,\"level\":4,\"facility\":1,\"text\":\"fsbench-test: hello\"}\n"
	"{\"schema\":1,\"type\":\"run_end\",\"run_id\":\"k1\",\"seq\":6,\"t\":2,\"status\":\"ok\","
	"\"exit_code\":0,\"seconds\":2,\"kmsg_recorded\":3,\"kmsg_dropped\":7,\"kmsg_lost\":5}\n";

static int load(struct rep_set *set, const char *text, char *err, size_t errlen)
{
	return unit_load_records(set, text, "t.jsonl", err, errlen);
}

static void test_report(void)
{
	struct rep_set set;
	char err[256];

	CHECK(load(&set, RUN, err, sizeof(err)) == 0);
	const struct rep_run *r = rep_find(&set, NULL);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_U(r->nkm, 4);
	CHECK_EQ_U(r->kmsg_recorded, 3);
	CHECK_EQ_U(r->kmsg_dropped, 7);
	CHECK_EQ_U(r->kmsg_max, 32);
	CHECK_EQ_U(r->kmsg_lost, 5);
	CHECK_STR(r->kmsg_source, "/dev/kmsg");

	struct rep_table t;
	CHECK(rep_table_kmsg(r, &t) == 0);
	rep_table_view(&t, REP_VIEW_DATA);
	CHECK_EQ_U(t.ncols, 8);
	CHECK_EQ_U(t.nrows, 4);
	CHECK_STR(t.col[3].head, "level");
	CHECK_STR(t.col[5].head, "ts_usec");
	CHECK_STR(t.col[7].head, "dropped");
	CHECK(rep_table_cell(&t, 1, 3)->kind == CELL_COUNT && rep_table_cell(&t, 1, 3)->count == 3);
	CHECK(rep_table_cell(&t, 1, 5)->count == 3123456789ull);
	CHECK(rep_table_cell(&t, 1, 7)->kind == CELL_EMPTY);
	CHECK(rep_table_cell(&t, 2, 7)->count == 7);
	CHECK(rep_table_cell(&t, 0, 1)->kind == CELL_MISSING);	/* no round: mkfs */
	CHECK(rep_table_cell(&t, 3, 0)->kind == CELL_MISSING);		/* outside a filesystem */
	rep_table_free(&t);

	char *md = report_text(r, "md", 0);
	CHECK_CONTAINS(md, "- kernel log: 3 messages at warning level or above during the run, "
		       "7 more not recorded (at most 32 per phase); 5 overwritten before they were read\n");
	CHECK_CONTAINS(md, "## Kernel messages (warning level or above), per phase");
	CHECK_CONTAINS(md, "| fs   | round | phase   | level   | facility | kernel time s | text ");
	CHECK_CONTAINS(md, "| ext4 |     1 | create  | err     | kern     |   3123.456789 | "
		       "blk_update_request: I/O error second line  |");
	CHECK_CONTAINS(md, "| ext4 |     - | between | warning | kern     |      1.500000 | "
		       "EXT4-fs warning \\| mkfs ");
	CHECK_CONTAINS(md, "| ext4 |     1 | create  | -       | -        |             - | "
		       "7 more not recorded (at most 32 per phase) |");
	CHECK_CONTAINS(md, "| -    |     - | between | warning | user     |      4.000000 | fsbench-test: hello ");
	free(md);
	char *csv = report_text(r, "csv", 0);
	CHECK_CONTAINS(csv, "\nrun,kmsg,/dev/kmsg\nrun,kmsg_recorded,3\nrun,kmsg_dropped,7\nrun,kmsg_lost,5\n");
	CHECK_CONTAINS(csv, "\nkmsg,fs,round,phase,level,facility,ts_usec,text,dropped\n");
	CHECK_CONTAINS(csv, "\nkmsg,ext4,1,create,3,0,3123456789,");
	CHECK_CONTAINS(csv, "\nkmsg,ext4,1,create,,,,7 more not recorded (at most 32 per phase),7\n");
	CHECK_CONTAINS(csv, "\nkmsg,,,between,4,1,4000000,fsbench-test: hello,\n");
	free(csv);
	rep_free(&set);

	/* a kernel log that could not be read; a run without the field */
	CHECK(load(&set, "{\"type\":\"run_start\",\"run_id\":\"k2\",\"kmsg\":\"not available: "
		   "/dev/kmsg: Operation not permitted\"}\n", err, sizeof(err)) == 0);
	md = report_text(rep_find(&set, NULL), "md", 0);
	CHECK_CONTAINS(md, "- kernel log: not read (not available: /dev/kmsg: Operation not permitted)\n");
	CHECK(md && !strstr(md, "Kernel messages"));
	free(md);
	rep_free(&set);
	CHECK(load(&set, "{\"type\":\"run_start\",\"run_id\":\"k3\"}\n", err, sizeof(err)) == 0);
	md = report_text(rep_find(&set, NULL), "md", 0);
	CHECK(md && !strstr(md, "kernel log"));
	free(md);
	csv = report_text(rep_find(&set, NULL), "csv", 0);
	CHECK(csv && !strstr(csv, "kmsg"));
	free(csv);
	rep_free(&set);

	/* malformed kmsg records name the line and the field */
	static const struct { const char *rec, *msg; } bad[] = {
		{ "{\"type\":\"kmsg\",\"run_id\":\"b\",\"ts_usec\":1,\"level\":4,\"text\":\"x\"}",
		  "kmsg record without a \"phase\" string" },
		{ "{\"type\":\"kmsg\",\"run_id\":\"b\",\"phase\":\"create\",\"level\":4,\"text\":\"x\"}",
		  "\"ts_usec\" must be a whole number >= 0" },
		{ "{\"type\":\"kmsg\",\"run_id\":\"b\",\"phase\":\"read\",\"ts_usec\":1,\"level\":9,\"text\":\"x\"}",
		  "\"level\" must be a whole number from 0 to 7" },
		{ "{\"type\":\"kmsg\",\"run_id\":\"b\",\"phase\":\"read\",\"ts_usec\":1,\"level\":4}",
		  "kmsg record without a \"text\" string" },
		{ "{\"type\":\"kmsg\",\"run_id\":\"b\",\"phase\":\"read\",\"round\":0,\"ts_usec\":1,"
		  "\"level\":4,\"text\":\"x\"}", "\"round\" must be a whole number from 1" },
		{ "{\"type\":\"kmsg\",\"run_id\":\"b\",\"fs\":\"\",\"phase\":\"read\",\"ts_usec\":1,"
		  "\"level\":4,\"text\":\"x\"}", "\"fs\" must be a non-empty string" },
		{ "{\"type\":\"kmsg_dropped\",\"run_id\":\"b\",\"phase\":\"read\",\"count\":-1}",
		  "kmsg_dropped record: \"count\" must be a whole number >= 0" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[512];
		snprintf(text, sizeof(text), "{\"type\":\"note\",\"run_id\":\"b\"}\n%s\n", bad[i].rec);
		CHECK(load(&set, text, err, sizeof(err)) == -EBADMSG);
		CHECK_CONTAINS(err, "t.jsonl:2: ");
		CHECK_CONTAINS(err, bad[i].msg);
		rep_free(&set);
	}
}

UNIT_MAIN(test_parse, test_attribute, test_drain, test_report)

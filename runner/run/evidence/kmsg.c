/* kmsg.c: the kernel's messages during a run, read from /dev/kmsg between
 * phases and tagged with the phase their timestamp falls in (see kmsg.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/time.h"
#include "run/evidence/kmsg.h"

struct fsb_kmsg {
	int fd;				/* -1 once reading failed */
	struct fsb_kmsg_mark *mark;	/* the timeline, in time order */
	size_t nmark, capmark;
	uint64_t last_seq;
	int have_seq;
	uint64_t recorded, dropped, lost, lost_told;
	int64_t offset_usec;		/* kernel clock - CLOCK_MONOTONIC */
	int calibrated;
	char clock_note[160];		/* why the offset is not measured */
	struct fsb_kmsg_line line;
	char buf[FSB_KMSG_READ + 1];
};

/* A decimal number ending at one of the stop characters. */
static const char *number(const char *p, const char *end, uint64_t *v)
{
	const char *start = p;

	*v = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		if (*v > (UINT64_MAX - 9) / 10)
			return NULL;
		*v = *v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	return p > start ? p : NULL;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Length of the UTF-8 sequence at s (n bytes left), 0 when there is none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;	/* not overlong */
		if (s[0] == 0xed)
			hi = 0x9f;	/* not a surrogate */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		if (s[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

int fsb_kmsg_parse(const char *buf, size_t len, struct fsb_kmsg_line *m)
{
	const char *end = buf + len, *p;
	uint64_t pri;

	memset(m, 0, sizeof(*m));
	if (!(p = number(buf, end, &pri)) || p >= end || *p++ != ',' ||
	    !(p = number(p, end, &m->seq)) || p >= end || *p++ != ',' ||
	    !(p = number(p, end, &m->ts_usec)) || p >= end || pri > 0xffff)
		return -EINVAL;
	m->level = (unsigned)(pri & 7);
	m->facility = (unsigned)(pri >> 3);
	m->flag = '-';
	if (*p == ',') {	/* flags, then fields a later kernel may add */
		p++;
		if (p < end && *p != ';' && *p != ',')
			m->flag = *p;
		while (p < end && *p != ';')
			p++;
	}
	if (p >= end || *p++ != ';')
		return -EINVAL;

	/* the text runs to the first newline; continuation lines follow it */
	size_t o = 0;
	char *t = m->text;
	for (; p < end && *p != '\n'; p++) {
		char ch = *p;
		if (ch == '\\' && end - p >= 4 && p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
			ch = (char)(hexval(p[2]) * 16 + hexval(p[3]));
			p += 3;
		}
		if (o + 1 >= FSB_KMSG_TEXT) {
			m->cut = 1;
			break;
		}
		t[o++] = ch ? ch : '?';
	}
	t[o] = 0;
	/* bytes that are not UTF-8 (a raw byte the kernel escaped) become '?' */
	for (size_t i = 0; i < o;) {
		size_t n = utf8_len((const unsigned char *)t + i, o - i);
		if (!n) {
			t[i++] = '?';
			continue;
		}
		i += n;
	}
	return 0;
}

size_t fsb_kmsg_attribute(const struct fsb_kmsg_mark *marks, size_t n, uint64_t ts_usec)
{
	size_t lo = 0, hi = n;	/* the answer is in [lo, hi) */

	if (!n || ts_usec < marks[0].usec)
		return 0;
	while (hi - lo > 1) {	/* marks[lo].usec <= ts_usec */
		size_t mid = lo + (hi - lo) / 2;
		if (marks[mid].usec <= ts_usec)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int fsb_kmsg_open_fd(struct fsb_kmsg **out, int fd)
{
	struct fsb_kmsg *k = calloc(1, sizeof(*k));
	int fl = fcntl(fd, F_GETFL);

	*out = NULL;
	if (!k)
		return -ENOMEM;
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		int e = errno;
		free(k);
		return -e;
	}
	k->capmark = 64;
	k->mark = calloc(k->capmark, sizeof(*k->mark));
	if (!k->mark) {
		free(k);
		return -ENOMEM;
	}
	k->fd = fd;
	*out = k;
	return 0;
}

/* The kernel stamps its messages with its local clock (sched_clock), not
 * with CLOCK_MONOTONIC: the two drift apart while the machine is up (NTP
 * slews one, not the other; 5.4 ms after 6 hours seen on an x86 host), and
 * a message logged by a mount right after a phase would fall into the
 * phase. One line of ours, written to the kernel log between two
 * CLOCK_MONOTONIC reads, gives the offset; every mark is moved by it. */
static const char clock_line[] = "fsbench: kernel log read from here on";

static void calibrate(struct fsb_kmsg *k, const char *path)
{
	char line[sizeof(clock_line) + 8];
	int w = open(path, O_WRONLY | O_CLOEXEC);
	uint64_t t0, t1;
	ssize_t n;
	int len;

	if (w < 0) {
		snprintf(k->clock_note, sizeof(k->clock_note), "writing %s: %s", path,
			 strerror(errno));
		return;
	}
	len = snprintf(line, sizeof(line), "<6>%s\n", clock_line);	/* 6: info */
	t0 = fsb_now_ns();
	n = write(w, line, (size_t)len);
	t1 = fsb_now_ns();
	close(w);
	if (n != len) {
		snprintf(k->clock_note, sizeof(k->clock_note), "writing %s: %s", path,
			 n < 0 ? strerror(errno) : "short write");
		return;
	}
	/* ours is among the first lines after the seek to the end */
	for (int i = 0; i < 4096; i++) {
		ssize_t got = read(k->fd, k->buf, FSB_KMSG_READ);
		if (got < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (got <= 0)
			break;
		if (fsb_kmsg_parse(k->buf, (size_t)got, &k->line) < 0 ||
		    strcmp(k->line.text, clock_line) != 0)
			continue;
		k->offset_usec = (int64_t)k->line.ts_usec - (int64_t)((t0 + t1) / 2000);
		k->calibrated = 1;
		k->have_seq = 1;
		k->last_seq = k->line.seq;
		return;
	}
	snprintf(k->clock_note, sizeof(k->clock_note), "the line written to %s was not read back",
		 path);
}

int fsb_kmsg_clock(const struct fsb_kmsg *k, int64_t *offset_usec, const char **why_not)
{
	*offset_usec = k->offset_usec;
	*why_not = k->calibrated ? NULL : k->clock_note;
	return k->calibrated;
}

int fsb_kmsg_open(struct fsb_kmsg **out, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	*out = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return -ENOTTY;
	}
	/* from now on: what the kernel logged before the run is never read */
	if (lseek(fd, 0, SEEK_END) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	int e = fsb_kmsg_open_fd(out, fd);
	if (e < 0)
		close(fd);
	else
		calibrate(*out, path);
	return e;
}

void fsb_kmsg_close(struct fsb_kmsg *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k->mark);
	free(k);
}

void fsb_kmsg_mark_at(struct fsb_ctx *c, uint64_t usec, const char *fs, uint32_t round,
		      const char *phase)
{
	struct fsb_kmsg *k = c->kmsg;
	struct fsb_kmsg_mark *m;

	if (!k)
		return;
	if (k->nmark == k->capmark) {
		size_t nc = k->capmark * 2;
		struct fsb_kmsg_mark *nm = realloc(k->mark, nc * sizeof(*nm));
		if (nm) {
			k->mark = nm;
			k->capmark = nc;
		}
	}
	if (k->nmark < k->capmark) {
		m = &k->mark[k->nmark++];
		memset(m, 0, sizeof(*m));
	} else {
		/* no memory for another mark: the last one moves on (earlier
		 * messages lose its boundary, later ones are still tagged right) */
		m = &k->mark[k->nmark - 1];
	}
	if (m > k->mark && usec < m[-1].usec)
		usec = m[-1].usec;	/* the timeline never goes back */
	m->usec = usec;
	snprintf(m->fs, sizeof(m->fs), "%s", fs ? fs : "");
	m->round = round;
	m->phase = phase;
}

void fsb_kmsg_mark(struct fsb_ctx *c, const char *fs, uint32_t round, const char *phase)
{
	if (c->kmsg) {
		int64_t usec = (int64_t)(fsb_now_ns() / 1000) + c->kmsg->offset_usec;
		fsb_kmsg_mark_at(c, usec > 0 ? (uint64_t)usec : 0, fs, round, phase);
	}
}

static void tags(struct fsb_rec *r, const struct fsb_kmsg_mark *m)
{
	if (m->fs[0])
		rec_str(r, K(fs), m->fs);
	if (m->round)
		rec_u64(r, K(round), m->round);
	rec_str(r, K(phase), m->phase ? m->phase : "between");
}

/* One message read: a record, or counted over the cap. *first is the
 * earliest mark that dropped something in this drain. */
static void take(struct fsb_ctx *c, const struct fsb_kmsg_line *l, size_t *first)
{
	struct fsb_kmsg *k = c->kmsg;
	struct fsb_rec r;

	if (k->have_seq && l->seq > k->last_seq + 1)
		k->lost += l->seq - k->last_seq - 1;
	if (!k->have_seq || l->seq > k->last_seq)
		k->last_seq = l->seq;
	k->have_seq = 1;
	/* a '+' fragment continues a line whose level its first fragment has */
	if (l->level > FSB_KMSG_LEVEL || l->flag == '+')
		return;
	if (!k->nmark)
		fsb_kmsg_mark_at(c, 0, NULL, 0, NULL);
	size_t i = fsb_kmsg_attribute(k->mark, k->nmark, l->ts_usec);
	struct fsb_kmsg_mark *m = &k->mark[i];
	if (m->recorded >= FSB_KMSG_MAX) {
		m->dropped++;
		k->dropped++;
		if (i < *first)
			*first = i;
		return;
	}
	fsb_rec_start(c, &r, FSB_REC_kmsg);
	tags(&r, m);
	rec_u64(&r, K(ts_usec), l->ts_usec);
	rec_u64(&r, K(level), l->level);
	rec_u64(&r, K(facility), l->facility);
	rec_u64(&r, K(kernel_seq), l->seq);
	rec_str(&r, K(text), l->text);
	if (l->cut)
		rec_bool(&r, K(cut), 1);
	fsb_emit(c, &r);
	m->recorded++;
	k->recorded++;
}

void fsb_kmsg_drain(struct fsb_ctx *c)
{
	struct fsb_kmsg *k = c->kmsg;
	size_t first;

	if (!k || k->fd < 0)
		return;
	first = k->nmark;
	for (long n = 0; n < FSB_KMSG_DRAIN_MAX; n++) {
		ssize_t got = read(k->fd, k->buf, FSB_KMSG_READ);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EPIPE)
			continue;	/* overwritten: the seq gap of the next one says how many */
		if (got < 0 && errno == EAGAIN)
			break;
		if (got <= 0) {
			int e = got < 0 ? errno : 0;
			fsb_note(c, "kernel log %s: %s; kernel messages after this are not recorded",
				 FSB_KMSG_PATH, e ? strerror(e) : "end of file");
			close(k->fd);
			k->fd = -1;
			break;
		}
		if (fsb_kmsg_parse(k->buf, (size_t)got, &k->line) < 0)
			continue;	/* not a kernel log record: nothing to tag */
		take(c, &k->line, &first);
	}
	for (size_t i = first; i < k->nmark; i++) {
		struct fsb_kmsg_mark *m = &k->mark[i];
		struct fsb_rec r;

		if (m->dropped == m->dropped_told)
			continue;
		fsb_rec_start(c, &r, FSB_REC_kmsg_dropped);
		tags(&r, m);
		rec_u64(&r, K(count), m->dropped - m->dropped_told);
		rec_u64(&r, K(max), FSB_KMSG_MAX);
		fsb_emit(c, &r);
		m->dropped_told = m->dropped;
	}
	if (k->lost > k->lost_told) {
		fsb_note(c, "kernel log: %" PRIu64 " messages (of any level) were overwritten in the"
			 " kernel's buffer before they were read", k->lost - k->lost_told);
		k->lost_told = k->lost;
	}
}

void fsb_kmsg_totals(const struct fsb_kmsg *k, struct fsb_kmsg_totals *t)
{
	memset(t, 0, sizeof(*t));
	if (!k)
		return;
	t->recorded = k->recorded;
	t->dropped = k->dropped;
	t->lost = k->lost;
}

/* fuzz_log.c: the results log reader (runner/log/read.c, fsb_log_read) on
 * arbitrary bytes: a log file, a raw partition or a whole GPT disk image,
 * as `fsbench log extract` reads them from a disk that may be damaged.
 *
 * The input is written to a memory file (memfd; a temporary file where
 * there is none) and read back twice:
 * 1. as it is: mutations mostly break a record's CRC32C, so this pass
 *    checks the ends of a log (bad magic, bad CRC, torn, bad header, the
 *    GPT lookup);
 * 2. with the CRC of every record header found (at any 512-byte boundary)
 *    recomputed, so that mutated lengths, run ids, block counts and
 *    payloads get past the CRC and into the rest of the reader. An input
 *    of odd length stops this pass after its first record (the callback
 *    asking to stop); an even one that needed no repair is not read again.
 * Every record handed to the callback must be what the input holds at its
 * offset (header fields and payload), NUL-terminated, block-aligned and
 * in increasing order; the stats must agree with the records seen and
 * stay inside the input.
 */
#include "fuzz.h"
#include "log/logfile.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int fd = -1;
static char path[4096];

static void drop_tmp(void)
{
	unlink(path);
}

static void open_file(void)
{
	fd = memfd_create("fsbench-fuzz-log", MFD_CLOEXEC);
	if (fd >= 0) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (access(path, R_OK) == 0)
			return;
		close(fd);	/* no /proc: a file it is */
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/fsbench-fuzz-log.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	FUZZ_CHECK(fd >= 0);
	atexit(drop_tmp);
}

static void put_input(const uint8_t *data, size_t size)
{
	FUZZ_CHECK(ftruncate(fd, 0) == 0);
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
		FUZZ_CHECK(n > 0);
		done += (size_t)n;
	}
}

/* Recompute the CRC of every plausible record header (log.h), the last
 * first: a header inside an earlier record's payload is then part of the
 * payload the earlier CRC covers. */
static void fix_crcs(uint8_t *b, size_t size)
{
	static const uint8_t zero[4];

	if (size < FSB_LOG_HDR)
		return;
	for (size_t off = (size - FSB_LOG_HDR) / 512 * 512;; off -= 512) {
		uint8_t *h = b + off;
		uint32_t len = fsb_get_le32(h + 32), blocks = fsb_get_le32(h + 36);
		if (memcmp(h, FSB_LOG_MAGIC, 8) == 0 && len <= FSB_LOG_MAX_PAYLOAD &&
		    blocks == (FSB_LOG_HDR + len + FSB_LOG_BLOCK - 1) / FSB_LOG_BLOCK &&
		    len <= size - off - FSB_LOG_HDR) {
			uint32_t c = fsb_crc32c(0, h, 40);
			c = fsb_crc32c(c, zero, 4);
			c = fsb_crc32c(c, h + 44, FSB_LOG_HDR - 44);
			fsb_put_le32(h + 40, fsb_crc32c(c, h + FSB_LOG_HDR, len));
		}
		if (off == 0)
			break;
	}
}

struct seen {
	const uint8_t *in;
	size_t size;
	const struct fsb_log_stats *st;
	uint64_t n, stop_after, next_off;
};

static int on_record(void *arg, const struct fsb_log_rec *r)
{
	struct seen *s = arg;
	uint64_t base = s->st->data_offset;

	FUZZ_CHECK(r->len <= FSB_LOG_MAX_PAYLOAD);
	FUZZ_CHECK(r->offset % FSB_LOG_BLOCK == 0 && r->offset >= s->next_off);
	FUZZ_CHECK(base + r->offset + FSB_LOG_HDR + r->len <= s->size);
	const uint8_t *h = s->in + base + r->offset;
	FUZZ_CHECK(memcmp(h, FSB_LOG_MAGIC, 8) == 0);
	FUZZ_CHECK(r->run_id == fsb_get_le64(h + 16) && r->seq == fsb_get_le64(h + 24));
	FUZZ_CHECK(r->len == fsb_get_le32(h + 32));
	FUZZ_CHECK(memcmp(r->data, h + FSB_LOG_HDR, r->len) == 0);
	FUZZ_CHECK(r->data[r->len] == '\0');
	s->next_off = r->offset + (uint64_t)fsb_get_le32(h + 36) * FSB_LOG_BLOCK;
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

static void read_once(const uint8_t *in, size_t size, uint64_t stop_after)
{
	struct fsb_log_stats st;
	struct seen s = { .in = in, .size = size, .st = &st, .stop_after = stop_after };

	put_input(in, size);
	int rc = fsb_log_read(path, on_record, &s, &st);
	FUZZ_CHECK(memchr(st.detail, '\0', sizeof(st.detail)) != NULL);
	if (rc) {
		/* a memory file reads fine: only a GPT can be refused */
		FUZZ_CHECK(rc == -EBADMSG || rc == -ENOENT);
		FUZZ_CHECK(st.detail[0] != '\0' && s.n == 0);
		return;
	}
	FUZZ_CHECK(st.records == s.n);
	FUZZ_CHECK(st.runs <= st.records && (st.records == 0 || st.runs >= 1));
	FUZZ_CHECK(st.data_offset + st.capacity <= size);
	FUZZ_CHECK(st.data_offset != 0 || st.capacity == size);
	FUZZ_CHECK(st.end_offset <= st.capacity && st.end_offset == s.next_off);
	FUZZ_CHECK(st.end_offset % FSB_LOG_BLOCK == 0);
	FUZZ_CHECK(strcmp(fsb_log_end_name(st.end), "unknown") != 0);
	if (stop_after && s.n == stop_after)
		FUZZ_CHECK(st.end == LOG_END_CLEAN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0)
		open_file();
	read_once(data, size, 0);

	uint8_t *fixed = malloc(size ? size : 1);
	FUZZ_CHECK(fixed != NULL);
	memcpy(fixed, data, size);
	fix_crcs(fixed, size);
	if (size % 2 || memcmp(fixed, data, size) != 0)	/* else: the same read again */
		read_once(fixed, size, size % 2);
	free(fixed);
	return 0;
}

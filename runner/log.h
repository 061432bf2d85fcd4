/* log.h: the crash-safe results log (a raw partition or a file).
 *
 * Format (see README "Log format"): the log is a sequence of records, each
 * starting on a FSB_LOG_BLOCK boundary and occupying one or more whole
 * blocks. A record is a fixed little-endian header followed by the payload
 * (one JSON record, no newline) and zero padding up to the block boundary.
 * Writes use O_DIRECT|O_DSYNC (falling back to O_DSYNC alone where the file
 * system refuses O_DIRECT, e.g. tmpfs). A reader walks from offset 0 and stops
 * at the first block that does not check out.
 */
#ifndef FSB_LOG_H
#define FSB_LOG_H

#include <stddef.h>
#include <stdint.h>

#define FSB_LOG_BLOCK 4096u
#define FSB_LOG_MAGIC "FSBLOG01"	/* 8 bytes, no terminator on disk */
#define FSB_LOG_PARTLABEL "fsbench-log"	/* GPT partition name of the log */
#define FSB_LOG_MAX_PAYLOAD (1024u * 1024u)

/* How a read of the log ended. */
enum fsb_log_end {
	LOG_END_CLEAN = 0,	/* an all-zero block, or the end of the device/file */
	LOG_END_BAD_MAGIC,	/* non-zero block without the magic: garbage */
	LOG_END_BAD_CRC,	/* header or payload does not match its CRC32C */
	LOG_END_TORN,		/* record runs past the end of the device/file */
	LOG_END_BAD_HEADER,	/* impossible length / version */
};

struct fsb_log_stats {
	uint64_t records;	/* valid records recovered */
	uint64_t runs;		/* distinct run ids seen */
	uint64_t end_offset;	/* byte offset of the first block not recovered */
	uint64_t capacity;	/* bytes available to the log (0 = unlimited file) */
	enum fsb_log_end end;
	uint64_t data_offset;	/* where the log starts inside the file (GPT partition) */
};

struct fsb_log_rec {
	uint64_t run_id;
	uint64_t seq;
	uint64_t offset;	/* byte offset of the record in the log */
	const char *data;	/* payload, NUL-terminated for convenience */
	size_t len;
};

struct fsb_log;

uint32_t fsb_crc32c(uint32_t crc, const void *buf, size_t len);

/* Open (creating a regular file if missing) for appending. Scans existing
 * records and positions after the last valid one. max_bytes limits a regular
 * file's size (0 = unlimited); a block device is limited by its size.
 * Returns 0 or -errno. */
int fsb_log_open(struct fsb_log **out, const char *path, uint64_t run_id,
		 uint64_t max_bytes);
/* Append one record durably. -ENOSPC when the log is full (nothing written,
 * the log stays readable), other -errno on I/O errors. */
int fsb_log_append(struct fsb_log *l, uint64_t seq, const char *data, size_t len);
/* Stats of the opened log (records found at open time plus appended). */
void fsb_log_stat(const struct fsb_log *l, struct fsb_log_stats *st);
void fsb_log_close(struct fsb_log *l);

/* Read every valid record of a log file, a raw device, or a whole GPT disk
 * image (the partition named FSB_LOG_PARTLABEL is used). cb returns non-zero
 * to stop early. Returns 0 or -errno (open/read failures only: a bad block
 * is a normal end, reported in st). */
int fsb_log_read(const char *path,
		 int (*cb)(void *arg, const struct fsb_log_rec *r), void *arg,
		 struct fsb_log_stats *st);
const char *fsb_log_end_name(enum fsb_log_end e);

/* `fsbench log ...` command (extract, info). */
int cmd_log(int argc, char **argv);

#endif

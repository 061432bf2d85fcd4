/* logfile.h: the crash-safe results log (a raw partition or a file).
 *
 * Format (see runner/FORMATS.md "Log format"): the log is a sequence of records, each
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
#define FSB_LOG_VERSION 1u	/* format version in every header */
#define FSB_LOG_HDR 64u		/* header bytes at the start of a record */

/* Record header, little-endian, at the start of the record's first block:
 *   0  u8[8] magic "FSBLOG01"      36  u32 blocks (whole FSB_LOG_BLOCKs)
 *   8  u32   version (1)           40  u32 crc32c
 *  12  u32   header length (64)    44  u32 flags (0)
 *  16  u64   run id                48  u8[16] reserved (0)
 *  24  u64   sequence
 *  32  u32   payload length
 * crc32c covers the 64 header bytes with the crc field read as zero, then
 * the payload. blocks == (64 + payload length + 4095) / 4096. The payload
 * starts at byte 64; the rest of the last block is zero. */

/* Little-endian fields, as the log header and GPT store them. */
static inline void fsb_put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline void fsb_put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t fsb_get_le32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static inline uint64_t fsb_get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

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
	char detail[160];	/* why fsb_log_read/open failed, or more about the end */
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
 * Returns 0 or -errno; -EMEDIUMTYPE when path holds a whole GPT disk rather
 * than a log (the log is its partition), -EBUSY when another writer holds it. */
int fsb_log_open(struct fsb_log **out, const char *path, uint64_t run_id,
		 uint64_t max_bytes);
/* Append one record durably. -ENOSPC when the log is full (nothing written,
 * the log stays readable), -EMSGSIZE above FSB_LOG_MAX_PAYLOAD, -EINVAL for a
 * payload with a newline inside (one trailing newline is dropped), other
 * -errno on I/O errors. Each append also zeroes the block after the record
 * (when there is room), so a reused partition ends cleanly. */
int fsb_log_append(struct fsb_log *l, uint64_t seq, const char *data, size_t len);
/* Stats of the opened log (records found at open time plus appended). */
void fsb_log_stat(const struct fsb_log *l, struct fsb_log_stats *st);
void fsb_log_close(struct fsb_log *l);

/* Read every valid record of a log file, a raw device, or a whole GPT disk
 * image (the partition named FSB_LOG_PARTLABEL is used). cb returns non-zero
 * to stop early. Returns 0 or -errno (open/read failures only: a bad block
 * is a normal end, reported in st). A malformed GPT is -EBADMSG, a GPT
 * without the log partition -ENOENT; st->detail then says why. st->capacity
 * is the size of the region read (file, device or partition); end_offset and
 * record offsets count from the start of the log (data_offset in the file). */
int fsb_log_read(const char *path,
		 int (*cb)(void *arg, const struct fsb_log_rec *r), void *arg,
		 struct fsb_log_stats *st);
const char *fsb_log_end_name(enum fsb_log_end e);

/* `fsbench log ...` command (extract, info). */
int cmd_log(int argc, char **argv);

#endif

/* scan.h: inside the log library: the on-disk header fields, the I/O and
 * the record scanner that the reader (read.c) and the writer (write.c)
 * share, and the GPT lookup (gpt.c). Not for use outside runner/log/. */
#ifndef FSB_LOG_SCAN_H
#define FSB_LOG_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "log/logfile.h"

/* Header field offsets (see log.h). */
#define H_MAGIC 0
#define H_VERSION 8
#define H_HDRLEN 12
#define H_RUN 16
#define H_SEQ 24
#define H_LEN 32
#define H_BLOCKS 36
#define H_CRC 40
#define H_FLAGS 44

/* Largest record, in blocks, and the I/O buffer: one record plus the zero
 * block written after it. */
#define MAX_BLOCKS ((FSB_LOG_HDR + FSB_LOG_MAX_PAYLOAD + FSB_LOG_BLOCK - 1) / FSB_LOG_BLOCK)
#define BUF_SIZE ((size_t)(MAX_BLOCKS + 1) * FSB_LOG_BLOCK)

/* A GPT header's signature, at LBA 1 (UEFI spec, "GUID Partition Table
 * Disk Layout"); the rest of the GPT is read in gpt.c. */
#define GPT_SIG "EFI PART"

/* The set of run ids seen (open addressing, grows at half full). */
struct runset {
	uint64_t *key;
	unsigned char *used;
	size_t cap, n;
	uint64_t last;	/* fast path: runs come one after another */
	int has_last;
};

int log_runset_add(struct runset *s, uint64_t k);
void log_runset_free(struct runset *s);

int log_all_zero(const unsigned char *p, size_t n);
/* Blocks a record of len payload bytes occupies. */
uint32_t log_rec_blocks(size_t len);
/* CRC of a record: header with the crc field as zero, then the payload. */
uint32_t log_rec_crc(const unsigned char *hdr, const unsigned char *payload, size_t len);

/* Read or write all of len bytes at off. With O_DIRECT a file system may
 * still refuse the transfer (EINVAL): then O_DIRECT is dropped and the call
 * retried (O_DSYNC stays). Reads return fewer bytes only at the end of the
 * file. Returns bytes transferred or -errno. */
ssize_t log_io_full(int fd, int *direct, int wr, void *buf, size_t len, uint64_t off);
/* Size of what fd holds: a block device's size or a regular file's length. */
int log_fd_size(int fd, const struct stat *sb, uint64_t *size);

struct scan {
	int fd;
	int *direct;		/* writer: O_DIRECT flag to drop on EINVAL */
	uint64_t base;		/* byte offset of the log in the file */
	uint64_t limit;		/* bytes of the log region */
	unsigned char *buf;	/* BUF_SIZE bytes (aligned for O_DIRECT) */
	struct runset *runs;
	int (*cb)(void *arg, const struct fsb_log_rec *r);
	void *arg;
};

/* Walk records from offset 0 until a block does not check out. Fills
 * records, end_offset, end and detail of st; returns 0 or -errno. */
int log_scan(struct scan *s, struct fsb_log_stats *st);

/* If the file holds a GPT header at LBA 1 (512- or 4096-byte sectors), find
 * the partition named FSB_LOG_PARTLABEL and set *base and *limit to its byte
 * range. Returns 1 when found, 0 when there is no GPT, -errno on a GPT
 * without the partition (-ENOENT) or a malformed one (-EBADMSG). */
int log_gpt_find(int fd, uint64_t size, uint64_t *base, uint64_t *limit,
		 struct fsb_log_stats *st);

#endif

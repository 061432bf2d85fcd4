/* packfile.h: the pack file format (runner/FORMATS.md, "Pack file"): many
 * small files in one file, an index of fixed-size entries sorted by key
 * followed by the data, written region by region at offsets known from the
 * settings alone.
 *
 *   0               header, 64 bytes
 *   64              index: count entries of 32 bytes, sorted by key
 *   data_off        data (a multiple of 4096): the files one after the other
 *
 * Numbers are little-endian. Entry e = dir * files + idx (key
 * "d0003/f0000042") has its index entry at 64 + 32 e and its data at
 * data_off + e * file_size. Header and entries each end in an FNV-1a check
 * of their other bytes, so a damaged index is found, not followed.
 */
#ifndef FSB_PACKFILE_H
#define FSB_PACKFILE_H

#include <stddef.h>
#include <stdint.h>

#define FSB_PACK_MAGIC "FSBPACK"	/* 8 bytes with its NUL */
#define FSB_PACK_VERSION 1
#define FSB_PACK_HDR 64
#define FSB_PACK_ENT 32
#define FSB_PACK_KEY 16			/* key bytes, NUL-padded */
#define FSB_PACK_ALIGN 4096

struct fsb_pack_hdr {
	uint64_t count;		/* entries */
	uint64_t index_off;	/* FSB_PACK_HDR */
	uint64_t data_off;	/* first data byte */
	uint64_t data_len;	/* bytes of data */
};

struct fsb_pack_ent {
	char key[FSB_PACK_KEY];	/* NUL-terminated */
	uint64_t off;		/* from the start of the file */
	uint32_t len;
};

/* The layout of dirs x files files of file_size bytes. */
void fsb_pack_layout(struct fsb_pack_hdr *h, uint32_t dirs, uint32_t files, uint64_t file_size);
/* "d0003/f0000042" into key (FSB_PACK_KEY bytes, NUL-padded). */
void fsb_pack_key(uint32_t dir, uint32_t idx, char *key);
void fsb_pack_hdr_put(unsigned char *b, const struct fsb_pack_hdr *h);
void fsb_pack_ent_put(unsigned char *b, const struct fsb_pack_ent *e);

/* An open pack's index: the file's first data_off bytes, mapped. */
struct fsb_pack_index {
	struct fsb_pack_hdr h;
	const unsigned char *map;
	size_t maplen;
};

/* Map and check the index of the pack open on fd: header (magic, version,
 * sizes within the file) and every entry (check, key, order, data within
 * the data region). 0, or -errno with why ("entry 42 (offset 1408): check
 * mismatch"); -EBADMSG for a damaged pack. */
int fsb_pack_index_open(struct fsb_pack_index *ix, int fd, char *why, size_t len);
void fsb_pack_index_close(struct fsb_pack_index *ix);
/* The entry of key (binary search); 0, or -ENOENT. */
int fsb_pack_find(const struct fsb_pack_index *ix, const char *key, struct fsb_pack_ent *e);

#endif

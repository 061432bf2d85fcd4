/* packfile.c: the pack file format (packfile.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log/logfile.h"	/* fsb_put_le32 ... */
#include "run/stores/packfile.h"

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

void fsb_pack_layout(struct fsb_pack_hdr *h, uint32_t dirs, uint32_t files, uint64_t file_size)
{
	h->count = (uint64_t)dirs * files;
	h->index_off = FSB_PACK_HDR;
	h->data_off = (FSB_PACK_HDR + h->count * FSB_PACK_ENT + FSB_PACK_ALIGN - 1) /
		      FSB_PACK_ALIGN * FSB_PACK_ALIGN;
	h->data_len = h->count * file_size;
}

void fsb_pack_key(uint32_t dir, uint32_t idx, char *key)
{
	memset(key, 0, FSB_PACK_KEY);
	snprintf(key, FSB_PACK_KEY, "d%04u/f%07u", dir % 100000, idx % 10000000);
}

void fsb_pack_hdr_put(unsigned char *b, const struct fsb_pack_hdr *h)
{
	memset(b, 0, FSB_PACK_HDR);
	memcpy(b, FSB_PACK_MAGIC, 8);
	fsb_put_le32(b + 8, FSB_PACK_VERSION);
	fsb_put_le32(b + 12, FSB_PACK_ENT);
	fsb_put_le64(b + 16, h->count);
	fsb_put_le64(b + 24, h->index_off);
	fsb_put_le64(b + 32, h->data_off);
	fsb_put_le64(b + 40, h->data_len);
	fsb_put_le32(b + 60, fnv1a(b, 60));
}

void fsb_pack_ent_put(unsigned char *b, const struct fsb_pack_ent *e)
{
	memset(b, 0, FSB_PACK_ENT);
	memcpy(b, e->key, strnlen(e->key, FSB_PACK_KEY - 1));
	fsb_put_le64(b + 16, e->off);
	fsb_put_le32(b + 24, e->len);
	fsb_put_le32(b + 28, fnv1a(b, 28));
}

static int bad(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

int fsb_pack_index_open(struct fsb_pack_index *ix, int fd, char *why, size_t len)
{
	unsigned char b[FSB_PACK_HDR];
	struct stat st;
	ssize_t r;

	memset(ix, 0, sizeof(*ix));
	if (fstat(fd, &st) < 0) {
		snprintf(why, len, "fstat: %s", strerror(errno));
		return -errno;
	}
	r = pread(fd, b, sizeof(b), 0);
	if (r < 0) {
		snprintf(why, len, "read header: %s", strerror(errno));
		return -errno;
	}
	if (r < (ssize_t)sizeof(b))
		return bad(why, len, "header: file of %llu bytes is shorter than the %llu-byte header",
			   (unsigned long long)st.st_size, (unsigned long long)FSB_PACK_HDR);
	if (memcmp(b, FSB_PACK_MAGIC, 8))
		return bad(why, len, "header: no FSBPACK magic (not a pack file)");
	if (fsb_get_le32(b + 60) != fnv1a(b, 60))
		return bad(why, len, "header: check mismatch (stored %08llx, computed %08llx)",
			   (unsigned long long)fsb_get_le32(b + 60), (unsigned long long)fnv1a(b, 60));
	if (fsb_get_le32(b + 8) != FSB_PACK_VERSION || fsb_get_le32(b + 12) != FSB_PACK_ENT)
		return bad(why, len, "header: version %llu with %llu-byte entries (this runner reads"
			   " version 1, 32-byte entries)", (unsigned long long)fsb_get_le32(b + 8),
			   (unsigned long long)fsb_get_le32(b + 12));
	struct fsb_pack_hdr *h = &ix->h;
	h->count = fsb_get_le64(b + 16);
	h->index_off = fsb_get_le64(b + 24);
	h->data_off = fsb_get_le64(b + 32);
	h->data_len = fsb_get_le64(b + 40);
	uint64_t size = (uint64_t)st.st_size;
	if (h->index_off != FSB_PACK_HDR || h->count > (size - FSB_PACK_HDR) / FSB_PACK_ENT ||
	    h->data_off < FSB_PACK_HDR + h->count * FSB_PACK_ENT)
		return bad(why, len, "header: an index of %llu entries does not fit before the data"
			   " at %llu", (unsigned long long)h->count, (unsigned long long)h->data_off);
	if (h->data_off > size || h->data_len > size - h->data_off)
		return bad(why, len, "header: data ends at %llu, past the end of the file (%llu bytes)",
			   (unsigned long long)(h->data_off + h->data_len), (unsigned long long)size);
	uint64_t maplen = FSB_PACK_HDR + h->count * FSB_PACK_ENT;
	if ((uint64_t)(size_t)maplen != maplen)
		return bad(why, len, "header: an index of %llu entries is too large to map here",
			   (unsigned long long)h->count);
	ix->maplen = (size_t)maplen;
	void *m = mmap(NULL, ix->maplen, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		int e = errno;
		snprintf(why, len, "map the index (%zu bytes): %s", ix->maplen, strerror(e));
		ix->maplen = 0;
		return -e;
	}
	ix->map = m;
	const unsigned char *prev = NULL;
	for (uint64_t i = 0; i < h->count; i++) {
		const unsigned char *e = ix->map + FSB_PACK_HDR + i * FSB_PACK_ENT;
		uint64_t off = fsb_get_le64(e + 16), n = fsb_get_le32(e + 24);
		int rc = 0;
		if (fsb_get_le32(e + 28) != fnv1a(e, 28))
			rc = bad(why, len, "index entry %llu (offset %llu): check mismatch",
				 (unsigned long long)i, (unsigned long long)(FSB_PACK_HDR + i * FSB_PACK_ENT));
		else if (!e[0] || memchr(e, 0, FSB_PACK_KEY) == NULL)
			rc = bad(why, len, "index entry %llu (offset %llu): key empty or not terminated",
				 (unsigned long long)i, (unsigned long long)(FSB_PACK_HDR + i * FSB_PACK_ENT));
		else if (prev && memcmp(prev, e, FSB_PACK_KEY) >= 0)
			rc = bad(why, len, "index entry %llu (offset %llu): key not after the previous"
				 " one (the index must be sorted, keys unique)", (unsigned long long)i,
				 (unsigned long long)(FSB_PACK_HDR + i * FSB_PACK_ENT));
		else if (off < h->data_off || n > h->data_off + h->data_len - off ||
			 off > h->data_off + h->data_len)
			rc = bad(why, len, "index entry %llu: data at %llu is outside the data region",
				 (unsigned long long)i, (unsigned long long)off);
		if (rc) {
			fsb_pack_index_close(ix);
			return rc;
		}
		prev = e;
	}
	return 0;
}

void fsb_pack_index_close(struct fsb_pack_index *ix)
{
	if (ix->maplen)
		munmap((void *)ix->map, ix->maplen);
	ix->map = NULL;
	ix->maplen = 0;
}

int fsb_pack_find(const struct fsb_pack_index *ix, const char *key, struct fsb_pack_ent *out)
{
	unsigned char k[FSB_PACK_KEY] = { 0 };
	uint64_t lo = 0, hi = ix->h.count;

	memcpy(k, key, strnlen(key, FSB_PACK_KEY - 1));
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		const unsigned char *e = ix->map + FSB_PACK_HDR + mid * FSB_PACK_ENT;
		int c = memcmp(k, e, FSB_PACK_KEY);
		if (c == 0) {
			memcpy(out->key, e, FSB_PACK_KEY);
			out->off = fsb_get_le64(e + 16);
			out->len = fsb_get_le32(e + 24);
			return 0;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -ENOENT;
}

/* gpt.c: finding the fsbench-log partition in a whole GPT disk image. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log/scan.h"

/* GPT (UEFI spec, "GUID Partition Table Disk Layout"). */
#define GPT_HDR_MIN 92
#define GPT_ENTRY_MIN 128
#define GPT_NAME_CHARS 36
#define GPT_MAX_ENTRIES 16384

__attribute__((format(printf, 3, 4)))
static int gpt_fail(struct fsb_log_stats *st, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->detail, sizeof(st->detail), fmt, ap);
	va_end(ap);
	return err;
}

/* Does the UTF-16LE name of a GPT entry equal the ASCII string want? */
static int gpt_name_is(const unsigned char *name, const char *want)
{
	size_t i, n = strlen(want);

	for (i = 0; i < GPT_NAME_CHARS; i++) {
		unsigned c = name[2 * i] | (unsigned)name[2 * i + 1] << 8;
		if (i == n)
			return c == 0;
		if (c != (unsigned char)want[i])
			return 0;
	}
	return i == n;
}

/* If the file holds a GPT header at LBA 1 (512- or 4096-byte sectors), find
 * the partition named FSB_LOG_PARTLABEL and set *base and *limit to its byte
 * range. Returns 1 when found, 0 when there is no GPT, -errno on a GPT
 * without the partition (-ENOENT) or a malformed one (-EBADMSG). */
int log_gpt_find(int fd, uint64_t size, uint64_t *base, uint64_t *limit,
			struct fsb_log_stats *st)
{
	static const unsigned ssizes[] = { 512, 4096 };
	unsigned char hdr[4096], ent[GPT_ENTRY_MIN];
	unsigned ss = 0;
	ssize_t n;

	for (size_t i = 0; i < sizeof(ssizes) / sizeof(ssizes[0]); i++) {
		n = log_io_full(fd, NULL, 0, hdr, ssizes[i], ssizes[i]);
		if (n < 0)
			return (int)n;
		if ((size_t)n >= GPT_HDR_MIN && memcmp(hdr, GPT_SIG, 8) == 0) {
			ss = ssizes[i];
			break;
		}
	}
	if (!ss)
		return 0;

	uint32_t hsize = fsb_get_le32(hdr + 12);
	uint64_t ent_lba = fsb_get_le64(hdr + 72);
	uint32_t count = fsb_get_le32(hdr + 80), esize = fsb_get_le32(hdr + 84);
	uint64_t nsect = size / ss;

	if (hsize < GPT_HDR_MIN || hsize > ss)
		return gpt_fail(st, -EBADMSG, "GPT header size %u out of range (sector %u)",
				hsize, ss);
	if (esize < GPT_ENTRY_MIN || esize > 4096 || esize % 8)
		return gpt_fail(st, -EBADMSG, "GPT partition entry size %u invalid", esize);
	if (count == 0 || count > GPT_MAX_ENTRIES)
		return gpt_fail(st, -EBADMSG, "GPT partition entry count %u invalid", count);
	if (ent_lba < 2 || ent_lba >= nsect ||
	    (uint64_t)count * esize > (nsect - ent_lba) * ss)
		return gpt_fail(st, -EBADMSG,
				"GPT partition entries (LBA %llu, %u entries) past the end of the image",
				(unsigned long long)ent_lba, count);

	int found = 0;
	for (uint32_t i = 0; i < count; i++) {
		n = log_io_full(fd, NULL, 0, ent, sizeof(ent), ent_lba * ss + (uint64_t)i * esize);
		if (n < 0)
			return (int)n;
		if ((size_t)n < sizeof(ent))
			return gpt_fail(st, -EBADMSG, "GPT partition entry %u cut short", i);
		if (log_all_zero(ent, 16) || !gpt_name_is(ent + 56, FSB_LOG_PARTLABEL))
			continue;
		uint64_t first = fsb_get_le64(ent + 32), last = fsb_get_le64(ent + 40);
		if (found)
			return gpt_fail(st, -EBADMSG,
					"GPT has two partitions named " FSB_LOG_PARTLABEL
					" (entries %d and %u)", found - 1, i);
		if (first < 1 || first > last || last >= nsect)
			return gpt_fail(st, -EBADMSG,
					"GPT partition " FSB_LOG_PARTLABEL
					" (LBA %llu to %llu) lies outside the image",
					(unsigned long long)first, (unsigned long long)last);
		*base = first * ss;
		*limit = (last - first + 1) * ss;
		found = (int)i + 1;
	}
	if (!found)
		return gpt_fail(st, -ENOENT, "GPT has no partition named %s", FSB_LOG_PARTLABEL);
	return 1;
}


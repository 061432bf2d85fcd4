/* seed_log.c: the seed corpus of the log reader fuzz target, written with
 * the runner's own writer (fsb_log_open, fsb_log_append), so the fuzzer
 * starts from logs as the runner leaves them.
 *
 * usage: seed_log DIR   (DIR is created; its files are replaced)
 *
 * The seeds are small (at most 44 KiB): one record; three runs; ten runs
 * of one record each; a record of two blocks; a log that was full; a torn
 * record; a record followed by garbage; an empty file and a zero block;
 * whole GPT disk images with the log in the partition named fsbench-log
 * (512- and 4096-byte sectors), and one without that partition.
 */
#include "log/logfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *dir;

static void die(const char *what, const char *name, int err)
{
	fprintf(stderr, "seed_log: %s %s/%s: %s\n", what, dir, name, strerror(err));
	exit(1);
}

static char *path_of(const char *name)
{
	static char p[4096];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* A record as the runner writes it (schema 1), of about len bytes. */
static size_t record(char *buf, size_t cap, uint64_t run, uint64_t seq, const char *type,
		     size_t len)
{
	int n = snprintf(buf, cap, "{\"schema\":1,\"type\":\"%s\",\"run_id\":\"%016" PRIx64
			 "\",\"seq\":%" PRIu64 ",\"t\":%.3f", type, run, seq, (double)seq * 0.25);
	if (strcmp(type, "phase") == 0)
		n += snprintf(buf + n, cap - (size_t)n, ",\"fs\":\"ext4\",\"round\":1,"
			      "\"phase\":\"create\",\"seconds\":1.5,\"files\":2000");
	if (strcmp(type, "note") == 0) {
		n += snprintf(buf + n, cap - (size_t)n, ",\"msg\":\"");
		for (; (size_t)n + 3 < len && (size_t)n + 3 < cap; n++)
			buf[n] = (char)('a' + n % 26);
		buf[n++] = '"';
	}
	buf[n++] = '}';
	buf[n] = '\0';
	return (size_t)n;
}

/* Append records of one run: types in turn, `big` makes the notes long. */
static void write_run(const char *name, uint64_t run, int nrec, size_t big, uint64_t max_bytes)
{
	static const char *const types[] = { "run_start", "phase", "note", "run_end" };
	static char buf[16384];
	struct fsb_log *l;
	int err = fsb_log_open(&l, path_of(name), run, max_bytes);

	if (err)
		die("open", name, -err);
	for (int i = 0; i < nrec; i++) {
		const char *type = types[i % 4];
		size_t n = record(buf, sizeof(buf), run, (uint64_t)i, type, big ? big : 80);
		err = fsb_log_append(l, (uint64_t)i, buf, n);
		if (err == -ENOSPC)
			break;
		if (err)
			die("append to", name, -err);
	}
	fsb_log_close(l);
}

static void fresh(const char *name)
{
	if (unlink(path_of(name)) < 0 && errno != ENOENT)
		die("remove", name, errno);
}

static void resize(const char *name, off_t size)
{
	int fd = open(path_of(name), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, size) < 0)
		die("resize", name, errno);
	close(fd);
}

static void put_at(const char *name, off_t off, const void *p, size_t n)
{
	int fd = open(path_of(name), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || pwrite(fd, p, n, off) != (ssize_t)n)
		die("write", name, errno);
	close(fd);
}

/* A disk image of nsect sectors of ss bytes: GPT header at LBA 1, 4
 * entries at LBA 2, one partition (first..last) named label, holding the
 * bytes of the log file `log`. The reader checks neither CRC nor the
 * backup GPT, so both are left out. */
static void gpt_image(const char *name, unsigned ss, uint64_t nsect, uint64_t first,
		      uint64_t last, const char *label, const char *log)
{
	unsigned char hdr[92] = { 0 }, ent[4 * 128] = { 0 }, mbr[512] = { 0 };
	static unsigned char data[65536];

	fresh(name);
	resize(name, (off_t)(nsect * ss));
	mbr[446 + 4] = 0xee;	/* protective MBR */
	fsb_put_le32(mbr + 446 + 8, 1);
	fsb_put_le32(mbr + 446 + 12, (uint32_t)(nsect - 1));
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	put_at(name, 0, mbr, sizeof(mbr));

	memcpy(hdr, "EFI PART", 8);
	fsb_put_le32(hdr + 8, 0x00010000);
	fsb_put_le32(hdr + 12, sizeof(hdr));
	fsb_put_le64(hdr + 24, 1);
	fsb_put_le64(hdr + 32, nsect - 1);
	fsb_put_le64(hdr + 40, first);
	fsb_put_le64(hdr + 48, last);
	fsb_put_le64(hdr + 72, 2);
	fsb_put_le32(hdr + 80, 4);
	fsb_put_le32(hdr + 84, 128);
	put_at(name, ss, hdr, sizeof(hdr));

	memset(ent, 0, sizeof(ent));
	for (int i = 0; i < 16; i++)	/* type GUID: anything not zero */
		ent[i] = (unsigned char)(0x10 + i);
	memset(ent + 16, 0x42, 16);
	fsb_put_le64(ent + 32, first);
	fsb_put_le64(ent + 40, last);
	for (size_t i = 0; label[i]; i++)
		ent[56 + 2 * i] = (unsigned char)label[i];
	put_at(name, 2 * ss, ent, sizeof(ent));

	int fd = open(path_of(log), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open", log, errno);
	ssize_t n = read(fd, data, sizeof(data));
	close(fd);
	if (n < 0)
		die("read", log, errno);
	if ((uint64_t)n > (last - first + 1) * ss)
		n = (ssize_t)((last - first + 1) * ss);
	put_at(name, (off_t)(first * ss), data, (size_t)n);
}

int main(int argc, char **argv)
{
	static const unsigned char junk[64] = "this block is no log record: junk after the log";

	if (argc != 2) {
		fprintf(stderr, "usage: seed_log DIR\n");
		return 2;
	}
	dir = argv[1];
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die("create", "", errno);

	fresh("one.log");
	write_run("one.log", 0x1122334455667788ull, 1, 0, 0);

	fresh("three-runs.log");
	write_run("three-runs.log", 0xa1, 3, 0, 0);
	write_run("three-runs.log", 0xb2, 2, 0, 0);
	write_run("three-runs.log", 0xa1, 1, 0, 0);

	fresh("ten-runs.log");	/* more run ids than the reader's first table holds */
	for (uint64_t run = 1; run <= 10; run++)
		write_run("ten-runs.log", run * 0x0101010101010101ull, 1, 0, 0);

	fresh("two-blocks.log");	/* a note of 6000 bytes: two blocks */
	write_run("two-blocks.log", 0xc3, 3, 6000, 0);

	fresh("full.log");	/* room for three blocks: no zero block at the end */
	write_run("full.log", 0xd4, 8, 0, 3 * FSB_LOG_BLOCK);

	fresh("torn.log");	/* the two-block record cut in its second block */
	write_run("torn.log", 0xe5, 3, 6000, 0);
	resize("torn.log", 3 * FSB_LOG_BLOCK + FSB_LOG_BLOCK / 2);

	fresh("junk-after.log");
	write_run("junk-after.log", 0xf6, 2, 0, 0);
	put_at("junk-after.log", 2 * FSB_LOG_BLOCK, junk, sizeof(junk));

	fresh("empty.log");
	put_at("empty.log", 0, "", 0);
	fresh("zero-block.log");
	resize("zero-block.log", FSB_LOG_BLOCK);

	/* GPT disk images around a log of two records */
	fresh("part.log");
	write_run("part.log", 0x5ec7, 2, 0, 2 * FSB_LOG_BLOCK);
	gpt_image("gpt-512.img", 512, 40, 16, 31, FSB_LOG_PARTLABEL, "part.log");
	gpt_image("gpt-4096.img", 4096, 6, 3, 5, FSB_LOG_PARTLABEL, "part.log");
	gpt_image("gpt-no-log.img", 512, 40, 16, 31, "rootfs", "part.log");
	fresh("part.log");
	return 0;
}

/* test_pack.c: the pack file format (write, read back, a damaged index
 * found with a clear reason) and the packing phases on a scratch
 * directory: SQLite and pack file written, read back verified, a flipped
 * byte found, deleted. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/settings.h"
#include "run/stores/pack.h"
#include "run/stores/packfile.h"
#include "run/engine/phase.h"
#include "report/model.h"
#include "report/sections/packing.h"
#include "unit.h"

#define DIRS 2
#define FILES 3
#define SIZE 100

static unsigned char img[8192];

/* A pack of DIRS x FILES files of SIZE bytes, byte value = its number. */
static size_t make_pack(void)
{
	struct fsb_pack_hdr h;

	memset(img, 0, sizeof(img));
	fsb_pack_layout(&h, DIRS, FILES, SIZE);
	fsb_pack_hdr_put(img, &h);
	for (uint32_t d = 0; d < DIRS; d++)
		for (uint32_t i = 0; i < FILES; i++) {
			uint64_t e = (uint64_t)d * FILES + i;
			struct fsb_pack_ent ent;
			fsb_pack_key(d, i, ent.key);
			ent.off = h.data_off + e * SIZE;
			ent.len = SIZE;
			fsb_pack_ent_put(img + h.index_off + e * FSB_PACK_ENT, &ent);
			memset(img + ent.off, (int)e + 1, SIZE);
		}
	return (size_t)(h.data_off + h.data_len);
}

/* Write len bytes of img to name; open it again for reading. */
static int put(const char *name, size_t len)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, img, len) != (ssize_t)len)
		return -1;
	return fd;
}

/* The reason the index of img (len bytes) is refused; "" when it is not. */
static const char *refused(size_t len, int *rc)
{
	static char why[256];
	struct fsb_pack_index ix;
	int fd = put("bad.pack", len);

	why[0] = 0;
	*rc = fsb_pack_index_open(&ix, fd, why, sizeof(why));
	if (*rc == 0) {
		fsb_pack_index_close(&ix);
		why[0] = 0;
	}
	close(fd);
	return why;
}

static const struct fsb_phase_def *phase(const char *name)
{
	for (size_t i = 0; i < fsb_phase_count; i++)
		if (!strcmp(fsb_phases[i].name, name))
			return &fsb_phases[i];
	return NULL;
}

static void run(struct fsb_workers *w, struct fsb_phase_args *a, const char *name,
		struct fsb_phase_result *res)
{
	a->phase = phase(name);
	CHECK(a->phase != NULL);
	if (a->phase)
		CHECK(fsb_phase_run(w, a, res) == 0);
}

static int flip(const char *file, off_t at)
{
	unsigned char b = 0;
	int fd = open(file, O_RDWR | O_CLOEXEC), ok;

	ok = fd >= 0 && pread(fd, &b, 1, at) == 1;
	b ^= 0x04;
	ok = ok && pwrite(fd, &b, 1, at) == 1;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct fsb_pack_hdr h;
	struct fsb_pack_index ix;
	struct fsb_pack_ent e;
	char key[FSB_PACK_KEY], why[256];
	int rc, fd;
	(void)argc;

	/* layout: index after the 64-byte header, data at the next 4 KiB */
	fsb_pack_layout(&h, 16, 20000, 4096);
	CHECK_EQ_U(h.count, 320000);
	CHECK_EQ_U(h.index_off, 64);
	CHECK_EQ_U(h.data_off, 10244096);	/* 64 + 320000 * 32, rounded up to 4 KiB */
	CHECK_EQ_U(h.data_off % 4096, 0);
	CHECK_EQ_U(h.data_len, 320000ull * 4096);
	fsb_pack_key(3, 42, key);
	CHECK_STR(key, "d0003/f0000042");
	fsb_pack_key(4095, 9999999, key);
	CHECK_STR(key, "d4095/f9999999");

	/* write, read back every key with its bytes */
	size_t len = make_pack();
	CHECK_EQ_U(len, 4096 + DIRS * FILES * SIZE);
	fd = put("good.pack", len);
	CHECK(fd >= 0);
	rc = fsb_pack_index_open(&ix, fd, why, sizeof(why));
	CHECK_EQ_U(rc, 0);
	if (rc == 0) {
		CHECK_EQ_U(ix.h.count, DIRS * FILES);
		for (uint32_t d = 0; d < DIRS; d++)
			for (uint32_t i = 0; i < FILES; i++) {
				unsigned char got[SIZE], want[SIZE];
				fsb_pack_key(d, i, key);
				CHECK(fsb_pack_find(&ix, key, &e) == 0);
				CHECK_STR(e.key, key);
				CHECK_EQ_U(e.len, SIZE);
				memset(want, (int)(d * FILES + i) + 1, SIZE);
				CHECK(pread(fd, got, SIZE, (off_t)e.off) == SIZE && !memcmp(got, want, SIZE));
			}
		CHECK(fsb_pack_find(&ix, "d0002/f0000000", &e) == -ENOENT);
		CHECK(fsb_pack_find(&ix, "d0000/f0000003", &e) == -ENOENT);
		CHECK(fsb_pack_find(&ix, "", &e) == -ENOENT);
		fsb_pack_index_close(&ix);
	}
	close(fd);

	/* a damaged pack: refused, with the reason and the place */
	make_pack();
	img[64 + 32 + 5] ^= 1;		/* entry 1's key */
	CHECK_CONTAINS(refused(len, &rc), "index entry 1 (offset 96): check mismatch");
	CHECK_EQ_U(rc, -EBADMSG);
	make_pack();
	img[64 + 2 * 32 + 16] ^= 1;	/* entry 2's offset */
	CHECK_CONTAINS(refused(len, &rc), "index entry 2 (offset 128): check mismatch");
	make_pack();
	img[0] = 'X';
	CHECK_CONTAINS(refused(len, &rc), "no FSBPACK magic");
	make_pack();
	img[20] ^= 1;			/* the count, under the header's check */
	CHECK_CONTAINS(refused(len, &rc), "header: check mismatch");
	make_pack();
	CHECK_CONTAINS(refused(len - 1, &rc), "past the end of the file");
	CHECK_CONTAINS(refused(40, &rc), "shorter than the 64-byte header");
	make_pack();
	{	/* two entries swapped (each still checks): not sorted */
		unsigned char t[FSB_PACK_ENT];
		memcpy(t, img + 64, 32);
		memcpy(img + 64, img + 96, 32);
		memcpy(img + 96, t, 32);
	}
	CHECK_CONTAINS(refused(len, &rc), "index entry 1 (offset 96): key not after the previous one");
	make_pack();
	{	/* an entry whose data lies outside the data region */
		struct fsb_pack_ent bad = { "d0001/f0000002", 9000, SIZE };
		fsb_pack_ent_put(img + 64 + 5 * 32, &bad);
	}
	CHECK_CONTAINS(refused(len, &rc), "index entry 5: data at 9000 is outside the data region");
	make_pack();
	CHECK_STR(refused(len, &rc), "");
	CHECK_EQ_U(rc, 0);

	/* the phases, in a scratch directory */
	static struct fsb_pattern pat;
	struct fsb_phase_args a;
	struct fsb_phase_result res;
	struct fsb_config cfg;
	struct stat st;
	int base;
	struct fsb_workers *w = fsb_workers_new(DIRS);

	memset(&cfg, 0, sizeof(cfg));
	CHECK(!fsb_pack_wanted(&cfg, 1));
	cfg.pack = 1;
	CHECK(fsb_pack_wanted(&cfg, 2));
	CHECK(phase("sqlite_write") && phase("sqlite_write")->wanted == fsb_pack_wanted);
	CHECK(phase("pack_delete") && (phase("pack_delete")->flags & FSB_PH_SYNC));
	CHECK(phase("pack_read") && (phase("pack_read")->flags & FSB_PH_COLD) &&
	      (phase("pack_read")->flags & FSB_PH_VERIFY));
	CHECK(phase("pack_write") && fsb_store_of(phase("pack_write")) &&
	      !strcmp(fsb_store_of(phase("pack_write"))->name, "pack"));
	CHECK(phase("sqlite_read") && fsb_store_of(phase("sqlite_read")) &&
	      !strcmp(fsb_store_of(phase("sqlite_read"))->file, FSB_SQLITE_FILE));
	CHECK(fsb_store_of(phase("create")) == NULL);
	CHECK_STR(fsb_phase_order(phase("pack_read"), "shuffled"), "name");
	/* after delete, in this order */
	size_t at_delete = (size_t)(phase("delete") - fsb_phases);
	CHECK(phase("sqlite_write") - fsb_phases > (ptrdiff_t)at_delete);
	CHECK(phase("pack_write") - phase("sqlite_delete") == 1);

	fsb_pattern_init(&pat);
	mkdir("packing", 0755);
	base = open("packing", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(base >= 0 && w != NULL);
	if (base < 0 || !w)
		return unit_done(argv[0]);
	memset(&a, 0, sizeof(a));
	a.base_fd = base;
	a.dirs = DIRS;
	a.files = 50;
	a.workers = DIRS;
	a.round = 1;
	a.file_size = 5000;	/* not a multiple of 4 KiB: two reads of the 4 KiB buffer */
	a.verify = 1;
	a.timeout = 60;
	a.label = "test";
	a.pat = &pat;

	for (int s = 0; s < 2; s++) {
		const char *wr = s ? "pack_write" : "sqlite_write", *rd = s ? "pack_read" : "sqlite_read";
		const char *del = s ? "pack_delete" : "sqlite_delete";
		const char *file = s ? "packing/" FSB_PACK_FILE : "packing/" FSB_SQLITE_FILE;

		run(w, &a, wr, &res);
		CHECK_EQ_U(res.files, DIRS * 50);
		CHECK_EQ_U(res.bytes, DIRS * 50 * 5000);
		CHECK_EQ_U(res.errors, 0);
		CHECK(stat(file, &st) == 0 && st.st_size >= DIRS * 50 * 5000);
		if (s)
			CHECK_EQ_U(st.st_size, 4096 + DIRS * 50 * 5000);
		run(w, &a, rd, &res);
		CHECK_EQ_U(res.files, DIRS * 50);
		CHECK_EQ_U(res.bytes, DIRS * 50 * 5000);
		CHECK_EQ_U(res.errors + res.verify_errors, 0);

		/* one flipped bit of d0001/f0000007 at 4500 (the second read) */
		char fwhy[256] = "";
		CHECK(fsb_store_of(phase(wr))->fault("packing", "d0001/f0000007", 4500, fwhy,
						     sizeof(fwhy)) == 0);
		CHECK_STR(fwhy, "");
		run(w, &a, rd, &res);
		CHECK_EQ_U(res.verify_errors, 1);
		CHECK_EQ_U(res.errors, 0);
		struct fsb_wstate *ws1 = fsb_worker_state(w, 1);
		CHECK_EQ_U(ws1->nerr, 1);
		CHECK_EQ_U(ws1->err[0].idx, 7);
		CHECK_EQ_U(ws1->err[0].off, 4500);
		CHECK_EQ_U(ws1->err[0].count, 1);
		CHECK(fsb_store_of(phase(wr))->fault("packing", "d0009/f0000007", 0, fwhy,
						     sizeof(fwhy)) < 0);
		CHECK_CONTAINS(fwhy, "no such key");

		/* the pack's index damaged: an error naming it, for each batch */
		if (s) {
			CHECK(flip(file, 64 + 32 * 3) == 0);
			run(w, &a, rd, &res);
			CHECK_EQ_U(res.errors, DIRS);
			CHECK_STR(fsb_worker_state(w, 0)->err[0].op, "index");
			CHECK_EQ_U(fsb_worker_state(w, 0)->err[0].err, EBADMSG);
			CHECK(flip(file, 64 + 32 * 3) == 0);
		}
		run(w, &a, del, &res);
		CHECK_EQ_U(res.files, DIRS * 50);
		CHECK_EQ_U(res.errors, 0);
		CHECK(stat(file, &st) < 0 && errno == ENOENT);
		/* reading a store that is gone: an error, not a pass */
		run(w, &a, rd, &res);
		CHECK(res.errors >= 1);
		CHECK_EQ_U(res.files, 0);
	}
	close(base);
	fsb_workers_free(w);

	/* the report: space records loaded, the three stores side by side */
	static const char recs[] =
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"r\",\"seq\":1,\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\",\"seconds\":2,\"files\":100,\"files_per_s\":50}\n"
		"{\"schema\":1,\"type\":\"space\",\"run_id\":\"r\",\"seq\":2,\"fs\":\"ext4\",\"round\":1,\"phase\":\"create\",\"store\":\"files\",\"files\":100,\"bytes\":409600,\"disk_bytes\":819200}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"r\",\"seq\":3,\"fs\":\"ext4\",\"round\":1,\"phase\":\"read\",\"seconds\":4,\"files\":100,\"files_per_s\":25}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"r\",\"seq\":4,\"fs\":\"ext4\",\"round\":1,\"phase\":\"pack_write\",\"seconds\":0.5,\"files\":100,\"files_per_s\":200}\n"
		"{\"schema\":1,\"type\":\"space\",\"run_id\":\"r\",\"seq\":5,\"fs\":\"ext4\",\"round\":1,\"phase\":\"pack_write\",\"store\":\"pack\",\"files\":100,\"bytes\":409600,\"disk_bytes\":413696}\n"
		"{\"schema\":1,\"type\":\"phase\",\"run_id\":\"r\",\"seq\":6,\"fs\":\"xfs\",\"round\":1,\"phase\":\"create\",\"seconds\":1,\"files\":100}\n";
	struct rep_set set;
	struct rep_table t;
	char err[256];
	FILE *in = fmemopen((void *)recs, sizeof(recs) - 1, "r");
	memset(&set, 0, sizeof(set));
	CHECK(in && rep_load_stream(&set, in, "recs", err, sizeof(err)) == 0);
	if (in)
		fclose(in);
	const struct rep_run *r = set.nruns ? set.runs[0] : NULL;
	CHECK(r && r->nsp == 2);
	if (r && rep_table_packing(r, &t) == 0) {
		CHECK_EQ_U(t.nrows, 2);		/* ext4 files and pack; xfs has no packing */
		const struct rep_cell *c;
		CHECK((c = rep_table_cell(&t, 0, 2)) && c->kind == CELL_TEXT && !strcmp(c->text, "files"));
		CHECK((c = rep_table_cell(&t, 0, 3)) && c->kind == CELL_SECONDS && c->num == 2);
		CHECK((c = rep_table_cell(&t, 0, 4)) && c->kind == CELL_SECONDS && c->num == 4);
		CHECK((c = rep_table_cell(&t, 0, 5)) && c->kind == CELL_MISSING);	/* no delete */
		CHECK((c = rep_table_cell(&t, 0, 9)) && c->kind == CELL_BYTES && c->count == 819200);
		CHECK((c = rep_table_cell(&t, 0, 10)) && c->kind == CELL_NUMBER && c->num == 2.0);
		CHECK((c = rep_table_cell(&t, 1, 2)) && c->kind == CELL_TEXT && !strcmp(c->text, "pack"));
		CHECK((c = rep_table_cell(&t, 1, 6)) && c->kind == CELL_RATE && c->num == 200);
		CHECK((c = rep_table_cell(&t, 1, 9)) && c->kind == CELL_BYTES && c->count == 413696);
		rep_table_free(&t);
	} else {
		CHECK(!"the packing table");
	}
	rep_free(&set);
	/* a space record without its store is refused, naming the line */
	static const char bad[] = "{\"schema\":1,\"type\":\"space\",\"run_id\":\"r\",\"seq\":1,\"fs\":\"ext4\",\"round\":1}\n";
	in = fmemopen((void *)bad, sizeof(bad) - 1, "r");
	memset(&set, 0, sizeof(set));
	CHECK(in && rep_load_stream(&set, in, "bad", err, sizeof(err)) == -EBADMSG);
	CHECK_CONTAINS(err, "bad:1:");
	CHECK_CONTAINS(err, "store");
	if (in)
		fclose(in);
	rep_free(&set);
	return unit_done(argv[0]);
}

/* test_trim.c: TRIM: the DLFEAT decode (run/target/discard.c), the range
 * and the count of the read-back, what an errno of FITRIM means
 * (run/engine/fstrim.c), the fstrim row of the phase table, the discard
 * facts against the record schema, and the readers: the report's TRIM
 * table, the rounds and latency tables, and the verdict (discard_zeroes,
 * the phase keys over every phase). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log/record.h"
#include "log/schema.h"
#include "report/output.h"
#include "report/sections/tables.h"
#include "report/sections/trim.h"
#include "report/verdict/criteria.h"
#include "run/core/cfg.h"
#include "run/engine/fstrim.h"
#include "run/engine/phase.h"
#include "run/target/discard.h"
#include "records.h"
#include "schemas.h"
#include "unit.h"

static void test_dlfeat(void)
{
	struct fsb_dlfeat d;
	uint8_t id[FSB_NVME_IDENTIFY_LEN] = { 0 };

	fsb_dlfeat_decode(0x00, &d);
	CHECK(d.read == FSB_DLFEAT_NOT_REPORTED && !d.write_zeroes_dealloc && !d.guard_crc);
	CHECK_STR(fsb_dlfeat_read_text(d.read), "not reported");
	fsb_dlfeat_decode(0x01, &d);	/* QEMU's NVMe */
	CHECK(d.read == FSB_DLFEAT_ZEROES && !d.write_zeroes_dealloc);
	CHECK_STR(fsb_dlfeat_read_text(d.read), "zeroes");
	fsb_dlfeat_decode(0x09, &d);	/* zeroes, DEAC in Write Zeroes */
	CHECK(d.read == FSB_DLFEAT_ZEROES && d.write_zeroes_dealloc && !d.guard_crc);
	fsb_dlfeat_decode(0x12, &d);	/* ones, guard CRC */
	CHECK(d.read == FSB_DLFEAT_ONES && !d.write_zeroes_dealloc && d.guard_crc);
	CHECK_STR(fsb_dlfeat_read_text(d.read), "ones");
	CHECK_EQ_U(d.raw, 0x12);
	for (unsigned v = 3; v < 8; v++) {
		fsb_dlfeat_decode((uint8_t)(0xe0 | v), &d);	/* bits 7:5 reserved, ignored */
		CHECK(d.read == FSB_DLFEAT_RESERVED);
	}
	CHECK_STR(fsb_dlfeat_read_text(FSB_DLFEAT_RESERVED), "reserved");
	/* byte 33 of Identify Namespace, nothing else */
	memset(id, 0xff, sizeof(id));
	id[33] = 0x01;
	CHECK(fsb_id_ns_dlfeat(id, sizeof(id), &d) == 0 && d.read == FSB_DLFEAT_ZEROES && d.raw == 1);
	id[33] = 0x02;
	id[32] = id[34] = 0x01;
	CHECK(fsb_id_ns_dlfeat(id, sizeof(id), &d) == 0 && d.read == FSB_DLFEAT_ONES);
	CHECK(fsb_id_ns_dlfeat(id, 33, &d) == -EINVAL);
	CHECK(fsb_id_ns_dlfeat(id, 34, &d) == 0);
	CHECK(fsb_id_ns_dlfeat(NULL, 4096, &d) == -EINVAL);
}

static void test_range(void)
{
	uint64_t off, len;
	uint8_t buf[64] = { 0 };
	size_t first;

	/* 10 GiB, 512-byte granularity: 1 MiB in the middle */
	CHECK(fsb_zero_range(10ull << 30, 512, &off, &len) == 0);
	CHECK_EQ_U(len, 1u << 20);
	CHECK_EQ_U(off, 5ull << 30);
	/* unknown granularity: 4 KiB */
	CHECK(fsb_zero_range(3ull << 30, 0, &off, &len) == 0);
	CHECK_EQ_U(len, 1u << 20);
	CHECK(off % (1u << 20) == 0 && off + len <= 3ull << 30);
	/* a granularity larger than 1 MiB: one granule, aligned to it */
	CHECK(fsb_zero_range(1ull << 32, 4u << 20, &off, &len) == 0);
	CHECK_EQ_U(len, 4u << 20);
	CHECK_EQ_U(off % (4u << 20), 0);
	/* a granularity that does not divide 1 MiB: a whole number of them */
	CHECK(fsb_zero_range(1ull << 32, 3u << 10 << 10, &off, &len) == 0);
	CHECK_EQ_U(len % (3u << 20), 0);
	CHECK(len >= 1u << 20);
	/* too small */
	CHECK(fsb_zero_range(1u << 20, 512, &off, &len) == -EINVAL);
	CHECK(fsb_zero_range(3u << 19, 512, &off, &len) == -EINVAL);

	CHECK_EQ_U(fsb_nonzero(buf, sizeof(buf), &first), 0);
	CHECK_EQ_U(first, sizeof(buf));
	buf[17] = 1;
	buf[40] = 0x80;
	CHECK_EQ_U(fsb_nonzero(buf, sizeof(buf), &first), 2);
	CHECK_EQ_U(first, 17);
}

static void test_status(void)
{
	char why[160];

	CHECK(fsb_fstrim_status(0, why, sizeof(why)) == 0 && !why[0]);
	CHECK(fsb_fstrim_status(EOPNOTSUPP, why, sizeof(why)) == 1);
	CHECK(!strncmp(why, "not supported: ", 15));
	CHECK(fsb_fstrim_status(ENOTTY, why, sizeof(why)) == 1);
	CHECK_CONTAINS(why, "no FITRIM");
	CHECK(fsb_fstrim_status(EIO, why, sizeof(why)) == -1);
	CHECK_CONTAINS(why, "FITRIM: ");
	CHECK(strncmp(why, "not supported", 13) != 0);
	CHECK(fsb_fstrim_status(EROFS, why, sizeof(why)) == -1);
}

static void test_phase_row(void)
{
	struct fsb_config cfg;
	size_t del = fsb_phase_count, trim = fsb_phase_count;

	for (size_t i = 0; i < fsb_phase_count; i++) {
		if (!strcmp(fsb_phases[i].name, "delete"))
			del = i;
		if (!strcmp(fsb_phases[i].name, "fstrim"))
			trim = i;
	}
	CHECK(trim < fsb_phase_count && trim == del + 1);	/* right after delete */
	if (trim >= fsb_phase_count)
		return;
	CHECK(fsb_phases[trim].flags & FSB_PH_SELF);
	CHECK(!(fsb_phases[trim].flags & (FSB_PH_COLD | FSB_PH_SYNC | FSB_PH_VERIFY)));
	CHECK(fsb_phases[trim].op == NULL && fsb_phases[trim].wanted);
	memset(&cfg, 0, sizeof(cfg));
	cfg.fstrim = 1;
	CHECK(fsb_phases[trim].wanted(&cfg, 1) && fsb_phases[trim].wanted(&cfg, 3));
	cfg.fstrim = 0;
	CHECK(!fsb_phases[trim].wanted(&cfg, 1));
	for (size_t i = 0; i < fsb_phase_count; i++)	/* only fstrim has no workers */
		CHECK(i == trim || (fsb_phases[i].op && !(fsb_phases[i].flags & FSB_PH_SELF)));
}

static void test_json(void)
{
	struct fsb_discard x;
	struct fsb_rec r;

	memset(&x, 0, sizeof(x));
	x.have_limits = 1;
	x.granularity = 512;
	x.max_bytes = x.max_hw_bytes = 2147483136;
	x.write_zeroes_max = 524288;
	x.have_dlfeat = 1;
	fsb_dlfeat_decode(0x09, &x.dlfeat);
	schema_run_start(&r, "/dev/nvme0n1");
	fsb_discard_json(&r, K(discard), &x);
	rec_close(&r);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"discard\":{\"granularity\":512,\"max_bytes\":2147483136,"
		       "\"max_hw_bytes\":2147483136,\"write_zeroes_max_bytes\":524288,"
		       "\"dlfeat\":{\"raw\":9,\"read\":\"zeroes\",\"write_zeroes_dealloc\":true,"
		       "\"guard_crc\":false}}");
	CHECK_EQ_U(schema_violations(r.buf), 0);

	/* what could not be read: reasons, still valid */
	memset(&x, 0, sizeof(x));
	snprintf(x.limits_why, sizeof(x.limits_why), "not available: x: No such file or directory");
	snprintf(x.dlfeat_why, sizeof(x.dlfeat_why), "not available: not an NVMe disk (loop)");
	schema_run_start(&r, "/dev/loop0");
	fsb_discard_json(&r, K(discard), &x);
	rec_close(&r);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"discard\":{\"limits\":\"not available: x: No such file or directory\","
		       "\"dlfeat\":\"not available: not an NVMe disk (loop)\"}");
	CHECK_EQ_U(schema_violations(r.buf), 0);
}

#define REC(type, rest) "{\"schema\":1,\"type\":\"" type "\",\"run_id\":\"bb22\"," rest "}\n"
#define PH(rd, ph, s, files, fps, p99) REC("phase", "\"fs\":\"ext4\",\"round\":" #rd \
	",\"phase\":\"" ph "\",\"seconds\":" #s ",\"files\":" #files ",\"files_per_s\":" #fps \
	",\"lat_ns\":{\"p99\":" #p99 "},\"errors\":0,\"verify_errors\":0,\"workers\":4")
#define TRIM(rd, s, bytes, st) REC("phase", "\"fs\":\"ext4\",\"round\":" #rd \
	",\"phase\":\"fstrim\",\"order\":\"none\",\"seconds\":" #s ",\"files\":0,\"bytes\":" #bytes \
	",\"files_per_s\":0,\"lat_ns\":{\"p99\":90000000},\"errors\":0,\"verify_errors\":0," \
	"\"workers\":0,\"trim\":\"" st "\"")

static const char RUN[] =
	REC("fs_start", "\"fs\":\"ext4\"")
	PH(1, "create", 1.0, 1000, 1000, 5000)
	PH(1, "delete", 0.5, 1000, 2000, 4000)
	TRIM(1, 0.25, 10463997952, "ok")
	PH(2, "create", 1.0, 1000, 1000, 5000)
	PH(2, "delete", 0.5, 1000, 2000, 4000)
	TRIM(2, 0.125, 4096, "ok")
	REC("fs_end", "\"fs\":\"ext4\",\"status\":\"ok\"")
	REC("fs_start", "\"fs\":\"f2fs\"")
	TRIM(1, 0, 0, "not supported: the filesystem or its device does not discard (FITRIM: Operation not supported)")
	REC("fs_end", "\"fs\":\"f2fs\",\"status\":\"ok\"")
	REC("discard_check", "\"device\":\"/dev/nvme0n1\",\"status\":\"not zero\",\"nonzero_bytes\":512");

static const char *cell_text(const struct rep_table *t, size_t row, size_t col)
{
	const struct rep_cell *c = rep_table_cell(t, row, col);
	return c && c->text ? c->text : "";
}

static struct vd_check *find_check(struct vd_result *res, const char *what)
{
	for (size_t i = 0; i < res->n; i++)
		if (strstr(res->check[i].what, what))
			return &res->check[i];
	return NULL;
}

static void test_readers(void)
{
	struct rep_set set;
	struct rep_table t;
	struct vd_criteria c;
	struct vd_result res;
	const struct rep_run *r = unit_run_text(&set, RUN, "trim.jsonl");

	if (!r)
		return;
	/* the TRIM table: a row per fstrim phase, one for the read-back */
	CHECK(rep_table_trim(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 4);
	CHECK_STR(cell_text(&t, 0, 0), "ext4");
	CHECK_EQ_U(rep_table_cell(&t, 0, 3)->count, 10463997952ull);
	CHECK_STR(cell_text(&t, 0, 4), "ok");
	CHECK(!strncmp(cell_text(&t, 2, 4), "not supported: ", 15));
	CHECK_STR(cell_text(&t, 3, 0), "target");
	CHECK_CONTAINS(cell_text(&t, 3, 4), "not zero");
	rep_table_free(&t);
	/* the rounds table: no files/s for fstrim; latency: no fstrim rows */
	CHECK(rep_table_rounds(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 7);
	CHECK(rep_table_cell(&t, 2, 8)->kind == CELL_MISSING);
	CHECK(rep_table_cell(&t, 1, 8)->kind == CELL_RATE);
	rep_table_free(&t);
	CHECK(rep_table_latency(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 4);
	rep_table_free(&t);

	/* the verdict: the phase keys over every phase pass by fstrim (no
	 * files, no per-file latency); its seconds can be held; the
	 * read-back that found bytes fails */
	vd_criteria_init(&c, "ext4,f2fs", "create,delete,fstrim", "");
	char err[512];
	CHECK(vd_criteria_add(&c, "min_files_per_s.*", "100", "t:1", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "max_p99_us.ext4.*", "50", "t:2", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "max_seconds.ext4.fstrim", "0.2", "t:3", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "discard_zeroes", "ok", "t:4", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "discard_zeroes", "yes", "t:5", err, sizeof(err)) != 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	CHECK(find_check(&res, "fstrim files/s") == NULL);
	CHECK(find_check(&res, "fstrim p99") == NULL);
	struct vd_check *k = find_check(&res, "ext4 fstrim seconds");
	CHECK(k && !k->pass && k->value == 0.25);
	k = find_check(&res, "ext4 create files/s");
	CHECK(k && k->pass);
	k = find_check(&res, "discarded range");
	CHECK(k && !k->pass && k->measured_ok);
	CHECK_CONTAINS(k ? k->measured : NULL, "512 bytes");
	CHECK_EQ_U(res.nfail, 2);
	vd_result_free(&res);
	vd_criteria_free(&c);
	rep_free(&set);

	/* ok reads back zeroes: PASS; no record: not measured */
	CHECK(unit_load_records(&set, REC("discard_check", "\"device\":\"/dev/nvme0n1\",\"status\":\"ok\","
					  "\"nonzero_bytes\":0"), "ok.jsonl", err, sizeof(err)) == 0);
	vd_criteria_init(&c, "ext4", "create", "");
	CHECK(vd_criteria_add(&c, "discard_zeroes", "ok", "t:1", err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, rep_find(&set, NULL), &res) == 0);
	CHECK(res.n == 1 && res.check[0].pass && res.nfail == 0);
	vd_result_free(&res);
	rep_free(&set);
	CHECK(unit_load_records(&set, REC("fs_start", "\"fs\":\"ext4\""), "none.jsonl", err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, rep_find(&set, NULL), &res) == 0);
	CHECK(res.n == 1 && !res.check[0].pass && !res.check[0].measured_ok);
	CHECK_CONTAINS(res.check[0].measured, "not measured");
	vd_result_free(&res);
	vd_criteria_free(&c);
	rep_free(&set);
}

UNIT_MAIN(test_dlfeat, test_range, test_status, test_phase_row, test_json, test_readers)

/* test_zone.c: zoned targets: the zone model from a queue folder and the
 * zones of a report summed up (run/target/zone.c), the facts against the
 * record schema, the plan of each filesystem on a host-managed target and
 * its refusals (run/fs/fs.c), the mkfs argv of each plan
 * (run/fs/mkfsargv.c), and the readers: the report's zoned table, the
 * refused column in KTAP and JUnit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log/record.h"
#include "report/output.h"
#include "report/writers/writer.h"
#include "report/sections/zoned.h"
#include "run/fs/fs.h"
#include "run/fs/mkfsargv.h"
#include "run/target/zone.h"
#include "records.h"
#include "schemas.h"
#include "unit.h"

static void put(const char *dir, const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_model(void)
{
	enum fsb_zone_model m = FSB_ZONE_NONE;

	CHECK(fsb_zone_model_parse("host-managed", &m) == 0 && m == FSB_ZONE_HOST_MANAGED);
	CHECK(fsb_zone_model_parse("host-aware", &m) == 0 && m == FSB_ZONE_HOST_AWARE);
	CHECK(fsb_zone_model_parse("none", &m) == 0 && m == FSB_ZONE_NONE);
	CHECK(fsb_zone_model_parse("host-managed\n", &m) == -EINVAL);
	CHECK(fsb_zone_model_parse("", &m) == -EINVAL);
	CHECK(fsb_zone_model_parse(NULL, &m) == -EINVAL);
	CHECK_STR(fsb_zone_model_text(FSB_ZONE_HOST_MANAGED), "host-managed");
	CHECK_STR(fsb_zone_model_text((enum fsb_zone_model)7), "?");
}

static void test_read(void)
{
	struct fsb_zoneinfo z;

	/* a ZNS namespace as Linux 6.1 shows it: 64 MiB zones, 14/14 */
	mkdir("zns", 0755);
	put("zns", "zoned", "host-managed\n");
	put("zns", "chunk_sectors", "131072\n");
	put("zns", "nr_zones", "32\n");
	put("zns", "max_open_zones", "14\n");
	put("zns", "max_active_zones", "0\n");
	CHECK(fsb_zoneinfo_read("zns", &z) == 0);
	CHECK(z.have && z.model == FSB_ZONE_HOST_MANAGED && fsb_zoned_strict(&z));
	CHECK_EQ_U(z.zone_bytes, 64ull << 20);
	CHECK_EQ_U(z.nr_zones, 32);
	CHECK(z.have_limits);
	CHECK_EQ_U(z.max_open, 14);
	CHECK_EQ_U(z.max_active, 0);

	/* before Linux 5.9: no limits, said so */
	mkdir("old", 0755);
	put("old", "zoned", "host-aware\n");
	put("old", "chunk_sectors", "524288\n");
	put("old", "nr_zones", "100\n");
	CHECK(fsb_zoneinfo_read("old", &z) == 0);
	CHECK(z.have && z.model == FSB_ZONE_HOST_AWARE && !fsb_zoned_strict(&z));
	CHECK(!z.have_limits && z.max_open == 0 && z.max_active == 0);
	CHECK_EQ_U(z.zone_bytes, 256ull << 20);

	/* a conventional disk: the model and nothing else */
	mkdir("conv", 0755);
	put("conv", "zoned", "none\n");
	put("conv", "chunk_sectors", "256\n");	/* a RAID chunk, not a zone */
	CHECK(fsb_zoneinfo_read("conv", &z) == 0);
	CHECK(z.have && z.model == FSB_ZONE_NONE && z.zone_bytes == 0 && !fsb_zoned_strict(&z));

	/* what cannot be read or understood: a reason, never a guess */
	CHECK(fsb_zoneinfo_read("missing", &z) == 0);
	CHECK(!z.have && !fsb_zoned_strict(&z));
	CHECK_CONTAINS(z.why, "not available: missing/zoned: No such file or directory");
	mkdir("odd", 0755);
	put("odd", "zoned", "host-mangled\n");
	CHECK(fsb_zoneinfo_read("odd", &z) == 0);
	CHECK(!z.have);
	CHECK_CONTAINS(z.why, "unknown model 'host-mangled'");
	/* a limit that is not a number: no limits, rather than a wrong one */
	put("zns", "max_active_zones", "-1\n");
	CHECK(fsb_zoneinfo_read("zns", &z) == 0);
	CHECK(z.have && !z.have_limits && z.max_open == 0);
}

static struct fsb_blk_zone zone(uint64_t start, uint64_t len, uint64_t wp, int type, int cond,
				uint64_t cap)
{
	struct fsb_blk_zone z;

	memset(&z, 0, sizeof(z));
	z.start = start;
	z.len = len;
	z.wp = wp;
	z.type = (uint8_t)type;
	z.cond = (uint8_t)cond;
	z.capacity = cap;
	return z;
}

static void test_tally(void)
{
	const uint64_t L = 131072, C = 98304;	/* 64 MiB zones holding 48 MiB */
	struct fsb_blk_zone z[] = {
		zone(0, L, 0, FSB_ZONE_TYPE_CONVENTIONAL, FSB_ZONE_COND_NOT_WP, L),
		zone(L, L, L, FSB_ZONE_TYPE_SEQWRITE_REQ, FSB_ZONE_COND_EMPTY, C),
		zone(2 * L, L, 2 * L + 2048, FSB_ZONE_TYPE_SEQWRITE_REQ, FSB_ZONE_COND_IMP_OPEN, C),
		zone(3 * L, L, 3 * L + 8, FSB_ZONE_TYPE_SEQWRITE_REQ, FSB_ZONE_COND_EXP_OPEN, C),
		zone(4 * L, L, 4 * L + 16, FSB_ZONE_TYPE_SEQWRITE_REQ, FSB_ZONE_COND_CLOSED, C),
		/* full: its write pointer says nothing, its capacity is written */
		zone(5 * L, L, ~0ull, FSB_ZONE_TYPE_SEQWRITE_REQ, FSB_ZONE_COND_FULL, C),
		zone(6 * L, L, 0, FSB_ZONE_TYPE_SEQWRITE_REQ, FSB_ZONE_COND_OFFLINE, C),
		zone(7 * L, L, 7 * L, FSB_ZONE_TYPE_SEQWRITE_PREF, FSB_ZONE_COND_READONLY, C - 8),
	};
	struct fsb_zone_tally t;

	memset(&t, 0, sizeof(t));
	fsb_zone_tally_add(&t, z, 8, FSB_ZONE_REP_CAPACITY);
	CHECK_EQ_U(t.zones, 8);
	CHECK_EQ_U(t.conventional, 1);
	CHECK_EQ_U(t.seq_required, 6);
	CHECK_EQ_U(t.seq_preferred, 1);
	CHECK_EQ_U(t.empty, 1);
	CHECK_EQ_U(t.open, 2);
	CHECK_EQ_U(t.closed, 1);
	CHECK_EQ_U(t.full, 1);
	CHECK_EQ_U(t.offline, 1);
	CHECK_EQ_U(t.readonly, 1);
	CHECK_EQ_U(t.written_bytes, (2048 + 8 + 16 + C) * 512);
	CHECK(t.capacity_reported);
	CHECK_EQ_U(t.capacity_min, (C - 8) * 512);
	CHECK_EQ_U(t.capacity_max, C * 512);

	/* without the capacity flag (an older kernel): the zone length */
	memset(&t, 0, sizeof(t));
	fsb_zone_tally_add(&t, z + 1, 2, 0);
	CHECK(!t.capacity_reported);
	CHECK_EQ_U(t.capacity_min, L * 512);
	CHECK_EQ_U(t.written_bytes, 2048 * 512);
	/* added in pieces as the ioctl hands them out: the same sums */
	struct fsb_zone_tally a;
	memset(&a, 0, sizeof(a));
	memset(&t, 0, sizeof(t));
	fsb_zone_tally_add(&a, z, 8, FSB_ZONE_REP_CAPACITY);
	fsb_zone_tally_add(&t, z, 3, FSB_ZONE_REP_CAPACITY);
	fsb_zone_tally_add(&t, z + 3, 5, FSB_ZONE_REP_CAPACITY);
	CHECK(!memcmp(&a, &t, sizeof(t)));
	/* a block device that is not zoned: the ioctl refuses, said as -errno */
	CHECK(fsb_zone_report("/dev/null", &t) < 0);
	CHECK(fsb_zone_report("/no/such/device", &t) == -ENOENT);
}

static void run_start_with(struct fsb_rec *r, const struct fsb_zoneinfo *z)
{
	schema_run_start(r, "/dev/nvme0n2");
	/* /dev/null: the report is not available, and says why */
	fsb_zone_json(r, K(zoned), z, "/dev/null");
	rec_close(r);
}

static void test_json(void)
{
	struct fsb_zoneinfo z;
	struct fsb_rec r;

	CHECK(fsb_zoneinfo_read("zns", &z) == 0);	/* limits unreadable since test_read */
	put("zns", "max_active_zones", "14\n");
	CHECK(fsb_zoneinfo_read("zns", &z) == 0 && z.have_limits);
	run_start_with(&r, &z);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"zoned\":{\"model\":\"host-managed\",\"zone_bytes\":67108864,\"zones\":32,"
		       "\"max_open_zones\":14,\"max_active_zones\":14,\"report\":\"not available: "
		       "BLKREPORTZONE on /dev/null: ");
	CHECK_EQ_U(schema_violations(r.buf), 0);
	CHECK(fsb_zoneinfo_read("conv", &z) == 0);
	run_start_with(&r, &z);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"zoned\":{\"model\":\"none\"}");
	CHECK_EQ_U(schema_violations(r.buf), 0);
	CHECK(fsb_zoneinfo_read("missing", &z) == 0);
	run_start_with(&r, &z);
	CHECK(rec_end(&r) > 0);
	CHECK_CONTAINS(r.buf, "\"zoned\":\"not available: missing/zoned: No such file or directory\"");
	CHECK_EQ_U(schema_violations(r.buf), 0);
}

static const struct fsb_fs *fs_named(const char *name)
{
	int i = fsb_fs_index(name);
	return i < 0 ? NULL : &fsb_fs_table[i];
}

static void test_plan(void)
{
	struct fsb_zoneinfo hm, ha, none;
	char why[512] = "";

	memset(&hm, 0, sizeof(hm));
	hm.have = 1;
	hm.model = FSB_ZONE_HOST_MANAGED;
	hm.zone_bytes = 64ull << 20;
	ha = hm;
	ha.model = FSB_ZONE_HOST_AWARE;
	memset(&none, 0, sizeof(none));
	none.have = 1;
	/* not host-managed: every filesystem as on any disk */
	for (size_t i = 0; i < fsb_fs_count; i++) {
		CHECK(fsb_fs_zoned_plan(&fsb_fs_table[i], &none, "/dev/sda", "", why, sizeof(why)) == FSB_ZPLAN_PLAIN);
		CHECK(fsb_fs_zoned_plan(&fsb_fs_table[i], &ha, "/dev/sda", "", why, sizeof(why)) == FSB_ZPLAN_PLAIN);
	}
	/* host-managed */
	CHECK(fsb_fs_zoned_plan(fs_named("btrfs"), &hm, "/dev/nvme0n2", "", why, sizeof(why)) == FSB_ZPLAN_NATIVE);
	CHECK(fsb_fs_zoned_plan(fs_named("f2fs"), &hm, "/dev/nvme0n2", "/dev/nvme0n1", why, sizeof(why)) ==
	      FSB_ZPLAN_CONV);
	why[0] = 0;
	CHECK(fsb_fs_zoned_plan(fs_named("f2fs"), &hm, "/dev/nvme0n2", "", why, sizeof(why)) ==
	      FSB_ZPLAN_REFUSED);
	CHECK_CONTAINS(why, "f2fs on /dev/nvme0n2: a host-managed zoned device (sequential writes only, "
		       "zones of 64 MiB)");
	CHECK_CONTAINS(why, "setting zoned_conv");
	CHECK(fsb_fs_zoned_plan(fs_named("f2fs"), &hm, "/dev/nvme0n2", NULL, why, sizeof(why)) ==
	      FSB_ZPLAN_REFUSED);
	why[0] = 0;
	CHECK(fsb_fs_zoned_plan(fs_named("ext4"), &hm, "/dev/nvme0n2", "/dev/nvme0n1", why, sizeof(why)) ==
	      FSB_ZPLAN_REFUSED);
	CHECK_CONTAINS(why, "ext4 on /dev/nvme0n2: a host-managed zoned device");
	CHECK_CONTAINS(why, "ext4 has no zoned mode");
	CHECK_CONTAINS(why, "(kernel ");
	why[0] = 0;
	CHECK(fsb_fs_zoned_plan(fs_named("xfs"), &hm, "/dev/nvme0n2", "", why, sizeof(why)) == FSB_ZPLAN_REFUSED);
	CHECK_CONTAINS(why, "xfs on /dev/nvme0n2");
	CHECK_CONTAINS(why, "Linux 6.15");
	/* the zone size unknown: still refused, without a size */
	hm.zone_bytes = 0;
	CHECK(fsb_fs_zoned_plan(fs_named("ext4"), &hm, "/dev/sdb", "", why, sizeof(why)) == FSB_ZPLAN_REFUSED);
	CHECK_CONTAINS(why, "(sequential writes only): ext4");
	CHECK_STR(fsb_zplan_text(FSB_ZPLAN_NATIVE), "native");
	CHECK_STR(fsb_zplan_text(FSB_ZPLAN_CONV), "metadata on conventional device");
	CHECK(fsb_zplan_text(FSB_ZPLAN_PLAIN) == NULL && fsb_zplan_text(FSB_ZPLAN_REFUSED) == NULL);
}

static void test_argv(void)
{
	struct fsb_mkfs_argv a;
	char many[300];

	CHECK(fsb_mkfs_argv(&a, "/sbin/mkfs.btrfs", fs_named("btrfs"), FSB_ZPLAN_NATIVE, NULL, "-n 16k", "",
			    "/dev/nvme0n2") == 0);
	CHECK_STR(a.text, "/sbin/mkfs.btrfs -f -q -O zoned -d single -m single -n 16k /dev/nvme0n2");
	CHECK(a.argv[a.argc] == NULL && a.argc == 12);
	/* f2fs: the conventional device is the one made (last); -c adds the zoned one */
	CHECK(fsb_mkfs_argv(&a, "/sbin/mkfs.f2fs", fs_named("f2fs"), FSB_ZPLAN_CONV, "/dev/nvme0n2", "",
			    "-s 4", "/dev/nvme0n1") == 0);
	CHECK_STR(a.text, "/sbin/mkfs.f2fs -f -q -m -c /dev/nvme0n2 -s 4 /dev/nvme0n1");
	/* on any other disk: no zoned arguments */
	CHECK(fsb_mkfs_argv(&a, "/sbin/mkfs.f2fs", fs_named("f2fs"), FSB_ZPLAN_PLAIN, "/dev/nvme0n2", "  ",
			    "", "/dev/sda") == 0);
	CHECK_STR(a.text, "/sbin/mkfs.f2fs -f -q /dev/sda");
	CHECK(fsb_mkfs_argv(&a, "/sbin/mke2fs", fs_named("ext4"), FSB_ZPLAN_PLAIN, NULL, "-E nodiscard",
			    "-O ^has_journal", "/dev/loop0") == 0);
	CHECK_STR(a.text, "/sbin/mke2fs -t ext4 -F -q -E nodiscard -O ^has_journal /dev/loop0");
	/* too many words, or options too long: refused, not cut */
	memset(many, 0, sizeof(many));
	for (size_t i = 0; i + 2 < 250; i += 2)
		memcpy(many + i, "x ", 2);
	CHECK(fsb_mkfs_argv(&a, "/sbin/mke2fs", fs_named("ext4"), FSB_ZPLAN_PLAIN, NULL, many, "",
			    "/dev/loop0") == -E2BIG);
	memset(many, 'x', sizeof(many) - 1);
	many[sizeof(many) - 1] = 0;
	CHECK(fsb_mkfs_argv(&a, "/sbin/mke2fs", fs_named("ext4"), FSB_ZPLAN_PLAIN, NULL, many, "",
			    "/dev/loop0") == -E2BIG);
}

#define REC(type, rest) "{\"schema\":1,\"type\":\"" type "\",\"run_id\":\"cc33\"," rest "}\n"
static const char RUN[] =
	REC("run_start", "\"seq\":0,\"t\":0,\"tool\":\"fsbench\",\"version\":\"0\",\"mode\":\"device\","
	    "\"time_unix\":1,\"host\":{\"cpu_model\":\"c\",\"cpus\":1,\"mem_bytes\":1,\"dmi\":{}},"
	    "\"target\":{\"path\":\"/dev/nvme0n2\",\"zoned\":{\"model\":\"host-managed\","
	    "\"zone_bytes\":67108864,\"zones\":32,\"max_open_zones\":0,\"max_active_zones\":0,"
	    "\"report\":{\"zones\":32,\"conventional\":0,\"seq_required\":32,\"seq_preferred\":0,"
	    "\"cond_empty\":32,\"cond_open\":0,\"cond_closed\":0,\"cond_full\":0,\"cond_readonly\":0,"
	    "\"cond_offline\":0,\"written_bytes\":0,\"capacity_min_bytes\":50331648,"
	    "\"capacity_max_bytes\":50331648}}},"
	    "\"zoned_conv\":{\"path\":\"/dev/nvme0n1\",\"zoned\":{\"model\":\"none\"}},"
	    "\"config\":{\"fs\":\"btrfs,f2fs,ext4\"}")
	REC("fs_start", "\"seq\":1,\"t\":1,\"fs\":\"btrfs\",\"device\":\"/dev/nvme0n2\",\"support\":\"present\","
	    "\"zoned_mode\":\"native\"")
	REC("fs_end", "\"seq\":2,\"t\":2,\"fs\":\"btrfs\",\"status\":\"ok\",\"reason\":\"\"")
	REC("fs_start", "\"seq\":3,\"t\":3,\"fs\":\"f2fs\",\"device\":\"/dev/nvme0n1\",\"support\":\"present\","
	    "\"zoned_mode\":\"metadata on conventional device\",\"zoned_device\":\"/dev/nvme0n2\"")
	REC("fs_end", "\"seq\":4,\"t\":4,\"fs\":\"f2fs\",\"status\":\"ok\",\"reason\":\"\"")
	REC("fs_end", "\"seq\":5,\"t\":5,\"fs\":\"ext4\",\"status\":\"refused\","
	    "\"reason\":\"ext4 on /dev/nvme0n2: a host-managed zoned device\"")
	REC("run_end", "\"seq\":6,\"t\":6,\"status\":\"ok\",\"exit_code\":0,\"seconds\":6,\"fs_ok\":2,"
	    "\"fs_failed\":0,\"fs_refused\":1");

static const char *cell_text(const struct rep_table *t, size_t row, size_t col)
{
	const struct rep_cell *c = rep_table_cell(t, row, col);
	return c && c->text ? c->text : "";
}

static void test_readers(void)
{
	struct rep_set set;
	const struct rep_run *r = unit_run_text(&set, RUN, "zoned.jsonl");
	struct rep_table t;

	if (!r)
		return;
	CHECK_EQ_U(schema_violations(RUN), 0);
	CHECK(rep_has_zones(r));
	CHECK(rep_table_zoned(r, &t) == 0);
	CHECK_EQ_U(t.nrows, 5);
	CHECK_STR(cell_text(&t, 0, 0), "target");
	CHECK_CONTAINS(cell_text(&t, 0, 1), "host-managed: 32 zones of 64.0 MiB, capacity 48.0 MiB, "
		       "max open 0, max active 0");
	{
		static const struct cell_want want[] = {
			{ 0, 2, "/dev/nvme0n2" }, { 1, 0, "zoned_conv" }, { 1, 2, "/dev/nvme0n1" },
			{ 2, 0, "btrfs" }, { 2, 1, "native" }, { 3, 1, "metadata on conventional device" },
			{ 3, 2, "/dev/nvme0n1 (metadata), /dev/nvme0n2 (data)" }, { 4, 0, "ext4" },
			{ 4, 1, "not made" },
			{ 4, 3, "refused: ext4 on /dev/nvme0n2: a host-managed zoned device" },
		};
		CELLS_CHECK(&t, NULL, want);
	}
	rep_table_free(&t);
	/* KTAP: the refused column a SKIP with its reason; JUnit: skipped */
	char *k = report_text(r, "ktap", 1);
	CHECK_CONTAINS(k, "ok 3 ext4 # SKIP");
	free(k);
	char *j = report_text(r, "junit", 1);
	CHECK_CONTAINS(j, "<skipped type=\"refused\" message=\"refused: ext4 on /dev/nvme0n2");
	free(j);
	rep_free(&set);

	/* a conventional target: no zoned table */
	char err[512];
	CHECK(unit_load_records(&set, REC("run_start", "\"target\":{\"path\":\"/dev/sda\","
					  "\"zoned\":{\"model\":\"none\"}}"), "conv.jsonl", err, sizeof(err)) == 0);
	r = rep_find(&set, NULL);
	CHECK(r && !rep_has_zones(r));
	rep_free(&set);
}

UNIT_MAIN(test_model, test_read, test_tally, test_json, test_plan, test_argv, test_readers)

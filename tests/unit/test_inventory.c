/* test_inventory.c: the verdict's inventory and flash keys
 * (report/verdict/inventory.c) on synthetic runs: a USB stick on a USB 2
 * port, an eMMC in HS200 with its EXT_CSD, a SATA disk at 3 Gb/s of 6, an
 * NVMe run from before the bus facts, and a run without health records.
 * Each key passes, fails with the measured and the expected value, and
 * says "not measured (REASON)" where the run lacks the fact; bad values;
 * criteria written from a run hold what it came up with and pass on it;
 * the health table's flash rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "report/sections/tables.h"
#include "report/verdict/rules.h"
#include "records.h"
#include "unit.h"
#include "verdicts.h"

#define REC(type, rest) "{\"schema\":1,\"type\":\"" type "\",\"run_id\":\"bb22\"," rest "}\n"
#define NA(k, why) "\"" k "\":\"not available: " why "\""

static const char USB[] =
	REC("run_start", "\"target\":{\"path\":\"/dev/sda\",\"model\":\"SanDisk Ultra\"}")
	REC("health", "\"when\":\"before\",\"device\":\"/dev/sda\",\"transport\":\"usb\",\"bus\":\"usb\","
	    "\"usb\":{\"device\":\"2-1\",\"speed_mbps\":480,\"version\":\"2.00\",\"transport\":\"bot\"},"
	    NA("sata_link", "not a SATA disk") "," NA("mmc", "not an SD card or eMMC") ","
	    NA("flash", "neither an eMMC nor a UFS device (transport usb)"))
	REC("health", "\"when\":\"after\",\"device\":\"/dev/sda\",\"transport\":\"usb\",\"bus\":\"usb\","
	    "\"usb\":{\"device\":\"2-1\",\"speed_mbps\":480,\"version\":\"2.00\",\"transport\":\"bot\"},"
	    NA("sata_link", "not a SATA disk") "," NA("mmc", "not an SD card or eMMC") ","
	    NA("flash", "neither an eMMC nor a UFS device (transport usb)"));

#define EMMC_FLASH(when, a, araw, apct, b, braw, bpct, eol, eolraw) \
	REC("health", "\"when\":\"" when "\",\"device\":\"/dev/mmcblk0\",\"transport\":\"mmc\",\"bus\":\"mmc\"," \
	    "\"mmc\":{\"type\":\"MMC\",\"name\":\"8GTF4R\",\"timing\":\"mmc HS200\"}," \
	    NA("usb", "not a USB disk") "," NA("sata_link", "not a SATA disk") "," \
	    "\"flash\":{\"kind\":\"emmc\",\"source\":\"EXT_CSD\",\"life_a\":\"" a "\",\"life_a_raw\":" #araw \
	    ",\"life_a_pct_max\":" #apct ",\"life_b\":\"" b "\",\"life_b_raw\":" #braw ",\"life_b_pct_max\":" \
	    #bpct ",\"pre_eol\":\"" eol "\",\"pre_eol_raw\":" #eolraw ",\"hs_timing\":\"HS200\"}")

static const char EMMC[] =
	REC("run_start", "\"target\":{\"path\":\"/dev/mmcblk0\",\"model\":\"\"}")
	EMMC_FLASH("before", "10-20%", 2, 20, "0-10%", 1, 10, "normal", 1)
	EMMC_FLASH("after", "10-20%", 2, 20, "0-10%", 1, 10, "normal", 1);

/* worn: pre-EOL warning after the run, life B at 80-90 % */
static const char WORN[] =
	EMMC_FLASH("before", "10-20%", 2, 20, "70-80%", 8, 80, "normal", 1)
	EMMC_FLASH("after", "10-20%", 2, 20, "80-90%", 9, 90, "warning", 2);

/* beyond the estimated life, the pre-EOL undefined */
static const char DEAD[] =
	REC("health", "\"when\":\"before\",\"transport\":\"mmc\",\"flash\":{\"kind\":\"emmc\","
	    "\"source\":\"EXT_CSD\",\"life_a\":\"exceeded\",\"life_a_raw\":11,\"life_b\":\"undefined\","
	    "\"life_b_raw\":0,\"pre_eol\":\"undefined\",\"pre_eol_raw\":0}");

/* an eMMC 4.5: no life fields; no mmc object, the timing from EXT_CSD */
static const char OLD_EMMC[] =
	REC("health", "\"when\":\"before\",\"transport\":\"mmc\",\"flash\":{\"kind\":\"emmc\","
	    "\"source\":\"EXT_CSD\",\"life_a\":\"not available: EXT_CSD revision 6 (eMMC 4.5) predates\","
	    "\"life_b\":\"not available: EXT_CSD revision 6 (eMMC 4.5) predates\","
	    "\"pre_eol\":\"not available: EXT_CSD revision 6 (eMMC 4.5) predates\",\"hs_timing\":\"HS\"}");

static const char SATA[] =
	REC("run_start", "\"target\":{\"path\":\"/dev/sdb\",\"model\":\"WDC WD10EZEX\"}")
	REC("health", "\"when\":\"before\",\"transport\":\"sata\",\"bus\":\"sata\",\"sata_link\":{\"port\":"
	    "\"ata2\",\"speed\":\"3.0 Gbps\",\"speed_gbps\":3,\"limit\":\"6.0 Gbps\"}");

/* a recording from before the bus facts: the transport only */
static const char NVME[] =
	REC("run_start", "\"target\":{\"path\":\"/dev/nvme0n1\",\"model\":\"QEMU NVMe Ctrl\"}")
	REC("health", "\"when\":\"before\",\"device\":\"/dev/nvme0n1\",\"transport\":\"nvme\"");

static const char BARE[] =
	REC("fs_start", "\"fs\":\"ext4\"")
	REC("fs_end", "\"fs\":\"ext4\",\"status\":\"ok\"");

static struct rep_set sets[40];
static size_t nsets;

static const struct rep_run *load(const char *text)
{
	char err[512];
	struct rep_set *s = &sets[nsets++];

	if (unit_load_records(s, text, "mem.jsonl", err, sizeof(err)) || s->nruns != 1) {
		fprintf(stderr, "test_inventory: %s\n", err);
		CHECK(0);
		return NULL;
	}
	return s->runs[0];
}

static void test_flash(const struct rep_run *emmc, const struct rep_run *usb)
{
	const struct rep_run *worn = load(WORN), *dead = load(DEAD), *old = load(OLD_EMMC);

	const struct vd_case flash[] = {
		{ emmc, "flash_pre_eol", "normal", 1, .is = "normal (emmc) | <= normal" },
		{ worn, "flash_pre_eol", "normal", 0, .is = "warning (emmc) | <= normal" },
		{ worn, "flash_pre_eol", "warning", .pass = 1 },
		{ dead, "flash_pre_eol", "urgent", 0, .is = "not measured (the device does not define its pre-EOL information (0x00)) | <= urgent" },
		{ old, "flash_pre_eol", "normal", 0, .has = "not measured (pre-EOL information not available: EXT_CSD revision 6" },
		{ usb, "flash_pre_eol", "normal", 0, .is = "not measured (not available: neither an eMMC nor a UFS device (transport usb)) | <= normal" },

		{ emmc, "flash_life_used_max", "80%", 1, .is = "at most 20% (life A 10-20%, life B 0-10%) | <= 80%" },
		{ emmc, "flash_life_used_max", "15", 0, .is = "at most 20% (life A 10-20%, life B 0-10%) | <= 15%" },
		/* the worst band of both records: B went to 80-90 % */
		{ worn, "flash_life_used_max", "80%", 0, .is = "at most 90% (life A 10-20%, life B 80-90%) | <= 80%" },
		{ worn, "flash_life_used_max", "90%", .pass = 1 },
		{ dead, "flash_life_used_max", "100%", 0, .is = "beyond the estimated life (life A exceeded, life B undefined) | <= 100%" },
		{ old, "flash_life_used_max", "80%", 0, .has = "not measured (life A not available: EXT_CSD revision 6" },
		{ usb, "flash_life_used_max", "80%", 0, .has = "not measured (not available: neither an eMMC nor a UFS device" },
	};
	VD_CASES(flash);
}

static void test_identity(const struct rep_run *usb, const struct rep_run *emmc,
			  const struct rep_run *nvme, const struct rep_run *bare)
{
	const struct vd_case target_model[] = {
		{ usb, "target_model", "SanDisk*", 1, .is = "SanDisk Ultra | matches SanDisk*" },
		{ usb, "target_model", "Samsung*", 0, .is = "SanDisk Ultra | matches Samsung*" },
		{ emmc, "target_model", "8GTF*", 1, .is = "8GTF4R | matches 8GTF*" },	/* the card's name */
	};
	VD_CASES(target_model);
	/* an SD card's name, its mmc object without a timing */
	const struct rep_run *sd = load(REC("health", "\"when\":\"before\",\"mmc\":{\"type\":\"SD\",\"name\":\"SD32G\"}"));
	const struct vd_case identity[] = {
		{ sd, "target_model", "SD32G", .pass = 1 },
		{ sd, "mmc_timing", "SDR12", 0, .is = "not measured (no health record with the target's MMC timing) | >= SDR12" },
		{ bare, "target_model", "*", 0, .is = "not measured (the run_start record names no target model) | matches *" },

		{ usb, "target_bus", "usb", 1, .is = "usb | usb" },
		{ usb, "target_bus", "nvme", 0, .is = "usb | nvme" },
		{ usb, "target_bus", "sata | usb", 1, .is = "usb | one of sata,usb" },
		{ emmc, "target_bus", "mmc", .pass = 1 },
		{ nvme, "target_bus", "nvme", .pass = 1 },	/* its transport */
		{ bare, "target_bus", "nvme", 0, .is = "not measured (no health record in the run) | nvme" },
	};
	VD_CASES(identity);
}

static void test_bus_modes(const struct rep_run *usb, const struct rep_run *emmc,
			   const struct rep_run *sata, const struct rep_run *nvme,
			   const struct rep_run *bare)
{
	/* a USB 3 stick on a USB 2 port */
	const struct vd_case speeds[] = {
		{ usb, "usb_speed", "5000", 0, .is = "480 Mb/s (USB 2.00, bot) | >= 5000 Mb/s" },
		{ usb, "usb_speed", "480 Mb/s", .pass = 1 },
		{ emmc, "usb_speed", "480", 0, .is = "not measured (not available: not a USB disk) | >= 480 Mb/s" },
		{ nvme, "usb_speed", "480", 0, .is = "not measured (no health record with the target's USB facts) | >= 480 Mb/s" },

		{ emmc, "mmc_timing", "HS400", 0, .is = "HS200 (mmc: mmc HS200) | >= HS400" },
		{ emmc, "mmc_timing", "HS200", .pass = 1 },
		{ emmc, "mmc_timing", "ddr52", 1, .is = "HS200 (mmc: mmc HS200) | >= DDR52" },
		{ usb, "mmc_timing", "HS200", 0, .is = "not measured (not available: not an SD card or eMMC) | >= HS200" },
	};
	VD_CASES(speeds);
	/* no mmc object: an eMMC's EXT_CSD HS_TIMING */
	const struct rep_run *old = load(OLD_EMMC);
	const struct vd_case links[] = {
		{ old, "mmc_timing", "HS", 1, .is = "HS (EXT_CSD HS_TIMING: HS) | >= HS" },
		{ old, "mmc_timing", "HS200", .pass = 0 },
		{ bare, "mmc_timing", "HS200", 0, .has = "not measured (no health record in the run)" },

		{ sata, "sata_link", "6", 0, .is = "3 Gb/s (limit 6.0 Gbps) | >= 6 Gb/s" },
		{ sata, "sata_link", "3.0 Gbps", .pass = 1 },
		{ sata, "sata_link", "1.5", .pass = 1 },
		{ usb, "sata_link", "6", 0, .is = "not measured (not available: not a SATA disk) | >= 6 Gb/s" },
	};
	VD_CASES(links);
}

/* The timings as records and the kernel write them, against floors. */
static void test_timings(void)
{
	static const struct { const char *timing, *floor; int pass; const char *as; } cases[] = {
		{ "HS400", "HS400", 1, "HS400" },
		{ "mmc HS400 enhanced strobe", "HS400ES", 1, "HS400ES" },
		{ "HS400ES", "HS400ES", 1, "HS400ES" },
		{ "mmc HS400", "HS400ES", 0, "HS400" },
		{ "sd uhs SDR104", "SDR50", 1, "SDR104" },
		{ "sd uhs SDR50", "SDR104", 0, "SDR50" },
		{ "sd uhs DDR50", "SDR50", 0, "DDR50" },
		{ "sd high-speed", "SDR25", 1, "SDR25" },
		{ "sd high-speed", "DDR50", 0, "SDR25" },
		{ "sd uhs SDR12", "SDR25", 0, "SDR12" },
		{ "mmc high-speed", "HS", 1, "HS" },
		{ "mmc DDR52", "HS", 1, "DDR52" },
		{ "legacy", "HS", 0, "legacy" },
		{ "legacy", "legacy", 1, "legacy" },
	};
	char rec[512], m[512], want[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(rec, sizeof(rec), REC("health", "\"when\":\"before\",\"transport\":\"mmc\","
			 "\"mmc\":{\"type\":\"SD\",\"timing\":\"%s\"}"), cases[i].timing);
		const struct rep_run *r = load(rec);
		CHECK(verdict1(r, "mmc_timing", cases[i].floor, m, sizeof(m)) == cases[i].pass);
		snprintf(want, sizeof(want), "%s (mmc: %s) | >= %s", cases[i].as, cases[i].timing,
			 cases[i].floor);
		CHECK_STR(m, want);
	}
	const struct rep_run *r = load(REC("health", "\"when\":\"before\",\"mmc\":{\"timing\":\"turbo\"}"));
	CHECK(verdict1(r, "mmc_timing", "HS", m, sizeof(m)) == 0);
	CHECK_STR(m, "not measured (an unknown timing 'turbo') | >= HS");
}

static void test_bad_values(void)
{
	static const struct { const char *key, *val; } bad[] = {
		{ "flash_pre_eol", "critical" }, { "flash_pre_eol", "" },
		{ "flash_life_used_max", "120%" }, { "flash_life_used_max", "lots" },
		{ "target_model", "" }, { "target_bus", "ide" }, { "target_bus", "usb|" },
		{ "usb_speed", "fast" }, { "usb_speed", "0" }, { "usb_speed", "480 MB/s" },
		{ "mmc_timing", "HS300" }, { "sata_link", "-6" }, { "sata_link", "6 GT/s" },
	};
	struct vd_criteria c;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		vd_suite_init(&c);
		err[0] = 0;
		CHECK(vd_criteria_add(&c, bad[i].key, bad[i].val, "b.conf:7", err, sizeof(err)) == -1);
		CHECK_CONTAINS(err, "b.conf:7: ");
		CHECK_CONTAINS(err, "bad value");
		CHECK_EQ_U(c.n, 0);
		vd_criteria_free(&c);
	}
	vd_suite_init(&c);
	CHECK(vd_criteria_add(&c, "mmc_timing", "HS400", "b.conf:1", err, sizeof(err)) == 0);
	CHECK(vd_criteria_add(&c, "target_bus", "nvme", "b.conf:2", err, sizeof(err)) == 0);
	CHECK_EQ_U(c.n, 2);
	vd_criteria_free(&c);
}

/* Criteria written from run r: the lines of the inventory keys, and the
 * whole file passes on r. */
static void written(const struct rep_run *r, const char *want, const char *absent)
{
	char *text = NULL, path[] = "written.conf", err[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	if (!f || !r)
		return;
	CHECK(vd_write_criteria(f, r, "test", 0.2) == 0);
	fclose(f);
	for (const char *p = want; *p;) {
		size_t l = strcspn(p, ";");
		char line[96];
		snprintf(line, sizeof(line), "\n%.*s\n", (int)l, p);
		CHECK_CONTAINS(text, line);
		p += l + (p[l] == ';');
	}
	if (absent)
		CHECK(strstr(text, absent) == NULL);
	FILE *o = fopen(path, "w");
	if (o) {
		fputs(text, o);
		fclose(o);
	}
	struct vd_criteria c;
	struct vd_result res;
	vd_suite_init(&c);
	CHECK(vd_criteria_file(&c, path, err, sizeof(err)) == 0);
	CHECK(vd_evaluate(&c, r, &res) == 0);
	CHECK_EQ_U(res.nfail, 0);
	for (size_t i = 0; i < res.n; i++)
		if (!res.check[i].pass)
			fprintf(stderr, "test_inventory: %s: %s\n", res.check[i].what, res.check[i].measured);
	vd_result_free(&res);
	vd_criteria_free(&c);
	free(text);
}

/* The text of the cell of the row whose key is key, column col (data
 * view: the key, before, after, difference); "(none)" without the row. */
static const char *cell_of(const struct rep_table *t, const char *key, size_t col)
{
	static char buf[2][REP_CELL_BUF];
	static unsigned next;
	const struct rep_writer *csv = rep_writer_find("csv");

	for (size_t i = 0; i < t->nrows; i++) {
		const struct rep_cell *c = rep_table_cell(t, i, 0);
		if (c && c->kind == CELL_TEXT && !strcmp(c->text, key)) {
			c = rep_table_cell(t, i, col);
			return c ? rep_cell_text(csv, c, buf[next++ % 2], sizeof(buf[0])) : "(empty)";
		}
	}
	return "(none)";
}

/* The health table: a row per estimation and the pre-EOL with what
 * changed; one row with the reasons where there is no flash; none for
 * records without the member. */
static void test_rows(const struct rep_run *usb, const struct rep_run *nvme)
{
	static const char ROWS[] =
		REC("health", "\"when\":\"before\",\"flash\":{\"kind\":\"emmc\",\"life_a\":\"0-10%\","
		    "\"life_b\":\"70-80%\",\"pre_eol\":\"normal\"}")
		REC("health", "\"when\":\"after\",\"flash\":{\"kind\":\"emmc\",\"life_a\":\"0-10%\","
		    "\"life_b\":\"80-90%\",\"pre_eol\":\"warning\"},\"delta\":{\"flash\":{\"life_b\":"
		    "\"70-80% -> 80-90%\",\"pre_eol\":\"normal -> warning\",\"changed\":2}}");
	const struct rep_run *r = load(ROWS);
	struct rep_table t;

	if (r && rep_table_health(r, &t) == 0) {
		rep_table_view(&t, REP_VIEW_DATA);
		CHECK_STR(cell_of(&t, "flash.life_a", 1), "0-10%");
		CHECK_STR(cell_of(&t, "flash.life_a", 3), "unchanged");
		CHECK_STR(cell_of(&t, "flash.life_b", 1), "70-80%");
		CHECK_STR(cell_of(&t, "flash.life_b", 2), "80-90%");
		CHECK_STR(cell_of(&t, "flash.life_b", 3), "70-80% -> 80-90%");
		CHECK_STR(cell_of(&t, "flash.pre_eol", 3), "normal -> warning");
		CHECK_STR(cell_of(&t, "flash", 1), "(none)");
		rep_table_free(&t);
	}
	if (usb && rep_table_health(usb, &t) == 0) {
		rep_table_view(&t, REP_VIEW_DATA);
		CHECK_STR(cell_of(&t, "flash", 2), "not available: neither an eMMC nor a UFS device (transport usb)");
		CHECK_STR(cell_of(&t, "flash.life_a", 1), "(none)");
		rep_table_free(&t);
	}
	if (nvme && rep_table_health(nvme, &t) == 0) {
		rep_table_view(&t, REP_VIEW_DATA);
		CHECK_STR(cell_of(&t, "flash", 1), "(none)");
		CHECK_STR(cell_of(&t, "flash.life_a", 1), "(none)");
		rep_table_free(&t);
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	const struct rep_run *usb = load(USB), *emmc = load(EMMC), *sata = load(SATA);
	const struct rep_run *nvme = load(NVME), *bare = load(BARE);

	test_flash(emmc, usb);
	test_identity(usb, emmc, nvme, bare);
	test_bus_modes(usb, emmc, sata, nvme, bare);
	test_bad_values();
	written(usb, "target_bus = usb;usb_speed = 480", "target_model");
	written(emmc, "target_bus = mmc;mmc_timing = HS200;flash_pre_eol = normal", "usb_speed");
	written(sata, "target_bus = sata;sata_link = 3", "flash_pre_eol");
	written(nvme, "target_bus = nvme", "mmc_timing");
	written(bare, "", "target_bus");
	test_timings();
	test_rows(usb, nvme);
	for (size_t i = 0; i < nsets; i++)
		rep_free(&sets[i]);
	return unit_done(argv[0]);
}

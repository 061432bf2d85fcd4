/* test_flash.c: the flash health of the health record (run/evidence/
 * flash.h): EXT_CSD dumps filled by JEDEC JESD84-B51's byte offsets (each
 * life time band, the reserved and undefined values, a short buffer, an
 * eMMC before 5.0), UFS sysfs trees laid out as the ufshcd driver's
 * health_descriptor/, device_descriptor/ and string_descriptors/ (a good
 * one, a missing file, a value that is no number), the reasons of the
 * other targets, and the record's `flash` member and its difference,
 * checked against the schema. QEMU 7.2 emulates neither an eMMC nor UFS:
 * the MMC_IOC_CMD read itself is only reached on hardware (here, its
 * failure on a device that is not there). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/jsonr.h"
#include "log/record.h"
#include "log/validate.h"
#include "run/evidence/flash.h"
#include "schemas.h"
#include "unit.h"

/* An EXT_CSD of an eMMC 5.1 (revision 8) in HS400 with life A in band
 * 0x02 (10-20 %), B in 0x01, pre-EOL normal. */
static void fill_ext_csd(uint8_t *b)
{
	memset(b, 0, FSB_EXT_CSD_LEN);
	b[FSB_EXT_CSD_CACHE_CTRL] = 1;
	b[FSB_EXT_CSD_BKOPS_EN] = 2;		/* auto */
	b[FSB_EXT_CSD_RPMB_SIZE_MULT] = 32;	/* 4 MiB */
	b[FSB_EXT_CSD_PARTITION_CONFIG] = 0x48;	/* boot ack, boot from boot0 */
	b[FSB_EXT_CSD_STROBE_SUPPORT] = 1;
	b[FSB_EXT_CSD_HS_TIMING] = 0x13;	/* driver strength 1, HS400 */
	b[FSB_EXT_CSD_REV] = 8;
	b[FSB_EXT_CSD_DEVICE_TYPE] = 0x57;	/* HS26, HS52, DDR52, HS200, HS400 */
	/* SEC_COUNT 0x01d5a000 sectors: 15.6 GB */
	b[212] = 0x00, b[213] = 0xa0, b[214] = 0xd5, b[215] = 0x01;
	b[FSB_EXT_CSD_BOOT_SIZE_MULT] = 32;	/* 4 MiB each */
	b[FSB_EXT_CSD_BKOPS_STATUS] = 1;
	b[249] = 0x00, b[250] = 0x01;		/* CACHE_SIZE 256 */
	memcpy(b + FSB_EXT_CSD_FIRMWARE_VERSION, "FW12 \0\0\0", 8);
	b[262] = 0x34, b[263] = 0x12;		/* DEVICE_VERSION 0x1234 */
	b[FSB_EXT_CSD_PRE_EOL_INFO] = 1;
	b[FSB_EXT_CSD_LIFE_TIME_EST_A] = 2;
	b[FSB_EXT_CSD_LIFE_TIME_EST_B] = 1;
	b[511] = 0xaa;				/* beyond the fields read */
}

static void test_bands(void)
{
	char t[32];

	for (unsigned v = 1; v <= 10; v++) {
		char want[16];
		snprintf(want, sizeof(want), "%u-%u%%", (v - 1) * 10, v * 10);
		CHECK_EQ_U(fsb_flash_life_band((uint8_t)v, t, sizeof(t)), v * 10);
		CHECK_STR(t, want);
	}
	CHECK_EQ_U(fsb_flash_life_band(0x0b, t, sizeof(t)), 0);
	CHECK_STR(t, "exceeded");
	CHECK_EQ_U(fsb_flash_life_band(0x00, t, sizeof(t)), 0);
	CHECK_STR(t, "undefined");
	CHECK_EQ_U(fsb_flash_life_band(0x0c, t, sizeof(t)), 0);
	CHECK_STR(t, "reserved 0x0c");
	CHECK_EQ_U(fsb_flash_life_band(0xff, t, sizeof(t)), 0);
	CHECK_STR(t, "reserved 0xff");
	CHECK_STR(fsb_flash_pre_eol_text(0, t, sizeof(t)), "undefined");
	CHECK_STR(fsb_flash_pre_eol_text(1, t, sizeof(t)), "normal");
	CHECK_STR(fsb_flash_pre_eol_text(2, t, sizeof(t)), "warning");
	CHECK_STR(fsb_flash_pre_eol_text(3, t, sizeof(t)), "urgent");
	CHECK_STR(fsb_flash_pre_eol_text(4, t, sizeof(t)), "reserved 0x04");
	CHECK_STR(fsb_flash_timing_text(0x00, t, sizeof(t)), "legacy");
	CHECK_STR(fsb_flash_timing_text(0x01, t, sizeof(t)), "HS");
	CHECK_STR(fsb_flash_timing_text(0x42, t, sizeof(t)), "HS200");	/* driver strength 4 */
	CHECK_STR(fsb_flash_timing_text(0x03, t, sizeof(t)), "HS400");
	CHECK_STR(fsb_flash_timing_text(0x05, t, sizeof(t)), "reserved 0x05");
	CHECK_STR(fsb_ext_csd_rev_text(8), "eMMC 5.1");
	CHECK_STR(fsb_ext_csd_rev_text(5), "eMMC 4.41");
	CHECK(fsb_ext_csd_rev_text(4) == NULL);		/* obsolete */
	CHECK(fsb_ext_csd_rev_text(9) == NULL);
}

static void test_ext_csd(void)
{
	static uint8_t b[FSB_EXT_CSD_LEN];
	struct fsb_flash f;

	fill_ext_csd(b);
	CHECK_EQ_U(fsb_ext_csd_decode(b, FSB_EXT_CSD_LEN - 1, &f), (unsigned long long)-EINVAL);
	CHECK_EQ_U(fsb_ext_csd_decode(b, 0, &f), (unsigned long long)-EINVAL);
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &f), 0);
	CHECK(f.have && f.have_life && f.kind == FSB_FLASH_EMMC);
	CHECK_EQ_U(f.life_a, 2);
	CHECK_EQ_U(f.life_b, 1);
	CHECK_EQ_U(f.pre_eol, 1);
	CHECK_EQ_U(f.ext_csd_rev, 8);
	CHECK_EQ_U(f.hs_timing, 0x13);
	CHECK_EQ_U(f.sec_count, 0x01d5a000);
	CHECK_EQ_U(f.cache_size, 256);
	CHECK_EQ_U(f.device_version, 0x1234);
	CHECK_STR(f.firmware, "FW12");
	CHECK_STR(f.spec, "eMMC 5.1");
	/* a binary firmware version: hex digits */
	memcpy(b + FSB_EXT_CSD_FIRMWARE_VERSION, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &f), 0);
	CHECK_STR(f.firmware, "0102030405060708");
	/* beyond the estimated life; the undefined pre-EOL */
	b[FSB_EXT_CSD_LIFE_TIME_EST_A] = 0x0b;
	b[FSB_EXT_CSD_PRE_EOL_INFO] = 0;
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &f), 0);
	CHECK_EQ_U(f.life_a, 0x0b);
	CHECK_EQ_U(f.pre_eol, 0);
	/* eMMC 4.5 (revision 6): the bytes are reserved, not read */
	b[FSB_EXT_CSD_REV] = 6;
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &f), 0);
	CHECK(f.have && !f.have_life);
	CHECK_EQ_U(f.life_a, 0);
	CHECK_CONTAINS(f.life_why, "EXT_CSD revision 6 (eMMC 4.5) predates the life time estimation");
	b[FSB_EXT_CSD_REV] = 4;
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &f), 0);
	CHECK_CONTAINS(f.life_why, "revision 4 (unknown)");
	CHECK_STR(f.spec, "");
}

/* path's folders, made one by one. */
static void mkdirs(const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

#define UFS "sys/devices/platform/soc/1d84000.ufshc"
#define SDA UFS "/host0/target0:0:0/0:0:0:0/block/sda"

/* A UFS 3.1 host as the ufshcd driver lays it out in sysfs. */
static void ufs_tree(void)
{
	mkdirs(SDA);
	mkdirs(UFS "/health_descriptor");
	mkdirs(UFS "/device_descriptor");
	mkdirs(UFS "/string_descriptors");
	put_file(UFS "/health_descriptor", "length", "0x25\n");
	put_file(UFS "/health_descriptor", "type", "0x09\n");
	put_file(UFS "/health_descriptor", "eol_info", "0x02\n");
	put_file(UFS "/health_descriptor", "life_time_estimation_a", "0x03\n");
	put_file(UFS "/health_descriptor", "life_time_estimation_b", "0x0B\n");
	put_file(UFS "/device_descriptor", "specification_version", "0x0310\n");
	put_file(UFS "/device_descriptor", "manufacturer_id", "0x01CE\n");
	put_file(UFS "/string_descriptors", "manufacturer_name", "SAMSUNG\n");
	put_file(UFS "/string_descriptors", "product_name", "KLUDG4UHDC-B0E1\n");
	put_file(UFS "/string_descriptors", "serial_number", "1234ABCD\n");
	put_file(UFS "/string_descriptors", "product_revision", "0800\n");
}

static void test_ufs(void)
{
	struct fsb_flash f;
	char real[512];

	ufs_tree();
	CHECK(realpath(SDA, real) != NULL);
	memset(&f, 0, sizeof(f));
	CHECK_EQ_U(fsb_flash_read_ufs(real, &f), 0);
	CHECK(f.have && f.have_life && f.kind == FSB_FLASH_UFS);
	CHECK_EQ_U(f.life_a, 3);
	CHECK_EQ_U(f.life_b, 0x0b);
	CHECK_EQ_U(f.pre_eol, 2);
	CHECK_STR(f.spec, "UFS 3.1");
	CHECK_STR(f.manufacturer_id, "0x01CE");
	CHECK_STR(f.manufacturer, "SAMSUNG");
	CHECK_STR(f.product, "KLUDG4UHDC-B0E1");
	CHECK_STR(f.serial, "1234ABCD");
	CHECK_STR(f.revision, "0800");
	CHECK_CONTAINS(f.source, "1d84000.ufshc");
	/* through the reader of any disk: a SCSI disk under a UFS host */
	CHECK_EQ_U(fsb_flash_read("scsi", real, "/dev/sda", &f), 0);
	CHECK(f.have && f.kind == FSB_FLASH_UFS);
	/* a value that is no number */
	put_file(UFS "/health_descriptor", "eol_info", "normal\n");
	CHECK_EQ_U(fsb_flash_read_ufs(real, &f), (unsigned long long)-EINVAL);
	CHECK(!f.have);
	CHECK_CONTAINS(f.why, "health_descriptor/eol_info is not a byte");
	/* and one beyond a byte */
	put_file(UFS "/health_descriptor", "eol_info", "0x100\n");
	CHECK_EQ_U(fsb_flash_read_ufs(real, &f), (unsigned long long)-EINVAL);
	/* a missing file */
	put_file(UFS "/health_descriptor", "eol_info", "0x01\n");
	remove(UFS "/health_descriptor/life_time_estimation_b");
	CHECK_EQ_U(fsb_flash_read_ufs(real, &f), (unsigned long long)-EINVAL);
	CHECK_CONTAINS(f.why, "health_descriptor/life_time_estimation_b is missing");
	CHECK_EQ_U(fsb_flash_read("scsi", real, "/dev/sda", &f), 0);
	CHECK_CONTAINS(f.why, "life_time_estimation_b is missing");
	/* no UFS host above the disk */
	mkdirs("sys/devices/pci0000:00/ata1/host0/block/sdb");
	CHECK(realpath("sys/devices/pci0000:00/ata1/host0/block/sdb", real) != NULL);
	CHECK_EQ_U(fsb_flash_read_ufs(real, &f), (unsigned long long)-ENOENT);
	CHECK_EQ_U(fsb_flash_read("sata", real, "/dev/sdb", &f), 0);
	CHECK(!f.have);
	CHECK_STR(f.why, "not available: neither an eMMC nor a UFS device (transport sata)");
}

/* The other targets: their reasons. */
static void test_reasons(void)
{
	struct fsb_flash f;
	char real[512];

	CHECK_EQ_U(fsb_flash_read("nvme", "/sys/nonexistent/nvme0n1", "/dev/nvme0n1", &f), 0);
	CHECK(!f.have);
	CHECK_CONTAINS(f.why, "not available: an NVMe disk");
	/* an SD card: its type says so */
	mkdirs("sys/devices/mmc_host/mmc1/mmc1:aaaa/block/mmcblk1");
	put_file("sys/devices/mmc_host/mmc1/mmc1:aaaa", "type", "SD\n");
	if (symlink("../..", "sys/devices/mmc_host/mmc1/mmc1:aaaa/block/mmcblk1/device") != 0)
		CHECK(0);
	CHECK(realpath("sys/devices/mmc_host/mmc1/mmc1:aaaa/block/mmcblk1", real) != NULL);
	CHECK_EQ_U(fsb_flash_read("mmc", real, "/dev/mmcblk1", &f), 0);
	CHECK(!f.have);
	CHECK_CONTAINS(f.why, "not available: an SD card");
	/* an eMMC whose device node cannot be opened: the ioctl's reason */
	put_file("sys/devices/mmc_host/mmc1/mmc1:aaaa", "type", "MMC\n");
	CHECK_EQ_U(fsb_flash_read("mmc", real, "/nonexistent/mmcblk1", &f), 0);
	CHECK(!f.have);
	CHECK_STR(f.why, "not available: CMD8 SEND_EXT_CSD (MMC_IOC_CMD) on /nonexistent/mmcblk1: "
		  "No such file or directory");
	fsb_flash_none(&f, "a loop device");
	CHECK_STR(f.why, "not available: a loop device");
}

static const struct jsonr *rec_parse(struct fsb_rec *r, struct jsonr_doc **doc)
{
	int n = rec_end(r);

	if (n < 0 || jsonr_parse(r->buf, (size_t)n, doc, NULL) < 0)
		return NULL;
	return jsonr_root(*doc);
}

static void told(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "test_flash: schema: %s\n", msg);
}

/* A health record holding only the flash parts (the rest as reasons). */
static const struct jsonr *health(struct fsb_rec *r, struct jsonr_doc **doc, const char *when,
				  const struct fsb_flash *f, const struct fsb_flash *before)
{
	static const char na[] = "not available: test";

	rec_begin(r, "health");
	rec_str(r, "run_id", "0123456789abcdef");
	rec_u64(r, "seq", 1);
	rec_dbl(r, "t", 0.5);
	rec_str(r, K(when), when);
	rec_str(r, K(device), "/dev/mmcblk0");
	rec_str(r, K(transport), "mmc");
	rec_str(r, K(nvme_smart), na);
	rec_str(r, K(ata_smart), na);
	rec_str(r, K(pcie_link), na);
	rec_str(r, K(temperature), na);
	fsb_flash_json(r, f);
	if (before) {
		rec_obj(r, K(delta));
		rec_str(r, K(nvme_smart), na);
		rec_str(r, K(temperature_celsius), na);
		fsb_flash_delta_json(r, before, f);
		rec_close(r);
	}
	const struct jsonr *j = rec_parse(r, doc);
	CHECK(j != NULL);
	CHECK_EQ_U(j ? fsb_check_value(j, 0, told, NULL) : 1, 0);
	return j;
}

static void test_json(void)
{
	static uint8_t b[FSB_EXT_CSD_LEN];
	static struct fsb_flash before, after, old, ufs;
	struct fsb_rec r;
	struct jsonr_doc *doc = NULL;
	const struct jsonr *j;

	fill_ext_csd(b);
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &before), 0);
	snprintf(before.source, sizeof(before.source), "EXT_CSD of /dev/mmcblk0");
	j = health(&r, &doc, "before", &before, NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.kind")), "emmc");
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.life_a")), "10-20%");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.life_a_raw"), 0), 2);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.life_a_pct_max"), 0), 20);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.life_b")), "0-10%");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.life_b_pct_max"), 0), 10);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.pre_eol")), "normal");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.pre_eol_raw"), 9), 1);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.spec")), "eMMC 5.1");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.ext_csd_rev"), 0), 8);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.hs_timing")), "HS400");
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.card_modes")), "HS26,HS52,DDR52,HS200,HS400");
	CHECK(jsonr_bool(jsonr_path(j, "flash.strobe_support"), 0) == 1);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.bkops")), "outstanding (non-critical)");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.cache_kib"), 0), 256);
	CHECK(jsonr_bool(jsonr_path(j, "flash.cache_on"), 0) == 1);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.boot_partition")), "boot0");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.boot_kib"), 0), 4096);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.rpmb_kib"), 0), 4096);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.size_bytes"), 0), 0x01d5a000ull * 512);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.firmware")), "FW12");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.device_version"), 0), 0x1234);
	jsonr_free(doc);

	/* after: life A one band on, pre-EOL warning, BKOPS critical */
	b[FSB_EXT_CSD_LIFE_TIME_EST_A] = 3;
	b[FSB_EXT_CSD_PRE_EOL_INFO] = 2;
	b[FSB_EXT_CSD_BKOPS_STATUS] = 3;
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &after), 0);
	j = health(&r, &doc, "after", &after, &before);
	CHECK_STR(jsonr_str(jsonr_path(j, "delta.flash.life_a")), "10-20% -> 20-30%");
	CHECK(jsonr_path(j, "delta.flash.life_b") == NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "delta.flash.pre_eol")), "normal -> warning");
	CHECK_STR(jsonr_str(jsonr_path(j, "delta.flash.bkops")),
		  "outstanding (non-critical) -> outstanding (critical)");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.flash.changed"), 0), 3);
	jsonr_free(doc);
	/* nothing changed */
	j = health(&r, &doc, "after", &before, &before);
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "delta.flash.changed"), 9), 0);
	CHECK(jsonr_path(j, "delta.flash.life_a") == NULL);
	jsonr_free(doc);

	/* beyond the life, the undefined pre-EOL: bands without a bound */
	b[FSB_EXT_CSD_LIFE_TIME_EST_A] = 0x0b;
	b[FSB_EXT_CSD_LIFE_TIME_EST_B] = 0x00;
	b[FSB_EXT_CSD_PRE_EOL_INFO] = 0;
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &after), 0);
	j = health(&r, &doc, "before", &after, NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.life_a")), "exceeded");
	CHECK(jsonr_path(j, "flash.life_a_pct_max") == NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.life_b")), "undefined");
	CHECK(jsonr_path(j, "flash.life_b_pct_max") == NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "flash.pre_eol")), "undefined");
	CHECK_EQ_U(jsonr_u64(jsonr_path(j, "flash.pre_eol_raw"), 9), 0);
	jsonr_free(doc);

	/* an eMMC 4.5: the object, its life fields the reason; no difference */
	b[FSB_EXT_CSD_REV] = 6;
	b[212] = b[213] = b[214] = b[215] = 0;	/* 2 GB or less: no SEC_COUNT */
	CHECK_EQ_U(fsb_ext_csd_decode(b, sizeof(b), &old), 0);
	j = health(&r, &doc, "after", &old, &old);
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "flash.life_a")), "not available: EXT_CSD revision 6");
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "flash.pre_eol")), "predates");
	CHECK(jsonr_path(j, "flash.size_bytes") == NULL);
	CHECK_CONTAINS(jsonr_str(jsonr_path(j, "delta.flash")), "revision 6");
	jsonr_free(doc);

	/* UFS: its identity; no flash before: the difference is the reason */
	ufs_tree();
	CHECK_EQ_U(fsb_flash_read_ufs(SDA, &ufs), 0);
	fsb_flash_none(&old, "not read before");
	j = health(&r, &doc, "after", &ufs, &old);
	static const struct json_want ufs_fields[] = {
		{ "flash.kind", "ufs" }, { "flash.life_b", "exceeded" }, { "flash.pre_eol", "warning" },
		{ "flash.product", "KLUDG4UHDC-B0E1" }, { "flash.spec", "UFS 3.1" },
		{ "flash.ext_csd_rev", NULL }, { "delta.flash", "not available: not read before" },
	};
	JSON_CHECK(j, ufs_fields);
	jsonr_free(doc);

	/* every other target: the member is the reason */
	j = health(&r, &doc, "before", &old, NULL);
	CHECK_STR(jsonr_str(jsonr_get(j, "flash")), "not available: not read before");
	jsonr_free(doc);
}

UNIT_MAIN(test_bands, test_ext_csd, test_ufs, test_reasons, test_json)

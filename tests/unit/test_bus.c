/* test_bus.c: the target's bus and its facts (run/evidence/bus.h), read
 * from sysfs trees built here the way the kernel lays them out: a SATA disk
 * behind AHCI, USB disks behind usb-storage (bulk-only) and uas, an SD card
 * on an SDHCI host (with and without debugfs's ios), an NVMe namespace, a
 * virtio-scsi disk and a virtio-blk disk; the decoders of sata_spd and of
 * the ios file's timing spec; the record's members; VPD page 0x80's serial;
 * the report's one-line summary of the bus parts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <limits.h>
#include <unistd.h>

#include "lib/jsonr.h"
#include "log/record.h"
#include "run/evidence/bus.h"
#include "run/target/target.h"
#include "records.h"
#include "schemas.h"
#include "unit.h"

/* mkdir -p */
static void mkdirs(const char *path)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

/* DIR/NAME holding TEXT and a newline (sysfs's way). */
static void put(const char *dir, const char *name, const char *text)
{
	char p[1024];

	mkdirs(dir);
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* sys/class/block/NAME -> the block node at DEVPATH (under sys/devices),
 * and the node's device link -> its parent's parent (the kernel's layout:
 * .../DEVICE/block/NAME). */
static void block(const char *devpath, const char *name)
{
	char node[900], link[1024], target[1024];

	snprintf(node, sizeof(node), "sys/devices/%s/block/%s", devpath, name);
	mkdirs(node);
	put(node, "dev", "8:0");
	mkdirs("sys/class/block");
	snprintf(link, sizeof(link), "sys/class/block/%s", name);
	snprintf(target, sizeof(target), "../../devices/%s/block/%s", devpath, name);
	CHECK(symlink(target, link) == 0);
	snprintf(link, sizeof(link), "%s/device", node);
	CHECK(symlink("../..", link) == 0);
}

/* DIR/driver -> sys/bus/BUS/drivers/DRIVER */
static void driver(const char *dir, const char *bus, const char *drv)
{
	char d[900], link[1024], abs[PATH_MAX];

	snprintf(d, sizeof(d), "sys/bus/%s/drivers/%s", bus, drv);
	mkdirs(d);
	CHECK(realpath(d, abs) != NULL);
	snprintf(link, sizeof(link), "%s/driver", dir);
	CHECK(symlink(abs, link) == 0);
}

static void scsi_ident(const char *dir, const char *vendor, const char *model, const char *rev)
{
	put(dir, "scsi_level", "6");
	put(dir, "vendor", vendor);
	put(dir, "model", model);
	put(dir, "rev", rev);
}

static const struct jsonr *json(const struct fsb_bus *b, struct fsb_rec *r, struct jsonr_doc **doc)
{
	rec_begin(r, "health");
	fsb_bus_json(r, b);
	int n = rec_end(r);
	if (n < 0 || jsonr_parse(r->buf, (size_t)n, doc, NULL) < 0)
		return NULL;
	return jsonr_root(*doc);
}

static void test_decoders(void)
{
	char t[24];

	CHECK(fsb_sata_gbps("6.0 Gbps") == 6.0);
	CHECK(fsb_sata_gbps("1.5 Gbps") == 1.5);
	CHECK(fsb_sata_gbps("<unknown>") < 0);
	CHECK(fsb_sata_gbps("") < 0);
	CHECK_STR(fsb_mmc_timing("clock:\t\t200000000 Hz\ntiming spec:\t10 (mmc HS400)\nsignal voltage:\t1 (1.80 V)\n", t, sizeof(t)), "HS400");
	CHECK_STR(fsb_mmc_timing("timing spec:\t10 (mmc HS400 enhanced strobe)\n", t, sizeof(t)), "HS400ES");
	CHECK_STR(fsb_mmc_timing("timing spec:\t9 (mmc HS200)\n", t, sizeof(t)), "HS200");
	CHECK_STR(fsb_mmc_timing("timing spec:\t6 (sd uhs SDR104)\n", t, sizeof(t)), "SDR104");
	CHECK_STR(fsb_mmc_timing("timing spec:\t2 (sd high-speed)\n", t, sizeof(t)), "HS");
	CHECK_STR(fsb_mmc_timing("timing spec:\t0 (legacy)\n", t, sizeof(t)), "legacy");
	CHECK_STR(fsb_mmc_timing("timing spec:\t12 (mmc HS800)\n", t, sizeof(t)), "mmc HS800");
	CHECK_STR(fsb_mmc_timing("clock:\t0 Hz\n", t, sizeof(t)), "");
	CHECK_STR(fsb_bus_classify("nvme0n1", "/sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", ""), "nvme");
	CHECK_STR(fsb_bus_classify("mmcblk0", "/sys/devices/x/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0", ""), "mmc");
	CHECK_STR(fsb_bus_classify("sda", "/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda", ""), "sata");
	CHECK_STR(fsb_bus_classify("sdb", "/sys/devices/pci0000:00/0000:00:02.0/usb2/2-1/2-1:1.0/host1/target1:0:0/1:0:0:0/block/sdb", ""), "usb");
	CHECK_STR(fsb_bus_classify("sdb", "/sys/devices/x/host1/block/sdb", "uas"), "usb");
	CHECK_STR(fsb_bus_classify("sdc", "/sys/devices/pci0000:00/0000:00:05.0/virtio1/host2/target2:0:0/2:0:0:0/block/sdc", ""), "scsi");
	CHECK_STR(fsb_bus_classify("vda", "/sys/devices/pci0000:00/0000:00:06.0/virtio2/block/vda", ""), "virtio");
	CHECK_STR(fsb_bus_classify("loop0", "/sys/devices/virtual/block/loop0", ""), "other");
	/* "data1" or "usbx" are no numbered components */
	CHECK_STR(fsb_bus_classify("sdd", "/sys/devices/platform/data1/hostx/block/sdd", ""), "scsi");
	CHECK_STR(fsb_bus_classify("xyz", "/sys/devices/platform/usbx/atax/block/xyz", ""), "other");
}

static void test_sata(void)
{
	struct fsb_bus b;
	struct fsb_rec r;
	struct jsonr_doc *doc = NULL;
	const char *port = "sys/devices/pci0000:00/0000:00:1f.2/ata3";
	const char *sdev = "sys/devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0";

	block("pci0000:00/0000:00:1f.2/ata3/host2/target2:0:0/2:0:0:0", "sda");
	scsi_ident(sdev, "ATA     ", "QEMU HARDDISK   ", "2.5+");
	char link[512];
	snprintf(link, sizeof(link), "%s/link3/ata_link/link3", port);
	put(link, "sata_spd", "1.5 Gbps");
	put(link, "sata_spd_limit", "<unknown>");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sda", &b), 0);
	CHECK_STR(b.bus, "sata");
	CHECK(b.have_sata);
	CHECK_STR(b.sata.port, "ata3");
	CHECK_STR(b.sata.speed, "1.5 Gbps");
	CHECK(b.sata.speed_gbps == 1.5);
	CHECK_STR(b.sata.limit, "<unknown>");
	CHECK(b.have_scsi);
	CHECK_STR(b.scsi.vendor, "ATA");
	CHECK_STR(b.scsi.model, "QEMU HARDDISK");
	CHECK_STR(b.scsi.rev, "2.5+");
	CHECK(!b.have_usb && !b.have_mmc);
	CHECK(strstr(b.usb_why, "not available: not a USB disk (bus sata)") != NULL);
	const struct jsonr *j = json(&b, &r, &doc);
	CHECK(j != NULL);
	CHECK_STR(jsonr_str(jsonr_get(j, "bus")), "sata");
	CHECK_STR(jsonr_str(jsonr_path(j, "sata_link.port")), "ata3");
	CHECK(jsonr_num(jsonr_path(j, "sata_link.speed_gbps"), 0) == 1.5);
	CHECK_STR(jsonr_str(jsonr_path(j, "sata_link.limit")), "<unknown>");
	CHECK_STR(jsonr_str(jsonr_path(j, "scsi.vendor")), "ATA");
	CHECK(strncmp(jsonr_str(jsonr_get(j, "mmc")), "not available: ", 15) == 0);
	jsonr_free(doc);

	/* a link that says no speed: the text, no number */
	put(link, "sata_spd", "<unknown>");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sda", &b), 0);
	CHECK(b.have_sata && b.sata.speed_gbps < 0);
	j = json(&b, &r, &doc);
	CHECK(j && jsonr_path(j, "sata_link.speed_gbps") == NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "sata_link.speed")), "<unknown>");
	jsonr_free(doc);
	/* no link in sysfs: the reason */
	unlink("sys/devices/pci0000:00/0000:00:1f.2/ata3/link3/ata_link/link3/sata_spd");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sda", &b), 0);
	CHECK(!b.have_sata);
	CHECK_STR(b.sata_why, "not available: no sata_spd for ata3's link in sysfs");
}

static void test_usb(void)
{
	struct fsb_bus b;
	struct fsb_rec r;
	struct jsonr_doc *doc = NULL;

	/* uas on a SuperSpeed port */
	put("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1", "speed", "5000");
	put("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1", "version", " 3.00");
	put("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1", "idVendor", "46f4");
	mkdirs("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1/2-1:1.0");
	put("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1/2-1:1.0", "bInterfaceNumber", "00");
	driver("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1/2-1:1.0", "usb", "uas");
	block("pci0000:00/0000:00:02.0/usb2/2-1/2-1:1.0/host1/target1:0:0/1:0:0:0", "sdb");
	scsi_ident("sys/devices/pci0000:00/0000:00:02.0/usb2/2-1/2-1:1.0/host1/target1:0:0/1:0:0:0",
		   "QEMU    ", "QEMU HARDDISK", "2.5+");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sdb", &b), 0);
	CHECK_STR(b.bus, "usb");
	CHECK(b.have_usb);
	CHECK_STR(b.usb.device, "2-1");
	CHECK(b.usb.speed_mbps == 5000);
	CHECK_STR(b.usb.version, "3.00");
	CHECK_STR(b.usb.transport, "uas");
	CHECK(b.have_scsi && !b.have_sata);
	const struct jsonr *j = json(&b, &r, &doc);
	CHECK(j != NULL);
	CHECK_STR(jsonr_str(jsonr_path(j, "usb.transport")), "uas");
	CHECK(jsonr_num(jsonr_path(j, "usb.speed_mbps"), 0) == 5000);
	CHECK_STR(jsonr_str(jsonr_path(j, "usb.device")), "2-1");
	CHECK_STR(jsonr_str(jsonr_path(j, "usb.version")), "3.00");
	CHECK_STR(jsonr_str(jsonr_get(j, "sata_link")), "not available: not a SATA disk (bus usb)");
	jsonr_free(doc);

	/* bulk-only (usb-storage) at high speed */
	put("sys/devices/pci0000:00/0000:00:02.0/usb1/1-2", "speed", "480");
	put("sys/devices/pci0000:00/0000:00:02.0/usb1/1-2", "version", " 2.00");
	mkdirs("sys/devices/pci0000:00/0000:00:02.0/usb1/1-2/1-2:1.0");
	driver("sys/devices/pci0000:00/0000:00:02.0/usb1/1-2/1-2:1.0", "usb", "usb-storage");
	block("pci0000:00/0000:00:02.0/usb1/1-2/1-2:1.0/host3/target3:0:0/3:0:0:0", "sde");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sde", &b), 0);
	CHECK_STR(b.bus, "usb");
	CHECK_STR(b.usb.transport, "bot");
	CHECK_STR(b.usb.device, "1-2");
	CHECK(b.usb.speed_mbps == 480);
	CHECK(!b.have_scsi);	/* no scsi_level in this tree */
	CHECK_STR(b.scsi_why, "not available: not a SCSI disk (bus usb)");
	/* a speed that is no number */
	put("sys/devices/pci0000:00/0000:00:02.0/usb1/1-2", "speed", "unknown");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sde", &b), 0);
	CHECK(!b.have_usb);
	CHECK_STR(b.usb_why, "not available: USB device 1-2: speed 'unknown' is not a number");
}

static void test_mmc(void)
{
	struct fsb_bus b;
	struct fsb_rec r;
	struct jsonr_doc *doc = NULL;
	const char *card = "sys/devices/pci0000:00/0000:00:03.0/mmc_host/mmc0/mmc0:4567";

	block("pci0000:00/0000:00:03.0/mmc_host/mmc0/mmc0:4567", "mmcblk0");
	put(card, "type", "SD");
	put(card, "name", "QEMU!");
	put(card, "manfid", "0x0000aa");
	put(card, "oemid", "0x5859");
	put(card, "date", "02/2006");
	put(card, "serial", "0xdeadbeef");
	put(card, "cid", "aa5859514553552101deadbeef0062ff");
	put(card, "csd", "400e00325b5900003ffd7f800a4000c5");
	CHECK_EQ_U(fsb_bus_read("sys", "", "mmcblk0", &b), 0);
	CHECK_STR(b.bus, "mmc");
	CHECK(b.have_mmc);
	CHECK_STR(b.mmc.type, "SD");
	CHECK_STR(b.mmc.name, "QEMU!");
	CHECK_STR(b.mmc.manfid, "0x0000aa");
	CHECK_STR(b.mmc.serial, "0xdeadbeef");
	CHECK_STR(b.mmc.cid, "aa5859514553552101deadbeef0062ff");
	CHECK_STR(b.mmc.csd, "400e00325b5900003ffd7f800a4000c5");
	CHECK_STR(b.mmc.host, "mmc0");
	CHECK_STR(b.mmc.timing, "");
	CHECK_STR(b.mmc.timing_why, "not available: no debugfs");
	CHECK(!b.have_scsi && !b.have_usb && !b.have_sata);
	const struct jsonr *j = json(&b, &r, &doc);
	CHECK(j != NULL);
	static const struct json_want mmc[] = {
		{ "mmc.type", "SD" }, { "mmc.date", "02/2006" }, { "mmc.oemid", "0x5859" },
		{ "mmc.timing_why", "not available: no debugfs" }, { "mmc.timing", NULL },
		{ "scsi", "not available: not a SCSI disk (bus mmc)" },
	};
	JSON_CHECK(j, mmc);
	jsonr_free(doc);

	/* debugfs without the host's ios, then with it */
	mkdirs("dbg");
	CHECK_EQ_U(fsb_bus_read("sys", "dbg", "mmcblk0", &b), 0);
	CHECK_STR(b.mmc.timing_why, "not available: dbg/mmc0/ios: No such file or directory");
	put("dbg/mmc0", "ios", "clock:\t\t200000000 Hz\nbus width:\t3 (8 bits)\ntiming spec:\t10 (mmc HS400)\n");
	CHECK_EQ_U(fsb_bus_read("sys", "dbg", "mmcblk0", &b), 0);
	CHECK_STR(b.mmc.timing, "HS400");
	j = json(&b, &r, &doc);
	CHECK_STR(jsonr_str(jsonr_path(j, "mmc.timing")), "HS400");
	CHECK(jsonr_path(j, "mmc.timing_why") == NULL);
	jsonr_free(doc);

	/* a card without a CID in sysfs */
	block("platform/fe320000.mmc/mmc_host/mmc1/mmc1:0001", "mmcblk1");
	CHECK_EQ_U(fsb_bus_read("sys", "dbg", "mmcblk1", &b), 0);
	CHECK(!b.have_mmc);
	CHECK_STR(b.mmc_why, "not available: no cid for the card in sysfs");
}

static void test_others(void)
{
	struct fsb_bus b;

	block("pci0000:00/0000:00:04.0/nvme/nvme0", "nvme0n1");
	CHECK_EQ_U(fsb_bus_read("sys", "", "nvme0n1", &b), 0);
	CHECK_STR(b.bus, "nvme");
	CHECK(!b.have_sata && !b.have_usb && !b.have_mmc && !b.have_scsi);
	CHECK_STR(b.scsi_why, "not available: not a SCSI disk (bus nvme)");
	CHECK_STR(b.mmc_why, "not available: not an SD/MMC card (bus nvme)");

	block("pci0000:00/0000:00:05.0/virtio1/host2/target2:0:0/2:0:0:0", "sdc");
	scsi_ident("sys/devices/pci0000:00/0000:00:05.0/virtio1/host2/target2:0:0/2:0:0:0",
		   "QEMU    ", "QEMU HARDDISK   ", "2.5+");
	CHECK_EQ_U(fsb_bus_read("sys", "", "sdc", &b), 0);
	CHECK_STR(b.bus, "scsi");
	CHECK(b.have_scsi && !b.have_sata && !b.have_usb);
	CHECK_STR(b.scsi.vendor, "QEMU");
	CHECK_STR(b.scsi.model, "QEMU HARDDISK");

	block("pci0000:00/0000:00:06.0/virtio2", "vda");
	put("sys/devices/pci0000:00/0000:00:06.0/virtio2", "vendor", "0x1af4");
	CHECK_EQ_U(fsb_bus_read("sys", "", "vda", &b), 0);
	CHECK_STR(b.bus, "virtio");
	CHECK(!b.have_scsi);	/* a virtio device's vendor is no SCSI identity */

	CHECK(fsb_bus_read("sys", "", "sdz", &b) == -ENOENT);
	CHECK_STR(b.bus, "other");
	CHECK(strstr(b.scsi_why, "not available: sdz is not in sysfs") == b.scsi_why);

	fsb_bus_none(&b, "--dir mode");
	CHECK_STR(b.bus, "other");
	CHECK_STR(b.usb_why, "not available: --dir mode");
	CHECK_STR(b.sata_why, "not available: --dir mode");
}

/* VPD page 0x80 as sysfs gives it: binary, its first byte 0 (a disk). */
static void test_vpd80(void)
{
	static const unsigned char page[] = { 0x00, 0x80, 0x00, 0x14, 'f', 's', 'b', 'e', 'n', 'c', 'h',
		'-', 't', 'a', 'r', 'g', 'e', 't', ' ', ' ', ' ', ' ', ' ', ' ' };
	char s[64] = "x";

	mkdirs("vpd");
	FILE *f = fopen("vpd/vpd_pg80", "w");
	if (f) {
		fwrite(page, 1, sizeof(page), f);
		fclose(f);
	}
	fsb_vpd80_serial("vpd", s, sizeof(s));
	CHECK_STR(s, "fsbench-target");
	fsb_vpd80_serial("vpd", s, 5);
	CHECK_STR(s, "fsbe");
	/* a length past the data read: cut at what is there */
	f = fopen("vpd/vpd_pg80", "w");
	if (f) {
		fwrite(page, 1, 10, f);
		fclose(f);
	}
	fsb_vpd80_serial("vpd", s, sizeof(s));
	CHECK_STR(s, "fsbenc");
	/* another page: nothing */
	f = fopen("vpd/vpd_pg80", "w");
	if (f) {
		fwrite("\0\x83\0\x04" "abcd", 1, 8, f);
		fclose(f);
	}
	s[0] = 0;
	fsb_vpd80_serial("vpd", s, sizeof(s));
	CHECK_STR(s, "");
	fsb_vpd80_serial("no-such-dir", s, sizeof(s));
	CHECK_STR(s, "");
}

/* The report's loader: the bus parts in one line; none in an older record. */
static void test_summary(void)
{
	static const char text[] =
		"{\"schema\":1,\"type\":\"health\",\"run_id\":\"c3\",\"seq\":1,\"when\":\"before\","
		"\"device\":\"/dev/sda\",\"transport\":\"usb\",\"nvme_smart\":\"not available: x\","
		"\"ata_smart\":\"not available: x\",\"pcie_link\":\"not available: x\","
		"\"temperature\":\"not available: x\",\"bus\":\"usb\",\"sata_link\":\"not available: y\","
		"\"usb\":{\"device\":\"2-1\",\"speed_mbps\":5000,\"version\":\"3.00\",\"transport\":\"uas\"},"
		"\"mmc\":\"not available: z\",\"scsi\":{\"vendor\":\"QEMU\",\"model\":\"QEMU HARDDISK\",\"rev\":\"2.5+\"}}\n"
		"{\"schema\":1,\"type\":\"health\",\"run_id\":\"c3\",\"seq\":2,\"when\":\"after\","
		"\"device\":\"/dev/mmcblk0\",\"transport\":\"mmc\",\"nvme_smart\":\"not available: x\","
		"\"ata_smart\":\"not available: x\",\"pcie_link\":\"not available: x\","
		"\"temperature\":\"not available: x\",\"bus\":\"mmc\","
		"\"mmc\":{\"type\":\"SD\",\"name\":\"QEMU!\",\"manfid\":\"0x0000aa\",\"oemid\":\"0x5859\","
		"\"date\":\"02/2006\",\"serial\":\"0xdeadbeef\",\"cid\":\"aa\",\"csd\":\"40\",\"timing\":\"HS\"}}\n"
		"{\"schema\":1,\"type\":\"health\",\"run_id\":\"d4\",\"seq\":1,\"when\":\"before\","
		"\"device\":\"/dev/nvme0n1\",\"transport\":\"nvme\",\"nvme_smart\":\"not available: x\","
		"\"ata_smart\":\"not available: x\",\"pcie_link\":\"not available: x\","
		"\"temperature\":\"not available: x\"}\n";
	struct rep_set set;
	char err[256] = "";

	CHECK_EQ_U(unit_load_records(&set, text, "bus.jsonl", err, sizeof(err)), 0);
	const struct rep_run *r = rep_find(&set, "c3");
	CHECK(r != NULL);
	if (r) {
		CHECK_STR(r->health[REP_HEALTH_BEFORE].bus_summary,
			  "usb; USB 2-1, 5000 Mbit/s, version 3.00, uas; SCSI QEMU QEMU HARDDISK 2.5+");
		CHECK_STR(r->health[REP_HEALTH_AFTER].bus_summary,
			  "mmc; SD card QEMU! (manfid 0x0000aa, 02/2006), timing HS");
	}
	r = rep_find(&set, "d4");
	CHECK(r != NULL && r->health[REP_HEALTH_BEFORE].have && !r->health[REP_HEALTH_BEFORE].bus_summary);
	rep_free(&set);
}

UNIT_MAIN(test_summary, test_vpd80, test_decoders, test_sata, test_usb, test_mmc, test_others)

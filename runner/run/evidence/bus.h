/* bus.h: what the target's bus tells about it, from sysfs (and debugfs for
 * an MMC host's bus timing): which bus it is on (`bus`), the SATA link's
 * speed and limit, the USB device's speed, version and transport (UAS or
 * bulk-only), an SD/MMC card's CID, CSD and registers' fields, and the
 * SCSI identity. Each part is either filled or has its reason ("not
 * available: ...").
 *
 * Library code: reads a sysfs tree whose root is given (/sys on a device, a
 * tree built in a scratch folder in the unit tests), never prints. */
#ifndef FSB_BUS_H
#define FSB_BUS_H

#include <stddef.h>

#include "log/record.h"

struct fsb_bus_sata {
	char port[16];			/* ata1 */
	char speed[32];			/* sata_spd: "6.0 Gbps", "<unknown>" */
	double speed_gbps;		/* from speed; < 0 when it has no number */
	char limit[32];			/* sata_spd_limit */
};

struct fsb_bus_usb {
	char device[32];		/* the USB device's sysfs name, 2-1 */
	double speed_mbps;		/* sysfs speed: 1.5, 12, 480, 5000, 10000, ... */
	char version[16];		/* sysfs version: "3.00" */
	char transport[8];		/* "uas" or "bot" (the interface's driver) */
};

struct fsb_bus_mmc {
	char type[16];			/* SD, MMC, SDIO */
	char name[32], manfid[16], oemid[16], date[16], serial[24];
	char cid[40], csd[40];
	char timing[24];		/* HS400, SDR104, HS, legacy ...; "" with timing_why */
	char timing_why[160];
	char host[16];			/* mmc0 */
};

struct fsb_bus_scsi {
	char vendor[16], model[40], rev[16];
};

struct fsb_bus {
	char bus[16];			/* nvme, sata, usb, mmc, scsi, virtio, other */
	int have_sata, have_usb, have_mmc, have_scsi;
	struct fsb_bus_sata sata;
	struct fsb_bus_usb usb;
	struct fsb_bus_mmc mmc;
	struct fsb_bus_scsi scsi;
	char sata_why[160], usb_why[160], mmc_why[160], scsi_why[160];
};

/* The bus of the whole disk `disk` (a name in sysroot/class/block) and its
 * facts; debugfs is where debugfs is mounted (the MMC host's ios file), ""
 * for none. Always fills b; 0, or -errno when the disk is not in sysfs
 * (b then has the reason in every part, bus "other"). */
int fsb_bus_read(const char *sysroot, const char *debugfs, const char *disk, struct fsb_bus *b);
/* Every part "not available: REASON", bus "other" (a run without a disk,
 * a loop device). */
void fsb_bus_none(struct fsb_bus *b, const char *reason);

/* Decode layer (unit-tested). The bus of a disk from its name and the
 * resolved sysfs path of its block node, with transport_driver the USB
 * interface's driver above it ("" when none): "nvme", "sata", ... */
const char *fsb_bus_classify(const char *disk, const char *real, const char *usb_driver);
/* "6.0 Gbps" -> 6.0; -1 when the text has no number ("<unknown>"). */
double fsb_sata_gbps(const char *spd);
/* The short name of the ios file's "timing spec" text ("mmc HS400" ->
 * "HS400", "sd uhs SDR104" -> "SDR104", "sd high-speed" -> "HS"), from the
 * whole ios file's text; "" when it has no timing spec line. */
const char *fsb_mmc_timing(const char *ios, char *out, size_t len);

/* The health record's members `bus`, `sata_link`, `usb`, `mmc`, `scsi`. */
void fsb_bus_json(struct fsb_rec *r, const struct fsb_bus *b);

#endif

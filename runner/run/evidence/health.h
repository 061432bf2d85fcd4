/* health.h: the target disk's health before and after the suite: the NVMe
 * SMART / health log (Get Log Page 0x02 through the kernel's admin
 * passthrough), the ATA SMART attributes and error log (ATA PASS-THROUGH
 * (16) through SG_IO, for SATA disks and bridges that pass ATA through),
 * the PCIe link against its maximum, and the temperature.
 *
 * Library code: reads and decodes, returns -errno, never prints. Whatever
 * cannot be read is kept as a reason ("not available: ..."), never as a
 * guessed value. */
#ifndef FSB_HEALTH_H
#define FSB_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include "log/record.h"
#include "run/evidence/flash.h"
#include "run/evidence/bus.h"
#include "run/target/target.h"

#define FSB_NVME_LOG_SMART 0x02
#define FSB_NVME_SMART_LEN 512
/* A data unit of the SMART log is 1000 units of 512 bytes (NVMe base
 * specification, SMART / Health Information log page). */
#define FSB_NVME_DATA_UNIT 512000ull

/* The SMART / health log, decoded. The counters are 128-bit little-endian
 * in the log; they are kept whole (lo, hi) and written exactly: a number
 * while it fits in 64 bits, else a string of its decimal digits. */
struct fsb_u128 {
	uint64_t lo, hi;
};

enum fsb_smart_counter {
	FSB_SMART_DATA_UNITS_READ,
	FSB_SMART_DATA_UNITS_WRITTEN,
	FSB_SMART_HOST_READ_COMMANDS,
	FSB_SMART_HOST_WRITE_COMMANDS,
	FSB_SMART_CONTROLLER_BUSY_TIME,
	FSB_SMART_POWER_CYCLES,
	FSB_SMART_POWER_ON_HOURS,
	FSB_SMART_UNSAFE_SHUTDOWNS,
	FSB_SMART_MEDIA_ERRORS,
	FSB_SMART_ERROR_LOG_ENTRIES,
	FSB_SMART_NCOUNTERS
};

struct fsb_nvme_smart {
	uint8_t critical_warning;	/* byte 0: bit field */
	uint16_t temperature_k;		/* bytes 1-2: composite temperature, kelvin */
	uint8_t available_spare;	/* byte 3: percent */
	uint8_t available_spare_threshold;	/* byte 4: percent */
	uint8_t percentage_used;	/* byte 5: may exceed 100 */
	struct fsb_u128 counter[FSB_SMART_NCOUNTERS];
};

/* The JSON name of each counter ("data_units_read", ...). */
extern const char *const fsb_smart_counter_names[FSB_SMART_NCOUNTERS];

/* Decode a 512-byte SMART / health log page (little-endian, the spec's
 * offsets). 0, or -EINVAL when len is short. */
int fsb_nvme_smart_decode(const uint8_t *buf, size_t len, struct fsb_nvme_smart *s);
/* after - before, per counter. A counter that went backwards (another
 * disk, or a controller that reset it) gets 0 and its bit (1 << counter)
 * in the return value. */
unsigned fsb_nvme_smart_delta(const struct fsb_nvme_smart *before,
			      const struct fsb_nvme_smart *after,
			      struct fsb_u128 delta[FSB_SMART_NCOUNTERS]);
/* A 128-bit count in decimal digits. */
char *fsb_u128_text(struct fsb_u128 v, char *buf, size_t len);
/* Data units (of FSB_NVME_DATA_UNIT bytes) in bytes; -EOVERFLOW when the
 * bytes do not fit in 64 bits. */
int fsb_nvme_units_bytes(struct fsb_u128 units, uint64_t *bytes);

/* ATA SMART (ACS-3: SMART READ DATA, SMART READ LOG): the 512-byte
 * attribute data (revision at 0, 30 entries of 12 bytes from offset 2: id,
 * flags (2), current, worst, raw (6, little-endian), reserved; checksum at
 * 511) and the summary error log (log address 0x01: version, error log
 * index, five entries, device error count at 452-453, checksum at 511). */
#define FSB_ATA_SMART_LEN 512
#define FSB_ATA_NATTR 30
#define FSB_ATA_LOG_SUMMARY 0x01

struct fsb_ata_attr {
	uint8_t id;
	uint16_t flags;
	uint8_t current, worst;
	uint64_t raw;		/* 48 bits */
};

/* The attributes whose raw value counts disk errors: their increase during
 * the run is in the after record's delta. */
enum fsb_ata_counter {
	FSB_ATA_REALLOCATED,		/* 5 */
	FSB_ATA_REPORTED_UNCORRECT,	/* 187 */
	FSB_ATA_CURRENT_PENDING,	/* 197 */
	FSB_ATA_OFFLINE_UNCORRECT,	/* 198 */
	FSB_ATA_UDMA_CRC,		/* 199 */
	FSB_ATA_NCOUNTERS
};
extern const uint8_t fsb_ata_counter_id[FSB_ATA_NCOUNTERS];
extern const char *const fsb_ata_counter_names[FSB_ATA_NCOUNTERS];

struct fsb_ata_smart {
	uint16_t revision;
	unsigned nattr;			/* entries with a nonzero id, in table order */
	struct fsb_ata_attr attr[FSB_ATA_NATTR];
	int have_errlog;		/* 0: error_why says why */
	uint8_t errlog_index;
	uint16_t error_count;		/* the device error count */
	char error_why[120];
	int status;			/* SMART RETURN STATUS: 1 passed, 0 threshold exceeded, -1 unknown */
};

/* Decode the SMART READ DATA buffer into s (the error log and status are
 * left unknown). 0, -EINVAL when len is short, -EBADMSG when the checksum
 * (all 512 bytes sum to 0) does not hold. */
int fsb_ata_smart_decode(const uint8_t *buf, size_t len, struct fsb_ata_smart *s);
/* Decode the summary error log (log 0x01) into s's error log fields; the
 * same returns. */
int fsb_ata_errlog_decode(const uint8_t *buf, size_t len, struct fsb_ata_smart *s);
/* SMART RETURN STATUS from the sense data of an ATA PASS-THROUGH with
 * CK_COND (the ATA Status Return descriptor): 1 passed (LBA 0xC24F), 0
 * threshold exceeded (0x2CF4); -ENODATA without the descriptor, -EPROTO for
 * another value. */
int fsb_ata_status_decode(const uint8_t *sense, size_t len);
/* The attribute with this id, or NULL. */
const struct fsb_ata_attr *fsb_ata_attr_find(const struct fsb_ata_smart *s, uint8_t id);

/* Everything health knows about one disk at one moment. For each part,
 * `have_*` is 1 with the values, or 0 with the reason in `*_why`. */
struct fsb_health {
	char device[80];
	char transport[16];
	int have_smart;
	struct fsb_nvme_smart smart;
	char smart_why[160];
	int ata_tried;			/* an ATA disk: SMART was asked for */
	int have_ata;
	struct fsb_ata_smart ata;
	char ata_why[160];		/* why there are no ATA SMART attributes */
	int have_pcie;
	char pcie_speed[48], pcie_width[16], pcie_max_speed[48], pcie_max_width[16];
	char pcie_dev[64];		/* the PCI function (0000:01:00.0) */
	char pcie_why[160];
	int have_temp;
	int temp_mc;			/* millidegrees Celsius */
	char temp_source[64];		/* "nvme smart log", "hwmon NAME" */
	char temp_why[160];
	struct fsb_flash flash;		/* an eMMC's or UFS device's wear (flash.h) */
	struct fsb_bus bus;		/* the bus and what it tells (bus.h) */
};

/* Read the health of disk d (a whole disk or a partition: the whole disk is
 * read). Always fills h (a part that cannot be read gets its reason);
 * returns 0. */
int fsb_health_read(const struct fsb_disk *d, struct fsb_health *h);
/* The same for a run without a disk (--dir): every part "not available"
 * with reason. */
void fsb_health_none(struct fsb_health *h, const char *reason);
/* The health record's members (`when`, `device`, `transport`,
 * `nvme_smart`, `ata_smart`, `pcie_link`, `temperature`, and bus.h's `bus`,
 * `sata_link`, `usb`, `mmc`, `scsi`), and with before
 * != NULL the `delta` object. */
void fsb_health_json(struct fsb_rec *r, const char *when, const struct fsb_health *h,
		     const struct fsb_health *before);

#endif

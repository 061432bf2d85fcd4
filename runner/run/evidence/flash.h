/* flash.h: the health and identity of a managed flash target, as the
 * `flash` object of the `health` record: an eMMC's EXT_CSD register (read
 * with CMD8 SEND_EXT_CSD through the kernel's MMC_IOC_CMD ioctl on the
 * whole /dev/mmcblkN) or a UFS device's health and device descriptors (the
 * ufshcd driver's sysfs folders). Every other target gets "not available:
 * REASON".
 *
 * Both standards give the wear in the same words (JEDEC JESD84-B51 EXT_CSD
 * [267]-[269]; JESD220 health descriptor bPreEOLInfo, bDeviceLifeTimeEstA
 * and B): two life time estimations, A and B (two kinds of cells, the
 * vendor says which), each a band of 10 % of the life used (0x01: 0-10 %
 * ... 0x0A: 90-100 %, 0x0B: beyond the estimated life, 0x00: not
 * defined), and the pre-EOL information, how much of the reserved blocks
 * is used (0x01 normal, 0x02 warning: 80 %, 0x03 urgent (UFS: critical):
 * 90 %, 0x00 not defined).
 *
 * Library code: reads and decodes, returns -errno, never prints. */
#ifndef FSB_FLASH_H
#define FSB_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "log/record.h"

#define FSB_EXT_CSD_LEN 512

/* JEDEC EXT_CSD byte offsets (JESD84-B51, the Extended CSD register). */
enum {
	FSB_EXT_CSD_CACHE_CTRL = 33,
	FSB_EXT_CSD_BKOPS_EN = 163,
	FSB_EXT_CSD_RPMB_SIZE_MULT = 168,
	FSB_EXT_CSD_PARTITION_CONFIG = 179,
	FSB_EXT_CSD_STROBE_SUPPORT = 184,
	FSB_EXT_CSD_HS_TIMING = 185,
	FSB_EXT_CSD_REV = 192,
	FSB_EXT_CSD_DEVICE_TYPE = 196,
	FSB_EXT_CSD_SEC_COUNT = 212,		/* 4 bytes, little-endian */
	FSB_EXT_CSD_BOOT_SIZE_MULT = 226,
	FSB_EXT_CSD_BKOPS_STATUS = 246,
	FSB_EXT_CSD_CACHE_SIZE = 249,		/* 4 bytes, little-endian */
	FSB_EXT_CSD_FIRMWARE_VERSION = 254,	/* 8 bytes */
	FSB_EXT_CSD_DEVICE_VERSION = 262,	/* 2 bytes, little-endian */
	FSB_EXT_CSD_PRE_EOL_INFO = 267,
	FSB_EXT_CSD_LIFE_TIME_EST_A = 268,
	FSB_EXT_CSD_LIFE_TIME_EST_B = 269,
};
/* EXT_CSD_REV 7 (eMMC 5.0) brought the life time estimations and pre-EOL. */
#define FSB_EXT_CSD_REV_LIFE 7

enum fsb_flash_kind { FSB_FLASH_NONE, FSB_FLASH_EMMC, FSB_FLASH_UFS };

struct fsb_flash {
	int have;			/* 0: why says why */
	char why[200];
	enum fsb_flash_kind kind;
	char source[160];		/* where it was read */
	int have_life;			/* 0: life_why says why (an eMMC before 5.0) */
	char life_why[120];
	uint8_t life_a, life_b, pre_eol;	/* the raw JEDEC values */
	/* eMMC: the EXT_CSD fields kept */
	uint8_t ext_csd_rev, hs_timing, device_type, strobe_support;
	uint8_t cache_ctrl, bkops_en, bkops_status, partition_config;
	uint8_t boot_size_mult, rpmb_size_mult;
	uint32_t sec_count, cache_size;
	uint16_t device_version;
	char firmware[24];		/* printable, or hex digits */
	/* UFS: the device descriptor's spec and the string descriptors */
	char spec[24];			/* "UFS 3.1", "eMMC 5.1" */
	char manufacturer_id[16], manufacturer[64], product[64], serial[64], revision[16];
};

/* Decode a 512-byte EXT_CSD into f (kind eMMC, have 1). 0, or -EINVAL
 * when len is short. */
int fsb_ext_csd_decode(const uint8_t *buf, size_t len, struct fsb_flash *f);
/* The UFS host above the disk's sysfs node real (a folder holding
 * health_descriptor/), read into f. 0; -ENOENT when there is none;
 * -EINVAL (f->why says which) when a health file is absent or not a
 * number. */
int fsb_flash_read_ufs(const char *real, struct fsb_flash *f);
/* The flash health of a disk: transport as the target has it, real its
 * sysfs node (resolved), whole its /dev node. Always fills f (a reason
 * when there is nothing to read); returns 0. */
int fsb_flash_read(const char *transport, const char *real, const char *whole,
		   struct fsb_flash *f);
/* f for a run without a readable disk. */
void fsb_flash_none(struct fsb_flash *f, const char *reason);

/* A life time estimation's band ("0-10%", ..., "90-100%", "exceeded",
 * "undefined", "reserved 0x0c") into buf; its upper bound in percent
 * (10 .. 100) as the return, 0 when it has none. */
int fsb_flash_life_band(uint8_t v, char *buf, size_t len);
/* Pre-EOL information: "normal", "warning", "urgent", "undefined",
 * "reserved 0x04" into buf. */
const char *fsb_flash_pre_eol_text(uint8_t v, char *buf, size_t len);
/* HS_TIMING's timing interface: "legacy", "HS", "HS200", "HS400", or
 * "reserved 0x05" into buf. */
const char *fsb_flash_timing_text(uint8_t hs_timing, char *buf, size_t len);
/* An EXT_CSD revision as its eMMC version ("eMMC 5.1"); NULL when unknown. */
const char *fsb_ext_csd_rev_text(uint8_t rev);

/* The record's `flash` member (an object, or the reason). */
void fsb_flash_json(struct fsb_rec *r, const struct fsb_flash *f);
/* The after record's delta.flash: what changed between before and f, or
 * the reason when one of them has none. */
void fsb_flash_delta_json(struct fsb_rec *r, const struct fsb_flash *before,
			  const struct fsb_flash *f);

#endif

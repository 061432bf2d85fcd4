/* flash.c: an eMMC's EXT_CSD and a UFS device's health descriptor, read
 * and decoded for the health record (flash.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/sysfs.h"
#include "log/logfile.h"	/* fsb_get_le32 */
#include "run/evidence/flash.h"

/* The kernel's MMC command passthrough (linux/mmc/ioctl.h, a stable UAPI),
 * written out here: musl's headers do not carry the kernel's. */
struct fsb_mmc_ioc_cmd {
	int write_flag;			/* 0: the data goes from the card to us */
	int is_acmd;			/* 0: not an application command */
	uint32_t opcode;
	uint32_t arg;
	uint32_t response[4];
	unsigned int flags;		/* the response type and command class */
	unsigned int blksz;
	unsigned int blocks;
	unsigned int postsleep_min_us;
	unsigned int postsleep_max_us;
	unsigned int data_timeout_ns;
	unsigned int cmd_timeout_ms;
	uint32_t pad;
	uint64_t data_ptr;
};
_Static_assert(sizeof(struct fsb_mmc_ioc_cmd) == 72, "struct mmc_ioc_cmd is 72 bytes");
#define FSB_MMC_BLOCK_MAJOR 179
#define FSB_MMC_IOC_CMD _IOWR(FSB_MMC_BLOCK_MAJOR, 0, struct fsb_mmc_ioc_cmd)
/* The response and command type bits (linux/mmc/core.h): an R1 response
 * (present, CRC, opcode echoed; R1 on an SPI host too) to an addressed
 * data transfer command. */
#define FSB_MMC_RSP_PRESENT (1u << 0)
#define FSB_MMC_RSP_CRC (1u << 2)
#define FSB_MMC_RSP_OPCODE (1u << 4)
#define FSB_MMC_CMD_ADTC (1u << 5)
#define FSB_MMC_RSP_SPI_S1 (1u << 7)
#define FSB_MMC_SEND_EXT_CSD 8		/* CMD8 in the MMC command set */

int fsb_flash_life_band(uint8_t v, char *buf, size_t len)
{
	if (v >= 0x01 && v <= 0x0a) {
		snprintf(buf, len, "%u-%u%%", (v - 1u) * 10, v * 10u);
		return v * 10;
	}
	if (v == 0x0b)
		snprintf(buf, len, "exceeded");
	else if (v == 0)
		snprintf(buf, len, "undefined");
	else
		snprintf(buf, len, "reserved 0x%02x", v);
	return 0;
}

const char *fsb_flash_pre_eol_text(uint8_t v, char *buf, size_t len)
{
	static const char *const name[] = { "undefined", "normal", "warning", "urgent" };

	if (v < 4)
		snprintf(buf, len, "%s", name[v]);
	else
		snprintf(buf, len, "reserved 0x%02x", v);
	return buf;
}

const char *fsb_flash_timing_text(uint8_t hs_timing, char *buf, size_t len)
{
	static const char *const name[] = { "legacy", "HS", "HS200", "HS400" };
	unsigned t = hs_timing & 0x0f;	/* the high nibble: the driver strength */

	if (t < 4)
		snprintf(buf, len, "%s", name[t]);
	else
		snprintf(buf, len, "reserved 0x%02x", t);
	return buf;
}

const char *fsb_ext_csd_rev_text(uint8_t rev)
{
	static const char *const name[] = {
		"eMMC 4.0", "eMMC 4.1", "eMMC 4.2", "eMMC 4.3", NULL,
		"eMMC 4.41", "eMMC 4.5", "eMMC 5.0", "eMMC 5.1",
	};
	return rev < sizeof(name) / sizeof(name[0]) ? name[rev] : NULL;
}

/* The modes DEVICE_TYPE says the card supports, comma-separated. */
static const char *card_modes(uint8_t t, char *buf, size_t len)
{
	static const char *const bit[8] = {
		"HS26", "HS52", "DDR52", "DDR52_1.2V", "HS200", "HS200_1.2V", "HS400", "HS400_1.2V",
	};
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < 8 && o < len; i++)
		if (t & (1u << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", bit[i]);
	return buf;
}

int fsb_ext_csd_decode(const uint8_t *b, size_t len, struct fsb_flash *f)
{
	const uint8_t *fw = b + FSB_EXT_CSD_FIRMWARE_VERSION;
	int printable = 1;

	if (len < FSB_EXT_CSD_LEN)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->have = 1;
	f->kind = FSB_FLASH_EMMC;
	f->ext_csd_rev = b[FSB_EXT_CSD_REV];
	f->hs_timing = b[FSB_EXT_CSD_HS_TIMING];
	f->device_type = b[FSB_EXT_CSD_DEVICE_TYPE];
	f->strobe_support = b[FSB_EXT_CSD_STROBE_SUPPORT];
	f->cache_ctrl = b[FSB_EXT_CSD_CACHE_CTRL];
	f->bkops_en = b[FSB_EXT_CSD_BKOPS_EN];
	f->bkops_status = b[FSB_EXT_CSD_BKOPS_STATUS];
	f->partition_config = b[FSB_EXT_CSD_PARTITION_CONFIG];
	f->boot_size_mult = b[FSB_EXT_CSD_BOOT_SIZE_MULT];
	f->rpmb_size_mult = b[FSB_EXT_CSD_RPMB_SIZE_MULT];
	f->sec_count = fsb_get_le32(b + FSB_EXT_CSD_SEC_COUNT);
	f->cache_size = fsb_get_le32(b + FSB_EXT_CSD_CACHE_SIZE);
	f->device_version = (uint16_t)(b[FSB_EXT_CSD_DEVICE_VERSION] |
				       b[FSB_EXT_CSD_DEVICE_VERSION + 1] << 8);
	/* FIRMWARE_VERSION: vendor text, or a binary number (shown in hex) */
	for (int i = 0; i < 8; i++)
		if (fw[i] && (fw[i] < 0x20 || fw[i] > 0x7e))
			printable = 0;
	if (printable && fw[0]) {
		memcpy(f->firmware, fw, 8);
		for (int i = 7; i >= 0 && (f->firmware[i] == ' ' || !f->firmware[i]); i--)
			f->firmware[i] = 0;
	} else {
		for (int i = 0; i < 8; i++)
			snprintf(f->firmware + 2 * i, 3, "%02x", fw[i]);
	}
	const char *spec = fsb_ext_csd_rev_text(f->ext_csd_rev);
	snprintf(f->spec, sizeof(f->spec), "%s", spec ? spec : "");
	if (f->ext_csd_rev < FSB_EXT_CSD_REV_LIFE) {
		snprintf(f->life_why, sizeof(f->life_why),
			 "not available: EXT_CSD revision %u (%s) predates the life time estimation "
			 "(revision 7, eMMC 5.0)", f->ext_csd_rev, spec ? spec : "unknown");
		return 0;
	}
	f->have_life = 1;
	f->pre_eol = b[FSB_EXT_CSD_PRE_EOL_INFO];
	f->life_a = b[FSB_EXT_CSD_LIFE_TIME_EST_A];
	f->life_b = b[FSB_EXT_CSD_LIFE_TIME_EST_B];
	return 0;
}

/* CMD8 SEND_EXT_CSD on the whole eMMC dev: 512 bytes into buf. */
static int mmc_ext_csd(const char *dev, uint8_t *buf)
{
	struct fsb_mmc_ioc_cmd cmd;
	int fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, FSB_EXT_CSD_LEN);
	cmd.opcode = FSB_MMC_SEND_EXT_CSD;
	cmd.flags = FSB_MMC_RSP_SPI_S1 | FSB_MMC_RSP_PRESENT | FSB_MMC_RSP_CRC |
		    FSB_MMC_RSP_OPCODE | FSB_MMC_CMD_ADTC;
	cmd.blksz = FSB_EXT_CSD_LEN;
	cmd.blocks = 1;
	cmd.data_ptr = (uint64_t)(uintptr_t)buf;
	int rc = ioctl(fd, FSB_MMC_IOC_CMD, &cmd);
	int e = errno;
	close(fd);
	return rc < 0 ? -e : 0;
}

/* A health or descriptor file of the UFS host: a number ("0x01"). */
static int ufs_num(const char *host, const char *file, unsigned long *v)
{
	char path[PATH_MAX + 32], buf[32], *end;

	snprintf(path, sizeof(path), "%s/health_descriptor", host);
	if (fsb_read_attr(path, file, buf, sizeof(buf)) < 0 || !buf[0])
		return -ENOENT;
	*v = strtoul(buf, &end, 0);
	return *end ? -EINVAL : 0;
}

int fsb_flash_read_ufs(const char *real, struct fsb_flash *f)
{
	static const char *const life_file[3] = {
		"life_time_estimation_a", "life_time_estimation_b", "eol_info",
	};
	char host[PATH_MAX], sub[PATH_MAX + 32], buf[32];
	char *slash;
	unsigned long v[3];

	snprintf(host, sizeof(host), "%s", real);
	for (;;) {
		snprintf(sub, sizeof(sub), "%s/health_descriptor", host);
		if (access(sub, F_OK) == 0)
			break;
		if (!(slash = strrchr(host, '/')) || slash == host)
			return -ENOENT;
		*slash = 0;
	}
	memset(f, 0, sizeof(*f));
	f->kind = FSB_FLASH_UFS;
	snprintf(f->source, sizeof(f->source), "sysfs %.140s", host);
	for (int i = 0; i < 3; i++) {
		int e = ufs_num(host, life_file[i], &v[i]);
		if (e < 0 || v[i] > 0xff) {
			snprintf(f->why, sizeof(f->why), "not available: %.120s/health_descriptor/%s %s",
				 host, life_file[i], e == -ENOENT ? "is missing" : "is not a byte");
			return -EINVAL;
		}
	}
	f->have = f->have_life = 1;
	f->life_a = (uint8_t)v[0];
	f->life_b = (uint8_t)v[1];
	f->pre_eol = (uint8_t)v[2];
	/* identity: the device descriptor's numbers, the string descriptors */
	snprintf(sub, sizeof(sub), "%s/device_descriptor", host);
	if (fsb_read_attr(sub, "specification_version", buf, sizeof(buf)) == 0 && buf[0]) {
		unsigned long sv = strtoul(buf, NULL, 0);	/* BCD: 0x0310 is 3.1 */
		snprintf(f->spec, sizeof(f->spec), "UFS %lx.%lx", (sv >> 8) & 0xff, (sv >> 4) & 0xf);
	}
	fsb_read_attr(sub, "manufacturer_id", f->manufacturer_id, sizeof(f->manufacturer_id));
	snprintf(sub, sizeof(sub), "%s/string_descriptors", host);
	fsb_read_attr(sub, "manufacturer_name", f->manufacturer, sizeof(f->manufacturer));
	fsb_read_attr(sub, "product_name", f->product, sizeof(f->product));
	fsb_read_attr(sub, "serial_number", f->serial, sizeof(f->serial));
	fsb_read_attr(sub, "product_revision", f->revision, sizeof(f->revision));
	return 0;
}

void fsb_flash_none(struct fsb_flash *f, const char *reason)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->why, sizeof(f->why), "not available: %.180s", reason);
}

int fsb_flash_read(const char *transport, const char *real, const char *whole,
		   struct fsb_flash *f)
{
	char dev[PATH_MAX + 16], type[16];
	static uint8_t buf[FSB_EXT_CSD_LEN];

	memset(f, 0, sizeof(*f));
	if (!strcmp(transport, "mmc")) {
		snprintf(dev, sizeof(dev), "%s/device", real);
		if (fsb_read_attr(dev, "type", type, sizeof(type)) < 0)
			snprintf(type, sizeof(type), "unknown");
		if (strcmp(type, "MMC")) {
			snprintf(f->why, sizeof(f->why), "not available: an %.10s card (only an eMMC "
				 "has EXT_CSD; an SD card has no standard wear register)", type);
			return 0;
		}
		int e = mmc_ext_csd(whole, buf);
		if (e < 0) {
			snprintf(f->why, sizeof(f->why),
				 "not available: CMD8 SEND_EXT_CSD (MMC_IOC_CMD) on %.60s: %s", whole,
				 strerror(-e));
			return 0;
		}
		fsb_ext_csd_decode(buf, sizeof(buf), f);
		snprintf(f->source, sizeof(f->source), "EXT_CSD (CMD8 through MMC_IOC_CMD) of %.60s",
			 whole);
		return 0;
	}
	if (!strcmp(transport, "nvme")) {
		fsb_flash_none(f, "an NVMe disk (its wear is nvme_smart's percentage_used)");
		return 0;
	}
	if (fsb_flash_read_ufs(real, f) == 0 || f->why[0])
		return 0;
	snprintf(f->why, sizeof(f->why),
		 "not available: neither an eMMC nor a UFS device (transport %.16s)", transport);
	return 0;
}

/* One life time estimation: its band, raw value and upper bound. */
static void life_json(struct fsb_rec *r, const char *band, const char *raw, const char *pct,
		      uint8_t v)
{
	char t[24];
	int max = fsb_flash_life_band(v, t, sizeof(t));

	rec_str(r, band, t);
	rec_u64(r, raw, v);
	if (max)
		rec_u64(r, pct, (uint64_t)max);
}

static const char *bkops_text(uint8_t v)
{
	static const char *const name[] = {
		"not required", "outstanding (non-critical)", "outstanding (performance impacted)",
		"outstanding (critical)",
	};
	return name[v & 3];
}

static const char *boot_text(uint8_t partition_config)
{
	static const char *const name[8] = {
		"none", "boot0", "boot1", "reserved", "reserved", "reserved", "reserved", "user",
	};
	return name[(partition_config >> 3) & 7];
}

void fsb_flash_json(struct fsb_rec *r, const struct fsb_flash *f)
{
	char t[160];

	if (!f->have) {
		rec_str(r, K(flash), f->why[0] ? f->why : "not available: not read");
		return;
	}
	rec_obj(r, K(flash));
	rec_str(r, K(kind), f->kind == FSB_FLASH_UFS ? "ufs" : "emmc");
	rec_str(r, K(source), f->source);
	if (f->have_life) {
		life_json(r, K(life_a), K(life_a_raw), K(life_a_pct_max), f->life_a);
		life_json(r, K(life_b), K(life_b_raw), K(life_b_pct_max), f->life_b);
		rec_str(r, K(pre_eol), fsb_flash_pre_eol_text(f->pre_eol, t, sizeof(t)));
		rec_u64(r, K(pre_eol_raw), f->pre_eol);
	} else {
		rec_str(r, K(life_a), f->life_why);
		rec_str(r, K(life_b), f->life_why);
		rec_str(r, K(pre_eol), f->life_why);
	}
	if (f->spec[0])
		rec_str(r, K(spec), f->spec);
	if (f->kind == FSB_FLASH_EMMC) {
		rec_u64(r, K(ext_csd_rev), f->ext_csd_rev);
		rec_str(r, K(hs_timing), fsb_flash_timing_text(f->hs_timing, t, sizeof(t)));
		rec_str(r, K(card_modes), card_modes(f->device_type, t, sizeof(t)));
		rec_bool(r, K(strobe_support), f->strobe_support & 1);
		rec_str(r, K(bkops), bkops_text(f->bkops_status));
		rec_u64(r, K(cache_kib), f->cache_size);
		rec_bool(r, K(cache_on), f->cache_ctrl & 1);
		rec_str(r, K(boot_partition), boot_text(f->partition_config));
		rec_u64(r, K(boot_kib), f->boot_size_mult * 128u);
		rec_u64(r, K(rpmb_kib), f->rpmb_size_mult * 128u);
		if (f->sec_count)
			rec_u64(r, K(size_bytes), (uint64_t)f->sec_count * 512);
		rec_str(r, K(firmware), f->firmware);
		rec_u64(r, K(device_version), f->device_version);
	} else {
		if (f->manufacturer_id[0])
			rec_str(r, K(manufacturer_id), f->manufacturer_id);
		if (f->manufacturer[0])
			rec_str(r, K(manufacturer), f->manufacturer);
		if (f->product[0])
			rec_str(r, K(product), f->product);
		if (f->serial[0])
			rec_str(r, K(serial), f->serial);
		if (f->revision[0])
			rec_str(r, K(revision), f->revision);
	}
	rec_close(r);
}

/* "BEFORE -> AFTER" of a field that changed. */
static int changed(struct fsb_rec *r, const char *key, const char *a, const char *b)
{
	char t[96];

	if (!strcmp(a, b))
		return 0;
	snprintf(t, sizeof(t), "%.40s -> %.40s", a, b);
	rec_str(r, key, t);
	return 1;
}

void fsb_flash_delta_json(struct fsb_rec *r, const struct fsb_flash *before,
			  const struct fsb_flash *f)
{
	char a[32], b[32];
	unsigned n = 0;

	if (!before->have || !f->have || !before->have_life || !f->have_life) {
		const char *why = !before->have ? before->why : !f->have ? f->why :
				  !before->have_life ? before->life_why : f->life_why;
		rec_str(r, K(flash), why[0] ? why : "not available: not read");
		return;
	}
	rec_obj(r, K(flash));
	fsb_flash_life_band(before->life_a, a, sizeof(a));
	fsb_flash_life_band(f->life_a, b, sizeof(b));
	n += (unsigned)changed(r, K(life_a), a, b);
	fsb_flash_life_band(before->life_b, a, sizeof(a));
	fsb_flash_life_band(f->life_b, b, sizeof(b));
	n += (unsigned)changed(r, K(life_b), a, b);
	n += (unsigned)changed(r, K(pre_eol), fsb_flash_pre_eol_text(before->pre_eol, a, sizeof(a)),
			       fsb_flash_pre_eol_text(f->pre_eol, b, sizeof(b)));
	if (f->kind == FSB_FLASH_EMMC && before->kind == FSB_FLASH_EMMC)
		n += (unsigned)changed(r, K(bkops), bkops_text(before->bkops_status),
				       bkops_text(f->bkops_status));
	rec_u64(r, K(changed), n);
	rec_close(r);
}

/* health.c: the target disk's SMART / health log, PCIe link and
 * temperature, read before the first filesystem and after the last. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <scsi/sg.h>

#include "lib/sysfs.h"
#include "log/logfile.h"	/* fsb_get_le64 */
#include "run/evidence/health.h"
#include "run/target/nvme.h"

#define FSB_NVME_ADMIN_GET_LOG_PAGE 0x02
#define FSB_NVME_NSID_ALL 0xffffffffu

const char *const fsb_smart_counter_names[FSB_SMART_NCOUNTERS] = {
	[FSB_SMART_DATA_UNITS_READ] = K(data_units_read),
	[FSB_SMART_DATA_UNITS_WRITTEN] = K(data_units_written),
	[FSB_SMART_HOST_READ_COMMANDS] = K(host_read_commands),
	[FSB_SMART_HOST_WRITE_COMMANDS] = K(host_write_commands),
	[FSB_SMART_CONTROLLER_BUSY_TIME] = K(controller_busy_time_min),
	[FSB_SMART_POWER_CYCLES] = K(power_cycles),
	[FSB_SMART_POWER_ON_HOURS] = K(power_on_hours),
	[FSB_SMART_UNSAFE_SHUTDOWNS] = K(unsafe_shutdowns),
	[FSB_SMART_MEDIA_ERRORS] = K(media_errors),
	[FSB_SMART_ERROR_LOG_ENTRIES] = K(error_log_entries),
};

/* Byte offset of each 16-byte counter in the log page. */
static const unsigned smart_offset[FSB_SMART_NCOUNTERS] = {
	[FSB_SMART_DATA_UNITS_READ] = 32,
	[FSB_SMART_DATA_UNITS_WRITTEN] = 48,
	[FSB_SMART_HOST_READ_COMMANDS] = 64,
	[FSB_SMART_HOST_WRITE_COMMANDS] = 80,
	[FSB_SMART_CONTROLLER_BUSY_TIME] = 96,
	[FSB_SMART_POWER_CYCLES] = 112,
	[FSB_SMART_POWER_ON_HOURS] = 128,
	[FSB_SMART_UNSAFE_SHUTDOWNS] = 144,
	[FSB_SMART_MEDIA_ERRORS] = 160,
	[FSB_SMART_ERROR_LOG_ENTRIES] = 176,
};

int fsb_nvme_smart_decode(const uint8_t *buf, size_t len, struct fsb_nvme_smart *s)
{
	if (len < FSB_NVME_SMART_LEN)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->critical_warning = buf[0];
	s->temperature_k = (uint16_t)(buf[1] | buf[2] << 8);
	s->available_spare = buf[3];
	s->available_spare_threshold = buf[4];
	s->percentage_used = buf[5];
	for (int i = 0; i < FSB_SMART_NCOUNTERS; i++) {
		s->counter[i].lo = fsb_get_le64(buf + smart_offset[i]);
		s->counter[i].hi = fsb_get_le64(buf + smart_offset[i] + 8);
	}
	return 0;
}

unsigned fsb_nvme_smart_delta(const struct fsb_nvme_smart *before,
			      const struct fsb_nvme_smart *after,
			      struct fsb_u128 delta[FSB_SMART_NCOUNTERS])
{
	unsigned back = 0;

	for (int i = 0; i < FSB_SMART_NCOUNTERS; i++) {
		struct fsb_u128 a = after->counter[i], b = before->counter[i];
		if (a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo)) {
			back |= 1u << i;
			delta[i] = (struct fsb_u128){ 0, 0 };
			continue;
		}
		delta[i].lo = a.lo - b.lo;
		delta[i].hi = a.hi - b.hi - (a.lo < b.lo);
	}
	return back;
}

char *fsb_u128_text(struct fsb_u128 v, char *buf, size_t len)
{
	char tmp[48];
	size_t n = 0;
	/* four 32-bit limbs, most significant first, divided by 10 in turn */
	uint32_t limb[4] = { (uint32_t)(v.hi >> 32), (uint32_t)v.hi,
			     (uint32_t)(v.lo >> 32), (uint32_t)v.lo };

	do {
		uint64_t rem = 0;
		int nonzero = 0;
		for (int i = 0; i < 4; i++) {
			uint64_t cur = rem << 32 | limb[i];
			limb[i] = (uint32_t)(cur / 10);
			rem = cur % 10;
			nonzero |= limb[i] != 0;
		}
		tmp[n++] = (char)('0' + rem);
		if (!nonzero)
			break;
	} while (n < sizeof(tmp));
	if (!len)
		return buf;
	size_t k = 0;
	while (n && k + 1 < len)
		buf[k++] = tmp[--n];
	buf[k] = 0;
	return buf;
}

int fsb_nvme_units_bytes(struct fsb_u128 units, uint64_t *bytes)
{
	if (units.hi || units.lo > UINT64_MAX / FSB_NVME_DATA_UNIT)
		return -EOVERFLOW;
	*bytes = units.lo * FSB_NVME_DATA_UNIT;
	return 0;
}

/* Get Log Page 0x02 (SMART / health, the whole controller) into buf. 0,
 * -errno, or -EIO with the NVMe status in *status. */
static int nvme_get_smart(const char *dev, uint8_t *buf, unsigned *status)
{
	struct fsb_nvme_admin_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, FSB_NVME_SMART_LEN);
	cmd.opcode = FSB_NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = FSB_NVME_NSID_ALL;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = FSB_NVME_SMART_LEN;
	/* NUMDL (dwords - 1) in bits 31:16, the log id in bits 7:0 */
	cmd.cdw10 = (uint32_t)(FSB_NVME_SMART_LEN / 4 - 1) << 16 | FSB_NVME_LOG_SMART;
	return fsb_nvme_admin(dev, &cmd, 0, status);
}

const uint8_t fsb_ata_counter_id[FSB_ATA_NCOUNTERS] = {
	[FSB_ATA_REALLOCATED] = 5,
	[FSB_ATA_REPORTED_UNCORRECT] = 187,
	[FSB_ATA_CURRENT_PENDING] = 197,
	[FSB_ATA_OFFLINE_UNCORRECT] = 198,
	[FSB_ATA_UDMA_CRC] = 199,
};
const char *const fsb_ata_counter_names[FSB_ATA_NCOUNTERS] = {
	[FSB_ATA_REALLOCATED] = K(reallocated_sectors),
	[FSB_ATA_REPORTED_UNCORRECT] = K(reported_uncorrectable),
	[FSB_ATA_CURRENT_PENDING] = K(current_pending_sectors),
	[FSB_ATA_OFFLINE_UNCORRECT] = K(offline_uncorrectable),
	[FSB_ATA_UDMA_CRC] = K(udma_crc_errors),
};

/* A SMART data structure's checksum: the 512 bytes sum to 0 (mod 256). */
static int ata_sum_ok(const uint8_t *buf)
{
	uint8_t sum = 0;

	for (int i = 0; i < FSB_ATA_SMART_LEN; i++)
		sum = (uint8_t)(sum + buf[i]);
	return sum == 0;
}

int fsb_ata_smart_decode(const uint8_t *buf, size_t len, struct fsb_ata_smart *s)
{
	if (len < FSB_ATA_SMART_LEN)
		return -EINVAL;
	if (!ata_sum_ok(buf))
		return -EBADMSG;
	memset(s, 0, sizeof(*s));
	s->status = -1;
	s->revision = (uint16_t)(buf[0] | buf[1] << 8);
	for (int i = 0; i < FSB_ATA_NATTR; i++) {
		const uint8_t *e = buf + 2 + 12 * i;
		if (!e[0])		/* an unused entry */
			continue;
		struct fsb_ata_attr *a = &s->attr[s->nattr++];
		a->id = e[0];
		a->flags = (uint16_t)(e[1] | e[2] << 8);
		a->current = e[3];
		a->worst = e[4];
		a->raw = 0;
		for (int k = 5; k >= 0; k--)
			a->raw = a->raw << 8 | e[5 + k];
	}
	return 0;
}

int fsb_ata_errlog_decode(const uint8_t *buf, size_t len, struct fsb_ata_smart *s)
{
	if (len < FSB_ATA_SMART_LEN)
		return -EINVAL;
	if (!ata_sum_ok(buf))
		return -EBADMSG;
	s->have_errlog = 1;
	s->errlog_index = buf[1];
	s->error_count = (uint16_t)(buf[452] | buf[453] << 8);
	return 0;
}

int fsb_ata_status_decode(const uint8_t *sense, size_t len)
{
	/* descriptor format sense (0x72/0x73): descriptors from byte 8,
	 * the additional length in byte 7 */
	if (len < 8 || ((sense[0] & 0x7f) != 0x72 && (sense[0] & 0x7f) != 0x73))
		return -ENODATA;
	size_t end = 8 + (size_t)sense[7];
	if (end > len)
		end = len;
	for (size_t at = 8; at + 2 <= end; at += 2 + (size_t)sense[at + 1]) {
		const uint8_t *d = sense + at;
		if (d[0] != 0x09 || at + 14 > end)	/* the ATA Status Return descriptor */
			continue;
		uint8_t mid = d[9], high = d[11];
		if (mid == 0x4f && high == 0xc2)
			return 1;
		if (mid == 0xf4 && high == 0x2c)
			return 0;
		return -EPROTO;
	}
	return -ENODATA;
}

const struct fsb_ata_attr *fsb_ata_attr_find(const struct fsb_ata_smart *s, uint8_t id)
{
	for (unsigned i = 0; i < s->nattr; i++)
		if (s->attr[i].id == id)
			return &s->attr[i];
	return NULL;
}

#define FSB_ATA_PASS_THROUGH_16 0x85
#define FSB_ATA_SMART 0xb0
#define FSB_ATA_SMART_READ_DATA 0xd0
#define FSB_ATA_SMART_READ_LOG 0xd5
#define FSB_ATA_SMART_RETURN_STATUS 0xda

/* One SMART command through ATA PASS-THROUGH (16): PIO Data-In of one
 * 512-byte sector into buf, or (buf NULL) non-data with CK_COND, the
 * registers coming back in sense. 0 or -errno; -EIO with what the SCSI
 * layer said in why. */
static int ata_smart_cmd(int fd, uint8_t feature, uint8_t lba_low, uint8_t *buf,
			 uint8_t *sense, size_t senselen, char *why, size_t whylen)
{
	uint8_t cdb[16] = { 0 };
	struct sg_io_hdr io;

	cdb[0] = FSB_ATA_PASS_THROUGH_16;
	if (buf) {
		cdb[1] = 4 << 1;	/* protocol 4: PIO Data-In */
		cdb[2] = 0x0e;		/* T_DIR in, BYTE_BLOCK, T_LENGTH in the sector count */
	} else {
		cdb[1] = 3 << 1;	/* protocol 3: non-data */
		cdb[2] = 0x20;		/* CK_COND: return the registers */
	}
	cdb[4] = feature;
	cdb[6] = 1;			/* sector count */
	cdb[8] = lba_low;		/* the log address for READ LOG */
	cdb[10] = 0x4f;			/* LBA mid */
	cdb[12] = 0xc2;			/* LBA high */
	cdb[14] = FSB_ATA_SMART;
	memset(&io, 0, sizeof(io));
	memset(sense, 0, senselen);
	io.interface_id = 'S';
	io.cmd_len = sizeof(cdb);
	io.cmdp = cdb;
	io.mx_sb_len = (unsigned char)senselen;
	io.sbp = sense;
	io.timeout = 10000;
	if (buf) {
		memset(buf, 0, FSB_ATA_SMART_LEN);
		io.dxfer_direction = SG_DXFER_FROM_DEV;
		io.dxfer_len = FSB_ATA_SMART_LEN;
		io.dxferp = buf;
	} else {
		io.dxfer_direction = SG_DXFER_NONE;
	}
	if (ioctl(fd, SG_IO, &io) < 0)
		return -errno;
	/* a driver byte other than DRIVER_SENSE (0x08, sense data follows) is
	 * an error of the transport, not of the disk */
	if (io.host_status || ((io.driver_status & 0x0f) && (io.driver_status & 0x0f) != 0x08)) {
		snprintf(why, whylen, "host status 0x%x, driver status 0x%x", io.host_status,
			 io.driver_status);
		return -EIO;
	}
	if (!io.status)
		return 0;
	/* CHECK CONDITION: with CK_COND, or a SATL that always reports "ATA
	 * pass through information available" (no sense / recovered error,
	 * ASC 0x00 ASCQ 0x1D), the command succeeded */
	int desc = (sense[0] & 0x7f) >= 0x72;
	uint8_t key = (uint8_t)((desc ? sense[1] : sense[2]) & 0x0f);
	uint8_t asc = desc ? sense[2] : sense[12], ascq = desc ? sense[3] : sense[13];
	if (io.status == 0x02 && (key == 0x00 || key == 0x01) && asc == 0x00 && ascq == 0x1d)
		return 0;
	snprintf(why, whylen, "SCSI status 0x%x, sense key 0x%x, ASC 0x%02x ASCQ 0x%02x",
		 io.status, key, asc, ascq);
	return -EIO;
}

/* The ATA SMART attributes, the summary error log's count and the overall
 * status of the whole disk dev. */
static void read_ata(struct fsb_health *h, const char *dev)
{
	static uint8_t buf[FSB_ATA_SMART_LEN];
	uint8_t sense[64];
	char why[96] = "";
	int e, fd;

	h->ata_tried = 1;
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(h->ata_why, sizeof(h->ata_why), "not available: open %s: %s", dev,
			 strerror(errno));
		return;
	}
	e = ata_smart_cmd(fd, FSB_ATA_SMART_READ_DATA, 0, buf, sense, sizeof(sense), why, sizeof(why));
	if (e == -EIO)
		snprintf(h->ata_why, sizeof(h->ata_why),
			 "not available: SMART READ DATA on %.40s: %.80s", dev, why);
	else if (e < 0)
		snprintf(h->ata_why, sizeof(h->ata_why),
			 "not available: ATA PASS-THROUGH (SG_IO) on %s: %s", dev, strerror(-e));
	else if ((e = fsb_ata_smart_decode(buf, sizeof(buf), &h->ata)) < 0)
		snprintf(h->ata_why, sizeof(h->ata_why),
			 "not available: SMART READ DATA on %s: %s", dev,
			 e == -EBADMSG ? "bad checksum" : strerror(-e));
	else
		h->have_ata = 1;
	if (!h->have_ata) {
		close(fd);
		return;
	}
	e = ata_smart_cmd(fd, FSB_ATA_SMART_READ_LOG, FSB_ATA_LOG_SUMMARY, buf, sense,
			  sizeof(sense), why, sizeof(why));
	if (e == -EIO)
		snprintf(h->ata.error_why, sizeof(h->ata.error_why),
			 "not available: SMART READ LOG 0x01: %.80s", why);
	else if (e < 0)
		snprintf(h->ata.error_why, sizeof(h->ata.error_why),
			 "not available: SMART READ LOG 0x01: %s", strerror(-e));
	else if ((e = fsb_ata_errlog_decode(buf, sizeof(buf), &h->ata)) < 0)
		snprintf(h->ata.error_why, sizeof(h->ata.error_why),
			 "not available: SMART READ LOG 0x01: %s",
			 e == -EBADMSG ? "bad checksum" : strerror(-e));
	if (ata_smart_cmd(fd, FSB_ATA_SMART_RETURN_STATUS, 0, NULL, sense, sizeof(sense), why,
			  sizeof(why)) == 0) {
		int st = fsb_ata_status_decode(sense, sizeof(sense));
		h->ata.status = st >= 0 ? st : -1;
	}
	close(fd);
}

/* The NVMe controller's character device of a namespace (/dev/nvme0 for
 * nvme0n1), from the parent of its sysfs node; "" when there is none (a
 * multipath namespace hangs under its subsystem). */
static void nvme_ctrl_dev(const char *real, char *out, size_t len)
{
	char tmp[PATH_MAX];
	char *slash;

	out[0] = 0;
	snprintf(tmp, sizeof(tmp), "%s", real);
	slash = strrchr(tmp, '/');
	if (!slash)
		return;
	*slash = 0;
	slash = strrchr(tmp, '/');
	const char *parent = slash ? slash + 1 : tmp;
	if (!strncmp(parent, "nvme", 4) && strncmp(parent, "nvme-subsys", 11))
		snprintf(out, len, "/dev/%.60s", parent);
}

static void read_smart(struct fsb_health *h, const char *real, const char *whole)
{
	static uint8_t buf[FSB_NVME_SMART_LEN];
	char ctrl[80];
	unsigned status = 0;
	int e = -ENOENT;
	const char *dev = whole;

	nvme_ctrl_dev(real, ctrl, sizeof(ctrl));
	if (ctrl[0]) {
		e = nvme_get_smart(ctrl, buf, &status);
		dev = ctrl;
	}
	if (e == -ENOENT || e == -ENODEV) {	/* no controller node: the namespace */
		dev = whole;
		e = nvme_get_smart(whole, buf, &status);
	}
	if (e < 0)
		fsb_nvme_why(h->smart_why, sizeof(h->smart_why), "Get Log Page 0x02", dev, e, status);
	else if (fsb_nvme_smart_decode(buf, sizeof(buf), &h->smart) == 0)
		h->have_smart = 1;
}

/* The first ancestor of the disk's sysfs node that has a PCIe link. */
static void read_pcie(struct fsb_health *h, const char *real)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", real);
	for (char *slash; (slash = strrchr(dir, '/')) && slash > dir;) {
		*slash = 0;
		if (fsb_read_attr(dir, "current_link_speed", h->pcie_speed, sizeof(h->pcie_speed)) < 0)
			continue;
		const char *fn = strrchr(dir, '/');
		snprintf(h->pcie_dev, sizeof(h->pcie_dev), "%.60s", fn ? fn + 1 : dir);
		if (fsb_read_attr(dir, "current_link_width", h->pcie_width, sizeof(h->pcie_width)) < 0 ||
		    fsb_read_attr(dir, "max_link_speed", h->pcie_max_speed, sizeof(h->pcie_max_speed)) < 0 ||
		    fsb_read_attr(dir, "max_link_width", h->pcie_max_width, sizeof(h->pcie_max_width)) < 0) {
			snprintf(h->pcie_why, sizeof(h->pcie_why),
				 "not available: PCI device %s has no complete link attributes in sysfs",
				 h->pcie_dev);
			return;
		}
		/* a device on a root bus (QEMU's, an integrated controller)
		 * has the attributes but no link: "Unknown", width 0 */
		if (!strncmp(h->pcie_speed, "Unknown", 7) || !strcmp(h->pcie_width, "0")) {
			snprintf(h->pcie_why, sizeof(h->pcie_why),
				 "not available: PCI device %s reports no link (speed %.20s, width %.8s)",
				 h->pcie_dev, h->pcie_speed, h->pcie_width);
			return;
		}
		h->have_pcie = 1;
		return;
	}
	snprintf(h->pcie_why, sizeof(h->pcie_why),
		 "not available: no PCIe device with a link above %.60s in sysfs", h->device);
}

/* temp1_input of the first hwmon device in dir (hwmonN, or hwmon/hwmonN). */
static int hwmon_temp(const char *dir, int depth, int *mc, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char sub[PATH_MAX + 300], v[32];
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "hwmon", 5))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (!strcmp(e->d_name, "hwmon")) {
			if (depth == 0)
				found = hwmon_temp(sub, 1, mc, name, len);
			continue;
		}
		if (fsb_read_attr(sub, "temp1_input", v, sizeof(v)) == 0 && v[0]) {
			char *end;
			long t = strtol(v, &end, 10);
			if (end != v) {
				char n[64];
				*mc = (int)t;
				if (fsb_read_attr(sub, "name", n, sizeof(n)) < 0)
					snprintf(n, sizeof(n), "%.40s", e->d_name);
				snprintf(name, len, "hwmon %.40s", n);
				found = 1;
			}
		}
	}
	closedir(d);
	return found;
}

static void read_temp(struct fsb_health *h, const char *real)
{
	char dir[PATH_MAX + 16];

	if (h->have_smart) {
		if (h->smart.temperature_k) {
			h->have_temp = 1;
			h->temp_mc = (int)h->smart.temperature_k * 1000 - 273150;
			snprintf(h->temp_source, sizeof(h->temp_source), "nvme smart log");
			return;
		}
	}
	/* 194 (temperature), else 190 (airflow temperature, which QEMU's
	 * ide-hd has): the raw value's low byte */
	for (int k = 0; k < 2 && h->have_ata; k++) {
		uint8_t id = k ? 190 : 194;
		const struct fsb_ata_attr *t = fsb_ata_attr_find(&h->ata, id);
		if (t && (t->raw & 0xff)) {
			h->have_temp = 1;
			h->temp_mc = (int)(t->raw & 0xff) * 1000;
			snprintf(h->temp_source, sizeof(h->temp_source), "ata smart attribute %u", id);
			return;
		}
	}
	/* the disk's device (drivetemp for SATA), then the NVMe controller */
	snprintf(dir, sizeof(dir), "%s/device", real);
	if (hwmon_temp(dir, 0, &h->temp_mc, h->temp_source, sizeof(h->temp_source))) {
		h->have_temp = 1;
		return;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	char *slash = strrchr(dir, '/');
	if (slash && slash > dir) {
		*slash = 0;
		if (hwmon_temp(dir, 0, &h->temp_mc, h->temp_source, sizeof(h->temp_source))) {
			h->have_temp = 1;
			return;
		}
	}
	snprintf(h->temp_why, sizeof(h->temp_why), "not available: %s%s",
		 h->have_smart ? "the SMART log reports 0 K and " : "",
		 "no hwmon temperature for the disk in sysfs");
}

void fsb_health_none(struct fsb_health *h, const char *reason)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->smart_why, sizeof(h->smart_why), "not available: %s", reason);
	snprintf(h->ata_why, sizeof(h->ata_why), "not available: %s", reason);
	snprintf(h->pcie_why, sizeof(h->pcie_why), "not available: %s", reason);
	snprintf(h->temp_why, sizeof(h->temp_why), "not available: %s", reason);
	fsb_flash_none(&h->flash, reason);
	fsb_bus_none(&h->bus, reason);
}

int fsb_health_read(const struct fsb_disk *d, struct fsb_health *h)
{
	char sys[128], real[PATH_MAX], whole[80];

	memset(h, 0, sizeof(*h));
	snprintf(whole, sizeof(whole), "/dev/%.60s", d->disk[0] ? d->disk : d->name);
	snprintf(h->device, sizeof(h->device), "%s", whole);
	snprintf(h->transport, sizeof(h->transport), "%s", d->transport);
	if (!strcmp(d->transport, "loop")) {
		fsb_health_none(h, "a loop device (the disk under its backing file is not the target)");
		snprintf(h->device, sizeof(h->device), "%s", whole);
		snprintf(h->transport, sizeof(h->transport), "%s", d->transport);
		return 0;
	}
	snprintf(sys, sizeof(sys), "/sys/class/block/%.60s", d->disk[0] ? d->disk : d->name);
	if (!realpath(sys, real))
		snprintf(real, sizeof(real), "%s", sys);

	if (!strcmp(d->transport, "nvme")) {
		read_smart(h, real, whole);
		snprintf(h->ata_why, sizeof(h->ata_why), "not available: an NVMe disk has no ATA SMART");
	} else {
		snprintf(h->smart_why, sizeof(h->smart_why),
			 "not available: not an NVMe disk (transport %s)", d->transport);
		if (!strcmp(d->transport, "sata") || !strcmp(d->transport, "scsi") ||
		    !strcmp(d->transport, "usb"))
			read_ata(h, whole);
		else
			snprintf(h->ata_why, sizeof(h->ata_why),
				 "not available: not an ATA disk (transport %s)", d->transport);
	}
	read_pcie(h, real);
	read_temp(h, real);
	fsb_flash_read(d->transport, real, whole, &h->flash);
	fsb_bus_read("/sys", "/sys/kernel/debug", d->disk[0] ? d->disk : d->name, &h->bus);
	return 0;
}

static void rec_u128(struct fsb_rec *r, const char *key, struct fsb_u128 v)
{
	char num[48];

	if (!v.hi)
		rec_u64(r, key, v.lo);
	else
		rec_str(r, key, fsb_u128_text(v, num, sizeof(num)));
}

/* The counters, and the data units as bytes. */
static void smart_counters(struct fsb_rec *r, const struct fsb_u128 *c)
{
	uint64_t bytes;

	for (int i = 0; i < FSB_SMART_NCOUNTERS; i++)
		rec_u128(r, fsb_smart_counter_names[i], c[i]);
	if (fsb_nvme_units_bytes(c[FSB_SMART_DATA_UNITS_READ], &bytes) == 0)
		rec_u64(r, K(bytes_read), bytes);
	if (fsb_nvme_units_bytes(c[FSB_SMART_DATA_UNITS_WRITTEN], &bytes) == 0)
		rec_u64(r, K(bytes_written), bytes);
}

/* The named attributes' raw values, present when the disk has them. */
static const struct {
	uint8_t id;
	const char *name;
} ata_named[] = {
	{ 5, K(reallocated_sectors) },
	{ 9, K(power_on_hours) },
	{ 12, K(power_cycles) },
	{ 187, K(reported_uncorrectable) },
	{ 197, K(current_pending_sectors) },
	{ 198, K(offline_uncorrectable) },
	{ 199, K(udma_crc_errors) },
};

static void ata_json(struct fsb_rec *r, const struct fsb_ata_smart *a)
{
	const struct fsb_ata_attr *t;

	rec_obj(r, K(ata_smart));
	rec_u64(r, K(revision), a->revision);
	if (a->status >= 0)
		rec_str(r, K(overall), a->status ? "passed" : "failing");
	for (size_t i = 0; i < sizeof(ata_named) / sizeof(ata_named[0]); i++)
		if ((t = fsb_ata_attr_find(a, ata_named[i].id)))
			rec_u64(r, ata_named[i].name, t->raw);
	if ((t = fsb_ata_attr_find(a, 194)))
		rec_u64(r, K(temperature_celsius), t->raw & 0xff);
	if (a->have_errlog)
		rec_u64(r, K(error_count), a->error_count);
	else
		rec_str(r, K(error_count), a->error_why);
	rec_arr(r, K(attributes));
	for (unsigned i = 0; i < a->nattr; i++) {
		rec_obj(r, NULL);
		rec_u64(r, K(id), a->attr[i].id);
		rec_u64(r, K(current), a->attr[i].current);
		rec_u64(r, K(worst), a->attr[i].worst);
		rec_u64(r, K(raw), a->attr[i].raw);
		rec_close(r);
	}
	rec_close(r);
	rec_close(r);
}

/* after - before of the error counters, signed (a pending sector that was
 * reallocated goes down); a counter one record lacks is left out. */
static void ata_delta_json(struct fsb_rec *r, const struct fsb_health *before,
			   const struct fsb_health *h)
{
	if (!h->have_ata || !before->have_ata) {
		rec_str(r, K(ata_smart), before->have_ata ? h->ata_why : before->ata_why);
		return;
	}
	rec_obj(r, K(ata_smart));
	for (int i = 0; i < FSB_ATA_NCOUNTERS; i++) {
		const struct fsb_ata_attr *b = fsb_ata_attr_find(&before->ata, fsb_ata_counter_id[i]);
		const struct fsb_ata_attr *a = fsb_ata_attr_find(&h->ata, fsb_ata_counter_id[i]);
		if (a && b)
			rec_i64(r, fsb_ata_counter_names[i], (int64_t)a->raw - (int64_t)b->raw);
	}
	if (h->ata.have_errlog && before->ata.have_errlog)
		rec_i64(r, K(error_count), (int64_t)h->ata.error_count - before->ata.error_count);
	else
		rec_str(r, K(error_count), before->ata.have_errlog ? h->ata.error_why :
								  before->ata.error_why);
	rec_close(r);
}

void fsb_health_json(struct fsb_rec *r, const char *when, const struct fsb_health *h,
		     const struct fsb_health *before)
{
	rec_str(r, K(when), when);
	rec_str(r, K(device), h->device);
	rec_str(r, K(transport), h->transport);
	if (h->have_smart) {
		const struct fsb_nvme_smart *s = &h->smart;
		rec_obj(r, K(nvme_smart));
		rec_u64(r, K(critical_warning), s->critical_warning);
		rec_u64(r, K(temperature_k), s->temperature_k);
		rec_u64(r, K(available_spare), s->available_spare);
		rec_u64(r, K(available_spare_threshold), s->available_spare_threshold);
		rec_u64(r, K(percentage_used), s->percentage_used);
		smart_counters(r, s->counter);
		rec_close(r);
	} else {
		rec_str(r, K(nvme_smart), h->smart_why);
	}
	if (h->have_ata)
		ata_json(r, &h->ata);
	else
		rec_str(r, K(ata_smart), h->ata_why);
	if (h->have_pcie) {
		rec_obj(r, K(pcie_link));
		rec_str(r, K(device), h->pcie_dev);
		rec_str(r, K(speed), h->pcie_speed);
		rec_str(r, K(width), h->pcie_width);
		rec_str(r, K(max_speed), h->pcie_max_speed);
		rec_str(r, K(max_width), h->pcie_max_width);
		rec_bool(r, K(at_max), !strcmp(h->pcie_speed, h->pcie_max_speed) &&
					      !strcmp(h->pcie_width, h->pcie_max_width));
		rec_close(r);
	} else {
		rec_str(r, K(pcie_link), h->pcie_why);
	}
	if (h->have_temp) {
		rec_obj(r, K(temperature));
		rec_dbl(r, K(celsius), h->temp_mc / 1000.0);
		rec_str(r, K(source), h->temp_source);
		rec_close(r);
	} else {
		rec_str(r, K(temperature), h->temp_why);
	}
	fsb_flash_json(r, &h->flash);
	fsb_bus_json(r, &h->bus);
	if (!before)
		return;

	rec_obj(r, K(delta));
	if (h->have_smart && before->have_smart) {
		struct fsb_u128 d[FSB_SMART_NCOUNTERS];
		unsigned back = fsb_nvme_smart_delta(&before->smart, &h->smart, d);
		rec_obj(r, K(nvme_smart));
		smart_counters(r, d);
		rec_u64(r, K(new_critical_warning),
			(uint64_t)(h->smart.critical_warning & ~before->smart.critical_warning));
		rec_i64(r, K(percentage_used), (int64_t)h->smart.percentage_used -
						      before->smart.percentage_used);
		rec_i64(r, K(available_spare), (int64_t)h->smart.available_spare -
						      before->smart.available_spare);
		if (back) {	/* another disk, or a reset: not a usable difference */
			char names[400] = "";
			size_t n = 0;
			for (int i = 0; i < FSB_SMART_NCOUNTERS; i++)
				if (back & (1u << i) && n < sizeof(names))
					n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
							      n ? "," : "", fsb_smart_counter_names[i]);
			rec_str(r, K(went_backwards), names);
		}
		rec_close(r);
	} else {
		rec_str(r, K(nvme_smart), before->have_smart ? h->smart_why : before->smart_why);
	}
	if (h->ata_tried || before->ata_tried)
		ata_delta_json(r, before, h);
	if (h->have_temp && before->have_temp)
		rec_dbl(r, K(temperature_celsius), (h->temp_mc - before->temp_mc) / 1000.0);
	else
		rec_str(r, K(temperature_celsius), before->have_temp ? h->temp_why : before->temp_why);
	if (h->have_pcie && before->have_pcie)
		rec_bool(r, K(pcie_link_changed), strcmp(h->pcie_speed, before->pcie_speed) ||
							 strcmp(h->pcie_width, before->pcie_width));
	fsb_flash_delta_json(r, &before->flash, &h->flash);
	rec_close(r);
}

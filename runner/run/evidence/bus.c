/* bus.c: the target's bus and what it tells (bus.h), read from sysfs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sysfs.h"
#include "run/evidence/bus.h"

/* NAME is PREFIX followed by one or more digits (ata1, mmc0, usb2). */
static int numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || !name[n])
		return 0;
	for (const char *p = name + n; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* Does the path have a component numbered with PREFIX? Its start, or NULL. */
static const char *component(const char *path, const char *prefix)
{
	const char *p = path;

	while ((p = strchr(p, '/'))) {
		char c[64];
		size_t n = strcspn(p + 1, "/");
		if (n < sizeof(c)) {
			memcpy(c, p + 1, n);
			c[n] = 0;
			if (numbered(c, prefix))
				return p + 1;
		}
		p++;
	}
	return NULL;
}

const char *fsb_bus_classify(const char *disk, const char *real, const char *usb_driver)
{
	if (!strncmp(disk, "nvme", 4))
		return "nvme";
	if (!strncmp(disk, "mmcblk", 6))
		return "mmc";
	if ((usb_driver && usb_driver[0]) || component(real, "usb"))
		return "usb";
	if (component(real, "ata"))
		return "sata";
	if (!strncmp(disk, "sd", 2) || component(real, "host"))
		return "scsi";
	if (!strncmp(disk, "vd", 2))
		return "virtio";
	return "other";
}

double fsb_sata_gbps(const char *spd)
{
	char *end;
	double v = strtod(spd, &end);

	if (end == spd || v <= 0)
		return -1;
	return v;
}

const char *fsb_mmc_timing(const char *ios, char *out, size_t len)
{
	static const struct {
		const char *spec, *name;
	} names[] = {	/* the kernel's texts (drivers/mmc/core/debugfs.c), longest first */
		{ "mmc HS400 enhanced strobe", "HS400ES" },
		{ "mmc HS400", "HS400" },
		{ "mmc HS200", "HS200" },
		{ "mmc DDR52", "DDR52" },
		{ "mmc high-speed", "HS" },
		{ "sd high-speed", "HS" },
		{ "sd uhs SDR12", "SDR12" },
		{ "sd uhs SDR25", "SDR25" },
		{ "sd uhs SDR50", "SDR50" },
		{ "sd uhs SDR104", "SDR104" },
		{ "sd uhs DDR50", "DDR50" },
		{ "legacy", "legacy" },
	};
	const char *p = strstr(ios, "timing spec:");
	char text[64];

	out[0] = 0;
	if (!p)
		return out;
	/* "timing spec:\t9 (mmc HS200)": the text in parentheses */
	const char *open = strchr(p, '('), *nl = strchr(p, '\n');
	if (!open || (nl && open > nl))
		return out;
	size_t n = strcspn(open + 1, ")\n");
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, open + 1, n);
	text[n] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(text, names[i].spec)) {
			snprintf(out, len, "%s", names[i].name);
			return out;
		}
	snprintf(out, len, "%s", text);	/* a newer kernel's text, as it is */
	return out;
}

void fsb_bus_none(struct fsb_bus *b, const char *reason)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->bus, sizeof(b->bus), "other");
	snprintf(b->sata_why, sizeof(b->sata_why), "not available: %.140s", reason);
	snprintf(b->usb_why, sizeof(b->usb_why), "not available: %.140s", reason);
	snprintf(b->mmc_why, sizeof(b->mmc_why), "not available: %.140s", reason);
	snprintf(b->scsi_why, sizeof(b->scsi_why), "not available: %.140s", reason);
}

/* src into out, cut to fit. */
static void copy(char *out, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(out, src, n);
	out[n] = 0;
}

/* The base name of the link DIR/driver ("" when none). */
static void driver_of(const char *dir, char *out, size_t len)
{
	char l[PATH_MAX + 16], t[PATH_MAX];
	ssize_t n;

	out[0] = 0;
	snprintf(l, sizeof(l), "%s/driver", dir);
	n = readlink(l, t, sizeof(t) - 1);
	if (n <= 0)
		return;
	t[n] = 0;
	const char *s = strrchr(t, '/');
	copy(out, len, s ? s + 1 : t);
}

/* Walk up from the block node: the ATA port, the USB storage interface and
 * the MMC host above it. */
static void ancestors(const char *real, char *ata, size_t alen, char *usbif, size_t ulen,
		      char *usbdrv, size_t dlen, char *mmchost, size_t mlen)
{
	char dir[PATH_MAX], drv[64];

	ata[0] = usbif[0] = usbdrv[0] = mmchost[0] = 0;
	snprintf(dir, sizeof(dir), "%s", real);
	for (char *slash; (slash = strrchr(dir, '/')) && slash > dir;) {
		const char *name = slash + 1;
		if (!ata[0] && numbered(name, "ata"))
			copy(ata, alen, dir);
		if (!mmchost[0] && numbered(name, "mmc"))
			copy(mmchost, mlen, name);
		if (!usbif[0]) {
			driver_of(dir, drv, sizeof(drv));
			if (!strcmp(drv, "usb-storage") || !strcmp(drv, "uas")) {
				copy(usbif, ulen, dir);
				copy(usbdrv, dlen, drv);
			}
		}
		*slash = 0;
	}
}

static void read_sata(struct fsb_bus *b, const char *sysroot, const char *atadir)
{
	const char *port = strrchr(atadir, '/');
	char link[PATH_MAX + 64];

	port = port ? port + 1 : atadir;
	snprintf(b->sata.port, sizeof(b->sata.port), "%.15s", port);
	/* the port's link: ataN/linkN/ata_link/linkN, else class/ata_link/linkN */
	snprintf(link, sizeof(link), "%s/link%s/ata_link/link%s", atadir, port + 3, port + 3);
	if (access(link, F_OK) < 0)
		snprintf(link, sizeof(link), "%s/class/ata_link/link%s", sysroot, port + 3);
	if (fsb_read_attr(link, "sata_spd", b->sata.speed, sizeof(b->sata.speed)) < 0) {
		snprintf(b->sata_why, sizeof(b->sata_why),
			 "not available: no sata_spd for %s's link in sysfs", b->sata.port);
		return;
	}
	if (fsb_read_attr(link, "sata_spd_limit", b->sata.limit, sizeof(b->sata.limit)) < 0)
		snprintf(b->sata.limit, sizeof(b->sata.limit), "?");
	b->sata.speed_gbps = fsb_sata_gbps(b->sata.speed);
	b->have_sata = 1;
}

static void read_usb(struct fsb_bus *b, const char *usbif, const char *drv)
{
	char dev[PATH_MAX], v[32];
	char *slash;

	snprintf(dev, sizeof(dev), "%s", usbif);
	slash = strrchr(dev, '/');
	if (slash)
		*slash = 0;	/* the interface's parent: the USB device */
	slash = strrchr(dev, '/');
	snprintf(b->usb.device, sizeof(b->usb.device), "%.31s", slash ? slash + 1 : dev);
	if (fsb_read_attr(dev, "speed", v, sizeof(v)) < 0) {
		snprintf(b->usb_why, sizeof(b->usb_why),
			 "not available: no speed for USB device %s in sysfs", b->usb.device);
		return;
	}
	char *end;
	b->usb.speed_mbps = strtod(v, &end);
	if (end == v) {
		snprintf(b->usb_why, sizeof(b->usb_why),
			 "not available: USB device %s: speed '%.20s' is not a number", b->usb.device, v);
		return;
	}
	fsb_read_attr(dev, "version", b->usb.version, sizeof(b->usb.version));
	snprintf(b->usb.transport, sizeof(b->usb.transport), "%s", !strcmp(drv, "uas") ? "uas" : "bot");
	b->have_usb = 1;
}

static void read_mmc(struct fsb_bus *b, const char *card, const char *debugfs, const char *host)
{
	struct fsb_bus_mmc *m = &b->mmc;
	char ios[2048], path[PATH_MAX + 64];

	if (fsb_read_attr(card, "cid", m->cid, sizeof(m->cid)) < 0) {
		snprintf(b->mmc_why, sizeof(b->mmc_why), "not available: no cid for the card in sysfs");
		return;
	}
	fsb_read_attr(card, "csd", m->csd, sizeof(m->csd));
	fsb_read_attr(card, "type", m->type, sizeof(m->type));
	fsb_read_attr(card, "name", m->name, sizeof(m->name));
	fsb_read_attr(card, "manfid", m->manfid, sizeof(m->manfid));
	fsb_read_attr(card, "oemid", m->oemid, sizeof(m->oemid));
	fsb_read_attr(card, "date", m->date, sizeof(m->date));
	fsb_read_attr(card, "serial", m->serial, sizeof(m->serial));
	snprintf(m->host, sizeof(m->host), "%.15s", host);
	b->have_mmc = 1;
	if (!host[0]) {
		snprintf(m->timing_why, sizeof(m->timing_why),
			 "not available: no mmcN host above the card in sysfs");
		return;
	}
	if (!debugfs || !debugfs[0]) {
		snprintf(m->timing_why, sizeof(m->timing_why), "not available: no debugfs");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s/ios", debugfs, host);
	FILE *f = fopen(path, "re");
	if (!f) {
		snprintf(m->timing_why, sizeof(m->timing_why), "not available: %.80s: %s", path,
			 strerror(errno));
		return;
	}
	size_t n = fread(ios, 1, sizeof(ios) - 1, f);
	fclose(f);
	ios[n] = 0;
	if (!fsb_mmc_timing(ios, m->timing, sizeof(m->timing))[0])
		snprintf(m->timing_why, sizeof(m->timing_why),
			 "not available: no timing spec in %.100s", path);
}

int fsb_bus_read(const char *sysroot, const char *debugfs, const char *disk, struct fsb_bus *b)
{
	char sys[PATH_MAX], real[PATH_MAX], dev[PATH_MAX + 16];
	char ata[PATH_MAX], usbif[PATH_MAX], usbdrv[32], host[64];

	memset(b, 0, sizeof(*b));
	snprintf(sys, sizeof(sys), "%s/class/block/%s", sysroot, disk);
	if (!realpath(sys, real)) {
		int e = errno;
		char why[120];
		snprintf(why, sizeof(why), "%.60s is not in sysfs (%s)", disk, strerror(e));
		fsb_bus_none(b, why);
		return -e;
	}
	ancestors(real, ata, sizeof(ata), usbif, sizeof(usbif), usbdrv, sizeof(usbdrv), host,
		  sizeof(host));
	snprintf(b->bus, sizeof(b->bus), "%s", fsb_bus_classify(disk, real, usbdrv));
	snprintf(dev, sizeof(dev), "%s/device", real);

	if (ata[0])
		read_sata(b, sysroot, ata);
	else
		snprintf(b->sata_why, sizeof(b->sata_why), "not available: not a SATA disk (bus %s)", b->bus);
	if (usbif[0])
		read_usb(b, usbif, usbdrv);
	else
		snprintf(b->usb_why, sizeof(b->usb_why), "not available: not a USB disk (bus %s)", b->bus);
	if (!strcmp(b->bus, "mmc"))
		read_mmc(b, dev, debugfs, host);
	else
		snprintf(b->mmc_why, sizeof(b->mmc_why), "not available: not an SD/MMC card (bus %s)", b->bus);
	char lvl[16];
	if (fsb_read_attr(dev, "scsi_level", lvl, sizeof(lvl)) == 0) {
		fsb_read_attr(dev, "vendor", b->scsi.vendor, sizeof(b->scsi.vendor));
		fsb_read_attr(dev, "model", b->scsi.model, sizeof(b->scsi.model));
		fsb_read_attr(dev, "rev", b->scsi.rev, sizeof(b->scsi.rev));
		b->have_scsi = 1;
	} else {
		snprintf(b->scsi_why, sizeof(b->scsi_why), "not available: not a SCSI disk (bus %s)", b->bus);
	}
	return 0;
}

void fsb_bus_json(struct fsb_rec *r, const struct fsb_bus *b)
{
	rec_str(r, K(bus), b->bus);
	if (b->have_sata) {
		rec_obj(r, K(sata_link));
		rec_str(r, K(port), b->sata.port);
		rec_str(r, K(speed), b->sata.speed);
		if (b->sata.speed_gbps > 0)
			rec_dbl(r, K(speed_gbps), b->sata.speed_gbps);
		rec_str(r, K(limit), b->sata.limit);
		rec_close(r);
	} else {
		rec_str(r, K(sata_link), b->sata_why);
	}
	if (b->have_usb) {
		rec_obj(r, K(usb));
		rec_str(r, K(device), b->usb.device);
		rec_dbl(r, K(speed_mbps), b->usb.speed_mbps);
		rec_str(r, K(version), b->usb.version);
		rec_str(r, K(transport), b->usb.transport);
		rec_close(r);
	} else {
		rec_str(r, K(usb), b->usb_why);
	}
	if (b->have_mmc) {
		const struct fsb_bus_mmc *m = &b->mmc;
		rec_obj(r, K(mmc));
		rec_str(r, K(type), m->type);
		rec_str(r, K(name), m->name);
		rec_str(r, K(manfid), m->manfid);
		rec_str(r, K(oemid), m->oemid);
		rec_str(r, K(date), m->date);
		rec_str(r, K(serial), m->serial);
		rec_str(r, K(cid), m->cid);
		rec_str(r, K(csd), m->csd);
		if (m->timing[0])
			rec_str(r, K(timing), m->timing);
		else
			rec_str(r, K(timing_why), m->timing_why);
		rec_close(r);
	} else {
		rec_str(r, K(mmc), b->mmc_why);
	}
	if (b->have_scsi) {
		rec_obj(r, K(scsi));
		rec_str(r, K(vendor), b->scsi.vendor);
		rec_str(r, K(model), b->scsi.model);
		rec_str(r, K(rev), b->scsi.rev);
		rec_close(r);
	} else {
		rec_str(r, K(scsi), b->scsi_why);
	}
}

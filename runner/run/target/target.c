/* target.c: finding the target disk by identity and refusing unsafe ones. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/bytes.h"
#include "lib/sysfs.h"
#include "run/target/discard.h"
#include "run/target/target.h"

#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif

static void transport_of(struct fsb_disk *d, const char *real)
{
	const char *n = d->disk;

	if (strncmp(n, "nvme", 4) == 0)
		strcpy(d->transport, "nvme");
	else if (strncmp(n, "vd", 2) == 0)
		strcpy(d->transport, "virtio");
	else if (strncmp(n, "loop", 4) == 0)
		strcpy(d->transport, "loop");
	else if (strncmp(n, "mmcblk", 6) == 0)
		strcpy(d->transport, "mmc");
	else if (strstr(real, "/usb"))
		strcpy(d->transport, "usb");
	else if (strstr(real, "/ata"))
		strcpy(d->transport, "sata");
	else if (strncmp(n, "sd", 2) == 0)
		strcpy(d->transport, "scsi");
	else
		strcpy(d->transport, "other");
}

/* The unit serial number of SCSI VPD page 0x80 (DEV/vpd_pg80, binary: a
 * 4-byte header whose first byte is the device type, 0 for a disk, and the
 * page length in bytes 2-3), without its padding blanks. */
void fsb_vpd80_serial(const char *dev, char *out, size_t len)
{
	unsigned char b[260];
	char p[PATH_MAX + 16];
	size_t n = 0, a, e;

	snprintf(p, sizeof(p), "%s/vpd_pg80", dev);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t got = read(fd, b, sizeof(b));
	close(fd);
	if (got < 4 || b[1] != 0x80)
		return;
	e = 4 + ((size_t)b[2] << 8 | b[3]);
	if (e > (size_t)got)
		e = (size_t)got;
	for (a = 4; a < e && (b[a] == ' ' || !b[a]); a++)
		;
	while (e > a && (b[e - 1] == ' ' || !b[e - 1]))
		e--;
	for (; a < e && n + 1 < len; a++)
		out[n++] = (char)b[a];
	if (len)
		out[n] = 0;
}

/* The serial number of the USB device above a disk (usb-storage asks no
 * VPD pages of it): the first ancestor of its sysfs node with idVendor. */
static void usb_serial(const char *dsys, char *out, size_t len)
{
	char dir[PATH_MAX], v[8];

	snprintf(dir, sizeof(dir), "%s", dsys);
	for (char *slash; (slash = strrchr(dir, '/')) && slash > dir;) {
		*slash = 0;
		if (fsb_read_attr(dir, "idVendor", v, sizeof(v)) == 0) {
			fsb_read_attr(dir, "serial", out, len);
			return;
		}
	}
}

/* Fill d from /sys/class/block/NAME. */
static int probe_name(const char *name, struct fsb_disk *d)
{
	char sys[PATH_MAX], real[PATH_MAX], dsys[PATH_MAX], buf[256];
	unsigned long long sectors = 0;

	memset(d, 0, sizeof(*d));
	d->fua = -1;
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(sys, sizeof(sys), "/sys/class/block/%s", name);
	if (fsb_read_attr(sys, "dev", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &d->maj, &d->min) != 2)
		return -ENODEV;
	if (fsb_read_attr(sys, "size", buf, sizeof(buf)) == 0)
		sectors = strtoull(buf, NULL, 10);
	d->size = sectors * 512ull;
	snprintf(d->path, sizeof(d->path), "/dev/%s", name);
	if (fsb_read_attr(sys, "uevent", buf, sizeof(buf)) == 0) {
		char *p = strstr(buf, "DEVNAME=");
		if (p) {
			char *e = strchr(p, '\n');
			snprintf(d->path, sizeof(d->path), "/dev/%.*s",
				 (int)(e ? e - (p + 8) : (long)strlen(p + 8)), p + 8);
		}
		p = strstr(buf, "PARTNAME=");
		if (p) {
			char *e = strchr(p, '\n');
			snprintf(d->partlabel, sizeof(d->partlabel), "%.*s",
				 (int)(e ? e - (p + 9) : (long)strlen(p + 9)), p + 9);
		}
	}
	if (!realpath(sys, real))
		snprintf(real, sizeof(real), "%s", sys);
	if (access(strcat(strcpy(dsys, real), "/partition"), F_OK) == 0) {
		char *slash;
		d->is_partition = 1;
		snprintf(dsys, sizeof(dsys), "%s", real);
		slash = strrchr(dsys, '/');
		if (slash)
			*slash = 0;
		slash = strrchr(dsys, '/');
		snprintf(d->disk, sizeof(d->disk), "%s", slash ? slash + 1 : name);
	} else {
		snprintf(dsys, sizeof(dsys), "%s", real);
		snprintf(d->disk, sizeof(d->disk), "%s", name);
	}
	transport_of(d, real);

	/* identity lives with the whole disk */
	char dev[PATH_MAX + 16];
	snprintf(dev, sizeof(dev), "%s/device", dsys);
	fsb_read_attr(dev, "model", d->model, sizeof(d->model));
	if (fsb_read_attr(dev, "serial", d->serial, sizeof(d->serial)) < 0 || !d->serial[0])
		fsb_read_attr(dsys, "serial", d->serial, sizeof(d->serial));
	if (!d->serial[0])	/* SCSI/SATA: VPD page 0x80 */
		fsb_vpd80_serial(dev, d->serial, sizeof(d->serial));
	if (!d->serial[0] && !strcmp(d->transport, "usb"))
		usb_serial(dsys, d->serial, sizeof(d->serial));
	if (fsb_read_attr(dev, "firmware_rev", d->firmware, sizeof(d->firmware)) < 0 &&
	    fsb_read_attr(dev, "rev", d->firmware, sizeof(d->firmware)) < 0)
		fsb_read_attr(dev, "fwrev", d->firmware, sizeof(d->firmware));	/* SD/MMC */
	if (!d->model[0] && !strcmp(d->transport, "mmc"))
		fsb_read_attr(dev, "name", d->model, sizeof(d->model));	/* the CID's product name */
	if (fsb_read_attr(dsys, "wwid", d->wwn, sizeof(d->wwn)) < 0 || !d->wwn[0])
		fsb_read_attr(dev, "wwid", d->wwn, sizeof(d->wwn));
	if (!d->model[0]) {
		char vendor[64];
		if (fsb_read_attr(dev, "vendor", vendor, sizeof(vendor)) == 0 && vendor[0] && !strncmp(vendor, "0x", 2))
			vendor[0] = 0;
		(void)vendor;
	}
	char q[PATH_MAX + 16];
	snprintf(q, sizeof(q), "%s/queue", dsys);
	if (fsb_read_attr(q, "rotational", buf, sizeof(buf)) == 0)
		d->rotational = atoi(buf);
	if (fsb_read_attr(q, "logical_block_size", buf, sizeof(buf)) == 0)
		d->logical_block = (unsigned)atoi(buf);
	if (fsb_read_attr(q, "physical_block_size", buf, sizeof(buf)) == 0)
		d->physical_block = (unsigned)atoi(buf);
	fsb_read_attr(q, "write_cache", d->write_cache, sizeof(d->write_cache));
	d->fua = fsb_read_attr(q, "fua", buf, sizeof(buf)) == 0 ? atoi(buf) != 0 : -1;
	fsb_zoneinfo_read(q, &d->zoned);
	char l[PATH_MAX + 16];
	snprintf(l, sizeof(l), "%s/loop", dsys);
	fsb_read_attr(l, "backing_file", d->loop_backing, sizeof(d->loop_backing));
	if (fsb_read_attr(l, "dio", buf, sizeof(buf)) == 0)
		d->loop_dio = atoi(buf);
	/* NVMe over PCIe: the controller's PCI function has the link state */
	char pci[PATH_MAX + 32];
	snprintf(pci, sizeof(pci), "%s/device", dev);
	if (fsb_read_attr(pci, "current_link_speed", d->pcie_speed, sizeof(d->pcie_speed)) == 0)
		fsb_read_attr(pci, "current_link_width", d->pcie_width, sizeof(d->pcie_width));
	return 0;
}

int fsb_disk_probe(const char *path, struct fsb_disk *d)
{
	struct stat st;
	char sys[64], real[PATH_MAX];

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(sys, real))
		return -errno;
	const char *name = strrchr(real, '/');
	int r = probe_name(name ? name + 1 : real, d);
	if (r == 0)
		snprintf(d->path, sizeof(d->path), "%s", path);
	return r;
}

int fsb_disk_list(struct fsb_disk *out, int max)
{
	DIR *dir = opendir("/sys/class/block");
	struct dirent *e;
	int n = 0;

	if (!dir)
		return 0;
	while ((e = readdir(dir)) && n < max) {
		if (e->d_name[0] == '.' || !strncmp(e->d_name, "ram", 3) ||
		    !strncmp(e->d_name, "zram", 4))
			continue;
		if (probe_name(e->d_name, &out[n]) == 0) {
			/* unused loop devices have size 0: skip them */
			if (out[n].size == 0 && !strncmp(e->d_name, "loop", 4))
				continue;
			n++;
		}
	}
	closedir(dir);
	/* stable order */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(out[j - 1].name, out[j].name) > 0; j--) {
			struct fsb_disk t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static const char *const refusal_text[FSB_REFUSE_COUNT] = {
	[FSB_USABLE] = "usable",
	[FSB_REFUSE_SPEC] = "not a target spec",
	[FSB_REFUSE_NO_DEVICE] = "cannot be opened",
	[FSB_REFUSE_NOT_BLOCK] = "not a block device",
	[FSB_REFUSE_NO_MATCH] = "no disk matches",
	[FSB_REFUSE_AMBIGUOUS] = "several disks match",
	[FSB_REFUSE_ROOT] = "holds the root filesystem",
	[FSB_REFUSE_MOUNTED] = "mounted",
	[FSB_REFUSE_SWAP] = "in use as swap",
	[FSB_REFUSE_HOLDER] = "in use by another device",
	[FSB_REFUSE_LOG] = "holds the log",
	[FSB_REFUSE_BUSY] = "busy",
	[FSB_REFUSE_SMALL] = "too small for the profile",
	[FSB_REFUSE_DIR_SMALL] = "too little free space for the profile",
	[FSB_REFUSE_ZONED_CONV] = "not a conventional disk beside the target",
	[FSB_REFUSE_ZONED] = "a zoned disk, not for this work",
};

const char *fsb_refusal_text(enum fsb_refusal r)
{
	return (unsigned)r < FSB_REFUSE_COUNT && refusal_text[r] ? refusal_text[r] : "?";
}

enum fsb_refusal fsb_disk_resolve(const char *spec, struct fsb_disk *d, char *why, size_t len)
{
	static struct fsb_disk all[FSB_MAX_DISKS];
	const char *val = spec;
	enum { BY_PATH, BY_LABEL, BY_SERIAL, BY_WWN, BY_MODEL } by = BY_PATH;
	int n, hits = 0;

	if (!strncmp(spec, "path:", 5)) { val = spec + 5; by = BY_PATH; }
	else if (!strncmp(spec, "partlabel:", 10)) { val = spec + 10; by = BY_LABEL; }
	else if (!strncmp(spec, "serial:", 7)) { val = spec + 7; by = BY_SERIAL; }
	else if (!strncmp(spec, "wwn:", 4)) { val = spec + 4; by = BY_WWN; }
	else if (!strncmp(spec, "model:", 6)) { val = spec + 6; by = BY_MODEL; }
	else if (spec[0] != '/') {
		snprintf(why, len, "target %s: not a path; use /dev/NAME, path:, partlabel:, serial:, wwn: or model:", spec);
		return FSB_REFUSE_SPEC;
	}
	if (!*val) {
		snprintf(why, len, "target %s: empty value", spec);
		return FSB_REFUSE_SPEC;
	}
	if (by == BY_PATH) {
		int r = fsb_disk_probe(val, d);
		if (r == -ENOTBLK) {
			snprintf(why, len, "target %s: not a block device", val);
			return FSB_REFUSE_NOT_BLOCK;
		}
		if (r < 0) {
			snprintf(why, len, "target %s: %s", val, strerror(-r));
			return FSB_REFUSE_NO_DEVICE;
		}
		return FSB_USABLE;
	}
	n = fsb_disk_list(all, FSB_MAX_DISKS);
	for (int i = 0; i < n; i++) {
		const struct fsb_disk *x = &all[i];
		int m = 0;
		switch (by) {
		case BY_LABEL: m = x->is_partition && !strcmp(x->partlabel, val); break;
		case BY_SERIAL: m = !x->is_partition && x->serial[0] && !strcmp(x->serial, val); break;
		case BY_WWN: m = !x->is_partition && x->wwn[0] && !strcmp(x->wwn, val); break;
		case BY_MODEL: m = !x->is_partition && x->model[0] && !fnmatch(val, x->model, 0); break;
		default: break;
		}
		if (m) {
			if (hits++ == 0)
				*d = *x;
		}
	}
	if (hits == 1)
		return FSB_USABLE;
	if (hits == 0) {
		snprintf(why, len, "target %s: no disk matches (%d block devices seen)", spec, n);
		return FSB_REFUSE_NO_MATCH;
	}
	snprintf(why, len, "target %s: %d disks match; name exactly one", spec, hits);
	return FSB_REFUSE_AMBIGUOUS;
}

/* Is block device dev (maj:min) the target or, for a whole-disk target, one
 * of its partitions? */
static int covers(const struct fsb_disk *t, unsigned maj, unsigned min)
{
	char sys[64], real[PATH_MAX];
	struct fsb_disk x;

	if (t->maj == maj && t->min == min)
		return 1;
	if (t->is_partition)
		return 0;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", maj, min);
	if (!realpath(sys, real))
		return 0;
	const char *name = strrchr(real, '/');
	if (probe_name(name ? name + 1 : real, &x) < 0)
		return 0;
	return x.is_partition && !strcmp(x.disk, t->name);
}

static int covers_path(const struct fsb_disk *t, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return covers(t, major(st.st_rdev), minor(st.st_rdev));
}

enum fsb_refusal fsb_target_check(const struct fsb_disk *t, const char *log_path, uint64_t need,
				  char *why, size_t len)
{
	char line[4096], hn[256], sz1[32], sz2[32];
	FILE *f;
	DIR *dir;
	struct dirent *e;
	struct stat st;

	if (stat(t->path, &st) < 0) {
		snprintf(why, len, "target %s: %s", t->path, strerror(errno));
		return FSB_REFUSE_NO_DEVICE;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, len, "target %s: not a block device", t->path);
		return FSB_REFUSE_NOT_BLOCK;
	}
	/* mounted, or holding a mounted partition (the root filesystem included) */
	f = fopen("/proc/self/mountinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[1024], src[1024] = "", *sep;

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, mnt) != 3)
			continue;
		sep = strstr(line, " - ");
		if (sep)
			sscanf(sep + 3, "%*s %1023s", src);
		if (covers(t, maj, min) || (src[0] == '/' && covers_path(t, src))) {
			fclose(f);
			if (!strcmp(mnt, "/")) {
				snprintf(why, len, "target %s: holds the root filesystem (%s)", t->path,
					 src[0] ? src : "mounted at /");
				return FSB_REFUSE_ROOT;
			}
			snprintf(why, len, "target %s: %s is mounted at %s", t->path,
				 src[0] ? src : t->path, mnt);
			return FSB_REFUSE_MOUNTED;
		}
	}
	if (f)
		fclose(f);
	/* swap */
	f = fopen("/proc/swaps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		char src[1024];
		if (sscanf(line, "%1023s", src) == 1 && src[0] == '/' && covers_path(t, src)) {
			fclose(f);
			snprintf(why, len, "target %s: %s is in use as swap", t->path, src);
			return FSB_REFUSE_SWAP;
		}
	}
	if (f)
		fclose(f);
	/* holders: device-mapper, md, bcache ... */
	snprintf(line, sizeof(line), "/sys/class/block/%s/holders", t->name);
	dir = opendir(line);
	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(hn, sizeof(hn), "%s", e->d_name);
		closedir(dir);
		snprintf(why, len, "target %s: in use by %s", t->path, hn);
		return FSB_REFUSE_HOLDER;
	}
	if (dir)
		closedir(dir);
	/* the log */
	if (log_path && log_path[0]) {
		struct stat ls;
		if (stat(log_path, &ls) == 0) {
			if ((S_ISBLK(ls.st_mode) && covers(t, major(ls.st_rdev), minor(ls.st_rdev))) ||
			    (!S_ISBLK(ls.st_mode) && covers(t, major(ls.st_dev), minor(ls.st_dev)))) {
				snprintf(why, len, "target %s: holds the log %s", t->path, log_path);
				return FSB_REFUSE_LOG;
			}
		}
	}
	/* exclusive open: fails with EBUSY when the kernel has it in use */
	int fd = open(t->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int busy = errno == EBUSY;
		snprintf(why, len, "target %s: %s", t->path,
			 busy ? "busy (in use by the kernel)" : strerror(errno));
		return busy ? FSB_REFUSE_BUSY : FSB_REFUSE_NO_DEVICE;
	}
	uint64_t size = 0;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		size = t->size;
	close(fd);
	if (size < need) {
		snprintf(why, len, "target %s: too small for the profile: %s, needs at least %s",
			 t->path, fsb_human(size, sz1, sizeof(sz1)), fsb_human(need, sz2, sizeof(sz2)));
		return FSB_REFUSE_SMALL;
	}
	return FSB_USABLE;
}

const char *fsb_disk_signature(const char *path, char *buf, size_t len)
{
	static unsigned char b[68 * 1024];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	snprintf(buf, len, "no known signature");
	if (fd < 0)
		return buf;
	n = pread(fd, b, sizeof(b), 0);
	close(fd);
	if (n < 0)
		return buf;
	if (n >= 1082 && b[1080] == 0x53 && b[1081] == 0xEF)
		snprintf(buf, len, "an ext2/3/4 filesystem");
	else if (n >= 4 && !memcmp(b, "XFSB", 4))
		snprintf(buf, len, "an XFS filesystem");
	else if (n >= 65536 + 72 && !memcmp(b + 65536 + 64, "_BHRfS_M", 8))
		snprintf(buf, len, "a btrfs filesystem");
	else if (n >= 1028 && b[1024] == 0x10 && b[1025] == 0x20 && b[1026] == 0xF5 && b[1027] == 0xF2)
		snprintf(buf, len, "an f2fs filesystem");
	else if (n >= 520 && !memcmp(b + 512, "EFI PART", 8))
		snprintf(buf, len, "a GPT partition table");
	else if (n >= 512 && b[510] == 0x55 && b[511] == 0xAA)
		snprintf(buf, len, "an MBR partition table or boot sector");
	else {
		ssize_t i;
		for (i = 0; i < n && !b[i]; i++)
			;
		if (i == n)
			snprintf(buf, len, "zeros in the first %zd bytes", n);
	}
	return buf;
}

void fsb_disk_json(struct fsb_rec *r, const char *key, const struct fsb_disk *d)
{
	char dev[32];

	rec_obj(r, key);
	rec_str(r, K(path), d->path);
	rec_str(r, K(name), d->name);
	snprintf(dev, sizeof(dev), "%u:%u", d->maj, d->min);
	rec_str(r, K(dev), dev);
	rec_u64(r, K(size_bytes), d->size);
	rec_str(r, K(model), d->model);
	rec_str(r, K(serial), d->serial);
	rec_str(r, K(firmware), d->firmware);
	rec_str(r, K(wwn), d->wwn);
	rec_str(r, K(transport), d->transport);
	rec_bool(r, K(partition), d->is_partition);
	if (d->partlabel[0])
		rec_str(r, K(partlabel), d->partlabel);
	rec_u64(r, K(rotational), (uint64_t)d->rotational);
	rec_u64(r, K(logical_block), d->logical_block);
	rec_u64(r, K(physical_block), d->physical_block);
	if (d->write_cache[0])
		rec_str(r, K(write_cache), d->write_cache);
	if (d->fua >= 0)
		rec_bool(r, K(fua), d->fua);
	if (d->loop_backing[0]) {
		rec_str(r, K(loop_backing_file), d->loop_backing);
		rec_bool(r, K(loop_direct_io), d->loop_dio);
	}
	if (d->pcie_speed[0]) {
		rec_str(r, K(pcie_link_speed), d->pcie_speed);
		rec_str(r, K(pcie_link_width), d->pcie_width);
	}
	if (d->name[0]) {	/* a disk the kernel knows: what its discard offers */
		struct fsb_discard x;
		fsb_discard_probe(d, &x);
		fsb_discard_json(r, K(discard), &x);
	}
	if (d->name[0]) {	/* its zones: the whole disk's (a partition of a zoned disk is rare) */
		char whole[96];
		snprintf(whole, sizeof(whole), "/dev/%.64s", d->disk[0] ? d->disk : d->name);
		fsb_zone_json(r, K(zoned), &d->zoned, d->is_partition ? whole : d->path);
	}
	rec_close(r);
}

void fsb_disks_json(struct fsb_rec *r, const char *key)
{
	static struct fsb_disk all[FSB_MAX_DISKS];
	int n = fsb_disk_list(all, FSB_MAX_DISKS);

	rec_arr(r, key);
	for (int i = 0; i < n; i++) {
		rec_obj(r, NULL);
		rec_str(r, K(path), all[i].path);
		rec_str(r, K(model), all[i].model);
		rec_str(r, K(serial), all[i].serial);
		rec_u64(r, K(size_bytes), all[i].size);
		rec_str(r, K(transport), all[i].transport);
		if (all[i].partlabel[0])
			rec_str(r, K(partlabel), all[i].partlabel);
		rec_close(r);
	}
	rec_close(r);
}

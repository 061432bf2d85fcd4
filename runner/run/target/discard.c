/* discard.c: the target's discard limits and DLFEAT, and the read-back
 * of a discarded range (discard.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/io.h"
#include "lib/sysfs.h"
#include "lib/time.h"
#include "run/target/discard.h"
#include "run/target/nvme.h"

#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_CNS_NS 0x00

/* linux/fs.h: BLKDISCARD _IO(0x12, 119), a range {start, length} in bytes */
#define BLKDISCARD_ _IO(0x12, 119)

#define CHECK_MIN (1u << 20)	/* the read-back range: at least 1 MiB */

void fsb_dlfeat_decode(uint8_t raw, struct fsb_dlfeat *d)
{
	unsigned v = raw & 7u;

	d->raw = raw;
	d->read = v == 0 ? FSB_DLFEAT_NOT_REPORTED : v == 1 ? FSB_DLFEAT_ZEROES :
		  v == 2 ? FSB_DLFEAT_ONES : FSB_DLFEAT_RESERVED;
	d->write_zeroes_dealloc = (raw >> 3) & 1;
	d->guard_crc = (raw >> 4) & 1;
}

const char *fsb_dlfeat_read_text(enum fsb_dlfeat_read r)
{
	static const char *const t[] = {
		[FSB_DLFEAT_NOT_REPORTED] = "not reported", [FSB_DLFEAT_ZEROES] = "zeroes",
		[FSB_DLFEAT_ONES] = "ones", [FSB_DLFEAT_RESERVED] = "reserved",
	};

	return (unsigned)r < sizeof(t) / sizeof(t[0]) ? t[r] : "reserved";
}

int fsb_id_ns_dlfeat(const uint8_t *id, size_t len, struct fsb_dlfeat *d)
{
	if (!id || len <= FSB_NVME_ID_NS_DLFEAT)
		return -EINVAL;
	fsb_dlfeat_decode(id[FSB_NVME_ID_NS_DLFEAT], d);
	return 0;
}

static void read_limits(const struct fsb_disk *d, struct fsb_discard *x)
{
	static const char *const names[] = { "discard_granularity", "discard_max_bytes",
					      "discard_max_hw_bytes", "write_zeroes_max_bytes" };
	uint64_t *v[] = { &x->granularity, &x->max_bytes, &x->max_hw_bytes, &x->write_zeroes_max };
	char dir[160];

	/* a partition has no queue of its own: its disk's */
	snprintf(dir, sizeof(dir), "/sys/class/block/%.64s/queue", d->disk[0] ? d->disk : d->name);
	for (size_t i = 0; i < 4; i++) {
		int e = fsb_attr_u64(dir, names[i], v[i]);
		/* write_zeroes_max_bytes came with Linux 4.10: 0 when absent */
		if (e < 0 && i == 3) {
			*v[i] = 0;
			continue;
		}
		if (e < 0) {
			snprintf(x->limits_why, sizeof(x->limits_why), "not available: %s/%s: %s", dir,
				 names[i], strerror(-e));
			return;
		}
	}
	x->have_limits = 1;
}

static void read_dlfeat(const struct fsb_disk *d, struct fsb_discard *x)
{
	static uint8_t buf[FSB_NVME_IDENTIFY_LEN] __attribute__((aligned(4096)));
	struct fsb_nvme_admin_cmd cmd;
	char dev[96];
	unsigned status;
	int e;

	if (strcmp(d->transport, "nvme")) {
		snprintf(x->dlfeat_why, sizeof(x->dlfeat_why), "not available: not an NVMe disk (%s)",
			 d->transport[0] ? d->transport : "unknown transport");
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/%.64s", d->disk[0] ? d->disk : d->name);
	memset(&cmd, 0, sizeof(cmd));
	memset(buf, 0, FSB_NVME_IDENTIFY_LEN);
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.addr = (uint64_t)(uintptr_t)buf;
	cmd.data_len = FSB_NVME_IDENTIFY_LEN;
	cmd.cdw10 = NVME_CNS_NS;
	e = fsb_nvme_admin(dev, &cmd, 1, &status);
	if (e < 0)
		fsb_nvme_why(x->dlfeat_why, sizeof(x->dlfeat_why), "Identify Namespace", dev, e, status);
	else if (fsb_id_ns_dlfeat(buf, sizeof(buf), &x->dlfeat) == 0)
		x->have_dlfeat = 1;
}

int fsb_discard_probe(const struct fsb_disk *d, struct fsb_discard *x)
{
	memset(x, 0, sizeof(*x));
	read_limits(d, x);
	read_dlfeat(d, x);
	return 0;
}

void fsb_discard_json(struct fsb_rec *r, const char *key, const struct fsb_discard *x)
{
	rec_obj(r, key);
	if (x->have_limits) {
		rec_u64(r, K(granularity), x->granularity);
		rec_u64(r, K(max_bytes), x->max_bytes);
		rec_u64(r, K(max_hw_bytes), x->max_hw_bytes);
		rec_u64(r, K(write_zeroes_max_bytes), x->write_zeroes_max);
	} else {
		rec_str(r, K(limits), x->limits_why);
	}
	if (x->have_dlfeat) {
		rec_obj(r, K(dlfeat));
		rec_u64(r, K(raw), x->dlfeat.raw);
		rec_str(r, K(read), fsb_dlfeat_read_text(x->dlfeat.read));
		rec_bool(r, K(write_zeroes_dealloc), x->dlfeat.write_zeroes_dealloc);
		rec_bool(r, K(guard_crc), x->dlfeat.guard_crc);
		rec_close(r);
	} else {
		rec_str(r, K(dlfeat), x->dlfeat_why);
	}
	rec_close(r);
}

int fsb_zero_range(uint64_t size, uint64_t gran, uint64_t *offset, uint64_t *length)
{
	uint64_t unit;

	if (gran < 4096)
		gran = 4096;
	*length = (CHECK_MIN + gran - 1) / gran * gran;
	unit = gran > CHECK_MIN ? gran : CHECK_MIN;
	*offset = size / 2 / unit * unit;
	if (*offset == 0 || *offset + *length > size)
		return -EINVAL;
	return 0;
}

uint64_t fsb_nonzero(const uint8_t *buf, size_t len, size_t *first)
{
	uint64_t n = 0;

	*first = len;
	for (size_t i = 0; i < len; i++)
		if (buf[i]) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

static void pattern(uint8_t *buf, size_t len, uint64_t off)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(0xa5 ^ ((off + i) >> 9) ^ i) | 1;	/* never 0 */
}

int fsb_zero_check_run(const char *path, struct fsb_zero_check *k, const char **op)
{
	uint64_t range[2] = { k->offset, k->length };
	double t0 = fsb_now();
	void *mem = NULL;
	uint8_t *buf;
	size_t first;
	int fd, e = 0;

	*op = "alloc";
	if (k->length > (64u << 20) || posix_memalign(&mem, 4096, (size_t)k->length))
		return -ENOMEM;
	buf = mem;
	*op = "open";
	fd = open(path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
		goto out;
	}
	/* something that is not zero first: a range that already reads as
	 * zeroes would prove nothing */
	pattern(buf, (size_t)k->length, k->offset);
	*op = "write";
	if ((e = fsb_pio_all(fd, buf, (size_t)k->length, k->offset, 1)) < 0)
		goto out;
	if (fdatasync(fd) < 0) {
		e = -errno;
		goto out;
	}
	memset(buf, 0, (size_t)k->length);
	*op = "read";
	if ((e = fsb_pio_all(fd, buf, (size_t)k->length, k->offset, 0)) < 0)
		goto out;
	k->written = fsb_nonzero(buf, (size_t)k->length, &first) == k->length;
	*op = "discard";
	if (ioctl(fd, BLKDISCARD_, range) < 0) {
		e = -errno;
		goto out;
	}
	memset(buf, 0xee, (size_t)k->length);
	*op = "read";
	if ((e = fsb_pio_all(fd, buf, (size_t)k->length, k->offset, 0)) < 0)
		goto out;
	k->nonzero_bytes = fsb_nonzero(buf, (size_t)k->length, &first);
	k->first_nonzero = k->offset + first;
	*op = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(mem);
	k->seconds = fsb_now() - t0;
	return e;
}

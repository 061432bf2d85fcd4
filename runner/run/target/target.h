/* target.h: block devices, their identity, target selection and safety. */
#ifndef FSB_TARGET_H
#define FSB_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "run/core/cfg.h"
#include "log/record.h"
#include "run/target/zone.h"

struct fsb_disk {
	char path[FSB_PATH_MAX];	/* /dev/NAME */
	char name[64];			/* sysfs name */
	char disk[64];			/* whole-disk name (== name for a disk) */
	unsigned maj, min;
	uint64_t size;			/* bytes */
	int is_partition;
	char partlabel[72];
	char model[128], serial[128], firmware[64], wwn[128];
	char transport[16];		/* nvme, sata, scsi, usb, virtio, mmc, loop, other */
	int rotational;
	unsigned logical_block, physical_block;
	char write_cache[16];		/* queue/write_cache: "write back", "write through"; "" unread */
	int fua;			/* queue/fua: 1, 0; -1 unread */
	char loop_backing[FSB_PATH_MAX];
	int loop_dio;
	char pcie_speed[48], pcie_width[16];
	struct fsb_zoneinfo zoned;	/* the whole disk's zone model (run/target/zone.h) */
};

#define FSB_MAX_DISKS 64

/* Why a disk (or a --dir) may not be used: one code per safety rule, so a
 * caller acts on the reason, never on the words of the message. The message
 * (the why text) names the device and the details; fsb_refusal_text() says
 * which rule in a few words. */
enum fsb_refusal {
	FSB_USABLE = 0,		/* no objection */
	FSB_REFUSE_SPEC,	/* the target spec has no known form, or no value */
	FSB_REFUSE_NO_DEVICE,	/* the path cannot be probed (the errno is in why) */
	FSB_REFUSE_NOT_BLOCK,	/* not a block device */
	FSB_REFUSE_NO_MATCH,	/* no disk matches the spec */
	FSB_REFUSE_AMBIGUOUS,	/* more than one disk matches */
	FSB_REFUSE_ROOT,	/* holds the root filesystem */
	FSB_REFUSE_MOUNTED,	/* it, or one of its partitions, is mounted */
	FSB_REFUSE_SWAP,	/* it, or one of its partitions, is swap */
	FSB_REFUSE_HOLDER,	/* in use by device-mapper, md, bcache ... */
	FSB_REFUSE_LOG,		/* holds the results log: the log must not be written */
	FSB_REFUSE_BUSY,	/* the kernel has it open (exclusive open fails) */
	FSB_REFUSE_SMALL,	/* too small for the profile */
	FSB_REFUSE_DIR_SMALL,	/* --dir: too little free space for the profile */
	FSB_REFUSE_ZONED_CONV,	/* zoned_conv is not a conventional disk beside the target */
	FSB_REFUSE_ZONED,	/* a host-managed zoned target for work that writes at random (powercut) */
	FSB_REFUSE_COUNT
};

/* The rule behind a code in a few words ("holds the log"); "?" when unknown. */
const char *fsb_refusal_text(enum fsb_refusal r);

/* The unit serial number in DEV/vpd_pg80 (SCSI VPD page 0x80 as sysfs
 * gives it, binary), without its padding; "" when there is none. */
void fsb_vpd80_serial(const char *dev, char *out, size_t len);
/* Fill d from sysfs for the block device at path (a /dev node). 0 or -errno. */
int fsb_disk_probe(const char *path, struct fsb_disk *d);
/* Every block device (disks and partitions) except ram/zram. Returns count. */
int fsb_disk_list(struct fsb_disk *out, int max);
/* Resolve a target spec: PATH, path:PATH, partlabel:NAME, serial:S, wwn:W,
 * model:GLOB. FSB_USABLE (0), or the refusal (no match, several matches,
 * ...) with the message in why. */
enum fsb_refusal fsb_disk_resolve(const char *spec, struct fsb_disk *d, char *why, size_t len);
/* Safety rules for a target: block device, not mounted, no mounted
 * partition, not the root disk or the log, not in use (holders, swap), at
 * least need bytes. FSB_USABLE (0) when it may be formatted, else the
 * refusal with the message in why. */
enum fsb_refusal fsb_target_check(const struct fsb_disk *d, const char *log_path, uint64_t need,
				  char *why, size_t len);
/* What is on the device now ("an ext4 filesystem", "a GPT partition table",
 * "no known signature"). */
const char *fsb_disk_signature(const char *path, char *buf, size_t len);
/* The disk as a JSON object member. */
void fsb_disk_json(struct fsb_rec *r, const char *key, const struct fsb_disk *d);
/* Every disk as a JSON array member (for refusal records). */
void fsb_disks_json(struct fsb_rec *r, const char *key);

#endif

/* freespace.h: the evidence on fragmentation of a mounted filesystem, for
 * the `freespace` record written after each round's reads (untimed):
 * its free-space extents from the kernel (GETFSMAP, ext4 and XFS), ext4's
 * defrag score (`e4defrag -c`), btrfs's allocation (/sys/fs/btrfs/FSID/
 * allocation), f2fs's segments (/sys/fs/f2fs/DEV/, /proc/fs/f2fs/DEV/
 * segment_info), nilfs2's segments and checkpoints (/sys/fs/nilfs2/DEV/:
 * what its cleaner has reclaimed). The filesystem table (run/fs/fs.c) names each filesystem's
 * hook; the parsers are separate so that they can be tested on recorded
 * output. A parser returns 0, or -EBADMSG with the reason in why. */
#ifndef FSB_FREESPACE_H
#define FSB_FREESPACE_H

#include <stddef.h>
#include <stdint.h>

struct fsb_rec;

/* Free space as contiguous extents (adjacent free records merged). */
struct fsb_free_extents {
	uint64_t count;		/* free extents */
	uint64_t free_bytes;	/* their sum */
	uint64_t largest_bytes;
};

/* Walk the filesystem's space map (FS_IOC_GETFSMAP on fd, any file or
 * directory of it) and sum its free extents. 0 or -errno (-ENOTTY or
 * -EOPNOTSUPP: the filesystem has no GETFSMAP). */
int fsb_fsmap_free(int fd, struct fsb_free_extents *fe);

/* `e4defrag -c DIR`: the fragmentation score (0-30 no problem, 31-55 a
 * little fragmented, 56 and up needs defrag) and its extents now/best. */
struct fsb_e4defrag {
	uint64_t score;
	uint64_t extents_now, extents_best;	/* UINT64_MAX when not printed */
};
int fsb_parse_e4defrag(const char *text, struct fsb_e4defrag *d, char *why, size_t len);

#define FSB_BTRFS_PROFILES 8
/* A btrfs's allocation as `btrfs filesystem usage -b` shows it: bytes of
 * its Overall part and one entry per chunk type and profile (Data,single:
 * Size:..., Used:...), read from sysfs. */
struct fsb_btrfs_profile {
	char type[16], profile[16];	/* "Data", "single" */
	uint64_t size, used;
};
struct fsb_btrfs_usage {
	uint64_t device_size, allocated, unallocated, used, free_estimated;
	size_t nprof;
	struct fsb_btrfs_profile prof[FSB_BTRFS_PROFILES];
};
/* The btrfs holding the block device devname (its entry in FSROOT/FSID/
 * devices/; FSROOT is /sys/fs/btrfs): the devices' sizes from BLOCKROOT
 * (/sys/class/block/DEV/size), the chunks allocated and used on them from
 * FSID/allocation/{data,metadata,system}/disk_total, disk_used, and each
 * profile's size and use from its folder (single/, dup/, ...:
 * total_bytes, used_bytes); free_estimated as btrfs estimates it (the data
 * chunks' free bytes and the unallocated space at the data profile's
 * ratio). 0, or -EBADMSG with why naming the file and the reason. */
int fsb_btrfs_sysfs(const char *fsroot, const char *blockroot, const char *devname,
		    struct fsb_btrfs_usage *u, char *why, size_t len);

/* /proc/fs/f2fs/DEV/segment_info: the main area's segments by how many of
 * their blocks are valid (full: blocks_per_seg). */
struct fsb_f2fs_segments {
	uint64_t segments;
	uint64_t empty;		/* no valid block */
	uint64_t full;		/* every block valid */
	uint64_t partial;	/* some: what garbage collection must move */
	uint64_t partial_valid;	/* valid blocks in the partial segments */
	uint64_t max_valid;	/* the most valid blocks of any segment */
};
int fsb_parse_f2fs_segment_info(const char *text, uint32_t blocks_per_seg,
				struct fsb_f2fs_segments *s, char *why, size_t len);

/* The filesystem table's hooks (run/fs/fs.c): add this filesystem's parts to
 * the open record r. Each part is an object of numbers, or of an "error"
 * saying why it is missing; the record is written either way. */
void fsb_freespace_ext4(struct fsb_rec *r, const char *mnt, const char *dev);
void fsb_freespace_xfs(struct fsb_rec *r, const char *mnt, const char *dev);
void fsb_freespace_btrfs(struct fsb_rec *r, const char *mnt, const char *dev);
void fsb_freespace_f2fs(struct fsb_rec *r, const char *mnt, const char *dev);
void fsb_freespace_nilfs2(struct fsb_rec *r, const char *mnt, const char *dev);

#endif

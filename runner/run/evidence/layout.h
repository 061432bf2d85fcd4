/* layout.h: where a directory's files sit on the disk (FIEMAP), in file-name
 * order and in inode order: the diagnosis behind runner/SUITE.md's ext4 aging
 * finding (name order and physical order decouple on an aged filesystem). */
#ifndef FSB_LAYOUT_H
#define FSB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define FSB_LAYOUT_NEAR (64u * 1024u)	/* a step within this after the previous file's end is "near" */
#define FSB_LAYOUT_FIRST 8
#define FSB_LAYOUT_PICTURE 256	/* files sampled per order for the picture */

struct fsb_layout_order {
	uint32_t steps;		/* consecutive pairs looked at */
	double forward;		/* fraction of steps to a higher disk offset */
	double near;		/* fraction landing 0..64 KiB after the previous file's end */
	uint64_t median_jump;	/* median |distance| between consecutive files, 4 KiB blocks */
};

struct fsb_layout {
	uint32_t files;		/* files looked at */
	uint32_t mapped;	/* with a physical first extent */
	uint32_t inline_data;	/* data inside the inode/metadata (no own block) */
	uint32_t extents_max;	/* most extents in one file */
	double extents_mean;
	struct fsb_layout_order name, inode;
	uint64_t first_blocks[FSB_LAYOUT_FIRST];	/* name order, 4 KiB block numbers */
	uint32_t nfirst;
	/* The picture: the 4 KiB block number of the file at rank
	 * i * files / FSB_LAYOUT_PICTURE (every file when there are fewer), in
	 * name order and in inode order; unmapped files are left out. */
	uint64_t name_blocks[FSB_LAYOUT_PICTURE], inode_blocks[FSB_LAYOUT_PICTURE];
	uint32_t nname_blocks, ninode_blocks;
};

/* Statistics of a sequence of files' physical offsets and lengths (bytes),
 * in the order given. Unmapped entries have phys == UINT64_MAX and are skipped. */
void fsb_layout_order_stats(const uint64_t *phys, const uint64_t *len, size_t n,
			    struct fsb_layout_order *o);
/* Map every file fNNNNNNN of the directory dfd (files of them). 0 or -errno
 * (-EOPNOTSUPP when the filesystem has no FIEMAP). */
int fsb_layout_dir(int dfd, uint32_t files, struct fsb_layout *out);

struct fsb_ctx;
/* The `layout` record of directory d0000 under mnt (column fs, round; files
 * per directory): mapped, or the error variant without FIEMAP. */
void fsb_layout_record(struct fsb_ctx *c, const char *fs, const char *mnt, uint32_t files,
		       uint32_t round);

#endif

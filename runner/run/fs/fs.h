/* fs.h: the table of filesystems the suite knows, one row each. The image
 * build and the tests read it too, through `fsbench config --filesystems`. */
#ifndef FSB_FS_H
#define FSB_FS_H

#include <stddef.h>
#include <stdio.h>

struct fsb_rec;

struct fsb_fs {
	const char *name;		/* ext4, xfs, ... (also the config name) */
	const char *mkfs;		/* program, searched in FSB_TOOL_PATH */
	const char *const *mkfs_args;	/* default arguments, before mkfs_opts and the device */
	const char *const *version_argv;	/* argv (after the program) printing the version */
	const char *mount_type;		/* mount(2) type */
	const char *const *modules;	/* kernel modules to modprobe, in order */
	unsigned long magic;		/* statfs f_type */
	const char *package;		/* Debian package holding mkfs (put in the image) */
	const char *const *files;	/* files mkfs reads, copied from the package into the image */
	/* The freespace record's evidence (run/evidence/freespace.c): the programs it
	 * runs (searched in FSB_TOOL_PATH, put in the image from the same
	 * package as mkfs) and the hook that adds this filesystem's parts to
	 * the record, given the mount point and the device. */
	const char *const *tools;
	void (*freespace)(struct fsb_rec *r, const char *mnt, const char *dev);
	/* The power-cut campaign's read-only checker (run/engine/powercut.c):
	 * the program and its arguments before the device (the program is in
	 * tools too, so the image stages it), and the exit statuses that mean
	 * it found damage (0-terminated); any other non-zero one means it
	 * could not check. */
	const char *const *check;	/* NULL: the filesystem has no checker */
	const int *check_damage;
	/* On a host-managed zoned target (run/target/zone.h): how the
	 * filesystem is made there (enum fsb_fs_zoned); zoned_args go after
	 * the defaults (with FSB_FS_ZONED_CONV followed by the zoned device);
	 * with FSB_FS_ZONED_NO, zoned_why says why it cannot be. */
	int zoned;
	const char *const *zoned_args;
	const char *zoned_why;
	/* The daemon the filesystem's own mount helper starts beside a mount
	 * (nilfs2's cleaner, which mount.nilfs2 starts): its program and the
	 * arguments before the device and the mount point (run/fs/cleaner.h;
	 * the program is in tools too). NULL: none. */
	const char *const *cleaner;
	/* 1: not in the default list of filesystems (the setting `fs`, the
	 * profiles), only where a list names it. */
	int optional;
};

enum fsb_fs_zoned {
	FSB_FS_ZONED_NO = 0,	/* refused on a host-managed zoned target */
	FSB_FS_ZONED_NATIVE,	/* the whole filesystem on the zoned device */
	FSB_FS_ZONED_CONV,	/* metadata on a conventional device (setting zoned_conv), data on the zones */
};

/* How a column of fs is made on its target. */
enum fsb_zplan {
	FSB_ZPLAN_PLAIN = 0,	/* not a host-managed zoned target: as on any disk */
	FSB_ZPLAN_NATIVE,	/* zoned_args; made and mounted on the target */
	FSB_ZPLAN_CONV,		/* zoned_args and the target; made and mounted on the conventional device */
	FSB_ZPLAN_REFUSED,	/* the target cannot hold it: why says so */
};


extern const struct fsb_fs fsb_fs_table[];
extern const size_t fsb_fs_count;

int fsb_fs_index(const char *name);		/* -1 when unknown */
const char *fsb_fs_name_of_magic(unsigned long magic);	/* NULL when unknown */
/* Comma-separated list of every known name, for messages. */
const char *fsb_fs_names(void);
/* Comma-separated list of the default filesystems (every row but the
 * optional ones, in the table's order): the setting `fs`'s default. */
const char *fsb_fs_default_names(void);
/* The table as text, one line per filesystem, fields separated by a tab:
 * name, mkfs program, Debian package, kernel modules (comma-separated, in
 * load order), files mkfs reads (comma-separated, "-" for none), the other
 * tools the runner runs: the freespace record's, the power-cut
 * checker and the cleaner (comma-separated, "-" for none), `default` or
 * `optional` (not in the default list; the image build leaves its
 * modules out when a kernel of your own lacks them). Returns 0,
 * or -1 with errno set when writing fails. */
int fsb_fs_write_table(FILE *f);

struct fsb_zoneinfo;
/* The plan for fs on the target at path with the zone facts z; conv: the
 * conventional device of setting zoned_conv ("" or NULL: none). With
 * FSB_ZPLAN_REFUSED the reason, naming the target and the filesystem, is
 * in why. */
enum fsb_zplan fsb_fs_zoned_plan(const struct fsb_fs *fs, const struct fsb_zoneinfo *z,
				 const char *path, const char *conv, char *why, size_t len);
/* "native", "metadata on conventional device"; NULL for the others. */
const char *fsb_zplan_text(enum fsb_zplan p);

#endif

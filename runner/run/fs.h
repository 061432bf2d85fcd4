/* fs.h: the table of filesystems the suite knows, one row each. */
#ifndef FSB_FS_H
#define FSB_FS_H

#include <stddef.h>

struct fsb_fs {
	const char *name;		/* ext4, xfs, ... (also the config name) */
	const char *mkfs;		/* program, searched in FSB_TOOL_PATH */
	const char *const *mkfs_args;	/* default arguments, before mkfs_opts and the device */
	const char *const *version_argv;	/* argv (after the program) printing the version */
	const char *mount_type;		/* mount(2) type */
	const char *const *modules;	/* kernel modules to modprobe, in order */
	unsigned long magic;		/* statfs f_type */
};


extern const struct fsb_fs fsb_fs_table[];
extern const size_t fsb_fs_count;

int fsb_fs_index(const char *name);		/* -1 when unknown */
const char *fsb_fs_name_of_magic(unsigned long magic);	/* NULL when unknown */
/* Comma-separated list of every known name, for messages. */
const char *fsb_fs_names(void);

#endif

/* fs.c: the filesystems the suite runs on. Adding one is adding a row. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "run/evidence/freespace.h"
#include "run/fs/fs.h"
#include "run/target/zone.h"

static const char *const ext4_args[] = { "-t", "ext4", "-F", "-q", NULL };
static const char *const ext4_ver[] = { "-V", NULL };
static const char *const ext4_mods[] = { "crc32c_generic", "ext4", NULL };
static const char *const ext4_files[] = { "/etc/mke2fs.conf", NULL };

static const char *const xfs_args[] = { "-f", "-q", NULL };
static const char *const xfs_ver[] = { "-V", NULL };
static const char *const xfs_mods[] = { "crc32c_generic", "xfs", NULL };

static const char *const btrfs_args[] = { "-f", "-q", NULL };
static const char *const btrfs_ver[] = { "--version", NULL };
static const char *const btrfs_mods[] = { "crc32c_generic", "btrfs", NULL };

static const char *const f2fs_args[] = { "-f", "-q", NULL };
static const char *const f2fs_ver[] = { "-V", NULL };
static const char *const f2fs_mods[] = { "crc32_generic", "f2fs", NULL };
static const char *const no_files[] = { NULL };

/* nilfs2: optional (not in the default list). nilfs-tools has no fsck, so
 * no checker for the power-cut campaign; its cleaner, which mount.nilfs2
 * would start (`nilfs_cleanerd DEV MNT`), runs beside every read-write mount
 * (run/fs/cleaner.h) with the package's /etc/nilfs_cleanerd.conf. */
static const char *const nilfs2_args[] = { "-f", "-q", NULL };
static const char *const nilfs2_ver[] = { "-V", NULL };
static const char *const nilfs2_mods[] = { "nilfs2", NULL };
static const char *const nilfs2_files[] = { "/etc/nilfs_cleanerd.conf", NULL };
static const char *const nilfs2_tools[] = { "nilfs_cleanerd", NULL };
static const char *const nilfs2_cleaner[] = { "nilfs_cleanerd", NULL };

/* the freespace record's tools: ext4's defrag score (free extents come
 * from GETFSMAP, as for XFS); btrfs's allocation and f2fs's segments are
 * in /sys and /proc */
static const char *const ext4_tools[] = { "e4defrag", "e2fsck", NULL };
static const char *const xfs_tools[] = { "xfs_repair", NULL };
static const char *const btrfs_tools[] = { "btrfs", NULL };
static const char *const f2fs_tools[] = { "fsck.f2fs", NULL };

/* the power-cut campaign's checkers, read-only, and their exit statuses
 * for "found damage": e2fsck(8) 4 errors left uncorrected (1, 2: would
 * have fixed); xfs_repair(8) -n 1 corruption found, 2 a dirty log;
 * btrfs-check(8) 1 errors found; fsck.f2fs 255 (-1) or 1 on errors */
static const char *const ext4_check[] = { "e2fsck", "-fn", NULL };
static const char *const xfs_check[] = { "xfs_repair", "-n", NULL };
static const char *const btrfs_check[] = { "btrfs", "check", "--readonly", NULL };
static const char *const f2fs_check[] = { "fsck.f2fs", "--dry-run", NULL };
static const int ext4_damage[] = { 1, 2, 4, 0 };
static const int xfs_damage[] = { 1, 2, 0 };
static const int btrfs_damage[] = { 1, 0 };
static const int f2fs_damage[] = { 1, 255, 0 };

/* on a host-managed zoned target: btrfs's zoned mode (Linux 5.12,
 * btrfs-progs 5.12) with single profiles (it has no DUP or RAID on
 * zones); f2fs's (Linux 4.10) with its metadata on a conventional device
 * given first (-c adds the zoned one). ext4 writes its metadata in place;
 * XFS's zoned mode (Linux 6.15, xfsprogs 6.15) is not one fsbench makes. */
static const char *const btrfs_zoned[] = { "-O", "zoned", "-d", "single", "-m", "single", NULL };
static const char *const f2fs_zoned[] = { "-m", "-c", NULL };
static const char ext4_nozone[] = "ext4 has no zoned mode: it writes its metadata and data in place";
static const char nilfs2_nozone[] = "nilfs2 has no zoned mode: its segments are not written zone by zone";
static const char xfs_nozone[] = "XFS writes in place here: its zoned mode (Linux 6.15 and xfsprogs 6.15 or later) is not one fsbench makes";

const struct fsb_fs fsb_fs_table[] = {
	{ "ext4", "mke2fs", ext4_args, ext4_ver, "ext4", ext4_mods, 0xEF53,
	  "e2fsprogs", ext4_files, ext4_tools, fsb_freespace_ext4, ext4_check, ext4_damage,
	  FSB_FS_ZONED_NO, NULL, ext4_nozone, NULL, 0 },
	{ "xfs", "mkfs.xfs", xfs_args, xfs_ver, "xfs", xfs_mods, 0x58465342,
	  "xfsprogs", no_files, xfs_tools, fsb_freespace_xfs, xfs_check, xfs_damage,
	  FSB_FS_ZONED_NO, NULL, xfs_nozone, NULL, 0 },
	{ "btrfs", "mkfs.btrfs", btrfs_args, btrfs_ver, "btrfs", btrfs_mods, 0x9123683E,
	  "btrfs-progs", no_files, btrfs_tools, fsb_freespace_btrfs, btrfs_check, btrfs_damage,
	  FSB_FS_ZONED_NATIVE, btrfs_zoned, NULL, NULL, 0 },
	{ "f2fs", "mkfs.f2fs", f2fs_args, f2fs_ver, "f2fs", f2fs_mods, 0xF2F52010,
	  "f2fs-tools", no_files, f2fs_tools, fsb_freespace_f2fs, f2fs_check, f2fs_damage,
	  FSB_FS_ZONED_CONV, f2fs_zoned, NULL, NULL, 0 },
	{ "nilfs2", "mkfs.nilfs2", nilfs2_args, nilfs2_ver, "nilfs2", nilfs2_mods, 0x3434,
	  "nilfs-tools", nilfs2_files, nilfs2_tools, fsb_freespace_nilfs2, NULL, NULL,
	  FSB_FS_ZONED_NO, NULL, nilfs2_nozone, nilfs2_cleaner, 1 },
};
const size_t fsb_fs_count = sizeof(fsb_fs_table) / sizeof(fsb_fs_table[0]);

int fsb_fs_index(const char *name)
{
	for (size_t i = 0; i < fsb_fs_count; i++)
		if (strcmp(fsb_fs_table[i].name, name) == 0)
			return (int)i;
	return -1;
}

const char *fsb_fs_name_of_magic(unsigned long magic)
{
	static const struct { unsigned long magic; const char *name; } other[] = {
		{ 0x01021994, "tmpfs" }, { 0x6969, "nfs" }, { 0x65735546, "fuse" },
		{ 0x2FC12FC1, "zfs" }, { 0x4d44, "vfat" }, { 0x794c7630, "overlay" },
	};

	for (size_t i = 0; i < fsb_fs_count; i++)
		if (fsb_fs_table[i].magic == (magic & 0xffffffffUL))
			return fsb_fs_table[i].name;
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (other[i].magic == (magic & 0xffffffffUL))
			return other[i].name;
	return NULL;
}

const char *fsb_fs_names(void)
{
	static char buf[128];

	if (!buf[0]) {
		for (size_t i = 0; i < fsb_fs_count; i++) {
			if (i)
				strcat(buf, ",");
			strcat(buf, fsb_fs_table[i].name);
		}
	}
	return buf;
}

const char *fsb_fs_default_names(void)
{
	static char buf[128];

	if (!buf[0]) {
		for (size_t i = 0; i < fsb_fs_count; i++) {
			if (fsb_fs_table[i].optional)
				continue;
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, fsb_fs_table[i].name);
		}
	}
	return buf;
}

static int write_list(FILE *f, const char *const *v)
{
	if (!*v)
		return fputc('-', f) == EOF ? -1 : 0;
	for (size_t i = 0; v[i]; i++)
		if (fprintf(f, "%s%s", i ? "," : "", v[i]) < 0)
			return -1;
	return 0;
}

int fsb_fs_write_table(FILE *f)
{
	for (size_t i = 0; i < fsb_fs_count; i++) {
		const struct fsb_fs *fs = &fsb_fs_table[i];

		if (fprintf(f, "%s\t%s\t%s\t", fs->name, fs->mkfs, fs->package) < 0 ||
		    write_list(f, fs->modules) < 0 || fputc('\t', f) == EOF ||
		    write_list(f, fs->files) < 0 || fputc('\t', f) == EOF ||
		    write_list(f, fs->tools) < 0 ||
		    fprintf(f, "\t%s\n", fs->optional ? "optional" : "default") < 0)
			return -1;
	}
	return fflush(f) == EOF ? -1 : 0;
}

enum fsb_zplan fsb_fs_zoned_plan(const struct fsb_fs *fs, const struct fsb_zoneinfo *z,
				 const char *path, const char *conv, char *why, size_t len)
{
	char zone[48] = "";

	if (!fsb_zoned_strict(z))
		return FSB_ZPLAN_PLAIN;
	if (z->zone_bytes)
		snprintf(zone, sizeof(zone), ", zones of %llu MiB", (unsigned long long)(z->zone_bytes >> 20));
	switch (fs->zoned) {
	case FSB_FS_ZONED_NATIVE:
		return FSB_ZPLAN_NATIVE;
	case FSB_FS_ZONED_CONV:
		if (conv && conv[0])
			return FSB_ZPLAN_CONV;
		snprintf(why, len, "%s on %s: a host-managed zoned device (sequential writes only%s): "
			 "%s keeps its metadata on a conventional device beside it: name one with the "
			 "setting zoned_conv", fs->name, path, zone, fs->name);
		return FSB_ZPLAN_REFUSED;
	default: {
		struct utsname u;
		snprintf(why, len, "%s on %s: a host-managed zoned device (sequential writes only%s): %s "
			 "(kernel %s)", fs->name, path, zone, fs->zoned_why ? fs->zoned_why : "no zoned mode",
			 uname(&u) == 0 ? u.release : "unknown");
		return FSB_ZPLAN_REFUSED;
	}
	}
}

const char *fsb_zplan_text(enum fsb_zplan p)
{
	return p == FSB_ZPLAN_NATIVE ? "native" : p == FSB_ZPLAN_CONV ? "metadata on conventional device" : NULL;
}

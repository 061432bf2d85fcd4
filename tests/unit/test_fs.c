/* test_fs.c: the filesystem table and its text form (`fsbench config
 * --filesystems`), which the image build and the tests read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/fs/fs.h"
#include "unit.h"

int main(int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)argc;
	/* Every row names what the image needs: mkfs, package, modules. */
	for (size_t i = 0; i < fsb_fs_count; i++) {
		const struct fsb_fs *fs = &fsb_fs_table[i];

		CHECK(fs->name && fs->name[0] && !strpbrk(fs->name, "\t\n, "));
		CHECK(fs->mkfs && fs->mkfs[0] && !strchr(fs->mkfs, '/'));
		CHECK(fs->package && fs->package[0] && !strpbrk(fs->package, "\t\n, "));
		CHECK(fs->modules && fs->modules[0]);
		CHECK(fs->files != NULL);
		CHECK(fs->tools != NULL && fs->freespace != NULL);
		for (const char *const *t = fs->tools; t && *t; t++)
			CHECK((*t)[0] && !strpbrk(*t, "\t\n, /"));
		for (const char *const *f2 = fs->files; f2 && *f2; f2++)
			CHECK((*f2)[0] == '/');
		CHECK_EQ_U(fsb_fs_index(fs->name), i);
		/* the power-cut checker: read-only arguments, its program among
		 * the tools (so the image stages it), statuses for damage */
		CHECK(fs->check && fs->check[0] && fs->check[1] && fs->check_damage && fs->check_damage[0]);
		int staged = 0;
		for (const char *const *t = fs->tools; t && *t && fs->check; t++)
			staged |= !strcmp(*t, fs->check[0]);
		CHECK(staged);
	}

	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return unit_done(argv[0]);
	CHECK_EQ_U(fsb_fs_write_table(f), 0);
	fclose(f);
	CHECK_STR(buf,
		  "ext4\tmke2fs\te2fsprogs\tcrc32c_generic,ext4\t/etc/mke2fs.conf\te4defrag,e2fsck\n"
		  "xfs\tmkfs.xfs\txfsprogs\tcrc32c_generic,xfs\t-\txfs_repair\n"
		  "btrfs\tmkfs.btrfs\tbtrfs-progs\tcrc32c_generic,btrfs\t-\tbtrfs\n"
		  "f2fs\tmkfs.f2fs\tf2fs-tools\tcrc32_generic,f2fs\t-\tfsck.f2fs\n");
	/* One line per row, six fields each. */
	size_t lines = 0, tabs = 0;
	for (const char *p = buf; p && *p; p++) {
		lines += *p == '\n';
		tabs += *p == '\t';
	}
	CHECK_EQ_U(lines, fsb_fs_count);
	CHECK_EQ_U(tabs, 5 * fsb_fs_count);
	free(buf);
	return unit_done(argv[0]);
}

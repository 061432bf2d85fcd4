/* test_config.c: config layering, sources, and every error path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "run/settings.h"
#include "run/fs/mount.h"
#include "layers.h"
#include "unit.h"

/* A setting that merges to an error: KEY = VAL from SRC on the command
 * line, the error holding HAS. */
struct refusal {
	const char *key, *val, *src, *has;
};

/* Each refusal from empty layers, a check each of the layer taking it, the
 * merge refusing it and the error; REFUSED(table). */
static void refused(const struct refusal *r, size_t n)
{
	struct fsb_config c;
	char err[512];

	for (size_t i = 0; i < n; i++) {
		layers_reset();
		CHECK(fsb_layer_add(&lo, r[i].key, r[i].val, r[i].src, err, sizeof(err)) == 0);
		CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
		CHECK_CONTAINS(err, r[i].has);
	}
}
#define REFUSED(table) refused(table, sizeof(table) / sizeof(table[0]))

static char *show(const struct fsb_config *c)
{
	static char buf[16384];
	FILE *f = tmpfile();
	size_t n;

	fflush(stdout);
	fsb_config_show(c, fileno(f));
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct fsb_config c;
	char err[512];
	(void)argc;

	/* defaults are the seed profile (runner/SUITE.md) */
	layers_reset();
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_STR(c.profile, "seed");
	CHECK_EQ_U(c.dirs, 16);
	CHECK_EQ_U(c.files, 20000);
	CHECK_EQ_U(c.file_size, 4096);
	CHECK_EQ_U(c.workers, 16);
	CHECK_EQ_U(c.rounds, 3);
	CHECK_STR(c.fs, "ext4,xfs,btrfs,f2fs");
	CHECK_EQ_U(c.yes, 0);

	/* smoke: small, but at least 2 rounds so the aged-filesystem code runs */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "profile", "smoke", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK(c.rounds >= 2);
	CHECK(c.dirs * c.files <= 10000);
	CHECK_EQ_U(c.src[2], SRC_PROFILE);	/* dirs came from the profile */

	/* layering: defaults < profile < file < kernel command line < options */
	layers_reset();
	unit_write_file("layer.conf", "# a comment\n\nprofile = smoke\ndirs = 8\nfiles=100\nrounds = 4\n"
				 "mount_opts.ext4 = \"noatime\"\n");
	unit_write_file("cmdline", "BOOT_IMAGE=/vmlinuz quiet fsbench.dirs=6 fsbench.rounds=5 "
			      "fsbench.mkfs_opts.xfs=\"-m crc=1\" console=ttyS0\n");
	CHECK(fsb_layer_file(&lf, "layer.conf", err, sizeof(err)) == 0);
	CHECK(fsb_layer_cmdline(&lc, "cmdline", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "dirs", "5", "command line --dirs", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_STR(c.profile, "smoke");
	CHECK_EQ_U(c.dirs, 5);		/* option beats cmdline and file */
	CHECK_EQ_U(c.rounds, 5);	/* cmdline beats file */
	CHECK_EQ_U(c.files, 100);	/* file beats profile */
	CHECK_EQ_U(c.workers, 4);	/* profile beats default */
	CHECK_STR(c.mount_opts[0], "noatime");
	CHECK_STR(c.mkfs_opts[1], "-m crc=1");
	char *s = show(&c);
	CHECK_CONTAINS(s, "dirs               = 5");
	CHECK_CONTAINS(s, "# command line --dirs\n");	/* the source once */
	CHECK(!strstr(s, "command line command line"));
	CHECK_CONTAINS(s, "rounds             = 5                        # kernel command line");
	CHECK_CONTAINS(s, "# config file layer.conf:5");
	CHECK_CONTAINS(s, "# profile");
	CHECK_CONTAINS(s, "# default");
	char js[8192];
	CHECK(fsb_config_json(&c, js, sizeof(js)) > 0);
	CHECK_CONTAINS(js, "\"dirs\":5,");
	CHECK_CONTAINS(js, "\"mount_opts.ext4\":\"noatime\"");
	CHECK(fsb_config_json(&c, js, 16) < 0);	/* too small: an error, not a truncation */

	/* a profile named in a lower layer still sits below higher layers' values */
	layers_reset();
	CHECK(fsb_layer_add(&lf, "files", "77", "f:1", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "profile", "smoke", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.files, 77);

	/* sizes take 1024-based suffixes; booleans take the usual words */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "file_size", "16k", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "log_size", "2MiB", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "yes", "on", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "verify", "no", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_EQ_U(c.file_size, 16384);
	CHECK_EQ_U(c.log_size, 2u << 20);
	CHECK_EQ_U(c.yes, 1);
	CHECK_EQ_U(c.verify, 0);

	/* errors name the key, the value, where it came from and what is allowed */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "dirz", "4", "command line --dirz", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "unknown key 'dirz'");
	CHECK_CONTAINS(err, "command line --dirz");
	CHECK(fsb_layer_add(&lo, "mkfs_opts.zfs", "x", "cli", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "unknown key 'mkfs_opts.zfs'");

	/* nilfs2: optional, not in the default list, run where a list names it */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "fs", "ext4,nilfs2", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_STR(c.fs, "ext4,nilfs2");
	layers_reset();
	CHECK(fsb_layer_add(&lo, "profile", "powercut", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_STR(c.fs, "ext4,xfs,btrfs,f2fs");

	/* values the settings refuse: numbers, a filesystem list (an unknown
	 * filesystem, the list allowed naming nilfs2 too; an empty list, an
	 * empty item or a repeated one, named), a profile, a boolean */
	static const struct refusal refusals[] = {
		{ "dirs", "abc", "command line --dirs", "dirs=abc: not a number; allowed: an integer from 1 to 4096" },
		{ "dirs", "0", "cli", "dirs=0: out of range; allowed: an integer from 1 to 4096" },
		{ "rounds", "-1", "cli", "rounds=-1: not a number" },
		{ "files", "99999999999999999999999", "cli", "not a number" },
		{ "file_size", "4q", "cli", "file_size=4q: not a number" },
		{ "fs", "ext4,zfs", "cli", "unknown filesystem 'zfs'; allowed: a comma-separated list of ext4,xfs,btrfs,f2fs,nilfs2," },
		{ "fs", "ext4,zfs", "cli", "unknown filesystem 'zfs'; allowed: a comma-separated list of ext4,xfs,btrfs,f2fs" },
		{ "fs", ",", "cli", "empty list" },
		{ "fs", "ext4,,xfs", "cli", "cli: fs=ext4,,xfs: item 2 is empty; allowed: a comma-separated list of ext4,xfs,btrfs,f2fs" },
		{ "fs", "ext4,xfs,", "cli", "fs=ext4,xfs,: item 3 is empty" },
		{ "fs", ",ext4", "cli", "fs=,ext4: item 1 is empty" },
		{ "fs", "ext4,ext4", "cli", "cli: fs=ext4,ext4: filesystem 'ext4' is listed twice; allowed: a comma-separated list of ext4,xfs,btrfs,f2fs" },
		{ "fs", "xfs,btrfs,f2fs,xfs", "cli", "fs=xfs,btrfs,f2fs,xfs: filesystem 'xfs' is listed twice" },
		{ "profile", "huge", "cli", "profile=huge: unknown profile; allowed: seed, smoke" },
		{ "yes", "maybe", "cli", "yes=maybe: not a boolean" },
	};
	REFUSED(refusals);

	/* the same from a config file and from the kernel command line */
	layers_reset();
	unit_write_file("fsdup.conf", "fs = btrfs,btrfs\n");
	CHECK(fsb_layer_file(&lf, "fsdup.conf", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "fsdup.conf:1: fs=btrfs,btrfs: filesystem 'btrfs' is listed twice");

	layers_reset();
	unit_write_file("cmdline-fs", "quiet fsbench.fs=ext4,,f2fs\n");
	CHECK(fsb_layer_cmdline(&lc, "cmdline-fs", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "fs=ext4,,f2fs: item 2 is empty");

	/* every filesystem once, in any order, is fine */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "fs", "f2fs,ext4,btrfs,xfs", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	CHECK_STR(c.fs, "f2fs,ext4,btrfs,xfs");

	layers_reset();
	CHECK(fsb_layer_add(&lo, "dirs", "4", "command line --dirs", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "workers", "8", "command line --workers", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_STR(err, "workers=8 (command line --workers) and dirs=4 (command line --dirs): "
		  "more workers than dirs; allowed: workers from 1 to dirs");

	/* the two settings from two layers: each is named with its own */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "profile", "smoke", "command line --profile", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "dirs", "2", "command line --dirs", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "workers=4 (profile smoke) and dirs=2 (command line --dirs): more workers than dirs");
	layers_reset();
	unit_write_file("dirs.conf", "dirs = 1\n");
	CHECK(fsb_layer_file(&lf, "dirs.conf", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "workers=16 (profile seed) and dirs=1 (config file dirs.conf:1)");
	unlink("dirs.conf");

	layers_reset();
	CHECK(fsb_layer_add(&lo, "target", "/dev/null", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_layer_add(&lo, "dir", "/tmp", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "give one of them, not both");

	char longval[700];
	memset(longval, 'a', sizeof(longval) - 1);
	longval[sizeof(longval) - 1] = 0;
	layers_reset();
	CHECK(fsb_layer_add(&lo, "target", longval, "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "too long");

	/* config file errors carry file:line */
	layers_reset();
	unit_write_file("bad1.conf", "dirs = 4\nthis line has no equals sign\n");
	CHECK(fsb_layer_file(&lf, "bad1.conf", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "bad1.conf:2: expected key = value");
	layers_reset();
	unit_write_file("bad2.conf", "dirs = 4\n\nbogus = 1\n");
	CHECK(fsb_layer_file(&lf, "bad2.conf", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "bad2.conf:3: unknown key 'bogus'");
	layers_reset();
	unit_write_file("bad3.conf", "rounds = 1000\n");
	CHECK(fsb_layer_file(&lf, "bad3.conf", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "bad3.conf:1: rounds=1000: out of range; allowed: an integer from 1 to 100");
	layers_reset();
	CHECK(fsb_layer_file(&lf, "does-not-exist.conf", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "does-not-exist.conf: No such file or directory");

	/* kernel command line errors */
	layers_reset();
	unit_write_file("cmdline2", "quiet fsbench.nope=1\n");
	CHECK(fsb_layer_cmdline(&lc, "cmdline2", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "kernel command line: unknown key 'nope'");
	layers_reset();
	unit_write_file("cmdline3", "fsbench.rounds\n");
	CHECK(fsb_layer_cmdline(&lc, "cmdline3", err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "expected fsbench.KEY=VALUE");
	layers_reset();
	unit_write_file("cmdline4", "root=/dev/vda2 console=ttyS0\n");
	CHECK(fsb_layer_cmdline(&lc, "cmdline4", err, sizeof(err)) == 0);
	CHECK_EQ_U(lc.n, 0);

	/* choices, and reading one value back (what the boot image's init does) */
	layers_reset();
	CHECK(fsb_layer_add(&lo, "on_finish", "shell", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) == 0);
	char v[64];
	CHECK(fsb_config_get(&c, "on_finish", v, sizeof(v)) == 0);
	CHECK_STR(v, "shell");
	CHECK(fsb_config_get(&c, "rounds", v, sizeof(v)) == 0);
	CHECK_STR(v, "3");
	CHECK(fsb_config_get(&c, "mount_opts.xfs", v, sizeof(v)) == 0);
	CHECK_STR(v, "");
	CHECK(fsb_config_get(&c, "nope", v, sizeof(v)) < 0);
	layers_reset();
	CHECK(fsb_layer_add(&lo, "on_finish", "explode", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "on_finish=explode: not allowed; allowed: one of poweroff|reboot|halt|shell");
	layers_reset();
	CHECK(fsb_layer_add(&lo, "on_finish", "power", "cli", err, sizeof(err)) == 0);
	CHECK(fsb_config_merge(&c, layers, 3, err, sizeof(err)) < 0);

	/* mount options: flags to mount(2), the rest as data */
	unsigned long fl;
	char data[128];
	CHECK(fsb_mount_opts("noatime,discard,ro,compress=zstd", &fl, data, sizeof(data)) == 0);
	CHECK(fl & MS_NOATIME);
	CHECK(fl & MS_RDONLY);
	CHECK_STR(data, "discard,compress=zstd");
	CHECK(fsb_mount_opts("", &fl, data, sizeof(data)) == 0);
	CHECK_EQ_U(fl, 0);
	CHECK_STR(data, "");
	CHECK(fsb_mount_opts("background_gc=on,abcdefghijkl", &fl, data, 10) < 0);

	layers_reset();
	return unit_done(argv[0]);
}

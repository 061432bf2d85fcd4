/* test_fs.c: the filesystem table and its text form (`fsbench config
 * --filesystems`), which the image build and the tests read. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/time.h"
#include "run/fs/cleaner.h"
#include "run/fs/fs.h"
#include "unit.h"

/* The cleaner beside a mount (run/fs/cleaner.h), with stand-ins for
 * nilfs_cleanerd: sh -c SCRIPT gets the device and the mount point as $0
 * and $1, forks the daemon into the background and says its pid, as
 * nilfs_cleanerd does. */
static void cleaner(void)
{
	static const char *const runs[] = { "sh", "-c",
		"sleep 30 </dev/null >/dev/null 2>&1 & echo NILFS_CLEANERD_PID=$!", NULL };
	static const char *const quits[] = { "sh", "-c",
		"(sleep 0.1; exit 3) </dev/null >/dev/null 2>&1 & echo NILFS_CLEANERD_PID=$!", NULL };
	static const char *const mute[] = { "sh", "-c", "exit 1", NULL };
	static const char *const absent[] = { "fsbench-no-such-cleaner", NULL };
	struct fsb_fs fs = fsb_fs_table[0];
	struct fsb_cleaner cl;
	char why[512] = "";

	/* a filesystem without one: nothing runs */
	CHECK_EQ_U(fsb_cleaner_start(&fs, "/dev/x", "/mnt", &cl, why, sizeof(why)), 0);
	CHECK_EQ_U(cl.pid, 0);
	CHECK_STR(cl.argv, "");
	CHECK_EQ_U(fsb_cleaner_stop(&cl, why, sizeof(why)), 0);

	/* one that runs until it is stopped: the daemon, not the program
	 * started (gone at once), is the one SIGTERM ends */
	fs.cleaner = runs;
	CHECK_EQ_U(fsb_cleaner_start(&fs, "/dev/x", "/mnt", &cl, why, sizeof(why)), 0);
	CHECK(cl.pid > 0);
	CHECK(strstr(cl.argv, "/sh -c sleep 30") != NULL);
	CHECK(strstr(cl.argv, "NILFS_CLEANERD_PID=$! /dev/x /mnt") != NULL);
	pid_t daemon = cl.pid;
	CHECK(kill(daemon, 0) == 0);
	double t0 = fsb_now();
	CHECK_EQ_U(fsb_cleaner_stop(&cl, why, sizeof(why)), 0);
	CHECK(fsb_now() - t0 < 5);
	CHECK_EQ_U(cl.pid, 0);
	CHECK(kill(daemon, 0) < 0 && errno == ESRCH);	/* gone and reaped */

	/* one that is gone before the unmount: said, with its status */
	fs.cleaner = quits;
	CHECK_EQ_U(fsb_cleaner_start(&fs, "/dev/x", "/mnt", &cl, why, sizeof(why)), 0);
	CHECK(cl.pid > 0);
	/* wait (at most 5 s) until it has exited as a child of ours, without
	 * reaping it: the subreaper made it ours when its parent, the shell,
	 * ended. Where no subreaper is in effect (qemu-user runs this test for
	 * armhf) it went to init, and its status is not ours to read. */
	pid_t quitter = cl.pid;
	int exited = 0;
	for (int i = 0; i < 500 && !exited; i++) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)quitter, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == quitter) {
			exited = 1;
		} else {
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	if (exited) {
		CHECK(fsb_cleaner_stop(&cl, why, sizeof(why)) == -ECHILD);
		CHECK_CONTAINS(why, "had exited before the unmount: status 3");
	} else {
		printf("test_fs: SKIP: the cleaner that quits did not become this process's child"
		       " (no child subreaper in effect here): its exit status cannot be read\n");
		fsb_cleaner_stop(&cl, why, sizeof(why));
	}

	/* one that says no pid */
	fs.cleaner = mute;
	CHECK(fsb_cleaner_start(&fs, "/dev/x", "/mnt", &cl, why, sizeof(why)) == -ECHILD);
	CHECK_CONTAINS(why, "no NILFS_CLEANERD_PID=N line on its stdout (exit status 1)");
	CHECK_EQ_U(cl.pid, 0);

	/* one that is not installed */
	fs.cleaner = absent;
	CHECK(fsb_cleaner_start(&fs, "/dev/x", "/mnt", &cl, why, sizeof(why)) == -ENOENT);
	CHECK_CONTAINS(why, "fsbench-no-such-cleaner not found in");
	CHECK_EQ_U(cl.pid, 0);
}

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
		 * the tools (so the image stages it), statuses for damage; only
		 * nilfs2 has none (nilfs-tools has no fsck) */
		if (strcmp(fs->name, "nilfs2")) {
			CHECK(fs->check && fs->check[0] && fs->check[1] && fs->check_damage && fs->check_damage[0]);
		} else {
			CHECK(!fs->check && !fs->check_damage);
		}
		int staged = 0;
		for (const char *const *t = fs->tools; t && *t && fs->check; t++)
			staged |= !strcmp(*t, fs->check[0]);
		CHECK(staged || !fs->check);
		/* the cleaner: its program among the tools too; only nilfs2's */
		if (fs->cleaner) {
			int has = 0;
			for (const char *const *t = fs->tools; *t; t++)
				has |= !strcmp(*t, fs->cleaner[0]);
			CHECK(has);
		}
		CHECK((fs->cleaner != NULL) == !strcmp(fs->name, "nilfs2"));
		/* optional: only nilfs2, outside the default list */
		CHECK_EQ_U(fs->optional, !strcmp(fs->name, "nilfs2"));
	}
	/* the default list is the four of runner/SUITE.md; every name is known */
	CHECK_STR(fsb_fs_default_names(), "ext4,xfs,btrfs,f2fs");
	CHECK_STR(fsb_fs_names(), "ext4,xfs,btrfs,f2fs,nilfs2");
	CHECK_EQ_U(fsb_fs_index("nilfs2"), 4);
	CHECK_STR(fsb_fs_name_of_magic(0x3434), "nilfs2");

	cleaner();

	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return unit_done(argv[0]);
	CHECK_EQ_U(fsb_fs_write_table(f), 0);
	fclose(f);
	CHECK_STR(buf,
		  "ext4\tmke2fs\te2fsprogs\tcrc32c_generic,ext4\t/etc/mke2fs.conf\te4defrag,e2fsck\tdefault\n"
		  "xfs\tmkfs.xfs\txfsprogs\tcrc32c_generic,xfs\t-\txfs_repair\tdefault\n"
		  "btrfs\tmkfs.btrfs\tbtrfs-progs\tcrc32c_generic,btrfs\t-\tbtrfs\tdefault\n"
		  "f2fs\tmkfs.f2fs\tf2fs-tools\tcrc32_generic,f2fs\t-\tfsck.f2fs\tdefault\n"
		  "nilfs2\tmkfs.nilfs2\tnilfs-tools\tnilfs2\t/etc/nilfs_cleanerd.conf\tnilfs_cleanerd\toptional\n");
	/* One line per row, seven fields each. */
	size_t lines = 0, tabs = 0;
	for (const char *p = buf; p && *p; p++) {
		lines += *p == '\n';
		tabs += *p == '\t';
	}
	CHECK_EQ_U(lines, fsb_fs_count);
	CHECK_EQ_U(tabs, 6 * fsb_fs_count);
	free(buf);
	return unit_done(argv[0]);
}

/* cleaner.h: the daemon a filesystem's own mount helper would start beside
 * a read-write mount (the filesystem table's `cleaner`: nilfs2's
 * nilfs_cleanerd, which mount.nilfs2 starts and umount.nilfs2 stops). The
 * runner mounts with mount(2), so it starts the daemon itself after each
 * mount and stops it before each umount. Returns -errno; never prints. */
#ifndef FSB_CLEANER_H
#define FSB_CLEANER_H

#include <stddef.h>
#include <sys/types.h>

struct fsb_fs;

struct fsb_cleaner {
	pid_t pid;		/* 0: none running */
	char argv[384];		/* the command as run, "" when the filesystem has none */
};

/* Start fs's cleaner for the mount of dev on mnt as mount.nilfs2 does:
 * `PROGRAM ARGS... DEV MNT` (the program found in FSB_TOOL_PATH), stdin and
 * stderr on /dev/null; the program forks into the background and says the
 * daemon's pid on stdout (`NILFS_CLEANERD_PID=N`), read here. This process
 * is made a child subreaper (prctl), so the daemon becomes its child when
 * its parent exits. 0, also when fs has no cleaner (cl->pid 0); -errno
 * when it could not be started (-ENOENT: the program is not there;
 * -ECHILD: it said no pid), why saying so. */
int fsb_cleaner_start(const struct fsb_fs *fs, const char *dev, const char *mnt,
		      struct fsb_cleaner *cl, char *why, size_t len);

/* Stop it as umount.nilfs2 does: SIGTERM, then wait for it to be gone (up
 * to 10 s, then SIGKILL). 0 when it was running and is gone now, or none
 * ran; -ECHILD when it had already exited, why saying how when its status
 * was known (a phase's waitpid(-1) may have reaped it). cl->pid is 0
 * after. */
int fsb_cleaner_stop(struct fsb_cleaner *cl, char *why, size_t len);

#endif

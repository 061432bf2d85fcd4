/* cleaner.c: a filesystem's cleaner daemon beside the mount (cleaner.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/exec.h"
#include "lib/time.h"
#include "run/core/cfg.h"
#include "run/fs/cleaner.h"
#include "run/fs/fs.h"

extern char **environ;

#define PID_LINE "NILFS_CLEANERD_PID="

/* The daemon's pid from what it printed: a line PID_LINE N, read until
 * then, its stdout closed, or 10 s. 0 when it said none. */
static pid_t read_pid(int fd)
{
	char buf[512];
	size_t n = 0;
	double end = fsb_now() + 10;

	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int left = (int)((end - fsb_now()) * 1000);
		if (left <= 0 || poll(&pf, 1, left) <= 0) {
			if (left > 0 && errno == EINTR)
				continue;
			return 0;
		}
		ssize_t r = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		n += (size_t)r;
		buf[n] = 0;
		const char *p = strstr(buf, PID_LINE);
		if (p && strchr(p, '\n')) {
			long pid = strtol(p + strlen(PID_LINE), NULL, 10);
			return pid > 0 ? (pid_t)pid : 0;
		}
		if (n + 1 >= sizeof(buf))
			return 0;
	}
}

int fsb_cleaner_start(const struct fsb_fs *fs, const char *dev, const char *mnt,
		      struct fsb_cleaner *cl, char *why, size_t len)
{
	char path[FSB_PATH_MAX];
	char *argv[16];
	int n = 0, out[2], ep[2], e = 0, st;

	cl->pid = 0;
	cl->argv[0] = 0;
	if (!fs->cleaner)
		return 0;
	if (fsb_which(fs->cleaner[0], path, sizeof(path)) < 0) {
		snprintf(cl->argv, sizeof(cl->argv), "%s", fs->cleaner[0]);
		snprintf(why, len, "%s not found in %s", fs->cleaner[0], FSB_TOOL_PATH);
		return -ENOENT;
	}
	argv[n++] = path;
	for (const char *const *a = fs->cleaner + 1; *a && n < 12; a++)
		argv[n++] = (char *)*a;
	argv[n++] = (char *)dev;
	argv[n++] = (char *)mnt;
	argv[n] = NULL;
	for (int i = 0; i < n; i++) {
		size_t o = strlen(cl->argv);
		snprintf(cl->argv + o, sizeof(cl->argv) - o, "%s%s", i ? " " : "", argv[i]);
	}
	/* The daemon forks into the background (nilfs_cleanerd does, as
	 * mount.nilfs2 expects) and says its pid on stdout: with this process
	 * a subreaper, the daemon becomes its child when its parent exits, so
	 * that its end can be waited for. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (pipe2(out, O_CLOEXEC) < 0) {
		e = errno;
		snprintf(why, len, "%s: pipe: %s", fs->cleaner[0], strerror(e));
		return -e;
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		e = errno;
		close(out[0]);
		close(out[1]);
		snprintf(why, len, "%s: pipe: %s", fs->cleaner[0], strerror(e));
		return -e;
	}
	pid_t pid = fork();
	if (pid < 0) {
		e = errno;
		close(out[0]); close(out[1]); close(ep[0]); close(ep[1]);
		snprintf(why, len, "%s: fork: %s", fs->cleaner[0], strerror(e));
		return -e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(out[1], 1);
		execve(argv[0], argv, environ);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(out[1]);
	close(ep[1]);
	while (read(ep[0], &e, sizeof(e)) < 0 && errno == EINTR)
		;
	close(ep[0]);
	pid_t daemon = e ? 0 : read_pid(out[0]);
	close(out[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (e) {
		snprintf(why, len, "%s: %s", cl->argv, strerror(e));
		return -e;
	}
	if (!daemon) {
		snprintf(why, len, "%s: no " PID_LINE "N line on its stdout (exit status %d)", cl->argv,
			 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return -ECHILD;
	}
	cl->pid = daemon;
	return 0;
}

/* how a child ended, as text */
static void ended(char *why, size_t len, const char *argv, int st)
{
	if (WIFSIGNALED(st))
		snprintf(why, len, "%s had exited before the unmount: signal %d", argv, WTERMSIG(st));
	else
		snprintf(why, len, "%s had exited before the unmount: status %d", argv,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int fsb_cleaner_stop(struct fsb_cleaner *cl, char *why, size_t len)
{
	pid_t pid = cl->pid;
	int st, ours = 1;

	if (!pid)
		return 0;
	cl->pid = 0;
	pid_t r = waitpid(pid, &st, WNOHANG);
	if (r == pid) {		/* it exited on its own */
		ended(why, len, cl->argv, st);
		return -ECHILD;
	}
	if (r < 0) {
		/* not a child (reaped by a phase's waitpid(-1), or no subreaper):
		 * alive or not, by kill(pid, 0), as umount.nilfs2 tells */
		if (kill(pid, 0) < 0) {
			snprintf(why, len, "%s had exited before the unmount", cl->argv);
			return -ECHILD;
		}
		ours = 0;
	}
	kill(pid, SIGTERM);
	for (int i = 0; i < 1000; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		if (ours) {
			r = waitpid(pid, &st, WNOHANG);
			if (r == pid || (r < 0 && errno != EINTR))
				return 0;
		} else if (kill(pid, 0) < 0) {
			return 0;
		}
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (ours && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

/* cleaner.c: a filesystem's cleaner daemon beside the mount (cleaner.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/exec.h"
#include "run/core/cfg.h"
#include "run/fs/cleaner.h"
#include "run/fs/fs.h"

extern char **environ;

int fsb_cleaner_start(const struct fsb_fs *fs, const char *dev, const char *mnt,
		      struct fsb_cleaner *cl, char *why, size_t len)
{
	char path[FSB_PATH_MAX];
	char *argv[16];
	int n = 0, ep[2], e = 0;

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
	/* a pipe closed by a successful execve: the child's errno otherwise */
	if (pipe2(ep, O_CLOEXEC) < 0) {
		e = errno;
		snprintf(why, len, "%s: pipe: %s", fs->cleaner[0], strerror(e));
		return -e;
	}
	pid_t pid = fork();
	if (pid < 0) {
		e = errno;
		close(ep[0]);
		close(ep[1]);
		snprintf(why, len, "%s: fork: %s", fs->cleaner[0], strerror(e));
		return -e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		execve(argv[0], argv, environ);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(ep[1]);
	while (read(ep[0], &e, sizeof(e)) < 0 && errno == EINTR)
		;
	close(ep[0]);
	if (e) {
		waitpid(pid, NULL, 0);
		snprintf(why, len, "%s: %s", cl->argv, strerror(e));
		return -e;
	}
	cl->pid = pid;
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
	int st;

	if (!pid)
		return 0;
	cl->pid = 0;
	/* gone already: it exited on its own */
	pid_t r = waitpid(pid, &st, WNOHANG);
	if (r == pid) {
		ended(why, len, cl->argv, st);
		return -ECHILD;
	}
	if (r < 0) {
		snprintf(why, len, "%s had exited before the unmount (%s)", cl->argv, strerror(errno));
		return -ECHILD;
	}
	kill(pid, SIGTERM);
	for (int i = 0; i < 1000; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return 0;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return 0;
}

/* exec.c: fork/execve with an argv array, never a shell string. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/exec.h"
#include "lib/time.h"

extern char **environ;

int fsb_which(const char *prog, char *path, size_t len)
{
	const char *p = FSB_TOOL_PATH;
	struct stat st;

	if (strchr(prog, '/')) {
		if (stat(prog, &st) < 0 || !S_ISREG(st.st_mode) || access(prog, X_OK) < 0)
			return -ENOENT;
		snprintf(path, len, "%s", prog);
		return 0;
	}
	while (*p) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		snprintf(path, len, "%.*s/%s", (int)n, p, prog);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
			return 0;
		p += n;
		if (*p == ':')
			p++;
	}
	return -ENOENT;
}

int fsb_exec(char *const argv[], char *out, size_t outlen, unsigned timeout)
{
	int pfd[2], status, err_pipe[2];
	size_t got = 0;
	pid_t pid;
	double deadline = timeout ? fsb_now() + timeout : 0;
	int killed = 0;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		int e = errno;
		close(pfd[0]);
		close(pfd[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(pfd[0]); close(pfd[1]); close(err_pipe[0]); close(err_pipe[1]);
		return -e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0)
			dup2(null, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execve(argv[0], argv, environ);
		int e = errno;
		if (write(err_pipe[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	close(err_pipe[1]);
	for (;;) {
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
		int wait_ms = -1;
		char sink[4096];

		if (deadline) {
			double left = deadline - fsb_now();
			if (left <= 0) {
				kill(pid, SIGKILL);
				killed = 1;
				break;
			}
			wait_ms = (int)(left * 1000) + 1;
		}
		int r = poll(&pf, 1, wait_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t n;
		if (out && got + 1 < outlen)
			n = read(pfd[0], out + got, outlen - 1 - got);
		else
			n = read(pfd[0], sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && got + 1 < outlen && (void *)out != (void *)sink)
			got += (size_t)n;
	}
	if (out && outlen)
		out[got < outlen ? got : outlen - 1] = 0;
	close(pfd[0]);
	int child_err = 0;
	if (read(err_pipe[0], &child_err, sizeof(child_err)) != sizeof(child_err))
		child_err = 0;
	close(err_pipe[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (child_err)
		return -child_err;
	if (killed)
		return 128 + SIGKILL;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

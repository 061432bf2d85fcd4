/* exec.h: running helper programs with fork/execve and an argv array. */
#ifndef FSB_EXEC_H
#define FSB_EXEC_H

#include <stddef.h>

/* Where helper programs (mkfs, modprobe) are looked for. */
#define FSB_TOOL_PATH "/usr/local/sbin:/usr/sbin:/sbin:/usr/local/bin:/usr/bin:/bin"

/* Find prog in FSB_TOOL_PATH (or use it as is when it holds a '/').
 * Returns 0 and fills path, or -ENOENT. */
int fsb_which(const char *prog, char *path, size_t len);
/* Run argv (argv[0] is a path) with stdin from /dev/null; stdout and stderr
 * are captured into out (NUL-terminated, truncated to outlen) when out is
 * given, else discarded. timeout in seconds, 0 = none (the child is killed
 * when it runs over). Returns the exit status (0..255), 128 + signal when
 * killed, or -errno when the program could not be started. */
int fsb_exec(char *const argv[], char *out, size_t outlen, unsigned timeout);

#endif

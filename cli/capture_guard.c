/* capture_guard.c - keeps a captured program from outliving llctrace, however llctrace ends
 * (SIGKILL included, where it can do nothing itself): a small process in a session of its own, so
 * that a signal to llctrace's process group does not reach it, waits on a pipe whose other end
 * only llctrace holds; when that end closes, it ends what is left of the program's process group:
 * SIGTERM, then SIGKILL after the --kill-after seconds. */
#define _GNU_SOURCE /* pipe2 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

int cli_capture_guard(pid_t group, double kill_after)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	pid_t g = fork();
	if (g < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (g == 0) {
		setsid();
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		/* no descriptor of llctrace's kept open: a reader of its output sees the end when
		   llctrace ends, not when this process does */
		int null = open("/dev/null", O_RDWR);
		for (int i = 0; i < 3 && null >= 0; i++)
			dup2(null, i);
		struct rlimit rl;
		int top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536
			      ? (int)rl.rlim_cur
			      : 65536;
		for (int i = 3; i < top; i++)
			if (i != fd[0])
				close(i);
		char b;
		while (read(fd[0], &b, 1) < 0 && errno == EINTR)
			;
		if (kill(-group, 0) !=
		    0) /* the program's group ended with llctrace: nothing to do */
			_exit(0);
		kill(-group, SIGTERM);
		for (double t = 0; t < kill_after; t += 0.1) {
			usleep(100000);
			if (kill(-group, 0) != 0)
				_exit(0);
		}
		kill(-group, SIGKILL);
		_exit(0);
	}
	close(fd[0]);
	return fd[1]; /* held open until llctrace ends */
}

/* capture_rdc.c - `llctrace capture --renderdoc`: where RenderDoc is asked to write its .rdc
 * (a name beside the trace), and afterwards the .rdc moved to TRACE-stem.rdc and its event IDs
 * given to the trace's kernels by scripts/rdc_events.py (RenderDoc's own Python module). */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* TRACE without its .llct extension. */
static void stem(const char *trace, char *out, size_t size)
{
	snprintf(out, size, "%s", trace);
	size_t n = strlen(out);
	if (n > 5 && !strcmp(out + n - 5, ".llct"))
		out[n - 5] = '\0';
}

void cli_rdc_template(const char *trace, char *tmpl, size_t size)
{
	char s[PATH_MAX];
	stem(trace, s, sizeof(s));
	snprintf(tmpl, size, "%s.renderdoc-%ld", s, (long)getpid());
}

/* scripts/rdc_events.py: LLCT_SHARE_DIR, or share/ beside this program (the build tree), or
 * PREFIX/share/llctrace beside PREFIX/bin (installed). */
static int script_path(char *buf, size_t size)
{
	const char *env = getenv("LLCT_SHARE_DIR");
	char exe[PATH_MAX - 32];
	if (env && *env) {
		snprintf(buf, size, "%s/rdc_events.py", env);
		return access(buf, R_OK) == 0;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	snprintf(buf, size, "%s/share/rdc_events.py", exe);
	if (access(buf, R_OK) == 0)
		return 1;
	snprintf(buf, size, "%s/../share/llctrace/rdc_events.py", exe);
	return access(buf, R_OK) == 0;
}

int cli_rdc_finish(const char *trace, const char *tmpl, int quiet)
{
	char dir[PATH_MAX], found[2 * PATH_MAX + 2] = "", rdc[PATH_MAX + 8], s[PATH_MAX],
						 script[PATH_MAX + 32];
	const char *base;
	snprintf(dir, sizeof(dir), "%s", tmpl);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		base = slash + 1;
	} else {
		snprintf(dir, sizeof(dir), ".");
		base = tmpl;
	}
	/* RenderDoc names it TEMPLATE_capture.rdc (or _frameN); take what it wrote */
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, base, strlen(base)) && strstr(e->d_name, ".rdc"))
			snprintf(found, sizeof(found), "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	if (!found[0]) {
		cli_error(
		    "RenderDoc wrote no capture (it needs librenderdoc: apt-get install "
		    "librenderdoc, or ./setup.sh full; and did the program reach the range's last "
		    "frame and wait after it?)");
		return EXIT_FAIL;
	}
	stem(trace, s, sizeof(s));
	snprintf(rdc, sizeof(rdc), "%s.rdc", s);
	if (rename(found, rdc)) {
		cli_error("'%s': cannot move RenderDoc's capture there: %s", rdc, strerror(errno));
		return EXIT_FAIL;
	}
	/* the event IDs, with RenderDoc's Python module (Debian's python3 only); its replay must
	   not load the capture layer (it would capture the replay over the trace), nor RenderDoc */
	unsetenv("VK_INSTANCE_LAYERS");
	unsetenv("ENABLE_VULKAN_RENDERDOC_CAPTURE");
	unsetenv("LLCT_CAPTURE_OUTPUT");
	unsetenv("LLCT_CAPTURE_RENDERDOC");
	setenv("LLCT_CAPTURE_DISABLE", "1", 1);
	if (!script_path(script, sizeof(script))) {
		cli_error(
		    "'%s' written, but rdc_events.py is not beside llctrace (share/): no event "
		    "IDs in the trace",
		    rdc);
		return EXIT_FAIL;
	}
	int fds[2];
	pid_t pid;
	char out[4096] = "";
	char *argv[] = {"/usr/bin/python3", script, (char *)trace, rdc, NULL};
	posix_spawn_file_actions_t fa;
	if (pipe(fds))
		return EXIT_FAIL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		cli_error("'%s' written, but /usr/bin/python3 cannot run: %s", rdc, strerror(rc));
		return EXIT_FAIL;
	}
	/* read it all (RenderDoc's replay may print too); the summary is the last line */
	char buf[4096];
	size_t have = 0;
	ssize_t got;
	while ((got = read(fds[0], buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += (size_t)got;
		if (have == sizeof(buf) - 1) { /* keep the tail */
			memmove(buf, buf + have / 2, have - have / 2);
			have -= have / 2;
		}
	}
	buf[have] = '\0';
	while (have && buf[have - 1] == '\n')
		buf[--have] = '\0';
	const char *last = strrchr(buf, '\n');
	snprintf(out, sizeof(out), "%s", last ? last + 1 : buf);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (strstr(buf, "No module named 'renderdoc'"))
			cli_error("'%s' written, but its event IDs could not be read: RenderDoc's "
				  "Python module is missing (apt-get install python3-renderdoc, or "
				  "./setup.sh full)",
				  rdc);
		else
			cli_error("'%s' written, but its event IDs could not be read: %s", rdc,
				  out[0] ? out : "rdc_events.py failed");
		return EXIT_FAIL;
	}
	if (!quiet)
		fprintf(stderr, "RenderDoc capture '%s': %s\n", rdc, out);
	return EXIT_OK;
}

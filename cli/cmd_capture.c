/* cmd_capture.c - `llctrace capture [options] -- PROGRAM ARGS...`: runs a Vulkan program under
 * the VK_LAYER_LLCTRACE_capture layer and says where the trace went and what is in it. */
#include "cli.h"
#include "llct/trace.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The folder holding the layer's manifest: LLCT_LAYER_DIR, or `layer` beside this program
 * (the build tree's layout). */
static int layer_dir(char *buf, size_t size)
{
	const char *env = getenv("LLCT_LAYER_DIR");
	char exe[PATH_MAX], probe[PATH_MAX + 64];
	if (size < sizeof(exe) + 8)
		return 0;
	struct stat sb;
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return 1;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/layer/VkLayer_llctrace_capture.json", exe);
	if (stat(probe, &sb) != 0)
		return 0;
	memcpy(buf, exe, strlen(exe));
	memcpy(buf + strlen(exe), "/layer", 7);
	return 1;
}

static void prepend_env(const char *name, const char *value, char sep)
{
	const char *old = getenv(name);
	if (!old || !*old) {
		setenv(name, value, 1);
		return;
	}
	size_t n = strlen(old) + strlen(value) + 2;
	char *both = malloc(n);
	if (!both)
		return;
	snprintf(both, n, "%s%c%s", value, sep, old);
	setenv(name, both, 1);
	free(both);
}

int cmd_capture(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"frames", required_argument, NULL, 'f'},
					     {"frame-boundary", required_argument, NULL, 'b'},
					     {"sms", required_argument, NULL, 's'},
					     {"tier", required_argument, NULL, 't'},
					     {"exit-after", no_argument, NULL, 'x'},
					     {"renderdoc", no_argument, NULL, 'R'},
					     {"twin-lead", required_argument, NULL, 'L'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *out = NULL, *frames = NULL, *boundary = "auto";
	char dir[PATH_MAX + 16], path[PATH_MAX + 64], err[700], sms_text[24] = "", tier[4] = "";
	uint64_t v;
	int c, quiet = 0, exit_after = 0, renderdoc = 0;
	char rdc_tmpl[PATH_MAX + 64], lead[24] = "";

	opterr = 0;
	optind = 1;
	/* '+': stop at the program's name, so its own options stay its own */
	while ((c = getopt_long(argc, argv, "+:o:f:b:s:t:xqh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			frames = optarg;
			break;
		case 'b':
			boundary = optarg;
			break;
		case 's':
			if (!cli_parse_uint(optarg, 65535, &v) || !v)
				return cli_usage_error("capture", "bad --sms '%s'", optarg);
			snprintf(sms_text, sizeof(sms_text), "%llu", (unsigned long long)v);
			break;
		case 't':
			if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "3"))
				return cli_usage_error("capture", "bad --tier '%s' (1, 2 or 3)",
						       optarg);
			snprintf(tier, sizeof(tier), "%s", optarg);
			break;
		case 'q':
			quiet = 1;
			break;
		case 'R':
			renderdoc = 1;
			break;
		case 'L':
			if (strcmp(optarg, "all") && !cli_parse_uint(optarg, 1000000, &v))
				return cli_usage_error(
				    "capture", "bad --twin-lead '%s' (a number of frames or 'all')",
				    optarg);
			snprintf(lead, sizeof(lead), "%s", optarg);
			break;
		case 'x':
			exit_after = 1;
			break;
		default: {
			int r = cli_getopt_common("capture", c, argv);
			if (r >= 0)
				return r;
		}
		}
	}
	if (optind >= argc)
		return cli_usage_error("capture", "needs a program to run (after --)");
	const char *label = NULL;
	if (!strncmp(boundary, "label:", 6) && boundary[6]) {
		label = boundary + 6;
		boundary = "label";
	} else if (strcmp(boundary, "auto") && strcmp(boundary, "present") &&
		   strcmp(boundary, "submit") && strcmp(boundary, "label")) {
		return cli_usage_error(
		    "capture", "bad --frame-boundary '%s' (auto, present, submit or label:NAME)",
		    boundary);
	}
	if (frames) {
		struct llct_frame_range fr;
		if (llct_frame_range_parse(frames, &fr))
			return cli_usage_error("capture", "bad frame range '%s'", frames);
		llct_frame_range_release(&fr);
	}
	if (exit_after && (!frames || strchr(frames, '-') == frames + strlen(frames) - 1 ||
			   (strlen(frames) && frames[strlen(frames) - 1] == '-')))
		return cli_usage_error("capture", "--exit-after needs a frame range with a last "
						  "frame (e.g. -f 5-9)");
	if (renderdoc) { /* RenderDoc starts at a frame boundary and must know where to end */
		struct llct_frame_range fr;
		int parsed = frames && !llct_frame_range_parse(frames, &fr), ok = parsed;
		uint32_t first = UINT32_MAX;
		for (size_t i = 0; ok && i < fr.n; i++) {
			ok = fr.spans[i].last != UINT32_MAX;
			first = fr.spans[i].first < first ? fr.spans[i].first : first;
		}
		if (parsed)
			llct_frame_range_release(&fr);
		if (!ok || first == 0)
			return cli_usage_error("capture",
					       "--renderdoc needs --frames with a first "
					       "frame after 0 and a last frame (e.g. -f 5-9)");
	}
	if (!layer_dir(dir, sizeof(dir))) {
		cli_error("cannot find the capture layer (VkLayer_llctrace_capture.json beside "
			  "llctrace in layer/, or set LLCT_LAYER_DIR)");
		return EXIT_FAIL;
	}
	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else
		snprintf(path, sizeof(path), "llctrace-%ld.llct", (long)getpid());
	unlink(path); /* a trace left from an earlier run must not pass for this one */

	prepend_env("VK_LAYER_PATH", dir, ':');
	prepend_env("VK_INSTANCE_LAYERS", "VK_LAYER_LLCTRACE_capture", ':');
	setenv("LLCT_CAPTURE_OUTPUT", path, 1);
	setenv("LLCT_CAPTURE_FRAMES", frames ? frames : "all", 1);
	setenv("LLCT_CAPTURE_BOUNDARY", boundary, 1);
	if (label)
		setenv("LLCT_CAPTURE_LABEL", label, 1);
	if (sms_text[0])
		setenv("LLCT_CAPTURE_SMS", sms_text, 1);
	if (tier[0])
		setenv("LLCT_CAPTURE_TIER", tier, 1);
	if (exit_after)
		setenv("LLCT_CAPTURE_EXIT_AFTER", "1", 1);
	if (lead[0])
		setenv("LLCT_CAPTURE_TWIN_LEAD", lead, 1);
	if (renderdoc) { /* RenderDoc's layer, above ours, asked by ours to capture the range */
		cli_rdc_template(path, rdc_tmpl, sizeof(rdc_tmpl));
		setenv("ENABLE_VULKAN_RENDERDOC_CAPTURE", "1", 1);
		setenv("LLCT_CAPTURE_RENDERDOC", rdc_tmpl, 1);
	}
	if (!quiet)
		setenv("LLCT_CAPTURE_LOG", "1", 0);
	/* where the layer says it failed (a full disk, out of memory): read when the program ends
	 */
	char status_path[64];
	const char *tmpdir = getenv("TMPDIR");
	snprintf(status_path, sizeof(status_path), "%s/llct-capture-XXXXXX",
		 tmpdir && *tmpdir && strlen(tmpdir) < 40 ? tmpdir : "/tmp");
	int sfd = mkstemp(status_path);
	if (sfd >= 0) {
		close(sfd);
		setenv("LLCT_CAPTURE_STATUS", status_path, 1);
	}

	double t0 = cli_now();
	pid_t pid = fork();
	if (pid < 0) {
		cli_error("cannot start '%s': %s", argv[optind], strerror(errno));
		return EXIT_FAIL;
	}
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "llctrace: cannot run '%s': %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int rc = EXIT_OK;
	if (WIFSIGNALED(status)) {
		cli_error("'%s' was killed by signal %d; the trace keeps every frame completed "
			  "before",
			  argv[optind], WTERMSIG(status));
		rc = EXIT_FAIL;
	} else if (WEXITSTATUS(status)) {
		cli_error("'%s' exited with status %d", argv[optind], WEXITSTATUS(status));
		rc = EXIT_FAIL;
	}
	char failed[1024] = "";
	if (sfd >= 0) {
		FILE *f = fopen(status_path, "r");
		if (f) {
			if (!fgets(failed, sizeof(failed), f))
				failed[0] = '\0';
			failed[strcspn(failed, "\n")] = '\0';
			fclose(f);
		}
		unlink(status_path);
	}
	struct llct_reader *r;
	if (llct_reader_open(path, &r, err, sizeof(err))) {
		if (failed[0])
			cli_error("capture failed: %s; no trace was written", failed);
		else
			cli_error("no trace was written (%s); did the program use Vulkan?", err);
		return EXIT_FAIL;
	}
	if (failed[0]) {
		cli_error("capture failed: %s; '%s' keeps every frame completed before", failed,
			  path);
		rc = EXIT_FAIL;
	}
	const struct llct_frame_info *fi;
	size_t n;
	uint64_t records = 0, bytes = 0;
	llct_reader_frames(r, &fi, &n);
	for (size_t i = 0; i < n; i++)
		records += fi[i].n_records;
	llct_reader_compressed_bytes(r, &bytes);
	llct_reader_close(r);
	if (n == 0 && rc == EXIT_OK) {
		/* an empty trace is almost always a wrong boundary or range, not what was wanted */
		cli_error("'%s' holds no frame: %s", path,
			  !strcmp(boundary, "present")
			      ? "the program never presented through Vulkan (offscreen programs, "
				"Zink on Xvfb); try --frame-boundary auto, or check --frames"
			      : "no frame boundary fell in --frames; check --frames and "
				"--frame-boundary");
		rc = EXIT_FAIL;
	}
	if (renderdoc && n && cli_rdc_finish(path, rdc_tmpl, quiet))
		rc = EXIT_FAIL;
	if (!quiet)
		fprintf(stderr,
			"captured %zu frames, %llu records (%.3f bytes/record) in %.1fs: '%s'\n", n,
			(unsigned long long)records,
			records ? (double)bytes / (double)records : 0.0, cli_now() - t0, path);
	return rc;
}

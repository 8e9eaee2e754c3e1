/* cmd_capture.c - `llctrace capture [options] -- PROGRAM ARGS...`: runs a Vulkan program under
 * the VK_LAYER_LLCTRACE_capture layer and says where the trace went and what is in it. */
#include "cli.h"
#include "llct/trace.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The folder holding the layer's manifest: LLCT_LAYER_DIR; else `layer` beside this program
 * (the build tree's layout: a build-tree run prefers its own layer); else the installed layout,
 * PREFIX/share/vulkan/explicit_layer.d beside PREFIX/bin (cmake --install, the Debian package);
 * else a folder the Vulkan loader searches by itself that holds the manifest ($XDG_DATA_DIRS,
 * /usr/local/share, /usr/share, /etc). */
static int layer_dir(char *buf, size_t size)
{
	static const char *const MANIFEST = "VkLayer_llctrace_capture.json";
	const char *env = getenv("LLCT_LAYER_DIR");
	char exe[PATH_MAX], probe[PATH_MAX + 96];
	struct stat sb;
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return 1;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			static const char *const rel[] = {"/layer",
							  "/../share/vulkan/explicit_layer.d"};
			for (size_t i = 0; i < 2; i++) {
				snprintf(probe, sizeof(probe), "%s%s/%s", exe, rel[i], MANIFEST);
				if (stat(probe, &sb) == 0 &&
				    (size_t)snprintf(buf, size, "%s%s", exe, rel[i]) < size)
					return 1;
			}
		}
	}
	const char *xdg = getenv("XDG_DATA_DIRS");
	char dirs[4096];
	snprintf(dirs, sizeof(dirs), "%s:/usr/local/share:/usr/share:/etc", xdg && *xdg ? xdg : "");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(probe, sizeof(probe), "%s/vulkan/explicit_layer.d/%s", d, MANIFEST);
		if (stat(probe, &sb) == 0 &&
		    (size_t)snprintf(buf, size, "%s/vulkan/explicit_layer.d", d) < size)
			return 1;
	}
	return 0;
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

/* A signal that ends `llctrace capture` is passed on to the program's process group. */
static volatile sig_atomic_t got_signal;
static volatile pid_t child_group;

static void on_signal(int sig)
{
	got_signal = sig;
	if (child_group > 0)
		kill(-child_group, sig);
}

/* Waits for the program; once a signal came, waits at most kill_after seconds for its whole
 * process group to end, then kills the group. Returns the program's wait status. */
static int wait_program(pid_t pid, const char *name, double kill_after)
{
	int status = 0, reaped = 0, announced = 0;
	double deadline = 0;
	for (;;) {
		if (!reaped) {
			pid_t got = waitpid(pid, &status, got_signal ? WNOHANG : 0);
			if (got == pid)
				reaped = 1;
			else if (got < 0 && errno != EINTR)
				return status;
		}
		if (got_signal) { /* the group's orphans are ours (a subreaper): reap the dead */
			int st;
			pid_t got;
			while ((got = waitpid(-1, &st, WNOHANG)) > 0)
				if (got == pid) {
					status = st;
					reaped = 1;
				}
		}
		if (!got_signal) {
			if (reaped)
				return status;
			continue;
		}
		if (!announced) {
			announced = 1;
			deadline = cli_now() + kill_after;
			fprintf(stderr,
				"llctrace: got %s; passed it on to '%s' (process group %ld) and "
				"waiting up to %gs for it to end (--kill-after)\n",
				strsignal(got_signal), name, (long)pid, kill_after);
		}
		/* done when the program and every process of its group are gone */
		if (reaped && kill(-pid, 0) != 0 && errno == ESRCH)
			return status;
		if (cli_now() >= deadline) {
			fprintf(stderr,
				"llctrace: '%s' did not end within %gs of the signal: killing its "
				"process group %ld\n",
				name, kill_after, (long)pid);
			kill(-pid, SIGKILL);
			if (!reaped)
				while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
					;
			return status;
		}
		usleep(20000);
	}
}

/* A program killed while writing a frame leaves the trace's rollback journal beside it (its
 * name is the trace's plus "-journal"): roll the unfinished frame back here, under the name it
 * was written with, before the trace is renamed away from its journal. */
static void settle_journal(const char *tmp)
{
	char journal[PATH_MAX + 128];
	sqlite3 *db = NULL;
	snprintf(journal, sizeof(journal), "%s-journal", tmp);
	if (access(journal, F_OK) != 0)
		return;
	int ok =
	    sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
	    sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL) == SQLITE_OK;
	sqlite3_close(db);
	if (ok) /* rolled back, or a persisted journal with nothing to undo */
		unlink(journal);
}

/* The layer's own account of where its time went (capture.seconds.*). */
struct costs {
	double wait, expand;
	char seen[128]; /* capture.frames_seen: "N (how they were counted)", or "" */
};

/* Tier 3's draws and dispatches that were not instrumented, and why most of them were not. */
struct not_instr {
	uint64_t kernels, left;
	int lead; /* some because their command buffers were recorded before the twin lead */
};

static int count_instr(uint64_t id, uint32_t frame, const char *kind, const char *name,
		       const char *params, void *ud)
{
	struct not_instr *t = ud;
	(void)id, (void)frame, (void)name;
	if (!kind || (strcmp(kind, "draw") && strcmp(kind, "dispatch")))
		return 0;
	t->kernels++;
	if (params && (strstr(params, "\"accesses\":\"model\"") ||
		       strstr(params, "\"accesses\":\"footprint\""))) {
		t->left++;
		t->lead |= strstr(params, "LLCT_CAPTURE_TWIN_LEAD") != NULL ||
			   strstr(params, "recorded before the layer") != NULL;
	}
	return 0;
}

static int get_costs(const char *table, const char *key, const char *value, void *ud)
{
	struct costs *c = ud;
	if (!strcmp(table, "settings") && value &&
	    !strcmp(key, "capture.seconds.waiting_for_counts"))
		c->wait = atof(value);
	else if (!strcmp(table, "settings") && value && !strcmp(key, "capture.seconds.expanding"))
		c->expand = atof(value);
	else if (!strcmp(table, "settings") && value && !strcmp(key, "capture.frames_seen"))
		snprintf(c->seen, sizeof(c->seen), "%s", value);
	return 0;
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
					     {"force", no_argument, NULL, 'F'},
					     {"kill-after", required_argument, NULL, 'K'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *out = NULL, *frames = NULL, *boundary = "auto";
	int force = 0;
	double kill_after = 10;
	char dir[PATH_MAX + 16], path[PATH_MAX + 64], err[700], sms_text[24] = "", tier[4] = "";
	uint64_t v;
	int c, quiet = 0, exit_after = 0, renderdoc = 0;
	char rdc_tmpl[PATH_MAX + 64], lead[24] = "";

	opterr = 0;
	optind = 1;
	/* '+': stop at the program's name, so its own options stay its own */
	while ((c = cli_getopt(argc, argv, "+:o:f:b:s:t:xqh", opts)) != -1) {
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
		case 'F':
			force = 1;
			break;
		case 'K': {
			char *end;
			kill_after = strtod(optarg, &end);
			if (end == optarg || *end || !(kill_after >= 0 && kill_after <= 86400))
				return cli_usage_error(
				    "capture", "bad --kill-after '%s' (seconds, 0 to 86400)",
				    optarg);
			break;
		}
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
	if (out)
		snprintf(path, sizeof(path), "%s", out);
	else
		snprintf(path, sizeof(path), "llctrace-%ld.llct", (long)getpid());
	if (cli_check_output("capture", path, CLI_FILE_TRACE, force))
		return EXIT_FAIL;
	if (!layer_dir(dir, sizeof(dir))) {
		cli_error("cannot find the capture layer (VkLayer_llctrace_capture.json in layer/ "
			  "beside llctrace, in share/vulkan/explicit_layer.d of its prefix or of "
			  "$XDG_DATA_DIRS, /usr/local/share, /usr/share; or set LLCT_LAYER_DIR)");
		return EXIT_FAIL;
	}
	/* the layer writes beside the target; the trace is renamed into place once the program
	 * is gone, so a capture that writes nothing leaves an older file whole */
	char tmp[PATH_MAX + 96];
	snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", path, (long)getpid());
	unlink(tmp);

	/* VK_ADD_LAYER_PATH adds the layer's folder to the loader's search; VK_LAYER_PATH would
	 * replace the search, hiding every layer installed on the system, so one asked for beside
	 * llctrace (VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation) was silently not loaded */
	prepend_env("VK_ADD_LAYER_PATH", dir, ':');
	prepend_env("VK_INSTANCE_LAYERS", "VK_LAYER_LLCTRACE_capture", ':');
	setenv("LLCT_CAPTURE_OUTPUT", tmp, 1);
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
	cli_catch_signals(on_signal);
	/* the program's orphaned processes come to us, so that once a signal came we see them
	 * end (and are not fooled by zombies nobody reaps) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid_t pid = fork();
	if (pid < 0) {
		cli_error("cannot start '%s': %s", argv[optind], strerror(errno));
		return EXIT_FAIL;
	}
	if (pid == 0) {
		/* a process group of its own: a signal to llctrace reaches all of the program */
		setpgid(0, 0);
		cli_catch_signals(SIG_DFL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "llctrace: cannot run '%s': %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	child_group = pid;
	/* however llctrace ends from here on (a SIGKILL from `timeout -k` included), the program's
	   group does not outlive it */
	if (cli_capture_guard(pid, kill_after) < 0 && !quiet)
		fprintf(stderr,
			"llctrace: cannot start the guard that ends '%s' if llctrace is "
			"killed: %s\n",
			argv[optind], strerror(errno));
	if (got_signal) /* came between fork and here */
		kill(-pid, got_signal);
	int status = wait_program(pid, argv[optind], kill_after);
	int rc = EXIT_OK;
	if (got_signal) {
		rc = 128 + got_signal;
	} else if (WIFSIGNALED(status)) {
		cli_error("'%s' was killed by signal %d; the trace keeps every frame completed "
			  "before",
			  argv[optind], WTERMSIG(status));
		rc = EXIT_FAIL;
	} else if (WEXITSTATUS(status)) {
		cli_error("'%s' exited with status %d", argv[optind], WEXITSTATUS(status));
		rc = EXIT_FAIL;
	}
	char failed[1024] = "", named[1024 + PATH_MAX];
	if (sfd >= 0) {
		FILE *f = fopen(status_path, "r");
		if (f) {
			if (!fgets(failed, sizeof(failed), f))
				failed[0] = '\0';
			failed[strcspn(failed, "\n")] = '\0';
			/* the layer wrote to the temporary name: say the trace's own */
			char *at = strstr(failed, tmp);
			if (at) {
				snprintf(named, sizeof(named), "%.*s%s%s", (int)(at - failed),
					 failed, path, at + strlen(tmp));
				named[sizeof(failed) - 1] = '\0';
				memcpy(failed, named, strlen(named) + 1);
			}
			fclose(f);
		}
		unlink(status_path);
	}
	settle_journal(tmp);
	struct llct_reader *r;
	if (llct_reader_open(tmp, &r, err, sizeof(err))) {
		int none = access(tmp, F_OK) != 0;
		unlink(tmp);
		if (failed[0])
			cli_error("capture failed: %s; no trace was written", failed);
		else if (none)
			cli_error("no trace was written to '%s'; did the program use Vulkan?",
				  path);
		else
			cli_error("no trace was written to '%s' (%s); did the program use Vulkan?",
				  path, err);
		return got_signal ? 128 + got_signal : EXIT_FAIL;
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
	struct costs cost = {-1, -1, ""};
	llct_reader_foreach_meta(r, get_costs, &cost);
	struct not_instr ni = {0, 0, 0};
	if (!strcmp(tier, "3"))
		llct_reader_foreach_kernel(r, count_instr, &ni);
	llct_reader_close(r);
	int kept_old = n == 0 && access(path, F_OK) == 0;
	if (kept_old) {
		unlink(tmp); /* nothing captured: the older trace stays */
	} else if (rename(tmp, path) != 0) {
		cli_error("'%s': cannot rename the trace into place: %s (it is in '%s')", path,
			  strerror(errno), tmp);
		return EXIT_FAIL;
	}
	if (ni.left) /* asked for tier 3, and not everything got it: say so, and the fix */
		fprintf(stderr,
			"llctrace capture: tier 3: %llu of %llu draws and dispatches were not "
			"instrumented (their kernels rows say why: llctrace info --kernels)%s\n",
			(unsigned long long)ni.left, (unsigned long long)ni.kernels,
			ni.lead
			    ? "; most were recorded before the twin lead: a program that records "
			      "its command buffers once needs --twin-lead all"
			    : "");
	if (n == 0 && rc == EXIT_OK) {
		/* an empty trace is almost always a wrong boundary or range, not what was wanted:
		   say how many frames the layer saw and how it counted them */
		char saw[200] = "";
		const char *how = strchr(cost.seen, '(');
		int seen = atoi(cost.seen);
		how = how ? how + 1 : "";
		if (seen > 0)
			snprintf(saw, sizeof(saw),
				 " (the layer saw %d frames, 0-%d, counted at %.*s)", seen,
				 seen - 1, (int)strcspn(how, ")"), how);
		else if (cost.seen[0])
			snprintf(saw, sizeof(saw), " (the layer saw no frame end)");
		cli_error(kept_old ? "no frame was captured ('%s' is left as it was): %s%s"
				   : "'%s' holds no frame: %s%s",
			  path,
			  !strcmp(boundary, "present")
			      ? "the program never presented through Vulkan (offscreen programs, "
				"Zink on Xvfb); try --frame-boundary auto, or check --frames"
			      : "no frame boundary fell in --frames; check --frames and "
				"--frame-boundary",
			  saw);
		rc = EXIT_FAIL;
	}
	if (renderdoc && n && cli_rdc_finish(path, rdc_tmpl, quiet))
		rc = EXIT_FAIL;
	if (!quiet) {
		fprintf(stderr,
			"captured %zu frames, %llu records (%.3f bytes/record) in %.1fs: '%s'\n", n,
			(unsigned long long)records,
			records ? (double)bytes / (double)records : 0.0, cli_now() - t0, path);
		if (cost.wait >= 0 && cost.expand >= 0)
			fprintf(stderr,
				"the layer's time: %.1fs waiting for the device's counts, %.1fs "
				"expanding commands into records\n",
				cost.wait, cost.expand);
	}
	return rc;
}

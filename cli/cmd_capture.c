/* cmd_capture.c - `llctrace capture [options] -- PROGRAM ARGS...`: runs a Vulkan program under
 * the VK_LAYER_LLCTRACE_capture layer and says where the trace went and what is in it. */
#include "cli.h"
#include "llct/trace.h"
#include "opts.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stddef.h>
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
	double wait, expand, expand_cpu; /* expand_cpu: -1 when the trace has none */
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
	else if (!strcmp(table, "settings") && value &&
		 !strcmp(key, "capture.seconds.expanding_cpu"))
		c->expand_cpu = atof(value);
	else if (!strcmp(table, "settings") && value && !strcmp(key, "capture.frames_seen"))
		snprintf(c->seen, sizeof(c->seen), "%s", value);
	return 0;
}

/* What capture's options set, and what the run works out from them. */
struct capture_args {
	const char *out, *frames, *boundary, *label;
	int force, quiet, exit_after, renderdoc;
	uint32_t sms;
	double kill_after;
	char tier[4], lead[24];
	char path[PATH_MAX + 64], tmp[PATH_MAX + 96], rdc_tmpl[PATH_MAX + 64];
	char status_path[64];
	int sfd;
};

#define CA(f) offsetof(struct capture_args, f)

static int set_tier(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct capture_args *x = ctx;
	if (strcmp(arg, "1") && strcmp(arg, "2") && strcmp(arg, "3"))
		return cli_opt_bad(o, arg, "1, 2 or 3");
	snprintf(x->tier, sizeof(x->tier), "%s", arg);
	return 0;
}

static int set_lead(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct capture_args *x = ctx;
	uint64_t v;
	if (strcmp(arg, "all") && !cli_parse_uint(arg, 1000000, &v))
		return cli_opt_bad(o, arg, "a number of frames or 'all'");
	snprintf(x->lead, sizeof(x->lead), "%s", arg);
	return 0;
}

static int set_kill_after(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct capture_args *x = ctx;
	char *end;
	x->kill_after = strtod(arg, &end);
	if (end == arg || *end || !(x->kill_after >= 0 && x->kill_after <= 86400))
		return cli_opt_bad(o, arg, "seconds, 0 to 86400");
	return 0;
}

static const struct cli_opt capture_opt_list[] = {
    {"output", 'o', "FILE",
     "trace to write [llctrace-PID.llct]; written under a\n"
     "temporary name and renamed at the end; an existing\n"
     "trace is replaced, any other file only with --force\n"
     "(a results database never)",
     cli_opt_str, CA(out)},
    {"force", 0, NULL, "replace FILE even if it is not a trace", cli_opt_flag, CA(force)},
    {"frames", 'f', "RANGE", "frames to capture, e.g. 5-7,20 [all]", cli_opt_str, CA(frames)},
    {"frame-boundary", 'b', "B",
     "auto (presents once the program has made a\n"
     "swapchain, every queue submission until then and in\n"
     "programs that never make one: headless, Zink on Xvfb),\n"
     "present (vkQueuePresentKHR), submit (every\n"
     "vkQueueSubmit) or label:NAME (a debug-utils label NAME\n"
     "on a queue or in a command buffer starts each frame)\n"
     "[auto]",
     cli_opt_str, CA(boundary)},
    {"sms", 's', "N", "shader cores to spread work over [16]", cli_opt_u32, CA(sms), 1, 65535},
    {"tier", 't', "N",
     "1: footprint (where each draw lands is a guess);\n"
     "2: exact geometry (the driver's own positions of\n"
     "every primitive, rasterized by llctrace with depth,\n"
     "stencil and HiZ emulated; tier 1 where the device\n"
     "lacks transform feedback) [2];\n"
     "3: tier 2, and compute, vertex and fragment shaders\n"
     "instrumented: each buffer, storage image and texture\n"
     "access they make is recorded (docs/CAPTURE.md)",
     set_tier},
    {"twin-lead", 0, "N|all",
     "tier 3: command buffers recorded at most N frames\n"
     "before a frame to capture run the instrumented\n"
     "twins; the rest run the program's own pipelines\n"
     "at full speed (a program that records once and\n"
     "resubmits needs 'all': every recording until the\n"
     "range ends) [4]",
     set_lead},
    {"renderdoc", 0, NULL,
     "also capture the same frames with RenderDoc (librenderdoc,\n"
     "python3-renderdoc) as TRACE.rdc beside the trace, and\n"
     "give each draw, dispatch, copy, clear, resolve and\n"
     "render pass load/store row its RenderDoc event ID\n"
     "(params.rdc_eid; llctrace info --kernels lists them);\n"
     "needs -f with a first frame after 0 and a last frame",
     cli_opt_flag, CA(renderdoc)},
    {"exit-after", 'x', NULL,
     "end the program once the last frame of the range is\n"
     "written (for programs that run until closed)",
     cli_opt_flag, CA(exit_after)},
    {"kill-after", 0, "SECONDS",
     "once llctrace is sent SIGINT, SIGTERM or SIGHUP (which\n"
     "it passes on to the program's process group), wait\n"
     "this long for the program to end, then kill its\n"
     "whole process group [10]",
     set_kill_after},
    {"quiet", 'q', NULL, "no progress", cli_opt_flag, CA(quiet)},
    {NULL}};

/* '+' (in_order): options stop at the program's name, so its own options stay its own */
const struct cli_opts capture_opts = {"capture", 29, 1, capture_opt_list};

/* The options' values checked together (the boundary, the range and what needs it), and the
 * trace's path: -1 to go on, else the exit status. */
static int capture_check(struct capture_args *x, int argc)
{
	if (optind >= argc)
		return cli_usage_error("capture", "needs a program to run (after --)");
	if (!strncmp(x->boundary, "label:", 6) && x->boundary[6]) {
		x->label = x->boundary + 6;
		x->boundary = "label";
	} else if (strcmp(x->boundary, "auto") && strcmp(x->boundary, "present") &&
		   strcmp(x->boundary, "submit") && strcmp(x->boundary, "label")) {
		return cli_usage_error(
		    "capture", "bad --frame-boundary '%s' (auto, present, submit or label:NAME)",
		    x->boundary);
	}
	const char *frames = x->frames;
	if (frames) {
		struct llct_frame_range fr;
		if (llct_frame_range_parse(frames, &fr))
			return cli_usage_error("capture", "bad frame range '%s'", frames);
		llct_frame_range_release(&fr);
	}
	if (x->exit_after && (!frames || strchr(frames, '-') == frames + strlen(frames) - 1 ||
			      (strlen(frames) && frames[strlen(frames) - 1] == '-')))
		return cli_usage_error("capture", "--exit-after needs a frame range with a last "
						  "frame (e.g. -f 5-9)");
	if (x->renderdoc) { /* RenderDoc starts at a frame boundary and must know where to end */
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
	if (x->out)
		snprintf(x->path, sizeof(x->path), "%s", x->out);
	else
		snprintf(x->path, sizeof(x->path), "llctrace-%ld.llct", (long)getpid());
	if (cli_check_output("capture", x->path, CLI_FILE_TRACE, x->force))
		return EXIT_FAIL;
	return -1;
}

/* The environment the program runs in: the layer found and loaded, its settings, a file where
 * it says it failed. -1 to go on, else the exit status. */
static int capture_env(struct capture_args *x)
{
	char dir[PATH_MAX + 16];
	if (!layer_dir(dir, sizeof(dir))) {
		cli_error("cannot find the capture layer (VkLayer_llctrace_capture.json in layer/ "
			  "beside llctrace, in share/vulkan/explicit_layer.d of its prefix or of "
			  "$XDG_DATA_DIRS, /usr/local/share, /usr/share; or set LLCT_LAYER_DIR)");
		return EXIT_FAIL;
	}
	/* the layer writes beside the target; the trace is renamed into place once the program
	 * is gone, so a capture that writes nothing leaves an older file whole */
	snprintf(x->tmp, sizeof(x->tmp), "%s.tmp-%ld", x->path, (long)getpid());
	unlink(x->tmp);

	/* VK_ADD_LAYER_PATH adds the layer's folder to the loader's search; VK_LAYER_PATH would
	 * replace the search, hiding every layer installed on the system, so one asked for beside
	 * llctrace (VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation) was silently not loaded */
	prepend_env("VK_ADD_LAYER_PATH", dir, ':');
	prepend_env("VK_INSTANCE_LAYERS", "VK_LAYER_LLCTRACE_capture", ':');
	setenv("LLCT_CAPTURE_OUTPUT", x->tmp, 1);
	setenv("LLCT_CAPTURE_FRAMES", x->frames ? x->frames : "all", 1);
	setenv("LLCT_CAPTURE_BOUNDARY", x->boundary, 1);
	if (x->label)
		setenv("LLCT_CAPTURE_LABEL", x->label, 1);
	if (x->sms) {
		char sms[24];
		snprintf(sms, sizeof(sms), "%u", x->sms);
		setenv("LLCT_CAPTURE_SMS", sms, 1);
	}
	if (x->tier[0])
		setenv("LLCT_CAPTURE_TIER", x->tier, 1);
	if (x->exit_after)
		setenv("LLCT_CAPTURE_EXIT_AFTER", "1", 1);
	if (x->lead[0])
		setenv("LLCT_CAPTURE_TWIN_LEAD", x->lead, 1);
	if (x->renderdoc) { /* RenderDoc's layer, above ours, asked by ours to capture the range */
		cli_rdc_template(x->path, x->rdc_tmpl, sizeof(x->rdc_tmpl));
		setenv("ENABLE_VULKAN_RENDERDOC_CAPTURE", "1", 1);
		setenv("LLCT_CAPTURE_RENDERDOC", x->rdc_tmpl, 1);
	}
	if (!x->quiet)
		setenv("LLCT_CAPTURE_LOG", "1", 0);
	/* where the layer says it failed (a full disk, out of memory): read when the program ends
	 */
	const char *tmpdir = getenv("TMPDIR");
	snprintf(x->status_path, sizeof(x->status_path), "%s/llct-capture-XXXXXX",
		 tmpdir && *tmpdir && strlen(tmpdir) < 40 ? tmpdir : "/tmp");
	x->sfd = mkstemp(x->status_path);
	if (x->sfd >= 0) {
		close(x->sfd);
		setenv("LLCT_CAPTURE_STATUS", x->status_path, 1);
	}
	return -1;
}

/* Runs the program in a process group of its own until it ends; its ending as an exit status
 * (-1 when it could not start, said). */
static int capture_run(struct capture_args *x, char **prog)
{
	cli_catch_signals(on_signal);
	/* the program's orphaned processes come to us, so that once a signal came we see them
	 * end (and are not fooled by zombies nobody reaps) */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid_t pid = fork();
	if (pid < 0) {
		cli_error("cannot start '%s': %s", prog[0], strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* a process group of its own: a signal to llctrace reaches all of the program */
		setpgid(0, 0);
		cli_catch_signals(SIG_DFL);
		execvp(prog[0], prog);
		fprintf(stderr, "llctrace: cannot run '%s': %s\n", prog[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	child_group = pid;
	/* however llctrace ends from here on (a SIGKILL from `timeout -k` included), the program's
	   group does not outlive it */
	if (cli_capture_guard(pid, x->kill_after) < 0 && !x->quiet)
		fprintf(stderr,
			"llctrace: cannot start the guard that ends '%s' if llctrace is "
			"killed: %s\n",
			prog[0], strerror(errno));
	if (got_signal) /* came between fork and here */
		kill(-pid, got_signal);
	int status = wait_program(pid, prog[0], x->kill_after);
	if (got_signal)
		return 128 + got_signal;
	if (WIFSIGNALED(status)) {
		cli_error("'%s' was killed by signal %d; the trace keeps every frame completed "
			  "before",
			  prog[0], WTERMSIG(status));
		return EXIT_FAIL;
	}
	if (WEXITSTATUS(status)) {
		cli_error("'%s' exited with status %d", prog[0], WEXITSTATUS(status));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* What the layer said failed, if anything, naming the trace rather than its temporary file. */
static void capture_failure(struct capture_args *x, char *failed, size_t size)
{
	char named[1024 + PATH_MAX];
	failed[0] = '\0';
	if (x->sfd < 0)
		return;
	FILE *f = fopen(x->status_path, "r");
	if (f) {
		if (!fgets(failed, (int)size, f))
			failed[0] = '\0';
		failed[strcspn(failed, "\n")] = '\0';
		/* the layer wrote to the temporary name: say the trace's own */
		char *at = strstr(failed, x->tmp);
		if (at) {
			snprintf(named, sizeof(named), "%.*s%s%s", (int)(at - failed), failed,
				 x->path, at + strlen(x->tmp));
			named[size - 1] = '\0';
			memcpy(failed, named, strlen(named) + 1);
		}
		fclose(f);
	}
	unlink(x->status_path);
}

/* An empty trace is almost always a wrong boundary or range, not what was wanted: says how many
 * frames the layer saw and how it counted them. */
static void capture_said_empty(const struct capture_args *x, const struct costs *cost, int kept_old)
{
	char saw[200] = "";
	const char *how = strchr(cost->seen, '(');
	int seen = atoi(cost->seen);
	how = how ? how + 1 : "";
	if (seen > 0)
		snprintf(saw, sizeof(saw), " (the layer saw %d frames, 0-%d, counted at %.*s)",
			 seen, seen - 1, (int)strcspn(how, ")"), how);
	else if (cost->seen[0])
		snprintf(saw, sizeof(saw), " (the layer saw no frame end)");
	cli_error(kept_old ? "no frame was captured ('%s' is left as it was): %s%s"
			   : "'%s' holds no frame: %s%s",
		  x->path,
		  !strcmp(x->boundary, "present")
		      ? "the program never presented through Vulkan (offscreen programs, "
			"Zink on Xvfb); try --frame-boundary auto, or check --frames"
		      : "no frame boundary fell in --frames; check --frames and "
			"--frame-boundary",
		  saw);
}

/* After the program: the trace read back and renamed into place (or the older one kept), and
 * what it holds said. Returns the exit status, from rc (the program's). */
static int capture_finish(struct capture_args *x, int rc, double t0)
{
	char failed[1024], err[700];
	capture_failure(x, failed, sizeof(failed));
	settle_journal(x->tmp);
	struct llct_reader *r;
	if (llct_reader_open(x->tmp, &r, err, sizeof(err))) {
		int none = access(x->tmp, F_OK) != 0;
		unlink(x->tmp);
		if (failed[0])
			cli_error("capture failed: %s; no trace was written", failed);
		else if (none)
			cli_error("no trace was written to '%s'; did the program use Vulkan?",
				  x->path);
		else
			cli_error("no trace was written to '%s' (%s); did the program use Vulkan?",
				  x->path, err);
		return got_signal ? 128 + got_signal : EXIT_FAIL;
	}
	if (failed[0]) {
		cli_error("capture failed: %s; '%s' keeps every frame completed before", failed,
			  x->path);
		rc = EXIT_FAIL;
	}
	const struct llct_frame_info *fi;
	size_t n;
	uint64_t records = 0, bytes = 0;
	llct_reader_frames(r, &fi, &n);
	for (size_t i = 0; i < n; i++)
		records += fi[i].n_records;
	llct_reader_compressed_bytes(r, &bytes);
	struct costs cost = {-1, -1, -1, ""};
	llct_reader_foreach_meta(r, get_costs, &cost);
	struct not_instr ni = {0, 0, 0};
	if (!strcmp(x->tier, "3"))
		llct_reader_foreach_kernel(r, count_instr, &ni);
	llct_reader_close(r);
	int kept_old = n == 0 && access(x->path, F_OK) == 0;
	if (kept_old) {
		unlink(x->tmp); /* nothing captured: the older trace stays */
	} else if (rename(x->tmp, x->path) != 0) {
		cli_error("'%s': cannot rename the trace into place: %s (it is in '%s')", x->path,
			  strerror(errno), x->tmp);
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
		capture_said_empty(x, &cost, kept_old);
		rc = EXIT_FAIL;
	}
	if (x->renderdoc && n && cli_rdc_finish(x->path, x->rdc_tmpl, x->quiet))
		rc = EXIT_FAIL;
	if (!x->quiet) {
		fprintf(stderr,
			"captured %zu frames, %llu records (%.3f bytes/record) in %.1fs: '%s'\n", n,
			(unsigned long long)records,
			records ? (double)bytes / (double)records : 0.0, cli_now() - t0, x->path);
		char cpu[48] = "";
		if (cost.expand_cpu >= 0)
			snprintf(cpu, sizeof(cpu), " (%.1fs of CPU)", cost.expand_cpu);
		if (cost.wait >= 0 && cost.expand >= 0)
			fprintf(stderr,
				"the layer's time: %.1fs waiting for the device's counts, %.1fs "
				"expanding commands into records%s\n",
				cost.wait, cost.expand, cpu);
	}
	return rc;
}

int cmd_capture(int argc, char **argv)
{
	struct capture_args x = {.boundary = "auto", .kill_after = 10, .sfd = -1};
	int rc = cli_opts_parse(&capture_opts, argc, argv, &x);
	if (rc < 0)
		rc = capture_check(&x, argc);
	if (rc < 0)
		rc = capture_env(&x);
	if (rc >= 0)
		return rc;
	double t0 = cli_now();
	rc = capture_run(&x, argv + optind);
	if (rc < 0)
		return EXIT_FAIL;
	return capture_finish(&x, rc, t0);
}

/* cmd_report.c - `llctrace report RESULTS.db [-o report.html] [--open]`: writes the report page
 * (viewer/) of a results database and says where it is. */
#include "cli.h"
#include "opts.h"

#include "llct/report.h"
#include <stddef.h>

#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* RESULTS.db -> RESULTS.html, next to it. */
static char *default_output(const char *results)
{
	size_t n = strlen(results);
	char *out = malloc(n + 6);
	if (!out)
		return NULL;
	memcpy(out, results, n + 1);
	char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
	if (dot && (!slash || dot > slash + 1))
		*dot = '\0';
	strcat(out, ".html");
	return out;
}

/* Starts a browser on the page: $BROWSER, else xdg-open, else sensible-browser. A launcher
 * that fails within a few seconds (xdg-open with no browser behind it) counts as not
 * started; one still running then is a browser at work. Says which one opened it. */
static int open_page(const char *path)
{
	const char *cands[] = {getenv("BROWSER"), "xdg-open", "sensible-browser"};
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		pid_t pid;
		int status;
		char *argv[] = {(char *)cands[i], (char *)path, NULL};
		if (!cands[i] || !cands[i][0] ||
		    posix_spawnp(&pid, cands[i], NULL, NULL, argv, environ) != 0)
			continue;
		double until = cli_now() + 5;
		pid_t got = 0;
		while ((got = waitpid(pid, &status, WNOHANG)) == 0 && cli_now() < until)
			usleep(50000);
		if (got == pid && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
			continue; /* it ran and failed: try the next */
		fprintf(stderr, "report: opened it with %s\n", cands[i]);
		return 0;
	}
	return -1;
}

/* What report's options set. */
struct report_args {
	struct llct_report_options o;
	const char *out_arg;
	int quiet, want_open, force;
};

#define RPA(f) offsetof(struct report_args, f)

static int set_max_rows(void *ctx, const struct cli_opt *o, const char *arg)
{
	struct report_args *x = ctx;
	uint64_t v;
	if (!cli_parse_uint(arg, UINT64_C(1) << 40, &v) || !v)
		return cli_opt_bad(o, arg, NULL);
	x->o.max_frame_rows = v;
	return 0;
}

static const struct cli_opt report_opt_list[] = {
    {"output", 'o', "FILE",
     "page to write [RESULTS.html next to RESULTS.db]; an\n"
     "existing report page is replaced, any other file only\n"
     "with --force (a trace or results database never)",
     cli_opt_str, RPA(out_arg)},
    {"force", 0, NULL, "replace FILE even if it is not a report page", cli_opt_flag, RPA(force)},
    {"open", 0, NULL,
     "open it in a browser ($BROWSER, xdg-open or\n"
     "sensible-browser); exit 1 if none starts",
     cli_opt_flag, RPA(want_open)},
    {"max-frame-rows", 0, "N",
     "per-frame rows embedded at most, newest runs first\n"
     "[100000]; totals are always there",
     set_max_rows},
    {"quiet", 'q', NULL, "only the line saying where the page is", cli_opt_flag, RPA(quiet)},
    {NULL}};

const struct cli_opts report_opts = {"report", 26, 0, report_opt_list};

int cmd_report(int argc, char **argv)
{
	struct report_args x = {0};
	struct llct_report_stats s;
	char err[1024], *out = NULL;
	int rc = cli_opts_parse(&report_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	struct llct_report_options o = x.o;
	const char *out_arg = x.out_arg;
	int quiet = x.quiet, want_open = x.want_open, force = x.force;
	if (argc - optind != 1)
		return cli_usage_error("report", argc - optind ? "takes one results database"
							       : "needs a results database");
	const char *results = argv[optind];
	if (!(out = out_arg ? strdup(out_arg) : default_output(results))) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	if (cli_check_input("report", results, CLI_FILE_RESULTS) ||
	    cli_check_output("report", out, CLI_FILE_REPORT, force)) {
		free(out);
		return EXIT_FAIL;
	}
	struct timeval t0, t1;
	gettimeofday(&t0, NULL);
	if (!quiet)
		fprintf(stderr, "report: gathering the runs of '%s'...\n", results);
	if (llct_report_write(results, out, &o, &s, err, sizeof(err))) {
		cli_error("%s", err);
		free(out);
		return EXIT_FAIL;
	}
	gettimeofday(&t1, NULL);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_usec - t0.tv_usec) / 1e6;
	if (!quiet) {
		fprintf(stderr,
			"report: %llu runs (%llu latest), per-frame rows of %llu runs (%llu rows); "
			"results %.1f KiB, %.1f KiB gzip'ed; page %.1f KiB in %.2fs\n",
			(unsigned long long)s.runs, (unsigned long long)s.latest_runs,
			(unsigned long long)s.frame_runs, (unsigned long long)s.frame_rows,
			(double)s.db_bytes / 1024, (double)s.gz_bytes / 1024,
			(double)s.page_bytes / 1024, secs);
		if (s.frame_runs < s.latest_runs)
			fprintf(stderr,
				"report: %llu runs have no per-frame rows in the page (more than "
				"--max-frame-rows); their totals are there\n",
				(unsigned long long)(s.latest_runs - s.frame_runs));
	}
	printf("report written to %s (open it in a browser; it needs no network)\n", out);
	if (want_open && open_page(out)) {
		cli_error("no browser could be started ($BROWSER, xdg-open, sensible-browser); "
			  "open '%s' by hand",
			  out);
		free(out);
		return EXIT_FAIL;
	}
	free(out);
	return EXIT_OK;
}

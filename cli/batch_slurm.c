/* batch_slurm.c - `llctrace batch --slurm`: writes a Slurm job array whose tasks each run their
 * share of the grid's jobs (`llctrace batch GRID --task K --of N`) into a results shard of
 * their own, submits it with sbatch, waits, and merges the shards into the results database. */
#include "batch.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* s in single quotes for the shell. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static void write_script(FILE *f, const struct batch_slurm_options *o, const char *grid,
			 const char *out, const char *dir, size_t tasks)
{
	fprintf(f,
		"#!/bin/bash\n# llctrace batch on Slurm (written by llctrace %s): each task "
		"replays its\n"
		"# share of the grid into a shard; `llctrace merge` combines them.\n",
		LLCT_VERSION);
	fprintf(f, "#SBATCH --job-name=llctrace-batch\n#SBATCH --array=0-%zu\n", tasks - 1);
	fprintf(f, "#SBATCH --output=%s/task-%%a.log\n", dir);
	if (o->partition)
		fprintf(f, "#SBATCH --partition=%s\n", o->partition);
	if (o->time)
		fprintf(f, "#SBATCH --time=%s\n", o->time);
	if (o->mem)
		fprintf(f, "#SBATCH --mem=%s\n", o->mem);
	if (o->account)
		fprintf(f, "#SBATCH --account=%s\n", o->account);
	if (o->cpus)
		fprintf(f, "#SBATCH --cpus-per-task=%u\n", o->cpus);
	if (o->extra)
		fprintf(f, "#SBATCH %s\n", o->extra);
	fputs("exec ", f);
	put_quoted(f, o->llctrace);
	fputs(" batch ", f);
	put_quoted(f, grid);
	fprintf(f, " --task \"$SLURM_ARRAY_TASK_ID\" --of %zu --skip-done ", tasks);
	put_quoted(f, out);
	fputs(" -o ", f);
	put_quoted(f, dir);
	fputs("\"/shard-$SLURM_ARRAY_TASK_ID.db\" --threads \"${SLURM_CPUS_PER_TASK:-0}\"\n", f);
}

/* Runs argv, its standard output into buf; returns the exit status (-1: not started). */
static int run_capture(char *const argv[], char *buf, size_t size)
{
	int fds[2];
	pid_t pid;
	posix_spawn_file_actions_t fa;
	if (pipe(fds))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		errno = rc;
		return -1;
	}
	size_t n = 0;
	ssize_t got;
	while ((got = read(fds[0], buf + n, size - 1 - n)) > 0 && n + (size_t)got < size - 1)
		n += (size_t)got;
	buf[n] = '\0';
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The last lines of a task's log, for a failure message. */
static void log_tail(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], last[4][512];
	int n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		snprintf(last[n++ % 4], sizeof(last[0]), "%s", line);
	fclose(f);
	for (int i = n > 4 ? n - 4 : 0; i < n; i++)
		fprintf(stderr, "    %s", last[i % 4]);
}

int batch_slurm(struct batch_grid *g, const struct batch_plan *p,
		const struct batch_slurm_options *o)
{
	char grid[PATH_MAX], out[2 * PATH_MAX + 2], dir[2 * PATH_MAX + 80],
	    script[2 * PATH_MAX + 100], idbuf[256];
	(void)g;
	if (!p->n_jobs) {
		fprintf(stderr, "batch: nothing to do: every run of the grid is in '%s'\n", o->out);
		return EXIT_OK;
	}
	size_t tasks = o->tasks ? o->tasks : p->n_trace_groups;
	if (tasks > p->n_trace_groups && tasks > p->n_jobs)
		tasks = p->n_jobs; /* more tasks than jobs would idle */
	if (!realpath(o->grid, grid)) {
		cli_error("'%s': cannot read: %s", o->grid, strerror(errno));
		return EXIT_FAIL;
	}
	/* the results file need not exist yet: resolve its folder */
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", o->out);
	char *slash = strrchr(tmp, '/');
	const char *base = slash ? slash + 1 : tmp;
	if (slash)
		*slash = '\0';
	char folder[PATH_MAX];
	if (!realpath(slash ? (tmp[0] ? tmp : "/") : ".", folder)) {
		cli_error("'%s': no such folder", o->out);
		return EXIT_FAIL;
	}
	snprintf(out, sizeof(out), "%s/%s", folder, base);
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(dir, sizeof(dir), "%s.slurm-%s-%ld", out, stamp, (long)getpid());
	snprintf(script, sizeof(script), "%s/batch.sh", dir);
	if (o->dry_run) {
		write_script(stdout, o, grid, out, dir, tasks);
		fprintf(stderr,
			"batch: would submit %zu tasks for %zu jobs: sbatch --parsable%s %s\n",
			tasks, p->n_jobs, o->no_wait ? "" : " --wait", script);
		return EXIT_OK;
	}
	if (mkdir(dir, 0777)) {
		cli_error("'%s': cannot make the folder: %s", dir, strerror(errno));
		return EXIT_FAIL;
	}
	FILE *f = fopen(script, "w");
	if (!f) {
		cli_error("'%s': cannot write: %s", script, strerror(errno));
		return EXIT_FAIL;
	}
	write_script(f, o, grid, out, dir, tasks);
	if (fclose(f)) {
		cli_error("'%s': cannot write: %s", script, strerror(errno));
		return EXIT_FAIL;
	}
	chmod(script, 0755);
	char *argv_wait[] = {"sbatch", "--parsable", "--wait", script, NULL};
	char *argv_nowait[] = {"sbatch", "--parsable", script, NULL};
	if (!o->quiet)
		fprintf(stderr, "batch: submitting %zu Slurm tasks for %zu jobs (%s)%s\n", tasks,
			p->n_jobs, script, o->no_wait ? "" : "; waiting for them");
	int rc = run_capture(o->no_wait ? argv_nowait : argv_wait, idbuf, sizeof(idbuf));
	if (rc < 0) {
		cli_error("cannot run sbatch: %s (Slurm's client: apt-get install slurm-client, or "
			  "./setup.sh full; --dry-run prints the script)",
			  strerror(errno));
		return EXIT_FAIL;
	}
	char *semi = strpbrk(idbuf, ";\n");
	if (semi)
		*semi = '\0';
	if (!idbuf[0]) {
		cli_error("sbatch did not submit the job (exit %d): see %s", rc, dir);
		return EXIT_FAIL;
	}
	if (o->no_wait) {
		printf("submitted Slurm job %s (%zu tasks); when it ends:\n  llctrace merge "
		       "%s/shard-*.db -o %s\n",
		       idbuf, tasks, dir, out);
		return rc ? EXIT_FAIL : EXIT_OK;
	}
	/* every task has ended: merge what they wrote */
	struct llct_results *db;
	char err[1024];
	int st = rc ? EXIT_FAIL : EXIT_OK;
	uint64_t added_all = 0;
	if (llct_results_open(out, &db, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	for (size_t k = 0; k < tasks; k++) {
		char shard[2 * PATH_MAX + 128], logp[2 * PATH_MAX + 128];
		uint64_t added, present;
		snprintf(shard, sizeof(shard), "%s/shard-%zu.db", dir, k);
		snprintf(logp, sizeof(logp), "%s/task-%zu.log", dir, k);
		if (access(shard, F_OK) != 0) {
			cli_error(
			    "batch: Slurm task %zu of job %s wrote no results; its log %s ends:", k,
			    idbuf, logp);
			log_tail(logp);
			st = EXIT_FAIL;
			continue;
		}
		if (llct_results_merge(db, shard, &added, &present, err, sizeof(err))) {
			cli_error("%s", err);
			st = EXIT_FAIL;
			continue;
		}
		added_all += added;
	}
	if (rc) {
		cli_error("batch: Slurm job %s: a task failed (sbatch exit %d); logs in %s", idbuf,
			  rc, dir);
		for (size_t k = 0; k < tasks; k++) {
			char logp[2 * PATH_MAX + 128];
			snprintf(logp, sizeof(logp), "%s/task-%zu.log", dir, k);
			log_tail(logp);
		}
	}
	if (llct_results_close(db) && st == EXIT_OK)
		st = EXIT_FAIL;
	fprintf(stderr, "batch: Slurm job %s: %zu tasks ended; %llu runs merged into '%s'\n", idbuf,
		tasks, (unsigned long long)added_all, out);
	return st;
}

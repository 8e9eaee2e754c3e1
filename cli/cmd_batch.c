/* cmd_batch.c - `llctrace batch GRID -o RESULTS.db`: replays a grid of traces x policies x
 * configurations here (all cores, resumable) or as a Slurm job array (--slurm); and
 * `llctrace merge SHARDS... -o RESULTS.db`. */
#include "batch.h"
#include "cli.h"
#include "opts.h"

#include <stddef.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What batch's options set: the run here, or the Slurm job array. */
struct batch_args {
	struct batch_slurm_options so;
	struct batch_run_options ro;
	const char *skip;
	int slurm, list, task_set;
};

#define BA(f) offsetof(struct batch_args, f)

static int set_output(void *ctx, const struct cli_opt *o, const char *arg)
{
	(void)o;
	struct batch_args *x = ctx;
	x->ro.out = x->so.out = arg;
	return 0;
}

static int set_quiet(void *ctx, const struct cli_opt *o, const char *arg)
{
	(void)o, (void)arg;
	struct batch_args *x = ctx;
	x->ro.quiet = x->so.quiet = 1;
	return 0;
}

/* A count into a size_t field, within [o->lo, o->hi]. */
static int set_count(void *ctx, const struct cli_opt *o, const char *arg)
{
	uint64_t v;
	if (!cli_parse_uint(arg, o->hi, &v) || v < o->lo)
		return cli_opt_bad(o, arg, NULL);
	*(size_t *)((char *)ctx + o->field) = (size_t)v;
	if (o->field == BA(ro.task))
		((struct batch_args *)ctx)->task_set = 1;
	return 0;
}

static const struct cli_opt batch_opt_list[] = {
    {"output", 'o', "FILE",
     "results database to add to (never replaced: a file of\n"
     "another kind is refused)",
     set_output},
    {"threads", 0, "N",
     "worker threads [one per core]; as replay's, splitting\n"
     "sets when a job has more threads than models",
     cli_opt_uint, BA(ro.threads), 0, 1024},
    {"list", 0, NULL, "print every run with 'done' or 'todo' and stop", cli_opt_flag, BA(list)},
    {"quiet", 'q', NULL, "no progress or summary", set_quiet},
    {NULL, 0, NULL,
     "Slurm (a job array; each task writes a shard; they are merged into RESULTS.db):"},
    {"slurm", 0, NULL, "submit with sbatch, wait, merge", cli_opt_flag, BA(slurm)},
    {"tasks", 0, "N", "tasks [one per trace]", set_count, BA(so.tasks), 1, 100000},
    {NULL, 0, NULL, "      --partition P, --time T, --mem M, --account A, --cpus-per-task N"},
    {"partition", 0, "P", NULL, cli_opt_str, BA(so.partition)},
    {"time", 0, "T", NULL, cli_opt_str, BA(so.time)},
    {"mem", 0, "M", NULL, cli_opt_str, BA(so.mem)},
    {"account", 0, "A", NULL, cli_opt_str, BA(so.account)},
    {"cpus-per-task", 0, "N", NULL, cli_opt_uint, BA(so.cpus), 1, 4096},
    {"sbatch-arg", 0, "ARG", "one more #SBATCH line", cli_opt_str, BA(so.extra)},
    {"dry-run", 0, NULL, "print the job script; submit nothing", cli_opt_flag, BA(so.dry_run)},
    {"no-wait", 0, NULL, "submit, print the job id and the merge command, return", cli_opt_flag,
     BA(so.no_wait)},
    /* a task of the array (the line after the options says how it runs) */
    {"task", 0, "K", NULL, set_count, BA(ro.task), 0, 1000000},
    {"of", 0, "N", NULL, set_count, BA(ro.of), 1, 1000000},
    {"skip-done", 0, "RESULTS.db", NULL, cli_opt_str, BA(skip)},
    {NULL}};

const struct cli_opts batch_opts = {"batch", 25, 0, batch_opt_list};

/* Runs the grid's jobs not done yet, here or on Slurm, or lists them. */
static int batch_go(struct batch_args *x, struct batch_grid *g)
{
	struct batch_slurm_options *so = &x->so;
	struct batch_run_options *ro = &x->ro;
	struct batch_plan p;
	char err[1024], self[PATH_MAX];
	/* what is done: in the results (or this task's shard), and in --skip-done */
	if ((ro->out && batch_mark_done(g, ro->out, err, sizeof(err))) ||
	    (x->skip && batch_mark_done(g, x->skip, err, sizeof(err)))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	if (ro->out && !x->slurm && !x->list) /* each job's runs are committed when it ends */
		cli_on_interrupt(
		    "llctrace batch: interrupted; the jobs finished so far are in '%s' "
		    "(the same command again does the rest)",
		    ro->out);
	if (x->list) {
		for (size_t i = 0; i < g->n_cells; i++)
			for (size_t m = 0; m < g->cells[i].n_pol; m++)
				printf("%s\t%s\t%s\n", g->cells[i].done[m] ? "done" : "todo",
				       g->cells[i].pol[m]->name, g->cells[i].key);
		return EXIT_OK;
	}
	if (batch_plan_make(g, &p)) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	if (!ro->quiet && !ro->of) {
		size_t runs = batch_grid_runs(g), done = 0;
		for (size_t i = 0; i < g->n_cells; i++)
			for (size_t m = 0; m < g->cells[i].n_pol; m++)
				done += g->cells[i].done[m];
		fprintf(
		    stderr,
		    "batch: '%s': %zu run%s (%zu configuration%s x their policies); %zu already in "
		    "'%s'; %zu job%s to run\n",
		    g->path, runs, runs == 1 ? "" : "s", g->n_cells, g->n_cells == 1 ? "" : "s",
		    done, ro->out, p.n_jobs, p.n_jobs == 1 ? "" : "s");
	}
	int rc = EXIT_FAIL;
	if (x->slurm) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0) {
			cli_error("cannot find the llctrace program's path");
		} else {
			self[n] = '\0';
			so->llctrace = self;
			rc = batch_slurm(g, &p, so);
		}
	} else {
		rc = batch_run(g, &p, ro);
	}
	batch_plan_free(&p);
	return rc;
}

int cmd_batch(int argc, char **argv)
{
	struct batch_args x = {0};
	struct batch_slurm_options *so = &x.so;
	struct batch_run_options *ro = &x.ro;
	char err[1024];
	int rc = cli_opts_parse(&batch_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	if (argc - optind != 1)
		return cli_usage_error("batch",
				       argc - optind ? "takes one grid file" : "needs a grid file");
	if (!ro->out && !x.list)
		return cli_usage_error("batch", "needs -o RESULTS.db");
	if (x.task_set != (ro->of != 0) || (ro->of && ro->task >= ro->of))
		return cli_usage_error("batch", "--task K and --of N go together, K < N");
	if (x.slurm && ro->of)
		return cli_usage_error("batch", "--slurm submits the tasks; --task runs one");
	if (!x.slurm && (so->partition || so->time || so->mem || so->account || so->cpus ||
			 so->tasks || so->extra || so->dry_run || so->no_wait))
		return cli_usage_error("batch", "Slurm options need --slurm");
	so->grid = argv[optind];
	if ((ro->out && cli_check_output("batch", ro->out, CLI_FILE_RESULTS, 0)) ||
	    (x.skip && cli_check_input("batch", x.skip, CLI_FILE_RESULTS)))
		return EXIT_FAIL;
	struct batch_grid g;
	if (batch_grid_load(argv[optind], &g, err, sizeof(err))) {
		cli_error("%s", err);
		batch_grid_free(&g);
		return EXIT_FAIL;
	}
	rc = batch_go(&x, &g);
	batch_grid_free(&g);
	return rc;
}

/* What merge's options set. */
struct merge_args {
	const char *out;
	int quiet;
};

static const struct cli_opt merge_opt_list[] = {
    {"output", 'o', "FILE", "results database to add to (created if needed)", cli_opt_str,
     offsetof(struct merge_args, out)},
    {"quiet", 'q', NULL, "no per-shard lines", cli_opt_flag, offsetof(struct merge_args, quiet)},
    {NULL}};

const struct cli_opts merge_opts = {"merge", 21, 0, merge_opt_list};

int cmd_merge(int argc, char **argv)
{
	struct merge_args x = {0};
	char err[1024];
	int rc = cli_opts_parse(&merge_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	rc = EXIT_OK;
	const char *out = x.out;
	int quiet = x.quiet;
	if (!out)
		return cli_usage_error("merge", "needs -o RESULTS.db");
	if (optind >= argc)
		return cli_usage_error("merge", "needs results shards to merge");
	if (cli_check_output("merge", out, CLI_FILE_RESULTS, 0))
		return EXIT_FAIL;
	for (int i = optind; i < argc; i++)
		if (cli_check_input("merge", argv[i], CLI_FILE_RESULTS))
			return EXIT_FAIL;
	struct llct_results *db;
	if (llct_results_open(out, &db, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	uint64_t all = 0;
	for (int i = optind; i < argc; i++) {
		uint64_t added, present;
		if (llct_results_merge(db, argv[i], &added, &present, err, sizeof(err))) {
			cli_error("%s", err);
			rc = EXIT_FAIL;
			continue;
		}
		all += added;
		if (!quiet)
			fprintf(stderr, "merge: '%s': %llu runs added, %llu already in '%s'\n",
				argv[i], (unsigned long long)added, (unsigned long long)present,
				out);
	}
	if (llct_results_close(db) && rc == EXIT_OK) {
		cli_error("'%s': cannot close the results database", out);
		rc = EXIT_FAIL;
	}
	if (!quiet)
		fprintf(stderr, "merge: %llu runs added to '%s'\n", (unsigned long long)all, out);
	return rc;
}

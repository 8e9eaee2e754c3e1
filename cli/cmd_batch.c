/* cmd_batch.c - `llctrace batch GRID -o RESULTS.db`: replays a grid of traces x policies x
 * configurations here (all cores, resumable) or as a Slurm job array (--slurm); and
 * `llctrace merge SHARDS... -o RESULTS.db`. */
#include "batch.h"
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_batch(int argc, char **argv)
{
	enum {
		O_SLURM = 256,
		O_PART,
		O_TIME,
		O_MEM,
		O_ACCOUNT,
		O_CPUS,
		O_TASKS,
		O_SBATCH,
		O_DRY,
		O_NOWAIT,
		O_THREADS,
		O_TASK,
		O_OF,
		O_SKIP,
		O_LIST
	};
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"slurm", no_argument, NULL, O_SLURM},
					     {"partition", required_argument, NULL, O_PART},
					     {"time", required_argument, NULL, O_TIME},
					     {"mem", required_argument, NULL, O_MEM},
					     {"account", required_argument, NULL, O_ACCOUNT},
					     {"cpus-per-task", required_argument, NULL, O_CPUS},
					     {"tasks", required_argument, NULL, O_TASKS},
					     {"sbatch-arg", required_argument, NULL, O_SBATCH},
					     {"dry-run", no_argument, NULL, O_DRY},
					     {"no-wait", no_argument, NULL, O_NOWAIT},
					     {"threads", required_argument, NULL, O_THREADS},
					     {"task", required_argument, NULL, O_TASK},
					     {"of", required_argument, NULL, O_OF},
					     {"skip-done", required_argument, NULL, O_SKIP},
					     {"list", no_argument, NULL, O_LIST},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct batch_slurm_options so = {0};
	struct batch_run_options ro = {0};
	const char *skip = NULL;
	int c, slurm = 0, list = 0, task_set = 0;
	uint64_t v;
	char err[1024], self[PATH_MAX];
	opterr = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, ":o:qh", opts)) != -1) {
		switch (c) {
		case 'o':
			ro.out = so.out = optarg;
			break;
		case O_SLURM:
			slurm = 1;
			break;
		case O_PART:
			so.partition = optarg;
			break;
		case O_TIME:
			so.time = optarg;
			break;
		case O_MEM:
			so.mem = optarg;
			break;
		case O_ACCOUNT:
			so.account = optarg;
			break;
		case O_SBATCH:
			so.extra = optarg;
			break;
		case O_CPUS:
			if (!cli_parse_uint(optarg, 4096, &v) || !v)
				return cli_usage_error("batch", "bad --cpus-per-task '%s'", optarg);
			so.cpus = (unsigned)v;
			break;
		case O_TASKS:
			if (!cli_parse_uint(optarg, 100000, &v) || !v)
				return cli_usage_error("batch", "bad --tasks '%s'", optarg);
			so.tasks = (size_t)v;
			break;
		case O_DRY:
			so.dry_run = 1;
			break;
		case O_NOWAIT:
			so.no_wait = 1;
			break;
		case O_THREADS:
			if (!cli_parse_uint(optarg, 1024, &v))
				return cli_usage_error("batch", "bad --threads '%s'", optarg);
			ro.threads = (unsigned)v;
			break;
		case O_TASK:
			if (!cli_parse_uint(optarg, 1000000, &v))
				return cli_usage_error("batch", "bad --task '%s'", optarg);
			ro.task = (size_t)v;
			task_set = 1;
			break;
		case O_OF:
			if (!cli_parse_uint(optarg, 1000000, &v) || !v)
				return cli_usage_error("batch", "bad --of '%s'", optarg);
			ro.of = (size_t)v;
			break;
		case O_SKIP:
			skip = optarg;
			break;
		case O_LIST:
			list = 1;
			break;
		case 'q':
			ro.quiet = so.quiet = 1;
			break;
		default: {
			int r = cli_getopt_common("batch", c, argv);
			return r >= 0 ? r : EXIT_USAGE;
		}
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("batch",
				       argc - optind ? "takes one grid file" : "needs a grid file");
	if (!ro.out && !list)
		return cli_usage_error("batch", "needs -o RESULTS.db");
	if (task_set != (ro.of != 0) || (ro.of && ro.task >= ro.of))
		return cli_usage_error("batch", "--task K and --of N go together, K < N");
	if (slurm && ro.of)
		return cli_usage_error("batch", "--slurm submits the tasks; --task runs one");
	if (!slurm && (so.partition || so.time || so.mem || so.account || so.cpus || so.tasks ||
		       so.extra || so.dry_run || so.no_wait))
		return cli_usage_error("batch", "Slurm options need --slurm");
	so.grid = argv[optind];
	if ((ro.out && cli_check_output("batch", ro.out, CLI_FILE_RESULTS, 0)) ||
	    (skip && cli_check_input("batch", skip, CLI_FILE_RESULTS)))
		return EXIT_FAIL;
	struct batch_grid g;
	struct batch_plan p;
	if (batch_grid_load(argv[optind], &g, err, sizeof(err))) {
		cli_error("%s", err);
		batch_grid_free(&g);
		return EXIT_FAIL;
	}
	int rc = EXIT_FAIL;
	/* what is done: in the results (or this task's shard), and in --skip-done */
	if ((ro.out && batch_mark_done(&g, ro.out, err, sizeof(err))) ||
	    (skip && batch_mark_done(&g, skip, err, sizeof(err)))) {
		cli_error("%s", err);
		goto out;
	}
	if (ro.out && !slurm && !list) /* each job's runs are committed when the job ends */
		cli_on_interrupt(
		    "llctrace batch: interrupted; the jobs finished so far are in '%s' "
		    "(the same command again does the rest)",
		    ro.out);
	if (list) {
		for (size_t i = 0; i < g.n_cells; i++)
			for (size_t m = 0; m < g.cells[i].n_pol; m++)
				printf("%s\t%s\t%s\n", g.cells[i].done[m] ? "done" : "todo",
				       g.cells[i].pol[m]->name, g.cells[i].key);
		rc = EXIT_OK;
		goto out;
	}
	if (batch_plan_make(&g, &p)) {
		cli_error("out of memory");
		goto out;
	}
	if (!ro.quiet && !ro.of) {
		size_t runs = batch_grid_runs(&g), done = 0;
		for (size_t i = 0; i < g.n_cells; i++)
			for (size_t m = 0; m < g.cells[i].n_pol; m++)
				done += g.cells[i].done[m];
		fprintf(
		    stderr,
		    "batch: '%s': %zu run%s (%zu configuration%s x their policies); %zu already in "
		    "'%s'; %zu job%s to run\n",
		    g.path, runs, runs == 1 ? "" : "s", g.n_cells, g.n_cells == 1 ? "" : "s", done,
		    ro.out, p.n_jobs, p.n_jobs == 1 ? "" : "s");
	}
	if (slurm) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0) {
			cli_error("cannot find the llctrace program's path");
			batch_plan_free(&p);
			goto out;
		}
		self[n] = '\0';
		so.llctrace = self;
		rc = batch_slurm(&g, &p, &so);
	} else {
		rc = batch_run(&g, &p, &ro);
	}
	batch_plan_free(&p);
out:
	batch_grid_free(&g);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *out = NULL;
	int c, quiet = 0, rc = EXIT_OK;
	char err[1024];
	opterr = 0;
	optind = 1;
	while ((c = cli_getopt(argc, argv, ":o:qh", opts)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'q')
			quiet = 1;
		else {
			int r = cli_getopt_common("merge", c, argv);
			return r >= 0 ? r : EXIT_USAGE;
		}
	}
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

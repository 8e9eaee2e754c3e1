/* batch.h - `llctrace batch`: a grid file (INI, read with inih) of traces x policies x
 * configurations, expanded into cells, grouped into replay jobs that each decode a trace once,
 * run here or as a Slurm job array (docs/BATCH.md). */
#ifndef LLCT_CLI_BATCH_H
#define LLCT_CLI_BATCH_H

#include "replay_job.h"

#include <stddef.h>

/* One configuration of one trace (or co-run mix) and the policies to run on it; its runs are
 * the cells. `key` names it in results.db (runs.params.batch_cell) so a batch run again
 * skips what is there. */
struct batch_cell {
	size_t section; /* index of its grid section */
	char **traces;  /* absolute paths (owned by the grid) */
	size_t n_traces;
	struct llct_cache_config cache;
	struct replay_knobs k; /* simultaneous: with all of the grid's that say so together
				  (batch_grid.family) */
	int part_by_set;
	const struct llct_policy_ops *pol[REPLAY_MAX_POLICIES];
	size_t n_pol;
	char *key;
	unsigned char done[REPLAY_MAX_POLICIES]; /* run already in the results database */
};

struct batch_grid {
	char *path;
	char **sections; /* "grid NAME" or "corun NAME" as written */
	size_t n_sections;
	char **strings; /* every string the cells point to */
	size_t n_strings, cap_strings;
	char ***lists; /* the arrays of trace paths the cells point into */
	size_t n_lists;
	struct batch_cell *cells;
	size_t n_cells, cap_cells;
	size_t family; /* estimates of the sampled runs with simultaneous = yes, at most */
};

/* The most cells (trace x configuration) one grid may expand to. */
#define BATCH_MAX_CELLS 100000u
/* Reads and expands a grid file; the message names the file and line on failure. */
int batch_grid_load(const char *path, struct batch_grid *g, char *err, size_t err_size);
void batch_grid_free(struct batch_grid *g);
/* The grid file's keys, in the order BATCH.md lists them (for completion), NULL-ended. */
const char *batch_grid_key(size_t i);
/* Runs in the grid (cells x policies). */
size_t batch_grid_runs(const struct batch_grid *g);
/* Marks the runs already in the results database `db_path` (if it exists). */
int batch_mark_done(struct batch_grid *g, const char *db_path, char *err, size_t err_size);

/* The jobs that make the runs not yet done: a sweep per trace, frames, line size, UCD and
 * remaining policies for plain configurations; one job per cell otherwise. */
struct batch_job {
	size_t *cells; /* indices into g->cells */
	size_t n_cells;
	size_t trace_group; /* index of its trace (or mix) among the grid's, for Slurm tasks */
};
struct batch_plan {
	struct batch_job *jobs;
	size_t n_jobs, n_trace_groups;
};
int batch_plan_make(const struct batch_grid *g, struct batch_plan *p);
void batch_plan_free(struct batch_plan *p);

/* Runs the plan's jobs (those of Slurm task `task` of `of`; of = 0: all) into `out`.
 * Reports failed jobs and goes on; EXIT_FAIL if any failed. */
struct batch_run_options {
	const char *out;
	unsigned threads;
	int quiet;
	size_t task, of;
};
int batch_run(struct batch_grid *g, const struct batch_plan *p, const struct batch_run_options *o);

/* Slurm: writes the job array's script, submits it (unless dry_run), waits, merges. */
struct batch_slurm_options {
	const char *grid, *out, *llctrace;
	const char *partition, *time, *mem, *account, *extra; /* sbatch settings, or NULL */
	size_t tasks;                                         /* 0: one per trace */
	unsigned cpus;                                        /* per task; 0: Slurm's default */
	int dry_run, no_wait, quiet;
};
int batch_slurm(struct batch_grid *g, const struct batch_plan *p,
		const struct batch_slurm_options *o);

#endif

/* batch_run.c - what of a grid is left to do (runs already in the results database are
 * skipped), grouped into replay jobs that decode each trace once for many configurations, and
 * run here with one progress line for the whole grid; a failed job is reported and the others
 * go on. */
#define _GNU_SOURCE /* qsort_r */
#include "batch.h"
#include "cli.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A sweep holds at most this many models (each has its cache's state in memory). */
#define MAX_SWEEP_MODELS 160

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int batch_mark_done(struct batch_grid *g, const char *db_path, char *err, size_t err_size)
{
	sqlite3 *db;
	char *tmp;
	int64_t version;
	sqlite3_stmt *q;
	char **have = NULL;
	size_t n = 0, cap = 0;
	int st;
	if (access(db_path, F_OK) != 0)
		return LLCT_OK; /* nothing done yet */
	if ((st = llct_results_open_read(db_path, &db, &tmp, &version, err, err_size)))
		return st;
	/* "cell\x1fpolicy" of every run a batch made, sorted */
	if (sqlite3_prepare_v2(db,
			       "SELECT json_extract(params, '$.batch_cell') || char(31) || policy"
			       " FROM runs WHERE json_extract(params, '$.batch_cell') IS NOT NULL",
			       -1, &q, NULL) != SQLITE_OK) {
		snprintf(err, err_size, "'%s': cannot read its runs: %s", db_path,
			 sqlite3_errmsg(db));
		llct_results_close_read(db, tmp);
		return LLCT_ERR_DB;
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			char **v = realloc(have, cap * sizeof(*v));
			if (!v)
				break;
			have = v;
		}
		if (!(have[n] = strdup((const char *)sqlite3_column_text(q, 0))))
			break;
		n++;
	}
	sqlite3_finalize(q);
	llct_results_close_read(db, tmp);
	if (n)
		qsort(have, n, sizeof(*have), cmp_str);
	for (size_t i = 0; i < g->n_cells; i++) {
		struct batch_cell *c = &g->cells[i];
		for (size_t m = 0; m < c->n_pol; m++) {
			size_t len = strlen(c->key) + strlen(c->pol[m]->name) + 2;
			char *k = malloc(len), *kp = k;
			if (!k)
				continue;
			snprintf(k, len, "%s\x1f%s", c->key, c->pol[m]->name);
			c->done[m] = n && bsearch(&kp, have, n, sizeof(*have), cmp_str) != NULL;
			free(k);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(have[i]);
	free(have);
	return LLCT_OK;
}

/* Cells a and b can share a decode: same traces, frames, line size, UCD, contention, and
 * the same policies left to run. */
static int same_sweep(const struct batch_cell *a, const struct batch_cell *b)
{
	if (a->k.corun || b->k.corun || a->k.partition || b->k.partition || a->k.bypass ||
	    b->k.bypass || a->k.colors || b->k.colors)
		return 0;
	if (strcmp(a->traces[0], b->traces[0]) || (a->k.frames == NULL) != (b->k.frames == NULL) ||
	    (a->k.frames && strcmp(a->k.frames, b->k.frames)) || a->cache.line != b->cache.line ||
	    a->cache.ucd != b->cache.ucd || a->k.contention != b->k.contention ||
	    a->k.sample_sets != b->k.sample_sets || a->k.confidence != b->k.confidence ||
	    a->k.simultaneous != b->k.simultaneous || a->k.per_kernel != b->k.per_kernel ||
	    a->k.flow != b->k.flow ||
	    (a->k.contention && a->k.contention_by != b->k.contention_by) || a->n_pol != b->n_pol)
		return 0;
	for (size_t m = 0; m < a->n_pol; m++)
		if (a->pol[m] != b->pol[m] || a->done[m] != b->done[m])
			return 0;
	return 1;
}

static int left(const struct batch_cell *c)
{
	for (size_t m = 0; m < c->n_pol; m++)
		if (!c->done[m])
			return 1;
	return 0;
}

void batch_plan_free(struct batch_plan *p)
{
	for (size_t i = 0; i < p->n_jobs; i++)
		free(p->jobs[i].cells);
	free(p->jobs);
	memset(p, 0, sizeof(*p));
}

/* Orders cells so that those one sweep can run lie together (in the order same_sweep
 * compares them), each run in cell order; a cell no sweep can share stays alone. */
static int by_sweep(const void *x, const void *y, void *arg)
{
	const struct batch_cell *cells = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct batch_cell *a = &cells[i], *b = &cells[j];
	int sa = !(a->k.corun || a->k.partition || a->k.bypass || a->k.colors),
	    sb = !(b->k.corun || b->k.partition || b->k.bypass || b->k.colors), c;
#define CMP(f)                                                                                     \
	if ((a->f) != (b->f))                                                                      \
		return (a->f) < (b->f) ? -1 : 1;
	if (sa != sb)
		return sa - sb;
	if (sa) {
		if ((c = strcmp(a->traces[0], b->traces[0])))
			return c;
		if ((a->k.frames == NULL) != (b->k.frames == NULL))
			return a->k.frames ? 1 : -1;
		if (a->k.frames && (c = strcmp(a->k.frames, b->k.frames)))
			return c;
		CMP(cache.line)
		CMP(cache.ucd)
		CMP(k.contention)
		CMP(k.sample_sets)
		CMP(k.confidence)
		CMP(k.simultaneous)
		CMP(k.per_kernel)
		CMP(k.flow)
		if (a->k.contention)
			CMP(k.contention_by)
		CMP(n_pol)
		for (size_t m = 0; m < a->n_pol; m++) {
			if (a->pol[m] != b->pol[m])
				return (uintptr_t)a->pol[m] < (uintptr_t)b->pol[m] ? -1 : 1;
			CMP(done[m])
		}
	}
#undef CMP
	return i < j ? -1 : i > j;
}

static int by_first_cell(const void *x, const void *y)
{
	const struct batch_job *a = x, *b = y;
	return a->cells[0] < b->cells[0] ? -1 : a->cells[0] > b->cells[0];
}

/* Jobs: cells that share a trace, frames, line size and the rest one sweep needs, up to
 * MAX_SWEEP_MODELS models a job. Sorting makes this n log n: a grid of many cells (the fuzzer
 * found one of a few hundred thousand that took minutes when each cell looked at every
 * other). */
int batch_plan_make(const struct batch_grid *g, struct batch_plan *p)
{
	size_t *order = malloc((g->n_cells + 1) * sizeof(*order));
	const char **groups = calloc(g->n_cells + 1, sizeof(*groups));
	memset(p, 0, sizeof(*p));
	p->jobs = calloc(g->n_cells + 1, sizeof(*p->jobs));
	if (!order || !groups || !p->jobs) {
		free(order);
		free(groups);
		free(p->jobs);
		p->jobs = NULL;
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < g->n_cells; i++)
		order[i] = i;
	qsort_r(order, g->n_cells, sizeof(*order), by_sweep, g->cells);
	for (size_t i = 0; i < g->n_cells;) {
		const struct batch_cell *c = &g->cells[order[i]];
		if (!left(c)) {
			i++;
			continue;
		}
		struct batch_job *j = &p->jobs[p->n_jobs];
		size_t left_pol = 0;
		for (size_t m = 0; m < c->n_pol; m++)
			left_pol += !c->done[m];
		size_t n = 1; /* the cells this job takes: at most MAX_SWEEP_MODELS models */
		while (i + n < g->n_cells && (n + 1) * left_pol <= MAX_SWEEP_MODELS &&
		       same_sweep(c, &g->cells[order[i + n]]))
			n++;
		if (!(j->cells = malloc(n * sizeof(*j->cells)))) {
			free(order);
			free(groups);
			batch_plan_free(p);
			return LLCT_ERR_NOMEM;
		}
		while (j->n_cells < n)
			j->cells[j->n_cells++] = order[i++];
		/* the trace (or mix) it belongs to, for splitting among Slurm tasks */
		size_t t = 0;
		while (t < p->n_trace_groups && strcmp(groups[t], c->traces[0]))
			t++;
		if (t == p->n_trace_groups)
			groups[p->n_trace_groups++] = c->traces[0];
		j->trace_group = t;
		p->n_jobs++;
	}
	qsort(p->jobs, p->n_jobs, sizeof(*p->jobs), by_first_cell); /* in grid order */
	free(order);
	free(groups);
	return LLCT_OK;
}

/* Is job j task `task`'s (of `of`)? By trace when there are tasks enough, else in turn. */
static int mine(const struct batch_plan *p, size_t j, size_t task, size_t of)
{
	if (!of)
		return 1;
	if (of <= p->n_trace_groups)
		return p->jobs[j].trace_group % of == task;
	return j % of == task;
}

/* Records a job decodes (its first trace's selected frames; a co-run's all traces). */
static uint64_t job_records(const struct batch_cell *c)
{
	uint64_t n = 0;
	for (size_t t = 0; t < c->n_traces; t++) {
		struct llct_reader *r;
		struct llct_frame_range fr;
		char err[256];
		const struct llct_frame_info *fi;
		size_t nf;
		int has = c->k.frames && !llct_frame_range_parse(c->k.frames, &fr);
		if (llct_reader_open(c->traces[t], &r, err, sizeof(err)))
			continue;
		llct_reader_frames(r, &fi, &nf);
		for (size_t i = 0; i < nf; i++)
			if (!has || llct_frame_range_contains(&fr, fi[i].frame))
				n += fi[i].n_records;
		llct_reader_close(r);
		if (has)
			llct_frame_range_release(&fr);
	}
	return n;
}

struct grid_progress {
	struct cli_progress line;
	uint64_t base, models, job_total;
};

static void job_progress(void *ud, uint64_t done, uint64_t total)
{
	struct grid_progress *gp = ud;
	(void)total;
	if (done > gp->job_total)
		done = gp->job_total;
	cli_progress_update(&gp->line, gp->base + done * gp->models);
}

/* "256KiB:16:64 ucd frames=0-3" for messages. */
static void describe(const struct batch_grid *g, const struct batch_cell *c, char *buf, size_t size)
{
	size_t at = (size_t)snprintf(buf, size, "[%s] ", g->sections[c->section]);
	for (size_t t = 0; t < c->n_traces && at < size; t++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", t ? "," : "", c->traces[t]);
	if (at < size)
		snprintf(buf + at, size - at, " %llu:%u:%u%s%s%s%s%s%s%s",
			 (unsigned long long)c->cache.size, c->cache.ways, c->cache.line,
			 c->cache.hash == LLCT_HASH_XOR ? " hash=xor" : "",
			 c->cache.ucd ? " ucd" : "", c->k.frames ? " frames=" : "",
			 c->k.frames ? c->k.frames : "", c->k.partition ? " partition=" : "",
			 c->k.partition ? c->k.partition : "",
			 c->k.bypass || c->k.colors ? " ..." : "");
}

int batch_run(struct batch_grid *g, const struct batch_plan *p, const struct batch_run_options *o)
{
	struct grid_progress gp;
	uint64_t *work = calloc(p->n_jobs + 1, sizeof(*work)), total = 0;
	size_t runs_total = 0, runs_done = 0, runs_failed = 0, jobs_failed = 0, n_mine = 0;
	char err[1024];
	struct llct_results *db = NULL;
	int rc = EXIT_OK;
	double t0 = cli_now();
	if (!work) {
		cli_error("out of memory");
		return EXIT_FAIL;
	}
	for (size_t j = 0; j < p->n_jobs; j++) {
		if (!mine(p, j, o->task, o->of))
			continue;
		const struct batch_job *jb = &p->jobs[j];
		const struct batch_cell *c = &g->cells[jb->cells[0]];
		size_t left_pol = 0;
		for (size_t m = 0; m < c->n_pol; m++)
			left_pol += !c->done[m];
		work[j] = job_records(c) * left_pol * jb->n_cells;
		total += work[j];
		runs_total += left_pol * jb->n_cells;
		n_mine++;
	}
	if (!n_mine) {
		if (!o->quiet)
			fprintf(stderr, "batch: nothing to do%s\n", o->of ? " for this task" : "");
		free(work);
		return EXIT_OK;
	}
	if (llct_results_open(o->out, &db, err, sizeof(err))) {
		cli_error("%s", err);
		free(work);
		return EXIT_FAIL;
	}
	memset(&gp, 0, sizeof(gp));
	cli_progress_init(&gp.line, "model-records", total, o->quiet);
	size_t k = 0;
	for (size_t j = 0; j < p->n_jobs; j++) {
		if (!mine(p, j, o->task, o->of))
			continue;
		const struct batch_job *jb = &p->jobs[j];
		const struct batch_cell *c = &g->cells[jb->cells[0]];
		struct replay_job job;
		struct llct_cache_config *sweep = calloc(jb->n_cells, sizeof(*sweep));
		const char **keys = calloc(jb->n_cells, sizeof(*keys));
		double tj = cli_now();
		int st = EXIT_FAIL;
		k++;
		replay_job_init(&job);
		if (!sweep || !keys) {
			snprintf(err, sizeof(err), "out of memory");
			goto done;
		}
		job.traces = (const char *const *)c->traces;
		job.n_traces = c->n_traces;
		job.k = c->k;
		/* a level is a sampled run's: an unsampled one takes none */
		if (!c->k.sample_sets)
			job.k.confidence = 0, job.k.simultaneous = 0;
		job.family = c->k.sample_sets && c->k.simultaneous ? (uint32_t)g->family : 0;
		job.cache = c->cache;
		for (size_t m = 0; m < c->n_pol; m++)
			if (!c->done[m])
				job.pol[job.n_pol++] = c->pol[m];
		for (size_t i = 0; i < jb->n_cells; i++) {
			sweep[i] = g->cells[jb->cells[i]].cache;
			keys[i] = g->cells[jb->cells[i]].key;
		}
		int plain = !c->k.corun && !c->k.partition && !c->k.bypass && !c->k.colors;
		job.sweep = plain ? sweep : NULL;
		job.n_sweep = plain ? jb->n_cells : 0;
		job.batch_cells = keys;
		if (c->k.mlp)
			replay_parse_mlp(c->k.mlp, job.mlp);
		job.threads = o->threads;
		gp.models = job.n_pol * (plain ? jb->n_cells : 1);
		gp.job_total = gp.models ? work[j] / gp.models : 0;
		job.progress = job_progress;
		job.progress_ud = &gp;
		st = replay_job_prepare(&job, err, sizeof(err));
		if (st == EXIT_OK)
			st = replay_job_run(&job, db, err, sizeof(err));
	done:
		gp.base += work[j];
		cli_progress_update(&gp.line, gp.base);
		if (st == EXIT_OK) {
			runs_done += job.n_pol * jb->n_cells;
			if (!o->quiet && !gp.line.enabled)
				fprintf(stderr,
					"batch: job %zu/%zu: %s, %zu configuration%s x %zu "
					"polic%s in %.2fs\n",
					k, n_mine, c->traces[0], jb->n_cells,
					jb->n_cells == 1 ? "" : "s", job.n_pol,
					job.n_pol == 1 ? "y" : "ies", cli_now() - tj);
		} else {
			char what[600];
			describe(g, c, what, sizeof(what));
			runs_failed += job.n_pol * jb->n_cells;
			jobs_failed++;
			if (gp.line.enabled && gp.line.shown)
				fputc('\n', stderr);
			cli_error("batch: failed: %s%s (%zu configuration%s x %zu polic%s): %s",
				  what, jb->n_cells > 1 ? " and its sweep" : "", jb->n_cells,
				  jb->n_cells == 1 ? "" : "s", job.n_pol,
				  job.n_pol == 1 ? "y" : "ies", err);
			rc = EXIT_FAIL;
		}
		replay_job_release(&job);
		free(sweep);
		free(keys);
	}
	cli_progress_done(&gp.line, gp.base);
	if (llct_results_close(db) && rc == EXIT_OK) {
		cli_error("'%s': cannot close the results database", o->out);
		rc = EXIT_FAIL;
	}
	double el = cli_now() - t0;
	if (!o->quiet || rc != EXIT_OK)
		fprintf(stderr,
			"batch: %zu run%s made, %zu failed (%zu job%s), in %.2fs (%.1f runs/s); "
			"results "
			"in '%s'\n",
			runs_done, runs_done == 1 ? "" : "s", runs_failed, jobs_failed,
			jobs_failed == 1 ? "" : "s", el, el > 0 ? (double)runs_done / el : 0.0,
			o->out);
	(void)runs_total;
	free(work);
	return rc;
}

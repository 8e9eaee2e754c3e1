/* results_replay.c - writes a whole replay or co-run into the results database: run rows with
 * their params JSON (built by SQLite's json_object, so every string is escaped), per-frame
 * counters, contention, partitions, colors and tenants, in one transaction. */
#include "llct/policy.h"
#include "llct/results.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every knob that is not a column of runs. json_patch drops the keys bound to NULL, so a run
 * records only the knobs its command used. */
static const char PARAMS_SQL[] =
    "SELECT json_patch(json_object('policies_in_command', ?1, 'threads', ?2, 'cores', ?3,"
    " 'command_wall_s', round(?4, 3), 'write_policy', coalesce(?20, 'write-back write-allocate')),"
    " json_object('corun', CASE WHEN ?5 THEN json('true') END, 'tenants', ?6,"
    " 'hit_latency', ?7, 'miss_latency', ?8, 'mlp', json(?9), 'contention_by', ?10,"
    " 'partition', ?11, 'partition_by', ?12, 'bypass', ?13, 'colors', ?14,"
    " 'page_size', ?15, 'batch_cell', ?16, 'sample_sets', ?17,"
    " 'confidence', ?18, 'simultaneous_over', ?19, 'sector', ?21, 'one_pass', ?22))";

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* The params JSON of the runs of d, malloc'ed; NULL with the error recorded on failure. */
static char *params_json(struct llct_results *r, const struct llct_replay_desc *d)
{
	sqlite3 *db = llct_results_handle(r);
	sqlite3_stmt *st = NULL;
	char mlp[64 * 24] = "";
	char *out = NULL;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (d->corun && d->mlp) {
		size_t at = 0;
		mlp[at++] = '[';
		for (size_t t = 0; t < d->n_traces && at < sizeof(mlp) - 32; t++)
			at += (size_t)snprintf(mlp + at, sizeof(mlp) - at, "%s%.17g", t ? "," : "",
					       d->mlp[t]);
		snprintf(mlp + at, sizeof(mlp) - at, "]");
	}
	if (sqlite3_prepare_v2(db, PARAMS_SQL, -1, &st, NULL) != SQLITE_OK) {
		llct_results_fail(r, "cannot build the params JSON");
		return NULL;
	}
	sqlite3_bind_int64(st, 1, (sqlite3_int64)d->n_policies);
	sqlite3_bind_int64(st, 2, d->threads);
	sqlite3_bind_int64(st, 3, cores);
	sqlite3_bind_double(st, 4, d->command_wall_s);
	sqlite3_bind_int(st, 5, d->corun);
	if (d->corun) {
		sqlite3_bind_int64(st, 6, (sqlite3_int64)d->n_traces);
		sqlite3_bind_double(st, 7, d->hit_latency);
		sqlite3_bind_double(st, 8, d->miss_latency);
		if (mlp[0])
			bind_text(st, 9, mlp);
	}
	bind_text(st, 10, d->contention_by);
	bind_text(st, 11, d->partition);
	if (d->partition)
		bind_text(st, 12, d->partition_by);
	bind_text(st, 13, d->bypass);
	bind_text(st, 14, d->colors);
	if (d->colors)
		sqlite3_bind_int64(st, 15, d->page_size);
	bind_text(st, 16, d->batch_cell);
	bind_text(st, 20, d->write_policy);
	if (d->sector)
		sqlite3_bind_int64(st, 21, d->sector);
	if (d->one_pass)
		bind_text(st, 22, "lru stack distances");
	if (d->sample_sets > 1) {
		char buf[32];
		snprintf(buf, sizeof(buf), "1/%u", d->sample_sets);
		bind_text(st, 17, buf);
		sqlite3_bind_double(st, 18, d->confidence > 0 ? d->confidence : 0.99);
		if (d->family)
			sqlite3_bind_int64(st, 19, d->family);
	}
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		out = strdup((const char *)sqlite3_column_text(st, 0));
	if (!out)
		llct_results_fail(r, "cannot build the params JSON");
	sqlite3_finalize(st);
	return out;
}

/* v[0],v[1],... joined by commas, malloc'ed (a co-run's traces and ids). */
static char *join(const char *const *v, size_t n)
{
	size_t len = 1;
	for (size_t t = 0; t < n; t++)
		len += strlen(v[t]) + 1;
	char *out = malloc(len);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t t = 0; t < n; t++) {
		if (t)
			strcat(out, ",");
		strcat(out, v[t]);
	}
	return out;
}

static void class_text(const char *by, size_t k, char *buf, size_t size)
{
	if (strcmp(by, "stream") == 0)
		snprintf(buf, size, "%s", llct_stream_name((unsigned)k));
	else
		snprintf(buf, size, "%zu", k);
}

/* One policy's run with its frames, contention, partition and colors rows. */
static int add_one(struct llct_results *r, const struct llct_replay_desc *d, const char *trace,
		   const char *trace_id, const char *params, const struct llct_replay_result *res,
		   int64_t *id)
{
	struct llct_run_info ri = {
	    .trace = trace,
	    .trace_id = trace_id,
	    .trace_created = d->trace_created && d->trace_created[0] ? d->trace_created : NULL,
	    .policy = res->policy->name,
	    .llc_bytes = d->llc_bytes,
	    .ways = d->ways,
	    .line = d->line,
	    .sets = d->sets,
	    .banks = d->banks,
	    .sample_period = d->sample_period,
	    .hash = d->hash,
	    .ucd = d->ucd,
	    .frames = d->frames ? d->frames : "all",
	    .params = params,
	    .started_at = d->started_at,
	    .wall_s = res->busy_s,
	    .accesses = res->accesses,
	    .peak_state = res->peak_state,
	};
	char cls[32];
	int st;
	if ((st = llct_results_add_run(r, &ri, id)))
		return st;
	for (size_t f = 0; f < res->n_frames; f++)
		if ((st = llct_results_add_frame(r, *id, &res->frames[f])) ||
		    (st = llct_results_add_contention(r, *id, &res->frames[f])))
			return st;
	if ((st = llct_results_add_kernel_stats(r, *id, res->kstats, res->n_kstats)) ||
	    (st = llct_results_add_flow(r, *id, res->flow, res->n_flow)))
		return st;
	if (d->partition && d->partition_dynamic) {
		for (size_t i = 0; i < res->n_plog; i++) {
			const struct llct_part_log *l = &res->plog[i];
			class_text(d->partition_by, l->cls, cls, sizeof(cls));
			if ((st = llct_results_add_partition(r, *id, l->interval, l->at_access,
							     d->partition_by, cls, l->ways,
							     l->mask)))
				return st;
		}
	} else if (d->partition) { /* static, even, manual: one row per class at interval 0 */
		for (size_t k = 0; k < d->part_classes; k++) {
			if (!d->part_active[k]) /* a class that never reaches the LLC has no share
						 */
				continue;
			class_text(d->partition_by, k, cls, sizeof(cls));
			if ((st = llct_results_add_partition(r, *id, 0, 0, d->partition_by, cls,
							     d->part_ways[k], d->part_masks[k])))
				return st;
		}
	}
	for (size_t i = 0; i < res->n_est; i++)
		if ((st = llct_results_add_estimate(r, *id, &res->est[i])))
			return st;
	if (d->colors && d->tenant_colors)
		for (size_t t = 0; t < d->n_traces; t++)
			if ((st = llct_results_add_colors(
				 r, *id, (uint32_t)t, d->tenant_n_colors[t], d->tenant_colors[t])))
				return st;
	return LLCT_OK;
}

/* A run's params: the command's, with "set_shards" when its model's sets were split over
 * threads (malloc'ed; NULL when memory runs out). */
static char *run_params(const char *params, const struct llct_replay_result *res)
{
	size_t len = strlen(params);
	char *out = malloc(len + 32);
	if (!out)
		return NULL;
	if (res->set_shards > 1 && len >= 2 && params[len - 1] == '}')
		snprintf(out, len + 32, "%.*s,\"set_shards\":%u}", (int)(len - 1), params,
			 res->set_shards);
	else
		memcpy(out, params, len + 1);
	return out;
}

int llct_results_add_replay(struct llct_results *r, const struct llct_replay_desc *d,
			    const struct llct_replay_result *res, size_t n, int64_t *first_id)
{
	char *params;
	int st;
	*first_id = -1;
	if ((st = llct_results_begin(r)))
		return st;
	if (!(params = params_json(r, d)))
		return llct_results_commit(r); /* rolls back, returns the error */
	for (size_t m = 0; m < n && !st; m++) {
		int64_t id = -1;
		char *rp = run_params(params, &res[m]);
		st = rp ? add_one(r, d, d->traces[0], d->trace_ids ? d->trace_ids[0] : NULL, rp,
				  &res[m], &id)
			: LLCT_ERR_NOMEM;
		free(rp);
		if (m == 0)
			*first_id = id;
	}
	free(params);
	if (st)
		llct_results_abort(r, st, "cannot add the replay's rows");
	st = llct_results_commit(r);
	if (st)
		*first_id = -1;
	return st;
}

int llct_results_add_corun(struct llct_results *r, const struct llct_replay_desc *d,
			   const struct llct_corun_result *res, size_t n, int64_t *first_id)
{
	size_t nt = d->n_traces;
	char *params, *joined = join(d->traces, nt),
		      *ids = d->trace_ids ? join(d->trace_ids, nt) : NULL;
	int st = LLCT_OK;
	*first_id = -1;
	if (!joined || (d->trace_ids && !ids) || (st = llct_results_begin(r))) {
		free(joined);
		free(ids);
		return joined && (!d->trace_ids || ids) ? st : LLCT_ERR_NOMEM;
	}
	if (!(params = params_json(r, d))) {
		free(joined);
		free(ids);
		return llct_results_commit(r);
	}
	for (size_t m = 0; m < n && !st; m++) {
		/* the shared run is written like a single replay, then its tenants */
		const struct llct_corun_result *c = &res[m];
		struct llct_replay_result shared = {.policy = c->policy,
						    .frames = c->frames,
						    .n_frames = c->n_frames,
						    .accesses = c->accesses,
						    .busy_s = c->busy_s,
						    .peak_state = c->peak_state,
						    .plog = c->plog,
						    .n_plog = c->n_plog};
		int64_t id;
		st = add_one(r, d, joined, ids, params, &shared, &id);
		if (m == 0)
			*first_id = id;
		for (size_t k = 0; k < c->n_frames && !st; k++)
			for (size_t t = 0; t < nt && !st; t++)
				st = llct_results_add_tenant(r, id, (uint32_t)k, (uint32_t)t,
							     d->traces[t], &c->tenants[k * nt + t]);
	}
	free(params);
	free(joined);
	free(ids);
	if (st)
		llct_results_abort(r, st, "cannot add the co-run's rows");
	st = llct_results_commit(r);
	if (st)
		*first_id = -1;
	return st;
}

/* results_kernels.c - writes per-kernel counts (replay --per-kernel), pass-to-pass reuse
 * (--flow) and a copy of a trace's kernels table into the results database (schema version 7:
 * kernel_stats, trace_kernels; 8: their sector counts; 9: kernel_flow). */
#include "llct/results.h"
#include "llct/trace.h"
#include "store.h"

#include <stdio.h>
#include <string.h>

int llct_results_add_kernel_stats(struct llct_results *r, int64_t run_id,
				  const struct llct_kernel_stats *k, size_t n)
{
	sqlite3 *db = llct_results_handle(r);
	sqlite3_stmt *s = NULL;
	int st = LLCT_OK;
	if (!n)
		return LLCT_OK;
	if (sqlite3_prepare_v2(db,
			       "INSERT INTO kernel_stats(run_id, frame, kernel, stream, reads,"
			       " read_hits, writes, write_hits, fills, bypass_reads, bypass_writes,"
			       " writebacks, evicted, sector_fills, writeback_sectors)"
			       " VALUES(?,?,?,?,?,?,?,?,?,?,?,?, nullif(?13, '{}'), ?14, ?15)",
			       -1, &s, NULL) != SQLITE_OK)
		return llct_results_fail(r, "cannot prepare the kernel_stats rows");
	for (size_t i = 0; i < n && !st; i++) {
		const struct llct_kernel_stats *x = &k[i];
		char evicted[LLCT_N_STREAMS * 32] = "{";
		size_t at = 1;
		for (unsigned v = 0; v < LLCT_N_STREAMS; v++)
			if (x->evicted[v])
				at += (size_t)snprintf(evicted + at, sizeof(evicted) - at,
						       "%s\"%s\":%llu", at > 1 ? "," : "",
						       llct_stream_name(v),
						       (unsigned long long)x->evicted[v]);
		snprintf(evicted + at, sizeof(evicted) - at, "}");
		const uint64_t v[] = {x->reads, x->read_hits,    x->writes,        x->write_hits,
				      x->fills, x->bypass_reads, x->bypass_writes, x->writebacks};
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int64(s, 2, x->frame);
		sqlite3_bind_int64(s, 3, x->kernel);
		sqlite3_bind_text(s, 4, llct_stream_name(x->stream), -1, SQLITE_STATIC);
		for (int c = 0; c < 8; c++)
			sqlite3_bind_int64(s, 5 + c, (sqlite3_int64)v[c]);
		sqlite3_bind_text(s, 13, evicted, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 14, (sqlite3_int64)x->sector_fills);
		sqlite3_bind_int64(s, 15, (sqlite3_int64)x->writeback_sectors);
		if (sqlite3_step(s) != SQLITE_DONE)
			st = llct_results_fail(r, "cannot add a kernel_stats row");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return st;
}

int llct_results_add_flow(struct llct_results *r, int64_t run_id, const struct llct_flow_row *f,
			  size_t n)
{
	sqlite3 *db = llct_results_handle(r);
	sqlite3_stmt *s = NULL;
	int st = LLCT_OK;
	if (!n)
		return LLCT_OK;
	if (sqlite3_prepare_v2(
		db,
		"INSERT INTO kernel_flow(run_id, frame, producer, consumer, from_stream,"
		" to_stream, reads, hits) VALUES(?,?,?,?,?,?,?,?)",
		-1, &s, NULL) != SQLITE_OK)
		return llct_results_fail(r, "cannot prepare the kernel_flow rows");
	for (size_t i = 0; i < n && !st; i++) {
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int64(s, 2, f[i].frame);
		sqlite3_bind_int64(s, 3, f[i].producer);
		sqlite3_bind_int64(s, 4, f[i].consumer);
		sqlite3_bind_text(s, 5, llct_stream_name(f[i].from_stream), -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 6, llct_stream_name(f[i].to_stream), -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 7, (sqlite3_int64)f[i].reads);
		sqlite3_bind_int64(s, 8, (sqlite3_int64)f[i].hits);
		if (sqlite3_step(s) != SQLITE_DONE)
			st = llct_results_fail(r, "cannot add a kernel_flow row");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return st;
}

struct copy {
	struct llct_results *r;
	sqlite3_stmt *s;
	const char *trace_id;
	int st;
};

static int copy_kernel(uint64_t id, uint32_t frame, const char *kind, const char *name,
		       const char *params, void *ud)
{
	struct copy *c = ud;
	sqlite3_bind_text(c->s, 1, c->trace_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(c->s, 2, (sqlite3_int64)id);
	sqlite3_bind_int64(c->s, 3, frame);
	sqlite3_bind_text(c->s, 4, kind, -1, SQLITE_TRANSIENT);
	if (name)
		sqlite3_bind_text(c->s, 5, name, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(c->s, 5);
	if (params)
		sqlite3_bind_text(c->s, 6, params, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(c->s, 6);
	if (sqlite3_step(c->s) != SQLITE_DONE)
		c->st = llct_results_fail(c->r, "cannot copy the trace's kernels");
	sqlite3_reset(c->s);
	return c->st != LLCT_OK;
}

int llct_results_add_trace_kernels(struct llct_results *r, struct llct_reader *t,
				   const char *trace_id)
{
	sqlite3 *db = llct_results_handle(r);
	sqlite3_stmt *q = NULL;
	int have = 0;
	/* once per trace: a trace's kernels do not change */
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM trace_kernels WHERE trace_id = ? LIMIT 1", -1, &q,
			       NULL) != SQLITE_OK)
		return llct_results_fail(r, "cannot read trace_kernels");
	sqlite3_bind_text(q, 1, trace_id, -1, SQLITE_STATIC);
	have = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	if (have)
		return LLCT_OK;
	struct copy c = {r, NULL, trace_id, LLCT_OK};
	if (sqlite3_prepare_v2(db,
			       "INSERT OR IGNORE INTO trace_kernels VALUES(?1, ?2, ?3, ?4, ?5, ?6,"
			       " CASE WHEN json_valid(?6) THEN json_extract(?6, '$.rdc_eid') END)",
			       -1, &c.s, NULL) != SQLITE_OK)
		return llct_results_fail(r, "cannot prepare the trace_kernels rows");
	if (llct_reader_foreach_kernel(t, copy_kernel, &c) && !c.st)
		c.st = llct_results_fail(r, "cannot read the trace's kernels");
	sqlite3_finalize(c.s);
	return c.st;
}

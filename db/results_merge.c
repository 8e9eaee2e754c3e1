/* results_merge.c - adds the runs of another results database (a batch shard) to this one:
 * every run whose uid is not here yet, with all its rows, run ids renumbered, in one
 * transaction; merging the same shard again adds nothing. */
#include "llct/results.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tables that hang off runs, copied with run_id renumbered (column lists after run_id). */
static const struct {
	const char *table, *cols;
} CHILDREN[] = {
    {"stream_stats", "frame, stream, reads, read_hits, writes, write_hits, fills, evictions,"
		     " writebacks, bypasses, bypass_writes, sector_fills, writeback_sectors"},
    {"rt_tex", "frame, produced, consumed, z_produced, z_consumed"},
    {"epochs", "frame, stream, epoch, entered, hits"},
    {"tenants", "frame, tenant, trace, accesses, misses, misses_alone, time_shared, time_alone,"
		" misses_alone_part, time_alone_part"},
    {"contention", "frame, owner_by, victim, aggressor, gdc_demotions, plob_evictions,"
		   " misses_ascribed_gdc, misses_ascribed_plob"},
    {"partitions", "interval, at_access, class_by, class, ways, way_mask"},
    {"colors", "tenant, n_colors, colors"},
    {"estimates", "stream, metric, estimate, half_width, groups, std_error, dof, level"},
    {"kernel_stats", "frame, kernel, stream, reads, read_hits, writes, write_hits, fills,"
		     " bypass_reads, bypass_writes, writebacks, evicted, sector_fills,"
		     " writeback_sectors"},
    {"kernel_flow", "frame, producer, consumer, from_stream, to_stream, reads, hits"},
};

#define RUN_COLS                                                                                   \
	"trace, trace_created, policy, llc_bytes, ways, line, sets, banks, sample_period, hash,"   \
	" ucd, frames, params, tool_version, started_at, wall_s, accesses, accesses_per_s,"        \
	" peak_state_bytes, trace_id, uid"

static int run(sqlite3 *db, const char *sql, const char *shard, const char *what, char *err,
	       size_t err_size)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return LLCT_OK;
	return llct_db_msg(err, err_size, llct_db_status(sqlite3_errcode(db)) ?: LLCT_ERR_DB,
			   "'%s': cannot %s: %s", shard, what, sqlite3_errmsg(db));
}

int llct_results_merge(struct llct_results *r, const char *shard, uint64_t *added,
		       uint64_t *present, char *err, size_t err_size)
{
	sqlite3 *src = NULL, *db = llct_results_handle(r);
	char *tmp = NULL, *sql = NULL;
	int64_t version;
	int st, attached = 0, began = 0;
	*added = *present = 0;
	/* checks the shard (foreign and newer files refused; older ones upgraded in a copy) */
	if ((st = llct_results_open_read(shard, &src, &tmp, &version, err, err_size)))
		return st;
	const char *file = sqlite3_db_filename(src, "main");
	if (!file || !*file) {
		st = llct_db_msg(err, err_size, LLCT_ERR_IO, "'%s': cannot merge", shard);
		goto out;
	}
	const char *here = sqlite3_db_filename(db, "main");
	if (here && !strcmp(here, file)) {
		st = llct_db_msg(err, err_size, LLCT_ERR_INVALID,
				 "'%s': is the results database being merged into", shard);
		goto out;
	}
	sql = sqlite3_mprintf("ATTACH %Q AS shard", file);
	if (!sql || (st = run(db, sql, shard, "attach it", err, err_size)))
		goto out;
	attached = 1;
	if ((st = run(db, "BEGIN IMMEDIATE", shard, "begin", err, err_size)))
		goto out;
	began = 1;
	if ((st = run(db,
		      "CREATE TEMP TABLE merge_ids(old INTEGER PRIMARY KEY, new INTEGER);"
		      "INSERT INTO merge_ids SELECT s.id, coalesce((SELECT max(id) FROM main.runs),"
		      " 0) + row_number() OVER (ORDER BY s.id) FROM shard.runs s"
		      " WHERE s.uid NOT IN (SELECT uid FROM main.runs WHERE uid IS NOT NULL);"
		      "INSERT INTO main.runs(id, " RUN_COLS ") SELECT m.new, " RUN_COLS
		      " FROM shard.runs s JOIN merge_ids m ON m.old = s.id ORDER BY m.new;",
		      shard, "add its runs", err, err_size)))
		goto out;
	for (size_t i = 0; i < sizeof(CHILDREN) / sizeof(CHILDREN[0]); i++) {
		sqlite3_free(sql);
		sql = sqlite3_mprintf("INSERT INTO main.%s SELECT m.new, %s FROM shard.%s x"
				      " JOIN merge_ids m ON m.old = x.run_id",
				      CHILDREN[i].table, CHILDREN[i].cols, CHILDREN[i].table);
		if (!sql || (st = run(db, sql, shard, "add its rows", err, err_size)))
			goto out;
	}
	/* the traces' kernels, once per trace */
	if ((st = run(db,
		      "INSERT OR IGNORE INTO main.trace_kernels SELECT * FROM shard.trace_kernels",
		      shard, "add its trace kernels", err, err_size)))
		goto out;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(db,
			       "SELECT (SELECT count(*) FROM temp.merge_ids),"
			       " (SELECT count(*) FROM shard.runs)",
			       -1, &q, NULL) == SQLITE_OK) {
		if (sqlite3_step(q) == SQLITE_ROW) {
			*added = (uint64_t)sqlite3_column_int64(q, 0);
			*present = (uint64_t)sqlite3_column_int64(q, 1) - *added;
		}
		sqlite3_finalize(q);
	}
	if ((st = run(db, "DROP TABLE temp.merge_ids; COMMIT", shard, "commit", err, err_size)))
		goto out;
	began = 0;
out:
	if (began) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_exec(db, "DROP TABLE IF EXISTS temp.merge_ids", NULL, NULL, NULL);
	}
	if (attached)
		sqlite3_exec(db, "DETACH shard", NULL, NULL, NULL);
	sqlite3_free(sql);
	llct_results_close_read(src, tmp);
	return st;
}

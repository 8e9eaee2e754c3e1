/* test_results.c - the results database as db/ writes it: a whole replay and co-run through
 * llct_results_add_replay/_corun (params JSON escaped by SQLite, partitions, colors, tenants),
 * all-or-nothing on failure, version upgrades from 1 and 2, and the version-3 views (configs,
 * DRRIP baselines, per-frame savings, miss curves) on hand-made numbers. */
#include "../../db/store.h"
#include "check.h"
#include "llct/policy.h"
#include "llct/results.h"

#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static long long q_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -999;
	sqlite3_open(path, &db);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1
								      : sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	} else {
		fprintf(stderr, "query failed: %s: %s\n", sql, sqlite3_errmsg(db));
	}
	sqlite3_close(db);
	return v;
}

static void q_text(const char *path, const char *sql, char *out, size_t size)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	out[0] = '\0';
	sqlite3_open(path, &db);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(out, size, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	} else {
		fprintf(stderr, "query failed: %s: %s\n", sql, sqlite3_errmsg(db));
	}
	sqlite3_close(db);
}

/* Two frames whose TEX misses are m0 and m1 of 100 reads each. */
static void frames(struct llct_frame_stats *fs, uint64_t m0, uint64_t m1)
{
	memset(fs, 0, 2 * sizeof(*fs));
	for (int f = 0; f < 2; f++) {
		fs[f].frame = (uint32_t)f;
		fs[f].s[LLCT_STREAM_TEX].reads = 100;
		fs[f].s[LLCT_STREAM_TEX].read_hits = 100 - (f ? m1 : m0);
		fs[f].s[LLCT_STREAM_Z].writes = 10; /* write misses: 10 a frame */
	}
}

static struct llct_replay_desc desc(const char *const *traces, size_t n, uint64_t size)
{
	struct llct_replay_desc d = {
	    .traces = traces,
	    .n_traces = n,
	    .trace_created = "2026-01-01T00:00:00Z",
	    .started_at = "2026-01-02T00:00:00Z",
	    .llc_bytes = size,
	    .ways = 16,
	    .line = 64,
	    .sets = (uint32_t)(size / 64 / 16),
	    .banks = 4,
	    .sample_period = 64,
	    .hash = "mod",
	    .n_policies = 2,
	    .threads = 1,
	    .command_wall_s = 0.5,
	};
	return d;
}

static void test_add_replay(const char *path)
{
	const char *traces[] = {"t.llct"};
	struct llct_frame_stats f_lru[2], f_drrip[2], f_big[2];
	struct llct_results *r;
	char err[600], s[512];
	int64_t first;
	const struct llct_policy_ops *lru = llct_policy_find("lru"),
				     *drrip = llct_policy_find("drrip");
	frames(f_lru, 40, 20);
	frames(f_drrip, 50, 40);
	struct llct_replay_result res[2] = {{.policy = lru,
					     .frames = f_lru,
					     .n_frames = 2,
					     .accesses = 220,
					     .busy_s = 0.1,
					     .peak_state = 1000},
					    {.policy = drrip,
					     .frames = f_drrip,
					     .n_frames = 2,
					     .accesses = 220,
					     .busy_s = 0.2,
					     .peak_state = 2000}};
	struct llct_replay_desc d = desc(traces, 1, 1 << 20);
	CHECK_EQ(llct_results_open(path, &r, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_results_add_replay(r, &d, res, 2, &first), LLCT_OK);
	CHECK_EQ(first, 1);
	/* a bigger LLC: one more point on the miss curve, with fewer misses */
	frames(f_big, 10, 10);
	struct llct_replay_result big = {.policy = lru,
					 .frames = f_big,
					 .n_frames = 2,
					 .accesses = 220,
					 .busy_s = 0.1,
					 .peak_state = 1000};
	d = desc(traces, 1, 4 << 20);
	d.n_policies = 1;
	CHECK_EQ(llct_results_add_replay(r, &d, &big, 1, &first), LLCT_OK);
	CHECK_EQ(first, 3);
	/* a partitioned DRRIP run with a hostile spec: escaped, and no baseline for others */
	uint32_t ways[LLCT_N_STREAMS] = {0};
	uint64_t masks[LLCT_N_STREAMS] = {0};
	int active[LLCT_N_STREAMS] = {0};
	ways[LLCT_STREAM_TEX] = 12;
	masks[LLCT_STREAM_TEX] = 0xfff;
	active[LLCT_STREAM_TEX] = 1;
	ways[LLCT_STREAM_Z] = 4;
	masks[LLCT_STREAM_Z] = 0xf000;
	active[LLCT_STREAM_Z] = 1;
	d = desc(traces, 1, 1 << 20);
	d.partition = "ways:\"TEX\"=12,\\Z=4";
	d.partition_by = "stream";
	d.part_ways = ways;
	d.part_masks = masks;
	d.part_active = active;
	d.part_classes = LLCT_N_STREAMS;
	struct llct_replay_result part = {.policy = drrip,
					  .frames = f_big,
					  .n_frames = 2,
					  .accesses = 220,
					  .busy_s = 0.1,
					  .peak_state = 1000};
	CHECK_EQ(llct_results_add_replay(r, &d, &part, 1, &first), LLCT_OK);
	CHECK_EQ(first, 4);
	/* a failing write (frame numbers repeat: the primary key) leaves nothing behind */
	struct llct_frame_stats dup[2];
	frames(dup, 1, 1);
	dup[1].frame = 0;
	struct llct_replay_result bad[2] = {res[0], res[1]}; /* the second with dup's frames */
	bad[1].frames = dup;
	d = desc(traces, 1, 2 << 20);
	CHECK(llct_results_add_replay(r, &d, bad, 2, &first) != LLCT_OK);
	CHECK_EQ(first, -1);
	CHECK(strstr(llct_results_error(r), "r.db'") != NULL);
	CHECK_EQ(llct_results_close(r) != LLCT_OK, 1); /* the first error is kept */
	CHECK_EQ(q_int(path, "SELECT count(*) FROM runs"), 4);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM stream_stats WHERE run_id > 4"), 0);

	/* params: JSON built by SQLite, with the knobs used and nothing else */
	q_text(path, "SELECT params FROM runs WHERE id = 1", s, sizeof(s));
	CHECK(strncmp(s, "{\"policies_in_command\":2,\"threads\":1,\"cores\":", 44) == 0);
	CHECK(strstr(s, "\"command_wall_s\":0.5,\"write_policy\":\"write-back write-allocate\"}"));
	CHECK(strstr(s, "corun") == NULL && strstr(s, "partition") == NULL);
	CHECK_EQ(q_int(path, "SELECT json_valid(params) FROM runs WHERE id = 4"), 1);
	q_text(path, "SELECT json_extract(params, '$.partition') FROM runs WHERE id = 4", s,
	       sizeof(s));
	CHECK(strcmp(s, "ways:\"TEX\"=12,\\Z=4") == 0);
	q_text(path,
	       "SELECT group_concat(class || '=' || ways || '@' || way_mask, ' ') FROM"
	       " (SELECT * FROM partitions WHERE run_id = 4 ORDER BY class)",
	       s, sizeof(s));
	CHECK(strcmp(s, "TEX=12@0xfff Z=4@0xf000") == 0);

	/* views: totals, savings against DRRIP (whole run and per frame), configs, curves */
	CHECK_EQ(q_int(path, "SELECT misses FROM run_misses WHERE id = 1"), 40 + 20 + 20);
	CHECK_EQ(q_int(path, "SELECT round(1000 * miss_saving) FROM miss_savings_vs_drrip"
			     " WHERE run_id = 1"),
		 1000 - 1000 * 80 / 110);
	CHECK_EQ(q_int(path, "SELECT drrip_run_id FROM miss_savings_vs_drrip WHERE run_id = 1"), 2);
	/* the partitioned DRRIP (run 4) is not a baseline: run 2 stays the latest plain one */
	CHECK_EQ(q_int(path, "SELECT drrip_run_id FROM drrip_baselines WHERE run_id = 4"), 2);
	CHECK_EQ(q_int(path, "SELECT drrip_run_id FROM drrip_baselines WHERE run_id = 3"), -1);
	CHECK_EQ(q_int(path, "SELECT round(1000 * miss_saving) FROM frame_miss_savings_vs_drrip"
			     " WHERE run_id = 1 AND frame = 1"),
		 1000 - 1000 * 30 / 50);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM frame_miss_savings_vs_drrip WHERE run_id = 3"),
		 0);
	q_text(path, "SELECT config || '|' || shape FROM configs WHERE run_id = 4", s, sizeof(s));
	CHECK(strcmp(s, "1MiB:16:64 partition=ways:\"TEX\"=12,\\Z=4|*:16:64 partition=ways:"
			"\"TEX\"=12,\\Z=4") == 0);
	q_text(path, "SELECT config FROM configs WHERE run_id = 3", s, sizeof(s));
	CHECK(strcmp(s, "4MiB:16:64") == 0);
	q_text(path,
	       "SELECT group_concat(llc_bytes || ':' || misses, ' ') FROM (SELECT * FROM"
	       " miss_curves WHERE policy = 'lru' AND shape = '*:16:64' ORDER BY llc_bytes)",
	       s, sizeof(s));
	CHECK(strcmp(s, "1048576:80 4194304:40") == 0);
	CHECK_EQ(q_int(path, "SELECT round(1000 * miss_rate) FROM miss_curves WHERE run_id = 3"),
		 182); /* 40 of 220, rounded */
	CHECK_EQ(q_int(path, "SELECT sum(latest) FROM configs"), 4);
	/* the same run again: only the newer is latest */
	CHECK_EQ(llct_results_open(path, &r, err, sizeof(err)), LLCT_OK);
	d = desc(traces, 1, 4 << 20);
	CHECK_EQ(llct_results_add_replay(r, &d, &big, 1, &first), LLCT_OK);
	CHECK_EQ(llct_results_close(r), LLCT_OK);
	CHECK_EQ(q_int(path, "SELECT group_concat(run_id) FROM configs WHERE config = '4MiB:16:64'"
			     " AND latest"),
		 first);
}

static void test_add_corun(const char *path)
{
	const char *traces[] = {"a.llct", "b\"c.llct"};
	struct llct_frame_stats fs[2];
	struct llct_tenant_stats ten[4] = {{100, 50, 30, 30, 400, 300, 300},
					   {100, 60, 20, 20, 500, 250, 250},
					   {100, 50, 30, 30, 400, 300, 300},
					   {100, 60, 20, 20, 500, 250, 250}};
	struct llct_part_log plog[3] = {
	    {0, 0, 0, 8, 0xff}, {0, 0, 1, 8, 0xff00}, {1, 5000, 0, 10, 0x3ff}};
	double mlp[2] = {8, 2.5};
	const char *colors[2] = {"0-15", "16-31,40"};
	uint32_t n_colors[2] = {16, 17};
	struct llct_results *r;
	char err[600], s[512];
	int64_t first;
	frames(fs, 10, 10);
	struct llct_corun_result res = {
	    llct_policy_find("lru"), 2, fs, ten, 400, 0.1, 100, plog, 3};
	struct llct_replay_desc d = desc(traces, 2, 1 << 20);
	d.corun = 1;
	d.hit_latency = 100;
	d.miss_latency = 500;
	d.mlp = mlp;
	d.contention_by = "tenant";
	d.partition = "ways:dynamic:5000";
	d.partition_by = "tenant";
	d.partition_dynamic = 1;
	d.colors = "0=0-15,1=16-31,1=40";
	d.page_size = 4096;
	d.tenant_colors = colors;
	d.tenant_n_colors = n_colors;
	CHECK_EQ(llct_results_open(path, &r, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_results_add_corun(r, &d, &res, 1, &first), LLCT_OK);
	CHECK_EQ(llct_results_close(r), LLCT_OK);
	q_text(path, "SELECT trace FROM runs WHERE id = 1", s, sizeof(s));
	CHECK(strcmp(s, "a.llct,b\"c.llct") == 0);
	q_text(path, "SELECT params FROM runs WHERE id = 1", s, sizeof(s));
	CHECK(strstr(s, "\"corun\":true,\"tenants\":2,\"hit_latency\":100.0,\"miss_latency\":500.0,"
			"\"mlp\":[8,2.5],\"contention_by\":\"tenant\",\"partition\":\"ways:dynamic:"
			"5000\",\"partition_by\":\"tenant\",\"colors\":\"0=0-15,1=16-31,1=40\","
			"\"page_size\":4096}") != NULL);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM tenants WHERE run_id = 1"), 4);
	q_text(path, "SELECT group_concat(trace, '|') FROM tenants WHERE frame = 1", s, sizeof(s));
	CHECK(strcmp(s, "a.llct|b\"c.llct") == 0);
	/* STP from the view: alone/shared summed, 600/800 + 500/1000 */
	CHECK_EQ(q_int(path, "SELECT round(1000 * stp) FROM corun_stp WHERE run_id = 1"), 1250);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM partitions WHERE run_id = 1"), 3);
	CHECK_EQ(q_int(path, "SELECT ways FROM partitions WHERE interval = 1"), 10);
	q_text(path,
	       "SELECT group_concat(tenant || ':' || n_colors || ':' || colors, ' ') FROM colors",
	       s, sizeof(s));
	CHECK(strcmp(s, "0:16:0-15 1:17:16-31,40") == 0);
	q_text(path, "SELECT config FROM configs WHERE run_id = 1", s, sizeof(s));
	CHECK(strcmp(s, "1MiB:16:64 partition=ways:dynamic:5000 colors=0=0-15,1=16-31,1=40"
			" latency=100.0/500.0 mlp=[8,2.5]") == 0);
}

/* A file made by version 1 (or 2) is upgraded in place and keeps its runs. */
static void test_upgrade(int from)
{
	char path[300], sql[128], err[600];
	struct llct_results *r;
	sqlite3 *db;
	snprintf(path, sizeof(path), "%s/v%d.db", dir, from);
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA application_id=%d; PRAGMA user_version=%d;",
		 LLCT_RESULTS_APPLICATION_ID, from);
	CHECK_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	/* version 1's own miss_savings_vs_drrip, as those files have it */
	CHECK_EQ(sqlite3_exec(db, llct_results_schema_v1, NULL, NULL, NULL), SQLITE_OK);
	CHECK_EQ(
	    sqlite3_exec(db,
			 "CREATE VIEW miss_savings_vs_drrip AS SELECT id AS run_id FROM runs;"
			 "INSERT INTO runs(trace, policy, llc_bytes, ways, line, sets, banks,"
			 " sample_period, hash, ucd, frames, params, tool_version) VALUES"
			 " ('old.llct', 'lru', 1048576, 16, 64, 1024, 4, 64, 'mod', 0, 'all',"
			 " '{}', '0.1');"
			 "INSERT INTO stream_stats VALUES(1, 0, 'TEX', 10, 5, 0, 0, 5, 0, 0, 0)",
			 NULL, NULL, NULL),
	    SQLITE_OK);
	if (from == 2)
		CHECK_EQ(sqlite3_exec(db, llct_results_schema_v2, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	CHECK_EQ(llct_results_open(path, &r, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_results_close(r), LLCT_OK);
	CHECK_EQ(q_int(path, "PRAGMA user_version"), LLCT_RESULTS_SCHEMA_VERSION);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM runs"), 1);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM tenants"), 0);
	CHECK_EQ(q_int(path, "SELECT misses FROM miss_curves"), 5);
	CHECK_EQ(q_int(path, "SELECT count(*) FROM colors"), 0);
	CHECK_EQ(q_int(path, "SELECT drrip_run_id FROM miss_savings_vs_drrip"), -999); /* no rows */
	/* old runs get their uid, so merging the file twice adds them once */
	CHECK_EQ(q_int(path, "SELECT length(uid) FROM runs"), 32);
}

int main(void)
{
	char path[300], cmd[400];
	snprintf(dir, sizeof(dir), "/tmp/llct-test-results-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	test_add_replay(path);
	snprintf(path, sizeof(path), "%s/c.db", dir);
	test_add_corun(path);
	test_upgrade(1);
	test_upgrade(2);
	int rc = check_done("test_results");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (!rc && system(cmd) != 0)
		return 1;
	return rc;
}

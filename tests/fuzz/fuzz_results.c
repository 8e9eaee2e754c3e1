/* fuzz_results.c - libFuzzer target for opening results databases: the input is written as a
 * file and opened to read (as report and merge do), its views queried, opened to append (an
 * older schema is upgraded), and merged into a fresh results database. Each either works or
 * is refused with a message naming the file; the fresh database stays sound. */
#include "llct/results.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], in[128], out[128];

static void query_all(sqlite3 *db)
{
	static const char *const views[] = {"read_hit_rates",  "stream_totals",
					    "run_misses",      "miss_savings_vs_drrip",
					    "rt_tex_reuse",    "rt_tex_totals",
					    "epoch_reuse",     "tenant_totals",
					    "corun_stp",       "contention_breakdown",
					    "contention_wbd",  "configs",
					    "drrip_baselines", "frame_miss_savings_vs_drrip",
					    "miss_curves",     "z_tex_reuse",
					    "z_tex_totals"};
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		char sql[128];
		sqlite3_stmt *st;
		snprintf(sql, sizeof(sql), "SELECT * FROM %s LIMIT 50", views[i]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
			continue;
		while (sqlite3_step(st) == SQLITE_ROW)
			;
		sqlite3_finalize(st);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/llct-fuzz-results-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(in, sizeof(in), "%s/in.db", dir);
		snprintf(out, sizeof(out), "%s/out.db", dir);
	}
	if (size > 1 << 20)
		return 0;
	FILE *f = fopen(in, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	char err[1024];
	sqlite3 *db;
	char *tmp;
	int64_t version;
	if (llct_results_open_read(in, &db, &tmp, &version, err, sizeof(err)) == LLCT_OK) {
		if (version < 1 || version > LLCT_RESULTS_SCHEMA_VERSION)
			abort();
		query_all(db);
		llct_results_close_read(db, tmp);
	} else if (!strstr(err, "in.db")) {
		abort();
	}
	struct llct_results *r;
	if (llct_results_open(in, &r, err, sizeof(err)) == LLCT_OK)
		llct_results_close(r);
	else if (!strstr(err, "in.db"))
		abort();
	unlink(out);
	if (llct_results_open(out, &r, err, sizeof(err)) != LLCT_OK)
		abort();
	uint64_t added, present;
	if (llct_results_merge(r, in, &added, &present, err, sizeof(err)) != LLCT_OK &&
	    !strstr(err, "in.db"))
		abort();
	if (llct_results_close(r) != LLCT_OK)
		abort();
	if (sqlite3_open(out, &db) != SQLITE_OK)
		abort();
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW ||
	    strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		abort();
	sqlite3_finalize(st);
	sqlite3_close(db);
	return 0;
}

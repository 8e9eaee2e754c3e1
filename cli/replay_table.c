/* replay_table.c - the tables `llctrace replay` prints, read back from the results database's
 * views (stream_totals, rt_tex_totals, z_tex_totals, miss_savings_vs_drrip, tenant_totals,
 * corun_stp), so what a user sees is what a query of results.db answers. */
#include "cli.h"
#include "llct/llct.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	cli_error("cannot read the results back: %s", sqlite3_errmsg(db));
	return 1;
}

/* One real or NULL of a one-row query on run `id`. */
static int one_real(sqlite3_stmt *st, int64_t id, double *v)
{
	int have = 0;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*v = sqlite3_column_double(st, 0);
		have = 1;
	}
	sqlite3_reset(st);
	return have;
}

void cli_print_replay_footnote(int ucd)
{
	printf("(RT->TEX: RT-written lines consumed by a TEX hit; Z->TEX: lines Z touched last "
	       "that a TEX hit then read; vs DRRIP: misses saved against the latest DRRIP run "
	       "without UCD%s)\n",
	       ucd ? "; UCD on: DISP bypasses and never hits" : "");
}

int cli_print_replay_table(sqlite3 *db, int64_t first, int64_t n)
{
	sqlite3_stmt *pol = NULL, *str = NULL, *all = NULL, *rt = NULL, *zt = NULL, *drrip = NULL;
	int rc = 1;
	if (prep(db, "SELECT policy FROM runs WHERE id = ?1", &pol) ||
	    prep(db, "SELECT stream, read_hit_rate FROM stream_totals WHERE run_id = ?1", &str) ||
	    prep(db,
		 "SELECT 1.0 * sum(read_hits) / nullif(sum(reads), 0) FROM stream_totals"
		 " WHERE run_id = ?1",
		 &all) ||
	    prep(db, "SELECT consumed_fraction FROM rt_tex_totals WHERE run_id = ?1", &rt) ||
	    prep(db, "SELECT consumed_fraction FROM z_tex_totals WHERE run_id = ?1", &zt) ||
	    prep(db, "SELECT miss_saving FROM miss_savings_vs_drrip WHERE run_id = ?1", &drrip))
		goto out;
	printf("%-14s", "read hit rate");
	for (unsigned s = 0; s < LLCT_N_STREAMS; s++)
		printf(" %6s", llct_stream_name(s));
	printf(" %7s %9s %8s %8s\n", "all", "RT->TEX", "Z->TEX", "vs DRRIP");
	for (int64_t id = first; id < first + n; id++) {
		double rate[LLCT_N_STREAMS], v;
		int have[LLCT_N_STREAMS] = {0};
		sqlite3_bind_int64(pol, 1, id);
		if (sqlite3_step(pol) != SQLITE_ROW) {
			cli_error("run %lld is missing from the results database", (long long)id);
			goto out;
		}
		printf("%-14s", (const char *)sqlite3_column_text(pol, 0));
		sqlite3_reset(pol);
		sqlite3_bind_int64(str, 1, id);
		while (sqlite3_step(str) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(str, 0);
			for (unsigned s = 0; s < LLCT_N_STREAMS; s++)
				if (name && strcmp(name, llct_stream_name(s)) == 0 &&
				    sqlite3_column_type(str, 1) != SQLITE_NULL) {
					rate[s] = sqlite3_column_double(str, 1);
					have[s] = 1;
				}
		}
		sqlite3_reset(str);
		for (unsigned s = 0; s < LLCT_N_STREAMS; s++)
			if (have[s])
				printf(" %5.1f%%", 100.0 * rate[s]);
			else
				printf(" %6s", "-");
		printf(" %6.1f%%", one_real(all, id, &v) ? 100.0 * v : 0.0);
		if (one_real(rt, id, &v))
			printf(" %8.1f%%", 100.0 * v);
		else
			printf(" %9s", "-");
		if (one_real(zt, id, &v))
			printf(" %7.1f%%", 100.0 * v);
		else
			printf(" %8s", "-");
		if (one_real(drrip, id, &v))
			printf(" %+7.1f%%", 100.0 * v);
		else
			printf(" %8s", "-");
		printf("\n");
	}
	rc = 0;
out:
	sqlite3_finalize(pol);
	sqlite3_finalize(str);
	sqlite3_finalize(all);
	sqlite3_finalize(rt);
	sqlite3_finalize(zt);
	sqlite3_finalize(drrip);
	return rc;
}

int cli_print_corun_table(sqlite3 *db, int64_t first, int64_t n)
{
	sqlite3_stmt *ten = NULL, *stp = NULL;
	int rc = 1;
	if (prep(db,
		 "SELECT policy, tenant, accesses, misses, misses_alone, time_shared, time_alone,"
		 " slowdown FROM tenant_totals WHERE run_id = ?1 ORDER BY tenant",
		 &ten) ||
	    prep(db, "SELECT policy, stp, tenants FROM corun_stp WHERE run_id = ?1", &stp))
		goto out;
	printf("%-12s %6s %12s %12s %12s %14s %14s %8s\n", "policy", "tenant", "accesses", "misses",
	       "misses alone", "time shared", "time alone", "slowdown");
	for (int64_t id = first; id < first + n; id++) {
		sqlite3_bind_int64(ten, 1, id);
		while (sqlite3_step(ten) == SQLITE_ROW)
			printf("%-12s %6lld %12lld %12lld %12lld %14.0f %14.0f %8.3f\n",
			       (const char *)sqlite3_column_text(ten, 0),
			       (long long)sqlite3_column_int64(ten, 1),
			       (long long)sqlite3_column_int64(ten, 2),
			       (long long)sqlite3_column_int64(ten, 3),
			       (long long)sqlite3_column_int64(ten, 4),
			       sqlite3_column_double(ten, 5), sqlite3_column_double(ten, 6),
			       sqlite3_column_double(ten, 7));
		sqlite3_reset(ten);
		sqlite3_bind_int64(stp, 1, id);
		if (sqlite3_step(stp) == SQLITE_ROW)
			printf(
			    "%-12s STP %.3f (of %lld)\n", (const char *)sqlite3_column_text(stp, 0),
			    sqlite3_column_double(stp, 1), (long long)sqlite3_column_int64(stp, 2));
		sqlite3_reset(stp);
	}
	rc = 0;
out:
	sqlite3_finalize(ten);
	sqlite3_finalize(stp);
	return rc;
}

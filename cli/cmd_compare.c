/* cmd_compare.c - `llctrace compare RESULTS.db A B`: any run or policy against any other on the
 * same trace and configuration, over the trace or frame by frame, with the columns the DRRIP views
 * have (misses, the other's misses, the saving 1 - misses / other's, and the same for reads). A
 * and B are run ids or policy names (a name means that policy's latest runs); the rows are read
 * from the views run_comparisons and frame_comparisons and printed as `llctrace sql` prints. */
#include "cli.h"
#include "opts.h"

#include "llct/results.h"
#include <stddef.h>

#include <ctype.h>
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The condition that picks side `pfx` ("" or "other_") by A: a run id, or a policy's latest. */
static int side(const char *a, const char *pfx, char *out, size_t size)
{
	size_t i = 0;
	while (a[i] && isdigit((unsigned char)a[i]))
		i++;
	if (i && !a[i])
		return snprintf(out, size, "%srun_id = %s", pfx, a) < (int)size ? 0 : -1;
	for (i = 0; a[i]; i++) /* a policy name: letters, digits, '-' and '_' only */
		if (!isalnum((unsigned char)a[i]) && a[i] != '-' && a[i] != '_')
			return -1;
	return snprintf(out, size, "lower(%spolicy) = lower('%s') AND %slatest", pfx, a, pfx) <
		       (int)size
		   ? 0
		   : -1;
}

/* What compare's options set. */
struct compare_args {
	int frames, csv;
};

static const struct cli_opt compare_opt_list[] = {
    {"frames", 0, NULL, "frame by frame", cli_opt_flag, offsetof(struct compare_args, frames)},
    {"csv", 0, NULL, "CSV instead of a table", cli_opt_flag, offsetof(struct compare_args, csv)},
    {NULL}};

const struct cli_opts compare_opts = {"compare", 17, 0, compare_opt_list};

int cmd_compare(int argc, char **argv)
{
	struct compare_args x = {0};
	int rc = cli_opts_parse(&compare_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	int frames = x.frames, csv = x.csv;
	if (argc - optind != 3)
		return cli_usage_error("compare", "needs a results database and two runs or "
						  "policies (e.g. compare results.db gspc drrip)");
	const char *db = argv[optind], *a = argv[optind + 1], *b = argv[optind + 2];
	char ca[160], cb[160], sql[1200];
	if (side(a, "", ca, sizeof(ca)))
		return cli_usage_error("compare", "'%s' is neither a run id nor a policy name", a);
	if (side(b, "other_", cb, sizeof(cb)))
		return cli_usage_error("compare", "'%s' is neither a run id nor a policy name", b);
	if (frames)
		snprintf(sql, sizeof(sql),
			 "SELECT trace, config, policy, other_policy, frame, misses, other_misses,"
			 " round(miss_saving, 4) AS miss_saving, read_misses, other_read_misses,"
			 " round(read_miss_saving, 4) AS read_miss_saving, run_id, other_run_id"
			 " FROM frame_comparisons WHERE %s AND %s"
			 " ORDER BY trace, config, run_id, other_run_id, frame",
			 ca, cb);
	else
		snprintf(sql, sizeof(sql),
			 "SELECT trace, config, policy, other_policy, misses, other_misses,"
			 " round(miss_saving, 4) AS miss_saving, read_misses, other_read_misses,"
			 " round(read_miss_saving, 4) AS read_miss_saving, run_id, other_run_id"
			 " FROM run_comparisons WHERE %s AND %s ORDER BY trace, config, run_id,"
			 " other_run_id",
			 ca, cb);
	/* nothing to compare is an error that says so, not an empty table */
	sqlite3 *h = NULL;
	char *tmp = NULL, err[700], count[1300];
	int64_t version;
	if (llct_results_open_read(db, &h, &tmp, &version, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_FAIL;
	}
	snprintf(count, sizeof(count), "SELECT count(*) FROM (%s)", sql);
	sqlite3_stmt *st = NULL;
	long long rows = -1;
	if (sqlite3_prepare_v2(h, count, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		rows = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	llct_results_close_read(h, tmp);
	if (rows == 0) {
		cli_error("'%s': no run of %s on the same trace and configuration as a run of %s "
			  "(llctrace sql %s \"SELECT * FROM configs\" lists them)",
			  db, a, b, db);
		return EXIT_FAIL;
	}
	/* printed as llctrace sql prints ("--" ends the options when there is none) */
	char *sargv[] = {"sql", csv ? "--csv" : "--", (char *)db, sql, NULL};
	return cmd_sql(4, sargv);
}

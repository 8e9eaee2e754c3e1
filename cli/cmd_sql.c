/* cmd_sql.c - `llctrace sql DB "SELECT ..."`: runs SQL on a results database or a trace and
 * prints an aligned table or CSV. */
#include "cli.h"
#include "llct/results.h"
#include "llct/trace.h"
#include "opts.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void csv_cell(const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* Formats a value: integers as is, reals with up to 6 significant digits. */
static void cell_text(sqlite3_stmt *st, int i, char *buf, size_t size)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		snprintf(buf, size, "%s", "");
		break;
	case SQLITE_FLOAT:
		snprintf(buf, size, "%.6g", sqlite3_column_double(st, i));
		break;
	case SQLITE_BLOB:
		snprintf(buf, size, "<blob %d bytes>", sqlite3_column_bytes(st, i));
		break;
	default:
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, i));
	}
}

/* Steps st to its end printing its rows as CSV with a header; the last step's result. */
static int print_csv(sqlite3_stmt *st)
{
	int n = sqlite3_column_count(st), step;
	char buf[512];
	for (int i = 0; i < n; i++) {
		if (i)
			putchar(',');
		csv_cell(sqlite3_column_name(st, i));
	}
	if (n)
		putchar('\n');
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++) {
			if (i)
				putchar(',');
			cell_text(st, i, buf, sizeof(buf));
			csv_cell(buf);
		}
		putchar('\n');
	}
	return step;
}

/* Steps st to its end printing its rows as an aligned table (the rows buffered to size the
 * columns; numbers right-aligned); the last step's result, or -1 when out of memory. */
static int print_table(sqlite3_stmt *st)
{
	int n = sqlite3_column_count(st), step;
	char buf[512];
	size_t rows = 0, cap = 64;
	char **cells = malloc(cap * (size_t)(n ? n : 1) * sizeof(*cells));
	int *width = calloc((size_t)(n ? n : 1), sizeof(*width));
	int *numeric = calloc((size_t)(n ? n : 1), sizeof(*numeric));
	if (!cells || !width || !numeric) {
		free(cells);
		free(width);
		free(numeric);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		width[i] = (int)strlen(sqlite3_column_name(st, i));
		numeric[i] = 1;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (rows == cap) {
			cap *= 2;
			char **p = realloc(cells, cap * (size_t)n * sizeof(*cells));
			if (!p)
				break;
			cells = p;
		}
		for (int i = 0; i < n; i++) {
			int ty = sqlite3_column_type(st, i);
			cell_text(st, i, buf, sizeof(buf));
			if (ty == SQLITE_TEXT || ty == SQLITE_BLOB)
				numeric[i] = 0;
			cells[rows * (size_t)n + (size_t)i] = strdup(buf);
			if ((int)strlen(buf) > width[i])
				width[i] = (int)strlen(buf);
		}
		rows++;
	}
	for (int i = 0; i < n; i++)
		printf("%s%-*s", i ? "  " : "", width[i], sqlite3_column_name(st, i));
	if (n)
		putchar('\n');
	for (int i = 0; i < n; i++)
		printf("%s%.*s", i ? "  " : "", width[i],
		       "----------------------------------------------------------------"
		       "----------------------------------------------------------------");
	if (n)
		putchar('\n');
	for (size_t r = 0; r < rows; r++) {
		for (int i = 0; i < n; i++) {
			char *c = cells[r * (size_t)n + (size_t)i];
			printf(numeric[i] ? "%s%*s" : "%s%-*s", i ? "  " : "", width[i],
			       c ? c : "");
			free(c);
		}
		putchar('\n');
	}
	free(cells);
	free(width);
	free(numeric);
	return step;
}

/* What sql's options set. */
struct sql_args {
	int csv, writable;
};

static const struct cli_opt sql_opt_list[] = {
    {"csv", 0, NULL, "CSV instead of a table", cli_opt_flag, offsetof(struct sql_args, csv)},
    {"write", 0, NULL, "allow statements that change the database", cli_opt_flag,
     offsetof(struct sql_args, writable)},
    {NULL}};

const struct cli_opts sql_opts = {"sql", 17, 0, sql_opt_list};

int cmd_sql(int argc, char **argv)
{
	struct sql_args x = {0};
	int rc = cli_opts_parse(&sql_opts, argc, argv, &x);
	if (rc >= 0)
		return rc;
	int csv = x.csv, writable = x.writable;
	rc = EXIT_FAIL;
	if (argc - optind != 2)
		return cli_usage_error("sql", "needs a database and one SQL text");
	const char *path = argv[optind], *sql = argv[optind + 1];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	char *tmp = NULL; /* an older results file's upgraded copy */
	FILE *probe = fopen(path, "rb");
	if (!probe) {
		cli_error("'%s': cannot open: no such file", path);
		return EXIT_FAIL;
	}
	fclose(probe);
	if (sqlite3_open_v2(path, &db, writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY,
			    NULL) != SQLITE_OK) {
		cli_error("'%s': cannot open: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_busy_timeout(db, 10000);
	/* Only llctrace files: a results database (any schema we know) or a trace. */
	sqlite3_stmt *q;
	int64_t app = 0, ver = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &q, NULL) != SQLITE_OK) {
		cli_error("'%s': not an llctrace database (%s)", path, sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_step(q) == SQLITE_ROW)
		app = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == SQLITE_OK) {
		if (sqlite3_step(q) == SQLITE_ROW)
			ver = sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
	}
	if (app == LLCT_RESULTS_APPLICATION_ID) {
		if (ver > LLCT_RESULTS_SCHEMA_VERSION) {
			cli_error("'%s': results schema version %lld is newer than this llctrace "
				  "knows (%d); upgrade llctrace",
				  path, (long long)ver, LLCT_RESULTS_SCHEMA_VERSION);
			goto out;
		}
		if (ver < LLCT_RESULTS_SCHEMA_VERSION && !writable) {
			/* an older file is read as an upgraded temporary copy, itself untouched */
			int64_t v;
			char err[700];
			sqlite3_close(db);
			db = NULL;
			if (llct_results_open_read(path, &db, &tmp, &v, err, sizeof(err))) {
				cli_error("%s", err);
				goto out;
			}
		}
	} else if (app == LLCT_TRACE_APPLICATION_ID) {
		if (ver > LLCT_TRACE_FORMAT_VERSION) {
			cli_error("'%s': trace format version %lld is newer than this llctrace "
				  "knows (%d); upgrade llctrace",
				  path, (long long)ver, LLCT_TRACE_FORMAT_VERSION);
			goto out;
		}
	} else {
		cli_error("'%s': not an llctrace results database or trace", path);
		goto out;
	}

	const char *tail = sql;
	while (tail && *tail) {
		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK) {
			cli_error("'%s': %s", path, sqlite3_errmsg(db));
			goto out;
		}
		if (!st) /* whitespace or comment */
			break;
		int step = csv ? print_csv(st) : print_table(st);
		if (step < 0) {
			cli_error("out of memory");
			goto out;
		}
		if (step != SQLITE_DONE) {
			cli_error("'%s': %s%s", path, sqlite3_errmsg(db),
				  !writable && sqlite3_errcode(db) == SQLITE_READONLY
				      ? " (it is opened read-only: give --write to change it)"
				      : "");
			goto out;
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	rc = EXIT_OK;
out:
	sqlite3_finalize(st);
	if (tmp)
		llct_results_close_read(db, tmp);
	else
		sqlite3_close(db);
	if (fflush(stdout) != 0) {
		cli_error("cannot write to standard output");
		rc = EXIT_FAIL;
	}
	return rc;
}

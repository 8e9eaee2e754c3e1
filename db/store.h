/* store.h - private to db/: the .llct schema text and helpers shared by writer and reader. */
#ifndef LLCT_DB_STORE_H
#define LLCT_DB_STORE_H

#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>

/* Schema of a format-2 trace (format 1 had no `sites` table). Frame numbers and kernel ids
 * are the capture's own. */
#define LLCT_TRACE_SCHEMA                                                                          \
	"CREATE TABLE capture(id INTEGER PRIMARY KEY CHECK (id = 1), source TEXT,"                 \
	" tier INTEGER, application TEXT, device TEXT, driver TEXT, tool_version TEXT,"            \
	" format_version INTEGER, created_at TEXT);"                                               \
	"CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;"                   \
	"CREATE TABLE frames(frame INTEGER PRIMARY KEY, n_records INTEGER NOT NULL,"               \
	" n_chunks INTEGER NOT NULL, committed_at TEXT);"                                          \
	"CREATE TABLE chunks(id INTEGER PRIMARY KEY, frame INTEGER NOT NULL,"                      \
	" seq INTEGER NOT NULL, n_records INTEGER NOT NULL, data BLOB NOT NULL,"                   \
	" UNIQUE(frame, seq));"                                                                    \
	"CREATE TABLE kernels(id INTEGER PRIMARY KEY, frame INTEGER, kind TEXT NOT NULL,"          \
	" name TEXT, params TEXT);"                                                                \
	"CREATE TABLE resources(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT,"            \
	" addr INTEGER, size INTEGER, params TEXT);"                                               \
	"CREATE TABLE sites(id INTEGER PRIMARY KEY, pipeline INTEGER, stage TEXT NOT NULL,"        \
	" word INTEGER, op TEXT NOT NULL, \"set\" INTEGER, binding INTEGER, size INTEGER);"

/* Formats a message into buf (if given) and returns `status`. */
int llct_db_msg(char *buf, size_t size, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Maps an SQLite result code to an llct status. */
int llct_db_status(int rc);

/* The results database's schema text of each version (results_schema.c). */
extern const char llct_results_schema_v1[], llct_results_schema_v2[], llct_results_schema_v3[],
    llct_results_schema_v4[], llct_results_schema_v5[], llct_results_schema_v6[],
    llct_results_schema_v7[], llct_results_schema_v8[], llct_results_schema_v9[];
/* After version 6's text: gives runs made before it their trace's id and absolute path where
 * the trace can still be opened (results_identity.c). 0 on success. */
int llct_results_identify_traces(sqlite3 *db);

struct llct_results;
/* Records the SQLite error of a failed results write (the first one wins); returns its status. */
int llct_results_fail(struct llct_results *r, const char *what);
/* Marks the open transaction failed with status st (if nothing failed yet), so commit rolls
 * it back. */
void llct_results_abort(struct llct_results *r, int st, const char *what);

#endif

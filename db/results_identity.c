/* results_identity.c - the upgrade to results version 6 for runs made before it: each trace that
 * can still be opened gets its id and absolute path in runs, and batch cell keys name it by id,
 * so runs of one trace stored under two names ("cube.llct" and "/home/u/cube.llct") become one. */
#include "llct/trace.h"
#include "store.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a trace path stored in runs resolves to now. */
struct known {
	char path[PATH_MAX], id[48], created[64];
};

static int find_created(const char *table, const char *key, const char *value, void *ud)
{
	if (!strcmp(table, "capture") && !strcmp(key, "created_at") && value) {
		snprintf(ud, 64, "%s", value);
		return 1;
	}
	return 0;
}

/* 1 if `path` (as stored: absolute, or relative to where the command ran, taken as here) opens
 * as a trace. */
static int resolve(const char *path, struct known *k)
{
	struct llct_reader *rd;
	char err[64];
	if (!path || !*path || llct_reader_open(path, &rd, err, sizeof(err)))
		return 0;
	snprintf(k->id, sizeof(k->id), "%s", llct_reader_id(rd));
	k->created[0] = '\0';
	llct_reader_foreach_meta(rd, find_created, k->created);
	llct_reader_close(rd);
	if (!realpath(path, k->path))
		snprintf(k->path, sizeof(k->path), "%s", path);
	return 1;
}

static int exec_bind(sqlite3 *db, const char *sql, const char *a, const char *b, const char *c,
		     const char *d)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 1;
	const char *v[4] = {a, b, c, d};
	for (int i = 0; i < 4; i++)
		if (v[i])
			sqlite3_bind_text(st, i + 1, v[i], -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc != SQLITE_DONE;
}

/* Batch cells named a trace PATH@CREATED; now they name it by its id. */
static int fix_keys(sqlite3 *db, const struct known *k)
{
	char old_key[PATH_MAX + 80];
	snprintf(old_key, sizeof(old_key), "%s@%s", k->path, k->created);
	return exec_bind(db,
			 "UPDATE runs SET params = json_set(params, '$.batch_cell',"
			 " replace(json_extract(params, '$.batch_cell'), ?1, ?2)) WHERE"
			 " instr(json_extract(params, '$.batch_cell'), ?1)",
			 old_key, k->id, NULL, NULL);
}

/* A co-run's joined paths, each resolved where possible: new paths and ids joined by commas.
 * 0 if none resolved. */
static int resolve_list(sqlite3 *db, const char *joined, char *paths, char *ids, size_t size)
{
	char *copy = strdup(joined), *save = NULL;
	size_t pa = 0, ia = 0;
	int any = 0;
	if (!copy)
		return 0;
	paths[0] = ids[0] = '\0';
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		struct known k;
		int ok = resolve(t, &k);
		if (ok && fix_keys(db, &k))
			ok = 0;
		any |= ok;
		pa += (size_t)snprintf(paths + pa, pa < size ? size - pa : 0, "%s%s", pa ? "," : "",
				       ok ? k.path : t);
		ia += (size_t)snprintf(ids + ia, ia < size ? size - ia : 0, "%s%s", ia ? "," : "",
				       ok ? k.id : t);
	}
	free(copy);
	return any && pa < size && ia < size;
}

int llct_results_identify_traces(sqlite3 *db)
{
	sqlite3_stmt *q;
	char **names = NULL;
	int *corun = NULL, bad = 0;
	size_t n = 0, cap = 0;
	/* every trace name runs hold, once, and whether it names a co-run; read before any
	 * row changes */
	if (sqlite3_prepare_v2(db,
			       "SELECT trace, max(json_extract(params, '$.corun') IS NOT NULL)"
			       " FROM runs WHERE trace_id IS NULL GROUP BY trace",
			       -1, &q, NULL) != SQLITE_OK)
		return 1;
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **nv = realloc(names, cap * sizeof(*nv));
			int *cv = nv ? realloc(corun, cap * sizeof(*cv)) : NULL;
			if (nv)
				names = nv;
			if (!cv) {
				bad = 1;
				break;
			}
			corun = cv;
		}
		if (!(names[n] = strdup(name ? name : ""))) {
			bad = 1;
			break;
		}
		corun[n++] = sqlite3_column_int(q, 1);
	}
	sqlite3_finalize(q);
	for (size_t i = 0; i < n && !bad; i++) {
		char paths[8192], ids[8192];
		struct known k;
		if (!corun[i] && resolve(names[i], &k))
			bad = exec_bind(db,
					"UPDATE runs SET trace = ?2, trace_id = ?3 WHERE trace = ?1"
					" AND trace_id IS NULL",
					names[i], k.path, k.id, NULL) ||
			      fix_keys(db, &k);
		else if (corun[i] && resolve_list(db, names[i], paths, ids, sizeof(paths)))
			bad = exec_bind(db,
					"UPDATE runs SET trace = ?2, trace_id = ?3 WHERE trace = ?1"
					" AND trace_id IS NULL",
					names[i], paths, ids, NULL);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(corun);
	return bad;
}

/* results.c - writes the results database: opening, versioning, and its rows one by one.
 *
 * Results accumulate: every replay appends runs, never rewrites old ones. The views are part
 * of the schema (results_schema.c) so `sqlite3 results.db` users get the same answers as
 * `llctrace sql` and the report page. results_replay.c writes a whole replay with these.
 */
#include "llct/results.h"
#include "store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct llct_results {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins_run, *ins_stream, *ins_rt, *ins_epoch, *ins_tenant, *ins_cont, *ins_part,
	    *ins_colors, *ins_est;
	int failed;
	char err[512];
};

int llct_results_fail(struct llct_results *r, const char *what)
{
	int st = llct_db_status(sqlite3_errcode(r->db));
	if (st == LLCT_OK)
		st = LLCT_ERR_DB;
	snprintf(r->err, sizeof(r->err), "'%s': %s: %s", r->path, what, sqlite3_errmsg(r->db));
	if (!r->failed)
		r->failed = st;
	return st;
}

void llct_results_abort(struct llct_results *r, int st, const char *what)
{
	if (r->failed)
		return;
	r->failed = st ? st : LLCT_ERR_DB;
	snprintf(r->err, sizeof(r->err), "'%s': %s", r->path, what);
}

sqlite3 *llct_results_handle(struct llct_results *r)
{
	return r->db;
}

/* Runs the schema texts of versions from+1 .. LLCT_RESULTS_SCHEMA_VERSION. */
static int create_versions(sqlite3 *db, int64_t from)
{
	const char *const v[] = {
	    llct_results_schema_v1, llct_results_schema_v2, llct_results_schema_v3,
	    llct_results_schema_v4, llct_results_schema_v5, llct_results_schema_v6,
	    llct_results_schema_v7, llct_results_schema_v8, llct_results_schema_v9};
	_Static_assert(sizeof(v) / sizeof(v[0]) == LLCT_RESULTS_SCHEMA_VERSION,
		       "one schema text per version");
	for (int64_t k = from; k < LLCT_RESULTS_SCHEMA_VERSION; k++) {
		if (sqlite3_exec(db, v[k], NULL, NULL, NULL) != SQLITE_OK)
			return 1;
		if (k == 5 && from > 0 && llct_results_identify_traces(db))
			return 1;
	}
	return 0;
}

/* The file's application_id, user_version and table count, read in one statement and so from
 * one snapshot: read one by one, a writer creating the schema in between (concurrent writers on
 * a new file) shows an id of 0 beside its tables. */
static int probe(sqlite3 *db, int64_t *app, int64_t *ver, int64_t *n_tables)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db,
				    "SELECT (SELECT application_id FROM pragma_application_id),"
				    " (SELECT user_version FROM pragma_user_version),"
				    " (SELECT count(*) FROM sqlite_schema)",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	*app = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	*ver = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0;
	*n_tables = rc == SQLITE_ROW ? sqlite3_column_int64(st, 2) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/* A path as an SQLite URI ("file:" and the path, percent-encoded where URIs need it). */
static char *path_uri(const char *path, const char *query)
{
	size_t n = strlen(path);
	char *u = malloc(3 * n + strlen(query) + 16), *o = u;
	if (!u)
		return NULL;
	o += sprintf(o, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p == '%' || *p == '?' || *p == '#' || *p < 0x20 || *p >= 0x7f)
			o += sprintf(o, "%%%02X", *p);
		else
			*o++ = (char)*p;
	sprintf(o, "?%s", query);
	return u;
}

/* Checks that db is a results database of a version this build reads; *ver is its version. */
static int check_read(sqlite3 *db, const char *path, int64_t *ver, char *err, size_t err_size)
{
	int64_t app = 0, n = 0;
	if (probe(db, &app, ver, &n)) {
		if (sqlite3_errcode(db) == SQLITE_NOTADB)
			return llct_db_msg(
			    err, err_size, LLCT_ERR_FORMAT,
			    "'%s': not an llctrace results database (not a database)", path);
		return llct_db_msg(err, err_size, llct_db_status(sqlite3_errcode(db)),
				   "'%s': cannot read: %s", path, sqlite3_errmsg(db));
	}
	if (app != LLCT_RESULTS_APPLICATION_ID && n == 0)
		return llct_db_msg(err, err_size, LLCT_ERR_FORMAT,
				   "'%s': not an llctrace results database (an empty database)",
				   path);
	if (app == LLCT_TRACE_APPLICATION_ID)
		return llct_db_msg(err, err_size, LLCT_ERR_FORMAT,
				   "'%s': an llctrace trace, not a results database (replay it "
				   "into one: llctrace replay '%s' -o RESULTS.db)",
				   path, path);
	if (app != LLCT_RESULTS_APPLICATION_ID)
		return llct_db_msg(err, err_size, LLCT_ERR_FORMAT,
				   "'%s': not an llctrace results database (SQLite application_id "
				   "0x%llx)",
				   path, (unsigned long long)app);
	if (*ver > LLCT_RESULTS_SCHEMA_VERSION || *ver < 1)
		return llct_db_msg(
		    err, err_size, LLCT_ERR_VERSION,
		    "'%s': results schema version %lld; this llctrace %s reads up to "
		    "version %d (upgrade llctrace)",
		    path, (long long)*ver, LLCT_VERSION, LLCT_RESULTS_SCHEMA_VERSION);
	return LLCT_OK;
}

int llct_results_open_read(const char *path, sqlite3 **out, char **tmp, int64_t *version, char *err,
			   size_t err_size)
{
	sqlite3 *db = NULL, *copy = NULL;
	char *uri = path_uri(path, "mode=ro"), *tpath = NULL;
	int64_t ver = 0;
	int st;
	*out = NULL;
	*tmp = NULL;
	if (!uri)
		return llct_db_msg(err, err_size, LLCT_ERR_NOMEM, "'%s': out of memory", path);
	if (access(path, R_OK) != 0) {
		free(uri);
		return llct_db_msg(err, err_size, LLCT_ERR_IO, "'%s': cannot read: %s", path,
				   strerror(errno));
	}
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		st = llct_db_msg(err, err_size, LLCT_ERR_IO, "'%s': cannot open: %s", path,
				 db ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	free(uri);
	uri = NULL;
	sqlite3_busy_timeout(db, 10000);
	if ((st = check_read(db, path, &ver, err, err_size)))
		goto fail;
	*version = ver;
	if (ver == LLCT_RESULTS_SCHEMA_VERSION) {
		*out = db;
		return LLCT_OK;
	}
	/* An older file: upgrade a temporary copy, never the user's file. */
	const char *dir = getenv("TMPDIR");
	size_t len = strlen(dir && *dir ? dir : "/tmp") + 32;
	int fd;
	if (!(tpath = malloc(len))) {
		st = llct_db_msg(err, err_size, LLCT_ERR_NOMEM, "'%s': out of memory", path);
		goto fail;
	}
	snprintf(tpath, len, "%s/llct-upgrade-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(tpath)) < 0) {
		st = llct_db_msg(err, err_size, LLCT_ERR_IO,
				 "'%s': cannot make a temporary copy to upgrade: %s: %s", path,
				 tpath, strerror(errno));
		free(tpath);
		tpath = NULL;
		goto fail;
	}
	close(fd);
	char sql[64];
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d; COMMIT;", LLCT_RESULTS_SCHEMA_VERSION);
	sqlite3_backup *b = NULL;
	if (sqlite3_open(tpath, &copy) != SQLITE_OK ||
	    !(b = sqlite3_backup_init(copy, "main", db, "main")) ||
	    sqlite3_backup_step(b, -1) != SQLITE_DONE || sqlite3_backup_finish(b) != SQLITE_OK ||
	    (b = NULL, sqlite3_exec(copy, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) ||
	    create_versions(copy, ver) || sqlite3_exec(copy, sql, NULL, NULL, NULL) != SQLITE_OK) {
		if (b)
			sqlite3_backup_finish(b);
		st = llct_db_msg(err, err_size, LLCT_ERR_IO,
				 "'%s': cannot upgrade a copy from schema version %lld in %s: %s",
				 path, (long long)ver, tpath, copy ? sqlite3_errmsg(copy) : "");
		goto fail;
	}
	sqlite3_close(db);
	*out = copy;
	*tmp = tpath;
	return LLCT_OK;
fail:
	free(uri);
	sqlite3_close(db);
	sqlite3_close(copy);
	if (tpath) {
		unlink(tpath);
		free(tpath);
	}
	return st;
}

void llct_results_close_read(sqlite3 *db, char *tmp)
{
	sqlite3_close(db);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
}

int llct_results_open(const char *path, struct llct_results **out, char *err, size_t err_size)
{
	struct llct_results *r = calloc(1, sizeof(*r));
	int64_t app = 0, ver = 0, n_tables = 0;
	int st = LLCT_OK;
	*out = NULL;
	if (!r || !(r->path = strdup(path))) {
		free(r);
		return llct_db_msg(err, err_size, LLCT_ERR_NOMEM, "'%s': out of memory", path);
	}
	if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		st = llct_results_fail(r, "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(r->db, 10000);
	if (probe(r->db, &app, &ver, &n_tables)) {
		if (sqlite3_errcode(r->db) == SQLITE_NOTADB) {
			snprintf(r->err, sizeof(r->err),
				 "'%s': not an llctrace results database (not a database)", path);
			st = LLCT_ERR_FORMAT;
		} else {
			st = llct_results_fail(r, "cannot read");
		}
		goto fail;
	}
	if ((app == 0 && n_tables == 0) ||
	    (app == LLCT_RESULTS_APPLICATION_ID && ver >= 1 && ver < LLCT_RESULTS_SCHEMA_VERSION)) {
		/* a new file, or an older version: create or upgrade under the write lock, after
		 * looking again (another process may have done it meanwhile: concurrent writers) */
		char sql[256];
		if (sqlite3_exec(r->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
		    probe(r->db, &app, &ver, &n_tables)) {
			st = llct_results_fail(r, "cannot lock it to set it up");
			sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
		int64_t from = app == 0 && n_tables == 0 ? 0 : ver;
		if (from < LLCT_RESULTS_SCHEMA_VERSION &&
		    (from > 0 || (app == 0 && n_tables == 0))) {
			snprintf(sql, sizeof(sql),
				 "PRAGMA application_id=%d; PRAGMA user_version=%d;",
				 LLCT_RESULTS_APPLICATION_ID, LLCT_RESULTS_SCHEMA_VERSION);
			if (create_versions(r->db, from) ||
			    sqlite3_exec(r->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
				char what[80];
				if (from)
					snprintf(what, sizeof(what),
						 "cannot upgrade the schema from version %lld",
						 (long long)from);
				else
					snprintf(what, sizeof(what), "cannot create the schema");
				st = llct_results_fail(r, what);
				sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
				goto fail;
			}
			app = LLCT_RESULTS_APPLICATION_ID;
			ver = LLCT_RESULTS_SCHEMA_VERSION;
		}
		if (sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
			st = llct_results_fail(r, "cannot commit its schema");
			sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
			goto fail;
		}
	}
	if (app == LLCT_RESULTS_APPLICATION_ID && ver == LLCT_RESULTS_SCHEMA_VERSION) {
		/* ready */
	} else if (app == LLCT_TRACE_APPLICATION_ID) {
		snprintf(r->err, sizeof(r->err),
			 "'%s': an llctrace trace, not a results database; nothing was written "
			 "(results go to a new file or an existing results database)",
			 path);
		st = LLCT_ERR_FORMAT;
		goto fail;
	} else if (app != LLCT_RESULTS_APPLICATION_ID) {
		snprintf(r->err, sizeof(r->err),
			 "'%s': not an llctrace results database (SQLite application_id 0x%llx)",
			 path, (unsigned long long)app);
		st = LLCT_ERR_FORMAT;
		goto fail;
	} else if (ver > LLCT_RESULTS_SCHEMA_VERSION || ver < 1) {
		snprintf(r->err, sizeof(r->err),
			 "'%s': results schema version %lld; this llctrace %s writes version %d "
			 "(upgrade llctrace, or write to a new file)",
			 path, (long long)ver, LLCT_VERSION, LLCT_RESULTS_SCHEMA_VERSION);
		st = LLCT_ERR_VERSION;
		goto fail;
	}
	struct {
		sqlite3_stmt **st;
		const char *sql;
	} stmts[] = {
	    {&r->ins_run,
	     "INSERT INTO runs(trace, trace_created, policy, llc_bytes, ways, line,"
	     " sets, banks, sample_period, hash, ucd, frames, params, tool_version,"
	     " started_at, wall_s, accesses, accesses_per_s, peak_state_bytes, trace_id,"
	     " uid) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
	     " lower(hex(randomblob(16))))"},
	    {&r->ins_stream, "INSERT INTO stream_stats VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)"},
	    {&r->ins_rt, "INSERT INTO rt_tex(run_id, frame, produced, consumed, z_produced,"
			 " z_consumed) VALUES(?,?,?,?,?,?)"},
	    {&r->ins_epoch, "INSERT INTO epochs VALUES(?,?,?,?,?,?)"},
	    {&r->ins_tenant, "INSERT INTO tenants VALUES(?,?,?,?,?,?,?,?,?,?,?)"},
	    {&r->ins_cont, "INSERT INTO contention VALUES(?,?,?,?,?,?,?,?,?)"},
	    {&r->ins_part, "INSERT OR REPLACE INTO partitions VALUES(?,?,?,?,?,?,?)"},
	    {&r->ins_colors, "INSERT INTO colors VALUES(?,?,?,?)"},
	    {&r->ins_est,
	     "INSERT INTO estimates(run_id, stream, metric, estimate, half_width, groups,"
	     " std_error, dof, level) VALUES(?,?,?,?,?,?,?,?,?)"},
	};
	for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++)
		if (sqlite3_prepare_v2(r->db, stmts[i].sql, -1, stmts[i].st, NULL) != SQLITE_OK) {
			st = llct_results_fail(r, "cannot prepare");
			goto fail;
		}
	*out = r;
	return LLCT_OK;
fail:
	llct_db_msg(err, err_size, st, "%s", r->err);
	llct_results_close(r);
	return st;
}

int llct_results_begin(struct llct_results *r)
{
	if (sqlite3_exec(r->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return llct_results_fail(r, "cannot begin a transaction");
	return LLCT_OK;
}

int llct_results_commit(struct llct_results *r)
{
	if (r->failed) {
		sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
		return r->failed;
	}
	if (sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return llct_results_fail(r, "cannot commit");
	return LLCT_OK;
}

static int step(struct llct_results *r, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		int e = llct_results_fail(r, what); /* before the reset clears the message */
		sqlite3_reset(st);
		return e;
	}
	sqlite3_reset(st);
	return LLCT_OK;
}

static void text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int llct_results_add_run(struct llct_results *r, const struct llct_run_info *u, int64_t *run_id)
{
	sqlite3_stmt *s = r->ins_run;
	text(s, 1, u->trace);
	text(s, 2, u->trace_created);
	text(s, 3, u->policy);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)u->llc_bytes);
	sqlite3_bind_int64(s, 5, u->ways);
	sqlite3_bind_int64(s, 6, u->line);
	sqlite3_bind_int64(s, 7, u->sets);
	sqlite3_bind_int64(s, 8, u->banks);
	sqlite3_bind_int64(s, 9, u->sample_period);
	text(s, 10, u->hash);
	sqlite3_bind_int(s, 11, u->ucd);
	text(s, 12, u->frames ? u->frames : "all");
	text(s, 13, u->params);
	text(s, 14, LLCT_VERSION);
	text(s, 15, u->started_at);
	sqlite3_bind_double(s, 16, u->wall_s);
	sqlite3_bind_int64(s, 17, (sqlite3_int64)u->accesses);
	sqlite3_bind_double(s, 18, u->wall_s > 0 ? (double)u->accesses / u->wall_s : 0.0);
	sqlite3_bind_int64(s, 19, (sqlite3_int64)u->peak_state);
	text(s, 20, u->trace_id);
	int st = step(r, s, "cannot add a run");
	*run_id = st ? -1 : sqlite3_last_insert_rowid(r->db);
	return st;
}

int llct_results_add_frame(struct llct_results *r, int64_t run_id,
			   const struct llct_frame_stats *fs)
{
	static const char *const epoch_names[3] = {"E0", "E1", "E2+"};
	int st;
	for (unsigned k = 0; k < LLCT_N_STREAMS; k++) {
		const struct llct_stream_stats *x = &fs->s[k];
		sqlite3_stmt *s = r->ins_stream;
		uint64_t v[] = {
		    x->reads,         x->read_hits,    x->writes,           x->write_hits,
		    x->fills,         x->evictions,    x->writebacks,       x->bypasses,
		    x->bypass_writes, x->sector_fills, x->writeback_sectors};
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int64(s, 2, fs->frame);
		sqlite3_bind_text(s, 3, llct_stream_name(k), -1, SQLITE_STATIC);
		for (int i = 0; i < 11; i++)
			sqlite3_bind_int64(s, 4 + i, (sqlite3_int64)v[i]);
		if ((st = step(r, s, "cannot add stream counters")))
			return st;
	}
	sqlite3_bind_int64(r->ins_rt, 1, run_id);
	sqlite3_bind_int64(r->ins_rt, 2, fs->frame);
	sqlite3_bind_int64(r->ins_rt, 3, (sqlite3_int64)fs->rt_produced);
	sqlite3_bind_int64(r->ins_rt, 4, (sqlite3_int64)fs->rt_consumed);
	sqlite3_bind_int64(r->ins_rt, 5, (sqlite3_int64)fs->z_produced);
	sqlite3_bind_int64(r->ins_rt, 6, (sqlite3_int64)fs->z_consumed);
	if ((st = step(r, r->ins_rt, "cannot add RT-to-TEX and Z-to-TEX counters")))
		return st;
	for (int z = 0; z < 2; z++)
		for (int k = 0; k < 3; k++) {
			sqlite3_stmt *s = r->ins_epoch;
			sqlite3_bind_int64(s, 1, run_id);
			sqlite3_bind_int64(s, 2, fs->frame);
			sqlite3_bind_text(s, 3, z ? "Z" : "TEX", -1, SQLITE_STATIC);
			sqlite3_bind_text(s, 4, epoch_names[k], -1, SQLITE_STATIC);
			sqlite3_bind_int64(
			    s, 5, (sqlite3_int64)(z ? fs->z_entered[k] : fs->tex_entered[k]));
			sqlite3_bind_int64(s, 6,
					   (sqlite3_int64)(z ? fs->z_hits[k] : fs->tex_hits[k]));
			if ((st = step(r, s, "cannot add epoch counters")))
				return st;
		}
	return LLCT_OK;
}

int llct_results_add_tenant(struct llct_results *r, int64_t run_id, uint32_t frame, uint32_t tenant,
			    const char *trace, const struct llct_tenant_stats *t)
{
	sqlite3_stmt *s = r->ins_tenant;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, frame);
	sqlite3_bind_int64(s, 3, tenant);
	text(s, 4, trace);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)t->accesses);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)t->misses);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)t->misses_alone);
	sqlite3_bind_double(s, 8, t->time_shared);
	sqlite3_bind_double(s, 9, t->time_alone);
	sqlite3_bind_int64(s, 10, (sqlite3_int64)t->misses_alone_part);
	sqlite3_bind_double(s, 11, t->time_alone_part);
	return step(r, s, "cannot add a tenant row");
}

static int by_victim(const void *a, const void *b)
{
	const struct llct_contention_pair *x = a, *y = b;
	return x->victim < y->victim ? -1 : x->victim > y->victim;
}

int llct_results_add_contention(struct llct_results *r, int64_t run_id,
				const struct llct_frame_stats *fs)
{
	const struct llct_contention *c = fs->cont;
	char victim[48], aggressor[48];
	int st = LLCT_OK;
	if (!c)
		return LLCT_OK;
	struct llct_contention_pair *p = malloc((c->n_pairs + 1) * sizeof(*p));
	size_t n = 0;
	if (!p)
		return LLCT_ERR_NOMEM;
	for (size_t i = 0; i < c->cap_pairs; i++)
		if (c->pairs[i].victim != LLCT_NO_OWNER)
			p[n++] = c->pairs[i];
	qsort(p, n, sizeof(*p), by_victim);
	/* misses of X ascribed to Y = M_X * count[X][Y] / sum over Z of count[X][Z] */
	for (size_t i = 0; i < n && !st;) {
		size_t j = i;
		uint64_t sum_gdc = 0, sum_plob = 0, misses = 0;
		while (j < n && p[j].victim == p[i].victim) {
			sum_gdc += p[j].gdc;
			sum_plob += p[j].plob;
			j++;
		}
		for (size_t h = 0; h < c->cap_owners; h++)
			if (c->owners[h].owner == p[i].victim)
				misses = c->owners[h].misses;
		llct_owner_text(c->owner_by, p[i].victim, victim, sizeof(victim));
		for (; i < j && !st; i++) {
			sqlite3_stmt *s = r->ins_cont;
			llct_owner_text(c->owner_by, p[i].aggressor, aggressor, sizeof(aggressor));
			sqlite3_bind_int64(s, 1, run_id);
			sqlite3_bind_int64(s, 2, fs->frame);
			sqlite3_bind_text(s, 3, llct_owner_by_name(c->owner_by), -1, SQLITE_STATIC);
			text(s, 4, victim);
			text(s, 5, aggressor);
			sqlite3_bind_int64(s, 6, (sqlite3_int64)p[i].gdc);
			sqlite3_bind_int64(s, 7, (sqlite3_int64)p[i].plob);
			sqlite3_bind_double(
			    s, 8,
			    sum_gdc ? (double)misses * (double)p[i].gdc / (double)sum_gdc : 0.0);
			sqlite3_bind_double(
			    s, 9,
			    sum_plob ? (double)misses * (double)p[i].plob / (double)sum_plob : 0.0);
			st = step(r, s, "cannot add a contention row");
		}
	}
	free(p);
	return st;
}

int llct_results_add_partition(struct llct_results *r, int64_t run_id, uint32_t interval,
			       uint64_t at_access, const char *class_by, const char *cls,
			       uint32_t ways, uint64_t mask)
{
	sqlite3_stmt *s = r->ins_part;
	char m[24];
	snprintf(m, sizeof(m), "0x%llx", (unsigned long long)mask);
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, interval);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)at_access);
	text(s, 4, class_by);
	text(s, 5, cls);
	sqlite3_bind_int64(s, 6, ways);
	text(s, 7, m);
	return step(r, s, "cannot add a partition row");
}

int llct_results_add_colors(struct llct_results *r, int64_t run_id, uint32_t tenant,
			    uint32_t n_colors, const char *colors)
{
	sqlite3_stmt *s = r->ins_colors;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, tenant);
	sqlite3_bind_int64(s, 3, n_colors);
	text(s, 4, colors);
	return step(r, s, "cannot add a colors row");
}

int llct_results_add_estimate(struct llct_results *r, int64_t run_id, const struct llct_estimate *e)
{
	static const char *const metric[] = {"reads", "read_hits", "misses", "read_hit_rate"};
	sqlite3_stmt *s = r->ins_est;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, e->stream < LLCT_N_STREAMS ? llct_stream_name(e->stream) : "all",
			  -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, metric[e->metric & 3], -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 4, e->value);
	if (e->half_width == e->half_width) /* NaN: no interval */
		sqlite3_bind_double(s, 5, e->half_width);
	else
		sqlite3_bind_null(s, 5);
	sqlite3_bind_int64(s, 6, e->groups);
	if (e->std_error == e->std_error && e->dof) {
		sqlite3_bind_double(s, 7, e->std_error);
		sqlite3_bind_int64(s, 8, e->dof);
	} else {
		sqlite3_bind_null(s, 7);
		sqlite3_bind_null(s, 8);
	}
	if (e->half_width == e->half_width)
		sqlite3_bind_double(s, 9, e->level);
	else
		sqlite3_bind_null(s, 9);
	return step(r, s, "cannot add an estimate");
}

const char *llct_results_error(const struct llct_results *r)
{
	return r->err;
}

int llct_results_close(struct llct_results *r)
{
	int st;
	if (!r)
		return LLCT_OK;
	sqlite3_finalize(r->ins_run);
	sqlite3_finalize(r->ins_stream);
	sqlite3_finalize(r->ins_rt);
	sqlite3_finalize(r->ins_epoch);
	sqlite3_finalize(r->ins_tenant);
	sqlite3_finalize(r->ins_cont);
	sqlite3_finalize(r->ins_part);
	sqlite3_finalize(r->ins_colors);
	sqlite3_finalize(r->ins_est);
	if (r->db && sqlite3_close(r->db) != SQLITE_OK && !r->failed)
		r->failed = LLCT_ERR_IO;
	st = r->failed;
	free(r->path);
	free(r);
	return st;
}

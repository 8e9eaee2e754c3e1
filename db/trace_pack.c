/* trace_pack.c - encodes a finished trace's chunks again at a higher LZ4 level, in place, in
 * transactions that each leave a trace every reader reads (docs/FORMAT.md, "Packing"). */
#include "llct/trace.h"
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of chunks re-encoded in one transaction: the rollback journal holds about as much. */
#define GROUP_BYTES ((uint64_t)64 << 20)

struct chunk_ref {
	int64_t id;
	uint32_t frame, n;
};

struct pack {
	const char *path;
	sqlite3 *db;
	sqlite3_stmt *get, *put;
	char *err;
	size_t err_size;
};

static int sql_fail(struct pack *p, const char *what)
{
	int rc = sqlite3_errcode(p->db);
	return llct_db_msg(p->err, p->err_size, llct_db_status(rc), "'%s': %s: %s", p->path, what,
			   sqlite3_errmsg(p->db));
}

static int exec(struct pack *p, const char *sql, const char *what)
{
	return sqlite3_exec(p->db, sql, NULL, NULL, NULL) == SQLITE_OK ? LLCT_OK
								       : sql_fail(p, what);
}

/* The chunks in id order (their frames for messages); *out malloc'd. */
static int list_chunks(struct pack *p, struct chunk_ref **out, size_t *n_out)
{
	sqlite3_stmt *s = NULL;
	size_t n = 0, cap = 0;
	struct chunk_ref *v = NULL;
	int rc;
	if (sqlite3_prepare_v2(p->db, "SELECT id, frame, n_records FROM chunks ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK)
		return sql_fail(p, "cannot list the chunks");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			struct chunk_ref *nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				sqlite3_finalize(s);
				return llct_db_msg(p->err, p->err_size, LLCT_ERR_NOMEM,
						   "'%s': out of memory listing chunks", p->path);
			}
			v = nv;
		}
		int64_t nr = sqlite3_column_int64(s, 2);
		v[n++] = (struct chunk_ref){sqlite3_column_int64(s, 0),
					    (uint32_t)sqlite3_column_int64(s, 1),
					    nr > 0 && nr <= LLCT_CHUNK_MAX ? (uint32_t)nr : 0};
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(v);
		return sql_fail(p, "cannot list the chunks");
	}
	*out = v;
	*n_out = n;
	return LLCT_OK;
}

/* Chunk c read, encoded again and written back (inside the open transaction). */
static int pack_one(struct pack *p, const struct chunk_ref *c, int level, struct llct_batch *b,
		    uint8_t **blob, size_t *cap, struct llct_pack_stats *st)
{
	char why[256];
	sqlite3_reset(p->get);
	sqlite3_bind_int64(p->get, 1, c->id);
	if (sqlite3_step(p->get) != SQLITE_ROW)
		return sql_fail(p, "cannot read a chunk");
	const uint8_t *old = sqlite3_column_blob(p->get, 0);
	size_t old_size = (size_t)sqlite3_column_bytes(p->get, 0), size = 0;
	if (!c->n)
		return llct_db_msg(p->err, p->err_size, LLCT_ERR_CORRUPT,
				   "'%s': chunk %lld (frame %u): record count out of range",
				   p->path, (long long)c->id, c->frame);
	int s =
	    llct_chunk_repack(old, old_size, c->n, level, b, blob, cap, &size, why, sizeof(why));
	sqlite3_reset(p->get); /* the read is over before the row is written */
	if (s)
		return llct_db_msg(p->err, p->err_size, s, "'%s': chunk %lld (frame %u): %s",
				   p->path, (long long)c->id, c->frame,
				   s == LLCT_ERR_NOMEM ? "out of memory" : why);
	st->bytes_before += old_size;
	st->bytes_after += size;
	sqlite3_reset(p->put);
	sqlite3_bind_blob(p->put, 1, *blob, (int)size, SQLITE_STATIC);
	sqlite3_bind_int64(p->put, 2, c->id);
	if (sqlite3_step(p->put) != SQLITE_DONE)
		return sql_fail(p, "cannot store a chunk");
	st->chunks++;
	st->records += c->n;
	return LLCT_OK;
}

static int pack_all(struct pack *p, int level,
		    int (*progress)(const struct llct_pack_stats *, void *), void *ud,
		    struct llct_pack_stats *st)
{
	struct chunk_ref *v = NULL;
	size_t n = 0;
	struct llct_batch b;
	uint8_t *blob = NULL;
	size_t cap = 0;
	int s = list_chunks(p, &v, &n);
	if (s)
		return s;
	if (llct_batch_alloc(&b)) {
		free(v);
		return llct_db_msg(p->err, p->err_size, LLCT_ERR_NOMEM, "'%s': out of memory",
				   p->path);
	}
	st->chunks_total = n;
	uint64_t group = 0;
	int open = 0;
	for (size_t i = 0; i < n && !s; i++) {
		if (!open && !(s = exec(p, "BEGIN IMMEDIATE", "cannot start writing")))
			open = 1;
		uint64_t before = st->bytes_before;
		if (!s)
			s = pack_one(p, &v[i], level, &b, &blob, &cap, st);
		group += st->bytes_before - before;
		if (!s && (group >= GROUP_BYTES || i + 1 == n)) {
			s = exec(p, "COMMIT", "cannot commit re-encoded chunks");
			open = s != LLCT_OK;
			group = 0;
		}
		if (!s && progress && progress(st, ud))
			s = llct_db_msg(p->err, p->err_size, LLCT_ERR_IO,
					"'%s': stopped after %llu of %zu chunks", p->path,
					(unsigned long long)st->chunks, n);
	}
	if (open) /* what this transaction changed goes; committed groups stay, each readable */
		sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
	free(blob);
	free(v);
	llct_batch_free(&b);
	return s;
}

int llct_trace_pack(const char *path, int level,
		    int (*progress)(const struct llct_pack_stats *, void *), void *ud,
		    struct llct_pack_stats *st, char *errbuf, size_t errbuf_size)
{
	struct llct_pack_stats local;
	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	if (level < 0 || level > LLCT_CHUNK_LEVEL_MAX)
		return llct_db_msg(errbuf, errbuf_size, LLCT_ERR_INVALID,
				   "'%s': level %d is not 0..%d", path, level,
				   LLCT_CHUNK_LEVEL_MAX);
	/* A file the reader refuses (not a trace, a format this build cannot read) is left
	   alone, with the reader's message. */
	struct llct_reader *r;
	int s = llct_reader_open(path, &r, errbuf, errbuf_size);
	if (s)
		return s;
	llct_reader_close(r);

	struct pack p = {.path = path, .err = errbuf, .err_size = errbuf_size};
	if (sqlite3_open_v2(path, &p.db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		s = sql_fail(&p, "cannot open for writing");
		sqlite3_close(p.db);
		return s;
	}
	sqlite3_busy_timeout(p.db, 10000); /* a reader's transaction: wait for it */
	if (sqlite3_prepare_v2(p.db, "SELECT data FROM chunks WHERE id = ?", -1, &p.get, NULL) ||
	    sqlite3_prepare_v2(p.db, "UPDATE chunks SET data = ? WHERE id = ?", -1, &p.put, NULL))
		s = sql_fail(&p, "cannot prepare");
	if (!s)
		s = pack_all(&p, level, progress, ud, st);
	sqlite3_finalize(p.get);
	sqlite3_finalize(p.put);
	p.get = p.put = NULL;
	if (!s) {
		char sql[96];
		snprintf(sql, sizeof(sql),
			 "INSERT OR REPLACE INTO settings(key, value) VALUES('pack.level', '%d')",
			 level);
		s = exec(&p, sql, "cannot store the setting pack.level");
	}
	/* the space the old chunks took back to the file system: VACUUM writes a copy, so
	   needs as much free space again as the trace takes */
	if (!s)
		s = exec(&p, "VACUUM", "re-encoded, but cannot shrink the file (VACUUM)");
	sqlite3_close(p.db);
	return s;
}

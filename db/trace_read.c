/* trace_read.c - reads a .llct trace: checks it is one, lists frames, streams decoded chunks.
 *
 * Every check that can fail names the file and, where it applies, the frame and chunk: a
 * foreign file, a newer format, a missing table, a chunk whose count or sequence does not
 * match the frame index, or a blob that does not decode. Memory stays bounded by one chunk.
 */
#include "llct/trace.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct llct_reader {
	sqlite3 *db;
	char *path;
	struct llct_frame_info *frames; /* every committed frame, increasing */
	size_t n_frames;
	char id[48]; /* llct_reader_id */
	char err[512];
};

struct llct_cursor {
	struct llct_reader *r;
	sqlite3_stmt *chunks;    /* chunks of the current frame, in seq order */
	struct llct_batch batch; /* decode buffers */
	struct llct_frame_range range;
	int all;           /* no range: every frame */
	size_t frame_idx;  /* index into r->frames of the current frame */
	uint32_t next_seq; /* seq expected of the next chunk */
	uint64_t seen;     /* records seen in the current frame */
	int in_frame;
};

static int reader_fail(struct llct_reader *r, int st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int reader_fail(struct llct_reader *r, int st, const char *fmt, ...)
{
	va_list ap;
	int k = snprintf(r->err, sizeof(r->err), "'%s': ", r->path);
	va_start(ap, fmt);
	if (k > 0 && (size_t)k < sizeof(r->err))
		vsnprintf(r->err + k, sizeof(r->err) - (size_t)k, fmt, ap);
	va_end(ap);
	return st;
}

static int sql_fail(struct llct_reader *r, const char *what)
{
	int rc = sqlite3_errcode(r->db);
	int st = llct_db_status(rc);
	if (st == LLCT_OK)
		st = LLCT_ERR_DB;
	if (rc == SQLITE_NOTADB)
		return reader_fail(r, LLCT_ERR_FORMAT, "not an llctrace trace (not a database)");
	return reader_fail(r, st, "%s: %s", what, sqlite3_errmsg(r->db));
}

static int pragma_int(struct llct_reader *r, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read");
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return sql_fail(r, "cannot read");
	return LLCT_OK;
}

static int load_frames(struct llct_reader *r)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;
	if (sqlite3_prepare_v2(r->db,
			       "SELECT frame, n_chunks, n_records FROM frames ORDER BY frame", -1,
			       &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the frame index");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t f = sqlite3_column_int64(st, 0), c = sqlite3_column_int64(st, 1),
			n = sqlite3_column_int64(st, 2);
		if (f < 0 || f > UINT32_MAX || c < 0 || c > UINT32_MAX || n < 0 ||
		    (uint64_t)n > (uint64_t)c * LLCT_CHUNK_MAX) {
			sqlite3_finalize(st);
			return reader_fail(r, LLCT_ERR_CORRUPT, "frame index row %lld is not valid",
					   (long long)f);
		}
		if (r->n_frames == cap) {
			cap = cap ? 2 * cap : 64;
			void *p = realloc(r->frames, cap * sizeof(*r->frames));
			if (!p) {
				sqlite3_finalize(st);
				return reader_fail(r, LLCT_ERR_NOMEM, "out of memory");
			}
			r->frames = p;
		}
		r->frames[r->n_frames++] =
		    (struct llct_frame_info){(uint32_t)f, (uint32_t)c, (uint64_t)n};
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(r, "cannot read the frame index");
	/* The index must describe the chunks the file holds, frame by frame: what a reader
	 * allocates or loops over is sized by it (a hostile index of 2^40 records over three
	 * chunks is refused here, not met by a 4 TiB allocation). */
	if (sqlite3_prepare_v2(r->db,
			       "SELECT frame, count(*) FROM chunks GROUP BY frame ORDER BY frame",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the chunks");
	size_t i = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t f = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 1);
		while (i < r->n_frames && r->frames[i].frame < f && r->frames[i].n_chunks == 0)
			i++; /* frames with no records */
		if (i == r->n_frames || r->frames[i].frame != f || r->frames[i].n_chunks != n) {
			sqlite3_finalize(st);
			if (i < r->n_frames && r->frames[i].frame <= f)
				return reader_fail(r, LLCT_ERR_CORRUPT,
						   "frame %u: the index says %u chunks, the file "
						   "holds %lld",
						   r->frames[i].frame, r->frames[i].n_chunks,
						   r->frames[i].frame == f ? (long long)n : 0LL);
			return reader_fail(
			    r, LLCT_ERR_CORRUPT,
			    "frame %lld: has %lld chunks but no row in the frame index",
			    (long long)f, (long long)n);
		}
		i++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(r, "cannot read the chunks");
	for (; i < r->n_frames; i++)
		if (r->frames[i].n_chunks)
			return reader_fail(r, LLCT_ERR_CORRUPT,
					   "frame %u: the index says %u chunks, the file holds 0",
					   r->frames[i].frame, r->frames[i].n_chunks);
	return LLCT_OK;
}

/* The trace's id: the one its writer drew (settings.trace_id), or for a trace written before
 * ids existed one made from what identifies it (capture row and frame index), FNV-1a. */
static int load_id(struct llct_reader *r)
{
	sqlite3_stmt *st;
	uint64_t h = 0xcbf29ce484222325u;
	if (sqlite3_prepare_v2(r->db, "SELECT value FROM settings WHERE key = 'trace_id'", -1, &st,
			       NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the settings table");
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(r->id, sizeof(r->id), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (r->id[0])
		return LLCT_OK;
	if (sqlite3_prepare_v2(
		r->db,
		"SELECT coalesce(source, '') || char(31) || coalesce(application, '')"
		" || char(31) || coalesce(created_at, '') || char(31) ||"
		" coalesce(tool_version, '') FROM capture",
		-1, &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the capture table");
	while (sqlite3_step(st) == SQLITE_ROW)
		for (const unsigned char *p = sqlite3_column_text(st, 0); p && *p; p++)
			h = (h ^ *p) * 0x100000001b3u;
	sqlite3_finalize(st);
	for (size_t i = 0; i < r->n_frames; i++) {
		uint64_t v[3] = {r->frames[i].frame, r->frames[i].n_chunks, r->frames[i].n_records};
		for (size_t k = 0; k < 3; k++)
			for (int b = 0; b < 64; b += 8)
				h = (h ^ ((v[k] >> b) & 0xff)) * 0x100000001b3u;
	}
	snprintf(r->id, sizeof(r->id), "legacy-%016llx", (unsigned long long)h);
	return LLCT_OK;
}

int llct_reader_open(const char *path, struct llct_reader **out, char *errbuf, size_t errbuf_size)
{
	struct llct_reader *r;
	struct stat sb;
	int64_t app = 0, ver = 0, n_tables = 0;
	int st;

	*out = NULL;
	if (stat(path, &sb) != 0)
		return llct_db_msg(errbuf, errbuf_size, LLCT_ERR_IO, "'%s': cannot open: %s", path,
				   "no such file");
	if (!S_ISREG(sb.st_mode))
		return llct_db_msg(errbuf, errbuf_size, LLCT_ERR_IO, "'%s': not a regular file",
				   path);
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		return llct_db_msg(errbuf, errbuf_size, LLCT_ERR_NOMEM, "'%s': out of memory",
				   path);
	}
	if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		st = reader_fail(r, LLCT_ERR_IO, "cannot open: %s",
				 r->db ? sqlite3_errmsg(r->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(r->db, 10000); /* a writer's commit in progress: wait for it */
	if ((st = pragma_int(r, "PRAGMA application_id", &app)))
		goto fail;
	if (app == 0x4C4C4352) { /* LLCT_RESULTS_APPLICATION_ID (results.h is not this layer's) */
		st = reader_fail(r, LLCT_ERR_FORMAT,
				 "an llctrace results database, not a trace (traces come from "
				 "capture, synth or import)");
		goto fail;
	}
	if (app != LLCT_TRACE_APPLICATION_ID) {
		st = reader_fail(r, LLCT_ERR_FORMAT,
				 "not an llctrace trace (SQLite application_id is 0x%llx)",
				 (unsigned long long)app);
		goto fail;
	}
	if ((st = pragma_int(r, "PRAGMA user_version", &ver)))
		goto fail;
	if (ver < 1 || ver > LLCT_TRACE_FORMAT_VERSION) {
		st = reader_fail(r, LLCT_ERR_VERSION,
				 "trace format version %lld; this llctrace %s reads versions 1 to "
				 "%d (upgrade llctrace)",
				 (long long)ver, LLCT_VERSION, LLCT_TRACE_FORMAT_VERSION);
		goto fail;
	}
	if ((st = pragma_int(r,
			     "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name IN "
			     "('capture','settings','frames','chunks','kernels','resources')",
			     &n_tables)))
		goto fail;
	if (n_tables != 6) {
		st = reader_fail(r, LLCT_ERR_FORMAT, "trace is missing some of its tables");
		goto fail;
	}
	if ((st = load_frames(r)) || (st = load_id(r)))
		goto fail;
	*out = r;
	return LLCT_OK;
fail:
	llct_db_msg(errbuf, errbuf_size, st, "%s", r->err);
	llct_reader_close(r);
	return st;
}

void llct_reader_close(struct llct_reader *r)
{
	if (!r)
		return;
	sqlite3_close(r->db);
	free(r->frames);
	free(r->path);
	free(r);
}

const char *llct_reader_error(const struct llct_reader *r)
{
	return r->err;
}

const char *llct_reader_id(const struct llct_reader *r)
{
	return r->id;
}

const char *llct_reader_path(const struct llct_reader *r)
{
	return r->path;
}

int llct_reader_frames(struct llct_reader *r, const struct llct_frame_info **frames, size_t *n)
{
	*frames = r->frames;
	*n = r->n_frames;
	return LLCT_OK;
}

int llct_reader_foreach_meta(struct llct_reader *r,
			     int (*fn)(const char *table, const char *key, const char *value,
				       void *ud),
			     void *ud)
{
	static const char *const cols[] = {"source",         "tier",      "application",
					   "device",         "driver",    "tool_version",
					   "format_version", "created_at"};
	sqlite3_stmt *st;
	int rc, stop = 0;
	if (sqlite3_prepare_v2(r->db,
			       "SELECT source, tier, application, device, driver, tool_version,"
			       " format_version, created_at FROM capture",
			       -1, &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the capture table");
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 8 && !stop; i++)
			stop = fn("capture", cols[i], (const char *)sqlite3_column_text(st, i), ud);
	sqlite3_finalize(st);
	if (stop)
		return LLCT_OK;
	if (sqlite3_prepare_v2(r->db, "SELECT key, value FROM settings ORDER BY key", -1, &st,
			       NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the settings table");
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
		stop = fn("settings", (const char *)sqlite3_column_text(st, 0),
			  (const char *)sqlite3_column_text(st, 1), ud);
	sqlite3_finalize(st);
	return LLCT_OK;
}

int llct_reader_foreach_kernel(struct llct_reader *r,
			       int (*fn)(uint64_t id, uint32_t frame, const char *kind,
					 const char *name, const char *params, void *ud),
			       void *ud)
{
	sqlite3_stmt *st;
	int rc, stop = 0;
	if (sqlite3_prepare_v2(r->db,
			       "SELECT id, frame, kind, name, params FROM kernels ORDER BY id", -1,
			       &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the kernels table");
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
		stop =
		    fn((uint64_t)sqlite3_column_int64(st, 0), (uint32_t)sqlite3_column_int64(st, 1),
		       (const char *)sqlite3_column_text(st, 2),
		       (const char *)sqlite3_column_text(st, 3),
		       (const char *)sqlite3_column_text(st, 4), ud);
	sqlite3_finalize(st);
	return LLCT_OK;
}

/* Whether the trace has a `sites` table (format 2 on). */
static int has_sites(struct llct_reader *r)
{
	int64_t v = 0;
	return !pragma_int(r,
			   "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='sites'",
			   &v) &&
	       v == 1;
}

int llct_reader_foreach_site(struct llct_reader *r, int (*fn)(const struct llct_site *s, void *ud),
			     void *ud)
{
	sqlite3_stmt *st;
	int rc, stop = 0;
	if (!has_sites(r))
		return LLCT_OK;
	if (sqlite3_prepare_v2(
		r->db,
		"SELECT id, pipeline, stage, word, op, \"set\", binding, size FROM sites"
		" ORDER BY id",
		-1, &st, NULL) != SQLITE_OK)
		return sql_fail(r, "cannot read the sites table");
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct llct_site s = {.id = (uint32_t)sqlite3_column_int64(st, 0),
				      .pipeline = (uint64_t)sqlite3_column_int64(st, 1),
				      .stage = (const char *)sqlite3_column_text(st, 2),
				      .word = (uint32_t)sqlite3_column_int64(st, 3),
				      .op = (const char *)sqlite3_column_text(st, 4),
				      .set = (int32_t)sqlite3_column_int64(st, 5),
				      .binding = (int32_t)sqlite3_column_int64(st, 6),
				      .size = (uint32_t)sqlite3_column_int64(st, 7)};
		stop = fn(&s, ud);
	}
	sqlite3_finalize(st);
	return LLCT_OK;
}

int llct_reader_compressed_bytes(struct llct_reader *r, uint64_t *bytes)
{
	int64_t v = 0;
	int st = pragma_int(r, "SELECT coalesce(sum(length(data)), 0) FROM chunks", &v);
	*bytes = (uint64_t)v;
	return st;
}

int llct_reader_count(struct llct_reader *r, const char *table, uint64_t *n)
{
	int64_t v = 0;
	int st;
	if (strcmp(table, "kernels") == 0)
		st = pragma_int(r, "SELECT count(*) FROM kernels", &v);
	else if (strcmp(table, "resources") == 0)
		st = pragma_int(r, "SELECT count(*) FROM resources", &v);
	else if (strcmp(table, "sites") == 0)
		st = has_sites(r) ? pragma_int(r, "SELECT count(*) FROM sites", &v) : LLCT_OK;
	else
		return LLCT_ERR_INVALID;
	*n = (uint64_t)v;
	return st;
}

int llct_cursor_open(struct llct_reader *r, const struct llct_frame_range *range,
		     struct llct_cursor **out)
{
	struct llct_cursor *c = calloc(1, sizeof(*c));
	*out = NULL;
	if (!c || llct_batch_alloc(&c->batch) != LLCT_OK) {
		free(c);
		return reader_fail(r, LLCT_ERR_NOMEM, "out of memory");
	}
	c->r = r;
	c->all = range == NULL;
	if (range) {
		c->range.n = range->n;
		c->range.spans = malloc(range->n * sizeof(*range->spans) + 1);
		if (!c->range.spans) {
			llct_cursor_close(c);
			return reader_fail(r, LLCT_ERR_NOMEM, "out of memory");
		}
		memcpy(c->range.spans, range->spans, range->n * sizeof(*range->spans));
	}
	if (sqlite3_prepare_v2(r->db,
			       "SELECT id, seq, n_records, data FROM chunks WHERE frame = ?"
			       " ORDER BY seq",
			       -1, &c->chunks, NULL) != SQLITE_OK) {
		llct_cursor_close(c);
		return sql_fail(r, "cannot read chunks");
	}
	*out = c;
	return LLCT_OK;
}

/* Moves to the next frame in range; returns 0 when there is none. */
static int next_frame(struct llct_cursor *c)
{
	while (c->frame_idx < c->r->n_frames) {
		const struct llct_frame_info *f = &c->r->frames[c->frame_idx];
		if (c->all || llct_frame_range_contains(&c->range, f->frame)) {
			sqlite3_reset(c->chunks);
			sqlite3_bind_int64(c->chunks, 1, f->frame);
			c->next_seq = 0;
			c->seen = 0;
			c->in_frame = 1;
			return 1;
		}
		c->frame_idx++;
	}
	return 0;
}

static int cursor_step(struct llct_cursor *c, struct llct_batch *dst);

int llct_cursor_next(struct llct_cursor *c, struct llct_batch *b)
{
	int got = cursor_step(c, &c->batch);
	if (got > 0)
		*b = c->batch;
	return got;
}

int llct_cursor_next_into(struct llct_cursor *c, struct llct_batch *b)
{
	return cursor_step(c, b);
}

/* Steps to the next chunk row of the frames in range, checked against the index: 1 with the
 * row in c->chunks, 0 at the end, < 0 on error. */
static int cursor_fetch(struct llct_cursor *c)
{
	struct llct_reader *r = c->r;
	for (;;) {
		if (!c->in_frame && !next_frame(c))
			return 0;
		const struct llct_frame_info *f = &r->frames[c->frame_idx];
		int rc = sqlite3_step(c->chunks);
		if (rc == SQLITE_DONE) {
			if (c->next_seq != f->n_chunks || c->seen != f->n_records)
				return reader_fail(r, LLCT_ERR_CORRUPT,
						   "frame %u: has %u chunks and %llu records, the "
						   "index says %u and %llu",
						   f->frame, c->next_seq,
						   (unsigned long long)c->seen, f->n_chunks,
						   (unsigned long long)f->n_records);
			c->in_frame = 0;
			c->frame_idx++;
			continue;
		}
		if (rc != SQLITE_ROW)
			return sql_fail(r, "cannot read a chunk");
		int64_t id = sqlite3_column_int64(c->chunks, 0);
		int64_t seq = sqlite3_column_int64(c->chunks, 1);
		int64_t n = sqlite3_column_int64(c->chunks, 2);
		const void *blob = sqlite3_column_blob(c->chunks, 3);
		if (seq != c->next_seq || n <= 0 || n > LLCT_CHUNK_MAX ||
		    sqlite3_column_type(c->chunks, 3) != SQLITE_BLOB || !blob)
			return reader_fail(r, LLCT_ERR_CORRUPT,
					   "frame %u chunk %lld: index row is not valid", f->frame,
					   (long long)id);
		c->next_seq++;
		c->seen += (uint64_t)n;
		return 1;
	}
}

static int cursor_step(struct llct_cursor *c, struct llct_batch *dst)
{
	struct llct_reader *r = c->r;
	char why[160];
	int got = cursor_fetch(c);
	if (got <= 0)
		return got;
	const struct llct_frame_info *f = &r->frames[c->frame_idx];
	int64_t id = sqlite3_column_int64(c->chunks, 0);
	int64_t n = sqlite3_column_int64(c->chunks, 2);
	const void *blob = sqlite3_column_blob(c->chunks, 3);
	int size = sqlite3_column_bytes(c->chunks, 3);
	int st = llct_chunk_decode(blob, (size_t)size, (uint32_t)n, dst, why, sizeof(why));
	if (st)
		return reader_fail(r, st, "frame %u chunk %lld: %s", f->frame, (long long)id, why);
	dst->frame = f->frame;
	dst->chunk_id = (uint64_t)id;
	return 1;
}

int llct_cursor_next_raw(struct llct_cursor *c, struct llct_raw_chunk *raw)
{
	int got = cursor_fetch(c);
	if (got <= 0)
		return got;
	const void *blob = sqlite3_column_blob(c->chunks, 3);
	size_t size = (size_t)sqlite3_column_bytes(c->chunks, 3);
	if (size > raw->cap) {
		uint8_t *d = realloc(raw->data, size);
		if (!d)
			return reader_fail(c->r, LLCT_ERR_NOMEM, "out of memory");
		raw->data = d;
		raw->cap = size;
	}
	memcpy(raw->data, blob, size);
	raw->size = size;
	raw->frame = c->r->frames[c->frame_idx].frame;
	raw->n = (uint32_t)sqlite3_column_int64(c->chunks, 2);
	raw->chunk_id = (uint64_t)sqlite3_column_int64(c->chunks, 0);
	return 1;
}

int llct_raw_chunk_decode(const struct llct_reader *r, const struct llct_raw_chunk *raw,
			  struct llct_batch *b, char *err, size_t err_size)
{
	char why[160];
	int st = llct_chunk_decode(raw->data, raw->size, raw->n, b, why, sizeof(why));
	if (st)
		return llct_db_msg(err, err_size, st, "'%s': frame %u chunk %llu: %s", r->path,
				   raw->frame, (unsigned long long)raw->chunk_id, why);
	b->frame = raw->frame;
	b->chunk_id = raw->chunk_id;
	return LLCT_OK;
}

void llct_raw_chunk_free(struct llct_raw_chunk *raw)
{
	free(raw->data);
	memset(raw, 0, sizeof(*raw));
}

void llct_cursor_close(struct llct_cursor *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->chunks);
	llct_batch_free(&c->batch);
	free(c->range.spans);
	free(c);
}

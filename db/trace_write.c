/* trace_write.c - writes a .llct trace: frames of records as chunks, one transaction a frame.
 *
 * Records are buffered as they come until a chunk is full (LLCT_CHUNK_MAX) or the frame ends,
 * then encoded and inserted. They are copied in (llct_writer_append) or written in place by
 * the caller (llct_writer_reserve, llct_writer_commit: capture's footprint model does).
 * Nothing of a frame is visible until llct_writer_end_frame commits it; SQLite's rollback
 * journal makes a writer killed at any point leave the earlier frames.
 * The writer does not wait for the disk (synchronous=OFF): a commit is in the kernel's page
 * cache when it returns, which survives the writing program's crash or kill, not a crash of
 * the machine; a capture's frames would otherwise each wait on two fsyncs (1.5 ms a frame of
 * glmark2 at 100 frames/s, docs/PERFORMANCE.md). The journal file is kept between frames
 * (journal_mode=PERSIST: no create and unlink a frame) and removed at close.
 *
 * A full chunk is encoded and compressed on the writer's own thread while the caller fills the
 * next ones (a ring of four); the caller inserts each blob, in order, when it needs the slot
 * back or ends the frame (encoding a chunk itself if the thread has not begun it), so SQLite is
 * only ever used from the caller's thread. A frame's last chunk, when no other is in flight, is
 * encoded in line (the caller waits for it at once), so a trace of small frames starts no
 * thread. Where no thread can start, chunks are encoded in line.
 */
#include "llct/bigmem.h"
#include "llct/trace.h"
#include "store.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WRITER_RING 4 /* chunks being filled or in flight */

struct llct_writer {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins_chunk, *ins_frame, *ins_kernel, *ins_resource, *ins_setting, *ins_site;
	/* A ring of chunks: the caller fills q[fill]; full ones go to the encoder in turn, and
	 * are inserted (collected) in the same order once encoded, the oldest when the caller
	 * needs its slot, all at a frame's end. Several in flight let the caller go on through
	 * a burst of records while the encoder catches up (with one, the layer's expansion
	 * thread waited for it a tenth of its time on glmark2 `shadow`); the caller only puts
	 * the records in, and the encoder encodes them as they are, into buffers it keeps. */
	struct wchunk {
		struct llct_record *rows; /* as appended, n of them, room for cap (grown as they
					     come, to LLCT_CHUNK_RECORDS: a small trace never takes
					     a whole chunk's 1.5 MiB four times over) */
		uint32_t n, cap;
		int state; /* 0 free (or being filled), 1 handed over, 3 being encoded, 2 encoded:
			      under mu */
		struct llct_chunk_enc enc; /* the blob, and buffers kept for the next chunk */
		size_t size;               /* the blob's */
		int status;
		uint32_t chunk; /* its index in the frame */
	} q[WRITER_RING];
	unsigned fill, oldest, in_flight;   /* the caller's: slot filled, oldest handed, count */
	unsigned enc_next;                  /* the encoder's: the slot it takes next */
	int enc_thread, enc_none, enc_quit; /* the thread runs; could not start; is to stop */
	pthread_t enc;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int in_frame; /* a frame is open (and a transaction with it) */
	int has_last; /* last_frame is meaningful */
	uint32_t frame, last_frame;
	uint32_t n_chunks;       /* chunks written for the current frame */
	uint64_t frame_records;  /* records appended to the current frame */
	uint64_t bytes, records; /* totals over committed frames (bytes include pending) */
	int failed;              /* first error status, sticky */
	char err[512];
};

int llct_db_msg(char *buf, size_t size, int status, const char *fmt, ...)
{
	if (buf && size) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, size, fmt, ap);
		va_end(ap);
	}
	return status;
}

int llct_db_status(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_DONE:
	case SQLITE_ROW:
		return LLCT_OK;
	case SQLITE_NOMEM:
		return LLCT_ERR_NOMEM;
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return LLCT_ERR_IO;
	case SQLITE_CORRUPT:
		return LLCT_ERR_CORRUPT;
	case SQLITE_NOTADB:
		return LLCT_ERR_FORMAT;
	default:
		return LLCT_ERR_DB;
	}
}

/* Records an SQLite failure on w; returns its status. */
static int db_fail(struct llct_writer *w, const char *what)
{
	int st = llct_db_status(sqlite3_errcode(w->db));
	if (st == LLCT_OK)
		st = LLCT_ERR_DB;
	snprintf(w->err, sizeof(w->err), "'%s': %s: %s", w->path, what, sqlite3_errmsg(w->db));
	if (!w->failed)
		w->failed = st;
	return st;
}

static int exec(struct llct_writer *w, const char *sql)
{
	if (sqlite3_exec(w->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(w, "cannot write");
	return LLCT_OK;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int step_reset(struct llct_writer *w, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return db_fail(w, what);
	return LLCT_OK;
}

static void now_utc(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int llct_writer_open(const char *path, const struct llct_capture_info *info,
		     struct llct_writer **out, char *errbuf, size_t errbuf_size)
{
	struct llct_writer *w;
	char when[32], pragmas[128];
	int st;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return llct_db_msg(errbuf, errbuf_size, LLCT_ERR_NOMEM, "'%s': out of memory",
				   path);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->path = strdup(path);
	if (!w->path) {
		st = llct_db_msg(errbuf, errbuf_size, LLCT_ERR_NOMEM, "'%s': out of memory", path);
		goto fail_alloc;
	}
	if (unlink(path) != 0 && access(path, F_OK) == 0) {
		st = llct_db_msg(errbuf, errbuf_size, LLCT_ERR_IO, "'%s': cannot replace the file",
				 path);
		goto fail_alloc;
	}
	if (sqlite3_open_v2(path, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		st = llct_db_msg(errbuf, errbuf_size, LLCT_ERR_IO, "'%s': cannot create: %s", path,
				 w->db ? sqlite3_errmsg(w->db) : "out of memory");
		goto fail_db;
	}
	/* another process reading the trace (`llctrace info` on a capture in progress) holds a
	   read lock for a moment: a frame's commit waits for it rather than failing */
	sqlite3_busy_timeout(w->db, 10000);
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA application_id=%d; PRAGMA user_version=%d; PRAGMA page_size=65536;",
		 LLCT_TRACE_APPLICATION_ID, LLCT_TRACE_FORMAT_VERSION);
	if ((st = exec(w, pragmas)) ||
	    (st = exec(w, "PRAGMA synchronous=OFF; PRAGMA journal_mode=PERSIST; BEGIN")) ||
	    (st = exec(w, LLCT_TRACE_SCHEMA)))
		goto fail_sql;
	sqlite3_stmt *cap;
	if (sqlite3_prepare_v2(w->db,
			       "INSERT INTO capture VALUES(1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1,
			       &cap, NULL) != SQLITE_OK) {
		st = db_fail(w, "cannot prepare");
		goto fail_sql;
	}
	now_utc(when, sizeof(when));
	bind_text(cap, 1, info ? info->source : NULL);
	sqlite3_bind_int(cap, 2, info ? info->tier : 0);
	bind_text(cap, 3, info ? info->application : NULL);
	bind_text(cap, 4, info ? info->device : NULL);
	bind_text(cap, 5, info ? info->driver : NULL);
	bind_text(cap, 6, LLCT_VERSION);
	sqlite3_bind_int(cap, 7, LLCT_TRACE_FORMAT_VERSION);
	bind_text(cap, 8, when);
	st = step_reset(w, cap, "cannot write the capture row");
	sqlite3_finalize(cap);
	if (st ||
	    (st = exec(w, "INSERT INTO settings VALUES('trace_id',"
			  " lower(hex(randomblob(16))))")) ||
	    (st = exec(w, "COMMIT")))
		goto fail_sql;

	struct {
		sqlite3_stmt **st;
		const char *sql;
	} stmts[] = {
	    {&w->ins_chunk, "INSERT INTO chunks(frame, seq, n_records, data) VALUES(?,?,?,?)"},
	    {&w->ins_frame, "INSERT INTO frames VALUES(?,?,?,?)"},
	    {&w->ins_kernel, "INSERT OR REPLACE INTO kernels VALUES(?,?,?,?,?)"},
	    {&w->ins_resource, "INSERT OR REPLACE INTO resources VALUES(?,?,?,?,?,?)"},
	    {&w->ins_setting, "INSERT OR REPLACE INTO settings VALUES(?,?)"},
	    {&w->ins_site, "INSERT OR REPLACE INTO sites VALUES(?,?,?,?,?,?,?,?)"},
	};
	for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		if (sqlite3_prepare_v2(w->db, stmts[i].sql, -1, stmts[i].st, NULL) != SQLITE_OK) {
			st = db_fail(w, "cannot prepare");
			goto fail_sql;
		}
	}
	*out = w;
	return LLCT_OK;

fail_sql:
	llct_db_msg(errbuf, errbuf_size, st, "%s", w->err);
fail_db:
	llct_writer_close(w);
	unlink(path);
	return st;
fail_alloc:
	for (int k = 0; k < WRITER_RING; k++)
		free(w->q[k].rows);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w->path);
	free(w);
	return st;
}

int llct_writer_set(struct llct_writer *w, const char *key, const char *value)
{
	if (w->failed)
		return w->failed;
	bind_text(w->ins_setting, 1, key);
	bind_text(w->ins_setting, 2, value);
	return step_reset(w, w->ins_setting, "cannot store a setting");
}

int llct_writer_begin_frame(struct llct_writer *w, uint32_t frame)
{
	if (w->failed)
		return w->failed;
	if (w->in_frame || (w->has_last && frame <= w->last_frame)) {
		snprintf(w->err, sizeof(w->err), "'%s': frame %u begun %s", w->path, frame,
			 w->in_frame ? "inside another frame" : "after a later or equal frame");
		return LLCT_ERR_STATE;
	}
	int st = exec(w, "BEGIN");
	if (st)
		return st;
	w->in_frame = 1;
	w->frame = frame;
	w->n_chunks = 0;
	w->frame_records = 0;
	w->q[w->fill].n = 0;
	return LLCT_OK;
}

/* A chunk's records encoded. */
static int encode(struct wchunk *q)
{
	return llct_chunk_encode_records(&q->enc, q->rows, q->n, &q->size);
}

/* Claims handed-over chunk q, the encoder's next, and encodes it without the lock (held on
 * entry and on return). */
static void encode_unlocked(struct llct_writer *w, struct wchunk *q)
{
	q->state = 3;
	w->enc_next = (w->enc_next + 1) % WRITER_RING;
	pthread_mutex_unlock(&w->mu);
	int st = encode(q);
	pthread_mutex_lock(&w->mu);
	q->status = st;
	q->state = 2;
}

static void *encoder(void *arg)
{
	LLCT_THREAD_NAME("llct-encode");
	struct llct_writer *w = arg;
	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->q[w->enc_next].state != 1 && !w->enc_quit)
			pthread_cond_wait(&w->cv, &w->mu);
		struct wchunk *q = &w->q[w->enc_next];
		if (q->state != 1)
			break; /* to stop, and nothing handed over */
		encode_unlocked(w, q);
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Waits for the oldest chunk in flight and inserts it (or, with `insert` 0, drops it). */
static int collect_one(struct llct_writer *w, int insert)
{
	struct wchunk *q = &w->q[w->oldest];
	if (w->enc_thread) {
		pthread_mutex_lock(&w->mu);
		if (q->state == 1) { /* not begun: encoded here rather than waited for (the
					encoder may be waiting for a core the caller has) */
			encode_unlocked(w, q); /* it was the encoder's next: it goes in order */
		}
		while (q->state != 2)
			pthread_cond_wait(&w->cv, &w->mu);
		q->state = 0;
		pthread_mutex_unlock(&w->mu);
	} else {
		q->state = 0;
	}
	w->oldest = (w->oldest + 1) % WRITER_RING;
	w->in_flight--;
	if (!insert || w->failed)
		return w->failed;
	if (q->status) {
		snprintf(w->err, sizeof(w->err), "'%s': frame %u: cannot encode a chunk: %s",
			 w->path, w->frame,
			 q->status == LLCT_ERR_INVALID
			     ? "a record committed in place has a stream or op out of range"
			     : llct_strerror(q->status));
		w->failed = q->status;
		return q->status;
	}
	sqlite3_bind_int64(w->ins_chunk, 1, w->frame);
	sqlite3_bind_int64(w->ins_chunk, 2, q->chunk);
	sqlite3_bind_int64(w->ins_chunk, 3, q->n);
	/* static: the buffer outlives the insert, and is reused for the slot's next chunk */
	sqlite3_bind_blob(w->ins_chunk, 4, q->enc.blob, (int)q->size, SQLITE_STATIC);
	int st = step_reset(w, w->ins_chunk, "cannot write a chunk");
	if (st)
		return st;
	w->bytes += q->size;
	return LLCT_OK;
}

/* Every chunk in flight, in order; the first failure is returned, the rest dropped. */
static int collect(struct llct_writer *w, int insert)
{
	int st = LLCT_OK;
	while (w->in_flight) {
		int s1 = collect_one(w, insert && !st);
		st = st ? st : s1;
	}
	return st;
}

/* Hands the records being filled to the encoder as the frame's next chunk; when the ring is
 * then full, inserts the oldest; with `all`, waits for every chunk and inserts them. */
static int flush_chunk(struct llct_writer *w, int all)
{
	struct wchunk *q = &w->q[w->fill];
	if (q->n) {
		q->chunk = w->n_chunks++;
		/* a frame's only chunk in flight, waited for at once: encoded here, with no thread
		   started or woken for it (a small trace never starts one) */
		int here = all && !w->in_flight;
		if (!here && !w->enc_thread &&
		    !w->enc_none) { /* started with the first chunk handed over; not retried */
			w->enc_thread = !pthread_create(&w->enc, NULL, encoder, w);
			w->enc_none = !w->enc_thread;
		}
		if (w->enc_thread && !here) {
			pthread_mutex_lock(&w->mu);
			q->state = 1;
			pthread_cond_signal(&w->cv);
			pthread_mutex_unlock(&w->mu);
		} else {
			q->status = encode(q);
			if (w->enc_thread) /* the encoder's next slot moves on past it */
				pthread_mutex_lock(&w->mu);
			q->state = 2;
			w->enc_next = (w->enc_next + 1) % WRITER_RING;
			if (w->enc_thread)
				pthread_mutex_unlock(&w->mu);
		}
		w->in_flight++;
		w->fill = (w->fill + 1) % WRITER_RING;
	}
	int st = LLCT_OK;
	if (w->in_flight == WRITER_RING) /* the slot to fill next is the oldest in flight */
		st = collect_one(w, 1);
	if (!st && all)
		st = collect(w, 1);
	w->q[w->fill].n = 0; /* free now */
	return st;
}

/* Whether records may be added now (else the reason is in w->err, or w->failed). */
static int accepting(struct llct_writer *w)
{
	if (w->failed)
		return w->failed;
	if (!w->in_frame) {
		snprintf(w->err, sizeof(w->err), "'%s': records appended outside a frame", w->path);
		return LLCT_ERR_STATE;
	}
	return LLCT_OK;
}

struct llct_record *llct_writer_reserve(struct llct_writer *w, size_t *room)
{
	*room = 0;
	if (accepting(w))
		return NULL;
	struct wchunk *q = &w->q[w->fill]; /* never full: a full chunk is handed on at once */
	if (q->n == q->cap) { /* its room grown: 4,096 records, then four times as many */
		uint32_t cap = q->cap ? q->cap * 4 : 4096;
		cap = cap < LLCT_CHUNK_RECORDS ? cap : LLCT_CHUNK_RECORDS;
		struct llct_record *p =
		    llct_big_grow(q->rows, (size_t)q->n * sizeof(*p), (size_t)cap * sizeof(*p));
		if (!p) {
			snprintf(w->err, sizeof(w->err), "'%s': frame %u: out of memory", w->path,
				 w->frame);
			w->failed = LLCT_ERR_NOMEM;
			return NULL;
		}
		q->rows = p, q->cap = cap;
	}
	*room = q->cap - q->n;
	return q->rows + q->n;
}

int llct_writer_commit(struct llct_writer *w, size_t n)
{
	int st = accepting(w);
	if (st)
		return st;
	struct wchunk *q = &w->q[w->fill];
	if (n > q->cap - q->n) {
		snprintf(w->err, sizeof(w->err), "'%s': %zu records committed, room for %u",
			 w->path, n, q->cap - q->n);
		return LLCT_ERR_INVALID;
	}
	q->n += (uint32_t)n;
	w->frame_records += n;
	return q->n == LLCT_CHUNK_RECORDS ? flush_chunk(w, 0) : LLCT_OK;
}

int llct_writer_append(struct llct_writer *w, const struct llct_record *recs, size_t n)
{
	int st = accepting(w);
	if (st)
		return st;
	for (size_t i = 0; i < n;) { /* a run at a time: as many as the chunk has room for */
		size_t m;
		struct llct_record *to = llct_writer_reserve(w, &m);
		if (!to)
			return accepting(w);
		m = n - i < m ? n - i : m;
		const struct llct_record *r = &recs[i];
		int bad = 0;
		for (size_t j = 0; j < m; j++) /* no branch a record: one check after */
			bad |= (r[j].stream >= LLCT_N_STREAMS) | (r[j].op > 1);
		for (size_t j = 0; bad && j < m; j++)
			if (r[j].stream >= LLCT_N_STREAMS || r[j].op > 1) {
				snprintf(w->err, sizeof(w->err),
					 "'%s': frame %u: record with stream %u op %u is not valid",
					 w->path, w->frame, r[j].stream, r[j].op);
				return LLCT_ERR_INVALID; /* none of this run is kept */
			}
		memcpy(to, r, m * sizeof(*r));
		if ((st = llct_writer_commit(w, m)))
			return st;
		i += m;
	}
	return LLCT_OK;
}

int llct_writer_add_kernel(struct llct_writer *w, const struct llct_kernel *k)
{
	if (w->failed)
		return w->failed;
	sqlite3_bind_int64(w->ins_kernel, 1, k->id);
	sqlite3_bind_int64(w->ins_kernel, 2, k->frame);
	bind_text(w->ins_kernel, 3, k->kind ? k->kind : "unknown");
	bind_text(w->ins_kernel, 4, k->name);
	bind_text(w->ins_kernel, 5, k->params);
	return step_reset(w, w->ins_kernel, "cannot write a kernel");
}

int llct_writer_add_resource(struct llct_writer *w, const struct llct_resource *r)
{
	if (w->failed)
		return w->failed;
	sqlite3_bind_int64(w->ins_resource, 1, (sqlite3_int64)r->id);
	bind_text(w->ins_resource, 2, r->kind ? r->kind : "unknown");
	bind_text(w->ins_resource, 3, r->name);
	sqlite3_bind_int64(w->ins_resource, 4, (sqlite3_int64)r->addr);
	sqlite3_bind_int64(w->ins_resource, 5, (sqlite3_int64)r->size);
	bind_text(w->ins_resource, 6, r->params);
	return step_reset(w, w->ins_resource, "cannot write a resource");
}

int llct_writer_add_site(struct llct_writer *w, const struct llct_site *s)
{
	if (w->failed)
		return w->failed;
	if (!s->id) {
		snprintf(w->err, sizeof(w->err), "'%s': a site numbered 0 (0 means none)", w->path);
		return LLCT_ERR_INVALID;
	}
	sqlite3_bind_int64(w->ins_site, 1, s->id);
	sqlite3_bind_int64(w->ins_site, 2, (sqlite3_int64)s->pipeline);
	bind_text(w->ins_site, 3, s->stage ? s->stage : "unknown");
	sqlite3_bind_int64(w->ins_site, 4, s->word);
	bind_text(w->ins_site, 5, s->op ? s->op : "unknown");
	sqlite3_bind_int64(w->ins_site, 6, s->set);
	sqlite3_bind_int64(w->ins_site, 7, s->binding);
	sqlite3_bind_int64(w->ins_site, 8, s->size);
	return step_reset(w, w->ins_site, "cannot write a site");
}

int llct_writer_end_frame(struct llct_writer *w)
{
	char when[32];
	int st;
	if (w->failed)
		return w->failed;
	if (!w->in_frame) {
		snprintf(w->err, sizeof(w->err), "'%s': frame ended but none was begun", w->path);
		return LLCT_ERR_STATE;
	}
	if ((st = flush_chunk(w, 1)))
		return st;
	now_utc(when, sizeof(when));
	sqlite3_bind_int64(w->ins_frame, 1, w->frame);
	sqlite3_bind_int64(w->ins_frame, 2, (sqlite3_int64)w->frame_records);
	sqlite3_bind_int64(w->ins_frame, 3, w->n_chunks);
	bind_text(w->ins_frame, 4, when);
	if ((st = step_reset(w, w->ins_frame, "cannot write a frame row")) ||
	    (st = exec(w, "COMMIT")))
		return st;
	w->in_frame = 0;
	w->has_last = 1;
	w->last_frame = w->frame;
	w->records += w->frame_records;
	return LLCT_OK;
}

int llct_writer_abort_frame(struct llct_writer *w)
{
	if (!w->in_frame)
		return LLCT_OK;
	w->in_frame = 0;
	collect(w, 0);
	w->q[w->fill].n = 0;
	if (sqlite3_exec(w->db, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(w, "cannot roll back");
	return LLCT_OK;
}

int llct_writer_close(struct llct_writer *w)
{
	int st;
	if (!w)
		return LLCT_OK;
	if (w->db && w->in_frame)
		llct_writer_abort_frame(w);
	collect(w, 0);
	if (w->enc_thread) {
		pthread_mutex_lock(&w->mu);
		w->enc_quit = 1;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->enc, NULL);
	}
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	sqlite3_finalize(w->ins_chunk);
	sqlite3_finalize(w->ins_frame);
	sqlite3_finalize(w->ins_kernel);
	sqlite3_finalize(w->ins_resource);
	sqlite3_finalize(w->ins_site);
	sqlite3_finalize(w->ins_setting);
	if (w->db && !w->in_frame) /* the kept journal goes */
		sqlite3_exec(w->db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
	if (w->db && sqlite3_close(w->db) != SQLITE_OK && !w->failed)
		w->failed = LLCT_ERR_IO;
	st = w->failed;
	for (int k = 0; k < WRITER_RING; k++) {
		llct_chunk_enc_free(&w->q[k].enc);
		free(w->q[k].rows);
	}
	free(w->path);
	free(w);
	return st;
}

const char *llct_writer_error(const struct llct_writer *w)
{
	return w->err;
}

uint64_t llct_writer_bytes(const struct llct_writer *w)
{
	return w->bytes;
}

uint64_t llct_writer_records(const struct llct_writer *w)
{
	return w->records;
}

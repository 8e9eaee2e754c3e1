/* trace.h - the .llct trace store: write frames of LLC access records, read them back fast.
 *
 * A trace is one SQLite file (docs/FORMAT.md). Records are stored in chunks of at most
 * LLCT_CHUNK_MAX records; a chunk never spans two frames. Each frame is written in one
 * transaction, so a writer killed at any point leaves every ended frame readable.
 * This API does not model caches or capture anything; it only stores and reads.
 */
#ifndef LLCT_TRACE_H
#define LLCT_TRACE_H

#include "llct.h"

#include <stdint.h>

/* Largest number of records in one chunk (and in one decoded batch). */
#define LLCT_CHUNK_MAX 65536
/* Records the writer puts in a chunk: a decoded batch then stays in a core's L2 cache. */
#define LLCT_CHUNK_RECORDS 65536

/* One LLC access (docs/FORMAT.md). */
struct llct_record {
	uint64_t addr;   /* byte address in the captured device address space */
	uint32_t kernel; /* draw/dispatch/copy... number, in execution order */
	uint16_t sm;     /* shader core that issued the access */
	uint16_t tenant; /* application; 0 in a single capture */
	uint8_t stream;  /* enum llct_stream */
	uint8_t op;      /* enum llct_op */
	uint32_t site;   /* the shader instruction that made it: a row of the `sites` table
			    (format 2; tier 3's instrumented accesses), 0 for none */
};

/* A decoded run of records of one frame, as parallel columns (struct of arrays). */
struct llct_batch {
	uint32_t frame;    /* frame every record belongs to */
	uint32_t n;        /* records in this batch, 1..LLCT_CHUNK_MAX */
	uint64_t chunk_id; /* row id of the chunk it came from, for messages */
	uint64_t *addr;
	uint8_t *stream;
	uint8_t *op;
	uint16_t *sm;
	uint32_t *kernel;
	uint16_t *tenant;
	uint32_t *site; /* NULL when no record of the batch has a site (every one is 0) */
	struct llct_batch_scratch *scratch; /* decoder buffers; owned by llct_batch_alloc */
	/* Set by the caller before decoding into the batch: LLCT_BATCH_NO_IDS leaves sm, kernel,
	 * tenant and site undecoded and NULL, for a consumer that reads none of them (a replay of
	 * plain models: their runs of values cost a sixth of the decode). */
	unsigned flags;
};
#define LLCT_BATCH_NO_IDS 1u

/* Where a trace came from; stored in the `capture` table. NULL strings store as NULL. */
struct llct_capture_info {
	const char *source;      /* "capture", "synth", "import", ... */
	int tier;                /* capture fidelity tier 1..3, 0 when not captured */
	const char *application; /* program that was captured, or the generator */
	const char *device;      /* Vulkan device name */
	const char *driver;      /* driver name and version */
};

/* A GPU work item: one row of the `kernels` table. */
struct llct_kernel {
	uint32_t id;        /* the number records carry in `kernel` */
	uint32_t frame;     /* frame it ran in */
	const char *kind;   /* "draw", "dispatch", "clear", "copy", "blit", "resolve", ... */
	const char *name;   /* debug-label name, or NULL */
	const char *params; /* JSON object with the command's parameters, or NULL */
};

/* A memory resource: one row of the `resources` table. */
struct llct_resource {
	uint64_t id;
	const char *kind;   /* "buffer", "image", ... */
	const char *name;   /* debug name, or NULL */
	uint64_t addr;      /* first byte in the captured address space */
	uint64_t size;      /* bytes */
	const char *params; /* JSON object: format, extent, mips, usage, ..., or NULL */
};

/* A shader instruction that accesses memory (format 2): one row of the `sites` table, which
 * records name in `site`. Tier 3 numbers each instrumented instruction of each pipeline. */
struct llct_site {
	uint32_t id;          /* 1.. : what records carry in `site` */
	uint64_t pipeline;    /* the pipeline's number in the kernels' params ("pipeline"), 0 */
	const char *stage;    /* "vertex", "fragment", "compute" */
	uint32_t word;        /* the instruction's word offset in the stage's SPIR-V module */
	const char *op;       /* "load", "store", "atomic", "sample", "fetch", "gather", ... */
	int32_t set, binding; /* the descriptor accessed; -1 for a device address */
	uint32_t size;        /* bytes an access, 0 where the layout does not say */
};

/* One frame as listed by a reader. */
struct llct_frame_info {
	uint32_t frame;
	uint32_t n_chunks;
	uint64_t n_records;
};

/* ---- chunk codec (also used by the fuzz target and the benchmark) ---- */

/* Encodes n (1..LLCT_CHUNK_MAX) records given as columns into one LZ4 frame.
 * On success stores a malloc'd blob in *out (caller frees) and its size in *out_size. */
int llct_chunk_encode(const struct llct_batch *columns, uint8_t **out, size_t *out_size);

/* The same encoding of n records given as rows, into buffers kept for the next call (zero
 * them before the first; llct_chunk_enc_free releases them): the blob is e->blob, *out_size
 * bytes, valid until the next call. Same blob, byte for byte, as llct_chunk_encode makes. */
struct llct_chunk_enc {
	uint8_t *raw, *blob;
	size_t blob_cap;
	unsigned shift; /* the last chunk's address shift: the next one's guess */
};
int llct_chunk_encode_records(struct llct_chunk_enc *e, const struct llct_record *r, uint32_t n,
			      size_t *out_size);
void llct_chunk_enc_free(struct llct_chunk_enc *e);

/* Decodes a blob from llct_chunk_encode into `b`, whose column arrays must hold
 * LLCT_CHUNK_MAX entries. expect_n is the record count the caller expects, or 0 for any.
 * Returns LLCT_OK, or LLCT_ERR_CORRUPT with a reason in errbuf (any blob is safe to pass). */
int llct_chunk_decode(const uint8_t *blob, size_t size, uint32_t expect_n, struct llct_batch *b,
		      char *errbuf, size_t errbuf_size);

/* Highest LZ4 compression level (LZ4HC's most thorough) llct_chunk_repack takes. */
#define LLCT_CHUNK_LEVEL_MAX 12
/* Encodes a chunk's blob again at LZ4F compression level `level` (0: the writer's fast mode;
 * 3..12: high compression, smaller and slower to write, as fast or faster to read): the
 * payload, so the records, are unchanged byte for byte. The old blob is checked as
 * llct_chunk_decode checks it and the new one decoded once before it is returned in *out
 * (size *out_size; grown to *cap as needed, malloc'd, kept by the caller between calls).
 * `b` (from llct_batch_alloc) is scratch and holds the chunk's records after. */
int llct_chunk_repack(const uint8_t *blob, size_t size, uint32_t expect_n, int level,
		      struct llct_batch *b, uint8_t **out, size_t *cap, size_t *out_size,
		      char *errbuf, size_t errbuf_size);

/* Allocates the column arrays of a batch for LLCT_CHUNK_MAX records; frees them. */
int llct_batch_alloc(struct llct_batch *b);
void llct_batch_free(struct llct_batch *b);

/* ---- writer ---- */

struct llct_writer;

/* Creates a new trace at `path` (an existing file is replaced) and records `info` and a
 * random id (settings.trace_id: the trace's identity in results, wherever it is moved).
 * On failure *out is NULL and, if errbuf is given, it holds a message naming the file. */
int llct_writer_open(const char *path, const struct llct_capture_info *info,
		     struct llct_writer **out, char *errbuf, size_t errbuf_size);
/* Stores a setting (a knob of how the trace was made) in the `settings` table. */
int llct_writer_set(struct llct_writer *w, const char *key, const char *value);
/* Starts frame `frame`; frames must be written in increasing order. */
int llct_writer_begin_frame(struct llct_writer *w, uint32_t frame);
/* Appends n records to the current frame; a record with a stream or op out of range is
 * refused (LLCT_ERR_INVALID) and none of the run it was in is kept. */
int llct_writer_append(struct llct_writer *w, const struct llct_record *recs, size_t n);
/* Records written in place, with no copy: llct_writer_reserve returns where the current
 * frame's next *room (1 or more) records go, or NULL (with *room 0: no frame is open, or the
 * writer failed); llct_writer_commit(w, n) then adds the first n written there. Nothing else
 * may add records, or end or abort the frame, between the two. Committed records are not
 * checked one by one as appended ones are: one with a stream or op out of range fails the
 * trace when its chunk is encoded. */
struct llct_record *llct_writer_reserve(struct llct_writer *w, size_t *room);
int llct_writer_commit(struct llct_writer *w, size_t n);
int llct_writer_add_kernel(struct llct_writer *w, const struct llct_kernel *k);
int llct_writer_add_resource(struct llct_writer *w, const struct llct_resource *r);
/* A row of the `sites` table; written with the frame being written (or the next one). */
int llct_writer_add_site(struct llct_writer *w, const struct llct_site *s);
/* Ends the current frame: flushes its last chunk and commits it. */
int llct_writer_end_frame(struct llct_writer *w);
/* Abandons the current frame: nothing of it is stored. */
int llct_writer_abort_frame(struct llct_writer *w);
/* Closes the trace; an open frame is abandoned. Returns the first error seen, if any. */
int llct_writer_close(struct llct_writer *w);
/* The last error message, naming the file (and frame/chunk); "" if none. */
const char *llct_writer_error(const struct llct_writer *w);
uint64_t llct_writer_bytes(const struct llct_writer *w);   /* compressed bytes so far */
uint64_t llct_writer_records(const struct llct_writer *w); /* records in ended frames */

/* ---- packing ---- */

struct llct_pack_stats {
	uint64_t chunks, chunks_total;      /* chunks done, and in the trace */
	uint64_t records;                   /* records in the chunks done */
	uint64_t bytes_before, bytes_after; /* the chunks done: compressed bytes before, after */
};
/* Encodes every chunk of the trace at `path` again, in place, at LZ4 level `level`
 * (llct_chunk_repack: the records unchanged), in transactions of about 64 MiB of chunks, so a
 * pack stopped at any point leaves a trace whose every chunk reads (some at the old level;
 * run again, it redoes them all). Then stores settings.pack.level and gives the freed space
 * back (VACUUM: needs free space as large as the trace). progress, if given, is called after
 * each chunk; non-zero from it stops the pack. *st (may be NULL) says what was done. */
int llct_trace_pack(const char *path, int level,
		    int (*progress)(const struct llct_pack_stats *, void *), void *ud,
		    struct llct_pack_stats *st, char *errbuf, size_t errbuf_size);

/* ---- reader ---- */

struct llct_reader;
struct llct_cursor;

/* Opens a trace read-only and checks that it is one this build can read. */
int llct_reader_open(const char *path, struct llct_reader **out, char *errbuf, size_t errbuf_size);
void llct_reader_close(struct llct_reader *r);
const char *llct_reader_error(const struct llct_reader *r);
const char *llct_reader_path(const struct llct_reader *r);
/* The trace's identity, the same wherever the file lies: the random id its writer stored
 * (settings.trace_id, 32 hex digits), or for a trace written before ids were stored
 * "legacy-" and a hash of its capture row and frame index. */
const char *llct_reader_id(const struct llct_reader *r);
/* Frames in increasing order; the array lives as long as the reader. */
int llct_reader_frames(struct llct_reader *r, const struct llct_frame_info **frames, size_t *n);
/* Calls fn(key, value, ud) for each row of `capture` then of `settings`; stops on non-zero. */
int llct_reader_foreach_meta(struct llct_reader *r,
			     int (*fn)(const char *table, const char *key, const char *value,
				       void *ud),
			     void *ud);
/* Calls fn for each kernel row (draws, dispatches, copies, ...) in id order; stops on non-zero.
 * The strings live for the call only. */
int llct_reader_foreach_kernel(struct llct_reader *r,
			       int (*fn)(uint64_t id, uint32_t frame, const char *kind,
					 const char *name, const char *params, void *ud),
			       void *ud);
/* Calls fn for each row of `sites` in id order (none in a format-1 trace); stops on non-zero.
 * The strings live for the call only. */
int llct_reader_foreach_site(struct llct_reader *r, int (*fn)(const struct llct_site *s, void *ud),
			     void *ud);
/* Compressed bytes of all chunks. */
int llct_reader_compressed_bytes(struct llct_reader *r, uint64_t *bytes);
/* Number of rows in the kernels, resources and sites tables (no sites table: 0). */
int llct_reader_count(struct llct_reader *r, const char *table, uint64_t *n);

struct llct_frame_range;
/* Opens a cursor over the frames in `range` (NULL: every frame), in increasing order. */
int llct_cursor_open(struct llct_reader *r, const struct llct_frame_range *range,
		     struct llct_cursor **out);
/* Decodes the next chunk into *b (valid until the next call). Returns 1 with a batch,
 * 0 at the end, or a negative status (message in llct_reader_error). */
int llct_cursor_next(struct llct_cursor *c, struct llct_batch *b);
/* Like llct_cursor_next, but decodes into the caller's batch (from llct_batch_alloc), which
 * stays valid until the caller reuses it: for double buffering. */
int llct_cursor_next_into(struct llct_cursor *c, struct llct_batch *b);
void llct_cursor_close(struct llct_cursor *c);

/* A chunk read from the trace and checked against the index but not yet decoded, so that
 * several threads can decode a window of them (the replay engine does). */
struct llct_raw_chunk {
	uint32_t frame, n;
	uint64_t chunk_id;
	uint8_t *data; /* the compressed blob, owned; reused by the next llct_cursor_next_raw */
	size_t size, cap;
};
/* Reads the next chunk into *raw. Returns 1, 0 at the end, or a negative status (message in
 * llct_reader_error). */
int llct_cursor_next_raw(struct llct_cursor *c, struct llct_raw_chunk *raw);
/* Decodes a raw chunk of reader r into b (from llct_batch_alloc); the message names the file,
 * frame and chunk. Threads may decode distinct chunks into distinct batches at once. */
int llct_raw_chunk_decode(const struct llct_reader *r, const struct llct_raw_chunk *raw,
			  struct llct_batch *b, char *err, size_t err_size);
void llct_raw_chunk_free(struct llct_raw_chunk *raw);

/* ---- frame ranges ("5-7,20") ---- */

struct llct_frame_range {
	size_t n;
	struct {
		uint32_t first, last;
	} * spans;
};
/* Parses "A", "A-B", "A-" and comma lists of them. Returns LLCT_ERR_PARSE on bad input. */
int llct_frame_range_parse(const char *text, struct llct_frame_range *out);
int llct_frame_range_contains(const struct llct_frame_range *fr, uint32_t frame);
void llct_frame_range_release(struct llct_frame_range *fr);
/* Checks a range against the frames a trace holds (frames[] in increasing order): every span
 * must start at a frame inside the trace's first..last, and a closed span must end inside it
 * too. Returns LLCT_ERR_INVALID with a message naming the trace (`path`), the span and the
 * frames the trace holds, else LLCT_OK. */
int llct_frame_range_check(const struct llct_frame_range *fr, const char *text, const char *path,
			   const struct llct_frame_info *frames, size_t n, char *err,
			   size_t err_size);

#endif

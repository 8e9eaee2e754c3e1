/* test_pack.c - re-encoding chunks at another LZ4 level (llct_chunk_repack) and whole traces in
 * place (llct_trace_pack): the same records, fewer bytes, a bad chunk refused with the trace
 * left as it was. */
#include "check.h"
#include "llct/trace.h"

#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

/* Records as a frame has them: streams in runs, addresses walking lines, a few ids. */
static void make_records(uint64_t *seed, struct llct_record *r, uint32_t n)
{
	uint64_t a = 0x10000000;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = test_rand(seed);
		a += x % 8 == 0 ? (x >> 8) % (1u << 20) : 64;
		r[i] = (struct llct_record){.addr = a,
					    .stream = (uint8_t)(i / 97 % LLCT_N_STREAMS),
					    .op = (uint8_t)(x >> 5 & 1),
					    .sm = (uint16_t)(i / 300 % 16),
					    .kernel = i / 1000,
					    .tenant = 0,
					    .site = i % 3 ? i / 50 : 0};
	}
}

static int equal_batches(const struct llct_batch *a, const struct llct_batch *b)
{
	if (a->n != b->n)
		return 0;
	for (uint32_t i = 0; i < a->n; i++)
		if (a->addr[i] != b->addr[i] || a->stream[i] != b->stream[i] ||
		    a->op[i] != b->op[i] || a->sm[i] != b->sm[i] || a->kernel[i] != b->kernel[i] ||
		    a->tenant[i] != b->tenant[i] ||
		    (a->site ? a->site[i] : 0) != (b->site ? b->site[i] : 0))
			return 0;
	return 1;
}

static void test_repack(void)
{
	enum { N = 20000 };
	static struct llct_record recs[N];
	uint64_t seed = 11;
	make_records(&seed, recs, N);
	struct llct_chunk_enc enc = {0};
	size_t size, size9, size0;
	CHECK_EQ(llct_chunk_encode_records(&enc, recs, N, &size), LLCT_OK);
	struct llct_batch want, b;
	CHECK_EQ(llct_batch_alloc(&want), LLCT_OK);
	CHECK_EQ(llct_batch_alloc(&b), LLCT_OK);
	char why[200];
	CHECK_EQ(llct_chunk_decode(enc.blob, size, N, &want, why, sizeof(why)), LLCT_OK);
	uint8_t *out = NULL, *out0 = NULL;
	size_t cap = 0, cap0 = 0;
	/* high compression: smaller, the same records */
	CHECK_EQ(llct_chunk_repack(enc.blob, size, N, 9, &b, &out, &cap, &size9, why, sizeof(why)),
		 LLCT_OK);
	CHECK(size9 < size);
	CHECK(equal_batches(&b, &want));
	CHECK_EQ(llct_chunk_decode(out, size9, N, &b, why, sizeof(why)), LLCT_OK);
	CHECK(equal_batches(&b, &want));
	/* and back at level 0: the writer's blob, byte for byte */
	CHECK_EQ(llct_chunk_repack(out, size9, N, 0, &b, &out0, &cap0, &size0, why, sizeof(why)),
		 LLCT_OK);
	CHECK(size0 == size && !memcmp(out0, enc.blob, size));
	/* a damaged blob, a wrong count or a level out of range is refused */
	enc.blob[size / 2] ^= 4;
	CHECK_EQ(llct_chunk_repack(enc.blob, size, N, 9, &b, &out, &cap, &size9, why, sizeof(why)),
		 LLCT_ERR_CORRUPT);
	enc.blob[size / 2] ^= 4;
	CHECK_EQ(
	    llct_chunk_repack(enc.blob, size, N + 1, 9, &b, &out, &cap, &size9, why, sizeof(why)),
	    LLCT_ERR_CORRUPT);
	CHECK_EQ(llct_chunk_repack(enc.blob, size, N, LLCT_CHUNK_LEVEL_MAX + 1, &b, &out, &cap,
				   &size9, why, sizeof(why)),
		 LLCT_ERR_INVALID);
	/* a batch that decodes addresses only still has every column checked and given back */
	b.flags = LLCT_BATCH_NO_IDS;
	CHECK_EQ(llct_chunk_repack(enc.blob, size, N, 3, &b, &out, &cap, &size9, why, sizeof(why)),
		 LLCT_OK);
	CHECK(b.flags == LLCT_BATCH_NO_IDS && equal_batches(&b, &want));
	b.flags = 0;
	free(out);
	free(out0);
	llct_chunk_enc_free(&enc);
	llct_batch_free(&want);
	llct_batch_free(&b);
}

/* A trace of three frames; the blobs' bytes, summed, in *bytes. */
static void write_trace(const char *path, uint64_t *bytes)
{
	static struct llct_record recs[3 * LLCT_CHUNK_MAX];
	uint64_t seed = 5;
	struct llct_writer *w;
	struct llct_capture_info info = {.source = "test_pack"};
	CHECK_EQ(llct_writer_open(path, &info, &w, NULL, 0), LLCT_OK);
	for (uint32_t f = 0; f < 3; f++) {
		uint32_t n = f == 1 ? 3 * LLCT_CHUNK_MAX : 5000 + f;
		make_records(&seed, recs, n);
		CHECK_EQ(llct_writer_begin_frame(w, f * 2), LLCT_OK);
		CHECK_EQ(llct_writer_append(w, recs, n), LLCT_OK);
		CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	}
	*bytes = llct_writer_bytes(w);
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
}

/* Every record of a trace folded into one number, and the trace's id. */
static uint64_t digest(const char *path, char *id, size_t id_size)
{
	struct llct_reader *r;
	struct llct_cursor *c;
	struct llct_batch b;
	uint64_t h = 1469598103934665603ull;
	CHECK_EQ(llct_reader_open(path, &r, NULL, 0), LLCT_OK);
	snprintf(id, id_size, "%s", llct_reader_id(r));
	CHECK_EQ(llct_cursor_open(r, NULL, &c), LLCT_OK);
	int st;
	while ((st = llct_cursor_next(c, &b)) == 1)
		for (uint32_t i = 0; i < b.n; i++)
			h = (h ^ (b.addr[i] + b.stream[i] * 3 + b.op[i] * 7 + b.sm[i] * 11 +
				  (uint64_t)b.kernel[i] * 13 + (b.site ? b.site[i] : 0))) *
			    1099511628211ull;
	CHECK_EQ(st, 0);
	llct_cursor_close(c);
	llct_reader_close(r);
	return h;
}

static void sql(const char *path, const char *q, char *out, size_t size)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	out[0] = 0;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_prepare_v2(db, q, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		snprintf(out, size, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
}

static void test_trace_pack(void)
{
	char path[300], id0[64], id1[64], v[128], err[600];
	uint64_t bytes;
	snprintf(path, sizeof(path), "%s/t.llct", dir);
	write_trace(path, &bytes);
	uint64_t h0 = digest(path, id0, sizeof(id0));
	struct llct_pack_stats st;
	CHECK_EQ(llct_trace_pack(path, 9, NULL, NULL, &st, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(st.chunks, st.chunks_total);
	CHECK(st.chunks >= 5); /* the middle frame spans chunks */
	CHECK_EQ(st.bytes_before, bytes);
	CHECK(st.bytes_after < st.bytes_before);
	CHECK_EQ(digest(path, id1, sizeof(id1)), h0);
	CHECK(!strcmp(id0, id1));
	sql(path, "SELECT value FROM settings WHERE key = 'pack.level'", v, sizeof(v));
	CHECK(!strcmp(v, "9"));
	sql(path, "SELECT sum(length(data)) FROM chunks", v, sizeof(v));
	CHECK_EQ(strtoull(v, NULL, 10), st.bytes_after);
	/* back to the writer's level: the blobs it wrote */
	CHECK_EQ(llct_trace_pack(path, 0, NULL, NULL, &st, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(st.bytes_after, bytes);
	CHECK_EQ(digest(path, id1, sizeof(id1)), h0);

	/* a chunk cut short in the last frame: refused, naming the file, chunk and frame; the
	   chunks before it are left as they were (one transaction), the trace still reads */
	char before[128];
	sql(path, "SELECT sum(length(data)) FROM chunks WHERE frame < 4", before, sizeof(before));
	sqlite3 *db;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db,
			      "UPDATE chunks SET data = substr(data, 1, length(data) - 3) "
			      "WHERE frame = 4; "
			      "DELETE FROM settings WHERE key = 'pack.level'",
			      NULL, NULL, NULL),
		 SQLITE_OK);
	sqlite3_close(db);
	CHECK_EQ(llct_trace_pack(path, 9, NULL, NULL, &st, err, sizeof(err)), LLCT_ERR_CORRUPT);
	CHECK(strstr(err, path) && strstr(err, "(frame 4)"));
	CHECK(st.chunks > 0 && st.chunks < st.chunks_total); /* the frames before were packed */
	sql(path, "SELECT sum(length(data)) FROM chunks WHERE frame < 4", v, sizeof(v));
	CHECK(!strcmp(v, before)); /* ... in the transaction that was rolled back */
	sql(path, "SELECT count(*) FROM settings WHERE key = 'pack.level'", v, sizeof(v));
	CHECK(!strcmp(v, "0"));
	/* not a trace: the reader's message, the file untouched */
	snprintf(path, sizeof(path), "%s/text.llct", dir);
	FILE *f = fopen(path, "w");
	fputs("just text\n", f);
	fclose(f);
	CHECK(llct_trace_pack(path, 9, NULL, NULL, &st, err, sizeof(err)) != LLCT_OK);
	CHECK(strstr(err, "text.llct") != NULL);
	CHECK(llct_trace_pack(path, 13, NULL, NULL, &st, err, sizeof(err)) == LLCT_ERR_INVALID);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/llct-pack-XXXXXX");
	if (!mkdtemp(dir))
		return 2;
	test_repack();
	test_trace_pack();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 2;
	return check_done("unit_pack");
}

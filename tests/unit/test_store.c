/* test_store.c - round trips and corruption handling of the chunk codec and the .llct store. */
#include "check.h"
#include "llct/trace.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static void path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* Random record: every field over its full range, with a mix of coherent and wild addresses. */
static struct llct_record rand_rec(uint64_t *seed, uint64_t *last)
{
	struct llct_record r;
	uint64_t x = test_rand(seed);
	switch (x % 4) {
	case 0:
		r.addr = test_rand(seed); /* anything in 64 bits */
		break;
	case 1:
		r.addr = (x & 1) ? UINT64_MAX - (x % 7) : (x % 7); /* the ends */
		break;
	default:
		r.addr = *last + ((x >> 8) % 5) * 64 - 128; /* near the last one */
	}
	*last = r.addr;
	x = test_rand(seed);
	r.stream = (uint8_t)(x % LLCT_N_STREAMS);
	r.op = (uint8_t)((x >> 8) & 1);
	r.sm = (x >> 16) & 1 ? (uint16_t)(x >> 20) : (uint16_t)((x >> 40) % 3);
	r.kernel = (x >> 17) & 1 ? (uint32_t)test_rand(seed) : (uint32_t)((x >> 24) % 4);
	r.tenant = (x >> 18) & 1 ? (uint16_t)(x >> 48) : 0;
	r.site = 0;
	return r;
}

/* Sites as tier 3 gives them (format 2): runs of one instruction's, some records none. */
static void add_sites(uint64_t *seed, struct llct_record *r, uint32_t n)
{
	uint32_t site = 1;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = test_rand(seed);
		if (x % 5 == 0)
			site = x >> 40 & 1 ? (uint32_t)(x >> 8) : (uint32_t)(x >> 8) % 40;
		r[i].site = x >> 3 & 1 ? site : 0;
	}
	r[n - 1].site = UINT32_MAX; /* the largest */
}

static uint32_t site_col[LLCT_CHUNK_MAX];

static void to_batch(struct llct_batch *b, const struct llct_record *r, uint32_t n)
{
	b->n = n;
	for (uint32_t i = 0; i < n; i++) {
		b->addr[i] = r[i].addr;
		b->stream[i] = r[i].stream;
		b->op[i] = r[i].op;
		b->sm[i] = r[i].sm;
		b->kernel[i] = r[i].kernel;
		b->tenant[i] = r[i].tenant;
		site_col[i] = r[i].site;
	}
	b->site = site_col; /* all zero: an LCK1 chunk, as with no column */
}

static int same(const struct llct_batch *b, uint32_t i, const struct llct_record *r)
{
	return b->addr[i] == r->addr && b->stream[i] == r->stream && b->op[i] == r->op &&
	       b->sm[i] == r->sm && b->kernel[i] == r->kernel && b->tenant[i] == r->tenant &&
	       (b->site ? b->site[i] : 0) == r->site;
}

static void test_codec_roundtrip(void)
{
	struct llct_batch in, out;
	struct llct_chunk_enc enc = {0};
	uint64_t seed = 1, last = 0;
	struct llct_record *recs = malloc(LLCT_CHUNK_MAX * sizeof(*recs));
	CHECK_EQ(llct_batch_alloc(&in), LLCT_OK);
	CHECK_EQ(llct_batch_alloc(&out), LLCT_OK);
	uint32_t sizes[] = {1, 2, 3, 100, 4097, LLCT_CHUNK_MAX};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (int variant = 0; variant < 4; variant++) {
			for (uint32_t i = 0; i < sizes[k]; i++) {
				recs[i] = rand_rec(&seed, &last);
				if (variant == 1) /* all line-aligned: exercises the shift */
					recs[i].addr &= ~(uint64_t)63;
				if (variant == 2) /* all equal: zero deltas */
					recs[i].addr = 0x1000;
			}
			if (variant == 3) /* instruction sites: an LCK2 chunk */
				add_sites(&seed, recs, sizes[k]);
			to_batch(&in, recs, sizes[k]);
			uint8_t *blob;
			size_t size;
			char why[200];
			CHECK_EQ(llct_chunk_encode(&in, &blob, &size), LLCT_OK);
			/* the rows' encoder (the trace writer's) makes the same blob, byte for
			   byte, in buffers it reuses */
			size_t rsize;
			CHECK_EQ(llct_chunk_encode_records(&enc, recs, sizes[k], &rsize), LLCT_OK);
			CHECK(rsize == size && !memcmp(enc.blob, blob, size));
			/* again: the address shift it guesses is now this chunk's (the first
			   time, the last chunk's, mostly another) */
			CHECK(variant != 1 || enc.shift >= 6);
			CHECK_EQ(llct_chunk_encode_records(&enc, recs, sizes[k], &rsize), LLCT_OK);
			CHECK(rsize == size && !memcmp(enc.blob, blob, size));
			CHECK_EQ(llct_chunk_decode(blob, size, sizes[k], &out, why, sizeof(why)),
				 LLCT_OK);
			CHECK_EQ(out.n, sizes[k]);
			/* a chunk with no site decodes with no site column (format 1's chunk) */
			CHECK(variant == 3 ? out.site != NULL : out.site == NULL);
			uint32_t bad = 0;
			for (uint32_t i = 0; i < sizes[k]; i++)
				bad += !same(&out, i, &recs[i]);
			CHECK_EQ(bad, 0);
			/* Without the id columns: the same addresses, streams and ops, the id
			 * arrays NULL; the next full decode (the next round's) has them back. The
			 * last round leaves them NULL for llct_batch_free (no leak under ASan). */
			out.flags = LLCT_BATCH_NO_IDS;
			CHECK_EQ(llct_chunk_decode(blob, size, sizes[k], &out, why, sizeof(why)),
				 LLCT_OK);
			CHECK(!out.sm && !out.kernel && !out.tenant && !out.site);
			for (uint32_t i = 0; i < sizes[k]; i++)
				bad += out.addr[i] != recs[i].addr ||
				       out.stream[i] != recs[i].stream || out.op[i] != recs[i].op;
			CHECK_EQ(bad, 0);
			out.flags = 0;
			/* A wrong expected count is an error, not a silent answer. */
			CHECK_EQ(
			    llct_chunk_decode(blob, size, sizes[k] + 1, &out, why, sizeof(why)),
			    LLCT_ERR_CORRUPT);
			free(blob);
		}
	}
	/* Invalid records are refused by the encoder. */
	recs[0].stream = LLCT_N_STREAMS;
	to_batch(&in, recs, 1);
	uint8_t *blob;
	size_t size;
	CHECK_EQ(llct_chunk_encode(&in, &blob, &size), LLCT_ERR_INVALID);
	CHECK_EQ(llct_chunk_encode_records(&enc, recs, 1, &size), LLCT_ERR_INVALID);
	in.n = 0;
	CHECK_EQ(llct_chunk_encode(&in, &blob, &size), LLCT_ERR_INVALID);
	CHECK_EQ(llct_chunk_encode_records(&enc, recs, 0, &size), LLCT_ERR_INVALID);
	llct_chunk_enc_free(&enc);
	free(recs);
	llct_batch_free(&in);
	llct_batch_free(&out);
}

/* Every single-byte change and every truncation of a blob must be reported. */
static void test_codec_corruption(void)
{
	struct llct_batch in, out;
	uint64_t seed = 7, last = 0;
	struct llct_record recs[300];
	char why[200];
	llct_batch_alloc(&in);
	llct_batch_alloc(&out);
	for (int i = 0; i < 300; i++)
		recs[i] = rand_rec(&seed, &last);
	to_batch(&in, recs, 300);
	uint8_t *blob;
	size_t size;
	CHECK_EQ(llct_chunk_encode(&in, &blob, &size), LLCT_OK);
	uint8_t *copy = malloc(size);
	int undetected = 0;
	for (size_t pos = 0; pos < size; pos++) {
		for (int flip = 1; flip < 256; flip <<= 1) {
			memcpy(copy, blob, size);
			copy[pos] ^= (uint8_t)flip;
			if (llct_chunk_decode(copy, size, 0, &out, why, sizeof(why)) == LLCT_OK)
				undetected++;
		}
		memcpy(copy, blob, size);
		copy[pos] ^= 0xff;
		if (llct_chunk_decode(copy, size, 0, &out, why, sizeof(why)) == LLCT_OK)
			undetected++;
	}
	CHECK_EQ(undetected, 0);
	int truncated_ok = 0;
	for (size_t len = 0; len < size; len++)
		if (llct_chunk_decode(blob, len, 0, &out, why, sizeof(why)) == LLCT_OK)
			truncated_ok++;
	CHECK_EQ(truncated_ok, 0);
	/* Trailing garbage after the frame is corruption too. */
	uint8_t *longer = malloc(size + 4);
	memcpy(longer, blob, size);
	memset(longer + size, 0, 4);
	CHECK_EQ(llct_chunk_decode(longer, size + 4, 0, &out, why, sizeof(why)), LLCT_ERR_CORRUPT);
	free(longer);
	free(copy);
	free(blob);
	llct_batch_free(&in);
	llct_batch_free(&out);
}

/* Writes frames: empty, one record, huge (several chunks), then a few random ones. */
struct plan {
	uint32_t frame;
	uint32_t n;
};
static const struct plan plans[] = {
    {0, 0}, {1, 1}, {2, 3 * LLCT_CHUNK_MAX + 123}, {5, 1000}, {6, LLCT_CHUNK_MAX}, {9, 17},
};
#define N_PLANS (sizeof(plans) / sizeof(plans[0]))

static struct llct_record *expected[N_PLANS];

static void write_trace(const char *path)
{
	struct llct_writer *w;
	char err[600];
	uint64_t seed = 42, last = 0;
	struct llct_capture_info info = {.source = "test", .tier = 0, .application = "test_store"};
	CHECK_EQ(llct_writer_open(path, &info, &w, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_writer_set(w, "knob", "7"), LLCT_OK);
	for (size_t k = 0; k < N_PLANS; k++) {
		expected[k] = malloc((plans[k].n + 1) * sizeof(struct llct_record));
		for (uint32_t i = 0; i < plans[k].n; i++)
			expected[k][i] = rand_rec(&seed, &last);
		CHECK_EQ(llct_writer_begin_frame(w, plans[k].frame), LLCT_OK);
		/* append in uneven pieces */
		uint32_t done = 0;
		while (done < plans[k].n) {
			uint32_t piece = 1 + (uint32_t)(test_rand(&seed) % 50000);
			if (piece > plans[k].n - done)
				piece = plans[k].n - done;
			if (test_rand(&seed) & 1) {
				CHECK_EQ(llct_writer_append(w, expected[k] + done, piece), LLCT_OK);
				done += piece;
				continue;
			}
			/* or in place: as much as the room lent holds, then the rest */
			size_t room = 0;
			struct llct_record *to = llct_writer_reserve(w, &room);
			CHECK(to && room >= 1 && room <= LLCT_CHUNK_RECORDS);
			if (!to)
				break;
			piece = piece < room ? piece : (uint32_t)room;
			memcpy(to, expected[k] + done, piece * sizeof(*to));
			CHECK_EQ(llct_writer_commit(w, piece), LLCT_OK);
			done += piece;
		}
		struct llct_kernel kern = {
		    .id = (uint32_t)k, .frame = plans[k].frame, .kind = "draw", .name = "k"};
		CHECK_EQ(llct_writer_add_kernel(w, &kern), LLCT_OK);
		CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	}
	/* out-of-order frames are refused */
	CHECK_EQ(llct_writer_begin_frame(w, 3), LLCT_ERR_STATE);
	/* a record of no stream is refused, naming the file, the frame and the record; the
	   frame is then abandoned and the frames before it read back below */
	struct llct_record bad[3] = {expected[2][0], expected[2][1], expected[2][2]};
	bad[1].stream = 99;
	CHECK_EQ(llct_writer_begin_frame(w, 99), LLCT_OK);
	CHECK_EQ(llct_writer_append(w, expected[2], 70000), LLCT_OK);
	CHECK_EQ(llct_writer_append(w, bad, 3), LLCT_ERR_INVALID);
	CHECK(strstr(llct_writer_error(w), path) && strstr(llct_writer_error(w), "frame 99") &&
	      strstr(llct_writer_error(w), "stream 99 op"));
	CHECK_EQ(llct_writer_abort_frame(w), LLCT_OK);
	/* an abandoned frame leaves no trace */
	CHECK_EQ(llct_writer_begin_frame(w, 100), LLCT_OK);
	CHECK_EQ(llct_writer_append(w, expected[1], 1), LLCT_OK);
	CHECK_EQ(llct_writer_abort_frame(w), LLCT_OK);
	/* started with the first chunk, named */
	CHECK_EQ(threads_named_started("llct-encode", 1), 1);
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
	CHECK_EQ(threads_named_joined("llct-encode"), 0);
}

/* Records written in place: none without a frame, no more than the room lent (which grows as it
 * fills: a frame filled to each room's end holds every record), and one out of range fails the
 * frame when its chunk is encoded, saying so; the frames before stay. */
static void test_reserve_commit(void)
{
	char path[300], err[600];
	struct llct_writer *w;
	struct llct_reader *r;
	uint64_t seed = 7, last = 0;
	path_in(path, sizeof(path), "rc.llct");
	CHECK_EQ(llct_writer_open(path, NULL, &w, err, sizeof(err)), LLCT_OK);
	size_t room = 99;
	CHECK(llct_writer_reserve(w, &room) == NULL && room == 0);
	CHECK_EQ(llct_writer_commit(w, 1), LLCT_ERR_STATE);
	CHECK_EQ(llct_writer_begin_frame(w, 0), LLCT_OK);
	struct llct_record *to = llct_writer_reserve(w, &room);
	size_t first = room; /* the room grows as it fills, to a chunk */
	CHECK(to && room >= 10 && room <= LLCT_CHUNK_RECORDS);
	for (uint32_t i = 0; to && i < 10; i++)
		to[i] = rand_rec(&seed, &last);
	CHECK_EQ(llct_writer_commit(w, room + 1), LLCT_ERR_INVALID);
	CHECK_EQ(llct_writer_commit(w, 10), LLCT_OK);
	to = llct_writer_reserve(w, &room);
	CHECK(room == first - 10);
	CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	/* filled in place to the room's end each time: a chunk's records in all, then room again */
	uint64_t filled = 0;
	CHECK_EQ(llct_writer_begin_frame(w, 1), LLCT_OK);
	while (filled < LLCT_CHUNK_RECORDS + 5 && (to = llct_writer_reserve(w, &room))) {
		size_t k =
		    room < LLCT_CHUNK_RECORDS + 5 - filled ? room : LLCT_CHUNK_RECORDS + 5 - filled;
		for (size_t i = 0; i < k; i++)
			to[i] = rand_rec(&seed, &last);
		CHECK_EQ(llct_writer_commit(w, k), LLCT_OK);
		filled += k;
	}
	CHECK_EQ(filled, (uint64_t)LLCT_CHUNK_RECORDS + 5);
	CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	CHECK_EQ(llct_writer_begin_frame(w, 2), LLCT_OK);
	to = llct_writer_reserve(w, &room);
	for (uint32_t i = 0; to && i < 5; i++)
		to[i] = rand_rec(&seed, &last);
	if (to)
		to[3].op = 7;
	CHECK_EQ(llct_writer_commit(w, 5), LLCT_OK);
	CHECK_EQ(llct_writer_end_frame(w), LLCT_ERR_INVALID);
	CHECK(strstr(llct_writer_error(w), path) && strstr(llct_writer_error(w), "frame 2") &&
	      strstr(llct_writer_error(w), "out of range"));
	llct_writer_close(w);
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	const struct llct_frame_info *frames;
	size_t n = 0;
	llct_reader_frames(r, &frames, &n);
	CHECK(n == 2 && frames[0].n_records == 10 &&
	      frames[1].n_records == (uint64_t)LLCT_CHUNK_RECORDS + 5);
	llct_reader_close(r);
}

static void test_store_roundtrip(void)
{
	char path[300], err[600];
	path_in(path, sizeof(path), "rt.llct");
	write_trace(path);
	struct llct_reader *r;
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	const struct llct_frame_info *frames;
	size_t n;
	llct_reader_frames(r, &frames, &n);
	CHECK_EQ(n, N_PLANS);
	for (size_t k = 0; k < n && k < N_PLANS; k++) {
		CHECK_EQ(frames[k].frame, plans[k].frame);
		CHECK_EQ(frames[k].n_records, plans[k].n);
		CHECK_EQ(frames[k].n_chunks, (plans[k].n + LLCT_CHUNK_MAX - 1) / LLCT_CHUNK_MAX);
	}
	struct llct_cursor *c;
	struct llct_batch b;
	CHECK_EQ(llct_cursor_open(r, NULL, &c), LLCT_OK);
	size_t k = 0;
	uint32_t pos = 0, bad = 0, spans = 0;
	int got;
	while ((got = llct_cursor_next(c, &b)) > 0) {
		while (k < N_PLANS && (plans[k].n == 0 || pos == plans[k].n)) {
			k++;
			pos = 0;
		}
		if (k >= N_PLANS) {
			bad++;
			break;
		}
		CHECK_EQ(b.frame, plans[k].frame);
		for (uint32_t i = 0; i < b.n; i++)
			bad += !same(&b, i, &expected[k][pos + i]);
		pos += b.n;
		spans++;
	}
	CHECK_EQ(got, 0);
	CHECK_EQ(bad, 0);
	CHECK_EQ(k, N_PLANS - 1);
	CHECK_EQ(pos, plans[N_PLANS - 1].n);
	llct_cursor_close(c);

	/* A frame range selects exactly those frames. */
	struct llct_frame_range fr;
	CHECK_EQ(llct_frame_range_parse("1,5-6", &fr), LLCT_OK);
	CHECK_EQ(llct_cursor_open(r, &fr, &c), LLCT_OK);
	uint64_t total = 0;
	while ((got = llct_cursor_next(c, &b)) > 0) {
		CHECK(b.frame == 1 || b.frame == 5 || b.frame == 6);
		total += b.n;
	}
	CHECK_EQ(total, 1 + 1000 + LLCT_CHUNK_MAX);
	llct_cursor_close(c);
	llct_frame_range_release(&fr);
	uint64_t nk;
	CHECK_EQ(llct_reader_count(r, "kernels", &nk), LLCT_OK);
	CHECK_EQ(nk, N_PLANS);
	llct_reader_close(r);
}

static void test_frame_range(void)
{
	struct llct_frame_range fr;
	CHECK_EQ(llct_frame_range_parse("5-7,20,30-", &fr), LLCT_OK);
	CHECK(!llct_frame_range_contains(&fr, 4));
	CHECK(llct_frame_range_contains(&fr, 5));
	CHECK(llct_frame_range_contains(&fr, 7));
	CHECK(!llct_frame_range_contains(&fr, 8));
	CHECK(llct_frame_range_contains(&fr, 20));
	CHECK(llct_frame_range_contains(&fr, 4000000000u));
	llct_frame_range_release(&fr);
	const char *bad[] = {"", "-", "a", "5-3", "1,", ",1", "1-2-3", "99999999999", "1 2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(llct_frame_range_parse(bad[i], &fr), LLCT_ERR_PARSE);
}

static void sql(const char *path, const char *q)
{
	sqlite3 *db;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	char *e = NULL;
	int rc = sqlite3_exec(db, q, NULL, NULL, &e);
	if (rc != SQLITE_OK)
		fprintf(stderr, "sql failed: %s\n", e);
	CHECK_EQ(rc, SQLITE_OK);
	sqlite3_free(e);
	sqlite3_close(db);
}

/* Reads a whole trace; returns the first error status (and its message in err). */
static int read_all(const char *path, char *err, size_t size)
{
	struct llct_reader *r;
	struct llct_cursor *c;
	struct llct_batch b;
	int st = llct_reader_open(path, &r, err, size), got;
	if (st)
		return st;
	st = llct_cursor_open(r, NULL, &c);
	while (!st && (got = llct_cursor_next(c, &b)) > 0)
		;
	if (!st && got < 0) {
		st = got;
		snprintf(err, size, "%s", llct_reader_error(r));
	}
	llct_cursor_close(c);
	llct_reader_close(r);
	return st;
}

static void copy_file(const char *from, const char *to, long limit)
{
	FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
	int ch;
	long n = 0;
	while ((limit < 0 || n < limit) && (ch = fgetc(a)) != EOF) {
		fputc(ch, b);
		n++;
	}
	fclose(a);
	fclose(b);
}

static void test_file_corruption(void)
{
	char good[300], p[300], err[600];
	path_in(good, sizeof(good), "rt.llct");

	/* A flipped byte inside a chunk blob: error naming the file, frame and chunk. */
	path_in(p, sizeof(p), "flip.llct");
	copy_file(good, p, -1);
	sql(p, "UPDATE chunks SET data = substr(data, 1, 40) || "
	       "x'5a' || substr(data, 42) WHERE frame = 5");
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_CORRUPT);
	CHECK(strstr(err, p) != NULL);
	CHECK(strstr(err, "frame 5 chunk") != NULL);

	/* A missing chunk: the index no longer matches. */
	path_in(p, sizeof(p), "missing.llct");
	copy_file(good, p, -1);
	sql(p, "DELETE FROM chunks WHERE frame = 2 AND seq = 1");
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_CORRUPT);
	CHECK(strstr(err, "frame 2") != NULL);

	/* A chunk moved to another frame. */
	path_in(p, sizeof(p), "moved.llct");
	copy_file(good, p, -1);
	sql(p, "UPDATE chunks SET n_records = n_records - 1 WHERE frame = 9");
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_CORRUPT);

	/* Foreign SQLite database. */
	path_in(p, sizeof(p), "foreign.llct");
	unlink(p);
	sql(p, "CREATE TABLE t(x)");
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_FORMAT);
	CHECK(strstr(err, "not an llctrace trace") != NULL);

	/* Newer format version. */
	path_in(p, sizeof(p), "newer.llct");
	copy_file(good, p, -1);
	sql(p, "PRAGMA user_version = 99");
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_VERSION);
	CHECK(strstr(err, "version 99") != NULL);

	/* A text file named .llct, and an empty one. */
	path_in(p, sizeof(p), "text.llct");
	FILE *f = fopen(p, "w");
	for (int i = 0; i < 200; i++)
		fputs("this is not a trace at all, just some text\n", f);
	fclose(f);
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_FORMAT);
	CHECK(strstr(err, p) != NULL);
	path_in(p, sizeof(p), "empty.llct");
	fclose(fopen(p, "w"));
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_FORMAT);

	/* Truncated files at many lengths: always an error or a consistent subset, never a crash.
	 * SQLite pages are 64 KiB, so a cut at most lengths loses referenced pages. */
	long size;
	f = fopen(good, "rb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	int errors = 0, trials = 0;
	for (long cut = 1; cut < size; cut += size / 23 + 1) {
		path_in(p, sizeof(p), "cut.llct");
		copy_file(good, p, cut);
		trials++;
		if (read_all(p, err, sizeof(err)) != LLCT_OK) {
			errors++;
			CHECK(strstr(err, p) != NULL);
		}
	}
	CHECK_EQ(errors, trials);

	/* A missing file. */
	path_in(p, sizeof(p), "nope.llct");
	CHECK_EQ(read_all(p, err, sizeof(err)), LLCT_ERR_IO);
	CHECK(strstr(err, "nope.llct") != NULL);
}

static int collect_site(const struct llct_site *s, void *ud)
{
	char *out = ud;
	size_t at = strlen(out);
	snprintf(out + at, 200 - at, "%u:%llu:%s:%u:%s:%d.%d:%u;", s->id,
		 (unsigned long long)s->pipeline, s->stage, s->word, s->op, s->set, s->binding,
		 s->size);
	return 0;
}

/* Format 2's sites: rows written and read back, records' sites through a file; a format-1
 * trace (version 1, no sites table) still reads, with no site. */
static void test_sites(void)
{
	char path[300], err[600], got[200] = "";
	path_in(path, sizeof(path), "sites.llct");
	struct llct_writer *w;
	CHECK_EQ(llct_writer_open(path, NULL, &w, err, sizeof(err)), LLCT_OK);
	const struct llct_site s1 = {.id = 1,
				     .pipeline = 7,
				     .stage = "fragment",
				     .word = 412,
				     .op = "sample",
				     .set = 0,
				     .binding = 3,
				     .size = 0};
	const struct llct_site s2 = {.id = 2,
				     .pipeline = 7,
				     .stage = "vertex",
				     .word = 96,
				     .op = "load",
				     .set = -1,
				     .binding = -1,
				     .size = 16};
	const struct llct_site s0 = {.id = 0, .stage = "vertex", .op = "load"};
	CHECK_EQ(llct_writer_add_site(w, &s1), LLCT_OK);
	CHECK_EQ(llct_writer_add_site(w, &s2), LLCT_OK);
	CHECK_EQ(llct_writer_add_site(w, &s0), LLCT_ERR_INVALID); /* 0 means none */
	const struct llct_record recs[3] = {{.addr = 64, .stream = LLCT_STREAM_TEX, .site = 1},
					    {.addr = 128, .stream = LLCT_STREAM_Z},
					    {.addr = 192, .stream = LLCT_STREAM_VTX, .site = 2}};
	CHECK_EQ(llct_writer_begin_frame(w, 0), LLCT_OK);
	CHECK_EQ(llct_writer_append(w, recs, 3), LLCT_OK);
	CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
	struct llct_reader *r;
	struct llct_cursor *c;
	struct llct_batch b;
	uint64_t n = 0;
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_reader_foreach_site(r, collect_site, got), LLCT_OK);
	CHECK(strcmp(got, "1:7:fragment:412:sample:0.3:0;2:7:vertex:96:load:-1.-1:16;") == 0);
	CHECK_EQ(llct_reader_count(r, "sites", &n), LLCT_OK);
	CHECK_EQ(n, 2);
	CHECK_EQ(llct_cursor_open(r, NULL, &c), LLCT_OK);
	CHECK_EQ(llct_cursor_next(c, &b), 1);
	CHECK(b.n == 3 && b.site && b.site[0] == 1 && b.site[1] == 0 && b.site[2] == 2);
	llct_cursor_close(c);
	llct_reader_close(r);
	/* the same file made a format-1 trace: version 1, no sites table, records without sites
	   (its chunk is LCK2 here, which a real version-1 file never has: the reader goes by the
	   chunk) */
	sqlite3 *db;
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db, "DROP TABLE sites; PRAGMA user_version = 1", NULL, NULL, NULL),
		 SQLITE_OK);
	sqlite3_close(db);
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
	got[0] = '\0';
	CHECK_EQ(llct_reader_foreach_site(r, collect_site, got), LLCT_OK);
	CHECK(got[0] == 0);
	CHECK_EQ(llct_reader_count(r, "sites", &n), LLCT_OK);
	CHECK_EQ(n, 0);
	llct_reader_close(r);
	/* and a version newer than this build's is refused */
	CHECK_EQ(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ(sqlite3_exec(db, "PRAGMA user_version = 3", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_ERR_VERSION);
	CHECK(strstr(err, "reads versions 1 to 2") != NULL);
}

/* A reader holding a read transaction on the trace for a while, as `llctrace info` on a trace
 * being captured does for a moment. */
struct hold {
	const char *path;
	int started; /* set once its read lock is held */
	int ok;
};

static void *hold_read(void *arg)
{
	struct hold *h = arg;
	sqlite3 *db = NULL;
	h->ok =
	    sqlite3_open_v2(h->path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_exec(db, "BEGIN; SELECT count(*) FROM chunks;", NULL, NULL, NULL) == SQLITE_OK;
	__atomic_store_n(&h->started, 1, __ATOMIC_SEQ_CST);
	usleep(300 * 1000);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	return NULL;
}

/* A frame ended while another process reads the trace waits for the reader, where it failed
 * with "database is locked" (a capture stopped by `llctrace info` polling its trace). */
static void test_concurrent_reader(void)
{
	char path[300], err[600];
	path_in(path, sizeof(path), "busy.llct");
	struct llct_writer *w;
	const struct llct_record r = {.addr = 64, .stream = LLCT_STREAM_TEX};
	CHECK_EQ(llct_writer_open(path, NULL, &w, err, sizeof(err)), LLCT_OK);
	CHECK_EQ(llct_writer_begin_frame(w, 0), LLCT_OK);
	CHECK_EQ(llct_writer_append(w, &r, 1), LLCT_OK);
	CHECK_EQ(llct_writer_end_frame(w), LLCT_OK);
	struct hold h = {.path = path};
	pthread_t t;
	CHECK(pthread_create(&t, NULL, hold_read, &h) == 0);
	while (!__atomic_load_n(&h.started, __ATOMIC_SEQ_CST))
		usleep(1000);
	CHECK(h.ok);
	CHECK_EQ(llct_writer_set(w, "capture.note", "while read"), LLCT_OK);
	CHECK_EQ(llct_writer_begin_frame(w, 1), LLCT_OK);
	CHECK_EQ(llct_writer_append(w, &r, 1), LLCT_OK);
	int st = llct_writer_end_frame(w);
	CHECK_EQ(st, LLCT_OK);
	if (st)
		fprintf(stderr, "  %s\n", llct_writer_error(w));
	pthread_join(t, NULL);
	CHECK_EQ(llct_writer_close(w), LLCT_OK);
	struct llct_reader *rd;
	CHECK_EQ(llct_reader_open(path, &rd, err, sizeof(err)), LLCT_OK);
	const struct llct_frame_info *fr;
	size_t n = 0;
	CHECK(llct_reader_frames(rd, &fr, &n) == LLCT_OK && n == 2);
	llct_reader_close(rd);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/llct-test-store-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_codec_roundtrip();
	test_codec_corruption();
	test_frame_range();
	test_store_roundtrip();
	test_reserve_commit();
	test_file_corruption();
	test_sites();
	test_concurrent_reader();
	for (size_t k = 0; k < N_PLANS; k++)
		free(expected[k]);
	int rc = check_done("test_store");
	if (!rc) {
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	}
	return rc;
}

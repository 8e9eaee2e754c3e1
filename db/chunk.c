/* chunk.c - encodes and decodes one chunk of records: columns, deltas, varints, one LZ4 frame.
 *
 * Payload (before LZ4), all integers little-endian:
 *   u32 magic "LCK1", u32 n, u8 addr_shift, u8[3] zero, u32 column byte lengths x5
 *   addr   : per stream, zigzag(delta from the previous address of that stream) >> shift, varint
 *   so     : one byte a record, stream | op << 4
 *   sm, kernel, tenant : runs of (varint zigzag(value - previous run's value), varint length-1)
 * A chunk where some record has a site (format 2) is "LCK2": six column lengths, and after
 * tenant a sixth column, site, run-length coded the same way. A chunk with no site is written
 * as "LCK1", byte for byte what format 1 wrote.
 * The whole payload is one LZ4 frame (LZ4F) with its content size, block checksums and content
 * checksum, so any changed byte is caught. Decoding validates every length and value and never
 * reads out of bounds.
 */
#include "llct/trace.h"

#include <lz4frame.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MAGIC 0x314B434Cu  /* "LCK1": five columns */
#define CHUNK_MAGIC2 0x324B434Cu /* "LCK2": six, the sixth the sites */
#define HEADER_SIZE(cols) (12 + 4 * (size_t)(cols))
#define N_COLS 6
/* Worst-case payload: header, 10-byte varints, so byte, four RLE columns of 1-record runs. */
#define PAYLOAD_MAX (HEADER_SIZE(N_COLS) + (size_t)LLCT_CHUNK_MAX * (10 + 1 + 4 + 6 + 4 + 6))
/* LZ4F decodes straight into the destination when it has a whole block of room. */
#define LZ4_BLOCK_MAX ((size_t)4 << 20)

struct llct_batch_scratch {
	uint8_t *raw;    /* decompressed payload, LZ4_BLOCK_MAX + PAYLOAD_MAX bytes */
	size_t raw_size; /* its length after the last decode */
	LZ4F_dctx *dctx; /* reused decompression context */
	/* the id columns' arrays, which b->sm, kernel and tenant point at unless a decode
	 * skipped them (LLCT_BATCH_NO_IDS) */
	uint16_t *sm, *tenant;
	uint32_t *kernel;
	uint32_t *site; /* b->site of an LCK2 chunk's batch (b->site is never the batch's own) */
};

int llct_batch_alloc(struct llct_batch *b)
{
	memset(b, 0, sizeof(*b));
	b->addr = malloc(LLCT_CHUNK_MAX * sizeof(*b->addr));
	b->stream = malloc(LLCT_CHUNK_MAX);
	b->op = malloc(LLCT_CHUNK_MAX);
	b->sm = malloc(LLCT_CHUNK_MAX * sizeof(*b->sm));
	b->kernel = malloc(LLCT_CHUNK_MAX * sizeof(*b->kernel));
	b->tenant = malloc(LLCT_CHUNK_MAX * sizeof(*b->tenant));
	b->scratch = calloc(1, sizeof(*b->scratch));
	if (!b->addr || !b->stream || !b->op || !b->sm || !b->kernel || !b->tenant || !b->scratch)
		goto fail;
	if (!(b->scratch->site = malloc(LLCT_CHUNK_MAX * sizeof(*b->scratch->site))))
		goto fail;
	b->scratch->sm = b->sm;
	b->scratch->kernel = b->kernel;
	b->scratch->tenant = b->tenant;
	b->scratch->raw = malloc(LZ4_BLOCK_MAX + PAYLOAD_MAX);
	if (!b->scratch->raw)
		goto fail;
	if (LZ4F_isError(LZ4F_createDecompressionContext(&b->scratch->dctx, LZ4F_VERSION)))
		goto fail;
	return LLCT_OK;
fail:
	llct_batch_free(b);
	return LLCT_ERR_NOMEM;
}

void llct_batch_free(struct llct_batch *b)
{
	if (b->scratch) {
		free(b->scratch->raw);
		if (b->scratch->dctx)
			LZ4F_freeDecompressionContext(b->scratch->dctx);
		if (!b->sm) /* a decode skipped the id columns: the arrays are the scratch's */
			b->sm = b->scratch->sm;
		if (!b->kernel)
			b->kernel = b->scratch->kernel;
		if (!b->tenant)
			b->tenant = b->scratch->tenant;
		free(b->scratch->site);
		free(b->scratch);
	}
	free(b->addr);
	free(b->stream);
	free(b->op);
	free(b->sm);
	free(b->kernel);
	free(b->tenant);
	memset(b, 0, sizeof(*b));
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Run-length codes one integer column of `n` values, value i read as GET(i). */
#define RLE_ENCODE(p, GET, n)                                                                      \
	do {                                                                                       \
		uint64_t prev_ = 0;                                                                \
		uint32_t i_ = 0;                                                                   \
		while (i_ < (n)) {                                                                 \
			uint64_t v_ = GET(i_);                                                     \
			uint32_t j_ = i_ + 1;                                                      \
			while (j_ < (n) && GET(j_) == v_)                                          \
				j_++;                                                              \
			p = put_varint(p, zigzag((int64_t)(v_ - prev_)));                          \
			p = put_varint(p, j_ - i_ - 1);                                            \
			prev_ = v_;                                                                \
			i_ = j_;                                                                   \
		}                                                                                  \
	} while (0)

/* The payload's header (its columns between col_start[k] and [k + 1]); returns its size, up
 * to end. */
static size_t put_header(uint8_t *raw, uint32_t n, unsigned shift, int cols,
			 uint8_t *const *col_start, const uint8_t *end)
{
	put32(raw, cols == N_COLS ? CHUNK_MAGIC2 : CHUNK_MAGIC);
	put32(raw + 4, n);
	raw[8] = (uint8_t)shift;
	raw[9] = raw[10] = raw[11] = 0;
	for (int k = 0; k < cols; k++)
		put32(raw + 12 + 4 * k, (uint32_t)(col_start[k + 1] - col_start[k]));
	return (size_t)(end - raw);
}

/* The payload (before LZ4) of n records, read as rows r[] when rows is set, else as columns
 * c (the two callers below make one specialized copy each). Returns its size, or 0 when a
 * record is invalid. raw holds PAYLOAD_MAX bytes. */
static inline __attribute__((always_inline)) size_t
payload(uint8_t *raw, uint32_t n, int rows, const struct llct_record *r, const struct llct_batch *c)
{
#define ADDR(i) (rows ? r[i].addr : c->addr[i])
#define STREAM(i) (rows ? r[i].stream : c->stream[i])
#define OP(i) (rows ? r[i].op : c->op[i])
#define SM(i) (rows ? r[i].sm : c->sm[i])
#define KERNEL(i) (rows ? r[i].kernel : c->kernel[i])
#define TENANT(i) (rows ? r[i].tenant : c->tenant[i])
#define SITE(i) (rows ? r[i].site : c->site ? c->site[i] : 0)
	uint8_t *p, *col_start[N_COLS + 1];
	uint64_t prev[16] = {0}, acc = 0;
	uint32_t any = 0;
	unsigned shift = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (STREAM(i) >= LLCT_N_STREAMS || OP(i) > 1)
			return 0;
		acc |= ADDR(i) - prev[STREAM(i)];
		prev[STREAM(i)] = ADDR(i);
		any |= SITE(i);
	}
	while (shift < 63 && acc && !(acc & ((uint64_t)1 << shift)))
		shift++;
	int cols = any ? N_COLS : N_COLS - 1;
	p = raw + HEADER_SIZE(cols);
	col_start[0] = p;
	memset(prev, 0, sizeof(prev));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t d = ADDR(i) - prev[STREAM(i)];
		prev[STREAM(i)] = ADDR(i);
		p = put_varint(p, zigzag((int64_t)d >> shift));
	}
	col_start[1] = p;
	for (uint32_t i = 0; i < n; i++)
		*p++ = (uint8_t)(STREAM(i) | OP(i) << 4);
	col_start[2] = p;
	RLE_ENCODE(p, SM, n);
	col_start[3] = p;
	RLE_ENCODE(p, KERNEL, n);
	col_start[4] = p;
	RLE_ENCODE(p, TENANT, n);
	col_start[5] = p;
	if (any) {
		RLE_ENCODE(p, SITE, n);
		col_start[6] = p;
	}
#undef ADDR
#undef STREAM
#undef OP
#undef SM
#undef KERNEL
#undef TENANT
#undef SITE
	return put_header(raw, n, shift, cols, col_start, p);
}

/* The LZ4 frame of a payload into *blob (grown to *cap as needed, malloc'd), at LZ4F's
 * compression level `level` (0: its fast mode, the writer's). */
static int compress(const uint8_t *raw, size_t raw_size, int level, uint8_t **blob, size_t *cap,
		    size_t *out_size)
{
	LZ4F_preferences_t prefs;
	memset(&prefs, 0, sizeof(prefs));
	prefs.compressionLevel = level;
	prefs.frameInfo.blockSizeID = LZ4F_max4MB;
	prefs.frameInfo.blockMode = LZ4F_blockIndependent;
	prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
	prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
	prefs.frameInfo.contentSize = raw_size;
	size_t need = LZ4F_compressFrameBound(raw_size, &prefs);
	if (need > *cap) {
		uint8_t *nb = realloc(*blob, need);
		if (!nb)
			return LLCT_ERR_NOMEM;
		*blob = nb, *cap = need;
	}
	size_t sz = LZ4F_compressFrame(*blob, *cap, raw, raw_size, &prefs);
	if (LZ4F_isError(sz))
		return LLCT_ERR_INVALID;
	*out_size = sz;
	return LLCT_OK;
}

int llct_chunk_encode(const struct llct_batch *c, uint8_t **out, size_t *out_size)
{
	*out = NULL;
	*out_size = 0;
	if (c->n == 0 || c->n > LLCT_CHUNK_MAX)
		return LLCT_ERR_INVALID;
	uint8_t *raw = malloc(PAYLOAD_MAX), *blob = NULL;
	size_t cap = 0, raw_size;
	if (!raw)
		return LLCT_ERR_NOMEM;
	int st = (raw_size = payload(raw, c->n, 0, NULL, c))
		     ? compress(raw, raw_size, 0, &blob, &cap, out_size)
		     : LLCT_ERR_INVALID;
	free(raw);
	if (st) {
		free(blob);
		*out_size = 0;
		return st;
	}
	*out = blob;
	return LLCT_OK;
}

/* A run-length column, built a record at a time: the run so far, and the encoded runs. */
struct rle {
	uint64_t cur, prev;
	uint32_t start;
	uint8_t *p;
};

static inline void rle_step(struct rle *c, uint64_t v, uint32_t i)
{
	if (v == c->cur)
		return;
	c->p = put_varint(c->p, zigzag((int64_t)(c->cur - c->prev)));
	c->p = put_varint(c->p, i - c->start - 1);
	c->prev = c->cur, c->cur = v, c->start = i;
}

/* payload()'s bytes for rows, in one pass over them: the address column's varints (at the
 * shift guessed, the last chunk's), the stream/op bytes and the three run-length columns are
 * worked out together (the last four in scratch), where payload() reads every record six
 * times. The address the stream before used is kept in a register while the stream repeats;
 * the three ids are compared as one word (a pass's loads and stores repeat them for runs of
 * records). Where the shift the deltas have is not the one guessed, the address column is
 * written again from the records. *shift: the guess in, the shift out. scratch holds
 * RAW_SCRATCH(n) bytes. */
#define RLE_MAX 13 /* bytes a run takes at most: a 10-byte and a 3-byte varint */
#define RAW_SCRATCH(n) ((size_t)(n) * (1 + 4 * RLE_MAX))
static size_t payload_rows(uint8_t *raw, uint8_t *scratch, uint32_t n, const struct llct_record *r,
			   unsigned *shift_io)
{
	_Static_assert(
	    offsetof(struct llct_record, sm) == offsetof(struct llct_record, kernel) + 4 &&
		offsetof(struct llct_record, tenant) == offsetof(struct llct_record, kernel) + 6,
	    "kernel, sm and tenant are one 8-byte word of a record");
	uint64_t prev[16] = {0}, acc = 0;
	uint8_t *so = scratch;
	uint32_t any = 0; /* a site: the chunk is LCK2 */
	for (uint32_t i = 0; i < n; i++)
		any |= r[i].site;
	int cols = any ? N_COLS : N_COLS - 1, ids_cols = cols - 2;
	struct rle col[4];
	for (int k = 0; k < 4; k++)
		col[k] = (struct rle){0, 0, 0, so + n + (size_t)k * n * RLE_MAX};
	col[0].cur = r[0].sm, col[1].cur = r[0].kernel, col[2].cur = r[0].tenant;
	col[3].cur = r[0].site;
	uint64_t ids;
	memcpy(&ids, &r[0].kernel, sizeof(ids));
	unsigned last = r[0].stream < 16 ? r[0].stream : 0, guess = *shift_io;
	uint64_t last_addr = prev[last];
	uint8_t *p = raw + HEADER_SIZE(cols), *col_start[N_COLS + 1];
	col_start[0] = p;
	for (uint32_t i = 0; i < n; i++) {
		unsigned st = r[i].stream;
		if (st >= LLCT_N_STREAMS || r[i].op > 1)
			return 0;
		if (st != last) { /* the stream changes: its address from memory */
			prev[last] = last_addr;
			last = st;
			last_addr = prev[st];
		}
		uint64_t a = r[i].addr, d = a - last_addr;
		acc |= d;
		last_addr = a;
		p = put_varint(p, zigzag((int64_t)d >> guess));
		so[i] = (uint8_t)(st | r[i].op << 4);
		uint64_t w;
		memcpy(&w, &r[i].kernel, sizeof(w));
		if (w != ids) {
			ids = w;
			rle_step(&col[0], r[i].sm, i);
			rle_step(&col[1], r[i].kernel, i);
			rle_step(&col[2], r[i].tenant, i);
		}
		if (any)
			rle_step(&col[3], r[i].site, i);
	}
	unsigned shift = 0;
	while (shift < 63 && acc && !(acc & ((uint64_t)1 << shift)))
		shift++;
	*shift_io = shift;
	if (shift != guess) { /* the address column again, at the deltas' shift */
		memset(prev, 0, sizeof(prev));
		p = col_start[0];
		for (uint32_t i = 0; i < n; i++) {
			uint64_t d = r[i].addr - prev[r[i].stream];
			prev[r[i].stream] = r[i].addr;
			p = put_varint(p, zigzag((int64_t)d >> shift));
		}
	}
	col_start[1] = p;
	memcpy(p, so, n);
	p += n;
	for (int k = 0; k < ids_cols; k++) {
		rle_step(&col[k], ~col[k].cur, n); /* the last run */
		size_t len = (size_t)(col[k].p - (so + n + (size_t)k * n * RLE_MAX));
		col_start[2 + k] = p;
		memcpy(p, so + n + (size_t)k * n * RLE_MAX, len);
		p += len;
	}
	col_start[cols] = p;
	return put_header(raw, n, shift, cols, col_start, p);
}

int llct_chunk_encode_records(struct llct_chunk_enc *e, const struct llct_record *r, uint32_t n,
			      size_t *out_size)
{
	*out_size = 0;
	if (n == 0 || n > LLCT_CHUNK_MAX)
		return LLCT_ERR_INVALID;
	if (!e->raw && !(e->raw = malloc(PAYLOAD_MAX + RAW_SCRATCH(LLCT_CHUNK_MAX))))
		return LLCT_ERR_NOMEM;
	size_t raw_size = payload_rows(e->raw, e->raw + PAYLOAD_MAX, n, r, &e->shift);
	return raw_size ? compress(e->raw, raw_size, 0, &e->blob, &e->blob_cap, out_size)
			: LLCT_ERR_INVALID;
}

void llct_chunk_enc_free(struct llct_chunk_enc *e)
{
	free(e->raw);
	free(e->blob);
	memset(e, 0, sizeof(*e));
}

static int fail(char *errbuf, size_t errbuf_size, const char *fmt, const char *detail)
{
	if (errbuf && errbuf_size)
		snprintf(errbuf, errbuf_size, fmt, detail);
	return LLCT_ERR_CORRUPT;
}

/* Reads one varint from [*pp, end); returns 0 when it runs off the end or is over 10 bytes. */
static inline int get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0;
	for (unsigned s = 0; s < 70; s += 7) {
		if (p >= end)
			return 0;
		uint8_t byte = *p++;
		r |= (uint64_t)(byte & 0x7f) << s;
		if (!(byte & 0x80)) {
			*pp = p;
			*v = r;
			return 1;
		}
	}
	return 0;
}

/* Expands one run-length column of `width`-byte values into col[0..n); returns 0 unless the
 * runs cover exactly n values, fit the type and end exactly at `end`. */
static int rle_decode(const uint8_t *p, const uint8_t *end, void *col, unsigned width, uint32_t n)
{
	uint64_t prev = 0, dv, len, max = width == 2 ? UINT16_MAX : UINT32_MAX;
	uint16_t *c16 = col;
	uint32_t *c32 = col, i = 0;
	while (p < end) {
		if (p + 1 < end && !((p[0] | p[1]) & 0x80)) { /* the common one-byte pair */
			dv = p[0];
			len = p[1];
			p += 2;
		} else if (!get_varint(&p, end, &dv) || !get_varint(&p, end, &len)) {
			return 0;
		}
		prev += (uint64_t)unzigzag(dv);
		if (len >= (uint64_t)n - i || prev > max)
			return 0;
		uint32_t e = i + (uint32_t)len + 1;
		if (width == 2)
			for (; i < e; i++)
				c16[i] = (uint16_t)prev;
		else
			for (; i < e; i++)
				c32[i] = (uint32_t)prev;
	}
	return i == n;
}

int llct_chunk_decode(const uint8_t *blob, size_t size, uint32_t expect_n, struct llct_batch *b,
		      char *errbuf, size_t errbuf_size)
{
	struct llct_batch_scratch *s = b->scratch;
	LZ4F_frameInfo_t fi;
	size_t src_size = size, hdr;

	if (!s)
		return LLCT_ERR_INVALID;
	LZ4F_resetDecompressionContext(s->dctx);
	hdr = LZ4F_getFrameInfo(s->dctx, &fi, blob, &src_size);
	if (LZ4F_isError(hdr))
		return fail(errbuf, errbuf_size, "bad lz4 frame header (%s)",
			    LZ4F_getErrorName(hdr));
	if (fi.contentSize < HEADER_SIZE(N_COLS - 1) || fi.contentSize > PAYLOAD_MAX ||
	    fi.contentChecksumFlag != LZ4F_contentChecksumEnabled ||
	    fi.blockChecksumFlag != LZ4F_blockChecksumEnabled)
		return fail(errbuf, errbuf_size, "%s",
			    "lz4 frame without a valid size or checksum");
	size_t raw_size = (size_t)fi.contentSize;
	size_t dst_size = LZ4_BLOCK_MAX + PAYLOAD_MAX, done = src_size;
	size_t left = size - src_size;
	size_t r = LZ4F_decompress(s->dctx, s->raw, &dst_size, blob + done, &left, NULL);
	if (LZ4F_isError(r))
		return fail(errbuf, errbuf_size, "lz4 data does not decode (%s)",
			    LZ4F_getErrorName(r));
	if (r != 0 || done + left != size || dst_size != raw_size)
		return fail(errbuf, errbuf_size, "%s",
			    "lz4 frame is truncated or has trailing bytes");

	s->raw_size = raw_size;
	const uint8_t *raw = s->raw;
	uint32_t n = get32(raw + 4), len[N_COLS], magic = get32(raw);
	unsigned shift = raw[8];
	if (magic != CHUNK_MAGIC && magic != CHUNK_MAGIC2)
		return fail(errbuf, errbuf_size, "%s", "bad chunk magic");
	int cols = magic == CHUNK_MAGIC2 ? N_COLS : N_COLS - 1;
	size_t total = HEADER_SIZE(cols);
	if (raw_size < total)
		return fail(errbuf, errbuf_size, "%s", "chunk header is cut short");
	if (n == 0 || n > LLCT_CHUNK_MAX || (expect_n && n != expect_n))
		return fail(errbuf, errbuf_size, "%s", "record count does not match the index");
	if (shift > 63 || raw[9] || raw[10] || raw[11])
		return fail(errbuf, errbuf_size, "%s", "bad chunk header");
	for (int k = 0; k < cols; k++) {
		len[k] = get32(raw + 12 + 4 * k);
		total += len[k];
	}
	if (total != raw_size || len[1] != n)
		return fail(errbuf, errbuf_size, "%s", "column lengths do not add up");

	const uint8_t *p = raw + HEADER_SIZE(cols), *end = p + len[0];
	const uint8_t *restrict so = end;
	uint8_t *restrict stream = b->stream, *restrict op = b->op;
	uint64_t *restrict addr = b->addr;
	uint64_t prev[16] = {0};
	/* Separate simple loops: the first two vectorize, the third is the varint chain. */
	uint8_t top = 0; /* valid so bytes are 0..8 and 16..24: with bit 4 cleared, <= 8 */
	for (uint32_t i = 0; i < n; i++) {
		uint8_t x = so[i], y = x & 0xEF;
		top = y > top ? y : top;
		stream[i] = x & 15;
		op[i] = x >> 4;
	}
	if (top >= LLCT_N_STREAMS)
		return fail(errbuf, errbuf_size, "%s", "invalid stream or op value");
	for (uint32_t i = 0; i < n; i++) {
		unsigned st = stream[i];
		uint64_t v;
		if (p < end && *p < 0x80) {
			v = *p++;
		} else if (!get_varint(&p, end, &v)) {
			return fail(errbuf, errbuf_size, "%s", "address column is cut short");
		}
		prev[st] += (uint64_t)unzigzag(v) << shift;
		addr[i] = prev[st];
	}
	if (p != end)
		return fail(errbuf, errbuf_size, "%s", "address column has trailing bytes");
	p = so + n;
	if (b->flags & LLCT_BATCH_NO_IDS) {
		b->sm = NULL;
		b->kernel = NULL;
		b->tenant = NULL;
		b->site = NULL;
		b->n = n;
		return LLCT_OK;
	}
	b->sm = s->sm;
	b->kernel = s->kernel;
	b->tenant = s->tenant;
	if (!rle_decode(p, p + len[2], b->sm, 2, n))
		return fail(errbuf, errbuf_size, "%s", "bad sm column");
	p += len[2];
	if (!rle_decode(p, p + len[3], b->kernel, 4, n))
		return fail(errbuf, errbuf_size, "%s", "bad kernel column");
	p += len[3];
	if (!rle_decode(p, p + len[4], b->tenant, 2, n))
		return fail(errbuf, errbuf_size, "%s", "bad tenant column");
	p += len[4];
	b->site = NULL;
	if (cols == N_COLS) {
		if (!rle_decode(p, p + len[5], s->site, 4, n))
			return fail(errbuf, errbuf_size, "%s", "bad site column");
		b->site = s->site;
	}
	b->n = n;
	return LLCT_OK;
}

int llct_chunk_repack(const uint8_t *blob, size_t size, uint32_t expect_n, int level,
		      struct llct_batch *b, uint8_t **out, size_t *cap, size_t *out_size,
		      char *errbuf, size_t errbuf_size)
{
	if (level < 0 || level > LLCT_CHUNK_LEVEL_MAX || !b->scratch)
		return LLCT_ERR_INVALID;
	unsigned flags = b->flags;
	b->flags &= ~LLCT_BATCH_NO_IDS; /* every column checked, not only the addresses */
	int st = llct_chunk_decode(blob, size, expect_n, b, errbuf, errbuf_size);
	if (!st &&
	    (st = compress(b->scratch->raw, b->scratch->raw_size, level, out, cap, out_size)))
		fail(errbuf, errbuf_size, "%s", "lz4 could not encode the chunk again");
	/* the new frame's content checksum is the payload's: decoding it proves it equal */
	if (!st && (st = llct_chunk_decode(*out, *out_size, b->n, b, errbuf, errbuf_size)))
		fail(errbuf, errbuf_size, "%s", "the chunk encoded again does not decode");
	b->flags = flags;
	return st;
}

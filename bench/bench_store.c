/* bench_store.c - measures the trace store's chunk codec on synthetic frames: bytes per record,
 * encode and decode rates on one core, against plain LZ4 and zstd on the raw records.
 *
 * usage: bench_store [RECORDS] [REPEATS] [--no-compare]
 *        (default 20000000 records, 3 decode repeats, with the LZ4 and zstd comparison)
 */
#include "llct/synth.h"
#include "llct/trace.h"

#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

struct collect {
	struct llct_record *recs;
	uint32_t *frame_of;
	size_t n, cap;
	uint32_t frame;
};

static int take(void *ud, const struct llct_record *r, size_t n)
{
	struct collect *c = ud;
	for (size_t i = 0; i < n && c->n < c->cap; i++) {
		c->frame_of[c->n] = c->frame;
		c->recs[c->n++] = r[i];
	}
	return c->n >= c->cap;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct chunk {
	size_t first;
	uint32_t n;
	uint8_t *blob;
	size_t size;
};

/* Long because it is the benchmark's script: each step (encode, write, read, decode, the
 * figures printed) in the order it runs, over the same buffers. */
int main(int argc, char **argv)
{
	size_t want = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
	int repeats = argc > 2 ? atoi(argv[2]) : 3;
	size_t chunk_records =
	    getenv("CHUNK") ? strtoull(getenv("CHUNK"), NULL, 10) : LLCT_CHUNK_RECORDS;
	struct llct_synth_params p = LLCT_SYNTH_PARAMS_INIT;
	struct collect c = {malloc(want * sizeof(struct llct_record)), malloc(want * 4), 0, want,
			    0};
	uint32_t kernel = 0;
	double t0 = now();
	while (c.n < want) {
		llct_synth_frame(&p, c.frame, &kernel, take, NULL, &c);
		c.frame++;
	}
	printf("records            %zu (synthetic deferred frames, default knobs, %u frames, %.1fs "
	       "to generate)\n",
	       c.n, c.frame, now() - t0);

	/* Chunks: at most LLCT_CHUNK_MAX records, never across frames. */
	size_t n_chunks = 0, cap_chunks = c.n / 1000 + c.frame + 16;
	struct chunk *ch = calloc(cap_chunks, sizeof(*ch));
	for (size_t i = 0; i < c.n;) {
		size_t j = i;
		while (j < c.n && j - i < chunk_records && c.frame_of[j] == c.frame_of[i])
			j++;
		ch[n_chunks].first = i;
		ch[n_chunks++].n = (uint32_t)(j - i);
		i = j;
	}
	struct llct_batch in, out;
	llct_batch_alloc(&in);
	llct_batch_alloc(&out);

	/* Encode (column gathering included, as the writer does it). */
	double enc = 0;
	size_t total = 0;
	for (size_t k = 0; k < n_chunks; k++) {
		const struct llct_record *r = c.recs + ch[k].first;
		double a = now();
		in.n = ch[k].n;
		for (uint32_t i = 0; i < in.n; i++) {
			in.addr[i] = r[i].addr;
			in.stream[i] = r[i].stream;
			in.op[i] = r[i].op;
			in.sm[i] = r[i].sm;
			in.kernel[i] = r[i].kernel;
			in.tenant[i] = r[i].tenant;
		}
		llct_chunk_encode(&in, &ch[k].blob, &ch[k].size);
		enc += now() - a;
		total += ch[k].size;
	}
	/* The writer's encoder: the records as they are, into buffers kept between chunks; best
	 * of `repeats`. */
	double enc_rows = 1e9;
	struct llct_chunk_enc ce = {0};
	for (int rep = 0; rep < repeats; rep++) {
		double a = now();
		for (size_t k = 0; k < n_chunks; k++) {
			size_t size;
			if (llct_chunk_encode_records(&ce, c.recs + ch[k].first, ch[k].n, &size) ||
			    size != ch[k].size) {
				fprintf(stderr, "the records' encoder disagrees\n");
				return 1;
			}
		}
		double t = now() - a;
		enc_rows = t < enc_rows ? t : enc_rows;
	}
	llct_chunk_enc_free(&ce);
	/* Decode, best of `repeats`, checking the result once. */
	double best = 1e9;
	char why[200];
	for (int rep = 0; rep < repeats; rep++) {
		double a = now();
		for (size_t k = 0; k < n_chunks; k++)
			if (llct_chunk_decode(ch[k].blob, ch[k].size, ch[k].n, &out, why,
					      sizeof(why))) {
				fprintf(stderr, "decode failed: %s\n", why);
				return 1;
			}
		double t = now() - a;
		if (t < best)
			best = t;
	}
	printf("llct columns+lz4   %.3f bytes/record, encode %.1f M rec/s (from records, as the "
	       "writer does: %.1f), decode %.1f M rec/s\n",
	       (double)total / (double)c.n, (double)c.n / enc / 1e6, (double)c.n / enc_rows / 1e6,
	       (double)c.n / best / 1e6);

	if (argc > 3 && strcmp(argv[3], "--no-compare") == 0)
		return 0;
	/* Plain LZ4 frame on the raw 16-byte records of each chunk. */
	size_t lz_total = 0;
	double lz_enc = 0, lz_dec = 0;
	uint8_t *tmp = malloc(LZ4F_compressFrameBound(LLCT_CHUNK_MAX * 16, NULL));
	uint8_t *back = malloc(8 << 20);
	LZ4F_dctx *dctx;
	LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
	for (size_t k = 0; k < n_chunks; k++) {
		size_t raw = (size_t)ch[k].n * sizeof(struct llct_record);
		double a = now();
		size_t sz = LZ4F_compressFrame(tmp, LZ4F_compressFrameBound(raw, NULL),
					       c.recs + ch[k].first, raw, NULL);
		double b = now();
		size_t dst = LLCT_CHUNK_MAX * 16 + 1024, src = sz;
		LZ4F_resetDecompressionContext(dctx);
		LZ4F_decompress(dctx, back, &dst, tmp, &src, NULL);
		double d = now();
		lz_enc += b - a;
		lz_dec += d - b;
		lz_total += sz;
	}
	printf("plain lz4 (raw)    %.3f bytes/record, encode %.1f M rec/s, decode %.1f M rec/s\n",
	       (double)lz_total / (double)c.n, (double)c.n / lz_enc / 1e6,
	       (double)c.n / lz_dec / 1e6);
#ifdef HAVE_ZSTD
	for (int level = 1; level <= 19; level += 18) {
		size_t z_total = 0;
		double z_enc = 0, z_dec = 0;
		uint8_t *zb = malloc(ZSTD_compressBound(LLCT_CHUNK_MAX * 16));
		for (size_t k = 0; k < n_chunks && (level < 10 || k < n_chunks / 10 + 1); k++) {
			size_t raw = (size_t)ch[k].n * sizeof(struct llct_record);
			double a = now();
			size_t sz = ZSTD_compress(zb, ZSTD_compressBound(raw), c.recs + ch[k].first,
						  raw, level);
			double b = now();
			ZSTD_decompress(back, 8 << 20, zb, sz);
			double d = now();
			z_enc += b - a;
			z_dec += d - b;
			z_total += sz;
		}
		size_t counted = 0;
		for (size_t k = 0; k < n_chunks && (level < 10 || k < n_chunks / 10 + 1); k++)
			counted += ch[k].n;
		printf("zstd -%-2d (raw)     %.3f bytes/record, encode %.1f M rec/s, decode %.1f M "
		       "rec/s%s\n",
		       level, (double)z_total / (double)counted, (double)counted / z_enc / 1e6,
		       (double)counted / z_dec / 1e6, level > 10 ? " (first 10% of chunks)" : "");
		free(zb);
	}
	/* zstd instead of LZ4 over llct's own column payload. */
	{
		size_t z_total = 0;
		double z_dec = 0;
		uint8_t *payload = malloc(8 << 20), *zb = malloc(ZSTD_compressBound(4 << 20));
		for (size_t k = 0; k < n_chunks; k++) {
			size_t dst = 8 << 20, src = ch[k].size;
			LZ4F_resetDecompressionContext(dctx);
			LZ4F_decompress(dctx, payload, &dst, ch[k].blob, &src, NULL);
			size_t sz = ZSTD_compress(zb, ZSTD_compressBound(dst), payload, dst, 3);
			double a = now();
			ZSTD_decompress(back, 8 << 20, zb, sz);
			z_dec += now() - a;
			z_total += sz;
		}
		printf("llct columns+zstd3 %.3f bytes/record, zstd part of decode alone %.1f M "
		       "rec/s\n",
		       (double)z_total / (double)c.n, (double)c.n / z_dec / 1e6);
		free(payload);
		free(zb);
	}
#endif
	LZ4F_freeDecompressionContext(dctx);
	for (size_t k = 0; k < n_chunks; k++)
		free(ch[k].blob);
	free(ch);
	free(tmp);
	free(back);
	free(c.recs);
	free(c.frame_of);
	llct_batch_free(&in);
	llct_batch_free(&out);
	return 0;
}

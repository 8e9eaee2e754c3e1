/* test_flow.c - pass-to-pass reuse (replay --flow, replay/flow.c): a hand-worked sequence on a
 * two-way LRU set, every row and count as docs/REPLAY.md's rule gives it (the last writer of
 * each line, TEX and CS reads of another kernel's lines, cross-frame producers, a copy taking a
 * line over, a kernel's own reads left out); and on random traces, against a plain reference:
 * the reads from a last-writer array, the hits from the same policy's own answers without
 * --flow, the reads equal under LRU, DRRIP and Belady. */
#include "check.h"
#include "llct/replay.h"
#include "llct/stats.h"

#include <stdlib.h>
#include <string.h>

/* A model of 4 sets of 2 ways of 64-byte lines (line L in set L % 4), counting frame `frame`. */
static struct llct_cache *small_cache(const char *policy, struct llct_frame_stats *fs)
{
	struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
	cfg.size = 512;
	cfg.ways = 2;
	cfg.banks = 1;
	struct llct_cache *c = NULL;
	CHECK_EQ(llct_cache_create(&cfg, llct_policy_find(policy), &c), LLCT_OK);
	CHECK_EQ(llct_cache_track_flow(c), LLCT_OK);
	llct_cache_set_frame(c, fs);
	return c;
}

static int acc(struct llct_cache *c, uint32_t kernel, uint64_t line, int stream, int op)
{
	struct llct_record r = {
	    .addr = line * 64 + 8, .kernel = kernel, .stream = (uint8_t)stream, .op = (uint8_t)op};
	return llct_cache_access_rec(c, &r, LLCT_NEVER);
}

static const struct llct_flow_row *row(const struct llct_flow_row *r, size_t n, uint32_t frame,
				       uint32_t p, uint32_t k, int from, int to)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].frame == frame && r[i].producer == p && r[i].consumer == k &&
		    r[i].from_stream == from && r[i].to_stream == to)
			return &r[i];
	return NULL;
}

static void test_hand_worked(void)
{
	enum { R = LLCT_OP_READ, W = LLCT_OP_WRITE };
	struct llct_frame_stats f0 = {.frame = 0}, f1 = {.frame = 1};
	struct llct_cache *c = small_cache("lru", &f0);
	/* set 0 (lines 0, 4, 8, 12, 16), LRU, two ways */
	acc(c, 1, 0, LLCT_STREAM_RT, W);                /* {0} */
	acc(c, 1, 4, LLCT_STREAM_RT, W);                /* {0,4} */
	CHECK_EQ(acc(c, 2, 0, LLCT_STREAM_TEX, R), 1);  /* RT->TEX (1,2): a hit; {4,0} */
	acc(c, 1, 8, LLCT_STREAM_Z, W);                 /* evicts 4: {0,8} */
	CHECK_EQ(acc(c, 2, 4, LLCT_STREAM_TEX, R), 0);  /* RT->TEX (1,2): a miss; evicts 0 */
	CHECK_EQ(acc(c, 2, 8, LLCT_STREAM_TEX, R), 1);  /* Z->TEX (1,2): a hit; {4,8} */
	CHECK_EQ(acc(c, 2, 12, LLCT_STREAM_TEX, R), 0); /* never written: no row; evicts 4 */
	acc(c, 3, 16, LLCT_STREAM_CS, W);               /* evicts 8: {12,16} */
	CHECK_EQ(acc(c, 3, 16, LLCT_STREAM_CS, R), 1);  /* its own output: no row */
	CHECK_EQ(acc(c, 4, 16, LLCT_STREAM_CS, R), 1);  /* CS->CS (3,4): a hit */
	CHECK_EQ(acc(c, 4, 0, LLCT_STREAM_RT, R), 0);   /* an RT read consumes nothing; evicts 12 */
	llct_cache_set_frame(c, &f1);
	CHECK_EQ(acc(c, 5, 8, LLCT_STREAM_TEX, R), 0); /* frame 1, Z->TEX (1,5) from frame 0 */
	acc(c, 6, 8, LLCT_STREAM_OTHER, W);            /* a copy takes line 8 over */
	CHECK_EQ(acc(c, 7, 8, LLCT_STREAM_TEX, R), 1); /* OTHER->TEX (6,7) */
	CHECK_EQ(acc(c, 7, 8, LLCT_STREAM_VTX, R), 1); /* VTX reads are not consumers */
	struct llct_flow_row *r;
	size_t n;
	CHECK_EQ(llct_cache_flow(c, &r, &n), LLCT_OK);
	CHECK_EQ(n, 5);
	const struct llct_flow_row *x;
	CHECK((x = row(r, n, 0, 1, 2, LLCT_STREAM_RT, LLCT_STREAM_TEX)) && x->reads == 2 &&
	      x->hits == 1);
	CHECK((x = row(r, n, 0, 1, 2, LLCT_STREAM_Z, LLCT_STREAM_TEX)) && x->reads == 1 &&
	      x->hits == 1);
	CHECK((x = row(r, n, 0, 3, 4, LLCT_STREAM_CS, LLCT_STREAM_CS)) && x->reads == 1 &&
	      x->hits == 1);
	CHECK((x = row(r, n, 1, 1, 5, LLCT_STREAM_Z, LLCT_STREAM_TEX)) && x->reads == 1 &&
	      x->hits == 0);
	CHECK((x = row(r, n, 1, 6, 7, LLCT_STREAM_OTHER, LLCT_STREAM_TEX)) && x->reads == 1 &&
	      x->hits == 1);
	/* sorted by frame, consumer, producer */
	for (size_t i = 1; i < n; i++)
		CHECK(r[i - 1].frame < r[i].frame ||
		      (r[i - 1].frame == r[i].frame && r[i - 1].consumer <= r[i].consumer));
	free(r);
	llct_cache_destroy(c);
}

/* Random traces: 60 kernels in order, 3 frames, lines of 2,048, every stream; the reference
 * keeps the last writer in an array and asks a model without --flow whether each read hit. */
#define NK 60
#define NL 2048
#define NREC 60000
static uint64_t ref_reads[NK][NK][LLCT_N_STREAMS], ref_hits[NK][NK][LLCT_N_STREAMS];

static void test_random(unsigned seed)
{
	static const char *const pols[] = {"lru", "drrip", "belady"};
	struct llct_record *recs = malloc(NREC * sizeof(*recs));
	uint64_t *next = malloc(NREC * sizeof(*next));
	srand(seed);
	for (int i = 0; i < NREC; i++) {
		int stream = rand() % LLCT_N_STREAMS;
		int line = rand() % 3 ? rand() % (NL / 8) : rand() % NL; /* some reuse */
		recs[i] = (struct llct_record){.addr = (uint64_t)line * 64,
					       .kernel = (uint32_t)(i * NK / NREC),
					       .stream = (uint8_t)stream,
					       .op = (uint8_t)(rand() % 2)};
	}
	for (int i = NREC - 1; i >= 0; i--) { /* next uses, for Belady */
		next[i] = LLCT_NEVER;
		for (int j = i + 1; j < NREC && j < i + 20000; j++)
			if (recs[j].addr == recs[i].addr) {
				next[i] = (uint64_t)j;
				break;
			}
	}
	uint64_t reads0[NK * NK * LLCT_N_STREAMS] = {0};
	for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++) {
		struct llct_frame_stats fs[3], gs[3];
		memset(fs, 0, sizeof(fs));
		memset(gs, 0, sizeof(gs));
		for (int f = 0; f < 3; f++)
			fs[f].frame = gs[f].frame = (uint32_t)f;
		struct llct_cache *c = small_cache(pols[p], &fs[0]), *plain = NULL;
		struct llct_cache_config cfg = LLCT_CACHE_CONFIG_INIT;
		cfg.size = 512, cfg.ways = 2, cfg.banks = 1;
		CHECK_EQ(llct_cache_create(&cfg, llct_policy_find(pols[p]), &plain), LLCT_OK);
		memset(ref_reads, 0, sizeof(ref_reads));
		memset(ref_hits, 0, sizeof(ref_hits));
		int writer[NL], wstream[NL];
		for (int l = 0; l < NL; l++)
			writer[l] = -1;
		for (int i = 0; i < NREC; i++) {
			int f = i * 3 / NREC;
			llct_cache_set_frame(c, &fs[f]);
			llct_cache_set_frame(plain, &gs[f]);
			const struct llct_record *x = &recs[i];
			llct_cache_access_rec(c, x, next[i]);
			int hit = llct_cache_access_rec(plain, x, next[i]);
			int l = (int)(x->addr / 64);
			if (x->op) {
				writer[l] = (int)x->kernel, wstream[l] = x->stream;
			} else if ((x->stream == LLCT_STREAM_TEX || x->stream == LLCT_STREAM_CS) &&
				   writer[l] >= 0 && writer[l] != (int)x->kernel) {
				ref_reads[writer[l]][x->kernel][wstream[l]]++;
				ref_hits[writer[l]][x->kernel][wstream[l]] += hit;
			}
		}
		struct llct_flow_row *r;
		size_t n;
		CHECK_EQ(llct_cache_flow(c, &r, &n), LLCT_OK);
		static uint64_t got_r[NK][NK][LLCT_N_STREAMS], got_h[NK][NK][LLCT_N_STREAMS];
		memset(got_r, 0, sizeof(got_r));
		memset(got_h, 0, sizeof(got_h));
		for (size_t i = 0; i < n; i++) {
			got_r[r[i].producer][r[i].consumer][r[i].from_stream] += r[i].reads;
			got_h[r[i].producer][r[i].consumer][r[i].from_stream] += r[i].hits;
		}
		int bad_r = 0, bad_h = 0;
		uint64_t total = 0, hits = 0;
		for (int a = 0; a < NK; a++)
			for (int b = 0; b < NK; b++)
				for (int s = 0; s < LLCT_N_STREAMS; s++) {
					bad_r += got_r[a][b][s] != ref_reads[a][b][s];
					bad_h += got_h[a][b][s] != ref_hits[a][b][s];
					total += got_r[a][b][s];
					hits += got_h[a][b][s];
					size_t k = ((size_t)a * NK + (size_t)b) * LLCT_N_STREAMS +
						   (size_t)s;
					if (!p)
						reads0[k] = got_r[a][b][s];
					else
						bad_r += reads0[k] !=
							 got_r[a][b][s]; /* the same reads */
				}
		CHECK_EQ(bad_r, 0);
		CHECK_EQ(bad_h, 0);
		CHECK(total > 1000 && hits > 0 && hits < total); /* the sums prove something */
		/* the model's own counts do not change with --flow */
		for (int f = 0; f < 3; f++)
			CHECK(memcmp(fs[f].s, gs[f].s, sizeof(fs[f].s)) == 0);
		free(r);
		llct_cache_destroy(c);
		llct_cache_destroy(plain);
	}
	free(recs);
	free(next);
}

int main(void)
{
	test_hand_worked();
	for (unsigned seed = 1; seed <= 3; seed++)
		test_random(seed);
	return check_done("flow");
}

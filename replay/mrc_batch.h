/* mrc_batch.h - the one-pass miss curves' loop over a batch's accesses (mrc.h's stack), a
 * header so that it is compiled twice: with mrc.c for the baseline CPU, and with mrc_avx2.c
 * for AVX2, whose 256-bit compares find a line among 64 in half the instructions. It defines
 * MRC_BATCH_FN (the function's name) from what it is included by. The accesses go in blocks:
 * a pre-pass works out their rows, tags and stream codes; each access then moves its line in
 * its set's stack and rewrites its metadata; a hit's counts and the fallen lines' are made
 * after the block, off the chain of loads the accesses wait on. */
#include "mrc.h"

#ifdef __AVX2__
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

static int is_epoch_stream(unsigned s)
{
	return s == LLCT_STREAM_TEX || s == LLCT_STREAM_Z;
}

/* The code of a hit in size i on a line with metadata m, by stream s and so. */
static inline unsigned hit_code(uint32_t m, unsigned i, unsigned s, unsigned so)
{
	unsigned ep = 0;
	if (is_epoch_stream(M_OWNER(m)))
		ep = i < M_A1(m) ? 1u : i < M_A2(m) ? 2u : 3u;
	return so | (unsigned)(i >= M_RT(m)) << 5 | ep << 6 | (unsigned)(M_OWNER(m) == s) << 8;
}

/* A run of sizes [lo, k), counted at lo. */
static inline void suffix_add(struct llct_mrc *q, uint32_t lo, unsigned code)
{
	q->diff[(size_t)code * (q->k + 1) + lo]++;
}

/* A run of sizes [lo, hi), counted at its ends. */
static inline void run_add(struct llct_mrc *q, uint32_t lo, uint32_t hi, unsigned code)
{
	if (lo >= hi)
		return;
	int32_t *d = &q->diff[(size_t)code * (q->k + 1)]; /* a code's k + 1 ends together */
	d[lo]++;
	d[hi]--;
}

/* Whether a threshold's first size (i) leaves the sizes from k0 on all on one side of it. */
static inline int outside(const struct llct_mrc *q, uint32_t i, uint32_t k0)
{
	return i <= k0 || i >= q->k;
}

#ifdef __SSE2__
/* Which of the 16 fingerprints at f equal the key (broadcast in k): a bit each. */
static inline uint64_t match16(const uint32_t *f, __m128i k)
{
	const __m128i *v = (const __m128i *)f;
	__m128i m0 = _mm_cmpeq_epi32(_mm_load_si128(v), k);
	__m128i m1 = _mm_cmpeq_epi32(_mm_load_si128(v + 1), k);
	__m128i m2 = _mm_cmpeq_epi32(_mm_load_si128(v + 2), k);
	__m128i m3 = _mm_cmpeq_epi32(_mm_load_si128(v + 3), k);
	__m128i m8 = _mm_packs_epi16(_mm_packs_epi32(m0, m1), _mm_packs_epi32(m2, m3));
	return (uint32_t)_mm_movemask_epi8(m8);
}
#endif

#ifdef __AVX2__
/* Which of the 32 fingerprints at f equal the key: the packs work within each 128-bit half,
 * leaving groups of four in the order 0 2 4 6 1 3 5 7, which the permute puts back. */
static inline uint64_t match32(const uint32_t *f, __m256i k)
{
	const __m256i *v = (const __m256i *)f;
	__m256i m0 = _mm256_cmpeq_epi32(_mm256_load_si256(v), k);
	__m256i m1 = _mm256_cmpeq_epi32(_mm256_load_si256(v + 1), k);
	__m256i m2 = _mm256_cmpeq_epi32(_mm256_load_si256(v + 2), k);
	__m256i m3 = _mm256_cmpeq_epi32(_mm256_load_si256(v + 3), k);
	__m256i m8 = _mm256_packs_epi16(_mm256_packs_epi32(m0, m1), _mm256_packs_epi32(m2, m3));
	m8 = _mm256_permutevar8x32_epi32(m8, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
	return (uint32_t)_mm256_movemask_epi8(m8);
}
#endif

/* The slot of `line` (fingerprint key) among a set's n lines (slots 0..n), or n: every slot
 * compared, without a branch on where the line is (a hit's slot is anywhere in the row). */
static inline uint32_t find(const struct llct_mrc *q, uint32_t W, int wide, const uint32_t *fp,
			    const uint64_t *tag, uint32_t n, uint64_t line, uint32_t key)
{
	uint64_t m = 0;
	uint32_t g = 0;
#ifdef __AVX2__
	__m256i k8 = _mm256_set1_epi32((int)key);
	for (; g + 32 <= W; g += 32)
		m |= match32(fp + g, k8) << g;
#endif
#ifdef __SSE2__
	__m128i k = _mm_set1_epi32((int)key);
	for (; g < W; g += 16)
		m |= match16(fp + g, k) << g;
#else
	for (; g < W; g++)
		m |= (uint64_t)(fp[g] == key) << g;
#endif
	if (n < 64)
		m &= ((uint64_t)1 << n) - 1;
	for (; m; m &= m - 1) {
		uint32_t p = (uint32_t)__builtin_ctzll(m);
		if (!wide || tag[p] == line)
			return p;
	}
	return n;
}

/* The depth of slot `slot` in a set's stack `ord` (it is there; the bytes from W to 64 hold
 * their own positions, no slot of the set). */
static inline uint32_t depth_of(uint32_t W, const uint8_t *ord, uint32_t slot)
{
	uint64_t m = 0;
#ifdef __AVX2__
	__m256i k = _mm256_set1_epi8((char)slot);
	for (uint32_t g = 0; g < W; g += 32)
		m |= (uint64_t)(uint32_t)_mm256_movemask_epi8(
			 _mm256_cmpeq_epi8(_mm256_load_si256((const __m256i *)(ord + g)), k))
		     << g;
#elif defined(__SSE2__)
	__m128i k = _mm_set1_epi8((char)slot);
	for (uint32_t g = 0; g < W; g += 16)
		m |= (uint64_t)(uint32_t)_mm_movemask_epi8(
			 _mm_cmpeq_epi8(_mm_load_si128((const __m128i *)(ord + g)), k))
		     << g;
#else
	for (uint32_t p = 0; p < W; p++)
		m |= (uint64_t)(ord[p] == slot) << p;
#endif
	return (uint32_t)__builtin_ctzll(m);
}

/* Slot `slot`, at depth p, to the top of the stack `ord`: the slots above it move down one. */
static inline void to_top(uint32_t W, uint8_t *ord, uint32_t p, uint32_t slot)
{
#ifdef __AVX2__
	/* each 32 bytes shifted up one: within each half by alignr, the byte across the halves
	   (and from the 32 bytes before, or the slot) by the permute */
	__m256i prev = _mm256_set1_epi8((char)slot), at = _mm256_set1_epi8((char)p);
	__m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
				       18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
	for (uint32_t g = 0; g < W; g += 32) {
		__m256i *a = (__m256i *)(ord + g), cur = _mm256_load_si256(a);
		__m256i moved =
		    _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(cur, prev, 0x03), 15);
		__m256i keep = _mm256_cmpgt_epi8(idx, at); /* below p: as it was */
		_mm256_store_si256(a, _mm256_blendv_epi8(moved, cur, keep));
		prev = cur;
		idx = _mm256_add_epi8(idx, _mm256_set1_epi8(32));
	}
#elif defined(__SSE2__)
	__m128i carry = _mm_cvtsi32_si128((int)slot), at = _mm_set1_epi8((char)p);
	__m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	for (uint32_t g = 0; g < W; g += 16) {
		__m128i *a = (__m128i *)(ord + g), cur = _mm_load_si128(a);
		__m128i moved = _mm_or_si128(_mm_slli_si128(cur, 1), carry);
		__m128i keep = _mm_cmpgt_epi8(idx, at); /* below p: as it was */
		_mm_store_si128(
		    a, _mm_or_si128(_mm_and_si128(keep, cur), _mm_andnot_si128(keep, moved)));
		carry = _mm_srli_si128(cur, 15);
		idx = _mm_add_epi8(idx, _mm_set1_epi8(16));
	}
#else
	(void)W;
	memmove(ord + 1, ord, p);
	ord[0] = (uint8_t)slot;
#endif
}

/* The sizes [0, hi) evicted a line with metadata m (each a write-back where it is dirty, from
 * its dirty threshold on): counted at hi among every size's, and the clean ones at the
 * threshold (or hi), in copy cp of the tables. */
static inline void evicted(struct llct_mrc *q, unsigned cp, uint32_t m, uint32_t hi)
{
	int32_t *d = &q->evs[(size_t)(cp * LLCT_N_STREAMS + M_OWNER(m)) * 2 * (q->k + 1)];
	uint32_t a = M_DIRTY(m); /* the first size it is dirty in */
	d[hi]++;
	d[q->k + 1 + (a < hi ? a : hi)]++;
}

/* The batch loop works in blocks of this many accesses, their rows, tags and stream codes
 * worked out first in loops the compiler vectorizes (as lines.h's). */
#define BLOCK 256

/* What a block's accesses leave to be counted after it, off the chain of loads each access
 * waits on: the metadata of the lines fallen off, and each hit's line's metadata before it,
 * with the first size it hits and its stream and op (old | k0 << 32 | so << 40). */
struct later {
	uint32_t fell[BLOCK], n_fell, n_hits;
	uint64_t hits[BLOCK];
};

/* A hit's counts (struct later), in copy cp of the tables. */
static inline void count_hit(struct llct_mrc *q, uint64_t h, unsigned cp)
{
	uint32_t old = (uint32_t)h, k0 = (uint32_t)(h >> 32) & 127u, so = (uint32_t)(h >> 40);
	uint32_t k = q->k, s = so & 15;
	evicted(q, cp, old, k0); /* the sizes it misses evicted it since its last access */
	if (outside(q, M_RT(old), k0) &&
	    (!is_epoch_stream(M_OWNER(old)) ||
	     (outside(q, M_A1(old), k0) && outside(q, M_A2(old), k0)))) {
		/* every size it hits sees the same mark and epoch: one run (the usual case) */
		suffix_add(q, k0, hit_code(old, k0, s, so));
	} else { /* runs of one code between the thresholds' sizes */
		uint32_t b[5] = {k0, M_RT(old), M_A1(old), M_A2(old), k};
		for (int i = 1; i < 4; i++) /* the three thresholds' sizes, each >= k0, sorted */
			b[i] = b[i] < k0 ? k0 : b[i];
		for (int i = 1; i < 4; i++)
			for (int j = i + 1; j < 4; j++)
				if (b[j] < b[i]) {
					uint32_t t = b[i];
					b[i] = b[j];
					b[j] = t;
				}
		for (int i = 0; i < 4; i++)
			if (b[i] < b[i + 1])
				run_add(q, b[i], b[i + 1], hit_code(old, b[i], s, so));
	}
	/* the sizes it misses fill (what they evict, apart): [0, k0), counted at k0 */
	q->fills[q->fill_all[so] - (k - k0) * COPIES + cp]++;
}

/* One access of line `line` in the set of row `set` (its set less set_lo). */
static inline __attribute__((always_inline)) void step(struct llct_mrc *q, uint32_t W, int wide,
						       uint64_t line, uint32_t key, uint32_t set,
						       unsigned so, unsigned cp, struct later *l)
{
	uint8_t *ord = ORD(q, set, W);
	uint32_t *fp = FP(ord), *meta = fp + W;
	uint64_t *tag = &q->tag[(size_t)set * W];
	uint32_t n = q->n[set], slot = find(q, W, wide, fp, tag, n, line, key), p;
	if (slot == n) { /* a miss in every size: what it does depends on the stream alone */
		if (n < q->depth) { /* a set not yet full: its next slot */
			p = n;
			q->n[set] = (uint8_t)(n + 1);
		} else { /* the bottom line falls off: every size evicted it */
			p = n - 1;
			slot = ord[p];
			l->fell[l->n_fell++] = meta[slot];
		}
		q->fills[q->fill_all[so] + cp]++;
		meta[slot] = q->new_meta[so];
		fp[slot] = key;
		if (wide)
			tag[slot] = line;
		to_top(W, ord, p, slot);
		return;
	}
	uint32_t k = q->k, s = so & 15;
	p = depth_of(W, ord, slot);
	uint32_t old = meta[slot], k0 = q->above[p]; /* sizes from k0 on hit */
	l->hits[l->n_hits++] = old | (uint64_t)k0 << 32 | (uint64_t)so << 40;
	/* the line's new metadata, then the line to the top */
	uint32_t dirty = so >> 4 ? 0 : k0 > M_DIRTY(old) ? k0 : M_DIRTY(old);
	uint32_t rt = s == LLCT_STREAM_RT    ? 0
		      : s == LLCT_STREAM_TEX ? k
					     : (k0 > M_RT(old) ? k0 : M_RT(old));
	uint32_t a1 = k, a2 = k;
	if (is_epoch_stream(s) && M_OWNER(old) == s) {
		a1 = k0;
		a2 = k0 > M_A1(old) ? k0 : M_A1(old);
	}
	meta[slot] = M_PACK(s, dirty, rt, a1, a2);
	to_top(W, ord, p, slot);
}

/* What the pre-pass works out for a block: each access's line, the low 32 bits of its tag, its
 * set's row (and the rows AHEAD accesses past the block, for the prefetches), stream and op. */
struct pre {
	uint64_t lines[BLOCK];
	uint32_t rows[BLOCK + AHEAD];
	uint32_t keys[BLOCK];
	uint8_t sos[BLOCK];
};

/* The n accesses of a block; wide is q->wide, a constant in each copy. `after` accesses of the
 * batch follow the block's, from addr, streams and ops on. */
static inline __attribute__((always_inline)) void
block_run(struct llct_mrc *q, uint32_t W, int wide, const struct pre *p, uint32_t n,
	  const uint64_t *addr, const uint8_t *streams, const uint8_t *ops, uint32_t after)
{
	struct later l;
	l.n_fell = l.n_hits = 0;
	for (uint32_t i = 0; i < n; i++) {
		/* the next block's decoded columns, which its pre-pass would wait on (only
		   within the batch: a pointer past its arrays is undefined, even to prefetch) */
		if (i % 8 == 0 && i < after) {
			__builtin_prefetch(addr + i);
			if (i % 64 == 0) {
				__builtin_prefetch(streams + i);
				__builtin_prefetch(ops + i);
			}
		}
		const uint8_t *row = ORD(q, p->rows[i + AHEAD], W); /* a later access's row */
		for (size_t at = 0; at < ROW(W); at += 64)
			__builtin_prefetch(row + at);
		unsigned so = p->sos[i];
		if (q->ucd && (so & 15) == LLCT_STREAM_DISP) {
			suffix_add(q, 0, LLCT_EV_BYPASS + so);
			continue;
		}
		step(q, W, wide, p->lines[i], p->keys[i], p->rows[i], so, i % COPIES, &l);
	}
	/* the lines fallen off, by their metadata's owner and dirt bits, and the hits' counts */
	for (uint32_t j = 0; j < l.n_fell; j++)
		q->fallen[(size_t)(j % COPIES) << 11 | (l.fell[j] & 0x7ffu)]++;
	for (uint32_t j = 0; j < l.n_hits; j++)
		count_hit(q, l.hits[j], j % COPIES);
}

static inline uint32_t set_of(const struct llct_mrc *q, uint64_t line)
{
	return llct_set_index(q->xor_hash, q->set_bits, q->set_mask, q->sets, line);
}

/* A batch's accesses through the stacks, whose rows are W slots (a constant in each copy the
 * compiler makes, so the row's loops are unrolled). */
static inline __attribute__((always_inline)) void batch(struct llct_mrc *q0, uint32_t W,
							const struct llct_batch *b)
{
	/* on a copy, whose fields no store through the count tables can change, so the compiler
	   keeps them in registers */
	struct llct_mrc copy = *q0, *q = &copy;
	struct pre p;
	for (uint32_t at = 0; at < b->n; at += BLOCK) {
		uint32_t n = b->n - at < BLOCK ? b->n - at : BLOCK;
		uint32_t ahead = b->n - at - n < AHEAD ? b->n - at - n : AHEAD;
		const uint64_t *addr = b->addr + at;
		const uint8_t *streams = b->stream + at, *ops = b->op + at;
		uint64_t high = 0; /* the tag bits above the fingerprint's, ORed */
		for (uint32_t i = 0; i < n; i++) {
			uint64_t line = addr[i] >> q->line_shift, tg = line >> q->set_bits;
			p.lines[i] = line;
			p.keys[i] = (uint32_t)tg;
			high |= tg >> 32;
		}
		uint32_t lo = q->set_lo;
		if (q->set_mask && !q->xor_hash) {
			for (uint32_t i = 0; i < n; i++)
				p.rows[i] = ((uint32_t)p.lines[i] & q->set_mask) - lo;
			for (uint32_t i = n; i < n + ahead; i++)
				p.rows[i] =
				    ((uint32_t)(addr[i] >> q->line_shift) & q->set_mask) - lo;
		} else {
			for (uint32_t i = 0; i < n; i++)
				p.rows[i] = set_of(q, p.lines[i]) - lo;
			for (uint32_t i = n; i < n + ahead; i++)
				p.rows[i] = set_of(q, addr[i] >> q->line_shift) - lo;
		}
		for (uint32_t i = n + ahead; i < n + AHEAD; i++)
			p.rows[i] = 0;
		for (uint32_t i = 0; i < n; i++)
			p.sos[i] = (uint8_t)(streams[i] | (ops[i] != 0) << 4);
		if (high && !q->wide) {
			llct_mrc_widen(q0);
			q->wide = 1;
		}
		uint32_t after = b->n - at - n;
		if (q->wide)
			block_run(q, W, 1, &p, n, addr + n, streams + n, ops + n, after);
		else
			block_run(q, W, 0, &p, n, addr + n, streams + n, ops + n, after);
	}
}

/* The batch through the stacks, in the copy of the loop for q's row width. */
void MRC_BATCH_FN(struct llct_mrc *q, const struct llct_batch *b)
{
	switch (q->stride) {
	case 16:
		batch(q, 16, b);
		break;
	case 32:
		batch(q, 32, b);
		break;
	case 48:
		batch(q, 48, b);
		break;
	default:
		batch(q, 64, b);
	}
}

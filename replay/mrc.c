/* mrc.c - one-pass LRU miss curves: every LRU model of a replay that share a set count and set
 * index are replayed together through one stack a set (Mattson's stack distances), each size's
 * every counter equal to its own run's (docs/REPLAY.md, "One-pass LRU miss curves").
 *
 * A set's stack holds its lines most recent first, as deep as the most ways asked. An LRU cache
 * of W ways holds exactly the top W lines of its set's stack, so an access whose line is at
 * depth p (0: most recent) hits every size of more than p ways and misses every other, and a
 * miss in a W-way cache evicts the line at depth W - 1 when the set holds W lines or more.
 * What a line carries besides (dirty, the RT mark, its TEX or Z epoch) differs between sizes, but
 * always by a threshold: a line is dirty in every cache of more than `dirty` ways, marked in every
 * cache of more than `rt` ways, and in epoch 1 up to a1 ways, 2 up to a2, 3 above (derivation in
 * the docs). So an access updates five bytes whatever the sizes, and its event code in each size
 * (lines.h) follows from the thresholds: the sizes it hits fall into at most four runs of
 * one code, counted at their ends (a difference table added up once a batch), and each size it
 * misses with a full set counts the line it evicts there.
 */
#include "engine.h"
#include "lines.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <stdlib.h>
#include <string.h>

#define NONE 127 /* a threshold no cache passes (ways are at most 64) */

/* A line's metadata, packed in 32 bits: the stream of its last access (owner); dirty in caches
 * of more ways than `dirty`; RT-marked in caches of more ways than `rt`; owner TEX or Z: in
 * epoch 1 up to a1 ways, 2 up to a2, 3 above. */
#define M_OWNER(m) ((m)&15u)
#define M_DIRTY(m) ((m) >> 4 & 127u)
#define M_RT(m) ((m) >> 11 & 127u)
#define M_A1(m) ((m) >> 18 & 127u)
#define M_A2(m) ((m) >> 25 & 127u)
#define M_PACK(o, d, r, a1, a2) ((o) | (d) << 4 | (r) << 11 | (a1) << 18 | (uint32_t)(a2) << 25)

/* The stack's rows start this many accesses ahead are prefetched. */
#define AHEAD 8

struct llct_mrc {
	uint32_t sets, depth, stride, k;
	unsigned line_shift, set_bits;
	uint32_t set_mask;
	int xor_hash, ucd;
	int wide; /* full tags kept and confirmed (as lines.h's caches: a tag past 32 bits) */
	uint8_t ways[LLCT_MRC_MAX];                   /* each size's ways, not decreasing */
	struct llct_replay_result *res[LLCT_MRC_MAX]; /* and its result */
	uint8_t above[256]; /* above[t]: the first size of more than t ways (k if none) */
	/* per set, `stride` slots from the most recent line down: the low 32 bits of its tag
	 * (the line above the set index), its metadata, and, wide, its line */
	uint32_t *fp, *meta;
	uint64_t *tag;
	uint8_t *n; /* per set: lines in its stack */
	/* LLCT_EV_N x (k + 1): runs of sizes, a code +1 at the first of a run, -1 past its last
	 * (a code's ends together, so a run touches one or two cache lines) */
	int32_t *diff;
	uint32_t *hist; /* k x LLCT_EV_N: a batch's counts, made from diff */
	/* each size's evictions by the evicted line's owner and dirt: counted apart from the
	 * fills' codes (llct_event_count's rule for a fill's eviction), in a table small enough
	 * to stay in the first-level cache */
	uint32_t evict[LLCT_MRC_MAX][LLCT_N_STREAMS][2];
	double busy_s;
};

static int is_epoch_stream(unsigned s)
{
	return s == LLCT_STREAM_TEX || s == LLCT_STREAM_Z;
}

/* The code of a hit in a cache of w ways on a line with metadata m, by stream s and so. */
static inline unsigned hit_code(uint32_t m, unsigned w, unsigned s, unsigned so)
{
	unsigned ep = 0;
	if (is_epoch_stream(M_OWNER(m)))
		ep = w <= M_A1(m) ? 1u : w <= M_A2(m) ? 2u : 3u;
	return so | (unsigned)(w > M_RT(m)) << 5 | ep << 6 | (unsigned)(M_OWNER(m) == s) << 8;
}

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

/* The depth of `line` (fingerprint key) among a set's n lines, or n. */
static inline uint32_t find(const struct llct_mrc *q, const uint32_t *fp, const uint64_t *tag,
			    uint32_t n, uint64_t line, uint32_t key)
{
#ifdef __SSE2__
	__m128i k = _mm_shuffle_epi32(_mm_cvtsi32_si128((int)key), 0);
	for (uint32_t g = 0; g < n; g += 16) {
		const __m128i *f = (const __m128i *)(fp + g);
		__m128i m0 = _mm_cmpeq_epi32(_mm_load_si128(f), k);
		__m128i m1 = _mm_cmpeq_epi32(_mm_load_si128(f + 1), k);
		__m128i m2 = _mm_cmpeq_epi32(_mm_load_si128(f + 2), k);
		__m128i m3 = _mm_cmpeq_epi32(_mm_load_si128(f + 3), k);
		__m128i m8 = _mm_packs_epi16(_mm_packs_epi32(m0, m1), _mm_packs_epi32(m2, m3));
		uint32_t m = (uint32_t)_mm_movemask_epi8(m8);
		if (n - g < 16)
			m &= (1u << (n - g)) - 1;
		for (; m; m &= m - 1) {
			uint32_t p = g + (uint32_t)__builtin_ctz(m);
			if (!q->wide || tag[p] == line)
				return p;
		}
	}
	return n;
#else
	for (uint32_t p = 0; p < n; p++)
		if (fp[p] == key && (!q->wide || tag[p] == line))
			return p;
	return n;
#endif
}

/* Keeps full tags from now on: each line's, rebuilt from its fingerprint (its whole tag while
 * none was wide) and its set, as llct_lines_widen does. */
static void widen(struct llct_mrc *q)
{
	for (uint32_t set = 0; set < q->sets; set++)
		for (uint32_t p = 0; p < q->n[set]; p++) {
			uint64_t tg = q->fp[(size_t)set * q->stride + p], low = set;
			if (q->xor_hash)
				low ^= llct_set_index(1, q->set_bits, q->set_mask, q->sets, tg);
			q->tag[(size_t)set * q->stride + p] = tg << q->set_bits | low;
		}
	q->wide = 1;
}

/* a[0..n) to a[1..n]: four at a time from the top (each store ends below what the store
 * before began, and past what the next load reads), the rest one by one; a call to memmove
 * cost more than the move of a few lines. */
static inline void shift_down(uint32_t *a, uint32_t n)
{
	uint32_t i = n;
#ifdef __SSE2__
	for (; i >= 4; i -= 4)
		_mm_storeu_si128((__m128i *)(a + i - 3),
				 _mm_loadu_si128((const __m128i *)(a + i - 4)));
#endif
	for (; i > 0; i--)
		a[i] = a[i - 1];
}

/* One access of line `line` in set `set`. */
static inline void step(struct llct_mrc *q, uint64_t line, uint32_t set, unsigned s, unsigned op)
{
	unsigned so = s | op << 4;
	size_t row = (size_t)set * q->stride;
	uint32_t *fp = &q->fp[row], *meta = &q->meta[row];
	uint64_t *tag = &q->tag[row];
	uint64_t tg = line >> q->set_bits;
	if (!q->wide && tg >> 32)
		widen(q);
	uint32_t n = q->n[set], p = find(q, fp, tag, n, line, (uint32_t)tg);
	int found = p < n;
	uint32_t old = found ? meta[p] : 0;
	uint32_t k0 = found ? q->above[p] : q->k; /* sizes from k0 on hit */
	if (found && outside(q, q->above[M_RT(old)], k0) &&
	    (!is_epoch_stream(M_OWNER(old)) ||
	     (outside(q, q->above[M_A1(old)], k0) && outside(q, q->above[M_A2(old)], k0)))) {
		/* every size it hits sees the same mark and epoch: one run (the usual case) */
		run_add(q, k0, q->k, hit_code(old, q->ways[k0], s, so));
	} else if (found) { /* hits: runs of one code between the thresholds' sizes */
		uint32_t b[5] = {k0, q->above[M_RT(old)], q->above[M_A1(old)], q->above[M_A2(old)],
				 q->k};
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
				run_add(q, b[i], b[i + 1], hit_code(old, q->ways[b[i]], s, so));
	}
	/* misses: sizes below k0; those of more ways than the set holds lines evict nothing */
	uint32_t full = k0 < q->above[n] ? k0 : q->above[n]; /* sizes of at most n ways */
	run_add(q, 0, k0, LLCT_EV_FILL + so); /* the fills; what each evicts, apart */
	for (uint32_t i = 0; i < full; i++) {
		uint32_t e = meta[q->ways[i] - 1];
		q->evict[i][M_OWNER(e)][q->ways[i] > M_DIRTY(e)]++;
	}
	/* the line's new metadata, then the line to the top */
	uint32_t dirty = op ? 0 : found ? (p > M_DIRTY(old) ? p : M_DIRTY(old)) : NONE;
	uint32_t rt = s == LLCT_STREAM_RT    ? 0
		      : s == LLCT_STREAM_TEX ? NONE
		      : found                ? (p > M_RT(old) ? p : M_RT(old))
					     : NONE;
	uint32_t a1 = NONE, a2 = NONE;
	if (is_epoch_stream(s) && found && M_OWNER(old) == s) {
		a1 = p;
		a2 = p > M_A1(old) ? p : M_A1(old);
	}
	uint32_t move = found ? p : (n < q->depth ? n : q->depth - 1);
	shift_down(fp, move);
	shift_down(meta, move);
	fp[0] = (uint32_t)tg;
	meta[0] = M_PACK(s, dirty, rt, a1, a2);
	if (q->wide) {
		memmove(tag + 1, tag, move * sizeof(*tag));
		tag[0] = line;
	}
	if (!found && n < q->depth)
		q->n[set] = (uint8_t)(n + 1);
}

/* The batch's counts into each size's frame; the tables cleared. */
static void flush(struct llct_mrc *q, size_t frame_idx)
{
	uint32_t k = q->k;
	for (unsigned c = 0; c < LLCT_EV_N; c++) { /* each size's count: the ends summed */
		const int32_t *d = &q->diff[(size_t)c * (k + 1)];
		int32_t run = 0;
		for (uint32_t i = 0; i < k; i++) {
			run += d[i];
			q->hist[(size_t)i * LLCT_EV_N + c] = (uint32_t)run;
		}
	}
	for (uint32_t i = 0; i < k; i++) {
		uint32_t *h = &q->hist[(size_t)i * LLCT_EV_N];
		struct llct_frame_stats *fs = &q->res[i]->frames[frame_idx];
		llct_event_flush(fs, h);
		for (unsigned o = 0; o < LLCT_N_STREAMS; o++) {
			fs->s[o].evictions += q->evict[i][o][0] + q->evict[i][o][1];
			fs->s[o].writebacks += q->evict[i][o][1];
		}
		memset(q->evict[i], 0, sizeof(q->evict[i]));
	}
	memset(q->diff, 0, (size_t)(k + 1) * LLCT_EV_N * sizeof(*q->diff));
}

static inline uint32_t set_of(const struct llct_mrc *q, uint64_t line)
{
	return llct_set_index(q->xor_hash, q->set_bits, q->set_mask, q->sets, line);
}

void llct_mrc_window(struct llct_mrc *q, const struct window *w)
{
	double t0 = llct_now_s();
	for (unsigned i = 0; i < w->n; i++) {
		const struct llct_batch *b = &w->b[i];
		/* each access's set, worked out once: AHEAD accesses early, for the prefetch, and
		   kept in a ring until the access's turn */
		uint32_t ring[2 * AHEAD];
		for (uint32_t j = 0; j < AHEAD && j < b->n; j++)
			ring[j] = set_of(q, b->addr[j] >> q->line_shift);
		for (uint32_t j = 0; j < b->n; j++) {
			if (j + AHEAD < b->n) { /* start loading a later access's rows */
				uint32_t set = set_of(q, b->addr[j + AHEAD] >> q->line_shift);
				ring[(j + AHEAD) % (2 * AHEAD)] = set;
				size_t row = (size_t)set * q->stride;
				for (uint32_t at = 0; at < q->stride; at += 16) {
					__builtin_prefetch(&q->fp[row + at]);
					__builtin_prefetch(&q->meta[row + at]);
				}
			}
			unsigned s = b->stream[j], op = b->op[j] != 0;
			if (q->ucd && s == LLCT_STREAM_DISP) {
				run_add(q, 0, q->k, LLCT_EV_BYPASS + (s | op << 4));
				continue;
			}
			step(q, b->addr[j] >> q->line_shift, ring[j % (2 * AHEAD)], s, op);
		}
		flush(q, w->frame_idx[i]);
		for (uint32_t k = 0; k < q->k; k++)
			q->res[k]->accesses += b->n;
	}
	q->busy_s += llct_now_s() - t0;
}

void llct_mrc_free(struct llct_mrc *q)
{
	if (!q)
		return;
	free(q->fp);
	free(q->meta);
	free(q->tag);
	free(q->n);
	free(q->diff);
	free(q->hist);
	free(q);
}

/* The stack of the models in group[0..k) (one set count and index): each size's ways sorted. */
static int make(struct engine *e, const struct llct_replay_options *o, const size_t *group,
		size_t k, struct llct_mrc **out)
{
	struct llct_mrc *q = calloc(1, sizeof(*q));
	if (!q)
		return LLCT_ERR_NOMEM;
	*out = q;
	const struct llct_cache_config *c0 = o->caches ? &o->caches[group[0]] : &o->cache;
	q->sets = llct_cache_sets(c0);
	q->k = (uint32_t)k;
	q->xor_hash = c0->hash == LLCT_HASH_XOR;
	q->ucd = c0->ucd;
	while ((1u << q->line_shift) < c0->line)
		q->line_shift++;
	while (((uint64_t)2 << q->set_bits) <= q->sets)
		q->set_bits++;
	q->set_mask = ((uint64_t)1 << q->set_bits) == q->sets ? q->sets - 1 : 0;
	for (size_t i = 0; i < k; i++) { /* insertion sort by ways */
		size_t m = group[i];
		uint8_t w = (uint8_t)(o->caches ? o->caches[m].ways : o->cache.ways);
		size_t j = i;
		for (; j > 0 && q->ways[j - 1] > w; j--) {
			q->ways[j] = q->ways[j - 1];
			q->res[j] = q->res[j - 1];
		}
		q->ways[j] = w;
		q->res[j] = e->models[m].res;
	}
	q->depth = q->ways[k - 1];
	for (unsigned t = 0; t < 256; t++) {
		uint32_t i = 0;
		while (i < k && q->ways[i] <= t)
			i++;
		q->above[t] = (uint8_t)i;
	}
	q->stride = (q->depth + 15) & ~15u;
	size_t slots = (size_t)q->sets * q->stride;
	q->fp = llct_big_alloc(slots * sizeof(*q->fp));
	q->meta = llct_big_alloc(slots * sizeof(*q->meta));
	q->tag = llct_big_alloc(slots * sizeof(*q->tag));
	q->n = calloc(q->sets, 1);
	q->diff = calloc((k + 1) * LLCT_EV_N, sizeof(*q->diff));
	q->hist = calloc(k * LLCT_EV_N, sizeof(*q->hist));
	if (!q->fp || !q->meta || !q->tag || !q->n || !q->diff || !q->hist)
		return LLCT_ERR_NOMEM;
	memset(q->fp, 0, slots * sizeof(*q->fp)); /* read past n by the 16-wide compare */
	q->wide = !q->set_mask;                   /* as a cache of that many sets (lines.h) */
	uint64_t bytes = slots * (sizeof(*q->fp) + sizeof(*q->meta)) + q->sets;
	for (size_t i = 0; i < k; i++)
		q->res[i]->peak_state = bytes;
	return LLCT_OK;
}

int llct_mrc_setup(struct engine *e, const struct llct_replay_options *o)
{
	size_t group[LLCT_MRC_MAX];
	for (size_t m = 0; m < e->n_models; m++) {
		if (e->models[m].absorbed || e->models[m].mrc)
			continue;
		const struct llct_cache_config *a = o->caches ? &o->caches[m] : &o->cache;
		size_t k = 0;
		for (size_t x = m; x < e->n_models; x++) {
			const struct llct_cache_config *b = o->caches ? &o->caches[x] : &o->cache;
			if (e->models[x].absorbed || llct_cache_sets(a) != llct_cache_sets(b) ||
			    a->hash != b->hash)
				continue;
			if (k == LLCT_MRC_MAX)
				return LLCT_ERR_INVALID;
			group[k++] = x;
			e->models[x].absorbed = x != m;
		}
		int st = make(e, o, group, k, &e->models[m].mrc);
		if (st)
			return st;
	}
	return LLCT_OK;
}

void llct_mrc_hand_over(struct engine *e)
{
	for (size_t m = 0; m < e->n_models; m++) {
		struct llct_mrc *q = e->models[m].mrc;
		for (uint32_t i = 0; q && i < q->k; i++)
			q->res[i]->busy_s = q->busy_s;
	}
}

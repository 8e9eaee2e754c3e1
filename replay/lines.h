/* lines.h - private to the engine: the LLC model's line arrays and its per-access
 * lookup-and-update step, as inline code shared by the replay engine (replay/cache.c) and by
 * each built-in policy's specialized batch loop, so the rules of tags, counters and trackers are
 * written once. Not part of the public surface: a policy is written against llct/policy.h alone
 * (docs/POLICIES.md); the built-in ones reach the inlined loop through replay/policy_kit.h
 * (LLCT_DEFINE_BATCH), which includes this file.
 *
 * The engine uses a policy's `batch` only for plain models (no partitioning, bypass rules, page
 * coloring, contention tracking or dynamic partitioning); everything else goes through
 * llct_lines_step() one access at a time with the hooks called through the ops table.
 */
#ifndef LLCT_LINES_H
#define LLCT_LINES_H

#include "llct/policy.h"
#include "llct/replay.h"
#include "llct/stats.h"
#include "llct/trace.h"

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Per-line metadata byte. */
#define LLCT_META_OWNER 0x0f /* stream of the line's last access */
#define LLCT_META_RT 0x10    /* RT mark: written by RT, not yet consumed by a TEX hit */
#define LLCT_META_EPOCH_SHIFT 5
#define LLCT_META_EPOCH 0x60 /* 0: none, 1: E0, 2: E1, 3: E>=2 of the owner stream (TEX or Z) */
#define LLCT_META_DIRTY 0x80

#define LLCT_INLINE static inline __attribute__((always_inline))
/* A policy hook: also inlined into its batch loop, so the loop's struct llct_access never
 * has to be built in memory (building it there cost a store-forwarding stall an access). */
#define LLCT_HOOK LLCT_INLINE

/* A set's block: the 32-bit fingerprints of its tags (fp_stride of them, so a lookup
 * compares 16 ways at once), its metadata bytes, its valid mask and the policy's word,
 * together in two adjacent 64-byte lines for up to 16 ways.
 *
 * A fingerprint is the low 32 bits of the tag (the line address above the set index), so
 * while every line the cache has seen has a tag below 2^32 ("narrow": addresses below 2^51
 * at 8 MiB, 16 ways, 64-byte lines; below 2^44 at 64 KiB) the fingerprint is the tag and
 * the lookup reads nothing else: the full tags are neither kept nor read. The first line
 * with a wider tag makes the cache wide for good (llct_lines_widen): the tags of the lines
 * it holds are rebuilt from their fingerprints and sets, and from then on every fill writes
 * its tag and a fingerprint match is confirmed against it. Caches with a set count that is
 * not a power of two are wide from the start (their set and fingerprint do not give back
 * the line). */
struct llct_lines {
	uint64_t *tag;               /* per line: line address, kept and read only when wide */
	uint8_t *blk;                /* per set: blk_size bytes, 64-byte aligned */
	struct llct_frame_stats *fs; /* where counts go */
	uint64_t all_ways;           /* mask of every way */
	uint32_t sets, ways;
	uint32_t fp_stride; /* ways rounded up to a multiple of 16 */
	uint32_t blk_size;  /* 5 x fp_stride + 16, rounded up to a multiple of 64 */
	uint32_t set_mask;  /* sets - 1 when sets is a power of two, else 0 */
	unsigned line_shift, set_bits;
	int xor_hash; /* set index by XOR-folding instead of modulo */
	int ucd;      /* DISP bypasses */
	int wide;     /* tags kept and confirmed (above) */
};

LLCT_INLINE uint8_t *llct_lines_block(const struct llct_lines *L, uint32_t set)
{
	return L->blk + (size_t)set * L->blk_size;
}
/* fingerprints at the start of the block, then metadata, then the valid mask, then the
 * policy's word (llct_access.word): 5 x fp_stride + 16 bytes, which blk_size always holds */
LLCT_INLINE uint32_t *llct_block_fp(uint8_t *blk)
{
	return (uint32_t *)blk;
}
LLCT_INLINE uint8_t *llct_block_meta(const struct llct_lines *L, uint8_t *blk)
{
	return blk + 4 * L->fp_stride;
}
LLCT_INLINE uint64_t *llct_block_valid(const struct llct_lines *L, uint8_t *blk)
{
	return (uint64_t *)(blk + 5 * L->fp_stride);
}
LLCT_INLINE uint64_t *llct_block_word(const struct llct_lines *L, uint8_t *blk)
{
	return (uint64_t *)(blk + 5 * L->fp_stride + 8);
}

/* Set index of a line: modulo, or XOR-fold of slices of set_bits bits (each set-index bit
 * the XOR of address bits set_bits apart, like the hashes of the FGPU paper's Fig. 6). */
LLCT_INLINE uint32_t llct_set_index(int xor_hash, unsigned set_bits, uint32_t set_mask,
				    uint32_t sets, uint64_t line)
{
	if (xor_hash && set_bits) {
		uint64_t h = line;
		for (uint64_t x = line >> set_bits; x; x >>= set_bits)
			h ^= x;
		return (uint32_t)(h & set_mask);
	}
	return set_mask ? (uint32_t)(line & set_mask) : (uint32_t)(line % sets);
}

LLCT_INLINE uint32_t llct_lines_set(const struct llct_lines *L, uint64_t line)
{
	return llct_set_index(L->xor_hash, L->set_bits, L->set_mask, L->sets, line);
}

/* A line's fingerprint: the low 32 bits of its tag (the line address above the set index). */
LLCT_INLINE uint32_t llct_lines_fingerprint(const struct llct_lines *L, uint64_t line)
{
	return (uint32_t)(line >> L->set_bits);
}

/* Whether a line's tag needs more than 32 bits (it would make the cache wide). */
LLCT_INLINE int llct_lines_is_wide(const struct llct_lines *L, uint64_t line)
{
	return (line >> L->set_bits) >> 32 != 0;
}

/* Makes the cache wide: the tag of every line it holds, rebuilt from its fingerprint (its
 * whole tag, the cache being narrow) and its set (the line's low bits under modulo indexing;
 * under XOR folding, the set XOR the tag's own fold), goes into the tag array. Once per
 * cache, O(sets x ways). */
static inline void llct_lines_widen(struct llct_lines *L)
{
	if (L->wide) /* its fingerprints are no longer whole tags */
		return;
	for (uint32_t set = 0; set < L->sets; set++) {
		uint8_t *blk = llct_lines_block(L, set);
		const uint32_t *fp = llct_block_fp(blk);
		for (uint64_t v = *llct_block_valid(L, blk); v; v &= v - 1) {
			uint32_t w = (uint32_t)__builtin_ctzll(v);
			uint64_t tag = fp[w], low = set;
			if (L->xor_hash)
				low ^= llct_set_index(1, L->set_bits, L->set_mask, L->sets, tag);
			L->tag[(size_t)set * L->ways + w] = tag << L->set_bits | low;
		}
	}
	L->wide = 1;
}

/* The way holding `line` in `set`, or ways if none: the fingerprints of 16 ways compared at
 * once with key32 (the line's fingerprint), among the valid ways; when wide (a constant at
 * each call in the batch loop), the full tag confirms a match. Narrow, the caller has seen
 * that the line is narrow too. */
LLCT_INLINE uint32_t llct_lines_find_fp(const struct llct_lines *L, uint32_t set, uint64_t line,
					uint32_t key32, int wide)
{
	uint8_t *blk = llct_lines_block(L, set);
	uint64_t valid = *llct_block_valid(L, blk);
	const uint32_t *fp = llct_block_fp(blk);
	const uint64_t *tags = &L->tag[(size_t)set * L->ways];
#ifdef __SSE2__
	/* broadcast from a register: _mm_set1_epi32 of a value in memory may go through a
	 * store the load cannot forward, a stall on every lookup */
	__m128i key = _mm_shuffle_epi32(_mm_cvtsi32_si128((int)key32), 0);
	for (uint32_t g = 0; g < L->ways; g += 16) {
		const __m128i *f = (const __m128i *)(fp + g);
		__m128i m0 = _mm_cmpeq_epi32(_mm_load_si128(f), key);
		__m128i m1 = _mm_cmpeq_epi32(_mm_load_si128(f + 1), key);
		__m128i m2 = _mm_cmpeq_epi32(_mm_load_si128(f + 2), key);
		__m128i m3 = _mm_cmpeq_epi32(_mm_load_si128(f + 3), key);
		/* all-ones or zero lanes pack to all-ones or zero bytes, in way order */
		__m128i m8 = _mm_packs_epi16(_mm_packs_epi32(m0, m1), _mm_packs_epi32(m2, m3));
		uint32_t m = (uint32_t)_mm_movemask_epi8(m8) & (uint32_t)(valid >> g) & 0xffffu;
		if (!wide && m)
			return g + ((uint32_t)__builtin_ctz(m) & 15);
		for (; m; m &= m - 1) {
			uint32_t w = g + ((uint32_t)__builtin_ctz(m) & 15);
			if (tags[w] == line)
				return w;
		}
	}
#else
	for (uint32_t w = 0; w < L->ways; w++)
		if ((valid >> w & 1) && fp[w] == key32 && (!wide || tags[w] == line))
			return w;
#endif
	return L->ways;
}

LLCT_INLINE uint32_t llct_lines_find(const struct llct_lines *L, uint32_t set, uint64_t line)
{
	if (!L->wide && llct_lines_is_wide(L, line)) /* narrow, the cache holds no wide line */
		return L->ways;
	return llct_lines_find_fp(L, set, line, llct_lines_fingerprint(L, line), L->wide);
}

/* Event codes: what one access did, with everything its counters depend on, so the batch
 * loop counts an access with one increment of a histogram and llct_event_count() turns the
 * histogram into counters at the end (the rules of the counters are written once, there).
 * Every code holds the stream s in bits 0-3 and the write flag in bit 4 ("so"); then
 *   hit:    bit 5 the line's RT mark, bits 6-7 its epoch, bit 8 whether s last touched it;
 *   fill:   bit 5 whether a line was evicted, bits 6-9 its owner stream, bit 10 its dirt;
 *   bypass: nothing more. */
#define LLCT_EV_HIT 0
#define LLCT_EV_FILL 512
#define LLCT_EV_BYPASS 2560
#define LLCT_EV_N 2592

#define LLCT_EV_S(c) ((unsigned)(c)&15u)
#define LLCT_EV_OP(c) ((unsigned)(c) >> 4 & 1u)
#define LLCT_EV_RT(c) ((unsigned)(c) >> 5 & 1u)
#define LLCT_EV_EPOCH(c) ((unsigned)(c) >> 6 & 3u)
#define LLCT_EV_SAME(c) ((unsigned)(c) >> 8 & 1u)
/* Of a hit code (a fill is a hit code with no mark, no epoch): whether it consumes the RT
 * mark (a TEX hit on a marked line), sets it (an RT access on an unmarked line), tracks
 * epochs (TEX and Z), continues its line's epoch chain (s touched it last, in an epoch), and
 * the epoch it leads to (0: none, 1: E0, 2: E1, 3: E>=2; docs/REPLAY.md, "Trackers"). */
#define LLCT_EV_CONSUMES(c) (LLCT_EV_S(c) == LLCT_STREAM_TEX && LLCT_EV_RT(c))
#define LLCT_EV_PRODUCES(c) (LLCT_EV_S(c) == LLCT_STREAM_RT && !LLCT_EV_RT(c))
/* Z-to-TEX, from the owner the code already holds: a line's epoch is not 0 exactly when its
 * last access was TEX or Z, so a TEX hit on it that is not TEX's own (SAME clear) finds Z
 * last; a Z access that does not continue Z's chain (a fill, or a hit after another stream)
 * gives the line to Z. */
#define LLCT_EV_Z_CONSUMES(c)                                                                      \
	(LLCT_EV_S(c) == LLCT_STREAM_TEX && !LLCT_EV_SAME(c) && LLCT_EV_EPOCH(c) != 0)
#define LLCT_EV_Z_PRODUCES(c) (LLCT_EV_S(c) == LLCT_STREAM_Z && !LLCT_EV_SAME(c))
#define LLCT_EV_EPOCHS(c) (LLCT_EV_S(c) == LLCT_STREAM_TEX || LLCT_EV_S(c) == LLCT_STREAM_Z)
#define LLCT_EV_CONT(c) (LLCT_EV_SAME(c) && LLCT_EV_EPOCH(c) != 0)
#define LLCT_EV_NEXT(c)                                                                            \
	(!LLCT_EV_EPOCHS(c) ? 0u : LLCT_EV_CONT(c) ? LLCT_EV_EPOCH(c) + (LLCT_EV_EPOCH(c) < 3) : 1u)
/* The metadata byte an access of hit code c leaves (a fill: c = so); a hit keeps the dirty
 * bit it found as well. */
#define LLCT_EV_META(c)                                                                            \
	(uint8_t)(LLCT_EV_OP(c) << 7 |                                                             \
		  (LLCT_EV_RT(c) ^ (LLCT_EV_CONSUMES(c) | LLCT_EV_PRODUCES(c))) << 4 |             \
		  LLCT_EV_NEXT(c) << LLCT_META_EPOCH_SHIFT | LLCT_EV_S(c))
/* What a fill code gains from the metadata m of the line it evicts. */
#define LLCT_EV_EVICT(m) (uint16_t)(32u | ((m)&15u) << 6 | ((m) >> 7 & 1u) << 10)
/* F(c) for 256 c from c0, as an initializer list. */
#define LLCT_EV_T4(F, c) F(c), F(c + 1), F(c + 2), F(c + 3)
#define LLCT_EV_T32(F, c)                                                                          \
	LLCT_EV_T4(F, c), LLCT_EV_T4(F, c + 4), LLCT_EV_T4(F, c + 8), LLCT_EV_T4(F, c + 12),       \
	    LLCT_EV_T4(F, c + 16), LLCT_EV_T4(F, c + 20), LLCT_EV_T4(F, c + 24),                   \
	    LLCT_EV_T4(F, c + 28)
#define LLCT_EV_T256(F, c)                                                                         \
	LLCT_EV_T32(F, c), LLCT_EV_T32(F, c + 32), LLCT_EV_T32(F, c + 64), LLCT_EV_T32(F, c + 96), \
	    LLCT_EV_T32(F, c + 128), LLCT_EV_T32(F, c + 160), LLCT_EV_T32(F, c + 192),             \
	    LLCT_EV_T32(F, c + 224)
/* LLCT_EV_META of every hit code and LLCT_EV_EVICT of every metadata byte, for the step to
 * look up. */
static const uint8_t llct_ev_meta[LLCT_EV_FILL] = {LLCT_EV_T256(LLCT_EV_META, 0),
						   LLCT_EV_T256(LLCT_EV_META, 256)};
static const uint16_t llct_ev_evict[256] = {LLCT_EV_T256(LLCT_EV_EVICT, 0)};

LLCT_INLINE int llct_ev_is_hit(unsigned c)
{
	return c < LLCT_EV_FILL;
}
LLCT_INLINE int llct_ev_is_bypass(unsigned c)
{
	return c >= LLCT_EV_BYPASS;
}
LLCT_INLINE int llct_ev_is_evict(unsigned c)
{
	return c >= LLCT_EV_FILL && c < LLCT_EV_BYPASS && ((c - LLCT_EV_FILL) >> 5 & 1);
}

/* Adds n accesses of event code c to the frame's counters: reads or writes of s, and a hit
 * (read or write hit, RT mark consumed or set, a Z line consumed by TEX or given to Z, an
 * epoch's hit or entry), a fill (a fill, the evicted line's eviction and write-back, the RT mark
 * set, the line given to Z, E0 entered) or a bypass. */
static inline void llct_event_count(struct llct_frame_stats *fs, unsigned c, uint64_t n)
{
	struct llct_stream_stats *st = &fs->s[LLCT_EV_S(c)];
	*(LLCT_EV_OP(c) ? &st->writes : &st->reads) += n;
	if (llct_ev_is_bypass(c)) {
		st->bypasses += n;
		st->bypass_writes += LLCT_EV_OP(c) ? n : 0;
		return;
	}
	unsigned h = c; /* the hit code that sets the mark and epoch */
	if (llct_ev_is_hit(c)) {
		*(LLCT_EV_OP(c) ? &st->write_hits : &st->read_hits) += n;
	} else {
		unsigned f = c - LLCT_EV_FILL;
		st->fills += n;
		if (f >> 5 & 1) {
			fs->s[f >> 6 & 15].evictions += n;
			fs->s[f >> 6 & 15].writebacks += (f >> 10 & 1) * n;
		}
		h = LLCT_EV_S(c) | LLCT_EV_OP(c) << 4;
	}
	fs->rt_consumed += LLCT_EV_CONSUMES(h) * n;
	fs->rt_produced += LLCT_EV_PRODUCES(h) * n;
	fs->z_consumed += LLCT_EV_Z_CONSUMES(h) * n;
	fs->z_produced += LLCT_EV_Z_PRODUCES(h) * n;
	if (!LLCT_EV_EPOCHS(h))
		return;
	int tex = LLCT_EV_S(h) == LLCT_STREAM_TEX;
	uint64_t *entered = tex ? fs->tex_entered : fs->z_entered;
	uint64_t *hits = tex ? fs->tex_hits : fs->z_hits;
	if (LLCT_EV_CONT(h))
		hits[LLCT_EV_EPOCH(h) - 1] += n;
	if (!LLCT_EV_CONT(h) || LLCT_EV_EPOCH(h) < 3)
		entered[LLCT_EV_NEXT(h) - 1] += n;
}

/* The batch loop works in blocks of this many accesses, computing their sets first, and
 * prefetches the set this many accesses ahead. */
#define LLCT_LINES_BLOCK 256
#define LLCT_LINES_AHEAD 8

/* Prefetches the first and the last byte of [p, p + bytes): a set's row of up to 64 bytes
 * wherever it lies, or of up to 128 aligned ones. */
LLCT_INLINE void llct_prefetch_span(const void *p, size_t bytes)
{
	__builtin_prefetch(p);
	__builtin_prefetch((const char *)p + bytes - 1);
}

/* Prefetches a set's row of policy state that starts at a multiple of `bytes` from a 64-byte
 * boundary: one line when bytes divides 64 (16 ways of bytes, the batch loop's constant),
 * else the first and the last. Policies lay their rows out so. */
LLCT_INLINE void llct_prefetch_row(const void *p, size_t bytes)
{
	__builtin_prefetch(p);
	if (64 % bytes)
		__builtin_prefetch((const char *)p + bytes - 1);
}

/* Adds a histogram of event codes to the frame's counters; returns the hits in it. */
static inline uint64_t llct_event_flush(struct llct_frame_stats *fs, const uint32_t *hist)
{
	uint64_t hits = 0;
	/* eight codes at a time, skipped together when all are 0 (most are: a batch of a split
	 * model's shard has a thousand accesses or so, and looking at 2,592 codes one by one
	 * cost it more than a nanosecond an access) */
	_Static_assert(LLCT_EV_N % 8 == 0, "codes in eights");
	for (unsigned c0 = 0; c0 < LLCT_EV_N; c0 += 8) {
		uint32_t any = 0;
		for (unsigned k = 0; k < 8; k++)
			any |= hist[c0 + k];
		if (!any)
			continue;
		for (unsigned c = c0; c < c0 + 8; c++)
			if (hist[c]) {
				llct_event_count(fs, c, hist[c]);
				hits += llct_ev_is_hit(c) ? hist[c] : 0;
			}
	}
	return hits;
}

typedef void (*llct_hit_fn)(void *state, uint32_t way, const struct llct_access *a);
typedef uint32_t (*llct_victim_fn)(void *state, const struct llct_access *a);
typedef void (*llct_prefetch_fn)(const void *state, uint32_t set, uint32_t ways);

/* Looks a->line (its fingerprint key32) up in set a->set and updates fingerprints, tags (when
 * wide), metadata (owner, dirt, RT mark, epoch) and the policy (a->word set first): a hit calls
 * on_hit; a miss fills the lowest allowed invalid way, or asks victim() when there is none, then
 * calls on_fill. so is the access's stream | write << 4; wide is L->wide, which the caller has
 * set for a->line (llct_lines_widen). Counts nothing: returns the event code for the caller to
 * count. *way is the way hit or filled. */
LLCT_INLINE unsigned llct_lines_step_fp(struct llct_lines *L, void *ps, llct_hit_fn on_hit,
					llct_victim_fn victim, llct_hit_fn on_fill,
					struct llct_access *a, uint32_t key32, unsigned so,
					int wide, uint32_t *way)
{
	size_t base = (size_t)a->set * L->ways;
	uint8_t *blk = llct_lines_block(L, a->set), *meta = llct_block_meta(L, blk);
	uint64_t *valid = llct_block_valid(L, blk);
	a->word = llct_block_word(L, blk);
	uint32_t w = llct_lines_find_fp(L, a->set, a->line, key32, wide);
	if (w < L->ways) {
		uint8_t m = meta[w];
		unsigned c = so | (unsigned)(m & (LLCT_META_RT | LLCT_META_EPOCH)) << 1 |
			     (unsigned)((m & LLCT_META_OWNER) == a->stream) << 8;
		meta[w] = (uint8_t)((m & LLCT_META_DIRTY) | llct_ev_meta[c]);
		on_hit(ps, w, a);
		*way = w;
		return c;
	}
	unsigned c = LLCT_EV_FILL + so;
	uint64_t empty = ~*valid & a->allowed;
	if (empty) {
		w = (uint32_t)__builtin_ctzll(empty);
		*valid |= (uint64_t)1 << w;
	} else {
		w = a->allowed ? victim(ps, a) : LLCT_WAY_BYPASS;
		if (w == LLCT_WAY_BYPASS)
			return LLCT_EV_BYPASS + so;
		uint8_t old = meta[w];
		c += llct_ev_evict[old];
	}
	if (wide)
		L->tag[base + w] = a->line;
	llct_block_fp(blk)[w] = key32;
	meta[w] = llct_ev_meta[so];
	on_fill(ps, w, a);
	*way = w;
	return c;
}

/* llct_lines_step_fp with the fingerprint, stream code and width worked out here. */
LLCT_INLINE unsigned llct_lines_step(struct llct_lines *L, void *ps, llct_hit_fn on_hit,
				     llct_victim_fn victim, llct_hit_fn on_fill,
				     struct llct_access *a, uint32_t *way)
{
	if (!L->wide && llct_lines_is_wide(L, a->line))
		llct_lines_widen(L);
	return llct_lines_step_fp(L, ps, on_hit, victim, on_fill, a,
				  llct_lines_fingerprint(L, a->line),
				  a->stream | (unsigned)(a->op != 0) << 4, L->wide, way);
}

/* The arrays the batch loop's pre-pass fills for one block of accesses. */
struct llct_lines_pre {
	uint64_t lines[LLCT_LINES_BLOCK];
	uint32_t sets[LLCT_LINES_BLOCK + LLCT_LINES_AHEAD];
	uint32_t keys[LLCT_LINES_BLOCK];
	uint8_t sos[LLCT_LINES_BLOCK];
};

/* Steps the n accesses of one block of a batch from `at` (their lines, sets, fingerprints and
 * stream codes in p), counting each in hist; *k counts the next uses taken. wide is l->wide, a
 * constant at each call so that a narrow cache's loop holds no tag load, store or prefetch. */
LLCT_INLINE void llct_lines_block_run(struct llct_lines *l, void *ps, llct_hit_fn on_hit,
				      llct_victim_fn victim, llct_hit_fn on_fill,
				      llct_prefetch_fn prefetch, int needs_next, int ucd, int wide,
				      const struct llct_batch *b, uint32_t at, uint32_t n,
				      const struct llct_lines_pre *p, const uint64_t *next_use,
				      size_t *k, uint32_t *hist)
{
	const uint64_t *addr = b->addr + at;
	const uint8_t *streams = b->stream + at, *ops = b->op + at;
	uint32_t after = b->n - at - n; /* accesses in the blocks after this one */
	for (uint32_t i = 0; i < n; i++) {
		/* the next block's addresses: the pre-pass waited on them (only within the
		 * batch: a pointer past its arrays would be undefined, even to prefetch) */
		if (i % 8 == 0 && i < after) {
			__builtin_prefetch(addr + LLCT_LINES_BLOCK + i);
			if (i % 64 == 0) {
				__builtin_prefetch(streams + LLCT_LINES_BLOCK + i);
				__builtin_prefetch(ops + LLCT_LINES_BLOCK + i);
			}
		}
		uint32_t set = p->sets[i + LLCT_LINES_AHEAD]; /* start a later set's loads */
		llct_prefetch_span(llct_lines_block(l, set), l->blk_size);
		if (wide)
			llct_prefetch_span(&l->tag[(size_t)set * l->ways], (size_t)l->ways * 8);
		prefetch(ps, set, l->ways);
		unsigned so = p->sos[i], stream = so & 15;
		if (ucd && stream == LLCT_STREAM_DISP) {
			hist[LLCT_EV_BYPASS + so]++;
			continue;
		}
		struct llct_access a = {.line = p->lines[i],
					.next_use =
					    needs_next && next_use ? next_use[(*k)++] : LLCT_NEVER,
					.set = p->sets[i],
					.stream = (uint8_t)stream,
					.op = (uint8_t)(so >> 4),
					/* NULL when not decoded (no hook reads them) */
					.sm = b->sm ? b->sm[at + i] : 0,
					.kernel = b->kernel ? b->kernel[at + i] : 0,
					.tenant = b->tenant ? b->tenant[at + i] : 0,
					.ways = l->ways,
					.allowed = l->all_ways,
					.demote = NULL};
		uint32_t w;
		hist[llct_lines_step_fp(l, ps, on_hit, victim, on_fill, &a, p->keys[i], so, wide,
					&w)]++;
	}
}

/* Replays a batch through a plain model: bypasses DISP under UCD and steps every other
 * access, counting each by its event code. next_use as for llct_cache_access_batch (indices
 * count only the accesses that look the cache up). Returns hits.
 *
 * Each block of accesses first gets its lines, sets, fingerprints and stream codes in loops the
 * compiler vectorizes, and the sets of the next LLCT_LINES_AHEAD accesses (set 0 past the
 * batch's end) for the prefetches; a block with a wide line widens the cache before it runs.
 * The geometry is copied to a local: a store through a uint8_t pointer (metadata, policy
 * bytes) may alias anything in memory, so without the copy the compiler reloads every field
 * after each such store. The histogram is local for the same reason, and its counts fit 32
 * bits because a batch has fewer than 2^32 accesses. ways16 and ucd are constants at each
 * call, so the compiler drops what they switch off. */
LLCT_INLINE uint64_t llct_lines_batch(struct llct_lines *L, void *ps, llct_hit_fn on_hit,
				      llct_victim_fn victim, llct_hit_fn on_fill,
				      llct_prefetch_fn prefetch, int needs_next, int ways16,
				      int ucd, const struct llct_batch *b, const uint64_t *next_use)
{
	uint32_t hist[LLCT_EV_N] = {0};
	struct llct_lines l = *L;
	if (ways16) { /* the usual geometry as constants the compiler folds in */
		l.ways = 16;
		l.fp_stride = 16;
		l.blk_size = 128;
		l.all_ways = 0xffff;
	}
	struct llct_lines_pre p;
	size_t k = 0;
	for (uint32_t at = 0; at < b->n; at += LLCT_LINES_BLOCK) {
		uint32_t n = b->n - at < LLCT_LINES_BLOCK ? b->n - at : LLCT_LINES_BLOCK;
		uint32_t ahead =
		    b->n - at - n < LLCT_LINES_AHEAD ? b->n - at - n : LLCT_LINES_AHEAD;
		const uint64_t *addr = b->addr + at;
		const uint8_t *streams = b->stream + at, *ops = b->op + at;
		uint64_t high = 0; /* the tag bits above the fingerprint's, ORed */
		for (uint32_t i = 0; i < n; i++) {
			uint64_t line = addr[i] >> l.line_shift, tag = line >> l.set_bits;
			p.lines[i] = line;
			p.keys[i] = (uint32_t)tag;
			high |= tag >> 32;
		}
		if (l.set_mask && !l.xor_hash) {
			for (uint32_t i = 0; i < n; i++)
				p.sets[i] = (uint32_t)p.lines[i] & l.set_mask;
			for (uint32_t i = n; i < n + ahead; i++)
				p.sets[i] = (uint32_t)(addr[i] >> l.line_shift) & l.set_mask;
		} else {
			for (uint32_t i = 0; i < n; i++)
				p.sets[i] = llct_lines_set(&l, p.lines[i]);
			for (uint32_t i = n; i < n + ahead; i++)
				p.sets[i] = llct_lines_set(&l, addr[i] >> l.line_shift);
		}
		for (uint32_t i = n + ahead; i < n + LLCT_LINES_AHEAD; i++)
			p.sets[i] = 0;
		for (uint32_t i = 0; i < n; i++)
			p.sos[i] = (uint8_t)(streams[i] | (ops[i] != 0) << 4);
		if (high && !l.wide) {
			llct_lines_widen(L);
			l.wide = 1;
		}
		if (l.wide)
			llct_lines_block_run(&l, ps, on_hit, victim, on_fill, prefetch, needs_next,
					     ucd, 1, b, at, n, &p, next_use, &k, hist);
		else
			llct_lines_block_run(&l, ps, on_hit, victim, on_fill, prefetch, needs_next,
					     ucd, 0, b, at, n, &p, next_use, &k, hist);
	}
	return llct_event_flush(L->fs, hist);
}

/* Scratch words of a set-sampled call (llct/replay.h's LLCT_SAMPLE_SCRATCH): a histogram per
 * event code and stratum, then the indices of its counts that are not 0. */
_Static_assert(LLCT_SAMPLE_SCRATCH == 2 * LLCT_SAMPLE_STRATA * LLCT_EV_N,
	       "a set-sampled call's scratch: two words per event code and stratum");

/* The steps of entries [from, to) of a sampled list, for llct_lines_sampled; wide is l->wide, a
 * constant at each call. */
LLCT_INLINE void llct_lines_sampled_run(struct llct_lines *l, void *ps, llct_hit_fn on_hit,
					llct_victim_fn victim, llct_hit_fn on_fill,
					llct_prefetch_fn prefetch, int needs_next, int wide,
					const struct llct_sample_entry *e, uint32_t from,
					uint32_t to, uint32_t n, const uint64_t *next_use,
					uint32_t *hist, uint32_t *touched, uint32_t *nt)
{
	for (uint32_t i = from; i < to; i++) {
		if (i + LLCT_LINES_AHEAD < n) {
			uint32_t set = e[i + LLCT_LINES_AHEAD].set;
			llct_prefetch_span(llct_lines_block(l, set), l->blk_size);
			if (wide)
				llct_prefetch_span(&l->tag[(size_t)set * l->ways],
						   (size_t)l->ways * 8);
			prefetch(ps, set, l->ways);
		}
		unsigned so = e[i].so, stream = so & 15, code;
		if (l->ucd && stream == LLCT_STREAM_DISP) {
			code = LLCT_EV_BYPASS + so;
		} else {
			uint64_t line = e[i].addr >> l->line_shift;
			struct llct_access a = {.line = line,
						.next_use = needs_next && next_use ? next_use[i]
										   : LLCT_NEVER,
						.set = e[i].set,
						.stream = (uint8_t)stream,
						.op = (uint8_t)(so >> 4),
						.ways = l->ways,
						.allowed = l->all_ways,
						.demote = NULL};
			uint32_t w;
			code = llct_lines_step_fp(l, ps, on_hit, victim, on_fill, &a,
						  llct_lines_fingerprint(l, line), so, wide, &w);
		}
		uint32_t h = code * LLCT_SAMPLE_STRATA + e[i].st; /* a code's strata together */
		if (!hist[h]++)
			touched[(*nt)++] = h;
	}
}

/* The set-sampled form of llct_lines_batch: the entries e[], each counted in its stratum's
 * frame stats fs[e[i].st] (policy.h, `sampled`) through a histogram in scratch that is added up
 * and cleared at the end (its counts fit 32 bits: a batch has fewer than 2^32 accesses). The
 * sampled sets' lines stay in the second-level cache, not the first: the set
 * LLCT_LINES_AHEAD entries on is prefetched. As in the batch loop, each run of
 * LLCT_LINES_BLOCK entries with a wide line widens the cache before it runs, so the loop is
 * compiled for a narrow and a wide cache; runs are looked at only when addr_or, the OR of the
 * entries' addresses, has a wide line's bits (looking at every run cost 9% of a sweep). ways16 as
 * for llct_lines_batch. */
LLCT_INLINE void llct_lines_sampled(struct llct_lines *L, void *ps, llct_hit_fn on_hit,
				    llct_victim_fn victim, llct_hit_fn on_fill,
				    llct_prefetch_fn prefetch, int needs_next, int ways16,
				    const struct llct_sample_entry *e, uint32_t n, uint64_t addr_or,
				    const uint64_t *next_use, struct llct_frame_stats *const *fs,
				    uint32_t *scratch)
{
	struct llct_lines l = *L;
	if (ways16) {
		l.ways = 16;
		l.fp_stride = 16;
		l.blk_size = 128;
		l.all_ways = 0xffff;
	}
	uint32_t *hist = scratch, *touched = scratch + LLCT_SAMPLE_STRATA * LLCT_EV_N, nt = 0;
	for (uint32_t at = 0; at < n; at += LLCT_LINES_BLOCK) {
		uint32_t to = n - at < LLCT_LINES_BLOCK ? n : at + LLCT_LINES_BLOCK;
		/* 0: not known (a list built without it), so every run is looked at */
		uint64_t bound = addr_or ? addr_or : UINT64_MAX;
		if (!l.wide && llct_lines_is_wide(&l, bound >> l.line_shift)) {
			uint64_t high = 0;
			for (uint32_t i = at; i < to; i++)
				high |= (e[i].addr >> l.line_shift >> l.set_bits) >> 32;
			if (high) {
				llct_lines_widen(L);
				l.wide = 1;
			}
		}
		if (l.wide)
			llct_lines_sampled_run(&l, ps, on_hit, victim, on_fill, prefetch,
					       needs_next, 1, e, at, to, n, next_use, hist, touched,
					       &nt);
		else
			llct_lines_sampled_run(&l, ps, on_hit, victim, on_fill, prefetch,
					       needs_next, 0, e, at, to, n, next_use, hist, touched,
					       &nt);
	}
	for (uint32_t t = 0; t < nt; t++) {
		uint32_t h = touched[t];
		llct_event_count(fs[h % LLCT_SAMPLE_STRATA], h / LLCT_SAMPLE_STRATA, hist[h]);
		hist[h] = 0;
	}
}

#endif

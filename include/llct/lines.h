/* lines.h - the LLC model's line arrays and its per-access lookup-and-update step, as inline
 * code shared by the replay engine (replay/cache.c) and by each policy's specialized batch
 * loop, so the rules of tags, counters and trackers are written once.
 *
 * A policy file ends with LLCT_DEFINE_BATCH(name_batch, on_hit, victim, on_fill, prefetch,
 * needs_next) and points its ops' `batch` at it: the loop below is then compiled with the policy's
 * own hooks, which the compiler inlines (no indirect call, no struct handed over in memory). The
 * engine uses `batch` only for plain models (no partitioning, bypass rules, page coloring,
 * contention tracking or dynamic partitioning); everything else goes through
 * llct_lines_step() one access at a time with the hooks called through the ops table.
 */
#ifndef LLCT_LINES_H
#define LLCT_LINES_H

#include "policy.h"
#include "stats.h"
#include "trace.h"

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

#define LLCT_INVALID_LINE UINT64_MAX

#define LLCT_INLINE static inline __attribute__((always_inline))
/* A policy hook: also inlined into its batch loop, so the loop's struct llct_access never
 * has to be built in memory (building it there cost a store-forwarding stall an access). */
#define LLCT_HOOK LLCT_INLINE

/* A set's block: the 16-bit fingerprints of its tags (fp_stride of them, so a lookup
 * compares 16 ways at once and reads a full tag only on a match), its metadata bytes and
 * its valid mask, together in one 64-byte line for up to 16 ways, so one prefetch brings in
 * everything but the tags and the policy's state. */
struct llct_lines {
	uint64_t *tag;               /* per line: line address, LLCT_INVALID_LINE when empty */
	uint8_t *blk;                /* per set: blk_size bytes, 64-byte aligned */
	struct llct_frame_stats *fs; /* where counts go */
	uint64_t all_ways;           /* mask of every way */
	uint32_t sets, ways;
	uint32_t fp_stride; /* ways rounded up to a multiple of 16 */
	uint32_t blk_size;  /* 3 x fp_stride + 8, rounded up to a multiple of 64 */
	uint32_t set_mask;  /* sets - 1 when sets is a power of two, else 0 */
	unsigned line_shift, set_bits;
	int xor_hash;     /* set index by XOR-folding instead of modulo */
	int ucd;          /* DISP bypasses */
	uint64_t sink[3]; /* where the step's branch-free counting puts counts that do not count */
};

LLCT_INLINE uint8_t *llct_lines_block(const struct llct_lines *L, uint32_t set)
{
	return L->blk + (size_t)set * L->blk_size;
}
/* fingerprints at the start of the block, then metadata, then the valid mask */
LLCT_INLINE uint16_t *llct_block_fp(uint8_t *blk)
{
	return (uint16_t *)blk;
}
LLCT_INLINE uint8_t *llct_block_meta(const struct llct_lines *L, uint8_t *blk)
{
	return blk + 2 * L->fp_stride;
}
LLCT_INLINE uint64_t *llct_block_valid(const struct llct_lines *L, uint8_t *blk)
{
	return (uint64_t *)(blk + 3 * L->fp_stride);
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

/* 16 bits of a multiplicative hash of the line address: lines of one set differ in their
 * tag bits, and the top bits of the product depend on all of them. */
LLCT_INLINE uint16_t llct_lines_fingerprint(uint64_t line)
{
	return (uint16_t)((line * 0x9e3779b97f4a7c15u) >> 48);
}

/* The way holding `line` (fingerprint `want`) in `set`, or ways if none: the fingerprints of
 * 16 ways compared at once, full tags read only to confirm a match among the valid ways. */
LLCT_INLINE uint32_t llct_lines_find_fp(const struct llct_lines *L, uint32_t set, uint64_t line,
					uint16_t want)
{
	uint8_t *blk = llct_lines_block(L, set);
	uint64_t valid = *llct_block_valid(L, blk);
	const uint16_t *fp = llct_block_fp(blk);
	const uint64_t *tags = &L->tag[(size_t)set * L->ways];
#ifdef __SSE2__
	/* broadcast from a register: _mm_set1_epi16 goes through a 2-byte store and a 4-byte
	 * load that the store cannot forward, a stall on every lookup */
	__m128i key = _mm_shuffle_epi32(_mm_cvtsi32_si128((int)(want * 0x10001u)), 0);
	for (uint32_t g = 0; g < L->ways; g += 16) {
		__m128i lo = _mm_cmpeq_epi16(_mm_load_si128((const __m128i *)(fp + g)), key);
		__m128i hi = _mm_cmpeq_epi16(_mm_load_si128((const __m128i *)(fp + g + 8)), key);
		uint32_t m =
		    (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(lo, hi)) & (uint32_t)(valid >> g);
		while (m) {
			uint32_t w = g + (uint32_t)__builtin_ctz(m);
			if (tags[w] == line)
				return w;
			m &= m - 1;
		}
	}
#else
	for (uint32_t w = 0; w < L->ways; w++)
		if ((valid >> w & 1) && fp[w] == want && tags[w] == line)
			return w;
#endif
	return L->ways;
}

LLCT_INLINE uint32_t llct_lines_find(const struct llct_lines *L, uint32_t set, uint64_t line)
{
	return llct_lines_find_fp(L, set, line, llct_lines_fingerprint(line));
}

/* Epoch tracking of TEX and Z blocks: consecutive accesses by the same stream walk a block
 * through E0, E1, E>=2; an access by any other stream ends the chain. Returns the epoch bits
 * of the line's new metadata. Branch-free (whether a hit continues a chain is data, and a
 * mispredicted branch costs more than the selects): counts that do not happen go to a sink. */
LLCT_INLINE uint8_t llct_track_epoch(struct llct_frame_stats *fs, uint64_t *sink, int stream,
				     int hit, uint8_t meta)
{
	unsigned epoch = (meta & LLCT_META_EPOCH) >> LLCT_META_EPOCH_SHIFT;
	int tex = stream == LLCT_STREAM_TEX, z = stream == LLCT_STREAM_Z;
	uint64_t *entered = tex ? fs->tex_entered : z ? fs->z_entered : sink;
	uint64_t *hits = tex ? fs->tex_hits : z ? fs->z_hits : sink;
	unsigned cont =
	    (unsigned)(hit & ((meta & LLCT_META_OWNER) == (unsigned)stream) & (epoch != 0));
	unsigned adv = cont & (epoch < 3);
	unsigned next = cont ? epoch + adv : 1;
	(*(cont ? &hits[epoch - 1] : &sink[0]))++;
	(*(cont && !adv ? &sink[0] : &entered[next - 1]))++;
	return (uint8_t)((tex | z) ? next << LLCT_META_EPOCH_SHIFT : 0);
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

/* What one step did. */
enum llct_step { LLCT_STEP_HIT, LLCT_STEP_FILL, LLCT_STEP_EVICT, LLCT_STEP_BYPASS };

typedef void (*llct_hit_fn)(void *state, uint32_t way, const struct llct_access *a);
typedef uint32_t (*llct_victim_fn)(void *state, const struct llct_access *a);
typedef void (*llct_prefetch_fn)(const void *state, uint32_t set);

/* Looks a->line up in set a->set and updates tags, metadata, the per-stream hit, fill,
 * eviction and write-back counters, the RT-to-TEX and epoch trackers, and the policy: a hit
 * calls on_hit; a miss fills the lowest allowed invalid way, or asks victim() when there is
 * none, then calls on_fill. Reads and writes are the caller's to count. *way is the way hit
 * or filled. */
LLCT_INLINE enum llct_step llct_lines_step(struct llct_lines *L, void *ps, llct_hit_fn on_hit,
					   llct_victim_fn victim, llct_hit_fn on_fill,
					   const struct llct_access *a, uint32_t *way)
{
	struct llct_frame_stats *fs = L->fs;
	int stream = a->stream;
	struct llct_stream_stats *st = &fs->s[stream];
	size_t base = (size_t)a->set * L->ways;
	uint8_t *blk = llct_lines_block(L, a->set), *meta = llct_block_meta(L, blk);
	uint64_t *valid = llct_block_valid(L, blk);
	uint16_t fp = llct_lines_fingerprint(a->line);
	uint32_t w = llct_lines_find_fp(L, a->set, a->line, fp);
	enum llct_step kind = LLCT_STEP_FILL;
	if (w < L->ways) {
		uint8_t m = meta[w];
		unsigned op = a->op != 0, rt = (m & LLCT_META_RT) != 0;
		(*(op ? &st->write_hits : &st->read_hits))++;
		m |= (uint8_t)(op << 7);
		/* a TEX hit consumes the RT mark, an RT hit sets it: either flips it */
		unsigned consumed = (stream == LLCT_STREAM_TEX) & rt;
		unsigned produced = (stream == LLCT_STREAM_RT) & !rt;
		fs->rt_consumed += consumed;
		fs->rt_produced += produced;
		m ^= (uint8_t)((consumed | produced) << 4);
		uint8_t ep = llct_track_epoch(fs, L->sink, stream, 1, m);
		meta[w] = (uint8_t)((m & (LLCT_META_DIRTY | LLCT_META_RT)) | ep | (uint8_t)stream);
		on_hit(ps, w, a);
		*way = w;
		return LLCT_STEP_HIT;
	}
	uint64_t empty = ~*valid & a->allowed;
	if (empty) {
		w = (uint32_t)__builtin_ctzll(empty);
		*valid |= (uint64_t)1 << w;
	} else {
		w = a->allowed ? victim(ps, a) : LLCT_WAY_BYPASS;
		if (w == LLCT_WAY_BYPASS) {
			st->bypasses++;
			return LLCT_STEP_BYPASS;
		}
		uint8_t old = meta[w];
		fs->s[old & LLCT_META_OWNER].evictions++;
		fs->s[old & LLCT_META_OWNER].writebacks += old >> 7;
		kind = LLCT_STEP_EVICT;
	}
	L->tag[base + w] = a->line;
	llct_block_fp(blk)[w] = fp;
	st->fills++;
	unsigned is_rt = stream == LLCT_STREAM_RT;
	fs->rt_produced += is_rt;
	uint8_t m = (uint8_t)((a->op != 0) << 7 | is_rt << 4);
	meta[w] = (uint8_t)(m | llct_track_epoch(fs, L->sink, stream, 0, 0) | stream);
	on_fill(ps, w, a);
	*way = w;
	return kind;
}

/* Adds the counters of `from` (not its frame number or contention) to `to`. */
LLCT_INLINE void llct_frame_stats_add(struct llct_frame_stats *to,
				      const struct llct_frame_stats *from)
{
	for (int k = 0; k < LLCT_N_STREAMS; k++) {
		const struct llct_stream_stats *f = &from->s[k];
		struct llct_stream_stats *t = &to->s[k];
		t->reads += f->reads;
		t->read_hits += f->read_hits;
		t->writes += f->writes;
		t->write_hits += f->write_hits;
		t->fills += f->fills;
		t->evictions += f->evictions;
		t->writebacks += f->writebacks;
		t->bypasses += f->bypasses;
	}
	to->rt_produced += from->rt_produced;
	to->rt_consumed += from->rt_consumed;
	for (int k = 0; k < 3; k++) {
		to->tex_entered[k] += from->tex_entered[k];
		to->tex_hits[k] += from->tex_hits[k];
		to->z_entered[k] += from->z_entered[k];
		to->z_hits[k] += from->z_hits[k];
	}
}

/* Replays a batch through a plain model: counts reads and writes, bypasses DISP under UCD,
 * and steps every other access. next_use as for llct_cache_access_batch (indices count only
 * the accesses that look the cache up). Returns hits.
 *
 * The geometry is copied to a local and the counts go to a local llct_frame_stats added to
 * L->fs at the end: a store through a uint8_t pointer (metadata, policy bytes) may alias
 * anything in memory, so without the copies the compiler reloads every field after each
 * such store. */
LLCT_INLINE uint64_t llct_lines_batch(struct llct_lines *L, void *ps, llct_hit_fn on_hit,
				      llct_victim_fn victim, llct_hit_fn on_fill,
				      llct_prefetch_fn prefetch, int needs_next, int ways16,
				      const struct llct_batch *b, const uint64_t *next_use)
{
	struct llct_frame_stats acc = {0};
	struct llct_lines l = *L;
	if (ways16) { /* the usual geometry as constants the compiler folds in */
		l.ways = 16;
		l.fp_stride = 16;
		l.blk_size = 64;
		l.all_ways = 0xffff;
	}
	uint32_t sets[LLCT_LINES_BLOCK + LLCT_LINES_AHEAD];
	uint64_t hits = 0;
	size_t k = 0;
	l.fs = &acc;
	for (uint32_t at = 0; at < b->n; at += LLCT_LINES_BLOCK) {
		uint32_t n = b->n - at < LLCT_LINES_BLOCK ? b->n - at : LLCT_LINES_BLOCK;
		uint32_t ahead =
		    b->n - at - n < LLCT_LINES_AHEAD ? b->n - at - n : LLCT_LINES_AHEAD;
		const uint64_t *addr = b->addr + at;
		const uint8_t *streams = b->stream + at, *ops = b->op + at;
		/* the set of every access of the block (and a few beyond, to prefetch) */
		if (l.set_mask && !l.xor_hash)
			for (uint32_t i = 0; i < n + ahead; i++)
				sets[i] = (uint32_t)(addr[i] >> l.line_shift) & l.set_mask;
		else
			for (uint32_t i = 0; i < n + ahead; i++)
				sets[i] = llct_lines_set(&l, addr[i] >> l.line_shift);
		for (uint32_t i = 0; i < n; i++) {
			if (i + LLCT_LINES_AHEAD < n + ahead) { /* start the loads of a later set */
				uint32_t set = sets[i + LLCT_LINES_AHEAD];
				__builtin_prefetch(llct_lines_block(&l, set));
				llct_prefetch_span(&l.tag[(size_t)set * l.ways],
						   (size_t)l.ways * 8);
				prefetch(ps, set);
			}
			int stream = streams[i], op = ops[i];
			struct llct_stream_stats *st = &acc.s[stream];
			(*(op ? &st->writes : &st->reads))++;
			if (l.ucd && stream == LLCT_STREAM_DISP) {
				st->bypasses++;
				continue;
			}
			struct llct_access a = {.line = addr[i] >> l.line_shift,
						.next_use = needs_next && next_use ? next_use[k++]
										   : LLCT_NEVER,
						.set = sets[i],
						.stream = (uint8_t)stream,
						.op = (uint8_t)op,
						.sm = b->sm[at + i],
						.kernel = b->kernel[at + i],
						.tenant = b->tenant[at + i],
						.ways = l.ways,
						.allowed = l.all_ways,
						.demote = NULL};
			uint32_t w;
			hits += llct_lines_step(&l, ps, on_hit, victim, on_fill, &a, &w) ==
				LLCT_STEP_HIT;
		}
	}
	llct_frame_stats_add(L->fs, &acc);
	return hits;
}

/* Defines `static uint64_t fn(void *state, struct llct_lines *L, const struct llct_batch *b,
 * const uint64_t *next_use)`: the batch loop with this policy's hooks, compiled twice: for
 * 16 ways with the geometry as constants (5-10% faster), and for any geometry. */
#define LLCT_DEFINE_BATCH(fn, on_hit, victim, on_fill, prefetch, needs_next)                       \
	static uint64_t fn(void *state, struct llct_lines *L, const struct llct_batch *b,          \
			   const uint64_t *next_use)                                               \
	{                                                                                          \
		if (L->ways == 16 && L->fp_stride == 16 && L->blk_size == 64)                      \
			return llct_lines_batch(L, state, on_hit, victim, on_fill, prefetch,       \
						needs_next, 1, b, next_use);                       \
		return llct_lines_batch(L, state, on_hit, victim, on_fill, prefetch, needs_next,   \
					0, b, next_use);                                           \
	}

#endif

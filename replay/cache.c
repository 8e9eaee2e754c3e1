/* cache.c - one LLC model: tags, fills, write-backs, per-frame counters and the trackers that
 * do not depend on the policy (RT-to-TEX reuse, TEX and Z epochs). Replacement decisions are
 * the policy's; this file never looks inside policy state.
 */
#include "llct/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Per-line metadata byte. */
#define META_OWNER 0x0f /* stream of the line's last access */
#define META_RT 0x10    /* RT mark: written by RT, not yet consumed by a TEX hit */
#define META_EPOCH_SHIFT 5
#define META_EPOCH 0x60 /* 0: none, 1: E0, 2: E1, 3: E>=2 of the owner stream (TEX or Z) */
#define META_DIRTY 0x80

#define INVALID_LINE UINT64_MAX

struct llct_cache {
	const struct llct_policy_ops *ops;
	void *pstate;
	struct llct_cache_geom g;
	unsigned line_shift, set_bits;
	uint32_t set_mask; /* sets - 1 when sets is a power of two, else 0 */
	enum llct_hash hash;
	int ucd;
	uint64_t *tag;      /* per line: line address, INVALID_LINE when empty */
	uint16_t *fp;       /* per line: 16-bit fingerprint of the tag, fp_stride per set, so a
			       lookup compares 8 ways at once and reads a full tag only on a match */
	uint32_t fp_stride; /* ways rounded up to a multiple of 8 */
	uint8_t *meta;      /* per line */
	uint8_t *n_valid;   /* per set: ways [0, n_valid) are valid (lines are never invalidated) */
	struct llct_frame_stats *fs;
	struct llct_frame_stats scratch; /* counts go here before set_frame */
	uint64_t index;                  /* accesses that looked the cache up so far */
	size_t state_bytes;
};

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static unsigned log2u(uint64_t x)
{
	unsigned r = 0;
	while (x >>= 1)
		r++;
	return r;
}

uint32_t llct_cache_sets(const struct llct_cache_config *c)
{
	return (uint32_t)(c->size / ((uint64_t)c->ways * c->line));
}

int llct_cache_config_check(const struct llct_cache_config *c, char *why, size_t why_size)
{
	const char *bad = NULL;
	if (c->ways < 1 || c->ways > LLCT_MAX_WAYS)
		bad = "ways must be 1..64";
	else if (!is_pow2(c->line) || c->line < 16 || c->line > 4096)
		bad = "line size must be a power of two, 16..4096 bytes";
	else if (c->size == 0 || c->size % ((uint64_t)c->ways * c->line))
		bad = "size must be a multiple of ways x line size";
	else if (c->size / ((uint64_t)c->ways * c->line) > (1u << 30))
		bad = "more than 2^30 sets";
	else if (c->banks < 1 || llct_cache_sets(c) % c->banks)
		bad = "banks must divide the number of sets";
	else if (c->sample_period < 1)
		bad = "sample period must be at least 1";
	else if (c->hash == LLCT_HASH_XOR && !is_pow2(llct_cache_sets(c)))
		bad = "the xor hash needs a power-of-two number of sets";
	if (bad && why)
		snprintf(why, why_size, "%s", bad);
	return bad ? LLCT_ERR_INVALID : LLCT_OK;
}

static uint32_t set_of(const struct llct_cache *c, uint64_t line)
{
	if (c->hash == LLCT_HASH_XOR) {
		/* XOR-fold: each set-index bit is the XOR of address bits set_bits apart, the
		 * kind of hash the FGPU paper found on NVIDIA L2s (its Fig. 6). */
		uint64_t h = line;
		for (uint64_t x = line >> c->set_bits; x; x >>= c->set_bits)
			h ^= x;
		return (uint32_t)(h & c->set_mask);
	}
	return c->set_mask ? (uint32_t)(line & c->set_mask) : (uint32_t)(line % c->g.sets);
}

uint32_t llct_cache_set_of(const struct llct_cache_config *cfg, uint64_t line)
{
	struct llct_cache c;
	memset(&c, 0, sizeof(c));
	c.g.sets = llct_cache_sets(cfg);
	c.set_bits = log2u(c.g.sets);
	c.set_mask = is_pow2(c.g.sets) ? c.g.sets - 1 : 0;
	c.hash = cfg->hash;
	if (c.hash == LLCT_HASH_XOR && c.set_bits == 0)
		return 0;
	return set_of(&c, line);
}

int llct_cache_create(const struct llct_cache_config *cfg, const struct llct_policy_ops *policy,
		      struct llct_cache **out)
{
	struct llct_cache *c;
	*out = NULL;
	if (llct_cache_config_check(cfg, NULL, 0))
		return LLCT_ERR_INVALID;
	c = calloc(1, sizeof(*c));
	if (!c)
		return LLCT_ERR_NOMEM;
	c->ops = policy;
	c->g.sets = llct_cache_sets(cfg);
	c->g.ways = cfg->ways;
	c->g.banks = cfg->banks;
	c->g.sample_period = cfg->sample_period;
	c->line_shift = log2u(cfg->line);
	c->set_bits = log2u(c->g.sets);
	c->set_mask = is_pow2(c->g.sets) ? c->g.sets - 1 : 0;
	c->hash = c->set_bits ? cfg->hash : LLCT_HASH_MOD;
	c->ucd = cfg->ucd;
	size_t lines = (size_t)c->g.sets * c->g.ways, psize = policy->state_size(&c->g);
	c->tag = malloc(lines * sizeof(*c->tag));
	c->fp_stride = (c->g.ways + 7) & ~7u;
	c->fp = aligned_alloc(16, (size_t)c->g.sets * c->fp_stride * sizeof(*c->fp));
	c->meta = calloc(lines, 1);
	c->n_valid = calloc(c->g.sets, 1);
	c->pstate = calloc(1, psize);
	if (!c->tag || !c->fp || !c->meta || !c->n_valid || !c->pstate) {
		llct_cache_destroy(c);
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < lines; i++)
		c->tag[i] = INVALID_LINE;
	memset(c->fp, 0, (size_t)c->g.sets * c->fp_stride * sizeof(*c->fp));
	policy->init(c->pstate, &c->g);
	c->fs = &c->scratch;
	c->state_bytes = lines * (sizeof(*c->tag) + 1) + c->g.sets + psize +
			 (size_t)c->g.sets * c->fp_stride * sizeof(*c->fp);
	*out = c;
	return LLCT_OK;
}

void llct_cache_destroy(struct llct_cache *c)
{
	if (!c)
		return;
	free(c->tag);
	free(c->fp);
	free(c->meta);
	free(c->n_valid);
	free(c->pstate);
	free(c);
}

void llct_cache_set_frame(struct llct_cache *c, struct llct_frame_stats *fs)
{
	c->fs = fs ? fs : &c->scratch;
}

const struct llct_policy_ops *llct_cache_policy(const struct llct_cache *c)
{
	return c->ops;
}

size_t llct_cache_state_bytes(const struct llct_cache *c)
{
	return c->state_bytes;
}

/* Epoch tracking of TEX and Z blocks: consecutive accesses by the same stream walk a block
 * through E0, E1, E>=2; an access by any other stream ends the chain. */
static uint8_t track_epoch(struct llct_frame_stats *fs, int stream, int hit, uint8_t meta)
{
	uint64_t *entered, *hits;
	unsigned epoch = (meta & META_EPOCH) >> META_EPOCH_SHIFT;
	if (stream == LLCT_STREAM_TEX) {
		entered = fs->tex_entered;
		hits = fs->tex_hits;
	} else if (stream == LLCT_STREAM_Z) {
		entered = fs->z_entered;
		hits = fs->z_hits;
	} else {
		return 0;
	}
	if (hit && (meta & META_OWNER) == (unsigned)stream && epoch) {
		hits[epoch - 1]++;
		if (epoch < 3) {
			epoch++;
			entered[epoch - 1]++;
		}
	} else {
		entered[0]++;
		epoch = 1;
	}
	return (uint8_t)(epoch << META_EPOCH_SHIFT);
}

static inline uint16_t fingerprint(const struct llct_cache *c, uint64_t line)
{
	uint64_t tag = line >> c->set_bits;
	return (uint16_t)(tag ^ (tag >> 16) ^ (tag >> 32) ^ (tag >> 48));
}

/* The way holding `line` in `set`, or ways if none: fingerprints first, full tags to confirm.
 * Only the n_valid lowest ways are compared. */
static inline uint32_t find_way(const struct llct_cache *c, uint32_t set, uint64_t line,
				const uint64_t *tags)
{
	uint32_t valid = c->n_valid[set];
	const uint16_t *fp = &c->fp[(size_t)set * c->fp_stride];
	uint16_t want = fingerprint(c, line);
#ifdef __SSE2__
	__m128i key = _mm_set1_epi16((short)want);
	for (uint32_t g = 0; g < valid; g += 8) {
		__m128i v = _mm_load_si128((const __m128i *)(fp + g));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(v, key));
		if (valid - g < 8)
			m &= (1u << (2 * (valid - g))) - 1;
		while (m) {
			uint32_t w = g + (uint32_t)__builtin_ctz(m) / 2;
			if (tags[w] == line)
				return w;
			m &= m - 1;
			m &= m - 1; /* both bytes of the 16-bit lane */
		}
	}
#else
	for (uint32_t w = 0; w < valid; w++)
		if (fp[w] == want && tags[w] == line)
			return w;
#endif
	return c->g.ways;
}

static inline __attribute__((always_inline)) int access_one(struct llct_cache *c, uint64_t addr,
							    int stream, int op, uint64_t next_use,
							    uint16_t sm, uint32_t kernel,
							    uint16_t tenant)
{
	struct llct_frame_stats *fs = c->fs;
	struct llct_stream_stats *st = &fs->s[stream];
	if (op)
		st->writes++;
	else
		st->reads++;
	if (c->ucd && stream == LLCT_STREAM_DISP) {
		st->bypasses++;
		return 0;
	}
	uint64_t line = addr >> c->line_shift;
	uint32_t set = set_of(c, line), ways = c->g.ways;
	size_t base = (size_t)set * ways;
	const uint64_t *tags = &c->tag[base];
	struct llct_access a = {.line = line,
				.next_use = next_use,
				.set = set,
				.stream = (uint8_t)stream,
				.op = (uint8_t)op,
				.sm = sm,
				.kernel = kernel,
				.tenant = tenant};
	uint32_t w = find_way(c, set, line, tags);
	c->index++;
	if (w < ways) {
		uint8_t m = c->meta[base + w];
		if (op) {
			st->write_hits++;
			m |= META_DIRTY;
		} else {
			st->read_hits++;
		}
		if (stream == LLCT_STREAM_TEX && (m & META_RT)) {
			fs->rt_consumed++;
			m &= (uint8_t)~META_RT;
		} else if (stream == LLCT_STREAM_RT && !(m & META_RT)) {
			fs->rt_produced++;
			m |= META_RT;
		}
		uint8_t ep = track_epoch(fs, stream, 1, m);
		c->meta[base + w] = (uint8_t)((m & (META_DIRTY | META_RT)) | ep | stream);
		c->ops->on_hit(c->pstate, w, &a);
		return 1;
	}
	if (c->n_valid[set] < ways) {
		w = c->n_valid[set]++;
	} else {
		w = c->ops->victim(c->pstate, &a);
		if (w == LLCT_WAY_BYPASS) {
			st->bypasses++;
			return 0;
		}
		uint8_t old = c->meta[base + w];
		fs->s[old & META_OWNER].evictions++;
		if (old & META_DIRTY)
			fs->s[old & META_OWNER].writebacks++;
	}
	c->tag[base + w] = line;
	c->fp[(size_t)set * c->fp_stride + w] = fingerprint(c, line);
	st->fills++;
	uint8_t m = op ? META_DIRTY : 0;
	if (stream == LLCT_STREAM_RT) {
		fs->rt_produced++;
		m |= META_RT;
	}
	c->meta[base + w] = (uint8_t)(m | track_epoch(fs, stream, 0, 0) | stream);
	c->ops->on_fill(c->pstate, w, &a);
	return 0;
}

int llct_cache_access(struct llct_cache *c, uint64_t addr, int stream, int op, uint64_t next_use)
{
	return access_one(c, addr, stream, op, next_use, 0, 0, 0);
}

uint64_t llct_cache_access_batch(struct llct_cache *c, const struct llct_batch *b,
				 const uint64_t *next_use)
{
	uint64_t hits = 0;
	if (next_use && c->ops->needs_next_use) {
		size_t k = 0;
		for (uint32_t i = 0; i < b->n; i++) {
			int bypass = c->ucd && b->stream[i] == LLCT_STREAM_DISP;
			hits += (uint64_t)access_one(c, b->addr[i], b->stream[i], b->op[i],
						     bypass ? LLCT_NEVER : next_use[k], b->sm[i],
						     b->kernel[i], b->tenant[i]);
			k += !bypass;
		}
	} else {
		for (uint32_t i = 0; i < b->n; i++)
			hits +=
			    (uint64_t)access_one(c, b->addr[i], b->stream[i], b->op[i], LLCT_NEVER,
						 b->sm[i], b->kernel[i], b->tenant[i]);
	}
	return hits;
}

int llct_cache_contains(const struct llct_cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->line_shift;
	uint32_t set = set_of(c, line);
	return find_way(c, set, line, &c->tag[(size_t)set * c->g.ways]) < c->g.ways;
}

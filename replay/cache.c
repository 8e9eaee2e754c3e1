/* cache.c - one LLC model: tags, fills, write-backs, per-frame counters and the trackers that
 * do not depend on the policy (RT-to-TEX reuse, TEX and Z epochs, GDC/PLOB contention), plus
 * the fill restrictions of partitioning, bypass and page coloring. Replacement decisions are
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

/* GDC/PLOB state: the demotion sink policies report to, and the owner of every line. */
struct tracker {
	struct llct_demotions sink; /* first: policies get a pointer to it */
	struct llct_cache *c;
	enum llct_owner_by by;
	uint64_t *owner;  /* per line */
	uint64_t current; /* owner of the access being replayed */
	int failed;       /* out of memory once: counts stop */
};

struct llct_cache {
	const struct llct_policy_ops *ops;
	void *pstate;
	struct llct_cache_geom g;
	struct llct_cache_config cfg;
	unsigned line_shift, set_bits;
	uint32_t set_mask;  /* sets - 1 when sets is a power of two, else 0 */
	uint64_t all_ways;  /* mask of every way */
	uint64_t *tag;      /* per line: line address, INVALID_LINE when empty */
	uint16_t *fp;       /* per line: 16-bit fingerprint of the tag, fp_stride per set, so a
			       lookup compares 8 ways at once and reads a full tag only on a match */
	uint32_t fp_stride; /* ways rounded up to a multiple of 8 */
	uint8_t *meta;      /* per line */
	uint64_t *valid;    /* per set: mask of valid ways */
	struct llct_frame_stats *fs;
	struct llct_frame_stats scratch; /* counts go here before set_frame */
	const struct llct_partition *part;
	struct llct_dynpart *dyn; /* dynamic partitioning: sees every access, owns part */
	struct tracker *trk;
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

/* Set index of a line: modulo, or XOR-fold of slices of set_bits bits (each set-index bit
 * the XOR of address bits set_bits apart, like the hashes of the FGPU paper's Fig. 6). */
static uint32_t set_index(enum llct_hash hash, unsigned set_bits, uint32_t set_mask, uint32_t sets,
			  uint64_t line)
{
	if (hash == LLCT_HASH_XOR && set_bits) {
		uint64_t h = line;
		for (uint64_t x = line >> set_bits; x; x >>= set_bits)
			h ^= x;
		return (uint32_t)(h & set_mask);
	}
	return set_mask ? (uint32_t)(line & set_mask) : (uint32_t)(line % sets);
}

uint32_t llct_cache_set_of(const struct llct_cache_config *cfg, uint64_t line)
{
	uint32_t sets = llct_cache_sets(cfg);
	return set_index(cfg->hash, log2u(sets), is_pow2(sets) ? sets - 1 : 0, sets, line);
}

uint32_t llct_cache_colors(const struct llct_cache_config *c, uint32_t page_size)
{
	uint64_t span = (uint64_t)llct_cache_sets(c) * c->line; /* bytes one way covers */
	if (!is_pow2(page_size) || page_size < c->line || !is_pow2(llct_cache_sets(c)) ||
	    span <= page_size)
		return 0;
	return (uint32_t)(span / page_size);
}

/* Color of a page: the set-index bits above the page offset, after the hash. */
static uint32_t color_of(const struct llct_cache_config *c, uint32_t page_size, uint64_t page)
{
	uint32_t sets = llct_cache_sets(c);
	unsigned line_shift = log2u(c->line), page_shift = log2u(page_size);
	uint64_t line = page << (page_shift - line_shift);
	return set_index(c->hash, log2u(sets), sets - 1, sets, line) >> (page_shift - line_shift);
}

uint64_t llct_color_remap(const struct llct_cache_config *c, const struct llct_partition *p,
			  uint32_t tenant, uint64_t addr)
{
	uint32_t k = tenant < LLCT_MAX_CLASSES ? p->n_colors[tenant] : 0;
	uint32_t n = llct_cache_colors(c, p->page_size);
	if (!k || !n)
		return addr;
	unsigned page_shift = log2u(p->page_size);
	uint64_t vp = addr >> page_shift, pp = (vp / k) * n;
	uint32_t want = p->colors[tenant][vp % k] % n;
	/* Both hashes are linear in the color bits of the page number: fix them up so the
	 * hashed color is the wanted one. (vp / k) * n keeps distinct pages distinct. */
	pp |= (uint64_t)(want ^ color_of(c, p->page_size, pp));
	return pp << page_shift | (addr & (p->page_size - 1));
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
	c->cfg = *cfg;
	c->g.sets = llct_cache_sets(cfg);
	c->g.ways = cfg->ways;
	c->g.banks = cfg->banks;
	c->g.sample_period = cfg->sample_period;
	c->line_shift = log2u(cfg->line);
	c->set_bits = log2u(c->g.sets);
	c->set_mask = is_pow2(c->g.sets) ? c->g.sets - 1 : 0;
	c->all_ways = cfg->ways == 64 ? UINT64_MAX : ((uint64_t)1 << cfg->ways) - 1;
	size_t lines = (size_t)c->g.sets * c->g.ways, psize = policy->state_size(&c->g);
	c->tag = malloc(lines * sizeof(*c->tag));
	c->fp_stride = (c->g.ways + 7) & ~7u;
	c->fp = aligned_alloc(16, (size_t)c->g.sets * c->fp_stride * sizeof(*c->fp));
	c->meta = calloc(lines, 1);
	c->valid = calloc(c->g.sets, sizeof(*c->valid));
	c->pstate = calloc(1, psize);
	if (!c->tag || !c->fp || !c->meta || !c->valid || !c->pstate) {
		llct_cache_destroy(c);
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < lines; i++)
		c->tag[i] = INVALID_LINE;
	memset(c->fp, 0, (size_t)c->g.sets * c->fp_stride * sizeof(*c->fp));
	policy->init(c->pstate, &c->g);
	c->fs = &c->scratch;
	c->state_bytes = lines * (sizeof(*c->tag) + 1) + c->g.sets * sizeof(*c->valid) + psize +
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
	free(c->valid);
	free(c->pstate);
	if (c->trk)
		free(c->trk->owner);
	free(c->trk);
	llct_contention_free(c->scratch.cont);
	free(c);
}

void llct_cache_set_frame(struct llct_cache *c, struct llct_frame_stats *fs)
{
	c->fs = fs ? fs : &c->scratch;
}

void llct_cache_set_partition(struct llct_cache *c, const struct llct_partition *p)
{
	c->part = p;
}

void llct_cache_set_dynpart(struct llct_cache *c, struct llct_dynpart *d)
{
	c->dyn = d;
	c->part = d ? &d->part : NULL;
}

const struct llct_policy_ops *llct_cache_policy(const struct llct_cache *c)
{
	return c->ops;
}

size_t llct_cache_state_bytes(const struct llct_cache *c)
{
	return c->state_bytes;
}

/* ---- contention tracking ---- */

static struct llct_contention *frame_cont(struct tracker *t)
{
	struct llct_frame_stats *fs = t->c->fs;
	if (!fs->cont && !t->failed) {
		fs->cont = llct_contention_create((int)t->by);
		t->failed = !fs->cont;
	}
	return fs->cont;
}

/* Adds gdc demotions (and plob evictions) of `victim`'s line to the current aggressor. */
static void charge(struct tracker *t, uint64_t victim, uint64_t gdc, uint64_t plob)
{
	struct llct_contention *ct = frame_cont(t);
	struct llct_contention_pair *p = ct ? llct_contention_pair(ct, victim, t->current) : NULL;
	if (!p) {
		t->failed = 1;
		return;
	}
	p->gdc += gdc;
	p->plob += plob;
}

static void on_demoted(struct llct_demotions *d, uint32_t set, uint32_t way, uint32_t steps)
{
	struct tracker *t = (struct tracker *)d;
	charge(t, t->owner[(size_t)set * t->c->g.ways + way], steps, 0);
}

int llct_cache_track_contention(struct llct_cache *c, enum llct_owner_by by)
{
	struct tracker *t = calloc(1, sizeof(*t));
	size_t lines = (size_t)c->g.sets * c->g.ways;
	if (!t || !(t->owner = malloc(lines * sizeof(*t->owner)))) {
		free(t);
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < lines; i++)
		t->owner[i] = LLCT_NO_OWNER;
	t->sink.fn = on_demoted;
	t->c = c;
	t->by = by;
	c->trk = t;
	c->state_bytes += lines * sizeof(*t->owner);
	return LLCT_OK;
}

static uint64_t owner_of(enum llct_owner_by by, int stream, uint16_t sm, uint32_t kernel,
			 uint16_t tenant)
{
	switch (by) {
	case LLCT_OWNER_SM:
		return (uint64_t)tenant << 32 | sm;
	case LLCT_OWNER_KERNEL:
		return (uint64_t)tenant << 32 | kernel;
	case LLCT_OWNER_STREAM:
		return (uint64_t)stream;
	default:
		return tenant;
	}
}

/* ---- the access path ---- */

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

/* The way holding `line` in `set`, or ways if none: fingerprints of the valid ways first,
 * full tags to confirm. */
static inline uint32_t find_way(const struct llct_cache *c, uint32_t set, uint64_t line,
				const uint64_t *tags)
{
	uint64_t valid = c->valid[set];
	const uint16_t *fp = &c->fp[(size_t)set * c->fp_stride];
	uint16_t want = fingerprint(c, line);
#ifdef __SSE2__
	__m128i key = _mm_set1_epi16((short)want);
	for (uint32_t g = 0; g < c->g.ways && (valid >> g); g += 8) {
		__m128i v = _mm_load_si128((const __m128i *)(fp + g));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(v, key)) & 0x5555u;
		unsigned vg = (unsigned)(valid >> g) & 0xffu;
		if (vg != 0xffu) { /* spread the 8 valid bits to the even bit of each lane */
			vg = (vg | vg << 4) & 0x0f0fu;
			vg = (vg | vg << 2) & 0x3333u;
			vg = (vg | vg << 1) & 0x5555u;
			m &= vg;
		}
		while (m) {
			uint32_t w = g + (uint32_t)__builtin_ctz(m) / 2;
			if (tags[w] == line)
				return w;
			m &= m - 1;
		}
	}
#else
	for (uint32_t w = 0; w < c->g.ways; w++)
		if ((valid >> w & 1) && fp[w] == want && tags[w] == line)
			return w;
#endif
	return c->g.ways;
}

/* Whether an access bypasses the LLC, and the ways it may fill. */
static inline int restrictions(const struct llct_cache *c, int stream, uint16_t tenant,
			       uint64_t *allowed)
{
	const struct llct_partition *p = c->part;
	*allowed = c->all_ways;
	if (c->cfg.ucd && stream == LLCT_STREAM_DISP)
		return 1;
	if (!p)
		return 0;
	if ((p->bypass_streams >> stream & 1) || (tenant < 64 && (p->bypass_tenants >> tenant & 1)))
		return 1;
	if (p->ways_on) {
		unsigned k = p->ways_by == LLCT_CLASS_STREAM ? (unsigned)stream : tenant;
		*allowed = k < LLCT_MAX_CLASSES ? p->ways_mask[k] & c->all_ways : 0;
	}
	return 0;
}

static inline __attribute__((always_inline)) int access_one(struct llct_cache *c, uint64_t addr,
							    int stream, int op, uint64_t next_use,
							    uint16_t sm, uint32_t kernel,
							    uint16_t tenant)
{
	struct llct_frame_stats *fs = c->fs;
	struct llct_stream_stats *st = &fs->s[stream];
	struct tracker *trk = c->trk;
	uint64_t allowed;
	if (op)
		st->writes++;
	else
		st->reads++;
	if (trk) {
		trk->current = owner_of(trk->by, stream, sm, kernel, tenant);
		struct llct_contention *ct = frame_cont(trk);
		struct llct_contention_owner *o =
		    ct ? llct_contention_owner(ct, trk->current) : NULL;
		if (o) {
			o->accesses++;
			o->misses++; /* taken back on a hit */
		}
	}
	if (c->dyn)
		llct_dynpart_access(
		    c->dyn, c->dyn->plan.by == LLCT_CLASS_STREAM ? (unsigned)stream : tenant, addr);
	if (restrictions(c, stream, tenant, &allowed)) {
		st->bypasses++;
		return 0;
	}
	if (c->part && c->part->colors_on)
		addr = llct_color_remap(&c->cfg, c->part, tenant, addr);
	uint64_t line = addr >> c->line_shift;
	uint32_t set = set_index(c->cfg.hash, c->set_bits, c->set_mask, c->g.sets, line);
	uint32_t ways = c->g.ways;
	size_t base = (size_t)set * ways;
	struct llct_access a = {.line = line,
				.next_use = next_use,
				.set = set,
				.stream = (uint8_t)stream,
				.op = (uint8_t)op,
				.sm = sm,
				.kernel = kernel,
				.tenant = tenant,
				.allowed = allowed,
				.demote = trk ? &trk->sink : NULL};
	uint32_t w = find_way(c, set, line, &c->tag[base]);
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
		if (trk) {
			struct llct_contention *ct = frame_cont(trk);
			struct llct_contention_owner *o =
			    ct ? llct_contention_owner(ct, trk->current) : NULL;
			if (o)
				o->misses--;
			trk->owner[base + w] = trk->current;
		}
		return 1;
	}
	uint64_t empty = ~c->valid[set] & allowed;
	if (empty) {
		w = (uint32_t)__builtin_ctzll(empty);
		c->valid[set] |= (uint64_t)1 << w;
	} else {
		w = allowed ? c->ops->victim(c->pstate, &a) : LLCT_WAY_BYPASS;
		if (w == LLCT_WAY_BYPASS) {
			st->bypasses++;
			return 0;
		}
		uint8_t old = c->meta[base + w];
		fs->s[old & META_OWNER].evictions++;
		if (old & META_DIRTY)
			fs->s[old & META_OWNER].writebacks++;
		if (trk) /* the eviction: one demotion (GDC) and one eviction (PLOB) */
			charge(trk, trk->owner[base + w], 1, 1);
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
	if (trk)
		trk->owner[base + w] = trk->current;
	return 0;
}

int llct_cache_access(struct llct_cache *c, uint64_t addr, int stream, int op, uint64_t next_use)
{
	return access_one(c, addr, stream, op, next_use, 0, 0, 0);
}

int llct_cache_access_rec(struct llct_cache *c, const struct llct_record *r, uint64_t next_use)
{
	return access_one(c, r->addr, r->stream, r->op, next_use, r->sm, r->kernel, r->tenant);
}

uint64_t llct_cache_access_batch(struct llct_cache *c, const struct llct_batch *b,
				 const uint64_t *next_use)
{
	uint64_t hits = 0;
	if (next_use && c->ops->needs_next_use) {
		size_t k = 0;
		for (uint32_t i = 0; i < b->n; i++) {
			int bypass = c->cfg.ucd && b->stream[i] == LLCT_STREAM_DISP;
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
	uint32_t set = set_index(c->cfg.hash, c->set_bits, c->set_mask, c->g.sets, line);
	return find_way(c, set, line, &c->tag[(size_t)set * c->g.ways]) < c->g.ways;
}

int llct_cache_locate(const struct llct_cache *c, uint64_t addr, uint16_t tenant, uint32_t *set,
		      uint32_t *way)
{
	if (c->part && c->part->colors_on)
		addr = llct_color_remap(&c->cfg, c->part, tenant, addr);
	uint64_t line = addr >> c->line_shift;
	*set = set_index(c->cfg.hash, c->set_bits, c->set_mask, c->g.sets, line);
	*way = find_way(c, *set, line, &c->tag[(size_t)*set * c->g.ways]);
	return *way < c->g.ways;
}

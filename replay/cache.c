/* cache.c - one LLC model: tags, fills, write-backs, per-frame counters and the trackers that
 * do not depend on the policy (RT-to-TEX reuse, TEX and Z epochs, GDC/PLOB contention), plus
 * the fill restrictions of partitioning, bypass and page coloring. Replacement decisions are
 * the policy's; this file never looks inside policy state.
 */
#include "engine.h"
#include "lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	struct llct_lines L; /* tags, fingerprints, metadata, valid masks, frame counters */
	const struct llct_policy_ops *ops;
	void *pstate;
	void *arena; /* the line block, tags and policy state, in one allocation */
	struct llct_cache_geom g;
	struct llct_cache_config cfg;
	struct llct_frame_stats scratch; /* counts go here before set_frame */
	const struct llct_partition *part;
	struct llct_dynpart *dyn; /* dynamic partitioning: sees every access, owns part */
	struct tracker *trk;
	struct llct_kstats *ks;             /* --per-kernel: counts by frame, kernel and stream */
	struct llct_flow *fl;               /* --flow: pass-to-pass reads */
	const uint32_t *sig_ids, *sig_vals; /* kernel signatures, by increasing kernel id */
	size_t n_sigs;
	uint64_t *sec_valid, *sec_dirty; /* sectored lines: per line, its sectors' bits */
	unsigned sec_shift, sec_mask;    /* sector of a byte: (addr >> shift) & mask */
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

const char *llct_write_policy_name(enum llct_write_policy w)
{
	return w == LLCT_WRITE_NO_ALLOCATE ? "write-back no-write-allocate"
	       : w == LLCT_WRITE_EVICT     ? "write-evict"
					   : "write-back write-allocate";
}

int llct_cache_config_check(const struct llct_cache_config *c, char *why, size_t why_size)
{
	char buf[200];
	const char *bad = buf;
	uint64_t way_bytes = (uint64_t)c->ways * c->line;
	if (c->ways < 1 || c->ways > LLCT_MAX_WAYS)
		snprintf(buf, sizeof(buf), "ways must be 1..64, not %u", c->ways);
	else if (!is_pow2(c->line) || c->line < 16 || c->line > 4096)
		snprintf(buf, sizeof(buf),
			 "line size must be a power of two, 16..4096 bytes, not %u", c->line);
	else if (c->size == 0 || c->size % way_bytes)
		snprintf(buf, sizeof(buf),
			 "size %llu bytes is not a multiple of ways x line size (%u x %u = %llu "
			 "bytes)",
			 (unsigned long long)c->size, c->ways, c->line,
			 (unsigned long long)way_bytes);
	else if (c->size / way_bytes > (1u << 30))
		snprintf(buf, sizeof(buf), "more than 2^30 sets");
	else if (c->banks < 1 || llct_cache_sets(c) % c->banks)
		snprintf(buf, sizeof(buf),
			 "%llu bytes / (%u ways x %u bytes) is %u sets, which %u banks do not "
			 "divide (banks default to 4; --banks sets them)",
			 (unsigned long long)c->size, c->ways, c->line, llct_cache_sets(c),
			 c->banks);
	else if (c->sample_period < 1)
		snprintf(buf, sizeof(buf), "sample period must be at least 1");
	else if (c->sector && (!is_pow2(c->sector) || c->sector < 16 || c->sector > c->line ||
			       c->line / c->sector > 64))
		snprintf(buf, sizeof(buf),
			 "a sector is a power of two from 16 bytes to the line size, at most 64 a "
			 "line, not %u",
			 c->sector);
	else if ((unsigned)c->write_policy > LLCT_WRITE_EVICT)
		snprintf(buf, sizeof(buf), "unknown write policy %d", (int)c->write_policy);
	else if (c->hash == LLCT_HASH_XOR && !is_pow2(llct_cache_sets(c)))
		snprintf(buf, sizeof(buf),
			 "the xor hash needs a power-of-two number of sets, not %u",
			 llct_cache_sets(c));
	else
		bad = NULL;
	if (bad && why)
		snprintf(why, why_size, "%s", bad);
	return bad ? LLCT_ERR_INVALID : LLCT_OK;
}

uint32_t llct_cache_set_of(const struct llct_cache_config *cfg, uint64_t line)
{
	uint32_t sets = llct_cache_sets(cfg);
	return llct_set_index(cfg->hash == LLCT_HASH_XOR, log2u(sets), is_pow2(sets) ? sets - 1 : 0,
			      sets, line);
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
	return llct_set_index(c->hash == LLCT_HASH_XOR, log2u(sets), sets - 1, sets, line) >>
	       (page_shift - line_shift);
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

uint64_t llct_cache_state_estimate(const struct llct_cache_config *cfg,
				   const struct llct_policy_ops *policy)
{
	if (llct_cache_config_check(cfg, NULL, 0))
		return 0;
	struct llct_cache_geom g = {.sets = llct_cache_sets(cfg),
				    .ways = cfg->ways,
				    .banks = cfg->banks,
				    .sample_period = cfg->sample_period};
	uint64_t lines = (uint64_t)g.sets * g.ways, stride = (g.ways + 15) & ~15u;
	uint64_t blk = (5 * stride + 16 + 63) & ~63u; /* as llct_cache_create lays them out */
	uint64_t bytes = (uint64_t)g.sets * blk + lines * sizeof(uint64_t) + policy->state_size(&g);
	return bytes + (cfg->sector ? 2 * lines * sizeof(uint64_t) : 0);
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
	struct llct_lines *L = &c->L;
	L->sets = c->g.sets;
	L->ways = c->g.ways;
	L->line_shift = log2u(cfg->line);
	L->set_bits = log2u(c->g.sets);
	L->set_mask = is_pow2(c->g.sets) ? c->g.sets - 1 : 0;
	L->xor_hash = cfg->hash == LLCT_HASH_XOR;
	L->ucd = cfg->ucd;
	L->all_ways = cfg->ways == 64 ? UINT64_MAX : ((uint64_t)1 << cfg->ways) - 1;
	size_t lines = (size_t)c->g.sets * c->g.ways, psize = policy->state_size(&c->g);
	L->fp_stride = (c->g.ways + 15) & ~15u;
	L->blk_size = (5 * L->fp_stride + 16 + 63) & ~63u;
	/* narrow to start with (lines.h) where set and fingerprint give the line back */
	L->wide = !is_pow2(c->g.sets);
	size_t blk_bytes = (size_t)c->g.sets * L->blk_size;
	size_t tag_bytes = (lines * sizeof(*L->tag) + 63) & ~(size_t)63;
	c->arena = llct_big_alloc(blk_bytes + tag_bytes + psize);
	if (!c->arena) {
		llct_cache_destroy(c);
		return LLCT_ERR_NOMEM;
	}
	L->blk = c->arena;
	L->tag = (uint64_t *)(L->blk + blk_bytes);
	c->pstate = (uint8_t *)L->tag + tag_bytes;
	/* the tags are left as they come: one is read only for a valid way of a wide cache, and
	 * widening and every fill when wide write it first (lines.h); a narrow cache never
	 * touches their pages */
	memset(L->blk, 0, blk_bytes);
	uint64_t word = policy->word_init ? policy->word_init(&c->g) : 0;
	for (uint32_t set = 0; set < c->g.sets; set++)
		*llct_block_word(L, llct_lines_block(L, set)) = word;
	memset(c->pstate, 0, psize);
	policy->init(c->pstate, &c->g);
	L->fs = &c->scratch;
	c->state_bytes = lines * sizeof(*L->tag) + (size_t)c->g.sets * L->blk_size + psize;
	if (cfg->sector) {
		c->sec_valid = calloc(lines, sizeof(*c->sec_valid));
		c->sec_dirty = calloc(lines, sizeof(*c->sec_dirty));
		if (!c->sec_valid || !c->sec_dirty) {
			llct_cache_destroy(c);
			return LLCT_ERR_NOMEM;
		}
		c->sec_shift = log2u(cfg->sector);
		c->sec_mask = cfg->line / cfg->sector - 1;
		c->state_bytes += 2 * lines * sizeof(uint64_t);
	}
	*out = c;
	return LLCT_OK;
}

void llct_cache_destroy(struct llct_cache *c)
{
	if (!c)
		return;
	free(c->arena);
	free(c->sec_valid);
	free(c->sec_dirty);
	if (c->trk)
		free(c->trk->owner);
	free(c->trk);
	llct_kstats_free(c->ks);
	llct_flow_free(c->fl);
	llct_contention_free(c->scratch.cont);
	free(c);
}

void llct_cache_set_frame(struct llct_cache *c, struct llct_frame_stats *fs)
{
	c->L.fs = fs ? fs : &c->scratch;
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
	struct llct_frame_stats *fs = t->c->L.fs;
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

/* Whether an access bypasses the LLC, and the ways it may fill. */
static inline int restrictions(const struct llct_cache *c, int stream, uint16_t tenant,
			       uint64_t *allowed)
{
	const struct llct_partition *p = c->part;
	*allowed = c->L.all_ways;
	if (c->cfg.ucd && stream == LLCT_STREAM_DISP)
		return 1;
	if (!p)
		return 0;
	if ((p->bypass_streams >> stream & 1) || (tenant < 64 && (p->bypass_tenants >> tenant & 1)))
		return 1;
	if (p->ways_on) {
		unsigned k = p->ways_by == LLCT_CLASS_STREAM ? (unsigned)stream : tenant;
		*allowed = k < LLCT_MAX_CLASSES ? p->ways_mask[k] & c->L.all_ways : 0;
	}
	return 0;
}

/* Counts an access that went to memory without looking the cache up; returns 0 (no hit). */
static int count_bypass(struct llct_cache *c, uint32_t *hist, unsigned so, uint32_t kernel)
{
	if (hist)
		hist[LLCT_EV_BYPASS + so]++;
	else
		llct_event_count(c->L.fs, LLCT_EV_BYPASS + so, 1);
	if (c->ks)
		llct_kstats_count(c->ks, c->L.fs->frame, kernel, LLCT_EV_BYPASS + so);
	return 0;
}

/* A write under no-write-allocate or write-evict: 1 if it goes to memory without touching the
 * cache (a no-write-allocate miss; any write-evict write, which first evicts the line it
 * touches: its eviction and, if dirty, its write-back count against the line's last stream, as
 * a replacement's do). 0: the write looks the cache up as a read would (a no-write-allocate
 * hit). */
static int write_around(struct llct_cache *c, uint64_t line, unsigned so, uint32_t kernel)
{
	struct llct_lines *L = &c->L;
	if (!L->wide && llct_lines_is_wide(L, line))
		llct_lines_widen(L);
	uint32_t set = llct_lines_set(L, line), w = llct_lines_find(L, set, line);
	if (w >= L->ways)
		return 1; /* a miss: nothing filled under either */
	if (c->cfg.write_policy != LLCT_WRITE_EVICT)
		return 0;
	uint8_t *blk = llct_lines_block(L, set), *meta = llct_block_meta(L, blk);
	struct llct_stream_stats *owner = &L->fs->s[meta[w] & LLCT_META_OWNER];
	owner->evictions++;
	owner->writebacks += (meta[w] & LLCT_META_DIRTY) != 0;
	if (c->sec_dirty) {
		size_t at = (size_t)set * L->ways + w;
		uint32_t wb = (uint32_t)__builtin_popcountll(c->sec_dirty[at]);
		owner->writeback_sectors += wb;
		if (c->ks && wb)
			llct_kstats_sectors(c->ks, L->fs->frame, kernel, so, 0, wb);
		c->sec_valid[at] = c->sec_dirty[at] = 0;
	}
	if (c->ks)
		llct_kstats_evicted(c->ks, L->fs->frame, kernel, so & 15, meta[w] & LLCT_META_OWNER,
				    (meta[w] & LLCT_META_DIRTY) != 0);
	*llct_block_valid(L, blk) &= ~((uint64_t)1 << w);
	meta[w] = 0;
	return 1;
}

/* Sectored lines, after the step that hit or filled way w (or bypassed): a fill makes the
 * access's sector the line's only one, with the evicted line's dirty sectors written back; a
 * hit on a sector not there fetches it. Returns 1 for that sector miss (the step counted a
 * hit), else 0. */
static int sector_step(struct llct_cache *c, const struct llct_access *a, uint32_t w, unsigned ev,
		       uint64_t addr, int op, uint32_t *wb)
{
	if (llct_ev_is_bypass(ev))
		return 0;
	size_t at = (size_t)a->set * c->L.ways + w;
	uint64_t bit = (uint64_t)1 << ((addr >> c->sec_shift) & c->sec_mask);
	if (!llct_ev_is_hit(ev)) {
		if (llct_ev_is_evict(ev)) { /* the evicted line's stream: the fill code's bits */
			unsigned owner = (ev - LLCT_EV_FILL) >> 6 & 15;
			*wb = (uint32_t)__builtin_popcountll(c->sec_dirty[at]);
			c->L.fs->s[owner].writeback_sectors += *wb;
		}
		c->sec_valid[at] = bit;
		c->sec_dirty[at] = op ? bit : 0;
		return 0;
	}
	int miss = !(c->sec_valid[at] & bit);
	c->sec_valid[at] |= bit;
	c->sec_dirty[at] |= op ? bit : 0;
	return miss;
}

/* One access through the general path: contention tracking, dynamic partitioning, bypass
 * rules, way masks and page coloring around the shared step, policy hooks called through the
 * ops table. Counts the access into hist (a batch's histogram of event codes), or straight
 * into the frame's counters when hist is NULL. */
static int access_one(struct llct_cache *c, uint32_t *hist, uint64_t addr, int stream, int op,
		      uint64_t next_use, uint16_t sm, uint32_t kernel, uint16_t tenant,
		      uint32_t site)
{
	struct tracker *trk = c->trk;
	struct llct_contention_owner *o = NULL;
	unsigned so = (unsigned)stream | (unsigned)(op != 0) << 4;
	uint64_t allowed;
	if (trk) {
		trk->current = owner_of(trk->by, stream, sm, kernel, tenant);
		struct llct_contention *ct = frame_cont(trk);
		o = ct ? llct_contention_owner(ct, trk->current) : NULL;
		if (o) {
			o->accesses++;
			o->misses++; /* taken back on a hit */
		}
	}
	if (c->dyn)
		llct_dynpart_access(
		    c->dyn, c->dyn->plan.by == LLCT_CLASS_STREAM ? (unsigned)stream : tenant, addr);
	if (restrictions(c, stream, tenant, &allowed))
		return count_bypass(c, hist, so, kernel);
	if (c->part && c->part->colors_on)
		addr = llct_color_remap(&c->cfg, c->part, tenant, addr);
	uint64_t line = addr >> c->L.line_shift;
	if (op && c->cfg.write_policy && write_around(c, line, so, kernel))
		return count_bypass(c, hist, so, kernel);
	uint32_t ksig = kernel;
	if (c->ops->uses_sig && site) /* the instruction that made it, as a CPU policy's PC */
		ksig = llct_site_signature(site);
	else if (c->ops->uses_sig && c->n_sigs) /* the kernel's own signature */
		ksig = llct_kernel_signature_find(c->sig_ids, c->sig_vals, c->n_sigs, kernel);
	struct llct_access a = {.line = line,
				.next_use = next_use,
				.set = llct_lines_set(&c->L, line),
				.stream = (uint8_t)stream,
				.op = (uint8_t)op,
				.sm = sm,
				.kernel = kernel,
				.tenant = tenant,
				.sig =
				    c->ops->uses_sig ? llct_signature((unsigned)stream, ksig) : 0,
				.ways = c->L.ways,
				.allowed = allowed,
				.demote = trk ? &trk->sink : NULL};
	uint32_t w = 0;
	if (c->sec_valid) /* counted one by one: a sector miss is a hit code made a miss */
		hist = NULL;
	unsigned ev = llct_lines_step(&c->L, c->pstate, c->ops->on_hit, c->ops->victim,
				      c->ops->on_fill, &a, &w);
	uint32_t wb = 0; /* dirty sectors written back */
	int smiss = c->sec_valid && sector_step(c, &a, w, ev, addr, op, &wb);
	if (hist)
		hist[ev]++;
	else
		llct_event_count(c->L.fs, ev, 1);
	if (smiss) { /* a sector miss: the step counted a hit */
		struct llct_stream_stats *st = &c->L.fs->s[stream];
		*(op ? &st->write_hits : &st->read_hits) -= 1;
		st->sector_fills++;
	}
	if (c->ks) {
		llct_kstats_count(c->ks, c->L.fs->frame, kernel, ev);
		if (smiss || wb)
			llct_kstats_sectors(c->ks, c->L.fs->frame, kernel, so, smiss, wb);
	}
	if (!trk || llct_ev_is_bypass(ev))
		return llct_ev_is_hit(ev) && !smiss;
	size_t at = (size_t)a.set * c->g.ways + w;
	if (llct_ev_is_hit(ev) && !smiss && o)
		o->misses--;
	if (llct_ev_is_evict(ev)) /* the eviction: one demotion (GDC) and one eviction (PLOB) */
		charge(trk, trk->owner[at], 1, 1);
	trk->owner[at] = trk->current;
	return llct_ev_is_hit(ev) && !smiss;
}

int llct_cache_access(struct llct_cache *c, uint64_t addr, int stream, int op, uint64_t next_use)
{
	return access_one(c, NULL, addr, stream, op, next_use, 0, 0, 0, 0);
}

int llct_cache_access_rec(struct llct_cache *c, const struct llct_record *r, uint64_t next_use)
{
	int hit = access_one(c, NULL, r->addr, r->stream, r->op, next_use, r->sm, r->kernel,
			     r->tenant, r->site);
	if (c->fl)
		llct_flow_access(c->fl, c->L.fs->frame, r->kernel, r->addr >> c->L.line_shift,
				 r->stream, r->op != 0, hit);
	return hit;
}

uint64_t llct_cache_access_batch(struct llct_cache *c, const struct llct_batch *b,
				 const uint64_t *next_use)
{
	if (!c->ops->needs_next_use)
		next_use = NULL;
	if (c->ops->batch && !c->trk && !c->dyn && !c->part && !c->ks && !c->fl &&
	    !c->ops->uses_sig && !c->cfg.write_policy &&
	    !c->cfg.sector) /* a plain model: the fast loop */
		return c->ops->batch(c->pstate, &c->L, b, next_use);
	uint32_t hist[LLCT_EV_N] = {0};
	size_t k = 0;
	for (uint32_t i = 0; i < b->n; i++) {
		int bypass = c->cfg.ucd && b->stream[i] == LLCT_STREAM_DISP;
		uint32_t kernel = b->kernel ? b->kernel[i] : 0;
		int hit =
		    access_one(c, hist, b->addr[i], b->stream[i], b->op[i],
			       next_use && !bypass ? next_use[k] : LLCT_NEVER, b->sm ? b->sm[i] : 0,
			       kernel, b->tenant ? b->tenant[i] : 0, b->site ? b->site[i] : 0);
		if (c->fl)
			llct_flow_access(c->fl, c->L.fs->frame, kernel,
					 b->addr[i] >> c->L.line_shift, b->stream[i], b->op[i] != 0,
					 hit);
		k += !bypass;
	}
	return llct_event_flush(c->L.fs, hist);
}

void llct_cache_access_sampled(struct llct_cache *c, const struct llct_sample_list *l,
			       const uint64_t *next_use, struct llct_frame_stats *const *fs,
			       uint32_t *scratch)
{
	if (!c->ops->needs_next_use)
		next_use = NULL;
	if (c->ops->sampled && !c->trk && !c->dyn && !c->part && !c->cfg.write_policy &&
	    !c->cfg.sector) {
		c->ops->sampled(c->pstate, &c->L, l->e, l->n, l->addr_or, next_use, fs, scratch);
		return;
	}
	struct llct_frame_stats *save = c->L.fs;
	for (uint32_t i = 0; i < l->n; i++) {
		const struct llct_sample_entry *e = &l->e[i];
		c->L.fs = fs[e->st];
		int stream = e->so & 15, bypass = c->cfg.ucd && stream == LLCT_STREAM_DISP;
		access_one(c, NULL, e->addr, stream, e->so >> 4,
			   next_use && !bypass ? next_use[i] : LLCT_NEVER, 0, 0, 0, 0);
	}
	c->L.fs = save;
}

void llct_cache_set_kernel_signatures(struct llct_cache *c, const uint32_t *ids,
				      const uint32_t *sigs, size_t n)
{
	c->sig_ids = ids;
	c->sig_vals = sigs;
	c->n_sigs = ids && sigs ? n : 0;
}

uint32_t llct_kernel_signature_find(const uint32_t *ids, const uint32_t *sigs, size_t n,
				    uint32_t kernel)
{
	size_t lo = 0, hi = n; /* binary search */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ids[mid] < kernel)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ids[lo] == kernel ? sigs[lo] : kernel;
}

uint32_t llct_kernel_signature(const char *kind, const char *name, const char *params)
{
	const char *p = params ? strstr(params, "\"pipeline\":") : NULL, *text = NULL;
	size_t len = 0;
	if (p) { /* the pipeline handle's digits */
		text = p + strlen("\"pipeline\":");
		while (text[len] >= '0' && text[len] <= '9')
			len++;
	}
	if (!len) {
		text = name && *name ? name : kind ? kind : "";
		len = strlen(text);
	}
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)text[i]) * 16777619u;
	return h;
}

int llct_cache_track_kernels(struct llct_cache *c)
{
	if (!c->ks && !(c->ks = llct_kstats_create()))
		return LLCT_ERR_NOMEM;
	return LLCT_OK;
}

int llct_cache_kernel_stats(struct llct_cache *c, struct llct_kernel_stats **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	return c->ks ? llct_kstats_take(c->ks, rows, n) : LLCT_OK;
}

int llct_cache_track_flow(struct llct_cache *c)
{
	if (!c->fl && !(c->fl = llct_flow_create()))
		return LLCT_ERR_NOMEM;
	return LLCT_OK;
}

int llct_cache_flow(struct llct_cache *c, struct llct_flow_row **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	return c->fl ? llct_flow_take(c->fl, rows, n) : LLCT_OK;
}

int llct_cache_contains(const struct llct_cache *c, uint64_t addr)
{
	uint64_t line = addr >> c->L.line_shift;
	return llct_lines_find(&c->L, llct_lines_set(&c->L, line), line) < c->g.ways;
}

int llct_cache_locate(const struct llct_cache *c, uint64_t addr, uint16_t tenant, uint32_t *set,
		      uint32_t *way)
{
	if (c->part && c->part->colors_on)
		addr = llct_color_remap(&c->cfg, c->part, tenant, addr);
	uint64_t line = addr >> c->L.line_shift;
	*set = llct_lines_set(&c->L, line);
	*way = llct_lines_find(&c->L, *set, line);
	return *way < c->g.ways;
}

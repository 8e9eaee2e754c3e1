/* shard.c - set sharding: one model's sets split over threads (engine.h says how), from which
 * models may be split and how many shards each gets, through dealing each batch to the shards,
 * to adding their counts up. */
#include "engine.h"
#include "lines.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Whether model m may be split: its policy keeps to its sets and has the batch loop, and
 * the model is plain (the general path counts through the cache's own frame, and partitions,
 * contention and per-kernel counts read what a shard's entries do not carry); in one pass, the
 * model that holds its sizes' stacks (mrc.c). */
static int can_split(const struct engine *e, const struct llct_replay_options *o, size_t m)
{
	const struct llct_policy_ops *p = o->policies[m];
	const struct llct_cache_config *cc = o->caches ? &o->caches[m] : &o->cache;
	return p->sets_independent && p->batch && !e->models[m].sp &&
	       (!o->one_pass || e->models[m].mrc) && o->sample_sets <= 1 && !o->part &&
	       !o->dyn_plan && !o->contention && !o->per_kernel && !o->flow && !cc->write_policy &&
	       !cc->sector;
}

/* Shards for each model that may be split: the threads beyond one a model, shared among
 * them, at most LLCT_SHARD_MAX and the sets it has. Without --threads (every core), one core
 * is left to reading, decoding and dealing the batches: on two cores a split LRU model took
 * 0.42 s where one took 0.33 (docs/PERFORMANCE.md), the dealing costing more than the second
 * core gave while the first was busy decoding. */
static void count_shards(struct engine *e, const struct llct_replay_options *o, unsigned threads)
{
	size_t n = 0, k = 0, j = 0;
	for (size_t m = 0; m < e->n_models; m++)
		n += !e->models[m].absorbed;
	for (size_t m = 0; m < e->n_models; m++)
		k += (size_t)can_split(e, o, m);
	size_t spare = o->threads ? n : n + 1;
	if (!k || threads <= spare)
		return;
	size_t extra = threads - spare;
	for (size_t m = 0; m < e->n_models; m++) {
		if (!can_split(e, o, m))
			continue;
		const struct llct_cache_config *cc = o->caches ? &o->caches[m] : &o->cache;
		size_t s = 1 + extra / k + (j++ < extra % k);
		if (s > LLCT_SHARD_MAX)
			s = LLCT_SHARD_MAX;
		if (s > llct_cache_sets(cc))
			s = llct_cache_sets(cc);
		e->models[m].n_shards = s > 1 ? (unsigned)s : 0;
	}
}

/* A plan per distinct configuration and shard count; the lists each batch deals into. */
static int make_plans(struct engine *e, const struct llct_replay_options *o, struct window *win)
{
	for (size_t m = 0; m < e->n_models; m++) {
		struct model *md = &e->models[m];
		if (!md->n_shards)
			continue;
		const struct llct_cache_config *cc = o->caches ? &o->caches[m] : &o->cache;
		size_t p = 0;
		while (p < e->n_shp &&
		       (e->shp[p].n != md->n_shards || memcmp(&e->shp[p].cfg, cc, sizeof(*cc))))
			p++;
		if (p == e->n_shp) {
			struct shard_plan *g = realloc(e->shp, (e->n_shp + 1) * sizeof(*g));
			if (!g)
				return LLCT_ERR_NOMEM;
			e->shp = g;
			g[p] =
			    (struct shard_plan){.cfg = *cc, .n = md->n_shards, .first = e->n_shl};
			e->n_shl += md->n_shards;
			e->n_shp++;
		}
		e->shp[p].lookups |= o->policies[m]->needs_next_use;
		md->shp_idx = p;
	}
	for (int k = 0; e->n_shl && k < 2; k++)
		for (int i = 0; i < WINDOW; i++)
			if (!(win[k].shl[i] = calloc(e->n_shl, sizeof(*win[k].shl[i]))))
				return LLCT_ERR_NOMEM;
	return LLCT_OK;
}

/* Shard s of model md: shard 0 is the model's own cache counting into its result's frames;
 * the others get a cache and frames of their own. */
static int make_shard(struct model *md, const struct llct_replay_options *o, size_t m, unsigned s,
		      size_t n_sel)
{
	struct shard *sh = &md->shards[s];
	const struct llct_cache_config *cc = o->caches ? &o->caches[m] : &o->cache;
	int st;
	sh->frame_idx = SIZE_MAX;
	if (o->policies[m]->needs_next_use &&
	    !(sh->next64 = malloc(LLCT_CHUNK_MAX * sizeof(*sh->next64))))
		return LLCT_ERR_NOMEM;
	if (s == 0) {
		sh->cache = md->cache;
		sh->frames = md->res->frames;
		return LLCT_OK;
	}
	if (!(sh->frames = calloc(n_sel ? n_sel : 1, sizeof(*sh->frames))))
		return LLCT_ERR_NOMEM;
	for (size_t f = 0; f < n_sel; f++)
		sh->frames[f].frame = md->res->frames[f].frame;
	if ((st = llct_cache_create(cc, o->policies[m], &sh->cache)))
		return st;
	return LLCT_OK;
}

int llct_engine_setup_shards(struct engine *e, const struct llct_replay_options *o,
			     unsigned *threads, size_t n_sel, struct window *win)
{
	int st;
	count_shards(e, o, *threads);
	if ((st = make_plans(e, o, win)))
		return st;
	size_t n_items = 0;
	for (size_t m = 0; m < e->n_models; m++) {
		struct model *md = &e->models[m];
		n_items += md->absorbed ? 0 : md->n_shards ? md->n_shards : 1;
		if (!md->n_shards)
			continue;
		if (md->mrc) { /* one-pass miss curves: the stacks split (mrc.c) */
			if ((st = llct_mrc_split(md->mrc, md->n_shards)))
				return st;
			continue;
		}
		if (!(md->shards = calloc(md->n_shards, sizeof(*md->shards))))
			return LLCT_ERR_NOMEM;
		for (unsigned s = 0; s < md->n_shards; s++)
			if ((st = make_shard(md, o, m, s, n_sel)))
				return st;
	}
	if (!(e->items = calloc(n_items, sizeof(*e->items))))
		return LLCT_ERR_NOMEM;
	/* the costliest models (those with next uses) first, each model's shards together */
	for (int heavy = 1; heavy >= 0; heavy--)
		for (size_t m = 0; m < e->n_models; m++) {
			if (!!o->policies[m]->needs_next_use != heavy || e->models[m].absorbed)
				continue;
			unsigned ns = e->models[m].n_shards ? e->models[m].n_shards : 1;
			for (unsigned s = 0; s < ns; s++)
				e->items[e->n_items++] = (struct work_item){(uint32_t)m, s};
		}
	if (*threads > e->n_items)
		*threads = (unsigned)e->n_items;
	return LLCT_OK;
}

/* Room for n accesses in a list (and their lookup indices when kept). */
static int reserve(struct shard_list *sl, uint32_t n, int lookups)
{
	if (sl->cap < n) {
		uint64_t *addr = realloc(sl->b.addr, (size_t)n * sizeof(*addr));
		if (addr)
			sl->b.addr = addr;
		uint8_t *stream = realloc(sl->b.stream, n), *op = realloc(sl->b.op, n);
		if (stream)
			sl->b.stream = stream;
		if (op)
			sl->b.op = op;
		if (!addr || !stream || !op)
			return LLCT_ERR_NOMEM;
		sl->cap = n;
	}
	if (lookups && sl->cap_lk < n) {
		uint32_t *x = realloc(sl->lk, (size_t)n * sizeof(*x));
		if (!x)
			return LLCT_ERR_NOMEM;
		sl->lk = x;
		sl->cap_lk = n;
	}
	return LLCT_OK;
}

int llct_shard_deal(const struct engine *e, struct window *w, unsigned i)
{
	const struct llct_batch *b = &w->b[i];
	for (size_t p = 0; p < e->n_shp; p++) {
		const struct shard_plan *sp = &e->shp[p];
		struct shard_list *ls = w->shl[i] + sp->first;
		uint32_t sets = llct_cache_sets(&sp->cfg), mask = 0, n = sp->n;
		unsigned bits = 0, shift = 0; /* the set index as the cache has it (cache.c) */
		while ((1u << shift) < sp->cfg.line)
			shift++;
		while (((uint64_t)2 << bits) <= sets)
			bits++;
		if (((uint64_t)1 << bits) == sets)
			mask = sets - 1;
		int xor_hash = sp->cfg.hash == LLCT_HASH_XOR, ucd = sp->cfg.ucd;
		int plain = mask && !xor_hash; /* the set is the line's low bits */
		/* shard of a set: set x n / sets, so each shard owns a run of neighbouring sets
		 * (set mod n put a shard's sets a power of two apart in memory, where they fought
		 * over the same sets of the CPU's own caches: 64 shards cost 11.9 ns an access
		 * where 2 cost 6.4) */
		uint8_t sid[LLCT_CHUNK_MAX]; /* each access's shard */
		if (plain)                   /* a loop that vectorizes */
			for (uint32_t j = 0; j < b->n; j++)
				sid[j] = (uint8_t)((((b->addr[j] >> shift) & mask) * n) >> bits);
		else
			for (uint32_t j = 0; j < b->n; j++)
				sid[j] =
				    (uint8_t)((uint64_t)llct_set_index(xor_hash, bits, mask, sets,
								       b->addr[j] >> shift) *
					      n / sets);
		/* counted in four tables: one would make each count wait for the one before
		 * (two shards: the same counter time after time) */
		uint32_t count4[4][LLCT_SHARD_MAX] = {{0}}, at[LLCT_SHARD_MAX] = {0};
		uint32_t j = 0, nb = b->n;
		for (; j + 4 <= nb; j += 4) {
			count4[0][sid[j]]++;
			count4[1][sid[j + 1]]++;
			count4[2][sid[j + 2]]++;
			count4[3][sid[j + 3]]++;
		}
		for (; j < nb; j++)
			count4[0][sid[j]]++;
		uint64_t *addr[LLCT_SHARD_MAX];
		uint8_t *stream[LLCT_SHARD_MAX], *op[LLCT_SHARD_MAX];
		uint32_t *lk[LLCT_SHARD_MAX], n_lk[LLCT_SHARD_MAX] = {0};
		for (unsigned s = 0; s < n; s++) {
			uint32_t c = count4[0][s] + count4[1][s] + count4[2][s] + count4[3][s];
			if (reserve(&ls[s], c, sp->lookups))
				return LLCT_ERR_NOMEM;
			addr[s] = ls[s].b.addr;
			stream[s] = ls[s].b.stream;
			op[s] = ls[s].b.op;
			lk[s] = ls[s].lk;
		}
		/* locals, not the lists' fields: a store of a stream byte may alias anything in
		 * memory, so the compiler would reload every field after each one */
		const uint64_t *restrict ba = b->addr;
		const uint8_t *restrict bs = b->stream, *restrict bo = b->op;
		if (sp->lookups) {
			uint32_t lookup = 0;
			for (j = 0; j < nb; j++) {
				unsigned k = sid[j];
				if (!(ucd && bs[j] == LLCT_STREAM_DISP))
					lk[k][n_lk[k]++] = lookup++;
				addr[k][at[k]] = ba[j];
				stream[k][at[k]] = bs[j];
				op[k][at[k]++] = bo[j];
			}
		} else {
			for (j = 0; j < nb; j++) {
				unsigned k = sid[j];
				addr[k][at[k]] = ba[j];
				stream[k][at[k]] = bs[j];
				op[k][at[k]++] = bo[j];
			}
		}
		for (unsigned s = 0; s < n; s++) {
			ls[s].b.n = at[s];
			ls[s].b.frame = b->frame;
			ls[s].n_lk = n_lk[s];
		}
	}
	return LLCT_OK;
}

void llct_shard_run(struct engine *e, const struct window *w, struct model *md, unsigned s)
{
	struct shard *sh = &md->shards[s];
	const struct shard_plan *sp = &e->shp[md->shp_idx];
	double t0 = llct_now_s();
	for (unsigned i = 0; i < w->n; i++) {
		const struct shard_list *sl = &w->shl[i][sp->first + s];
		if (!sl->b.n)
			continue;
		const uint64_t *next = NULL;
		if (sh->next64 && w->next_use[i]) { /* its lookups' next uses, widened */
			const uint32_t *nu = w->next_use[i];
			for (uint32_t j = 0; j < sl->n_lk; j++) {
				uint32_t x = nu[sl->lk[j]];
				sh->next64[j] = x == NU_NONE ? LLCT_NEVER : x;
			}
			next = sh->next64;
		}
		if (sh->frame_idx != w->frame_idx[i]) {
			sh->frame_idx = w->frame_idx[i];
			llct_cache_set_frame(sh->cache, &sh->frames[sh->frame_idx]);
		}
		llct_cache_access_batch(sh->cache, &sl->b, next);
	}
	sh->busy_s += llct_now_s() - t0;
}

/* Adds one frame's counters to another's: every counter of a frame is a uint64_t, from s[]
 * up to cont (stats.h); a split model tracks no contention. */
static void add_frame(struct llct_frame_stats *to, const struct llct_frame_stats *from)
{
	enum {
		AT = offsetof(struct llct_frame_stats, s),
		N = (offsetof(struct llct_frame_stats, cont) - AT) / sizeof(uint64_t)
	};
	_Static_assert((offsetof(struct llct_frame_stats, cont) - AT) % sizeof(uint64_t) == 0,
		       "a frame's counters are uint64_t from s[] to cont");
	uint64_t *a = (uint64_t *)((char *)to + AT);
	const uint64_t *b = (const uint64_t *)((const char *)from + AT);
	for (size_t k = 0; k < N; k++)
		a[k] += b[k];
}

void llct_shards_add_up(struct engine *e)
{
	for (size_t m = 0; m < e->n_models; m++) {
		struct model *md = &e->models[m];
		if (!md->n_shards || md->mrc) /* the stacks add theirs up (mrc.c) */
			continue;
		for (unsigned s = 0; s < md->n_shards; s++) {
			md->res->busy_s += md->shards[s].busy_s;
			for (size_t f = 0; s && f < md->res->n_frames; f++)
				add_frame(&md->res->frames[f], &md->shards[s].frames[f]);
		}
		md->res->set_shards = md->n_shards;
		md->res->peak_state *= md->n_shards;
	}
}

void llct_shards_free(struct engine *e, struct window *win)
{
	for (size_t m = 0; e->models && m < e->n_models; m++) {
		struct model *md = &e->models[m];
		for (unsigned s = 0; md->shards && s < md->n_shards; s++) {
			struct shard *sh = &md->shards[s];
			if (s) {
				llct_cache_destroy(sh->cache);
				free(sh->frames);
			}
			free(sh->next64);
		}
		free(md->shards);
		md->shards = NULL;
	}
	for (int k = 0; win && k < 2; k++)
		for (int i = 0; i < WINDOW; i++) {
			for (size_t l = 0; win[k].shl[i] && l < e->n_shl; l++) {
				struct shard_list *sl = &win[k].shl[i][l];
				free(sl->b.addr);
				free(sl->b.stream);
				free(sl->b.op);
				free(sl->lk);
			}
			free(win[k].shl[i]);
			win[k].shl[i] = NULL;
		}
	free(e->items);
	free(e->shp);
	e->items = NULL;
	e->shp = NULL;
}

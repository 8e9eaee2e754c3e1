/* mrc.c - one-pass LRU miss curves: every LRU model of a replay that share a set count and set
 * index are replayed together through one stack a set (Mattson's stack distances), each size's
 * every counter equal to its own run's (docs/REPLAY.md, "One-pass LRU miss curves"). This file
 * sets the stacks up and counts; the loop over a batch's accesses is mrc_batch.h.
 *
 * A set's stack holds its lines most recent first, as deep as the most ways asked. An LRU cache
 * of W ways holds exactly the top W lines of its set's stack, so an access whose line is at
 * depth p (0: most recent) hits every size of more than p ways and misses every other. What a
 * line carries besides (dirty, the RT mark, its TEX or Z epoch) differs between sizes, but
 * always by a threshold, the first size it holds in (mrc.h). So an access updates one word of
 * metadata whatever the sizes, and its event code in each size (lines.h) follows from the
 * thresholds: the sizes it hits fall into at most four runs of one code, counted at their ends
 * (a difference table added up at each change of frame).
 *
 * Lines stay in their slots; the stack is a row of slot numbers, moved a vector at a time.
 * Evictions: a line at depth d has been pushed down d times since its last access, each push
 * from depth W - 1 an eviction from the W-way size, with the owner and dirt of that access. So a
 * line's evictions are counted as one run of sizes when its time in the stack ends (accessed
 * again at depth p: the sizes of at most p ways; fallen off: every size), and the frame they
 * fall in is settled by a sweep at each change of frame: the evictions that the lines still in
 * the stack have had so far, less those of the sweep before, are the frame's.
 */
#define MRC_BATCH_FN llct_mrc_batch
#include "mrc_batch.h"

#include <stdlib.h>
#include <string.h>

/* Keeps full tags from now on: each line's, rebuilt from its fingerprint (its whole tag while
 * none was wide) and its set, as llct_lines_widen does. */
void llct_mrc_widen(struct llct_mrc *q)
{
	for (uint32_t r = 0; r < q->n_rows; r++)
		for (uint32_t p = 0; p < q->n[r]; p++) {
			uint64_t tg = FP(ORD(q, r, q->stride))[p], low = q->set_lo + r;
			if (q->xor_hash)
				low ^= llct_set_index(1, q->set_bits, q->set_mask, q->sets, tg);
			q->tag[(size_t)r * q->stride + p] = tg << q->set_bits | low;
		}
	q->wide = 1;
}

static void lock(struct llct_mrc *q)
{
	if (q->lock)
		pthread_mutex_lock(q->lock);
}

static void unlock(struct llct_mrc *q)
{
	if (q->lock)
		pthread_mutex_unlock(q->lock);
}

/* The prefix runs of table t (rows of k + 1, COPIES copies of `rows` rows) of row r, added
 * up for size i, the sizes from the top down: call with i = k - 1, k - 2, ..., 0, `run` 0 at
 * first. */
static inline int64_t prefix_runs(const struct llct_mrc *q, const int32_t *t, size_t rows, size_t r,
				  uint32_t i, int64_t *run)
{
	for (unsigned cp = 0; cp < COPIES; cp++)
		*run += t[(cp * rows + r) * (q->k + 1) + i + 1];
	return *run;
}

/* Every size's evictions in the tables by owner o, all and clean: out[i][0..2). */
static void evictions(const struct llct_mrc *q, unsigned o, int64_t (*out)[2])
{
	int64_t all = 0, clean = 0;
	for (uint32_t i = q->k; i-- > 0;) {
		out[i][0] = prefix_runs(q, q->evs, LLCT_N_STREAMS * 2, o * 2, i, &all);
		out[i][1] = prefix_runs(q, q->evs, LLCT_N_STREAMS * 2, o * 2 + 1, i, &clean);
	}
}

/* The lines fallen off the bottom into the eviction runs: every size, clean below the dirty
 * threshold. */
static void fallen_to_runs(struct llct_mrc *q)
{
	uint32_t k = q->k;
	for (unsigned cp = 0; cp < COPIES; cp++)
		for (uint32_t x = 0; x < 2048; x++) {
			int32_t c = q->fallen[cp << 11 | x];
			if (!c)
				continue;
			int32_t *d =
			    &q->evs[(size_t)(cp * LLCT_N_STREAMS + M_OWNER(x)) * 2 * (k + 1)];
			uint32_t a = M_DIRTY(x);
			d[k] += c;
			d[k + 1 + (a < k ? a : k)] += c;
		}
	memset(q->fallen, 0, COPIES * 2048 * sizeof(*q->fallen));
}

static void clear(struct llct_mrc *q)
{
	size_t k1 = q->k + 1;
	memset(q->diff, 0, k1 * LLCT_EV_N * sizeof(*q->diff));
	memset(q->fills, 0, k1 * COPIES * 32 * sizeof(*q->fills));
	memset(q->evs, 0, k1 * COPIES * LLCT_N_STREAMS * 2 * sizeof(*q->evs));
}

/* The counts since the last flush into each size's frame (q->frame); the tables cleared. The
 * caller holds the lock. */
static void flush(struct llct_mrc *q)
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
	for (unsigned so = 0; so < 32; so++) { /* the fills: [so][h][copy] */
		const int32_t *f = &q->fills[(size_t)so * (k + 1) * COPIES];
		int64_t run = 0;
		for (uint32_t i = k; i-- > 0;) {
			for (unsigned cp = 0; cp < COPIES; cp++)
				run += f[(i + 1) * COPIES + cp];
			q->hist[(size_t)i * LLCT_EV_N + LLCT_EV_FILL + so] += (uint32_t)run;
		}
	}
	for (uint32_t i = 0; i < k; i++)
		llct_event_flush(&q->res[i]->frames[q->frame], q->hist + (size_t)i * LLCT_EV_N);
	int64_t ev[LLCT_MRC_MAX][2];
	fallen_to_runs(q);
	for (unsigned o = 0; o < LLCT_N_STREAMS; o++) {
		evictions(q, o, ev);
		for (uint32_t i = 0; i < k; i++) {
			struct llct_stream_stats *st = &q->res[i]->frames[q->frame].s[o];
			st->evictions += (uint64_t)ev[i][0];
			st->writebacks += (uint64_t)(ev[i][0] - ev[i][1]);
		}
	}
	clear(q);
	q->pending = 0;
}

/* The evictions of lines still in the stack since their last access (a line at depth d was
 * evicted by every size of at most d ways), by size, owner and dirt, against the last sweep's:
 * the difference is what the frame since evicted, counted into it. A line's evictions are so
 * counted in the frame they happen, though `evicted` counts them all when its time ends. The
 * caller holds the lock, and has flushed. */
static void sweep(struct llct_mrc *q)
{
	uint32_t k = q->k;
	for (uint32_t r = 0; r < q->n_rows; r++) {
		const uint8_t *ord = ORD(q, r, q->stride);
		const uint32_t *meta = FP(ord) + q->stride;
		for (uint32_t d = q->ways[0]; d < q->n[r]; d++)
			evicted(q, d % COPIES, meta[ord[d]], q->above[d]);
	}
	int64_t ev[LLCT_MRC_MAX][2];
	for (unsigned o = 0; o < LLCT_N_STREAMS; o++) {
		evictions(q, o, ev);
		for (uint32_t i = 0; i < k; i++) {
			int64_t *h = &q->held[((size_t)i * LLCT_N_STREAMS + o) * 2];
			int64_t clean = ev[i][1], dirty = ev[i][0] - ev[i][1];
			struct llct_stream_stats *st = &q->res[i]->frames[q->frame].s[o];
			st->evictions += (uint64_t)(clean + dirty - h[0] - h[1]);
			st->writebacks += (uint64_t)(dirty - h[1]);
			h[0] = clean;
			h[1] = dirty;
		}
	}
	clear(q);
}

/* The frame's counts settled: flushed, and its evictions of lines still held swept. */
static void settle(struct llct_mrc *q)
{
	lock(q);
	flush(q);
	sweep(q);
	unlock(q);
}

void llct_mrc_window(struct llct_mrc *q, const struct window *w, unsigned shard, size_t list)
{
	struct llct_mrc *top = q;
	if (q->part)
		q = q->part[shard];
	double t0 = llct_now_s();
	for (unsigned i = 0; i < w->n; i++) {
		const struct llct_batch *b =
		    list == SIZE_MAX ? &w->b[i] : &w->shl[i][list + shard].b;
		if (q->frame >= 0 && (size_t)q->frame != w->frame_idx[i])
			settle(q);
		q->frame = (int64_t)w->frame_idx[i];
		if (b->n)
			q->batch(q, b);
		/* counts kept as int32_t: flushed well before one can overflow */
		if ((q->pending += b->n) >= (uint64_t)1 << 30) {
			lock(q);
			flush(q);
			unlock(q);
		}
		for (uint32_t k = 0; shard == 0 && k < q->k; k++)
			top->res[k]->accesses += w->b[i].n;
	}
	q->busy_s += llct_now_s() - t0;
}

static void free_one(struct llct_mrc *q)
{
	free(q->rows);
	free(q->tag);
	free(q->n);
	free(q->fills);
	free(q->evs);
	free(q->fallen);
	free(q->held);
	free(q->diff);
	free(q->hist);
	free(q);
}

void llct_mrc_free(struct llct_mrc *q)
{
	if (!q)
		return;
	for (unsigned s = 1; s < q->n_parts; s++)
		if (q->part[s])
			free_one(q->part[s]);
	free(q->part);
	if (q->lock) {
		pthread_mutex_destroy(q->lock);
		free(q->lock);
	}
	free_one(q);
}

/* q's stacks, counting tables and loop for the sets [set_lo, set_lo + n_rows), all empty; its
 * geometry and sizes already set. */
static int make_rows(struct llct_mrc *q)
{
	uint32_t k = q->k;
	q->rows = llct_big_alloc(q->n_rows * ROW(q->stride));
	q->tag = llct_big_alloc((size_t)q->n_rows * q->stride * sizeof(*q->tag));
	q->n = calloc(q->n_rows ? q->n_rows : 1, 1);
	q->diff = calloc((k + 1) * LLCT_EV_N, sizeof(*q->diff));
	q->hist = calloc(k * LLCT_EV_N, sizeof(*q->hist));
	q->fills = calloc((k + 1) * COPIES * 32, sizeof(*q->fills));
	q->evs = calloc((k + 1) * COPIES * LLCT_N_STREAMS * 2, sizeof(*q->evs));
	q->fallen = calloc(COPIES * 2048, sizeof(*q->fallen));
	q->held = calloc(k * LLCT_N_STREAMS * 2, sizeof(*q->held));
	q->frame = -1;
	q->batch = llct_mrc_batch;
#if defined(LLCT_MRC_AVX2) && (defined(__GNUC__) || defined(__clang__))
	const char *no = getenv("LLCT_REPLAY_NO_AVX2"); /* the baseline loop, for the tests */
	if (__builtin_cpu_supports("avx2") && !(no && *no && strcmp(no, "0") != 0))
		q->batch = llct_mrc_batch_avx2;
#endif
	if (!q->rows || !q->tag || !q->n || !q->diff || !q->hist || !q->fills || !q->evs ||
	    !q->fallen || !q->held)
		return LLCT_ERR_NOMEM;
	memset(q->rows, 0, q->n_rows * ROW(q->stride)); /* fingerprints past n are compared */
	for (uint32_t r = 0; r < q->n_rows; r++)        /* every stack empty: a position its slot */
		for (uint32_t i = 0; i < 64; i++)
			ORD(q, r, q->stride)[i] = (uint8_t)i;
	q->wide = !q->set_mask; /* as a cache of that many sets (lines.h) */
	return LLCT_OK;
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
	for (unsigned so = 0; so < 32; so++) { /* a miss's counts and metadata (mrc_batch.h) */
		uint32_t st = so & 15, none = q->k;
		q->fill_all[so] = (so * (q->k + 1) + q->k) * COPIES;
		q->new_meta[so] =
		    M_PACK(st, so >> 4 ? 0 : none, st == LLCT_STREAM_RT ? 0 : none, none, none);
	}
	q->n_rows = q->sets;
	int st = make_rows(q);
	uint64_t bytes = q->sets * (ROW(q->stride) + 1);
	for (size_t i = 0; i < k; i++)
		q->res[i]->peak_state = bytes;
	return st;
}

int llct_mrc_split(struct llct_mrc *q, unsigned n)
{
	if (!(q->part = calloc(n, sizeof(*q->part))) || !(q->lock = malloc(sizeof(*q->lock))))
		return LLCT_ERR_NOMEM;
	if (pthread_mutex_init(q->lock, NULL)) {
		free(q->lock);
		q->lock = NULL;
		return LLCT_ERR_NOMEM;
	}
	q->n_parts = n;
	/* shard s: the sets with set x n / sets == s (shard.c's deal) */
	uint32_t lo[LLCT_SHARD_MAX + 1];
	for (unsigned s = 0; s <= n; s++)
		lo[s] = (uint32_t)(((uint64_t)s * q->sets + n - 1) / n);
	for (unsigned s = 0; s < n; s++) {
		struct llct_mrc *p = q;
		if (s && !(p = q->part[s] = malloc(sizeof(*p))))
			return LLCT_ERR_NOMEM;
		if (s) { /* the geometry and sizes, its own tables */
			*p = *q;
			p->part = NULL;
			p->n_parts = 0;
		} else {
			free(q->rows);
			free(q->tag);
			free(q->n);
			free(q->diff);
			free(q->hist);
			free(q->fills);
			free(q->evs);
			free(q->fallen);
			free(q->held);
		}
		q->part[s] = p;
		p->set_lo = lo[s];
		p->n_rows = lo[s + 1] - lo[s];
		int st = make_rows(p);
		if (st)
			return st;
	}
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
		if (!q)
			continue;
		double busy = 0;
		for (unsigned s = 0; s < (q->n_parts ? q->n_parts : 1); s++) {
			struct llct_mrc *p = q->n_parts ? q->part[s] : q;
			if (p->frame >= 0) /* the last frame's counts */
				settle(p);
			busy += p->busy_s;
		}
		for (uint32_t i = 0; i < q->k; i++) {
			q->res[i]->busy_s = busy;
			q->res[i]->set_shards = q->n_parts;
		}
	}
}

/* raster_batch.c - small draws rasterized together on the rasterizer's threads (raster.h's
 * llct_raster_queue and llct_raster_flush): a draw too small to be worth the lanes on its own
 * (two triangles of a sprite, text, a HUD) is queued with its positions and uses copied and its
 * context set up in order; a flush runs every queued draw on every lane, each lane doing its
 * SMs' share of each draw in turn (its buffers, then its tiles), and the lanes' records are
 * merged by key (the draw's place in the batch, then its buffers' groups, then its triangles'
 * tiles) into exactly the order one thread drawing them one by one makes. */
#include "footprint_int.h"
#include "llct/bigmem.h"
#include "raster_int.h"

#include <stdlib.h>
#include <string.h>

/* A queued draw: its own copy of the draw, its context, the kernel its records carry (the
 * context points at the copy's state and at res). The queue's draws, their contexts and their
 * positions each sit in one large buffer (bigmem.h) made with the queue, their places kept from
 * flush to flush for the next draws: freed, a queue's worth of copies went back to the system at
 * each flush and each page was faulted in again (a fifth of the expansion thread's time on
 * Neverball); allocated apart, every new one grew the heap, a page fault a page on first use. */
struct queued {
	struct llct_draw d;
	struct ctx *c;
	float *pos;            /* d.pos's copy, in the queue's positions */
	struct llct_use *uses; /* d.uses's room, uses_cap of them */
	size_t uses_cap;
	uint32_t kernel;
	uint64_t first;   /* its first primitive's place among the queue's */
	uint32_t n_prims; /* its primitives */
	struct llct_draw_result res;
};

struct raster_queue {
	struct llct_fp *fp;    /* the model the batch's records go to */
	struct llct_pass pass; /* the pass every queued draw is in (their contexts point here) */
	struct queued *v;      /* LLCT_RASTER_QUEUE_MAX places: v[0..made) used once (their
				  uses' rooms kept), v[0..n) queued */
	struct ctx *ctx;       /* their contexts, as many */
	float *pos;            /* their positions, MAX_FLOATS floats: draw i's from floats
				  before it on */
	size_t n, made;
	uint64_t *counts; /* per lane, per draw: covered and passed samples (2 a draw) */
	size_t counts_cap;
	uint64_t queued, batches; /* draws queued, flushes on the lanes, so far */
	uint64_t prims;           /* the queued draws' primitives */
	size_t floats;            /* and their positions' floats */
};

/* The lane that owns SM sm (raster_int.h's lane_of). */
static uint32_t lane_of_sm(const struct ctx *c, uint32_t sm)
{
	return c->lanes & (c->lanes - 1) ? sm % c->lanes : sm & (c->lanes - 1);
}

/* llct_fp_range of [addr, addr + size), or on a lane its SMs' groups of 32 lines, marked. */
static void range(struct ctx *c, uint64_t addr, uint64_t size, int stream, int op, int cached,
		  uint32_t order)
{
	if (c->lanes <= 1) {
		llct_fp_range(c->fp, addr, size, stream, op, cached);
		return;
	}
	uint64_t L = c->line;
	if (!size)
		return;
	uint64_t first = addr / L, last = (addr + size - 1) / L;
	for (uint64_t g = 0; first + 32 * g <= last; g++) {
		uint32_t sm = (uint32_t)(g % c->n_sms);
		if (lane_of_sm(c, sm) != c->lane)
			continue;
		raster_lane_mark(c, c->key_base | (uint64_t)order << 32 | g);
		uint64_t end = first + 32 * g + 31 < last ? first + 32 * g + 31 : last;
		for (uint64_t l = first + 32 * g; l <= end; l++)
			llct_fp_touch(c->fp, l * L, stream, op, sm, cached);
	}
}

void raster_buffers(struct ctx *c, const struct llct_draw *d)
{
	for (uint32_t i = 0; i < d->n_uses; i++) {
		const struct llct_use *u = &d->uses[i];
		struct llct_binding_traffic t = {1, u->stream, u->op == LLCT_OP_READ,
						 u->op == LLCT_OP_WRITE, u->cached};
		if (u->binding >= 0)
			llct_binding_traffic(u->binding, 0, &t);
		if (!t.counted || u->kind == LLCT_USE_IMAGE) /* sampled images go with the pixels */
			continue;
		if (t.reads)
			range(c, u->addr, u->size, t.stream, LLCT_OP_READ, t.cached, 2 * i);
		if (t.writes)
			range(c, u->addr, u->size, t.stream, LLCT_OP_WRITE, t.cached, 2 * i + 1);
	}
}

/* Primitives and uses a queued draw has at most: the keys hold a draw's place in 16 bits, its
 * reads and writes in 15, its triangles in 15 (a primitive clipped or drawn as edges is at most
 * 30). Queued: a draw of fewer than QUEUE_PRIMS, or a mesh the threads take (llct_raster_set_mesh);
 * a draw of more, not a mesh, stays as it was (on one thread, or on the threads alone when its
 * primitives are big): meshes on the threads cost CPU, which two cores shared with the device
 * cannot spare (PERFORMANCE.md). A queue holds at most MAX_FLOATS of positions. */
#define MAX_PRIMS 1024
#define QUEUE_PRIMS 64
#define MAX_USES 16000
#define MAX_FLOATS ((size_t)1 << 22)

/* The queue emptied (its draws' rooms kept). */
static void queue_empty(struct raster_queue *q)
{
	q->prims = 0, q->floats = 0;
	for (size_t i = 0; i < q->n; i++)
		raster_release_maps(q->v[i].c);
	q->n = 0;
}

void llct_raster_queue_counts(const struct llct_raster *r, uint64_t *draws, uint64_t *batches)
{
	*draws = r->q ? r->q->queued : 0;
	*batches = r->q ? r->q->batches : 0;
}

size_t llct_raster_queued(const struct llct_raster *r)
{
	return r->q ? r->q->n : 0;
}

/* Room for n items of size at *p (*cap of them now): 0, or -1 out of memory (*p kept). */
static int room(void **p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return 0;
	size_t c = *cap ? *cap : 64;
	while (c < n)
		c *= 2;
	void *np = realloc(*p, c * size);
	if (!np)
		return -1;
	*p = np, *cap = c;
	return 0;
}

/* d copied into e, its positions to pos (its uses' room grown as needed): 0, or -1 out of
 * memory. */
static int copy_draw(struct queued *e, const struct llct_draw *d, float *pos)
{
	size_t np = (size_t)d->n_vertices * (d->stride >= 4 ? d->stride : 4);
	if (room((void **)&e->uses, &e->uses_cap, d->n_uses, sizeof(*e->uses)))
		return -1;
	e->pos = pos;
	memcpy(e->pos, d->pos, np * sizeof(*e->pos));
	if (d->n_uses)
		memcpy(e->uses, d->uses, d->n_uses * sizeof(*e->uses));
	e->d = *d;
	e->d.pos = e->pos, e->d.uses = e->uses;
	memset(&e->res, 0, sizeof(e->res));
	return 0;
}

/* An empty queue with its places (untouched until used): NULL out of memory. */
static struct raster_queue *queue_create(void)
{
	struct raster_queue *q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->v = llct_big_alloc(LLCT_RASTER_QUEUE_MAX * sizeof(*q->v));
	q->ctx = llct_big_alloc(LLCT_RASTER_QUEUE_MAX * sizeof(*q->ctx));
	q->pos = llct_big_alloc(MAX_FLOATS * sizeof(*q->pos));
	if (!q->v || !q->ctx || !q->pos) {
		raster_queue_destroy(q);
		return NULL;
	}
	return q;
}

int llct_raster_queue(struct llct_raster *r, struct llct_fp *fp, const struct llct_pass *p,
		      const struct llct_draw *d, uint32_t kernel)
{
	uint32_t per = d->st.topology == LLCT_PRIM_TRIANGLES ? 3
		       : d->st.topology == LLCT_PRIM_LINES   ? 2
							     : 1;
	uint32_t prims = d->n_vertices / per;
	size_t floats = (size_t)d->n_vertices * (d->stride >= 4 ? d->stride : 4);
	if (r->threads < 2 || !d->pos || d->st.no_raster || d->n_uses > MAX_USES ||
	    prims >= MAX_PRIMS || (prims >= QUEUE_PRIMS && !(r->mesh && prims >= r->mesh)) ||
	    floats > MAX_FLOATS)
		return 0;
	struct raster_queue *q = r->q;
	if (q && q->n &&
	    (q->fp != fp || q->n == LLCT_RASTER_QUEUE_MAX || q->floats + floats > MAX_FLOATS ||
	     memcmp(p, &q->pass, sizeof(*p))))
		return 0;
	if (!q && !(q = r->q = queue_create()))
		return -1;
	struct queued *e = &q->v[q->n];
	if (q->n == q->made) /* a place not used before: its uses' room is none yet */
		e->uses = NULL, e->uses_cap = 0, q->made++;
	if (copy_draw(e, d, q->pos + q->floats))
		return -1;
	if (!q->n)
		q->fp = fp, q->pass = *p;
	struct ctx *c = e->c = &q->ctx[q->n];
	memset(c, 0, sizeof(*c));
	e->kernel = kernel;
	e->first = q->prims, e->n_prims = prims;
	q->prims += prims, q->floats += floats;
	c->fp = fp;
	c->st = &e->d.st;
	c->res = &e->res;
	c->line = llct_fp_line_size(fp);
	/* in order, as one thread would: unknown depth taken as cleared by the first draw that
	   tests it (which makes it known: no draw queued after clears it again) */
	raster_prepare(c, &q->pass, &e->d);
	q->n++;
	q->queued++;
	r->draws++;
	return 1;
}

/* Draw i's context on lane c (c: the lane's own, from raster_pool_run). */
static void lane_ctx(const struct ctx *c, const struct raster_queue *q, size_t i, struct ctx *lc,
		     struct llct_draw_result *res)
{
	*lc = *q->v[i].c;
	lc->fp = c->fp, lc->res = res;
	lc->lane = c->lane, lc->lanes = c->lanes;
	lc->segs = c->segs, lc->emitted = c->emitted;
	lc->bins = c->bins, lc->bin = NULL, lc->sole = 0;
	lc->key_base = (uint64_t)i << 48, lc->draw_no = (uint32_t)i;
}

/* The lanes' first step: this lane's share of the queue's primitives (a run of them, across
 * draws) set up into its list, each with its draw and the lanes whose tiles it reaches. */
static void batch_setup(struct ctx *c, const void *arg)
{
	const struct raster_queue *q = arg;
	uint64_t first = q->prims * c->lane / c->lanes, end = q->prims * (c->lane + 1) / c->lanes;
	size_t lo = 0, hi = q->n; /* the draw holding `first`: the last that starts at or before */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (q->v[mid].first <= first)
			lo = mid;
		else
			hi = mid;
	}
	struct llct_draw_result none;
	for (size_t i = lo; i < q->n && q->v[i].first < end; i++) {
		const struct queued *e = &q->v[i];
		uint64_t a = first > e->first ? first : e->first;
		uint64_t b = end < e->first + e->n_prims ? end : e->first + e->n_prims;
		if (a >= b)
			continue;
		struct ctx lc;
		lane_ctx(c, q, i, &lc, &none);
		lc.bin = &c->bins[c->lane];
		for (uint64_t k = a; k < b; k++)
			raster_primitive(&lc, &e->d, (uint32_t)(k - e->first));
	}
}

/* Then every lane's: each draw in turn, its buffers' lines of this lane's SMs, then the lists'
 * triangles of the draw that reach this lane's tiles, keyed by their place among the draw's
 * (the lists, read one after another, hold the queue's triangles in order); its counts kept
 * apart. */
static void batch_lane(struct ctx *c, const void *arg)
{
	const struct raster_queue *q = arg;
	uint64_t *counts = q->counts + 2 * q->n * c->lane;
	uint32_t me = 1u << c->lane, l = 0;
	size_t j = 0;
	for (size_t i = 0; i < q->n; i++) {
		struct llct_draw_result res = {0};
		struct ctx lc;
		lane_ctx(c, q, i, &lc, &res);
		llct_fp_set_kernel(c->fp, q->v[i].kernel);
		raster_buffers(&lc, &q->v[i].d);
		for (uint64_t k = 0;; j++, k++) { /* the draw's triangles, from the lists' cursor */
			while (l < c->lanes && j == c->bins[l].n)
				l++, j = 0;
			if (l == c->lanes || c->bins[l].v[j].draw != i)
				break;
			const struct raster_bin *b = &c->bins[l];
			if (b->lanes[j] & me)
				raster_binned_tiles(&lc, &b->v[j],
						    lc.key_base | RASTER_KEY_PRIM | k << 32,
						    b->lanes[j] == me);
		}
		counts[2 * i] = res.covered;
		counts[2 * i + 1] = res.passed;
	}
}

/* The batch on the lanes: 0, -1 when no thread could start or there is no room for the lanes'
 * counts (nothing done: the caller draws them on its own thread, which needs no memory), -2 out
 * of memory on the lanes (records lost). Each draw's counts added up over the lanes. */
static int on_lanes(struct llct_raster *r, struct raster_queue *q)
{
	size_t need = 2 * q->n * RASTER_MAX_LANES;
	if (need > q->counts_cap) {
		uint64_t *nc = realloc(q->counts, need * sizeof(*nc));
		if (!nc)
			return -1;
		q->counts = nc, q->counts_cap = need;
	}
	memset(q->counts, 0, need * sizeof(*q->counts));
	if (!r->pool)
		r->pool = raster_pool_create(r->threads, raster_spin_s(r), r->batch, r->copy_min);
	if (!r->pool)
		return -1;
	struct llct_draw_result sum = {0}; /* raster_pool_run's own sum, not used */
	struct ctx t = *q->v[0].c;         /* what the lanes are made from: the model, the SMs */
	t.res = &sum;
	int rc = raster_pool_run(r->pool, &t, batch_setup, batch_lane, q);
	for (size_t i = 0; rc == 0 && i < q->n; i++)
		for (unsigned k = 0; k < RASTER_MAX_LANES; k++) {
			q->v[i].res.covered += q->counts[2 * q->n * k + 2 * i];
			q->v[i].res.passed += q->counts[2 * q->n * k + 2 * i + 1];
		}
	return rc;
}

int llct_raster_flush(struct llct_raster *r, llct_raster_done_fn done, void *ud)
{
	struct raster_queue *q = r->q;
	if (!q || !q->n)
		return 0;
	uint32_t kernel = llct_fp_kernel(q->fp);
	int rc = on_lanes(r, q);
	q->batches += rc == 0;
	for (size_t i = 0; rc != 0 && i < q->n; i++) { /* one draw after another here */
		struct queued *e = &q->v[i];
		llct_fp_set_kernel(q->fp, e->kernel);
		if (rc == -1) { /* as llct_raster_draw on one thread */
			raster_buffers(e->c, &e->d);
			raster_primitives(e->c, &e->d);
		} else { /* out of memory: tier 1's rectangle, as its row says */
			llct_draw_footprint(q->fp, &q->pass, &e->d, &e->res);
			e->res.fell_back = 1;
		}
	}
	llct_fp_set_kernel(q->fp, kernel);
	for (size_t i = 0; i < q->n; i++)
		if (done)
			done(ud, i, &q->v[i].res);
	queue_empty(q);
	return rc == -2 ? -1 : 0;
}

void raster_queue_destroy(struct raster_queue *q)
{
	if (!q)
		return;
	queue_empty(q);
	for (size_t i = 0; i < q->made; i++)
		free(q->v[i].uses);
	free(q->v);
	free(q->ctx);
	free(q->pos);
	free(q->counts);
	free(q);
}

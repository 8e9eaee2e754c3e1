/* raster_lanes.c - the rasterizer's threads: each lane first sets up a share of a draw's
 * primitives into a list of its own, then, once all are done, every lane rasterizes all the
 * lists' triangles over the screen tiles of the SMs it owns, with its own footprint model over
 * those SMs' render caches (llct_fp_lane_*); the lanes' records are merged back into exactly
 * the order one thread makes them: each lane marks where each (primitive, tile) of its own
 * starts, and the marks of all lanes interleave by that key. */
#include "raster_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct raster_lane {
	struct raster_pool *pool;
	struct llct_fp *fp;
	struct llct_record *recs;
	size_t n, cap;
	struct raster_segs segs;
	struct llct_draw_result res;
	struct ctx c;
	int oom;
};

struct raster_pool {
	unsigned n, started; /* lanes; threads running (lanes 1..started) */
	pthread_t th[RASTER_MAX_LANES];
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint64_t gen;
	unsigned pending;
	int quit;
	void (*setup)(struct ctx *c, const void *arg);
	void (*job)(struct ctx *c, const void *arg);
	const void *arg;
	pthread_barrier_t between; /* every lane's setup done before any lane's job */
	unsigned between_n;        /* the lanes it was made for (0: not made) */
	struct raster_bin bins[RASTER_MAX_LANES];
	struct raster_lane lane[RASTER_MAX_LANES];
};

/* A lane's model hands its records here. */
static int lane_emit(void *ud, const struct llct_record *r, size_t n)
{
	struct raster_lane *l = ud;
	if (l->n + n > l->cap) {
		size_t cap = l->cap ? l->cap : 1u << 14;
		while (cap < l->n + n)
			cap *= 2;
		struct llct_record *p = realloc(l->recs, cap * sizeof(*p));
		if (!p) {
			l->oom = 1;
			return 1;
		}
		l->recs = p, l->cap = cap;
	}
	memcpy(l->recs + l->n, r, n * sizeof(*r));
	l->n += n;
	return 0;
}

int raster_segs_grow(struct raster_segs *g)
{
	size_t cap = g->cap ? 2 * g->cap : 1024;
	struct raster_seg *p = realloc(g->v, cap * sizeof(*p));
	if (!p) {
		g->oom = 1;
		return -1;
	}
	g->v = p, g->cap = cap;
	return 0;
}

static void *worker(void *arg)
{
	LLCT_THREAD_NAME("llct-raster");
	struct raster_lane *l = arg;
	struct raster_pool *p = l->pool;
	uint64_t seen = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->gen == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		seen = p->gen;
		pthread_mutex_unlock(&p->mu);
		p->setup(&l->c, p->arg);
		pthread_barrier_wait(&p->between);
		p->job(&l->c, p->arg);
		pthread_mutex_lock(&p->mu);
		if (!--p->pending)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct raster_pool *raster_pool_create(unsigned n)
{
	struct raster_pool *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->n = n < RASTER_MAX_LANES ? n : RASTER_MAX_LANES;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	for (unsigned k = 0; k < p->n; k++)
		p->lane[k].pool = p;
	return p;
}

void raster_pool_destroy(struct raster_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (unsigned k = 0; k < p->started; k++)
		pthread_join(p->th[k], NULL);
	for (unsigned k = 0; k < p->n; k++) {
		llct_fp_destroy(p->lane[k].fp);
		free(p->lane[k].recs);
		free(p->lane[k].segs.v);
		free(p->bins[k].v);
	}
	if (p->between_n)
		pthread_barrier_destroy(&p->between);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	free(p);
}

/* The lanes' records into c's model, in one thread's order: repeatedly the lane whose next
 * (primitive, tile) comes first gives that tile's records. */
static void merge(struct raster_pool *p, struct llct_fp *fp)
{
	size_t next[RASTER_MAX_LANES] = {0};
	for (;;) {
		unsigned best = p->n;
		for (unsigned k = 0; k < p->n; k++) {
			const struct raster_lane *l = &p->lane[k];
			if (next[k] < l->segs.n &&
			    (best == p->n ||
			     l->segs.v[next[k]].key < p->lane[best].segs.v[next[best]].key))
				best = k;
		}
		if (best == p->n)
			return;
		const struct raster_lane *l = &p->lane[best];
		size_t i = next[best]++;
		size_t end = i + 1 < l->segs.n ? l->segs.v[i + 1].at : l->n;
		llct_fp_put(fp, l->recs + l->segs.v[i].at, end - l->segs.v[i].at);
	}
}

int raster_pool_run(struct raster_pool *p, struct ctx *c,
		    void (*setup)(struct ctx *c, const void *arg),
		    void (*job)(struct ctx *c, const void *arg), const void *arg)
{
	while (p->started + 1 < p->n) { /* threads start with the first draw that wants them */
		if (pthread_create(&p->th[p->started], NULL, worker, &p->lane[p->started + 1]))
			break;
		p->started++;
	}
	unsigned n = p->started + 1;
	if (n < 2)
		return -1;
	if (p->between_n != n) {
		if (p->between_n)
			pthread_barrier_destroy(&p->between);
		p->between_n = 0;
		if (pthread_barrier_init(&p->between, NULL, n))
			return -1;
		p->between_n = n;
	}
	for (unsigned k = 0; k < n; k++) {
		struct raster_lane *l = &p->lane[k];
		if (!l->fp && llct_fp_lane_create(c->fp, lane_emit, l, &l->fp))
			return -1;
	}
	for (unsigned k = 0; k < n; k++) {
		struct raster_lane *l = &p->lane[k];
		llct_fp_lane_begin(l->fp, c->fp);
		l->n = l->segs.n = 0;
		l->oom = l->segs.oom = 0;
		memset(&l->res, 0, sizeof(l->res));
		l->c = *c;
		l->c.fp = l->fp;
		l->c.res = &l->res;
		l->c.lane = k;
		l->c.lanes = n;
		l->c.segs = &l->segs;
		l->c.emitted = llct_fp_emitted_at(l->fp);
		l->c.bins = p->bins;
		p->bins[k].n = 0;
		p->bins[k].oom = 0;
	}
	p->n = n;
	pthread_mutex_lock(&p->mu);
	p->setup = setup;
	p->job = job;
	p->arg = arg;
	p->pending = n - 1;
	p->gen++;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	setup(&p->lane[0].c, arg);
	pthread_barrier_wait(&p->between);
	job(&p->lane[0].c, arg);
	pthread_mutex_lock(&p->mu);
	while (p->pending)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
	int oom = 0;
	for (unsigned k = 0; k < n; k++) {
		struct raster_lane *l = &p->lane[k];
		llct_fp_lane_end(l->fp, c->fp);
		oom |= l->oom | l->segs.oom | p->bins[k].oom;
		c->res->covered += l->res.covered;
		c->res->passed += l->res.passed;
	}
	if (!oom)
		merge(p, c->fp);
	return oom ? -2 : 0;
}

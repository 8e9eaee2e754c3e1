/* raster_lanes.c - the rasterizer's threads: each lane first sets up a share of a draw's
 * primitives into a list of its own, then, once all are done, every lane rasterizes the
 * lists' triangles that reach the screen tiles of the SMs it owns, over those tiles, with its own
 * footprint model over those SMs' render caches (llct_fp_lane_*); the lanes' records are merged
 * back into exactly the order one thread makes them: each lane marks where each (primitive, tile)
 * of its own starts, and the marks of all lanes interleave by that key. */
#include "footprint_int.h"
#include "llct/bigmem.h"
#include "llct/llct.h"
#include "raster_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct raster_lane {
	_Alignas(128) struct raster_pool *pool; /* a lane's lines its own (no false sharing) */
	struct llct_fp *fp;
	struct llct_record *recs;
	size_t n, cap;
	struct raster_segs segs;
	struct llct_draw_result res;
	struct ctx c;
	int oom;
};

/* Lanes a thread: the screen's SMs are dealt out to more lanes than threads, so a thread that
 * starts late (two cores shared with the program's own threads) finds fewer left. */
#define LANES_A_THREAD 2

struct raster_pool {
	unsigned threads;    /* the caller's and threads - 1 of the pool's */
	unsigned n, started; /* lanes of the run; the pool's threads running */
	pthread_t th[RASTER_MAX_LANES];
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	uint64_t gen; /* runs so far (under mu) */
	int quit;     /* under mu, and quit_a for threads that spin */
	/* A thread that finds nothing to do spins up to spin seconds for it before it sleeps
	 * (0: never; raster_spin_s): a draw a few microseconds after the last costs no wake-up,
	 * which is a system call and, in a virtual machine, an interrupt to another core. */
	double spin;
	int batch;              /* threads under SCHED_BATCH (llct_thread_batch) */
	_Atomic uint64_t gen_a; /* gen, for threads that spin */
	_Atomic int quit_a;
	unsigned sleepers; /* workers asleep on go (under mu): the only ones a run wakes */
	void (*setup)(struct ctx *c, const void *arg);
	void (*job)(struct ctx *c, const void *arg);
	const void *arg;
	/* A run's lanes are claimed one at a time, set up, then (once all are set up) claimed
	 * again and rasterized, by whichever threads are running: gen << 16 | lanes << 8 | the
	 * next lane; a thread that wakes after its run is over claims nothing. The caller
	 * waits only for the lanes to be done, never for a thread to wake. */
	_Atomic uint64_t claim_setup, claim_job;
	_Atomic unsigned setup_done, job_done; /* lanes of the run done with each */
	/* CPU since last taken: the pool's threads' runs (which the caller's own clock does not
	 * see; their wakes too) and the runs' lanes on every thread, the caller's included (its
	 * wait for the last lane too), in nanoseconds (added without the mutex, which a thread
	 * would otherwise take as the caller wants it back); and the pool's threads' spinning
	 * between runs (under mu, in seconds). A pool's thread reads its CPU clock (a system call)
	 * only as it goes to sleep, not around each run: its runs and spins since are counted
	 * then (its spins by the monotonic clock, at most that CPU), so a run or a spin still going
	 * is counted by a later take. */
	_Atomic uint64_t workers_ns, lanes_ns;
	double spin_cpu;
	/* The merge's plan when the lanes copy it (merge_on_lanes): the lanes' record runs in one
	 * thread's order, each with its place among the run's records, and the copy run's part of
	 * them: records [copy_lo, copy_lo + copy_n) into copy_to. */
	struct piece {
		const struct llct_record *from;
		size_t at, n;
	} * pieces;
	size_t n_pieces, cap_pieces;
	struct llct_record *copy_to;
	size_t copy_lo, copy_n;
	/* the least records a copy run takes (0: none; llct_raster_set_copy_min) */
	size_t copy_min;
	struct raster_bin bins[RASTER_MAX_LANES];
	struct raster_lane lane[RASTER_MAX_LANES];
};

/* Room for n more of a lane's records; 0, or 1 (and oom) when there is none. */
static int lane_room(struct raster_lane *l, size_t n)
{
	if (l->n + n <= l->cap)
		return 0;
	size_t cap = l->cap ? l->cap : 1u << 14;
	while (cap < l->n + n)
		cap *= 2;
	struct llct_record *p = llct_big_grow(l->recs, l->n * sizeof(*p), cap * sizeof(*p));
	if (!p) {
		l->oom = 1;
		return 1;
	}
	l->recs = p, l->cap = cap;
	return 0;
}

/* A lane's model writes its records in place at the end of the lane's (its sink), or, when
 * it has no room, hands them here. */
static int lane_emit(void *ud, const struct llct_record *r, size_t n)
{
	struct raster_lane *l = ud;
	if (lane_room(l, n))
		return 1;
	memcpy(l->recs + l->n, r, n * sizeof(*r));
	l->n += n;
	return 0;
}

static struct llct_record *lane_reserve(void *ud, size_t *room)
{
	struct raster_lane *l = ud;
	*room = 0;
	if (lane_room(l, 4096))
		return NULL;
	*room = l->cap - l->n;
	return l->recs + l->n;
}

static int lane_commit(void *ud, size_t n)
{
	struct raster_lane *l = ud;
	l->n += n;
	return 0;
}

int raster_segs_grow(struct raster_segs *g)
{
	size_t cap = g->cap ? 2 * g->cap : 1024;
	struct raster_seg *p = llct_big_grow(g->v, g->n * sizeof(*p), cap * sizeof(*p));
	if (!p) {
		g->oom = 1;
		return -1;
	}
	g->v = p, g->cap = cap;
	return 0;
}

/* The next lane of run gen to claim from *w, or -1 when none is left (or the run is over). */
static int claim(_Atomic uint64_t *w, uint64_t gen)
{
	uint64_t v = atomic_load(w);
	do {
		if (v >> 16 != gen || (v & 0xff) >= (v >> 8 & 0xff))
			return -1;
	} while (!atomic_compare_exchange_weak(w, &v, v + 1));
	return (int)(v & 0xff);
}

/* Spins up to p->spin seconds until *v reaches n (v: NULL, never) or run gen is no longer
 * the latest (a run after gen was posted, or the pool ends): 1 when one of them came, 0 when
 * the time ran out (or there is none to spend); *took (NULL: not wanted) gets the seconds
 * spun, by the monotonic clock. */
static int spin(const struct raster_pool *p, _Atomic unsigned *v, unsigned n, uint64_t gen,
		double *took)
{
	double t0 = p->spin > 0 ? llct_mono_s() : 0, end = t0 + p->spin;
	for (unsigned k = 1; t0 > 0; k++) {
		int came = (v && atomic_load(v) >= n) || atomic_load(&p->gen_a) != gen ||
			   atomic_load(&p->quit_a);
		if (came || (!(k & 255) && llct_mono_s() > end)) {
			if (took)
				*took = llct_mono_s() - t0;
			return came;
		}
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause(); /* the other thread of a core gets on meanwhile */
#endif
	}
	return 0;
}

/* Waits until *v reaches n (lanes of run gen done with a step) or the run is over: a spin,
 * then asleep on done. */
static void wait_count(struct raster_pool *p, _Atomic unsigned *v, unsigned n, uint64_t gen)
{
	if (spin(p, v, n, gen, NULL))
		return;
	pthread_mutex_lock(&p->mu);
	while (p->gen == gen && atomic_load(v) < n)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

/* A lane of the run (n lanes) done with a step: the last one wakes whoever waits for it, once
 * the mutex is let go (a thread woken while it is held would sleep again on it). */
static void count_one(struct raster_pool *p, _Atomic unsigned *v, unsigned n)
{
	if (atomic_fetch_add(v, 1) + 1 == n) {
		pthread_mutex_lock(&p->mu); /* a waiter is in its wait or sees n: none is missed */
		pthread_mutex_unlock(&p->mu);
		pthread_cond_broadcast(&p->done);
	}
}

/* A thread's part of run gen: lanes claimed and set up; once every lane is set up, lanes
 * claimed and rasterized; the caller (not a worker) then waits for the last lane. The caller's
 * CPU time counted (a worker's as it goes to sleep). A thread that comes to a run already over
 * does nothing. */
static void run_lanes(struct raster_pool *p, uint64_t gen, int worker)
{
	double t0 = worker ? 0 : llct_thread_cpu_s();
	uint64_t w = atomic_load(&p->claim_setup);
	unsigned n = (unsigned)(w >> 8 & 0xff); /* the run's lanes, read with its number */
	int k;
	while (w >> 16 == gen && (k = claim(&p->claim_setup, gen)) >= 0) {
		p->setup(&p->lane[k].c, p->arg);
		count_one(p, &p->setup_done, n);
	}
	if (w >> 16 == gen) {
		wait_count(p, &p->setup_done, n, gen); /* lanes another thread sets up */
		while ((k = claim(&p->claim_job, gen)) >= 0) {
			p->job(&p->lane[k].c, p->arg);
			count_one(p, &p->job_done, n);
		}
		if (!worker) /* lanes a thread still works on */
			wait_count(p, &p->job_done, n, gen);
	}
	if (!worker)
		atomic_fetch_add(&p->lanes_ns, (uint64_t)((llct_thread_cpu_s() - t0) * 1e9 + 0.5));
}

/* A pool's thread about to sleep (p->mu not held): its CPU since *cpu0 counted, spun seconds of
 * it (at most all) as spinning, the rest as its runs'. */
static void count_idle(struct raster_pool *p, double *cpu0, double *spun)
{
	double cpu = llct_thread_cpu_s(), t = cpu - *cpu0, s = *spun < t ? *spun : t;
	uint64_t ns = (uint64_t)((t - s) * 1e9 + 0.5);
	atomic_fetch_add(&p->lanes_ns, ns);
	atomic_fetch_add(&p->workers_ns, ns);
	pthread_mutex_lock(&p->mu);
	p->spin_cpu += s;
	pthread_mutex_unlock(&p->mu);
	*cpu0 = cpu, *spun = 0;
}

double raster_pool_take_cpu(struct raster_pool *p, double *lanes, double *spin)
{
	pthread_mutex_lock(&p->mu);
	double w = atomic_exchange(&p->workers_ns, 0) * 1e-9 + p->spin_cpu;
	*lanes += atomic_exchange(&p->lanes_ns, 0) * 1e-9;
	*spin += p->spin_cpu;
	p->spin_cpu = 0;
	pthread_mutex_unlock(&p->mu);
	return w;
}

static void *worker(void *arg)
{
	LLCT_THREAD_NAME("llct-raster");
	struct raster_pool *p = arg;
	uint64_t seen = 0;
	if (p->batch)
		(void)llct_thread_batch();
	double cpu0 = llct_thread_cpu_s(), spun = 0;
	for (;;) {
		/* the next run looked for, spinning a while, then (its CPU counted) asleep */
		double took = 0;
		int came = spin(p, NULL, 0, seen, &took);
		spun += took;
		if (!came)
			count_idle(p, &cpu0, &spun);
		pthread_mutex_lock(&p->mu);
		p->sleepers += !came;
		while (!came && p->gen == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		p->sleepers -= !came;
		if (p->quit)
			break;
		seen = p->gen;
		/* a run wakes one thread, and each thread that finds two lanes or more unclaimed
		   wakes the next: the caller pays for one wake-up, not all (PERFORMANCE.md,
		   "Wake-ups off the expansion's thread") */
		uint64_t v = atomic_load(&p->claim_job);
		int wake = p->sleepers && v >> 16 == seen && (v & 0xff) + 1 < (v >> 8 & 0xff);
		pthread_mutex_unlock(&p->mu);
		if (wake)
			pthread_cond_signal(&p->go);
		run_lanes(p, seen, 1);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct raster_pool *raster_pool_create(unsigned n, double spin_s, int batch, size_t copy_min)
{
	struct raster_pool *p = aligned_alloc(_Alignof(struct raster_pool), sizeof(*p));
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->threads = n < RASTER_MAX_LANES ? n : RASTER_MAX_LANES;
	p->spin = spin_s;
	p->batch = batch;
	p->copy_min = copy_min;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	for (unsigned k = 0; k < RASTER_MAX_LANES; k++)
		p->lane[k].pool = p;
	return p;
}

void raster_pool_destroy(struct raster_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	atomic_store(&p->quit_a, 1);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (unsigned k = 0; k < p->started; k++)
		pthread_join(p->th[k], NULL);
	for (unsigned k = 0; k < RASTER_MAX_LANES; k++) {
		llct_fp_destroy(p->lane[k].fp);
		free(p->lane[k].recs);
		free(p->lane[k].segs.v);
		free(p->bins[k].v);
		free(p->bins[k].lanes);
	}
	free(p->pieces);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	free(p);
}

/* The lanes' records in one thread's order, a run at a time to put(p, fp, from, n): repeatedly
 * the lane whose next (primitive, tile) comes first gives its tiles' records up to the next that
 * another lane's next comes before (keys are a lane's alone, and in order within it), in one
 * piece: a lane's tiles in a row are its records in a row. 0, or -1 when put fails. */
static int merge(struct raster_pool *p, struct llct_fp *fp,
		 int (*put)(struct raster_pool *p, struct llct_fp *fp,
			    const struct llct_record *from, size_t n))
{
	size_t next[RASTER_MAX_LANES] = {0};
	for (;;) {
		unsigned best = p->n;
		uint64_t first = UINT64_MAX, second = UINT64_MAX; /* the two least next keys */
		for (unsigned k = 0; k < p->n; k++) {
			const struct raster_lane *l = &p->lane[k];
			if (next[k] == l->segs.n)
				continue;
			uint64_t key = l->segs.v[next[k]].key;
			if (best == p->n || key < first)
				second = first, first = key, best = k;
			else if (key < second)
				second = key;
		}
		if (best == p->n)
			return 0;
		const struct raster_lane *l = &p->lane[best];
		size_t i = next[best], j = i + 1;
		while (j < l->segs.n && l->segs.v[j].key < second)
			j++;
		next[best] = j;
		size_t end = j < l->segs.n ? l->segs.v[j].at : l->n;
		if (put(p, fp, l->recs + l->segs.v[i].at, end - l->segs.v[i].at))
			return -1;
	}
}

/* merge's put: the run copied into the model now. */
static int put_now(struct raster_pool *p, struct llct_fp *fp, const struct llct_record *from,
		   size_t n)
{
	(void)p;
	llct_fp_put(fp, from, n);
	return 0;
}

/* merge's put: the run added to the plan. */
static int put_plan(struct raster_pool *p, struct llct_fp *fp, const struct llct_record *from,
		    size_t n)
{
	(void)fp;
	if (!n)
		return 0;
	if (p->n_pieces == p->cap_pieces) {
		size_t cap = p->cap_pieces ? 2 * p->cap_pieces : 1024;
		struct piece *v = realloc(p->pieces, cap * sizeof(*v));
		if (!v)
			return -1;
		p->pieces = v, p->cap_pieces = cap;
	}
	size_t at = p->n_pieces ? p->pieces[p->n_pieces - 1].at + p->pieces[p->n_pieces - 1].n : 0;
	p->pieces[p->n_pieces++] = (struct piece){from, at, n};
	return 0;
}

/* The plan's records [lo, hi) copied to `to` (record lo's place). */
static void copy_plan(const struct raster_pool *p, size_t lo, size_t hi, struct llct_record *to)
{
	size_t a = 0, b = p->n_pieces; /* the piece holding record lo: the last with at <= lo */
	while (b - a > 1) {
		size_t m = (a + b) / 2;
		if (p->pieces[m].at <= lo)
			a = m;
		else
			b = m;
	}
	for (size_t i = a, at = lo; at < hi; i++) {
		const struct piece *e = &p->pieces[i];
		size_t off = at - e->at, n = e->n - off < hi - at ? e->n - off : hi - at;
		memcpy(to + (at - lo), e->from + off, n * sizeof(*to));
		at += n;
	}
}

static void copy_setup(struct ctx *c, const void *arg)
{
	(void)c, (void)arg;
}

/* A lane's share of the copy run: its slice of the part, by record count. */
static void copy_job(struct ctx *c, const void *arg)
{
	const struct raster_pool *p = arg;
	size_t n = p->copy_n, k = (size_t)c->lane, lanes = p->n;
	size_t lo = n * k / lanes, hi = n * (k + 1) / lanes;
	copy_plan(p, p->copy_lo + lo, p->copy_lo + hi, p->copy_to + lo);
}

static void post_run(struct raster_pool *p, unsigned n,
		     void (*setup)(struct ctx *c, const void *arg),
		     void (*job)(struct ctx *c, const void *arg), const void *arg);

/* The lanes' records into fp in one thread's order (merge's), copied by the lanes: the plan
 * made, then the model's room filled by a copy run over the lanes, room by room (a small room,
 * or what is left of the plan when small, on the caller's thread). -1 when the plan cannot be
 * made (nothing was copied). */
static int merge_on_lanes(struct raster_pool *p, struct llct_fp *fp)
{
	p->n_pieces = 0;
	if (merge(p, fp, put_plan))
		return -1;
	size_t total =
	    p->n_pieces ? p->pieces[p->n_pieces - 1].at + p->pieces[p->n_pieces - 1].n : 0;
	for (size_t done = 0; done < total;) {
		size_t room;
		struct llct_record *to = llct_fp_room(fp, &room);
		size_t n = total - done < room ? total - done : room;
		p->copy_to = to, p->copy_lo = done, p->copy_n = n;
		if (n >= p->copy_min)
			post_run(p, p->n, copy_setup, copy_job, p);
		else
			copy_plan(p, done, done + n, p->copy_to);
		llct_fp_filled(fp, n);
		done += n;
	}
	return 0;
}

int raster_pool_run(struct raster_pool *p, struct ctx *c,
		    void (*setup)(struct ctx *c, const void *arg),
		    void (*job)(struct ctx *c, const void *arg), const void *arg)
{
	while (p->started + 1 < p->threads) { /* started with the first draw that wants them */
		if (pthread_create(&p->th[p->started], NULL, worker, p)) {
			p->threads = p->started + 1; /* not tried again */
			break;
		}
		p->started++;
	}
	unsigned threads = p->started + 1;
	if (threads < 2)
		return -1;
	/* lanes: LANES_A_THREAD a thread, no more than the SMs they split */
	unsigned n = threads * LANES_A_THREAD;
	n = n < RASTER_MAX_LANES ? n : RASTER_MAX_LANES;
	n = n < c->n_sms ? n : c->n_sms > 2 ? c->n_sms : 2;
	for (unsigned k = 0; k < n; k++) {
		struct raster_lane *l = &p->lane[k];
		if (!l->fp) {
			if (llct_fp_lane_create(c->fp, lane_emit, l, &l->fp))
				return -1;
			llct_fp_set_sink(l->fp, lane_reserve, lane_commit);
		}
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
	post_run(p, n, setup, job, arg);
	int oom = 0;
	for (unsigned k = 0; k < n; k++) {
		struct raster_lane *l = &p->lane[k];
		llct_fp_lane_end(l->fp, c->fp);
		oom |= l->oom | l->segs.oom | p->bins[k].oom;
		c->res->covered += l->res.covered;
		c->res->passed += l->res.passed;
	}
	if (!oom) {
		size_t total = 0;
		for (unsigned k = 0; k < n; k++)
			total += p->lane[k].n;
		if (!p->copy_min || total < p->copy_min || merge_on_lanes(p, c->fp))
			merge(p, c->fp, put_now);
	}
	return oom ? -2 : 0;
}

/* A run of n lanes posted (setup on every lane, then job on every lane) and taken part in by
 * the caller until its last lane is done. */
static void post_run(struct raster_pool *p, unsigned n,
		     void (*setup)(struct ctx *c, const void *arg),
		     void (*job)(struct ctx *c, const void *arg), const void *arg)
{
	pthread_mutex_lock(&p->mu);
	uint64_t gen = ++p->gen;
	p->n = n;
	p->setup = setup;
	p->job = job;
	p->arg = arg;
	atomic_store(&p->setup_done, 0);
	atomic_store(&p->job_done, 0);
	atomic_store(&p->claim_setup, gen << 16 | (uint64_t)n << 8);
	atomic_store(&p->claim_job, gen << 16 | (uint64_t)n << 8);
	atomic_store(&p->gen_a, gen); /* the threads spinning take it from here */
	int wake = p->sleepers > 0;   /* one: it wakes the next (worker()) */
	pthread_mutex_unlock(&p->mu);
	if (wake)
		pthread_cond_signal(&p->go);
	run_lanes(p, gen, 0);
}

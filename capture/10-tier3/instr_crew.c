/* instr_crew.c - the expansion's threads (instr_crew.h): made once, at the first draw that
 * wants them, and kept to device end, so a frame's hundreds of draws each post a round instead
 * of starting and joining threads. Jobs are taken one at a time under the mutex: a round holds
 * at most a few dozen, each thousands of records' work. Waking a sleeping thread costs the
 * waker a system call and, in a virtual machine, an interrupt to another core (tens of
 * microseconds, a third of the posting thread's CPU on a frame of small draws when it woke them
 * all: PERFORMANCE.md, "Wake-ups off the expansion's thread"), so a round wakes one worker and
 * each worker that takes a job with more left wakes the next; and no thread is woken while the
 * mutex it must take on waking is still held. Where a core is spare, a worker out of jobs (two at
 * most at once) spins a while for the next round, and the caller for the round's last job,
 * before it sleeps: a round posted meanwhile wakes nobody (PERFORMANCE.md, "The crew spins where
 * a core is spare"). */
#include "instr_crew.h"

#include "llct/llct.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct instr_crew {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	instr_job_fn fn;
	void *ctx;
	unsigned n, next;        /* the round's jobs: posted, taken */
	_Atomic unsigned ended;  /* and ended (changed under mu; read by a caller that spins) */
	_Atomic unsigned rounds; /* rounds posted (changed under mu; read by workers that spin) */
	unsigned sleeping;       /* workers waiting on go */
	unsigned spinning;       /* workers spinning for the next round (under mu) */
	int waiting;             /* the caller waits on done */
	int quit;
	_Atomic int quit_a; /* quit, for workers that spin */
	int batch;          /* workers under SCHED_BATCH */
	double spin;        /* seconds a thread spins before it sleeps (0: never) */
	double worker_cpu;  /* CPU seconds of the workers' jobs (and wakes), since last taken */
	double caller_cpu;  /* and the caller's jobs (instr_crew_finish), likewise */
	double spin_cpu;    /* and the workers' spinning for the next round, likewise */
	unsigned n_th;      /* workers started */
	pthread_t th[];
};

/* Takes and runs the round's jobs while any are left (with w->mu held, released around each).
 * A worker that leaves jobs behind wakes a sleeping one (the caller never does: its time is the
 * expansion's serial path); the last job's end wakes the caller if it waits. Both after the
 * mutex is let go. No clock is read here: a worker's CPU is counted when it runs out of jobs
 * (count_idle), off the round's path. */
static void take_jobs(struct instr_crew *w, int worker)
{
	while (w->next < w->n) {
		unsigned k = w->next++;
		instr_job_fn fn = w->fn;
		void *ctx = w->ctx;
		int wake = worker && w->next < w->n && w->sleeping;
		pthread_mutex_unlock(&w->mu);
		if (wake)
			pthread_cond_signal(&w->go);
		fn(ctx, k);
		pthread_mutex_lock(&w->mu);
		if (atomic_fetch_add(&w->ended, 1) + 1 == w->n && w->waiting) {
			pthread_mutex_unlock(&w->mu);
			pthread_cond_signal(&w->done);
			pthread_mutex_lock(&w->mu);
		}
	}
}

/* Spins up to w->spin seconds until *v differs from seen (not_below 0) or reaches seen
 * (not_below 1), or the crew ends: 1 when that came, 0 when the time ran out; *took (NULL: not
 * wanted) gets the seconds it spun, by the monotonic clock. */
static int spin_on(const struct instr_crew *w, _Atomic unsigned *v, unsigned seen, int not_below,
		   double *took)
{
	double t0 = llct_mono_s(), end = t0 + w->spin;
	for (unsigned k = 1;; k++) {
		unsigned x = atomic_load(v);
		int came = (not_below ? x >= seen : x != seen) || atomic_load(&w->quit_a);
		if (came || (!(k & 255) && llct_mono_s() > end)) {
			if (took)
				*took = llct_mono_s() - t0;
			return came;
		}
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause(); /* the other thread of a core gets on meanwhile */
#endif
	}
}

/* Workers that spin at once: enough to take a small draw's round of one or two jobs without a
 * wake, the others asleep (a bigger round wakes them by the chain), so fifteen workers on a
 * 16-core machine neither burn fifteen cores between draws nor all rush for the mutex at each
 * round. */
#define CREW_SPINNERS 2

/* A worker out of jobs (w->mu held, released meanwhile): a spin for the next round; the
 * seconds it spun (by the monotonic clock: reading the thread's CPU clock is a system call,
 * which a round posted meanwhile would wait for) returned. Counted in spinning until the mutex
 * is taken again, so a round posted before then wakes nobody: this worker sees it, by its count
 * or under the mutex. */
static double spin_idle(struct instr_crew *w)
{
	unsigned seen = atomic_load(&w->rounds);
	double took = 0;
	w->spinning++;
	pthread_mutex_unlock(&w->mu);
	(void)spin_on(w, &w->rounds, seen, 0, &took);
	pthread_mutex_lock(&w->mu);
	w->spinning--;
	return took;
}

/* A worker's account (w->mu held, released meanwhile): its CPU since it last counted (the jobs
 * it took, its spins, its wakes) by its CPU clock, read once out of jobs rather than around
 * each job; of it, spun seconds are the spin's (no more than the CPU: a spin may have waited
 * for a core), the rest the jobs'. */
static void count_idle(struct instr_crew *w, double *cpu0, double *spun)
{
	pthread_mutex_unlock(&w->mu);
	double cpu = llct_thread_cpu_s();
	pthread_mutex_lock(&w->mu);
	double t = cpu - *cpu0, s = *spun < t ? *spun : t;
	w->spin_cpu += s;
	w->worker_cpu += t - s;
	*cpu0 = cpu, *spun = 0;
}

static void *worker(void *arg)
{
	LLCT_THREAD_NAME("llct-lanes");
	struct instr_crew *w = arg;
	if (w->batch)
		(void)llct_thread_batch();
	double cpu0 = llct_thread_cpu_s(), spun = 0;
	int owed = 1; /* CPU not yet counted: jobs taken, a spin, its start */
	int idle = 0; /* out of jobs since it last spun (one spin, then asleep) */
	pthread_mutex_lock(&w->mu);
	for (;;) {
		/* out of jobs: the CPU since it last counted, before it spins and before it sleeps
		   (not between a spin and the round it found) */
		if (owed && !w->quit && w->next >= w->n) {
			count_idle(w, &cpu0, &spun);
			owed = 0;
			continue; /* a round may have come meanwhile */
		}
		if (w->spin > 0 && !idle && !w->quit && w->next >= w->n &&
		    w->spinning < CREW_SPINNERS) {
			spun += spin_idle(w);
			owed = 1, idle = 1;
			continue;
		}
		while (!w->quit && w->next >= w->n) {
			w->sleeping++;
			pthread_cond_wait(&w->go, &w->mu);
			w->sleeping--;
		}
		if (w->quit)
			break;
		take_jobs(w, 1);
		owed = 1, idle = 0;
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

struct instr_crew *instr_crew_start(unsigned threads, int batch, double spin_s)
{
	unsigned want = threads > 1 ? threads - 1 : 0;
	struct instr_crew *w = calloc(1, sizeof(*w) + want * sizeof(pthread_t));
	if (!w)
		return NULL;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->go, NULL);
	pthread_cond_init(&w->done, NULL);
	w->batch = batch;
	w->spin = spin_s > 0 ? spin_s : 0;
	while (w->n_th < want && !pthread_create(&w->th[w->n_th], NULL, worker, w))
		w->n_th++;
	return w;
}

unsigned instr_crew_workers(const struct instr_crew *w)
{
	return w ? w->n_th : 0;
}

void instr_crew_post(struct instr_crew *w, instr_job_fn fn, void *ctx, unsigned n)
{
	pthread_mutex_lock(&w->mu);
	w->fn = fn, w->ctx = ctx;
	w->n = n, w->next = 0;
	atomic_store(&w->ended, 0);
	atomic_fetch_add(&w->rounds, 1);
	int wake = n && w->sleeping && !w->spinning;
	pthread_mutex_unlock(&w->mu);
	/* one worker woken, and none where one spins; it wakes the next while jobs are left
	   (take_jobs): a round of one or two jobs, a small draw's, wakes no idle crowd, and the
	   caller pays for one wake at most */
	if (wake)
		pthread_cond_signal(&w->go);
}

void instr_crew_finish(struct instr_crew *w)
{
	pthread_mutex_lock(&w->mu);
	/* the jobs left (two clock reads a round, not a job), then a spin for the last one a
	   worker has: the spin is the caller's own time, in the expansion's rest, not shared work
	 */
	if (w->next < w->n) {
		double t0 = llct_thread_cpu_s();
		take_jobs(w, 0);
		w->caller_cpu += llct_thread_cpu_s() - t0;
	}
	unsigned n = w->n;
	if (w->spin > 0 && atomic_load(&w->ended) < n) {
		pthread_mutex_unlock(&w->mu);
		(void)spin_on(w, &w->ended, n, 1, NULL);
		pthread_mutex_lock(&w->mu);
	}
	w->waiting = 1;
	while (atomic_load(&w->ended) < w->n)
		pthread_cond_wait(&w->done, &w->mu);
	w->waiting = 0;
	pthread_mutex_unlock(&w->mu);
}

double instr_crew_take_cpu(struct instr_crew *w, double *jobs, double *spin)
{
	if (!w)
		return 0;
	pthread_mutex_lock(&w->mu);
	double t = w->worker_cpu + w->spin_cpu;
	if (jobs)
		*jobs += w->worker_cpu + w->caller_cpu;
	if (spin)
		*spin += w->spin_cpu;
	w->worker_cpu = 0, w->caller_cpu = 0, w->spin_cpu = 0;
	pthread_mutex_unlock(&w->mu);
	return t;
}

void instr_crew_stop(struct instr_crew *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = 1;
	atomic_store(&w->quit_a, 1);
	pthread_cond_broadcast(&w->go);
	pthread_mutex_unlock(&w->mu);
	for (unsigned k = 0; k < w->n_th; k++)
		pthread_join(w->th[k], NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->go);
	pthread_cond_destroy(&w->done);
	free(w);
}

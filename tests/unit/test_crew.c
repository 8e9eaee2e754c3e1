/* test_crew.c - capture tier 3's expansion threads (capture/10-tier3/instr_crew.c): every job of
 * every round runs once, a round's finish returns only when each has ended, whether the poster
 * joins at once or works meanwhile, for 1 to 5 threads; and the CPU account: a round of jobs
 * that each spin 2 ms of CPU counts at least 90% of it among the jobs, the workers' share
 * within that (and none without workers); and every worker takes part in a round of long jobs
 * the poster leaves to them (a round wakes one worker, each wakes the next: a chain that
 * stops leaves all the jobs to one), under SCHED_BATCH where the crew was made so (odd thread
 * counts) and under the program's policy where not. All of it again with a spin of 500 us
 * (a round posted while workers spin wakes nobody: they must see it themselves, and two spin at
 * most, so with four workers the naps reach the sleeping two only by the chain), whose CPU is
 * counted apart: some after rounds, none without a spin. And the poster's share: the jobs it
 * takes itself count (5 ms of CPU each), its wait for a worker's job (a 100 ms sleep) not. */
#include "instr_crew.h"
#include "llct/llct.h"

#include "takers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_JOBS 40

struct round {
	atomic_uint runs[MAX_JOBS];
	atomic_uint ended;
};

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 2 ms of this thread's CPU. */
static void spin(void *ctx, unsigned k)
{
	(void)ctx, (void)k;
	for (double t0 = cpu_s(); cpu_s() - t0 < 0.002;)
		;
}

static void job(void *ctx, unsigned k)
{
	struct round *r = ctx;
	atomic_fetch_add(&r->runs[k], 1);
	struct timespec ts = {0, (long)(k % 4) * 20000}; /* some jobs end late */
	nanosleep(&ts, NULL);
	atomic_fetch_add(&r->ended, 1);
}

/* A 10 ms sleep, noting the thread that took it and its policy. */
static pthread_t takers[MAX_JOBS];
static int policies[MAX_JOBS];

static void nap(void *ctx, unsigned k)
{
	(void)ctx;
	takers[k] = pthread_self();
	policies[k] = sched_getscheduler(0);
	struct timespec ts = {0, 10000000};
	nanosleep(&ts, NULL);
}

/* On the poster's thread 5 ms of its CPU, on a worker's a 100 ms sleep. */
static pthread_t poster;
static atomic_uint poster_jobs, worker_jobs;

static void mixed(void *ctx, unsigned k)
{
	(void)ctx, (void)k;
	if (pthread_equal(pthread_self(), poster)) {
		atomic_fetch_add(&poster_jobs, 1);
		for (double t0 = cpu_s(); cpu_s() - t0 < 0.005;)
			;
	} else {
		atomic_fetch_add(&worker_jobs, 1);
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
}

/* Rounds of two mixed jobs on a crew of two threads until the poster took one and waited for
 * the worker's: its 5 ms counted among the jobs, its wait not. */
static int poster_account(void)
{
	struct instr_crew *w = instr_crew_start(2, 0, 0);
	if (!w || instr_crew_workers(w) != 1) {
		fprintf(stderr, "account: no crew of two threads\n");
		instr_crew_stop(w);
		return 1;
	}
	poster = pthread_self();
	int bad = 1;
	for (int round = 0; round < 10 && bad; round++) {
		atomic_store(&poster_jobs, 0);
		atomic_store(&worker_jobs, 0);
		instr_crew_take_cpu(w, NULL, NULL); /* the rounds before left out */
		double jobs = 0, t0 = llct_mono_s();
		instr_crew_post(w, mixed, NULL, 2);
		instr_crew_finish(w);
		double wall = llct_mono_s() - t0;
		instr_crew_take_cpu(w, &jobs, NULL);
		if (atomic_load(&poster_jobs) != 1 || atomic_load(&worker_jobs) != 1)
			continue;
		bad = !(wall >= 0.1 && jobs >= 0.9 * 0.005 && jobs < 0.005 + 0.05);
		if (bad)
			fprintf(stderr,
				"account: the poster's 5 ms job in a round of %.3f s: %.4f s "
				"counted\n",
				wall, jobs);
		break;
	}
	if (bad && atomic_load(&poster_jobs) != 1)
		fprintf(stderr,
			"account: in 10 rounds the poster and the worker never took a job each\n");
	instr_crew_stop(w);
	return bad;
}

int main(void)
{
	int bad = 0;
	unsigned seed = 7;
	for (unsigned t = 0; t < 10; t++) {
		unsigned threads = t % 5 + 1;
		int batch = threads % 2;
		double spin_s = t < 5 ? 0 : 500e-6;
		struct instr_crew *w = instr_crew_start(threads, batch, spin_s);
		if (!w || instr_crew_workers(w) != threads - 1) {
			fprintf(stderr, "crew of %u threads: %u workers\n", threads,
				instr_crew_workers(w));
			return 1;
		}
		for (int round = 0; round < 150; round++) {
			static struct round r;
			seed = seed * 1103515245u + 12345u;
			unsigned n = (seed >> 16) % (MAX_JOBS + 1);
			for (unsigned k = 0; k < MAX_JOBS; k++)
				atomic_store(&r.runs[k], 0);
			atomic_store(&r.ended, 0);
			instr_crew_post(w, job, &r, n);
			if (round % 2) { /* the poster works meanwhile, as the rasterizer does */
				struct timespec ts = {0, 50000};
				nanosleep(&ts, NULL);
			}
			instr_crew_finish(w);
			if (atomic_load(&r.ended) != n) {
				fprintf(stderr,
					"%u threads, round %d: finish returned with %u of %u "
					"jobs ended\n",
					threads, round, atomic_load(&r.ended), n);
				bad = 1;
			}
			for (unsigned k = 0; k < MAX_JOBS; k++)
				if (atomic_load(&r.runs[k]) != (k < n)) {
					fprintf(stderr,
						"%u threads, round %d: job %u of %u ran %u times\n",
						threads, round, k, n, atomic_load(&r.runs[k]));
					bad = 1;
				}
		}
		double jobs = 0, workers, spun = 0;
		instr_crew_take_cpu(w, NULL, NULL); /* the rounds' above left out */
		instr_crew_post(w, spin, NULL, 12);
		instr_crew_finish(w);
		/* a worker counts its CPU once out of jobs, just after the round: looked for a
		   while (a worker may wait for a core meanwhile) */
		workers = instr_crew_take_cpu(w, &jobs, &spun);
		for (int k = 0; k < 2000 && jobs < 0.9 * 12 * 0.002; k++) {
			struct timespec ts = {0, 1000000};
			nanosleep(&ts, NULL);
			workers += instr_crew_take_cpu(w, &jobs, &spun);
		}
		workers -= spun;
		if (jobs < 0.9 * 12 * 0.002 || workers > jobs + 1e-9 || (threads == 1 && workers)) {
			fprintf(stderr,
				"%u threads: 12 jobs of 2 ms counted %.4f s, %.4f s workers'\n",
				threads, jobs, workers);
			bad = 1;
		}
		/* four naps a worker, posted while the workers spin where they do, the poster
		   asleep until they are surely all taken */
		unsigned n = 4 * instr_crew_workers(w);
		instr_crew_post(w, nap, NULL, n);
		struct timespec ts = {0, 300000000};
		nanosleep(&ts, NULL);
		instr_crew_finish(w);
		if (distinct_threads(takers, n) != instr_crew_workers(w)) {
			fprintf(stderr,
				"%u threads: %u naps taken by %u threads, not every worker\n",
				threads, n, distinct_threads(takers, n));
			bad = 1;
		}
		for (unsigned k = 0; k < n; k++)
			if (policies[k] != (batch ? LLCT_SCHED_BATCH : SCHED_OTHER)) {
				fprintf(stderr, "%u threads: a job ran under policy %d, not %s\n",
					threads, policies[k],
					batch ? "SCHED_BATCH" : "SCHED_OTHER");
				bad = 1;
				break;
			}
		ts.tv_nsec = 20000000; /* the spins after the naps over */
		nanosleep(&ts, NULL);
		spun = 0;
		instr_crew_take_cpu(w, NULL, &spun);
		if (threads > 1 && (spin_s > 0) != (spun > 0)) {
			fprintf(stderr, "%u threads, spin %.0f us: %.6f s spinning counted\n",
				threads, spin_s * 1e6, spun);
			bad = 1;
		}
		instr_crew_stop(w);
	}
	instr_crew_stop(NULL);
	bad |= poster_account();
	if (!bad)
		printf("crew: 5 thread counts x 150 rounds, with and without a spin, every job "
		       "once, every finish waited; the poster's own jobs counted, not its wait\n");
	return bad;
}

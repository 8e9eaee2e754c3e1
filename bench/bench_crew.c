/* bench_crew.c - tier 3's expansion threads (capture/10-tier3/instr_crew.c) on a frame of small
 * draws, without a game or a device: rounds of short jobs posted one after another, the posting
 * thread doing a draw's serial work between them, as the expansion thread does; prints, per
 * round, the wall time, the posting thread's CPU (its serial work; its share of the jobs, as
 * the crew counts them; and its own rest: posting, the wake it pays for, being woken, its spin
 * for the last job) and the workers' CPU on jobs and spinning for the next round.
 *
 * usage: bench_crew [ROUNDS JOBS JOB_US SERIAL_US THREADS SPIN_US]
 *   defaults 20000 4 20 20 2 0: 20,000 rounds of 4 jobs of 20 µs of CPU each, 20 µs of serial
 *   work before each round, two threads (the poster and one worker), no spin. */
#include "instr_crew.h"
#include "llct/llct.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double work_sink; /* keeps the busy loop from being optimised away */

/* About us microseconds of this thread's CPU, by a fixed loop calibrated once. */
static double loops_a_us;
static void busy(double us)
{
	double x = 0;
	for (long i = 0, n = (long)(us * loops_a_us); i < n; i++)
		x += (double)i * 0.5;
	work_sink += x;
}

static void job(void *ctx, unsigned k)
{
	(void)k;
	busy(*(const double *)ctx);
}

static long arg(int argc, char **argv, int i, long def)
{
	if (argc <= i)
		return def;
	char *end;
	long v = strtol(argv[i], &end, 10);
	if (*end || v < 0) {
		fprintf(stderr, "bench_crew: '%s' is not a number\n", argv[i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long rounds = arg(argc, argv, 1, 20000), jobs = arg(argc, argv, 2, 4);
	double job_us = (double)arg(argc, argv, 3, 20), serial_us = (double)arg(argc, argv, 4, 20);
	long threads = arg(argc, argv, 5, 2), spin_us = arg(argc, argv, 6, 0);
	if (argc > 7 || !rounds || threads < 1 || threads > 16) {
		fprintf(stderr,
			"usage: bench_crew [ROUNDS JOBS JOB_US SERIAL_US THREADS SPIN_US]\n");
		return 2;
	}
	double t0 = llct_thread_cpu_s();
	loops_a_us = 1e6;
	busy(1); /* a million iterations, to calibrate */
	loops_a_us = 1e6 / ((llct_thread_cpu_s() - t0) * 1e6);
	t0 = llct_thread_cpu_s(); /* the serial work's own CPU, measured: the loop's rate drifts */
	for (int i = 0; i < 2000; i++)
		busy(serial_us);
	double serial = (llct_thread_cpu_s() - t0) / 2000;
	struct instr_crew *w = instr_crew_start((unsigned)threads, 0, (double)spin_us * 1e-6);
	if (!w) {
		fprintf(stderr, "bench_crew: out of memory\n");
		return 1;
	}
	unsigned workers_made = instr_crew_workers(w); /* fewer where a thread could not start */
	double wall0 = llct_mono_s(), cpu0 = llct_thread_cpu_s();
	for (long r = 0; r < rounds; r++) {
		busy(serial_us);
		instr_crew_post(w, job, &job_us, (unsigned)jobs);
		instr_crew_finish(w);
	}
	double wall = llct_mono_s() - wall0, cpu = llct_thread_cpu_s() - cpu0, shared = 0, spin = 0;
	/* the workers count their CPU as they run out of jobs and go to sleep: after their spin */
	long long ns = 20000000 + (long long)spin_us * 1000;
	struct timespec nap = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
	nanosleep(&nap, NULL);
	double workers = instr_crew_take_cpu(w, &shared, &spin) - spin;
	instr_crew_stop(w);
	double k = 1e6 / (double)rounds;
	printf("bench_crew: %ld rounds of %ld jobs of %.0f us, %.0f us serial, %ld threads (%u "
	       "workers), spin %ld us\n",
	       rounds, jobs, job_us, serial_us, threads, workers_made, spin_us);
	/* the poster's CPU: its serial work, its jobs (the crew's shared CPU less the workers'),
	   and the rest: posting, waking, being woken, spinning for the last job */
	double mine = shared - workers;
	printf("per round: wall %.1f us; poster CPU %.1f us = serial %.1f + jobs %.1f + own %.1f; "
	       "workers: jobs %.1f us, spin %.1f us\n",
	       wall * k, cpu * k, serial * 1e6, mine * k, (cpu - mine) * k - serial * 1e6,
	       workers * k, spin * k);
	return work_sink == 0.12345; /* never: the sink read */
}

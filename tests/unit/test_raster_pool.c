/* test_raster_pool.c - the rasterizer's threads (streams/raster_lanes.c), driven directly: in
 * every run each lane is set up once, and none is worked before all are set up; every thread of
 * the pool takes part in a run of long lanes (a run wakes one sleeping thread and each wakes the
 * next: a chain that stops leaves the lanes to the caller and one thread); the threads run
 * under SCHED_BATCH exactly where the pool was made so; and the caller's share of a run's lanes
 * is counted (5 ms of CPU a lane it works), its wait for a thread's lane (a 100 ms sleep) not. */
#include "../../streams/raster_int.h"
#include "check.h"
#include "llct/footprint.h"
#include "llct/llct.h"

#include "takers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static atomic_uint set_up;
static atomic_uint early; /* lanes worked before every lane was set up */
static pthread_t who[RASTER_MAX_LANES];
static int policy[RASTER_MAX_LANES];

static void setup(struct ctx *c, const void *arg)
{
	(void)c, (void)arg;
	atomic_fetch_add(&set_up, 1);
}

/* A 50 ms sleep: the lanes outlast any thread's wake-up. */
static void job(struct ctx *c, const void *arg)
{
	(void)arg;
	if (atomic_load(&set_up) != c->lanes)
		atomic_fetch_add(&early, 1);
	who[c->lane] = pthread_self();
	policy[c->lane] = sched_getscheduler(0);
	struct timespec ts = {0, 50000000};
	nanosleep(&ts, NULL);
}

static atomic_uint caller_lanes, thread_lanes;
static pthread_t caller;

/* On the caller's thread 5 ms of its CPU, on the pool's a 100 ms sleep. */
static void job_account(struct ctx *c, const void *arg)
{
	(void)c, (void)arg;
	if (pthread_equal(pthread_self(), caller)) {
		atomic_fetch_add(&caller_lanes, 1);
		double t0 = llct_thread_cpu_s();
		while (llct_thread_cpu_s() - t0 < 0.005)
			;
	} else {
		atomic_fetch_add(&thread_lanes, 1);
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
}

static int drop(void *ud, const struct llct_record *r, size_t n)
{
	(void)ud, (void)r, (void)n;
	return 0;
}

int main(void)
{
	struct llct_fp_config cfg;
	struct llct_fp *fp;
	llct_fp_config_default(&cfg);
	CHECK_EQ(llct_fp_create(&cfg, drop, NULL, &fp), LLCT_OK);
	for (int batch = 0; batch <= 1; batch++)
		for (unsigned threads = 2; threads <= 4; threads++) {
			struct raster_pool *p = raster_pool_create(threads, 0, batch, 0);
			CHECK(p != NULL);
			for (int run = 0; run < 2; run++) {
				static struct ctx c;
				struct llct_draw_result res;
				memset(&c, 0, sizeof(c));
				memset(&res, 0, sizeof(res));
				c.fp = fp, c.res = &res, c.n_sms = cfg.n_sms;
				atomic_store(&set_up, 0);
				atomic_store(&early, 0);
				CHECK_EQ(raster_pool_run(p, &c, setup, job, NULL), 0);
				unsigned lanes = atomic_load(&set_up);
				CHECK_EQ(lanes, 2 * threads); /* two lanes a thread */
				CHECK_EQ(atomic_load(&early), 0);
				CHECK_MSG(distinct_threads(who, lanes) == threads,
					  "batch %d, %u threads, run %d: lanes taken by %u threads",
					  batch, threads, run, distinct_threads(who, lanes));
				/* the pool's threads under batch's policy */
				int want = batch ? LLCT_SCHED_BATCH : SCHED_OTHER;
				for (unsigned k = 0; k < lanes; k++)
					if (!pthread_equal(who[k], pthread_self()))
						CHECK_EQ(policy[k], want);
			}
			raster_pool_destroy(p);
		}
	/* the account: runs until the caller worked a lane and waited for a thread's */
	caller = pthread_self();
	struct raster_pool *p = raster_pool_create(2, 0, 0, 0);
	CHECK(p != NULL);
	int measured = 0;
	for (int run = 0; run < 10 && !measured; run++) {
		static struct ctx c;
		struct llct_draw_result res;
		double lanes = 0, spin = 0;
		memset(&c, 0, sizeof(c));
		memset(&res, 0, sizeof(res));
		c.fp = fp, c.res = &res, c.n_sms = cfg.n_sms;
		atomic_store(&caller_lanes, 0);
		atomic_store(&thread_lanes, 0);
		raster_pool_take_cpu(p, &lanes, &spin); /* the runs before left out */
		lanes = 0;
		double t0 = llct_mono_s();
		CHECK_EQ(raster_pool_run(p, &c, setup, job_account, NULL), 0);
		double wall = llct_mono_s() - t0;
		raster_pool_take_cpu(p, &lanes, &spin);
		unsigned mine = atomic_load(&caller_lanes);
		if (!mine || !atomic_load(&thread_lanes))
			continue;
		measured = 1;
		/* its lanes' 5 ms each counted; not the 100 ms it waited (a thread's sleep is no
		   CPU, and the thread counts it only as it next sleeps) */
		CHECK_MSG(wall >= 0.1 && lanes >= 0.9 * 0.005 * mine && lanes < 0.005 * mine + 0.05,
			  "the caller worked %u lanes of 5 ms in a run of %.3f s: %.4f s counted",
			  mine, wall, lanes);
	}
	CHECK_MSG(measured, "in 10 runs the caller and the pool's thread never both took a lane");
	raster_pool_destroy(p);
	llct_fp_destroy(fp);
	return check_done("raster_pool");
}

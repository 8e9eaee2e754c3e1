/* corun.c - several traces replayed together as tenants of one LLC, interleaved by a simple
 * timing model, and each tenant replayed alone on the same configuration.
 *
 * Timing model (docs/REPLAY.md, "Co-running tenants"): every tenant issues its next access when it
 * is ready; an access makes its tenant busy for (hit or miss latency) / its memory-level
 * parallelism. The tenant with the earliest ready time goes next (ties: the lower tenant). So a
 * tenant that misses a lot issues rarely, as in the GDC paper. Tenants never share lines: tenant
 * t's addresses have t XOR-ed into bits 56 and up.
 */
#include "llct/replay.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct source {
	struct llct_reader *r;
	struct llct_cursor *cur;
	struct llct_batch b;
	uint32_t pos;
	uint32_t *sel;   /* selected frame numbers, increasing */
	size_t n_sel, k; /* k: co-run frame of the current batch */
	uint32_t tenant;
	double ready;
	int done;
};

struct job {
	size_t policy;
	int tenant;   /* -1: the shared run */
	int own_part; /* alone inside its own partition (not the whole LLC) */
	int both;     /* the two alone runs are the same: fill both */
};

struct corun {
	const char *const *paths;
	size_t n;
	const struct llct_corun_options *o;
	struct llct_corun_result *res;
	struct job *jobs;
	size_t n_jobs, next_job;
	pthread_mutex_t lock;
	uint64_t done, total;
	int failed;
	char err[600];
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(struct corun *cr, const char *msg)
{
	pthread_mutex_lock(&cr->lock);
	if (!cr->failed) {
		cr->failed = 1;
		snprintf(cr->err, sizeof(cr->err), "%s", msg);
	}
	pthread_mutex_unlock(&cr->lock);
}

static int source_open(struct source *s, const char *path, uint32_t tenant,
		       const struct llct_frame_range *range, char *err, size_t err_size)
{
	const struct llct_frame_info *fi;
	size_t nf;
	memset(s, 0, sizeof(*s));
	s->tenant = tenant;
	if (llct_reader_open(path, &s->r, err, err_size))
		return LLCT_ERR_IO;
	llct_reader_frames(s->r, &fi, &nf);
	s->sel = malloc((nf + 1) * sizeof(*s->sel));
	if (!s->sel || llct_batch_alloc(&s->b) || llct_cursor_open(s->r, range, &s->cur)) {
		snprintf(err, err_size, "'%s': out of memory", path);
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < nf; i++)
		if (!range || llct_frame_range_contains(range, fi[i].frame))
			s->sel[s->n_sel++] = fi[i].frame;
	s->b.n = 0;
	return LLCT_OK;
}

static void source_close(struct source *s)
{
	llct_cursor_close(s->cur);
	llct_batch_free(&s->b);
	llct_reader_close(s->r);
	free(s->sel);
}

/* Makes the next record available; returns 0 at the end, < 0 on error. */
static int source_fill(struct source *s, char *err, size_t err_size)
{
	if (s->pos < s->b.n)
		return 1;
	int got = llct_cursor_next_into(s->cur, &s->b);
	if (got < 0) {
		snprintf(err, err_size, "%s", llct_reader_error(s->r));
		return got;
	}
	if (got == 0) {
		s->done = 1;
		return 0;
	}
	s->pos = 0;
	while (s->k < s->n_sel && s->sel[s->k] != s->b.frame)
		s->k++;
	return 1;
}

/* Runs one job: every tenant together (the shared run) or one tenant alone, on a fresh model. */
static void run_job(struct corun *cr, const struct job *jb)
{
	const struct llct_corun_options *o = cr->o;
	struct llct_corun_result *res = &cr->res[jb->policy];
	size_t first = jb->tenant < 0 ? 0 : (size_t)jb->tenant;
	size_t count = jb->tenant < 0 ? cr->n : 1;
	struct source *src = calloc(count, sizeof(*src));
	struct llct_cache *c = NULL;
	struct llct_dynpart *dyn = NULL;
	char err[600];
	double t0 = now_s();
	size_t cur_k = SIZE_MAX;
	uint64_t local = 0;
	if (!src || llct_cache_create(&o->cache, o->policies[jb->policy], &c)) {
		fail(cr, "out of memory for a co-run model");
		goto out;
	}
	/* Alone with the whole LLC keeps what configures the cache for everyone (stream bypass)
	 * but none of the tenant restrictions. */
	struct llct_partition whole;
	const struct llct_partition *part = o->part;
	if (jb->tenant >= 0 && !jb->own_part && part) {
		memset(&whole, 0, sizeof(whole));
		whole.bypass_streams = part->bypass_streams;
		part = &whole;
	}
	llct_cache_set_partition(c, part);
	if (o->dyn_plan && (jb->tenant < 0 || jb->own_part)) {
		dyn = calloc(1, sizeof(*dyn));
		if (!dyn || llct_dynpart_init(dyn, o->dyn_plan, &o->cache, o->part)) {
			fail(cr, "out of memory for dynamic partitioning");
			goto out;
		}
		llct_dynpart_start(dyn, o->start_counts);
		llct_cache_set_dynpart(c, dyn);
	}
	if (jb->tenant < 0 && o->contention &&
	    llct_cache_track_contention(c, (enum llct_owner_by)o->contention_by)) {
		fail(cr, "out of memory for contention tracking");
		goto out;
	}
	for (size_t i = 0; i < count; i++)
		if (source_open(&src[i], cr->paths[first + i], (uint32_t)(first + i), o->frames,
				err, sizeof(err))) {
			fail(cr, err);
			goto out;
		}
	for (;;) {
		size_t best = count;
		for (size_t i = 0; i < count; i++) {
			if (src[i].done)
				continue;
			int got = source_fill(&src[i], err, sizeof(err));
			if (got < 0) {
				fail(cr, err);
				goto out;
			}
			if (got && (best == count || src[i].ready < src[best].ready))
				best = i;
		}
		if (best == count || cr->failed)
			break;
		struct source *s = &src[best];
		uint32_t t = s->tenant, p = s->pos++;
		size_t k = s->k;
		if (jb->tenant < 0 && k != cur_k) {
			cur_k = k;
			llct_cache_set_frame(c, &res->frames[k]);
		} else if (jb->tenant >= 0) {
			llct_cache_set_frame(c, NULL); /* alone: only the tenant numbers matter */
		}
		struct llct_record r = {.addr = s->b.addr[p] ^ ((uint64_t)t << 56),
					.kernel = s->b.kernel[p],
					.sm = s->b.sm[p],
					.tenant = (uint16_t)t,
					.stream = s->b.stream[p],
					.op = s->b.op[p]};
		int hit = llct_cache_access_rec(c, &r, LLCT_NEVER);
		double mlp = t < LLCT_MAX_CLASSES && o->mlp[t] > 0 ? o->mlp[t] : LLCT_DEFAULT_MLP;
		double d = (hit ? o->hit_latency : o->miss_latency) / mlp;
		struct llct_tenant_stats *ts = &res->tenants[k * cr->n + t];
		s->ready += d;
		if (jb->tenant < 0) {
			ts->accesses++;
			ts->misses += !hit;
			ts->time_shared += d;
		} else {
			if (!jb->own_part || jb->both) {
				ts->misses_alone += !hit;
				ts->time_alone += d;
			}
			if (jb->own_part || jb->both) {
				ts->misses_alone_part += !hit;
				ts->time_alone_part += d;
			}
		}
		if (++local == 65536) {
			pthread_mutex_lock(&cr->lock);
			cr->done += local;
			if (o->progress)
				o->progress(o->progress_ud, cr->done, cr->total);
			pthread_mutex_unlock(&cr->lock);
			local = 0;
		}
	}
	if (jb->tenant < 0) {
		res->busy_s += now_s() - t0;
		res->peak_state = llct_cache_state_bytes(c);
		if (dyn) {
			res->plog = dyn->log;
			res->n_plog = dyn->n_log;
			dyn->log = NULL;
		}
	}
out:
	if (dyn)
		llct_dynpart_release(dyn);
	free(dyn);
	for (size_t i = 0; src && i < count; i++)
		source_close(&src[i]);
	free(src);
	llct_cache_destroy(c);
}

static void *worker(void *p)
{
	LLCT_THREAD_NAME("llct-corun");
	struct corun *cr = p;
	for (;;) {
		pthread_mutex_lock(&cr->lock);
		size_t j = cr->next_job++;
		pthread_mutex_unlock(&cr->lock);
		if (j >= cr->n_jobs || cr->failed)
			return NULL;
		run_job(cr, &cr->jobs[j]);
	}
}

void llct_corun_results_free(struct llct_corun_result *r, size_t n_policies)
{
	if (!r)
		return;
	for (size_t m = 0; m < n_policies; m++) {
		for (size_t k = 0; r[m].frames && k < r[m].n_frames; k++)
			llct_contention_free(r[m].frames[k].cont);
		free(r[m].frames);
		free(r[m].tenants);
		free(r[m].plog);
	}
	free(r);
}

int llct_corun_run(const char *const *paths, size_t n, const struct llct_corun_options *o,
		   struct llct_corun_result **results, double *wall_s, char *err, size_t err_size)
{
	struct corun cr;
	size_t n_frames = 0;
	double t0 = now_s();
	*results = NULL;
	memset(&cr, 0, sizeof(cr));
	if (n < 1 || n > LLCT_MAX_CLASSES) {
		snprintf(err, err_size, "co-run takes 1 to %d traces", LLCT_MAX_CLASSES);
		return LLCT_ERR_INVALID;
	}
	if (llct_cache_config_check(&o->cache, err, err_size))
		return LLCT_ERR_INVALID;
	for (size_t m = 0; m < o->n_policies; m++)
		if (o->policies[m]->needs_next_use) {
			snprintf(err, err_size,
				 "policy '%s' needs the future, but in a co-run the order of "
				 "accesses depends on the policy: replay it without --corun",
				 o->policies[m]->name);
			return LLCT_ERR_INVALID;
		}
	/* Frames: the longest selection; records for progress. */
	for (size_t i = 0; i < n; i++) {
		struct llct_reader *r;
		const struct llct_frame_info *fi;
		size_t nf, sel = 0;
		if (llct_reader_open(paths[i], &r, err, err_size))
			return LLCT_ERR_IO;
		llct_reader_frames(r, &fi, &nf);
		for (size_t f = 0; f < nf; f++)
			if (!o->frames || llct_frame_range_contains(o->frames, fi[f].frame)) {
				sel++;
				cr.total += 3 * fi[f].n_records * o->n_policies;
			}
		llct_reader_close(r);
		if (sel > n_frames)
			n_frames = sel;
	}
	cr.paths = paths;
	cr.n = n;
	cr.o = o;
	cr.res = calloc(o->n_policies, sizeof(*cr.res));
	int restricted =
	    o->dyn_plan ||
	    (o->part && (o->part->ways_on || o->part->colors_on || o->part->bypass_tenants));
	size_t per = 1 + n * (restricted ? 2 : 1);
	cr.n_jobs = o->n_policies * per;
	cr.jobs = calloc(cr.n_jobs, sizeof(*cr.jobs));
	if (!cr.res || !cr.jobs)
		goto nomem;
	for (size_t m = 0; m < o->n_policies; m++) {
		struct llct_corun_result *r = &cr.res[m];
		r->policy = o->policies[m];
		r->n_frames = n_frames;
		r->frames = calloc(n_frames ? n_frames : 1, sizeof(*r->frames));
		r->tenants = calloc((n_frames ? n_frames : 1) * n, sizeof(*r->tenants));
		if (!r->frames || !r->tenants)
			goto nomem;
		for (size_t k = 0; k < n_frames; k++)
			r->frames[k].frame = (uint32_t)k;
		/* the shared run first: it is the longest job */
		struct job *j = &cr.jobs[m * per];
		*j++ = (struct job){m, -1, 0, 0};
		for (size_t t = 0; t < n; t++) {
			*j++ = (struct job){m, (int)t, 0, !restricted};
			if (restricted)
				*j++ = (struct job){m, (int)t, 1, 0};
		}
	}
	pthread_mutex_init(&cr.lock, NULL);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned nt = o->threads ? o->threads : (unsigned)(cores > 0 ? cores : 1);
	if (nt > cr.n_jobs)
		nt = (unsigned)cr.n_jobs;
	pthread_t *th = calloc(nt, sizeof(*th));
	unsigned started = 0;
	for (; th && started < nt; started++)
		if (pthread_create(&th[started], NULL, worker, &cr))
			break;
	if (started == 0)
		worker(&cr);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	pthread_mutex_destroy(&cr.lock);
	if (cr.failed) {
		snprintf(err, err_size, "%s", cr.err);
		llct_corun_results_free(cr.res, o->n_policies);
		free(cr.jobs);
		return LLCT_ERR_IO;
	}
	for (size_t m = 0; m < o->n_policies; m++)
		for (size_t i = 0; i < n_frames * n; i++)
			cr.res[m].accesses += cr.res[m].tenants[i].accesses;
	free(cr.jobs);
	*results = cr.res;
	*wall_s = now_s() - t0;
	return LLCT_OK;
nomem:
	snprintf(err, err_size, "out of memory for the co-run");
	llct_corun_results_free(cr.res, o->n_policies);
	free(cr.jobs);
	return LLCT_ERR_NOMEM;
}

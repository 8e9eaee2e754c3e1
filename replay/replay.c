/* replay.c - the replay engine: decodes the chosen frames once and drives every cache model
 * from the same batches, models spread over worker threads while the main thread reads the
 * next window of batches and every free thread decodes it (double buffering). Belady-style
 * policies get a next-use pass first (nextuse.c), or, set-sampled, replay after the pass. */
#include "llct/replay.h"
#include "engine.h"
#include "lines.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Set-sampled: the accesses of batch i each configuration's models may replay. */
static int select_sampled(const struct engine *e, struct window *w, unsigned i)
{
	return llct_sample_select(&e->sel, &w->b[i], w->lists[i], w->so_count[i]);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	sched_yield();
#endif
}

/* Decodes chunks of e->dec as they are read, until every one is claimed. */
static void help_decode(struct engine *e)
{
	struct window *w = e->dec;
	if (!w)
		return;
	for (;;) {
		unsigned k = atomic_load_explicit(&e->taken, memory_order_relaxed);
		unsigned f = atomic_load_explicit(&e->fetched, memory_order_acquire);
		if (k < f) {
			if (atomic_compare_exchange_weak_explicit(
				&e->taken, &k, k + 1, memory_order_relaxed, memory_order_relaxed)) {
				w->dec_st[k] =
				    llct_raw_chunk_decode(e->reader, &w->raw[k], &w->b[k],
							  w->dec_err[k], sizeof(w->dec_err[k]));
				if (!w->dec_st[k] && ((e->n_sp && select_sampled(e, w, k)) ||
						      (e->n_shl && llct_shard_deal(e, w, k)))) {
					w->dec_st[k] = LLCT_ERR_NOMEM;
					snprintf(w->dec_err[k], sizeof(w->dec_err[k]),
						 "out of memory");
				}
			}
			continue;
		}
		if (atomic_load_explicit(&e->fetch_done, memory_order_acquire)) {
			if (k >= atomic_load_explicit(&e->fetched, memory_order_acquire))
				return;
			continue;
		}
		cpu_relax();
	}
}

struct worker_arg {
	struct engine *e;
	unsigned id;
};

/* The strata a set-sampled model counts into in its current frame. */
static void strata_of(const struct model *md, struct llct_frame_stats **fs)
{
	for (uint32_t st = 0; st <= md->sp->groups; st++)
		fs[st] = &md->strata[st * md->n_frames + md->frame_idx];
}

static void enter_frame(struct model *md, size_t frame_idx)
{
	if (md->frame_idx != frame_idx) {
		md->frame_idx = frame_idx;
		llct_cache_set_frame(md->cache, &md->res->frames[frame_idx]);
	}
}

/* After the pass: a store at a time, claimed by each free thread: its next uses, then every
 * deferred model that replays it, over it frame by frame. */
static void run_deferred(struct engine *e)
{
	size_t n_lists = e->n_sp * e->sel.n_var;
	for (size_t l; (l = atomic_fetch_add(&e->next_store, 1)) < n_lists;) {
		struct llct_sample_store *s = e->stores[l];
		if (!s)
			continue;
		if (llct_sample_store_next_uses(s, e->store_shift, e->ucd)) {
			atomic_store(&e->store_failed, 1);
			continue;
		}
		for (size_t m = 0; m < e->n_models; m++) {
			struct model *md = &e->models[m];
			if (!md->deferred || md->list_idx != l)
				continue;
			double t0 = llct_now_s();
			for (size_t g = 0; g < s->n_seg; g++) {
				size_t at = s->seg[g].at,
				       end = g + 1 < s->n_seg ? s->seg[g + 1].at : s->n;
				struct llct_sample_list sl = {s->e + at, (uint32_t)(end - at), 0,
							      s->addr_or};
				struct llct_frame_stats *fs[1 + LLCT_SAMPLE_MAX_GROUPS];
				enter_frame(md, s->seg[g].frame_idx);
				strata_of(md, fs);
				llct_cache_access_sampled(md->cache, &sl, s->next + at, fs,
							  md->scratch);
			}
			md->res->busy_s += llct_now_s() - t0;
		}
	}
}

/* Replays the window through models claimed one at a time, costliest first, until none is
 * left: a thread whose models were cheap takes the next one (dealing them out in turn left
 * one core idle for a whole model in every window whenever the models did not divide evenly).
 * No window: the deferred models' turn. */
static void run_models(struct engine *e, unsigned id)
{
	const struct window *w = e->win;
	(void)id;
	if (e->decode_only)
		return;
	if (!w) {
		run_deferred(e);
		return;
	}
	for (size_t k; (k = atomic_fetch_add_explicit(&e->next_model, 1, memory_order_relaxed)) <
		       e->n_items;) {
		struct model *md = &e->models[e->items[k].model];
		if (md->mrc) { /* counts every size's accesses itself */
			llct_mrc_window(md->mrc, w, e->items[k].shard,
					md->n_shards ? e->shp[md->shp_idx].first : SIZE_MAX);
			continue;
		}
		if (e->items[k].shard == 0)
			md->res->accesses += w->records;
		if (md->n_shards) {
			llct_shard_run(e, w, md, e->items[k].shard);
			continue;
		}
		if (md->deferred) {
			for (unsigned i = 0; md->keeper && !md->store_st && i < w->n; i++)
				md->store_st = llct_sample_store_add(e->stores[md->list_idx],
								     &w->lists[i][md->list_idx],
								     w->frame_idx[i]);
			continue;
		}
		double t0 = llct_now_s();
		for (unsigned i = 0; i < w->n; i++) {
			enter_frame(md, w->frame_idx[i]);
			const uint64_t *next = NULL;
			if (md->sp) {
				const struct llct_sample_list *sl = &w->lists[i][md->list_idx];
				struct llct_frame_stats *fs[1 + LLCT_SAMPLE_MAX_GROUPS];
				strata_of(md, fs);
				llct_cache_access_sampled(md->cache, sl, next, fs, md->scratch);
			} else {
				if (md->next64 && w->next_use[i]) { /* widen the batch's */
					for (uint32_t j = 0; j < w->n_lookups[i]; j++) {
						uint32_t x = w->next_use[i][j];
						md->next64[j] = x == NU_NONE ? LLCT_NEVER : x;
					}
					next = md->next64;
				}
				llct_cache_access_batch(md->cache, &w->b[i], next);
			}
		}
		md->res->busy_s += llct_now_s() - t0;
	}
}

/* The first failure to store a deferred model's list, with its message in why. */
static int store_failure(const struct engine *e, const char *path, char *why, size_t why_size)
{
	for (size_t m = 0; m < e->n_models; m++) {
		int st = e->models[m].store_st;
		if (st == LLCT_ERR_INVALID)
			snprintf(why, why_size,
				 "'%s': a set-sampled Belady replay keeps at most 2^32 - 1 sampled "
				 "accesses a configuration; select fewer frames with --frames, or "
				 "sample fewer sets",
				 path);
		else if (st)
			snprintf(
			    why, why_size,
			    "'%s': out of memory keeping the sampled accesses of the Belady models",
			    path);
		if (st)
			return st;
	}
	return LLCT_OK;
}

/* What the main thread needs to fill windows. */
struct feeder {
	struct llct_cursor *cur;
	const struct llct_frame_info *all;
	size_t n_all, ai; /* ai: index into all[] of the current frame */
	const size_t *sel_of;
	const uint32_t *next_use;
	uint64_t idx; /* accesses that look up the cache so far */
	int ucd;
	uint64_t (*exact)[32]; /* set-sampled: each selected frame's accesses by so, summed */
};

/* Set-sampled: batch i's accesses into its frame's exact traffic. */
static void add_exact(struct feeder *f, const struct window *w, unsigned i)
{
	if (f->exact)
		for (int k = 0; k < 32; k++)
			f->exact[w->frame_idx[i]][k] += w->so_count[i][k];
}

/* Decodes up to WINDOW batches; returns the cursor status (< 0 error, 0 end, 1 more). */
static int fill_window(struct feeder *f, struct window *w, const struct engine *e)
{
	int got = 1;
	w->n = 0;
	w->records = 0;
	while (w->n < WINDOW && (got = llct_cursor_next_into(f->cur, &w->b[w->n])) > 0) {
		struct llct_batch *b = &w->b[w->n];
		if ((e->n_sp && select_sampled(e, w, w->n)) ||
		    (e->n_shl && llct_shard_deal(e, w, w->n)))
			return LLCT_ERR_NOMEM;
		while (f->ai < f->n_all && f->all[f->ai].frame != b->frame)
			f->ai++;
		w->frame_idx[w->n] = f->sel_of[f->ai];
		add_exact(f, w, w->n);
		w->next_use[w->n] = f->next_use ? f->next_use + f->idx : NULL;
		w->n_lookups[w->n] = 0;
		if (f->next_use) {
			for (uint32_t i = 0; i < b->n; i++)
				w->n_lookups[w->n] += !(f->ucd && b->stream[i] == LLCT_STREAM_DISP);
			f->idx += w->n_lookups[w->n];
		}
		w->records += b->n;
		w->n++;
	}
	return got;
}

/* Reads up to WINDOW chunks raw into w, publishing each for the decoding threads; returns
 * the cursor status like fill_window. */
static int fetch_window(struct feeder *f, struct window *w, struct engine *e)
{
	int got = 1;
	unsigned n = 0;
	while (n < WINDOW && (got = llct_cursor_next_raw(f->cur, &w->raw[n])) > 0) {
		w->dec_st[n] = LLCT_OK;
		n++;
		atomic_store_explicit(&e->fetched, n, memory_order_release);
	}
	w->n = n;
	atomic_store_explicit(&e->fetch_done, 1, memory_order_release);
	return got;
}

/* After a parallel decode: each batch's frame and next-use slice, in order, as fill_window
 * does. Returns the first decode failure (message in *why), the window cut to the batches
 * before it, as fill_window leaves it. */
static int finish_window(struct feeder *f, struct window *w, const char **why)
{
	w->records = 0;
	for (unsigned i = 0; i < w->n; i++) {
		if (w->dec_st[i]) {
			*why = w->dec_err[i];
			w->n = i;
			return w->dec_st[i];
		}
		struct llct_batch *b = &w->b[i];
		while (f->ai < f->n_all && f->all[f->ai].frame != b->frame)
			f->ai++;
		w->frame_idx[i] = f->sel_of[f->ai];
		add_exact(f, w, i);
		w->next_use[i] = f->next_use ? f->next_use + f->idx : NULL;
		w->n_lookups[i] = 0;
		if (f->next_use) {
			if (!f->ucd)
				w->n_lookups[i] = b->n;
			else
				for (uint32_t j = 0; j < b->n; j++)
					w->n_lookups[i] += b->stream[j] != LLCT_STREAM_DISP;
			f->idx += w->n_lookups[i];
		}
		w->records += b->n;
	}
	return LLCT_OK;
}

static void *worker(void *p)
{
	LLCT_THREAD_NAME("llct-replay");
	struct worker_arg *a = p;
	struct engine *e = a->e;
	pthread_mutex_lock(&e->gate);
	pthread_mutex_unlock(&e->gate);
	for (;;) {
		pthread_barrier_wait(&e->start);
		if (e->quit)
			return NULL;
		run_models(e, a->id);
		help_decode(e);
		pthread_barrier_wait(&e->done);
	}
}

/* One round of the threads: the workers replay e->win (if any) while this thread reads window
 * nx when `more`, and every thread decodes it once free. Returns the cursor status, or a
 * decode failure with its message in *why and *failed set. */
static int decode_round(struct engine *e, struct feeder *fd, struct window *nx, int more,
			const char **why, int *failed)
{
	int got = 1, dst;
	nx->n = 0;
	e->dec = more ? nx : NULL;
	atomic_store(&e->fetched, 0);
	atomic_store(&e->taken, 0);
	atomic_store(&e->fetch_done, 0);
	pthread_barrier_wait(&e->start);
	if (more) {
		got = fetch_window(fd, nx, e);
		help_decode(e);
	}
	pthread_barrier_wait(&e->done);
	e->dec = NULL;
	if (!more)
		return 0;
	/* the chunks read before a failure to read are decoded: finish them too, so the window
	 * is whole whatever happened (the first window is replayed before the error is) */
	const char *dec_why = "";
	if ((dst = finish_window(fd, nx, &dec_why)) && got >= 0) {
		got = dst;
		*why = dec_why;
		*failed = 1;
	}
	return got;
}

/* One replay's state, from its setting up to its freeing. */
struct run {
	struct llct_reader *r;
	const struct llct_replay_options *o;
	const struct llct_frame_info *all;
	size_t n_all, n_sel;
	uint64_t total;
	size_t *sel_of;      /* index in all -> index in the frames selected */
	uint32_t *sel_frame; /* the frames selected */
	uint32_t *next_use;  /* Belady's next uses (the whole trace's), or NULL */
	struct llct_replay_result *res;
	struct engine e;
	struct window *win; /* two: one replayed while the next is decoded */
	struct feeder fd;
	struct llct_cursor *cur;
	pthread_t *threads;
	struct worker_arg *args;
	unsigned started;
	int inline_mode; /* no worker started: everything on this thread */
	int dec_failed;
	const char *dec_why;
	struct llct_sigtab sigs;
	char store_why[512];
};

/* Takes the frames selected and their records' count. */
static int select_frames(struct run *R)
{
	const struct llct_replay_options *o = R->o;
	llct_reader_frames(R->r, &R->all, &R->n_all);
	R->sel_of = calloc(R->n_all + 1, sizeof(*R->sel_of));
	R->sel_frame = calloc(R->n_all + 1, sizeof(*R->sel_frame));
	R->res = calloc(o->n_policies, sizeof(*R->res));
	R->e.models = calloc(o->n_policies, sizeof(*R->e.models));
	if (!R->sel_of || !R->sel_frame || !R->res || !R->e.models)
		return LLCT_ERR_NOMEM;
	for (size_t i = 0; i < R->n_all; i++) {
		if (o->frames && !llct_frame_range_contains(o->frames, R->all[i].frame))
			continue;
		R->sel_of[i] = R->n_sel;
		R->sel_frame[R->n_sel++] = R->all[i].frame;
		R->total += R->all[i].n_records;
	}
	return LLCT_OK;
}

/* The models, the windows their records come in, sampling, Belady's next uses and the cursor.
 * LLCT_OK, or an error with *said set when err already says it. */
static int run_setup(struct run *R, char *err, size_t err_size, int *said)
{
	const struct llct_replay_options *o = R->o;
	struct engine *e = &R->e;
	int need_next = 0, st;
	*said = 0;
	if ((st = select_frames(R)))
		return st;
	if ((st = llct_engine_make_models(e, o, R->res, R->sel_frame, R->n_sel, &need_next)))
		return st;
	if (!(R->win = calloc(2, sizeof(*R->win))))
		return LLCT_ERR_NOMEM;
	/* Plain models read no SM, kernel or tenant (no policy does): only contention tracking
	 * and partitioning, dynamic or by tenant, need them decoded. */
	int uses_sig = 0;
	for (size_t m = 0; m < o->n_policies; m++)
		uses_sig |= o->policies[m]->uses_sig;
	if (uses_sig) { /* signatures from the trace's kernels, shared by the models */
		if (llct_signatures_read(R->r, &R->sigs))
			return LLCT_ERR_NOMEM;
		for (size_t m = 0; m < e->n_models; m++)
			llct_cache_set_kernel_signatures(e->models[m].cache, R->sigs.ids,
							 R->sigs.sigs, R->sigs.n);
	}
	int no_ids =
	    !o->part && !o->dyn_plan && !o->contention && !o->per_kernel && !o->flow && !uses_sig;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < WINDOW; i++) {
			if (llct_batch_alloc(&R->win[k].b[i]))
				return LLCT_ERR_NOMEM;
			R->win[k].b[i].flags = no_ids ? LLCT_BATCH_NO_IDS : 0;
		}
	e->ucd = o->cache.ucd;
	*said = 1; /* from here on the steps say what failed */
	if (o->sample_sets > 1 && (st = llct_engine_setup_sampling(e, o, R->n_sel, R->total, R->win,
								   &R->fd.exact, err, err_size))) {
		*said = st != LLCT_ERR_NOMEM;
		return st;
	}
	if (need_next && !e->n_sp &&
	    (st = llct_next_use_pass(R->r, o, R->total, R->win, &R->next_use, err, err_size)))
		return st;
	*said = 0;
	for (size_t m = 0; m < e->n_models; m++)
		if (o->policies[m]->needs_next_use && !e->models[m].deferred &&
		    !(e->models[m].next64 = malloc(LLCT_CHUNK_MAX * sizeof(uint64_t))))
			return LLCT_ERR_NOMEM;
	if ((st = llct_cursor_open(R->r, o->frames, &R->cur))) {
		snprintf(err, err_size, "%s", llct_reader_error(R->r));
		*said = 1;
		return st;
	}
	R->fd.cur = R->cur;
	R->fd.all = R->all;
	R->fd.n_all = R->n_all;
	R->fd.sel_of = R->sel_of;
	R->fd.next_use = R->next_use;
	R->fd.ucd = o->cache.ucd;
	e->reader = R->r;
	return LLCT_OK;
}

/* The worker threads, started behind a gate; if fewer start than asked, the models are spread
 * over those that did, or replayed on this thread if none did. */
static int start_workers(struct run *R)
{
	struct engine *e = &R->e;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	e->n_threads = R->o->threads ? R->o->threads : (unsigned)(cores > 0 ? cores : 1);
	/* more threads than models: split the models that may be split over them */
	if (llct_engine_setup_shards(e, R->o, &e->n_threads, R->n_sel, R->win))
		return LLCT_ERR_NOMEM;
	R->threads = calloc(e->n_threads, sizeof(*R->threads));
	R->args = calloc(e->n_threads, sizeof(*R->args));
	if (!R->threads || !R->args)
		return LLCT_ERR_NOMEM;
	pthread_mutex_init(&e->gate, NULL);
	pthread_mutex_lock(&e->gate);
	unsigned want = e->n_threads;
	for (; R->started < want; R->started++) {
		R->args[R->started] = (struct worker_arg){e, R->started};
		if (pthread_create(&R->threads[R->started], NULL, worker, &R->args[R->started]))
			break;
	}
	R->inline_mode = R->started == 0;
	e->n_threads = R->inline_mode ? 1 : R->started;
	if (!R->inline_mode) {
		pthread_barrier_init(&e->start, NULL, R->started + 1);
		pthread_barrier_init(&e->done, NULL, R->started + 1);
	}
	pthread_mutex_unlock(&e->gate);
	return LLCT_OK;
}

/* The windows of records through the models, each decoded while the one before is replayed;
 * the last decode's result (negative: failed). */
static int replay_windows(struct run *R)
{
	struct engine *e = &R->e;
	const struct llct_replay_options *o = R->o;
	uint64_t done = 0;
	int cur_win = 0, got;
	if (R->inline_mode) {
		got = fill_window(&R->fd, &R->win[0], e);
	} else { /* every thread decodes the first window */
		e->decode_only = 1;
		got = decode_round(e, &R->fd, &R->win[0], 1, &R->dec_why, &R->dec_failed);
		e->decode_only = 0;
	}
	while (R->win[cur_win].n > 0) {
		struct window *w = &R->win[cur_win];
		e->win = w;
		int more = got > 0;
		atomic_store(&e->next_model, 0);
		if (R->inline_mode) {
			run_models(e, 0);
			R->win[1 - cur_win].n = 0;
			if (more)
				got = fill_window(&R->fd, &R->win[1 - cur_win], e);
		} else {
			/* read the next window while the workers replay this one; every thread
			 * decodes it once free */
			got = decode_round(e, &R->fd, &R->win[1 - cur_win], more, &R->dec_why,
					   &R->dec_failed);
		}
		if (got >= 0 && e->stores) {
			int sst = store_failure(e, llct_reader_path(R->r), R->store_why,
						sizeof(R->store_why));
			if (sst) {
				got = sst;
				R->dec_failed = 1;
				R->dec_why = R->store_why;
			}
		}
		done += w->records;
		if (o->progress)
			o->progress(o->progress_ud, done, R->total);
		if (got < 0)
			break;
		cur_win = 1 - cur_win;
	}
	return got;
}

/* The deferred (sampled) models' turn, after every window; the result as replay_windows's. */
static int replay_deferred(struct run *R)
{
	struct engine *e = &R->e;
	while ((1u << e->store_shift) < R->o->cache.line)
		e->store_shift++;
	e->win = NULL;
	e->dec = NULL;
	atomic_store(&e->next_model, 0);
	if (R->inline_mode) {
		run_models(e, 0);
	} else {
		pthread_barrier_wait(&e->start);
		run_models(e, 0);
		pthread_barrier_wait(&e->done);
	}
	if (!atomic_load(&e->store_failed))
		return 0;
	R->dec_failed = 1;
	snprintf(R->store_why, sizeof(R->store_why),
		 "'%s': out of memory finding the next uses of the sampled accesses",
		 llct_reader_path(R->r));
	R->dec_why = R->store_why;
	return LLCT_ERR_NOMEM;
}

static void stop_workers(struct run *R)
{
	struct engine *e = &R->e;
	e->quit = 1;
	if (!R->inline_mode) {
		pthread_barrier_wait(&e->start);
		for (unsigned t = 0; t < R->started; t++)
			pthread_join(R->threads[t], NULL);
		pthread_barrier_destroy(&e->start);
		pthread_barrier_destroy(&e->done);
	}
	pthread_mutex_destroy(&e->gate);
}

static void run_free(struct run *R)
{
	struct engine *e = &R->e;
	struct window *win = R->win;
	llct_replay_results_free(R->res, R->o->n_policies);
	llct_cursor_close(R->cur);
	llct_shards_free(e, win);
	for (size_t m = 0; e->models && m < e->n_models; m++) {
		llct_cache_destroy(e->models[m].cache);
		llct_mrc_free(e->models[m].mrc);
		free(e->models[m].next64);
		free(e->models[m].strata);
		free(e->models[m].scratch);
		if (e->models[m].dyn)
			llct_dynpart_release(e->models[m].dyn);
		free(e->models[m].dyn);
	}
	free(e->models);
	free(R->threads);
	free(R->args);
	for (int k = 0; win && k < 2; k++)
		for (int i = 0; i < WINDOW; i++) {
			llct_batch_free(&win[k].b[i]);
			llct_raw_chunk_free(&win[k].raw[i]);
			for (size_t c = 0; win[k].lists[i] && c < e->n_sp * e->sel.n_var; c++)
				free(win[k].lists[i][c].e);
			free(win[k].lists[i]);
		}
	for (size_t l = 0; e->stores && l < e->n_sp * e->sel.n_var; l++) {
		if (e->stores[l])
			llct_sample_store_release(e->stores[l]);
		free(e->stores[l]);
	}
	free(e->stores);
	llct_sample_sel_release(&e->sel);
	for (size_t c = 0; c < e->n_sp; c++)
		llct_sample_plan_release(&e->sp[c]);
	free(e->sp);
	free(win);
	free(R->next_use);
	free(R->sel_of);
	free(R->sel_frame);
	free(R->fd.exact);
	llct_signatures_free(&R->sigs);
}

int llct_replay_run(struct llct_reader *r, const struct llct_replay_options *o,
		    struct llct_replay_result **results, double *wall_s, char *err, size_t err_size)
{
	double t0 = llct_now_s();
	*results = NULL;
	int st = llct_replay_check_options(o, err, err_size);
	if (st)
		return st;
	struct run *R = calloc(1, sizeof(*R));
	if (!R) {
		snprintf(err, err_size, "'%s': out of memory", llct_reader_path(r));
		return LLCT_ERR_NOMEM;
	}
	R->r = r, R->o = o, R->dec_why = "";
	int said = 0;
	st = run_setup(R, err, err_size, &said);
	if (!st)
		st = start_workers(R);
	if (!st) {
		int got = replay_windows(R);
		if (got >= 0 && R->e.stores)
			got = replay_deferred(R);
		stop_workers(R);
		if (got < 0) {
			st = got;
			snprintf(err, err_size, "%s",
				 R->dec_failed ? R->dec_why : llct_reader_error(r));
			said = 1;
		}
	}
	if (!st) {
		*wall_s = llct_now_s() - t0;
		llct_shards_add_up(&R->e);
		llct_mrc_hand_over(&R->e);
		if (llct_engine_hand_over(&R->e, o, R->res, R->n_sel,
					  (const uint64_t(*)[32])R->fd.exact))
			st = LLCT_ERR_NOMEM;
		else
			*results = R->res, R->res = NULL;
	}
	if (st && !said) {
		if (st == LLCT_ERR_NOMEM)
			snprintf(err, err_size, "'%s': out of memory", llct_reader_path(r));
		else
			snprintf(err, err_size, "'%s': cannot set up the replay: %s",
				 llct_reader_path(r), llct_strerror(st));
	}
	run_free(R);
	free(R);
	return st;
}

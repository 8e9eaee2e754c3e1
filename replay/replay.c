/* replay.c - the replay engine: decodes the chosen frames once and drives every cache model
 * from the same batches, models spread over worker threads while the main thread decodes the
 * next batch (double buffering). Belady-style policies get a next-use pass first.
 */
#include "llct/replay.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct model {
	struct llct_cache *cache;
	struct llct_replay_result *res;
	size_t frame_idx; /* index in res->frames the cache counts into */
};

struct engine {
	struct model *models;
	size_t n_models;
	unsigned n_threads;
	pthread_barrier_t start, done;
	pthread_mutex_t gate; /* held while threads are created, so they start together */
	/* set by the main thread before `start` */
	const struct llct_batch *batch;
	const uint64_t *next_use; /* for this batch's accesses that look up the cache */
	size_t frame_idx;
	int quit;
};

struct worker_arg {
	struct engine *e;
	unsigned id;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_models(struct engine *e, unsigned id)
{
	for (size_t m = id; m < e->n_models; m += e->n_threads) {
		struct model *md = &e->models[m];
		double t0 = now_s();
		if (md->frame_idx != e->frame_idx) {
			md->frame_idx = e->frame_idx;
			llct_cache_set_frame(md->cache, &md->res->frames[e->frame_idx]);
		}
		llct_cache_access_batch(md->cache, e->batch, e->next_use);
		md->res->accesses += e->batch->n;
		md->res->busy_s += now_s() - t0;
	}
}

static void *worker(void *p)
{
	struct worker_arg *a = p;
	struct engine *e = a->e;
	pthread_mutex_lock(&e->gate);
	pthread_mutex_unlock(&e->gate);
	for (;;) {
		pthread_barrier_wait(&e->start);
		if (e->quit)
			return NULL;
		run_models(e, a->id);
		pthread_barrier_wait(&e->done);
	}
}

/* ---- next-use pass: a hash map from line address to its last index ---- */

struct line_map {
	uint64_t *key, *val; /* key+1 stored, 0 = empty */
	size_t cap, n;
};

static int map_grow(struct line_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : (1u << 16);
	uint64_t *k = calloc(cap, sizeof(*k)), *v = malloc(cap * sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return LLCT_ERR_NOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->key[i])
			continue;
		size_t h = (size_t)((m->key[i] * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
		while (k[h])
			h = (h + 1) & (cap - 1);
		k[h] = m->key[i];
		v[h] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = k;
	m->val = v;
	m->cap = cap;
	return LLCT_OK;
}

/* Stores idx as the last index of `line`; returns the previous one or LLCT_NEVER. */
static uint64_t map_swap(struct line_map *m, uint64_t line, uint64_t idx)
{
	uint64_t key = line + 1;
	size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (m->cap - 1);
	while (m->key[h] && m->key[h] != key)
		h = (h + 1) & (m->cap - 1);
	if (m->key[h]) {
		uint64_t old = m->val[h];
		m->val[h] = idx;
		return old;
	}
	m->key[h] = key;
	m->val[h] = idx;
	m->n++;
	return LLCT_NEVER;
}

static int next_use_pass(struct llct_reader *r, const struct llct_replay_options *o, uint64_t total,
			 uint64_t **out, char *err, size_t err_size)
{
	struct llct_cursor *cur;
	struct llct_batch b;
	struct line_map m = {0};
	unsigned shift = 0;
	uint64_t idx = 0;
	int got, st = LLCT_OK;
	uint64_t *next = malloc((total ? total : 1) * sizeof(*next));
	*out = NULL;
	while ((1u << shift) < o->cache.line)
		shift++;
	if (!next || map_grow(&m)) {
		free(next);
		snprintf(err, err_size, "'%s': out of memory for the next-use pass",
			 llct_reader_path(r));
		return LLCT_ERR_NOMEM;
	}
	if ((st = llct_cursor_open(r, o->frames, &cur))) {
		snprintf(err, err_size, "%s", llct_reader_error(r));
		goto out;
	}
	while ((got = llct_cursor_next(cur, &b)) > 0) {
		for (uint32_t i = 0; i < b.n; i++) {
			if (o->cache.ucd && b.stream[i] == LLCT_STREAM_DISP)
				continue;
			if (idx >= total) { /* more records than the index said */
				got = LLCT_ERR_CORRUPT;
				break;
			}
			if (m.n * 2 >= m.cap && map_grow(&m)) {
				got = LLCT_ERR_NOMEM;
				break;
			}
			next[idx] = LLCT_NEVER;
			uint64_t prev = map_swap(&m, b.addr[i] >> shift, idx);
			if (prev != LLCT_NEVER)
				next[prev] = idx;
			idx++;
		}
		if (got < 0)
			break;
	}
	if (got < 0) {
		st = got;
		snprintf(err, err_size, "%s",
			 got == LLCT_ERR_NOMEM ? "out of memory in the next-use pass"
					       : llct_reader_error(r));
	}
	llct_cursor_close(cur);
out:
	free(m.key);
	free(m.val);
	if (st)
		free(next);
	else
		*out = next;
	return st;
}

void llct_replay_results_free(struct llct_replay_result *res, size_t n)
{
	if (!res)
		return;
	for (size_t i = 0; i < n; i++)
		free(res[i].frames);
	free(res);
}

int llct_replay_run(struct llct_reader *r, const struct llct_replay_options *o,
		    struct llct_replay_result **results, double *wall_s, char *err, size_t err_size)
{
	const struct llct_frame_info *all;
	size_t n_all, n_sel = 0;
	uint64_t total = 0, done = 0, idx = 0;
	uint64_t *next_use = NULL;
	int need_next = 0, st = LLCT_OK, got;
	struct engine e;
	struct llct_batch buf[2];
	struct llct_cursor *cur = NULL;
	pthread_t *threads = NULL;
	struct worker_arg *args = NULL;
	unsigned started = 0;
	double t0 = now_s();

	*results = NULL;
	memset(&e, 0, sizeof(e));
	memset(buf, 0, sizeof(buf));
	if (llct_cache_config_check(&o->cache, err, err_size) || o->n_policies == 0)
		return LLCT_ERR_INVALID;
	llct_reader_frames(r, &all, &n_all);
	size_t *sel_of = calloc(n_all + 1, sizeof(*sel_of)); /* index in all -> index in sel */
	uint32_t *sel_frame = calloc(n_all + 1, sizeof(*sel_frame));
	struct llct_replay_result *res = calloc(o->n_policies, sizeof(*res));
	e.models = calloc(o->n_policies, sizeof(*e.models));
	if (!sel_of || !sel_frame || !res || !e.models)
		goto nomem;
	for (size_t i = 0; i < n_all; i++) {
		if (o->frames && !llct_frame_range_contains(o->frames, all[i].frame))
			continue;
		sel_of[i] = n_sel;
		sel_frame[n_sel++] = all[i].frame;
		total += all[i].n_records;
	}
	e.n_models = o->n_policies;
	for (size_t m = 0; m < o->n_policies; m++) {
		res[m].policy = o->policies[m];
		res[m].n_frames = n_sel;
		res[m].frames = calloc(n_sel ? n_sel : 1, sizeof(*res[m].frames));
		if (!res[m].frames)
			goto nomem;
		for (size_t f = 0; f < n_sel; f++)
			res[m].frames[f].frame = sel_frame[f];
		if ((st = llct_cache_create(&o->cache, o->policies[m], &e.models[m].cache)))
			goto fail_msg;
		e.models[m].res = &res[m];
		e.models[m].frame_idx = SIZE_MAX;
		res[m].peak_state = llct_cache_state_bytes(e.models[m].cache);
		need_next |= o->policies[m]->needs_next_use;
	}
	if (need_next && (st = next_use_pass(r, o, total, &next_use, err, err_size)))
		goto fail;
	if (llct_batch_alloc(&buf[0]) || llct_batch_alloc(&buf[1]))
		goto nomem;
	if ((st = llct_cursor_open(r, o->frames, &cur))) {
		snprintf(err, err_size, "%s", llct_reader_error(r));
		goto fail;
	}

	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	e.n_threads = o->threads ? o->threads : (unsigned)(cores > 0 ? cores : 1);
	if (e.n_threads > e.n_models)
		e.n_threads = (unsigned)e.n_models;
	threads = calloc(e.n_threads, sizeof(*threads));
	args = calloc(e.n_threads, sizeof(*args));
	if (!threads || !args)
		goto nomem;
	/* Start the workers behind a gate; if fewer start than asked, the models are spread
	 * over those that did, or replayed on this thread if none did. */
	pthread_mutex_init(&e.gate, NULL);
	pthread_mutex_lock(&e.gate);
	unsigned want = e.n_threads;
	for (; started < want; started++) {
		args[started] = (struct worker_arg){&e, started};
		if (pthread_create(&threads[started], NULL, worker, &args[started]))
			break;
	}
	int inline_mode = started == 0;
	e.n_threads = inline_mode ? 1 : started;
	if (!inline_mode) {
		pthread_barrier_init(&e.start, NULL, started + 1);
		pthread_barrier_init(&e.done, NULL, started + 1);
	}
	pthread_mutex_unlock(&e.gate);

	int cur_buf = 0;
	got = llct_cursor_next_into(cur, &buf[0]);
	size_t ai = 0; /* index into all[] of the current frame */
	while (got > 0) {
		struct llct_batch *b = &buf[cur_buf];
		while (ai < n_all && all[ai].frame != b->frame)
			ai++;
		e.batch = b;
		e.frame_idx = sel_of[ai];
		e.next_use = next_use ? next_use + idx : NULL;
		if (next_use) {
			for (uint32_t i = 0; i < b->n; i++)
				idx += !(o->cache.ucd && b->stream[i] == LLCT_STREAM_DISP);
		}
		if (inline_mode) {
			run_models(&e, 0);
			got = llct_cursor_next_into(cur, &buf[1 - cur_buf]);
		} else {
			pthread_barrier_wait(&e.start);
			/* decode the next batch while the workers replay this one */
			got = llct_cursor_next_into(cur, &buf[1 - cur_buf]);
			pthread_barrier_wait(&e.done);
		}
		done += b->n;
		if (o->progress)
			o->progress(o->progress_ud, done, total);
		cur_buf = 1 - cur_buf;
	}
	e.quit = 1;
	if (!inline_mode) {
		pthread_barrier_wait(&e.start);
		for (unsigned t = 0; t < started; t++)
			pthread_join(threads[t], NULL);
		pthread_barrier_destroy(&e.start);
		pthread_barrier_destroy(&e.done);
	}
	pthread_mutex_destroy(&e.gate);
	if (got < 0) {
		st = got;
		snprintf(err, err_size, "%s", llct_reader_error(r));
		goto fail;
	}
	*wall_s = now_s() - t0;
	*results = res;
	res = NULL;
	goto out;

nomem:
	st = LLCT_ERR_NOMEM;
fail_msg:
	if (st == LLCT_ERR_NOMEM)
		snprintf(err, err_size, "'%s': out of memory", llct_reader_path(r));
	else
		snprintf(err, err_size, "'%s': cannot set up the replay: %s", llct_reader_path(r),
			 llct_strerror(st));
fail:
	llct_replay_results_free(res, o->n_policies);
out:
	llct_cursor_close(cur);
	for (size_t m = 0; e.models && m < e.n_models; m++)
		llct_cache_destroy(e.models[m].cache);
	free(e.models);
	free(threads);
	free(args);
	llct_batch_free(&buf[0]);
	llct_batch_free(&buf[1]);
	free(next_use);
	free(sel_of);
	free(sel_frame);
	return st;
}

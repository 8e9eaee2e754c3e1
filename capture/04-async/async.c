/* async.c - the device's expansion thread and the waits that keep the program from changing
 * what it has yet to read (async.h). */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "pipes.h"
#include "settings.h"
#include "tier.h"
#include "track.h"

#include <stdlib.h>
#include <string.h>

static void *async_main(void *arg);
static void wait_seq(struct capture_device *c, uint64_t seq);

/* The devices with a thread, for the program's exit (a program that ends without destroying
 * its device still gets the frames it finished). */
#define MAX_DEVICES 16
static pthread_mutex_t devices_mu = PTHREAD_MUTEX_INITIALIZER;
static struct capture_device *devices[MAX_DEVICES];

/* A destructor, not atexit(): it runs when the layer is unloaded as well as at exit, never
 * after the layer's code is gone (sanitizers run atexit() handlers after dlclose). */
__attribute__((destructor)) static void drain_at_exit(void)
{
	pthread_mutex_lock(&devices_mu);
	for (int i = 0; i < MAX_DEVICES; i++)
		if (devices[i]) {
			pthread_mutex_lock(&devices[i]->lock);
			async_quiesce(devices[i]);
			if (devices[i]->as->at_exit)
				devices[i]->as->at_exit(devices[i]);
			pthread_mutex_unlock(&devices[i]->lock);
		}
	pthread_mutex_unlock(&devices_mu);
}

static void track(struct capture_device *c, int on)
{
	pthread_mutex_lock(&devices_mu);
	for (int i = 0; i < MAX_DEVICES; i++)
		if (on ? !devices[i] : devices[i] == c) {
			devices[i] = on ? c : NULL;
			break;
		}
	pthread_mutex_unlock(&devices_mu);
}

void async_init(struct capture_device *c, int on,
		void (*expand_fn)(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs),
		void (*end_frame_fn)(struct capture_device *c),
		void (*at_exit_fn)(struct capture_device *c),
		uint64_t (*pending_fn)(struct capture_device *c, uint64_t cb, int what,
				       uint64_t seq))
{
	memset(c->as, 0, sizeof(*c->as));
	c->as->on = on;
	c->as->expand = expand_fn;
	c->as->end_frame = end_frame_fn;
	c->as->at_exit = at_exit_fn;
	c->as->pending = pending_fn;
	pthread_cond_init(&c->as->work, NULL);
	pthread_cond_init(&c->as->done, NULL);
	/* tracked from here, not when the first job starts the thread: that happens with the
	 * device lock held, and drain_at_exit takes devices_mu and then the device lock (the
	 * other order, found by ThreadSanitizer under tests/apps/threads.c); without the thread
	 * too, for at_exit */
	track(c, 1);
}

/* Appends j (with the lock), starting the thread with the first job. */
static int push(struct capture_device *c, struct async_job *j)
{
	if (!c->as->started) {
		if (pthread_create(&c->as->thread, NULL, async_main, c))
			return -1;
		c->as->started = 1;
	}
	j->seq = ++c->as->next_seq;
	if (c->as->tail)
		c->as->tail->next = j;
	else
		c->as->head = j;
	c->as->tail = j;
	pthread_cond_signal(&c->as->work);
	return 0;
}

/* A command buffer and the secondaries it executes (two levels, as expand() walks them): mark
 * them queued in job `seq`; clear the marks job `seq` left; or the last job any is queued in. */

static void free_job(struct async_job *j)
{
	free(j->cbs);
	free(j->sigs);
	free(j);
}

/* The semaphores one submission signals, with their values (timeline ones from the
 * VkTimelineSemaphoreSubmitInfo in its chain). */
static size_t count_sigs(uint32_t n, const VkSubmitInfo *v1, const VkSubmitInfo2 *v2)
{
	size_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		k += v1 ? v1[i].signalSemaphoreCount : v2[i].signalSemaphoreInfoCount;
	return k;
}

static void fill_sigs(struct async_sig *s, uint32_t n, const VkSubmitInfo *v1,
		      const VkSubmitInfo2 *v2)
{
	size_t k = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (v2) {
			for (uint32_t j = 0; j < v2[i].signalSemaphoreInfoCount; j++)
				s[k++] =
				    (struct async_sig){v2[i].pSignalSemaphoreInfos[j].semaphore,
						       v2[i].pSignalSemaphoreInfos[j].value};
			continue;
		}
		const VkTimelineSemaphoreSubmitInfo *t = NULL;
		for (const VkBaseInStructure *p = v1[i].pNext; p; p = p->pNext)
			if (p->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
				t = (const VkTimelineSemaphoreSubmitInfo *)p;
		for (uint32_t j = 0; j < v1[i].signalSemaphoreCount; j++)
			s[k++] = (struct async_sig){v1[i].pSignalSemaphores[j],
						    t && j < t->signalSemaphoreValueCount &&
							    t->pSignalSemaphoreValues
							? t->pSignalSemaphoreValues[j]
							: 0};
	}
}

int async_queue_cbs(struct capture_device *c, const VkCommandBuffer *cbs, size_t n, VkFence fence,
		    uint32_t n_submits, const VkSubmitInfo *v1, const VkSubmitInfo2 *v2, int ready,
		    uint64_t *seq_out)
{
	struct async_job *j = calloc(1, sizeof(*j));
	size_t ns = count_sigs(n_submits, v1, v2);
	if (!j || !(j->cbs = malloc((n ? n : 1) * sizeof(*cbs))) ||
	    (ns && !(j->sigs = malloc(ns * sizeof(*j->sigs))))) {
		if (j)
			free_job(j);
		return -1;
	}
	memcpy(j->cbs, cbs, n * sizeof(*cbs));
	j->n = n;
	j->fence = fence;
	fill_sigs(j->sigs, n_submits, v1, v2);
	j->n_sigs = ns;
	j->ready = ready;
	if (push(c, j)) {
		free_job(j);
		return -1;
	}
	uint64_t seq = j->seq; /* j is the thread's from here */
	*seq_out = seq;
	for (size_t i = 0; i < n; i++) /* waiting: not to be re-recorded before expanded */
		c->as->pending(c, H(cbs[i]), ASYNC_MARK, seq);
	/* a program that never waits would queue without end: at 64 behind, it waits for 32 */
	if (seq > c->as->done_seq + 64)
		wait_seq(c, seq - 32);
	return 0;
}

int async_queue_boundary(struct capture_device *c)
{
	struct async_job *j = calloc(1, sizeof(*j));
	if (!j)
		return -1;
	j->boundary = 1;
	j->ready = 1;
	if (push(c, j)) {
		free(j);
		return -1;
	}
	return 0;
}

void async_ready(struct capture_device *c, uint64_t seq)
{
	for (struct async_job *j = c->as->head; j; j = j->next)
		if (j->seq == seq)
			j->ready = 1;
	pthread_cond_signal(&c->as->work);
}

static void wait_seq(struct capture_device *c, uint64_t seq)
{
	while (c->as->done_seq < seq && c->as->started)
		pthread_cond_wait(&c->as->done, &c->lock);
}

void async_quiesce(struct capture_device *c)
{
	wait_seq(c, c->as->next_seq);
}

/* No submission between its turn's taking and end (with the lock). */
static void sync_idle(struct capture_device *c)
{
	while (c->as->sync_busy)
		pthread_cond_wait(&c->as->done, &c->lock);
}

void async_settle(struct capture_device *c)
{
	async_quiesce(c);
	sync_idle(c);
}

void async_settle_submitted(struct capture_device *c)
{
	sync_idle(c);
}

uint64_t capture_sync_begin(struct capture_device *c)
{
	c->as->sync_busy++;
	return c->as->sync_next++;
}

void capture_sync_turn(struct capture_device *c, uint64_t turn)
{
	while (c->as->sync_served != turn)
		pthread_cond_wait(&c->as->done, &c->lock);
}

void capture_sync_end(struct capture_device *c)
{
	c->as->sync_served++;
	c->as->sync_busy--;
	pthread_cond_broadcast(&c->as->done);
}

void async_wait_seq(struct capture_device *c, uint64_t seq)
{
	sync_idle(c);
	wait_seq(c, seq);
}

/* The last queued job matching, 0 if none (with the lock). */
static uint64_t last_fence_job(const struct capture_device *c, uint32_t n, const VkFence *f)
{
	uint64_t seq = 0;
	for (const struct async_job *j = c->as->head; j; j = j->next)
		for (uint32_t i = 0; i < n && j->fence; i++)
			if (j->fence == f[i])
				seq = j->seq;
	return seq;
}

static uint64_t last_sem_job(const struct capture_device *c, uint32_t n, const VkSemaphore *s,
			     const uint64_t *v)
{
	uint64_t seq = 0;
	for (const struct async_job *j = c->as->head; j; j = j->next)
		for (size_t k = 0; k < j->n_sigs; k++)
			for (uint32_t i = 0; i < n; i++)
				if (j->sigs[k].sem == s[i] && (!v || j->sigs[k].value <= v[i]))
					seq = j->seq;
	return seq;
}

void async_gate_fences(struct capture_device *c, uint32_t n, const VkFence *fences)
{
	if (!c->as->on)
		return;
	pthread_mutex_lock(&c->lock);
	wait_seq(c, last_fence_job(c, n, fences));
	pthread_mutex_unlock(&c->lock);
}

void async_gate_semaphores(struct capture_device *c, uint32_t n, const VkSemaphore *sems,
			   const uint64_t *values)
{
	if (!c->as->on)
		return;
	pthread_mutex_lock(&c->lock);
	wait_seq(c, last_sem_job(c, n, sems, values));
	pthread_mutex_unlock(&c->lock);
}

int async_fences_queued(struct capture_device *c, uint32_t n, const VkFence *fences)
{
	if (!c->as->on)
		return 0;
	pthread_mutex_lock(&c->lock);
	int q = last_fence_job(c, n, fences) > c->as->done_seq;
	pthread_mutex_unlock(&c->lock);
	return q;
}

int async_semaphores_queued(struct capture_device *c, uint32_t n, const VkSemaphore *sems,
			    const uint64_t *values)
{
	if (!c->as->on)
		return 0;
	pthread_mutex_lock(&c->lock);
	int q = last_sem_job(c, n, sems, values) > c->as->done_seq;
	pthread_mutex_unlock(&c->lock);
	return q;
}

void async_clamp_counter(struct capture_device *c, VkSemaphore sem, uint64_t *value)
{
	if (!c->as->on)
		return;
	pthread_mutex_lock(&c->lock);
	for (const struct async_job *j = c->as->head; j; j = j->next)
		for (size_t k = 0; k < j->n_sigs; k++)
			if (j->sigs[k].sem == sem && j->sigs[k].value && *value >= j->sigs[k].value)
				*value = j->sigs[k].value - 1;
	pthread_mutex_unlock(&c->lock);
}

void async_gate_all(struct capture_device *c)
{
	if (!c->as->on)
		return;
	pthread_mutex_lock(&c->lock);
	async_quiesce(c);
	pthread_mutex_unlock(&c->lock);
}

void async_draw_begin(struct capture_device *c)
{
	if (c->as->started && pthread_equal(pthread_self(), c->as->thread)) {
		c->as->in_draw = 1;
		pthread_mutex_unlock(&c->lock);
	}
}

void async_draw_end(struct capture_device *c)
{
	if (c->as->started && pthread_equal(pthread_self(), c->as->thread) && c->as->in_draw) {
		pthread_mutex_lock(&c->lock);
		c->as->in_draw = 0;
	}
}

static void *async_main(void *arg)
{
	LLCT_THREAD_NAME("llct-expand");
	struct capture_device *c = arg;
	pthread_mutex_lock(&c->lock);
	for (;;) {
		while ((!c->as->head || !c->as->head->ready) && !c->as->quit)
			pthread_cond_wait(&c->as->work, &c->lock);
		struct async_job *j = c->as->head;
		if (!j)
			break; /* quit, and nothing left */
		if (j->boundary) {
			c->as->end_frame(c);
		} else {
			c->as->expand(c, (uint32_t)j->n, j->cbs);
			for (size_t i = 0; i < j->n; i++)
				c->as->pending(c, H(j->cbs[i]), ASYNC_CLEAR, j->seq);
		}
		c->as->head = j->next; /* gates look at the jobs not yet done */
		if (!c->as->head)
			c->as->tail = NULL;
		c->as->done_seq = j->seq;
		pthread_cond_broadcast(&c->as->done);
		free_job(j);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

void async_stop(struct capture_device *c)
{
	track(c, 0);
	pthread_mutex_lock(&c->lock);
	int started = c->as->started;
	c->as->quit = 1;
	pthread_cond_signal(&c->as->work);
	pthread_mutex_unlock(&c->lock);
	if (started)
		pthread_join(c->as->thread, NULL);
	pthread_mutex_lock(&c->lock);
	c->as->started = 0;
	pthread_mutex_unlock(&c->lock);
	pthread_cond_destroy(&c->as->work);
	pthread_cond_destroy(&c->as->done);
}

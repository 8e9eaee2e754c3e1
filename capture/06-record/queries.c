/* queries.c - the layer's queries in primary command buffers: a precise occlusion query (or,
 * without occlusionQueryPrecise, a pipeline-statistics query of fragment shader invocations)
 * around each draw recorded directly in it, and tier 2's transform-feedback stream queries
 * around its shadow draws; the program's own queries that rule them out (queries of one type
 * do not nest, and the shadow draws would add to the program's primitive counts); waiting for
 * a captured submission and reading the results. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "tier.h"
#include "track.h"

#include <stdlib.h>

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateQueryPool(VkDevice device,
						   const VkQueryPoolCreateInfo *info,
						   const VkAllocationCallbacks *alloc,
						   VkQueryPool *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateQueryPool(device, info, alloc, out);
	if (r == VK_SUCCESS && c) { /* the map holds its type + 1 */
		pthread_mutex_lock(&c->lock);
		if (capture_hmap_put(&c->rs->qpools, H(*out),
				     (void *)(uintptr_t)(info->queryType + 1)))
			cap_fail(c, "out of memory tracking query pools");
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyQueryPool(VkDevice device, VkQueryPool pool,
						const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	if (c) {
		pthread_mutex_lock(&c->lock);
		async_settle(c); /* nothing queued or being expanded still reads it */
		capture_hmap_del(&c->rs->qpools, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyQueryPool(device, pool, alloc);
}

/* A query of the program's begins (+1) or ends (-1) in cb. */
static void app_query(VkCommandBuffer cb, VkQueryPool pool, int delta)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	uintptr_t t = (uintptr_t)capture_hmap_get(&c->rs->qpools, H(pool));
	struct cbuf *b = t ? capture_cbuf_of(c, cb) : NULL;
	if (b && t - 1 == VK_QUERY_TYPE_PIPELINE_STATISTICS)
		b->app_stats += delta;
	else if (b && t - 1 == VK_QUERY_TYPE_OCCLUSION)
		b->app_occl += delta;
	else if (b && (t - 1 == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT ||
		       t - 1 == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT))
		b->app_prims += delta;
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginQuery(VkCommandBuffer cb, VkQueryPool pool, uint32_t query,
					     VkQueryControlFlags flags)
{
	capture_dispatch(cb)->CmdBeginQuery(cb, pool, query, flags);
	app_query(cb, pool, 1);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndQuery(VkCommandBuffer cb, VkQueryPool pool, uint32_t query)
{
	capture_dispatch(cb)->CmdEndQuery(cb, pool, query);
	app_query(cb, pool, -1);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginQueryIndexedEXT(VkCommandBuffer cb, VkQueryPool pool,
						       uint32_t query, VkQueryControlFlags flags,
						       uint32_t index)
{
	capture_dispatch(cb)->CmdBeginQueryIndexedEXT(cb, pool, query, flags, index);
	app_query(cb, pool, 1);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndQueryIndexedEXT(VkCommandBuffer cb, VkQueryPool pool,
						     uint32_t query, uint32_t index)
{
	capture_dispatch(cb)->CmdEndQueryIndexedEXT(cb, pool, query, index);
	app_query(cb, pool, -1);
}

/* The program's own transform feedback: no shadow draws while it is active. */
static void app_xfb(VkCommandBuffer cb, int delta)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = capture_cbuf_of(c, cb);
	if (b)
		b->app_xfb += delta;
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginTransformFeedbackEXT(VkCommandBuffer cb, uint32_t first,
							    uint32_t n, const VkBuffer *bufs,
							    const VkDeviceSize *offs)
{
	capture_dispatch(cb)->CmdBeginTransformFeedbackEXT(cb, first, n, bufs, offs);
	app_xfb(cb, 1);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndTransformFeedbackEXT(VkCommandBuffer cb, uint32_t first,
							  uint32_t n, const VkBuffer *bufs,
							  const VkDeviceSize *offs)
{
	capture_dispatch(cb)->CmdEndTransformFeedbackEXT(cb, first, n, bufs, offs);
	app_xfb(cb, -1);
}

/* ---- the layer's pools ---- */

static struct lpool *which_pool(struct cbuf *b, int which)
{
	return which ? &b->xfbq : &b->cnt;
}

void capture_lpools_free(struct layer_device *d, struct cbuf *b)
{
	for (int w = 0; w < 2; w++) {
		struct lpool *p = which_pool(b, w);
		if (p->pool)
			d->d.DestroyQueryPool(d->handle, p->pool, NULL);
		free(p->res);
		p->pool = VK_NULL_HANDLE;
		p->res = NULL;
		p->cap = p->used = 0;
		p->res_ok = 0;
	}
}

void capture_lpools_begin(struct capture_device *c, struct layer_device *d, VkCommandBuffer cb,
			  struct cbuf *b, int simultaneous)
{
	static const uint32_t words[2] = {1, 2}; /* result words a query */
	for (int w = 0; w < 2; w++) {
		VkQueryPool old = VK_NULL_HANDLE, pool = VK_NULL_HANDLE;
		uint32_t want = 0, cap = 0;
		pthread_mutex_lock(&c->lock);
		struct lpool *p = which_pool(b, w);
		int on = w ? c->xfb && c->rs->instrument : c->rs->stats && !c->rs->stats_off;
		p->used = 0;
		p->res_ok = 0;
		p->active = 0;
		/* simultaneous use: executions may overlap, and one pool cannot serve two */
		if (on && !c->failed && b->primary && !simultaneous) {
			want = 64;
			while (want < p->want && want < 65536)
				want *= 2;
			if (p->pool && p->cap >= want) {
				want = 0; /* big enough */
				pool = p->pool;
				cap = p->cap;
			} else {
				old = p->pool;
				p->pool = VK_NULL_HANDLE;
				p->cap = 0;
			}
		}
		p->want = 0;
		pthread_mutex_unlock(&c->lock);
		if (old)
			d->d.DestroyQueryPool(d->handle, old, NULL);
		if (want) {
			VkQueryPoolCreateInfo qi = {
			    .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			    .queryType = w ? VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT
					   : c->rs->count_query,
			    .queryCount = want};
			if (!w && c->rs->count_query == VK_QUERY_TYPE_PIPELINE_STATISTICS)
				qi.pipelineStatistics =
				    VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
			uint64_t *res = malloc((size_t)want * words[w] * sizeof(*res));
			if (!res ||
			    d->d.CreateQueryPool(d->handle, &qi, NULL, &pool) != VK_SUCCESS) {
				free(res); /* no pool: no counts for these draws */
				pool = VK_NULL_HANDLE;
			} else {
				pthread_mutex_lock(&c->lock);
				free(p->res);
				p->res = res;
				p->pool = pool;
				p->cap = cap = want;
				pthread_mutex_unlock(&c->lock);
			}
		}
		if (pool) { /* first thing in the command buffer, outside any render pass */
			d->d.CmdResetQueryPool(cb, pool, 0, cap);
			pthread_mutex_lock(&c->lock);
			p->active = 1;
			pthread_mutex_unlock(&c->lock);
		}
	}
}

uint32_t capture_lpool_take(struct capture_device *c, struct cbuf *b, int which, VkQueryPool *pool)
{
	uint32_t q = 0;
	pthread_mutex_lock(&c->lock);
	struct lpool *p = which_pool(b, which);
	p->want++;
	if (p->active && p->used < p->cap && !c->failed) {
		*pool = p->pool;
		q = ++p->used;
	}
	pthread_mutex_unlock(&c->lock);
	return q;
}

struct draw_query capture_draw_query_begin(VkCommandBuffer cb)
{
	struct capture_device *c = cap_of(cb, NULL);
	struct draw_query dq = {VK_NULL_HANDLE, 0, 0, 0};
	if (!c)
		return dq;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	struct lpool *p = b ? &b->cnt : NULL;
	if (p) {
		int nests =
		    b->multiview || c->rs->stats_off || c->failed ||
		    (c->rs->count_query == VK_QUERY_TYPE_OCCLUSION ? b->app_occl : b->app_stats);
		p->want++;
		if (!nests && p->active && p->used < p->cap) {
			dq.pool = p->pool;
			dq.q = ++p->used;
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (dq.q)
		capture_dispatch(cb)->CmdBeginQuery(cb, dq.pool, dq.q - 1,
						    c->rs->count_query == VK_QUERY_TYPE_OCCLUSION
							? VK_QUERY_CONTROL_PRECISE_BIT
							: 0);
	if (c->tier->draw_begin) /* tier 3: the fragment twin draws it */
		c->tier->draw_begin(cb, &dq);
	return dq;
}

struct draw_query capture_draw_twin_begin(VkCommandBuffer cb)
{
	struct capture_device *c = cap_of(cb, NULL);
	struct draw_query dq = {VK_NULL_HANDLE, 0, 0, 0};
	if (c && c->tier->draw_begin)
		c->tier->draw_begin(cb, &dq);
	return dq;
}

void capture_draw_query_end(VkCommandBuffer cb, struct draw_query dq)
{
	struct capture_device *c = dq.rec ? cap_of(cb, NULL) : NULL; /* a tier's draw */
	if (c && c->tier->draw_end)
		c->tier->draw_end(cb, &dq);
	if (dq.q)
		capture_dispatch(cb)->CmdEndQuery(cb, dq.pool, dq.q - 1);
}

int capture_measure_submit(const struct capture_device *c)
{
	return ((c->rs->stats && !c->rs->stats_off) || c->xfb) && !c->failed &&
	       (c->out->boundary_label ||
		(c->rec_frame != UINT32_MAX && capture_rec_frame_selected(c)));
}

struct cbuf **capture_measured(struct capture_device *c, const VkCommandBuffer *cbs, size_t n,
			       size_t *nb)
{
	struct cbuf **bs = malloc((n ? n : 1) * sizeof(*bs));
	*nb = 0;
	for (size_t i = 0; bs && i < n; i++) {
		struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cbs[i]));
		if (b && ((b->cnt.used && b->cnt.pool) || (b->xfbq.used && b->xfbq.pool) ||
			  b->geom || b->executes || b->n_crec_used || b->n_draws)) {
			if (c->tier->submitting)
				c->tier->submitting(c, b, 0);
			b->cnt.res_ok = b->xfbq.res_ok = 0; /* stale until read again */
			b->finished = b->late = 0;
			bs[(*nb)++] = b;
		}
	}
	return bs;
}

/* Waits for everything submitted to q so far (an empty submission with a fence of the
 * layer's signals after all earlier work on the queue) and reads the results of the collected
 * command buffers' queries. No lock is held: the caller has kept those command buffers from
 * being re-recorded before they are expanded (the expansion thread's job, queued first, or a
 * submission's turn at expanding, capture_sync_begin), and the fence is this wait's own (taken from
 * the device's free ones or made). The queue is the program's for the length of its vkQueueSubmit,
 * which this runs inside. The wait is bounded, and after a timeout counts and positions stop
 * for the device (draws fall back to tier 1's rectangles). */
void capture_read_fragments(struct capture_device *c, struct layer_device *d, VkQueue q,
			    struct cbuf **bs, size_t n)
{
	VkDevice dev = d->handle;
	VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence = VK_NULL_HANDLE;
	if (!n)
		return;
	double t0 = capture_mono_s();
	pthread_mutex_lock(&c->lock);
	if (c->rs->n_fences)
		fence = c->rs->fences[--c->rs->n_fences];
	pthread_mutex_unlock(&c->lock);
	const char *why = NULL;
	char late[96];
	uint32_t secs = c->wait_seconds ? c->wait_seconds : 20;
	if ((!fence && d->d.CreateFence(dev, &fi, NULL, &fence) != VK_SUCCESS) ||
	    d->d.QueueSubmit(q, 0, NULL, fence) != VK_SUCCESS)
		why = "cannot wait for a submission";
	else if (d->d.WaitForFences(dev, 1, &fence, VK_TRUE, (uint64_t)secs * 1000000000u) !=
		 VK_SUCCESS)
		snprintf(late, sizeof(late),
			 "a submission did not finish within %u s (LLCT_CAPTURE_WAIT_SECONDS)",
			 secs),
		    why = late;
	if (why) {
		if (fence && why != late) /* the submission failed: nothing will signal it */
			d->d.DestroyFence(dev, fence, NULL);
		pthread_mutex_lock(&c->lock);
		/* still pending (it may be signalled late, or never): a fence may not be destroyed
		   before its submission completes, so it waits for the device's end (a few kept;
		   beyond them one is left, as a hung device leaves it anyway) */
		if (fence && why == late &&
		    c->rs->n_late < (int)(sizeof(c->rs->late) / sizeof(c->rs->late[0])))
			c->rs->late[c->rs->n_late++] = fence;
		c->rs->stats_off = 1;
		c->rs->timed_out |= why == late;
		c->xfb = 0;
		for (size_t i = 0; i < n; i++)
			bs[i]->late = 1;
		c->out->t_wait += capture_mono_s() - t0;
		pthread_mutex_unlock(&c->lock);
		cap_log("%s; per-draw counts and positions stop (draws keep tier 1's rectangles)",
			why);
		return;
	}
	d->d.ResetFences(dev, 1, &fence);
	for (size_t i = 0; i < n; i++)
		for (int w = 0; w < 2; w++) {
			struct lpool *p = which_pool(bs[i], w);
			size_t stride = (w ? 2 : 1) * sizeof(uint64_t);
			if (p->pool && p->used)
				p->res_ok = d->d.GetQueryPoolResults(
						dev, p->pool, 0, p->used, p->used * stride, p->res,
						stride, VK_QUERY_RESULT_64_BIT) == VK_SUCCESS;
		}
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < n; i++) /* the fence came after them: they have run */
		bs[i]->finished = 1;
	c->out->t_wait += capture_mono_s() - t0;
	if (c->rs->n_fences < (int)(sizeof(c->rs->fences) / sizeof(c->rs->fences[0]))) {
		c->rs->fences[c->rs->n_fences++] = fence;
		fence = VK_NULL_HANDLE;
	}
	pthread_mutex_unlock(&c->lock);
	if (fence)
		d->d.DestroyFence(dev, fence, NULL);
}

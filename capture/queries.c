/* queries.c - the layer's per-draw queries: the program's own statistics queries that
 * rule them out, the query around each draw, and reading the counts after a captured
 * submission completes. */
#include "capture.h"

#include <stdlib.h>

/* The program's pipeline-statistics pools: while one of its queries is active in a command
 * buffer, the layer begins none of its own there (queries of one type do not nest). */
VKAPI_ATTR VkResult VKAPI_CALL cap_CreateQueryPool(VkDevice device,
						   const VkQueryPoolCreateInfo *info,
						   const VkAllocationCallbacks *alloc,
						   VkQueryPool *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateQueryPool(device, info, alloc, out);
	if (r == VK_SUCCESS && c && info->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
		pthread_mutex_lock(&c->lock);
		if (hput(&c->qpools, H(*out), c))
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
		hdel(&c->qpools, H(pool));
		pthread_mutex_unlock(&c->lock);
	}
	d->d.DestroyQueryPool(device, pool, alloc);
}

static void app_query(VkCommandBuffer cb, VkQueryPool pool, int delta)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = hget(&c->qpools, H(pool)) ? cbuf_of(c, cb) : NULL;
	if (b)
		b->app_stats += delta;
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginQuery(VkCommandBuffer cb, VkQueryPool pool, uint32_t query,
					     VkQueryControlFlags flags)
{
	dd(cb)->CmdBeginQuery(cb, pool, query, flags);
	app_query(cb, pool, 1);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndQuery(VkCommandBuffer cb, VkQueryPool pool, uint32_t query)
{
	dd(cb)->CmdEndQuery(cb, pool, query);
	app_query(cb, pool, -1);
}

struct draw_query draw_query_begin(VkCommandBuffer cb)
{
	struct capture_device *c = cap_of(cb, NULL);
	struct draw_query dq = {VK_NULL_HANDLE, 0};
	if (!c)
		return dq;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = hget(&c->cbufs, H(cb));
	if (b) {
		b->draws++;
		if (b->pool && !b->no_queries && !b->app_stats && !b->multiview &&
		    b->used < b->pool_cap && !c->stats_off && !c->failed) {
			dq.pool = b->pool;
			dq.q = ++b->used;
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (dq.q)
		dd(cb)->CmdBeginQuery(cb, dq.pool, dq.q - 1, 0);
	return dq;
}

void draw_query_end(VkCommandBuffer cb, struct draw_query dq)
{
	if (dq.q)
		dd(cb)->CmdEndQuery(cb, dq.pool, dq.q - 1);
}

int measure_submit(const struct capture_device *c)
{
	return c->stats && !c->stats_off && !c->failed &&
	       (c->boundary_label || (c->frame != UINT32_MAX && frame_selected(c)));
}

/* The shadows of the submitted command buffers that hold the layer's queries. */
struct cbuf **measured(struct capture_device *c, const VkCommandBuffer *cbs, size_t n, size_t *nb)
{
	struct cbuf **bs = malloc((n ? n : 1) * sizeof(*bs));
	*nb = 0;
	for (size_t i = 0; bs && i < n; i++) {
		struct cbuf *b = hget(&c->cbufs, H(cbs[i]));
		if (b && b->used && b->pool) {
			b->frags_ok = 0; /* a resubmission: stale counts until read again */
			bs[(*nb)++] = b;
		}
	}
	return bs;
}

/* Waits for everything submitted to q so far (an empty submission with the layer's fence
 * signals after all earlier work on the queue) and reads the fragment counts of the
 * collected command buffers. The lock is held across this wait, the one place the layer
 * holds it while calling down, so nothing can re-record those command buffers before they
 * are expanded; the wait is bounded, and after a timeout counts stop for the device. */
void read_fragments(struct capture_device *c, struct layer_device *d, VkQueue q, struct cbuf **bs,
		    size_t n)
{
	VkDevice dev = d->handle;
	VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	if (!n)
		return;
	if ((!c->fence && d->d.CreateFence(dev, &fi, NULL, &c->fence) != VK_SUCCESS) ||
	    d->d.QueueSubmit(q, 0, NULL, c->fence) != VK_SUCCESS) {
		c->stats_off = 1;
		cap_log("cannot wait for a submission; fragment counts stop (draws keep their "
			"whole rectangles)");
		return;
	}
	if (d->d.WaitForFences(dev, 1, &c->fence, VK_TRUE, 5000000000ull) != VK_SUCCESS) {
		c->stats_off = 1;
		cap_log("a submission did not finish within 5 s; fragment counts stop (draws keep "
			"their whole rectangles)");
		return;
	}
	d->d.ResetFences(dev, 1, &c->fence);
	for (size_t i = 0; i < n; i++)
		bs[i]->frags_ok = d->d.GetQueryPoolResults(dev, bs[i]->pool, 0, bs[i]->used,
							   bs[i]->used * sizeof(uint64_t),
							   bs[i]->frags, sizeof(uint64_t),
							   VK_QUERY_RESULT_64_BIT) == VK_SUCCESS;
}

/* submit.c - queue submission (both forms), presents and queue labels: where captured
 * command buffers are expanded and frames end. */
#include "submit.h"
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct/llct.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>

void capture_expand_submission(struct capture_device *c, uint32_t n, const VkCommandBuffer *cbs)
{
	if (c->tier->outside && c->frame != UINT32_MAX && !capture_frame_selected(c))
		for (uint32_t i = 0; i < n; i++) {
			const struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cbs[i]));
			if (b)
				c->tier->outside(c, b);
		}
	/* Outside chosen frames only labels (for the label boundary), bound state and copies
	 * into index buffers are followed; with the other boundaries only those copies. */
	if (!capture_frame_open(c) && !c->out->boundary_label) {
		for (uint32_t i = 0; i < n; i++)
			capture_follow_index_copies(c, capture_hmap_get(&c->tr->cbufs, H(cbs[i])),
						    0);
		return;
	}
	double t0 = capture_mono_s(), cpu0 = llct_thread_cpu_s();
	for (uint32_t i = 0; i < n; i++) {
		struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cbs[i]));
		capture_expand(c, b, 0);
		if (b && c->tier->executed)
			c->tier->executed(c, b);
	}
	c->out->t_expand += capture_mono_s() - t0;
	c->out->t_expand_cpu += llct_thread_cpu_s() - cpu0;
}

/* One vkQueueSubmit or vkQueueSubmit2 call, to send down as it came. */
struct submission {
	VkQueue q;
	uint32_t n;
	const VkSubmitInfo *v1; /* one of the two */
	const VkSubmitInfo2 *v2;
	VkFence fence;
};

static VkResult submit_down(struct layer_device *d, const struct submission *s)
{
	return s->v2 ? d->d.QueueSubmit2(s->q, s->n, s->v2, s->fence)
		     : d->d.QueueSubmit(s->q, s->n, s->v1, s->fence);
}

/* A submission of the twin lead (tier 3's frames before the range) is waited for, and the
 * next recording looks at every command buffer's record count again: the draws' record room
 * of the range's first frames is learned from the lead's finished executions. Without the wait
 * a program that queues frames ahead (Zink on lavapipe) records the range's first command
 * buffers before any lead execution has run, and their draws lose records for want of room
 * (Neverball: 7.7 M of 8.7 M texture accesses in the first frame). The queue is the caller's
 * for the length of its vkQueueSubmit, and no lock is held across the wait. The submission's
 * command buffers have then run, and as nothing of a lead frame is expanded, the tier may hand
 * on what they held for it (tier 3's record rooms, once their counts are taken). */
static void lead_settle(struct layer_device *d, struct capture_device *c, VkQueue q,
			const VkCommandBuffer *cbs, size_t n)
{
	if (d->d.QueueWaitIdle(q) != VK_SUCCESS)
		return;
	pthread_mutex_lock(&c->lock);
	if (c->tier->lead_done)
		c->tier->lead_done(c);
	for (size_t i = 0; c->tier->executed && i < n; i++) {
		struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cbs[i]));
		if (b) {
			b->finished = 1;
			c->tier->executed(c, b);
		}
	}
	pthread_mutex_unlock(&c->lock);
}

/* Both submit commands, with their command buffers in submission order: expanded before
 * the call goes down, or, when their draws are measured, after it and a wait for the
 * counts; or, with the expansion thread, queued for it at those points. No lock is held
 * while the call goes down or the counts are waited for: a submission expanded here takes a
 * turn first (async.h), which keeps what it will read as a queued job does, and expands in
 * its turn's order. */
static VkResult submit(struct layer_device *d, struct capture_device *c, const struct submission *s,
		       const VkCommandBuffer *cbs, size_t n)
{
	VkResult r = VK_SUCCESS;
	size_t nb = 0;
	uint64_t seq = 0;
	int queued = 0, turn = 0, down = 0;
	uint64_t my_turn = 0;
	pthread_mutex_lock(&c->lock);
	async_settle_submitted(c); /* a submission still between its turn's taking and end */
	for (size_t i = 0; c->as->started && i < n; i++) /* their last run's results first */
		async_wait_seq(c, capture_cbuf_pending(c, H(cbs[i]), ASYNC_LAST, 0));
	for (size_t i = 0; c->tier->submitting && i < n;
	     i++) { /* tier 3: each run records afresh */
		struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cbs[i]));
		if (b && (b->n_crec_used || b->n_draws))
			c->tier->submitting(c, b, 0);
	}
	struct cbuf **bs = capture_measure_submit(c) ? capture_measured(c, cbs, n, &nb) : NULL;
	/* on the expansion thread (async.c): queued before it goes down, ready once its counts
	   are read, which happens without the lock */
	queued = c->as->on && !async_queue_cbs(c, cbs, n, s->fence, s->n, s->v1, s->v2, !nb, &seq);
	if (nb && !queued) { /* expanded here, after the counts: a turn keeps its command buffers */
		my_turn = capture_sync_begin(c);
		turn = 1;
	}
	if (nb) {
		pthread_mutex_unlock(&c->lock);
		r = submit_down(d, s);
		down = 1;
		if (r == VK_SUCCESS)
			capture_read_fragments(c, d, s->q, bs, nb);
		pthread_mutex_lock(&c->lock);
		if (queued)
			async_ready(c, seq);
		else
			capture_sync_turn(c, my_turn);
	}
	if (!queued) { /* here, after what the thread has queued, in a turn: the expansion may let
			  go of the lock (index.c's read-back) */
		if (!turn) {
			my_turn = capture_sync_begin(c);
			turn = 1;
			capture_sync_turn(c, my_turn);
		}
		async_quiesce(c);
		capture_expand_submission(c, (uint32_t)n, cbs);
	}
	if (c->sub->boundary_submit || (c->sub->boundary_auto && !c->sub->presenting))
		capture_frame_boundary(c);
	if (turn)
		capture_sync_end(c);
	/* tier 3 in the frames before the range (the twin lead): read below */
	int lead = c->frag_instr && !c->out->all_frames && !capture_rec_frame_selected(c) &&
		   capture_reachable(c, c->twin_lead);
	pthread_mutex_unlock(&c->lock);
	free(bs);
	if (!down)
		r = submit_down(d, s);
	if (lead && r == VK_SUCCESS)
		lead_settle(d, c, s->q, cbs, n);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_QueueSubmit(VkQueue q, uint32_t n, const VkSubmitInfo *submits,
					       VkFence fence)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(q, &d);
	struct submission s = {q, n, submits, NULL, fence};
	size_t total = 0, k = 0;
	if (!c)
		return submit_down(d, &s);
	for (uint32_t i = 0; i < n; i++)
		total += submits[i].commandBufferCount;
	VkCommandBuffer local[16] = {0}, *cbs = total <= 16 ? local : malloc(total * sizeof(*cbs));
	if (!cbs)
		return submit_down(d, &s); /* out of memory: this submission goes uncaptured */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < submits[i].commandBufferCount; j++)
			cbs[k++] = submits[i].pCommandBuffers[j];
	VkResult r = submit(d, c, &s, cbs, total);
	if (cbs != local)
		free(cbs);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_QueueSubmit2(VkQueue q, uint32_t n, const VkSubmitInfo2 *submits,
						VkFence fence)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(q, &d);
	struct submission s = {q, n, NULL, submits, fence};
	size_t total = 0, k = 0;
	if (!c)
		return submit_down(d, &s);
	for (uint32_t i = 0; i < n; i++)
		total += submits[i].commandBufferInfoCount;
	VkCommandBuffer local[16] = {0}, *cbs = total <= 16 ? local : malloc(total * sizeof(*cbs));
	if (!cbs)
		return submit_down(d, &s);
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < submits[i].commandBufferInfoCount; j++)
			cbs[k++] = submits[i].pCommandBufferInfos[j].commandBuffer;
	VkResult r = submit(d, c, &s, cbs, total);
	if (cbs != local)
		free(cbs);
	return r;
}

/* Queue labels: with the label boundary, a label of that name starts a frame. */
static void queue_label(VkQueue q, const VkDebugUtilsLabelEXT *label)
{
	struct capture_device *c = cap_of(q, NULL);
	if (!c || !c->out->boundary_label || !label || !label->pLabelName ||
	    strcmp(label->pLabelName, c->out->boundary_name))
		return;
	pthread_mutex_lock(&c->lock);
	capture_frame_boundary(c);
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR void VKAPI_CALL cap_QueueBeginDebugUtilsLabelEXT(VkQueue q,
							    const VkDebugUtilsLabelEXT *label)
{
	queue_label(q, label);
	capture_dispatch(q)->QueueBeginDebugUtilsLabelEXT(q, label);
}

VKAPI_ATTR void VKAPI_CALL cap_QueueInsertDebugUtilsLabelEXT(VkQueue q,
							     const VkDebugUtilsLabelEXT *label)
{
	queue_label(q, label);
	capture_dispatch(q)->QueueInsertDebugUtilsLabelEXT(q, label);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_QueuePresentKHR(VkQueue q, const VkPresentInfoKHR *info)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(q, &d);
	VkResult r = d->d.QueuePresentKHR(q, info);
	if (c && !c->sub->boundary_submit && !c->out->boundary_label &&
	    (!c->sub->boundary_auto || c->sub->presenting)) {
		pthread_mutex_lock(&c->lock);
		capture_frame_boundary(c);
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

/* cmdbuf.c - command buffers' shadow lists: allocation, begin (with the layer's query
 * pool), reset, and the command pools that own them. */
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
#include <string.h>

/* The shadow of a command buffer, created on first use; NULL when out of memory. */
struct cbuf *capture_cbuf_of(struct capture_device *c, VkCommandBuffer cb)
{
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b || capture_hmap_put(&c->tr->cbufs, H(cb), b)) {
			free(b);
			cap_fail(c, "out of memory recording commands");
			return NULL;
		}
	}
	return b;
}

struct cmd *capture_record(struct capture_device *c, VkCommandBuffer cb, enum cmd_op op)
{
	struct cbuf *b = capture_cbuf_of(c, cb);
	if (!b)
		return NULL;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct cmd *p = realloc(b->cmds, cap * sizeof(*p));
		if (!p) {
			cap_fail(c, "out of memory recording commands");
			return NULL;
		}
		b->cmds = p;
		b->cap = cap;
	}
	struct cmd *m = &b->cmds[b->n++];
	memset(m, 0, sizeof(*m));
	m->op = op;
	b->copies |= op == C_COPY;
	b->executes |= op == C_EXECUTE;
	return m;
}

struct cmd_pass *capture_record_pass(struct capture_device *c, VkCommandBuffer cb, struct cmd *m)
{
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	m->u.pass = UINT32_MAX; /* none, until it has one: the walk finds a pass of nothing */
	if (!b)
		return NULL;
	if (b->n_passes == b->cap_passes) {
		size_t cap = b->cap_passes ? b->cap_passes * 2 : 8;
		struct cmd_pass *p = realloc(b->passes, cap * sizeof(*p));
		if (!p) {
			cap_fail(c, "out of memory recording commands");
			return NULL;
		}
		b->passes = p;
		b->cap_passes = cap;
	}
	struct cmd_pass *ps = &b->passes[b->n_passes];
	memset(ps, 0, sizeof(*ps));
	m->u.pass = (uint32_t)b->n_passes++;
	return ps;
}

/* The last expansion job any command buffer of this command pool waits for (0: none). */
static uint64_t pool_pending(struct capture_device *c, uint64_t pool)
{
	uint64_t seq = 0;
	for (size_t i = 0; c->as->started && i < c->tr->cbufs.cap; i++) {
		const struct cbuf *b = c->tr->cbufs.val[i];
		if (b && b->cmd_pool == pool && b->pending_seq > seq)
			seq = b->pending_seq;
	}
	return seq;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_AllocateCommandBuffers(VkDevice device,
							  const VkCommandBufferAllocateInfo *info,
							  VkCommandBuffer *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.AllocateCommandBuffers(device, info, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < info->commandBufferCount; i++) {
		struct cbuf *b = capture_cbuf_of(c, out[i]);
		if (b) {
			b->primary = info->level == VK_COMMAND_BUFFER_LEVEL_PRIMARY;
			b->cmd_pool = H(info->commandPool);
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* Beginning resets the recording. A primary command buffer then gets the layer's query pool
 * (sized by its last recording's draws) and resets it first thing, outside any render pass,
 * so each draw can be wrapped in a query. */
VKAPI_ATTR VkResult VKAPI_CALL cap_BeginCommandBuffer(VkCommandBuffer cb,
						      const VkCommandBufferBeginInfo *info)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(cb, &d);
	VkResult r = d->d.BeginCommandBuffer(cb, info);
	if (!c || r != VK_SUCCESS)
		return r;
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = capture_cbuf_of(c, cb);
	async_wait_seq(c, b ? b->pending_seq : 0); /* queued for expansion: that first */
	if (b) {
		b->n = b->n_passes = 0;
		b->copies = b->executes = 0;
		capture_drop_pushed(c, b);
		b->app_stats = b->app_occl = b->app_prims = b->app_xfb = b->multiview = 0;
		b->rec_pipe = b->rec_cpipe = 0;
		memset(b->rec_sets, 0, sizeof(b->rec_sets));
		b->n_crec_used = 0; /* record buffers are reused from the first */
		b->n_draws = 0;
		b->no_twins = 0;
		b->one_time = !!(info->flags & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
		b->finished = b->late = 0;
		b->rec_discard = 0;
		b->rec_topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
		/* a secondary continuing a render pass is recorded inside it */
		b->rec_in_pass = !b->primary && info->pInheritanceInfo &&
				 (info->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT);
		if (c->tier->recording_begun) /* the tier's buffers reused from their start */
			c->tier->recording_begun(c, b);
	}
	pthread_mutex_unlock(&c->lock);
	if (b)
		capture_lpools_begin(
		    c, d, cb, b, !!(info->flags & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT));
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_ResetCommandBuffer(VkCommandBuffer cb,
						      VkCommandBufferResetFlags flags)
{
	VkResult r = capture_dispatch(cb)->ResetCommandBuffer(cb, flags);
	struct capture_device *c = cap_of(cb, NULL);
	if (c) {
		pthread_mutex_lock(&c->lock);
		struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
		async_wait_seq(c, b ? b->pending_seq : 0);
		if (b) {
			b->n = b->n_passes = 0;
			b->copies = b->executes = 0;
			capture_drop_pushed(c, b);
		}
		pthread_mutex_unlock(&c->lock);
	}
	return r;
}

/* The command buffers of a command pool, unlinked from the map (with the lock held). */
static struct cbuf **take_pool_cbufs(struct capture_device *c, uint64_t pool, size_t *n)
{
	struct cbuf **out = malloc((c->tr->cbufs.n + 1) * sizeof(*out));
	uint64_t *keys = malloc((c->tr->cbufs.n + 1) * sizeof(*keys));
	size_t k = 0;
	*n = 0;
	if (!out || !keys) {
		free(out);
		free(keys);
		return NULL; /* they stay until the device goes: a leak, not a failure */
	}
	for (size_t i = 0; i < c->tr->cbufs.cap; i++) {
		struct cbuf *b = c->tr->cbufs.val[i];
		if (b && b->cmd_pool == pool)
			keys[k++] = c->tr->cbufs.key[i];
	}
	for (size_t i = 0; i < k; i++) {
		struct cbuf *b = capture_hmap_del(&c->tr->cbufs, keys[i]);
		if (b) {
			capture_drop_pushed(c, b);
			out[(*n)++] = b;
		}
	}
	free(keys);
	return out;
}

/* Destroying a pool frees its command buffers: their shadows and the layer's query pools go
 * too (a program that makes a pool a frame would otherwise pile them up on the device). */
VKAPI_ATTR void VKAPI_CALL cap_DestroyCommandPool(VkDevice device, VkCommandPool pool,
						  const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	struct cbuf **bs = NULL;
	size_t n = 0;
	if (c && pool) {
		pthread_mutex_lock(&c->lock);
		async_wait_seq(
		    c, pool_pending(c, H(pool))); /* its command buffers waiting to be expanded */
		bs = take_pool_cbufs(c, H(pool), &n);
		pthread_mutex_unlock(&c->lock);
	}
	for (size_t i = 0; i < n; i++) { /* unlinked: the query pools go without the lock */
		capture_free_cbuf_pool(c, d, bs[i]);
		capture_free_cbuf(bs[i]);
	}
	free(bs);
	d->d.DestroyCommandPool(device, pool, alloc);
}

/* Resetting a pool resets its command buffers: their recordings (and pushed sets) go. */
VKAPI_ATTR VkResult VKAPI_CALL cap_ResetCommandPool(VkDevice device, VkCommandPool pool,
						    VkCommandPoolResetFlags flags)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.ResetCommandPool(device, pool, flags);
	if (!c)
		return r;
	pthread_mutex_lock(&c->lock);
	async_wait_seq(c,
		       pool_pending(c, H(pool))); /* its command buffers waiting to be expanded */
	for (size_t i = 0; i < c->tr->cbufs.cap; i++) {
		struct cbuf *b = c->tr->cbufs.val[i];
		if (b && b->cmd_pool == H(pool)) {
			b->n = b->n_passes = 0;
			b->copies = b->executes = 0;
			capture_drop_pushed(c, b);
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_FreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t n,
						  const VkCommandBuffer *cbs)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	for (uint32_t i = 0; c && i < n; i++) {
		pthread_mutex_lock(&c->lock);
		struct cbuf *w = capture_hmap_get(&c->tr->cbufs, H(cbs[i]));
		async_wait_seq(c, w ? w->pending_seq : 0);
		struct cbuf *b = capture_hmap_del(&c->tr->cbufs, H(cbs[i]));
		if (b)
			capture_drop_pushed(c, b);
		pthread_mutex_unlock(&c->lock);
		if (b) { /* unlinked: the query pool can go without the lock */
			capture_free_cbuf_pool(c, d, b);
			capture_free_cbuf(b);
		}
	}
	d->d.FreeCommandBuffers(device, pool, n, cbs);
}

void capture_free_cbuf_pool(const struct capture_device *c, struct layer_device *d, struct cbuf *b)
{
	capture_lpools_free(d, b);
	if (c->tier->recording_freed)
		c->tier->recording_freed(d, b);
}

void capture_free_cbuf(void *p)
{
	struct cbuf *b = p;
	free(b->cmds);
	free(b->passes);
	free(b->cnt.res);
	free(b->xfbq.res);
	free(b->pushed); /* the sets themselves are in the set map */
	free(b);
}

/* A new recording (or none): the sets the last one pushed go. */
void capture_drop_pushed(struct capture_device *c, struct cbuf *b)
{
	for (size_t i = 0; i < b->n_pushed; i++) {
		struct dset *s = capture_hmap_del(&c->ps->sets, b->pushed[i]);
		if (s)
			capture_free_dset(s);
	}
	b->n_pushed = 0;
	memset(b->push_last, 0, sizeof(b->push_last));
}

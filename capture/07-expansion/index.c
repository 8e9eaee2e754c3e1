/* index.c - the index values a draw uses, so its vertex fetch covers the vertices it
 * really reads: from mapped memory, copies followed in submission order, bytes kept at
 * unmap, or the layer's own read-back. */
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
#include "walk.h"

#include <stdlib.h>
#include <string.h>

static int shadow_holds(const struct buf *b, uint64_t off, uint64_t bytes)
{
	return b->shadow && off >= b->shadow_lo && off + bytes <= b->shadow_size;
}

/* The layer reads an index buffer's bytes itself (up to 16 MiB), when its memory is
 * host-visible and the program does not map it: lavapipe's, integrated GPUs', resizable-BAR
 * memory. Called while expanding (with the lock), it lets go of the lock while the memory is
 * mapped, read and unmapped, so no lock is held while it calls down: the memory is marked
 * (layer_maps) first, and the program's vkMapMemory of it waits for the mark to go; freeing
 * it, or destroying the buffer, waits for the expansion (async_settle). vkMapMemory marks the
 * memory (app_maps) before it goes down, so the layer never maps what the program maps. What
 * it reads is what earlier, completed work left there. */
static void read_back(struct capture_device *c, struct buf *b)
{
	struct layer_device *d = c->dev;
	struct mem *m = capture_hmap_get(&c->tr->mems, b->mem);
	if (b->read_back || !m || m->app_maps || m->map || m->layer_maps ||
	    !(m->flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) || b->mem_off >= m->size)
		return;
	b->read_back = 1;
	uint64_t n = b->size < m->size - b->mem_off ? b->size : m->size - b->mem_off;
	n = n < (16u << 20) ? n : (16u << 20);
	VkDeviceMemory mem = (VkDeviceMemory)(uintptr_t)b->mem;
	VkMemoryPropertyFlags flags = m->flags;
	uint64_t mem_off = b->mem_off;
	void *p = NULL;
	uint8_t *to = malloc(n ? n : 1);
	if (!to)
		return;
	m->layer_maps = 1;
	pthread_mutex_unlock(&c->lock);
	int ok = d->d.MapMemory(d->handle, mem, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS;
	if (ok) {
		VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
					     .memory = mem,
					     .size = VK_WHOLE_SIZE};
		if (!(flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
			d->d.InvalidateMappedMemoryRanges(d->handle, 1, &range);
		memcpy(to, (const uint8_t *)p + mem_off, n);
		d->d.UnmapMemory(d->handle, mem);
	}
	pthread_mutex_lock(&c->lock);
	m->layer_maps = 0;
	pthread_cond_broadcast(&c->as->done);
	if (!ok) {
		free(to);
		return;
	}
	free(b->shadow);
	b->shadow = to;
	b->shadow_lo = 0;
	b->shadow_size = n;
	b->shadow_copied = 0;
}

/* The index values [off, off + bytes) of index buffer b as a draw will see them, or NULL:
 * from a copy out of mapped memory expanded before it (capture_index_copy), from the program's
 * mapping (at submit its contents are final), from the bytes kept when the program unmapped
 * it, or read back by the layer. */
const uint8_t *capture_index_data(struct capture_device *c, struct buf *b, uint64_t off,
				  uint64_t bytes)
{
	struct mem *m = capture_hmap_get(&c->tr->mems, b->mem);
	uint64_t at = b->mem_off + off;
	if (b->shadow_copied && shadow_holds(b, off, bytes))
		return b->shadow + off;
	if (m && m->map && at >= m->map_off && at + bytes <= m->map_off + m->map_size)
		return m->map + (at - m->map_off);
	if (!shadow_holds(b, off, bytes))
		read_back(c, b);
	return shadow_holds(b, off, bytes) ? b->shadow + off : NULL;
}

/* A buffer copy into an index buffer, in submission order (for every submission, captured
 * or not: programs upload their indices before the frames one captures): when the source
 * is mapped (persistently mapped staging memory, as engines, vkd3d and Zink keep it) or an
 * index buffer with known bytes, the destination's bytes are known from it; otherwise they
 * are not known here, and a later draw reads them back if it can. */
void capture_index_copy(struct capture_device *c, const struct cmd *m)
{
	int kind = m->u.copy.kind;
	struct buf *dst = kind == K_BUF_BUF || kind == K_IMG_BUF || kind == K_FILL
			      ? capture_hmap_get(&c->tr->bufs, m->u.copy.dst)
			      : NULL;
	if (!dst || !(dst->usage & VK_BUFFER_USAGE_INDEX_BUFFER_BIT))
		return;
	dst->read_back = 0; /* its bytes change: a later draw may read them back again */
	struct buf *src = kind == K_BUF_BUF ? capture_hmap_get(&c->tr->bufs, m->u.copy.src) : NULL;
	uint64_t so = m->u.copy.src_off, o = m->u.copy.dst_off, n = m->u.copy.bytes;
	struct mem *sm = src ? capture_hmap_get(&c->tr->mems, src->mem) : NULL;
	const uint8_t *from = NULL;
	int from_shadow = 0;
	if (sm && sm->map && src->mem_off + so >= sm->map_off &&
	    src->mem_off + so + n <= sm->map_off + sm->map_size)
		from = sm->map + (src->mem_off + so - sm->map_off);
	else if (src && shadow_holds(src, so, n))
		from = src->shadow + so, from_shadow = 1;
	/* the new bytes join what is known of the buffer when the ranges touch */
	int joins = dst->shadow && o <= dst->shadow_size && o + n >= dst->shadow_lo;
	uint64_t lo = joins && dst->shadow_lo < o ? dst->shadow_lo : o;
	uint64_t hi = joins && dst->shadow_size > o + n ? dst->shadow_size : o + n;
	uint8_t *to =
	    from && hi <= (16u << 20) && o + n <= dst->size ? realloc(dst->shadow, hi) : NULL;
	if (to && from_shadow && src == dst)
		from = to + so; /* a copy inside one buffer: its shadow may have moved */
	if (!to) {              /* what the bytes are now is not known */
		free(dst->shadow);
		dst->shadow = NULL;
		dst->shadow_lo = dst->shadow_size = 0;
		dst->shadow_copied = 0;
		return;
	}
	memmove(to + o, from, n);
	dst->shadow = to;
	dst->shadow_lo = lo;
	dst->shadow_size = hi;
	dst->shadow_copied = 1;
}

/* Follows the index copies of a command buffer submitted outside the captured frames. */
void capture_follow_index_copies(struct capture_device *c, const struct cbuf *b, int depth)
{
	for (size_t i = 0; b && (b->copies || b->executes) && i < b->n; i++) {
		const struct cmd *m = &b->cmds[i];
		if (m->op == C_COPY)
			capture_index_copy(c, m);
		else if (m->op == C_EXECUTE && depth < 2)
			capture_follow_index_copies(
			    c, capture_hmap_get(&c->tr->cbufs, m->u.exec.cb), depth + 1);
	}
}

/* What a draw touches (tier 1): uniform buffers, index and vertex ranges, attachments over
 * viewport n scissor n render area, sampled images at the LOD that maps that area. */

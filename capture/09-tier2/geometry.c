/* geometry.c - tier 2's geometry capture. Before a draw the program records goes down, the
 * same draw goes down first with the bound pipeline's shadow (shadow.c: Position captured by
 * transform feedback, rasterizer discard on), writing the clip-space positions of every
 * primitive, in order, into the command buffer's transform-feedback buffers; the program's own
 * draw then runs untouched. After a captured submission completes (the layer waits for it),
 * the expansion reads those positions for the rasterizer. Sizes come from the draw where the
 * layer can know them, else from a transform-feedback stream query (primary command buffers)
 * or from where the written vertices end (buffers are filled with a sentinel first); a draw
 * that needed more room than it had is reported truncated and the next recording gets more. */
#include "tier2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_VERTS (256u * 1024)     /* 4 MiB buffers */
#define MAX_VERTS (16u * 1024 * 1024) /* 256 MiB: the most one draw may write */
#define VTX_BYTES 16                  /* a slot: x, y, z, w (a vertex takes 1 to 3) */

/* One transform-feedback buffer, persistently mapped. */
struct chunk {
	VkBuffer buf;
	VkDeviceMemory mem;
	float *map;
	uint32_t cap, used; /* vertices */
};

/* Where one draw's shadow wrote. */
struct gdraw {
	uint32_t chunk, first; /* the chunk, and the first slot in it */
	uint32_t cap;          /* vertices it has room for */
	uint32_t slots;        /* 16-byte slots a vertex: Position, then captured inputs */
	uint32_t per_prim;     /* vertices a primitive */
	uint32_t expect;       /* vertices it must write, 0: not known */
	uint32_t query;        /* 1 + its stream query in the command buffer's pool, 0: none */
};

struct geom {
	struct chunk *chunks;
	uint32_t n_chunks, cur;
	struct gdraw *draws;
	uint32_t n_draws, cap_draws;
	uint32_t guess; /* room for draws of unknown size; doubles after a truncation */
};

/* Vertices per primitive the rasterizer reads for a topology (or a stage's output). */
static uint32_t per_prim_of(VkPrimitiveTopology t, int out_prim)
{
	if (out_prim >= 0)
		return out_prim == LLCT_PRIM_TRIANGLES ? 3 : out_prim == LLCT_PRIM_LINES ? 2 : 1;
	switch (t) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
		return 1;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
		return 2;
	default:
		return 3;
	}
}

/* The vertices transform feedback writes for count vertices of topology t, per instance; an
 * upper bound for strips with restart. */
static uint64_t written(VkPrimitiveTopology t, uint64_t count)
{
	switch (t) {
	case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
		return count;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
		return count / 2 * 2;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
		return count >= 2 ? (count - 1) * 2 : 0;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
		return count / 3 * 3;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
		return count >= 3 ? (count - 2) * 3 : 0;
	case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
		return count / 4 * 2;
	case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
		return count >= 4 ? (count - 3) * 2 : 0;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
		return count / 6 * 3;
	case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
		return count >= 6 ? (count - 4) / 2 * 3 : 0;
	default:
		return 0;
	}
}

/* A new transform-feedback buffer of at least `verts` vertices, filled with the sentinel
 * (all bits set: a NaN no shader writes as x, y, z and w at once); calls down the chain, so
 * without the lock. 0, or -1. */
int capture_host_buffer(struct capture_device *c, VkDeviceSize size, VkBufferUsageFlags usage,
			VkBuffer *buf, VkDeviceMemory *mem, void **map)
{
	return capture_host_buffer_ex(c, size, usage, 0, buf, mem, map);
}

int capture_host_buffer_ex(struct capture_device *c, VkDeviceSize size, VkBufferUsageFlags usage,
			   VkMemoryAllocateFlags alloc, VkBuffer *buf, VkDeviceMemory *mem,
			   void **map)
{
	struct layer_device *d = c->dev;
	VkDevice dev = d->handle;
	VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
				 .size = size,
				 .usage = usage,
				 .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
	VkMemoryRequirements req;
	*buf = VK_NULL_HANDLE, *mem = VK_NULL_HANDLE, *map = NULL;
	if (d->d.CreateBuffer(dev, &bi, NULL, buf) != VK_SUCCESS)
		return -1;
	d->d.GetBufferMemoryRequirements(dev, *buf, &req);
	uint32_t type = 0, ok = req.memoryTypeBits & c->t2->xfb_mem_types;
	if (ok & c->t2->xfb_mem_fast) /* what the layer reads back: where the CPU reads it fast */
		ok &= c->t2->xfb_mem_fast;
	while (type < 32 && !(ok >> type & 1))
		type++;
	VkMemoryAllocateFlagsInfo fi = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
					.flags = alloc};
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				   .pNext = alloc ? &fi : NULL,
				   .allocationSize = req.size,
				   .memoryTypeIndex = type};
	if (type < 32 && d->d.AllocateMemory(dev, &ai, NULL, mem) == VK_SUCCESS &&
	    d->d.BindBufferMemory(dev, *buf, *mem, 0) == VK_SUCCESS &&
	    d->d.MapMemory(dev, *mem, 0, VK_WHOLE_SIZE, 0, map) == VK_SUCCESS)
		return 0;
	if (*mem)
		d->d.FreeMemory(dev, *mem, NULL);
	d->d.DestroyBuffer(dev, *buf, NULL);
	*buf = VK_NULL_HANDLE, *mem = VK_NULL_HANDLE, *map = NULL;
	return -1;
}

static int new_chunk(struct capture_device *c, struct layer_device *d, uint32_t verts,
		     struct chunk *out)
{
	void *map;
	(void)d;
	memset(out, 0, sizeof(*out));
	verts = verts > CHUNK_VERTS ? verts : CHUNK_VERTS;
	if (capture_host_buffer(c, (VkDeviceSize)verts * VTX_BYTES,
				VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, &out->buf,
				&out->mem, &map))
		return -1;
	memset(map, 0xff, (size_t)verts * VTX_BYTES);
	out->map = map;
	out->cap = verts;
	return 0;
}

void capture_geom_free(struct layer_device *d, struct cbuf *b)
{
	struct geom *g = b->geom;
	if (!g)
		return;
	for (uint32_t i = 0; i < g->n_chunks; i++) {
		d->d.DestroyBuffer(d->handle, g->chunks[i].buf, NULL);
		d->d.FreeMemory(d->handle, g->chunks[i].mem, NULL); /* unmaps it */
	}
	free(g->chunks);
	free(g->draws);
	free(g);
	b->geom = NULL;
}

void capture_geom_begin(struct cbuf *b)
{
	struct geom *g = b->geom;
	if (!g)
		return;
	g->n_draws = 0;
	g->cur = 0;
	for (uint32_t i = 0; i < g->n_chunks; i++)
		g->chunks[i].used = 0;
}

/* Room for `verts` vertices at the end of a chunk, with the lock held: 0 and *chunk, *first,
 * or -1 when a new chunk is needed (which geom_reserve makes). */
static int room(struct geom *g, uint32_t verts, uint32_t *chunk, uint32_t *first)
{
	for (; g->cur < g->n_chunks; g->cur++) {
		struct chunk *k = &g->chunks[g->cur];
		if (k->cap - k->used >= verts) {
			*chunk = g->cur;
			*first = k->used;
			k->used += verts;
			return 0;
		}
	}
	return -1;
}

/* Reserves room for a shadow draw of `verts` vertices in b's buffers (allocating one if
 * needed, without the lock held while it calls down); -1 when there is none. */
static int reserve(struct capture_device *c, struct layer_device *d, struct cbuf *b, uint32_t verts,
		   uint32_t *chunk, uint32_t *first)
{
	pthread_mutex_lock(&c->lock);
	if (!b->geom)
		b->geom = calloc(1, sizeof(*b->geom));
	int r = b->geom ? room(b->geom, verts, chunk, first) : -2;
	pthread_mutex_unlock(&c->lock);
	if (r != -1)
		return r;
	struct chunk k;
	if (new_chunk(c, d, verts, &k))
		return -1;
	pthread_mutex_lock(&c->lock);
	struct geom *g = b->geom;
	struct chunk *ks = realloc(g->chunks, (g->n_chunks + 1) * sizeof(*ks));
	if (ks) {
		g->chunks = ks;
		g->chunks[g->n_chunks++] = k;
		r = room(g, verts, chunk, first);
	}
	pthread_mutex_unlock(&c->lock);
	if (!ks) {
		d->d.DestroyBuffer(d->handle, k.buf, NULL);
		d->d.FreeMemory(d->handle, k.mem, NULL);
	}
	return r;
}

/* Issues the program's draw once more (the shadow draw has the same parameters). */
static void issue(struct llct_device_dispatch *t, VkCommandBuffer cb, const struct draw_call *a)
{
	switch (a->kind) {
	case DC_DRAW:
		t->CmdDraw(cb, a->count, a->instances, a->first, a->first_instance);
		break;
	case DC_INDEXED:
		t->CmdDrawIndexed(cb, a->count, a->instances, a->first, a->vertex_offset,
				  a->first_instance);
		break;
	case DC_MULTI:
		t->CmdDrawMultiEXT(cb, a->n, a->multi, a->instances, a->first_instance, a->stride);
		break;
	case DC_MULTI_INDEXED:
		t->CmdDrawMultiIndexedEXT(cb, a->n, a->multi, a->instances, a->first_instance,
					  a->stride, a->multi_offset);
		break;
	case DC_INDIRECT:
		t->CmdDrawIndirect(cb, a->buf, a->off, a->n, a->stride);
		break;
	case DC_INDEXED_INDIRECT:
		t->CmdDrawIndexedIndirect(cb, a->buf, a->off, a->n, a->stride);
		break;
	case DC_INDIRECT_COUNT:
		t->CmdDrawIndirectCount(cb, a->buf, a->off, a->count_buf, a->count_off, a->n,
					a->stride);
		break;
	case DC_INDEXED_INDIRECT_COUNT:
		t->CmdDrawIndexedIndirectCount(cb, a->buf, a->off, a->count_buf, a->count_off, a->n,
					       a->stride);
		break;
	}
}

/* Vertices each sub-draw of a direct draw writes (0: not known), and their sum. */
static uint64_t expected(const struct draw_call *a, VkPrimitiveTopology t, uint32_t *each)
{
	uint64_t total = 0;
	uint32_t n = a->kind == DC_MULTI || a->kind == DC_MULTI_INDEXED ? a->n : 1;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t count = a->count;
		if (a->kind == DC_MULTI)
			count = ((const VkMultiDrawInfoEXT *)((const char *)a->multi +
							      (size_t)i * a->stride))
				    ->vertexCount;
		else if (a->kind == DC_MULTI_INDEXED)
			count = ((const VkMultiDrawIndexedInfoEXT *)((const char *)a->multi +
								     (size_t)i * a->stride))
				    ->indexCount;
		uint64_t v = written(t, count) * a->instances;
		each[i] = v > MAX_VERTS ? 0 : (uint32_t)v;
		total += v;
	}
	return total;
}

uint32_t capture_geom_shadow(VkCommandBuffer cb, const struct draw_call *a, uint32_t *sub_geom)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(cb, &d);
	uint32_t n_sub = a->kind == DC_MULTI || a->kind == DC_MULTI_INDEXED ? a->n : 1;
	memset(sub_geom, 0, n_sub * sizeof(*sub_geom));
	if (!c || !c->xfb || !c->rs->instrument || !n_sub)
		return 0;
	/* what the recording has bound, and whether a shadow draw may go here */
	pthread_mutex_lock(&c->lock);
	struct cbuf *b = c->failed || !capture_reachable(c, UINT32_MAX) /* the range is over */
			     ? NULL
			     : capture_hmap_get(&c->tr->cbufs, H(cb));
	struct pipe *p = b ? capture_hmap_get(&c->ps->pipes, b->rec_pipe) : NULL;
	VkPipeline shadow = p ? p->pr.shadow : VK_NULL_HANDLE,
		   real = (VkPipeline)(uintptr_t)(b ? b->rec_pipe : 0);
	int ok = shadow && b->rec_in_pass && !b->multiview && !b->app_xfb && !b->app_prims &&
		 !b->app_stats;
	VkPrimitiveTopology topo = p && (p->dyn & DY_TOPOLOGY) ? b->rec_topology
				   : p                         ? p->vi.topology
							       : 0;
	int dyn_discard = p && (p->dyn & DY_RAST_DISCARD), discard = b ? b->rec_discard : 0;
	int expands = p && p->pr.expands, out_prim = p ? p->pr.out_prim : -1;
	uint32_t slots = p && p->pr.xfb_floats >= 4 ? p->pr.xfb_floats / 4 : 1;
	uint32_t guess = b && b->geom && b->geom->guess ? b->geom->guess : c->t2->xfb_guess;
	int primary = b && b->primary;
	pthread_mutex_unlock(&c->lock);
	if (!ok)
		return 0;
	/* how much room: exactly what a direct draw writes, else a guess (and a query) */
	uint32_t each[64];
	uint64_t total = 0;
	int known = !expands && n_sub <= 64 &&
		    (a->kind == DC_DRAW || a->kind == DC_INDEXED || a->kind == DC_MULTI ||
		     a->kind == DC_MULTI_INDEXED);
	if (known)
		total = expected(a, topo, each);
	if (known && total == 0)
		return 0; /* nothing to capture: no shadow draw */
	uint32_t cap = known ? (uint32_t)(total < MAX_VERTS ? total : MAX_VERTS) : guess;
	uint32_t chunk, first, q = 0;
	if (reserve(c, d, b, cap * slots, &chunk, &first))
		return 0;
	/* a stream query only where the size is not known: it counts the whole call, so a
	   multi-draw's first sub-draw would have read its siblings' primitives as its own */
	VkQueryPool xq = VK_NULL_HANDLE;
	if (primary && !known)
		q = capture_lpool_take(c, b, 1, &xq);
	/* the records of where it goes: one a sub-draw when each one's size is known */
	pthread_mutex_lock(&c->lock);
	struct geom *g = b->geom;
	uint32_t n_rec = known ? n_sub : 1, at = first;
	if (g->n_draws + n_rec > g->cap_draws) {
		uint32_t nc = g->cap_draws ? g->cap_draws * 2 : 64;
		while (nc < g->n_draws + n_rec)
			nc *= 2;
		struct gdraw *nd = realloc(g->draws, nc * sizeof(*nd));
		if (nd)
			g->draws = nd, g->cap_draws = nc;
	}
	int have = g->n_draws + n_rec <= g->cap_draws;
	for (uint32_t i = 0; have && i < n_rec; i++) {
		struct gdraw *r = &g->draws[g->n_draws++];
		r->chunk = chunk;
		r->first = at;
		r->cap = known ? each[i] : cap;
		r->slots = slots;
		r->expect = known ? each[i] : 0;
		r->per_prim = per_prim_of(topo, expands ? out_prim : -1);
		r->query = i == 0 ? q : 0;
		at += r->cap * slots;
		sub_geom[i] = g->n_draws;
	}
	VkBuffer buf = g->chunks[chunk].buf;
	pthread_mutex_unlock(&c->lock);
	if (!have)
		return 0;
	/* the shadow draw, then back to the program's pipeline and state */
	struct llct_device_dispatch *t = &d->d;
	VkDeviceSize off = (VkDeviceSize)first * VTX_BYTES;
	VkDeviceSize size = (VkDeviceSize)cap * slots * VTX_BYTES;
	t->CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, shadow);
	if (dyn_discard)
		t->CmdSetRasterizerDiscardEnable(cb, VK_TRUE);
	t->CmdBindTransformFeedbackBuffersEXT(cb, 0, 1, &buf, &off, &size);
	if (q)
		t->CmdBeginQueryIndexedEXT(cb, xq, q - 1, 0, 0);
	t->CmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	issue(t, cb, a);
	t->CmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	if (q)
		t->CmdEndQueryIndexedEXT(cb, xq, q - 1, 0);
	if (dyn_discard)
		t->CmdSetRasterizerDiscardEnable(cb, discard ? VK_TRUE : VK_FALSE);
	t->CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, real);
	return sub_geom[0];
}

/* Is vertex v the sentinel (never written)? */
static int sentinel(const float *v)
{
	uint32_t w[4];
	memcpy(w, v, sizeof(w));
	return (w[0] & w[1] & w[2] & w[3]) == UINT32_MAX;
}

int capture_geom_positions(struct capture_device *c, struct cbuf *b, uint32_t gi, const float **pos,
			   uint32_t *n, uint32_t *stride, char *state, size_t state_size)
{
	struct geom *g = b ? b->geom : NULL;
	*pos = NULL;
	*n = 0;
	if (!gi || !g || gi > g->n_draws) {
		snprintf(state, state_size, "none: no shadow draw");
		return -1;
	}
	struct gdraw *r = &g->draws[gi - 1];
	struct chunk *k = &g->chunks[r->chunk];
	const float *v = k->map + (size_t)r->first * 4;
	*stride = r->slots * 4;
	uint32_t count;
	if (r->query && b->xfbq.res_ok) {
		uint64_t wrote = b->xfbq.res[2 * (r->query - 1)],
			 needed = b->xfbq.res[2 * (r->query - 1) + 1];
		if (needed > wrote) { /* the buffer was too small: the next recording gets more */
			g->guess = g->guess ? g->guess : c->t2->xfb_guess;
			while (g->guess < needed * r->per_prim && g->guess < MAX_VERTS)
				g->guess *= 2;
			snprintf(state, state_size, "truncated: %llu of %llu primitives",
				 (unsigned long long)wrote, (unsigned long long)needed);
			return -1;
		}
		count = (uint32_t)(wrote * r->per_prim);
	} else {
		/* no query (a secondary's draw): up to the first sentinel, at most what the draw
		   can write (strips with restart write less) */
		uint32_t limit = r->expect ? r->expect : r->cap;
		for (count = 0; count < limit && !sentinel(v + (size_t)count * *stride); count++)
			;
		if (!r->expect && count == r->cap) {
			snprintf(state, state_size, "truncated: the buffer of %u vertices is full",
				 r->cap);
			g->guess = r->cap < MAX_VERTS / 2 ? r->cap * 2 : MAX_VERTS;
			return -1;
		}
	}
	*pos = v;
	*n = count - count % r->per_prim;
	snprintf(state, state_size, "xfb");
	return 0;
}

void capture_geom_consumed(struct cbuf *b, uint32_t gi, uint32_t n)
{
	struct geom *g = b ? b->geom : NULL;
	if (!gi || !g || gi > g->n_draws)
		return;
	struct gdraw *r = &g->draws[gi - 1];
	/* the sentinel again where this execution wrote, so a later one's end can be found */
	memset(g->chunks[r->chunk].map + (size_t)r->first * 4, 0xff,
	       (size_t)(n < r->cap ? n : r->cap) * r->slots * VTX_BYTES);
}

/* describe.c - draws and dispatches at expansion time, described for the stream models
 * (llct/draw.h): the state that decides their traffic (pipeline and dynamic state), the
 * resources their shaders use (bound descriptors the SPIR-V refers to), index and vertex
 * ranges, what the layer measured; then the tier makes records and the kernel row says what
 * was drawn. */
#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A new entry of the device's use list, or NULL when out of memory. */
static struct llct_use *new_use(struct capture_device *c)
{
	if (c->n_uses == c->cap_uses) {
		size_t cap = c->cap_uses ? 2 * c->cap_uses : 64;
		struct llct_use *u = realloc(c->uses, cap * sizeof(*u));
		if (!u) {
			cap_fail(c, "out of memory describing a draw");
			return NULL;
		}
		c->uses = u;
		c->cap_uses = cap;
	}
	struct llct_use *u = &c->uses[c->n_uses++];
	memset(u, 0, sizeof(*u));
	return u;
}

/* A buffer range in a stream (binding -1: not a bound descriptor), if the buffer is known. */
static void range_use(struct capture_device *c, int binding, uint64_t handle, uint64_t off,
		      uint64_t size, int stream, int op, int cached)
{
	uint64_t addr, len;
	struct llct_use *u;
	if (!buffer_bytes(c, handle, off, size, &addr, &len) || !(u = new_use(c)))
		return;
	*u = (struct llct_use){.kind = LLCT_USE_RANGE,
			       .binding = binding,
			       .stream = stream,
			       .op = op,
			       .cached = cached,
			       .addr = addr,
			       .size = len};
}

static int binding_kind(VkDescriptorType t)
{
	switch (t) {
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
		return LLCT_BIND_UNIFORM;
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
		return LLCT_BIND_UNIFORM_TEXEL;
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
		return LLCT_BIND_STORAGE;
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
		return LLCT_BIND_STORAGE_TEXEL;
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
		return LLCT_BIND_SAMPLED_IMAGE;
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
		return LLCT_BIND_STORAGE_IMAGE;
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
		return LLCT_BIND_INPUT_ATTACHMENT;
	default:
		return LLCT_BIND_OTHER;
	}
}

/* Does the pipeline's SPIR-V use the binding slot k of set index s belongs to? */
static int slot_used(const struct pipe *p, const struct dset *ds, int s, uint32_t k)
{
	if (!p)
		return 1;
	for (uint32_t b = 0; b < ds->n_bindings; b++)
		if (k >= ds->first[b] && k < ds->first[b] + ds->count[b])
			return ds->binding[b] >= 64 || (p->used[s] >> ds->binding[b] & 1);
	return 1;
}

/* The descriptors bound at a bind point that the pipeline's shaders use, in set and slot order. */
static void bound_uses(struct capture_device *c, const struct pipe *p, int compute)
{
	for (int s = 0; s < 8; s++) {
		struct dset *ds = hget(&c->sets, c->cur_set[compute][s]);
		for (uint32_t k = 0; ds && k < ds->n; k++) {
			const struct slot *sl = &ds->slot[k];
			int kind = binding_kind(sl->type);
			struct llct_binding_traffic t;
			llct_binding_traffic(kind, compute, &t);
			if (!t.counted || !slot_used(p, ds, s, k))
				continue;
			if (kind == LLCT_BIND_SAMPLED_IMAGE || kind == LLCT_BIND_STORAGE_IMAGE ||
			    kind == LLCT_BIND_INPUT_ATTACHMENT) {
				uint32_t mip, layer;
				struct img *im = view_image(c, sl->handle, &mip, &layer);
				struct llct_use *u = im ? new_use(c) : NULL;
				if (u)
					*u = (struct llct_use){.kind = LLCT_USE_IMAGE,
							       .binding = kind,
							       .s = im->s,
							       .mip = mip,
							       .layer = layer};
			} else {
				range_use(c, kind, sl->handle, sl->offset, sl->range, 0, 0, 0);
			}
		}
	}
}

/* The state of a graphics draw: the bound pipeline's, or the dynamic state set by commands
 * where the pipeline says so. An unknown pipeline writes color without blending. */
static void draw_state(struct capture_device *c, const struct pipe *p, struct llct_draw_state *st)
{
	VkViewport vp = p && p->has_viewport ? p->viewport : c->viewport;
	VkRect2D sc = p && p->has_scissor ? p->scissor : c->scissor;
	memset(st, 0, sizeof(*st));
	st->vp_x = vp.x;
	st->vp_y = vp.y;
	st->vp_w = vp.width;
	st->vp_h = vp.height;
	st->vp_min = vp.minDepth;
	st->vp_max = vp.maxDepth;
	st->has_viewport = vp.width > 0;
	st->sc_x = sc.offset.x;
	st->sc_y = sc.offset.y;
	st->sc_w = sc.extent.width;
	st->sc_h = sc.extent.height;
	st->has_scissor = sc.extent.width > 0;
	st->depth_test = p && (p->dyn_depth_test ? (int)c->dyn[D_DEPTH_TEST] : p->depth_test);
	/* depth writes happen only where the depth test is on */
	st->depth_write =
	    st->depth_test && (p->dyn_depth_write ? (int)c->dyn[D_DEPTH_WRITE] : p->depth_write);
	st->stencil_test =
	    p && (p->dyn_stencil_test ? (int)c->dyn[D_STENCIL_TEST] : p->stencil_test);
	st->stencil_write = p && p->stencil_write;
	st->write_mask = p ? (p->dyn_write_mask ? c->dyn[D_WRITE_MASK] : p->write_mask) &
				 (p->dyn_write_enable ? c->dyn[D_WRITE_ENABLE] : UINT32_MAX)
			   : UINT32_MAX;
	st->blend = p ? (p->dyn_blend ? c->dyn[D_BLEND] : p->blend) : 0;
	st->polygon_fill = 1;
	st->samples = 1;
}

/* The vertex and index ranges of a draw: an indexed draw's index range, and the vertices it
 * uses, from the index values (index_data) when the layer can know them, else from the
 * vertex offset and count; an indirect draw (count 0: unknown) the whole bound buffers. */
static void vertex_uses(struct capture_device *c, const struct pipe *p, const struct cmd *m)
{
	uint64_t vfirst = m->u.draw.indexed ? m->u.draw.vertex_offset : m->u.draw.first;
	uint64_t vcount = m->u.draw.count;
	struct buf *ibuf = m->u.draw.indexed ? hget(&c->bufs, c->ib) : NULL;
	if (ibuf && m->u.draw.count && c->ib_size) {
		const uint8_t *p8 =
		    index_data(c, ibuf, c->ib_off + (uint64_t)m->u.draw.first * c->ib_size,
			       (uint64_t)m->u.draw.count * c->ib_size);
		uint64_t lo_i = UINT64_MAX, hi_i = 0;
		for (uint64_t k = 0; p8 && k < m->u.draw.count; k++) {
			uint64_t v = c->ib_size == 2   ? ((const uint16_t *)p8)[k]
				     : c->ib_size == 1 ? p8[k]
						       : ((const uint32_t *)p8)[k];
			if ((c->ib_size == 2 && v == 0xffff) ||
			    (c->ib_size == 4 && v == 0xffffffffu))
				continue; /* primitive restart */
			lo_i = v < lo_i ? v : lo_i;
			hi_i = v > hi_i ? v : hi_i;
		}
		if (lo_i <= hi_i) {
			vfirst = m->u.draw.vertex_offset + lo_i;
			vcount = hi_i - lo_i + 1;
		}
	}
	if (m->u.draw.indexed)
		range_use(c, -1, c->ib, c->ib_off + (uint64_t)m->u.draw.first * c->ib_size,
			  (uint64_t)m->u.draw.count * c->ib_size, LLCT_STREAM_VTX, LLCT_OP_READ, 1);
	for (int b = 0; p && b < 16; b++) {
		uint64_t stride = p->dyn_stride ? c->vb_stride[b] : p->stride[b];
		if (c->vb[b] && !m->u.draw.count) /* indirect: the whole bound buffer */
			range_use(c, -1, c->vb[b], c->vb_off[b], VK_WHOLE_SIZE, LLCT_STREAM_VTX,
				  LLCT_OP_READ, 1);
		else if (stride && c->vb[b] && vcount)
			range_use(c, -1, c->vb[b], c->vb_off[b] + vfirst * stride, vcount * stride,
				  LLCT_STREAM_VTX, LLCT_OP_READ, 1);
	}
}

void do_draw(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = hget(&c->pipes, c->cur_pipe[0]);
	struct llct_draw d = {.samples_passed = UINT64_MAX};
	struct llct_draw_result r;
	/* the draw's fragment shader invocations, when the layer measured them */
	struct cbuf *cb = c->cur_cb;
	if (m->u.draw.query && cb && cb->frags_ok && m->u.draw.query <= cb->used && p && p->has_fs)
		d.samples_passed = cb->frags[m->u.draw.query - 1];
	draw_state(c, p, &d.st);
	c->n_uses = 0;
	bound_uses(c, p, 0);
	vertex_uses(c, p, m);
	d.uses = c->uses;
	d.n_uses = (uint32_t)c->n_uses;
	uint32_t id = kernel_begin(c);
	c->tier->draw(c, &c->pass, &d, &r);
	char params[500], fr[40] = "", ids[300];
	if (d.samples_passed != UINT64_MAX)
		snprintf(fr, sizeof(fr), ",\"fragments\":%llu",
			 (unsigned long long)d.samples_passed);
	att_ids(c, ids, sizeof(ids));
	snprintf(
	    params, sizeof(params),
	    "{\"indexed\":%s,\"count\":%u,\"instances\":%u,\"first\":%u,\"pipeline\":%llu%s%s}",
	    m->u.draw.indexed ? "true" : "false", m->u.draw.count, m->u.draw.instances,
	    m->u.draw.first, (unsigned long long)(p ? p->id : 0), fr, ids);
	kernel_row(c, id, "draw", params);
}

void do_dispatch(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = hget(&c->pipes, c->cur_pipe[1]);
	char params[128];
	snprintf(params, sizeof(params), "{\"groups\":[%u,%u,%u],\"pipeline\":%llu}",
		 m->u.dispatch.x, m->u.dispatch.y, m->u.dispatch.z,
		 (unsigned long long)(p ? p->id : 0));
	new_kernel(c, "dispatch", params);
	c->n_uses = 0;
	bound_uses(c, p, 1);
	llct_dispatch_footprint(c->fp, c->uses, (uint32_t)c->n_uses);
}

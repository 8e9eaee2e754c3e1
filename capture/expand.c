/* expand.c - expansion at submit time: a captured command buffer's shadow list, walked
 * in order with its bound state, becomes kernels and LLC access records through the stream
 * models. */
#include "capture.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct img *view_image(struct capture_device *c, uint64_t view, uint32_t *mip,
			      uint32_t *layer)
{
	struct view *v = hget(&c->views, view);
	struct img *im = v ? hget(&c->imgs, v->image) : NULL;
	if (!im || !im->bound)
		return NULL;
	*mip = v->mip;
	*layer = v->layer;
	return im;
}

/* ,"attachments":[ids] — the resources rows of the pass's color and depth/stencil
 * attachments — into buf. */
static void att_ids(struct capture_device *c, char *buf, size_t size)
{
	size_t at = (size_t)snprintf(buf, size, ",\"attachments\":[");
	int first = 1;
	for (uint32_t i = 0; i < c->n_att && at < size; i++) {
		uint32_t mip, layer;
		struct img *im = view_image(c, c->att_view[i], &mip, &layer);
		if (!im || (c->att[i].role != ROLE_COLOR && c->att[i].role != ROLE_DEPTH))
			continue;
		at += (size_t)snprintf(buf + at, size - at, "%s%llu", first ? "" : ",",
				       (unsigned long long)im->id);
		first = 0;
	}
	if (at < size)
		snprintf(buf + at, size - at, "]");
}

static void att_rect(struct capture_device *c, uint32_t i, int op, int cached)
{
	uint32_t mip, layer;
	struct img *im = view_image(c, c->att_view[i], &mip, &layer);
	if (!im)
		return;
	VkRect2D a = c->area;
	int stream = image_stream(im);
	if (im->depth && im->stencil && c->att[i].load == VK_ATTACHMENT_LOAD_OP_DONT_CARE &&
	    c->att[i].stencil_load != VK_ATTACHMENT_LOAD_OP_DONT_CARE)
		stream = LLCT_STREAM_STC;
	llct_fp_rect(c->fp, &im->s, mip, layer, (uint32_t)a.offset.x, (uint32_t)a.offset.y,
		     (uint32_t)a.offset.x + a.extent.width, (uint32_t)a.offset.y + a.extent.height,
		     stream, op, cached);
}

static void begin_pass(struct capture_device *c)
{
	int loads = 0;
	for (uint32_t i = 0; i < c->n_att; i++)
		loads |= c->att[i].load == VK_ATTACHMENT_LOAD_OP_LOAD ||
			 c->att[i].stencil_load == VK_ATTACHMENT_LOAD_OP_LOAD;
	c->rp_active = 1;
	if (!loads)
		return;
	char params[400], ids[300];
	att_ids(c, ids, sizeof(ids));
	snprintf(params, sizeof(params), "{\"what\":\"render pass load ops\"%s}", ids);
	new_kernel(c, "load", params);
	for (uint32_t i = 0; i < c->n_att; i++)
		if (c->att[i].load == VK_ATTACHMENT_LOAD_OP_LOAD ||
		    c->att[i].stencil_load == VK_ATTACHMENT_LOAD_OP_LOAD)
			att_rect(c, i, LLCT_OP_READ, 0);
}

static void end_pass(struct capture_device *c)
{
	int stores = 0;
	if (!c->rp_active)
		return;
	c->rp_active = 0;
	for (uint32_t i = 0; i < c->n_att; i++)
		stores |= c->att[i].store == VK_ATTACHMENT_STORE_OP_STORE ||
			  c->att[i].stencil_store == VK_ATTACHMENT_STORE_OP_STORE;
	if (stores) {
		char params[400], ids[300];
		att_ids(c, ids, sizeof(ids));
		snprintf(params, sizeof(params), "{\"what\":\"render pass store ops\"%s}", ids);
		new_kernel(c, "store", params);
	}
	/* Dirty attachment lines in the render caches are written by the store op (or thrown
	 * away by DONT_CARE): drop them, then store every line of the render area once. */
	for (uint32_t i = 0; i < c->n_att; i++) {
		uint32_t mip, layer;
		struct img *im = view_image(c, c->att_view[i], &mip, &layer);
		if (!im)
			continue;
		llct_fp_drop(c->fp, im->s.base, im->s.base + llct_surface_size(&im->s, 64));
		if (c->att[i].store == VK_ATTACHMENT_STORE_OP_STORE ||
		    c->att[i].stencil_store == VK_ATTACHMENT_STORE_OP_STORE)
			att_rect(c, i, LLCT_OP_WRITE, 0);
	}
	llct_fp_flush(c->fp);
}

static void buffer_range(struct capture_device *c, uint64_t handle, uint64_t off, uint64_t size,
			 int stream, int op, int cached)
{
	struct buf *b = hget(&c->bufs, handle);
	if (!b || !b->addr)
		return;
	if (off >= b->size)
		return;
	if (size == VK_WHOLE_SIZE || off + size > b->size)
		size = b->size - off;
	llct_fp_range(c->fp, b->addr + off, size, stream, op, cached);
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

static void do_draw(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = hget(&c->pipes, c->cur_pipe[0]);
	/* the draw's fragment shader invocations, when the layer measured them */
	uint64_t frags = UINT64_MAX;
	struct cbuf *cb = c->cur_cb;
	if (m->u.draw.query && cb && cb->frags_ok && m->u.draw.query <= cb->used && p && p->has_fs)
		frags = cb->frags[m->u.draw.query - 1];
	char params[500], fr[40] = "", ids[300];
	if (frags != UINT64_MAX)
		snprintf(fr, sizeof(fr), ",\"fragments\":%llu", (unsigned long long)frags);
	att_ids(c, ids, sizeof(ids));
	snprintf(
	    params, sizeof(params),
	    "{\"indexed\":%s,\"count\":%u,\"instances\":%u,\"first\":%u,\"pipeline\":%llu%s%s}",
	    m->u.draw.indexed ? "true" : "false", m->u.draw.count, m->u.draw.instances,
	    m->u.draw.first, (unsigned long long)(p ? p->id : 0), fr, ids);
	new_kernel(c, "draw", params);
	/* uniforms and textures from the bound sets */
	VkViewport vp = p && p->has_viewport ? p->viewport : c->viewport;
	VkRect2D sc = p && p->has_scissor ? p->scissor : c->scissor;
	if (vp.height < 0) { /* a flipped viewport (VK_KHR_maintenance1), as GL layers use */
		vp.y += vp.height;
		vp.height = -vp.height;
	}
	int64_t x0 = c->area.offset.x, y0 = c->area.offset.y;
	int64_t x1 = x0 + c->area.extent.width, y1 = y0 + c->area.extent.height;
	if (vp.width > 0) {
		x0 = x0 > (int64_t)vp.x ? x0 : (int64_t)vp.x;
		y0 = y0 > (int64_t)vp.y ? y0 : (int64_t)vp.y;
		x1 = x1 < (int64_t)(vp.x + vp.width) ? x1 : (int64_t)(vp.x + vp.width);
		y1 = y1 < (int64_t)(vp.y + vp.height) ? y1 : (int64_t)(vp.y + vp.height);
	}
	if (sc.extent.width) {
		x0 = x0 > sc.offset.x ? x0 : sc.offset.x;
		y0 = y0 > sc.offset.y ? y0 : sc.offset.y;
		x1 = x1 < sc.offset.x + (int64_t)sc.extent.width
			 ? x1
			 : sc.offset.x + (int64_t)sc.extent.width;
		y1 = y1 < sc.offset.y + (int64_t)sc.extent.height
			 ? y1
			 : sc.offset.y + (int64_t)sc.extent.height;
	}
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	uint64_t cw = x1 > x0 ? (uint64_t)(x1 - x0) : 0, ch = y1 > y0 ? (uint64_t)(y1 - y0) : 0;
	if (frags < cw * ch) { /* fewer fragments than pixels: shrink the rectangle to that
				  area, same shape, centred (tier 1 does not know where) */
		uint64_t nw =
		    (uint64_t)((double)cw * sqrt((double)frags / (double)(cw * ch)) + 0.5);
		nw = nw < 1 ? 1 : nw > cw ? cw : nw;
		uint64_t nh = frags ? (frags + nw - 1) / nw : 0;
		nh = nh > ch ? ch : nh;
		x0 += (int64_t)((cw - nw) / 2);
		y0 += (int64_t)((ch - nh) / 2);
		x1 = x0 + (int64_t)nw;
		y1 = y0 + (int64_t)nh;
		cw = frags ? nw : 0;
		ch = nh;
	}
	for (int s = 0; s < 8; s++) {
		struct dset *ds = hget(&c->sets, c->cur_set[0][s]);
		for (uint32_t k = 0; ds && k < ds->n; k++) {
			struct slot *sl = &ds->slot[k];
			if (!slot_used(p, ds, s, k))
				continue;
			if (sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
			    sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
				buffer_range(c, sl->handle, sl->offset, sl->range,
					     LLCT_STREAM_OTHER, LLCT_OP_READ, 0);
			if (sl->type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER)
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_TEX,
					     LLCT_OP_READ, 1); /* read through the texture units */
			if ((sl->type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
			     sl->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) &&
			    cw && ch) {
				uint32_t mip, layer;
				struct img *im = view_image(c, sl->handle, &mip, &layer);
				if (!im)
					continue;
				/* the LOD that maps the covered area onto the texture */
				while (mip + 1 < im->s.mips && (im->s.width >> (mip + 1)) >= cw &&
				       (im->s.height >> (mip + 1)) >= ch)
					mip++;
				uint32_t tw = im->s.width >> mip, th = im->s.height >> mip;
				llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, tw ? tw : 1,
					     th ? th : 1, LLCT_STREAM_TEX, LLCT_OP_READ, 1);
			}
		}
	}
	/* vertex fetch: the vertices an indexed draw uses, from the index values (index_data)
	 * when the layer can know them, else from the vertex offset and count */
	uint64_t vfirst = m->u.draw.indexed ? m->u.draw.vertex_offset : m->u.draw.first;
	uint64_t vcount = m->u.draw.count;
	struct buf *ibuf = m->u.draw.indexed ? hget(&c->bufs, c->ib) : NULL;
	if (ibuf && m->u.draw.count && c->ib_size) {
		const uint8_t *p8 =
		    index_data(c, ibuf, c->ib_off + (uint64_t)m->u.draw.first * c->ib_size,
			       (uint64_t)m->u.draw.count * c->ib_size);
		if (p8) {
			uint64_t lo_i = UINT64_MAX, hi_i = 0;
			for (uint64_t k = 0; k < m->u.draw.count; k++) {
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
	}
	if (m->u.draw.indexed)
		buffer_range(c, c->ib, c->ib_off + (uint64_t)m->u.draw.first * c->ib_size,
			     (uint64_t)m->u.draw.count * c->ib_size, LLCT_STREAM_VTX, LLCT_OP_READ,
			     1);
	for (int b = 0; p && b < 16; b++) {
		uint64_t stride = p->dyn_stride ? c->vb_stride[b] : p->stride[b];
		if (c->vb[b] && !m->u.draw.count) /* indirect: the whole bound buffer */
			buffer_range(c, c->vb[b], c->vb_off[b], VK_WHOLE_SIZE, LLCT_STREAM_VTX,
				     LLCT_OP_READ, 1);
		else if (stride && c->vb[b])
			buffer_range(c, c->vb[b], c->vb_off[b] + vfirst * stride, vcount * stride,
				     LLCT_STREAM_VTX, LLCT_OP_READ, 1);
	}
	/* attachments over the covered rectangle, through the render caches */
	for (uint32_t i = 0; cw && ch && i < c->n_att; i++) {
		uint32_t mip, layer;
		struct img *im = view_image(c, c->att_view[i], &mip, &layer);
		if (!im || (c->att[i].role != ROLE_COLOR && c->att[i].role != ROLE_DEPTH))
			continue; /* resolve targets and unused attachments are not drawn to */
		int stream = image_stream(im);
		uint32_t ax0 = (uint32_t)x0, ay0 = (uint32_t)y0, ax1 = (uint32_t)x1,
			 ay1 = (uint32_t)y1;
		int dt = p && (p->dyn_depth_test ? (int)c->dyn[D_DEPTH_TEST] : p->depth_test);
		/* depth writes happen only where the depth test is on */
		int dw = dt && (p->dyn_depth_write ? (int)c->dyn[D_DEPTH_WRITE] : p->depth_write);
		int st = p && (p->dyn_stencil_test ? (int)c->dyn[D_STENCIL_TEST] : p->stencil_test);
		if (im->depth || im->stencil) {
			if (dt)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_Z, LLCT_OP_READ, 1);
			if (dw)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_Z, LLCT_OP_WRITE, 1);
			if (st && im->stencil) /* the test reads; its ops may write */
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_STC, LLCT_OP_READ, 1);
			if (st && im->stencil && p->stencil_write)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1,
					     LLCT_STREAM_STC, LLCT_OP_WRITE, 1);
		} else {
			/* by the attachment's blend state and write mask (an unknown pipeline
			 * writes without blending) */
			int slot = c->att[i].slot;
			uint32_t bit = slot >= 0 && slot < 32 ? (uint32_t)1 << slot : 0;
			uint32_t wm =
			    p ? (p->dyn_write_mask ? c->dyn[D_WRITE_MASK] : p->write_mask) &
				    (p->dyn_write_enable ? c->dyn[D_WRITE_ENABLE] : UINT32_MAX)
			      : UINT32_MAX;
			int writes = (wm & bit) != 0;
			int blends = p && writes &&
				     (p->dyn_blend ? (c->dyn[D_BLEND] & bit) : (p->blend & bit));
			if (blends)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1, stream,
					     LLCT_OP_READ, 1);
			if (writes)
				llct_fp_rect(c->fp, &im->s, mip, layer, ax0, ay0, ax1, ay1, stream,
					     LLCT_OP_WRITE, 1);
		}
	}
}

static void do_dispatch(struct capture_device *c, const struct cmd *m)
{
	struct pipe *p = hget(&c->pipes, c->cur_pipe[1]);
	char params[128];
	snprintf(params, sizeof(params), "{\"groups\":[%u,%u,%u],\"pipeline\":%llu}",
		 m->u.dispatch.x, m->u.dispatch.y, m->u.dispatch.z,
		 (unsigned long long)(p ? p->id : 0));
	new_kernel(c, "dispatch", params);
	for (int s = 0; s < 8; s++) {
		struct dset *ds = hget(&c->sets, c->cur_set[1][s]);
		for (uint32_t k = 0; ds && k < ds->n; k++) {
			struct slot *sl = &ds->slot[k];
			uint32_t mip, layer;
			struct img *im;
			if (!slot_used(p, ds, s, k))
				continue;
			switch (sl->type) {
			case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_TEX,
					     LLCT_OP_READ, 1);
				break;
			case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
			case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
			case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_CS,
					     LLCT_OP_READ, 0);
				buffer_range(c, sl->handle, sl->offset, sl->range, LLCT_STREAM_CS,
					     LLCT_OP_WRITE, 0);
				break;
			case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
			case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
				buffer_range(c, sl->handle, sl->offset, sl->range,
					     LLCT_STREAM_OTHER, LLCT_OP_READ, 0);
				break;
			case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
				if ((im = view_image(c, sl->handle, &mip, &layer))) {
					llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, im->s.width,
						     im->s.height, LLCT_STREAM_CS, LLCT_OP_READ, 0);
					llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, im->s.width,
						     im->s.height, LLCT_STREAM_CS, LLCT_OP_WRITE,
						     0);
				}
				break;
			case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
			case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
				if ((im = view_image(c, sl->handle, &mip, &layer)))
					llct_fp_rect(c->fp, &im->s, mip, layer, 0, 0, im->s.width,
						     im->s.height, LLCT_STREAM_TEX, LLCT_OP_READ,
						     1);
				break;
			default:
				break;
			}
		}
	}
	llct_fp_flush(c->fp);
}

static void image_region(struct capture_device *c, uint64_t handle, uint32_t mip, uint32_t layer,
			 VkOffset3D o, VkExtent3D e, int op, int as_other)
{
	struct img *im = hget(&c->imgs, handle);
	if (!im || !im->bound)
		return;
	uint32_t x0 = o.x > 0 ? (uint32_t)o.x : 0, y0 = o.y > 0 ? (uint32_t)o.y : 0;
	llct_fp_rect(c->fp, &im->s, mip, layer, x0, y0, x0 + e.width, y0 + e.height,
		     as_other ? LLCT_STREAM_OTHER : image_stream(im), op, 0);
}

static void do_copy(struct capture_device *c, const struct cmd *m)
{
	static const char *const kinds[] = {"copy", "copy",    "copy", "copy",
					    "blit", "resolve", "clear"};
	const char *kind = kinds[m->u.copy.kind];
	/* the resources rows read and written */
	int src_img = m->u.copy.kind == K_IMG_BUF || m->u.copy.kind == K_IMG_IMG ||
		      m->u.copy.kind == K_BLIT || m->u.copy.kind == K_RESOLVE;
	int dst_img = m->u.copy.kind == K_BUF_IMG || m->u.copy.kind == K_IMG_IMG ||
		      m->u.copy.kind == K_BLIT || m->u.copy.kind == K_RESOLVE;
	struct img *si = src_img ? hget(&c->imgs, m->u.copy.src) : NULL;
	struct img *di = dst_img ? hget(&c->imgs, m->u.copy.dst) : NULL;
	struct buf *sb = src_img || m->u.copy.kind == K_FILL ? NULL : hget(&c->bufs, m->u.copy.src);
	struct buf *db = dst_img ? NULL : hget(&c->bufs, m->u.copy.dst);
	uint64_t sid = si ? si->id : sb ? sb->id : 0, did = di ? di->id : db ? db->id : 0;
	char params[100], src[40] = "";
	if (sid)
		snprintf(src, sizeof(src), "\"src\":%llu,", (unsigned long long)sid);
	snprintf(params, sizeof(params), "{%s\"dst\":%llu}", src, (unsigned long long)did);
	new_kernel(c, kind, params);
	switch (m->u.copy.kind) {
	case K_BUF_BUF:
		buffer_range(c, m->u.copy.src, m->u.copy.src_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_READ, 0);
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_WRITE, 0);
		break;
	case K_BUF_IMG: {
		struct img *im = hget(&c->imgs, m->u.copy.dst);
		uint64_t bytes = im ? (uint64_t)m->u.copy.ext.width * m->u.copy.ext.height *
					  (m->u.copy.ext.depth ? m->u.copy.ext.depth : 1) *
					  im->s.bpp
				    : 0;
		buffer_range(c, m->u.copy.src, m->u.copy.src_off, bytes, LLCT_STREAM_OTHER,
			     LLCT_OP_READ, 0);
		image_region(c, m->u.copy.dst, m->u.copy.dmip, m->u.copy.dlayer, m->u.copy.dof,
			     m->u.copy.ext, LLCT_OP_WRITE, 0);
		break;
	}
	case K_IMG_BUF: {
		struct img *im = hget(&c->imgs, m->u.copy.src);
		uint64_t bytes = im ? (uint64_t)m->u.copy.ext.width * m->u.copy.ext.height *
					  (m->u.copy.ext.depth ? m->u.copy.ext.depth : 1) *
					  im->s.bpp
				    : 0;
		image_region(c, m->u.copy.src, m->u.copy.smip, m->u.copy.slayer, m->u.copy.so,
			     m->u.copy.ext, LLCT_OP_READ, 1);
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, bytes, LLCT_STREAM_OTHER,
			     LLCT_OP_WRITE, 0);
		break;
	}
	case K_IMG_IMG:
	case K_BLIT:
	case K_RESOLVE:
		image_region(c, m->u.copy.src, m->u.copy.smip, m->u.copy.slayer, m->u.copy.so,
			     m->u.copy.ext, LLCT_OP_READ, 1);
		image_region(c, m->u.copy.dst, m->u.copy.dmip, m->u.copy.dlayer, m->u.copy.dof,
			     m->u.copy.dext, LLCT_OP_WRITE, 0);
		break;
	case K_FILL:
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_WRITE, 0);
		break;
	}
}

void expand(struct capture_device *c, struct cbuf *b, int depth)
{
	struct cbuf *outer = c->cur_cb;
	c->cur_cb = b;
	/* bound state does not outlive a command buffer (render pass state of a secondary
	 * comes from the primary that executes it) */
	memset(c->cur_pipe, 0, sizeof(c->cur_pipe));
	memset(c->cur_set, 0, sizeof(c->cur_set));
	memset(c->vb, 0, sizeof(c->vb));
	memset(c->vb_stride, 0, sizeof(c->vb_stride));
	c->ib = 0;
	memset(&c->viewport, 0, sizeof(c->viewport));
	memset(&c->scissor, 0, sizeof(c->scissor));
	memset(c->dyn, 0, sizeof(c->dyn));
	/* until a command says otherwise, color is written */
	c->dyn[D_WRITE_MASK] = c->dyn[D_WRITE_ENABLE] = UINT32_MAX;
	for (size_t i = 0; b && i < b->n && !c->failed; i++) {
		const struct cmd *m = &b->cmds[i];
		if (m->op == C_COPY)
			index_copy(c, m); /* captured frame or not */
		if (!c->in_frame &&
		    (m->op == C_BEGIN_RP || m->op == C_BEGIN_RENDERING || m->op == C_END_RP ||
		     m->op == C_DRAW || m->op == C_DISPATCH || m->op == C_COPY ||
		     m->op == C_CLEAR_IMAGE || m->op == C_CLEAR_ATT))
			continue; /* work of a frame that is not captured */
		switch (m->op) {
		case C_BEGIN_RP: {
			struct rpass *rp = hget(&c->rpasses, m->u.rp.rp);
			struct fbuf *fb = hget(&c->fbufs, m->u.rp.fb);
			c->n_att = rp && fb ? (rp->n < fb->n ? rp->n : fb->n) : 0;
			for (uint32_t a = 0; a < c->n_att; a++) {
				/* an imageless framebuffer's views come with the begin */
				c->att_view[a] = m->u.rp.n_views
						     ? (a < m->u.rp.n_views ? m->u.rp.view[a] : 0)
						     : fb->view[a];
				c->att[a] = rp->att[a];
			}
			c->area = m->u.rp.area;
			begin_pass(c);
			break;
		}
		case C_BEGIN_RENDERING:
			c->n_att = m->u.dr.n;
			memcpy(c->att_view, m->u.dr.view, sizeof(c->att_view));
			memcpy(c->att, m->u.dr.att, sizeof(c->att));
			c->area = m->u.dr.area;
			begin_pass(c);
			break;
		case C_END_RP:
			end_pass(c);
			break;
		case C_BIND_PIPELINE:
			c->cur_pipe[m->u.bind.compute] = m->u.bind.pipe;
			break;
		case C_BIND_SET:
			if (m->u.set.index < 8)
				c->cur_set[m->u.set.compute][m->u.set.index] = m->u.set.set;
			break;
		case C_BIND_VB:
			if (m->u.vb.binding < 16) {
				c->vb[m->u.vb.binding] = m->u.vb.buf;
				c->vb_off[m->u.vb.binding] = m->u.vb.offset;
			}
			break;
		case C_BIND_IB:
			c->ib = m->u.ib.buf;
			c->ib_off = m->u.ib.offset;
			c->ib_size = m->u.ib.index_size;
			break;
		case C_VIEWPORT:
			c->viewport = m->u.viewport;
			break;
		case C_SCISSOR:
			c->scissor = m->u.scissor;
			break;
		case C_DRAW:
			do_draw(c, m);
			break;
		case C_DISPATCH:
			do_dispatch(c, m);
			break;
		case C_COPY:
			do_copy(c, m);
			break;
		case C_CLEAR_IMAGE: {
			struct img *im = hget(&c->imgs, m->u.clear.image);
			char params[60];
			snprintf(params, sizeof(params), "{\"dst\":%llu}",
				 (unsigned long long)(im ? im->id : 0));
			new_kernel(c, "clear", params);
			for (uint32_t mip = 0; im && im->bound && mip < im->s.mips; mip++)
				for (uint32_t l = 0; l < im->s.layers; l++)
					llct_fp_rect(c->fp, &im->s, mip, l, 0, 0, im->s.width,
						     im->s.height, image_stream(im), LLCT_OP_WRITE,
						     0);
			break;
		}
		case C_CLEAR_ATT: {
			char params[400], ids[300];
			att_ids(c, ids, sizeof(ids));
			snprintf(params, sizeof(params), "{\"what\":\"clear attachments\"%s}", ids);
			new_kernel(c, "clear", params);
			VkRect2D r = m->u.catt.rect;
			for (uint32_t a = 0; a < c->n_att; a++) {
				uint32_t mip, layer;
				struct img *im = view_image(c, c->att_view[a], &mip, &layer);
				if (!im || !((im->depth || im->stencil) ? m->u.catt.color_mask >> 31
									: m->u.catt.color_mask))
					continue;
				llct_fp_rect(c->fp, &im->s, mip, layer, (uint32_t)r.offset.x,
					     (uint32_t)r.offset.y,
					     (uint32_t)r.offset.x + r.extent.width,
					     (uint32_t)r.offset.y + r.extent.height,
					     image_stream(im), LLCT_OP_WRITE, 1);
			}
			break;
		}
		case C_EXECUTE:
			if (depth < 2)
				expand(c, hget(&c->cbufs, m->u.exec.cb), depth + 1);
			break;
		case C_LABEL_BEGIN:
			if (c->boundary_label && !strcmp(m->u.label, c->boundary_name)) {
				/* a new frame starts here, in the middle of the submission */
				frame_boundary(c);
				frame_open(c); /* if not chosen, records and kernels are dropped */
			}
			snprintf(c->label, sizeof(c->label), "%s", m->u.label);
			break;
		case C_LABEL_END:
			c->label[0] = '\0';
			break;
		case C_DYN_STATE:
			if (m->u.dyn.kind < D_BLEND)
				c->dyn[m->u.dyn.kind] = (uint32_t)m->u.dyn.on;
			else if (m->u.dyn.att < 32) /* an attachment's bit in a mask */
				c->dyn[m->u.dyn.kind] =
				    m->u.dyn.on
					? c->dyn[m->u.dyn.kind] | (uint32_t)1 << m->u.dyn.att
					: c->dyn[m->u.dyn.kind] & ~((uint32_t)1 << m->u.dyn.att);
			break;
		case C_VB_STRIDE:
			if (m->u.stride.binding < 16)
				c->vb_stride[m->u.stride.binding] = m->u.stride.stride;
			break;
		}
	}
	llct_fp_drain(c->fp);
	c->cur_cb = outer;
}

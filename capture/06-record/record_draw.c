/* record_draw.c - the vkCmd* recorders of rendering: render passes and dynamic rendering
 * (with their clear values), bound pipelines, sets and buffers, and every kind of draw, each
 * preceded by tier 2's shadow draw and wrapped in the layer's count query. State set by
 * commands is record_state.c's. */
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

/* A render pass begins (both commands): its pass, framebuffer and area, and for an imageless
 * framebuffer the views VkRenderPassAttachmentBeginInfo gives. With the lock held. */
static void begin_rp(struct capture_device *c, VkCommandBuffer cb, struct cmd *m,
		     const VkRenderPassBeginInfo *info)
{
	struct cmd_pass *ps = capture_record_pass(c, cb, m);
	if (!ps)
		return;
	ps->rp.rp = H(info->renderPass);
	ps->rp.fb = H(info->framebuffer);
	ps->rp.area = info->renderArea;
	for (const VkBaseInStructure *x = info->pNext; x; x = x->pNext) {
		if (x->sType != VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)
			continue;
		const VkRenderPassAttachmentBeginInfo *ab = (const void *)x;
		for (uint32_t i = 0; i < ab->attachmentCount && i < MAX_ATT; i++)
			ps->rp.view[ps->rp.n_views++] = H(ab->pAttachments[i]);
	}
	for (uint32_t i = 0; i < info->clearValueCount && i < MAX_ATT; i++) {
		ps->rp.clear_depth[i] = info->pClearValues[i].depthStencil.depth;
		ps->rp.clear_stencil[i] = info->pClearValues[i].depthStencil.stencil;
	}
	struct rpass *rp = capture_hmap_get(&c->tr->rpasses, H(info->renderPass));
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	if (b) {
		b->multiview = rp && rp->multiview;
		b->rec_in_pass = 1;
	}
}

/* A render pass instance ends (with the lock held). */
static void end_rp(struct capture_device *c, VkCommandBuffer cb)
{
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	if (b)
		b->rec_in_pass = 0;
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRenderPass(VkCommandBuffer cb,
						  const VkRenderPassBeginInfo *info,
						  VkSubpassContents contents)
{
	capture_dispatch(cb)->CmdBeginRenderPass(cb, info, contents);
	RECORD(cb, C_BEGIN_RP, { begin_rp(c_, cb, m, info); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRenderPass2(VkCommandBuffer cb,
						   const VkRenderPassBeginInfo *info,
						   const VkSubpassBeginInfo *sub)
{
	capture_dispatch(cb)->CmdBeginRenderPass2(cb, info, sub);
	RECORD(cb, C_BEGIN_RP, { begin_rp(c_, cb, m, info); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndRenderPass(VkCommandBuffer cb)
{
	capture_dispatch(cb)->CmdEndRenderPass(cb);
	RECORD(cb, C_END_RP, { end_rp(c_, cb); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndRenderPass2(VkCommandBuffer cb, const VkSubpassEndInfo *info)
{
	capture_dispatch(cb)->CmdEndRenderPass2(cb, info);
	RECORD(cb, C_END_RP, { end_rp(c_, cb); });
}

static void dyn_att(struct cmd_pass *m, const VkRenderingAttachmentInfo *a, int stencil, int slot)
{
	if (!a || !a->imageView || m->dr.n >= MAX_ATT)
		return;
	uint32_t i = m->dr.n++;
	m->dr.view[i] = H(a->imageView);
	m->dr.att[i].load = stencil ? VK_ATTACHMENT_LOAD_OP_DONT_CARE : a->loadOp;
	m->dr.att[i].store = stencil ? VK_ATTACHMENT_STORE_OP_DONT_CARE : a->storeOp;
	m->dr.att[i].stencil_load = stencil ? a->loadOp : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	m->dr.att[i].stencil_store = stencil ? a->storeOp : VK_ATTACHMENT_STORE_OP_DONT_CARE;
	m->dr.att[i].role = ROLE_COLOR; /* depth/stencil images are told apart by format */
	m->dr.att[i].slot = slot;
	m->dr.att[i].clear_depth = a->clearValue.depthStencil.depth;
	m->dr.att[i].clear_stencil = a->clearValue.depthStencil.stencil;
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRendering(VkCommandBuffer cb, const VkRenderingInfo *info)
{
	capture_dispatch(cb)->CmdBeginRendering(cb, info);
	RECORD(cb, C_BEGIN_RENDERING, {
		struct cmd_pass *ps = capture_record_pass(c_, cb, m);
		if (ps) {
			ps->dr.area = info->renderArea;
			struct cbuf *b_ = capture_hmap_get(&c_->tr->cbufs, H(cb));
			if (b_) {
				b_->multiview = info->viewMask != 0;
				b_->rec_in_pass = 1;
			}
			for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
				dyn_att(ps, &info->pColorAttachments[i], 0, (int)i);
			dyn_att(ps, info->pDepthAttachment, 0, -1);
			if (info->pStencilAttachment && info->pDepthAttachment &&
			    info->pStencilAttachment->imageView ==
				info->pDepthAttachment->imageView &&
			    ps->dr.n) { /* one depth/stencil image: fold the stencil ops into it */
				ps->dr.att[ps->dr.n - 1].stencil_load =
				    info->pStencilAttachment->loadOp;
				ps->dr.att[ps->dr.n - 1].stencil_store =
				    info->pStencilAttachment->storeOp;
				ps->dr.att[ps->dr.n - 1].clear_stencil =
				    info->pStencilAttachment->clearValue.depthStencil.stencil;
			} else {
				dyn_att(ps, info->pStencilAttachment, 1, -1);
			}
		}
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndRendering(VkCommandBuffer cb)
{
	capture_dispatch(cb)->CmdEndRendering(cb);
	RECORD(cb, C_END_RP, { end_rp(c_, cb); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint point,
					       VkPipeline p)
{
	capture_dispatch(cb)->CmdBindPipeline(cb, point, p);
	RECORD(cb, C_BIND_PIPELINE, {
		m->u.bind.compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
		m->u.bind.pipe = H(p);
		struct cbuf *b_ = capture_hmap_get(&c_->tr->cbufs, H(cb));
		if (b_ && point == VK_PIPELINE_BIND_POINT_GRAPHICS)
			b_->rec_pipe = H(p); /* what a shadow draw swaps out and back */
		else if (b_ && point == VK_PIPELINE_BIND_POINT_COMPUTE)
			b_->rec_cpipe = H(p); /* what tier 3 swaps out and back */
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint point,
						     VkPipelineLayout layout, uint32_t first,
						     uint32_t n, const VkDescriptorSet *sets,
						     uint32_t n_dyn, const uint32_t *dyn)
{
	capture_dispatch(cb)->CmdBindDescriptorSets(cb, point, layout, first, n, sets, n_dyn, dyn);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_BIND_SET, {
			m->u.set.compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
			m->u.set.index = first + i;
			m->u.set.set = H(sets[i]);
			struct cbuf *b_ = capture_hmap_get(&c_->tr->cbufs, H(cb));
			if (b_ && point == VK_PIPELINE_BIND_POINT_GRAPHICS && first + i < 8)
				b_->rec_sets[first + i] = H(sets[i]);
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first, uint32_t n,
						    const VkBuffer *bufs, const VkDeviceSize *offs)
{
	capture_dispatch(cb)->CmdBindVertexBuffers(cb, first, n, bufs, offs);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_BIND_VB, {
			m->u.vb.binding = first + i;
			m->u.vb.buf = H(bufs[i]);
			m->u.vb.offset = offs[i];
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindIndexBuffer(VkCommandBuffer cb, VkBuffer buf,
						  VkDeviceSize off, VkIndexType type)
{
	capture_dispatch(cb)->CmdBindIndexBuffer(cb, buf, off, type);
	RECORD(cb, C_BIND_IB, {
		m->u.ib.buf = H(buf);
		m->u.ib.offset = off;
		m->u.ib.index_size = type == VK_INDEX_TYPE_UINT16      ? 2
				     : type == VK_INDEX_TYPE_UINT8_EXT ? 1
								       : 4;
	});
}

/* The tier's shadow of a draw about to go down (tiers 2 and 3: a geometry record a sub-draw
 * in sub); none at tier 1. */
static void draw_shadow(VkCommandBuffer cb, const struct draw_call *call, uint32_t *sub)
{
	struct capture_device *c = cap_of(cb, NULL);
	if (c && c->tier->draw_shadow)
		c->tier->draw_shadow(cb, call, sub);
	else
		memset(sub, 0,
		       (call->kind == DC_MULTI || call->kind == DC_MULTI_INDEXED ? call->n : 1) *
			   sizeof(*sub));
}

/* Every draw command: tier 2's shadow draw first (geometry.c), then the program's own draw
 * inside the layer's count query (when it has one). */
#define SHADOW_AND_DRAW(cb, call, DOWN, dq)                                                        \
	do {                                                                                       \
		draw_shadow(cb, call, sub);                                                        \
		dq = capture_draw_query_begin(cb);                                                 \
		DOWN;                                                                              \
		capture_draw_query_end(cb, dq);                                                    \
	} while (0)

VKAPI_ATTR void VKAPI_CALL cap_CmdDraw(VkCommandBuffer cb, uint32_t count, uint32_t instances,
				       uint32_t first, uint32_t first_instance)
{
	struct draw_call call = {.kind = DC_DRAW,
				 .count = count,
				 .instances = instances,
				 .first = first,
				 .first_instance = first_instance};
	struct draw_query dq;
	uint32_t sub[1];
	SHADOW_AND_DRAW(cb, &call,
			capture_dispatch(cb)->CmdDraw(cb, count, instances, first, first_instance),
			dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.rec = dq.rec;
		m->u.draw.geom = sub[0];
		m->u.draw.count = count;
		m->u.draw.instances = instances;
		m->u.draw.first = first;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexed(VkCommandBuffer cb, uint32_t count,
					      uint32_t instances, uint32_t first,
					      int32_t vertex_offset, uint32_t first_instance)
{
	struct draw_call call = {.kind = DC_INDEXED,
				 .count = count,
				 .instances = instances,
				 .first = first,
				 .first_instance = first_instance,
				 .vertex_offset = vertex_offset};
	struct draw_query dq;
	uint32_t sub[1];
	SHADOW_AND_DRAW(cb, &call,
			capture_dispatch(cb)->CmdDrawIndexed(cb, count, instances, first,
							     vertex_offset, first_instance),
			dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.rec = dq.rec;
		m->u.draw.geom = sub[0];
		m->u.draw.indexed = 1;
		m->u.draw.count = count;
		m->u.draw.instances = instances;
		m->u.draw.first = first;
		m->u.draw.vertex_offset = (uint32_t)vertex_offset;
	});
}

/* Whether a multi-draw of n goes down one sub-draw at a time (the tier's choice). */
static int split_multi(VkCommandBuffer cb, uint32_t n)
{
	struct capture_device *c = n > 1 ? cap_of(cb, NULL) : NULL;
	return c && c->tier->draw_split && c->tier->draw_split(cb);
}

/* Multi-draws: one shadow for all (each sub-draw gets its part when their sizes are known).
 * Where the tier splits it (tier 3 with the twin bound, no stage reading DrawIndex), each
 * sub-draw goes down as a multi-draw of one inside its own count query and twin, so each has
 * its own records and fragment count. Otherwise one count query for one sub-draw (as Zink
 * issues them), none for several, and tier 3's twin for all of them, their records on the
 * first sub-draw's. */
VKAPI_ATTR void VKAPI_CALL cap_CmdDrawMultiEXT(VkCommandBuffer cb, uint32_t n,
					       const VkMultiDrawInfoEXT *info, uint32_t instances,
					       uint32_t first_instance, uint32_t stride)
{
	struct draw_call call = {.kind = DC_MULTI,
				 .n = n,
				 .multi = info,
				 .stride = stride,
				 .instances = instances,
				 .first_instance = first_instance};
	struct draw_query dq = {0};
	uint32_t *sub = calloc(n ? n : 1, sizeof(*sub));
	if (sub)
		draw_shadow(cb, &call, sub);
	int split = split_multi(cb, n);
	if (!split) {
		dq = n == 1 ? capture_draw_query_begin(cb) : capture_draw_twin_begin(cb);
		capture_dispatch(cb)->CmdDrawMultiEXT(cb, n, info, instances, first_instance,
						      stride);
		capture_draw_query_end(cb, dq);
	}
	for (uint32_t i = 0; i < n; i++) {
		const VkMultiDrawInfoEXT *d =
		    (const void *)((const char *)info + (size_t)i * stride);
		if (split) {
			dq = capture_draw_query_begin(cb);
			capture_dispatch(cb)->CmdDrawMultiEXT(cb, 1, d, instances, first_instance,
							      stride);
			capture_draw_query_end(cb, dq);
		}
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			/* a multi-draw's records: each its own (split), or its first's */
			m->u.draw.rec = i && !split ? 0 : dq.rec;
			m->u.draw.sub = i;
			m->u.draw.geom = sub ? sub[i] : 0;
			m->u.draw.count = d->vertexCount;
			m->u.draw.instances = instances;
			m->u.draw.first = d->firstVertex;
		});
	}
	free(sub);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawMultiIndexedEXT(VkCommandBuffer cb, uint32_t n,
						      const VkMultiDrawIndexedInfoEXT *info,
						      uint32_t instances, uint32_t first_instance,
						      uint32_t stride, const int32_t *vertex_offset)
{
	struct draw_call call = {.kind = DC_MULTI_INDEXED,
				 .n = n,
				 .multi = info,
				 .stride = stride,
				 .instances = instances,
				 .first_instance = first_instance,
				 .multi_offset = vertex_offset};
	struct draw_query dq = {0};
	uint32_t *sub = calloc(n ? n : 1, sizeof(*sub));
	if (sub)
		draw_shadow(cb, &call, sub);
	int split = split_multi(cb, n);
	if (!split) {
		dq = n == 1 ? capture_draw_query_begin(cb) : capture_draw_twin_begin(cb);
		capture_dispatch(cb)->CmdDrawMultiIndexedEXT(cb, n, info, instances, first_instance,
							     stride, vertex_offset);
		capture_draw_query_end(cb, dq);
	}
	for (uint32_t i = 0; i < n; i++) {
		const VkMultiDrawIndexedInfoEXT *d =
		    (const void *)((const char *)info + (size_t)i * stride);
		if (split) {
			dq = capture_draw_query_begin(cb);
			capture_dispatch(cb)->CmdDrawMultiIndexedEXT(
			    cb, 1, d, instances, first_instance, stride, vertex_offset);
			capture_draw_query_end(cb, dq);
		}
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			/* a multi-draw's records: each its own (split), or its first's */
			m->u.draw.rec = i && !split ? 0 : dq.rec;
			m->u.draw.sub = i;
			m->u.draw.geom = sub ? sub[i] : 0;
			m->u.draw.indexed = 1;
			m->u.draw.count = d->indexCount;
			m->u.draw.instances = instances;
			m->u.draw.first = d->firstIndex;
			m->u.draw.vertex_offset =
			    (uint32_t)(vertex_offset ? *vertex_offset : d->vertexOffset);
		});
	}
	free(sub);
}

/* Indirect draws: the counts live in GPU memory the layer does not read; each counts as a draw
 * of one whole bound vertex buffer (recorded as count 0: "unknown"). The shadow's positions
 * (all of the n draws) go with the first. */
VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndirect(VkCommandBuffer cb, VkBuffer buf, VkDeviceSize off,
					       uint32_t n, uint32_t stride)
{
	struct draw_call call = {
	    .kind = DC_INDIRECT, .buf = buf, .off = off, .n = n, .stride = stride};
	struct draw_query dq = {0};
	uint32_t sub[1];
	draw_shadow(cb, &call, sub);
	dq = n == 1 ? capture_draw_query_begin(cb) : capture_draw_twin_begin(cb);
	capture_dispatch(cb)->CmdDrawIndirect(cb, buf, off, n, stride);
	capture_draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.rec = i ? 0 : dq.rec; /* a multi-draw's records: its first */
			m->u.draw.sub = i;
			m->u.draw.geom = i ? 0 : sub[0];
			m->u.draw.instances = 1;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexedIndirect(VkCommandBuffer cb, VkBuffer buf,
						      VkDeviceSize off, uint32_t n, uint32_t stride)
{
	struct draw_call call = {
	    .kind = DC_INDEXED_INDIRECT, .buf = buf, .off = off, .n = n, .stride = stride};
	struct draw_query dq = {0};
	uint32_t sub[1];
	draw_shadow(cb, &call, sub);
	dq = n == 1 ? capture_draw_query_begin(cb) : capture_draw_twin_begin(cb);
	capture_dispatch(cb)->CmdDrawIndexedIndirect(cb, buf, off, n, stride);
	capture_draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.rec = i ? 0 : dq.rec; /* a multi-draw's records: its first */
			m->u.draw.sub = i;
			m->u.draw.geom = i ? 0 : sub[0];
			m->u.draw.indexed = 1;
			m->u.draw.instances = 1;
		});
}

/* Count-indirect draws: up to max draws whose number lives in GPU memory, recorded as one draw
 * of unknown count, measured as a whole (one query around the call). */
VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndirectCount(VkCommandBuffer cb, VkBuffer buf,
						    VkDeviceSize off, VkBuffer count_buf,
						    VkDeviceSize count_off, uint32_t max,
						    uint32_t stride)
{
	struct draw_call call = {.kind = DC_INDIRECT_COUNT,
				 .buf = buf,
				 .off = off,
				 .count_buf = count_buf,
				 .count_off = count_off,
				 .n = max,
				 .stride = stride};
	struct draw_query dq;
	uint32_t sub[1];
	SHADOW_AND_DRAW(cb, &call,
			capture_dispatch(cb)->CmdDrawIndirectCount(cb, buf, off, count_buf,
								   count_off, max, stride),
			dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.rec = dq.rec;
		m->u.draw.geom = sub[0];
		m->u.draw.instances = 1;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexedIndirectCount(VkCommandBuffer cb, VkBuffer buf,
							   VkDeviceSize off, VkBuffer count_buf,
							   VkDeviceSize count_off, uint32_t max,
							   uint32_t stride)
{
	struct draw_call call = {.kind = DC_INDEXED_INDIRECT_COUNT,
				 .buf = buf,
				 .off = off,
				 .count_buf = count_buf,
				 .count_off = count_off,
				 .n = max,
				 .stride = stride};
	struct draw_query dq;
	uint32_t sub[1];
	SHADOW_AND_DRAW(cb, &call,
			capture_dispatch(cb)->CmdDrawIndexedIndirectCount(cb, buf, off, count_buf,
									  count_off, max, stride),
			dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.rec = dq.rec;
		m->u.draw.geom = sub[0];
		m->u.draw.indexed = 1;
		m->u.draw.instances = 1;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindVertexBuffers2(VkCommandBuffer cb, uint32_t first, uint32_t n,
						     const VkBuffer *bufs, const VkDeviceSize *offs,
						     const VkDeviceSize *sizes,
						     const VkDeviceSize *strides)
{
	capture_dispatch(cb)->CmdBindVertexBuffers2(cb, first, n, bufs, offs, sizes, strides);
	for (uint32_t i = 0; i < n; i++) {
		RECORD(cb, C_BIND_VB, {
			m->u.vb.binding = first + i;
			m->u.vb.buf = H(bufs[i]);
			m->u.vb.offset = offs[i];
		});
		if (strides)
			RECORD(cb, C_VB_STRIDE, {
				m->u.stride.binding = first + i;
				m->u.stride.stride = (uint32_t)strides[i];
			});
	}
}

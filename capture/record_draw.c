/* record_draw.c - the vkCmd* recorders of rendering: render passes and dynamic
 * rendering, bound pipelines, sets and buffers, viewport and scissor, dynamic state, and
 * every kind of draw. */
#include "capture.h"

#include <string.h>

/* A render pass begins (both commands): its pass, framebuffer and area, and for an imageless
 * framebuffer the views VkRenderPassAttachmentBeginInfo gives. With the lock held. */
static void begin_rp(struct capture_device *c, VkCommandBuffer cb, struct cmd *m,
		     const VkRenderPassBeginInfo *info)
{
	m->u.rp.rp = H(info->renderPass);
	m->u.rp.fb = H(info->framebuffer);
	m->u.rp.area = info->renderArea;
	for (const VkBaseInStructure *x = info->pNext; x; x = x->pNext) {
		if (x->sType != VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)
			continue;
		const VkRenderPassAttachmentBeginInfo *ab = (const void *)x;
		for (uint32_t i = 0; i < ab->attachmentCount && i < MAX_ATT; i++)
			m->u.rp.view[m->u.rp.n_views++] = H(ab->pAttachments[i]);
	}
	struct rpass *rp = hget(&c->rpasses, H(info->renderPass));
	struct cbuf *b = hget(&c->cbufs, H(cb));
	if (b)
		b->multiview = rp && rp->multiview;
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRenderPass(VkCommandBuffer cb,
						  const VkRenderPassBeginInfo *info,
						  VkSubpassContents contents)
{
	dd(cb)->CmdBeginRenderPass(cb, info, contents);
	RECORD(cb, C_BEGIN_RP, { begin_rp(c_, cb, m, info); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRenderPass2(VkCommandBuffer cb,
						   const VkRenderPassBeginInfo *info,
						   const VkSubpassBeginInfo *sub)
{
	dd(cb)->CmdBeginRenderPass2(cb, info, sub);
	RECORD(cb, C_BEGIN_RP, { begin_rp(c_, cb, m, info); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndRenderPass(VkCommandBuffer cb)
{
	dd(cb)->CmdEndRenderPass(cb);
	RECORD(cb, C_END_RP, {});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndRenderPass2(VkCommandBuffer cb, const VkSubpassEndInfo *info)
{
	dd(cb)->CmdEndRenderPass2(cb, info);
	RECORD(cb, C_END_RP, {});
}

static void dyn_att(struct cmd *m, const VkRenderingAttachmentInfo *a, int stencil, int slot)
{
	if (!a || !a->imageView || m->u.dr.n >= MAX_ATT)
		return;
	uint32_t i = m->u.dr.n++;
	m->u.dr.view[i] = H(a->imageView);
	m->u.dr.att[i].load = stencil ? VK_ATTACHMENT_LOAD_OP_DONT_CARE : a->loadOp;
	m->u.dr.att[i].store = stencil ? VK_ATTACHMENT_STORE_OP_DONT_CARE : a->storeOp;
	m->u.dr.att[i].stencil_load = stencil ? a->loadOp : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	m->u.dr.att[i].stencil_store = stencil ? a->storeOp : VK_ATTACHMENT_STORE_OP_DONT_CARE;
	m->u.dr.att[i].role = ROLE_COLOR; /* depth/stencil images are told apart by format */
	m->u.dr.att[i].slot = slot;
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginRendering(VkCommandBuffer cb, const VkRenderingInfo *info)
{
	dd(cb)->CmdBeginRendering(cb, info);
	RECORD(cb, C_BEGIN_RENDERING, {
		m->u.dr.area = info->renderArea;
		struct cbuf *b_ = hget(&c_->cbufs, H(cb));
		if (b_)
			b_->multiview = info->viewMask != 0;
		for (uint32_t i = 0; i < info->colorAttachmentCount; i++)
			dyn_att(m, &info->pColorAttachments[i], 0, (int)i);
		dyn_att(m, info->pDepthAttachment, 0, -1);
		if (info->pStencilAttachment && info->pDepthAttachment &&
		    info->pStencilAttachment->imageView == info->pDepthAttachment->imageView &&
		    m->u.dr.n) { /* one depth/stencil image: fold the stencil ops into it */
			m->u.dr.att[m->u.dr.n - 1].stencil_load = info->pStencilAttachment->loadOp;
			m->u.dr.att[m->u.dr.n - 1].stencil_store =
			    info->pStencilAttachment->storeOp;
		} else {
			dyn_att(m, info->pStencilAttachment, 1, -1);
		}
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndRendering(VkCommandBuffer cb)
{
	dd(cb)->CmdEndRendering(cb);
	RECORD(cb, C_END_RP, {});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint point,
					       VkPipeline p)
{
	dd(cb)->CmdBindPipeline(cb, point, p);
	RECORD(cb, C_BIND_PIPELINE, {
		m->u.bind.compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
		m->u.bind.pipe = H(p);
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint point,
						     VkPipelineLayout layout, uint32_t first,
						     uint32_t n, const VkDescriptorSet *sets,
						     uint32_t n_dyn, const uint32_t *dyn)
{
	dd(cb)->CmdBindDescriptorSets(cb, point, layout, first, n, sets, n_dyn, dyn);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_BIND_SET, {
			m->u.set.compute = point == VK_PIPELINE_BIND_POINT_COMPUTE;
			m->u.set.index = first + i;
			m->u.set.set = H(sets[i]);
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first, uint32_t n,
						    const VkBuffer *bufs, const VkDeviceSize *offs)
{
	dd(cb)->CmdBindVertexBuffers(cb, first, n, bufs, offs);
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
	dd(cb)->CmdBindIndexBuffer(cb, buf, off, type);
	RECORD(cb, C_BIND_IB, {
		m->u.ib.buf = H(buf);
		m->u.ib.offset = off;
		m->u.ib.index_size = type == VK_INDEX_TYPE_UINT16      ? 2
				     : type == VK_INDEX_TYPE_UINT8_EXT ? 1
								       : 4;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetViewport(VkCommandBuffer cb, uint32_t first, uint32_t n,
					      const VkViewport *vps)
{
	dd(cb)->CmdSetViewport(cb, first, n, vps);
	if (first == 0 && n)
		RECORD(cb, C_VIEWPORT, { m->u.viewport = vps[0]; });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetScissor(VkCommandBuffer cb, uint32_t first, uint32_t n,
					     const VkRect2D *rs)
{
	dd(cb)->CmdSetScissor(cb, first, n, rs);
	if (first == 0 && n)
		RECORD(cb, C_SCISSOR, { m->u.scissor = rs[0]; });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDraw(VkCommandBuffer cb, uint32_t count, uint32_t instances,
				       uint32_t first, uint32_t first_instance)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDraw(cb, count, instances, first, first_instance);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.count = count;
		m->u.draw.instances = instances;
		m->u.draw.first = first;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexed(VkCommandBuffer cb, uint32_t count,
					      uint32_t instances, uint32_t first,
					      int32_t vertex_offset, uint32_t first_instance)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDrawIndexed(cb, count, instances, first, vertex_offset, first_instance);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.indexed = 1;
		m->u.draw.count = count;
		m->u.draw.instances = instances;
		m->u.draw.first = first;
		m->u.draw.vertex_offset = (uint32_t)vertex_offset;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawMultiEXT(VkCommandBuffer cb, uint32_t n,
					       const VkMultiDrawInfoEXT *info, uint32_t instances,
					       uint32_t first_instance, uint32_t stride)
{
	/* one draw (as Zink issues them) is measured; several share no query */
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawMultiEXT(cb, n, info, instances, first_instance, stride);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++) {
		const VkMultiDrawInfoEXT *d =
		    (const void *)((const char *)info + (size_t)i * stride);
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.count = d->vertexCount;
			m->u.draw.instances = instances;
			m->u.draw.first = d->firstVertex;
		});
	}
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawMultiIndexedEXT(VkCommandBuffer cb, uint32_t n,
						      const VkMultiDrawIndexedInfoEXT *info,
						      uint32_t instances, uint32_t first_instance,
						      uint32_t stride, const int32_t *vertex_offset)
{
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawMultiIndexedEXT(cb, n, info, instances, first_instance, stride,
				       vertex_offset);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++) {
		const VkMultiDrawIndexedInfoEXT *d =
		    (const void *)((const char *)info + (size_t)i * stride);
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.indexed = 1;
			m->u.draw.count = d->indexCount;
			m->u.draw.instances = instances;
			m->u.draw.first = d->firstIndex;
			m->u.draw.vertex_offset =
			    (uint32_t)(vertex_offset ? *vertex_offset : d->vertexOffset);
		});
	}
}

/* Indirect draws: the counts live in GPU memory the layer does not read; each one counts as
 * a draw of one whole bound vertex buffer (recorded as count 0: "unknown"). */
VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndirect(VkCommandBuffer cb, VkBuffer buf, VkDeviceSize off,
					       uint32_t n, uint32_t stride)
{
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawIndirect(cb, buf, off, n, stride);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.instances = 1;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexedIndirect(VkCommandBuffer cb, VkBuffer buf,
						      VkDeviceSize off, uint32_t n, uint32_t stride)
{
	struct draw_query dq = n == 1 ? draw_query_begin(cb) : (struct draw_query){0};
	dd(cb)->CmdDrawIndexedIndirect(cb, buf, off, n, stride);
	draw_query_end(cb, dq);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DRAW, {
			m->u.draw.query = dq.q;
			m->u.draw.indexed = 1;
			m->u.draw.instances = 1;
		});
}

/* Count-indirect draws: up to max draws whose number lives in GPU memory, recorded as one
 * draw of unknown count, measured as a whole (one query around the call). */
VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndirectCount(VkCommandBuffer cb, VkBuffer buf,
						    VkDeviceSize off, VkBuffer count_buf,
						    VkDeviceSize count_off, uint32_t max,
						    uint32_t stride)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDrawIndirectCount(cb, buf, off, count_buf, count_off, max, stride);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.instances = 1;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDrawIndexedIndirectCount(VkCommandBuffer cb, VkBuffer buf,
							   VkDeviceSize off, VkBuffer count_buf,
							   VkDeviceSize count_off, uint32_t max,
							   uint32_t stride)
{
	struct draw_query dq = draw_query_begin(cb);
	dd(cb)->CmdDrawIndexedIndirectCount(cb, buf, off, count_buf, count_off, max, stride);
	draw_query_end(cb, dq);
	RECORD(cb, C_DRAW, {
		m->u.draw.query = dq.q;
		m->u.draw.indexed = 1;
		m->u.draw.instances = 1;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBindVertexBuffers2(VkCommandBuffer cb, uint32_t first, uint32_t n,
						     const VkBuffer *bufs, const VkDeviceSize *offs,
						     const VkDeviceSize *sizes,
						     const VkDeviceSize *strides)
{
	dd(cb)->CmdBindVertexBuffers2(cb, first, n, bufs, offs, sizes, strides);
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

/* Vertex input as dynamic state (Zink uses it): only the bindings' strides matter here. */
VKAPI_ATTR void VKAPI_CALL cap_CmdSetVertexInputEXT(
    VkCommandBuffer cb, uint32_t n_bindings, const VkVertexInputBindingDescription2EXT *bindings,
    uint32_t n_attributes, const VkVertexInputAttributeDescription2EXT *attributes)
{
	dd(cb)->CmdSetVertexInputEXT(cb, n_bindings, bindings, n_attributes, attributes);
	for (uint32_t i = 0; i < n_bindings; i++)
		RECORD(cb, C_VB_STRIDE, {
			m->u.stride.binding = bindings[i].binding;
			m->u.stride.stride = bindings[i].stride;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetViewportWithCount(VkCommandBuffer cb, uint32_t n,
						       const VkViewport *vps)
{
	dd(cb)->CmdSetViewportWithCount(cb, n, vps);
	if (n)
		RECORD(cb, C_VIEWPORT, { m->u.viewport = vps[0]; });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetScissorWithCount(VkCommandBuffer cb, uint32_t n,
						      const VkRect2D *rs)
{
	dd(cb)->CmdSetScissorWithCount(cb, n, rs);
	if (n)
		RECORD(cb, C_SCISSOR, { m->u.scissor = rs[0]; });
}

static void record_dyn(VkCommandBuffer cb, enum dyn_kind kind, VkBool32 on)
{
	RECORD(cb, C_DYN_STATE, {
		m->u.dyn.kind = kind;
		m->u.dyn.on = on != VK_FALSE;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorBlendEnableEXT(VkCommandBuffer cb, uint32_t first,
							 uint32_t n, const VkBool32 *on)
{
	dd(cb)->CmdSetColorBlendEnableEXT(cb, first, n, on);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DYN_STATE, {
			m->u.dyn.kind = D_BLEND;
			m->u.dyn.on = on[i] != VK_FALSE;
			m->u.dyn.att = first + i;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorWriteMaskEXT(VkCommandBuffer cb, uint32_t first,
						       uint32_t n,
						       const VkColorComponentFlags *masks)
{
	dd(cb)->CmdSetColorWriteMaskEXT(cb, first, n, masks);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DYN_STATE, {
			m->u.dyn.kind = D_WRITE_MASK;
			m->u.dyn.on = masks[i] != 0;
			m->u.dyn.att = first + i;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorWriteEnableEXT(VkCommandBuffer cb, uint32_t n,
							 const VkBool32 *on)
{
	dd(cb)->CmdSetColorWriteEnableEXT(cb, n, on);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_DYN_STATE, {
			m->u.dyn.kind = D_WRITE_ENABLE;
			m->u.dyn.on = on[i] != VK_FALSE;
			m->u.dyn.att = i;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthTestEnable(VkCommandBuffer cb, VkBool32 on)
{
	dd(cb)->CmdSetDepthTestEnable(cb, on);
	record_dyn(cb, D_DEPTH_TEST, on);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthWriteEnable(VkCommandBuffer cb, VkBool32 on)
{
	dd(cb)->CmdSetDepthWriteEnable(cb, on);
	record_dyn(cb, D_DEPTH_WRITE, on);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilTestEnable(VkCommandBuffer cb, VkBool32 on)
{
	dd(cb)->CmdSetStencilTestEnable(cb, on);
	record_dyn(cb, D_STENCIL_TEST, on);
}

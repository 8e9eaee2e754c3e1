/* record_state.c - the vkCmd* recorders of state set by commands: viewport and scissor,
 * vertex input strides, and every dynamic state that changes what a draw touches (depth,
 * stencil and blend enables, color write masks, and for tier 2's rasterizer topology, culling,
 * front face, depth compare and bias, stencil ops, masks and reference, line width, polygon
 * mode, samples, depth clamp, rasterizer discard). */
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

VKAPI_ATTR void VKAPI_CALL cap_CmdSetViewport(VkCommandBuffer cb, uint32_t first, uint32_t n,
					      const VkViewport *vps)
{
	capture_dispatch(cb)->CmdSetViewport(cb, first, n, vps);
	if (first == 0 && n)
		RECORD(cb, C_VIEWPORT, { m->u.viewport = vps[0]; });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetScissor(VkCommandBuffer cb, uint32_t first, uint32_t n,
					     const VkRect2D *rs)
{
	capture_dispatch(cb)->CmdSetScissor(cb, first, n, rs);
	if (first == 0 && n)
		RECORD(cb, C_SCISSOR, { m->u.scissor = rs[0]; });
}

/* Vertex input as dynamic state (Zink uses it): only the bindings' strides matter here. */
VKAPI_ATTR void VKAPI_CALL cap_CmdSetVertexInputEXT(
    VkCommandBuffer cb, uint32_t n_bindings, const VkVertexInputBindingDescription2EXT *bindings,
    uint32_t n_attributes, const VkVertexInputAttributeDescription2EXT *attributes)
{
	capture_dispatch(cb)->CmdSetVertexInputEXT(cb, n_bindings, bindings, n_attributes,
						   attributes);
	for (uint32_t i = 0; i < n_bindings; i++)
		RECORD(cb, C_VB_STRIDE, {
			m->u.stride.binding = bindings[i].binding;
			m->u.stride.stride = bindings[i].stride;
		});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetViewportWithCount(VkCommandBuffer cb, uint32_t n,
						       const VkViewport *vps)
{
	capture_dispatch(cb)->CmdSetViewportWithCount(cb, n, vps);
	if (n)
		RECORD(cb, C_VIEWPORT, { m->u.viewport = vps[0]; });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetScissorWithCount(VkCommandBuffer cb, uint32_t n,
						      const VkRect2D *rs)
{
	capture_dispatch(cb)->CmdSetScissorWithCount(cb, n, rs);
	if (n)
		RECORD(cb, C_SCISSOR, { m->u.scissor = rs[0]; });
}

/* A dynamic state command: kind, an attachment (for the color masks), words and floats. */
static void dyn(VkCommandBuffer cb, enum dyn_kind kind, uint32_t att, uint32_t u0, uint32_t u1,
		uint32_t u2, uint32_t u3, const float *f)
{
	RECORD(cb, C_DYN_STATE, {
		m->u.dyn.kind = kind;
		m->u.dyn.att = att;
		m->u.dyn.u[0] = u0;
		m->u.dyn.u[1] = u1;
		m->u.dyn.u[2] = u2;
		m->u.dyn.u[3] = u3;
		for (int k = 0; f && k < 3; k++)
			m->u.dyn.f[k] = f[k];
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorBlendEnableEXT(VkCommandBuffer cb, uint32_t first,
							 uint32_t n, const VkBool32 *on)
{
	capture_dispatch(cb)->CmdSetColorBlendEnableEXT(cb, first, n, on);
	for (uint32_t i = 0; i < n; i++)
		dyn(cb, D_BLEND, first + i, on[i] != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorWriteMaskEXT(VkCommandBuffer cb, uint32_t first,
						       uint32_t n,
						       const VkColorComponentFlags *masks)
{
	capture_dispatch(cb)->CmdSetColorWriteMaskEXT(cb, first, n, masks);
	for (uint32_t i = 0; i < n; i++)
		dyn(cb, D_WRITE_MASK, first + i, masks[i] != 0, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetColorWriteEnableEXT(VkCommandBuffer cb, uint32_t n,
							 const VkBool32 *on)
{
	capture_dispatch(cb)->CmdSetColorWriteEnableEXT(cb, n, on);
	for (uint32_t i = 0; i < n; i++)
		dyn(cb, D_WRITE_ENABLE, i, on[i] != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthTestEnable(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetDepthTestEnable(cb, on);
	dyn(cb, D_DEPTH_TEST, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthWriteEnable(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetDepthWriteEnable(cb, on);
	dyn(cb, D_DEPTH_WRITE, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilTestEnable(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetStencilTestEnable(cb, on);
	dyn(cb, D_STENCIL_TEST, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetPrimitiveTopology(VkCommandBuffer cb, VkPrimitiveTopology t)
{
	capture_dispatch(cb)->CmdSetPrimitiveTopology(cb, t);
	dyn(cb, D_TOPOLOGY, 0, (uint32_t)t, 0, 0, 0, NULL);
	struct capture_device *c = cap_of(cb, NULL);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock); /* the shadow draws size their buffers by it */
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	if (b)
		b->rec_topology = t;
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetCullMode(VkCommandBuffer cb, VkCullModeFlags mode)
{
	capture_dispatch(cb)->CmdSetCullMode(cb, mode);
	dyn(cb, D_CULL, 0, mode, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetFrontFace(VkCommandBuffer cb, VkFrontFace face)
{
	capture_dispatch(cb)->CmdSetFrontFace(cb, face);
	dyn(cb, D_FRONT_FACE, 0, (uint32_t)face, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthCompareOp(VkCommandBuffer cb, VkCompareOp op)
{
	capture_dispatch(cb)->CmdSetDepthCompareOp(cb, op);
	dyn(cb, D_DEPTH_COMPARE, 0, (uint32_t)op, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilOp(VkCommandBuffer cb, VkStencilFaceFlags faces,
					       VkStencilOp fail, VkStencilOp pass,
					       VkStencilOp depth_fail, VkCompareOp compare)
{
	capture_dispatch(cb)->CmdSetStencilOp(cb, faces, fail, pass, depth_fail, compare);
	dyn(cb, D_STENCIL_OP, (uint32_t)compare, faces, (uint32_t)fail, (uint32_t)pass,
	    (uint32_t)depth_fail, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilCompareMask(VkCommandBuffer cb,
							VkStencilFaceFlags faces, uint32_t mask)
{
	capture_dispatch(cb)->CmdSetStencilCompareMask(cb, faces, mask);
	dyn(cb, D_STENCIL_CMASK, 0, faces, mask, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilWriteMask(VkCommandBuffer cb, VkStencilFaceFlags faces,
						      uint32_t mask)
{
	capture_dispatch(cb)->CmdSetStencilWriteMask(cb, faces, mask);
	dyn(cb, D_STENCIL_WMASK, 0, faces, mask, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetStencilReference(VkCommandBuffer cb, VkStencilFaceFlags faces,
						      uint32_t ref)
{
	capture_dispatch(cb)->CmdSetStencilReference(cb, faces, ref);
	dyn(cb, D_STENCIL_REF, 0, faces, ref, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthBias(VkCommandBuffer cb, float constant, float clamp,
					       float slope)
{
	float f[3] = {constant, clamp, slope};
	capture_dispatch(cb)->CmdSetDepthBias(cb, constant, clamp, slope);
	dyn(cb, D_DEPTH_BIAS, 0, 0, 0, 0, 0, f);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthBiasEnable(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetDepthBiasEnable(cb, on);
	dyn(cb, D_DEPTH_BIAS_ENABLE, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetLineWidth(VkCommandBuffer cb, float width)
{
	float f[3] = {width, 0, 0};
	capture_dispatch(cb)->CmdSetLineWidth(cb, width);
	dyn(cb, D_LINE_WIDTH, 0, 0, 0, 0, 0, f);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetRasterizerDiscardEnable(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetRasterizerDiscardEnable(cb, on);
	dyn(cb, D_RAST_DISCARD, 0, on != VK_FALSE, 0, 0, 0, NULL);
	struct capture_device *c = cap_of(cb, NULL);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock); /* the shadow draws set it back to this */
	struct cbuf *b = capture_hmap_get(&c->tr->cbufs, H(cb));
	if (b)
		b->rec_discard = on != VK_FALSE;
	pthread_mutex_unlock(&c->lock);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetPolygonModeEXT(VkCommandBuffer cb, VkPolygonMode mode)
{
	capture_dispatch(cb)->CmdSetPolygonModeEXT(cb, mode);
	dyn(cb, D_POLYGON_MODE, 0, (uint32_t)mode, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetRasterizationSamplesEXT(VkCommandBuffer cb,
							     VkSampleCountFlagBits samples)
{
	capture_dispatch(cb)->CmdSetRasterizationSamplesEXT(cb, samples);
	dyn(cb, D_SAMPLES, 0, (uint32_t)samples, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthClampEnableEXT(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetDepthClampEnableEXT(cb, on);
	dyn(cb, D_DEPTH_CLAMP, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthClipEnableEXT(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetDepthClipEnableEXT(cb, on);
	dyn(cb, D_DEPTH_CLIP, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdSetDepthClipNegativeOneToOneEXT(VkCommandBuffer cb, VkBool32 on)
{
	capture_dispatch(cb)->CmdSetDepthClipNegativeOneToOneEXT(cb, on);
	dyn(cb, D_CLIP_NEG, 0, on != VK_FALSE, 0, 0, 0, NULL);
}

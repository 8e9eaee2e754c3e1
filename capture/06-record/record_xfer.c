/* record_xfer.c - the vkCmd* recorders of everything but drawing: dispatches, copies,
 * blits, resolves, fills, updates, clears, secondary command buffers, debug labels. */
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

#include <stdio.h>
#include <string.h>

/* Tier 3 (instr.c) swaps in the bound pipeline's instrumented twin around each dispatch. */
/* Around the program's dispatch: the tier's (tier 3 binds the instrumented twin). */
static void dispatch_begin(VkCommandBuffer cb, uint64_t groups, struct instr_call *ic)
{
	struct capture_device *c = cap_of(cb, NULL);
	memset(ic, 0, sizeof(*ic));
	if (c && c->tier->dispatch_begin)
		c->tier->dispatch_begin(cb, groups, ic);
}

static void dispatch_end(VkCommandBuffer cb, const struct instr_call *ic)
{
	struct capture_device *c = ic->rec ? cap_of(cb, NULL) : NULL;
	if (c && c->tier->dispatch_end)
		c->tier->dispatch_end(cb, ic);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z)
{
	struct instr_call ic;
	dispatch_begin(cb, (uint64_t)x * y * z, &ic);
	capture_dispatch(cb)->CmdDispatch(cb, x, y, z);
	dispatch_end(cb, &ic);
	RECORD(cb, C_DISPATCH, {
		m->u.dispatch.x = x;
		m->u.dispatch.y = y;
		m->u.dispatch.z = z;
		m->u.dispatch.rec = ic.rec;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by,
					       uint32_t bz, uint32_t x, uint32_t y, uint32_t z)
{
	struct instr_call ic;
	dispatch_begin(cb, (uint64_t)x * y * z, &ic);
	capture_dispatch(cb)->CmdDispatchBase(cb, bx, by, bz, x, y, z);
	dispatch_end(cb, &ic);
	RECORD(cb, C_DISPATCH, {
		m->u.dispatch.x = x;
		m->u.dispatch.y = y;
		m->u.dispatch.z = z;
		m->u.dispatch.rec = ic.rec;
	});
}

/* The group counts live in GPU memory: recorded as 0 (unknown); the traffic of a dispatch
 * comes from its bound resources, not its size. */
VKAPI_ATTR void VKAPI_CALL cap_CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buf,
						   VkDeviceSize off)
{
	struct instr_call ic;
	dispatch_begin(cb, 0, &ic);
	capture_dispatch(cb)->CmdDispatchIndirect(cb, buf, off);
	dispatch_end(cb, &ic);
	RECORD(cb, C_DISPATCH, { m->u.dispatch.rec = ic.rec; });
}

/* A copy, blit or resolve region recorded: one macro a region type, for the command and its
 * vkCmd*2 form (whose region structs have the same fields). */
#define REC_COPY_BUFFER(cb, src_, dst_, r)                                                         \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_BUF_BUF;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.src_off = (r).srcOffset;                                                 \
		m->u.copy.dst_off = (r).dstOffset;                                                 \
		m->u.copy.bytes = (r).size;                                                        \
	})

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst,
					     uint32_t n, const VkBufferCopy *regions)
{
	capture_dispatch(cb)->CmdCopyBuffer(cb, src, dst, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_BUFFER(cb, src, dst, regions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBuffer2(VkCommandBuffer cb, const VkCopyBufferInfo2 *info)
{
	capture_dispatch(cb)->CmdCopyBuffer2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_BUFFER(cb, info->srcBuffer, info->dstBuffer, info->pRegions[i]);
}

#define REC_COPY_BUFFER_TO_IMAGE(cb, src_, dst_, r)                                                \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_BUF_IMG;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.src_off = (r).bufferOffset;                                              \
		m->u.copy.dof = (r).imageOffset;                                                   \
		m->u.copy.ext = (r).imageExtent;                                                   \
		m->u.copy.dmip = (r).imageSubresource.mipLevel;                                    \
		m->u.copy.dlayer = (r).imageSubresource.baseArrayLayer;                            \
	})

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer src, VkImage dst,
						    VkImageLayout layout, uint32_t n,
						    const VkBufferImageCopy *regions)
{
	capture_dispatch(cb)->CmdCopyBufferToImage(cb, src, dst, layout, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_BUFFER_TO_IMAGE(cb, src, dst, regions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyBufferToImage2(VkCommandBuffer cb,
						     const VkCopyBufferToImageInfo2 *info)
{
	capture_dispatch(cb)->CmdCopyBufferToImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_BUFFER_TO_IMAGE(cb, info->srcBuffer, info->dstImage, info->pRegions[i]);
}

#define REC_COPY_IMAGE_TO_BUFFER(cb, src_, dst_, r)                                                \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_IMG_BUF;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.dst_off = (r).bufferOffset;                                              \
		m->u.copy.so = (r).imageOffset;                                                    \
		m->u.copy.ext = (r).imageExtent;                                                   \
		m->u.copy.smip = (r).imageSubresource.mipLevel;                                    \
		m->u.copy.slayer = (r).imageSubresource.baseArrayLayer;                            \
	})

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImageToBuffer(VkCommandBuffer cb, VkImage src,
						    VkImageLayout layout, VkBuffer dst, uint32_t n,
						    const VkBufferImageCopy *regions)
{
	capture_dispatch(cb)->CmdCopyImageToBuffer(cb, src, layout, dst, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_IMAGE_TO_BUFFER(cb, src, dst, regions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImageToBuffer2(VkCommandBuffer cb,
						     const VkCopyImageToBufferInfo2 *info)
{
	capture_dispatch(cb)->CmdCopyImageToBuffer2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_IMAGE_TO_BUFFER(cb, info->srcImage, info->dstBuffer, info->pRegions[i]);
}

#define REC_COPY_IMAGE(cb, src_, dst_, r)                                                          \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_IMG_IMG;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.so = (r).srcOffset;                                                      \
		m->u.copy.dof = (r).dstOffset;                                                     \
		m->u.copy.ext = (r).extent;                                                        \
		m->u.copy.dext = (r).extent;                                                       \
		m->u.copy.smip = (r).srcSubresource.mipLevel;                                      \
		m->u.copy.dmip = (r).dstSubresource.mipLevel;                                      \
		m->u.copy.slayer = (r).srcSubresource.baseArrayLayer;                              \
		m->u.copy.dlayer = (r).dstSubresource.baseArrayLayer;                              \
	})

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
					    VkImage dst, VkImageLayout dl, uint32_t n,
					    const VkImageCopy *regions)
{
	capture_dispatch(cb)->CmdCopyImage(cb, src, sl, dst, dl, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_COPY_IMAGE(cb, src, dst, regions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdCopyImage2(VkCommandBuffer cb, const VkCopyImageInfo2 *info)
{
	capture_dispatch(cb)->CmdCopyImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_COPY_IMAGE(cb, info->srcImage, info->dstImage, info->pRegions[i]);
}

static VkExtent3D span(const VkOffset3D *o)
{
	int32_t w = o[1].x - o[0].x, h = o[1].y - o[0].y;
	return (VkExtent3D){(uint32_t)(w < 0 ? -w : w), (uint32_t)(h < 0 ? -h : h), 1};
}

static VkOffset3D lo(const VkOffset3D *o)
{
	return (VkOffset3D){o[0].x < o[1].x ? o[0].x : o[1].x, o[0].y < o[1].y ? o[0].y : o[1].y,
			    0};
}

#define REC_BLIT_IMAGE(cb, src_, dst_, r)                                                          \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_BLIT;                                                           \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.so = lo((r).srcOffsets);                                                 \
		m->u.copy.dof = lo((r).dstOffsets);                                                \
		m->u.copy.ext = span((r).srcOffsets);                                              \
		m->u.copy.dext = span((r).dstOffsets);                                             \
		m->u.copy.smip = (r).srcSubresource.mipLevel;                                      \
		m->u.copy.dmip = (r).dstSubresource.mipLevel;                                      \
		m->u.copy.slayer = (r).srcSubresource.baseArrayLayer;                              \
		m->u.copy.dlayer = (r).dstSubresource.baseArrayLayer;                              \
	})

VKAPI_ATTR void VKAPI_CALL cap_CmdBlitImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
					    VkImage dst, VkImageLayout dl, uint32_t n,
					    const VkImageBlit *regions, VkFilter filter)
{
	capture_dispatch(cb)->CmdBlitImage(cb, src, sl, dst, dl, n, regions, filter);
	for (uint32_t i = 0; i < n; i++)
		REC_BLIT_IMAGE(cb, src, dst, regions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBlitImage2(VkCommandBuffer cb, const VkBlitImageInfo2 *info)
{
	capture_dispatch(cb)->CmdBlitImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_BLIT_IMAGE(cb, info->srcImage, info->dstImage, info->pRegions[i]);
}

#define REC_RESOLVE_IMAGE(cb, src_, dst_, r)                                                       \
	RECORD(cb, C_COPY, {                                                                       \
		m->u.copy.kind = K_RESOLVE;                                                        \
		m->u.copy.src = H(src_);                                                           \
		m->u.copy.dst = H(dst_);                                                           \
		m->u.copy.so = (r).srcOffset;                                                      \
		m->u.copy.dof = (r).dstOffset;                                                     \
		m->u.copy.ext = (r).extent;                                                        \
		m->u.copy.dext = (r).extent;                                                       \
		m->u.copy.smip = (r).srcSubresource.mipLevel;                                      \
		m->u.copy.dmip = (r).dstSubresource.mipLevel;                                      \
	})

VKAPI_ATTR void VKAPI_CALL cap_CmdResolveImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
					       VkImage dst, VkImageLayout dl, uint32_t n,
					       const VkImageResolve *regions)
{
	capture_dispatch(cb)->CmdResolveImage(cb, src, sl, dst, dl, n, regions);
	for (uint32_t i = 0; i < n; i++)
		REC_RESOLVE_IMAGE(cb, src, dst, regions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdResolveImage2(VkCommandBuffer cb, const VkResolveImageInfo2 *info)
{
	capture_dispatch(cb)->CmdResolveImage2(cb, info);
	for (uint32_t i = 0; i < info->regionCount; i++)
		REC_RESOLVE_IMAGE(cb, info->srcImage, info->dstImage, info->pRegions[i]);
}

VKAPI_ATTR void VKAPI_CALL cap_CmdFillBuffer(VkCommandBuffer cb, VkBuffer dst, VkDeviceSize off,
					     VkDeviceSize size, uint32_t data)
{
	capture_dispatch(cb)->CmdFillBuffer(cb, dst, off, size, data);
	RECORD(cb, C_COPY, {
		m->u.copy.kind = K_FILL;
		m->u.copy.dst = H(dst);
		m->u.copy.dst_off = off;
		m->u.copy.bytes = size;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer dst, VkDeviceSize off,
					       VkDeviceSize size, const void *data)
{
	capture_dispatch(cb)->CmdUpdateBuffer(cb, dst, off, size, data);
	RECORD(cb, C_COPY, {
		m->u.copy.kind = K_FILL;
		m->u.copy.dst = H(dst);
		m->u.copy.dst_off = off;
		m->u.copy.bytes = size;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdClearColorImage(VkCommandBuffer cb, VkImage image,
						  VkImageLayout layout,
						  const VkClearColorValue *color, uint32_t n,
						  const VkImageSubresourceRange *ranges)
{
	capture_dispatch(cb)->CmdClearColorImage(cb, image, layout, color, n, ranges);
	RECORD(cb, C_CLEAR_IMAGE, { m->u.clear.image = H(image); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdClearDepthStencilImage(VkCommandBuffer cb, VkImage image,
							 VkImageLayout layout,
							 const VkClearDepthStencilValue *value,
							 uint32_t n,
							 const VkImageSubresourceRange *ranges)
{
	capture_dispatch(cb)->CmdClearDepthStencilImage(cb, image, layout, value, n, ranges);
	RECORD(cb, C_CLEAR_IMAGE, {
		m->u.clear.image = H(image);
		m->u.clear.ds = 1;
		m->u.clear.depth = value->depth;
		m->u.clear.stencil = value->stencil;
		m->u.clear.aspects = n ? ranges[0].aspectMask
				       : VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdClearAttachments(VkCommandBuffer cb, uint32_t n,
						   const VkClearAttachment *atts, uint32_t n_rects,
						   const VkClearRect *rects)
{
	capture_dispatch(cb)->CmdClearAttachments(cb, n, atts, n_rects, rects);
	RECORD(cb, C_CLEAR_ATT, {
		for (uint32_t i = 0; i < n; i++) {
			m->u.catt.color_mask |= (atts[i].aspectMask & VK_IMAGE_ASPECT_COLOR_BIT)
						    ? 1u << (atts[i].colorAttachment & 30)
						    : 1u << 31;
			if (!(atts[i].aspectMask & VK_IMAGE_ASPECT_COLOR_BIT)) {
				m->u.catt.ds_aspects = atts[i].aspectMask;
				m->u.catt.depth = atts[i].clearValue.depthStencil.depth;
				m->u.catt.stencil = atts[i].clearValue.depthStencil.stencil;
			}
		}
		m->u.catt.n_rects = n_rects;
		if (n_rects)
			m->u.catt.rect = rects[0].rect;
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdExecuteCommands(VkCommandBuffer cb, uint32_t n,
						  const VkCommandBuffer *cbs)
{
	capture_dispatch(cb)->CmdExecuteCommands(cb, n, cbs);
	for (uint32_t i = 0; i < n; i++)
		RECORD(cb, C_EXECUTE, { m->u.exec.cb = H(cbs[i]); });
}

VKAPI_ATTR void VKAPI_CALL cap_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer cb,
							  const VkDebugUtilsLabelEXT *label)
{
	capture_dispatch(cb)->CmdBeginDebugUtilsLabelEXT(cb, label);
	RECORD(cb, C_LABEL_BEGIN, {
		snprintf(m->u.label, sizeof(m->u.label), "%s",
			 label && label->pLabelName ? label->pLabelName : "");
	});
}

VKAPI_ATTR void VKAPI_CALL cap_CmdEndDebugUtilsLabelEXT(VkCommandBuffer cb)
{
	capture_dispatch(cb)->CmdEndDebugUtilsLabelEXT(cb);
	RECORD(cb, C_LABEL_END, {});
}

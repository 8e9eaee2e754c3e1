/* copies.c - the traffic of copies, blits, resolves, buffer fills and updates, and image
 * clears: reads as OTHER, writes in the stream of what they write (llct_image_write_stream),
 * none of it through the render caches. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct/raster.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

#include <stdio.h>

static void buffer_range(struct capture_device *c, uint64_t handle, uint64_t off, uint64_t size,
			 int stream, int op)
{
	uint64_t addr, len;
	if (capture_buffer_bytes(c->tr, handle, off, size, &addr, &len))
		llct_fp_range(c->out->fp, addr, len, stream, op, 0);
}

static void image_region(struct capture_device *c, uint64_t handle, uint32_t mip, uint32_t layer,
			 VkOffset3D o, VkExtent3D e, int op, int as_other)
{
	struct img *im = capture_hmap_get(&c->tr->imgs, handle);
	if (!im || !im->bound)
		return;
	uint32_t x0 = o.x > 0 ? (uint32_t)o.x : 0, y0 = o.y > 0 ? (uint32_t)o.y : 0;
	llct_fp_rect(c->out->fp, &im->s, mip, layer, x0, y0, x0 + e.width, y0 + e.height,
		     as_other ? LLCT_STREAM_OTHER : capture_image_stream(im), op, 0);
}

void capture_do_copy(struct capture_device *c, const struct cmd *m)
{
	static const char *const kinds[] = {"copy", "copy",    "copy", "copy",
					    "blit", "resolve", "clear"};
	const char *kind = kinds[m->u.copy.kind];
	/* the resources rows read and written */
	int src_img = m->u.copy.kind == K_IMG_BUF || m->u.copy.kind == K_IMG_IMG ||
		      m->u.copy.kind == K_BLIT || m->u.copy.kind == K_RESOLVE;
	int dst_img = m->u.copy.kind == K_BUF_IMG || m->u.copy.kind == K_IMG_IMG ||
		      m->u.copy.kind == K_BLIT || m->u.copy.kind == K_RESOLVE;
	struct img *si = src_img ? capture_hmap_get(&c->tr->imgs, m->u.copy.src) : NULL;
	struct img *di = dst_img ? capture_hmap_get(&c->tr->imgs, m->u.copy.dst) : NULL;
	struct buf *sb = src_img || m->u.copy.kind == K_FILL
			     ? NULL
			     : capture_hmap_get(&c->tr->bufs, m->u.copy.src);
	struct buf *db = dst_img ? NULL : capture_hmap_get(&c->tr->bufs, m->u.copy.dst);
	uint64_t sid = si ? si->id : sb ? sb->id : 0, did = di ? di->id : db ? db->id : 0;
	char params[100], src[40] = "";
	if (sid)
		snprintf(src, sizeof(src), "\"src\":%llu,", (unsigned long long)sid);
	snprintf(params, sizeof(params), "{%s\"dst\":%llu}", src, (unsigned long long)did);
	capture_new_kernel(c, kind, params);
	for (uint32_t i = 0; di && i < di->n_zb; i++) /* tier 2: what a copy writes is not known */
		llct_zbuf_forget(di->zb[i].z);
	switch (m->u.copy.kind) {
	case K_BUF_BUF:
		buffer_range(c, m->u.copy.src, m->u.copy.src_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_READ);
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, m->u.copy.bytes,
			     LLCT_STREAM_OTHER, LLCT_OP_WRITE);
		break;
	case K_BUF_IMG: {
		struct img *im = capture_hmap_get(&c->tr->imgs, m->u.copy.dst);
		uint64_t bytes =
		    im ? llct_surface_region_bytes(&im->s, m->u.copy.ext.width,
						   m->u.copy.ext.height, m->u.copy.ext.depth)
		       : 0;
		buffer_range(c, m->u.copy.src, m->u.copy.src_off, bytes, LLCT_STREAM_OTHER,
			     LLCT_OP_READ);
		image_region(c, m->u.copy.dst, m->u.copy.dmip, m->u.copy.dlayer, m->u.copy.dof,
			     m->u.copy.ext, LLCT_OP_WRITE, 0);
		break;
	}
	case K_IMG_BUF: {
		struct img *im = capture_hmap_get(&c->tr->imgs, m->u.copy.src);
		uint64_t bytes =
		    im ? llct_surface_region_bytes(&im->s, m->u.copy.ext.width,
						   m->u.copy.ext.height, m->u.copy.ext.depth)
		       : 0;
		image_region(c, m->u.copy.src, m->u.copy.smip, m->u.copy.slayer, m->u.copy.so,
			     m->u.copy.ext, LLCT_OP_READ, 1);
		buffer_range(c, m->u.copy.dst, m->u.copy.dst_off, bytes, LLCT_STREAM_OTHER,
			     LLCT_OP_WRITE);
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
			     LLCT_STREAM_OTHER, LLCT_OP_WRITE);
		break;
	}
}

/* vkCmdClearColorImage / vkCmdClearDepthStencilImage: every mip and layer written (and a depth
 * image's HiZ, which a clear sets). */
void capture_do_clear_image(struct capture_device *c, const struct cmd *m)
{
	struct img *im = capture_hmap_get(&c->tr->imgs, m->u.clear.image);
	char params[60];
	snprintf(params, sizeof(params), "{\"dst\":%llu}", (unsigned long long)(im ? im->id : 0));
	capture_new_kernel(c, "clear", params);
	for (uint32_t mip = 0; im && im->bound && mip < im->s.mips; mip++)
		for (uint32_t l = 0; l < im->s.layers; l++) {
			uint32_t w, h;
			llct_surface_mip_extent(&im->s, mip, &w, &h);
			llct_fp_rect(c->out->fp, &im->s, mip, l, 0, 0, w, h,
				     capture_image_stream(im), LLCT_OP_WRITE, 0);
			llct_hiz_rect(c->out->fp, &im->hiz, mip, l, 0, 0, w, h, LLCT_OP_WRITE, 0);
		}
	for (uint32_t i = 0; im && m->u.clear.ds && i < im->n_zb; i++) /* tier 2's buffers */
		llct_zbuf_clear(
		    im->zb[i].z, 0, 0, UINT32_MAX, UINT32_MAX,
		    !!(m->u.clear.aspects & VK_IMAGE_ASPECT_DEPTH_BIT), m->u.clear.depth,
		    !!(m->u.clear.aspects & VK_IMAGE_ASPECT_STENCIL_BIT), m->u.clear.stencil);
}

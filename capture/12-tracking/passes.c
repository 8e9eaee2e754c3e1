/* passes.c - tracked render passes (v1 and v2) and framebuffers: attachments, their
 * load/store ops and the roles the subpasses give them. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "submit.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

#include <stdlib.h>

/* The first role a subpass gives an attachment wins (draws use color and depth ones). */
static void set_role(struct rpass *rp, uint32_t a, int role, int slot)
{
	if (a < rp->n && rp->att[a].role == ROLE_NONE) {
		rp->att[a].role = role;
		rp->att[a].slot = slot;
	}
}

/* Records a render pass's attachments and their roles. VkRenderPassCreateInfo and ...2 spell
 * the same fields in different structs, so this is a macro over both. Called with c->lock. */
#define TRACK_RPASS(c, handle, info)                                                               \
	do {                                                                                       \
		struct rpass *rp = calloc(1, sizeof(*rp));                                         \
		if (!rp || capture_hmap_put(&(c)->tr->rpasses, H(handle), rp)) {                   \
			free(rp);                                                                  \
			cap_fail((c), "out of memory tracking render passes");                     \
			break;                                                                     \
		}                                                                                  \
		rp->n = (info)->attachmentCount < MAX_ATT ? (info)->attachmentCount : MAX_ATT;     \
		for (uint32_t i = 0; i < rp->n; i++)                                               \
			rp->att[i] = (struct att_desc){                                            \
			    .load = (info)->pAttachments[i].loadOp,                                \
			    .stencil_load = (info)->pAttachments[i].stencilLoadOp,                 \
			    .store = (info)->pAttachments[i].storeOp,                              \
			    .stencil_store = (info)->pAttachments[i].stencilStoreOp,               \
			    .role = ROLE_NONE,                                                     \
			    .slot = -1};                                                           \
		for (uint32_t sp = 0; sp < (info)->subpassCount; sp++) {                           \
			const __typeof__((info)->pSubpasses[0]) *sd = &(info)->pSubpasses[sp];     \
			for (uint32_t k = 0; k < sd->colorAttachmentCount; k++) {                  \
				set_role(rp, sd->pColorAttachments[k].attachment, ROLE_COLOR,      \
					 (int)k);                                                  \
				if (sd->pResolveAttachments)                                       \
					set_role(rp, sd->pResolveAttachments[k].attachment,        \
						 ROLE_RESOLVE, -1);                                \
			}                                                                          \
			if (sd->pDepthStencilAttachment)                                           \
				set_role(rp, sd->pDepthStencilAttachment->attachment, ROLE_DEPTH,  \
					 -1);                                                      \
		}                                                                                  \
	} while (0)

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateRenderPass(VkDevice device,
						    const VkRenderPassCreateInfo *info,
						    const VkAllocationCallbacks *alloc,
						    VkRenderPass *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateRenderPass(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	TRACK_RPASS(c, *out, info);
	struct rpass *rp = capture_hmap_get(&c->tr->rpasses, H(*out));
	for (const VkBaseInStructure *x = info->pNext; rp && x; x = x->pNext)
		if (x->sType == VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO)
			for (uint32_t k = 0;
			     k < ((const VkRenderPassMultiviewCreateInfo *)x)->subpassCount; k++)
				rp->multiview |=
				    ((const VkRenderPassMultiviewCreateInfo *)x)->pViewMasks[k] !=
				    0;
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateRenderPass2(VkDevice device,
						     const VkRenderPassCreateInfo2 *info,
						     const VkAllocationCallbacks *alloc,
						     VkRenderPass *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateRenderPass2(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	TRACK_RPASS(c, *out, info);
	struct rpass *rp = capture_hmap_get(&c->tr->rpasses, H(*out));
	for (uint32_t k = 0; rp && k < info->subpassCount; k++)
		rp->multiview |= info->pSubpasses[k].viewMask != 0;
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateFramebuffer(VkDevice device,
						     const VkFramebufferCreateInfo *info,
						     const VkAllocationCallbacks *alloc,
						     VkFramebuffer *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateFramebuffer(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct fbuf *fb = calloc(1, sizeof(*fb));
	if (!fb || capture_hmap_put(&c->tr->fbufs, H(*out), fb)) {
		free(fb);
		cap_fail(c, "out of memory tracking framebuffers");
	} else {
		fb->n = info->attachmentCount < MAX_ATT ? info->attachmentCount : MAX_ATT;
		fb->width = info->width;
		fb->height = info->height;
		if (!(info->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT))
			for (uint32_t i = 0; i < fb->n; i++)
				fb->view[i] = H(info->pAttachments[i]);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

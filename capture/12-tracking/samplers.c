/* samplers.c - the samplers the program makes, for capture tier 3: whether each filters
 * linearly when minifying and magnifying and between mip levels, so a recorded sample reads
 * the texels the sampler would (one texel, 2 x 2, or 2 x 2 on two levels). */
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

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateSampler(VkDevice device, const VkSamplerCreateInfo *info,
						 const VkAllocationCallbacks *alloc, VkSampler *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateSampler(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	struct smp *s = calloc(1, sizeof(*s));
	if (!s || capture_hmap_put(&c->tr->samplers, H(*out), s)) {
		free(s); /* not fatal: its samples are taken as bilinear */
	} else {
		s->filt =
		    (uint8_t)((info->minFilter != VK_FILTER_NEAREST ? SMP_MIN_LINEAR : 0) |
			      (info->magFilter != VK_FILTER_NEAREST ? SMP_MAG_LINEAR : 0) |
			      (info->mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR ? SMP_MIP_LINEAR
										 : 0));
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroySampler(VkDevice device, VkSampler sampler,
					      const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroySampler(device, sampler, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->tr->samplers, sampler, free);
}

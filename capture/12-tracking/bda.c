/* bda.c - buffer device addresses for capture tier 3: the device address of each buffer the
 * program asks for (vkGetBufferDeviceAddress and its KHR/EXT names), and the way back from an
 * address an instrumented shader recorded to the buffer, and so to the trace's address. */
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

VKAPI_ATTR VkDeviceAddress VKAPI_CALL
cap_GetBufferDeviceAddress(VkDevice device, const VkBufferDeviceAddressInfo *info)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	PFN_vkGetBufferDeviceAddress down =
	    d->d.GetBufferDeviceAddress      ? d->d.GetBufferDeviceAddress
	    : d->d.GetBufferDeviceAddressKHR ? d->d.GetBufferDeviceAddressKHR
					     : d->d.GetBufferDeviceAddressEXT;
	VkDeviceAddress a = down ? down(device, info) : 0;
	if (!c || !info)
		return a;
	pthread_mutex_lock(&c->lock);
	struct buf *b = capture_hmap_get(&c->tr->bufs, H(info->buffer));
	if (b)
		b->dev_addr = a;
	pthread_mutex_unlock(&c->lock);
	return a;
}

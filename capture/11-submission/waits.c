/* waits.c - the program's ways of learning that the device is done: where RenderDoc's
 * captures start and end (renderdoc.c), and where that news waits for the expansions of the
 * submissions it covers (async.c), so the program never changes what they have yet to read. */
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

VKAPI_ATTR VkResult VKAPI_CALL cap_WaitForFences(VkDevice device, uint32_t n, const VkFence *fences,
						 VkBool32 all, uint64_t timeout)
{
	rdc_safe_point(device);
	VkResult r = capture_dispatch(device)->WaitForFences(device, n, fences, all, timeout);
	struct capture_device *c = cap_of(device, NULL);
	if (c && r == VK_SUCCESS && !timeout && async_fences_queued(c, n, fences))
		return VK_TIMEOUT; /* only looking: not yet */
	if (c && r == VK_SUCCESS)
		async_gate_fences(c, n, fences);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_GetFenceStatus(VkDevice device, VkFence fence)
{
	rdc_safe_point(device);
	VkResult r = capture_dispatch(device)->GetFenceStatus(device, fence);
	struct capture_device *c = cap_of(device, NULL);
	if (c && r == VK_SUCCESS && async_fences_queued(c, 1, &fence))
		return VK_NOT_READY; /* signalled once its expansion is done */
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info,
						  uint64_t timeout)
{
	VkResult r = capture_dispatch(device)->WaitSemaphores(device, info, timeout);
	struct capture_device *c = cap_of(device, NULL);
	if (!c || r != VK_SUCCESS || !info)
		return r;
	/* any of them (WAIT_ANY): as if all */
	if (!timeout &&
	    async_semaphores_queued(c, info->semaphoreCount, info->pSemaphores, info->pValues))
		return VK_TIMEOUT; /* only looking: not yet */
	async_gate_semaphores(c, info->semaphoreCount, info->pSemaphores, info->pValues);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_GetSemaphoreCounterValue(VkDevice device, VkSemaphore sem,
							    uint64_t *value)
{
	VkResult r = capture_dispatch(device)->GetSemaphoreCounterValue(device, sem, value);
	struct capture_device *c = cap_of(device, NULL);
	if (c && r == VK_SUCCESS && value)
		async_clamp_counter(c, sem, value); /* what is done, expansions included */
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_QueueWaitIdle(VkQueue queue)
{
	rdc_safe_point(queue);
	VkResult r = capture_dispatch(queue)->QueueWaitIdle(queue);
	struct capture_device *c = cap_of(queue, NULL);
	if (c)
		async_gate_all(c);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_DeviceWaitIdle(VkDevice device)
{
	rdc_safe_point(device);
	VkResult r = capture_dispatch(device)->DeviceWaitIdle(device);
	struct capture_device *c = cap_of(device, NULL);
	if (c)
		async_gate_all(c);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
						       uint64_t timeout, VkSemaphore semaphore,
						       VkFence fence, uint32_t *index)
{
	rdc_safe_point(device);
	return capture_dispatch(device)->AcquireNextImageKHR(device, swapchain, timeout, semaphore,
							     fence, index);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_ResetFences(VkDevice device, uint32_t n, const VkFence *fences)
{
	rdc_safe_point(device);
	return capture_dispatch(device)->ResetFences(device, n, fences);
}

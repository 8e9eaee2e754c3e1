/* layer.h - private to capture/: the loader plumbing's per-instance and per-device records,
 * shared by layer.c (plumbing) and the capture feature (capture.h). */
#ifndef LLCT_CAPTURE_LAYER_H
#define LLCT_CAPTURE_LAYER_H

#include "llct_dispatch.h"

#include <vulkan/vk_layer.h>

struct capture_device;

struct layer_instance {
	VkInstance handle;
	PFN_vkGetInstanceProcAddr gipa; /* the next layer's */
	struct llct_instance_dispatch d;
	uint32_t api_version;
};

struct layer_device {
	VkDevice handle;
	VkPhysicalDevice phys;
	struct layer_instance *inst;
	PFN_vkGetDeviceProcAddr gdpa; /* the next layer's */
	struct llct_device_dispatch d;
	struct capture_device *cap; /* NULL when capture is off or stopped */
	int stats_query;            /* pipelineStatisticsQuery is enabled (the layer may have
				       turned it on, for per-draw fragment counts) */
};

/* The device record of any dispatchable device-level handle (device, queue, command
 * buffer), or NULL. */
struct layer_device *layer_device_of(const void *handle);
struct layer_instance *layer_instance_of(const void *handle);

/* device.c: set up and tear down capture for a device (the intercepts are in the generated
 * llct_intercepts.h). */
void capture_device_created(struct layer_device *d, const VkDeviceCreateInfo *info);
void capture_device_destroyed(struct layer_device *d);

#endif

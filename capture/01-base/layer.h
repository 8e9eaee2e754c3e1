/* layer.h - private to capture/: the loader plumbing's per-instance and per-device records,
 * shared by layer.c (plumbing) and the capture feature (the device record, core.h). */
#ifndef LLCT_CAPTURE_LAYER_H
#define LLCT_CAPTURE_LAYER_H

#include "llct_dispatch.h"

#include <vulkan/vk_layer.h>

struct capture_device;

struct layer_instance {
	VkInstance handle;
	PFN_vkGetInstanceProcAddr gipa; /* the next layer's */
	struct llct_instance_dispatch d;
	uint32_t api_version; /* the program's (1.0 when it names none) */
	/* VK_KHR_get_physical_device_properties2 is on (the program's or added by the layer for
	 * a 1.0 instance, where the core vkGetPhysicalDeviceFeatures2 may not be called) */
	int props2_khr;
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
	int occl_query;             /* occlusionQueryPrecise is enabled (likewise) */
	int xfb;                    /* transform feedback is enabled (tier 2's shadow draws) */
	int bda; /* bufferDeviceAddress is enabled (tier 3's records by device address) */
	int sg;  /* LLCT_SPIRV_SUBGROUP_* flags: stages where tier 3's records take one atomic a
		    subgroup (the device's subgroup ballot and arithmetic operations there) */
};

/* The device record of any dispatchable device-level handle (device, queue, command
 * buffer), or NULL. */
struct layer_device *layer_device_of(const void *handle);
struct layer_instance *layer_instance_of(const void *handle);
/* loader.c: a record into its map (0, or -1 when the map is full), and out of it by handle
 * (the record, or NULL). */
int layer_instance_add(struct layer_instance *inst);
struct layer_instance *layer_instance_remove(const void *handle);
int layer_device_add(struct layer_device *dev);
struct layer_device *layer_device_remove(const void *handle);

/* features.c: what vkCreateDevice turns on for capture. prepare fills p->ci, the create info
 * to send down (the program's own, changed for the call); restore undoes what prepare changed
 * in the program's structures once the call returned. */
struct device_prep {
	VkDeviceCreateInfo ci;
	VkPhysicalDeviceFeatures want; /* when pEnabledFeatures is used */
	VkPhysicalDeviceTransformFeedbackFeaturesEXT
	    xfb_feat;                  /* chained when the program has none */
	const char **exts;             /* the extension names, with ours */
	VkPhysicalDeviceFeatures2 *f2; /* the program's, changed */
	VkPhysicalDeviceFeatures f2_saved;
	VkPhysicalDeviceTransformFeedbackFeaturesEXT *app_xfb; /* the program's, changed */
	VkBool32 app_xfb_saved;
	VkPhysicalDeviceBufferDeviceAddressFeatures
	    bda_feat;                              /* chained when the program has none */
	VkPhysicalDeviceVulkan12Features *app_v12; /* the program's, changed */
	VkPhysicalDeviceBufferDeviceAddressFeatures *app_bda; /* likewise */
	VkBool32 app_bda_saved;
	int occl, stats, xfb, frag, vstores; /* turned on: occlusionQueryPrecise,
						pipelineStatisticsQuery, transform feedback,
						fragmentStoresAndAtomics,
						vertexPipelineStoresAndAtomics */
	int bda; /* bufferDeviceAddress turned on: tier 3's records by device address */
	int sg;  /* LLCT_SPIRV_SUBGROUP_* flags: where records take one atomic a subgroup */
};
void capture_prepare_device(struct layer_instance *inst, VkPhysicalDevice phys,
			    const VkDeviceCreateInfo *info, struct device_prep *p);
void capture_restore_device(struct device_prep *p);
/* The tier LLCT_CAPTURE_TIER asks for. */
int capture_tier_wanted(void);

/* device.c: set up and tear down capture for a device (the intercepts are in the generated
 * llct_intercepts.h); prep says what vkCreateDevice turned on. */
void capture_device_created(struct layer_device *d, const VkDeviceCreateInfo *info,
			    const struct device_prep *prep);
void capture_device_destroyed(struct layer_device *d);

#endif

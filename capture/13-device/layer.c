/* layer.c - Vulkan loader plumbing of VK_LAYER_LLCTRACE_capture: interface negotiation
 * (version 2), instance and device creation through the layer chain, dispatch tables
 * (generated from vk.xml), filling the maps from dispatchable handles to their records
 * (loader.c). Every
 * command the layer does not intercept goes straight to the next layer. The capture itself
 * lives in the other sub-modules of capture/ (docs/CAPTURE.md, "How capture/ is laid out"). */
#include "layer.h"
#include "llct_intercepts.h"

#include <stdlib.h>
#include <string.h>

#define LAYER_EXPORT __attribute__((visibility("default")))

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateInstance(const VkInstanceCreateInfo *info,
							   const VkAllocationCallbacks *alloc,
							   VkInstance *out)
{
	VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)info->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO &&
			 link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerInstanceCreateInfo *)link->pNext;
	if (!link)
		return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext; /* the next layer sees its own link */
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
	if (!create)
		return VK_ERROR_INITIALIZATION_FAILED;
	/* A 1.0 instance gets VK_KHR_get_physical_device_properties2, which the layer needs to
	 * ask for transform feedback (vkGetPhysicalDeviceFeatures2 is 1.1: calling it on a 1.0
	 * instance is an error the validation layer reports); if the driver lacks it, the
	 * instance is made as the program asked and the layer does without. */
	uint32_t api = info->pApplicationInfo && info->pApplicationInfo->apiVersion
			   ? info->pApplicationInfo->apiVersion
			   : VK_API_VERSION_1_0;
	const char *props2 = VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME;
	int named = 0;
	for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
		named |= !strcmp(info->ppEnabledExtensionNames[i], props2);
	VkInstanceCreateInfo ci = *info;
	const char **exts = NULL;
	if (api < VK_API_VERSION_1_1 && !named &&
	    (exts = malloc((info->enabledExtensionCount + 1) * sizeof(*exts)))) {
		for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
			exts[i] = info->ppEnabledExtensionNames[i];
		exts[info->enabledExtensionCount] = props2;
		ci.enabledExtensionCount = info->enabledExtensionCount + 1;
		ci.ppEnabledExtensionNames = exts;
	}
	VkLayerInstanceLink *next = link->u.pLayerInfo;
	int added = exts != NULL;
	VkResult r = create(added ? &ci : info, alloc, out);
	if (added && r == VK_ERROR_EXTENSION_NOT_PRESENT) { /* as the program asked, then */
		link->u.pLayerInfo = next;                  /* the layers below advance it again */
		added = 0;
		r = create(info, alloc, out);
	}
	free(exts);
	if (r != VK_SUCCESS)
		return r;
	struct layer_instance *inst = calloc(1, sizeof(*inst));
	if (!inst)
		return VK_SUCCESS; /* never break the program: this instance is just not captured */
	inst->handle = *out;
	inst->gipa = gipa;
	inst->api_version = api;
	inst->props2_khr = named || added;
	llct_instance_dispatch_init(&inst->d, *out, gipa);
	llct_instance_dispatch_fallbacks(&inst->d);
	if (layer_instance_add(inst))
		free(inst); /* only if the map was full */
	return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroyInstance(VkInstance instance,
							const VkAllocationCallbacks *alloc)
{
	struct layer_instance *inst = layer_instance_remove(instance);
	if (inst && inst->d.DestroyInstance)
		inst->d.DestroyInstance(instance, alloc);
	free(inst);
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_CreateDevice(VkPhysicalDevice phys,
							 const VkDeviceCreateInfo *info,
							 const VkAllocationCallbacks *alloc,
							 VkDevice *out)
{
	VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)info->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO &&
			 link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerDeviceCreateInfo *)link->pNext;
	if (!link)
		return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	struct layer_instance *inst = layer_instance_of(phys);
	PFN_vkCreateDevice create =
	    (PFN_vkCreateDevice)gipa(inst ? inst->handle : NULL, "vkCreateDevice");
	if (!create)
		return VK_ERROR_INITIALIZATION_FAILED;
	/* Per-draw counts need occlusionQueryPrecise (or pipeline statistics), tier 2 transform
	 * feedback: turned on when the device has them and capture is not disabled. */
	struct device_prep prep;
	capture_prepare_device(inst, phys, info, &prep);
	VkResult r = create(phys, &prep.ci, alloc, out);
	capture_restore_device(&prep);
	if (r != VK_SUCCESS)
		return r;
	struct layer_device *dev = calloc(1, sizeof(*dev));
	if (!dev)
		return VK_SUCCESS;
	dev->handle = *out;
	dev->phys = phys;
	dev->inst = inst;
	dev->gdpa = gdpa;
	dev->stats_query = prep.stats;
	dev->occl_query = prep.occl;
	dev->xfb = prep.xfb;
	dev->bda = prep.bda;
	dev->sg = prep.sg;
	llct_device_dispatch_init(&dev->d, *out, gdpa);
	/* An app on an older API may only have the extension form of a core command. */
	llct_device_dispatch_fallbacks(&dev->d);
	if (layer_device_add(dev)) {
		free(dev);
		return VK_SUCCESS;
	}
	capture_device_created(dev, info, &prep);
	return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL layer_DestroyDevice(VkDevice device,
						      const VkAllocationCallbacks *alloc)
{
	struct layer_device *dev = layer_device_remove(device);
	if (!dev)
		return;
	capture_device_destroyed(dev);
	if (dev->d.DestroyDevice)
		dev->d.DestroyDevice(device, alloc);
	free(dev);
}

/* The layer's own entry points are static: a reference to the global names could bind to
 * the loader's functions of the same name (symbol interposition), which would send the
 * chain back into the loader. The exported names below only forward to these. */
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device,
									const char *name);

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetInstanceProcAddr(VkInstance instance,
									  const char *name)
{
	if (!strcmp(name, "vkGetInstanceProcAddr"))
		return (PFN_vkVoidFunction)layer_GetInstanceProcAddr;
	if (!strcmp(name, "vkGetDeviceProcAddr"))
		return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
	if (!strcmp(name, "vkCreateInstance"))
		return (PFN_vkVoidFunction)layer_CreateInstance;
	if (!strcmp(name, "vkDestroyInstance"))
		return (PFN_vkVoidFunction)layer_DestroyInstance;
	if (!strcmp(name, "vkCreateDevice"))
		return (PFN_vkVoidFunction)layer_CreateDevice;
	if (!strcmp(name, "vkDestroyDevice"))
		return (PFN_vkVoidFunction)layer_DestroyDevice;
	PFN_vkVoidFunction f = capture_intercept(name);
	if (f)
		return f;
	struct layer_instance *inst = layer_instance_of(instance);
	return inst ? inst->gipa(instance, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL layer_GetDeviceProcAddr(VkDevice device,
									const char *name)
{
	if (!strcmp(name, "vkGetDeviceProcAddr"))
		return (PFN_vkVoidFunction)layer_GetDeviceProcAddr;
	if (!strcmp(name, "vkDestroyDevice"))
		return (PFN_vkVoidFunction)layer_DestroyDevice;
	struct layer_device *dev = layer_device_of(device);
	if (!dev)
		return NULL;
	PFN_vkVoidFunction f = capture_intercept(name);
	/* Only intercept what the device really has, so the app's view of it is unchanged. */
	if (f && dev->gdpa(device, name))
		return f;
	return dev->gdpa(device, name);
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
									    const char *name)
{
	return layer_GetInstanceProcAddr(instance, name);
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
									  const char *name)
{
	return layer_GetDeviceProcAddr(device, name);
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v)
{
	if (!v || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
		return VK_ERROR_INITIALIZATION_FAILED;
	if (v->loaderLayerInterfaceVersion > 2)
		v->loaderLayerInterfaceVersion = 2;
	v->pfnGetInstanceProcAddr = layer_GetInstanceProcAddr;
	v->pfnGetDeviceProcAddr = layer_GetDeviceProcAddr;
	v->pfnGetPhysicalDeviceProcAddr = NULL;
	return VK_SUCCESS;
}

/* gpu_probe.c - prints, for each Vulkan device the loader finds, the driver and the features the
 * capture layer relies on (transform feedback for tier 2's shadow draws; buffer device address,
 * stores in vertex and fragment stages and subgroup operations for tier 3's records; precise
 * occlusion queries for fragment counts), one "key value" line each, for bench/gpu.sh.
 *   gpu_probe            every device; exit 1 if there is none */
#include <stdio.h>
#include <string.h>
#include <vulkan/vulkan.h>

static const char *yes(VkBool32 b)
{
	return b ? "yes" : "no";
}

static void stages(char *out, size_t n, VkShaderStageFlags s)
{
	static const struct {
		VkShaderStageFlags bit;
		const char *name;
	} t[] = {{VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
		 {VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"},
		 {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
		 {VK_SHADER_STAGE_COMPUTE_BIT, "compute"}};
	out[0] = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (s & t[i].bit)
			snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? "," : "",
				 t[i].name);
}

static void ops(char *out, size_t n, VkSubgroupFeatureFlags s)
{
	static const struct {
		VkSubgroupFeatureFlags bit;
		const char *name;
	} t[] = {{VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
		 {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
		 {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
		 {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
		 {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
		 {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
		 {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"}};
	out[0] = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (s & t[i].bit)
			snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? "," : "",
				 t[i].name);
}

static int has_ext(VkPhysicalDevice pd, const char *name)
{
	VkExtensionProperties e[512];
	uint32_t n = 512;
	if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) < 0)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(e[i].extensionName, name))
			return 1;
	return 0;
}

int main(void)
{
	VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "gpu_probe";
	app.apiVersion = VK_API_VERSION_1_2;
	VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pApplicationInfo = &app;
	VkInstance inst;
	VkResult r = vkCreateInstance(&ici, NULL, &inst);
	if (r != VK_SUCCESS) {
		printf("error vkCreateInstance failed (%d): no Vulkan driver found\n", r);
		return 1;
	}
	VkPhysicalDevice pds[8];
	uint32_t n = 8;
	r = vkEnumeratePhysicalDevices(inst, &n, pds);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !n) {
		printf("error no Vulkan device\n");
		return 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		VkPhysicalDeviceDriverProperties drv = {
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
		VkPhysicalDeviceSubgroupProperties sg = {
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &drv};
		VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
						  &sg};
		vkGetPhysicalDeviceProperties2(pds[i], &p2);
		VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb = {
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
		VkPhysicalDeviceVulkan12Features v12 = {
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
		int has_xfb = has_ext(pds[i], VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
		v12.pNext = has_xfb ? &xfb : NULL;
		VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
		vkGetPhysicalDeviceFeatures2(pds[i], &f2);
		const VkPhysicalDeviceProperties *p = &p2.properties;
		const VkPhysicalDeviceFeatures *f = &f2.features;
		char st[64], op[96];
		printf("device %u %s\n", i, p->deviceName);
		printf("driver %s %s\n", drv.driverName, drv.driverInfo);
		printf("vendor 0x%04x device_id 0x%04x driver_version 0x%x\n", p->vendorID,
		       p->deviceID, p->driverVersion);
		printf("api %u.%u.%u\n", VK_API_VERSION_MAJOR(p->apiVersion),
		       VK_API_VERSION_MINOR(p->apiVersion), VK_API_VERSION_PATCH(p->apiVersion));
		printf("transform_feedback %s (tier 2's shadow draws; without it tier 1)\n",
		       has_xfb && xfb.transformFeedback ? "yes" : "no");
		printf("buffer_device_address %s (tier 3's records by address)\n",
		       yes(v12.bufferDeviceAddress));
		printf("fragment_stores %s (tier 3's fragment records)\n",
		       yes(f->fragmentStoresAndAtomics));
		printf("vertex_stores %s (tier 3's vertex records)\n",
		       yes(f->vertexPipelineStoresAndAtomics));
		printf("occlusion_query_precise %s (fragment counts)\n",
		       yes(f->occlusionQueryPrecise));
		printf("pipeline_statistics %s\n", yes(f->pipelineStatisticsQuery));
		printf("shader_int64 %s\n", yes(f->shaderInt64));
		stages(st, sizeof(st), sg.supportedStages);
		ops(op, sizeof(op), sg.supportedOperations);
		printf("subgroup_size %u\n", sg.subgroupSize);
		printf("subgroup_stages %s\n", st);
		printf("subgroup_ops %s\n", op);
		/* tier 3: one atomic a subgroup's records (basic, ballot, arithmetic) and
		   coalescing (shuffle too), in the stages that have them */
		VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_BASIC_BIT |
					      VK_SUBGROUP_FEATURE_BALLOT_BIT |
					      VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
		int res = (sg.supportedOperations & need) == need,
		    co = res && (sg.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
		printf("subgroup_reserve %s (tier 3's one atomic a subgroup; stages: %s)\n",
		       res ? "yes" : "no", st);
		printf("coalesce %s (tier 3's coalesced records)\n", co ? "yes" : "no");
		printf("max_storage_buffer_range %u\n", p->limits.maxStorageBufferRange);
		printf("timestamp_period_ns %g\n", (double)p->limits.timestampPeriod);
		/* where the layer's read-back buffers can live: it takes host-visible, coherent
		   memory, cached and not device-local where there is some */
		VkPhysicalDeviceMemoryProperties mp;
		vkGetPhysicalDeviceMemoryProperties(pds[i], &mp);
		for (uint32_t t = 0; t < mp.memoryTypeCount; t++) {
			VkMemoryPropertyFlags m = mp.memoryTypes[t].propertyFlags;
			printf("memory_type %u heap %u%s%s%s%s\n", t, mp.memoryTypes[t].heapIndex,
			       m & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT ? " device-local" : "",
			       m & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? " host-visible" : "",
			       m & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT ? " coherent" : "",
			       m & VK_MEMORY_PROPERTY_HOST_CACHED_BIT ? " cached" : "");
		}
	}
	vkDestroyInstance(inst, NULL);
	return 0;
}

/* features.c - what the capture layer turns on at vkCreateDevice, when the device has it and
 * capture is on: occlusionQueryPrecise (per-draw samples that passed; without it,
 * pipelineStatisticsQuery for fragment shader invocations), and for tier 2
 * VK_EXT_transform_feedback with its transformFeedback feature (the shadow draws), for tier 3
 * fragmentStoresAndAtomics (instrumented fragment shaders write records) and
 * bufferDeviceAddress (they reach their record buffers by address, so one may pass
 * maxStorageBufferRange; core in 1.2, VK_KHR_buffer_device_address on 1.1). Features
 * only add capability; the program's own create info is changed for the call only. At tier 3
 * the limits the program is told leave room for the layer's descriptor set. */
#include "async.h"
#include "core.h"
#include "instr.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "spirv.h"
#include "submit.h"
#include "tier.h"
#include "tier2.h"
#include "track.h"
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#define XFB_EXT VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME
#define SBSC_EXT VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME
#define BDA_EXT VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME

/* The tier asked for: LLCT_CAPTURE_TIER (1 or 2; default 2); 0 when capture is off (disabled,
 * or a setting is not valid: capture_device_created says which). */
int capture_tier_wanted(void)
{
	struct capture_settings set;
	char why[400];
	if (capture_settings_read(&set, capture_getenv_ud, NULL, why, sizeof(why)))
		return 0;
	capture_settings_release(&set);
	return set.disabled ? 0 : set.tier;
}

/* Whether tier 3's records may go by device address (LLCT_CAPTURE_RECORDS_BY_ADDRESS), and
 * take one atomic a subgroup (LLCT_CAPTURE_SUBGROUP_RESERVE). */
static int by_address_wanted(int *sg)
{
	struct capture_settings set;
	char why[400];
	*sg = 0;
	if (capture_settings_read(&set, capture_getenv_ud, NULL, why, sizeof(why)))
		return 0;
	capture_settings_release(&set);
	*sg = set.no_sg ? 0 : set.no_coalesce ? 1 : 3; /* 2: coalescing too */
	return !set.no_bda;
}

/* The stages where the device runs the subgroup ballot and arithmetic operations tier 3's
 * reservation uses (a 1.1 device and instance): LLCT_SPIRV_SUBGROUP_* flags. */
static int subgroup_stages(struct layer_instance *inst, VkPhysicalDevice phys, int coalesce)
{
	PFN_vkGetPhysicalDeviceProperties2 props2 = inst->d.GetPhysicalDeviceProperties2
							? inst->d.GetPhysicalDeviceProperties2
							: inst->d.GetPhysicalDeviceProperties2KHR;
	if (!props2)
		return 0;
	VkPhysicalDeviceSubgroupProperties s = {
	    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &s};
	props2(phys, &p2);
	VkSubgroupFeatureFlags need = VK_SUBGROUP_FEATURE_BASIC_BIT |
				      VK_SUBGROUP_FEATURE_BALLOT_BIT |
				      VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
	if ((s.supportedOperations & need) != need)
		return 0;
	/* coalescing: shuffles too */
	int co = coalesce && (s.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
	return (s.supportedStages & VK_SHADER_STAGE_FRAGMENT_BIT ? LLCT_SPIRV_SUBGROUP_FRAGMENT
								 : 0) |
	       (s.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT ? LLCT_SPIRV_SUBGROUP_COMPUTE : 0) |
	       (s.supportedStages & VK_SHADER_STAGE_VERTEX_BIT ? LLCT_SPIRV_SUBGROUP_VERTEX : 0) |
	       (co ? LLCT_SPIRV_COALESCE : 0);
}

static int has_extension(struct layer_instance *inst, VkPhysicalDevice phys, const char *name)
{
	uint32_t n = 0;
	int found = 0;
	if (!inst->d.EnumerateDeviceExtensionProperties ||
	    inst->d.EnumerateDeviceExtensionProperties(phys, NULL, &n, NULL) != VK_SUCCESS)
		return 0;
	VkExtensionProperties *e = calloc(n ? n : 1, sizeof(*e));
	if (e && inst->d.EnumerateDeviceExtensionProperties(phys, NULL, &n, e) == VK_SUCCESS)
		for (uint32_t i = 0; i < n && !found; i++)
			found = !strcmp(e[i].extensionName, name);
	free(e);
	return found;
}

/* Whether the program's device create info names extension `name`. */
static int named_ext(const VkDeviceCreateInfo *info, const char *name)
{
	for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
		if (!strcmp(info->ppEnabledExtensionNames[i], name))
			return 1;
	return 0;
}

void capture_prepare_device(struct layer_instance *inst, VkPhysicalDevice phys,
			    const VkDeviceCreateInfo *info, struct device_prep *p)
{
	memset(p, 0, sizeof(*p));
	p->ci = *info;
	int tier = capture_tier_wanted();
	if (!tier || !inst || !inst->d.GetPhysicalDeviceFeatures)
		return; /* capture is off: the device as the program asked for it */
	VkPhysicalDeviceFeatures have = {0};
	inst->d.GetPhysicalDeviceFeatures(phys, &have);
	p->occl = have.occlusionQueryPrecise == VK_TRUE;
	p->stats = !p->occl && have.pipelineStatisticsQuery == VK_TRUE;
	p->frag = tier >= 3 && have.fragmentStoresAndAtomics == VK_TRUE; /* tier 3's records */
	p->vstores = tier >= 3 && have.vertexPipelineStoresAndAtomics == VK_TRUE;
	/* the 1.1 command where the instance is 1.1 (and the device, whose version the
	   effective one is the lesser of), else the extension's where it is on, else none */
	VkPhysicalDeviceProperties dp = {0};
	if (inst->d.GetPhysicalDeviceProperties)
		inst->d.GetPhysicalDeviceProperties(phys, &dp);
	PFN_vkGetPhysicalDeviceFeatures2 features2 =
	    inst->api_version >= VK_API_VERSION_1_1 && dp.apiVersion >= VK_API_VERSION_1_1
		? inst->d.GetPhysicalDeviceFeatures2
	    : inst->props2_khr ? inst->d.GetPhysicalDeviceFeatures2KHR
			       : NULL;
	if (tier >= 2 && features2 && has_extension(inst, phys, XFB_EXT)) {
		VkPhysicalDeviceTransformFeedbackFeaturesEXT x = {
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
		VkPhysicalDeviceFeatures2 f = {
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &x};
		features2(phys, &f);
		p->xfb = x.transformFeedback == VK_TRUE;
	}
	/* tier 3's records by device address: where the device has bufferDeviceAddress (a 1.2
	   device, or a 1.1 one with the extension) and the program does not use the EXT version
	   of it (the two may not both be on) */
	int old = inst->api_version < VK_API_VERSION_1_1 || dp.apiVersion < VK_API_VERSION_1_1;
	int v12 = inst->api_version >= VK_API_VERSION_1_2 && dp.apiVersion >= VK_API_VERSION_1_2;
	int bda_ext = 0, sg_wanted = 0, bda_wanted = by_address_wanted(&sg_wanted);
	if (tier >= 3 && !old && sg_wanted)
		p->sg = subgroup_stages(inst, phys, sg_wanted > 1);
	if (tier >= 3 && features2 && !old && bda_wanted &&
	    !named_ext(info, VK_EXT_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME) &&
	    (v12 || named_ext(info, BDA_EXT) || (bda_ext = has_extension(inst, phys, BDA_EXT)))) {
		VkPhysicalDeviceBufferDeviceAddressFeatures b = {
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
		VkPhysicalDeviceFeatures2 f = {
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &b};
		features2(phys, &f);
		p->bda = b.bufferDeviceAddress == VK_TRUE;
		bda_ext = p->bda && bda_ext && !v12;
	}
	/* the features: in the program's VkPhysicalDeviceFeatures2 if it chains one (restored
	   after), else in a copy of pEnabledFeatures */
	for (VkBaseOutStructure *x = (VkBaseOutStructure *)info->pNext; x; x = x->pNext) {
		if (x->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)
			p->f2 = (VkPhysicalDeviceFeatures2 *)x;
		if (x->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT)
			p->app_xfb = (VkPhysicalDeviceTransformFeedbackFeaturesEXT *)x;
		if (x->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
			p->app_v12 = (VkPhysicalDeviceVulkan12Features *)x;
		if (x->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES)
			p->app_bda = (VkPhysicalDeviceBufferDeviceAddressFeatures *)x;
	}
	if (p->f2) {
		p->f2_saved = p->f2->features;
		p->f2->features.occlusionQueryPrecise |= (VkBool32)p->occl;
		p->f2->features.pipelineStatisticsQuery |= (VkBool32)p->stats;
		p->f2->features.fragmentStoresAndAtomics |= (VkBool32)p->frag;
		p->f2->features.vertexPipelineStoresAndAtomics |= (VkBool32)p->vstores;
	} else if (p->occl || p->stats || p->frag || p->vstores) {
		if (info->pEnabledFeatures)
			p->want = *info->pEnabledFeatures;
		p->want.occlusionQueryPrecise |= (VkBool32)p->occl;
		p->want.pipelineStatisticsQuery |= (VkBool32)p->stats;
		p->want.fragmentStoresAndAtomics |= (VkBool32)p->frag;
		p->want.vertexPipelineStoresAndAtomics |= (VkBool32)p->vstores;
		p->ci.pEnabledFeatures = &p->want;
	}
	/* Extensions the layer turns on: transform feedback (tier 2's shadow draws), and, on a 1.0
	   device, the storage-buffer storage class tier 3's instrumented shaders declare (core in
	   1.1); without it there, tier 3 leaves draws to tier 2's model */
	const char *add[3];
	uint32_t n_add = 0;
	if ((p->frag || p->vstores) && old) {
		if (!named_ext(info, SBSC_EXT) && has_extension(inst, phys, SBSC_EXT))
			add[n_add++] = SBSC_EXT;
		else if (!named_ext(info, SBSC_EXT))
			p->frag = p->vstores = 0;
	}
	if (p->xfb && !named_ext(info, XFB_EXT))
		add[n_add++] = XFB_EXT;
	if (bda_ext)
		add[n_add++] = BDA_EXT;
	if (n_add) {
		p->exts = malloc((info->enabledExtensionCount + n_add) * sizeof(*p->exts));
		if (!p->exts) {
			p->xfb = p->frag = p->vstores = p->bda = 0; /* tier 1 then */
			return;
		}
		for (uint32_t i = 0; i < info->enabledExtensionCount; i++)
			p->exts[i] = info->ppEnabledExtensionNames[i];
		for (uint32_t i = 0; i < n_add; i++)
			p->exts[info->enabledExtensionCount + i] = add[i];
		p->ci.enabledExtensionCount = info->enabledExtensionCount + n_add;
		p->ci.ppEnabledExtensionNames = p->exts;
	}
	/* the feature structures: the program's own changed (restored after), else ours chained
	   in front of its chain */
	if (p->bda && p->app_v12) {
		p->app_bda_saved = p->app_v12->bufferDeviceAddress;
		p->app_v12->bufferDeviceAddress = VK_TRUE;
	} else if (p->bda && p->app_bda) {
		p->app_bda_saved = p->app_bda->bufferDeviceAddress;
		p->app_bda->bufferDeviceAddress = VK_TRUE;
	} else if (p->bda) {
		p->bda_feat = (VkPhysicalDeviceBufferDeviceAddressFeatures){
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
		    .pNext = (void *)p->ci.pNext,
		    .bufferDeviceAddress = VK_TRUE};
		p->ci.pNext = &p->bda_feat;
	}
	if (!p->xfb)
		return;
	if (p->app_xfb) {
		p->app_xfb_saved = p->app_xfb->transformFeedback;
		p->app_xfb->transformFeedback = VK_TRUE;
	} else {
		p->xfb_feat = (VkPhysicalDeviceTransformFeedbackFeaturesEXT){
		    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
		    .pNext = (void *)p->ci.pNext,
		    .transformFeedback = VK_TRUE};
		p->ci.pNext = &p->xfb_feat;
	}
}

void capture_restore_device(struct device_prep *p)
{
	if (p->f2)
		p->f2->features = p->f2_saved;
	if (p->app_xfb)
		p->app_xfb->transformFeedback = p->app_xfb_saved;
	if (p->bda && p->app_v12)
		p->app_v12->bufferDeviceAddress = p->app_bda_saved;
	else if (p->bda && p->app_bda)
		p->app_bda->bufferDeviceAddress = p->app_bda_saved;
	p->f2 = NULL;
	p->app_xfb = NULL;
	p->app_v12 = NULL;
	p->app_bda = NULL;
	free(p->exts);
	p->exts = NULL;
}

/* Tier 3 binds a descriptor set of its own (two storage buffers, one dynamic) at the first set
 * number the program leaves free: the limits the program sees are those less the layer's, so
 * a program that fills every set it is allowed still leaves one. */
static void hide_layer_set(VkPhysicalDeviceLimits *l)
{
	if (capture_tier_wanted() < 3)
		return;
	l->maxBoundDescriptorSets -= l->maxBoundDescriptorSets > 1;
	l->maxPerStageDescriptorStorageBuffers -=
	    l->maxPerStageDescriptorStorageBuffers > 2 ? 2 : 0;
	l->maxDescriptorSetStorageBuffers -= l->maxDescriptorSetStorageBuffers > 2 ? 2 : 0;
	l->maxDescriptorSetStorageBuffersDynamic -= l->maxDescriptorSetStorageBuffersDynamic > 1;
	l->maxPerStageResources -= l->maxPerStageResources > 2 ? 2 : 0;
}

VKAPI_ATTR void VKAPI_CALL cap_GetPhysicalDeviceProperties(VkPhysicalDevice phys,
							   VkPhysicalDeviceProperties *props)
{
	struct layer_instance *inst = layer_instance_of(phys);
	if (!inst || !inst->d.GetPhysicalDeviceProperties)
		return;
	inst->d.GetPhysicalDeviceProperties(phys, props);
	hide_layer_set(&props->limits);
}

VKAPI_ATTR void VKAPI_CALL cap_GetPhysicalDeviceProperties2(VkPhysicalDevice phys,
							    VkPhysicalDeviceProperties2 *props)
{
	struct layer_instance *inst = layer_instance_of(phys);
	PFN_vkGetPhysicalDeviceProperties2 down =
	    inst ? (inst->d.GetPhysicalDeviceProperties2 ? inst->d.GetPhysicalDeviceProperties2
							 : inst->d.GetPhysicalDeviceProperties2KHR)
		 : NULL;
	if (!down)
		return;
	down(phys, props);
	hide_layer_set(&props->properties.limits);
}

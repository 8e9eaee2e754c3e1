/* vkapp.h - the Vulkan set-up the capture test programs share: one instance, device and queue,
 * and helpers for memory, images, views, buffers, shaders and simple graphics pipelines.
 * Test programs only: failures print what failed and exit(1). */
#ifndef LLCT_TESTS_VKAPP_H
#define LLCT_TESTS_VKAPP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(x)                                                                                   \
	do {                                                                                       \
		VkResult r_ = (x);                                                                 \
		if (r_ != VK_SUCCESS) {                                                            \
			fprintf(stderr, "%s: %s failed: %d\n", app_name, #x, r_);                  \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static const char *app_name = "app";
static const char *app_inst_ext; /* instance extensions app_open enables, separated by commas */
static uint32_t app_api_version; /* the API version app_open asks for (0: 1.1) */
static VkInstance inst;
static VkPhysicalDevice pd;
static VkDevice dev;
static VkQueue queue;

/* Creates the instance (with VK_EXT_debug_utils if asked, and app_inst_ext), the first device
 * (with the device extensions in dev_ext, separated by commas, and a features chain if given)
 * and its queue. */
static inline void app_open(const char *name, int debug_utils, const char *dev_ext,
			    void *dev_features)
{
	VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
	VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	char iexts[256];
	const char *inames[8];
	uint32_t n = 1;
	float prio = 1;
	app_name = name;
	app.pApplicationName = name;
	app.apiVersion = app_api_version ? app_api_version : VK_API_VERSION_1_1;
	ici.pApplicationInfo = &app;
	if (debug_utils)
		inames[ici.enabledExtensionCount++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
	snprintf(iexts, sizeof(iexts), "%s", app_inst_ext ? app_inst_ext : "");
	for (char *tok = strtok(iexts, ","); tok && ici.enabledExtensionCount < 8;
	     tok = strtok(NULL, ","))
		inames[ici.enabledExtensionCount++] = tok;
	ici.ppEnabledExtensionNames = inames;
	CHECK(vkCreateInstance(&ici, NULL, &inst));
	VkResult er = vkEnumeratePhysicalDevices(inst, &n, &pd);
	if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || !n) {
		fprintf(stderr, "%s: no Vulkan device\n", name);
		exit(1);
	}
	VkDeviceQueueCreateInfo qci = {
	    VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
	VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	dci.pNext = dev_features;
	char exts[256];
	const char *names[8];
	snprintf(exts, sizeof(exts), "%s", dev_ext ? dev_ext : "");
	for (char *tok = strtok(exts, ","); tok && dci.enabledExtensionCount < 8;
	     tok = strtok(NULL, ","))
		names[dci.enabledExtensionCount++] = tok;
	dci.ppEnabledExtensionNames = names;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
	vkGetDeviceQueue(dev, 0, 0, &queue);
}

static inline VkDeviceMemory app_memory(VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
		if ((req.memoryTypeBits >> i & 1) &&
		    (mp.memoryTypes[i].propertyFlags & want) == want) {
			VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL,
						   req.size, i};
			VkDeviceMemory m;
			CHECK(vkAllocateMemory(dev, &ai, NULL, &m));
			return m;
		}
	fprintf(stderr, "%s: no memory type\n", app_name);
	exit(1);
}

#define APP_HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

/* Mip levels app_image makes and app_view shows (a program sets it around a call for a
 * mipmapped texture: app_texture's with app_tex_levels). */
static uint32_t app_levels = 1;

/* A 2D optimal-tiling image with its own memory, bound. */
static inline VkImage app_image(VkFormat fmt, uint32_t w, uint32_t h, VkSampleCountFlagBits samples,
				VkImageUsageFlags usage, VkDeviceMemory *mem)
{
	VkImageCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	VkMemoryRequirements req;
	VkImage img;
	ci.imageType = VK_IMAGE_TYPE_2D;
	ci.format = fmt;
	ci.extent = (VkExtent3D){w, h, 1};
	ci.mipLevels = app_levels;
	ci.arrayLayers = 1;
	ci.samples = samples;
	ci.tiling = VK_IMAGE_TILING_OPTIMAL;
	ci.usage = usage;
	CHECK(vkCreateImage(dev, &ci, NULL, &img));
	vkGetImageMemoryRequirements(dev, img, &req);
	*mem = app_memory(req, 0);
	CHECK(vkBindImageMemory(dev, img, *mem, 0));
	return img;
}

static inline VkImageView app_view(VkImage img, VkFormat fmt, VkImageAspectFlags aspect)
{
	VkImageViewCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	VkImageView v;
	ci.image = img;
	ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	ci.format = fmt;
	ci.subresourceRange = (VkImageSubresourceRange){aspect, 0, app_levels, 0, 1};
	CHECK(vkCreateImageView(dev, &ci, NULL, &v));
	return v;
}

/* A buffer with its own memory of the wanted properties, bound. */
static inline VkBuffer app_buffer(VkDeviceSize size, VkBufferUsageFlags usage,
				  VkMemoryPropertyFlags want, VkDeviceMemory *mem)
{
	VkBufferCreateInfo ci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	VkMemoryRequirements req;
	VkBuffer b;
	ci.size = size;
	ci.usage = usage;
	CHECK(vkCreateBuffer(dev, &ci, NULL, &b));
	vkGetBufferMemoryRequirements(dev, b, &req);
	*mem = app_memory(req, want);
	CHECK(vkBindBufferMemory(dev, b, *mem, 0));
	return b;
}

/* A command pool whose buffers can be reset one by one. */
static inline VkCommandPool app_command_pool(void)
{
	VkCommandPoolCreateInfo ci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
				      VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 0};
	VkCommandPool pool;
	CHECK(vkCreateCommandPool(dev, &ci, NULL, &pool));
	return pool;
}

static inline VkCommandBuffer app_command_buffer(VkCommandPool pool, VkCommandBufferLevel level)
{
	VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
					  pool, level, 1};
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(dev, &ai, &cb));
	return cb;
}

static inline VkFence app_fence(void)
{
	VkFenceCreateInfo ci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	CHECK(vkCreateFence(dev, &ci, NULL, &fence));
	return fence;
}

/* Submits one command buffer to the queue and waits for it (the fence is reset after). */
static inline void app_submit_wait(VkCommandBuffer cb, VkFence fence)
{
	VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	CHECK(vkQueueSubmit(queue, 1, &si, fence));
	CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
	CHECK(vkResetFences(dev, 1, &fence));
}

static inline VkShaderModule app_shader(const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, size,
				       code};
	VkShaderModule m;
	CHECK(vkCreateShaderModule(dev, &ci, NULL, &m));
	return m;
}

/* What differs between the test programs' graphics pipelines. */
struct app_pipe {
	VkRenderPass rp;
	VkPipelineLayout layout;
	VkShaderModule vs, fs;
	uint32_t width, height;
	VkSampleCountFlagBits samples;
	int vertex_input;         /* binding 0: vec2 positions, 8 bytes a vertex */
	int color;                /* one color attachment is written */
	int colors;               /* more than one: this many color attachments are written */
	int ds_attachment;        /* the render pass has a depth/stencil attachment */
	int depth;                /* depth test and write (LESS_OR_EQUAL) */
	int stencil;              /* stencil test: always pass, increment */
	int blend;                /* alpha blending */
	int dynamic_vertex_input; /* vertex input is set by vkCmdSetVertexInputEXT */
	int dynamic_blend;        /* blending is off in the pipeline, enabled by
				     vkCmdSetColorBlendEnableEXT */
	int dynamic_stride;       /* the pipeline's vertex stride (a wrong 64) is replaced by
				     vkCmdBindVertexBuffers2EXT's */
	int no_color_writes;      /* colorWriteMask 0: the color attachment is not written */
	int dynamic_write_mask;   /* the color write mask is set by vkCmdSetColorWriteMaskEXT */
	int depth_write_only;     /* depth writes on with the depth test off: no depth access */
	const VkSpecializationInfo *fs_spec; /* the fragment shader's specialization, or NULL */
	VkShaderModule gs;                   /* a geometry shader between them, or none */
};

static inline VkPipeline app_pipeline(const struct app_pipe *o)
{
	VkPipelineShaderStageCreateInfo st[3] = {
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_VERTEX_BIT, o->vs, "main", NULL},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_FRAGMENT_BIT, o->fs, "main", o->fs_spec},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_GEOMETRY_BIT, o->gs, "main", NULL}};
	VkVertexInputBindingDescription b = {0, o->dynamic_stride ? 64 : 8,
					     VK_VERTEX_INPUT_RATE_VERTEX};
	VkVertexInputAttributeDescription a = {0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
	VkPipelineVertexInputStateCreateInfo vi = {
	    VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	if (o->vertex_input) {
		vi.vertexBindingDescriptionCount = 1;
		vi.pVertexBindingDescriptions = &b;
		vi.vertexAttributeDescriptionCount = 1;
		vi.pVertexAttributeDescriptions = &a;
	}
	VkPipelineInputAssemblyStateCreateInfo ia = {
	    VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, NULL, 0,
	    VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_FALSE};
	VkViewport vp = {0, 0, (float)o->width, (float)o->height, 0, 1};
	VkRect2D sc = {{0, 0}, {o->width, o->height}};
	VkPipelineViewportStateCreateInfo vps = {
	    VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, NULL, 0, 1, &vp, 1, &sc};
	VkPipelineRasterizationStateCreateInfo rs = {
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	rs.polygonMode = VK_POLYGON_MODE_FILL;
	rs.cullMode = VK_CULL_MODE_NONE;
	rs.lineWidth = 1;
	VkPipelineMultisampleStateCreateInfo ms = {
	    VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	ms.rasterizationSamples = o->samples ? o->samples : VK_SAMPLE_COUNT_1_BIT;
	VkPipelineDepthStencilStateCreateInfo ds = {
	    VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	ds.depthTestEnable = o->depth && !o->depth_write_only;
	ds.depthWriteEnable = o->depth || o->depth_write_only;
	ds.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
	ds.stencilTestEnable = o->stencil;
	ds.front = ds.back = (VkStencilOpState){VK_STENCIL_OP_KEEP,
						VK_STENCIL_OP_INCREMENT_AND_CLAMP,
						VK_STENCIL_OP_KEEP,
						VK_COMPARE_OP_ALWAYS,
						0xff,
						0xff,
						1};
	VkPipelineColorBlendAttachmentState cbas[4] = {{0}}, cba = {0};
	cba.colorWriteMask = o->no_color_writes ? 0 : 0xf;
	cba.blendEnable = o->blend && !o->dynamic_blend;
	cba.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
	cba.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
	cba.colorBlendOp = VK_BLEND_OP_ADD;
	cba.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
	cba.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
	cba.alphaBlendOp = VK_BLEND_OP_ADD;
	VkPipelineColorBlendStateCreateInfo cb = {
	    VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	cb.attachmentCount = o->colors > 1 ? (uint32_t)o->colors : o->color ? 1 : 0;
	for (uint32_t i = 0; i < cb.attachmentCount && i < 4; i++)
		cbas[i] = cba;
	cb.pAttachments = cbas;
	VkGraphicsPipelineCreateInfo ci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	ci.stageCount = o->gs ? 3 : 2;
	ci.pStages = st;
	ci.pVertexInputState = &vi;
	ci.pInputAssemblyState = &ia;
	ci.pViewportState = &vps;
	ci.pRasterizationState = &rs;
	ci.pMultisampleState = &ms;
	ci.pDepthStencilState = o->ds_attachment ? &ds : NULL;
	VkDynamicState dyn[4];
	VkPipelineDynamicStateCreateInfo dsi = {
	    VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, NULL, 0, 0, dyn};
	if (o->dynamic_vertex_input) {
		ci.pVertexInputState = NULL;
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_VERTEX_INPUT_EXT;
	}
	if (o->dynamic_blend)
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT;
	if (o->dynamic_stride)
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE_EXT;
	if (o->dynamic_write_mask)
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT;
	if (dsi.dynamicStateCount)
		ci.pDynamicState = &dsi;
	ci.pColorBlendState = &cb;
	ci.layout = o->layout;
	ci.renderPass = o->rp;
	VkPipeline p;
	CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
	return p;
}

/* Mip levels app_texture gives its texture (each level its own pattern, uploaded; 1: none) and
 * app_sampled_set's sampler then blends (a linear mip filter). */
static uint32_t app_tex_levels = 1;

/* An RGBA8 texture of size x size texels of a fixed pattern (app_tex_levels levels), uploaded by
 * a submission of its own and waited for; its view. */
static inline VkImageView app_texture(uint32_t size)
{
	VkDeviceMemory m_tex, m_up;
	app_levels = app_tex_levels;
	VkImage tex =
	    app_image(VK_FORMAT_R8G8B8A8_UNORM, size, size, VK_SAMPLE_COUNT_1_BIT,
		      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &m_tex);
	VkBuffer up =
	    app_buffer(size * size * 4 * 2, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, APP_HOST, &m_up);
	uint32_t *texels;
	CHECK(vkMapMemory(dev, m_up, 0, VK_WHOLE_SIZE, 0, (void **)&texels));
	for (uint32_t i = 0; i < size * size * 2; i++) /* every level's, one after another */
		texels[i] = 0xff000000u | (i * 2654435761u >> 8);
	vkUnmapMemory(dev, m_up);
	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
				       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, app_tex_levels, 0, 1};
	VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
				   NULL,
				   0,
				   VK_ACCESS_TRANSFER_WRITE_BIT,
				   VK_IMAGE_LAYOUT_UNDEFINED,
				   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				   VK_QUEUE_FAMILY_IGNORED,
				   VK_QUEUE_FAMILY_IGNORED,
				   tex,
				   all};
	CHECK(vkBeginCommandBuffer(cb, &bi));
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
			     0, 0, NULL, 0, NULL, 1, &ib);
	VkDeviceSize at = 0;
	for (uint32_t l = 0; l < app_tex_levels; l++) {
		uint32_t e = size >> l ? size >> l : 1;
		VkBufferImageCopy bic = {
		    at, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1}, {0, 0, 0}, {e, e, 1}};
		vkCmdCopyBufferToImage(cb, up, tex, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &bic);
		at += (VkDeviceSize)e * e * 4;
	}
	ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
	ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	ib.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
			     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	CHECK(vkEndCommandBuffer(cb));
	app_submit_wait(cb, fence);
	VkImageView v = app_view(tex, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	app_levels = 1;
	return v;
}

/* The filter app_sampled_set's sampler takes (a program may pick nearest before calling it). */
static VkFilter app_filter = VK_FILTER_LINEAR;

/* A descriptor set of the n (at most 8) bindings b, from a pool of its own sized from them, and
 * a pipeline layout of that set alone. */
static inline VkDescriptorSet app_set(const VkDescriptorSetLayoutBinding *b, uint32_t n,
				      VkPipelineLayout *layout)
{
	VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
					       NULL, 0, n, b};
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &dsl));
	VkDescriptorPoolSize ps[8];
	for (uint32_t i = 0; i < n && i < 8; i++)
		ps[i] = (VkDescriptorPoolSize){b[i].descriptorType, b[i].descriptorCount};
	VkDescriptorPoolCreateInfo pci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, n < 8 ? n : 8, ps};
	VkDescriptorPool dpool;
	CHECK(vkCreateDescriptorPool(dev, &pci, NULL, &dpool));
	VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					   dpool, 1, &dsl};
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(dev, &dai, &set));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0,
					   1, &dsl};
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, layout));
	return set;
}

/* A set with one combined image sampler (app_filter, repeat) of `view` for the fragment stage,
 * and a pipeline layout of that set alone. */
static inline VkDescriptorSet app_sampled_set(VkImageView view, VkPipelineLayout *layout)
{
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = app_filter;
	if (app_tex_levels > 1) /* trilinear: the two levels around the sample's */
		sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR, sci.maxLod = VK_LOD_CLAMP_NONE;
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	VkSampler sampler;
	CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkDescriptorSetLayoutBinding bind = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
					     VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
	VkDescriptorSet set = app_set(&bind, 1, layout);
	VkDescriptorImageInfo dii = {sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkWriteDescriptorSet wds = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    NULL, set, 0, 0, 1,
				    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &dii};
	vkUpdateDescriptorSets(dev, 1, &wds, 0, NULL);
	return set;
}

/* A render pass of one RGBA8 color attachment, not loaded, stored and left for a copy out. */
static inline VkRenderPass app_color_pass(void)
{
	VkAttachmentDescription att = {0,
				       VK_FORMAT_R8G8B8A8_UNORM,
				       VK_SAMPLE_COUNT_1_BIT,
				       VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				       VK_ATTACHMENT_STORE_OP_STORE,
				       VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				       VK_ATTACHMENT_STORE_OP_DONT_CARE,
				       VK_IMAGE_LAYOUT_UNDEFINED,
				       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &ref};
	VkRenderPassCreateInfo rpci = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 1, &att, 1, &sub};
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &rpci, NULL, &rp));
	return rp;
}

/* Sums the 32-bit words of a host-visible memory object into a running checksum. */
static inline uint64_t app_checksum(uint64_t sum, VkDeviceMemory mem, uint32_t words)
{
	void *p;
	CHECK(vkMapMemory(dev, mem, 0, (VkDeviceSize)words * 4, 0, &p));
	for (uint32_t i = 0; i < words; i++)
		sum = sum * 1099511628211ull + ((const uint32_t *)p)[i];
	vkUnmapMemory(dev, mem);
	return sum;
}

#endif

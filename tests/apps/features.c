/* features.c - a headless Vulkan program for capture tests, one submission a frame:
 *   1. a shadow pass renders a triangle's depth into a 128x128 D32 shadow map (depth only);
 *   2. the main pass draws into a 4x multisampled RGBA8 target with a 4x depth/stencil buffer
 *      (stencil test writing the stencil), resolving to a single-sample target at the end;
 *      its full-screen triangle samples the shadow map as a texture and blends (alpha) into
 *      the color target;
 *   3. the resolved target is copied to a host-visible buffer.
 * Prints a checksum of the read-back pixels.
 *
 * usage: features [FRAMES]   (default 2)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "depth.frag.h"
#include "fullscreen.vert.h"
#include "shadow.frag.h"
#include "tri.vert.h"

#define W 128
#define H 128
#define CHECK(x)                                                                                   \
	do {                                                                                       \
		VkResult r_ = (x);                                                                 \
		if (r_ != VK_SUCCESS) {                                                            \
			fprintf(stderr, "features: %s failed: %d\n", #x, r_);                      \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static VkDevice dev;
static VkPhysicalDevice pd;

static VkDeviceMemory bind(VkMemoryRequirements req, VkMemoryPropertyFlags want)
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
	fprintf(stderr, "features: no memory type\n");
	exit(1);
}

static VkImage image(VkFormat fmt, VkImageUsageFlags usage, VkSampleCountFlagBits samples,
		     VkDeviceMemory *mem)
{
	VkImageCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	VkImage img;
	VkMemoryRequirements req;
	ci.imageType = VK_IMAGE_TYPE_2D;
	ci.format = fmt;
	ci.extent = (VkExtent3D){W, H, 1};
	ci.mipLevels = 1;
	ci.arrayLayers = 1;
	ci.samples = samples;
	ci.tiling = VK_IMAGE_TILING_OPTIMAL;
	ci.usage = usage;
	CHECK(vkCreateImage(dev, &ci, NULL, &img));
	vkGetImageMemoryRequirements(dev, img, &req);
	*mem = bind(req, 0);
	CHECK(vkBindImageMemory(dev, img, *mem, 0));
	return img;
}

static VkImageView view(VkImage img, VkFormat fmt, VkImageAspectFlags aspect)
{
	VkImageViewCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	VkImageView v;
	ci.image = img;
	ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	ci.format = fmt;
	ci.subresourceRange = (VkImageSubresourceRange){aspect, 0, 1, 0, 1};
	CHECK(vkCreateImageView(dev, &ci, NULL, &v));
	return v;
}

static VkShaderModule shader(const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, size,
				       code};
	VkShaderModule m;
	CHECK(vkCreateShaderModule(dev, &ci, NULL, &m));
	return m;
}

static VkPipeline pipeline(VkRenderPass rp, VkPipelineLayout layout, VkShaderModule vs,
			   VkShaderModule fs, int vertex_input, int no_color,
			   VkSampleCountFlagBits samples, int stencil, int blend)
{
	VkPipelineShaderStageCreateInfo st[2] = {
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_VERTEX_BIT, vs, "main", NULL},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", NULL}};
	VkVertexInputBindingDescription b = {0, 8, VK_VERTEX_INPUT_RATE_VERTEX};
	VkVertexInputAttributeDescription a = {0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
	VkPipelineVertexInputStateCreateInfo vi = {
	    VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	if (vertex_input) {
		vi.vertexBindingDescriptionCount = 1;
		vi.pVertexBindingDescriptions = &b;
		vi.vertexAttributeDescriptionCount = 1;
		vi.pVertexAttributeDescriptions = &a;
	}
	VkPipelineInputAssemblyStateCreateInfo ia = {
	    VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, NULL, 0,
	    VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_FALSE};
	VkViewport vp = {0, 0, W, H, 0, 1};
	VkRect2D sc = {{0, 0}, {W, H}};
	VkPipelineViewportStateCreateInfo vps = {
	    VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, NULL, 0, 1, &vp, 1, &sc};
	VkPipelineRasterizationStateCreateInfo rs = {
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	rs.polygonMode = VK_POLYGON_MODE_FILL;
	rs.cullMode = VK_CULL_MODE_NONE;
	rs.lineWidth = 1;
	VkPipelineMultisampleStateCreateInfo ms = {
	    VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	ms.rasterizationSamples = samples;
	VkPipelineDepthStencilStateCreateInfo ds = {
	    VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	ds.depthTestEnable = !stencil;
	ds.depthWriteEnable = !stencil;
	ds.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
	ds.stencilTestEnable = stencil;
	ds.front = ds.back = (VkStencilOpState){VK_STENCIL_OP_KEEP,
						VK_STENCIL_OP_INCREMENT_AND_CLAMP,
						VK_STENCIL_OP_KEEP,
						VK_COMPARE_OP_ALWAYS,
						0xff,
						0xff,
						1};
	VkPipelineColorBlendAttachmentState cba = {0};
	cba.colorWriteMask = 0xf;
	cba.blendEnable = blend;
	cba.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
	cba.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
	cba.colorBlendOp = VK_BLEND_OP_ADD;
	cba.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
	cba.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
	cba.alphaBlendOp = VK_BLEND_OP_ADD;
	VkPipelineColorBlendStateCreateInfo cb = {
	    VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
	cb.attachmentCount = no_color ? 0 : 1;
	cb.pAttachments = &cba;
	VkGraphicsPipelineCreateInfo ci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	ci.stageCount = 2;
	ci.pStages = st;
	ci.pVertexInputState = &vi;
	ci.pInputAssemblyState = &ia;
	ci.pViewportState = &vps;
	ci.pRasterizationState = &rs;
	ci.pMultisampleState = &ms;
	ci.pDepthStencilState = &ds;
	ci.pColorBlendState = &cb;
	ci.layout = layout;
	ci.renderPass = rp;
	VkPipeline p;
	CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
	return p;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "features";
	app.apiVersion = VK_API_VERSION_1_1;
	VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ici.pApplicationInfo = &app;
	VkInstance inst;
	CHECK(vkCreateInstance(&ici, NULL, &inst));
	uint32_t n = 1;
	VkResult er = vkEnumeratePhysicalDevices(inst, &n, &pd);
	if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || !n)
		return 1;
	float prio = 1;
	VkDeviceQueueCreateInfo qci = {
	    VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
	VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	dci.queueCreateInfoCount = 1;
	dci.pQueueCreateInfos = &qci;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
	VkQueue q;
	vkGetDeviceQueue(dev, 0, 0, &q);

	/* a depth/stencil format with stencil that lavapipe can render to */
	VkFormat dsf = VK_FORMAT_D32_SFLOAT_S8_UINT;
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(pd, dsf, &fp);
	if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
		dsf = VK_FORMAT_D24_UNORM_S8_UINT;
	const VkSampleCountFlagBits S4 = VK_SAMPLE_COUNT_4_BIT;
	VkDeviceMemory mem[6];
	VkImage shadow =
	    image(VK_FORMAT_D32_SFLOAT,
		  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
		  VK_SAMPLE_COUNT_1_BIT, &mem[0]);
	VkImage msaa =
	    image(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, S4, &mem[1]);
	VkImage dsi = image(dsf, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, S4, &mem[2]);
	VkImage resolved =
	    image(VK_FORMAT_R8G8B8A8_UNORM,
		  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		  VK_SAMPLE_COUNT_1_BIT, &mem[3]);
	VkImageView shadow_v = view(shadow, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT);
	VkImageView msaa_v = view(msaa, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkImageView ds_v = view(dsi, dsf, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
	VkImageView res_v = view(resolved, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);

	VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	VkMemoryRequirements req;
	VkBuffer vb, rb;
	bci.size = 3 * 8;
	bci.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &vb));
	vkGetBufferMemoryRequirements(dev, vb, &req);
	VkMemoryPropertyFlags host =
	    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	mem[4] = bind(req, host);
	CHECK(vkBindBufferMemory(dev, vb, mem[4], 0));
	bci.size = W * H * 4;
	bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &rb));
	vkGetBufferMemoryRequirements(dev, rb, &req);
	mem[5] = bind(req, host);
	CHECK(vkBindBufferMemory(dev, rb, mem[5], 0));
	void *p;
	float tri[6] = {-0.9f, -0.9f, 0.9f, -0.5f, 0.0f, 0.9f};
	CHECK(vkMapMemory(dev, mem[4], 0, sizeof(tri), 0, &p));
	memcpy(p, tri, sizeof(tri));
	vkUnmapMemory(dev, mem[4]);

	/* render passes: the shadow pass (depth only, stored), the main pass (MSAA + resolve) */
	VkAttachmentDescription sa = {0,
				      VK_FORMAT_D32_SFLOAT,
				      VK_SAMPLE_COUNT_1_BIT,
				      VK_ATTACHMENT_LOAD_OP_CLEAR,
				      VK_ATTACHMENT_STORE_OP_STORE,
				      VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				      VK_ATTACHMENT_STORE_OP_DONT_CARE,
				      VK_IMAGE_LAYOUT_UNDEFINED,
				      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkAttachmentReference sref = {0, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription ssub = {
	    0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 0, NULL, NULL, &sref, 0, NULL};
	VkSubpassDependency sdep[2] = {
	    {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
	     VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, VK_ACCESS_SHADER_READ_BIT,
	     VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, 0},
	    {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
	     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
	     VK_ACCESS_SHADER_READ_BIT, 0}};
	VkRenderPassCreateInfo rpi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 1, &sa, 1, &ssub, 2, sdep};
	VkRenderPass rp_shadow, rp_main;
	CHECK(vkCreateRenderPass(dev, &rpi, NULL, &rp_shadow));
	VkAttachmentDescription ma[3] = {
	    {0, VK_FORMAT_R8G8B8A8_UNORM, S4, VK_ATTACHMENT_LOAD_OP_CLEAR,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
	    {0, dsf, S4, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
	     VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
	    {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkAttachmentReference rref = {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription msub = {
	    0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &cref, &rref, &dref, 0, NULL};
	VkSubpassDependency mdep[2] = {
	    {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
	     VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
	     VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, 0},
	    {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
	     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	     VK_ACCESS_TRANSFER_READ_BIT, 0}};
	rpi.attachmentCount = 3;
	rpi.pAttachments = ma;
	rpi.pSubpasses = &msub;
	rpi.pDependencies = mdep;
	CHECK(vkCreateRenderPass(dev, &rpi, NULL, &rp_main));
	VkFramebuffer fb_shadow, fb_main;
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp_shadow, 1, &shadow_v, W, H, 1};
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb_shadow));
	VkImageView mviews[3] = {msaa_v, ds_v, res_v};
	fci.renderPass = rp_main;
	fci.attachmentCount = 3;
	fci.pAttachments = mviews;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb_main));

	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler;
	CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkDescriptorSetLayoutBinding lb = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
					   VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
	VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
					       NULL, 0, 1, &lb};
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &dsl));
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
	VkDescriptorPoolCreateInfo dpci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps};
	VkDescriptorPool dpool;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dpool));
	VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					   dpool, 1, &dsl};
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(dev, &dai, &set));
	VkDescriptorImageInfo dii = {sampler, shadow_v, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkWriteDescriptorSet wr = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    NULL, set,  0,   0, 1,
				   VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &dii, NULL, NULL};
	vkUpdateDescriptorSets(dev, 1, &wr, 0, NULL);
	VkPipelineLayoutCreateInfo plci = {
	    VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &dsl, 0, NULL};
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	VkShaderModule s_tv = shader(spv_tri_vert, sizeof(spv_tri_vert));
	VkShaderModule s_df = shader(spv_depth_frag, sizeof(spv_depth_frag));
	VkShaderModule s_fv = shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	VkShaderModule s_sf = shader(spv_shadow_frag, sizeof(spv_shadow_frag));
	VkPipeline p_shadow =
	    pipeline(rp_shadow, layout, s_tv, s_df, 1, 1, VK_SAMPLE_COUNT_1_BIT, 0, 0);
	VkPipeline p_main = pipeline(rp_main, layout, s_fv, s_sf, 0, 0, S4, 1, 1);

	VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
				       VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 0};
	VkCommandPool pool;
	CHECK(vkCreateCommandPool(dev, &pci, NULL, &pool));
	VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
					   pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(dev, &cai, &cb));
	VkFenceCreateInfo fi = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	CHECK(vkCreateFence(dev, &fi, NULL, &fence));

	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		VkClearValue sc = {.depthStencil = {1, 0}};
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rp_shadow,
					     fb_shadow,
					     {{0, 0}, {W, H}},
					     1,
					     &sc};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p_shadow);
		VkDeviceSize off = 0;
		vkCmdBindVertexBuffers(cb, 0, 1, &vb, &off);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		VkClearValue mc[3];
		mc[0].color = (VkClearColorValue){{0.1f, 0.1f, 0.1f, 1}};
		mc[1].depthStencil = (VkClearDepthStencilValue){1, 0};
		mc[2].color = mc[0].color;
		rbi.renderPass = rp_main;
		rbi.framebuffer = fb_main;
		rbi.clearValueCount = 3;
		rbi.pClearValues = mc;
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p_main);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0,
					NULL);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy reg = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cb, resolved, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
				       &reg);
		CHECK(vkEndCommandBuffer(cb));
		VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb;
		CHECK(vkQueueSubmit(q, 1, &si, fence));
		CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
		CHECK(vkResetFences(dev, 1, &fence));
		CHECK(vkMapMemory(dev, mem[5], 0, W * H * 4, 0, &p));
		for (uint32_t i = 0; i < W * H; i++)
			sum = sum * 1099511628211ull + ((uint32_t *)p)[i];
		vkUnmapMemory(dev, mem[5]);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDeviceWaitIdle(dev);
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyPipeline(dev, p_shadow, NULL);
	vkDestroyPipeline(dev, p_main, NULL);
	VkShaderModule mods[4] = {s_tv, s_df, s_fv, s_sf};
	for (int i = 0; i < 4; i++)
		vkDestroyShaderModule(dev, mods[i], NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorPool(dev, dpool, NULL);
	vkDestroyDescriptorSetLayout(dev, dsl, NULL);
	vkDestroySampler(dev, sampler, NULL);
	vkDestroyFramebuffer(dev, fb_shadow, NULL);
	vkDestroyFramebuffer(dev, fb_main, NULL);
	vkDestroyRenderPass(dev, rp_shadow, NULL);
	vkDestroyRenderPass(dev, rp_main, NULL);
	VkImageView views[4] = {shadow_v, msaa_v, ds_v, res_v};
	for (int i = 0; i < 4; i++)
		vkDestroyImageView(dev, views[i], NULL);
	VkImage imgs[4] = {shadow, msaa, dsi, resolved};
	for (int i = 0; i < 4; i++)
		vkDestroyImage(dev, imgs[i], NULL);
	vkDestroyBuffer(dev, vb, NULL);
	vkDestroyBuffer(dev, rb, NULL);
	for (int i = 0; i < 6; i++)
		vkFreeMemory(dev, mem[i], NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

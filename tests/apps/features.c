/* features.c - a headless Vulkan program for capture tests, one submission a frame:
 *   1. a shadow pass renders a triangle's depth into a 128x128 D32 shadow map (depth only);
 *   2. the main pass draws into a 4x multisampled RGBA8 target with a 4x depth/stencil buffer
 *      (stencil test writing the stencil), resolving to a single-sample target at the end;
 *      its full-screen triangle samples the shadow map as a texture and blends (alpha) into
 *      the color target;
 *   3. the resolved target is copied to a host-visible buffer.
 * Prints a checksum of the read-back pixels.
 *
 * usage: features [FRAMES [dynvi|dynblend|dynstride|dynmask|geom|- [DEPTH_FILE]]]
 * (default 2 frames; with DEPTH_FILE frame 0's shadow map is copied out and written there,
 * 128x128 32-bit floats, rows top to bottom; dynvi: the
 * shadow pass takes its vertex input from vkCmdSetVertexInputEXT,
 * VK_EXT_vertex_input_dynamic_state, as Zink does; dynblend: the main pass's blending is off in its
 * pipeline and turned on by vkCmdSetColorBlendEnableEXT, VK_EXT_extended_dynamic_state3; dynstride:
 * the shadow pass's vertex stride comes from vkCmdBindVertexBuffers2EXT, the pipeline's is wrong;
 * dynmask: the main pass's color write mask is dynamic state, set to 0 by
 * vkCmdSetColorWriteMaskEXT: it writes no color; geom: the main pass's pipeline has a
 * pass-through geometry shader, pass_uv.geom)
 */
#include "vkapp.h"

#include "depth.frag.h"
#include "fullscreen.vert.h"
#include "pass_uv.geom.h"
#include "shadow.frag.h"
#include "tri.vert.h"

#define W 128
#define H 128

/* Long because a test program's main is its scenario: one Vulkan call after another in the
 * order they run, the objects each makes used by the next; split, they would travel through a
 * dozen parameters for no reader's gain. */
int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	const char *depth_file = argc > 3 ? argv[3] : NULL;
	int dynvi = argc > 2 && !strcmp(argv[2], "dynvi");
	VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vif = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT, NULL,
	    VK_TRUE};
	int dynblend = argc > 2 && !strcmp(argv[2], "dynblend");
	VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3 = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT};
	eds3.extendedDynamicState3ColorBlendEnable = VK_TRUE;
	int dynstride = argc > 2 && !strcmp(argv[2], "dynstride");
	int dynmask = argc > 2 && !strcmp(argv[2], "dynmask");
	int geom = argc > 2 && !strcmp(argv[2], "geom");
	VkPhysicalDeviceFeatures2 gf = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	gf.features.geometryShader = VK_TRUE;
	eds3.extendedDynamicState3ColorWriteMask = dynmask;
	VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT, NULL, VK_TRUE};
	const char *ext = dynvi                 ? VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME
			  : dynblend || dynmask ? VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME
			  : dynstride           ? VK_EXT_EXTENDED_DYNAMIC_STATE_EXTENSION_NAME
						: NULL;
	void *feat = dynvi                 ? (void *)&vif
		     : dynblend || dynmask ? (void *)&eds3
		     : dynstride           ? (void *)&eds
		     : geom                ? (void *)&gf
					   : NULL;
	app_open("features", 0, ext, feat);
	PFN_vkCmdBindVertexBuffers2EXT bind_vb2 =
	    dynstride ? (PFN_vkCmdBindVertexBuffers2EXT)vkGetDeviceProcAddr(
			    dev, "vkCmdBindVertexBuffers2EXT")
		      : NULL;
	PFN_vkCmdSetColorBlendEnableEXT set_blend =
	    dynblend ? (PFN_vkCmdSetColorBlendEnableEXT)vkGetDeviceProcAddr(
			   dev, "vkCmdSetColorBlendEnableEXT")
		     : NULL;
	PFN_vkCmdSetColorWriteMaskEXT set_write_mask =
	    dynmask ? (PFN_vkCmdSetColorWriteMaskEXT)vkGetDeviceProcAddr(
			  dev, "vkCmdSetColorWriteMaskEXT")
		    : NULL;
	PFN_vkCmdSetVertexInputEXT set_vertex_input =
	    dynvi ? (PFN_vkCmdSetVertexInputEXT)vkGetDeviceProcAddr(dev, "vkCmdSetVertexInputEXT")
		  : NULL;

	/* a depth/stencil format with stencil that lavapipe can render to */
	VkFormat dsf = VK_FORMAT_D32_SFLOAT_S8_UINT;
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(pd, dsf, &fp);
	if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
		dsf = VK_FORMAT_D24_UNORM_S8_UINT;
	const VkSampleCountFlagBits S4 = VK_SAMPLE_COUNT_4_BIT;
	VkDeviceMemory mem[6];
	VkImage shadow =
	    app_image(VK_FORMAT_D32_SFLOAT, W, H, VK_SAMPLE_COUNT_1_BIT,
		      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
			  (depth_file ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0),
		      &mem[0]);
	VkImage msaa = app_image(VK_FORMAT_R8G8B8A8_UNORM, W, H, S4,
				 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &mem[1]);
	VkImage dsi =
	    app_image(dsf, W, H, S4, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &mem[2]);
	VkImage resolved = app_image(
	    VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &mem[3]);
	VkImageView shadow_v = app_view(shadow, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT);
	VkImageView msaa_v = app_view(msaa, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkImageView ds_v =
	    app_view(dsi, dsf, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
	VkImageView res_v = app_view(resolved, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);

	VkBuffer vb = app_buffer(3 * 8, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, APP_HOST, &mem[4]);
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &mem[5]);
	VkDeviceMemory dm = VK_NULL_HANDLE;
	VkBuffer db = depth_file
			  ? app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &dm)
			  : VK_NULL_HANDLE;
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
	VkShaderModule s_tv = app_shader(spv_tri_vert, sizeof(spv_tri_vert));
	VkShaderModule s_df = app_shader(spv_depth_frag, sizeof(spv_depth_frag));
	VkShaderModule s_fv = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	VkShaderModule s_sf = app_shader(spv_shadow_frag, sizeof(spv_shadow_frag));
	VkShaderModule s_gs =
	    geom ? app_shader(spv_pass_uv_geom, sizeof(spv_pass_uv_geom)) : VK_NULL_HANDLE;
	/* the shadow pass: vertices in, depth test and write, no color */
	struct app_pipe po = {rp_shadow, layout, s_tv, s_df, W, H, VK_SAMPLE_COUNT_1_BIT};
	po.vertex_input = 1;
	po.dynamic_vertex_input = dynvi;
	po.dynamic_stride = dynstride;
	po.ds_attachment = 1;
	po.depth = 1;
	VkPipeline p_shadow = app_pipeline(&po);
	/* the main pass: full-screen triangle, stencil increment, blended color */
	po = (struct app_pipe){rp_main, layout, s_fv, s_sf, W, H, S4};
	po.color = 1;
	po.ds_attachment = 1;
	po.stencil = 1;
	po.blend = 1;
	po.dynamic_blend = dynblend;
	po.dynamic_write_mask = dynmask;
	po.gs = s_gs;
	VkPipeline p_main = app_pipeline(&po);

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();

	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		if (f % 2) /* re-recorded for simultaneous use, as some programs do */
			bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
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
		VkDeviceSize stride = 8;
		if (bind_vb2)
			bind_vb2(cb, 0, 1, &vb, &off, NULL, &stride);
		else
			vkCmdBindVertexBuffers(cb, 0, 1, &vb, &off);
		if (set_vertex_input) {
			VkVertexInputBindingDescription2EXT vb2 = {
			    VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT,
			    NULL,
			    0,
			    8,
			    VK_VERTEX_INPUT_RATE_VERTEX,
			    1};
			VkVertexInputAttributeDescription2EXT va2 = {
			    VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT,
			    NULL,
			    0,
			    0,
			    VK_FORMAT_R32G32_SFLOAT,
			    0};
			set_vertex_input(cb, 1, &vb2, 1, &va2);
		}
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
		if (set_blend) {
			VkBool32 on = VK_TRUE;
			set_blend(cb, 0, 1, &on);
		}
		if (set_write_mask) { /* the main pass writes no color */
			VkColorComponentFlags none = 0;
			set_write_mask(cb, 0, 1, &none);
		}
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0,
					NULL);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy reg = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cb, resolved, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
				       &reg);
		if (depth_file && f == 0) { /* the shadow map, out */
			VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
						   NULL,
						   VK_ACCESS_SHADER_READ_BIT,
						   VK_ACCESS_TRANSFER_READ_BIT,
						   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
						   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
						   VK_QUEUE_FAMILY_IGNORED,
						   VK_QUEUE_FAMILY_IGNORED,
						   shadow,
						   {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
					     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1,
					     &ib);
			reg.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
			vkCmdCopyImageToBuffer(cb, shadow, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, db,
					       1, &reg);
		}
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
		sum = app_checksum(sum, mem[5], W * H);
		if (depth_file && f == 0) {
			FILE *out = fopen(depth_file, "wb");
			CHECK(vkMapMemory(dev, dm, 0, W * H * 4, 0, &p));
			if (!out || fwrite(p, 4, W * H, out) != W * H || fclose(out)) {
				fprintf(stderr, "features: cannot write '%s'\n", depth_file);
				return 1;
			}
			vkUnmapMemory(dev, dm);
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDeviceWaitIdle(dev);
	vkDestroyFence(dev, fence, NULL);
	if (db) {
		vkDestroyBuffer(dev, db, NULL);
		vkFreeMemory(dev, dm, NULL);
	}
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyPipeline(dev, p_shadow, NULL);
	vkDestroyPipeline(dev, p_main, NULL);
	VkShaderModule mods[4] = {s_tv, s_df, s_fv, s_sf};
	for (int i = 0; i < 4; i++)
		vkDestroyShaderModule(dev, mods[i], NULL);
	if (s_gs)
		vkDestroyShaderModule(dev, s_gs, NULL);
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

/* deferred.c - a headless Vulkan program shaped as a deferred renderer, for the pass-to-pass
 * reuse tests (replay --flow). Each frame (one submission), at 256x256:
 *   1. G-buffer pass: a full-screen triangle writes albedo, normal and material (three RGBA8
 *      attachments, 256 KiB each) and its depth (D32, 256 KiB), depth-tested;
 *   2. light pass: a full-screen triangle whose every pixel fetches its own texel of the three
 *      G-buffer attachments and the depth buffer (texelFetch: one texel each) into an RGBA8
 *      target;
 *   3. blur pass: a full-screen triangle whose every pixel fetches three texels of the light
 *      pass's output (itself and its left and right neighbours) into an RGBA8 target;
 *   4. that target is copied to a host-visible buffer.
 * So the light pass reads each G-buffer texel once and the blur reads every texel the light
 * pass wrote. Prints a checksum of the read-back pixels.
 *   deferred [FRAMES [multi|multi-drawid]]   (default 2; multi: the light pass is one
 *   vkCmdDrawMultiEXT of two sub-draws of the same triangle, VK_EXT_multi_draw, as Zink draws
 *   glMultiDrawArrays: each G-buffer texel is fetched twice; multi-drawid: the same, its vertex
 *   shader reading gl_DrawID, which keeps a capture layer from sending the sub-draws down one
 *   at a time) */
#include "vkapp.h"

#include "blur.frag.h"
#include "drawid.vert.h"
#include "fullscreen.vert.h"
#include "gbuf.frag.h"
#include "light.frag.h"

#define W 256
#define H 256
#define COLOR VK_FORMAT_R8G8B8A8_UNORM
#define DEPTH VK_FORMAT_D32_SFLOAT

/* A render pass of n_color RGBA8 attachments (and a D32 one if depth), cleared and stored, left
 * for sampling by the passes after it. */
static VkRenderPass pass(uint32_t n_color, int depth)
{
	VkAttachmentDescription att[5];
	VkAttachmentReference ref[4],
	    dref = {n_color, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	for (uint32_t i = 0; i < n_color + (depth != 0); i++) {
		int d = i == n_color;
		att[i] = (VkAttachmentDescription){0,
						   d ? DEPTH : COLOR,
						   VK_SAMPLE_COUNT_1_BIT,
						   VK_ATTACHMENT_LOAD_OP_CLEAR,
						   VK_ATTACHMENT_STORE_OP_STORE,
						   VK_ATTACHMENT_LOAD_OP_DONT_CARE,
						   VK_ATTACHMENT_STORE_OP_DONT_CARE,
						   VK_IMAGE_LAYOUT_UNDEFINED,
						   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
		if (!d)
			ref[i] =
			    (VkAttachmentReference){i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	}
	VkSubpassDescription sub = {
	    0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, n_color, ref, NULL, depth ? &dref : NULL};
	/* what the pass wrote is read by the fragment shaders of the passes after it */
	VkSubpassDependency dep = {0,
				   VK_SUBPASS_EXTERNAL,
				   VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
				       VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
				   VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
				   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
				       VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
				   VK_ACCESS_SHADER_READ_BIT,
				   0};
	VkRenderPassCreateInfo ci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				     NULL,
				     0,
				     n_color + (depth != 0),
				     att,
				     1,
				     &sub,
				     1,
				     &dep};
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &ci, NULL, &rp));
	return rp;
}

/* A set of n combined image samplers (nearest) in binding 0, for the fragment stage, and a
 * pipeline layout of it. */
static VkDescriptorSet samplers(const VkImageView *views, uint32_t n, VkPipelineLayout *layout)
{
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler;
	CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkDescriptorSetLayoutBinding bind = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n,
					     VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
	VkDescriptorSet set = app_set(&bind, 1, layout);
	VkDescriptorImageInfo dii[4];
	for (uint32_t i = 0; i < n; i++)
		dii[i] = (VkDescriptorImageInfo){sampler, views[i],
						 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkWriteDescriptorSet wds = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    NULL, set, 0, 0, n,
				    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, dii};
	vkUpdateDescriptorSets(dev, 1, &wds, 0, NULL);
	return set;
}

static VkFramebuffer framebuffer(VkRenderPass rp, const VkImageView *views, uint32_t n)
{
	VkFramebufferCreateInfo ci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, n, views, W, H, 1};
	VkFramebuffer fb;
	CHECK(vkCreateFramebuffer(dev, &ci, NULL, &fb));
	return fb;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	int drawid = argc > 2 && !strcmp(argv[2], "multi-drawid");
	int multi = drawid || (argc > 2 && !strcmp(argv[2], "multi"));
	VkPhysicalDeviceShaderDrawParametersFeatures dpf = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, NULL, VK_TRUE};
	VkPhysicalDeviceMultiDrawFeaturesEXT mdf = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT, drawid ? &dpf : NULL,
	    VK_TRUE};
	app_open("deferred", 0, multi ? VK_EXT_MULTI_DRAW_EXTENSION_NAME : NULL,
		 multi ? &mdf : NULL);
	PFN_vkCmdDrawMultiEXT draw_multi =
	    multi ? (PFN_vkCmdDrawMultiEXT)vkGetDeviceProcAddr(dev, "vkCmdDrawMultiEXT") : NULL;
	if (multi && !draw_multi) {
		fprintf(stderr, "deferred: no vkCmdDrawMultiEXT\n");
		return 1;
	}
	const VkMultiDrawInfoEXT twice[2] = {{0, 3}, {0, 3}};
	VkDeviceMemory mem[6], m_rb;
	VkImage img[6]; /* albedo, normal, material, depth; lit; out */
	VkImageView view[6];
	const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT;
	for (int i = 0; i < 6; i++) {
		int d = i == 3;
		img[i] = app_image(d ? DEPTH : COLOR, W, H, VK_SAMPLE_COUNT_1_BIT,
				   (d ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
				      : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) |
				       (i == 5 ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : sampled),
				   &mem[i]);
		view[i] = app_view(img[i], d ? DEPTH : COLOR,
				   d ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT);
	}
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &m_rb);
	VkRenderPass rp_g = pass(3, 1), rp_l = pass(1, 0), rp_b = app_color_pass();
	VkFramebuffer fb_g = framebuffer(rp_g, view, 4), fb_l = framebuffer(rp_l, &view[4], 1),
		      fb_b = framebuffer(rp_b, &view[5], 1);
	VkPipelineLayout lay_g, lay_l, lay_b;
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &lay_g));
	VkDescriptorSet set_l = samplers(view, 4, &lay_l), set_b = samplers(&view[4], 1, &lay_b);
	VkShaderModule vs = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	struct app_pipe g = {.rp = rp_g,
			     .layout = lay_g,
			     .vs = vs,
			     .fs = app_shader(spv_gbuf_frag, sizeof(spv_gbuf_frag)),
			     .width = W,
			     .height = H,
			     .colors = 3,
			     .ds_attachment = 1,
			     .depth = 1};
	struct app_pipe l = {.rp = rp_l,
			     .layout = lay_l,
			     .vs =
				 drawid ? app_shader(spv_drawid_vert, sizeof(spv_drawid_vert)) : vs,
			     .fs = app_shader(spv_light_frag, sizeof(spv_light_frag)),
			     .width = W,
			     .height = H,
			     .color = 1};
	struct app_pipe b = l;
	b.rp = rp_b;
	b.layout = lay_b;
	b.vs = vs;
	b.fs = app_shader(spv_blur_frag, sizeof(spv_blur_frag));
	VkPipeline pipe_g = app_pipeline(&g), pipe_l = app_pipeline(&l), pipe_b = app_pipeline(&b);

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	VkClearValue clear[4] = {{.color = {{0, 0, 0, 1}}},
				 {.color = {{0, 0, 0, 1}}},
				 {.color = {{0, 0, 0, 1}}},
				 {.depthStencil = {1, 0}}};
	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
					       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rp_g,
					     fb_g,
					     {{0, 0}, {W, H}},
					     4,
					     clear};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe_g);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		rbi.renderPass = rp_l, rbi.framebuffer = fb_l, rbi.clearValueCount = 1;
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe_l);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, lay_l, 0, 1, &set_l, 0,
					NULL);
		if (multi)
			draw_multi(cb, 2, twice, 1, 0, sizeof(twice[0]));
		else
			vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		rbi.renderPass = rp_b, rbi.framebuffer = fb_b, rbi.clearValueCount = 0;
		rbi.pClearValues = NULL;
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe_b);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, lay_b, 0, 1, &set_b, 0,
					NULL);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		rbi.pClearValues = clear;
		VkBufferImageCopy bic = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cb, img[5], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
				       &bic);
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
		sum = app_checksum(sum, m_rb, W * H);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

/* ahead.c - a headless Vulkan program that queues frames ahead as Zink does on lavapipe, with a
 * draw whose texture reads outgrow tier 3's first record room: each frame a full-screen triangle
 * samples a 64x64 texture into a 1280x1024 target (1,310,720 samples, over the 1 Mi records a
 * command buffer first gets), recorded afresh into one of eight command buffers in turn (more than
 * tier 3's twin lead of four frames, so the range's first buffers have run no lead frame
 * themselves) and submitted with that buffer's fence, which is waited for only when the buffer
 * comes round again. What Neverball broke: the range's first frames were recorded before any
 * execution of the twin lead had finished, so their draws lost most of their records. Prints a
 * checksum of the last frame's target. With DRAWS, the triangle is drawn that many times a frame
 * (the same image): a command buffer whose draws together want more records than one room of
 * LLCT_CAPTURE_DRAW_ROOM holds, each draw fitting in one (what Minetest's 121 M texture reads in one
 * submission need: its draws spread over several rooms).
 *
 * usage: ahead [FRAMES [DRAWS]] (default 12, 1) */
#include "vkapp.h"

#include "fullscreen.vert.h"
#include "sample.frag.h"

#define W 1280
#define H 1024
#define TEX 64
#define RING 8

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 12, draws = argc > 2 ? atoi(argv[2]) : 1;
	app_open("ahead", 0, NULL, NULL);
	VkDeviceMemory m_tex, m_out, m_up, m_rb;
	VkImage tex =
	    app_image(VK_FORMAT_R8G8B8A8_UNORM, TEX, TEX, VK_SAMPLE_COUNT_1_BIT,
		      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, &m_tex);
	VkImage out = app_image(
	    VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &m_out);
	VkBuffer up = app_buffer(TEX * TEX * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, APP_HOST, &m_up);
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &m_rb);
	uint32_t *texels;
	CHECK(vkMapMemory(dev, m_up, 0, VK_WHOLE_SIZE, 0, (void **)&texels));
	for (uint32_t i = 0; i < TEX * TEX; i++)
		texels[i] = 0xff000000u | (i * 2654435761u >> 8);
	vkUnmapMemory(dev, m_up);
	VkImageView tex_view = app_view(tex, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkImageView out_view = app_view(out, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);

	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	VkSampler sampler;
	CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkDescriptorSetLayoutBinding bind = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
					     VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
	VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
					       NULL, 0, 1, &bind};
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &dsl));
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
	VkDescriptorPoolCreateInfo pci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps};
	VkDescriptorPool dpool;
	CHECK(vkCreateDescriptorPool(dev, &pci, NULL, &dpool));
	VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					   dpool, 1, &dsl};
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(dev, &dai, &set));
	VkDescriptorImageInfo dii = {sampler, tex_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkWriteDescriptorSet wds = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    NULL, set, 0, 0, 1,
				    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &dii};
	vkUpdateDescriptorSets(dev, 1, &wds, 0, NULL);
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0,
					   1, &dsl};
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));

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
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, 1, &out_view, W, H, 1};
	VkFramebuffer fb;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb));
	struct app_pipe po = {0};
	po.rp = rp, po.layout = layout, po.width = W, po.height = H, po.color = 1;
	po.vs = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	po.fs = app_shader(spv_sample_frag, sizeof(spv_sample_frag));
	VkPipeline pipe = app_pipeline(&po);

	/* the texture's upload, waited for (a submission, and so a frame, of its own) */
	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cbs[RING];
	VkFence fences[RING];
	for (int i = 0; i < RING; i++)
		cbs[i] = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY),
		fences[i] = app_fence();
	VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
				       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
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
	CHECK(vkBeginCommandBuffer(cbs[0], &bi));
	vkCmdPipelineBarrier(cbs[0], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
			     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	VkBufferImageCopy bic = {
	    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {TEX, TEX, 1}};
	vkCmdCopyBufferToImage(cbs[0], up, tex, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &bic);
	ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
	ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	ib.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	vkCmdPipelineBarrier(cbs[0], VK_PIPELINE_STAGE_TRANSFER_BIT,
			     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	CHECK(vkEndCommandBuffer(cbs[0]));
	app_submit_wait(cbs[0], fences[0]);

	/* the frames: buffer f % RING recorded afresh and submitted; its fence waited for only
	   when it comes round again, so up to RING frames are in flight */
	int pending[RING] = {0};
	for (int f = 0; f < frames; f++) {
		int k = f % RING;
		if (pending[k]) {
			CHECK(vkWaitForFences(dev, 1, &fences[k], VK_TRUE, UINT64_MAX));
			CHECK(vkResetFences(dev, 1, &fences[k]));
		}
		CHECK(vkResetCommandBuffer(cbs[k], 0));
		CHECK(vkBeginCommandBuffer(cbs[k], &bi));
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rp,
					     fb,
					     {{0, 0}, {W, H}},
					     0,
					     NULL};
		vkCmdBeginRenderPass(cbs[k], &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cbs[k], VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindDescriptorSets(cbs[k], VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set,
					0, NULL);
		for (int d = 0; d < draws; d++)
			vkCmdDraw(cbs[k], 3, 1, 0, 0);
		vkCmdEndRenderPass(cbs[k]);
		VkBufferImageCopy rbc = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cbs[k], out, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
				       &rbc);
		CHECK(vkEndCommandBuffer(cbs[k]));
		VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cbs[k];
		CHECK(vkQueueSubmit(queue, 1, &si, fences[k]));
		pending[k] = 1;
	}
	CHECK(vkQueueWaitIdle(queue));
	printf("checksum %016llx\n", (unsigned long long)app_checksum(0, m_rb, W * H));
	vkDeviceWaitIdle(dev);
	return 0;
}

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
 * LLCT_CAPTURE_DRAW_ROOM holds, each draw fitting in one (what Minetest's 121 M texture reads in
 * one submission need: its draws spread over several rooms). With "wide", the triangle samples
 * six times a pixel (7,864,320 samples a draw: past the 6.7 M records of a record room bound as
 * a storage buffer within lavapipe's 128 MiB maxStorageBufferRange, as Minetest's and 0 A.D.'s
 * biggest draws are; tier 3 reaches its rooms by device address so that one can hold them).
 *
 * With "nearest", the texture is sampled with nearest filtering (one texel a sample: where a
 * pixel's texel and its bilinear pair fall in different lines, tier 3's coalescing must tell).
 *
 * With "mips", a 4096x4096 texture of 13 levels (each its own pattern) is minified onto the
 * target (about 3.2 texels a pixel: levels 1 and 2, blended) with a linear mip filter.
 *
 * usage: ahead [FRAMES [DRAWS [wide|nearest|mips]]] (default 12, 1) */
#include "vkapp.h"

#include "fullscreen.vert.h"
#include "sample.frag.h"
#include "sample6.frag.h"

#define W 1280
#define H 1024
#define TEX 64
#define RING 8

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 12, draws = argc > 2 ? atoi(argv[2]) : 1;
	int wide = argc > 3 && !strcmp(argv[3], "wide");
	if (argc > 3 && !strcmp(argv[3], "nearest"))
		app_filter = VK_FILTER_NEAREST;
	int mips = argc > 3 && !strcmp(argv[3], "mips");
	if (mips) /* a 4096x4096 texture of 13 levels over the target: minified, trilinear */
		app_tex_levels = 13;
	app_open("ahead", 0, NULL, NULL);
	VkDeviceMemory m_out, m_rb;
	/* the texture's upload, waited for (a submission, and so a frame, of its own) */
	VkImageView tex_view = app_texture(mips ? 4096 : TEX);
	VkImage out = app_image(
	    VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &m_out);
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &m_rb);
	VkImageView out_view = app_view(out, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkPipelineLayout layout;
	VkDescriptorSet set = app_sampled_set(tex_view, &layout);
	VkRenderPass rp = app_color_pass();
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, 1, &out_view, W, H, 1};
	VkFramebuffer fb;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb));
	struct app_pipe po = {0};
	po.rp = rp, po.layout = layout, po.width = W, po.height = H, po.color = 1;
	po.vs = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	po.fs = wide ? app_shader(spv_sample6_frag, sizeof(spv_sample6_frag))
		     : app_shader(spv_sample_frag, sizeof(spv_sample_frag));
	VkPipeline pipe = app_pipeline(&po);

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cbs[RING];
	VkFence fences[RING];
	for (int i = 0; i < RING; i++)
		cbs[i] = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY),
		fences[i] = app_fence();
	VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
				       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};

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

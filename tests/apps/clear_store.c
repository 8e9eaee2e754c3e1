/* clear_store.c - a headless Vulkan program for capture tests: each frame clears and stores a
 * 256x256 D32 depth and RGBA8 color target in a render pass, optionally clears a second color
 * image with vkCmdClearColorImage and copies the color target to a host-visible buffer, then
 * submits once (so the submit boundary gives one frame per loop). Prints a checksum of the
 * read-back pixels, which must not change when the capture layer is on.
 *
 * usage: clear_store [FRAMES [CRASH_AFTER [LABELS]]]   (default 3 frames; with CRASH_AFTER > 0
 * the program aborts right after submitting that many frames, to test a capture cut short;
 * with LABELS = 1 each frame is two submissions, the first opening with a debug-utils label
 * "frame", to test the label frame boundary)
 */
#include "vkapp.h"

#define W 256
#define H 256

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 3;
	int crash_after = argc > 2 ? atoi(argv[2]) : -1;
	int labels = argc > 3 && atoi(argv[3]) == 1;
	app_open("clear_store", labels, NULL, NULL);
	VkQueue q = queue;

	VkDeviceMemory m1, m2, m3, rbm;
	VkImage depth = app_image(VK_FORMAT_D32_SFLOAT, W, H, VK_SAMPLE_COUNT_1_BIT,
				  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &m1);
	VkImage color =
	    app_image(VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
		      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &m2);
	VkImage other =
	    app_image(VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
		      VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, &m3);
	VkImageView dv = app_view(depth, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT);
	VkImageView cv = app_view(color, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &rbm);

	VkAttachmentDescription att[2] = {
	    {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
	     VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
	    {0, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
	     VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {
	    0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &cref, NULL, &dref, 0, NULL};
	VkRenderPassCreateInfo rpi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 2, att, 1, &sub, 0, NULL};
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &rpi, NULL, &rp));
	VkImageView views[2] = {cv, dv};
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, 2, views, W, H, 1};
	VkFramebuffer fb;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb));

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();

	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		if (labels) {
			PFN_vkCmdBeginDebugUtilsLabelEXT begin =
			    (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(
				inst, "vkCmdBeginDebugUtilsLabelEXT");
			PFN_vkCmdEndDebugUtilsLabelEXT end =
			    (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(
				inst, "vkCmdEndDebugUtilsLabelEXT");
			VkDebugUtilsLabelEXT l = {
			    VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, NULL, "frame", {0, 0, 0, 0}};
			begin(cb, &l);
			end(cb);
		}
		/* clear a second image outside any render pass */
		VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		ib.srcAccessMask = 0;
		ib.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		ib.image = other;
		ib.subresourceRange =
		    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
				     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
		VkClearColorValue grey = {{0.5f, 0.5f, 0.5f, 1.0f}};
		vkCmdClearColorImage(cb, other, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1,
				     &ib.subresourceRange);
		VkClearValue cv2[2];
		cv2[0].color = (VkClearColorValue){{0.1f * (float)f, 0.2f, 0.3f, 1.0f}};
		cv2[1].depthStencil = (VkClearDepthStencilValue){1.0f, 0};
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rp,
					     fb,
					     {{0, 0}, {W, H}},
					     2,
					     cv2};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdEndRenderPass(cb);
		if (labels) { /* the copy in a second submission of the same frame */
			CHECK(vkEndCommandBuffer(cb));
			VkSubmitInfo s1 = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
			s1.commandBufferCount = 1;
			s1.pCommandBuffers = &cb;
			CHECK(vkQueueSubmit(q, 1, &s1, fence));
			CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
			CHECK(vkResetFences(dev, 1, &fence));
			CHECK(vkBeginCommandBuffer(cb, &bi));
		}
		VkBufferImageCopy reg = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cb, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
				       &reg);
		CHECK(vkEndCommandBuffer(cb));
		VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb;
		CHECK(vkQueueSubmit(q, 1, &si, fence));
		if (f + 1 == crash_after)
			abort();
		CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
		CHECK(vkResetFences(dev, 1, &fence));
		sum = app_checksum(sum, rbm, W * H);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);

	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyFramebuffer(dev, fb, NULL);
	vkDestroyRenderPass(dev, rp, NULL);
	vkDestroyImageView(dev, dv, NULL);
	vkDestroyImageView(dev, cv, NULL);
	vkDestroyImage(dev, depth, NULL);
	vkDestroyImage(dev, color, NULL);
	vkDestroyImage(dev, other, NULL);
	vkDestroyBuffer(dev, rb, NULL);
	vkFreeMemory(dev, m1, NULL);
	vkFreeMemory(dev, m2, NULL);
	vkFreeMemory(dev, m3, NULL);
	vkFreeMemory(dev, rbm, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

/* window.c - a windowed Vulkan program for capture tests (present boundary): an X11 window
 * through XCB, a 256x256 swapchain, and each frame one render pass that clears the acquired
 * swapchain image (a color that changes with the frame) and stores it, a copy of the image to
 * a host-visible buffer, and a present; the command pool is reset whole each frame. Prints a
 * checksum of the read-back pixels.
 *
 * usage: window [FRAMES]   (default 3; needs DISPLAY, e.g. a private Xvfb)
 */
#include <xcb/xcb.h>

/* vulkan.h declares the XCB surface commands with this defined (xcb.h first) */
#define VK_USE_PLATFORM_XCB_KHR
#include "vkapp.h"

#define W 256
#define H 256
#define MAX_IMAGES 8

/* Long because a test program's main is its scenario: one Vulkan call after another in the
 * order they run, the objects each makes used by the next; split, they would travel through a
 * dozen parameters for no reader's gain. */
int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 3;
	xcb_connection_t *xc = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(xc)) {
		fprintf(stderr, "window: cannot open the X display (DISPLAY=%s)\n",
			getenv("DISPLAY") ? getenv("DISPLAY") : "");
		return 1;
	}
	xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(xc)).data;
	xcb_window_t win = xcb_generate_id(xc);
	xcb_create_window(xc, XCB_COPY_FROM_PARENT, win, screen->root, 0, 0, W, H, 0,
			  XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, NULL);
	xcb_map_window(xc, win);
	xcb_flush(xc);

	app_inst_ext = VK_KHR_SURFACE_EXTENSION_NAME "," VK_KHR_XCB_SURFACE_EXTENSION_NAME;
	app_open("window", 0, VK_KHR_SWAPCHAIN_EXTENSION_NAME, NULL);
	VkXcbSurfaceCreateInfoKHR sci = {VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR, NULL, 0, xc,
					 win};
	VkSurfaceKHR surf;
	CHECK(vkCreateXcbSurfaceKHR(inst, &sci, NULL, &surf));
	VkBool32 can_present = VK_FALSE;
	CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, 0, surf, &can_present));
	if (!can_present) {
		fprintf(stderr, "window: queue family 0 cannot present\n");
		return 1;
	}
	VkSurfaceCapabilitiesKHR caps;
	CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surf, &caps));
	uint32_t nf = 1;
	VkSurfaceFormatKHR fmt;
	VkResult fr = vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surf, &nf, &fmt);
	if ((fr != VK_SUCCESS && fr != VK_INCOMPLETE) || !nf) {
		fprintf(stderr, "window: no surface format\n");
		return 1;
	}
	VkSwapchainCreateInfoKHR swi = {VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
	swi.surface = surf;
	swi.minImageCount = caps.minImageCount > 2 ? caps.minImageCount : 2;
	if (caps.maxImageCount && swi.minImageCount > caps.maxImageCount)
		swi.minImageCount = caps.maxImageCount;
	swi.imageFormat = fmt.format;
	swi.imageColorSpace = fmt.colorSpace;
	swi.imageExtent = (VkExtent2D){W, H};
	swi.imageArrayLayers = 1;
	swi.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	swi.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
	swi.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	swi.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
	swi.presentMode = VK_PRESENT_MODE_FIFO_KHR;
	swi.clipped = VK_TRUE;
	VkSwapchainKHR swap;
	CHECK(vkCreateSwapchainKHR(dev, &swi, NULL, &swap));
	uint32_t n_img = MAX_IMAGES;
	VkImage img[MAX_IMAGES];
	VkResult ir = vkGetSwapchainImagesKHR(dev, swap, &n_img, img);
	if (ir != VK_SUCCESS && ir != VK_INCOMPLETE)
		CHECK(ir);

	/* clear and store; the image is copied out before it is presented */
	VkAttachmentDescription att = {0,
				       fmt.format,
				       VK_SAMPLE_COUNT_1_BIT,
				       VK_ATTACHMENT_LOAD_OP_CLEAR,
				       VK_ATTACHMENT_STORE_OP_STORE,
				       VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				       VK_ATTACHMENT_STORE_OP_DONT_CARE,
				       VK_IMAGE_LAYOUT_UNDEFINED,
				       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &ref};
	VkSubpassDependency deps[2] = {
	    {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
	     VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	     0},
	    {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
	     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	     VK_ACCESS_TRANSFER_READ_BIT, 0}};
	VkRenderPassCreateInfo rpi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 1, &att, 1, &sub, 2, deps};
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &rpi, NULL, &rp));
	VkImageView view[MAX_IMAGES];
	VkFramebuffer fb[MAX_IMAGES];
	for (uint32_t i = 0; i < n_img; i++) {
		view[i] = app_view(img[i], fmt.format, VK_IMAGE_ASPECT_COLOR_BIT);
		VkFramebufferCreateInfo fci = {
		    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, 1, &view[i], W, H, 1};
		CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb[i]));
	}
	VkDeviceMemory m_rb;
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &m_rb);

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkSemaphoreCreateInfo smi = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	VkSemaphore acquired, rendered;
	CHECK(vkCreateSemaphore(dev, &smi, NULL, &acquired));
	CHECK(vkCreateSemaphore(dev, &smi, NULL, &rendered));
	VkFence fence = app_fence();

	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		uint32_t k;
		CHECK(vkAcquireNextImageKHR(dev, swap, UINT64_MAX, acquired, VK_NULL_HANDLE, &k));
		CHECK(vkResetCommandPool(dev, pool, 0)); /* the whole pool, as many engines do */
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		VkClearValue cv;
		cv.color = (VkClearColorValue){{0.1f * (float)(f % 8), 0.5f, 0.25f, 1}};
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rp,
					     fb[k],
					     {{0, 0}, {W, H}},
					     1,
					     &cv};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy reg = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cb, img[k], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
				       &reg);
		VkImageMemoryBarrier to_present = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
						   NULL,
						   VK_ACCESS_TRANSFER_READ_BIT,
						   0,
						   VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
						   VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
						   VK_QUEUE_FAMILY_IGNORED,
						   VK_QUEUE_FAMILY_IGNORED,
						   img[k],
						   {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
				     VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL, 0, NULL, 1,
				     &to_present);
		CHECK(vkEndCommandBuffer(cb));
		VkPipelineStageFlags wait_at = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
		VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO,
				   NULL,
				   1,
				   &acquired,
				   &wait_at,
				   1,
				   &cb,
				   1,
				   &rendered};
		CHECK(vkQueueSubmit(queue, 1, &si, fence));
		VkPresentInfoKHR pi = {
		    VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, NULL, 1, &rendered, 1, &swap, &k, NULL};
		CHECK(vkQueuePresentKHR(queue, &pi));
		CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
		CHECK(vkResetFences(dev, 1, &fence));
		sum = app_checksum(sum, m_rb, W * H);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDeviceWaitIdle(dev);
	vkDestroyFence(dev, fence, NULL);
	vkDestroySemaphore(dev, acquired, NULL);
	vkDestroySemaphore(dev, rendered, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyBuffer(dev, rb, NULL);
	vkFreeMemory(dev, m_rb, NULL);
	for (uint32_t i = 0; i < n_img; i++) {
		vkDestroyFramebuffer(dev, fb[i], NULL);
		vkDestroyImageView(dev, view[i], NULL);
	}
	vkDestroyRenderPass(dev, rp, NULL);
	vkDestroySwapchainKHR(dev, swap, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroySurfaceKHR(inst, surf, NULL);
	vkDestroyInstance(inst, NULL);
	xcb_destroy_window(xc, win);
	xcb_disconnect(xc);
	return 0;
}

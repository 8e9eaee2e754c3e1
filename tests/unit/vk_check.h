/* vk_check.h - for the unit tests that run Vulkan programs (with tests/apps/vkapp.h): VK(x)
 * ends the test on a failed Vulkan call; check.h's CHECK and CHECK_MSG, a check that says why;
 * a color target with its render pass and framebuffer. */
#ifndef LLCT_TESTS_VK_CHECK_H
#define LLCT_TESTS_VK_CHECK_H

#include "vkapp.h" /* its CHECK is for VkResults: VK below; check.h's CHECK counts failures */
#define VK(x)                                                                                      \
	do {                                                                                       \
		VkResult r_ = (x);                                                                 \
		if (r_ != VK_SUCCESS) {                                                            \
			fprintf(stderr, "%s failed: %d\n", #x, r_);                                \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)
#undef CHECK
#include "check.h"
#define CHECK_MSG(cond, ...)                                                                       \
	do {                                                                                       \
		check_count++;                                                                     \
		if (!(cond)) {                                                                     \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
		}                                                                                  \
	} while (0)

/* A w x w RGBA8 color target, a render pass that clears it, and its framebuffer. */
struct target {
	VkImage img;
	VkDeviceMemory mem;
	VkImageView view;
	VkRenderPass rp;
	VkFramebuffer fb;
};
static inline void target_make(struct target *t, uint32_t w)
{
	t->img = app_image(VK_FORMAT_R8G8B8A8_UNORM, w, w, VK_SAMPLE_COUNT_1_BIT,
			   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t->mem);
	t->view = app_view(t->img, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkAttachmentDescription ad = {0,
				      VK_FORMAT_R8G8B8A8_UNORM,
				      VK_SAMPLE_COUNT_1_BIT,
				      VK_ATTACHMENT_LOAD_OP_CLEAR,
				      VK_ATTACHMENT_STORE_OP_STORE,
				      VK_ATTACHMENT_LOAD_OP_DONT_CARE,
				      VK_ATTACHMENT_STORE_OP_DONT_CARE,
				      VK_IMAGE_LAYOUT_UNDEFINED,
				      VK_IMAGE_LAYOUT_GENERAL};
	VkAttachmentReference ar = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sd = {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &ar};
	VkRenderPassCreateInfo rpci = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 1, &ad, 1, &sd};
	VK(vkCreateRenderPass(dev, &rpci, NULL, &t->rp));
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, t->rp, 1, &t->view, w, w, 1};
	VK(vkCreateFramebuffer(dev, &fci, NULL, &t->fb));
}
static inline void target_free(struct target *t)
{
	vkDestroyFramebuffer(dev, t->fb, NULL);
	vkDestroyRenderPass(dev, t->rp, NULL);
	vkDestroyImageView(dev, t->view, NULL);
	vkDestroyImage(dev, t->img, NULL);
	vkFreeMemory(dev, t->mem, NULL);
}

#endif

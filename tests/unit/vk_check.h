/* vk_check.h - for the unit tests that run Vulkan programs (with tests/apps/vkapp.h): VK(x)
 * ends the test on a failed Vulkan call; check.h's CHECK and CHECK_MSG;
 * a color target with its render pass and framebuffer; the record buffer instrumented shaders
 * append to, descriptor sets from one pool, a command buffer run once, and the barrier that
 * makes fresh images readable by shaders. */
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

/* The record buffer instrumented shaders append to: {cursor, capacity}, then room for cap
 * words and more; host-visible, mapped at *words with the cursor 0 and the capacity cap. */
static inline VkBuffer record_buffer(uint32_t cap, VkDeviceMemory *mem, uint32_t **words)
{
	VkBuffer b = app_buffer(4 * ((VkDeviceSize)cap + 12), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
				APP_HOST, mem);
	VK(vkMapMemory(dev, *mem, 0, VK_WHOLE_SIZE, 0, (void **)words));
	(*words)[0] = 0, (*words)[1] = cap;
	return b;
}

/* n descriptor sets of layouts l[] from a pool of the sizes ps[] (returned: free the pool). */
static inline VkDescriptorPool alloc_sets(uint32_t n_sizes, const VkDescriptorPoolSize *ps,
					  uint32_t n, const VkDescriptorSetLayout *l,
					  VkDescriptorSet *sets)
{
	VkDescriptorPoolCreateInfo dpci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, n, n_sizes, ps};
	VkDescriptorPool pool;
	VK(vkCreateDescriptorPool(dev, &dpci, NULL, &pool));
	VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					  pool, n, l};
	VK(vkAllocateDescriptorSets(dev, &ai, sets));
	return pool;
}

/* A primary command buffer with its pool and fence: begun, then ended, submitted and waited
 * for (as often as wanted), then freed. */
struct oneshot {
	VkCommandPool pool;
	VkCommandBuffer cb;
	VkFence fence;
};
static inline void oneshot_make(struct oneshot *o)
{
	o->pool = app_command_pool();
	o->cb = app_command_buffer(o->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	o->fence = app_fence();
}
static inline VkCommandBuffer oneshot_begin(struct oneshot *o)
{
	VkCommandBufferBeginInfo bgi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	VK(vkBeginCommandBuffer(o->cb, &bgi));
	return o->cb;
}
static inline void oneshot_run(struct oneshot *o)
{
	VK(vkEndCommandBuffer(o->cb));
	app_submit_wait(o->cb, o->fence);
}
static inline void oneshot_free(struct oneshot *o)
{
	vkDestroyFence(dev, o->fence, NULL);
	vkDestroyCommandPool(dev, o->pool, NULL);
}

/* Images just made (layout UNDEFINED, layers[k] layers each) to shader-read-only, before
 * `stage` reads them. */
static inline void to_shader_read(VkCommandBuffer cb, VkPipelineStageFlags stage, uint32_t n,
				  const VkImage *img, const uint32_t *layers)
{
	VkImageMemoryBarrier ib[8];
	for (uint32_t k = 0; k < n && k < 8; k++) {
		ib[k] = (VkImageMemoryBarrier){VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		ib[k].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
		ib[k].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		ib[k].newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
		ib[k].srcQueueFamilyIndex = ib[k].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		ib[k].image = img[k];
		ib[k].subresourceRange =
		    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS,
					      0, layers ? layers[k] : 1};
	}
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, stage, 0, 0, NULL, 0, NULL,
			     n < 8 ? n : 8, ib);
}

#endif

/* words.c - a headless Vulkan program whose shaders read their uniforms a component at a time
 * at constant offsets, as Zink's translations of OpenGL programs do (tier 3's runs: one record a
 * run of such loads). Each frame draws a 32 x 32 grid of quads (6,144 vertices; words.vert: a
 * matrix of 16 loads across two lines, a scale and a factor: one run across four lines; a word
 * in a branch) into a 256 x 256 target
 * (words.frag: four loads of a colour, two more in a branch), then copies the target out; before
 * the pass a dispatch of 4,096 invocations (words.comp: a matrix and a scale, one run of 17
 * loads across two lines) writes a word each to a storage buffer. The
 * uniform buffer is bound at offset 0 of its own memory, so the matrix's 64 bytes (16..79) lie
 * across the first two 64-byte lines. Prints a checksum of the last frame's target.
 *
 * With "shuffled", the grid is one indexed draw whose index buffer lists the quads in a
 * scrambled order (quad q's vertices 6q..6q+5 at position (37 q) mod 1024): vertices of one
 * shading batch then lie in different 32-vertex warps, and so on different SMs.
 *
 * With "late", frame 0's submission waits on a timeline semaphore that another thread of the
 * program signals 3 s later (Vulkan 1.2): a submission that finishes later than the capture
 * layer may wait (LLCT_CAPTURE_WAIT_SECONDS) without the device being hung.
 *
 * usage: words [FRAMES [shuffled|late]] (default 2) */
#include "vkapp.h"

#include <pthread.h>
#include <unistd.h>

#include "words.comp.h"
#include "words.frag.h"
#include "words.vert.h"

#define W 256
#define QUADS 1024
#define INVOCATIONS 4096

static VkSemaphore timeline;

static void *signal_later(void *arg)
{
	(void)arg;
	sleep(3);
	VkSemaphoreSignalInfo ssi = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, NULL, timeline, 1};
	CHECK(vkSignalSemaphore(dev, &ssi));
	return NULL;
}

/* The set every stage reads: binding 0 the uniform buffer ub (256 bytes), binding 1 the compute
 * shader's output cs_out; and a pipeline layout of it alone. */
static VkDescriptorSet words_set(VkBuffer ub, VkBuffer cs_out, VkPipelineLayout *layout)
{
	VkDescriptorSetLayoutBinding bind[2] = {
	    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
	     VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
		 VK_SHADER_STAGE_COMPUTE_BIT,
	     NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
	VkDescriptorSet set = app_set(bind, 2, layout);
	VkDescriptorBufferInfo dbi[2] = {{ub, 0, 256}, {cs_out, 0, INVOCATIONS * 4}};
	VkWriteDescriptorSet wds[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 0, 0, 1,
					VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, NULL, &dbi[0]},
				       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 1, 0, 1,
					VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi[1]}};
	vkUpdateDescriptorSets(dev, 2, wds, 0, NULL);
	return set;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	int shuffled = argc > 2 && !strcmp(argv[2], "shuffled");
	int late = argc > 2 && !strcmp(argv[2], "late");
	VkPhysicalDeviceTimelineSemaphoreFeatures tsf = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, NULL, VK_TRUE};
	if (late)
		app_api_version = VK_API_VERSION_1_2;
	app_open("words", 0, NULL, late ? &tsf : NULL);
	pthread_t signaller;
	if (late) {
		VkSemaphoreTypeCreateInfo tci = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
						 VK_SEMAPHORE_TYPE_TIMELINE, 0};
		VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &tci};
		CHECK(vkCreateSemaphore(dev, &sci, NULL, &timeline));
		if (pthread_create(&signaller, NULL, signal_later, NULL))
			return 1;
	}
	VkDeviceMemory m_out, m_rb, m_u, m_ix;
	VkImage out = app_image(
	    VK_FORMAT_R8G8B8A8_UNORM, W, W, VK_SAMPLE_COUNT_1_BIT,
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &m_out);
	VkBuffer rb = app_buffer(W * W * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &m_rb);
	VkImageView out_view = app_view(out, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);

	/* the uniforms: v[0].x the grid's scale, v[1..4] an identity matrix, v[5].y a tint,
	   v[10] the colour, v[11].xy a scale of it, v[12].x the position's factor */
	VkBuffer ub = app_buffer(256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, APP_HOST, &m_u);
	float *u;
	CHECK(vkMapMemory(dev, m_u, 0, 256, 0, (void **)&u));
	memset(u, 0, 256);
	u[0] = 1.0f; /* the grid covers the whole target: every pixel written, every frame */
	for (int i = 0; i < 4; i++)
		u[4 + 4 * i + i] = 1.0f;
	u[21] = 0.5f;
	u[40] = 0.2f, u[41] = 0.6f, u[42] = 0.9f, u[43] = 1.0f;
	u[44] = 0.5f, u[45] = 0.25f;
	u[48] = 1.0f; /* v[12].x: the position's factor */
	vkUnmapMemory(dev, m_u);
	VkBuffer ix = app_buffer(QUADS * 6 * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, APP_HOST, &m_ix);
	uint32_t *idx;
	CHECK(vkMapMemory(dev, m_ix, 0, QUADS * 6 * 4, 0, (void **)&idx));
	for (uint32_t q = 0; q < QUADS; q++)
		for (uint32_t k = 0; k < 6; k++)
			idx[6 * ((37 * q) % QUADS) + k] = 6 * q + k;
	vkUnmapMemory(dev, m_ix);

	VkDeviceMemory m_cs;
	VkBuffer cs_out =
	    app_buffer(INVOCATIONS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &m_cs);
	VkPipelineLayout layout;
	VkDescriptorSet set = words_set(ub, cs_out, &layout);

	VkRenderPass rp = app_color_pass();
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, 1, &out_view, W, W, 1};
	VkFramebuffer fb;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb));
	struct app_pipe po = {0};
	po.rp = rp, po.layout = layout, po.width = W, po.height = W, po.color = 1;
	po.vs = app_shader(spv_words_vert, sizeof(spv_words_vert));
	po.fs = app_shader(spv_words_frag, sizeof(spv_words_frag));
	VkPipeline pipe = app_pipeline(&po);
	VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
					   NULL,
					   0,
					   {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
					    NULL, 0, VK_SHADER_STAGE_COMPUTE_BIT,
					    app_shader(spv_words_comp, sizeof(spv_words_comp)),
					    "main", NULL},
					   layout,
					   VK_NULL_HANDLE,
					   -1};
	VkPipeline cpipe;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &cpipe));

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
					       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
		CHECK(vkResetCommandBuffer(cb, 0));
		CHECK(vkBeginCommandBuffer(cb, &bi));
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, cpipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
					NULL);
		vkCmdDispatch(cb, INVOCATIONS / 64, 1, 1);
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rp,
					     fb,
					     {{0, 0}, {W, W}},
					     0,
					     NULL};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0,
					NULL);
		if (shuffled) {
			vkCmdBindIndexBuffer(cb, ix, 0, VK_INDEX_TYPE_UINT32);
			vkCmdDrawIndexed(cb, QUADS * 6, 1, 0, 0, 0);
		} else {
			vkCmdDraw(cb, QUADS * 6, 1, 0, 0);
		}
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy rbc = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, W, 1}};
		vkCmdCopyImageToBuffer(cb, out, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1, &rbc);
		CHECK(vkEndCommandBuffer(cb));
		if (late && f == 0) { /* waits for the other thread's signal */
			uint64_t one = 1;
			VkTimelineSemaphoreSubmitInfo tsi = {
			    VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, NULL, 1, &one};
			VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
			VkSubmitInfo si = {
			    VK_STRUCTURE_TYPE_SUBMIT_INFO, &tsi, 1, &timeline, &stage, 1, &cb};
			CHECK(vkQueueSubmit(queue, 1, &si, fence));
			CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
			CHECK(vkResetFences(dev, 1, &fence));
		} else {
			app_submit_wait(cb, fence);
		}
	}
	if (late)
		pthread_join(signaller, NULL);
	printf("checksum %016llx\n",
	       (unsigned long long)app_checksum(app_checksum(0, m_cs, INVOCATIONS), m_rb, W * W));
	vkDeviceWaitIdle(dev);
	return 0;
}

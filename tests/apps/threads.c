/* threads.c - a headless Vulkan program that records command buffers on four threads at once and
 * submits from two, as engines with job systems do: each frame, four recording threads, each with
 * command pools of its own, record a secondary command buffer (a full-screen triangle sampling a
 * texture, inside the render pass it continues) and a primary that runs it in the render pass of
 * the thread's own target and copies the target out; then two submitting threads each submit two
 * of the primaries in one vkQueueSubmit (the queue, externally synchronized, behind a mutex) and
 * wait for their own fence. The capture layer sees recordings, frees and submissions from six
 * threads at once (cli_threads runs it under the layer at tiers 1, 2 and 3, and under
 * ThreadSanitizer). Prints a checksum of each target after the last frame.
 *
 * usage: threads [FRAMES] (default 6) */
#include "vkapp.h"

#include "fullscreen.vert.h"
#include "sample.frag.h"

#include <pthread.h>

#define W 256
#define H 256
#define TEX 64
#define RECORDERS 4
#define SUBMITTERS 2

static VkRenderPass rp;
static VkPipeline pipe;
static VkPipelineLayout layout;
static VkDescriptorSet set;
/* a frame: the recorders between rgo and rdone, then the submitters between sgo and sdone */
static pthread_barrier_t rgo, rdone, sgo, sdone;
static pthread_mutex_t queue_mu = PTHREAD_MUTEX_INITIALIZER;
static int frames, quit;

struct recorder {
	pthread_t t;
	VkImage target;
	VkDeviceMemory m_target, m_rb;
	VkBuffer rb;
	VkFramebuffer fb;
	VkCommandPool pool_primary, pool_secondary;
	VkCommandBuffer primary, secondary;
};
static struct recorder rec[RECORDERS];

struct submitter {
	pthread_t t;
	VkFence fence;
	int first; /* the first of its recorders */
};
static struct submitter sub[SUBMITTERS];

static void record(struct recorder *r)
{
	CHECK(vkResetCommandPool(dev, r->pool_secondary, 0));
	CHECK(vkResetCommandPool(dev, r->pool_primary, 0));
	VkCommandBufferInheritanceInfo inh = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
					      NULL, rp, 0, r->fb};
	VkCommandBufferBeginInfo sbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
					VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT |
					    VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
					&inh};
	CHECK(vkBeginCommandBuffer(r->secondary, &sbi));
	vkCmdBindPipeline(r->secondary, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	vkCmdBindDescriptorSets(r->secondary, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set,
				0, NULL);
	vkCmdDraw(r->secondary, 3, 1, 0, 0);
	CHECK(vkEndCommandBuffer(r->secondary));

	VkCommandBufferBeginInfo pbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
					VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	CHECK(vkBeginCommandBuffer(r->primary, &pbi));
	VkRenderPassBeginInfo rbi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, rp, r->fb, {{0, 0}, {W, H}}, 0, NULL};
	vkCmdBeginRenderPass(r->primary, &rbi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	vkCmdExecuteCommands(r->primary, 1, &r->secondary);
	vkCmdEndRenderPass(r->primary);
	VkBufferImageCopy rbc = {0,         0,        0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
				 {0, 0, 0}, {W, H, 1}};
	vkCmdCopyImageToBuffer(r->primary, r->target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r->rb,
			       1, &rbc);
	CHECK(vkEndCommandBuffer(r->primary));
}

static void *recorder_main(void *p)
{
	struct recorder *r = p;
	for (;;) {
		pthread_barrier_wait(&rgo);
		if (quit)
			return NULL;
		record(r);
		pthread_barrier_wait(&rdone);
	}
}

static void *submitter_main(void *p)
{
	struct submitter *s = p;
	for (;;) {
		pthread_barrier_wait(&sgo);
		if (quit)
			return NULL;
		VkCommandBuffer cbs[2] = {rec[s->first].primary, rec[s->first + 1].primary};
		VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 2;
		si.pCommandBuffers = cbs;
		pthread_mutex_lock(&queue_mu);
		CHECK(vkQueueSubmit(queue, 1, &si, s->fence));
		pthread_mutex_unlock(&queue_mu);
		CHECK(vkWaitForFences(dev, 1, &s->fence, VK_TRUE, UINT64_MAX));
		CHECK(vkResetFences(dev, 1, &s->fence));
		pthread_barrier_wait(&sdone);
	}
}

int main(int argc, char **argv)
{
	frames = argc > 1 ? atoi(argv[1]) : 6;
	app_open("threads", 0, NULL, NULL);
	VkImageView tex_view = app_texture(TEX);
	set = app_sampled_set(tex_view, &layout);
	rp = app_color_pass();
	struct app_pipe po = {0};
	po.rp = rp, po.layout = layout, po.width = W, po.height = H, po.color = 1;
	po.vs = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	po.fs = app_shader(spv_sample_frag, sizeof(spv_sample_frag));
	pipe = app_pipeline(&po);

	for (int i = 0; i < RECORDERS; i++) {
		struct recorder *r = &rec[i];
		r->target =
		    app_image(VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
			      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
			      &r->m_target);
		VkImageView v =
		    app_view(r->target, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
		VkFramebufferCreateInfo fci = {
		    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp, 1, &v, W, H, 1};
		CHECK(vkCreateFramebuffer(dev, &fci, NULL, &r->fb));
		r->rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &r->m_rb);
		r->pool_primary = app_command_pool();
		r->pool_secondary = app_command_pool();
		r->primary = app_command_buffer(r->pool_primary, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
		r->secondary =
		    app_command_buffer(r->pool_secondary, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
	}
	for (int i = 0; i < SUBMITTERS; i++)
		sub[i].fence = app_fence(), sub[i].first = 2 * i;

	pthread_barrier_init(&rgo, NULL, RECORDERS + 1);
	pthread_barrier_init(&rdone, NULL, RECORDERS + 1);
	pthread_barrier_init(&sgo, NULL, SUBMITTERS + 1);
	pthread_barrier_init(&sdone, NULL, SUBMITTERS + 1);
	for (int i = 0; i < RECORDERS; i++)
		CHECK(pthread_create(&rec[i].t, NULL, recorder_main, &rec[i]) ? VK_ERROR_UNKNOWN
									      : VK_SUCCESS);
	for (int i = 0; i < SUBMITTERS; i++)
		CHECK(pthread_create(&sub[i].t, NULL, submitter_main, &sub[i]) ? VK_ERROR_UNKNOWN
									       : VK_SUCCESS);
	for (int f = 0; f < frames; f++) {
		pthread_barrier_wait(&rgo); /* four recordings at once */
		pthread_barrier_wait(&rdone);
		pthread_barrier_wait(&sgo); /* two submissions at once */
		pthread_barrier_wait(&sdone);
	}
	quit = 1;
	pthread_barrier_wait(&rgo);
	pthread_barrier_wait(&sgo);
	for (int i = 0; i < RECORDERS; i++)
		pthread_join(rec[i].t, NULL);
	for (int i = 0; i < SUBMITTERS; i++)
		pthread_join(sub[i].t, NULL);
	for (int i = 0; i < RECORDERS; i++)
		printf("target %d checksum %016llx\n", i,
		       (unsigned long long)app_checksum(0, rec[i].m_rb, W * H));
	vkDeviceWaitIdle(dev);
	return 0;
}

/* scene.c - a headless Vulkan program for capture tests. Each frame (one submit):
 *   1. a compute dispatch doubles a 1 MiB storage buffer;
 *   2. render pass A: a depth-tested indexed triangle (indices 60..62 of a 64-vertex buffer,
 *      the index buffer mapped by the program) into a 256x256 RGBA8
 *      texture and a D32 depth buffer (with a descriptor set bound that its shaders do not
 *      use);
 *   3. render pass B: a full-screen triangle samples that texture into a second target; its
 *      draw lives in a secondary command buffer recorded on another thread;
 *   4. the second target is copied to a host-visible buffer.
 * Prints a checksum of the read-back pixels and of the storage buffer.
 *
 * usage: scene [FRAMES [unmap|staging|upload|template|push|cmds2|texel|masked|imageless|heap|poll]]
 *        (default 2 frames)
 *   unmap:    the index memory is unmapped right after the indices are written, as programs
 *             that upload once do;
 *   staging:  the index buffer is device-local, never mapped: each frame's command buffer
 *             first copies the indices into it from a persistently mapped staging buffer;
 *   upload:   the same, but the staging buffer is unmapped once written and the copy is a
 *             submission of its own before the frames, waited for (the Vulkan tutorial's
 *             way: that submission is a frame of its own with the submit boundary);
 *   template: the descriptor sets are written with vkUpdateDescriptorSetWithTemplate;
 *   push:     no descriptor sets: the dispatch's storage buffer is pushed with
 *             vkCmdPushDescriptorSetWithTemplateKHR and the draws' texture with
 *             vkCmdPushDescriptorSetKHR (VK_KHR_push_descriptor); the full-screen pass pushes
 *             its texture (binding 0) and then, in a second push, an unused storage buffer
 *             (binding 1), so the texture reaches its draw only if pushes update
 *             incrementally, as the extension says they do. Zink does both;
 *   cmds2:    the newer forms of the commands, as DXVK and vkd3d-proton record them: the
 *             dispatch is vkCmdDispatchIndirect, pass A's draw vkCmdDrawIndexedIndirectCountKHR
 *             (VK_KHR_draw_indirect_count), the read-back copy vkCmdCopyImageToBuffer2KHR
 *             (VK_KHR_copy_commands2);
 *   texel:    the dispatch reads and writes its buffer through a storage texel buffer view
 *             (double_texel.comp) instead of as a storage buffer;
 *   masked:   pass A's pipeline writes no color (colorWriteMask 0) and has depth writes on
 *             with the depth test off, which writes no depth: its draw touches neither;
 *   imageless: pass A's framebuffer is imageless (VK_KHR_imageless_framebuffer): its views
 *             come with vkCmdBeginRenderPass, in VkRenderPassAttachmentBeginInfo;
 *   heap:     pass B samples the texture as element 1 of an array of two (element 0 a 16x16
 *             image of its own), by an index its pipeline's specialization gives
 *             (sample_heap.frag): which image a sample reads is known only at run time;
 *   poll:     Vulkan 1.2: each submission signals a timeline semaphore, which the program
 *             polls with vkGetSemaphoreCounterValue instead of waiting on a fence, and as soon
 *             as it reads the frame done it writes the next frame's indices (0..2 and
 *             60..62 in turn) into the mapped index buffer, as Zink polls its batches.
 */
#include <pthread.h>

#include "vkapp.h"

#include "double.comp.h"
#include "double_texel.comp.h"
#include "fullscreen.vert.h"
#include "sample.frag.h"
#include "sample_heap.frag.h"
#include "tri.frag.h"
#include "tri.vert.h"

#define W 256
#define H 256
#define N_WORDS (256 * 1024)
static VkRenderPass render_pass(int with_depth, VkImageLayout final)
{
	VkAttachmentDescription att[2] = {
	    {0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
	     VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED, final},
	    {0, VK_FORMAT_D32_SFLOAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {0,    VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &cref,
				    NULL, with_depth ? &dref : NULL,       0, NULL};
	VkSubpassDependency dep = {VK_SUBPASS_EXTERNAL,
				   0,
				   VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
				   VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
				   VK_ACCESS_MEMORY_WRITE_BIT,
				   VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
				   0};
	VkSubpassDependency dep_out = {0,
				       VK_SUBPASS_EXTERNAL,
				       VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
				       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
				       VK_ACCESS_MEMORY_WRITE_BIT,
				       VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
				       0};
	VkSubpassDependency deps[2] = {dep, dep_out};
	VkRenderPassCreateInfo ci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				     NULL,
				     0,
				     with_depth ? 2u : 1u,
				     att,
				     1,
				     &sub,
				     2,
				     deps};
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &ci, NULL, &rp));
	return rp;
}

static VkPipeline graphics(VkRenderPass rp, VkPipelineLayout layout, VkShaderModule vs,
			   VkShaderModule fs, int vertex_input, int depth, int masked,
			   const VkSpecializationInfo *spec)
{
	struct app_pipe o = {.rp = rp,
			     .layout = layout,
			     .vs = vs,
			     .fs = fs,
			     .width = W,
			     .height = H,
			     .vertex_input = vertex_input,
			     .color = 1,
			     .ds_attachment = depth,
			     .depth = depth && !masked,
			     .no_color_writes = masked,
			     .depth_write_only = masked,
			     .fs_spec = spec};
	return app_pipeline(&o);
}

/* The secondary command buffer with pass B's draw, recorded on its own thread. */
struct secondary {
	VkCommandPool pool;
	VkCommandBuffer cb;
	VkRenderPass rp;
	VkFramebuffer fb;
	VkPipeline pipe;
	VkPipelineLayout layout;
	VkDescriptorSet set;
	PFN_vkCmdPushDescriptorSetKHR push; /* push mode: the set's writes are pushed instead */
	const VkWriteDescriptorSet *writes;
};

static void *record_secondary(void *arg)
{
	struct secondary *s = arg;
	VkCommandBufferInheritanceInfo inh = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
					      NULL, s->rp, 0, s->fb};
	VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
				       VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT, &inh};
	CHECK(vkBeginCommandBuffer(s->cb, &bi));
	vkCmdBindPipeline(s->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, s->pipe);
	if (s->push) { /* the texture, then in a second push the storage buffer beside it */
		s->push(s->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, s->layout, 0, 1, &s->writes[0]);
		s->push(s->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, s->layout, 0, 1, &s->writes[1]);
	} else
		vkCmdBindDescriptorSets(s->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, s->layout, 0, 1,
					&s->set, 0, NULL);
	vkCmdDraw(s->cb, 3, 1, 0, 0);
	CHECK(vkEndCommandBuffer(s->cb));
	return NULL;
}

/* Long because a test program's main is its scenario: one Vulkan call after another in the
 * order they run, the objects each makes used by the next; split, they would travel through a
 * dozen parameters for no reader's gain. */
int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	const char *mode = argc > 2 ? argv[2] : "";
	int unmap = !strcmp(mode, "unmap"), templ = !strcmp(mode, "template"),
	    push = !strcmp(mode, "push"), staging = !strcmp(mode, "staging"),
	    upload = !strcmp(mode, "upload"), cmds2 = !strcmp(mode, "cmds2"),
	    texel = !strcmp(mode, "texel"), masked = !strcmp(mode, "masked"),
	    imageless = !strcmp(mode, "imageless"), heap = !strcmp(mode, "heap"),
	    poll = !strcmp(mode, "poll");
	VkPhysicalDeviceImagelessFramebufferFeatures ifb = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES, NULL, VK_TRUE};
	VkPhysicalDeviceTimelineSemaphoreFeatures tsf = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, NULL, VK_TRUE};
	if (poll)
		app_api_version = VK_API_VERSION_1_2;
	app_open("scene", 0,
		 push    ? VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME
		 : cmds2 ? VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME
		     "," VK_KHR_COPY_COMMANDS_2_EXTENSION_NAME
		 : imageless ? VK_KHR_IMAGELESS_FRAMEBUFFER_EXTENSION_NAME
		     "," VK_KHR_IMAGE_FORMAT_LIST_EXTENSION_NAME
			     : NULL,
		 imageless ? (void *)&ifb
		 : poll    ? (void *)&tsf
			   : NULL);
	VkSemaphore timeline = VK_NULL_HANDLE;
	if (poll) {
		VkSemaphoreTypeCreateInfo tci = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
						 VK_SEMAPHORE_TYPE_TIMELINE, 0};
		VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &tci};
		CHECK(vkCreateSemaphore(dev, &sci, NULL, &timeline));
	}
	PFN_vkCmdDrawIndexedIndirectCountKHR draw_count =
	    cmds2 ? (PFN_vkCmdDrawIndexedIndirectCountKHR)vkGetDeviceProcAddr(
			dev, "vkCmdDrawIndexedIndirectCountKHR")
		  : NULL;
	PFN_vkCmdCopyImageToBuffer2KHR copy2 =
	    cmds2 ? (PFN_vkCmdCopyImageToBuffer2KHR)vkGetDeviceProcAddr(
			dev, "vkCmdCopyImageToBuffer2KHR")
		  : NULL;
	PFN_vkCmdPushDescriptorSetKHR push_set =
	    push ? (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(dev,
								      "vkCmdPushDescriptorSetKHR")
		 : NULL;
	PFN_vkCmdPushDescriptorSetWithTemplateKHR push_templ =
	    push ? (PFN_vkCmdPushDescriptorSetWithTemplateKHR)vkGetDeviceProcAddr(
		       dev, "vkCmdPushDescriptorSetWithTemplateKHR")
		 : NULL;

	VkDeviceMemory m_tex, m_depth, m_out, m_vb, m_sb, m_rb;
	VkImage tex =
	    app_image(VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
		      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, &m_tex);
	VkImage depth = app_image(VK_FORMAT_D32_SFLOAT, W, H, VK_SAMPLE_COUNT_1_BIT,
				  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &m_depth);
	VkImage out = app_image(
	    VK_FORMAT_R8G8B8A8_UNORM, W, H, VK_SAMPLE_COUNT_1_BIT,
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &m_out);
	VkBuffer vb = app_buffer(64 * 8, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, APP_HOST, &m_vb);
	VkDeviceMemory m_ib, m_st = VK_NULL_HANDLE;
	VkBuffer ib, st = VK_NULL_HANDLE;
	uint32_t *indices; /* stays mapped, as many programs keep their index data */
	if (staging || upload) {
		ib = app_buffer(3 * 4,
				VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
				VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &m_ib);
		st = app_buffer(3 * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, APP_HOST, &m_st);
		CHECK(vkMapMemory(dev, m_st, 0, VK_WHOLE_SIZE, 0, (void **)&indices));
	} else {
		ib = app_buffer(3 * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, APP_HOST, &m_ib);
		CHECK(vkMapMemory(dev, m_ib, 0, VK_WHOLE_SIZE, 0, (void **)&indices));
	}
	indices[0] = 60, indices[1] = 61, indices[2] = 62;
	if (unmap)
		vkUnmapMemory(dev, m_ib);
	if (upload)
		vkUnmapMemory(dev, m_st);
	VkBufferCopy ib_copy = {0, 0, 3 * 4};
	VkBufferMemoryBarrier ib_barrier = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
					    NULL,
					    VK_ACCESS_TRANSFER_WRITE_BIT,
					    VK_ACCESS_INDEX_READ_BIT,
					    VK_QUEUE_FAMILY_IGNORED,
					    VK_QUEUE_FAMILY_IGNORED,
					    ib,
					    0,
					    VK_WHOLE_SIZE};
	VkBuffer sb = app_buffer(N_WORDS * 4,
				 texel ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
				       : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
				 APP_HOST, &m_sb);
	VkBufferView sbv = VK_NULL_HANDLE;
	if (texel) {
		VkBufferViewCreateInfo bvi = {VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
					      NULL,
					      0,
					      sb,
					      VK_FORMAT_R32_UINT,
					      0,
					      VK_WHOLE_SIZE};
		CHECK(vkCreateBufferView(dev, &bvi, NULL, &sbv));
	}
	VkDescriptorType st_type =
	    texel ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	VkBuffer rb = app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &m_rb);
	/* cmds2: the dispatch's groups, the draw's parameters and its draw count */
	VkDeviceMemory m_ind = VK_NULL_HANDLE;
	VkBuffer ind = VK_NULL_HANDLE;
	if (cmds2) {
		uint32_t *w;
		ind = app_buffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, APP_HOST, &m_ind);
		CHECK(vkMapMemory(dev, m_ind, 0, VK_WHOLE_SIZE, 0, (void **)&w));
		uint32_t words[10] = {N_WORDS / 64, 1, 1, 0, 3, 1, 0, 0, 0, 1};
		memcpy(w, words, sizeof(words)); /* groups @0, indexed draw @16, count @36 */
		vkUnmapMemory(dev, m_ind);
	}
	void *p;
	float tri[6] = {-0.8f, -0.8f, 0.8f, -0.6f, 0.0f, 0.9f};
	CHECK(vkMapMemory(dev, m_vb, 0, 64 * 8, 0, &p));
	memset(p, 0, 64 * 8);
	memcpy((char *)p + 60 * 8, tri, sizeof(tri));
	vkUnmapMemory(dev, m_vb);
	CHECK(vkMapMemory(dev, m_sb, 0, N_WORDS * 4, 0, &p));
	for (uint32_t i = 0; i < N_WORDS; i++)
		((uint32_t *)p)[i] = i;
	vkUnmapMemory(dev, m_sb);

	VkImageView tex_v = app_view(tex, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkImageView depth_v = app_view(depth, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT);
	VkImageView out_v = app_view(out, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT);
	VkRenderPass rp_a = render_pass(1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	VkRenderPass rp_b = render_pass(0, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	VkImageView a_views[2] = {tex_v, depth_v};
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rp_a, 2, a_views, W, H, 1};
	/* imageless: what each attachment will be, not which view */
	VkFormat color_fmt = VK_FORMAT_R8G8B8A8_UNORM, depth_fmt = VK_FORMAT_D32_SFLOAT;
	VkFramebufferAttachmentImageInfo fai[2] = {
	    {VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO, NULL, 0,
	     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, W, H, 1, 1,
	     &color_fmt},
	    {VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO, NULL, 0,
	     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, W, H, 1, 1, &depth_fmt}};
	VkFramebufferAttachmentsCreateInfo fac = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO, NULL, 2, fai};
	if (imageless) {
		fci.pNext = &fac;
		fci.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
		fci.pAttachments = NULL;
	}
	VkFramebuffer fb_a, fb_b;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb_a));
	fci.pNext = NULL;
	fci.flags = 0;
	fci.renderPass = rp_b;
	fci.attachmentCount = 1;
	fci.pAttachments = &out_v;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb_b));

	/* descriptors: a sampled texture (graphics; in push mode with a storage buffer beside it,
	 * unused), a storage buffer (compute) */
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler;
	CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkDescriptorSetLayoutBinding gb[2] = {
	    {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, heap ? 2 : 1,
	     VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
	VkDescriptorSetLayoutBinding cbind = {0, st_type, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
	VkDescriptorSetLayoutCreateInfo lci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL,
	    push ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0, push ? 2 : 1, gb};
	VkDescriptorSetLayout gl, cl;
	CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &gl));
	lci.bindingCount = 1;
	lci.pBindings = &cbind;
	CHECK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &cl));
	VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, heap ? 2 : 1},
					 {st_type, 1}};
	VkDescriptorPoolCreateInfo dpci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 2, 2, sizes};
	VkDescriptorPool dpool;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dpool));
	VkDescriptorSetLayout both[2] = {gl, cl};
	VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					   dpool, 2, both};
	VkDescriptorSet sets[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
	if (!push) /* push layouts have no sets */
		CHECK(vkAllocateDescriptorSets(dev, &dai, sets));
	VkDescriptorImageInfo dii = {sampler, tex_v, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	/* heap mode: the texture is element 1 of two, element 0 a small image of its own */
	VkDeviceMemory m_other = VK_NULL_HANDLE;
	VkImage other = heap ? app_image(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, VK_SAMPLE_COUNT_1_BIT,
					 VK_IMAGE_USAGE_SAMPLED_BIT, &m_other)
			     : VK_NULL_HANDLE;
	VkImageView other_v =
	    heap ? app_view(other, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT)
		 : VK_NULL_HANDLE;
	VkDescriptorImageInfo heap_ii[2] = {
	    {sampler, other_v, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}, dii};
	VkDescriptorBufferInfo dbi = {sb, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet wr[3] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[0], 0, 0,
				       heap ? 2 : 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
				       heap ? heap_ii : &dii, NULL, NULL},
				      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[0], 1, 0,
				       1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi, NULL},
				      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, sets[1], 0, 0,
				       1, st_type, NULL, texel ? NULL : &dbi, texel ? &sbv : NULL}};
	/* templates: the texture's image info, the storage buffer's buffer info */
	VkDescriptorUpdateTemplateEntry te[2] = {
	    {0, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 0, sizeof(dii)},
	    {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, sizeof(dbi)}};
	VkDescriptorUpdateTemplateCreateInfo tci = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, NULL, 0, 1, &te[0],
	    VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,        gl};
	VkDescriptorUpdateTemplate tmpl[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
	if (templ) {
		CHECK(vkCreateDescriptorUpdateTemplate(dev, &tci, NULL, &tmpl[0]));
		tci.pDescriptorUpdateEntries = &te[1];
		tci.descriptorSetLayout = cl;
		CHECK(vkCreateDescriptorUpdateTemplate(dev, &tci, NULL, &tmpl[1]));
		vkUpdateDescriptorSetWithTemplate(dev, sets[0], tmpl[0], &dii);
		vkUpdateDescriptorSetWithTemplate(dev, sets[1], tmpl[1], &dbi);
	} else if (!push) {
		VkWriteDescriptorSet both_wr[2] = {wr[0], wr[2]};
		vkUpdateDescriptorSets(dev, 2, both_wr, 0, NULL);
	}

	VkPipelineLayoutCreateInfo plci = {
	    VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 0, NULL, 0, NULL};
	VkPipelineLayout empty_l, tex_l, comp_l;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &empty_l));
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &gl;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &tex_l));
	plci.pSetLayouts = &cl;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &comp_l));
	if (push) { /* the dispatch's storage buffer, pushed through a template */
		tci.pDescriptorUpdateEntries = &te[1];
		tci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
		tci.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
		tci.pipelineLayout = comp_l;
		CHECK(vkCreateDescriptorUpdateTemplate(dev, &tci, NULL, &tmpl[1]));
	}
	VkShaderModule s_tv = app_shader(spv_tri_vert, sizeof(spv_tri_vert));
	VkShaderModule s_tf = app_shader(spv_tri_frag, sizeof(spv_tri_frag));
	VkShaderModule s_fv = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert));
	VkShaderModule s_sf = heap ? app_shader(spv_sample_heap_frag, sizeof(spv_sample_heap_frag))
				   : app_shader(spv_sample_frag, sizeof(spv_sample_frag));
	uint32_t heap_index = 1;
	VkSpecializationMapEntry sme = {0, 0, 4};
	VkSpecializationInfo spec = {1, &sme, 4, &heap_index};
	VkShaderModule s_cs = texel
				  ? app_shader(spv_double_texel_comp, sizeof(spv_double_texel_comp))
				  : app_shader(spv_double_comp, sizeof(spv_double_comp));
	VkPipeline p_tri = graphics(rp_a, tex_l, s_tv, s_tf, 1, 1, masked, NULL);
	VkPipeline p_fs = graphics(rp_b, tex_l, s_fv, s_sf, 0, 0, 0, heap ? &spec : NULL);
	VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage =
	    (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
					      NULL,
					      0,
					      VK_SHADER_STAGE_COMPUTE_BIT,
					      s_cs,
					      "main",
					      NULL};
	cpci.layout = comp_l;
	VkPipeline p_cs;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &p_cs));

	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	struct secondary sec = {0, VK_NULL_HANDLE, rp_b, fb_b, p_fs, tex_l, sets[0], push_set, wr};
	sec.pool = app_command_pool(); /* pools are per thread */
	sec.cb = app_command_buffer(sec.pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
	VkFence fence = app_fence();

	if (upload || heap) { /* the indices go up once, before the frames; the heap's image is
				 made readable */
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		if (upload)
			vkCmdCopyBuffer(cb, st, ib, 1, &ib_copy);
		if (heap) {
			VkImageMemoryBarrier b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
			b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
			b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
			b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
			b.image = other;
			b.subresourceRange =
			    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
					     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, NULL, 0,
					     NULL, 1, &b);
		}
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
	}
	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		pthread_t th;
		if (pthread_create(&th, NULL, record_secondary, &sec))
			return 1;
		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		if (staging) {
			vkCmdCopyBuffer(cb, st, ib, 1, &ib_copy);
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
					     VK_PIPELINE_STAGE_VERTEX_INPUT_BIT, 0, 0, NULL, 1,
					     &ib_barrier, 0, NULL);
		}
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p_cs);
		if (push)
			push_templ(cb, tmpl[1], comp_l, 0, &dbi);
		else
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, comp_l, 0, 1,
						&sets[1], 0, NULL);
		if (cmds2)
			vkCmdDispatchIndirect(cb, ind, 0);
		else
			vkCmdDispatch(cb, N_WORDS / 64, 1, 1);
		VkClearValue cv[2];
		cv[0].color = (VkClearColorValue){{0, 0, 0.2f, 1}};
		cv[1].depthStencil = (VkClearDepthStencilValue){1, 0};
		VkRenderPassAttachmentBeginInfo rab = {
		    VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO, NULL, 2, a_views};
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     imageless ? &rab : NULL,
					     rp_a,
					     fb_a,
					     {{0, 0}, {W, H}},
					     2,
					     cv};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p_tri);
		/* bound but not used by tri.frag: capture must not count it (SPIR-V says so) */
		if (push)
			push_set(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, tex_l, 0, 1, &wr[0]);
		else
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, tex_l, 0, 1,
						&sets[0], 0, NULL);
		VkDeviceSize off = 0;
		vkCmdBindVertexBuffers(cb, 0, 1, &vb, &off);
		vkCmdBindIndexBuffer(cb, ib, 0, VK_INDEX_TYPE_UINT32);
		if (cmds2)
			draw_count(cb, ind, 16, ind, 36, 1, sizeof(VkDrawIndexedIndirectCommand));
		else
			vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0);
		vkCmdEndRenderPass(cb);
		pthread_join(th, NULL);
		rbi.pNext = NULL; /* pass B's framebuffer has its views */
		rbi.renderPass = rp_b;
		rbi.framebuffer = fb_b;
		rbi.clearValueCount = 1;
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
		vkCmdExecuteCommands(cb, 1, &sec.cb);
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy reg = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		if (cmds2) {
			VkBufferImageCopy2 reg2 = {VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
						   NULL,
						   reg.bufferOffset,
						   reg.bufferRowLength,
						   reg.bufferImageHeight,
						   reg.imageSubresource,
						   reg.imageOffset,
						   reg.imageExtent};
			VkCopyImageToBufferInfo2 ci2 = {
			    VK_STRUCTURE_TYPE_COPY_IMAGE_TO_BUFFER_INFO_2,
			    NULL,
			    out,
			    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			    rb,
			    1,
			    &reg2};
			copy2(cb, &ci2);
		} else
			vkCmdCopyImageToBuffer(cb, out, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb, 1,
					       &reg);
		CHECK(vkEndCommandBuffer(cb));
		if (poll) { /* done once the counter says so: then the indices change at once */
			uint64_t want = (uint64_t)f + 1, now = 0;
			VkTimelineSemaphoreSubmitInfo tsi = {
			    VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
			    NULL,
			    0,
			    NULL,
			    1,
			    &want};
			VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, &tsi};
			si.commandBufferCount = 1;
			si.pCommandBuffers = &cb;
			si.signalSemaphoreCount = 1;
			si.pSignalSemaphores = &timeline;
			CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
			while (now < want)
				CHECK(vkGetSemaphoreCounterValue(dev, timeline, &now));
			uint32_t first = f % 2 ? 60 : 0;
			indices[0] = first, indices[1] = first + 1, indices[2] = first + 2;
		} else {
			app_submit_wait(cb, fence);
		}
		sum = app_checksum(sum, m_rb, W * H);
	}
	sum = app_checksum(sum, m_sb, N_WORDS);
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDeviceWaitIdle(dev);
	if (timeline)
		vkDestroySemaphore(dev, timeline, NULL);
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, sec.pool, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	VkPipeline pipes[3] = {p_tri, p_fs, p_cs};
	for (int i = 0; i < 3; i++)
		vkDestroyPipeline(dev, pipes[i], NULL);
	VkShaderModule mods[5] = {s_tv, s_tf, s_fv, s_sf, s_cs};
	for (int i = 0; i < 5; i++)
		vkDestroyShaderModule(dev, mods[i], NULL);
	vkDestroyPipelineLayout(dev, empty_l, NULL);
	vkDestroyPipelineLayout(dev, tex_l, NULL);
	vkDestroyPipelineLayout(dev, comp_l, NULL);
	vkDestroyDescriptorPool(dev, dpool, NULL);
	for (int i = 0; i < 2; i++)
		if (tmpl[i])
			vkDestroyDescriptorUpdateTemplate(dev, tmpl[i], NULL);
	vkDestroyDescriptorSetLayout(dev, gl, NULL);
	vkDestroyDescriptorSetLayout(dev, cl, NULL);
	vkDestroySampler(dev, sampler, NULL);
	vkDestroyFramebuffer(dev, fb_a, NULL);
	vkDestroyFramebuffer(dev, fb_b, NULL);
	vkDestroyRenderPass(dev, rp_a, NULL);
	vkDestroyRenderPass(dev, rp_b, NULL);
	vkDestroyImageView(dev, tex_v, NULL);
	if (heap) {
		vkDestroyImageView(dev, other_v, NULL);
		vkDestroyImage(dev, other, NULL);
		vkFreeMemory(dev, m_other, NULL);
	}
	vkDestroyImageView(dev, depth_v, NULL);
	vkDestroyImageView(dev, out_v, NULL);
	vkDestroyImage(dev, tex, NULL);
	vkDestroyImage(dev, depth, NULL);
	vkDestroyImage(dev, out, NULL);
	vkDestroyBuffer(dev, vb, NULL);
	if (sbv)
		vkDestroyBufferView(dev, sbv, NULL);
	vkDestroyBuffer(dev, sb, NULL);
	vkDestroyBuffer(dev, rb, NULL);
	vkDestroyBuffer(dev, ib, NULL);
	if (ind) {
		vkDestroyBuffer(dev, ind, NULL);
		vkFreeMemory(dev, m_ind, NULL);
	}
	if (st) {
		vkDestroyBuffer(dev, st, NULL);
		if (staging)
			vkUnmapMemory(dev, m_st);
		vkFreeMemory(dev, m_st, NULL);
	} else if (!unmap)
		vkUnmapMemory(dev, m_ib);
	VkDeviceMemory mems[7] = {m_tex, m_depth, m_out, m_vb, m_sb, m_rb, m_ib};
	for (int i = 0; i < 7; i++)
		vkFreeMemory(dev, mems[i], NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

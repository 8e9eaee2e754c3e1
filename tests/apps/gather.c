/* gather.c - a headless compute program whose accesses only instrumented shaders see exactly
 * (capture tier 3): instr.comp run over 4096 invocations reads a signed index per invocation,
 * with it one 24-byte struct of every other 32-byte item (a dependent, data-chosen gather over
 * half of a 256 KiB buffer), a uniform scale, and stores one word every 16 bytes with a
 * counter bumped atomically. Each frame is one submission; prints a checksum of the output.
 * With `once` the command buffer is recorded once and submitted every frame. With `image` it
 * runs image.comp instead: each of 64 x 16 invocations reads a texel of a 64 x 64 storage image
 * 32 rows below its own and writes its own (the top quarter), then the image is copied out.
 * With `bindless` it runs bindless.comp: 64 workgroups of 16, workgroup w reading and writing
 * its 16 words of buffer w % 4 of an array of four (1024 words each), chosen at run time.
 * With `sampled` it runs image_sampled.comp: the same, its read a texelFetch through a sampler.
 * With `array` it runs image_array.comp: an arrayed storage image, layer 1 read, layer 0 written.
 * With `bda` it runs bda.comp: reads and writes through buffer device addresses, no descriptor.
 *   gather [FRAMES [once|image|sampled|array|bindless|bda]] (default 2) */
#include "vkapp.h"

#include "bda.comp.h"
#include "bindless.comp.h"
#include "image.comp.h"
#include "image_array.comp.h"
#include "image_sampled.comp.h"
#include "instr.comp.h"

#define INV 4096u

/* A compute pipeline of shader module m (given back in *mod), its layout of set layout sl (or
 * none) and push_bytes of push constants. */
static VkPipeline compute_pipe(const VkDescriptorSetLayout *sl, uint32_t push_bytes,
			       VkShaderModule m, VkPipelineLayout *layout, VkShaderModule *mod)
{
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
	VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	pl.setLayoutCount = sl ? 1 : 0;
	pl.pSetLayouts = sl;
	pl.pushConstantRangeCount = push_bytes ? 1 : 0;
	pl.pPushConstantRanges = &pcr;
	CHECK(vkCreatePipelineLayout(dev, &pl, NULL, layout));
	VkComputePipelineCreateInfo ci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	ci.stage =
	    (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
					      NULL,
					      0,
					      VK_SHADER_STAGE_COMPUTE_BIT,
					      m,
					      "main",
					      NULL};
	ci.layout = *layout;
	VkPipeline pipe;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &pipe));
	*mod = m;
	return pipe;
}

/* The `bindless` mode: FRAMES dispatches of bindless.comp; the four buffers summed. */
static int bindless_mode(int frames)
{
	VkDescriptorSetLayoutBinding b[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dl.bindingCount = 2;
	dl.pBindings = b;
	VkDescriptorSetLayout sl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &sl));
	VkPipelineLayout layout;
	VkShaderModule mod;
	VkPipeline pipe = compute_pipe(
	    &sl, 0, app_shader(spv_bindless_comp, sizeof(spv_bindless_comp)), &layout, &mod);
	VkBuffer buf[5];
	VkDeviceMemory mem[5];
	void *map[5];
	for (int k = 0; k < 5; k++) {
		buf[k] = app_buffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &mem[k]);
		CHECK(vkMapMemory(dev, mem[k], 0, VK_WHOLE_SIZE, 0, &map[k]));
		memset(map[k], 0, 4096);
	}
	for (uint32_t w = 0; w < 64; w++) /* the selector: workgroup w takes buffer w % 4 */
		((uint32_t *)map[4])[w] = w % 4;
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5};
	VkDescriptorPoolCreateInfo dp = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps};
	VkDescriptorPool pool;
	CHECK(vkCreateDescriptorPool(dev, &dp, NULL, &pool));
	VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					  pool, 1, &sl};
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(dev, &ai, &set));
	VkDescriptorBufferInfo bi[5];
	VkWriteDescriptorSet wr[5];
	for (uint32_t k = 0; k < 5; k++) {
		bi[k] = (VkDescriptorBufferInfo){buf[k], 0, VK_WHOLE_SIZE};
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		wr[k].dstSet = set;
		wr[k].dstBinding = k < 4 ? 0 : 1;
		wr[k].dstArrayElement = k < 4 ? k : 0;
		wr[k].descriptorCount = 1;
		wr[k].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		wr[k].pBufferInfo = &bi[k];
	}
	vkUpdateDescriptorSets(dev, 5, wr, 0, NULL);
	VkCommandPool cpool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bg = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bg));
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
					NULL);
		vkCmdDispatch(cb, 64, 1, 1);
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
	}
	uint64_t sum = 0;
	for (int k = 0; k < 4; k++) {
		vkUnmapMemory(dev, mem[k]);
		sum = app_checksum(sum, mem[k], 1024);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, cpool, NULL);
	vkDestroyDescriptorPool(dev, pool, NULL);
	for (int k = 0; k < 5; k++) {
		vkDestroyBuffer(dev, buf[k], NULL);
		vkFreeMemory(dev, mem[k], NULL);
	}
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, mod, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, sl, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

/* The `image` mode: FRAMES dispatches of image.comp, the image copied out and summed; the
 * `sampled` mode: image_sampled.comp, reading through a sampler (binding 1) instead; the
 * `array` mode: image_array.comp on a 2-layer image (layer 0 copied out). */
static int image_mode(int frames, int sampled, int array)
{
	VkDescriptorSetLayoutBinding b[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
	    {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dl.bindingCount = sampled ? 2 : 1;
	dl.pBindings = b;
	VkDescriptorSetLayout sl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &sl));
	VkPipelineLayout layout;
	VkShaderModule mod;
	VkPipeline pipe = compute_pipe(
	    &sl, 0,
	    sampled ? app_shader(spv_image_sampled_comp, sizeof(spv_image_sampled_comp))
	    : array ? app_shader(spv_image_array_comp, sizeof(spv_image_array_comp))
		    : app_shader(spv_image_comp, sizeof(spv_image_comp)),
	    &layout, &mod);
	VkDeviceMemory imem, bmem;
	VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = VK_FORMAT_R32_UINT;
	ici.extent = (VkExtent3D){64, 64, 1};
	ici.mipLevels = 1;
	ici.arrayLayers = array ? 2 : 1;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		    VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
	VkImage img;
	CHECK(vkCreateImage(dev, &ici, NULL, &img));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(dev, img, &req);
	imem = app_memory(req, 0);
	CHECK(vkBindImageMemory(dev, img, imem, 0));
	VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = img;
	vci.viewType = array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
	vci.format = VK_FORMAT_R32_UINT;
	vci.subresourceRange =
	    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, ici.arrayLayers};
	VkImageView view;
	CHECK(vkCreateImageView(dev, &vci, NULL, &view));
	VkBuffer out = app_buffer(64 * 64 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &bmem);
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
				      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}};
	VkDescriptorPoolCreateInfo dp = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 2, ps};
	VkDescriptorPool pool;
	CHECK(vkCreateDescriptorPool(dev, &dp, NULL, &pool));
	VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					  pool, 1, &sl};
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(dev, &ai, &set));
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler;
	CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkDescriptorImageInfo ii[2] = {{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL},
				       {sampler, view, VK_IMAGE_LAYOUT_GENERAL}};
	VkWriteDescriptorSet wr[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
				      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
	for (int k = 0; k < 2; k++) {
		wr[k].dstSet = set;
		wr[k].dstBinding = (uint32_t)k;
		wr[k].descriptorCount = 1;
		wr[k].descriptorType = b[k].descriptorType;
		wr[k].pImageInfo = &ii[k];
	}
	vkUpdateDescriptorSets(dev, sampled ? 2 : 1, wr, 0, NULL);
	VkCommandPool cpool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, ici.arrayLayers};
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bg = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bg));
		VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		ib.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
				   VK_ACCESS_TRANSFER_WRITE_BIT;
		ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
		ib.oldLayout = f ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_UNDEFINED;
		ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
		ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		ib.image = img;
		ib.subresourceRange = all;
		if (!f) { /* known contents: zero */
			VkImageMemoryBarrier first = ib;
			first.srcAccessMask = 0;
			first.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
					     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1,
					     &first);
			VkClearColorValue zero = {{0}};
			vkCmdClearColorImage(cb, img, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
		}
		ib.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
		ib.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
				     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 1,
				     &ib);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
					NULL);
		vkCmdDispatch(cb, 4, 4, 1);
		ib.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
		ib.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
				     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
		VkBufferImageCopy r = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {64, 64, 1}};
		vkCmdCopyImageToBuffer(cb, img, VK_IMAGE_LAYOUT_GENERAL, out, 1, &r);
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
	}
	printf("checksum %016llx\n", (unsigned long long)app_checksum(0, bmem, 64 * 64));
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, cpool, NULL);
	vkDestroyDescriptorPool(dev, pool, NULL);
	vkDestroyBuffer(dev, out, NULL);
	vkFreeMemory(dev, bmem, NULL);
	vkDestroySampler(dev, sampler, NULL);
	vkDestroyImageView(dev, view, NULL);
	vkDestroyImage(dev, img, NULL);
	vkFreeMemory(dev, imem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, mod, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, sl, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

/* A host-visible buffer whose device address the shader is given. */
static VkBuffer bda_buffer(VkDeviceSize size, VkDeviceMemory *mem, VkDeviceAddress *addr)
{
	VkBufferCreateInfo ci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	ci.size = size;
	ci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
	VkBuffer b;
	CHECK(vkCreateBuffer(dev, &ci, NULL, &b));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(dev, b, &req);
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	uint32_t type = 0;
	while (type < mp.memoryTypeCount &&
	       (!(req.memoryTypeBits >> type & 1) ||
		(mp.memoryTypes[type].propertyFlags & APP_HOST) != APP_HOST))
		type++;
	VkMemoryAllocateFlagsInfo fi = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, NULL,
					VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0};
	VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &fi, req.size, type};
	CHECK(vkAllocateMemory(dev, &ai, NULL, mem));
	CHECK(vkBindBufferMemory(dev, b, *mem, 0));
	VkBufferDeviceAddressInfo bi = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, NULL, b};
	*addr = vkGetBufferDeviceAddress(dev, &bi);
	return b;
}

/* The `bda` mode: FRAMES dispatches of bda.comp (4096 invocations), its source and destination
 * reached by device address through push constants; the destination summed. */
static int bda_mode(int frames)
{
	VkPipelineLayout layout;
	VkShaderModule mod;
	VkPipeline pipe =
	    compute_pipe(NULL, 16, app_shader(spv_bda_comp, sizeof(spv_bda_comp)), &layout, &mod);
	VkDeviceMemory smem, dmem;
	VkDeviceAddress a[2];
	VkBuffer src = bda_buffer(4096 * 128, &smem, &a[0]),
		 dst = bda_buffer(4096 * 4, &dmem, &a[1]);
	uint32_t *w;
	CHECK(vkMapMemory(dev, smem, 0, VK_WHOLE_SIZE, 0, (void **)&w));
	for (uint32_t i = 0; i < 4096 * 32; i++)
		w[i] = i * 7u;
	vkUnmapMemory(dev, smem);
	VkCommandPool cpool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bg = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bg));
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
		vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, a);
		vkCmdDispatch(cb, 64, 1, 1);
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
	}
	printf("checksum %016llx\n", (unsigned long long)app_checksum(0, dmem, 4096));
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, cpool, NULL);
	vkDestroyBuffer(dev, src, NULL);
	vkDestroyBuffer(dev, dst, NULL);
	vkFreeMemory(dev, smem, NULL);
	vkFreeMemory(dev, dmem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, mod, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[2], "bda")) { /* Vulkan 1.2: device addresses, SPIR-V 1.5 */
		VkPhysicalDeviceBufferDeviceAddressFeatures ba = {
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
		ba.bufferDeviceAddress = VK_TRUE;
		VkPhysicalDeviceFeatures2 bf = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &ba};
		app_api_version = VK_API_VERSION_1_2;
		app_open("gather", 0, NULL, &bf);
		return bda_mode(atoi(argv[1]));
	}
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	int once = argc > 2 && !strcmp(argv[2], "once");
	VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	f2.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE; /* bindless.comp */
	app_open("gather", 0, NULL, argc > 2 && !strcmp(argv[2], "bindless") ? &f2 : NULL);
	if (argc > 2 && !strcmp(argv[2], "bindless"))
		return bindless_mode(frames);
	if (argc > 2 &&
	    (!strcmp(argv[2], "image") || !strcmp(argv[2], "sampled") || !strcmp(argv[2], "array")))
		return image_mode(frames, !strcmp(argv[2], "sampled"), !strcmp(argv[2], "array"));
	VkDescriptorSetLayoutBinding b[4];
	static const VkDescriptorType types[4] = {
	    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
	for (uint32_t i = 0; i < 4; i++)
		b[i] = (VkDescriptorSetLayoutBinding){i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT,
						      NULL};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dl.bindingCount = 4;
	dl.pBindings = b;
	VkDescriptorSetLayout sl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &sl));
	VkPipelineLayout layout;
	VkShaderModule mod;
	VkPipeline pipe =
	    compute_pipe(&sl, 0, app_shader(spv_instr_comp, sizeof(spv_instr_comp)), &layout, &mod);
	/* src: 16-byte header, 2 INV items; dst: 16 + 4 * 4 INV (scale 4); u; ix */
	VkDeviceSize sizes[4] = {16 + 32 * 2 * INV, 16 + 16 * INV, 16, 4 * INV};
	VkBufferUsageFlags usage[4] = {
	    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
	VkBuffer buf[4];
	VkDeviceMemory mem[4];
	void *map[4];
	for (int i = 0; i < 4; i++) {
		buf[i] = app_buffer(sizes[i], usage[i], APP_HOST, &mem[i]);
		CHECK(vkMapMemory(dev, mem[i], 0, VK_WHOLE_SIZE, 0, &map[i]));
		memset(map[i], 0, sizes[i]);
	}
	for (uint32_t i = 0; i < INV; i++) {
		int32_t j = (int32_t)(2 * ((i * 37 + 11) % INV)); /* every other item, shuffled */
		uint32_t id = 7 * i;
		float w = (float)i;
		memcpy((char *)map[3] + 4 * i, &j, 4);
		memcpy((char *)map[0] + 16 + 64 * i + 16, &id, 4);
		memcpy((char *)map[0] + 16 + 64 * i + 20, &w, 4);
	}
	uint32_t scale[4] = {4, 0, 0, 0};
	memcpy(map[2], scale, sizeof(scale));
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3},
				      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
	VkDescriptorPoolCreateInfo dp = {
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 2, ps};
	VkDescriptorPool pool;
	CHECK(vkCreateDescriptorPool(dev, &dp, NULL, &pool));
	VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
					  pool, 1, &sl};
	VkDescriptorSet set;
	CHECK(vkAllocateDescriptorSets(dev, &ai, &set));
	VkDescriptorBufferInfo bi[4];
	VkWriteDescriptorSet wr[4];
	for (uint32_t i = 0; i < 4; i++) {
		bi[i] = (VkDescriptorBufferInfo){buf[i], 0, VK_WHOLE_SIZE};
		wr[i] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		wr[i].dstSet = set;
		wr[i].dstBinding = i;
		wr[i].descriptorCount = 1;
		wr[i].descriptorType = types[i];
		wr[i].pBufferInfo = &bi[i];
	}
	vkUpdateDescriptorSets(dev, 4, wr, 0, NULL);
	VkCommandPool cpool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkFence fence = app_fence();
	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		VkCommandBufferBeginInfo bg = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		if (once && f) {
			app_submit_wait(cb, fence);
			continue;
		}
		CHECK(vkBeginCommandBuffer(cb, &bg));
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
					NULL);
		vkCmdDispatch(cb, INV / 16, 1, 1);
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
	}
	vkUnmapMemory(dev, mem[1]);
	sum = app_checksum(sum, mem[1], (uint32_t)(sizes[1] / 4));
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, cpool, NULL);
	vkDestroyDescriptorPool(dev, pool, NULL);
	for (int i = 0; i < 4; i++) {
		vkDestroyBuffer(dev, buf[i], NULL);
		vkFreeMemory(dev, mem[i], NULL);
	}
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, mod, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, sl, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

/* gather.c - a headless compute program whose accesses only instrumented shaders see exactly
 * (capture tier 3): instr.comp run over 4096 invocations reads a signed index per invocation,
 * with it one 24-byte struct of every other 32-byte item (a dependent, data-chosen gather over
 * half of a 256 KiB buffer), a uniform scale, and stores one word every 16 bytes with a
 * counter bumped atomically. Each frame is one submission; prints a checksum of the output.
 * With `once` the command buffer is recorded once and submitted every frame.
 *   gather [FRAMES [once]]                           (default 2) */
#include "vkapp.h"

#include "instr.comp.h"

#define INV 4096u

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	int once = argc > 2 && !strcmp(argv[2], "once");
	app_open("gather", 0, NULL, NULL);
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
	VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	pl.setLayoutCount = 1;
	pl.pSetLayouts = &sl;
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(dev, &pl, NULL, &layout));
	VkComputePipelineCreateInfo ci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	ci.stage =
	    (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
					      NULL,
					      0,
					      VK_SHADER_STAGE_COMPUTE_BIT,
					      app_shader(spv_instr_comp, sizeof(spv_instr_comp)),
					      "main",
					      NULL};
	ci.layout = layout;
	VkPipeline pipe;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &pipe));
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
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, sl, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}

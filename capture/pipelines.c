/* pipelines.c - tracked shader modules (the bindings each uses, from its SPIR-V) and
 * graphics and compute pipelines: the state that changes traffic, pipeline libraries merged. */
#include "capture.h"
#include "spirv.h"

#include <stdlib.h>
#include <string.h>

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateShaderModule(VkDevice device,
						      const VkShaderModuleCreateInfo *info,
						      const VkAllocationCallbacks *alloc,
						      VkShaderModule *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateShaderModule(device, info, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	struct shader *sh = calloc(1, sizeof(*sh));
	if (sh)
		llct_spirv_bindings(info->pCode, info->codeSize / 4, sh->used);
	pthread_mutex_lock(&c->lock);
	if (!sh || hput(&c->shaders, H(*out), sh)) {
		free(sh);
		cap_fail(c, "out of memory tracking shaders");
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyShaderModule(VkDevice device, VkShaderModule m,
						   const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyShaderModule(device, m, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->shaders, H(m)));
	pthread_mutex_unlock(&c->lock);
}

/* The union of the bindings the stages use; unknown modules (inline SPIR-V in pNext, or a
 * module the layer did not see) count as using everything. */
static void stage_use(struct capture_device *c, const VkPipelineShaderStageCreateInfo *st,
		      uint32_t n, uint64_t *used)
{
	memset(used, 0, 8 * sizeof(*used));
	for (uint32_t i = 0; i < n; i++) {
		struct shader *sh = hget(&c->shaders, H(st[i].module));
		for (int s = 0; s < 8; s++)
			used[s] |= sh ? sh->used[s] : UINT64_MAX;
	}
}

/* Whether a face's stencil state can change the stencil: a write mask, and an op that is
 * not KEEP. */
static int stencil_writes(const VkStencilOpState *f)
{
	return f->writeMask &&
	       (f->failOp != VK_STENCIL_OP_KEEP || f->passOp != VK_STENCIL_OP_KEEP ||
		f->depthFailOp != VK_STENCIL_OP_KEEP);
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateGraphicsPipelines(
    VkDevice device, VkPipelineCache cache, uint32_t n, const VkGraphicsPipelineCreateInfo *infos,
    const VkAllocationCallbacks *alloc, VkPipeline *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateGraphicsPipelines(device, cache, n, infos, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++) {
		const VkGraphicsPipelineCreateInfo *g = &infos[i];
		struct pipe *p = calloc(1, sizeof(*p));
		if (!p || hput(&c->pipes, H(out[i]), p)) {
			free(p);
			cap_fail(c, "out of memory tracking pipelines");
			break;
		}
		p->id = c->next_id++;
		stage_use(c, g->pStages, g->stageCount, p->used);
		for (uint32_t k = 0; k < g->stageCount; k++)
			p->has_fs |= g->pStages[k].stage == VK_SHADER_STAGE_FRAGMENT_BIT;
		if (g->pVertexInputState)
			for (uint32_t b = 0;
			     b < g->pVertexInputState->vertexBindingDescriptionCount; b++) {
				const VkVertexInputBindingDescription *vb =
				    &g->pVertexInputState->pVertexBindingDescriptions[b];
				if (vb->binding < 16)
					p->stride[vb->binding] = vb->stride;
			}
		if (g->pDepthStencilState) {
			const VkPipelineDepthStencilStateCreateInfo *z = g->pDepthStencilState;
			p->depth_test = z->depthTestEnable;
			p->depth_write = z->depthWriteEnable;
			p->stencil_test = z->stencilTestEnable;
			p->stencil_write = stencil_writes(&z->front) || stencil_writes(&z->back);
		}
		if (g->pColorBlendState) {
			const VkPipelineColorBlendStateCreateInfo *bs = g->pColorBlendState;
			for (uint32_t a = 0; a < bs->attachmentCount && a < 32; a++) {
				const VkPipelineColorBlendAttachmentState *cb =
				    &bs->pAttachments[a];
				p->blend |= (uint32_t) !!cb->blendEnable << a;
				p->write_mask |= (uint32_t) !!cb->colorWriteMask << a;
			}
			for (const VkBaseInStructure *x = bs->pNext; x; x = x->pNext) {
				if (x->sType !=
				    VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT)
					continue; /* VK_EXT_color_write_enable, static */
				const VkPipelineColorWriteCreateInfoEXT *cw = (const void *)x;
				for (uint32_t a = 0; a < cw->attachmentCount && a < 32; a++)
					if (!cw->pColorWriteEnables[a])
						p->write_mask &= ~((uint32_t)1 << a);
			}
		}
		for (uint32_t k = 0; g->pDynamicState && k < g->pDynamicState->dynamicStateCount;
		     k++) {
			VkDynamicState ds = g->pDynamicState->pDynamicStates[k];
			p->dyn_depth_test |= ds == VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE;
			p->dyn_depth_write |= ds == VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE;
			p->dyn_stencil_test |= ds == VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE;
			p->dyn_blend |= ds == VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT;
			p->dyn_write_mask |= ds == VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT;
			p->dyn_write_enable |= ds == VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT;
			if (ds == VK_DYNAMIC_STATE_STENCIL_WRITE_MASK ||
			    ds == VK_DYNAMIC_STATE_STENCIL_OP)
				p->stencil_write = 1;
			p->dyn_stride |= ds == VK_DYNAMIC_STATE_VERTEX_INPUT_EXT ||
					 ds == VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE;
		}
		/* graphics pipeline libraries (Zink links its pipelines from parts): the parts'
		 * state is the whole pipeline's */
		for (const VkBaseInStructure *x = g->pNext; x; x = x->pNext) {
			if (x->sType != VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR)
				continue;
			const VkPipelineLibraryCreateInfoKHR *lib = (const void *)x;
			for (uint32_t k = 0; k < lib->libraryCount; k++) {
				struct pipe *q = hget(&c->pipes, H(lib->pLibraries[k]));
				if (!q)
					continue;
				p->depth_test |= q->depth_test;
				p->depth_write |= q->depth_write;
				p->stencil_test |= q->stencil_test;
				p->stencil_write |= q->stencil_write;
				p->blend |= q->blend;
				p->write_mask |= q->write_mask;
				p->dyn_write_mask |= q->dyn_write_mask;
				p->dyn_write_enable |= q->dyn_write_enable;
				p->dyn_depth_test |= q->dyn_depth_test;
				p->dyn_depth_write |= q->dyn_depth_write;
				p->dyn_stencil_test |= q->dyn_stencil_test;
				p->dyn_blend |= q->dyn_blend;
				p->dyn_stride |= q->dyn_stride;
				p->has_fs |= q->has_fs;
				for (int b = 0; b < 16; b++)
					if (!p->stride[b])
						p->stride[b] = q->stride[b];
				for (int st = 0; st < 8; st++)
					p->used[st] |= q->used[st];
				if (!p->has_viewport && q->has_viewport) {
					p->has_viewport = 1;
					p->viewport = q->viewport;
				}
				if (!p->has_scissor && q->has_scissor) {
					p->has_scissor = 1;
					p->scissor = q->scissor;
				}
			}
		}
		if (g->pViewportState && g->pViewportState->pViewports &&
		    g->pViewportState->viewportCount) {
			p->has_viewport = 1;
			p->viewport = g->pViewportState->pViewports[0];
		}
		if (g->pViewportState && g->pViewportState->pScissors &&
		    g->pViewportState->scissorCount) {
			p->has_scissor = 1;
			p->scissor = g->pViewportState->pScissors[0];
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL cap_CreateComputePipelines(VkDevice device, VkPipelineCache cache,
							  uint32_t n,
							  const VkComputePipelineCreateInfo *infos,
							  const VkAllocationCallbacks *alloc,
							  VkPipeline *out)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	VkResult r = d->d.CreateComputePipelines(device, cache, n, infos, alloc, out);
	if (r != VK_SUCCESS || !c)
		return r;
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < n; i++) {
		struct pipe *p = calloc(1, sizeof(*p));
		if (!p || hput(&c->pipes, H(out[i]), p)) {
			free(p);
			cap_fail(c, "out of memory tracking pipelines");
			break;
		}
		p->id = c->next_id++;
		p->compute = 1;
		stage_use(c, &infos[i].stage, 1, p->used);
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyPipeline(VkDevice device, VkPipeline pipeline,
					       const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyPipeline(device, pipeline, alloc);
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	free(hdel(&c->pipes, H(pipeline)));
	pthread_mutex_unlock(&c->lock);
}

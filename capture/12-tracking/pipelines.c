/* pipelines.c - tracked shader modules (their SPIR-V, and the bindings each uses) and
 * graphics and compute pipelines: the state that changes traffic, by part (vertex input,
 * pre-rasterization, fragment shader, fragment output), so that a pipeline linked from
 * graphics pipeline libraries takes each part from the library that defines it; tier 2's
 * shadow of each pipeline is shadow.c's. */
#include "async.h"
#include "core.h"
#include "layer.h"
#include "llct_intercepts.h"
#include "output.h"
#include "pipes.h"
#include "record.h"
#include "settings.h"
#include "spirv.h"
#include "submit.h"
#include "tier.h"
#include "track.h"
#include "walk.h"

#include <spirv/unified1/spirv.h>
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
	if (sh) {
		llct_spirv_bindings(info->pCode, info->codeSize / 4, sh->used);
		sh->n_words = info->codeSize / 4;
		sh->code = malloc(sh->n_words * 4 + 4);
		if (sh->code)
			memcpy(sh->code, info->pCode, sh->n_words * 4);
	}
	pthread_mutex_lock(&c->lock);
	if (!sh || !sh->code || capture_hmap_put(&c->ps->shaders, H(*out), sh)) {
		capture_free_shader(sh);
		cap_fail(c, "out of memory tracking shaders");
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

void capture_free_shader(void *p)
{
	struct shader *sh = p;
	if (sh)
		free(sh->code);
	free(sh);
}

VKAPI_ATTR void VKAPI_CALL cap_DestroyShaderModule(VkDevice device, VkShaderModule m,
						   const VkAllocationCallbacks *alloc)
{
	struct layer_device *d;
	struct capture_device *c = cap_of(device, &d);
	d->d.DestroyShaderModule(device, m, alloc);
	if (!c)
		return;
	ASYNC_FORGET(c, c->ps->shaders, m, capture_free_shader);
}

/* What the stages tell: the bindings they use (unknown modules use everything), a fragment
 * stage and what it may do, a geometry or tessellation stage's output. */
static void stages(struct capture_device *c, const VkPipelineShaderStageCreateInfo *st, uint32_t n,
		   struct pipe *p)
{
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *code;
		size_t words;
		struct llct_spirv_info info;
		int known = !capture_stage_code(c->ps, &st[i], &code, &words) &&
			    !llct_spirv_info(code, words, st[i].pName, &info);
		uint64_t used[8];
		if (known)
			llct_spirv_bindings(code, words, used);
		for (int s = 0; s < 8; s++)
			p->used[s] |= known ? used[s] : UINT64_MAX;
		if (st[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT) {
			p->fs.has_fs = 1;
			p->fs.discards = !known || info.discards;
			p->fs.writes_depth = !known || info.writes_depth;
		}
		if (st[i].stage == VK_SHADER_STAGE_GEOMETRY_BIT ||
		    (st[i].stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT &&
		     p->pr.out_prim < 0)) { /* the geometry stage's output is the last word */
			p->pr.expands = 1;
			p->pr.out_prim = known ? info.output_prim : LLCT_PRIM_TRIANGLES;
			if (p->pr.out_prim < 0)
				p->pr.out_prim = LLCT_PRIM_TRIANGLES;
		}
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

static uint32_t dyn_bit(VkDynamicState ds)
{
	switch (ds) {
	case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE:
		return DY_DEPTH_TEST;
	case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE:
		return DY_DEPTH_WRITE;
	case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE:
		return DY_STENCIL_TEST;
	case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT:
		return DY_BLEND;
	case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT:
		return DY_WRITE_MASK;
	case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
		return DY_WRITE_ENABLE;
	case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT:
	case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE:
		return DY_STRIDE;
	case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY:
		return DY_TOPOLOGY;
	case VK_DYNAMIC_STATE_CULL_MODE:
		return DY_CULL;
	case VK_DYNAMIC_STATE_FRONT_FACE:
		return DY_FRONT_FACE;
	case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP:
		return DY_DEPTH_COMPARE;
	case VK_DYNAMIC_STATE_STENCIL_OP:
		return DY_STENCIL_OP;
	case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
		return DY_STENCIL_CMASK;
	case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
		return DY_STENCIL_WMASK;
	case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
		return DY_STENCIL_REF;
	case VK_DYNAMIC_STATE_DEPTH_BIAS:
		return DY_DEPTH_BIAS;
	case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE:
		return DY_DEPTH_BIAS_ENABLE;
	case VK_DYNAMIC_STATE_LINE_WIDTH:
		return DY_LINE_WIDTH;
	case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE:
		return DY_RAST_DISCARD;
	case VK_DYNAMIC_STATE_POLYGON_MODE_EXT:
		return DY_POLYGON_MODE;
	case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT:
		return DY_SAMPLES;
	case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT:
		return DY_DEPTH_CLAMP;
	case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT:
		return DY_DEPTH_CLIP;
	case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT:
		return DY_CLIP_NEG;
	default:
		return 0;
	}
}

/* The parts a create info defines itself: a library's (VkGraphicsPipelineLibraryCreateInfoEXT),
 * else all of them, less those its libraries bring. */
static uint32_t own_parts(const VkGraphicsPipelineCreateInfo *g, uint32_t from_libs)
{
	uint32_t parts = PART_ALL;
	if (g->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) {
		parts = 0;
		for (const VkBaseInStructure *x = g->pNext; x; x = x->pNext)
			if (x->sType ==
			    VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT) {
				VkGraphicsPipelineLibraryFlagsEXT f =
				    ((const VkGraphicsPipelineLibraryCreateInfoEXT *)x)->flags;
				parts |=
				    f & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT
					? PART_VI
					: 0;
				parts |=
				    f & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT
					? PART_PR
					: 0;
				parts |= f & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT
					     ? PART_FS
					     : 0;
				parts |=
				    f & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT
					? PART_FO
					: 0;
			}
	}
	return parts & ~from_libs;
}

/* The state of the parts the create info defines. */
static void state(struct capture_device *c, struct pipe *p, const VkGraphicsPipelineCreateInfo *g,
		  uint32_t parts)
{
	if (g->pDynamicState)
		for (uint32_t k = 0; k < g->pDynamicState->dynamicStateCount; k++)
			p->dyn |= dyn_bit(g->pDynamicState->pDynamicStates[k]);
	if ((parts & PART_PR) || (parts & PART_FS))
		stages(c, g->pStages, g->stageCount, p);
	if (parts & PART_VI) {
		const VkPipelineVertexInputStateCreateInfo *vi = g->pVertexInputState;
		for (uint32_t b = 0; vi && b < vi->vertexBindingDescriptionCount; b++)
			if (vi->pVertexBindingDescriptions[b].binding < 16)
				p->vi.stride[vi->pVertexBindingDescriptions[b].binding] =
				    vi->pVertexBindingDescriptions[b].stride;
		p->vi.topology = g->pInputAssemblyState ? g->pInputAssemblyState->topology
							: VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	}
	if (parts & PART_PR) {
		const VkPipelineRasterizationStateCreateInfo *rs = g->pRasterizationState;
		const VkPipelineViewportStateCreateInfo *vs = g->pViewportState;
		int dyn_vp = 0, dyn_sc = 0;
		for (uint32_t k = 0; g->pDynamicState && k < g->pDynamicState->dynamicStateCount;
		     k++) {
			VkDynamicState ds = g->pDynamicState->pDynamicStates[k];
			dyn_vp |= ds == VK_DYNAMIC_STATE_VIEWPORT ||
				  ds == VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT;
			dyn_sc |= ds == VK_DYNAMIC_STATE_SCISSOR ||
				  ds == VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT;
		}
		if (vs && vs->pViewports && vs->viewportCount && !dyn_vp) {
			p->pr.has_viewport = 1;
			p->pr.viewport = vs->pViewports[0];
		}
		if (vs && vs->pScissors && vs->scissorCount && !dyn_sc) {
			p->pr.has_scissor = 1;
			p->pr.scissor = vs->pScissors[0];
		}
		if (rs) {
			p->pr.cull = rs->cullMode;
			p->pr.front_face = rs->frontFace;
			p->pr.polygon_mode = rs->polygonMode;
			p->pr.depth_clamp = rs->depthClampEnable;
			p->pr.rast_discard = rs->rasterizerDiscardEnable;
			p->pr.bias_enable = rs->depthBiasEnable;
			p->pr.bias_c = rs->depthBiasConstantFactor;
			p->pr.bias_clamp = rs->depthBiasClamp;
			p->pr.bias_s = rs->depthBiasSlopeFactor;
			p->pr.line_width = rs->lineWidth;
			for (const VkBaseInStructure *x = rs->pNext; x; x = x->pNext)
				if (x->sType ==
				    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT)
					p->pr.depth_clip =
					    ((const VkPipelineRasterizationDepthClipStateCreateInfoEXT
						  *)x)
						->depthClipEnable;
		}
		for (const VkBaseInStructure *x = vs ? vs->pNext : NULL; x; x = x->pNext)
			if (x->sType ==
			    VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT)
				p->pr.clip_neg =
				    ((const VkPipelineViewportDepthClipControlCreateInfoEXT *)x)
					->negativeOneToOne;
	}
	if (parts & PART_FS) {
		const VkPipelineDepthStencilStateCreateInfo *z = g->pDepthStencilState;
		if (z) {
			p->fs.depth_test = z->depthTestEnable;
			p->fs.depth_write = z->depthWriteEnable;
			p->fs.depth_compare = z->depthCompareOp;
			p->fs.stencil_test = z->stencilTestEnable;
			p->fs.stencil_write = stencil_writes(&z->front) || stencil_writes(&z->back);
			p->fs.front = z->front;
			p->fs.back = z->back;
		}
		if (p->dyn & (DY_STENCIL_WMASK | DY_STENCIL_OP))
			p->fs.stencil_write = 1;
	}
	if ((parts & (PART_FS | PART_FO)) && g->pMultisampleState)
		p->fs.samples = g->pMultisampleState->rasterizationSamples;
	if (parts & PART_FO) {
		const VkPipelineColorBlendStateCreateInfo *bs = g->pColorBlendState;
		for (uint32_t a = 0; bs && a < bs->attachmentCount && a < 32; a++) {
			p->fo.blend |= (uint32_t) !!bs->pAttachments[a].blendEnable << a;
			p->fo.write_mask |= (uint32_t) !!bs->pAttachments[a].colorWriteMask << a;
		}
		for (const VkBaseInStructure *x = bs ? bs->pNext : NULL; x; x = x->pNext) {
			if (x->sType != VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT)
				continue; /* VK_EXT_color_write_enable, static */
			const VkPipelineColorWriteCreateInfoEXT *cw = (const void *)x;
			for (uint32_t a = 0; a < cw->attachmentCount && a < 32; a++)
				if (!cw->pColorWriteEnables[a])
					p->fo.write_mask &= ~((uint32_t)1 << a);
		}
	}
}

/* The parts a library brings to the pipeline linked from it (Zink links its pipelines from
 * libraries); with the lock held. */
static uint32_t link(struct capture_device *c, struct pipe *p,
		     const VkGraphicsPipelineCreateInfo *g)
{
	uint32_t got = 0;
	for (const VkBaseInStructure *x = g->pNext; x; x = x->pNext) {
		if (x->sType != VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR)
			continue;
		const VkPipelineLibraryCreateInfoKHR *lib = (const void *)x;
		for (uint32_t k = 0; k < lib->libraryCount; k++) {
			struct pipe *q = capture_hmap_get(&c->ps->pipes, H(lib->pLibraries[k]));
			if (!q)
				continue;
			p->dyn |= q->dyn;
			for (int s = 0; s < 8; s++)
				p->used[s] |= q->used[s];
			if (q->parts & PART_VI)
				p->vi = q->vi;
			if (q->parts & PART_PR) {
				p->pr = q->pr;
				p->pr.shadow =
				    VK_NULL_HANDLE; /* the library's; this one gets its own */
			}
			if (q->parts & PART_FS)
				p->fs = q->fs;
			if (q->parts & PART_FO)
				p->fo = q->fo;
			if ((q->parts & PART_FO) && !(q->parts & PART_FS) && q->fs.samples)
				p->fs.samples = q->fs.samples;
			got |= q->parts;
		}
	}
	return got;
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
		if (!p || capture_hmap_put(&c->ps->pipes, H(out[i]), p)) {
			free(p);
			cap_fail(c, "out of memory tracking pipelines");
			break;
		}
		p->id = c->out->next_id++;
		p->pr.out_prim = -1;
		p->fs.samples = 1;
		p->pr.line_width = 1;
		p->pr.depth_clip = -1;
		uint32_t libs = link(c, p, g), own = own_parts(g, libs);
		state(c, p, g, own);
		p->parts = own | libs;
	}
	pthread_mutex_unlock(&c->lock);
	for (uint32_t i = 0; i < n; i++) { /* tier 2: each pipeline's shadow; tier 3 its twin */
		if (c->tier->graphics_pipeline)
			c->tier->graphics_pipeline(c, d, cache, &infos[i], out[i]);
	}
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
		if (!p || capture_hmap_put(&c->ps->pipes, H(out[i]), p)) {
			free(p);
			cap_fail(c, "out of memory tracking pipelines");
			break;
		}
		p->id = c->out->next_id++;
		p->compute = 1;
		stages(c, &infos[i].stage, 1, p);
	}
	pthread_mutex_unlock(&c->lock);
	for (uint32_t i = 0; i < n && c->tier->compute_pipeline; i++) /* tier 3: each one's twin */
		c->tier->compute_pipeline(c, cache, &infos[i], out[i]);
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
	async_settle(c); /* nothing queued or being expanded still reads it */
	struct pipe *p = capture_hmap_del(&c->ps->pipes, H(pipeline));
	VkPipeline shadow = p ? p->pr.shadow : VK_NULL_HANDLE;
	VkPipeline twin = p ? p->tw.twin : VK_NULL_HANDLE;
	if (p)
		free(p->tw.sites);
	free(p);
	pthread_mutex_unlock(&c->lock);
	if (shadow)
		d->d.DestroyPipeline(device, shadow, NULL);
	if (twin)
		d->d.DestroyPipeline(device, twin, NULL);
}

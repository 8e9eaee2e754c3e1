/* shadow.c - tier 2's shadow pipelines: for each graphics pipeline the program creates, the
 * same pipeline with its last pre-rasterization stage rewritten to capture Position by
 * transform feedback (spirv_xfb.c) and rasterizer discard on, so a shadow draw writes the
 * draw's primitives and touches no pixel. Pipeline libraries get shadows too: a library with
 * pre-rasterization state a shadow library, and a pipeline linked from libraries the same link
 * with that library's shadow. Created at pipeline creation (the create info is only valid
 * then), on the program's thread, calling down without the lock. A pipeline the layer cannot
 * shadow records why; its draws keep tier 1's model. */
#include "spirv.h"
#include "tier2.h"

#include <stdlib.h>
#include <string.h>

#define MAX_STAGES 8
#define MAX_LIBS 8

/* Records the outcome in the pipeline's record (with the lock). */
static void done(struct capture_device *c, VkPipeline real, VkPipeline shadow, const char *why)
{
	pthread_mutex_lock(&c->lock);
	struct pipe *p = capture_hmap_get(&c->ps->pipes, H(real));
	if (p) {
		p->pr.shadow = shadow;
		p->pr.no_shadow = shadow ? NULL : why;
		p->pr.xfb_floats = p->pr.xfb_floats ? p->pr.xfb_floats : 4;
	}
	pthread_mutex_unlock(&c->lock);
	if (!p && shadow)
		c->dev->d.DestroyPipeline(c->dev->handle, shadow, NULL);
}

void capture_shadow_create(struct capture_device *c, struct layer_device *d, VkPipelineCache cache,
			   const VkGraphicsPipelineCreateInfo *g, VkPipeline real)
{
	if (!c->xfb)
		return;
	VkDevice dev = d->handle;
	VkPipelineLibraryCreateInfoKHR *libs = NULL;
	for (const VkBaseInStructure *x = g->pNext; x; x = x->pNext)
		if (x->sType == VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR)
			libs = (VkPipelineLibraryCreateInfoKHR *)x;
	/* the parts, and the libraries with their shadows swapped in */
	VkPipeline lib_copy[MAX_LIBS];
	const VkPipeline *lib_orig = libs ? libs->pLibraries : NULL;
	uint32_t parts = 0, n_libs = libs ? libs->libraryCount : 0;
	int shadowed_lib = 0;
	const char *why = NULL;
	if (n_libs > MAX_LIBS)
		return done(c, real, VK_NULL_HANDLE, "too many pipeline libraries");
	pthread_mutex_lock(&c->lock);
	struct pipe *p = capture_hmap_get(&c->ps->pipes, H(real));
	if (p)
		parts = p->parts;
	int dyn_discard = p && (p->dyn & DY_RAST_DISCARD);
	for (uint32_t k = 0; k < n_libs; k++) {
		struct pipe *q = capture_hmap_get(&c->ps->pipes, H(lib_orig[k]));
		lib_copy[k] = lib_orig[k];
		if (q && (q->parts & PART_PR)) {
			if (q->pr.shadow)
				lib_copy[k] = q->pr.shadow, shadowed_lib = 1;
			else
				why = q->pr.no_shadow
					  ? q->pr.no_shadow
					  : "its pre-rasterization library has no shadow";
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (!p || !(parts & PART_PR))
		return; /* nothing to shadow (a vertex input, fragment or output library) */
	if (why)
		return done(c, real, VK_NULL_HANDLE, why);
	/* the last pre-rasterization stage, rewritten, unless a library brings it */
	VkPipelineShaderStageCreateInfo st[MAX_STAGES];
	VkShaderModule module = VK_NULL_HANDLE;
	uint32_t *xfb = NULL;
	size_t n_xfb = 0;
	int last = -1;
	if (g->stageCount > MAX_STAGES)
		return done(c, real, VK_NULL_HANDLE, "too many stages");
	for (uint32_t i = 0; i < g->stageCount; i++) {
		st[i] = g->pStages[i];
		VkShaderStageFlagBits s = st[i].stage;
		if (s == VK_SHADER_STAGE_GEOMETRY_BIT ||
		    (s == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT &&
		     (last < 0 || st[last].stage == VK_SHADER_STAGE_VERTEX_BIT)) ||
		    (s == VK_SHADER_STAGE_VERTEX_BIT && last < 0))
			last = (int)i;
	}
	if (last < 0 && !shadowed_lib)
		return done(c, real, VK_NULL_HANDLE, "no vertex stage");
	/* the fragment stage's textures sampled straight at an input: those inputs too */
	struct llct_spirv_tex tex[8];
	uint32_t locs[4], captured = 0;
	int n_tex = 0, n_locs = 0;
	if (last >= 0) {
		const uint32_t *code;
		size_t words;
		pthread_mutex_lock(&c->lock);
		for (uint32_t i = 0; i < g->stageCount; i++)
			if (st[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT &&
			    !capture_stage_code(c->ps, &st[i], &code, &words))
				n_tex = llct_spirv_tex_inputs(code, words, tex, 8);
		for (int k = 0; k < n_tex; k++) {
			int slot = 0;
			while (slot < n_locs && locs[slot] != tex[k].location)
				slot++;
			if (tex[k].direct && slot == n_locs && n_locs < 2)
				locs[n_locs++] = tex[k].location;
		}
		int found = !capture_stage_code(c->ps, &st[last], &code, &words);
		if (found)
			found = !llct_spirv_xfb(code, words, st[last].pName, locs, n_locs,
						&captured, &xfb, &n_xfb, &why);
		pthread_mutex_unlock(&c->lock);
		if (!found)
			return done(c, real, VK_NULL_HANDLE,
				    why ? why : "the stage's SPIR-V is not known");
		VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
					       .codeSize = n_xfb * 4,
					       .pCode = xfb};
		VkResult r = d->d.CreateShaderModule(dev, &mi, NULL, &module);
		free(xfb);
		if (r != VK_SUCCESS)
			return done(c, real, VK_NULL_HANDLE, "the rewritten stage was refused");
		st[last].module = module;
		/* a module given inline in pNext (first in the chain) is replaced by ours */
		const VkBaseInStructure *x = st[last].pNext;
		if (x && x->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)
			st[last].pNext = x->pNext; /* our copy of the stage, not the program's */
		for (x = st[last].pNext; x; x = x->pNext)
			if (x->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
				d->d.DestroyShaderModule(dev, module, NULL);
				return done(c, real, VK_NULL_HANDLE,
					    "an inline shader module deep in the stage's pNext");
			}
	}
	/* rasterizer discard: static unless the pipeline leaves it to commands (then the shadow
	   draw sets it; dynamic state must stay dynamic, or binding the shadow would undo the
	   program's) */
	VkGraphicsPipelineCreateInfo ci = *g;
	VkPipelineRasterizationStateCreateInfo rs;
	if (g->pRasterizationState && !dyn_discard) {
		rs = *g->pRasterizationState;
		rs.rasterizerDiscardEnable = VK_TRUE;
		ci.pRasterizationState = &rs;
	}
	ci.pStages = st;
	ci.flags &=
	    ~(VkPipelineCreateFlags)(VK_PIPELINE_CREATE_DERIVATIVE_BIT |
				     VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT);
	ci.basePipelineHandle = VK_NULL_HANDLE;
	ci.basePipelineIndex = -1;
	/* the link with the shadow library: the program's list is swapped for the call only */
	if (libs)
		libs->pLibraries = lib_copy;
	VkPipeline shadow = VK_NULL_HANDLE;
	VkResult r = d->d.CreateGraphicsPipelines(dev, cache, 1, &ci, NULL, &shadow);
	if (libs)
		libs->pLibraries = lib_orig;
	if (module)
		d->d.DestroyShaderModule(dev, module, NULL);
	if (r == VK_SUCCESS && last >= 0) { /* its vertices' layout and the inputs in them */
		pthread_mutex_lock(&c->lock);
		struct pipe *q = capture_hmap_get(&c->ps->pipes, H(real));
		for (int k = 0; q && k < n_tex && q->fs.n_tex < 4; k++) {
			int slot = 0;
			while (slot < n_locs && locs[slot] != tex[k].location)
				slot++;
			if (tex[k].direct && slot < n_locs && (captured >> slot & 1))
				q->fs.tex[q->fs.n_tex++] = (__typeof__(q->fs.tex[0])){
				    tex[k].set, tex[k].binding, (uint32_t)slot, tex[k].c0,
				    tex[k].c1};
		}
		if (q)
			q->pr.xfb_floats = 4u * (1u + (uint32_t)n_locs);
		pthread_mutex_unlock(&c->lock);
	}
	done(c, real, r == VK_SUCCESS ? shadow : VK_NULL_HANDLE,
	     "the driver refused the shadow pipeline");
}

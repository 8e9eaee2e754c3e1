/* test_spirv_instr_img.c - tier 3's samples that take a prefix record
 * (capture/01-base/spirv_instr_img.c): samplers.frag, instrumented, passes SPIRV-Tools' validator
 * and, drawn for real on the Vulkan device (lavapipe), records for every pixel a sample through an
 * array of textures indexed by a specialization constant (known only when the pipeline is made)
 * with the element it used, an arrayed sample with its layer, a cube sample with its whole
 * direction, each after its prefix and with the same draw and pixel, and a projective sample with
 * its coordinates divided by q -- the values worked out from the pixel's centre. */
#include "spirv.h"
#include "vk_check.h"

#include "fullscreen.vert.h"
#include "sample.comp.h"
#include "samplers.frag.h"
#include "tex.vert.h"
#include "tri.frag.h"

#include <math.h>
#include <spirv-tools/libspirv.h>
#include <string.h>

enum { W = 32, TEX = 16, ELEM = 2, DRAW = 5, VW = 16 };

/* A 16 x 16 RGBA8 texture of `layers` layers; cube 1: a cube, 2: a volume of 4 slices. */
static VkImageView texture(uint32_t layers, int cube, VkImage *img, VkDeviceMemory *mem)
{
	VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.flags = cube == 1 ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
	ici.imageType = cube == 2 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
	ici.format = VK_FORMAT_R8G8B8A8_UNORM;
	ici.extent = (VkExtent3D){TEX, TEX, cube == 2 ? 4 : 1};
	ici.mipLevels = 1;
	ici.arrayLayers = layers;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
	VK(vkCreateImage(dev, &ici, NULL, img));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(dev, *img, &req);
	*mem = app_memory(req, 0);
	VK(vkBindImageMemory(dev, *img, *mem, 0));
	VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = *img;
	vci.viewType = cube == 2            ? VK_IMAGE_VIEW_TYPE_3D
		       : cube && layers > 6 ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY
		       : cube               ? VK_IMAGE_VIEW_TYPE_CUBE
		       : layers > 1         ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
					    : VK_IMAGE_VIEW_TYPE_2D;
	vci.format = ici.format;
	vci.subresourceRange =
	    (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
	VkImageView v;
	VK(vkCreateImageView(dev, &vci, NULL, &v));
	return v;
}

static float f32(uint32_t w)
{
	float f;
	memcpy(&f, &w, 4);
	return f;
}

/* Specialized as a pipeline would be: the constant with SpecId 0 set to v. */
static void specialize(uint32_t *words, size_t nw, uint32_t v)
{
	uint32_t spec_id = 0;
	for (size_t i = 5; i < nw; i += words[i] >> 16)
		if ((words[i] & 0xffff) == 71 && words[i + 2] == 1 &&
		    words[i + 3] == 0) /* SpecId */
			spec_id = words[i + 1];
	for (size_t i = 5; i < nw; i += words[i] >> 16)
		if ((words[i] & 0xffff) == 50 && words[i + 2] == spec_id) /* OpSpecConstant */
			words[i + 3] = v;
	CHECK(spec_id != 0);
}

static void validates(const struct llct_spirv_instr *ins)
{
	spv_diagnostic diag = NULL;
	spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_0);
	int ok = spvValidateBinary(ctx, ins->words, ins->n_words, &diag) == SPV_SUCCESS;
	if (!ok && diag)
		fprintf(stderr, "spvValidate: %s\n", diag->error);
	spvDiagnosticDestroy(diag);
	spvContextDestroy(ctx);
	CHECK(ok);
}

/* The samplers shader instrumented and run on the device over a target, its records checked
 * sample by sample against the coordinates and levels the draw gives. Long because it is one
 * run on the device: the objects made, the draw, the read-back and every check on it. */
static void fragment_runs(void)
{
	static uint32_t words[sizeof(spv_samplers_frag) / 4];
	size_t nw = sizeof(spv_samplers_frag) / 4;
	memcpy(words, spv_samplers_frag, sizeof(words));
	specialize(words, nw, ELEM);
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(words, nw, 1, 0, &ins) == 0);
	validates(&ins);
	/* the four sites, told apart by what the pass says of each */
	enum { SITES = 8 };
	int s_heap = -1, s_arr = -1, s_cube = -1, s_proj = -1, s_grad = -1, s_grad_arr = -1,
	    s_vol = -1, s_cubes = -1;
	CHECK(ins.record_words == 5 && ins.n_sites == SITES && ins.skipped == 0);
	for (size_t s = 0; s < ins.n_sites && s < SITES; s++) {
		const struct llct_spirv_site *st = &ins.sites[s];
		CHECK(st->kind == LLCT_SPIRV_SAMPLE && st->set == 0);
		if (st->element == LLCT_SPIRV_ELEMENT_IN_RECORD && st->prefix && st->binding == 0)
			s_heap = (int)s;
		else if (st->arrayed && st->prefix && st->binding == 1 && st->dim == 2)
			*(st->grad ? &s_grad_arr : &s_arr) = (int)s;
		else if (st->dim == LLCT_SPIRV_DIM_CUBE && st->prefix && st->binding == 2)
			s_cube = (int)s;
		else if (!st->prefix && st->binding == 0 && st->element == 1 && st->dim == 2)
			s_proj = (int)s;
		else if (!st->prefix && st->binding == 0 && st->element == 0 && st->grad)
			s_grad = (int)s;
		else if (st->dim == LLCT_SPIRV_DIM_3D && st->prefix && st->binding == 3)
			s_vol = (int)s;
		else if (st->dim == LLCT_SPIRV_DIM_CUBE && st->arrayed && st->binding == 4)
			s_cubes = (int)s;
	}
	CHECK(s_heap >= 0 && s_arr >= 0 && s_cube >= 0 && s_proj >= 0 && s_grad >= 0 &&
	      s_grad_arr >= 0 && s_vol >= 0 && s_cubes >= 0);

	/* the images: one 2D texture for the heap's three elements, 4 layers, a cube, a volume */
	VkImage ti[5];
	VkDeviceMemory tm[5];
	VkImageView tv[5] = {texture(1, 0, &ti[0], &tm[0]), texture(4, 0, &ti[1], &tm[1]),
			     texture(6, 1, &ti[2], &tm[2]), texture(1, 2, &ti[3], &tm[3]),
			     texture(12, 1, &ti[4], &tm[4])};
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
	VkSampler sampler;
	VK(vkCreateSampler(dev, &sci, NULL, &sampler));
	struct target tg;
	target_make(&tg, W);
	VkRenderPass rp = tg.rp;
	VkFramebuffer fb = tg.fb;
	/* set 0: the program's images; set 1: the record buffer and the draw number */
	VkShaderStageFlags fs = VK_SHADER_STAGE_FRAGMENT_BIT;
	VkDescriptorSetLayoutBinding b0[5] = {
	    {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3, fs, NULL},
	    {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs, NULL},
	    {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs, NULL},
	    {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs, NULL},
	    {4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, fs, NULL}};
	VkDescriptorSetLayoutBinding b1[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, fs, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, fs, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkDescriptorSetLayout l[2];
	dl.bindingCount = 5, dl.pBindings = b0;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	dl.bindingCount = 2, dl.pBindings = b1;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[1]));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2, plci.pSetLayouts = l;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	struct app_pipe o = {.rp = rp,
			     .layout = layout,
			     .vs = app_shader(spv_fullscreen_vert, sizeof(spv_fullscreen_vert)),
			     .fs = app_shader(ins.words, ins.n_words * 4),
			     .width = W,
			     .height = W,
			     .samples = VK_SAMPLE_COUNT_1_BIT,
			     .color = 1};
	VkPipeline pipe = app_pipeline(&o);
	/* every pixel takes 14 records: 6 samples with a prefix, 2 without */
	uint32_t cap = 5 * 14 * W * W;
	VkDeviceMemory rmem, imem;
	uint32_t *rw, *iw;
	VkBuffer rbuf = record_buffer(cap, &rmem, &rw);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(pd, &props);
	uint32_t align = (uint32_t)props.limits.minStorageBufferOffsetAlignment;
	align = align < 16 ? 16 : align;
	VkBuffer ibuf = app_buffer(2 * align, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &imem);
	VK(vkMapMemory(dev, imem, 0, VK_WHOLE_SIZE, 0, (void **)&iw));
	iw[0] = 1, iw[align / 4] = DRAW;
	VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 7},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(3, ps, 2, l, sets);
	VkImageLayout ro = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	VkDescriptorImageInfo ii[7] = {
	    {sampler, tv[0], ro}, {sampler, tv[0], ro}, {sampler, tv[0], ro}, {sampler, tv[1], ro},
	    {sampler, tv[2], ro}, {sampler, tv[3], ro}, {sampler, tv[4], ro}};
	VkDescriptorBufferInfo bi = {rbuf, 0, VK_WHOLE_SIZE}, idi = {ibuf, 0, 16};
	VkWriteDescriptorSet wr[7];
	for (int k = 0; k < 7; k++)
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	wr[0].dstSet = sets[0], wr[0].descriptorCount = 3, wr[0].pImageInfo = &ii[0];
	wr[1].dstSet = sets[0], wr[1].dstBinding = 1, wr[1].descriptorCount = 1;
	wr[1].pImageInfo = &ii[3];
	wr[2].dstSet = sets[0], wr[2].dstBinding = 2, wr[2].descriptorCount = 1;
	wr[2].pImageInfo = &ii[4];
	wr[5].dstSet = sets[0], wr[5].dstBinding = 3, wr[5].descriptorCount = 1;
	wr[5].pImageInfo = &ii[5];
	wr[6].dstSet = sets[0], wr[6].dstBinding = 4, wr[6].descriptorCount = 1;
	wr[6].pImageInfo = &ii[6];
	for (int k = 0; k < 7; k += k == 2 ? 3 : 1)
		wr[k].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
	wr[3].dstSet = sets[1], wr[3].descriptorCount = 1;
	wr[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, wr[3].pBufferInfo = &bi;
	wr[4].dstSet = sets[1], wr[4].dstBinding = 1, wr[4].descriptorCount = 1;
	wr[4].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, wr[4].pBufferInfo = &idi;
	vkUpdateDescriptorSets(dev, 7, wr, 0, NULL);

	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	static const uint32_t layers[5] = {1, 4, 6, 1, 12};
	to_shader_read(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 5, ti, layers);
	VkClearValue clear = {{{0, 0, 0, 0}}};
	VkRenderPassBeginInfo rbi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, rp, fb, {{0, 0}, {W, W}}, 1, &clear};
	vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 1, &align);
	vkCmdDraw(cb, 3, 1, 0, 0);
	vkCmdEndRenderPass(cb);
	oneshot_run(&run);

	/* walk the records: each prefix is followed by its record, same draw and pixel */
	CHECK_MSG(rw[0] == cap, "cursor %u, want %u", rw[0], cap);
	static uint8_t seen[SITES][W * W];
	memset(seen, 0, sizeof(seen));
	uint32_t bad = 0, n = (rw[0] < cap ? rw[0] : cap) / 5;
	float worst = 0;
#define NEAR(a, b)                                                                                 \
	do {                                                                                       \
		float d_ = fabsf((a) - (b));                                                       \
		worst = d_ > worst ? d_ : worst;                                                   \
	} while (0)
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t *r = rw + 2 + 5 * k, *pre = NULL;
		if ((r[0] & 4095) == LLCT_SPIRV_PREFIX_SITE) {
			if (k + 1 >= n || r[0] >> 12 != DRAW || r[4] != r[9]) {
				bad++;
				continue;
			}
			pre = r, r += 5, k++;
		}
		int site = (int)(r[0] & 4095);
		uint32_t x = r[4] & 0xffff, y = r[4] >> 16;
		if (r[0] >> 12 != DRAW || x >= W || y >= W || site >= SITES ||
		    !!pre != !!ins.sites[site].prefix || seen[site][y * W + x]++) {
			bad++;
			continue;
		}
		float u = ((float)x + 0.5f) / W, v = ((float)y + 0.5f) / W;
		if (site == s_heap) {
			bad += pre[1] != ELEM; /* the element the specialization chose */
			NEAR(f32(r[1]), u);
			NEAR(f32(r[2]), v);
		} else if (site == s_arr) {
			NEAR(f32(pre[2]), 2.0f); /* the layer */
			NEAR(f32(r[1]), u);
			NEAR(f32(r[2]), v);
		} else if (site == s_cube) { /* the direction: (1, 2v - 1, 2u - 1) */
			NEAR(f32(r[1]), 1.0f);
			NEAR(f32(r[2]), 2 * v - 1);
			NEAR(f32(pre[2]), 2 * u - 1);
		} else if (site == s_grad) { /* (0.25, 0) and (0, 0.5) of 16 texels: 4, 8 */
			NEAR(f32(r[3]), 64.0f);
			NEAR(f32(r[1]), u);
		} else if (site == s_grad_arr) { /* x: 4 / 32 of 16 texels a pixel (2); y: 1 */
			NEAR(f32(r[3]), 4.0f);
			NEAR(f32(pre[2]), 1.0f);
		} else if (site == s_cubes) { /* (-1, 2u - 1, 2v - 1), cube 1 */
			NEAR(f32(r[1]), -1.0f);
			NEAR(f32(r[2]), 2 * u - 1);
			NEAR(f32(pre[2]), 2 * v - 1);
			NEAR(f32(pre[3]), 1.0f);
		} else if (site == s_vol) { /* (u, v, 0.75) */
			NEAR(f32(pre[2]), 0.75f);
			NEAR(f32(r[1]), u);
			NEAR(f32(r[2]), v);
		} else if (site == s_proj) { /* (u, v) / 2 */
			NEAR(f32(r[1]), u / 2);
			NEAR(f32(r[2]), v / 2);
		}
	}
	CHECK_MSG(bad == 0, "%u records out of place, with a wrong element, or a prefix missing",
		  bad);
	CHECK_MSG(worst < 1e-4f, "a coordinate off by %g", (double)worst);
	for (int s = 0; s < SITES; s++) {
		uint32_t px = 0;
		for (int i = 0; i < W * W; i++)
			px += seen[s][i] == 1;
		CHECK_MSG(px == W * W, "site %d recorded %u of %d pixels", s, px, W * W);
	}

	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	vkDestroyBuffer(dev, rbuf, NULL);
	vkDestroyBuffer(dev, ibuf, NULL);
	vkFreeMemory(dev, imem, NULL);
	vkFreeMemory(dev, rmem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, o.vs, NULL);
	vkDestroyShaderModule(dev, o.fs, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	target_free(&tg);
	vkDestroySampler(dev, sampler, NULL);
	for (int k = 0; k < 5; k++) {
		vkDestroyImageView(dev, tv[k], NULL);
		vkDestroyImage(dev, ti[k], NULL);
		vkFreeMemory(dev, tm[k], NULL);
	}
	llct_spirv_instr_free(&ins);
}

/* sample.comp on 16 x 16 invocations (2 x 2 workgroups of 8 x 8): each records its sample
 * (prefix: u, v of its centre; record: level 1.0, workgroup), its fetch through heap[1]
 * (prefix: x, y; record: site + 4096 x 1, level 0, workgroup) and its store. */
static void compute_runs(void)
{
	enum { N = 16 };
	static uint32_t words[sizeof(spv_sample_comp) / 4];
	size_t nw = sizeof(spv_sample_comp) / 4;
	memcpy(words, spv_sample_comp, sizeof(words));
	specialize(words, nw, 1);
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(words, nw, 1, 0, &ins) == 0);
	validates(&ins);
	int s_lod = -1, s_fetch = -1, s_store = -1;
	CHECK(ins.record_words == 3 && ins.n_sites == 3 && ins.skipped == 0 &&
	      ins.tex_skipped == 0);
	for (size_t s = 0; s < ins.n_sites && s < 3; s++) {
		const struct llct_spirv_site *st = &ins.sites[s];
		if (st->kind == LLCT_SPIRV_SAMPLE && st->binding == 0 && st->prefix)
			s_lod = (int)s;
		else if (st->kind == LLCT_SPIRV_FETCH && st->binding == 1 && st->prefix &&
			 st->element == LLCT_SPIRV_ELEMENT_IN_RECORD)
			s_fetch = (int)s;
		else if (st->kind == LLCT_SPIRV_STORE && st->binding == 2)
			s_store = (int)s;
	}
	CHECK(s_lod >= 0 && s_fetch >= 0 && s_store >= 0);
	VkImage ti;
	VkDeviceMemory tm;
	VkImageView tv = texture(1, 0, &ti, &tm);
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler;
	VK(vkCreateSampler(dev, &sci, NULL, &sampler));
	VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
	VkDescriptorSetLayoutBinding b0[3] = {
	    {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, NULL},
	    {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, cs, NULL},
	    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL}};
	VkDescriptorSetLayoutBinding b1 = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, NULL};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkDescriptorSetLayout l[2];
	dl.bindingCount = 3, dl.pBindings = b0;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	dl.bindingCount = 1, dl.pBindings = &b1;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[1]));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2, plci.pSetLayouts = l;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	VkShaderModule sm = app_shader(ins.words, ins.n_words * 4);
	VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage = (VkPipelineShaderStageCreateInfo){
	    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, cs, sm, "main", NULL};
	cpci.layout = layout;
	VkPipeline pipe;
	VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
	uint32_t cap = 3 * 5 * N * N; /* 2 + 2 + 1 records an invocation */
	VkDeviceMemory rmem, omem;
	uint32_t *rw;
	VkBuffer rbuf = record_buffer(cap, &rmem, &rw);
	VkBuffer obuf = app_buffer(16 * N * N, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &omem);
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(2, ps, 2, l, sets);
	VkImageLayout ro = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	VkDescriptorImageInfo ii[3] = {{sampler, tv, ro}, {sampler, tv, ro}, {sampler, tv, ro}};
	VkDescriptorBufferInfo bi = {rbuf, 0, VK_WHOLE_SIZE}, oi = {obuf, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet wr[4];
	for (int k = 0; k < 4; k++)
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	wr[0].dstSet = sets[0], wr[0].descriptorCount = 1, wr[0].pImageInfo = &ii[0];
	wr[1].dstSet = sets[0], wr[1].dstBinding = 1, wr[1].descriptorCount = 2;
	wr[1].pImageInfo = &ii[1];
	wr[0].descriptorType = wr[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
	wr[2].dstSet = sets[0], wr[2].dstBinding = 2, wr[2].descriptorCount = 1;
	wr[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, wr[2].pBufferInfo = &oi;
	wr[3].dstSet = sets[1], wr[3].descriptorCount = 1;
	wr[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, wr[3].pBufferInfo = &bi;
	vkUpdateDescriptorSets(dev, 4, wr, 0, NULL);
	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	to_shader_read(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 1, &ti, NULL);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 0, NULL);
	vkCmdDispatch(cb, N / 8, N / 8, 1);
	oneshot_run(&run);

	CHECK_MSG(rw[0] == cap, "compute cursor %u, want %u", rw[0], cap);
	static uint8_t seen[3][N * N];
	memset(seen, 0, sizeof(seen));
	uint32_t bad = 0, n = (rw[0] < cap ? rw[0] : cap) / 3;
	float worst = 0;
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t *r = rw + 2 + 3 * k, *pre = NULL;
		if (r[0] == LLCT_SPIRV_PREFIX_SITE) {
			if (k + 1 >= n) {
				bad++;
				continue;
			}
			pre = r, r += 3, k++;
		}
		int site = (int)(r[0] & 4095);
		uint32_t elem = r[0] >> 12, x, y;
		if (site == s_store && !pre) {
			x = r[1] / 16 % N, y = r[1] / 16 / N;
		} else if (site == s_fetch && pre && elem == 1 && r[1] == 0) {
			x = pre[1], y = pre[2];
		} else if (site == s_lod && pre && elem == 0 && f32(r[1]) == 1.0f) {
			float fx = f32(pre[1]) * N - 0.5f, fy = f32(pre[2]) * N - 0.5f;
			x = (uint32_t)(fx + 0.5f), y = (uint32_t)(fy + 0.5f);
			float dx = fabsf(fx - (float)x), dy = fabsf(fy - (float)y);
			worst = dx > worst ? dx : worst;
			worst = dy > worst ? dy : worst;
		} else {
			bad++;
			continue;
		}
		if (x >= N || y >= N || r[2] != x / 8 + 65536 * (y / 8) || seen[site][y * N + x]++)
			bad++;
	}
	CHECK_MSG(bad == 0, "%u compute records out of place or wrong", bad);
	CHECK_MSG(worst < 1e-4f, "a compute sample's coordinate off by %g texels", (double)worst);
	for (int s = 0; s < 3; s++) {
		uint32_t got = 0;
		for (int i = 0; i < N * N; i++)
			got += seen[s][i] == 1;
		CHECK_MSG(got == N * N, "compute site %d recorded %u of %d invocations", s, got,
			  N * N);
	}
	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	vkDestroyBuffer(dev, rbuf, NULL);
	vkDestroyBuffer(dev, obuf, NULL);
	vkFreeMemory(dev, rmem, NULL);
	vkFreeMemory(dev, omem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, sm, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	vkDestroySampler(dev, sampler, NULL);
	vkDestroyImageView(dev, tv, NULL);
	vkDestroyImage(dev, ti, NULL);
	vkFreeMemory(dev, tm, NULL);
	llct_spirv_instr_free(&ins);
}

/* tex.vert, instrumented, drawing one triangle (the fragment shader tri.frag as it is): each
 * vertex records its sample (u = 0.25 x index, v = 0.5, level 0) and its fetch (texel (index,
 * 1), level 0) with its vertex index and the draw's number. */
static void vertex_runs(void)
{
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(spv_tex_vert, sizeof(spv_tex_vert) / 4, 1, 0, &ins) == 0);
	validates(&ins);
	CHECK(ins.record_words == 5 && ins.n_sites == 2 && ins.skipped == 0);
	VkImage ti;
	VkDeviceMemory tm;
	VkImageView tv = texture(1, 0, &ti, &tm);
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	VkSampler sampler;
	VK(vkCreateSampler(dev, &sci, NULL, &sampler));
	struct target tg;
	target_make(&tg, VW);
	VkRenderPass rp = tg.rp;
	VkFramebuffer fb = tg.fb;
	VkShaderStageFlags st = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
	VkDescriptorSetLayoutBinding b0 = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, st,
					   NULL};
	VkDescriptorSetLayoutBinding b1[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, st, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, st, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkDescriptorSetLayout l[2];
	dl.bindingCount = 1, dl.pBindings = &b0;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	dl.bindingCount = 2, dl.pBindings = b1;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[1]));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2, plci.pSetLayouts = l;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	struct app_pipe o = {.rp = rp,
			     .layout = layout,
			     .vs = app_shader(ins.words, ins.n_words * 4),
			     .fs = app_shader(spv_tri_frag, sizeof(spv_tri_frag)),
			     .width = VW,
			     .height = VW,
			     .samples = VK_SAMPLE_COUNT_1_BIT,
			     .color = 1};
	VkPipeline pipe = app_pipeline(&o);
	uint32_t cap = 5 * 64;
	VkDeviceMemory rmem, imem;
	uint32_t *rw, *iw;
	VkBuffer rbuf = record_buffer(cap, &rmem, &rw);
	VkBuffer ibuf = app_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &imem);
	VK(vkMapMemory(dev, imem, 0, VK_WHOLE_SIZE, 0, (void **)&iw));
	iw[0] = DRAW;
	VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(3, ps, 2, l, sets);
	VkImageLayout ro = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	VkDescriptorImageInfo ii = {sampler, tv, ro};
	VkDescriptorBufferInfo bi = {rbuf, 0, VK_WHOLE_SIZE}, idi = {ibuf, 0, 16};
	VkWriteDescriptorSet wr[3];
	for (int k = 0; k < 3; k++)
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	wr[0].dstSet = sets[0], wr[0].descriptorCount = 1, wr[0].pImageInfo = &ii;
	wr[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
	wr[1].dstSet = sets[1], wr[1].descriptorCount = 1;
	wr[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, wr[1].pBufferInfo = &bi;
	wr[2].dstSet = sets[1], wr[2].dstBinding = 1, wr[2].descriptorCount = 1;
	wr[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, wr[2].pBufferInfo = &idi;
	vkUpdateDescriptorSets(dev, 3, wr, 0, NULL);
	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	to_shader_read(cb, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 1, &ti, NULL);
	VkClearValue clear = {{{0, 0, 0, 0}}};
	VkRenderPassBeginInfo rbi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, rp, fb, {{0, 0}, {VW, VW}}, 1, &clear};
	vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	uint32_t zero = 0;
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 1, &zero);
	vkCmdDraw(cb, 3, 1, 0, 0);
	vkCmdEndRenderPass(cb);
	oneshot_run(&run);

	/* 2 records a vertex (an implementation may run a vertex more than once: at least) */
	CHECK_MSG(rw[0] >= 5 * 6 && rw[0] <= cap, "vertex cursor %u", rw[0]);
	uint32_t bad = 0, n = (rw[0] < cap ? rw[0] : cap) / 5, seen[2] = {0, 0};
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t *r = rw + 2 + 5 * k;
		uint32_t site = r[0] & 4095, vi = r[4];
		if (r[0] >> 12 != DRAW || site > 1 || vi > 2) {
			bad++;
			continue;
		}
		if (ins.sites[site].kind == LLCT_SPIRV_FETCH)
			bad += r[1] != vi || r[2] != 1 || r[3] != 0;
		else
			bad += ins.sites[site].kind != LLCT_SPIRV_SAMPLE ||
			       f32(r[1]) != 0.25f * (float)vi || f32(r[2]) != 0.5f ||
			       f32(r[3]) != 0.0f;
		seen[site] |= 1u << vi;
	}
	CHECK_MSG(bad == 0, "%u vertex records wrong", bad);
	CHECK_MSG(seen[0] == 7 && seen[1] == 7, "vertices recorded: %x %x", seen[0], seen[1]);
	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	vkDestroyBuffer(dev, rbuf, NULL);
	vkDestroyBuffer(dev, ibuf, NULL);
	vkFreeMemory(dev, rmem, NULL);
	vkFreeMemory(dev, imem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, o.vs, NULL);
	vkDestroyShaderModule(dev, o.fs, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	target_free(&tg);
	vkDestroySampler(dev, sampler, NULL);
	vkDestroyImageView(dev, tv, NULL);
	vkDestroyImage(dev, ti, NULL);
	vkFreeMemory(dev, tm, NULL);
	llct_spirv_instr_free(&ins);
}

int main(void)
{
	VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	f2.features.fragmentStoresAndAtomics = VK_TRUE;
	f2.features.imageCubeArray = VK_TRUE;                 /* samplers.frag's cube array */
	f2.features.vertexPipelineStoresAndAtomics = VK_TRUE; /* tex.vert's records */
	app_open("test_spirv_instr_img", 0, NULL, &f2);
	fragment_runs();
	compute_runs();
	vertex_runs();
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return check_done("test_spirv_instr_img");
}

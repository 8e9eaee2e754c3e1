/* test_spirv_instr.c - capture tier 3's buffer instrumentation pass
 * (capture/01-base/spirv_instr.c): every instrumented test shader passes SPIRV-Tools' validator,
 * and a compute shader with a dependent signed index, a padded struct array, a uniform member, a
 * computed store and an atomic, run for real on the Vulkan device (lavapipe), records exactly the
 * accesses worked out by hand from its std430/std140 layouts, computes the same output as the
 * original, and counts what does not fit in the record buffer instead of writing past it. Later
 * runs do the same for a fragment shader's samples, a vertex shader's uniform reads, a storage
 * image and an array of buffers indexed at run time. (Over 800 lines: each run builds, in full, the
 * Vulkan objects its shader needs, beside the hand-worked records it checks; split apart, the
 * set-up would sit away from what it sets up.) */
#include "spirv.h"
#include "vk_check.h"

#include <math.h>
#include <spirv-tools/libspirv.h>

#include "bindless.comp.h"
#include "color.frag.h"
#include "double.comp.h"
#include "double_texel.comp.h"
#include "fullscreen.vert.h"
#include "hlsl_pos.vert.h"
#include "image.comp.h"
#include "instr.comp.h"
#include "instr15.comp.h"
#include "sample.frag.h"
#include "shadow.frag.h"
#include "texcalc.frag.h"
#include "tri.frag.h"
#include "tri.vert.h"
#include "ubo.vert.h"
#include "ubo_arr.vert.h"
#include "ubo_novi.vert.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define INV 64 /* invocations: 4 workgroups of 16 */

static int valid(const uint32_t *w, size_t n, spv_target_env env)
{
	spv_diagnostic diag = NULL;
	spv_context ctx = spvContextCreate(env);
	spv_result_t r = spvValidateBinary(ctx, w, n, &diag);
	if (r != SPV_SUCCESS && diag)
		fprintf(stderr, "spvValidate: %s\n", diag->error);
	spvDiagnosticDestroy(diag);
	spvContextDestroy(ctx);
	return r == SPV_SUCCESS;
}

static void validates(void)
{
	static const struct {
		const char *name;
		const uint32_t *w;
		size_t size;
		spv_target_env env;
		size_t sites;
	} mods[] = {
	    {"instr.comp", spv_instr_comp, sizeof(spv_instr_comp), SPV_ENV_VULKAN_1_1, 5},
	    {"instr.comp (SPIR-V 1.5)", spv_instr15_comp, sizeof(spv_instr15_comp),
	     SPV_ENV_VULKAN_1_2, 5},
	    {"image.comp", spv_image_comp, sizeof(spv_image_comp), SPV_ENV_VULKAN_1_1, 2},
	    {"bindless.comp", spv_bindless_comp, sizeof(spv_bindless_comp), SPV_ENV_VULKAN_1_1, 3},
	    {"double.comp", spv_double_comp, sizeof(spv_double_comp), SPV_ENV_VULKAN_1_1, 2},
	    {"double_texel.comp", spv_double_texel_comp, sizeof(spv_double_texel_comp),
	     SPV_ENV_VULKAN_1_1, 0},
	    {"fullscreen.vert", spv_fullscreen_vert, sizeof(spv_fullscreen_vert),
	     SPV_ENV_VULKAN_1_1, 0},
	    {"sample.frag", spv_sample_frag, sizeof(spv_sample_frag), SPV_ENV_VULKAN_1_1, 1},
	    {"shadow.frag", spv_shadow_frag, sizeof(spv_shadow_frag), SPV_ENV_VULKAN_1_1, 1},
	    {"texcalc.frag", spv_texcalc_frag, sizeof(spv_texcalc_frag), SPV_ENV_VULKAN_1_1, 5},
	    {"tri.frag", spv_tri_frag, sizeof(spv_tri_frag), SPV_ENV_VULKAN_1_1, 0},
	    {"tri.vert", spv_tri_vert, sizeof(spv_tri_vert), SPV_ENV_VULKAN_1_1, 0},
	    {"ubo.vert", spv_ubo_vert, sizeof(spv_ubo_vert), SPV_ENV_VULKAN_1_1, 2},
	    {"ubo_arr.vert", spv_ubo_arr_vert, sizeof(spv_ubo_arr_vert), SPV_ENV_VULKAN_1_1, 1},
	    /* no VertexIndex of their own, so the pass adds one */
	    {"ubo_novi.vert", spv_ubo_novi_vert, sizeof(spv_ubo_novi_vert), SPV_ENV_VULKAN_1_1, 2},
	    {"hlsl_pos.vert", spv_hlsl_pos_vert, sizeof(spv_hlsl_pos_vert), SPV_ENV_VULKAN_1_1, 0},
	};
	for (size_t m = 0; m < N(mods); m++) {
		struct llct_spirv_instr r;
		int st = llct_spirv_instrument(mods[m].w, mods[m].size / 4, 5, 0, &r);
		CHECK_MSG(st == 0, "%s: %s", mods[m].name, st ? r.why : "");
		if (st)
			continue;
		CHECK_MSG(valid(r.words, r.n_words, mods[m].env), "%s: instrumented module invalid",
			  mods[m].name);
		CHECK_MSG(r.n_sites == mods[m].sites && r.skipped == 0, "%s: %zu sites, %u skipped",
			  mods[m].name, r.n_sites, r.skipped);
		llct_spirv_instr_free(&r);
	}
	/* the same modules with the records reached by their device address: valid too */
	for (size_t m = 0; m < N(mods); m++) {
		struct llct_spirv_instr r;
		int st = llct_spirv_instrument_ex(mods[m].w, mods[m].size / 4, 5, 0, 1, &r);
		CHECK_MSG(st == 0, "%s by address: %s", mods[m].name, st ? r.why : "");
		if (st)
			continue;
		CHECK_MSG(
		    valid(r.words, r.n_words,
			  mods[m].env == SPV_ENV_VULKAN_1_1 ? SPV_ENV_VULKAN_1_2 : mods[m].env),
		    "%s by address: instrumented module invalid", mods[m].name);
		llct_spirv_instr_free(&r);
	}
	/* an array of uniform buffers indexed at run time: the element rides in the record */
	{
		struct llct_spirv_instr r;
		CHECK(llct_spirv_instrument(spv_ubo_arr_vert, sizeof(spv_ubo_arr_vert) / 4, 1, 0,
					    &r) == 0);
		CHECK(r.n_sites == 1 && r.sites[0].element == LLCT_SPIRV_ELEMENT_IN_RECORD);
		llct_spirv_instr_free(&r);
	}
	/* broken input: a clear refusal, never a crash */
	struct llct_spirv_instr r;
	uint32_t cut[40];
	memcpy(cut, spv_instr_comp, sizeof(cut));
	CHECK(llct_spirv_instrument(cut, N(cut), 5, 0, &r) == -1 && r.why);
	CHECK(llct_spirv_instrument(spv_instr_comp, 3, 5, 0, &r) == -1 && r.why);
}

static VkDescriptorSetLayout set_layout(uint32_t n, const VkDescriptorType *types)
{
	VkDescriptorSetLayoutBinding b[4];
	for (uint32_t i = 0; i < n; i++)
		b[i] = (VkDescriptorSetLayoutBinding){i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT,
						      NULL};
	VkDescriptorSetLayoutCreateInfo ci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	ci.bindingCount = n;
	ci.pBindings = b;
	VkDescriptorSetLayout l;
	VK(vkCreateDescriptorSetLayout(dev, &ci, NULL, &l));
	return l;
}

static VkPipeline compute_pipeline(VkPipelineLayout layout, const uint32_t *w, size_t bytes)
{
	VkComputePipelineCreateInfo ci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	ci.stage =
	    (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
					      NULL,
					      0,
					      VK_SHADER_STAGE_COMPUTE_BIT,
					      app_shader(w, bytes),
					      "main",
					      NULL};
	ci.layout = layout;
	VkPipeline p;
	VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
	vkDestroyShaderModule(dev, ci.stage.module, NULL);
	return p;
}

struct rec {
	uint32_t binding, offset, size, kind;
};

static int by_rec(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct rec));
}

/* Runs instr.comp (original, then instrumented with a record buffer of cap words) and checks
 * the records against the hand-worked set. */
static void runs(uint32_t cap)
{
	static const VkDescriptorType t0[4] = {
	    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
	static const VkDescriptorType t1[1] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
	VkDescriptorSetLayout l[2] = {set_layout(4, t0), set_layout(1, t1)};
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2;
	plci.pSetLayouts = l;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(spv_instr_comp, sizeof(spv_instr_comp) / 4, 1, 0, &ins) == 0);
	VkPipeline orig = compute_pipeline(layout, spv_instr_comp, sizeof(spv_instr_comp));
	VkPipeline instr = compute_pipeline(layout, ins.words, ins.n_words * 4);

	/* buffers: src (16-byte header, INV Items of 32 bytes), dst (16 + 4 INV), u, ix, rec */
	VkDeviceSize sizes[5] = {16 + 32 * INV, 16 + 4 * INV, 16, 4 * INV,
				 8 + 4 * ((VkDeviceSize)cap + 3) + 16}; /* + 4 guard words */
	VkBufferUsageFlags usage[5] = {
	    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
	VkBuffer buf[5];
	VkDeviceMemory mem[5];
	void *map[5];
	for (int b = 0; b < 5; b++) {
		buf[b] = app_buffer(sizes[b], usage[b], APP_HOST, &mem[b]);
		VK(vkMapMemory(dev, mem[b], 0, VK_WHOLE_SIZE, 0, &map[b]));
	}
	int32_t perm[INV];
	for (int i = 0; i < INV; i++)
		perm[i] = (int32_t)((i * 37 + 11) % INV); /* a permutation: 37 is odd */
	memcpy(map[3], perm, sizeof(perm));
	uint32_t scale[4] = {1, 0, 0, 0};
	memcpy(map[2], scale, sizeof(scale));
	for (int i = 0; i < INV; i++) {
		float pos[4] = {0, (float)i * 0.5f, 0, 1}, w = (float)i;
		uint32_t id = 1000u + (uint32_t)i;
		memcpy((char *)map[0] + 16 + 32 * i, pos, 16);
		memcpy((char *)map[0] + 16 + 32 * i + 16, &id, 4);
		memcpy((char *)map[0] + 16 + 32 * i + 20, &w, 4);
	}
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4},
				      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(2, ps, 2, l, sets);
	VkDescriptorBufferInfo bi[5];
	VkWriteDescriptorSet wr[5];
	for (uint32_t b = 0; b < 5; b++) {
		bi[b] = (VkDescriptorBufferInfo){buf[b], 0, VK_WHOLE_SIZE};
		wr[b] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		wr[b].dstSet = sets[b == 4];
		wr[b].dstBinding = b == 4 ? 0 : b;
		wr[b].descriptorCount = 1;
		wr[b].descriptorType = b == 4 ? t1[0] : t0[b];
		wr[b].pBufferInfo = &bi[b];
	}
	vkUpdateDescriptorSets(dev, 5, wr, 0, NULL);
	struct oneshot run;
	oneshot_make(&run);
	uint32_t out[2][16 + 4 * INV];
	for (int pass = 0; pass < 2; pass++) {
		memset(map[1], 0, sizes[1]);
		uint32_t head[2] = {0, cap};
		memset(map[4], 0xee, sizes[4]);
		memcpy(map[4], head, sizeof(head));
		VkCommandBuffer cb = oneshot_begin(&run);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pass ? instr : orig);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 0,
					NULL);
		vkCmdDispatch(cb, INV / 16, 1, 1);
		oneshot_run(&run);
		memcpy(out[pass], map[1], sizes[1]);
	}
	CHECK_MSG(!memcmp(out[0], out[1], sizes[1]), "instrumented output differs");
	CHECK(out[0][0] == INV);
	/* the records, against the hand-worked set */
	const uint32_t *rw = map[4];
	uint32_t words = rw[0], n_exp = 5 * INV;
	CHECK_MSG(words == 3 * n_exp, "cursor %u words, want %u", words, 3 * n_exp);
	struct rec exp[5 * INV], got[5 * INV];
	for (uint32_t i = 0; i < INV; i++) {
		exp[5 * i] = (struct rec){3, 4 * i, 4, LLCT_SPIRV_LOAD}; /* ix.idx[i] */
		exp[5 * i + 1] = (struct rec){0, 16 + 32 * (uint32_t)perm[i], 24,
					      LLCT_SPIRV_LOAD};                    /* items[j] */
		exp[5 * i + 2] = (struct rec){2, 0, 4, LLCT_SPIRV_LOAD};           /* u.scale.x */
		exp[5 * i + 3] = (struct rec){1, 16 + 4 * i, 4, LLCT_SPIRV_STORE}; /* v[i] */
		exp[5 * i + 4] = (struct rec){1, 0, 4, LLCT_SPIRV_ATOMIC};         /* count */
	}
	uint32_t kept = words / 3 < cap / 3 ? words / 3 : cap / 3, bad = 0, wg_ok = 0;
	for (uint32_t k = 0; k < kept; k++) {
		uint32_t site = rw[2 + 3 * k], off = rw[2 + 3 * k + 1], wg = rw[2 + 3 * k + 2];
		/* the workgroup: invocation i is in group i / 16; the store at v[i] says i */
		if (ins.sites[site < ins.n_sites ? site : 0].kind == LLCT_SPIRV_STORE)
			wg_ok += wg == (off - 16) / 4 / 16;
		if (site >= ins.n_sites || ins.sites[site].set != 0) {
			bad++;
			continue;
		}
		got[k] = (struct rec){ins.sites[site].binding, off, ins.sites[site].size,
				      ins.sites[site].kind};
	}
	CHECK_MSG(bad == 0, "%u records name no site", bad);
	CHECK_MSG(kept < n_exp || wg_ok == INV, "%u of %u stores name their workgroup", wg_ok, INV);
	if (kept == n_exp) { /* room for all: exactly the hand-worked multiset */
		qsort(exp, n_exp, sizeof(*exp), by_rec);
		qsort(got, n_exp, sizeof(*got), by_rec);
		CHECK_MSG(!memcmp(exp, got, sizeof(exp)),
			  "records differ from the hand-worked set");
	} else { /* too little room: every kept record is one of the set, nothing past the end */
		qsort(exp, n_exp, sizeof(*exp), by_rec);
		for (uint32_t k = 0; k < kept; k++)
			CHECK(bsearch(&got[k], exp, n_exp, sizeof(*exp), by_rec) != NULL);
		const uint32_t *guard = rw + 2 + cap + 3; /* past data[cap + 2], the spill slot */
		CHECK_MSG(guard[0] == 0xeeeeeeeeu && guard[1] == 0xeeeeeeeeu &&
			      guard[2] == 0xeeeeeeeeu && guard[3] == 0xeeeeeeeeu,
			  "a record went past the buffer's end");
		CHECK(words > cap); /* the overflow shows in the cursor */
	}
	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	for (int b = 0; b < 5; b++) {
		vkDestroyBuffer(dev, buf[b], NULL);
		vkFreeMemory(dev, mem[b], NULL);
	}
	vkDestroyPipeline(dev, orig, NULL);
	vkDestroyPipeline(dev, instr, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	llct_spirv_instr_free(&ins);
}

/* sample.frag (texture(tex, uv)) instrumented, drawn over a 64 x 64 target by one full-screen
 * triangle whose uv is the pixel center over 64, sampling a 256 x 256 texture with 9 mips: one
 * record a pixel, at its pixel, with that uv, at level log2(256 / 64) = 2. Long because it is
 * one run on the device: the objects made, the draw, the read-back and every check on it. */
static void fragment_runs(void)
{
	enum { W = 64, TEX = 256, MIPS = 9 };
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(spv_sample_frag, sizeof(spv_sample_frag) / 4, 1, 0, &ins) == 0);
	CHECK(ins.record_words == 5 && ins.n_sites == 1 && ins.sites[0].kind == LLCT_SPIRV_SAMPLE);
	int early = 0;
	for (size_t i = 5; i < ins.n_words; i += ins.words[i] >> 16)
		early |=
		    (ins.words[i] & 0xffff) == 16 && ins.words[i + 2] == 9; /* EarlyFragmentTests */
	CHECK_MSG(early, "no EarlyFragmentTests: occluded fragments would record");
	/* the target, the texture, the sampler */
	VkDeviceMemory tex_mem;
	VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = VK_FORMAT_R8G8B8A8_UNORM;
	ici.extent = (VkExtent3D){TEX, TEX, 1};
	ici.mipLevels = MIPS;
	ici.arrayLayers = 1;
	ici.samples = VK_SAMPLE_COUNT_1_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
	VkImage tex;
	VK(vkCreateImage(dev, &ici, NULL, &tex));
	VkMemoryRequirements req;
	vkGetImageMemoryRequirements(dev, tex, &req);
	tex_mem = app_memory(req, 0);
	VK(vkBindImageMemory(dev, tex, tex_mem, 0));
	VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = tex;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	vci.format = VK_FORMAT_R8G8B8A8_UNORM;
	vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, MIPS, 0, 1};
	VkImageView tex_view;
	VK(vkCreateImageView(dev, &vci, NULL, &tex_view));
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
	sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	sci.maxLod = 16;
	VkSampler sampler;
	VK(vkCreateSampler(dev, &sci, NULL, &sampler));
	/* render pass, framebuffer, layouts, pipeline */
	struct target tg;
	target_make(&tg, W);
	VkRenderPass rp = tg.rp;
	VkFramebuffer fb = tg.fb;
	VkDescriptorSetLayoutBinding b0 = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
					   VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
	VkDescriptorSetLayoutBinding b1[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkDescriptorSetLayout l[2];
	dl.bindingCount = 1;
	dl.pBindings = &b0;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	dl.bindingCount = 2;
	dl.pBindings = b1;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[1]));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2;
	plci.pSetLayouts = l;
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
	/* the record buffer */
	uint32_t cap = 5 * W * W + 500;
	VkDeviceMemory rmem;
	uint32_t *rw;
	VkBuffer rbuf = record_buffer(cap, &rmem, &rw);
	/* binding 1: which draw records, at a dynamic offset: draw 7 in the second slot */
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(pd, &props);
	uint32_t align = (uint32_t)props.limits.minStorageBufferOffsetAlignment;
	align = align < 16 ? 16 : align;
	VkDeviceMemory imem;
	VkBuffer ibuf = app_buffer(2 * align, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &imem);
	uint32_t *iw;
	VK(vkMapMemory(dev, imem, 0, VK_WHOLE_SIZE, 0, (void **)&iw));
	iw[0] = 3, iw[align / 4] = 7;
	VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(3, ps, 2, l, sets);
	VkDescriptorImageInfo ii = {sampler, tex_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkDescriptorBufferInfo bi = {rbuf, 0, VK_WHOLE_SIZE};
	VkDescriptorBufferInfo idi = {ibuf, 0, 16};
	VkWriteDescriptorSet wr[3] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
				      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
				      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
	wr[0].dstSet = sets[0], wr[0].descriptorCount = 1;
	wr[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, wr[0].pImageInfo = &ii;
	wr[1].dstSet = sets[1], wr[1].descriptorCount = 1;
	wr[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, wr[1].pBufferInfo = &bi;
	wr[2].dstSet = sets[1], wr[2].dstBinding = 1, wr[2].descriptorCount = 1;
	wr[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, wr[2].pBufferInfo = &idi;
	vkUpdateDescriptorSets(dev, 3, wr, 0, NULL);
	/* draw */
	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	to_shader_read(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 1, &tex, NULL);
	VkClearValue clear = {{{0, 0, 0, 0}}};
	VkRenderPassBeginInfo rbi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, rp, fb, {{0, 0}, {W, W}}, 1, &clear};
	vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 1, &align);
	vkCmdDraw(cb, 3, 1, 0, 0);
	vkCmdEndRenderPass(cb);
	oneshot_run(&run);
	/* one record a pixel, at its pixel, with its uv and level 2 */
	CHECK_MSG(rw[0] == 5 * W * W, "cursor %u, want %u", rw[0], 5 * W * W);
	static uint8_t seen[W * W];
	memset(seen, 0, sizeof(seen));
	uint32_t bad = 0, n = rw[0] / 5 < cap / 5 ? rw[0] / 5 : cap / 5;
	float worst_uv = 0, worst_lod = 0;
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t *r = rw + 2 + 5 * k;
		uint32_t x = r[4] & 0xffff, y = r[4] >> 16;
		float u, v, lod;
		memcpy(&u, &r[1], 4), memcpy(&v, &r[2], 4), memcpy(&lod, &r[3], 4);
		if (r[0] != 7 * 4096 || x >= W || y >= W || seen[y * W + x]++) {
			bad++;
			continue;
		}
		float du = fabsf(u - ((float)x + 0.5f) / W), dv = fabsf(v - ((float)y + 0.5f) / W);
		worst_uv = du > worst_uv ? du : worst_uv;
		worst_uv = dv > worst_uv ? dv : worst_uv;
		worst_lod = fabsf(lod - 2.0f) > worst_lod ? fabsf(lod - 2.0f) : worst_lod;
	}
	CHECK_MSG(bad == 0, "%u records with a wrong site, a pixel outside or twice", bad);
	CHECK_MSG(worst_uv < 1e-4f, "uv off by %g", (double)worst_uv);
	CHECK_MSG(worst_lod < 0.05f, "level off by %g", (double)worst_lod);
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
	vkDestroyImageView(dev, tex_view, NULL);
	vkDestroyImage(dev, tex, NULL);
	vkFreeMemory(dev, tex_mem, NULL);
	llct_spirv_instr_free(&ins);
}

/* ubo.vert (its matrix and its vertex's position read from a uniform buffer) instrumented,
 * drawing one triangle: each vertex records the 64-byte matrix at 0 and its 16-byte position at
 * 64 + 16 i, with its vertex index and the draw's number. */
static void vertex_runs(void)
{
	enum { W = 16 };
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(spv_ubo_vert, sizeof(spv_ubo_vert) / 4, 1, 3, &ins) == 0);
	CHECK(ins.record_words == 5 && ins.n_sites == 2 && ins.skipped == 0);
	struct target tg;
	target_make(&tg, W);
	VkRenderPass rp = tg.rp;
	VkFramebuffer fb = tg.fb;
	VkDescriptorSetLayoutBinding b0 = {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
					   VK_SHADER_STAGE_VERTEX_BIT, NULL};
	VkDescriptorSetLayoutBinding b1[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	VkDescriptorSetLayout l[2];
	dl.bindingCount = 1;
	dl.pBindings = &b0;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	dl.bindingCount = 2;
	dl.pBindings = b1;
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[1]));
	VkPushConstantRange pcr = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2;
	plci.pSetLayouts = l;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &pcr;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	struct app_pipe o = {.rp = rp,
			     .layout = layout,
			     .vs = app_shader(ins.words, ins.n_words * 4),
			     .fs = app_shader(spv_color_frag, sizeof(spv_color_frag)),
			     .width = W,
			     .height = W,
			     .samples = VK_SAMPLE_COUNT_1_BIT,
			     .color = 1};
	VkPipeline pipe = app_pipeline(&o);
	/* the uniform buffer (identity matrix, three positions), the records, the draw number */
	VkDeviceMemory umem, rmem, imem;
	VkBuffer ubuf = app_buffer(112, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, APP_HOST, &umem);
	float *uf;
	VK(vkMapMemory(dev, umem, 0, VK_WHOLE_SIZE, 0, (void **)&uf));
	static const float u[28] = {1, 0, 0,  0,  0, 1, 0, 0,  0, 0, 1, 0, 0, 0,
				    0, 1, -1, -1, 0, 1, 1, -1, 0, 1, 0, 1, 0, 1};
	memcpy(uf, u, sizeof(u));
	uint32_t cap = 300;
	uint32_t *rw;
	VkBuffer rbuf = record_buffer(cap, &rmem, &rw);
	VkBuffer ibuf = app_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &imem);
	uint32_t *iw;
	VK(vkMapMemory(dev, imem, 0, VK_WHOLE_SIZE, 0, (void **)&iw));
	iw[0] = 5;
	VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(3, ps, 2, l, sets);
	VkDescriptorBufferInfo bi[3] = {
	    {ubuf, 0, VK_WHOLE_SIZE}, {rbuf, 0, VK_WHOLE_SIZE}, {ibuf, 0, 16}};
	VkWriteDescriptorSet wr[3];
	static const VkDescriptorType wt[3] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
					       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
					       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC};
	for (uint32_t k = 0; k < 3; k++) {
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		wr[k].dstSet = sets[k > 0];
		wr[k].dstBinding = k == 2;
		wr[k].descriptorCount = 1;
		wr[k].descriptorType = wt[k];
		wr[k].pBufferInfo = &bi[k];
	}
	vkUpdateDescriptorSets(dev, 3, wr, 0, NULL);
	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	VkClearValue clear = {{{0, 0, 0, 0}}};
	VkRenderPassBeginInfo rbi = {
	    VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, rp, fb, {{0, 0}, {W, W}}, 1, &clear};
	vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	uint32_t zero = 0;
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, sets, 1, &zero);
	float color[4] = {1, 1, 1, 1};
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16, color);
	vkCmdDraw(cb, 3, 1, 0, 0);
	vkCmdEndRenderPass(cb);
	oneshot_run(&run);
	/* sites 3 and 4 (the base given): the matrix and the position; draw 5 */
	CHECK_MSG(rw[0] == 5 * 2 * 3, "cursor %u, want 30", rw[0]);
	struct rec exp[6], got[6];
	for (uint32_t v = 0; v < 3; v++) {
		uint32_t mvp = ins.sites[0].size == 64 ? 0 : 1, pos = 1 - mvp;
		exp[2 * v] = (struct rec){5 * 4096 + 3 + mvp, 0, v, 64};
		exp[2 * v + 1] = (struct rec){5 * 4096 + 3 + pos, 64 + 16 * v, v, 16};
	}
	uint32_t n = rw[0] / 5 < 6 ? rw[0] / 5 : 6;
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t *r = rw + 2 + 5 * k;
		uint32_t site = (r[0] & 4095) - 3;
		got[k] = (struct rec){r[0], r[1], r[4], site < 2 ? ins.sites[site].size : 0};
	}
	qsort(exp, 6, sizeof(*exp), by_rec);
	qsort(got, n, sizeof(*got), by_rec);
	CHECK_MSG(n == 6 && !memcmp(exp, got, sizeof(exp)), "vertex records differ");
	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	vkDestroyBuffer(dev, ubuf, NULL);
	vkFreeMemory(dev, umem, NULL);
	vkDestroyBuffer(dev, rbuf, NULL);
	vkFreeMemory(dev, rmem, NULL);
	vkDestroyBuffer(dev, ibuf, NULL);
	vkFreeMemory(dev, imem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, o.vs, NULL);
	vkDestroyShaderModule(dev, o.fs, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	target_free(&tg);
	llct_spirv_instr_free(&ins);
}

/* image.comp instrumented over 64 x 16 invocations (16 x 4 workgroups): each reads (x, y + 32)
 * and writes (x, y) of a 64 x 64 storage image, the texel packed x + 65536 y. */
static void image_runs(void)
{
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(spv_image_comp, sizeof(spv_image_comp) / 4, 1, 0, &ins) == 0);
	CHECK(ins.n_sites == 2 && ins.skipped == 0 && ins.record_words == 3);
	static const VkDescriptorType t1[2] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
					       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC};
	VkDescriptorSetLayoutBinding b0 = {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1,
					   VK_SHADER_STAGE_COMPUTE_BIT, NULL};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dl.bindingCount = 1;
	dl.pBindings = &b0;
	VkDescriptorSetLayout l[2];
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	l[1] = set_layout(2, t1);
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2;
	plci.pSetLayouts = l;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	VkPipeline pipe = compute_pipeline(layout, ins.words, ins.n_words * 4);
	VkDeviceMemory imem, rmem;
	VkImage img = app_image(VK_FORMAT_R32_UINT, 64, 64, VK_SAMPLE_COUNT_1_BIT,
				VK_IMAGE_USAGE_STORAGE_BIT, &imem);
	VkImageView view = app_view(img, VK_FORMAT_R32_UINT, VK_IMAGE_ASPECT_COLOR_BIT);
	uint32_t cap = 3 * 2048 + 30;
	uint32_t *rw;
	VkBuffer rbuf = record_buffer(cap, &rmem, &rw);
	VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(3, ps, 2, l, sets);
	VkDescriptorImageInfo ii = {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
	VkDescriptorBufferInfo bi[2] = {{rbuf, 0, VK_WHOLE_SIZE}, {rbuf, 0, 16}};
	VkWriteDescriptorSet wr[3];
	for (uint32_t k = 0; k < 3; k++) {
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		wr[k].dstSet = sets[k > 0];
		wr[k].dstBinding = k == 2;
		wr[k].descriptorCount = 1;
		wr[k].descriptorType = k ? t1[k - 1] : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
		if (k)
			wr[k].pBufferInfo = &bi[k - 1];
		else
			wr[k].pImageInfo = &ii;
	}
	vkUpdateDescriptorSets(dev, 3, wr, 0, NULL);
	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	VkImageMemoryBarrier ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	ib.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
	ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
	ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	ib.image = img;
	ib.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
			     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	uint32_t zero = 0;
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 1, &zero);
	vkCmdDispatch(cb, 4, 4, 1);
	oneshot_run(&run);
	CHECK_MSG(rw[0] == 3 * 2048, "cursor %u, want %u", rw[0], 3 * 2048);
	static struct rec exp[2048], got[2048];
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 64; x++) {
			uint32_t k = 2 * (y * 64 + x), wg = x / 16 + 65536 * (y / 4);
			uint32_t rd = ins.sites[0].kind == LLCT_SPIRV_IMAGE_READ ? 0 : 1;
			exp[k] = (struct rec){rd, x | (y + 32) << 16, wg, 0};
			exp[k + 1] = (struct rec){1 - rd, x | y << 16, wg, 0};
		}
	uint32_t n = rw[0] / 3 < 2048 ? rw[0] / 3 : 2048;
	for (uint32_t k = 0; k < n; k++)
		got[k] = (struct rec){rw[2 + 3 * k], rw[3 + 3 * k], rw[4 + 3 * k], 0};
	qsort(exp, 2048, sizeof(*exp), by_rec);
	qsort(got, n, sizeof(*got), by_rec);
	CHECK_MSG(n == 2048 && !memcmp(exp, got, sizeof(exp)),
		  "storage image records differ from the hand-worked set");
	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	vkDestroyBuffer(dev, rbuf, NULL);
	vkFreeMemory(dev, rmem, NULL);
	vkDestroyImageView(dev, view, NULL);
	vkDestroyImage(dev, img, NULL);
	vkFreeMemory(dev, imem, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	llct_spirv_instr_free(&ins);
}

/* bindless.comp over 4 workgroups of 16: workgroup w reads which[w] and then reads and writes
 * word i of buffer which[w] & 3 of the four: the records carry that element. */
static void bindless_runs(void)
{
	struct llct_spirv_instr ins;
	CHECK(llct_spirv_instrument(spv_bindless_comp, sizeof(spv_bindless_comp) / 4, 1, 0, &ins) ==
	      0);
	CHECK(ins.n_sites == 3 && ins.skipped == 0);
	VkDescriptorSetLayoutBinding b0[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dl.bindingCount = 2;
	dl.pBindings = b0;
	static const VkDescriptorType t1[2] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
					       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC};
	VkDescriptorSetLayout l[2];
	VK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &l[0]));
	l[1] = set_layout(2, t1);
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 2;
	plci.pSetLayouts = l;
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	VkPipeline pipe = compute_pipeline(layout, ins.words, ins.n_words * 4);
	VkDeviceMemory mem[6];
	VkBuffer buf[6]; /* the four, the selector, the records */
	uint32_t cap = 3 * 3 * 64 + 30;
	for (int k = 0; k < 6; k++)
		buf[k] = app_buffer(k < 4    ? 256
				    : k == 4 ? 16
					     : 8 + 4 * ((VkDeviceSize)cap + 5),
				    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, APP_HOST, &mem[k]);
	uint32_t *sel, *rw;
	VK(vkMapMemory(dev, mem[4], 0, VK_WHOLE_SIZE, 0, (void **)&sel));
	VK(vkMapMemory(dev, mem[5], 0, VK_WHOLE_SIZE, 0, (void **)&rw));
	static const uint32_t which[4] = {2, 0, 3, 1};
	memcpy(sel, which, sizeof(which));
	rw[0] = 0, rw[1] = cap;
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}};
	VkDescriptorSet sets[2];
	VkDescriptorPool pool = alloc_sets(2, ps, 2, l, sets);
	VkDescriptorBufferInfo bi[8];
	VkWriteDescriptorSet wr[8];
	for (uint32_t k = 0; k < 8; k++) {
		/* 0-3 the array's elements, 4 the selector, 5 records, 6 draw slot */
		uint32_t src = k < 6 ? k : 5;
		bi[k] = (VkDescriptorBufferInfo){buf[src], 0, k == 6 ? 16 : VK_WHOLE_SIZE};
		wr[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		wr[k].dstSet = sets[k >= 5];
		wr[k].dstBinding = k < 4 ? 0 : k == 4 ? 1 : k == 5 ? 0 : 1;
		wr[k].dstArrayElement = k < 4 ? k : 0;
		wr[k].descriptorCount = 1;
		wr[k].descriptorType = k == 6 ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC
					      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		wr[k].pBufferInfo = &bi[k];
	}
	vkUpdateDescriptorSets(dev, 7, wr, 0, NULL);
	struct oneshot run;
	oneshot_make(&run);
	VkCommandBuffer cb = oneshot_begin(&run);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	uint32_t zero = 0;
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 1, &zero);
	vkCmdDispatch(cb, 4, 1, 1);
	oneshot_run(&run);
	CHECK_MSG(rw[0] == 3 * 3 * 64, "cursor %u, want %u", rw[0], 3 * 3 * 64);
	/* each record: (site | element << 12, offset); the selector's element is 0 */
	static struct rec exp[192], got[192];
	uint32_t ssel = 0, sld = 0, sst = 0;
	for (uint32_t s = 0; s < 3; s++) {
		if (ins.sites[s].binding == 1)
			ssel = s;
		else if (ins.sites[s].kind == LLCT_SPIRV_LOAD)
			sld = s;
		else
			sst = s;
	}
	CHECK(ins.sites[sld].element == LLCT_SPIRV_ELEMENT_IN_RECORD &&
	      ins.sites[sst].element == LLCT_SPIRV_ELEMENT_IN_RECORD &&
	      ins.sites[ssel].element == 0);
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t k = which[i / 16];
		exp[3 * i] = (struct rec){ssel, 4 * (i / 16), i / 16, 0};
		exp[3 * i + 1] = (struct rec){sld | k << 12, 4 * i, i / 16, 0};
		exp[3 * i + 2] = (struct rec){sst | k << 12, 4 * i, i / 16, 0};
	}
	uint32_t n = rw[0] / 3 < 192 ? rw[0] / 3 : 192;
	for (uint32_t k = 0; k < n; k++)
		got[k] = (struct rec){rw[2 + 3 * k], rw[3 + 3 * k], rw[4 + 3 * k], 0};
	qsort(exp, 192, sizeof(*exp), by_rec);
	qsort(got, n, sizeof(*got), by_rec);
	CHECK_MSG(n == 192 && !memcmp(exp, got, sizeof(exp)), "bindless records differ");
	oneshot_free(&run);
	vkDestroyDescriptorPool(dev, pool, NULL);
	for (int k = 0; k < 6; k++) {
		vkDestroyBuffer(dev, buf[k], NULL);
		vkFreeMemory(dev, mem[k], NULL);
	}
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, l[0], NULL);
	vkDestroyDescriptorSetLayout(dev, l[1], NULL);
	llct_spirv_instr_free(&ins);
}

int main(void)
{
	validates();
	VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	f2.features.fragmentStoresAndAtomics = VK_TRUE;       /* the records of fragment shaders */
	f2.features.vertexPipelineStoresAndAtomics = VK_TRUE; /* and of vertex shaders */
	f2.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE; /* bindless.comp */
	app_open("test_spirv_instr", 0, NULL, &f2);
	runs(3 * 5 * INV); /* room for every record */
	runs(96);          /* room for 32: the rest counted, not written */
	fragment_runs();
	vertex_runs();
	image_runs();
	bindless_runs();
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return check_done("test_spirv_instr");
}

/* test_spirv.c - the capture layer's SPIR-V reader (capture/01-base/spirv.c) on the test programs'
 * shaders, compiled by glslangValidator at build time, and on modules broken by hand: used
 * bindings found, declared-but-unused ones left out, literals not taken for ids, and anything
 * malformed read as "count more", never a crash; and tier 2's transform-feedback copies
 * (capture/01-base/spirv_xfb.c) of vertex, geometry, tessellation and HLSL-compiled stages, each
 * checked by SPIRV-Tools' validator (spvValidateBinary, Vulkan 1.1 rules). */
#include "check.h"
#include "spirv.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "discard.frag.h"
#include "double.comp.h"
#include "double_texel.comp.h"
#include "drawid.vert.h"
#include "fullscreen.vert.h"
#include "hlsl_pos.vert.h"
#include "sample.frag.h"
#include "shadow.frag.h"
#include "texcalc.frag.h"
#include "tri.frag.h"
#include "tri.vert.h"
#include "xfb.geom.h"
#include "xfb.tese.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void bindings(const uint32_t *w, size_t n, uint64_t used[8])
{
	memset(used, 0x5a, 8 * sizeof(*used)); /* the reader must set every word */
	llct_spirv_bindings(w, n, used);
}

static int all_ones(const uint64_t used[8])
{
	for (int s = 0; s < 8; s++)
		if (used[s] != UINT64_MAX)
			return 0;
	return 1;
}

static int nothing_but(const uint64_t used[8], int set, uint64_t mask)
{
	for (int s = 0; s < 8; s++)
		if (used[s] != (s == set ? mask : 0))
			return 0;
	return 1;
}

/* A minimal fragment-like module: two uniform variables, %10 at (set 1, binding 3) and %11 at
 * (set 0, binding 5), a function that loads %10 only, and an OpCompositeExtract whose literal
 * index equals 11 (%11's id): %11 is declared, its id appears only as a literal. */
static size_t handmade(uint32_t *w)
{
	size_t n = 0;
#define OP(op, len) (w[n++] = (uint32_t)(len) << 16 | (op))
	w[n++] = SpvMagicNumber;
	w[n++] = 0x00010000;
	w[n++] = 0;
	w[n++] = 32; /* id bound */
	w[n++] = 0;
	OP(SpvOpCapability, 2), w[n++] = SpvCapabilityShader;
	OP(SpvOpMemoryModel, 3), w[n++] = SpvAddressingModelLogical, w[n++] = SpvMemoryModelGLSL450;
	OP(SpvOpDecorate, 4), w[n++] = 10, w[n++] = SpvDecorationDescriptorSet, w[n++] = 1;
	OP(SpvOpDecorate, 4), w[n++] = 10, w[n++] = SpvDecorationBinding, w[n++] = 3;
	OP(SpvOpDecorate, 4), w[n++] = 11, w[n++] = SpvDecorationDescriptorSet, w[n++] = 0;
	OP(SpvOpDecorate, 4), w[n++] = 11, w[n++] = SpvDecorationBinding, w[n++] = 5;
	OP(SpvOpTypeVoid, 2), w[n++] = 1;
	OP(SpvOpTypeFunction, 3), w[n++] = 2, w[n++] = 1;
	OP(SpvOpTypeFloat, 3), w[n++] = 3, w[n++] = 32;
	OP(SpvOpTypeVector, 4), w[n++] = 4, w[n++] = 3, w[n++] = 4;
	OP(SpvOpTypePointer, 4), w[n++] = 5, w[n++] = SpvStorageClassUniformConstant, w[n++] = 4;
	OP(SpvOpVariable, 4), w[n++] = 5, w[n++] = 10, w[n++] = SpvStorageClassUniformConstant;
	OP(SpvOpVariable, 4), w[n++] = 5, w[n++] = 11, w[n++] = SpvStorageClassUniformConstant;
	OP(SpvOpFunction, 5), w[n++] = 1, w[n++] = 20, w[n++] = 0, w[n++] = 2;
	OP(SpvOpLabel, 2), w[n++] = 21;
	OP(SpvOpLoad, 4), w[n++] = 4, w[n++] = 22, w[n++] = 10;
	OP(SpvOpCompositeExtract, 5), w[n++] = 3, w[n++] = 23, w[n++] = 22, w[n++] = 11;
	OP(SpvOpReturn, 1);
	OP(SpvOpFunctionEnd, 1);
#undef OP
	return n;
}

/* SPIRV-Tools' verdict on a module: 1 valid, 0 not (the diagnostic printed). */
static int valid(const uint32_t *w, size_t n)
{
	spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
	spv_diagnostic diag = NULL;
	spv_result_t r = spvValidateBinary(ctx, w, n, &diag);
	if (r != SPV_SUCCESS && diag)
		spvDiagnosticPrint(diag);
	spvDiagnosticDestroy(diag);
	spvContextDestroy(ctx);
	return r == SPV_SUCCESS;
}

/* How many instructions of opcode op whose words after the opcode start with `w1, w2`
 * (0: any) the module has. */
static int has(const uint32_t *w, size_t n, uint32_t op, uint32_t at, uint32_t val)
{
	int k = 0;
	for (size_t i = 5; i < n; i += w[i] >> 16)
		k += (w[i] & 0xffff) == op && (w[i] >> 16) > at && w[i + at] == val;
	return k;
}

static void test_xfb(void)
{
	static const struct {
		const uint32_t *w;
		size_t n;
		int model, prim, block;
	} stages[] = {
	    {spv_tri_vert, N(spv_tri_vert), SpvExecutionModelVertex, -1, 1},
	    {spv_fullscreen_vert, N(spv_fullscreen_vert), SpvExecutionModelVertex, -1, 1},
	    {spv_xfb_geom, N(spv_xfb_geom), SpvExecutionModelGeometry, 0, 1},
	    {spv_xfb_tese, N(spv_xfb_tese), SpvExecutionModelTessellationEvaluation, 2, 1},
	    {spv_hlsl_pos_vert, N(spv_hlsl_pos_vert), SpvExecutionModelVertex, -1, 0},
	};
	struct llct_spirv_info info;
	for (size_t k = 0; k < N(stages); k++) {
		uint32_t *x = NULL;
		size_t n = 0;
		const char *why = "";
		CHECK(valid(stages[k].w, stages[k].n));
		CHECK_EQ(llct_spirv_info(stages[k].w, stages[k].n, "main", &info), 0);
		CHECK_EQ(info.model, stages[k].model);
		CHECK_EQ(info.output_prim, stages[k].prim);
		CHECK(info.has_position && !info.has_xfb && !info.discards);
		uint32_t got;
		CHECK_EQ(
		    llct_spirv_xfb(stages[k].w, stages[k].n, "main", NULL, 0, &got, &x, &n, &why),
		    0);
		if (!x) {
			fprintf(stderr, "stage %zu: %s\n", k, why);
			continue;
		}
		CHECK(valid(x, n));
		/* a capability, an execution mode and three decorations: 2 + 3 + 4 + 4 + 5 or 4 */
		CHECK_EQ(n, stages[k].n + 17 + (stages[k].block ? 1 : 0));
		CHECK_EQ(has(x, n, SpvOpCapability, 1, SpvCapabilityTransformFeedback), 1);
		CHECK_EQ(has(x, n, SpvOpExecutionMode, 2, SpvExecutionModeXfb), 1);
		CHECK_EQ(has(x, n, SpvOpDecorate, 2, SpvDecorationXfbBuffer), 1);
		CHECK_EQ(has(x, n, SpvOpDecorate, 2, SpvDecorationXfbStride), 1);
		CHECK_EQ(has(x, n, stages[k].block ? SpvOpMemberDecorate : SpvOpDecorate,
			     stages[k].block ? 3 : 2, SpvDecorationOffset),
			 1);
		/* the copy now uses transform feedback: a second rewrite is refused */
		uint32_t *y = NULL;
		size_t ny = 0;
		CHECK_EQ(llct_spirv_info(x, n, "main", &info), 0);
		CHECK(info.has_xfb);
		CHECK_EQ(llct_spirv_xfb(x, n, "main", NULL, 0, &got, &y, &ny, &why), -1);
		CHECK(y == NULL && strstr(why, "already uses transform feedback"));
		/* cut short: refused, no crash */
		CHECK_EQ(llct_spirv_xfb(x, n - 3, "main", NULL, 0, &got, &y, &ny, &why), -1);
		CHECK_EQ(llct_spirv_xfb(x, n, "nope", NULL, 0, &got, &y, &ny, &why), -1);
		free(x);
	}
	/* fragment stages: what they may do, and no rewrite */
	uint32_t *x = NULL;
	size_t n = 0;
	const char *why = "";
	CHECK_EQ(llct_spirv_info(spv_discard_frag, N(spv_discard_frag), NULL, &info), 0);
	CHECK(info.model == SpvExecutionModelFragment && info.discards && info.writes_depth);
	CHECK_EQ(llct_spirv_info(spv_tri_frag, N(spv_tri_frag), "main", &info), 0);
	CHECK(!info.discards && !info.writes_depth && !info.has_position);
	uint32_t got;
	CHECK_EQ(llct_spirv_xfb(spv_tri_frag, N(spv_tri_frag), "main", NULL, 0, &got, &x, &n, &why),
		 -1);
	CHECK(strstr(why, "not a last pre-rasterization stage") != NULL);
	CHECK_EQ(llct_spirv_info(NULL, 0, "main", &info), -1);
}

/* Textures sampled straight at an interpolated input, and the vertex side capturing it. */
static void test_tex_inputs(void)
{
	struct llct_spirv_tex t[8];
	/* sample.frag: texture(tex, uv) -- direct, input 0, components 0 and 1 */
	CHECK_EQ(llct_spirv_tex_inputs(spv_sample_frag, N(spv_sample_frag), t, 8), 1);
	CHECK(t[0].set == 0 && t[0].binding == 0 && t[0].direct && t[0].location == 0 &&
	      t[0].c0 == 0 && t[0].c1 == 1);
	/* texcalc.frag: a computed coordinate (binding 0), a swizzle (binding 1), a dependent
	   read (binding 2, at what binding 1 returned), one image sampled two ways (binding 3) */
	CHECK_EQ(llct_spirv_tex_inputs(spv_texcalc_frag, N(spv_texcalc_frag), t, 8), 4);
	for (int k = 0; k < 4; k++) {
		CHECK_EQ(t[k].binding, k);
		CHECK_EQ(t[k].direct, k == 1);
	}
	CHECK(t[1].location == 1 && t[1].c0 == 3 && t[1].c1 == 2);
	/* tri.frag declares a texture and never samples it */
	CHECK_EQ(llct_spirv_tex_inputs(spv_tri_frag, N(spv_tri_frag), t, 8), 0);
	CHECK_EQ(llct_spirv_tex_inputs(spv_tri_frag, 4, t, 8), -1);
	/* fullscreen.vert writes uv at Location 0: captured after Position, stride 32 */
	uint32_t loc[2] = {0, 5}, got = 0, *x = NULL;
	size_t n = 0;
	const char *why = "";
	CHECK_EQ(llct_spirv_xfb(spv_fullscreen_vert, N(spv_fullscreen_vert), "main", loc, 2, &got,
				&x, &n, &why),
		 0);
	CHECK_EQ(got, 1); /* nothing at Location 5 */
	CHECK(x && valid(x, n));
	CHECK_EQ(has(x, n, SpvOpDecorate, 2, SpvDecorationXfbStride), 2);
	int stride48 = 0;
	for (size_t i = 5; x && i < n; i += x[i] >> 16)
		stride48 |= (x[i] & 0xffff) == SpvOpDecorate &&
			    x[i + 2] == SpvDecorationXfbStride && x[i + 3] != 48;
	CHECK(!stride48); /* 16 * (1 + 2 locations) */
	free(x);
}

int main(void)
{
	test_xfb();
	test_tex_inputs();
	uint64_t used[8];

	/* the test programs' shaders */
	bindings(spv_sample_frag, N(spv_sample_frag), used);
	CHECK(nothing_but(used, 0, 1)); /* samples set 0, binding 0 */
	bindings(spv_shadow_frag, N(spv_shadow_frag), used);
	CHECK(nothing_but(used, 0, 1));
	bindings(spv_double_comp, N(spv_double_comp), used);
	CHECK(nothing_but(used, 0, 1));
	bindings(spv_double_texel_comp, N(spv_double_texel_comp), used);
	CHECK(nothing_but(used, 0, 1));
	bindings(spv_tri_frag, N(spv_tri_frag), used);
	CHECK(nothing_but(used, 0, 0)); /* declares set 0 binding 0, never reads it */
	bindings(spv_fullscreen_vert, N(spv_fullscreen_vert), used);
	CHECK(nothing_but(used, 0, 0)); /* declares nothing */
	/* DrawIndex (4426): declared by the shader that reads gl_DrawID only; VertexIndex (42)
	   by both; a module that cannot be read counts as declaring it */
	CHECK(llct_spirv_has_builtin(spv_drawid_vert, N(spv_drawid_vert), 4426));
	CHECK(!llct_spirv_has_builtin(spv_fullscreen_vert, N(spv_fullscreen_vert), 4426));
	CHECK(llct_spirv_has_builtin(spv_fullscreen_vert, N(spv_fullscreen_vert), 42));
	CHECK(llct_spirv_has_builtin(spv_fullscreen_vert, 3, 4426));

	/* a module made by hand: the loaded variable counts, the one whose id is only a
	 * literal does not */
	uint32_t w[128];
	size_t n = handmade(w);
	bindings(w, n, used);
	CHECK(nothing_but(used, 1, (uint64_t)1 << 3));
	/* cut short inside the function: every declared binding counts */
	bindings(w, n - 3, used);
	CHECK(used[1] == (uint64_t)1 << 3 && used[0] == (uint64_t)1 << 5);
	/* an instruction of length 0: the same */
	uint32_t z[128];
	memcpy(z, w, n * sizeof(*w));
	z[n - 2] = 0; /* OpReturn's word */
	bindings(z, n, used);
	CHECK(used[1] == (uint64_t)1 << 3 && used[0] == (uint64_t)1 << 5);
	/* an instruction running past the end: the same */
	z[n - 2] = (uint32_t)200 << 16 | SpvOpReturn;
	bindings(z, n, used);
	CHECK(used[1] == (uint64_t)1 << 3 && used[0] == (uint64_t)1 << 5);

	/* not SPIR-V, too short, or an absurd id bound: all bindings */
	bindings(w, 4, used);
	CHECK(all_ones(used));
	memcpy(z, w, n * sizeof(*w));
	z[0] = 0x03022307; /* the magic number byte-swapped */
	bindings(z, n, used);
	CHECK(all_ones(used));
	z[0] = SpvMagicNumber;
	z[3] = 0xffffffffu;
	bindings(z, n, used);
	CHECK(all_ones(used));
	bindings(NULL, 0, used);
	CHECK(all_ones(used));

	/* decorations out of range are ignored, not written past used[] */
	memcpy(z, w, n * sizeof(*w));
	z[13] = 9;  /* DescriptorSet 9 of %10 */
	z[17] = 64; /* Binding 64 of %10 */
	bindings(z, n, used);
	CHECK(nothing_but(used, 0, 0));
	return check_done("spirv");
}

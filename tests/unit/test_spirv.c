/* test_spirv.c - the capture layer's SPIR-V reader (capture/spirv.c) on the test programs'
 * shaders, compiled by glslangValidator at build time, and on modules broken by hand: used
 * bindings found, declared-but-unused ones left out, literals not taken for ids, and anything
 * malformed read as "count more", never a crash. */
#include "check.h"
#include "spirv.h"

#include <spirv/unified1/spirv.h>
#include <string.h>

#include "double.comp.h"
#include "double_texel.comp.h"
#include "fullscreen.vert.h"
#include "sample.frag.h"
#include "shadow.frag.h"
#include "tri.frag.h"

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

int main(void)
{
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

/* fuzz_spirv.c - libFuzzer target for the capture layer's SPIR-V reader, tier 2's
 * transform-feedback rewrite and tier 3's buffer instrumentation: any bytes, read as words,
 * give an answer without a crash or a read past the input, the same answer twice; a rewrite,
 * when there is one, is the input with words inserted (never fewer) and is itself refused a
 * second rewrite; an instrumented copy of a module SPIRV-Tools' validator accepts is accepted
 * too, with and without the subgroup reservation and coalescing (the seeds are the test programs'
 * shaders, so mutations stay near valid modules). */
#include "spirv.h"

#include <spirv-tools/libspirv.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / 4;
	uint32_t *w = malloc((n ? n : 1) * sizeof(*w)); /* exactly the input: ASan sees overruns */
	uint64_t a[8], b[8];
	if (!w)
		return 0;
	memcpy(w, data, n * 4);
	llct_spirv_bindings(w, n, a);
	llct_spirv_bindings(w, n, b);
	if (memcmp(a, b, sizeof(a)))
		abort();
	if (llct_spirv_has_builtin(w, n, 4426) != llct_spirv_has_builtin(w, n, 4426))
		abort();
	struct llct_spirv_info info;
	llct_spirv_info(w, n, NULL, &info);
	uint32_t *x = NULL, *y = NULL;
	size_t nx = 0, ny = 0;
	const char *why = NULL;
	uint32_t locs[2] = {0, 1}, got;
	struct llct_spirv_tex tex[4];
	llct_spirv_tex_inputs(w, n, tex, 4);
	if (llct_spirv_xfb(w, n, NULL, locs, 2, &got, &x, &nx, &why) == 0) {
		if (nx <= n || llct_spirv_xfb(x, nx, NULL, locs, 2, &got, &y, &ny, &why) == 0)
			abort();
	} else if (!why || x) {
		abort();
	}
	free(x);
	free(y);
	/* each lane's atomic, a subgroup's one, and coalesced (an SM tile of 16 pixels) with runs
	   of a 64-byte line */
	static const int flags[3] = {0, LLCT_SPIRV_SUBGROUP_FRAGMENT | LLCT_SPIRV_SUBGROUP_COMPUTE,
				     LLCT_SPIRV_SUBGROUP_FRAGMENT | LLCT_SPIRV_SUBGROUP_COMPUTE |
					 LLCT_SPIRV_SUBGROUP_VERTEX | LLCT_SPIRV_COALESCE |
					 LLCT_SPIRV_TILE_SHIFT(4) | LLCT_SPIRV_RUN_WINDOW(6)};
	for (int f = 0; f < 3; f++) {
		struct llct_spirv_instr ins;
		if (llct_spirv_instrument_ex(w, n, 7, 0, flags[f], &ins) == 0) {
			static spv_context ctx;
			if (!ctx)
				ctx = spvContextCreate(SPV_ENV_VULKAN_1_2);
			if (ins.n_words < n)
				abort();
			if (spvValidateBinary(ctx, w, n, NULL) == SPV_SUCCESS &&
			    spvValidateBinary(ctx, ins.words, ins.n_words, NULL) != SPV_SUCCESS)
				abort(); /* a valid module made invalid */
			llct_spirv_instr_free(&ins);
		} else if (!ins.why) {
			abort();
		}
	}
	free(w);
	return 0;
}

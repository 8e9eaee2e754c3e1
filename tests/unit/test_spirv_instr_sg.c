/* test_spirv_instr_sg.c - tier 3's subgroup reservation and coalescing
 * (capture/01-base/spirv_instr_sg.c, spirv_instr_co.c): every fragment, compute and vertex test
 * shader,
 * instrumented with a subgroup's records taking one atomic, with coalescing, and by device
 * address, passes SPIRV-Tools' validator as SPIR-V 1.3 at least, with the same sites as without;
 * each record takes its room through one subgroup reservation except the one in a loop header
 * (sg_flow.frag optimized), which keeps a lane's atomic; a module that demotes lanes
 * (sg_demote.frag) asks OpIsHelperInvocationEXT; coalescing reads the draw's slot and
 * marks the sites it coalesces (samples, fetches, explicit levels; not gradients). That the
 * records themselves are the same, access for access after the SM's caches, is checked on the
 * device by tests/cli/test_coalesce.sh. */
#include "check.h"
#include "spirv.h"
#include "spv_valid.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>
#include <string.h>

#include "bindless.comp.h"
#include "blur.frag.h"
#include "color.frag.h"
#include "depth.frag.h"
#include "discard.frag.h"
#include "double.comp.h"
#include "drawid.vert.h"
#include "fullscreen.vert.h"
#include "gbuf.frag.h"
#include "image.comp.h"
#include "image_sampled.comp.h"
#include "instr.comp.h"
#include "instr15.comp.h"
#include "light.frag.h"
#include "sample.comp.h"
#include "sample.frag.h"
#include "sample6.frag.h"
#include "sample_heap.frag.h"
#include "samplers.frag.h"
#include "sg_demote.frag.h"
#include "sg_flow.frag.h"
#include "sg_flow_os.frag.h"
#include "shadow.frag.h"
#include "tex.vert.h"
#include "texcalc.frag.h"
#include "ubo.vert.h"
#include "ubo_arr.vert.h"
#include "ubo_novi.vert.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SG (LLCT_SPIRV_SUBGROUP_FRAGMENT | LLCT_SPIRV_SUBGROUP_COMPUTE | LLCT_SPIRV_SUBGROUP_VERTEX)
#define CO (SG | LLCT_SPIRV_COALESCE | LLCT_SPIRV_TILE_SHIFT(4))

/* Instructions op in a module (the subgroup's reservations: OpGroupNonUniformIAdd Reduce, one
 * each). */
static unsigned count(const uint32_t *w, size_t n, uint32_t op, int reduce)
{
	unsigned k = 0;
	for (size_t i = 5; i < n; i += w[i] >> 16)
		k += (w[i] & 0xffff) == op && (!reduce || w[i + 4] == SpvGroupOperationReduce);
	return k;
}

static const struct mod {
	const char *name;
	const uint32_t *w;
	size_t size;
} mods[] = {
#define M(x, s)                                                                                    \
	{                                                                                          \
		x, s, sizeof(s)                                                                    \
	}
    M("bindless.comp", spv_bindless_comp),
    M("blur.frag", spv_blur_frag),
    M("color.frag", spv_color_frag),
    M("depth.frag", spv_depth_frag),
    M("discard.frag", spv_discard_frag),
    M("double.comp", spv_double_comp),
    M("gbuf.frag", spv_gbuf_frag),
    M("image.comp", spv_image_comp),
    M("image_sampled.comp", spv_image_sampled_comp),
    M("instr.comp", spv_instr_comp),
    M("instr.comp (SPIR-V 1.5)", spv_instr15_comp),
    M("light.frag", spv_light_frag),
    M("sample.comp", spv_sample_comp),
    M("sample.frag", spv_sample_frag),
    M("sample6.frag", spv_sample6_frag),
    M("sample_heap.frag", spv_sample_heap_frag),
    M("samplers.frag", spv_samplers_frag),
    M("sg_demote.frag", spv_sg_demote_frag),
    M("sg_flow.frag", spv_sg_flow_frag),
    M("sg_flow.frag (-Os)", spv_sg_flow_os_frag),
    M("shadow.frag", spv_shadow_frag),
    M("texcalc.frag", spv_texcalc_frag),
    M("drawid.vert", spv_drawid_vert),
    M("fullscreen.vert", spv_fullscreen_vert),
    M("tex.vert", spv_tex_vert),
    M("ubo.vert", spv_ubo_vert),
    M("ubo_arr.vert", spv_ubo_arr_vert),
    M("ubo_novi.vert", spv_ubo_novi_vert),
#undef M
};

static void validates(void)
{
	static const int flags[3] = {SG, CO, CO | LLCT_SPIRV_BY_ADDRESS};
	for (size_t m = 0; m < N(mods); m++) {
		struct llct_spirv_instr plain;
		size_t nw = mods[m].size / 4;
		if (llct_spirv_instrument(mods[m].w, nw, 5, 0, &plain)) {
			CHECK_MSG(0, "%s: %s", mods[m].name, plain.why);
			continue;
		}
		/* the records: the atomics the plain pass added to the shader's own */
		unsigned atomics = count(plain.words, plain.n_words, SpvOpAtomicIAdd, 0),
			 own = count(mods[m].w, nw, SpvOpAtomicIAdd, 0);
		for (int f = 0; f < 3; f++) {
			struct llct_spirv_instr r;
			char what[96];
			snprintf(what, sizeof(what), "%s, flags %#x", mods[m].name, flags[f]);
			if (llct_spirv_instrument_ex(mods[m].w, nw, 5, 0, flags[f], &r)) {
				CHECK_MSG(0, "%s: %s", what, r.why);
				continue;
			}
			CHECK_MSG(spv_valid(r.words, r.n_words, SPV_ENV_VULKAN_1_2, what),
				  "%s: instrumented module invalid", what);
			CHECK_MSG(r.words[1] >= 0x10300, "%s: SPIR-V %#x", what, r.words[1]);
			CHECK_MSG(r.n_sites == plain.n_sites && r.skipped == plain.skipped,
				  "%s: %zu sites, %u skipped (plain %zu, %u)", what, r.n_sites,
				  r.skipped, plain.n_sites, plain.skipped);
			/* one reservation a record, the atomics the same in number */
			unsigned res = count(r.words, r.n_words, SpvOpGroupNonUniformIAdd, 1);
			unsigned at = count(r.words, r.n_words, SpvOpAtomicIAdd, 0);
			unsigned in_header = mods[m].w == spv_sg_flow_os_frag;
			CHECK_MSG(at == atomics && res + in_header + own == atomics,
				  "%s: %u atomics (plain %u), %u reservations", what, at, atomics,
				  res);
			llct_spirv_instr_free(&r);
		}
		llct_spirv_instr_free(&plain);
	}
}

/* sg_flow.frag: which sites coalesce, and that coalescing reads binding 1's slot words. */
static void coalesced_sites(void)
{
	struct llct_spirv_instr r;
	CHECK(llct_spirv_instrument_ex(spv_sg_flow_frag, N(spv_sg_flow_frag), 5, 0, CO, &r) == 0);
	unsigned samples = 0, co = 0, fetch_co = 0;
	for (size_t s = 0; s < r.n_sites; s++) {
		const struct llct_spirv_site *st = &r.sites[s];
		if (st->kind >= LLCT_SPIRV_SAMPLE && st->kind <= LLCT_SPIRV_GATHER)
			samples++, co += !!st->coalesce;
		fetch_co += st->kind == LLCT_SPIRV_FETCH && st->coalesce;
		CHECK_MSG(!st->coalesce || st->coalesce == co,
			  "site %zu reads slot word %u, want %u", s, st->coalesce,
			  co); /* in order: 1, 2, ... */
		CHECK_MSG(!st->coalesce || (!st->grad && !st->prefix), "site %zu coalesces", s);
	}
	/* two samples, the fetch and the explicit level: all four */
	CHECK_EQ(samples, 4);
	CHECK_EQ(co, 4);
	CHECK_EQ(fetch_co, 1);
	/* the slot: binding 1 is a block {uint draw; uint sites[15]} */
	int found = 0;
	for (size_t i = 5; i < r.n_words; i += r.words[i] >> 16)
		found |= (r.words[i] & 0xffff) == SpvOpMemberDecorate && r.words[i + 2] == 1 &&
			 r.words[i + 3] == SpvDecorationOffset && r.words[i + 4] == 4;
	CHECK(found);
	/* without a tile the fragments' records are not coalesced: no site says so */
	struct llct_spirv_instr t;
	CHECK(llct_spirv_instrument_ex(spv_sg_flow_frag, N(spv_sg_flow_frag), 5, 0,
				       SG | LLCT_SPIRV_COALESCE, &t) == 0);
	for (size_t s = 0; s < t.n_sites; s++)
		CHECK_MSG(!t.sites[s].coalesce, "site %zu coalesces without a tile", s);
	llct_spirv_instr_free(&t);
	llct_spirv_instr_free(&r);
	/* a module that demotes: helpers asked after the demotion, no HelperInvocation added */
	CHECK(llct_spirv_instrument_ex(spv_sg_demote_frag, N(spv_sg_demote_frag), 5, 0, CO, &r) ==
	      0);
	CHECK(count(r.words, r.n_words, SpvOpIsHelperInvocationEXT, 0) >= 2);
	for (size_t i = 5; i < r.n_words; i += r.words[i] >> 16)
		CHECK_MSG((r.words[i] & 0xffff) != SpvOpDecorate ||
			      r.words[i + 2] != SpvDecorationBuiltIn ||
			      r.words[i + 3] != SpvBuiltInHelperInvocation,
			  "HelperInvocation declared in a module that demotes");
	llct_spirv_instr_free(&r);
}

int main(void)
{
	validates();
	coalesced_sites();
	return check_done("test_spirv_instr_sg");
}

/* test_spirv_instr_run.c - tier 3's runs (capture/01-base/spirv_instr_run.c): in a shader that
 * reads its uniforms a component at a time (words.vert, words.frag, as Zink compiles them) the
 * constant-offset loads of one buffer one after the other in a block become one record, the
 * first's, whose site stands for the ones after it (run, follows, off); a load in another block,
 * or past the window's bytes, starts a run of its own; compute modules have them too
 * (words.comp) where their loads allow (instr.comp's do not); the modules
 * stay valid with each lane's atomic, a subgroup's, coalesced and by device address. That the
 * LLC records are the same with and without runs is checked on the device by
 * tests/cli/test_coalesce.sh. */
#include "check.h"
#include "spirv.h"
#include "spv_valid.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>
#include <string.h>

#include "instr.comp.h"
#include "sg_flow.frag.h"
#include "words.comp.h"
#include "words.frag.h"
#include "words.vert.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SG (LLCT_SPIRV_SUBGROUP_FRAGMENT | LLCT_SPIRV_SUBGROUP_COMPUTE | LLCT_SPIRV_SUBGROUP_VERTEX)
#define CO (SG | LLCT_SPIRV_COALESCE | LLCT_SPIRV_TILE_SHIFT(4))
#define RUN64 LLCT_SPIRV_RUN_WINDOW(6)

static unsigned atomics(const struct llct_spirv_instr *r)
{
	unsigned k = 0;
	for (size_t i = 5; i < r->n_words; i += r->words[i] >> 16)
		k += (r->words[i] & 0xffff) == SpvOpAtomicIAdd;
	return k;
}

/* The runs of r as "lead+run" per lead, checking that each follower follows its lead: its
 * site next in number, flagged, and its bytes with the lead's within window bytes. */
static void runs_of(const struct llct_spirv_instr *r, uint32_t window, char *out, size_t size)
{
	out[0] = 0;
	for (size_t s = 0; s < r->n_sites; s++) {
		const struct llct_spirv_site *st = &r->sites[s];
		if (st->follows)
			continue;
		uint32_t lo = st->off, hi = st->off + st->size;
		for (uint32_t j = 1; j <= st->run; j++) {
			CHECK_MSG(s + j < r->n_sites && r->sites[s + j].follows,
				  "site %zu: follower %u not flagged", s, j);
			if (s + j >= r->n_sites)
				break;
			const struct llct_spirv_site *f = &r->sites[s + j];
			lo = f->off < lo ? f->off : lo;
			hi = f->off + f->size > hi ? f->off + f->size : hi;
			CHECK_MSG(f->set == st->set && f->binding == st->binding &&
				      f->element == st->element && f->kind == LLCT_SPIRV_LOAD,
				  "site %zu: follower %u of another buffer", s, j);
		}
		CHECK_MSG(hi - lo <= window, "site %zu: run over %u bytes", s, hi - lo);
		snprintf(out + strlen(out), size - strlen(out), "%s%u@%u+%u", out[0] ? " " : "",
			 (unsigned)s, st->off, st->run);
	}
}

static void words(void)
{
	char got[256];
	struct llct_spirv_instr r, plain;
	/* the vertex shader: the matrix (bytes 16..79, 16 loads), then the scale (byte 0: past
	   the matrix's 64-byte window, a run of its own), the factor (byte 192: another), then
	   the tint in a branch (another block) */
	CHECK(llct_spirv_instrument_ex(spv_words_vert, N(spv_words_vert), 5, 0, 0, &plain) == 0);
	CHECK(llct_spirv_instrument_ex(spv_words_vert, N(spv_words_vert), 5, 0, RUN64, &r) == 0);
	CHECK_EQ(r.n_sites, plain.n_sites);
	CHECK_EQ(r.n_sites, 19);
	runs_of(&r, 64, got, sizeof(got));
	CHECK_MSG(!strcmp(got, "0@16+15 16@0+0 17@192+0 18@84+0"), "words.vert runs: %s", got);
	for (uint32_t j = 0; j < 16; j++)
		CHECK_MSG(r.sites[j].off == 16 + 4 * j, "matrix load %u at %u", j, r.sites[j].off);
	CHECK_EQ(atomics(&r), 4);
	CHECK_EQ(atomics(&plain), 19);
	CHECK(spv_valid(r.words, r.n_words, SPV_ENV_VULKAN_1_2, "words.vert runs"));
	llct_spirv_instr_free(&r);
	/* a 32-byte window: the matrix in two runs of eight */
	CHECK(llct_spirv_instrument_ex(spv_words_vert, N(spv_words_vert), 5, 0,
				       LLCT_SPIRV_RUN_WINDOW(5), &r) == 0);
	runs_of(&r, 32, got, sizeof(got));
	CHECK_MSG(!strcmp(got, "0@16+7 8@48+7 16@0+0 17@192+0 18@84+0"), "words.vert, 32 bytes: %s",
		  got);
	llct_spirv_instr_free(&r);
	/* four lines' bytes (the layer's window with 64-byte lines): the matrix, the scale and
	   the factor in one run, bytes 0..195 */
	CHECK(llct_spirv_instrument_ex(spv_words_vert, N(spv_words_vert), 5, 0,
				       LLCT_SPIRV_RUN_WINDOW(8), &r) == 0);
	runs_of(&r, 256, got, sizeof(got));
	CHECK_MSG(!strcmp(got, "0@16+17 18@84+0"), "words.vert, 256 bytes: %s", got);
	CHECK_EQ(atomics(&r), 2);
	llct_spirv_instr_free(&r);
	llct_spirv_instr_free(&plain);
	/* the fragment shader: the colour (4 loads), the scale in a branch (2 loads, a run of
	   their own though their bytes are next to the colour's) */
	CHECK(llct_spirv_instrument_ex(spv_words_frag, N(spv_words_frag), 5, 0, RUN64, &r) == 0);
	runs_of(&r, 64, got, sizeof(got));
	CHECK_MSG(!strcmp(got, "0@160+3 4@176+1"), "words.frag runs: %s", got);
	CHECK_EQ(atomics(&r), 2);
	llct_spirv_instr_free(&r);
	/* valid every way, the runs the same */
	static const int flags[3] = {SG | RUN64, CO | RUN64, CO | RUN64 | LLCT_SPIRV_BY_ADDRESS};
	for (int f = 0; f < 3; f++)
		for (int m = 0; m < 2; m++) {
			const uint32_t *w = m ? spv_words_frag : spv_words_vert;
			size_t n = m ? N(spv_words_frag) : N(spv_words_vert);
			char what[64];
			snprintf(what, sizeof(what), "words.%s, flags %#x", m ? "frag" : "vert",
				 flags[f]);
			CHECK(llct_spirv_instrument_ex(w, n, 5, 0, flags[f], &r) == 0);
			CHECK_MSG(spv_valid(r.words, r.n_words, SPV_ENV_VULKAN_1_2, what),
				  "%s: invalid", what);
			runs_of(&r, 64, got, sizeof(got));
			CHECK_MSG(
			    !strcmp(got, m ? "0@160+3 4@176+1" : "0@16+15 16@0+0 17@192+0 18@84+0"),
			    "%s: runs %s", what, got);
			llct_spirv_instr_free(&r);
		}
}

/* Compute modules: words.comp's matrix and scale in one run, its store a record of its own;
 * instr.comp's loads (a dynamic index, a single uniform word) make no run. */
static void compute(void)
{
	char got[128];
	struct llct_spirv_instr r;
	CHECK(llct_spirv_instrument_ex(spv_words_comp, N(spv_words_comp), 5, 0,
				       LLCT_SPIRV_RUN_WINDOW(8), &r) == 0);
	runs_of(&r, 256, got, sizeof(got));
	CHECK_MSG(!strcmp(got, "0@16+16 17@0+0"), "words.comp runs: %s", got);
	CHECK_EQ(atomics(&r), 2);
	CHECK(spv_valid(r.words, r.n_words, SPV_ENV_VULKAN_1_2, "words.comp runs"));
	llct_spirv_instr_free(&r);
	CHECK(llct_spirv_instrument_ex(spv_words_comp, N(spv_words_comp), 5, 0,
				       CO | LLCT_SPIRV_RUN_WINDOW(8), &r) == 0);
	CHECK(spv_valid(r.words, r.n_words, SPV_ENV_VULKAN_1_2, "words.comp runs, coalesced"));
	llct_spirv_instr_free(&r);
	CHECK(llct_spirv_instrument_ex(spv_instr_comp, N(spv_instr_comp), 5, 0, RUN64, &r) == 0);
	for (size_t s = 0; s < r.n_sites; s++)
		CHECK_MSG(!r.sites[s].run && !r.sites[s].follows, "instr.comp site %zu in a run",
			  s);
	llct_spirv_instr_free(&r);
	CHECK(llct_spirv_instrument_ex(spv_sg_flow_frag, N(spv_sg_flow_frag), 5, 0, CO | RUN64,
				       &r) == 0);
	CHECK(spv_valid(r.words, r.n_words, SPV_ENV_VULKAN_1_2, "sg_flow.frag runs"));
	llct_spirv_instr_free(&r);
}

int main(void)
{
	words();
	compute();
	return check_done("test_spirv_instr_run");
}
